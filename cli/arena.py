"""``tute arena``: two bots over the same deals, the difference with its 95% confidence interval."""

from __future__ import annotations

from contextlib import nullcontext
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from tutepgn.cli.output import JsonFlag, chosen, emit, fail, format_option
from tutepgn.cli.rules import ruleset
from tutepgn.errors import TuteError
from tutepgn.i18n import gettext as _, ngettext

if TYPE_CHECKING:
    from tutepgn.play.arena import ArenaResult, Decisions, Interval
    from tutepgn.play.bots import Budget


class BudgetChoice(str, Enum):
    """A PIMC bot's budget per decision (tutepgn.play.bots.BUDGETS)."""
    worlds = "worlds"
    time = "time"

    @property
    def budget(self) -> Budget:
        """The library's name of the budget."""
        return "time" if self is BudgetChoice.time else "worlds"




def arena(
    bot_a: Annotated[str, typer.Argument(help="The first bot: a name (heuristic, pimc-20) or a level 1-5.")],
    bot_b: Annotated[str, typer.Argument(help="The second bot.")],
    rules: Annotated[str, typer.Option("--rules", "-r", help="Preset name plus overrides; two sides (2 players, or 4 in pairs).")] = "ludoteka-pairs",
    deals: Annotated[int, typer.Option(min=1, help="Number of deals (boards).")] = 100,
    duplicate: Annotated[bool, typer.Option("--duplicate/--single", help="Play each deal twice with the seats swapped (the default), or once.")] = True,
    jobs: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same deals.")] = 0,
    budget: Annotated[BudgetChoice, typer.Option(help="worlds: every world of a PIMC bot searched, no clock (the same plays from the same seed on any machine); time: its worlds within its time per decision, as at the table.")] = BudgetChoice.worlds,
    store: Annotated[Path | None, typer.Option("--store", help="Archive file (DuckDB) where every board is kept as it ends; the boards it holds for the same bots, rules, seed and budget are not played again (a run resumed).")] = None,
    fmt: format_option("text", "json") = "text",  # type: ignore[valid-type]  # an option built at run time
    as_json: JsonFlag = False,
) -> None:
    """Play BOT_A against BOT_B over the same deals and print the mean points and deal-win difference per deal
    for BOT_A with 95% confidence intervals, and an Elo-style difference."""
    from tutepgn.archive import Archive
    from tutepgn.archive.arena_boards import ArenaStore
    from tutepgn.play.arena import arena as run

    form = chosen(fmt, as_json)
    try:
        archive = Archive(store) if store is not None else None
        with archive if archive is not None else nullcontext():
            result = run(ruleset(rules), bot_a, bot_b, deals, seed=seed, duplicate=duplicate, jobs=jobs,
                         budget=budget.budget, store=ArenaStore(archive) if archive is not None else None)
    except (TuteError, ValueError, OSError) as exc:
        raise fail(exc) from None
    emit(form, result.to_dict(), render=lambda: _lines(result))


def _lines(result: ArenaResult) -> list[Text]:
    """The result for people: one line per measure."""
    games = _("duplicate") if result.duplicate else _("single")
    return [
        Text(_("{a} against {b}, {rules}: {n} deals ({games})", a=result.bot_a, b=result.bot_b, rules=result.rules,
               n=len(result.boards), games=games), style="bold"),
        Text(_("points per deal: {value}", value=_interval(result.points))),
        Text(_("deal-win difference per deal: {value}", value=_interval(result.wins))),
        Text(_("Elo-style difference: {value}", value=_interval(result.elo))),
        *(Text(_("{bot}: CPU seconds per decision {value}", bot=name, value=_seconds(d)))
          for name, d in zip((result.bot_a, result.bot_b), result.decisions)),
        *([Text(ngettext("{n} board read from the store, not played again",
                               "{n} boards read from the store, not played again", result.resumed), style="dim")]
          if result.resumed else []),
    ]


def _seconds(d: Decisions) -> str:
    """``median 0.012, p90 0.031 (412 decisions)``."""
    if d.median is None or d.p90 is None:
        return _("none timed")
    return _("median {median}, p90 {p90} ({n} decisions)", median=format(d.median, ".3g"), p90=format(d.p90, ".3g"),
             n=d.count)


def _interval(i: Interval) -> str:
    """``+12.3 (95% CI +4.1 to +20.5)``."""
    mean, low, high = (format(v, "+.2f") for v in (i.mean, i.low, i.high))
    return _("{mean} (95% CI {low} to {high})", mean=mean, low=low, high=high)
