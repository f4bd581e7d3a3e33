"""The rollout's play-out in C (``native/playout.c``) against the Python one (the reference): the same ends.

Positions are reached by random legal actions (declarations included: cantes
pending, exchanges possible, tutes), at every point of a deal, under every
preset and under rulesets with other options; each position's worlds are
sampled as PIMC samples them (and the deal's own world is added), and every
legal card is played out by both backends.  The PIMC analysis of positions
with a long stock (its rollouts) must then be the same whichever backend
plays out.
"""

from __future__ import annotations

import math
import random

import pytest

from tutepgn import Deal, Exchange, Play, Tute, preset
from tutepgn.analysis.pimc import World, mover_knows_all, pimc_analysis, played_out, sample_worlds
from tutepgn.analysis.solve import C_AVAILABLE
from tutepgn.analysis.worlds import log_likelihood, weighted_worlds
from tutepgn.cards import BIT, SUITS, card
from tutepgn.events import Action
from tutepgn.native import ccore
from tutepgn.native.replayinput import KINDS, encode, options
from tutepgn.policy import TEMPERATURE, scores
from tutepgn.rules import PRESETS, Ruleset

pytestmark = pytest.mark.skipif(not C_AVAILABLE, reason="the C core was not built")

OTHER_OPTIONS: list[tuple[str, dict[str, object]]] = [
    ("ludoteka-pairs", {"must_undertrump": True, "beat_waived_when_trumped": False, "forfeit_unsung_cantes": True}),
    ("ludoteka-pairs", {"partner_winning_exempts": True, "forty_first": False, "tute_at_first_lead": True}),
    ("torofun-4p", {"must_beat": False, "must_overtrump": False, "cantes_per_trick": 2,
                    "cante_only_if_sung_at_first_win": True, "tute_blocked_by_earlier_cante": False}),
    ("torofun-3p", {"must_trump": False, "forfeit_unsung_cantes": False, "last_trick_bonus": 0, "cante_points": 25}),
    ("playcard-2p", {"free_play_while_stock": False, "exchange_two": True, "exchange_two_for": (1, 3, 12),
                     "declare_only_after_draw": True, "no_declare_with_last_drawn": True}),
    ("torofun-2p", {"exchange_at_first_lead": True, "must_follow": False, "tute_at_first_lead": True,
                    "cuarenta_points": 50}),
]
"""Rulesets whose options differ from the presets' (the play-out reads the rules through the replay's options)."""


def rulesets() -> list[Ruleset]:
    return list(PRESETS.values()) + [preset(name).with_options(**o) for name, o in OTHER_OPTIONS]


def positions(rules: Ruleset, count: int, seed: int) -> list[Deal]:
    """``count`` positions not over, each reached by random legal actions (a declaration taken half the times
    one is allowed) from a shuffled deal, stopping at a random point or, a fifth of the times, where a
    declaration is allowed."""
    rng = random.Random(seed)
    out: list[Deal] = []
    while len(out) < count:
        deal = Deal.shuffled(rules, rng.randrange(10**9), dealer=rng.randrange(rules.players))
        stop = rng.randrange(rules.deck_size)
        while not deal.over and len(deal.log) < stop:
            actions = deal.legal_actions()
            declarations = [a for a in actions if type(a) is not Play]
            if declarations and rng.random() < 0.2:
                break
            deal.apply(rng.choice(declarations if declarations and rng.random() < 0.5 else actions))
        if not deal.over and not deal.trick and rng.random() < 0.3:
            continue  # fewer leads, more positions within a trick
        if not deal.over:
            out.append(deal)
    return out


def worlds_of(deal: Deal, seed: int) -> list[World]:
    """The deal's own world and, when the mover cannot know all, 3 sampled ones (none when random actions left
    a history that no sampled world replays)."""
    own = World(tuple(deal.hands), tuple(deal.stock[deal.stock_pos:]))
    if mover_knows_all(deal):
        return [own]
    try:
        return [own] + sample_worlds(deal, 3, seed)
    except ValueError:
        return [own]


@pytest.mark.parametrize("rules", rulesets(), ids=lambda r: r.spec)
def test_the_c_play_out_ends_every_card_as_the_python_one(rules: Ruleset) -> None:
    compared = 0
    for i, deal in enumerate(positions(rules, 50, seed=len(rules.spec))):
        cards = sorted(deal.legal_plays())
        for world in worlds_of(deal, i):
            python = played_out(deal, world, cards, "python")
            assert played_out(deal, world, cards, "c") == python, (rules.spec, deal.log, world)
            compared += len(cards)
    assert compared >= 300


@pytest.mark.parametrize(("name", "actions"), [("playcard-2p", 0), ("playcard-2p", 5), ("torofun-2p", 8),
                                               ("torofun-3p", 4), ("torofun-4p", 9), ("ludoteka-pairs", 14)])
def test_pimc_rollouts_are_the_same_with_either_backend(name: str, actions: int) -> None:
    deal = Deal.shuffled(preset(name), seed=actions)
    rng = random.Random(actions)
    for _ in range(actions):
        deal.apply(rng.choice(deal.legal_actions()))
    for cantes in (False, True):
        c = pimc_analysis(deal, 8, seed=3, cantes=cantes, backend="c", hand_horizon=1, inference=True)
        assert c.method == "rollout"
        assert pimc_analysis(deal, 8, seed=3, cantes=cantes, backend="python", hand_horizon=1, inference=True) == c


def coded(action: Action) -> tuple[int, int, int]:
    """An action as the C core names it: (kind, seat, card or suit or rank)."""
    value = action.card if type(action) in (Play, Exchange) else getattr(action, "suit", getattr(action, "rank", -1))
    return KINDS.index(type(action)), action.seat, value


@pytest.mark.parametrize("rules", rulesets(), ids=lambda r: r.spec)
def test_the_c_play_model_scores_every_legal_action_as_the_python_one(rules: Ruleset) -> None:
    """The same legal actions in the same order, each with the same score to the last bit (a play-out can hide
    a score that is off but never decides a choice)."""
    kinds: set[type] = set()
    for deal in positions(rules, 150, seed=len(rules.spec) + 1):
        start = deal.restart()
        codes = encode(deal.log, rules.players)
        assert codes is not None
        c = ccore.policy_scores(options(rules), list(start.hands), list(start.stock), start.turn, start.trump, codes)
        python = [(*coded(a), s) for a, s in scores(deal).items()]
        assert c == python, (rules.spec, deal.log)
        kinds.update(type(a) for a in deal.legal_actions())
    assert Play in kinds and len(kinds) > 1  # some declaration allowed too


def test_both_tutes_of_one_hand_come_reyes_first() -> None:
    """A hand of the four reyes and the four caballos at the first lead (playcard-2p sings a tute there): the
    tutes in Deal.legal_actions's order, which a play-out seldom meets."""
    rules = preset("playcard-2p")
    deck = [card(rank, s) for s in SUITS for rank in (12, 11)]
    rest = [c for c in range(40) if c not in deck]
    deal = Deal.from_deck(rules, [x for pair in zip(deck, rest) for x in pair] + rest[len(deck):], dealer=0)
    assert deal.hands[deal.turn] == sum(BIT[c] for c in deck)
    c = ccore.policy_scores(options(rules), list(deal.hands), list(deal.stock), deal.turn, deal.trump, b"")
    python = [(*coded(a), s) for a, s in scores(deal).items()]
    assert c == python and [a for a in deal.legal_actions() if type(a) is Tute] == [Tute(1, 12), Tute(1, 11)]


@pytest.mark.parametrize("rules", rulesets(), ids=lambda r: r.spec)
def test_the_c_likelihood_of_a_world_is_the_python_one(rules: Ruleset) -> None:
    """The log-likelihood of the others' actions in each world (the inference's weights), to the last bit, at
    two temperatures and for another seat's view, and -inf alike for a world whose history does not replay."""
    compared = 0
    for i, deal in enumerate(positions(rules, 25, seed=len(rules.spec) + 2)):
        for world in worlds_of(deal, i):
            for seat, temperature in ((None, TEMPERATURE), ((deal.turn + 1) % rules.players, 1.5)):
                python = log_likelihood(deal, world, seat, temperature, "python")
                assert log_likelihood(deal, world, seat, temperature, "c") == python, (rules.spec, deal.log, world)
                compared += python > -math.inf
        if deal.tricks:  # the hands of two seats swapped: their plays so far seldom all stay legal
            hands = list(deal.hands)
            hands[0], hands[1] = hands[1], hands[0]
            swapped = World(tuple(hands), tuple(deal.stock[deal.stock_pos:]))
            assert log_likelihood(deal, swapped, backend="c") == log_likelihood(deal, swapped, backend="python")
    assert compared >= 50


@pytest.mark.parametrize("rules", rulesets(), ids=lambda r: r.spec)
def test_the_worlds_and_their_weights_are_the_same_checked_in_c(rules: Ruleset) -> None:
    """The worlds sampled (each checked by a replay in C or by the engine) and their inference weights (the
    likelihood replayed from the start the check found first, or found again in Python): the same lists."""
    weighed = 0
    for i, deal in enumerate(positions(rules, 20, seed=len(rules.spec) + 3)):
        if mover_knows_all(deal):
            continue
        try:
            python = weighted_worlds(deal, 3, seed=i, inference=True, candidates=6, backend="python")
        except ValueError:  # random actions can leave a history no sampled world replays: then in C too
            with pytest.raises(ValueError):
                weighted_worlds(deal, 3, seed=i, inference=True, candidates=6, backend="c")
            continue
        assert weighted_worlds(deal, 3, seed=i, inference=True, candidates=6, backend="c") == python, deal.log
        seat = (deal.turn + 1) % rules.players
        assert (sample_worlds(deal, 4, seed=i, seat=seat, backend="c")
                == sample_worlds(deal, 4, seed=i, seat=seat, backend="python"))
        weighed += 1
    assert weighed >= 5
