"""Correcting a file's claimed counts: the Score and Result tags a validation found wrong, rewritten in place of
the record, everything else kept byte for byte (``tute validate --fix-results``)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from ..notation import iter_raw_records, parse_record
from ..notation.split import open_source


def fix_results(source: object, reports: list[dict[str, object]]) -> tuple[str, int]:
    """The text of ``source`` with Score and Result corrected where a report found them wrong.

    Records that need no correction (or cannot be judged) keep their exact
    text, and so does everything between records (``;`` comments on the file,
    blank lines); corrected records are written in export format in their
    place.  Returns the new text and the number of records corrected.
    """
    by_index = {int(r["record"]): r for r in reports}  # type: ignore[call-overload]
    blocks, _, handle = open_source(source)  # type: ignore[arg-type]
    try:
        whole = "".join(blocks)  # as the reader sees it: BOM dropped, CRLF read as LF
    finally:
        if handle is not None:
            handle.close()
    lines = whole.splitlines(keepends=True)
    out: list[str] = []
    done = 0  # lines of ``whole`` already in ``out``
    fixed = 0
    for name, index, first_line, text in iter_raw_records([io.StringIO(whole)]):
        report = by_index.get(index)
        wrong = report is not None and (report["score_ok"] is False or report["result_ok"] is False)
        if not wrong or report is None or report["computed_score"] is None:
            continue
        record = parse_record(text, first_line=first_line, source=name, index=index)
        labels = report["sides"]
        record.tags["Score"] = " ".join(f"{label}:{v}" for label, v in zip(labels, report["computed_score"]))  # type: ignore[call-overload]
        record.tags["Result"] = record.termination = str(report["computed_result"])
        span = text.count("\n") + (not text.endswith("\n"))  # the lines the record's text covers
        out.extend(lines[done:first_line - 1])
        out.append(record.tpgn() + ("\n" if text.endswith("\n\n") else ""))
        done = first_line - 1 + span
        fixed += 1
    out.extend(lines[done:])
    return "".join(out), fixed


def write_fixed(path: Path, reports: list[dict[str, object]], *, in_place: bool = False
                ) -> tuple[int, Path | None, Path | None]:
    """Write ``path`` with Score and Result corrected (see :func:`fix_results`) to FILE.fixed.tpgn, or over
    the file itself keeping FILE.bak; never a half-written file (written aside, then renamed).
    Returns the records corrected, the file written and the backup (None when there was nothing to fix)."""
    path = Path(path)
    text, fixed = fix_results(path, reports)
    if not fixed:
        return 0, None, None
    backup = path.with_name(path.name + ".bak") if in_place else None
    if backup is not None:
        shutil.copy2(path, backup)
    target = path if in_place else path.with_name(path.stem + ".fixed" + path.suffix)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(text, encoding="utf-8", errors="surrogateescape", newline="\n")  # bytes that are not UTF-8 kept
    tmp.replace(target)
    return fixed, target, backup
