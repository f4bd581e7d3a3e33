"""``tute rules``: the presets, or every option of one ruleset with its value and where it comes from,
and the decisions the engine makes for it where the source texts are silent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from tutepgn import rules as rules_mod
from tutepgn.cli.output import JsonFlag, chosen, emit, fail, format_option
from tutepgn.errors import TuteError
from tutepgn.i18n import N_, gettext as _

if TYPE_CHECKING:
    from rich.table import Table

    from tutepgn.citations import Decision


def ruleset(spec: str) -> rules_mod.Ruleset:
    """The ruleset a command line names (exit 2 with the library's reason if it names none)."""
    try:
        return rules_mod.Ruleset.from_spec(spec)
    except TuteError as exc:
        raise fail(exc) from None


def rules(
    name: Annotated[str | None, typer.Argument(help="A preset, optionally with overrides, e.g. 'playcard-2p match_target=5'.")] = None,
    fmt: format_option("table", "json") = "table",  # type: ignore[valid-type]  # an option built at run time
    as_json: JsonFlag = False,
) -> None:
    """List the presets, or print every option of one with its value and source, and the engine's decisions."""
    form = chosen(fmt, as_json)
    if name is None:
        from tutepgn.rules_text import summary

        presets = rules_mod.PRESETS
        emit(form, {k: {"name": rules_mod.display_name(k), "players": v.players, "partnerships": v.partnerships,
                        "summary": summary(v)} for k, v in presets.items()},
             render=lambda: [presets_table(presets)])
        return
    from tutepgn.sources import decisions_for  # the citations load for one ruleset's options, not for the list

    r = ruleset(name)
    rows = rules_mod.option_rows(r)
    decisions = decisions_for(r)
    emit(form, {"ruleset": str(r), "preset": r.preset, "options": [
        {"option": row["option"], "value": row["value"], "description": row["description"], "source": row["source"],
         "citation": row["citation"]} for row in rows],
        "decisions": [d.to_dict() for d in decisions]}, render=lambda: ruleset_tables(r, rows, decisions))


def presets_table(presets: dict[str, rules_mod.Ruleset]) -> Table:
    """The presets as ``tute rules`` prints them: each one's name for players, its id (what ``--rules`` and the
    files write, never cut), and a line about it; the words wrap, in any width (rich loads here)."""
    from rich.table import Table

    from tutepgn.rules_text import summary

    table = Table(title=_("Rulesets"), show_lines=True)
    table.add_column(_("name"), overflow="fold", ratio=2)
    table.add_column(_("id"), no_wrap=True, min_width=max(map(len, presets)))
    table.add_column(_("how it is played"), overflow="fold", ratio=3)
    for key, r in presets.items():
        table.add_row(rules_mod.display_name(key), key, summary(r))
    return table


def ruleset_tables(r: rules_mod.Ruleset, rows: list[dict[str, Any]], decisions: list[Decision]) -> list[Table]:
    """One ruleset's options and the engine's decisions for it, as ``tute rules NAME`` prints them."""
    from rich.table import Table

    table = Table(title=_("Ruleset {ruleset}", ruleset=r), caption=rules_mod.display_name(r.preset), show_lines=True)
    for col in (N_("option"), N_("value"), N_("meaning"), N_("source")):
        table.add_column(_(col), overflow="fold")
    for row in rows:
        table.add_row(row["option"], row["text"], row["description"],
                      _("override") if row["source"] == "override" else row["source"])
    decided = Table(title=_("Decisions the engine makes where the source texts are silent"), show_lines=True)
    for col in (N_("decision"), N_("what the engine does"), N_("stated in")):
        decided.add_column(_(col), overflow="fold")
    for d in decisions:
        decided.add_row(_(d.title), _(d.statement), d.link)
    return [table, decided]
