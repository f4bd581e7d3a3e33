"""``tute simulate``: deals or matches played by the built-in bots, written in Tute PGN."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tutepgn.cli.arena import BudgetChoice
from tutepgn.cli.output import fail, format_option, out
from tutepgn.cli.rules import ruleset

if TYPE_CHECKING:  # the bots and the writers load when the command runs, not for ``tute --help``
    from tutepgn.recording.simulate import Bot, BotName


def simulate(
    rules: Annotated[str, typer.Option("--rules", "-r", help="Preset name plus overrides, e.g. 'ludoteka-pairs match_target=6'.")] = "ludoteka-pairs",
    deals: Annotated[int, typer.Option(help="Number of independent deals.")] = 1,
    matches: Annotated[int | None, typer.Option(help="Play this many complete matches instead of single deals.")] = None,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same output.")] = 0,
    bot: Annotated[str, typer.Option(help="random: any legal action; greedy: declares whenever it may; heuristic: plays as a decent club player; pimc-N: N worlds solved per card (pimc-Nw: weighted by the play so far); a level 1-5.")] = "greedy",
    level: Annotated[int | None, typer.Option("--level", help="The bot of this level (1-5, see docs/play.md) at every seat, instead of --bot.")] = None,
    budget: Annotated[BudgetChoice, typer.Option(help="worlds: every world of a PIMC bot searched, no clock (the same plays from the same seed on any machine); time: its worlds within its time per decision, as at the table.")] = BudgetChoice.worlds,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")] = None,
    sheet: Annotated[bool, typer.Option("--sheet", help="Print each deal's score sheet instead of its record.")] = False,
    fmt: format_option("tpgn", "json", "jsonl", help="Form of the records (json: an array; jsonl: one a line)") = "tpgn",  # type: ignore[valid-type]  # an option built at run time
) -> None:
    """Play deals or matches with built-in bots and write their records in Tute PGN (or JSON)."""
    from tutepgn.notation import jsonform, tpgn
    from tutepgn.cli.sheets import score_sheet
    from tutepgn.recording.simulate import deal_records, match_records
    from tutepgn.check.validate import validate
    from tutepgn.errors import UnknownBot
    from tutepgn.play.bots import named_bot

    r = ruleset(rules)
    try:
        bot_name: BotName | Bot = named_bot(bot if level is None else str(level), r.players, budget.budget)
    except UnknownBot as exc:
        raise fail(exc) from None
    records = (match_records(r, matches, seed, bot_name) if matches is not None
               else deal_records(r, deals, seed, bot_name))
    if sheet:
        for record in records:
            out.print(score_sheet(validate(record).model()))
        return
    chunks = tpgn.iter_dump(records) if fmt == "tpgn" else jsonform.iter_dump(records, lines=fmt == "jsonl")
    stream = output.open("w", encoding="utf-8", newline="\n") if output else sys.stdout
    try:
        stream.writelines(chunks)
    finally:
        if output:
            stream.close()
