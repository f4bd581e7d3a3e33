"""Self-play: bots that play complete deals and matches under any ruleset.

The simulator is the source of test data, benchmark data and generated
samples, so the same seed always gives the same deals; each preset plays its
own stream of deals from a seed (:func:`stream_seed`), so two presets never
share their hands.

>>> from tutepgn.rules import preset
>>> deals = list(simulate_deals(preset("playcard-2p"), 2, seed=5))
>>> [d.over for d in deals]
[True, True]
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Iterator
from typing import Literal

from ..engine import Deal
from ..events import Action, Cante, Exchange, Play, Tute
from ..match import Match
from ..policy import choose
from ..notation import SEAT_TAGS, Record
from ..rules import Ruleset

Bot = Callable[[Deal, random.Random], Action]
BotName = Literal["random", "greedy", "heuristic"]


def random_bot(deal: Deal, rng: random.Random) -> Action:
    """Pick uniformly among every legal action, declarations included."""
    return rng.choice(deal.legal_actions())


def greedy_bot(deal: Deal, rng: random.Random) -> Action:
    """Declare whenever allowed (tute, then the 40, then a 20, then an exchange); else a random legal card."""
    return greedy_choice(deal.legal_actions(), deal.trump, rng)


def greedy_choice(actions: list[Action], trump: int, rng: random.Random) -> Action:
    """The greedy bot's pick among ``actions`` (the play layer's bots pass one seat's own actions)."""
    declarations = [a for a in actions if type(a) is not Play]
    if declarations:
        def rank(a: Action) -> tuple[int, int]:
            if isinstance(a, Tute):
                return (0, 0)
            if isinstance(a, Cante):
                return (1, 0 if a.suit == trump else 1)
            assert isinstance(a, Exchange)
            return (2, 0)
        return min(declarations, key=rank)
    return rng.choice(actions)


def heuristic_bot(deal: Deal, rng: random.Random) -> Action:
    """A decent club player: :func:`tutepgn.policy.choose` (deterministic; ``rng`` is not used)."""
    return choose(deal)


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "heuristic": heuristic_bot}


def stream_seed(rules: Ruleset, seed: int) -> int:
    """The seed of the random stream of ``rules``' simulated deals: ``seed`` mixed with the name of its preset
    (its CRC-32, the same on every run and machine: Python's ``hash()`` of a text is not), so presets get other
    hands from one seed, and a preset with overrides its preset's (the same hands under other options).

    The mix is ``seed ^ (crc << 32)``, its own inverse: the stream a seed gave before presets were mixed in
    (``random.Random(S)``) is that of seed ``stream_seed(rules, S)``.

    >>> from tutepgn.rules import preset
    >>> stream_seed(preset("torofun-4p"), 0) != stream_seed(preset("ludoteka-pairs"), 0)
    True
    >>> stream_seed(preset("playcard-2p"), stream_seed(preset("playcard-2p"), 7))
    7
    """
    return seed ^ (zlib.crc32(rules.preset.encode("utf-8")) << 32)


def play_out(deal: Deal, bot: Bot, rng: random.Random) -> Deal:
    """Let ``bot`` play every seat until the deal is over."""
    while not deal.over:
        deal.apply(bot(deal, rng))
    return deal


def _bot(bot: BotName | Bot) -> Bot:
    """A bot by its name here, or one given (the play layer's bots, :func:`tutepgn.play.bots.simulator_bot`)."""
    return BOTS[bot] if isinstance(bot, str) else bot


def simulate_deals(rules: Ruleset, count: int, seed: int = 0, bot: BotName | Bot = "greedy") -> Iterator[Deal]:
    """Play ``count`` independent deals; the dealer moves one seat each deal."""
    rng = random.Random(stream_seed(rules, seed))
    choose = _bot(bot)
    for i in range(count):
        yield play_out(Deal.shuffled(rules, rng, dealer=i % rules.players), choose, rng)


def simulate_matches(rules: Ruleset, count: int, seed: int = 0,
                     bot: BotName | Bot = "greedy") -> Iterator[tuple[Match, list[Deal]]]:
    """Play ``count`` complete matches; yield each match with its deals."""
    rng = random.Random(stream_seed(rules, seed))
    choose = _bot(bot)
    for _ in range(count):
        match = Match(rules, seed=rng.randrange(2**32))
        deals = []
        while not match.over:
            deal = play_out(match.next_deal(), choose, rng)
            match.record(deal)
            deals.append(deal)
        yield match, deals


PLAYERS = ("Ana", "Bruno", "Carmen", "Diego", "Elena", "Fermín", "Gloria", "Hugo", "Inés", "Julián",
           "Lucía", "Manuel")
"""Names the simulator seats players under, so that generated archives have players to search for."""


def _table_tags(rules: Ruleset, rng: random.Random, event: str) -> dict[str, str]:
    """Seeded names for the seats, a date in 2025-2026 and a site, for a simulated table."""
    names = rng.sample(PLAYERS, rules.players)
    tags = {"Event": event, "Site": "tutepgn simulator",
            "Date": f"{rng.choice((2025, 2026))}.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}"}
    tags.update({SEAT_TAGS[letter]: name for letter, name in zip(rules.seat_names, names)})
    return tags


def deal_records(rules: Ruleset, count: int, seed: int = 0, bot: BotName | Bot = "greedy") -> Iterator[Record]:
    """Records of ``count`` independent simulated deals."""
    rng = random.Random(stream_seed(rules, seed))
    choose = _bot(bot)
    for i in range(count):
        tags = _table_tags(rules, rng, "Simulated deals")
        tags["Round"] = str(i + 1)
        deal = play_out(Deal.shuffled(rules, rng, dealer=i % rules.players), choose, rng)
        yield Record.from_deal(deal, tags)


def match_records(rules: Ruleset, count: int, seed: int = 0, bot: BotName | Bot = "greedy") -> Iterator[Record]:
    """Records of every deal of ``count`` simulated matches, with the match tags."""
    rng = random.Random(stream_seed(rules, seed))
    choose = _bot(bot)
    for m in range(count):
        tags = _table_tags(rules, rng, "Simulated match")
        match = Match(rules, seed=rng.randrange(2**32))
        match_id = f"sim-{seed}-{m + 1}"
        while not match.over:
            standing = list(match.standing)
            deal = play_out(match.next_deal(), choose, rng)
            match.record(deal)
            deal_tags = dict(tags, Round=str(match.deal_no), Match=match_id, DealNo=str(match.deal_no),
                             MatchTarget=str(match.target))
            yield Record.from_deal(deal, deal_tags, match_target=match.target, standing=standing)
