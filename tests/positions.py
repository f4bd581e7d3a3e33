"""Hand-written positions for rule tests: a deal from hands keyed by seat letter, and plays in a row.

Seats: 4 players 0=N 1=W 2=S 3=E (N/S side 0, W/E side 1); 3 players 0=N 1=W 2=E; 2 players 0=N 1=S.
"""

from __future__ import annotations

from typing import Any

from tutepgn import Deal, Ruleset, preset

ALL = ["ludoteka-pairs", "playcard-2p", "torofun-2p", "torofun-3p", "torofun-4p"]
PAIRS = ["ludoteka-pairs", "torofun-4p"]
LETTERS = {2: "NS", 3: "NWE", 4: "NWSE"}


def build(name: str | Ruleset, hands: dict[str, str], *, stock: str = "", turned: str = "5B",
          dealer: int | None = None, first_of_match: bool = False, **options: Any) -> Deal:
    """A deal from per-seat hands keyed by seat letter; the dealer defaults to the last seat (N is mano).

    For dealer_last rulesets the turned card must be in the dealer's hand; for 2-player rulesets it is
    put at the bottom of the stock.
    """
    rules = preset(name) if isinstance(name, str) else name
    if options:
        rules = rules.with_options(**options)
    n = rules.players
    seats = [hands[letter] for letter in LETTERS[n]]
    dealer = n - 1 if dealer is None else dealer
    if rules.trump_card == "stock_bottom":
        return Deal.from_hands(rules, seats, dealer=dealer, stock=f"{stock} {turned}".split(),
                               first_of_match=first_of_match)
    return Deal.from_hands(rules, seats, dealer=dealer, turned=turned, first_of_match=first_of_match)


def plays(deal: Deal, cards: str) -> None:
    """Play the cards in order, each by the seat to move."""
    for code in cards.split():
        deal.play(code)
