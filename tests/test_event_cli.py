"""``tute event``: the real command on a real archive file, one process per command, as a secretary runs it."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

PAIRS = ["Ana Pérez/Bea Gil", "Carlos Ruiz/Dani Sol", "Elena Mora/Fede Cano", "Gema Ríos/Hugo Paz",
         "Inés Vega/Juan Toro", "Lola Gil/Mario Sanz", "Nuria Lago/Óscar Rey", "Pilar Mena/Quique Luna"]


def tute(db: Path, *args: str, lang: str = "en", status: int = 0) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([sys.executable, "-m", "tutepgn.cli", "--lang", lang, *args, "--db", str(db)],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "COLUMNS": "200", "TUTEPGN_DB": ""})
    assert run.returncode == status, (args, run.stdout, run.stderr)
    return run


def test_an_evening_of_eight_pairs_and_three_swiss_rounds(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    tute(db, "event", "new", "Otoño", "--kind", "torneo", "--rules", "ludoteka-pairs", "--format", "swiss",
         "--rounds", "3", "--seed", "7")
    added = tute(db, "event", "add", "Otoño", *PAIRS).stdout.splitlines()
    assert added == [f"{i}. {p}" for i, p in enumerate(PAIRS, 1)]

    totals = {i: [0, 0, 0] for i in range(1, 9)}  # matches won, deals difference, points difference
    met: set[frozenset[int]] = set()
    for rnd in (1, 2, 3):
        paired = json.loads(tute(db, "event", "pair", "Otoño", "--json").stdout)["tables"]
        assert len(paired) == 4 and all(t["away"] is not None for t in paired)
        for t in paired:
            pair = frozenset((t["home"], t["away"]))
            assert pair not in met
            met.add(pair)
            n = t["number"]
            matches, deals, points = ((2, 1), (5, 3), (310, 250 + n)) if n % 2 else ((0, 2), (2, 4 + n % 3), (200, 290))
            tute(db, "event", "result", "Otoño", "--round", str(rnd), "--table", str(n),
                 f"{matches[0]}-{matches[1]}", "--deals", f"{deals[0]}-{deals[1]}",
                 "--points", f"{points[0]}-{points[1]}")
            for who, side in ((t["home"], 0), (t["away"], 1)):
                totals[who][0] += matches[side]
                totals[who][1] += deals[side] - deals[1 - side]
                totals[who][2] += points[side] - points[1 - side]

    rows = json.loads(tute(db, "event", "standings", "Otoño", "--json").stdout)
    keys = [(-w, -d, -p) for w, d, p in totals.values()]
    assert [(-r["matches_won"], -r["deals_difference"], -r["points_difference"]) for r in rows] == sorted(keys)
    assert [r["place"] for r in rows][0] == 1 and rows[0]["played"] == 3
    assert {r["name"] for r in rows} == set(PAIRS)

    table = list(csv.reader(io.StringIO(tute(db, "event", "standings", "Otoño", "-f", "csv").stdout)))
    assert table[0][:3] == ["place", "entrant", "name"] and [r[2] for r in table[1:]] == [r["name"] for r in rows]
    cross = json.loads(tute(db, "event", "crosstable", "Otoño", "--json").stdout)
    assert sum(cell is not None for row in cross for cell in row["cells"]) == 24  # 12 encounters, both ways

    fourth = tute(db, "event", "pair", "Otoño", lang="es", status=2)
    assert "Otoño" in fourth.stderr and "3 rondas" in fourth.stderr
    wrong = tute(db, "event", "result", "Otoño", "--round", "1", "--table", "9", "1-0", status=2)
    assert "no table 9" in wrong.stderr
    bad = tute(db, "event", "result", "Otoño", "--round", "1", "--table", "1", "dos-uno", lang="es", status=2)
    assert "2-1" in bad.stderr


def test_a_correction_replaces_a_result_and_a_refusal_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "liga.duckdb"
    tute(db, "event", "new", "Liga", "--kind", "liga", "--format", "round-robin", "--rules", "playcard-2p")
    tute(db, "event", "add", "Liga", "Ana", "Bea", "Ciro")
    tute(db, "event", "add", "Liga", "Dora", "Ana", status=2)  # Ana twice: neither is added
    tute(db, "event", "add", "Liga", "Eva/Fran", status=2)  # a pair in a league of players
    sheet = tute(db, "event", "pair", "Liga", lang="es").stdout
    assert "Liga: ronda 1" in sheet and "mesa" in sheet and "descansa" in sheet
    tute(db, "event", "result", "Liga", "--round", "1", "--table", "1", "1-0")
    tute(db, "event", "result", "Liga", "--round", "1", "--table", "1", "0-1")
    rows = json.loads(tute(db, "event", "standings", "Liga", "--json").stdout)
    assert len(rows) == 3 and sum(r["matches_won"] for r in rows) == 2  # the corrected result and one bye
    history = json.loads(tute(db, "event", "history", "Liga", str(rows[0]["entrant"]), "--json").stdout)
    assert history[0]["matches"] == [1, 0]
    tute(db, "event", "new", "Liga", status=2)
    assert "nope" in tute(db, "event", "new", "Otra", "--rules", "nope", status=2).stderr
    missing = tute(db, "event", "standings", "Nada", lang="es", status=2)
    assert "Nada" in missing.stderr


def test_a_knockout_is_seeded_from_the_ranking_given(tmp_path: Path) -> None:
    db = tmp_path / "copa.duckdb"
    tute(db, "event", "new", "Copa", "--format", "knockout")
    tute(db, "event", "add", "Copa", *PAIRS[:6])
    tables = json.loads(tute(db, "event", "pair", "Copa", "--ranking", "6,5,4,3,2,1", "--json").stdout)["tables"]
    assert [(t["home"], t["away"]) for t in tables] == [(6, None), (3, 2), (5, None), (4, 1)]
