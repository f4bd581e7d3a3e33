"""An event's papers (issue 34): the standings as PDF, XLSX and CSV, the round's table sheets with their QR codes,
and the recorder started from an event's table or a duplicate board.

The PDFs are read back with pypdf; each QR code's modules are compared with segno's for the table's URL (no
QR decoder is installed: the picture is checked to be that code, module by module, and the URL printed under it).
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
import segno
from fastapi.testclient import TestClient
from openpyxl import load_workbook
from pypdf import PdfReader

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.archive.event_sheets import standings_download, table_sheets_pdf, table_url
from tutepgn.archive.events import add_entrants, create_event, enter_board, enter_result, load_event, pair_round
from tutepgn.errors import EventError
from tutepgn.notation import read_record
from tutepgn.tournament import (BoardResult, Event, Result, Round, Table, board_deal, board_start, next_round,
                                ranking, seats, standings, table_start)
from tutepgn.tournament.event import add_entrant

DAY = date(2026, 12, 6)
PAIRS = ["Ana Pérez/Bea Gil", "Carlos Ruiz/Dani Sol", "Zoë Łukasz/Ñu Ćirić", "Gema Ríos/Hugo Paz",
         "Inés Vega/Juan Toro"]
"""Five pairs (a bye each round), one with names beyond Latin-1 (printed in DejaVu Sans)."""
KEY = "tk_event_sheets"
BASE = "http://192.168.1.10:8000"


def event_of(fmt: str = "swiss", rules: str = "ludoteka-pairs", pairs: list[str] = PAIRS) -> Event:
    """An event with its entrants and its first round paired, every table's result in: table n's home pair wins
    2-1, by 5-3 deals, 300 to 250+n points."""
    event = Event.new("Torneo de Navidad", format=fmt, rules=rules, planned_rounds=3, seed=11)
    for text in pairs:
        event.entrants.append(add_entrant(event, text))
    rnd = next_round(event)
    event.rounds.append(rnd)
    for t in rnd.tables:
        if t.away is not None:
            rnd.results[t.number] = Result(table=t.number, matches=(2, 1), deals=(5, 3), points=(300, 250 + t.number))
    return event


def text_of(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


# -- the standings -----------------------------------------------------------------------------------------------
def test_the_standings_pdf_lists_the_entrants_in_standings_order_then_the_crosstable() -> None:
    event = event_of()
    download = standings_download(event, "pdf", "es", printed=DAY)
    assert download.filename == "tute-standings-Torneo_de_Navidad.pdf" and download.media_type == "application/pdf"
    [text] = text_of(download.body)
    assert text.startswith("Torneo de Navidad\nludoteka-pairs · swiss · ronda 1 de 3\nDesempates:")
    assert " ".join(text.split()).startswith("Torneo de Navidad ludoteka-pairs · swiss · ronda 1 de 3 Desempates: "
                                             "partidas ganadas, después la diferencia de juegos")  # a justified line
    order = [line.name for line in standings(event)]
    assert len(set(order)) == 5
    where = [text.index(f"{line.entrant} {line.name}") for line in standings(event)]
    assert where == sorted(where)  # each "place number name" row in the standings' order
    assert "Zoë Łukasz/Ñu Ćirić" in text  # beyond Latin-1: DejaVu Sans writes it
    cross = text.index("Cuadro de enfrentamientos")
    assert cross > max(where)
    rows = [text.index(f"{line.entrant}. {line.name}", cross) for line in standings(event)]
    assert rows == sorted(rows)
    first = standings(event)[0]
    assert f"{first.place} {first.entrant} {first.name} 1 2 1 2 {first.points_difference} 0" in text


def test_the_standings_workbook_has_numbers_as_numbers_and_the_crosstable_sheet() -> None:
    event = event_of()
    book = load_workbook(io.BytesIO(standings_download(event, "xlsx", "en").body))
    assert book.sheetnames == ["Standings", "Cross-table"]
    rows = list(book["Standings"].iter_rows(values_only=True))
    assert rows[0][:3] == ("place", "number", "entrant")
    assert [r[2] for r in rows[1:]] == [line.name for line in standings(event)]
    assert all(isinstance(r[4], int) for r in rows[1:])  # matches won, a number
    cross = list(book["Cross-table"].iter_rows(values_only=True))
    assert cross[0][1:] == tuple(str(line.entrant) for line in standings(event))
    assert sum(cell == "2-1" for row in cross for cell in row) == 2  # the two tables' home pairs


def test_the_spanish_csv_has_semicolons_and_the_english_commas() -> None:
    event = event_of()
    spanish = standings_download(event, "csv", "es").body.decode("utf-8")
    assert spanish.startswith("\ufeffpuesto;número;participante;jugados;partidas ganadas")
    table = list(csv.reader(io.StringIO(spanish.lstrip("\ufeff")), delimiter=";"))
    assert [r[2] for r in table[1:]] == [line.name for line in standings(event)]
    english = standings_download(event, "csv", "en").body.decode("utf-8")
    assert english.lstrip("\ufeff").startswith("place,number,entrant,played,matches won")


def test_a_duplicate_event_ranks_by_matchpoints_and_lists_its_boards() -> None:
    event = event_of("duplicate", pairs=PAIRS[:4])
    rnd = event.rounds[0]
    for t, board, points in ((1, 1, (80, 50)), (1, 2, (70, 60)), (2, 1, (60, 70)), (2, 2, (50, 80))):
        rnd.boards.append(BoardResult(table=t, board=board, points=points))
    [text] = text_of(standings_download(event, "pdf", "en", printed=DAY).body)
    assert "Ranked by the percentage of matchpoints won." in text
    lines = ranking(event)
    where = [text.index(f"{line.entrant} {line.name} {line.boards} {line.matchpoints} {line.top}") for line in lines]
    assert where == sorted(where) and [line.percentage for line in lines] == [100.0, 100.0, 0.0, 0.0]
    assert text.index("Boards") > max(where)


# -- the table sheets --------------------------------------------------------------------------------------------
def qr_modules(image: object, size: int) -> list[list[bool]]:
    """The dark modules of a QR code drawn ``size`` modules wide (quiet zone included), read at each module's
    centre from the picture."""
    picture = image.convert("L")  # type: ignore[attr-defined]
    width, height = picture.size
    return [[picture.getpixel((int((x + 0.5) * width / size), int((y + 0.5) * height / size))) < 128
             for x in range(size)] for y in range(size)]


def test_a_sheet_per_table_that_plays_with_its_qr_code_and_url_under_it() -> None:
    event = event_of()
    download = table_sheets_pdf(event, 1, BASE + "/", "es", printed=DAY)
    assert download.filename == "tute-sheets-Torneo_de_Navidad-round-1.pdf"
    reader = PdfReader(io.BytesIO(download.body))
    playing = [t for t in event.rounds[0].tables if t.away is not None]
    bye = next(t for t in event.rounds[0].tables if t.away is None)
    assert len(reader.pages) == len(playing) == 2
    assert f"Descansa: {event.entrant(bye.home)}" in reader.pages[0].extract_text()
    for page, table in zip(reader.pages, playing):
        text = page.extract_text()
        url = f"{BASE}/events/Torneo%20de%20Navidad/rounds/1/tables/{table.number}"
        assert url == table_url(BASE, event.name, 1, table.number)
        title = text.index(f"Torneo de Navidad · ronda 1 · mesa {table.number}")
        printed = text.index("http://")
        assert title < printed < text.index("bando número participante puestos")
        assert text[printed:].replace("\n", "").startswith(url)  # wrapped under the picture, the URL whole
        home, away = event.entrant(table.home), event.entrant(table.away or 0)
        assert f"local {home.number} {home.name} N {home.players[0]} · S {home.players[1]}" in text
        assert f"visitante {away.number} {away.name} W {away.players[0]} · E {away.players[1]}" in text
        assert "Resultado" in text and "partidas ganadas\njuegos ganados\npuntos" in text
        [image] = page.images
        code = segno.make(url, error="m")
        assert qr_modules(image.image, code.symbol_size()[0]) == [
            [bool(m) for m in row] for row in code.matrix_iter(border=4)]


def test_a_duplicate_sheet_gives_each_board_s_cards_seat_by_seat() -> None:
    event = event_of("duplicate", pairs=PAIRS[:4])
    texts = text_of(table_sheets_pdf(event, 1, BASE, "en", printed=DAY).body)
    assert len(texts) == 2
    boards = [board_start(event, 1, n) for n in (1, 2)]
    for text, table in zip(texts, event.rounds[0].tables):
        seated = seats(event, 1, table.number)
        for b in boards:
            assert f"Board {b.board}: {b.dealer} deals, the turned card is {b.turned}" in text
            assert f"board {b.board}: points" in text
            for seat, cards in b.hands.items():
                assert f"{seat} {seated[seat]} {' '.join(cards)}" in text
    assert board_deal(event, 1, 1) == boards[0].deal == " ".join(
        f"{seat}:{' '.join(cards)}" for seat, cards in boards[0].hands.items())


def test_a_two_player_board_gives_the_stock_and_seats_home_north_away_south() -> None:
    event = event_of("duplicate", rules="torofun-2p", pairs=["Ana", "Luis", "Eva", "Juan"])
    table = event.rounds[0].tables[0]
    assert seats(event, 1, table.number) == {"N": event.entrant(table.home).players[0],
                                               "S": event.entrant(table.away or 0).players[0]}
    board = board_start(event, 1, 2)
    assert set(board.hands) == {"N", "S"} and board.stock is not None and board.stock.split()[-1] == board.turned
    text = text_of(table_sheets_pdf(event, 1, BASE, "en").body)[0]
    assert f"stock {board.stock}" in " ".join(text.split())  # the stock wraps in its cell


def test_a_round_of_byes_only_says_so_on_one_page() -> None:
    event = Event.new("Solo")
    event.entrants.append(add_entrant(event, "Ana/Bea"))
    event.rounds.append(Round(number=1, tables=[Table(number=1, home=1)]))
    [text] = text_of(table_sheets_pdf(event, 1, BASE, "es").body)
    assert "Descansa: 1. Ana/Bea\nEn esta ronda no juega ninguna mesa." in text


def test_unknown_rounds_boards_and_byes_are_refused() -> None:
    event = event_of()
    bye = next(t for t in event.rounds[0].tables if t.away is None)
    with pytest.raises(EventError, match="no round 2"):
        table_sheets_pdf(event, 2, BASE, "en")
    with pytest.raises(EventError, match="bye"):
        table_start(event, 1, bye.number)
    with pytest.raises(EventError, match="not played in duplicate"):
        board_deal(event, 1, 1)
    duplicate = event_of("duplicate", pairs=PAIRS[:4])
    with pytest.raises(EventError, match="board 3 is not played in round 1"):
        board_deal(duplicate, 1, 3)


# -- over HTTP -----------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def archive_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A club's archive: a Swiss torneo with a result in, and a duplicate event, both paired."""
    db = tmp_path_factory.mktemp("event-sheets") / "club.duckdb"
    with Archive(db) as archive:
        create_event(archive, Event.new("Otoño", planned_rounds=3, seed=2))
        add_entrants(archive, "Otoño", PAIRS[:4])
        rnd = pair_round(archive, "Otoño")
        enter_result(archive, "Otoño", 1, Result(table=rnd.tables[0].number, matches=(2, 0), deals=(4, 1),
                                                 points=(320, 200)))
        create_event(archive, Event.new("Duplicado", format="duplicate", seed=5))
        add_entrants(archive, "Duplicado", PAIRS[:4])
        pair_round(archive, "Duplicado")
        enter_board(archive, "Duplicado", 1, BoardResult(table=1, board=1, points=(70, 60)))
    return db


@pytest.fixture(scope="module")
def client(archive_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(Settings(db=archive_file, api_keys=frozenset({KEY}),
                              recordings=tmp_path_factory.mktemp("journals")))
    yield TestClient(app)
    app.state.archive.close()


@pytest.mark.parametrize(("url", "media_type"), [
    ("/events/Otoño/standings.pdf", "application/pdf"),
    ("/events/Otoño/standings.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ("/events/Otoño/standings.csv", "text/csv; charset=utf-8"),
    ("/events/Duplicado/standings.pdf", "application/pdf"),
    ("/events/Otoño/rounds/1/sheets.pdf", "application/pdf")])
def test_the_downloads_answer_as_attachments(client: TestClient, url: str, media_type: str) -> None:
    r = client.get(url)
    assert r.status_code == 200 and r.headers["content-type"] == media_type
    assert r.headers["content-disposition"].startswith('attachment; filename="tute-')
    assert ("filename*=UTF-8''tute-" in r.headers["content-disposition"]) == ("Otoño" in url)  # the ñ kept


def test_the_csv_follows_lang_and_the_sheets_point_at_the_request_s_address(client: TestClient) -> None:
    spanish = client.get("/events/Otoño/standings.csv", params={"lang": "es"}).text
    assert spanish.startswith("\ufeffpuesto;número;participante")
    english = client.get("/events/Otoño/standings.csv", params={"lang": "en"}).text
    assert english.startswith("\ufeffplace,number,entrant")
    texts = text_of(client.get("/events/Duplicado/rounds/1/sheets.pdf", params={"lang": "en"}).content)
    assert len(texts) == 2
    assert "http://testserver/events/Duplicado/rounds/1/tables/1" in texts[0].replace("\n", "")
    assert "Board 1:" in texts[0] and "Board 2:" in texts[0]


@pytest.mark.parametrize("url", ["/events/Nadie/standings.pdf", "/events/Nadie/standings.csv",
                                 "/events/Nadie/rounds/1/sheets.pdf", "/events/Otoño/rounds/2/sheets.pdf",
                                 "/events/Otoño/rounds/0/sheets.pdf"])
def test_an_unknown_event_or_round_is_the_404_problem(client: TestClient, url: str) -> None:
    r = client.get(url, params={"lang": "en"})
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
    assert r.json()["title"] == "Not found" and ("Nadie" in r.json()["detail"] or "round" in r.json()["detail"])


# -- the recorder, from a table and from a board ----------------------------------------------------------------
def form_values(html: str) -> dict[str, str]:
    """The start form's inputs and selected options, as the page's script reads them."""
    from html.parser import HTMLParser

    values: dict[str, str] = {}

    class Form(HTMLParser):
        select: str | None = None

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            a = dict(attrs)
            if tag == "input" and a.get("name"):
                values[str(a["name"])] = a.get("value") or ""
            elif tag == "select":
                self.select = a.get("name")
            elif tag == "option" and self.select and ("selected" in a or self.select not in values):
                values[self.select] = a.get("value") or ""

    Form().feed(html)
    return values


def test_the_start_page_is_filled_in_from_a_table(client: TestClient) -> None:
    r = client.get("/record", params={"event": "Otoño", "round": 1, "table": 1, "lang": "en"})
    assert r.status_code == 200
    f = form_values(r.text)
    stored = load_event(client.app.state.archive, "Otoño")  # type: ignore[attr-defined]
    t = stored.rounds[0].tables[0]
    home, away = stored.entrant(t.home).players, stored.entrant(t.away or 0).players
    assert (f["player-N"], f["player-S"], f["player-W"], f["player-E"]) == (*home, *away)
    assert (f["Event"], f["Round"], f["Table"], f["rules"]) == ("Otoño", "1", "1", "ludoteka-pairs")
    assert "Board" not in f and f["deal"] == "" and 'id="board-cards"' not in r.text


def test_a_recording_started_from_a_board_has_its_hands_and_tags(client: TestClient) -> None:
    r = client.get("/record", params={"event": "Duplicado", "round": 1, "table": 2, "board": 2, "lang": "en"})
    assert r.status_code == 200 and "Cards to deal" in r.text
    f = form_values(r.text)
    event = load_event(client.app.state.archive, "Duplicado")  # type: ignore[attr-defined]
    board = board_start(event, 1, 2)
    for seat, cards in board.hands.items():
        assert f'<dd data-seat="{seat}">{" ".join(cards)}</dd>' in r.text
    assert (f["deal"], f["turned"], f["dealer"], f["Board"]) == (board_deal(event, 1, 2), board.turned, board.dealer,
                                                                  "2")
    body = {"rules": f["rules"], "dealer": f["dealer"], "deal": f["deal"], "turned": f["turned"],
            "players": {s: f[f"player-{s}"] for s in "NWSE"},
            "tags": {n: f[n] for n in ("Event", "Round", "Table", "Board")}}  # what record.js posts
    started = client.post("/api/v1/recordings", json=body, headers={"X-API-Key": KEY})
    assert started.status_code == 201, started.text
    recording = client.app.state.service.recordings.get(started.json()["id"])  # type: ignore[attr-defined]
    record = recording.recorder.record()
    assert record.tags["Deal"] == board.deal and record.tags["Dealer"] == board.dealer
    assert {k: record.tags[k] for k in ("Event", "Round", "Table", "Board")} == {
        "Event": "Duplicado", "Round": "1", "Table": "2", "Board": "2"}
    assert record.tags["North"] == event.entrant(event.rounds[0].table(2).home).players[0]


@pytest.mark.parametrize("params", [{"event": "Nadie", "round": 1, "table": 1},
                                    {"event": "Otoño", "round": 1, "table": 9},
                                    {"event": "Otoño", "round": 1},
                                    {"round": 1, "table": 1},
                                    {"event": "Duplicado", "round": 1, "table": 1, "board": 3}])
def test_a_start_page_for_a_table_that_is_not_there_is_404(client: TestClient, params: dict[str, object]) -> None:
    assert client.get("/record", params=params).status_code == 404  # type: ignore[arg-type]


# -- the commands ----------------------------------------------------------------------------------------------
def tute(db: Path, *args: str, status: int = 0, cwd: Path | None = None, stdin: str = "",
         lang: str = "en") -> subprocess.CompletedProcess[str]:
    run = subprocess.run([sys.executable, "-m", "tutepgn.cli", "--lang", lang, *args, "--db", str(db)],
                         capture_output=True, text=True, timeout=120, cwd=cwd, input=stdin,
                         env={**os.environ, "COLUMNS": "200", "TUTEPGN_DB": ""})
    assert run.returncode == status, (args, run.stdout, run.stderr)
    return run


def test_tute_event_standings_writes_the_files_and_keeps_its_table(archive_file: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    db.write_bytes(archive_file.read_bytes())
    tute(db, "event", "standings", "Otoño", "--output", str(tmp_path / "s.pdf"))
    assert PdfReader(tmp_path / "s.pdf").pages[0].extract_text().startswith("Otoño\n")
    tute(db, "event", "standings", "Otoño", "-f", "xlsx", "-o", str(tmp_path / "s.data"))
    assert load_workbook(io.BytesIO((tmp_path / "s.data").read_bytes())).sheetnames == ["Standings", "Cross-table"]
    tute(db, "event", "standings", "Otoño", "-o", str(tmp_path / "s.csv"), lang="es")
    assert (tmp_path / "s.csv").read_text("utf-8").startswith("\ufeffpuesto;número;")
    plain = tute(db, "event", "standings", "Otoño", "-f", "csv").stdout  # no --output: today's CSV
    assert plain.startswith("place,entrant,name,")
    assert "--output FILE" in tute(db, "event", "standings", "Otoño", "-f", "pdf", status=2).stderr
    assert "--output writes" in tute(db, "event", "standings", "Otoño", "-o", str(tmp_path / "s.txt"),
                                     status=2).stderr
    assert "--output writes" in tute(db, "event", "standings", "Otoño", "--json", "-o", str(tmp_path / "s.pdf"),
                                     status=2).stderr  # JSON goes to stdout, never to a file named .pdf


def test_tute_event_sheets_writes_the_round_s_pdf(archive_file: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    db.write_bytes(archive_file.read_bytes())
    tute(db, "event", "sheets", "Duplicado", "--url", BASE, cwd=tmp_path)
    reader = PdfReader(tmp_path / "tute-sheets-Duplicado-round-1.pdf")
    assert len(reader.pages) == 2 and [len(p.images) for p in reader.pages] == [1, 1]
    assert f"{BASE}/events/Duplicado/rounds/1/tables/2" in reader.pages[1].extract_text().replace("\n", "")
    tute(db, "event", "sheets", "Otoño", "--round", "1", "--url", BASE, "-o", str(tmp_path / "o.pdf"))
    assert len(PdfReader(tmp_path / "o.pdf").pages) == 2
    assert "no round 2" in tute(db, "event", "sheets", "Otoño", "--round", "2", "--url", BASE, status=2).stderr
    assert "--url" in tute(db, "event", "sheets", "Otoño", "--url", "192.168.1.10", status=2).stderr


def test_tute_record_at_a_board_starts_from_its_hands_and_tags(archive_file: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    db.write_bytes(archive_file.read_bytes())
    out = tmp_path / "board.tpgn"
    run = tute(db, "record", "--event", "Duplicado", "--round", "1", "--table", "1", "--board", "1", "-o", str(out))
    with Archive(db, read_only=True) as archive:
        event = load_event(archive, "Duplicado")
    board = board_start(event, 1, 1)
    assert f"the turned card is {board.turned}" in run.stdout
    record = read_record(out)
    assert record.tags["Deal"] == board_deal(event, 1, 1) and record.tags["Trump"] == board.turned
    assert {k: record.tags[k] for k in ("Event", "Round", "Table", "Board")} == {
        "Event": "Duplicado", "Round": "1", "Table": "1", "Board": "1"}
    start = table_start(event, 1, 1)
    assert [record.tags[t] for t in ("North", "West", "South", "East")] == [start.players[s] for s in "NWSE"]
    plain = tmp_path / "table.tpgn"
    tute(db, "record", "--event", "Otoño", "--round", "1", "--table", "1", "--turned", "4O", "-o", str(plain))
    tags = read_record(plain).tags
    assert (tags["Event"], tags["Round"], tags["Table"], tags["Rules"]) == ("Otoño", "1", "1", "ludoteka-pairs")
    assert "Deal" not in tags  # the hands unknown, as at any table
    assert "no table 9" in tute(db, "record", "--event", "Otoño", "--round", "1", "--table", "9", status=2).stderr
