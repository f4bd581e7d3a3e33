"""Is every message translated?  The checks behind ``tests/test_i18n.py``, and what is still to translate.

``python -m tutepgn.i18ncheck`` prints, in PO form ready to paste into a file of ``tutepgn/locale/es/``, every
message of the sources (found as ``babel.cfg`` says) that the Spanish catalogue lacks.  The templates are
also read for text a person sees that is not a message at all (:func:`template_literals`).
"""

from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

from jinja2 import Environment

from .i18n import LANGUAGES, LOCALE, SOURCE

ROOT = Path(__file__).resolve().parent.parent
"""The checkout whose sources are read (the checks need the sources, not an installed wheel)."""
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "t": None, "tn": (1, 2)}
"""The functions whose first argument (and second, for plurals) is a message."""
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
VISIBLE_ATTRIBUTES = frozenset({"title", "placeholder", "alt", "aria-label", "label"})
"""The attributes of an HTML tag that a person reads."""
NOT_WORDS = re.compile(r"&#?\w+;|\btutepgn\b|\.tpgn\b|\bJSON\b|\bCSV\b|\bAPI\b|\bN\b|\bS\b|\bE\b|\bW\b")
"""Text that needs no translation: entities, the product's and formats' names, the seats' letters."""


def extracted() -> dict[str | tuple[str, str], list[str]]:
    """Every message of the sources, with where it is (``file:line``)."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[str | tuple[str, str], list[str]] = defaultdict(list)
    for filename, line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True):
        if message:
            found[message].append(f"{filename}:{line}")
    for message, where in cli_help():
        found[message].append(where)
    return found


def cli_help() -> list[tuple[str, str]]:
    """The help of the CLI, which ``cli/main.py`` translates as the help is written (babel does not find it):
    each command's docstring, and each ``help=`` given as a string literal in ``cli/``; with where it is."""
    from tutepgn.cli.main import ARCHIVE_COMMANDS, COMMANDS

    commands = {spec.partition(":")[::2] for spec in [*COMMANDS.values(), *ARCHIVE_COMMANDS.values()] if spec}
    found = []
    for path in sorted((ROOT / "cli").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and (path.stem, node.name) in commands:
                found.append((ast.get_docstring(node) or "", f"cli/{path.name}:{node.lineno}"))
            elif isinstance(node, ast.keyword) and node.arg == "help" and isinstance(node.value, ast.Constant) \
                    and isinstance(node.value.value, str) and node.value.value:
                found.append((node.value.value, f"cli/{path.name}:{node.value.lineno}"))
    return [(text, where) for text, where in found if text]


def placeholders(text: str) -> set[str]:
    """The names of a message's ``{placeholders}``."""
    return set(PLACEHOLDER.findall(text))


def catalogue_problems(lang: str = "es") -> list[str]:
    """What is wrong with ``lang``'s catalogue against the sources: messages missing or untranslated,
    placeholders that differ, a message translated twice differently, entries no source uses any more."""
    from babel.messages.pofile import read_po

    problems: list[str] = []
    translated: dict[str, tuple[str, str | tuple[str, ...]]] = {}
    for path in sorted((LOCALE / lang).glob("*.po")):
        with path.open("rb") as po:
            for message in read_po(po, locale=lang):
                if not message.id:
                    continue
                key = message.id[0] if isinstance(message.id, tuple) else message.id
                if key in translated and translated[key][1] != message.string:
                    problems.append(f"{path.name} and {translated[key][0]} translate {key!r} differently")
                translated[key] = (path.name, message.string)
                if message.fuzzy or not all(message.string if isinstance(message.string, tuple) else
                                            [message.string]):
                    problems.append(f"{path.name}: {key!r} is not translated (empty or fuzzy)")
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                wanted = set().union(*(placeholders(i) for i in ids)) - {"n"}
                for string in strings:
                    if string and placeholders(string) - {"n"} != wanted:
                        problems.append(f"{path.name}: {key!r} has placeholders {sorted(wanted)}, its "
                                        f"translation {string!r} has {sorted(placeholders(string) - {'n'})}")
    sources = extracted()
    keys = {m[0] if isinstance(m, tuple) else m: where for m, where in sources.items()}
    for key, where in keys.items():
        if key not in translated:
            problems.append(f"{where[0]}: {key!r} has no translation in tutepgn/locale/{lang}/")
    for key, (name, _string) in translated.items():
        if key not in keys:
            problems.append(f"{name}: {key!r} is used by no source any more")
    return problems


class _Literals(HTMLParser):
    """Text a person sees in a template's HTML, template code replaced by NUL: the data, and the visible
    attributes' values."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: list[tuple[int, str]] = []
        self.raw = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.raw = tag in ("script", "style")
        for name, value in attrs:
            if name in VISIBLE_ATTRIBUTES and value:
                self.check(value)

    def handle_endtag(self, tag: str) -> None:
        self.raw = False

    def handle_data(self, data: str) -> None:
        if not self.raw:
            self.check(data)

    def check(self, text: str) -> None:
        words = NOT_WORDS.sub("", text.replace("\0", " "))
        if re.search(r"[^\W\d_]", words):
            self.found.append((self.getpos()[0], " ".join(re.sub("\0+", "…", text).split())))


def template_literals(path: Path) -> list[tuple[int, str]]:
    """The literal text a person would see in a Jinja template (``{{ _("...") }}`` is how to say it):
    (line, text) for each."""
    source = path.read_text(encoding="utf-8")
    html = []
    for _line, kind, value in Environment().lex(source):
        html.append(value if kind == "data" else "\0" + "\n" * value.count("\n"))
    parser = _Literals()
    parser.feed("".join(html))
    parser.close()
    return parser.found


def main() -> int:
    """Print the Spanish catalogue's gaps; the messages missing, as PO entries to paste and translate."""
    from babel.messages.pofile import read_po

    known: set[str] = set()
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        for path in sorted((LOCALE / lang).glob("*.po")):
            with path.open("rb") as po:
                known |= {m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(po) if m.id}
    for message, where in extracted().items():
        key = message[0] if isinstance(message, tuple) else message
        if key in known:
            continue
        print("".join(f"#: {w}\n" for w in where[:3]), end="")
        if isinstance(message, tuple):
            print(f'msgid "{escape(message[0])}"\nmsgid_plural "{escape(message[1])}"\n'
                  'msgstr[0] ""\nmsgstr[1] ""\n')
        else:
            print(f'msgid "{escape(message)}"\nmsgstr ""\n')
    problems = [p for p in catalogue_problems() if "has no translation" not in p]
    for path in sorted((ROOT / "api" / "templates").glob("*.html")):
        problems += [f"{path.name}:{line}: literal text {text!r}" for line, text in template_literals(path)]
    print("\n".join(problems), file=sys.stderr)
    return 1 if problems else 0


def escape(text: str) -> str:
    """A message as a PO string's body."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


if __name__ == "__main__":
    raise SystemExit(main())
