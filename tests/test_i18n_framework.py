"""The command-line framework's own words in Spanish (cli/usage.py): typer's usage errors, the hint to ask for
help and the errors of a missing file, said by the installed ``tute`` run as a user would, leave no English."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_i18n_messages import tute

ENGLISH = ("No such option", "No such command", "Did you mean", "Possible options", "Missing argument",
           "Missing option", "Missing command", "Invalid value", "Try '", "for help", "Usage:", "does not exist",
           "unexpected extra", "is not one of", "No such file", "no such file", "not a file of records",
           "cannot read", "[OPTIONS]", "Value error")
"""Words of typer's (click's) messages and of a system's reasons, none of which a Spanish error may hold."""


@pytest.mark.parametrize(("args", "spanish"), [
    (["validate", "--bogus"], ["No existe la opción --bogus", "Escribe 'tute validate --help' para ver la ayuda."]),
    (["valida", "x.tpgn"], ["No existe la orden 'valida'. ¿Quisiste decir 'validate'?"]),
    (["archive", "verfy"], ["No existe la orden 'verfy'. ¿Quisiste decir 'verify'?"]),
    (["validate"], ["Uso: tute validate [OPCIONES]", "Falta el argumento"]),
    (["rules", "--format", "xml"], ["Valor no válido en '--format'", "'xml' no es ninguno de estos"]),
    (["convert", "a", "b", "c"], ["Sobra lo que sigue en la línea de órdenes: b c"]),
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
