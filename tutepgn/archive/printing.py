"""Tables for paper and for spreadsheets: PDF, XLSX and CSV, written once for every table the service hands out.

A club pins its results on the wall and keeps them in a spreadsheet: the statistics, a match's score sheet and a
player's deals (:mod:`.club_sheets`), and an event's standings and table sheets, all go through these functions.

* :func:`table_pdf` / :func:`tables_pdf`: A4 (turned to landscape when the columns need it), the title, a
  subtitle and the date printed, the heading row again on every page, no row split across two pages, and
  "página 1 de 2" ("page 1 of 2") at the foot of each page, in DejaVu Sans (Debian's ``fonts-dejavu-core``),
  else in a PDF core font, whose Latin-1 holds Spanish.
* :func:`table_xlsx` / :func:`tables_xlsx`: a sheet per table, numbers as numbers, the heading in bold and
  frozen, each column as wide as its text.
* :func:`table_csv`: the spreadsheet's CSV in the language's convention (:func:`csv_form`): Spanish ``;`` and a
  decimal comma (what Excel set to Spanish reads), English ``,`` and a point; both start with a byte-order mark
  (so that Excel reads UTF-8 names right) and a text that a spreadsheet would run as a formula starts with
  ``'``.  The scripts' CSV (``lang=None``) is plain: ``,``, a point, no mark, texts as they are.

Texts and numbers are the caller's, in the language it passes as ``lang``; only the page numbers, the date
and the numbers' form are this module's.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from ..i18n import gettext as _
from ..i18n import speaking
from ..visible import visible

Cell = str | int | float | None
"""A table's cell: a text, a number (written as a number in every form), or nothing (empty; "—" on paper)."""

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"),)
"""Where DejaVu Sans is looked for (Debian's ``fonts-dejavu-core``, which ``make test`` installs)."""
MEDIA_TYPES = {"csv": "text/csv; charset=utf-8", "pdf": "application/pdf",
               "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
"""The downloadable forms of a table and their media types."""
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A text starting so is a formula to a spreadsheet: the spreadsheet's CSV writes it after a ``'``."""
FONT_SIZE = 9
TITLE_SIZE = 15
PORTRAIT_WIDTH = 190.0
"""The width an A4 page leaves a table, in mm, with 10 mm margins: 190 upright, 277 turned."""
LANDSCAPE_WIDTH = 277.0


@dataclass(frozen=True)
class Table:
    """One table of a document: its title ("" for a document's only table), column headings and rows."""

    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[Cell]]


@dataclass(frozen=True)
class Download:
    """A table written as a file: its bytes, media type and the name to save it under."""

    body: bytes
    media_type: str
    filename: str


def document(fmt: str, name: str, title: str, subtitle: str, tables: Sequence[Table], lang: str, *,
             printed: date | None = None) -> Download:
    """``tables`` as a file in ``fmt`` (csv, xlsx, pdf) named ``name.fmt``: the CSV holds the first table only
    (a CSV is one table), the XLSX a sheet per table, the PDF every table one after the other."""
    if fmt == "csv":
        body = table_csv(tables[0].columns, tables[0].rows, lang).encode("utf-8")
    elif fmt == "xlsx":
        body = tables_xlsx(title, tables, lang)
    elif fmt == "pdf":
        body = tables_pdf(title, subtitle, tables, lang, printed=printed)
    else:
        raise ValueError(_("unknown format {form!r}; formats are {forms}", form=fmt, forms=", ".join(MEDIA_TYPES)))
    return Download(body, MEDIA_TYPES[fmt], f"{name}.{fmt}")


# -- CSV -------------------------------------------------------------------------------------------------------
def csv_form(lang: str | None) -> tuple[str, str]:
    """The separator and the decimal mark of a CSV for ``lang``'s spreadsheets: ``;`` and ``,`` in Spanish,
    ``,`` and ``.`` in English and for scripts (``None``)."""
    return (";", ",") if lang == "es" else (",", ".")


def csv_value(value: Any, decimal: str, spreadsheet: bool) -> Any:
    """One cell as the CSV writes it: a fraction with ``decimal``, a list space-separated, control characters
    escaped (:func:`tutepgn.visible.visible`), and for a spreadsheet a would-be formula after a ``'``."""
    if isinstance(value, float):
        return repr(value).replace(".", decimal)
    if isinstance(value, list):
        value = " ".join(map(str, value))
    if isinstance(value, str):
        value = visible(value)
        if spreadsheet and value.startswith(FORMULA_START):
            return "'" + value
    return value


def table_csv(columns: Sequence[str], rows: Iterable[Sequence[Any]], lang: str | None) -> str:
    """A header and a line per row, in ``lang``'s spreadsheet convention (:func:`csv_form`, a byte-order mark
    first), or for scripts when ``lang`` is None."""
    separator, decimal = csv_form(lang)
    spreadsheet = lang is not None
    buffer = io.StringIO()
    if spreadsheet:
        buffer.write("\ufeff")
    writer = csv.writer(buffer, delimiter=separator)
    writer.writerow([csv_value(c, decimal, spreadsheet) for c in columns])
    writer.writerows([csv_value(v, decimal, spreadsheet) for v in row] for row in rows)
    return buffer.getvalue()


# -- XLSX ------------------------------------------------------------------------------------------------------
def table_xlsx(title: str, columns: Sequence[str], rows: Sequence[Sequence[Cell]], lang: str) -> bytes:
    """One table as a workbook of one sheet named after ``title``."""
    return tables_xlsx(title, [Table(title, columns, rows)], lang)


def tables_xlsx(title: str, tables: Sequence[Table], lang: str) -> bytes:
    """A workbook with a sheet per table (named after its title): the heading in bold and frozen, numbers as
    numbers, texts as texts (never formulas), each column as wide as its longest text."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    book.remove(book.worksheets[0])  # the empty sheet a new workbook has
    book.properties.title = title
    book.properties.language = lang
    used: set[str] = set()
    for table in tables:
        sheet = book.create_sheet(_sheet_name(table.title or title, used))
        sheet.append([visible(c) for c in table.columns])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row in table.rows:
            sheet.append([visible(v) if isinstance(v, str) else v for v in row])
            for cell in sheet[sheet.max_row]:
                if cell.data_type == "f":  # a text that starts with "=": a name, not a formula
                    cell.data_type = "s"
        sheet.freeze_panes = "A2"
        for index, column in enumerate(table.columns, start=1):
            longest = max([len(str(column)), *(len(_shown(row[index - 1], lang)) for row in table.rows)])
            sheet.column_dimensions[get_column_letter(index)].width = min(60, longest + 2)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _sheet_name(title: str, used: set[str]) -> str:
    """A sheet name Excel takes (at most 31 characters, none of ``[]:*?/\\``), unique in the workbook."""
    base = re.sub(r"[\[\]:*?/\\]", " ", visible(title)).strip()[:31] or "1"
    name, n = base, 1
    while name.lower() in used:
        n += 1
        name = f"{base[:31 - len(str(n)) - 1]} {n}"
    used.add(name.lower())
    return name


# -- PDF -------------------------------------------------------------------------------------------------------
def table_pdf(title: str, subtitle: str, columns: Sequence[str], rows: Sequence[Sequence[Cell]], lang: str, *,
              printed: date | None = None) -> bytes:
    """One table on A4 pages under ``title`` and ``subtitle`` (see :func:`tables_pdf`)."""
    return tables_pdf(title, subtitle, [Table("", columns, rows)], lang, printed=printed)


def tables_pdf(title: str, subtitle: str, tables: Sequence[Table], lang: str, *, printed: date | None = None
               ) -> bytes:
    """Tables on A4 pages: ``title``, ``subtitle`` and the date printed (``printed``, else today) at the top;
    each table under its title, its heading row again on every page it runs onto, no row split between pages,
    numbers aligned right in ``lang``'s form; "página 1 de 2" at every page's foot.  Upright, unless a table's
    columns need a page turned."""
    from fpdf import FPDF, FontFace

    with speaking(lang):
        when = _long_date(printed or date.today(), lang)
        foot = _("page {page} of {pages}", page="{page}", pages="{nb}")
    natural = [_natural_widths(table, lang) for table in tables]
    wide = any(sum(widths) > PORTRAIT_WIDTH for widths in natural)

    class Sheet(FPDF):
        def footer(self) -> None:
            self.set_y(-12)
            self.set_font(family, "", 8)
            self.set_text_color(90)
            self.cell(0, 5, fit(f"{title} · {when}"), align="L")
            self.set_x(self.l_margin)
            self.cell(0, 5, fit(foot.replace("{page}", str(self.page_no()))), align="R")

    pdf = Sheet(orientation="L" if wide else "P", unit="mm", format="A4")
    pdf.set_margins(10, 10, 10)
    pdf.set_auto_page_break(True, margin=16)
    pdf.set_title(title)
    pdf.set_lang(lang)
    pdf.set_creator("tutepgn")
    family, fit = _font(pdf)
    pdf.add_page()
    pdf.set_font(family, "B", TITLE_SIZE)
    pdf.multi_cell(0, 7, fit(title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(family, "", FONT_SIZE + 1)
    pdf.set_text_color(70)
    for line in [*subtitle.splitlines(), when]:
        pdf.multi_cell(0, 5, fit(line), new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(0)
    usable = pdf.epw
    for table, widths in zip(tables, natural):
        pdf.ln(3)
        if table.title:
            pdf.set_font(family, "B", FONT_SIZE + 3)
            pdf.multi_cell(0, 6, fit(table.title), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(family, "", FONT_SIZE)
        numeric = [all(isinstance(row[i], (int, float)) or row[i] is None for row in table.rows) and
                   any(isinstance(row[i], (int, float)) for row in table.rows) for i in range(len(table.columns))]
        total = sum(widths)
        with pdf.table(width=min(usable, total), col_widths=widths, align="LEFT", line_height=4.6,
                       text_align=tuple("RIGHT" if n else "LEFT" for n in numeric),
                       headings_style=FontFace(emphasis="BOLD", fill_color=(230, 230, 230)),
                       repeat_headings=1, padding=(0.8, 1.2)) as grid:
            grid.row([fit(str(c)) for c in table.columns])
            for row in table.rows:
                grid.row([fit(_shown(v, lang)) for v in row])
    return bytes(pdf.output())


def _font(pdf: Any) -> tuple[str, Any]:
    """DejaVu Sans added to ``pdf`` when the machine has it, else Helvetica; and the function that fits a text
    to the font (Helvetica's Latin-1: a character outside it becomes ``?``)."""
    for folder in FONT_DIRS:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            pdf.add_font("DejaVu", "", str(regular))
            pdf.add_font("DejaVu", "B", str(bold))
            return "DejaVu", visible
    return "Helvetica", lambda text: visible(text).replace("—", "-").encode("latin-1", "replace").decode("latin-1")


def _natural_widths(table: Table, lang: str) -> list[float]:
    """Each column's width in mm for its longest text (the heading's words may wrap), at the table's size."""
    from fpdf import FPDF

    pdf = FPDF()
    family, fit = _font(pdf)
    widths = []
    for i, heading in enumerate(table.columns):
        pdf.set_font(family, "B", FONT_SIZE)
        head = max((pdf.get_string_width(fit(word)) for word in str(heading).split()), default=0.0)
        pdf.set_font(family, "", FONT_SIZE)
        cells = max((pdf.get_string_width(fit(_shown(row[i], lang))) for row in table.rows), default=0.0)
        widths.append(max(head, min(cells, 70.0)) + 3.5)
    return widths


def _shown(value: Cell, lang: str) -> str:
    """A cell as paper shows it: numbers in ``lang``'s form (``1.234`` and ``0,5`` in Spanish), nothing as "—"."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        from babel.numbers import format_decimal

        return format_decimal(value, locale=lang, decimal_quantization=False)
    return str(value)


def _long_date(day: date, lang: str) -> str:
    """``day`` as a reader of ``lang`` writes it in full ("6 de diciembre de 2026")."""
    from babel.dates import format_date

    return format_date(day, format="long", locale=lang)
