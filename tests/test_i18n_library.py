"""Spanish from the library's other modules, seen where a person reads it: a JSON record's error through the API,
a live recording's refusal, and the quoted sources of ``tute rules`` and the rules page (docs/i18n.md).

Each test asks the same thing in English too, so that a message left out of the catalogue, or translated for
everyone, fails here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.citations import TEXTS
from tutepgn.notation.convert import convert
from tutepgn.i18n import catalogue, speaking
from tutepgn.notation import read_record
from tutepgn.check.replay import frames
from tutepgn.sources import DECISIONS, SOURCES

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "torofun-4p-lost-cante.tpgn"
KEY = "tk_i18n_test"


def app_over(tmp_path: Path) -> TestClient:
    """The service over a new archive, with a write key."""
    db = tmp_path / "a.duckdb"
    Archive(db).close()
    return TestClient(create_app(Settings(db=db, api_keys=frozenset({KEY}))))


def test_a_json_record_error_comes_in_the_language_asked(tmp_path: Path) -> None:
    """Errors of the notation's JSON form through the API: the events' own (a card not in the style), pydantic's
    for a field (said as the service says its parameters' errors), and the decoder's."""
    record = json.loads("".join(convert(str(SAMPLE), to="jsonl")).splitlines()[0])
    no_card, no_seat = json.loads(json.dumps(record)), json.loads(json.dumps(record))
    no_card["events"][0]["card"] = "13O"
    no_seat["events"][0]["seat"] = "X"
    answers = {}
    with app_over(tmp_path) as client:
        for lang in ("es", "en"):
            for name, body in (("card", no_card), ("seat", no_seat), ("broken", b'[{"tags": ')):
                answers[lang, name] = client.post(
                    f"/api/v1/convert?to=tpgn&lang={lang}", headers={"Content-Type": "text/plain"},
                    content=body if isinstance(body, bytes) else json.dumps(body).encode())
    assert {answer.status_code for answer in answers.values()} == {422}
    said = {key: answer.json()["errors"][0]["message"] for key, answer in answers.items()}
    assert said["es", "card"] == "events[0].card: '13O' no es una carta del estilo es" and said["en", "card"] == \
        "events[0].card: '13O' is not a card in style es"
    assert said["es", "seat"].startswith("events[0].seat: Debe ser 'N', 'W', 'S' or 'E' (se encontró \"X\")")
    assert said["en", "seat"].startswith("events[0].seat: Input should be 'N', 'W', 'S' or 'E' (found \"X\")")
    assert said["es", "broken"].startswith("JSON no válido: ") and said["en", "broken"].startswith("not valid JSON: ")


def test_a_live_refusal_comes_in_the_language_asked(tmp_path: Path) -> None:
    """An entry of two cards whose second is refused: taken back whole, and the refusal says so in Spanish."""
    record = read_record(SAMPLE.read_text(encoding="utf-8"))
    tags = record.tags
    start = {"rules": tags["Rules"], "dealer": tags["Dealer"], "deal": tags["Deal"], "turned": tags["Trump"]}
    first = [f.text for f in frames(record)][1].split()[1]
    with app_over(tmp_path) as client:
        rid = client.post("/api/v1/recordings", json=start, headers={"X-API-Key": KEY}).json()["id"]
        refusals = {lang: client.post(f"/api/v1/recordings/{rid}/entries?lang={lang}", json={"entry": f"{first} 1O"},
                                      headers={"X-API-Key": KEY}) for lang in ("es", "en")}
    assert refusals["es"].status_code == refusals["en"].status_code == 422
    assert refusals["es"].json()["detail"].endswith("; no se ha anotado nada de esta entrada")
    assert refusals["en"].json()["detail"].endswith("; nothing of this entry was recorded")


def tute(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed ``tute`` command, as a user runs it (rich folds no sentence at 400 columns)."""
    env = {**os.environ, "TUTEPGN_LANG": "en", "COLUMNS": "400"}
    return subprocess.run([str(Path(sys.executable).parent / "tute"), *args], capture_output=True, text=True, env=env,
                          check=False)


def test_tute_rules_quotes_each_source_with_a_rendering_in_the_language_spoken() -> None:
    spanish, english = tute("--lang", "es", "rules", "ludoteka-pairs"), tute("rules", "ludoteka-pairs")
    assert spanish.returncode == english.returncode == 0
    quote = "«Si on joue entre 4 personnes il est joué en couples»"  # the source's own words, in both
    assert f'Reglas de Ludoteka (francés): {quote} — "si se juega entre 4 personas, se juega por parejas" (véase' \
        in spanish.stdout
    assert f'Ludoteka rules (French): {quote} — "with 4 people it is played in pairs" (see' in english.stdout
    assert "it is played in pairs" not in spanish.stdout and "decisión: " in spanish.stdout


def test_the_rules_api_and_page_give_the_rendering_in_the_language_asked(tmp_path: Path) -> None:
    with app_over(tmp_path) as client:
        answers = {lang: client.get(f"/api/v1/rules/ludoteka-pairs?lang={lang}").json() for lang in ("es", "en")}
        page = client.get("/rules/ludoteka-pairs?lang=es").text
    quotes = {lang: answer["citations"]["players"]["quotes"][0] for lang, answer in answers.items()}
    assert quotes["es"]["english"] == quotes["en"]["english"] == quotes["en"]["rendering"] \
        == "with 4 people it is played in pairs"  # the stored translations stay; the rendering is spoken
    assert quotes["es"]["spanish"] == quotes["es"]["rendering"] == "si se juega entre 4 personas, se juega por parejas"
    assert {k: v for k, v in quotes["es"].items() if k != "rendering"} == \
        {k: v for k, v in quotes["en"].items() if k != "rendering"}
    assert "<span class=\"translation\">— si se juega entre 4 personas, se juega por parejas</span>" in page
    assert "with 4 people it is played in pairs" not in page


def test_every_quote_has_its_translation_in_each_language_and_every_note_its_spanish() -> None:
    """A quote carries its translations, each made from the original (not Spanish from English); our notes, the
    texts' names and the decisions told to players are messages of the catalogue: each has its Spanish."""
    citations = [c for options in SOURCES.values() for c in options.values()]
    quotes = {q for c in citations for q in c.quotes} | {q for d in DECISIONS for q in d.quotes}
    assert len(quotes) > 90 and [q.original for q in quotes if not q.english or not q.spanish or
                                 q.spanish == q.english] == []
    with speaking("es"):
        assert {q.rendering() for q in quotes} == {q.spanish for q in quotes}
    words = {c.note for c in citations if c.note} | {t.label for t in TEXTS.values()} | {d.plain for d in DECISIONS}
    spanish = catalogue("es")
    assert len(words) > 60 and sorted(w for w in words if w not in spanish) == []


def test_the_presets_list_is_each_preset_in_the_language_asked(tmp_path: Path) -> None:
    """`/api/v1/rules` is made once per language and kept: each language gets its own, the same as asking
    for the presets one by one."""
    with app_over(tmp_path) as client:
        for lang in ("es", "en", "es"):
            listed = client.get(f"/api/v1/rules?lang={lang}")
            assert listed.headers["content-type"] == "application/json"
            one_by_one = [client.get(f"/api/v1/rules/{p['name']}?lang={lang}").json() for p in listed.json()]
            assert listed.json() == one_by_one and len(one_by_one) == 5
