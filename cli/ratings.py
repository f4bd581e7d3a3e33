"""``tute ratings``: the ranking of the archive's players (or pairs) by their OpenSkill rating, recomputed and
stored when a match changed since the last time (docs/ratings.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from tutepgn.cli.archive import DbOption
from tutepgn.cli.output import Format, JsonFlag, cell, chosen, emit, fail, format_option
from tutepgn.errors import ArchiveError
from tutepgn.i18n import N_, gettext as _

if TYPE_CHECKING:
    from rich.console import RenderableType

    from tutepgn.archive.ratings import RatingRow as Row

CSV_COLUMNS = ("rank", "name", "rating", "sigma", "mu", "matches", "wins")
"""The columns of ``--format csv`` (pairs add their rating as a team: ``team_rating``, ``team_sigma``)."""
HEADERS = ("#", N_("player"), N_("rating"), N_("matches"), N_("matches won"))


def shown(value: float) -> str:
    """A rating as the table shows it: one decimal."""
    return f"{value:.1f}"


def ranking_table(rows: list[Row], pairs: bool) -> list[RenderableType]:
    """The ranking for people: rank, name, the rating with its uncertainty, matches and wins."""
    from rich.table import Table

    if not rows:
        return [_("No finished match with every player named: nothing to rate yet.")]
    grid = Table(title=_("Pairs' ratings") if pairs else _("Players' ratings"), title_justify="left")
    for at, header in enumerate(HEADERS):
        title = _("pair") if pairs and at == 1 else _(header) if at else header
        grid.add_column(title, justify="left" if at == 1 else "right")
    if pairs:
        grid.add_column(_("as a team"), justify="right")
    for row in rows:
        cells = [str(row.rank), row.name, f"{shown(row.rating)} ± {shown(row.sigma)}", str(row.matches),
                 str(row.wins)]
        if row.team_rating is not None and row.team_sigma is not None:
            cells.append(f"{shown(row.team_rating)} ± {shown(row.team_sigma)}")
        grid.add_row(*map(cell, cells))
    return [grid, _("The rating is mu - 3 sigma: a skill the player is 99.7% sure to have at least; ± is sigma, "
                    "the uncertainty, which shrinks as they play.")]


def ratings(
    db: DbOption = None,
    pairs: Annotated[bool, typer.Option("--pairs", help="Rank the pairs of four-player matches, not the players.")]
    = False,
    fmt: format_option("table", "json", "csv") = "table",  # type: ignore[valid-type]  # an option built at run time
    as_json: JsonFlag = False,
) -> None:
    """Ratings of players and pairs over every finished match (OpenSkill), with their uncertainty."""
    import duckdb

    from tutepgn.archive import Archive, default_path, open_writer
    from tutepgn.archive.ratings import RatingRow, current, ranking

    form = chosen(fmt, as_json)
    path = db or default_path()
    if not path.exists():
        raise fail(FileNotFoundError(_("no archive at {path}", path=path)))
    try:
        archive = open_writer(path)  # while a service holds the file, it answers
    except (duckdb.Error, ArchiveError) as exc:
        raise fail(exc) from None
    try:
        if isinstance(archive, Archive):
            rows = ranking(current(archive, save=True), pairs)
        else:
            rows = [RatingRow.model_validate(row) for row in archive.ratings(pairs)]
    except (duckdb.Error, ArchiveError) as exc:
        raise fail(exc) from None
    finally:
        archive.close()
    columns = (*CSV_COLUMNS, "team_rating", "team_sigma") if pairs else CSV_COLUMNS
    data = [row.model_dump() for row in rows]
    if form == Format.csv:
        data = [{name: row[name] for name in columns} for row in data]
    emit(form, data, columns=columns if form == Format.csv else None, render=lambda: ranking_table(rows, pairs))
