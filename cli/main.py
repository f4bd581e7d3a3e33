"""The ``tute`` command: a thin layer over the library, one library call per command."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from tutepgn import rules as rules_mod
from tutepgn.errors import TuteError
from tutepgn.sheets import score_sheet
from tutepgn.simulate import BotName, deal_records, match_records
from tutepgn.validate import validate
from tutepgn.sources import source_of

app = typer.Typer(help="tutepgn: record, check and search games of Tute.", no_args_is_help=True,
                  add_completion=False)
out = Console()
err = Console(stderr=True)

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
"""Exit codes: 0 success, 1 invalid or mismatched records, 2 unreadable input or usage error."""


def _fail(exc: Exception) -> typer.Exit:
    err.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True, highlight=False)
    return typer.Exit(EXIT_USAGE)


def _ruleset(spec: str) -> rules_mod.Ruleset:
    try:
        return rules_mod.Ruleset.from_spec(spec)
    except TuteError as exc:
        raise _fail(exc) from None


@app.command()
def simulate(
    rules: Annotated[str, typer.Option("--rules", "-r", help="Preset name plus overrides, e.g. 'ludoteka-pairs match_target=6'.")] = "ludoteka-pairs",
    deals: Annotated[int, typer.Option(help="Number of independent deals.")] = 1,
    matches: Annotated[Optional[int], typer.Option(help="Play this many complete matches instead of single deals.")] = None,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same output.")] = 0,
    bot: Annotated[str, typer.Option(help="random: any legal action; greedy: declares whenever it may.")] = "greedy",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write here instead of stdout.")] = None,
    sheet: Annotated[bool, typer.Option("--sheet", help="Print each deal's score sheet instead of its record.")] = False,
) -> None:
    """Play deals or matches with built-in bots and write their records in Tute PGN."""
    r = _ruleset(rules)
    if bot not in ("random", "greedy"):
        raise _fail(ValueError(f"unknown bot {bot!r}: random or greedy"))
    bot_name: BotName = "random" if bot == "random" else "greedy"
    records = (match_records(r, matches, seed, bot_name) if matches is not None
               else deal_records(r, deals, seed, bot_name))
    if sheet:
        for record in records:
            out.print(score_sheet(validate(record).model()))
        return
    stream = output.open("w", encoding="utf-8", newline="\n") if output else sys.stdout
    try:
        for i, record in enumerate(records):
            stream.write(("\n" if i else "") + record.tpgn())
    finally:
        if output:
            stream.close()


@app.command("rules")
def rules_cmd(
    name: Annotated[Optional[str], typer.Argument(help="A preset, optionally with overrides, e.g. 'playcard-2p match_target=5'.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the presets, or print every option of one with its value and source."""
    if name is None:
        presets = rules_mod.PRESETS
        if as_json:
            out.print_json(data={k: {"players": v.players, "partnerships": v.partnerships}
                                 for k, v in presets.items()})
            return
        table = Table(title="Rulesets")
        table.add_column("preset")
        table.add_column("players")
        table.add_column("cards each")
        table.add_column("trump card")
        table.add_column("match target")
        for key, r in presets.items():
            table.add_row(key, f"{r.players}{' in pairs' if r.partnerships else ''}", str(r.hand_size),
                          r.trump_card, str(r.match_target))
        out.print(table)
        return
    r = _ruleset(name)
    fields = type(r).model_fields
    rows = [(k, rules_mod._format_option(v), fields[k].description or "", source_of(r.preset, k))
            for k, v in r.model_dump().items() if k != "preset"]
    overridden = r.overrides()
    if as_json:
        out.print_json(data={"ruleset": str(r), "preset": r.preset, "options": [
            {"option": k, "value": getattr(r, k), "description": d,
             "source": "override" if k in overridden else src} for k, _, d, src in rows]})
        return
    table = Table(title=f"Ruleset {r}", show_lines=True)
    for col in ("option", "value", "meaning", "source"):
        table.add_column(col, overflow="fold")
    for k, v, d, src in rows:
        table.add_row(k, v, d, "override" if k in overridden else src)
    out.print(table)


def main() -> None:
    """Entry point for ``python -m tutepgn.cli``."""
    app()


from tutepgn.cli import validate as _validate  # noqa: E402,F401  registers tute validate
from tutepgn.cli import convert as _convert  # noqa: E402,F401  registers tute convert
from tutepgn.cli import replay as _replay  # noqa: E402,F401  registers tute replay
from tutepgn.cli import record as _record  # noqa: E402,F401  registers tute record
from tutepgn.cli import archive as _archive  # noqa: E402,F401  registers the archive commands
from tutepgn.cli import serve as _serve  # noqa: E402,F401  registers tute serve
