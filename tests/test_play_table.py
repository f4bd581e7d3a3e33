"""A table with a person among bots: the library's :class:`Table`, and ``tute play`` through a pseudo-terminal."""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tutepgn.errors import EntryError, IllegalAction
from tutepgn.cards import CODES
from tutepgn.check.validate import validate
from tutepgn.notation import read_record
from tutepgn.play.bots import TOP_LEVEL
from tutepgn.play.table import Table
from tutepgn.play.tables import Tables
from tutepgn.rules import preset

from terminals import controlling_terminal


def test_a_whole_deal_at_the_table_each_refusal_explained() -> None:
    table = Table(preset("ludoteka-pairs"), 2, level=3, seed=11, name="Ana")
    refused = 0
    while True:
        table.advance()
        if table.deal.over:
            break
        scene = table.scene()
        assert table.waiting and scene.options
        if table.may_pass:
            assert table.enter("") is None
            continue
        wrong = next((c for c in scene.hand if c not in scene.options), None)
        before = len(table.deal.log)
        for line in ("7X", "N 1O"):
            with pytest.raises(EntryError):
                table.enter(line)
        if wrong is not None:
            with pytest.raises(IllegalAction):  # a card held but against the duties: the rule's words
                table.enter(wrong)
            refused += 1
        assert len(table.deal.log) == before
        table.enter(scene.options[-1])
    record = table.record()
    assert not validate(record).errors and record.tags["South"] == "Ana"
    assert record.tags["North"] == "Bot level 3 (heuristic)"
    assert refused


def test_the_scene_shows_only_the_persons_hand() -> None:
    table = Table(preset("torofun-3p"), 0, level=1, seed=2)
    table.advance()
    scene = table.scene()
    assert sorted(scene.hand) == sorted(CODES[c] for c in table.deal.hand(0))
    hidden = {CODES[c] for seat in (1, 2) for c in table.deal.hand(seat)}
    assert hidden and not hidden & set(scene.hand) and scene.to_move == "N"


def test_a_declaration_out_of_turn_is_offered_and_may_be_passed() -> None:
    for seed in range(60):
        table = Table(preset("ludoteka-pairs"), 0, level=2, seed=seed)
        while not table.deal.over:
            table.advance()
            if table.deal.over:
                break
            if table.may_pass:
                scene = table.scene()
                assert scene.may_pass and all(o[0] in "24tx" for o in scene.options)
                with pytest.raises(EntryError):  # no card out of turn
                    table.enter(table.scene().hand[0])
                assert table.enter("") is None and not table.may_pass
                return
            table.enter(table.scene().options[-1])
    pytest.fail("no deal offered the person a declaration out of turn")


# ---------------------------------------------------------------------------
# tute play through a pseudo-terminal.

PROMPT = re.compile(r"(Your play: |press Enter to pass: )$")
OPTIONS = re.compile(r"You may enter (.*)\n")


@pytest.mark.skipif(os.name != "posix", reason="needs a POSIX pseudo-terminal")
def test_tute_play_a_whole_deal_through_a_terminal(tmp_path: Path) -> None:
    path = tmp_path / "deal.tpgn"
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", TUTEPGN_LANG="en")
    proc = subprocess.Popen([sys.executable, "-m", "tutepgn.cli", "play", "--rules", "playcard-2p", "--seat", "S",
                             "--level", "3", "--seed", "4", "-o", str(path)], stdin=slave, stdout=slave,
                            stderr=slave, cwd=tmp_path, env=env, preexec_fn=controlling_terminal)
    os.close(slave)
    text = ""
    seen = ""
    typed = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            text += chunk.decode("utf-8", "replace").replace("\r", "")
        elif proc.poll() is not None:
            break
        if PROMPT.search(text):
            seen += text
            if typed == 0:
                os.write(master, b"7X\n")  # not a card: explained, asked again
            else:
                options = OPTIONS.findall(text) or OPTIONS.findall(seen)
                line = "" if "press Enter to pass" in text else options[-1].split()[0]
                os.write(master, (line + "\n").encode())
            typed += 1
            text = ""
    seen += text
    assert proc.wait(timeout=30) == 0, seen[-3000:]
    os.close(master)
    assert "'7X' is not a card or a declaration; you may enter" in seen
    assert "Your hand (S): " in seen and "trump " in seen and "deal over: Score" in seen
    record = read_record(path.read_text(encoding="utf-8"))
    assert not validate(record).errors and record.tags["North"] == "Bot level 3 (heuristic)"
    assert subprocess.run([sys.executable, "-m", "tutepgn.cli", "validate", str(path)], env=env).returncode == 0


def test_a_table_begun_at_a_level_since_merged_goes_on_at_the_top_one(tmp_path: Path) -> None:
    """Of the 8 levels once named, PIMC with 10, 20 and 40 worlds are no longer levels and 40 weighted worlds is
    level 5: a table file begun at level 6 to 8 is rebuilt and played on at the top level, not refused."""
    sitting = Tables(tmp_path).create("playcard-2p", "S", level=1, seed=3)
    path = tmp_path / f"{sitting.id}.json"
    saved = json.loads(path.read_text(encoding="utf-8"))
    saved["start"]["level"] = 8
    path.write_text(json.dumps(saved), encoding="utf-8")
    again = Tables(tmp_path).get(sitting.id)
    assert again.state()["level"] == TOP_LEVEL == 5
    again.enter(again.state()["cards"][0])
    assert again.state()["version"] == sitting.version + 1
    assert json.loads(path.read_text(encoding="utf-8"))["start"]["level"] == 5
