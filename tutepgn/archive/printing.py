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
from functools import cache
from pathlib import Path
from typing import Any, cast

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
"""The type sizes of a table and of a document's title, in points."""
PICTURE_MM = 30.0
BOX_MM = 11.0
"""The height of a box to write in by hand (a :attr:`Table.blank` row), in mm."""
CAPTION_SIZE = 6.5
"""The type size of a picture's caption, in points."""
PORTRAIT_WIDTH = 190.0
"""The width an upright A4 page leaves a table, in mm, with 10 mm margins (a turned page leaves 277)."""


@dataclass(frozen=True)
class Table:
    """One table of a document: its title ("" for a document's only table), column headings and rows."""

    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[Cell]]
    picture: bytes | None = None
    """An SVG or PNG drawn :data:`PICTURE_MM` wide at the right of the table's title, in the PDF only (a table
    sheet's QR code: the phone that scans it opens the table's recording page)."""
    new_page: bool = False
    """The table starts a page of its own in the PDF (a sheet per table; the first stays under the title)."""
    caption: str = ""
    """A line printed under the picture, as wide as it (wrapped): what the QR code says, for the eye."""
    blank: bool = False
    """A form to fill in by hand, in the PDF: each row :data:`BOX_MM` tall in boxes, an empty cell left blank."""


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
    with speaking(lang):
        when = _long_date(printed or date.today(), lang)
        foot = _("page {page} of {pages}", page="{page}", pages="{nb}")
    pdf = _new_sheet(f"{title} · {when}", foot)
    pdf.set_title(title)
    pdf.set_lang(lang)
    pdf.set_creator("tutepgn")
    shown = [[[pdf.fit("" if v is None and table.blank else _shown(v, lang)) for v in row] for row in table.rows]
             for table in tables]
    natural = [pdf.natural_widths(table, cells) for table, cells in zip(tables, shown)]
    pdf.turned = any(sum(wrapped) > PORTRAIT_WIDTH for _whole, wrapped in natural)
    pdf.new_page()
    pdf.set_font(pdf.family, "B", TITLE_SIZE)
    pdf.multi_cell(0, 7, pdf.fit(title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.family, "", FONT_SIZE + 1)
    pdf.set_text_color(70)
    for line in [*subtitle.splitlines(), when]:
        pdf.multi_cell(0, 5, pdf.fit(line), new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(0)
    for index, (table, cells, widths) in enumerate(zip(tables, shown, natural)):
        pdf.table_of(table, cells, widths, first=index == 0)
    return bytes(pdf.output())


LINE = 4.0
"""A line of a table's text, in mm (at :data:`FONT_SIZE`), and the padding around it, across and down."""
PAD_X, PAD_Y = 1.2, 0.7
BOTTOM = 16.0
"""The room left at a page's foot for its page number, in mm."""


@cache
def _sheet_class() -> type[Any]:
    """The PDF writer's page (fpdf2 imported on first use: the archive loads without it)."""
    from fpdf import FPDF

    class Sheet(FPDF):
        """A4 pages with a foot line, and tables drawn cell by cell: fpdf2's own tables lay out every cell as a
        paragraph (ten times slower), where a club's standings fit a line a cell."""

        def __init__(self, foot_left: str, foot_right: str) -> None:
            super().__init__(unit="mm", format="A4")
            self.set_margins(10, 10, 10)
            self.set_auto_page_break(False)  # pages are turned here, each one the same way (new_page)
            self.c_margin = 0  # a cell's padding is PAD_X, here: fpdf2's own would wrap a word that fits
            self.turned = False
            self.family, self.fit = _font(self)
            self.foot_left, self.foot_right = foot_left, foot_right

        def footer(self) -> None:
            self.set_y(-12)
            self.set_font(self.family, "", 8)
            self.set_text_color(90)
            self.cell(0, 5, self.fit(self.foot_left), align="L")
            self.set_x(self.l_margin)
            self.cell(0, 5, self.fit(self.foot_right.replace("{page}", str(self.page_no()))), align="R")
            self.set_text_color(0)

        def new_page(self) -> None:
            self.add_page(orientation="L" if self.turned else "P")

        def room(self) -> float:
            return float(self.h - BOTTOM - self.y)

        def natural_widths(self, table: Table, cells: list[list[str]]) -> tuple[list[float], list[float]]:
            """Each column's width in mm for its longest text: with its heading on one line, and with the
            heading's words wrapped (what a page too narrow for the first takes)."""
            whole, wrapped = [], []
            for i, heading in enumerate(table.columns):
                self.set_font(self.family, "B", FONT_SIZE)
                line = self.get_string_width(self.fit(str(heading)))
                word = max((self.get_string_width(self.fit(w)) for w in str(heading).split()), default=0.0)
                self.set_font(self.family, "", FONT_SIZE)
                body = min(max((self.get_string_width(row[i]) for row in cells), default=0.0), 70.0)
                whole.append(max(min(line, 70.0), word, body) + 2 * PAD_X + 0.3)
                wrapped.append(max(word, body) + 2 * PAD_X + 0.3)
            return whole, wrapped

        def lines(self, text: str, width: float) -> int:
            """How many lines ``text`` takes in a cell ``width`` wide, in the font set."""
            if self.get_string_width(text) <= width - 2 * PAD_X:
                return 1
            return len(cast(list[str], self.multi_cell(width - 2 * PAD_X, LINE, text, dry_run=True, output="LINES")))

        def counts(self, texts: Sequence[str], widths: Sequence[float], heading: bool) -> list[int]:
            """The lines each cell of a row takes."""
            self.set_font(self.family, "B" if heading else "", FONT_SIZE)
            return [self.lines(t, w) for t, w in zip(texts, widths)]

        def row(self, texts: Sequence[str], widths: Sequence[float], aligns: Sequence[str], heading: bool,
                counts: Sequence[int], boxed: bool = False) -> None:
            """One row at the cursor, its cells side by side, as tall as its tallest cell (``boxed``: each cell
            a box at least :data:`BOX_MM` tall, to write in)."""
            self.set_font(self.family, "B" if heading else "", FONT_SIZE)
            height = max(max(counts) * LINE + 2 * PAD_Y, BOX_MM if boxed else 0.0)
            x0, y0 = self.l_margin, self.y
            if heading:
                self.set_fill_color(230)
                self.rect(x0, y0, sum(widths), height, style="F")
            x = x0
            for text, width, align, count in zip(texts, widths, aligns, counts):
                if boxed:
                    self.set_draw_color(0)
                    self.set_line_width(0.3)
                    self.rect(x, y0, width, height)
                self.set_xy(x + PAD_X, y0 + PAD_Y)
                if count == 1:
                    self.cell(width - 2 * PAD_X, LINE, text, align=align)
                else:
                    self.multi_cell(width - 2 * PAD_X, LINE, text, align=align)
                x += width
            self.set_draw_color(0 if heading else 170)
            self.set_line_width(0.3 if heading else 0.1)
            self.line(x0, y0 + height, x0 + sum(widths), y0 + height)
            self.set_xy(x0, y0 + height)

        def table_of(self, table: Table, cells: list[list[str]], natural: tuple[list[float], list[float]], *,
                     first: bool) -> None:
            """A table under its title, the heading row again at the top of each page it runs onto: its
            headings on one line if the page is wide enough, else wrapped; narrowed to the page if need be
            (its texts wrapped)."""
            whole, wrapped = natural
            widths = whole if sum(whole) <= self.epw else wrapped
            if table.blank and len(widths) > 1:  # boxes to write in: the page's width shared by the others
                first_width = min(widths[0], self.epw / 2)
                widths = [first_width, *[(self.epw - first_width) / (len(widths) - 1)] * (len(widths) - 1)]
            if sum(widths) > self.epw:
                widths = [w * self.epw / sum(widths) for w in widths]
            elif widths is wrapped:  # the room left goes to the wrapped headings, each in its measure
                wanted = [w - v for w, v in zip(whole, wrapped)]
                share = (self.epw - sum(wrapped)) / sum(wanted) if sum(wanted) else 0.0
                widths = [v + want * min(1.0, share) for v, want in zip(wrapped, wanted)]
            numeric = [all(isinstance(row[i], (int, float)) or row[i] is None for row in table.rows) and
                       any(isinstance(row[i], (int, float)) for row in table.rows) for i in range(len(widths))]
            aligns = ["R" if n else "L" for n in numeric]
            heading = [self.fit(str(c)) for c in table.columns]
            needed = 30 + (PICTURE_MM if table.picture else 0)  # a title, the heading and a row or two
            if self.room() < needed or (table.new_page and not first):  # the first: under the document's title
                self.new_page()
            else:
                self.ln(3)
            top = self.y
            if table.title:
                self.set_font(self.family, "B", FONT_SIZE + 3)
                self.multi_cell(self.epw - (PICTURE_MM + 5 if table.picture else 0), 6, self.fit(table.title),
                                new_x="LMARGIN", new_y="NEXT")
            if table.picture:
                left = self.l_margin + self.epw - PICTURE_MM
                drawn = self.image(io.BytesIO(table.picture), x=left, y=top, w=PICTURE_MM)
                bottom = top + float(drawn.rendered_height)
                if table.caption:  # a URL has no space to break at: fpdf2 breaks it where the line is full
                    self.set_font(self.family, "", CAPTION_SIZE)
                    self.set_xy(left, bottom + 0.5)
                    self.multi_cell(PICTURE_MM, 2.8, self.fit(table.caption), align="C")
                    bottom = self.y
                self.set_y(max(self.y, bottom + 2))
            heading_counts = self.counts(heading, widths, True)
            self.row(heading, widths, aligns, True, heading_counts)
            for texts in cells:
                counts = self.counts(texts, widths, False)
                if max(max(counts) * LINE + 2 * PAD_Y, BOX_MM if table.blank else 0.0) > self.room():
                    self.new_page()
                    self.row(heading, widths, aligns, True, heading_counts)
                self.row(texts, widths, aligns, False, counts, boxed=table.blank)

    return Sheet


def _new_sheet(foot_left: str, foot_right: str) -> Any:
    """A new PDF of A4 pages with this foot line (:func:`_sheet_class`)."""
    return _sheet_class()(foot_left, foot_right)


def _font(pdf: Any) -> tuple[str, Any]:
    """DejaVu Sans added to ``pdf`` when the machine has it, else Helvetica; and the function that fits a text
    to the font: control characters escaped, and what it cannot write (a lone surrogate; outside Helvetica's
    Latin-1, any other character) as ``?``."""
    for folder in FONT_DIRS:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            pdf.add_font("DejaVu", "", str(regular))
            pdf.add_font("DejaVu", "B", str(bold))
            return "DejaVu", lambda text: visible(text).encode("utf-8", "replace").decode("utf-8")  # no lone surrogate
    return "Helvetica", lambda text: visible(text).replace("—", "-").encode("latin-1", "replace").decode("latin-1")


def _shown(value: Cell, lang: str) -> str:
    """A cell as paper shows it: numbers in ``lang``'s form (``1.234`` and ``0,5`` in Spanish), nothing as "—"."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        from babel.numbers import format_decimal

        # A fraction keeps a decimal (60,0 beside 58,8 in one column), up to three.
        return format_decimal(value, format="#,##0.0##" if isinstance(value, float) else None, locale=lang)
    return str(value)


def _long_date(day: date, lang: str) -> str:
    """``day`` as a reader of ``lang`` writes it in full ("6 de diciembre de 2026")."""
    from babel.dates import format_date

    return format_date(day, format="long", locale=lang)
