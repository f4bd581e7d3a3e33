"""Recording at a real table, hands unknown: the library (revokes proved later, refusals, undo, resume, a match)
and ``tute record`` driven through a pseudo-terminal as a scorer would type."""

from __future__ import annotations

import fcntl
import os
import random
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tutepgn import Deal, preset
from tutepgn.cards import CODES
from tutepgn.events import Action, Context, Play, Tute
from tutepgn.notation import SEAT_TAGS, Record, iter_records, read_record
from tutepgn.check.reconstruct import reconstruct
from tutepgn.recording.recorder import Recorder
from tutepgn.check.replay import replay
from tutepgn.rules import PRESETS
from tutepgn.recording.session import Session
from tutepgn.recording.simulate import greedy_bot
from tutepgn.check.validate import validate, validate_records

from terminals import controlling_terminal

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def entry_lines(record: Record) -> list[str]:
    """The events of a record as a scorer types them, in each form the recorder reads: a whole trick with its
    number and leader, a trick's cards in lower case, one card a line; declarations as shown."""
    header = record.header()
    names = header.rules.seat_names
    n = len(names)
    ctx = Context(names, header.trump)
    lines: list[str] = []
    trick: list[Play] = []
    number = 0
    for event in record.events:
        if type(event) is not Play:
            lines.append(event.text(ctx))
            continue
        trick.append(event)
        if len(trick) < n:
            continue
        number += 1
        codes = [CODES[p.card] for p in trick]
        if number % 3 == 1:
            lines.append(f"{number}. {names[trick[0].seat]} {' '.join(codes)}")
        elif number % 3 == 2:
            lines.append(" ".join(codes).lower())
        else:
            lines.append(f"{names[trick[0].seat]} {codes[0]}")
            lines.extend(codes[1:])
        trick = []
    lines.extend(CODES[p.card] for p in trick)  # an unfinished trick
    return lines


def table_samples(players: tuple[int, ...]) -> Iterator[tuple[str, int, Record]]:
    """(file, index, record) of every sample deal for these numbers of players (one match file excepted)."""
    for path in sorted(SAMPLES.glob("*.tpgn")):
        if path.name == "ludoteka-match.tpgn":
            continue
        for i, record in enumerate(iter_records(path)):
            if record.header().rules.players in players:
                yield path.name, i, record


def start(record: Record) -> Recorder:
    """A recorder for a sample deal, hands unknown: its rules, dealer, turned card and match tags."""
    tags = {k: record.tags[k] for k in ("Match", "DealNo", "MatchTarget") if k in record.tags}
    return Recorder.start(record.tags["Rules"], turned=turned(record), dealer=record.tags["Dealer"], tags=tags)


def turned(record: Record) -> str:
    """The turned card's code (the Trump tag may be in another card style)."""
    card = record.header().turned
    assert card is not None
    return CODES[card]


def determined_hands(record: Record) -> tuple[int, ...] | None:
    """2 players: the hands once the stock is drawn out (None if the deal ends before), which the play determines
    (every card in them is played later), on the record's deal or, without Deal and Stock, on the one
    :func:`~tutepgn.check.reconstruct.reconstruct` finds."""
    header = record.header()
    if header.stock:
        deal = header.deal()
    else:
        assert header.dealer is not None and header.turned is not None
        deal = reconstruct(header.rules, record.events, dealer=header.dealer, turned=header.turned,
                           first_of_match=header.first_of_match).deal()
    for event in record.events:
        deal.apply(event)
        if deal.stock_left == 0 and not deal.trick:
            return tuple(deal.hands)
    return None


# ---------------------------------------------------------------------------
# The library.


@pytest.mark.parametrize("name, index, record", list(table_samples((3, 4))),
                         ids=lambda v: v if isinstance(v, str) else None)
def test_each_3_and_4_player_sample_recorded_hands_unknown(name: str, index: int, record: Record) -> None:
    rec = start(record)
    for line in entry_lines(record):
        reply = rec.enter(line)
        assert not reply.refused, (line, reply.message)
    written = rec.record()
    assert written.events == record.events
    if record.termination == "*":
        assert not rec.over and "Deal" not in written.tags
    elif rec.deal.tute_event is not None:  # the hands are not all seen: no Deal tag, judged on the cards seen
        assert "Deal" not in written.tags and written.tags["Result"] == record.tags["Result"]
        assert written.tags["Score"] == record.tags["Score"] and not validate(written).errors
        assert rec.report is not None and not rec.report.errors
    else:
        assert written.tags["Deal"] == record.tags["Deal"]
        assert (written.tags["Score"], written.tags["Result"]) == (record.tags["Score"], record.tags["Result"])
        report = validate(written)
        assert not report.errors and rec.report is not None and not rec.report.errors


@pytest.mark.parametrize("name, index, record", list(table_samples((2,))), ids=lambda v: v if isinstance(v, str) else None)
def test_each_2_player_sample_recorded_without_deal_and_stock(name: str, index: int, record: Record) -> None:
    """2 players: the record is written without Deal and Stock, and the validator reconstructs a stock order
    that makes every event possible: the events, the score and the result are the sample's."""
    rec = start(record)
    for line in entry_lines(record):
        reply = rec.enter(line)
        assert not reply.refused, (line, reply.message)
    written = read_record(rec.record().tpgn())
    assert rec.over and written.events == record.events
    assert "Deal" not in written.tags and "Stock" not in written.tags and written.header().turned == record.header().turned
    assert written.header().claimed_score == record.header().claimed_score
    assert written.tags["Result"] == record.tags["Result"]
    assert reply.message.endswith("no Deal or Stock tag; the record validates") and rec.report is not None
    assert not rec.report.errors and "stock_reconstructed" in {f.code for f in rec.report.warnings}
    assert determined_hands(written) == determined_hands(record)


def test_a_match_at_the_table_in_one_file(tmp_path: Path) -> None:
    samples = list(iter_records(SAMPLES / "ludoteka-match.tpgn"))
    path = tmp_path / "match.tpgn"
    session = Session.new("ludoteka-pairs", path, tags={"Event": "Club", "Match": "M1"}, dealer="N")
    for sample in samples:
        assert not session.over and session.dealer == sample.tags["Dealer"]
        rec = session.next_deal(turned(sample))
        for line in entry_lines(sample):
            assert not rec.enter(line).refused
        session.finish()
    assert session.over and session.standing() == "NS:4 WE:2"
    with pytest.raises(ValueError, match="the match is over"):
        session.next_deal("1O")
    written = list(iter_records(path))
    for got, want in zip(written, samples, strict=True):
        for tag in ("Deal", "Dealer", "Trump", "Score", "Result", "DealNo", "MatchTarget", "MatchScore"):
            assert got.tags[tag] == want.tags[tag], tag
    assert all(not report.errors for report in validate_records(written))
    with pytest.raises(ValueError, match="complete"):
        Session.resume(path)


def test_first_deal_of_a_match_names_its_leader() -> None:
    sample = next(iter_records(SAMPLES / "ludoteka-match.tpgn"))
    rec = start(sample)
    assert rec.prompt() == "1. ? > "
    reply = rec.enter("6B")
    assert reply.refused and "name the seat that leads" in reply.message and "2O" in reply.message
    assert not rec.enter("1. S 6B 7B 12B 4B").refused
    reply = rec.enter("N 20C")
    assert not reply.refused
    reply = rec.enter("W 2O")  # S leads the first deal, so S holds the 2 of oros
    assert reply.refused and "S holds 2O" in reply.message and "first_deal_leader_card" in reply.message


def test_refusals_name_where_the_card_was_seen() -> None:
    record = read_record(SAMPLES / "torofun-3p.tpgn")  # dealer E, turned 11C
    rec = start(record)
    assert not rec.enter("1. N 4E 6E 12E").refused and not rec.enter("E 20O").refused
    cases = {
        "W 6C": "not W's turn",
        "E 4E": "4E was already played, by N at trick 1",
        "E 11C": None,
        "N 12O": "E holds 12O: shown in E 20O after trick 1",
        "E 2O": "2O is not in this pack (rule removed_ranks: (2,))",
        "3. E 6C": "3. is not the trick to enter: trick 2 comes next",
        "N 40": "E holds 11C: the turned card, the dealer's",
        "N 20B": "only by the side that won the last trick, and E won it",
    }
    for line, words in cases.items():
        reply = rec.enter(line)
        if words is None:
            assert not reply.refused, reply.message
            assert rec.enter("undo").message == "took back E 11C"
            continue
        assert reply.refused and words in reply.message, (line, reply.message)
    reply = rec.enter("E 6C N 3C W 11C")  # the turned card is the dealer's
    assert reply.refused and reply.message.startswith("E 6C; N 3C; then refused: W cannot have 11C: E holds 11C")
    assert len(rec.deal.log) == 6


def test_declarations_offered_with_the_hands_unknown() -> None:
    """What the phone page offers as buttons: every declaration the cards seen allow now, for the seat that may
    declare, and none that they rule out (a card played, the window closed, the rule's one cante a trick)."""
    rec = start(read_record(SAMPLES / "torofun-3p.tpgn"))  # dealer E, turned 11C: trump copas, E holds 11C
    assert rec.declarations() == []  # no trick won yet
    assert not rec.enter("1. N 4E 6E 12E").refused
    assert rec.declarations() == ["E tute 11", "E 20O", "E 40", "E 20B"]  # 12E is played: no tute 12, no 20E
    assert all(not rec.enter(text).refused and not rec.enter("undo").refused for text in rec.declarations())
    assert not rec.enter("E 20O").refused and rec.declarations() == []  # one cante a trick
    assert rec.enter("undo").message == "took back E 20O" and rec.declarations()
    assert not rec.enter("E 6C").refused and rec.declarations() == []  # the next trick has begun


def test_turned_card_under_the_stock_with_two_players() -> None:
    rec = Recorder.start("playcard-2p", turned="4B", dealer="S")
    reply = rec.enter("N 4B")
    assert reply.refused and "4B is the turned card, under the stock until the last draw" in reply.message


def test_undo_several_entries_and_the_file(tmp_path: Path) -> None:
    record = read_record(SAMPLES / "torofun-3p.tpgn")
    path = tmp_path / "deal.tpgn"
    rec = Recorder.start("torofun-3p", turned="11C", dealer="E", path=path)
    for line in entry_lines(record)[:6]:
        assert not rec.enter(line).refused
    assert rec.deal.log == record.events[:10]
    reply = rec.enter("undo 5")
    assert reply.message == "took back N 3C, W 1C, W 11B, E 12B, N 1B"
    assert read_record(path).events == record.events[:5] and rec.prompt() == "2. N > "
    assert rec.enter("undo 99").message.startswith("took back N 4E") and read_record(path).events == []
    assert rec.enter("undo").refused


def test_resume_goes_on_and_judges_again(tmp_path: Path) -> None:
    record = read_record(SAMPLES / "tie-decided-by-last-trick.tpgn")
    path = tmp_path / "deal.tpgn"
    session = Session.new(record.tags["Rules"], path, tags={"Event": "Club"}, dealer=record.tags["Dealer"],
                          match=False)
    rec = session.next_deal(turned(record))
    lines = entry_lines(record)
    for line in lines[:7]:
        rec.enter(line)
    again = Session.resume(path)
    assert again.current is not None and again.current.deal.log == rec.deal.log and again.tags["Event"] == "Club"
    for line in lines[7:]:
        assert not again.current.enter(line).refused
    again.finish()
    assert again.over and read_record(path).tags["Deal"] == record.tags["Deal"]


# ---------------------------------------------------------------------------
# Revokes proved later: each duty of each preset.


DUTIES = ("must_follow", "must_beat", "must_trump", "must_overtrump")


def revoke(rules_name: str, duty: str) -> Iterator[tuple[Deal, list[Action], int]]:
    """Deals where a seat breaks ``duty`` (the events up to the card that proves it) and the revoke's index.

    Each is a real deal played by the greedy bot; at a card where ``duty``
    narrows the seat's choice, the seat plays a card the duty forbids
    instead, and the deal goes on legally until the seat plays a card it
    could have played then: that card proves the revoke.
    """
    rules = preset(rules_name)
    for seed in range(400):
        rng = random.Random(seed)
        deal = Deal.shuffled(rules, seed, seed % rules.players)
        while not deal.over:
            seat = deal.turn
            if deal.trick and deal.stock_left == 0:
                for card in deal.hand(seat):
                    if deal.can_play(card):
                        continue
                    try:
                        deal.verify_play(card)
                    except Exception as exc:  # noqa: BLE001 - the engine's IllegalPlay
                        if getattr(exc, "rule", None) != duty:
                            continue
                    fork = deal.restart()
                    for _ in replay(fork, deal.log):
                        pass
                    allowed = set(deal.legal_plays())
                    fork.force(Play(seat, card))
                    index = len(fork.log) - 1
                    while not fork.over:
                        action = greedy_bot(fork, rng)
                        fork.apply(action)
                        if type(action) is Play and action.seat == seat and action.card in allowed:
                            yield deal, list(fork.log), index
                            break
                    break
            deal.apply(greedy_bot(deal, rng))


@pytest.mark.parametrize("rules_name", PRESETS)
@pytest.mark.parametrize("duty", DUTIES)
def test_revoke_proved_later_names_the_rule_and_the_trick(rules_name: str, duty: str) -> None:
    if duty == "must_overtrump" and preset(rules_name).players == 2:
        pytest.skip("with 2 players a trump on the table was led, so the follower must beat it (must_beat)")
    for deal, events, index in revoke(rules_name, duty):
        names = deal.rules.seat_names
        rec = Recorder.start(rules_name, turned=CODES[deal.initial_turned], dealer=names[deal.dealer])
        ctx = Context(names, deal.trump)
        for event in events[:index]:
            assert not rec.enter(event.text(ctx)).refused
        if rec.enter(events[index].text(ctx)).refused:
            continue  # proved at once by a card the seat showed before: not this case
        trick = sum(type(e) is Play for e in events[:index]) // deal.rules.players + 1
        for k, event in enumerate(events[index + 1:], index + 1):
            reply = rec.enter(event.text(ctx))
            if reply.refused:
                break
        else:
            pytest.fail("the revoke was never proved, though the seat played a card it could have played then")
        # Always a revoke at that trick: the rule named is the one the cards seen so far prove (a seat seen
        # to hold a trump but no card of the suit led is told it had to trump).
        head = f"revoke (renuncio) at trick {trick}, proved by the cards seen since: {names[events[index].seat]} "
        assert head in reply.message, reply.message
        if reply.rule != duty or type(event) is not Play or event.seat != events[index].seat:
            continue
        proof_trick = sum(type(e) is Play for e in events[:k]) // deal.rules.players + 1
        assert f"{CODES[event.card]}: played at trick {proof_trick}" in reply.message, reply.message
        return
    pytest.fail(f"no deal of {rules_name} where {duty} is broken and proved later")


# ---------------------------------------------------------------------------
# tute record through a pseudo-terminal.


PROMPT = re.compile(r"(\d+\. [NWSE?] > |The turned card: |Event: |\([NWSE]\): )$")


class Terminal:
    """``tute record`` in a pseudo-terminal: type lines at its prompts, read what it prints."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
        env = dict(os.environ, TERM="dumb", NO_COLOR="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "tutepgn.cli", "record", *args], stdin=slave,
                                     stdout=slave, stderr=slave, cwd=cwd, env=env, preexec_fn=controlling_terminal)
        os.close(slave)
        self.master = master
        self.text = ""

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # the child closed the terminal
            return False
        if not chunk:
            return False
        self.text += chunk.decode("utf-8", "replace").replace("\r", "")
        return True

    def prompt(self, timeout: float = 60) -> str:
        """Wait for the next prompt; the text up to it."""
        deadline = time.monotonic() + timeout
        while not PROMPT.search(self.text):
            assert time.monotonic() < deadline, f"no prompt; the terminal shows:\n{self.text[-2000:]}"
            assert self._read(0.2) or PROMPT.search(self.text), f"ended:\n{self.text[-2000:]}"
        shown, self.text = self.text, ""
        return shown

    def type(self, line: str) -> str:
        """Type a line at the prompt; what the program printed before the next prompt (or its end)."""
        os.write(self.master, (line + "\n").encode())
        return self.prompt() if self.proc.poll() is None else ""

    def end(self, timeout: float = 60) -> tuple[int, str]:
        """Wait for the program to end; its exit status and the rest of its output."""
        deadline = time.monotonic() + timeout
        while self._read(0.2) and time.monotonic() < deadline:
            if self.proc.poll() is not None and not select.select([self.master], [], [], 0)[0]:
                break
        code = self.proc.wait(timeout=max(deadline - time.monotonic(), 1))
        os.close(self.master)
        return code, self.text


def _type_deal(term: Terminal, record: Record, last: bool) -> str:
    """Type a deal's turned card and entries; what the terminal showed after the last one."""
    shown = term.type(turned(record))
    lines = entry_lines(record)
    for i, line in enumerate(lines):
        if last and i == len(lines) - 1:
            os.write(term.master, (line + "\n").encode())
            return shown
        shown = term.type(line)
        assert "refused" not in shown and "error" not in shown, shown
    return shown


@pytest.mark.skipif(os.name != "posix", reason="needs a POSIX pseudo-terminal")
def test_tute_record_a_match_through_a_terminal(tmp_path: Path) -> None:
    samples = list(iter_records(SAMPLES / "ludoteka-match.tpgn"))
    term = Terminal(["-r", "ludoteka-pairs", "-o", "club.tpgn", "--tag", "Match=SanJose"], tmp_path)
    assert "Event:" in term.prompt()
    term.type("Torneo de San José")
    for name in ("Elena", "Gloria", "Hugo", "Manuel"):
        term.type(name)
    for i, sample in enumerate(samples):
        shown = _type_deal(term, sample, last=i == len(samples) - 1)
        assert "Trick" in shown and "Points" in shown  # the position, redrawn after every entry
    code, rest = term.end()
    assert code == 0, rest
    assert "the match is over: NS wins" in rest and "Complete" in rest
    written = list(iter_records(tmp_path / "club.tpgn"))
    assert [r.tags["Deal"] for r in written] == [s.tags["Deal"] for s in samples]
    assert [r.tags["MatchScore"] for r in written] == [s.tags["MatchScore"] for s in samples]
    assert written[0].tags["South"] == "Hugo" and written[4].tags["Event"] == "Torneo de San José"
    assert all(not report.errors for report in validate_records(written))


@pytest.mark.skipif(os.name != "posix", reason="needs a POSIX pseudo-terminal")
@pytest.mark.parametrize("name, index, record", [s for s in table_samples((2, 3, 4)) if s[2].termination != "*"],
                         ids=lambda v: v if isinstance(v, str) else None)
def test_tute_record_each_sample_deal_through_a_terminal(tmp_path: Path, name: str, index: int,
                                                         record: Record) -> None:
    names = record.header().rules.seat_names
    players = ",".join(record.tags.get(SEAT_TAGS[seat], "?") for seat in names)
    args = ["-r", record.tags["Rules"], "--single", "--dealer", record.tags["Dealer"], "--event", "Club",
            "--players", players, "-o", "deal.tpgn"]
    args += [f"--tag={k}={record.tags[k]}" for k in ("Match", "DealNo") if k in record.tags]
    term = Terminal(args, tmp_path)
    term.prompt()
    _type_deal(term, record, last=True)
    code, rest = term.end()
    assert code == 0, rest
    rest = " ".join(rest.split())  # as the terminal wrapped it
    written = read_record(tmp_path / "deal.tpgn")
    assert written.events == record.events and written.tags["Result"] == record.tags["Result"]
    assert written.header().claimed_score == record.header().claimed_score  # the hand-written sample's order differs
    assert written.tags[SEAT_TAGS[names[-1]]] == record.tags.get(SEAT_TAGS[names[-1]], "?")
    if len(names) == 2:  # the stock order is never seen: no Deal or Stock, validated as reconstructed
        assert "no Deal or Stock tag; the record validates" in rest
        assert "Deal" not in written.tags and "Stock" not in written.tags
        report = validate(written)
        assert not report.errors and "stock_reconstructed" in {f.code for f in report.warnings}
        assert determined_hands(written) == determined_hands(record)
    elif not any(type(e) is Tute for e in record.events):
        assert "hands reconstructed; the record validates" in rest
        assert written.tags["Deal"] == record.tags["Deal"] and not validate(written).errors
    else:
        assert "Deal" not in written.tags and "a tute ended the deal before every card was played" in rest
        assert "the record validates" in rest and not validate(written).errors


@pytest.mark.skipif(os.name != "posix", reason="needs a POSIX pseudo-terminal")
@pytest.mark.parametrize("stop", ["ctrl-c", "kill"])
def test_tute_record_resumes_an_interrupted_recording(tmp_path: Path, stop: str) -> None:
    record = read_record(SAMPLES / "torofun-4p-lost-cante.tpgn")
    lines = entry_lines(record)
    args = ["-r", "torofun-4p", "--single", "--dealer", "W", "--event", "Club", "--players", "A,B,C,D",
            "-o", "deal.tpgn"]
    term = Terminal(args, tmp_path)
    term.prompt()
    term.type(turned(record))
    for line in lines[:6]:
        term.type(line)
    entered = read_record(tmp_path / "deal.tpgn").events
    if stop == "ctrl-c":
        os.write(term.master, b"\x03")
        code, rest = term.end()
        assert code == 0 and "entries saved" in rest and "unfinished" in rest
    else:
        term.proc.send_signal(signal.SIGKILL)
        term.end()
    assert read_record(tmp_path / "deal.tpgn").events == entered and len(entered) > 6
    again = Terminal(["--resume", "deal.tpgn"], tmp_path)
    assert "hands unknown" in again.prompt()
    for line in lines[6:-1]:
        assert "refused" not in again.type(line)
    os.write(again.master, (lines[-1] + "\n").encode())
    code, rest = again.end()
    assert code == 0, rest
    written = read_record(tmp_path / "deal.tpgn")
    assert written.tags["Deal"] == record.tags["Deal"] and written.tags["Event"] == "Club"
    assert not validate(written).errors


def test_declarations_judged_by_the_engine_from_the_cards_seen() -> None:
    record = read_record(SAMPLES / "torofun-4p-lost-cante.tpgn")  # torofun-4p: one cante a trick, unsung ones lost
    rec = start(record)
    assert not rec.enter("1. S 7E 10E 1E 3C").refused  # W wins, holding 12B 11B, and says nothing
    assert not rec.enter("2. W 1O 6O 4O 3O").refused
    reply = rec.enter("W 20B")  # the cante shows W held 12B 11B when W won trick 1 and stayed silent
    assert reply.refused and reply.rule == "forfeit_unsung_cantes" and "the cante in bastos was lost" in reply.message
    rec.enter("undo 4")
    assert not rec.enter("2. W 11B 4B 7B 1B").refused and not rec.enter("S 20E").refused
    reply = rec.enter("N 20O")  # nothing seen says N lacks 12O 11O, but the side has sung after this trick
    assert reply.refused and reply.rule == "cantes_per_trick"


def test_two_players_exchange_and_last_draw_move_the_turned_card() -> None:
    record = read_record(SAMPLES / "playcard-exchange-and-late-cante.tpgn")  # turned 12B; N x7B after trick 10
    ctx = Context(("N", "S"), record.header().trump)
    texts = [e.text(ctx) for e in record.events]
    rec = start(record)
    exchange = texts.index("N x7B")
    for text in texts[:exchange]:
        assert not rec.enter(text).refused
    assert rec.enter("N 12B").message.startswith("refused: N cannot have 12B: 12B is the turned card, under the stock")
    assert not rec.enter("N x7B").refused
    reply = rec.enter("N 7B")  # the 7 given now lies under the stock; the rey taken is N's
    assert reply.refused and "7B is the turned card, under the stock" in reply.message
    reply = rec.enter("N 40")
    assert not reply.refused
    reply = rec.enter("S 12C")
    assert reply.refused and "12C was already played, by N at trick 6" in reply.message
    trick_13 = texts.index("N 12E")
    for text in texts[exchange + 2:trick_13]:  # tricks 11 and 12: the stock runs out, S (the loser) draws 7B
        assert not rec.enter(text).refused
    assert rec.deal.stock_left == 0 and rec.deal.last_drawer == 1
    reply = rec.enter("N 7B")
    assert reply.refused and "S holds 7B: the turned card, drawn last, after trick 12" in reply.message
    for text in texts[trick_13:]:
        assert not rec.enter(text).refused, text
    assert rec.over and rec.record().tags["Result"] == record.tags["Result"]


@pytest.mark.parametrize("path", sorted((SAMPLES / "simulated").glob("*.tpgn")), ids=lambda p: p.name)
def test_every_simulated_deal_is_accepted_as_seen_and_reconstructed(path: Path) -> None:
    """No false refusal: every legal deal (first deals of matches included) passes the checks from the cards
    seen, and with 3 and 4 players the hands reconstructed at the end are the deal's."""
    from tutepgn.recording.sighted import Start, check, reconstructed_deal

    count = 0
    for record in iter_records(path):
        header = record.header()
        assert header.dealer is not None and header.turned is not None
        begin = Start(header.rules, header.dealer, header.turned, header.first_of_match)
        assert check(begin, record.events).over
        deal = reconstructed_deal(begin, record.events)
        if header.rules.players > 2 and not any(type(e) is Tute for e in record.events):
            assert deal is not None and tuple(deal.initial_hands) == header.hands
            assert deal.score().totals == check(begin, record.events).score().totals
        count += 1
    assert count >= 10
