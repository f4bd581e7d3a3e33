"""A ruleset told to players: a sentence per option value, in the language spoken, grouped as a table explains it.

The rules page (``/rules/{preset}``) and anything else that tells a ruleset to a person read it here.  Each
sentence comes from the options' values alone (never from a preset's name), so a custom ruleset is told as
truly as a preset; each names the options it tells (``options``), so that a page can put the option ids, the
raw values and the citations behind them in a fold of technical details, and the sources' quotes beside it.
An option that does not apply to the ruleset (the draw rules without a monte, a partner's exemption without
partners, the exchange of the 2 where nothing is exchanged) is told by no sentence.

>>> from tutepgn.rules import preset
>>> [s.options for s in told(preset("torofun-3p"))[0].sentences][:2]
[('players', 'partnerships'), ('removed_ranks',)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .cards import CARD_RANK, CARD_SUIT, SUIT_LETTERS, SUIT_NAMES, card_from_code
from .i18n import N_, gettext as _, ngettext
from .citations import Quote
from .rules import Ruleset
from .sources import source_of

RANK_WORDS = {1: "as", 10: "sota", 11: "caballo", 12: "rey"}
"""The ranks the Spanish pack names by a word (the same words in both languages); the others by their number."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """One rule in words, the options whose values it tells, and the sources' quotes behind those values (each
    quote once in a ruleset's telling: at the first sentence that rests on it)."""

    options: tuple[str, ...]
    text: str
    quotes: tuple[Quote, ...] = ()


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and its sentences, as a table explains one part of the game."""

    title: str
    sentences: tuple[Sentence, ...]


def either(words: Sequence[str]) -> str:
    """Words as a choice: "a, b or c"."""
    return words[0] if len(words) == 1 else _("{first} or {last}", first=", ".join(words[:-1]), last=words[-1])


def rank_words(ranks: Sequence[int]) -> str:
    """Ranks as a person reads them: "as, 3 or rey"."""
    return either([RANK_WORDS.get(r, str(r)) for r in ranks])


def card_words(code: str) -> str:
    """A card code ("2O") as words: "the 2 of oros"."""
    card = card_from_code(code)
    return _("the {rank} of {suit}", rank=RANK_WORDS.get(CARD_RANK[card], str(CARD_RANK[card])),
             suit=SUIT_NAMES[CARD_SUIT[card]])


def has_stock(r: Ruleset) -> bool:
    """Whether cards are left undealt, to be drawn: a monte."""
    return r.players * r.hand_size < r.deck_size


# -- Players and cards ----------------------------------------------------------


def _seats(r: Ruleset) -> str:
    if r.partnerships:
        return _("Four players in two pairs: partners sit opposite and score together.")
    return ngettext("{n} player, playing alone.", "{n} players, each playing alone.", r.players)


def _pack(r: Ruleset) -> str:
    if not r.removed_ranks:
        return _("The Spanish pack of 40 cards.")
    return _("The Spanish pack without any {ranks}: {n} cards.", ranks=rank_words(r.removed_ranks), n=r.deck_size)


def _hand(r: Ruleset) -> str:
    return ngettext("Each player is dealt {n} card.", "Each player is dealt {n} cards.", r.hand_size)


def _trump(r: Ruleset) -> str:
    if r.trump_card == "dealer_last":
        return _("The dealer deals the whole pack and shows the last card, the muestra: its suit is trump, and the "
                 "dealer keeps it.")
    return _("The cards not dealt are the stock; the one under it is turned face up, the muestra: its suit is "
             "trump, and it is the last card drawn.")


def _first_trump(r: Ruleset) -> str:
    if r.first_deal_trump is None:
        return _("Trump is the muestra's suit in every deal.")
    return _("In a match's first deal trump is {suit}, whatever the muestra.",
             suit=SUIT_NAMES[SUIT_LETTERS.index(r.first_deal_trump)])


def _first_leader(r: Ruleset) -> str:
    if r.first_deal_leader_card is None:
        return _("Mano, the player after the dealer, leads the first trick.")
    return _("In a match's first deal whoever holds {card} leads; afterwards, mano leads.",
             card=card_words(r.first_deal_leader_card))


# -- What you must play ---------------------------------------------------------


def _free_play(r: Ruleset) -> str:
    if not has_stock(r):
        return _("The whole pack is dealt, so the duties below apply from the first trick.")
    if r.free_play_while_stock:
        return _("While the stock has cards you may play any card; the duties below apply once it is used up.")
    return _("The duties below apply from the first trick, stock or not.")


def _follow(r: Ruleset) -> str:
    return _("You must follow suit: with a card of the suit led, you play that suit.") if r.must_follow \
        else _("You need not follow suit.")


def _beat(r: Ruleset) -> str:
    return _("Following suit, you must beat the highest card of that suit in the trick if you can.") if r.must_beat \
        else _("Following suit, you need not beat the cards played.")


def _beat_waived(r: Ruleset) -> str | None:
    if r.players == 2 or not r.must_beat:  # with two, a trumped trick is complete
        return None
    return _("Once someone has trumped the trick, any card of the suit led will do.") if r.beat_waived_when_trumped \
        else _("You must beat the highest card of the suit led even after someone has trumped.")


def _trump_duty(r: Ruleset) -> str:
    return _("With no card of the suit led, you must play a trump.") if r.must_trump \
        else _("With no card of the suit led, you may play any card.")


def _overtrump(r: Ruleset) -> str | None:
    if r.players == 2 or not r.must_trump:  # with two, no trump is in the trick before yours
        return None
    return _("If a trump is already in the trick, yours must beat it if you can.") if r.must_overtrump \
        else _("Any trump will do, even one lower than a trump already played.")


def _undertrump(r: Ruleset) -> str | None:
    if r.players == 2 or not r.must_trump:
        return None
    return _("If you cannot play a higher trump, you must still play a lower one.") if r.must_undertrump \
        else _("If you cannot play a higher trump, you may play any card.")


def _partner(r: Ruleset) -> str | None:
    if not r.partnerships:
        return None
    return _("When your partner is winning the trick, you need only follow suit.") if r.partner_winning_exempts \
        else _("These duties hold even when your partner is winning the trick.")


# -- Exchanges -------------------------------------------------------------------


def _exchange(r: Ruleset, holder: int, allowed: bool, ranks: tuple[int, ...]) -> str | None:
    if not allowed or not ranks:  # allowed for no muestra at all: no exchange
        return None
    if set(ranks) >= {1, 2, 3, 4, 5, 6, 7, 10, 11, 12} - {holder}:
        return _("Whoever holds the {rank} of trump may exchange it for the muestra.", rank=holder)
    return _("Whoever holds the {rank} of trump may exchange it for the muestra when the muestra is {ranks}.",
             rank=holder, ranks=rank_words(ranks))


def _seven(r: Ruleset) -> str | None:
    if not (r.exchange_seven or r.exchange_two):
        return _("No card is exchanged for the muestra.")
    return _exchange(r, 7, r.exchange_seven, r.exchange_seven_for) or _("The 7 of trump is not exchanged.")


def _two(r: Ruleset) -> str | None:
    if not (r.exchange_seven or r.exchange_two):
        return None
    return _exchange(r, 2, r.exchange_two, r.exchange_two_for) or _("The 2 of trump is not exchanged.")


def _exchange_when(r: Ruleset) -> str | None:
    if not (r.exchange_seven or r.exchange_two):
        return None
    return _("You exchange when you are on lead, before the first trick too.") if r.exchange_at_first_lead \
        else _("You exchange only after winning a trick, before leading to the next.")


# -- Cantes ------------------------------------------------------------------------


def _cante_points(r: Ruleset) -> str:
    return _("A rey and a caballo of one suit are a cante: {plain} points in a plain suit, {trump} in trump (las "
             "cuarenta).", plain=r.cante_points, trump=r.cuarenta_points)


def _per_trick(r: Ruleset) -> str:
    return ngettext("After each trick won, at most {n} cante may be declared.",
                    "After each trick won, at most {n} cantes may be declared.", r.cantes_per_trick)


def _forty_first(r: Ruleset) -> str:
    return _("If you can sing las cuarenta, you must sing them before any 20.") if r.forty_first \
        else _("Las cuarenta need not come before a 20.")


def _first_win(r: Ruleset) -> str:
    return _("A side that sings no cante right after its first won trick cannot sing one in that deal.") \
        if r.cante_only_if_sung_at_first_win else _("You may sing a cante after any trick you win, the first or a later one.")


def _forfeit(r: Ruleset) -> str:
    return _("A cante you could have sung after a won trick, and did not, is lost for the deal.") \
        if r.forfeit_unsung_cantes else _("A cante not sung now may be sung after a later won trick.")


def _after_draw(r: Ruleset) -> str | None:
    if not has_stock(r):
        return None
    return _("You sing only after a trick followed by a draw from the stock: once it is used up, no more cantes.") \
        if r.declare_only_after_draw else _("You may sing after the stock is used up too.")


def _last_drawn(r: Ruleset) -> str | None:
    if not has_stock(r):
        return None
    return _("No cante or tute with a rey or caballo taken in the last draw of the stock.") \
        if r.no_declare_with_last_drawn else _("A rey or caballo taken in the last draw may be sung too.")


# -- Tute ------------------------------------------------------------------------------


def _tute_when(r: Ruleset) -> str:
    return _("Tute (the four reyes or the four caballos) may also be sung by the player on lead before the first "
             "trick.") if r.tute_at_first_lead \
        else _("Tute (the four reyes or the four caballos) is sung after a won trick, like a cante.")


def _tute_blocked(r: Ruleset) -> str:
    return _("No tute once your side has sung a cante in the deal.") if r.tute_blocked_by_earlier_cante \
        else _("You may sing tute even after your side's cantes.")


def _tute_wins(r: Ruleset) -> str:
    if r.tute_effect == "win_match":
        return _("Tute wins the whole match at once.")
    return ngettext("Tute wins the deal at once and scores {n} match point.",
                    "Tute wins the deal at once and scores {n} match points.", r.tute_match_points)


def _tute_below(r: Ruleset) -> str | None:
    if r.tute_effect == "win_match" or r.tute_wins_match_below_target is None:
        return None
    return ngettext("In a match to fewer than {n} match point, tute wins the whole match.",
                    "In a match to fewer than {n} match points, tute wins the whole match.",
                    r.tute_wins_match_below_target)


# -- The count ----------------------------------------------------------------------------


def _last_trick(r: Ruleset) -> str:
    return ngettext("The last trick adds {n} point, the diez de últimas.",
                    "The last trick adds {n} points, the diez de últimas.", r.last_trick_bonus)


def _deal_points(r: Ruleset) -> str:
    return ngettext("The side with the most points wins the deal and {n} match point.",
                    "The side with the most points wins the deal and {n} match points.", r.deal_points)


def _double(r: Ruleset) -> str:
    if r.double_threshold is None:
        return _("No deal scores double.")
    if r.double_basis == "total":
        return ngettext("A deal won with more than {points} points, cantes included, scores {n} match point.",
                        "A deal won with more than {points} points, cantes included, scores {n} match points.",
                        r.double_points, points=r.double_threshold)
    return ngettext("A deal won with more than {points} points in cards and last trick (cantes not counted) "
                    "scores {n} match point.",
                    "A deal won with more than {points} points in cards and last trick (cantes not counted) "
                    "scores {n} match points.", r.double_points, points=r.double_threshold)


def _target(r: Ruleset) -> str:
    return ngettext("The match goes to {n} match point.", "The match goes to {n} match points.", r.match_target)


def _choices(r: Ruleset) -> str | None:
    if not r.match_target_choices:
        return None
    return _("Matches are also played to {choices} match points.",
             choices=either([str(n) for n in r.match_target_choices]))


Teller = Callable[[Ruleset], "str | None"]

SECTIONS: tuple[tuple[str, tuple[tuple[tuple[str, ...], Teller], ...]], ...] = (
    (N_("Players and cards"), (
        (("players", "partnerships"), _seats), (("removed_ranks",), _pack), (("hand_size",), _hand),
        (("trump_card",), _trump), (("first_deal_trump",), _first_trump),
        (("first_deal_leader_card",), _first_leader))),
    (N_("What you must play"), (
        (("free_play_while_stock",), _free_play), (("must_follow",), _follow), (("must_beat",), _beat),
        (("beat_waived_when_trumped",), _beat_waived), (("must_trump",), _trump_duty),
        (("must_overtrump",), _overtrump), (("must_undertrump",), _undertrump),
        (("partner_winning_exempts",), _partner))),
    (N_("Exchanging for the muestra"), (
        (("exchange_seven", "exchange_seven_for"), _seven), (("exchange_two", "exchange_two_for"), _two),
        (("exchange_at_first_lead",), _exchange_when))),
    (N_("Cantes"), (
        (("cante_points", "cuarenta_points"), _cante_points), (("cantes_per_trick",), _per_trick),
        (("forty_first",), _forty_first), (("cante_only_if_sung_at_first_win",), _first_win),
        (("forfeit_unsung_cantes",), _forfeit), (("declare_only_after_draw",), _after_draw),
        (("no_declare_with_last_drawn",), _last_drawn))),
    (N_("Tute"), (
        (("tute_at_first_lead",), _tute_when), (("tute_blocked_by_earlier_cante",), _tute_blocked),
        (("tute_effect", "tute_match_points"), _tute_wins), (("tute_wins_match_below_target",), _tute_below))),
    (N_("The count"), (
        (("last_trick_bonus",), _last_trick), (("deal_points",), _deal_points),
        (("double_threshold", "double_basis", "double_points"), _double), (("match_target",), _target),
        (("match_target_choices",), _choices))),
)
"""Every option but ``preset``, each told by exactly one teller (``tests/test_rules_text.py`` checks it), in the
order a table explains the game."""


def told(r: Ruleset) -> list[Section]:
    """``r`` in sentences, in the language spoken: a section per part of the game, the sentences that apply,
    each with the quotes behind its values (none for an option ``r`` overrides: its value is no source's)."""
    overridden, shown = r.overrides(), set[tuple[str, str]]()
    sections = []
    for title, tellers in SECTIONS:
        sentences = []
        for options, tell in tellers:
            text = tell(r)
            if text is None:
                continue
            quotes = [q for name in options if name not in overridden for q in source_of(r.preset, name).quotes]
            fresh = tuple(q for q in dict.fromkeys(quotes) if (q.text, q.original) not in shown)
            shown.update((q.text, q.original) for q in fresh)
            sentences.append(Sentence(options, text, fresh))
        if sentences:
            sections.append(Section(_(title), tuple(sentences)))
    return sections


def summary(r: Ruleset) -> str:
    """A ruleset in one line: who plays, the cards each, how trump shows and the partida's target."""
    who = _("four in pairs") if r.partnerships else ngettext("{n} player", "{n} players", r.players)
    line = ngettext("{who}, {cards} cards each, {trump}; match to {n} match point.",
                    "{who}, {cards} cards each, {trump}; match to {n} match points.", r.match_target, who=who,
                    cards=r.hand_size, trump=_("with a stock") if has_stock(r) else _("the whole pack dealt"))
    return line[:1].upper() + line[1:]
