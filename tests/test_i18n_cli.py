"""The CLI in Spanish, run as a user would (the installed ``tute``, a real archive file): its summaries, tables,
prompts, help notes and errors come from the catalogue (tutepgn/locale/es/cli.po), none of the English is left,
and what programs read (``--json``) is the same in every language (docs/i18n.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_i18n_messages import tute

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [ROOT / "samples" / "ludoteka-match.tpgn", ROOT / "samples" / "hand-written.tpgn"]


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """An archive imported in Spanish, and what the import said on stderr."""
    db = tmp_path_factory.mktemp("es") / "a.duckdb"
    run = tute("--lang", "es", "import", *map(str, SAMPLES), "--db", str(db), "--jobs", "1")
    assert run.returncode == 0, run.stderr
    return db, run.stderr


def header_words(text: str) -> set[str]:
    """The words of a rich table's header rows (between ┃)."""
    return {word for line in text.splitlines() if "┃" in line for cell in line.split("┃") for word in cell.split()}


def test_the_import_summary_in_spanish(imported: tuple[Path, str]) -> None:
    db, said = imported
    assert "6 registros leídos. Añadidos: 6; ya en el archivo: 0; con errores: 0;" in said and "registros/s" in said
    assert "records" not in said and "added" not in said
    again = tute("import", str(SAMPLES[1]), "--db", str(db), "--jobs", "1")
    assert "1 record read, 0 added, 1 already in the archive, 0 invalid;" in again.stderr


def test_search_and_stats_tables_in_spanish(imported: tuple[Path, str]) -> None:
    db, _said = imported
    found = tute("--lang", "es", "search", "--db", str(db))
    assert found.returncode == 0, found.stderr
    assert {"fecha", "evento", "reglas", "jugadores", "triunfo", "tanteo", "resultado", "sin", "errores"} \
        <= header_words(found.stdout)
    assert not {"date", "event", "players", "trump", "score", "valid"} & header_words(found.stdout)
    assert "6 juegos, se muestran 1-6" in found.stdout and "showing" not in found.stdout
    none = tute("--lang", "es", "search", "--db", str(db), "--player", "Nadie")
    assert "ningún juego cumple --player Nadie (juegos: 6)" in none.stderr
    stats = tute("--lang", "es", "stats", "--db", str(db))
    assert stats.returncode == 0, stats.stderr
    for words in ("juegos: 6; terminados: 6; con errores: 0", "Jugadores", "Reglamentos", "Palos de triunfo",
                  "Las cuarenta: el bando que las cantó ganó",
                  "Las cuarenta: el bando al que le entraron el rey y el caballo del triunfo, cantadas o no, ganó",
                  "Mano: el bando de la mano"):
        assert words in stats.stdout, words
    assert {"jugador", "juegos", "ganados", "media", "reglamento"} <= header_words(stats.stdout)
    assert not {"player", "deals", "wins", "average", "ruleset", "won"} & header_words(stats.stdout)


def test_json_output_is_the_same_in_every_language(imported: tuple[Path, str]) -> None:
    db, _said = imported
    spanish, english = (tute(*lang, "search", "--db", str(db), "--json") for lang in (["--lang", "es"], []))
    assert spanish.returncode == english.returncode == 0
    assert spanish.stdout == english.stdout and json.loads(spanish.stdout)[0]["valid"] is True


def test_analyse_table_in_spanish() -> None:
    run = tute("--lang", "es", "analyse", str(SAMPLES[1]), "--record", "1")
    assert run.returncode == 0, run.stderr
    assert {"baza", "puesto", "carta", "valor", "mejores", "coste", "signo"} <= header_words(run.stdout)
    assert not {"trick", "seat", "card", "value", "best", "cost", "mark"} & header_words(run.stdout)
    assert "registro 1" in run.stdout and "   hecho " in run.stdout and "actual" not in run.stdout


def test_record_prompts_and_stop_in_spanish(tmp_path: Path) -> None:
    run = tute("--lang", "es", "record", "--rules", "playcard-2p", "--single", "-o", str(tmp_path / "r.tpgn"),
               stdin="Liga\nAna\nBea\n")
    assert run.returncode == 0, run.stderr
    for words in ("Evento: ", "Jugador en Norte (N): ", "Anotando un juego de playcard-2p", "manos desconocidas",
                  "Introduce las cartas según se juegan", "Juego 1, da N. La muestra: ",
                  "Detenido antes del siguiente juego: no se ha escrito nada."):
        assert words in run.stdout, words
    assert not any(words in run.stdout for words in ("Event:", "Recording", "hands unknown", "turned card", "Stopped"))


def test_errors_say_their_label_and_title_in_spanish(imported: tuple[Path, str]) -> None:
    db, _said = imported
    missing = tute("--lang", "es", "show", "99999", "--db", str(db))
    assert missing.returncode == 2
    assert missing.stderr.startswith("error: no hay ningún juego 99999 en ") and "no deal" not in missing.stderr
    syntax = tute("--lang", "es", "validate", "--strict", "-", stdin='[Rules "playcard-2p"]\n1. N 13O 2O\n*\n')
    assert syntax.returncode == 2 and syntax.stderr.startswith("error de sintaxis: ")
    problems = {lang: json.loads(tute(*lang, "search", "--db", str(db), "--sort", "nada", "--json").stderr)
                for lang in (("--lang", "es"), ())}
    spanish, english = problems[("--lang", "es")], problems[()]
    assert spanish["title"] == "Valor no válido" and english["title"] == "Invalid value"
    assert spanish["instance"] == english["instance"] == "tute search"  # --lang before the command is not it
    assert spanish["detail"].startswith("orden desconocido 'nada'") and spanish["status"] == english["status"] == 2


def test_help_notes_in_spanish() -> None:
    spanish = " ".join(tute("--lang", "es", "sql", "--help").stdout.split())  # unfolded
    for words in ("Uso: tute sql [OPCIONES]", "[por defecto: 10.0]", "[variable de entorno: TUTEPGN_DB]"):
        assert words in spanish, words
    assert "[default:" not in spanish and "env var" not in spanish and "[OPTIONS]" not in spanish
    assert "Validar en el clúster Dask de ADDRESS" in " ".join(tute("--lang", "es", "validate", "--help").stdout.split())
    assert "[default: 10.0]" in " ".join(tute("sql", "--help").stdout.split())
    # the kinds of value: typer's words in English, ours in Spanish
    assert "--db <ruta>" in spanish and "<path>" not in spanish and "<str>" not in spanish
    assert "--db <path>" in tute("sql", "--help").stdout
