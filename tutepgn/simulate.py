"""Self-play: bots that play complete deals and matches under any ruleset.

The simulator is the source of test data, benchmark data and generated
samples, so the same seed always gives the same deals.

>>> from tutepgn.rules import preset
>>> deals = list(simulate_deals(preset("playcard-2p"), 2, seed=5))
>>> [d.over for d in deals]
[True, True]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Literal

from .cards import CODES, CardSet
from .engine import Action, Cante, Deal, Exchange, Match, Play, Tute
from .rules import Ruleset

Bot = Callable[[Deal, random.Random], Action]
BotName = Literal["random", "greedy"]


def random_bot(deal: Deal, rng: random.Random) -> Action:
    """Pick uniformly among every legal action, declarations included."""
    return rng.choice(deal.legal_actions())


def greedy_bot(deal: Deal, rng: random.Random) -> Action:
    """Declare whenever allowed (tute, then the 40, then a 20, then an exchange); else a random legal card."""
    actions = deal.legal_actions()
    declarations = [a for a in actions if type(a) is not Play]
    if declarations:
        def rank(a: Action) -> tuple[int, int]:
            if isinstance(a, Tute):
                return (0, 0)
            if isinstance(a, Cante):
                return (1, 0 if a.suit == deal.trump else 1)
            assert isinstance(a, Exchange)
            return (2, 0)
        return min(declarations, key=rank)
    return rng.choice(actions)


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}


def play_out(deal: Deal, bot: Bot, rng: random.Random) -> Deal:
    """Let ``bot`` play every seat until the deal is over."""
    while not deal.over:
        deal.apply(bot(deal, rng))
    return deal


def simulate_deals(rules: Ruleset, count: int, seed: int = 0, bot: BotName = "greedy") -> Iterator[Deal]:
    """Play ``count`` independent deals; the dealer moves one seat each deal."""
    rng = random.Random(seed)
    choose = BOTS[bot]
    for i in range(count):
        yield play_out(Deal.shuffled(rules, rng, dealer=i % rules.players), choose, rng)


def simulate_matches(rules: Ruleset, count: int, seed: int = 0,
                     bot: BotName = "greedy") -> Iterator[tuple[Match, list[Deal]]]:
    """Play ``count`` complete matches; yield each match with its deals."""
    rng = random.Random(seed)
    choose = BOTS[bot]
    for _ in range(count):
        match = Match(rules, seed=rng.randrange(2**32))
        deals = []
        while not match.over:
            deal = play_out(match.next_deal(), choose, rng)
            match.record(deal)
            deals.append(deal)
        yield match, deals


def action_text(deal: Deal, action: Action) -> str:
    """An action as ``SEAT WHAT``, e.g. ``N 1O``, ``E cante O``, ``S exchange 7B``."""
    return f"{deal.rules.seat_names[action.seat]} {action}"


def deal_to_json(deal: Deal, match_target: int | None = None) -> dict[str, object]:
    """A finished deal as plain JSON data: enough to replay it and its score sheet."""
    names = deal.rules.seat_names
    return {
        "rules": str(deal.rules),
        "dealer": names[deal.dealer],
        "first_of_match": deal.first_of_match,
        "hands": {names[s]: str(CardSet(m)) for s, m in enumerate(deal.initial_hands)},
        "stock": [CODES[c] for c in deal.initial_stock],
        "turned": CODES[deal.initial_turned],
        "actions": [action_text(deal, a) for a in deal.log],
        "score": deal.score(match_target).to_dict(names),
    }
