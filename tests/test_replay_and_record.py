"""Stepping through deals (tute replay) and recording deals at the table (tute record)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tutepgn.cards import CODES, CardSet, card_from_code
from tutepgn.cli.main import app
from tutepgn.cli.replay import move
from tutepgn.engine import Deal
from tutepgn.events import Cante, Context, Play
from tutepgn.notation import Record, format_side_values, read_record
from tutepgn.recording.recorder import Recorder
from tutepgn.check.replay import frame_data, frames, replay
from tutepgn.cli.render import render_frame, table_text
from tutepgn.rules import PRESETS, preset
from tutepgn.recording.simulate import deal_records, greedy_bot

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def _replayed(record: Record) -> Deal:
    deal = record.header().deal()
    for event in record.events:
        deal.apply(event)
    return deal


# ---------------------------------------------------------------------------
# The library: frames.


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_frames_follow_a_simulated_deal_of_each_preset(name: str) -> None:
    for record in deal_records(preset(name), 3, seed=21):
        steps = frames(record)
        deal = _replayed(record)
        sheet = deal.score()
        assert len(steps) == len(record.events) + 1
        assert steps[0].event is None and steps[0].table == () and steps[0].points == (0,) * sheet.sides
        assert all(len(h) == deal.rules.hand_size for h in steps[0].hands)
        last = steps[-1]
        assert last.over and last.illegal is None
        assert last.points == tuple(sheet.card_points[k] + sheet.cante_points(k) for k in range(sheet.sides))
        assert last.totals == sheet.totals and last.result == record.tags["Result"]
        finished = [f for f in steps if f.winner is not None]
        assert len(finished) == len(sheet.tricks)
        names = deal.rules.seat_names
        for frame, trick in zip(finished, sheet.tricks):
            assert frame.table == tuple((names[(trick.leader + i) % len(names)], CODES[c])
                                        for i, c in enumerate(trick.cards))
            assert frame.winner == names[trick.winner] and frame.trick_points == trick.points
        for frame, event in zip(steps[1:], record.events):
            assert frame.text == event.text(Context.of(deal))
            if type(event) is not Play:
                assert frame.text in frame.cantes + frame.exchanges or frame.over  # a tute ends the deal
        if deal.rules.players == 2:
            assert steps[0].stock == 24 and last.stock == 0
        else:
            assert last.stock is None


def test_frames_show_cantes_and_exchanges_at_their_moment() -> None:
    record = next(r for r in deal_records(preset("playcard-2p"), 50, seed=2)
                  if any(type(e).__name__ == "Exchange" for e in r.events)
                  and any(type(e).__name__ == "Cante" for e in r.events))
    steps = frames(record)
    at = next(i for i, e in enumerate(record.events, 1) if type(e).__name__ == "Exchange")
    assert not steps[at - 1].exchanges and steps[at].exchanges == (steps[at].text,)
    before, after = steps[at - 1], steps[at]
    seat = after.seats.index(after.text[0])
    assert before.turned in after.hands[seat] and after.turned == after.text.split("x")[1]
    at = next(i for i, e in enumerate(record.events, 1) if type(e).__name__ == "Cante")
    assert steps[at].cantes[-1] == steps[at].text and len(steps[at].cantes) == len(steps[at - 1].cantes) + 1
    assert sum(steps[at].cante_points) > sum(steps[at - 1].cante_points)


def test_an_illegal_event_is_marked_and_the_deal_goes_on() -> None:
    record = next(deal_records(preset("torofun-4p"), 1, seed=5))
    deal = record.header().deal()
    second = record.events[1]
    assert isinstance(second, Play)
    owner = next(s for s in range(4) if s != second.seat and deal.hand(s))
    stolen = deal.hand(owner)[0]
    record.events[1] = Play(second.seat, stolen)
    record.events.insert(0, Cante(0, 0))
    steps = frames(record)
    assert len(steps) == len(record.events) + 1
    assert steps[1].rule == "declare_after_won_trick" and steps[1].skipped and steps[1].cantes == ()
    assert steps[3].rule == "not_held" and steps[3].illegal and not steps[3].skipped
    assert CODES[stolen] not in steps[3].hands[owner] and steps[3].table[-1] == (steps[3].seats[second.seat],
                                                                                CODES[stolen])


def test_an_event_after_the_end_is_skipped() -> None:
    record = next(deal_records(preset("playcard-2p"), 1, seed=5))
    record.events.append(Play(0, card_from_code("1O")))
    steps = frames(record)
    assert steps[-1].rule == "deal_over" and steps[-1].skipped and steps[-1].over
    assert steps[-1].totals == steps[-2].totals
    assert all(f.illegal is None for f in steps[:-1])


# ---------------------------------------------------------------------------
# The library: replay steps and restart.


def test_replay_of_a_legal_record_applies_every_event() -> None:
    record = next(deal_records(preset("torofun-2p"), 1, seed=4))
    deal = record.header().deal()
    steps = list(replay(deal, record.events))
    assert [s.index for s in steps] == list(range(len(record.events)))
    assert all(s.error is None and s.applied for s in steps) and [s.event for s in steps] == record.events
    assert deal.over and deal.log == record.events
    assert list(replay(record.header().deal(), record.events, only_illegal=True)) == []


def test_replay_forces_an_illegal_play_and_skips_a_refused_cante() -> None:
    record = next(deal_records(preset("torofun-4p"), 1, seed=5))
    deal = record.header().deal()
    second = record.events[1]
    owner = next(s for s in range(4) if s != second.seat and deal.hand(s))
    stolen = deal.hand(owner)[0]
    events = [Cante(0, 0), record.events[0], Play(second.seat, stolen)]
    cante, first, forced = replay(deal, events)
    assert (cante.error.rule, cante.applied) == ("declare_after_won_trick", False) and deal.cantes == []
    assert (first.error, first.applied) == (None, True)
    assert (forced.index, forced.error.rule, forced.applied) == (2, "not_held", True)
    assert stolen not in deal.hand(owner) and deal.trick[-1] == stolen
    assert deal.log == events[1:]  # the refused cante is not in the log, the forced play is
    illegal = replay(record.header().deal(), events, only_illegal=True)
    assert [(s.index, s.error.rule, s.applied) for s in illegal] == [(0, cante.error.rule, False), (2, "not_held", True)]


def test_replay_goes_on_after_the_end_without_applying() -> None:
    record = next(deal_records(preset("playcard-2p"), 1, seed=5))
    deal = record.header().deal()
    events = [*record.events, Play(0, card_from_code("1O")), Play(1, card_from_code("1C"))]
    *_, last_legal, after, again = replay(deal, events)
    assert last_legal.error is None and deal.over
    assert [(s.error.rule, s.applied) for s in (after, again)] == [("deal_over", False)] * 2
    assert deal.log == record.events


def test_restart_is_the_deal_at_its_start_and_undo_replays_all_but_the_last() -> None:
    record = next(deal_records(preset("playcard-2p"), 1, seed=9))
    deal = record.header().deal()
    for _ in replay(deal, record.events):
        pass
    fresh = deal.restart()
    assert fresh is not deal and fresh.log == [] and not fresh.tricks
    assert (fresh.hands, fresh.stock, fresh.turned, fresh.dealer, fresh.first_of_match, fresh.turn) == (
        list(deal.initial_hands), list(deal.initial_stock), deal.initial_turned, deal.dealer, deal.first_of_match,
        record.header().deal().turn)
    for _ in replay(fresh, deal.log[:-1]):
        pass
    assert fresh.log == deal.log[:-1] and not fresh.over
    fresh.apply(deal.log[-1])
    assert fresh.score() == deal.score()


def test_the_readme_library_example_runs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## The library", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)


def test_frame_table_line_reads_like_the_trick() -> None:
    record = next(deal_records(preset("torofun-3p"), 1, seed=8))
    done = next(f for f in frames(record) if f.winner is not None)
    line = table_text(done).plain
    assert line.startswith("Trick 1: ") and line.endswith(f"won by {done.winner} ({done.trick_points})")


def test_frames_carry_the_records_annotations_and_comments_at_their_event() -> None:
    text = (ROOT / "samples" / "doubles.tpgn").read_text(encoding="utf-8")
    text = text[:text.index("NS+2\n") + 5].replace("1. W 2O 1O 10O 6O", "1. W 2O? {too soon} 1O $14 10O 6O")
    record = read_record(text.replace("N 40\n", "N 40! {las cuarenta} ; and the line\n"))
    steps = frames(record)
    assert steps[0].comments == tuple(record.intro) and steps[0].comments[0].startswith("Over 100")
    assert [(f.text, f.annotation, f.comments) for f in steps[1:6]] == [
        ("W 2O", "?", ("too soon",)), ("S 1O", "$14", ()), ("E 10O", "", ()), ("N 6O", "", ()),
        ("N 40", "!", ("las cuarenta", "and the line"))]
    assert all(not f.annotation and not f.comments for f in steps[6:])
    data = json.loads(json.dumps(frame_data(steps[5])))  # as the web page and tute replay --json give it
    assert data["annotation"] == "!" and data["comments"] == ["las cuarenta", "and the line"]
    shown = Console(width=100, record=True)
    shown.print(render_frame(steps[5]))
    printed = shown.export_text()
    assert "N 40!" in printed and "\nlas cuarenta\nand the line\n" in printed


# ---------------------------------------------------------------------------
# tute replay


def _write_records(path: Path, rules: str, count: int, seed: int) -> list[Record]:
    records = list(deal_records(preset(rules), count, seed=seed))
    path.write_text("\n".join(r.tpgn() for r in records), encoding="utf-8")
    return records


def _trick_lines(record: Record) -> list[str]:
    deal = _replayed(record)
    names = deal.rules.seat_names
    n = len(names)
    return [f"Trick {k}: " + "  ".join(f"{names[(t.leader + i) % n]} {CODES[c]}" for i, c in enumerate(t.cards))
            + f"  won by {names[t.winner]} ({t.points})" for k, t in enumerate(deal.tricks, 1)]


def test_replay_piped_prints_every_frame_and_trick(tmp_path: Path) -> None:
    target = tmp_path / "deals.tpgn"
    records = _write_records(target, "ludoteka-pairs", 2, seed=4)
    result = runner.invoke(app, ["replay", str(target)])
    assert result.exit_code == 0, result.output
    for line in _trick_lines(records[0]):
        assert line in result.output
    assert result.output.count("start of the deal") == 1
    assert f"{len(records[0].events)}/{len(records[0].events)}" in result.output
    assert "Deal over." in result.output and records[0].tags["Result"] in result.output


def test_replay_record_2(tmp_path: Path) -> None:
    target = tmp_path / "deals.tpgn"
    records = _write_records(target, "playcard-2p", 2, seed=9)
    result = runner.invoke(app, ["replay", str(target), "--record", "2", "--all"])
    assert result.exit_code == 0, result.output
    first_hand = str(CardSet(records[1].header().hands[0]))  # type: ignore[index]
    assert f"N {first_hand}" in result.output
    for line in _trick_lines(records[1]):
        assert line in result.output
    assert _trick_lines(records[0])[0] not in result.output


@pytest.mark.parametrize("args, words", [
    (["missing.tpgn"], "cannot read"),
    (["deals.tpgn", "--record", "3"], "no record 3"),
    (["deals.tpgn", "--record", "0"], "start at 1"),
    (["broken.tpgn"], "broken.tpgn:3"),
    (["nodeal.tpgn"], "no Deal tag"),
])
def test_replay_errors_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], words: str) -> None:
    monkeypatch.chdir(tmp_path)
    _write_records(tmp_path / "deals.tpgn", "torofun-2p", 2, seed=1)
    (tmp_path / "broken.tpgn").write_text('[Rules "playcard-2p"]\n\n1. N 1O zz\n*\n', encoding="utf-8")
    (tmp_path / "nodeal.tpgn").write_text('[Rules "playcard-2p"]\n[Dealer "N"]\n\n*\n', encoding="utf-8")
    result = runner.invoke(app, ["replay", *args])
    assert result.exit_code == 2, result.output
    assert "error" in result.output and words in result.output


def test_replay_keys() -> None:
    assert move(0, "\x1b[C", 5) == 1 and move(0, " ", 5) == 1 and move(4, "n", 5) == 4
    assert move(3, "\x1b[D", 5) == 2 and move(0, "p", 5) == 0 and move(3, "b", 5) == 2
    assert move(3, "g", 5) == 0 and move(3, "\x1b[H", 5) == 0 and move(1, "G", 5) == 4 and move(1, "\x1b[F", 5) == 4
    assert move(2, "q", 5) is None and move(2, "z", 5) == 2


# ---------------------------------------------------------------------------
# tute record: scripts built from the library's legal choices.


def _script(rules: str, seed: int, dealer: int = 0) -> tuple[list[str], Deal]:
    """The entries of a whole deal played by the greedy bot, and the deal they make."""
    deal = Deal.shuffled(preset(rules), seed, dealer)
    rng = random.Random(seed)
    entries = []
    while not deal.over:
        action = greedy_bot(deal, rng)
        entries.append(CODES[action.card] if type(action) is Play else action.text(Context.of(deal)))
        deal.apply(action)
    return entries, deal


def _with_declaration(rules: str) -> tuple[int, list[str], Deal]:
    for seed in range(100):
        entries, deal = _script(rules, seed)
        if any(" " in e for e in entries) and deal.tute_event is None:
            return seed, entries, deal
    raise AssertionError("no seed with a declaration")


def _check_file(path: Path, deal: Deal) -> Record:
    record = read_record(path)
    assert record.events == deal.log
    assert record.termination == record.tags["Result"] != "*"
    assert record.tags["Score"] == format_side_values(deal.score().totals, deal.rules)
    return record


@pytest.mark.parametrize("rules", ["playcard-2p", "torofun-2p", "torofun-3p", "ludoteka-pairs", "torofun-4p"])
def test_record_a_complete_deal_from_a_seed(tmp_path: Path, rules: str) -> None:
    seed, entries, deal = _with_declaration(rules)
    target = tmp_path / "deal.tpgn"
    result = runner.invoke(app, ["record", "--rules", rules, "--seed", str(seed), "-o", str(target),
                                 "--tags", "Event=Club night", "--tags", "North=Ana"],
                           input="\n".join(entries) + "\n")
    assert result.exit_code == 0, result.output
    assert "Deal complete" in result.output and "deal over: Score" in result.output
    record = _check_file(target, deal)
    assert record.tags["Event"] == "Club night" and record.tags["North"] == "Ana"
    assert not [p for p in tmp_path.iterdir() if p.name != "deal.tpgn"]  # no temporary file left behind


def test_record_an_entered_deal(tmp_path: Path) -> None:
    for rules, seed in (("torofun-4p", 3), ("playcard-2p", 3)):
        entries, deal = _script(rules, seed, dealer=1)
        tags = Record.from_deal(Deal.shuffled(preset(rules), seed, 1)).tags
        args = ["record", "-r", rules, "--deal", tags["Deal"], "--turned", tags["Trump"], "--dealer", "W" if
                deal.rules.players == 4 else "S", "-o", str(tmp_path / f"{rules}.tpgn")]
        if "Stock" in tags:
            args += ["--stock", tags["Stock"]]
        result = runner.invoke(app, args, input="\n".join(entries) + "\n")
        assert result.exit_code == 0, result.output
        assert _check_file(tmp_path / f"{rules}.tpgn", deal).tags["Deal"] == tags["Deal"]


def test_record_refuses_an_illegal_card_then_goes_on(tmp_path: Path) -> None:
    entries, deal = _script("torofun-4p", 6)
    probe = Deal.shuffled(preset("torofun-4p"), 6, 0)
    for i, entry in enumerate(entries):
        if " " not in entry and probe.trick:
            bad = [c for c in probe.hand(probe.turn) if not probe.can_play(c)]
            if bad:
                break
        probe.apply(Play(probe.turn, card_from_code(entry)) if " " not in entry else
                    Recorder(probe).parse(entry))
    else:
        raise AssertionError("no illegal card to try")
    legal = probe.legal_plays().codes()
    script = entries[:i] + [CODES[bad[0]]] + entries[i:]
    target = tmp_path / "deal.tpgn"
    result = runner.invoke(app, ["record", "-r", "torofun-4p", "--seed", "6", "-o", str(target)],
                           input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    assert any(rule in result.output for rule in ("must_follow", "must_beat", "must_trump", "must_overtrump"))
    assert f"may play {' '.join(legal)}" in result.output
    _check_file(target, deal)


def test_record_undo_help_and_refused_lines(tmp_path: Path) -> None:
    entries, deal = _script("playcard-2p", 11)
    first = Deal.shuffled(preset("playcard-2p"), 11, 0)
    other = next(CODES[c] for c in first.hand(first.turn) if CODES[c] != entries[0])
    script = ["?", "help", "zz", "W 40", other, "undo", "undo", *entries]
    target = tmp_path / "deal.tpgn"
    result = runner.invoke(app, ["record", "-r", "playcard-2p", "--seed", "11", "-o", str(target)],
                           input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("legal now:") >= 4 and "'zz' is not a card" in result.output
    assert "W is not a seat here" in result.output
    assert f"took back {'NS'[first.turn]} {other}" in result.output and "nothing to undo" in result.output
    _check_file(target, deal)


def test_record_library_parses_entries() -> None:
    rec = Recorder(Deal.shuffled(preset("torofun-2p"), 1, 0))
    deal = rec.deal
    trump = "OCEB"[deal.trump]
    assert rec.parse("n 1o") == Play(0, card_from_code("1O"))
    assert rec.parse("AO") == Play(deal.turn, card_from_code("1O"))
    ctx = Context.of(deal)
    assert rec.parse("S 40").text(ctx) == "S 40" and rec.parse(f"N 40{trump}").text(ctx) == "N 40"
    assert rec.parse("N tute R").text(ctx) == "N tute 12" and rec.parse("S x2B").text(ctx) == "S x2B"
    with pytest.raises(ValueError, match="40 is the cante in trump"):
        rec.parse("N 40" + ("O" if trump != "O" else "C"))


@pytest.mark.parametrize("args, words", [
    (["--seed", "1", "--deal", "N:1O"], "not both"),
    (["--single", "--players", "Ana, Bea, Carlos", "--event", "Club"], "this table has 2 seats"),
    (["--single", "--event", "Club", "--players", "Ana,Bea", "--turned", "9O"], "not a card of this pack"),
    (["--deal", "N:1O 3O 1O S:4O"], "1O is given twice to N"),
    (["--deal", "N:1O 3O S:4O"], "holds 2 cards"),
    (["--seed", "1", "--dealer", "W"], "not a seat"),
    (["--seed", "1", "--tags", "Result=NS+1"], "Result tag"),
    (["--seed", "1", "--tags", "nonsense"], "not a tag"),
])
def test_record_usage_errors_exit_2(tmp_path: Path, args: list[str], words: str) -> None:
    result = runner.invoke(app, ["record", "-r", "playcard-2p", "-o", str(tmp_path / "x.tpgn"), *args])
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert not (tmp_path / "x.tpgn").exists()


def test_record_never_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "deal.tpgn"
    target.write_text("keep me\n", encoding="utf-8")
    result = runner.invoke(app, ["record", "-r", "playcard-2p", "--seed", "1", "-o", str(target)], input="")
    assert result.exit_code == 2 and "exists" in result.output
    assert target.read_text(encoding="utf-8") == "keep me\n"


# ---------------------------------------------------------------------------
# tute record as a real process, fed through stdin.


def _command(target: Path, seed: int, rules: str = "torofun-4p") -> list[str]:
    return [sys.executable, "-m", "tutepgn.cli", "record", "--rules", rules, "--seed", str(seed), "-o", str(target)]


def test_record_subprocess_complete_deal(tmp_path: Path) -> None:
    seed, entries, deal = _with_declaration("torofun-2p")
    target = tmp_path / "deal.tpgn"
    done = subprocess.run(_command(target, seed, "torofun-2p"), input="\n".join(entries) + "\n", text=True,
                          capture_output=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    _check_file(target, deal)


def test_record_subprocess_end_of_input_keeps_every_entry(tmp_path: Path) -> None:
    entries, deal = _script("torofun-4p", 2)
    target = tmp_path / "deal.tpgn"
    done = subprocess.run(_command(target, 2), input="\n".join(entries[:7]) + "\n", text=True,
                          capture_output=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Stopped: 7 entries saved" in done.stdout
    record = read_record(target)
    assert record.events == deal.log[:7] and record.termination == record.tags["Result"] == "*"


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="needs POSIX signals")
def test_record_subprocess_interrupted_keeps_every_entry(tmp_path: Path) -> None:
    entries, deal = _script("torofun-4p", 4)
    target = tmp_path / "deal.tpgn"
    proc = subprocess.Popen(_command(target, 4), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stdin is not None
        proc.stdin.write("\n".join(entries[:9]) + "\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        while True:
            if target.exists() and len(read_record(target).events) == 9:
                break
            assert time.monotonic() < deadline, "the recorder did not save 9 entries"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr
    assert "Stopped: 9 entries saved" in stdout
    record = read_record(target)
    assert record.events == deal.log[:9] and record.termination == "*"
    assert [p.name for p in tmp_path.iterdir()] == ["deal.tpgn"]
