"""Spanish and English: the catalogue is complete, the pages say no untranslated word, and the language is
chosen as documented (docs/i18n.md) by the service and by the CLI."""

import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tutepgn import i18n
from tutepgn.api.app import create_app
from tutepgn.api.settings import Settings
from tutepgn.errors import SettingError
from i18ncheck import catalogue_problems, template_literals

TEMPLATES = sorted((Path(__file__).resolve().parent.parent / "api" / "templates").glob("*.html"))


def test_every_message_of_the_sources_has_its_spanish_translation() -> None:
    assert catalogue_problems("es") == []


# The units of play in Spanish (docs/i18n.md, "The words of the game"; docs/es/glosario.md): a deal is a juego, a
# match a partida, encuentro only two sides meeting in an event's round; double dummy is "a cartas vistas"; mano is a
# hand of cards or, alone, the seat that leads first, never a deal.
HOLDING = re.compile(r"\b(hands?|held|holdings?|mano)\b", re.IGNORECASE)
MANO = re.compile(r"\bmanos?\b", re.IGNORECASE)
A_DEAL = re.compile(r"\b(this|that|each|every|first|last|next|tied|doubled|archived|unfinished|live|one) deal\b"
                    r"|\bdeal (over|is over|ends|\{)", re.IGNORECASE)
A_MATCH = re.compile(r"\b(the|a|each|its|this|whole) match\b|\bmatch's|\bmatch (points?|standing|target|\{match\})"
                     r"|\b(complete|or) matches\b", re.IGNORECASE)
A_PAIRING = re.compile(r"\b(encounters?|meets?|met|pairings?)\b", re.IGNORECASE)
JUEGO = re.compile(r"\bjuegos?\b", re.IGNORECASE)
PARTIDA = re.compile(r"\bpartidas?\b", re.IGNORECASE)
ENCUENTRO = re.compile(r"\bencuentros?\b", re.IGNORECASE)


def misnamed_units(entries: Iterable[tuple[str, str | tuple[str, ...]]]) -> list[str]:
    """The translations that name a deal or a match with another unit's word, each with the rule it breaks."""
    wrong: list[str] = []
    for english, spanish in entries:
        for text in (spanish,) if isinstance(spanish, str) else spanish:
            if MANO.search(text) and not HOLDING.search(english):
                wrong.append(f"mano where the English holds no hand: {english!r} -> {text!r}")
            if A_DEAL.search(english) and not JUEGO.search(text):
                wrong.append(f"a deal that is no juego: {english!r} -> {text!r}")
            if A_MATCH.search(english) and not PARTIDA.search(text):
                wrong.append(f"a match that is no partida: {english!r} -> {text!r}")
            if ENCUENTRO.search(text) and not A_PAIRING.search(english):
                wrong.append(f"encuentro where no event's sides meet: {english!r} -> {text!r}")
            if "doble muerto" in text.lower():
                wrong.append(f"doble muerto, not a cartas vistas: {english!r} -> {text!r}")
    return wrong


def test_a_deal_is_a_juego_a_match_a_partida_and_encuentro_only_an_events_pairing() -> None:
    wrong = misnamed_units([("the deal is over", "la mano ha terminado"), ("Share this deal", "Compartir esta partida"),
                            ("and the match", "y el encuentro"), ("cards missing from the hands: {cards}",
                                                                "faltan cartas en las manos: {cards}"),
                            ("the matches won in the encounters", "las partidas ganadas en los encuentros"),
                            ("double dummy", "a doble muerto"), ("next deal", "siguiente juego")])
    assert [w.split(":")[0] for w in wrong] == [
        "mano where the English holds no hand", "a deal that is no juego", "a deal that is no juego",
        "a match that is no partida", "encuentro where no event's sides meet", "doble muerto, not a cartas vistas"]
    assert misnamed_units(i18n.catalogue("es").items()) == []


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.name)
def test_a_template_holds_no_literal_text(template: Path) -> None:
    assert template_literals(template) == []


def test_the_literal_check_finds_text_and_visible_attributes(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text('{% extends "base.html" %}\n<p>{{ _("Deal") }} &middot; N</p>\n<p>Tricks</p>\n'
                    '<input placeholder="Player" value="{{ v }}"><b title="{{ _(\'x\') }}">{{ n }}</b>\n')
    assert template_literals(page) == [(3, "Tricks"), (4, "Player")]


def test_messages_are_looked_up_in_the_language_spoken() -> None:
    assert i18n.gettext("Search") == "Search"
    with i18n.speaking("es_ES.UTF-8"):
        assert i18n.language() == "es" and i18n.gettext("Search") == "Buscar"
        assert i18n.gettext("not in the catalogue {x}", x=1) == "not in the catalogue 1"
        assert i18n.ngettext("{n} deal", "{n} deals", 2) == "2 juegos"
        assert i18n.ngettext("{n} thing not in it", "{n} things not in it", 2) == "2 things not in it"  # English
    assert i18n.language() == "en"
    with pytest.raises(SettingError, match="the languages are es, en"):
        i18n.checked("fr")


@pytest.mark.parametrize("header, lang", [
    ("es-ES,es;q=0.9,en;q=0.8", "es"), ("en-GB,en;q=0.9,es;q=0.8", "en"), ("fr-FR, es;q=0.5", "es"),
    ("en;q=0.3, es;q=0.7", "es"), ("fr", "en"), ("", "en"), ("es;q=abc, en", "en")])
def test_the_browser_language_is_negotiated(header: str, lang: str) -> None:
    assert i18n.negotiate(header) == lang


@pytest.mark.parametrize("environ, lang", [
    ({"TUTEPGN_LANG": "es"}, "es"), ({"LANG": "es_AR.UTF-8"}, "es"), ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_ALL": "en_US.UTF-8", "LANG": "es_ES.UTF-8"}, "en"), ({}, "en")])
def test_the_cli_language_comes_from_the_environment(environ: dict[str, str], lang: str) -> None:
    assert i18n.from_environment(environ) == lang


def test_the_service_speaks_the_language_asked_and_remembers_a_switch(tmp_path: Path) -> None:
    client = TestClient(create_app(Settings(db=tmp_path / "a.duckdb")))
    page = client.get("/validate", headers={"Accept": "text/html", "Accept-Language": "es-ES,es;q=0.9"})
    assert page.headers["content-language"] == "es" and '<html lang="es">' in page.text
    assert ">Buscar</a>" in page.text and "Accept-Language" in page.headers["vary"]
    switched = client.get("/validate?lang=en", headers={"Accept": "text/html", "Accept-Language": "es"})
    assert switched.headers["content-language"] == "en" and ">Search</a>" in switched.text
    assert "tute_lang=en" in switched.headers["set-cookie"]
    remembered = client.get("/validate", headers={"Accept": "text/html", "Accept-Language": "es"})
    assert remembered.headers["content-language"] == "en"  # the cookie beats the browser's language
    script = client.get("/i18n/es.js")
    assert script.status_code == 200 and '"Search": "Buscar"' in script.text
    assert client.get("/i18n/fr.js").status_code == 404


def test_the_cli_takes_lang_and_refuses_a_language_it_does_not_speak() -> None:
    run = subprocess.run([sys.executable, "-m", "tutepgn.cli", "--lang", "fr", "rules"], capture_output=True,
                         text=True, check=False)
    assert run.returncode == 2 and "no messages in 'fr': the languages are es, en" in run.stderr


def test_the_catalogue_is_read_from_its_cache_until_a_po_file_changes(tmp_path: Path) -> None:
    """The merged catalogue is kept beside the PO files (a start of ``tute`` in Spanish reads it without Babel);
    an edited PO file makes the cache stale."""
    import shutil

    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE, locale, ignore=shutil.ignore_patterns("__pycache__"))
    probe = ("import sys\nfrom pathlib import Path\nfrom tutepgn import i18n\ni18n.LOCALE = Path(sys.argv[1])\n"
             "with i18n.speaking('es'):\n    print(i18n.gettext('Search'), 'babel' in sys.modules)")

    def run() -> str:
        return subprocess.run([sys.executable, "-c", probe, str(locale)], capture_output=True, text=True,
                              check=True).stdout.strip()

    assert run() == "Buscar True"  # read with Babel, then cached
    assert (locale / "es" / "__pycache__" / "catalogue.marshal").is_file()
    assert run() == "Buscar False"  # from the cache
    po = next(p for p in (locale / "es").glob("*.po") if 'msgid "Search"\nmsgstr "Buscar"' in p.read_text())
    po.write_text(po.read_text().replace('msgid "Search"\nmsgstr "Buscar"', 'msgid "Search"\nmsgstr "Busca"'))
    assert run() == "Busca True"
