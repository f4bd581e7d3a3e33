"""Tables on paper and in spreadsheets (issue 34): the PDF read back with pypdf, the XLSX with openpyxl, the CSV in
each language's convention; and the statistics, match and player downloads over HTTP, from the real app over a
real DuckDB archive of the samples."""

from __future__ import annotations

import csv
import io
import re
import struct
import zlib
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import openpyxl
import pytest
from fastapi.testclient import TestClient
from pypdf import PdfReader

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive, printing
from tutepgn.archive.printing import Table, table_csv, table_pdf, table_xlsx, tables_pdf, tables_xlsx

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
MATCH = "SanJose2025-R3-M2"
"""samples/ludoteka-match.tpgn: five deals, NS reaching the target of 4 on the fifth."""
DAY = date(2026, 12, 6)
COLUMNS = ("pareja", "partidas ganadas", "diferencia de puntos", "media")
ROWS = [(f"Pareja {n:03d} Núñez", 60 - n, 200 - 7 * n, round(n / 3, 2)) for n in range(60)]


def pages(pdf: bytes) -> list[str]:
    """Each page's text, as a PDF text library reads it."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


# -- PDF -------------------------------------------------------------------------------------------------------
def test_a_long_table_runs_over_pages_in_order_with_its_heading_and_page_numbers_on_each() -> None:
    texts = pages(table_pdf("Clasificación — Liga de otoño", "Ronda 3 · Club San José", COLUMNS, ROWS, "es",
                            printed=DAY))
    assert len(texts) >= 2
    assert texts[0].startswith("Clasificación — Liga de otoño\nRonda 3 · Club San José\n6 de diciembre de 2026")
    for number, text in enumerate(texts, start=1):
        assert f"página {number} de {len(texts)}" in text
        assert "pareja partidas ganadas diferencia de puntos media" in text  # the heading on every page
    whole_rows = [re.findall(r"^Pareja (\d{3}) Núñez -?\d+ -?\d+ [\d,]+$", text, re.M) for text in texts]
    assert [int(n) for rows in whole_rows for n in rows] == list(range(60))  # each row whole, once, in order
    assert all(rows for rows in whole_rows)
    assert "Pareja 004 Núñez 56 172 1,33" in texts[0]  # numbers in the Spanish form
    assert "Pareja 000 Núñez 60 200 0,0" in texts[0]  # a fraction keeps its decimal


def test_an_english_pdf_says_page_n_of_m_and_writes_numbers_with_a_point() -> None:
    [text] = pages(table_pdf("Standings", "", ("pair", "average"), [("Ana & Luis", 1.5), ("Eva & Juan", None)],
                             "en", printed=DAY))
    assert "December 6, 2026" in text and "page 1 of 1" in text
    assert "Ana & Luis 1.5" in text and "Eva & Juan —" in text


def test_several_tables_follow_each_other_under_their_titles() -> None:
    text = "\n".join(pages(tables_pdf("Statistics", "every deal", [
        Table("Players", ("player", "deals"), [("Ana", 3), ("Luis", 2)]),
        Table("Rules", ("rules", "deals"), [("torofun-4p", 5)])], "en", printed=DAY)))
    assert text.index("Players") < text.index("Ana 3") < text.index("Luis 2") < text.index("Rules") \
        < text.index("torofun-4p 5")


def test_wide_tables_turn_the_page_and_narrow_ones_stay_upright() -> None:
    narrow = PdfReader(io.BytesIO(table_pdf("t", "", ("a", "b"), [("x", 1)], "en"))).pages[0]
    wide_columns = [f"standing of side number {n}" for n in range(14)]
    wide = PdfReader(io.BytesIO(table_pdf("t", "", wide_columns, [tuple(range(14))], "en"))).pages[0]
    assert narrow.mediabox.width < narrow.mediabox.height  # A4 upright: 595 x 842 points
    assert wide.mediabox.width > wide.mediabox.height


def _png(size: int = 21) -> bytes:
    """A small black-and-white PNG (a chequered square, as a QR code is), written by hand."""
    raw = b"".join(b"\x00" + bytes(0 if (x // 3 + y // 3) % 2 else 255 for x in range(size)) for y in range(size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_table_sheets_take_a_page_each_with_their_picture() -> None:
    sheets = [Table(f"Mesa {n}", ("puesto", "jugador"), [("N", f"Ana {n}"), ("S", f"Luis {n}")], picture=_png(),
                    new_page=True) for n in (1, 2, 3)]
    reader = PdfReader(io.BytesIO(tables_pdf("Ronda 1", "Liga de otoño", sheets, "es", printed=DAY)))
    texts = [page.extract_text() for page in reader.pages]
    assert len(texts) == 3 and texts[0].startswith("Ronda 1\nLiga de otoño\n6 de diciembre de 2026\nMesa 1\n")
    assert [t.split("\n")[0] for t in texts[1:]] == ["Mesa 2", "Mesa 3"]
    assert all(f"N Ana {n}\nS Luis {n}" in t for n, t in zip((1, 2, 3), texts))
    assert [len(page.images) for page in reader.pages] == [1, 1, 1]


def test_texts_no_font_can_write_do_not_stop_the_pdf() -> None:
    [text] = pages(table_pdf("x\x1b[31m", "", ("name",), [("\ud800 lone",), ("名前 😀",)], "en", printed=DAY))
    assert "x\\x1b[31m" in text and "? lone" in text


def test_without_dejavu_the_pdf_is_written_in_a_core_font_in_latin_1(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(printing, "FONT_DIRS", ())
    [text] = pages(table_pdf("Clasificación — otoño", "", ("jugador", "media"), [("Íñigo Núñez", 2.5)], "es",
                             printed=DAY))
    assert "Clasificación - otoño" in text and "Íñigo Núñez 2,5" in text and "página 1 de 1" in text


# -- XLSX ------------------------------------------------------------------------------------------------------
def test_the_workbook_keeps_numbers_as_numbers_under_a_bold_heading() -> None:
    book = openpyxl.load_workbook(io.BytesIO(table_xlsx("Clasificación", COLUMNS, ROWS[:3], "es")))
    sheet = book["Clasificación"]
    assert [c.value for c in sheet[1]] == list(COLUMNS) and all(c.font.b for c in sheet[1])
    assert [c.value for c in sheet[2]] == ["Pareja 000 Núñez", 60, 200, 0.0]
    assert [c.data_type for c in sheet[3]] == ["s", "n", "n", "n"] and sheet["D3"].value == 0.33
    assert sheet.freeze_panes == "A2"
    assert sheet.column_dimensions["A"].width > sheet.column_dimensions["B"].width / 2


def test_a_name_that_looks_like_a_formula_stays_a_name_and_each_table_has_its_sheet() -> None:
    book = openpyxl.load_workbook(io.BytesIO(tables_xlsx("x", [
        Table("Players: all", ("player",), [("=HYPERLINK(\"http://x\")",)]), Table("Players: all", ("n",), [(1,)])],
        "en")))
    assert book.sheetnames == ["Players  all", "Players  all 2"]  # Excel's names: no colon, each once
    cell = book.worksheets[0]["A2"]
    assert cell.data_type == "s" and cell.value == "=HYPERLINK(\"http://x\")"


# -- CSV -------------------------------------------------------------------------------------------------------
def test_spanish_csv_has_semicolons_and_a_decimal_comma_english_commas_and_a_point() -> None:
    rows = [("Íñigo; el de Soria", 3, 1.5), ("Ana", 10, None)]
    spanish = table_csv(("jugador", "partidas", "media"), rows, "es")
    english = table_csv(("player", "deals", "average"), rows, "en")
    assert spanish.startswith("\ufeffjugador;partidas;media\r\n")  # a byte-order mark: Excel reads UTF-8
    assert spanish.splitlines()[1:] == ['"Íñigo; el de Soria";3;1,5', "Ana;10;"]
    assert english.splitlines()[1:] == ["Íñigo; el de Soria,3,1.5", "Ana,10,"]
    assert list(csv.reader(io.StringIO(spanish.lstrip("\ufeff")), delimiter=";"))[1] == ["Íñigo; el de Soria", "3",
                                                                                          "1,5"]


def test_a_spreadsheet_csv_defuses_formulas_and_the_scripts_csv_is_plain() -> None:
    rows = [("=1+1", -2, 0.25), ("@cmd", 1, 2.0)]
    assert table_csv(("a", "b", "c"), rows, "es").splitlines()[1:] == ["'=1+1;-2;0,25", "'@cmd;1;2,0"]
    assert table_csv(("a", "b", "c"), rows, None) == "a,b,c\r\n=1+1,-2,0.25\r\n@cmd,1,2.0\r\n"


# -- Over HTTP -------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("printing") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources([SAMPLES / "ludoteka-match.tpgn", SAMPLES / "tutes.tpgn",
                                *sorted((SAMPLES / "simulated").glob("*-3-matches.tpgn"))])
    app = create_app(Settings(db=db))
    with TestClient(app) as c:
        yield c
    app.state.archive.close()


@pytest.fixture(autouse=True)
def no_cookie(request: pytest.FixtureRequest) -> None:
    """Each test starts without the language cookie a ``?lang=es`` of another test leaves."""
    if "client" in request.fixturenames:
        request.getfixturevalue("client").cookies.clear()


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.mark.parametrize(("url", "media_type", "name"), [
    ("/api/v1/stats.csv", "text/csv; charset=utf-8", "tute-stats.csv"),
    ("/api/v1/stats.xlsx?rules=ludoteka-pairs", XLSX, "tute-stats.xlsx"),
    ("/api/v1/stats.pdf", "application/pdf", "tute-stats.pdf"),
    (f"/api/v1/matches/{MATCH}/sheet.pdf", "application/pdf", f"tute-match-{MATCH}.pdf"),
    (f"/api/v1/matches/{MATCH}/sheet.xlsx", XLSX, f"tute-match-{MATCH}.xlsx"),
    (f"/api/v1/matches/{MATCH}/sheet.csv", "text/csv; charset=utf-8", f"tute-match-{MATCH}.csv"),
    ("/api/v1/players/Elena Prieto/sheet.pdf", "application/pdf", "tute-player-Elena_Prieto.pdf"),
])
def test_downloads_answer_as_attachments_of_their_type(client: TestClient, url: str, media_type: str,
                                                       name: str) -> None:
    answer = client.get(url)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == media_type
    assert answer.headers["content-disposition"] == f'attachment; filename="{name}"'
    assert answer.content.startswith({XLSX: b"PK", "application/pdf": b"%PDF"}.get(media_type, b"\xef\xbb\xbf"))


def test_the_match_score_sheet_holds_each_deal_and_the_running_standing(client: TestClient) -> None:
    [text] = pages(client.get(f"/api/v1/matches/{MATCH}/sheet.pdf", params={"lang": "es"}).content)
    assert " ".join(text.split()).startswith(f"Partida {MATCH} Norte Elena Prieto · Oeste Gloria Sastre · Sur Hugo "
                                             "Benavides · Este Manuel Ortega — Norte-Sur gana la partida Norte-Sur 4 · "
                                             "Oeste-Este")
    assert "juego fecha quien da triunfo puntos NS puntos WE resultado tantos de la partida NS tantos de la partida WE marcador NS " \
           "marcador WE" in " ".join(text.split())  # the headings wrapped word by word: an upright page
    deals = re.findall(r"^(\d) 2025\.03\.15 [NWSE] \w+ (\d+) (\d+) (\w+\+\d) (\d) (\d) (\d) (\d)$", text, re.M)
    assert [(d[0], d[6], d[7]) for d in deals] == [("1", "1", "0"), ("2", "1", "1"), ("3", "1", "2"),
                                                   ("4", "2", "2"), ("5", "4", "2")]
    [match] = client.get(f"/api/v1/matches/{MATCH}").json()
    assert [[int(d[1]), int(d[2])] for d in deals] == [d["summary"]["score"] for d in match["deals"]]
    sheet = openpyxl.load_workbook(io.BytesIO(client.get(f"/api/v1/matches/{MATCH}/sheet.xlsx").content)).active
    assert [c.value for c in sheet["J"]] == ["marcador NS", 1, 1, 1, 2, 4]  # ?lang=es is remembered


def test_the_statistics_csv_follows_the_page_language_and_the_filters(client: TestClient) -> None:
    spanish = client.get("/api/v1/stats.csv", params={"lang": "es", "rules": "ludoteka-pairs"}).text
    heading, *rows = spanish.lstrip("\ufeff").splitlines()
    assert heading == "jugador;juegos;juegos ganados;ganados (%);puntos, de media;cantes;tutes"
    stats = client.get("/api/v1/stats", params={"rules": "ludoteka-pairs"}).json()
    first = stats["players"][0]
    assert rows[0].split(";")[:4] == [first["player"], str(first["deals"]), str(first["wins"]),
                                      str(round(first["win_rate"] * 100, 1)).replace(".", ",")]
    assert len(rows) == len(stats["players"])
    client.cookies.clear()  # the ?lang=es above is remembered
    english = client.get("/api/v1/stats.csv", params={"rules": "ludoteka-pairs"}, headers={"Accept-Language": "en"})
    assert english.text.lstrip("\ufeff").splitlines()[0] == \
        'player,deals,deals won,won (%),"points, on average",cantes,tutes'  # a comma in a heading: quoted
    text = "\n".join(pages(client.get("/api/v1/stats.pdf", params={"rules": "ludoteka-pairs"}).content))
    assert "Over the deals where: rules = ludoteka-pairs." in text
    assert text.index("Players") < text.index("Totals") < text.index("Trumps")


def test_the_player_workbook_has_their_deals_partners_and_opponents(client: TestClient) -> None:
    book = openpyxl.load_workbook(io.BytesIO(client.get("/api/v1/players/Elena Prieto/sheet.xlsx").content))
    assert book.sheetnames == ["Deals", "Partners", "Opponents"]
    player = client.get("/api/v1/players/Elena Prieto").json()
    deals = list(book["Deals"].iter_rows(min_row=2, values_only=True))
    assert len(deals) == len(player["recent"])
    assert [d[6] for d in deals] == [r["summary"]["score"][r["summary"]["sides"].index(r["side"])]
                                     for r in player["recent"]]
    assert [r[0] for r in book["Partners"].iter_rows(min_row=2, values_only=True)] == \
        [c["name"] for c in player["partners"]]


def test_a_name_with_accents_names_its_file_with_them_and_without(client: TestClient) -> None:
    answer = client.get("/api/v1/players/Lucía/sheet.csv")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == ("attachment; filename=\"tute-player-Lucia.csv\"; "
                                                     "filename*=UTF-8''tute-player-Luc%C3%ADa.csv")


def test_unknown_things_and_formats_are_refused(client: TestClient) -> None:
    assert client.get("/api/v1/matches/no-such-match/sheet.pdf").status_code == 404
    assert client.get("/api/v1/players/Nobody/sheet.csv").status_code == 404
    answer = client.get("/api/v1/stats.doc")
    assert answer.status_code == 422 and answer.headers["content-type"] == "application/problem+json"


def test_the_scripts_csv_is_unchanged_unless_a_language_is_asked(client: TestClient) -> None:
    plain = client.get("/api/v1/deals.csv", params={"rules": "ludoteka-pairs"}, headers={"Accept-Language": "es"})
    assert plain.text.startswith("id,") and "\ufeff" not in plain.text  # Accept-Language does not change it
    spanish = client.get("/api/v1/deals.csv", params={"rules": "ludoteka-pairs", "lang": "es"})
    assert spanish.text.startswith("\ufeffid;")
    assert [row.split(";")[0] for row in spanish.text.splitlines()[1:]] == \
        [row.split(",")[0] for row in plain.text.splitlines()[1:]]
    assert client.get("/api/v1/deals.csv", params={"lang": "fr"}).status_code == 422


@pytest.mark.parametrize(("page", "base"), [
    ("/stats?rules=ludoteka-pairs", "/api/v1/stats"),
    (f"/matches/{MATCH}", f"/api/v1/matches/{MATCH}/sheet"),
    ("/players/Elena%20Prieto", "/api/v1/players/Elena%20Prieto/sheet"),
])
def test_each_page_links_its_downloads_in_its_language(client: TestClient, page: str, base: str) -> None:
    html = client.get(page + ("&" if "?" in page else "?") + "lang=es").text
    links = re.findall(r'<a href="([^"]+)" download id="download-(\w+)">', html)
    assert [kind for _, kind in links] == ["csv", "xlsx", "pdf"]
    for href, kind in links:
        assert href.startswith(f"{base}.{kind}?") and "lang=es" in href
        answer = client.get(href.replace("&amp;", "&"))
        assert answer.status_code == 200 and answer.headers["content-disposition"].endswith(f'.{kind}"')
    assert "Descargar:" in html and "PDF para imprimir" in html
