"""A table: one deal with a person at one seat and bots at the others (``tute play``; the browser's ``/play``,
:mod:`tutepgn.play.tables`).

The table keeps the deal and asks the bots in the table's order (a seat of
the side that won the last trick may declare before the seat to move plays:
each is asked once, its declaration or a pass).  It stops whenever the person
must decide: play a card (or declare first) at their turn, or declare or pass
out of turn.  What is shown comes from :meth:`Table.scene`, built from the
person's view only; lines typed are read as ``tute record`` reads them
(:meth:`tutepgn.recording.recorder.Recorder.parse`: ``3O``, ``40``, ``20C``,
``tute 12``, ``x7B``), and a refused line says why and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from ..cards import CODES, Card, cards_in
from ..engine import Deal
from ..errors import EntryError
from ..events import Action, Cante, Context, Play
from ..i18n import gettext as _
from ..notation import SEAT_TAGS, Record, format_side_values, result_text
from ..recording.recorder import Recorder
from ..recording.simulate import stream_seed
from ..rules import Ruleset
from ..words import cards_words, seat_words
from .bots import Bot, declarers, level_bot
from .view import SeatView


@dataclass(frozen=True)
class Scene:
    """What the person at the table sees now, for a screen to draw (notation codes, seat letters)."""

    seat: str
    seats: tuple[str, ...]
    players: tuple[str, ...]
    trump: int
    turned: str
    """The muestra: the card turned to show trump."""
    stock: int
    """Cards left in the stock, the turned card included."""
    hand: tuple[str, ...]
    """The person's cards, by suit then strength."""
    trick: tuple[tuple[str, str], ...]
    """The cards on the table now, (seat, card) in play order."""
    last: tuple[tuple[str, str], ...]
    """The last finished trick's cards, (seat, card)."""
    last_winner: str | None
    tricks: int
    points: tuple[tuple[str, int], ...]
    """Each side's points so far (cards and cantes), by side label."""
    cantes: tuple[str, ...]
    """The cantes sung, as ``N 40``."""
    to_move: str | None
    """The seat to play a card (None once the deal is over)."""
    options: tuple[str, ...]
    """What the person may enter now (cards and declarations); empty when a bot is to act."""
    may_pass: bool
    """Whether the person may pass (an empty line): a declaration offered out of turn."""
    over: bool
    result: str
    """Once the deal is over: the score and result in words."""


class Table:
    """One deal: the person at ``seat``, ``bots`` (or the bot of ``level``) at the others.

    ``dealer`` (else drawn from the seed) and ``tags`` (added to the record's, e.g. a match's ``Match``,
    ``DealNo``, ``MatchScore``; ``DealNo "1"`` deals the first deal of a match) let a match go on deal by deal:
    the seed alone decides the cards, whoever deals."""

    def __init__(self, rules: Ruleset, seat: int, level: int = 3, *, seed: int = 0, name: str | None = None,
                 bots: Sequence[Bot] | None = None, dealer: int | None = None,
                 tags: Mapping[str, str] | None = None) -> None:
        n = rules.players
        self.rules = rules
        self.seat = seat
        rng = random.Random(stream_seed(rules, seed))
        drawn = rng.randrange(n)
        first = tags is not None and "Match" in tags and tags.get("DealNo") == "1"
        self.deal = Deal.shuffled(rules, rng, dealer=drawn if dealer is None else dealer, first_of_match=first)
        self.rng = random.Random(f"bots:{seed}")
        player = level_bot(level)
        self.bots: list[Bot] = list(bots) if bots is not None else [player] * n
        names = [name or _("You") if s == seat else
                 _("Bot level {level} ({bot})", level=self.bots[s].level, bot=self.bots[s].name)
                 if self.bots[s].level is not None else _("Bot {bot}", bot=self.bots[s].name) for s in range(n)]
        self.names = tuple(names)
        head = {"Event": _("Play against the machine"), "Site": "tute play", "Date": date.today().strftime("%Y.%m.%d"),
                "Round": "1"}
        head.update(tags or {})
        head.update({SEAT_TAGS[letter]: names[s] for s, letter in enumerate(rules.seat_names)})
        self.recorder = Recorder(self.deal, head)
        self.asked: set[tuple[int, int]] = set()
        """(actions so far, seat): the seats asked to declare out of turn at this point, who passed or declared."""

    # -- The bots ---------------------------------------------------------------
    def advance(self) -> list[Action]:
        """Let the bots act until the person must decide or the deal is over; the actions taken, in order."""
        return list(self.steps())

    def steps(self) -> Iterator[Action]:
        """The bots' actions one at a time, each applied as it is yielded (so :meth:`said` sees the trick it
        completed), until the person must decide or the deal is over."""
        while not self.deal.over and not self.waiting:
            yield self._bot_action()

    @property
    def waiting(self) -> bool:
        """Whether the person must decide now: play (or declare) at their turn, or declare or pass out of turn."""
        if self.deal.over:
            return False
        for seat in self._to_ask():
            return seat == self.seat
        return self.deal.turn == self.seat

    def _to_ask(self) -> list[int]:
        """The seats still to be asked whether they declare out of turn, in the table's order."""
        at = len(self.deal.log)
        return [s for s in declarers(self.deal) if (at, s) not in self.asked]

    def _bot_action(self) -> Action:
        """One bot's action: a declaration out of turn (or the pass), else the seat to move's."""
        deal = self.deal
        for seat in self._to_ask():
            self.asked.add((len(deal.log), seat))
            action = self.bots[seat].choose(SeatView.of(deal, seat), self.rng)
            if action is not None:
                deal.apply(action)
                return action
        action = self.bots[deal.turn].choose(SeatView.of(deal, deal.turn), self.rng)
        assert action is not None, "the seat to move passed"
        deal.apply(action)
        return action

    # -- The person -------------------------------------------------------------
    def options(self) -> list[Action]:
        """What the person may do now (nothing while a bot is to act)."""
        if not self.waiting:
            return []
        return [a for a in self.deal.legal_actions() if a.seat == self.seat]

    @property
    def may_pass(self) -> bool:
        """Whether the person is asked out of turn: a declaration they may make, or pass."""
        return self.waiting and self.deal.turn != self.seat

    def enter(self, line: str) -> Action | None:
        """The person's line: one card or declaration (as ``tute record`` reads it), or an empty line to pass
        when asked out of turn.  Raises :class:`~tutepgn.errors.EntryError` or
        :class:`~tutepgn.errors.IllegalAction` (with the rule's words) and changes nothing then."""
        if not self.waiting:
            raise EntryError(_("it is not your turn"))
        text = line.strip()
        if not text:
            if self.may_pass:
                self.asked.add((len(self.deal.log), self.seat))
                return None
            raise EntryError(_("enter a card to play, e.g. {card}", card=CODES[min(self.deal.legal_plays())]))
        try:
            action = self.recorder.parse(text if text.split()[0].upper() in self.rules.seat_names
                                         else f"{self.rules.seat_names[self.seat]} {text}")
        except EntryError:
            raise EntryError(_("{text} is not a card or a declaration; you may enter {options}", text=repr(text),
                               options=" ".join(_entry(a, Context.of(self.deal)) for a in self.options()))) from None
        if action.seat != self.seat:
            raise EntryError(_("you play {seat}'s cards only", seat=seat_words(self.rules.seat_names[self.seat])))
        if self.may_pass and type(action) is Play:
            raise EntryError(_("it is not your turn to play: declare, or press Enter to pass"))
        self.deal.apply(action)  # IllegalAction says why, and nothing changed
        return action

    # -- What is shown ----------------------------------------------------------
    def said(self, action: Action, entry: str | None = None) -> str:
        """An action in words for the screen: the seat and its entry (as typed, unless ``entry`` says it
        otherwise: the browser's words), with the trick it completed."""
        deal = self.deal
        names = self.rules.seat_names
        words = [f"{seat_words(names[action.seat])}: {entry or _entry(action, Context.of(deal))}"]
        if type(action) is Play and deal.log and deal.log[-1] is action and not deal.trick:
            t = deal.tricks[-1]
            words.append(_("trick {trick}: {cards} won by {seat} ({points} points)", trick=len(deal.tricks),
                           cards=cards_words(t.cards), seat=seat_words(names[t.winner]), points=t.points))
        return "; ".join(words)

    def scene(self) -> Scene:
        """What the person sees now: their hand, the table, the muestra, the points, what they may enter."""
        deal = self.deal
        r = self.rules
        names = r.seat_names
        ctx = Context.of(deal)

        def seated(leader: int, cards: Sequence[Card]) -> tuple[tuple[str, str], ...]:
            return tuple((names[(leader + k) % r.players], CODES[c]) for k, c in enumerate(cards))
        last = deal.tricks[-1] if deal.tricks else None
        points = list(deal.won_points)
        for c in deal.cantes:
            points[c.side] += c.points
        result = ""
        if deal.over:
            sheet = deal.score()
            result = _("deal over: Score {score}, Result {result}", result=result_text(sheet, r),
                       score=format_side_values(sheet.totals, r))
        return Scene(
            names[self.seat], tuple(names), self.names, deal.trump, CODES[deal.turned], deal.stock_left,
            tuple(CODES[c] for c in sorted(cards_in(deal.hands[self.seat]), key=lambda c: (c // 10, -c))),
            seated(deal.leader, deal.trick),
            seated(last.leader, last.cards) if last else (), names[last.winner] if last else None,
            len(deal.tricks), tuple(zip(r.side_labels, points)),
            tuple(a.text(ctx) for a in deal.log if type(a) is Cante),
            None if deal.over else names[deal.turn], tuple(_entry(a, ctx) for a in self.options()), self.may_pass,
            deal.over, result)

    def record(self) -> Record:
        """The deal as a record (the players named: the person and each bot with its level)."""
        return self.recorder.record()


def _entry(action: Action, ctx: Context) -> str:
    """An action as the person types it: its notation without the seat (``3O``, ``40``, ``x7B``)."""
    return action.text(ctx).split(" ", 1)[1]
