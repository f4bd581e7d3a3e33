"""The frameworks' own words in Spanish: typer's usage errors, the hint to ask for help and the errors of a
missing file, said by the installed ``tute`` run as a user would (cli/usage.py); the service's refusals (its
404s, the router's own, the keys'), a damaged share link, the analysis' commands on the deal page and the link to
the English API reference (/docs), over HTTP, in both languages."""

from __future__ import annotations

import html
import json
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from test_i18n_messages import tute
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.notation.share import deal_link

ENGLISH = ("No such option", "No such command", "Did you mean", "Possible options", "Missing argument",
           "Missing option", "Missing command", "Invalid value", "Try '", "for help", "Usage:", "does not exist",
           "unexpected extra", "is not one of", "No such file", "no such file", "not a file of records",
           "cannot read", "[OPTIONS]", "Value error", "Input should", "greater than", "or equal", "requires",
           "does not take")
"""Words of typer's (click's) messages and of a system's reasons, none of which a Spanish error may hold."""


@pytest.mark.parametrize(("args", "spanish"), [
    (["validate", "--bogus"], ["No existe la opción --bogus", "Escribe 'tute validate --help' para ver la ayuda."]),
    (["valida", "x.tpgn"], ["No existe la orden 'valida'. ¿Quisiste decir 'validate'?"]),
    (["archive", "verfy"], ["No existe la orden 'verfy'. ¿Quisiste decir 'verify'?"]),
    (["validate"], ["Uso: tute validate [OPCIONES]", "Falta el argumento"]),
    (["rules", "--format", "xml"], ["Valor no válido en '--format'", "'xml' no es ninguno de estos"]),
    (["convert", "a", "b", "c"], ["Sobra lo que sigue en la línea de órdenes: b c"]),
    (["validate", "x.tpgn", "--jobs"], ["La opción '--jobs' necesita un valor."]),
    (["validate", "--json=yes", "x.tpgn"], ["La opción '--json' no lleva valor."]),
    (["import", "x.tpgn", "--to", "parquet"], ["La opción '--to' necesita 2 valores."]),
    (["import", "x.tpgn", "--batch-size", "0"], ["Valor no válido en '--batch-size': Debe ser mayor o igual que 1"]),
    (["validate", "{missing}"], ["no existe ese archivo ni esa carpeta"]),
    (["replay", "{missing}"], ["no se puede leer", "no existe ese archivo ni esa carpeta"]),
    (["validate", "/dev/null"], ["es un dispositivo de caracteres, no un archivo de registros"]),
])
def test_a_bad_command_line_is_refused_in_spanish_only(tmp_path: Path, args: list[str], spanish: list[str]) -> None:
    words = [word.format(missing=tmp_path / "nowhere.tpgn") for word in args]
    run = tute("--lang", "es", *words)
    assert run.returncode == 2, run.stderr
    for text in spanish:
        assert text in run.stderr, run.stderr
    assert not [word for word in ENGLISH if word in run.stderr], run.stderr
    english = tute(*words)  # the same refusal in English says typer's own words
    assert english.returncode == 2 and not [text for text in spanish if text in english.stderr], english.stderr


def test_the_language_comes_from_the_environment_too() -> None:
    run = tute("validate", "--bogus", lang="es")
    assert "No existe la opción --bogus" in run.stderr and "No such option" not in run.stderr


def test_a_usage_error_as_json_says_its_detail_in_spanish() -> None:
    run = tute("--lang", "es", "validate", "--json", "--bogus")
    problem = json.loads(run.stderr)
    assert run.returncode == 2 and problem["status"] == 2 and problem["title"] == "Error de uso"
    assert problem["detail"].startswith("No existe la opción --bogus")


def test_ctrl_c_is_said_in_spanish() -> None:
    command = [str(Path(sys.executable).parent / "tute"), "--lang", "es", "simulate", "--deals", "100000000"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as run:
        assert run.stdout is not None and run.stdout.readline()  # under way: its first record is out
        run.send_signal(signal.SIGINT)
        _out, said = run.communicate(timeout=120)
    assert run.returncode == 1 and said == "\nInterrumpido.\n", said


# -- The service: its refusals, the share links, the analysis marks and /docs, in the reader's language ---------

ROOT = Path(__file__).resolve().parent.parent
ANALYSED = ROOT / "samples" / "torofun-4p-analysed.tpgn"
KEY = "tk_esframe_test_key"
SPANISH = {"Accept-Language": "es-ES,es;q=0.9"}
ENGLISH = {"Accept-Language": "en"}
PAGE = {"Accept": "text/html"}
SERVICE_ENGLISH = ("no player", "no match", "in the archive", "Not Found", "Method Not Allowed", "not valid",
                   "the link", "damaged", "copy the whole link", "Error -3", "decompress", "give d=", "nothing here")
"""The English of the service's refusals, none of which a Spanish answer may hold."""


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The service over an archive holding the analysed sample (its comments carry [%dd] [%best] [%win])."""
    db = tmp_path_factory.mktemp("esframe") / "a.duckdb"
    archive = Archive(db)
    summary = archive.import_sources([ANALYSED, ROOT / "samples" / "ludoteka-match.tpgn"])
    archive.close()
    assert summary.added == 6, summary
    with TestClient(create_app(Settings(db=db, api_keys=frozenset({KEY})))) as served:
        yield served


def visible_text(html: str) -> str:
    """What a reader sees of a page as served: its text and its attributes, without its scripts and the data
    the scripts read (data-frames: the record's comments, said in words by replay.js)."""
    html = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    return re.sub(r"""\sdata-[\w-]+=("[^"]*"|'[^']*')""", "", html)


@pytest.mark.parametrize(("path", "spanish", "english"), [
    ("/players/Nadie", "no hay ningún jugador 'Nadie' en el archivo", "no player 'Nadie' in the archive"),
    ("/api/v1/players/Nadie", "no hay ningún jugador 'Nadie' en el archivo", "no player 'Nadie' in the archive"),
    ("/matches/Ninguna", "no hay ninguna partida 'Ninguna' en el archivo", "no match 'Ninguna' in the archive"),
    ("/api/v1/players/Nadie/rating", "Nadie' no tiene ninguna partida puntuada", "no rated match of 'Nadie'"),
    ("/nowhere", "aquí no hay nada", "nothing here: no page and no API endpoint has this address"),
    ("/api/v1/nowhere", "aquí no hay nada", "nothing here: no page and no API endpoint has this address"),
    ("/view", "da d= (el enlace de un juego)", "give d= (a deal's link)"),
    ("/view?d=____", "el enlace está dañado", "the link is damaged: part of it was changed or lost"),
    ("/view?d=not*base64", "el enlace está dañado", "the link is damaged: it holds characters"),
])
def test_a_refusal_is_said_in_the_readers_language(client: TestClient, path: str, spanish: str,
                                                   english: str) -> None:
    for accept in ({}, PAGE):
        es = client.get(path, headers={**SPANISH, **accept})
        en = client.get(path, headers={**ENGLISH, **accept})
        assert es.status_code == en.status_code and es.status_code in (404, 422), es.text
        detail = es.json()["detail"] if not accept else visible_text(es.text)
        assert spanish in html.unescape(detail), detail
        assert not [word for word in SERVICE_ENGLISH if word in html.unescape(detail)], detail
        assert english in html.unescape(en.json()["detail"] if not accept else en.text)


def test_a_page_not_found_names_no_parameter_of_the_code(client: TestClient) -> None:
    for path in ("/events/Ninguno", "/deals/abc"):
        page = client.get(path, headers={**SPANISH, **PAGE})
        assert page.status_code in (404, 422) and "path." not in visible_text(page.text)
        assert client.get("/api/v1" + path).json()["errors"][0]["text"].startswith("path.")  # the API's names it


def test_a_truncated_link_never_shows_zlibs_words(client: TestClient) -> None:
    token = deal_link(ANALYSED.read_text(encoding="utf-8")).split("?d=")[1]
    for cut in (token[:40], token[:-12], token[:17] + "A" * 30 + token[47:]):
        es = client.get("/view", params={"d": cut}, headers=SPANISH)
        en = client.get("/view", params={"d": cut}, headers=ENGLISH)
        assert es.status_code == en.status_code == 422, es.text
        assert "enlace" in es.json()["detail"] and re.search(r"cut short|damaged", en.json()["detail"])
        assert not [word for word in SERVICE_ENGLISH if word in es.json()["detail"]], es.json()["detail"]
        assert not re.search(r"Error -?\d|decompress|zlib|invalid", es.json()["detail"] + en.json()["detail"])


def test_a_write_keys_refusal_in_the_readers_language(client: TestClient) -> None:
    for headers, status, spanish, english in (({}, 401, "clave", "needs an API key"),
                                              ({"X-API-Key": "tk_not_a_key_at_all"}, 403, "esa clave de API no es "
                                               "válida", "that API key is not valid")):
        es = client.post("/api/v1/import", content="", headers={**headers, **SPANISH})
        en = client.post("/api/v1/import", content="", headers={**headers, **ENGLISH})
        assert es.status_code == en.status_code == status
        assert spanish in es.json()["detail"] and english in en.json()["detail"]


def test_a_method_an_address_does_not_take_is_said_in_words(client: TestClient) -> None:
    es = client.delete("/api/v1/deals", headers=SPANISH)
    assert es.status_code == 405 and es.json()["detail"] == "esta dirección no acepta ese método (mira la cabecera Allow)"
    assert client.delete("/api/v1/deals", headers=ENGLISH).json()["detail"].startswith("this address does not take")


def test_the_deal_page_shows_no_command_of_the_analysis(client: TestClient) -> None:
    [row] = client.get("/api/v1/deals", params={"event": "Simulated deals"}).json()["items"]
    for headers in (SPANISH, ENGLISH):
        page = client.get(f"/deals/{row['id']}", headers={**headers, **PAGE})
        assert page.status_code == 200
        seen = visible_text(page.text)
        assert "[%" not in seen and "%dd" not in seen and "%win" not in seen
        frames = json.loads(html.unescape(re.search(r"data-frames='([^']*)'", page.text)[1]))
        commands = {name for f in frames for c in f["comments"] for name in re.findall(r"\[%(\w+)", c)}
        assert commands == {"dd", "best", "win"}  # the sample's; replay.js says each in words:
        replay = (ROOT / "api" / "static" / "replay.js").read_text(encoding="utf-8")
        assert all(f'name === "{name}"' in replay for name in commands)
    script = client.get("/i18n/es.js").text
    spanish = json.loads(re.search(r"TUTE_MESSAGES = (.*);\n", script)[1])  # what the pages' t() says
    assert "a cartas vistas" in spanish["with every hand visible (a cartas vistas): {points} points"]
    assert spanish["dubious"] != "dubious" and spanish["see its page"] == "ver su página"


def test_the_link_to_the_api_reference_says_it_is_in_english(client: TestClient) -> None:
    es = visible_text(client.get("/", headers={**SPANISH, **PAGE}).text)
    en = visible_text(client.get("/", headers={**ENGLISH, **PAGE}).text)
    assert re.search(r'<a href="/docs" hreflang="en"[^>]*>API <small>\(técnica, en inglés\)</small></a>', es), es
    assert re.search(r'<a href="/docs" hreflang="en"[^>]*>API</a>', en)
