"""Is every message translated?  The checks behind ``tests/test_i18n.py``, and what is still to translate.

``python tests/i18ncheck.py`` prints, in PO form ready to paste into a file of ``tutepgn/locale/es/``, every
message of the sources (found as ``babel.cfg`` says) that the Spanish catalogue lacks.  The templates and
the pages' scripts are also read for text a person sees that is not a message at all (:func:`template_literals`,
:func:`script_literals`).
"""

from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from jinja2 import Environment

from tutepgn.i18n import LANGUAGES, LOCALE, SOURCE

ROOT = Path(__file__).resolve().parent.parent
"""The checkout whose sources are read (the checks need the sources, not an installed wheel)."""
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "t": None, "tn": (1, 2)}
"""The functions whose first argument (and second, for plurals) is a message."""
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
VISIBLE_ATTRIBUTES = frozenset({"title", "placeholder", "alt", "aria-label", "label"})
"""The attributes of an HTML tag that a person reads."""
NOT_WORDS = re.compile(r"&#?\w+;|\btutepgn\b|\.tpgn\b|\bJSON\b|\bCSV\b|\bAPI\b|\bN\b|\bS\b|\bE\b|\bW\b")
"""Text that needs no translation: entities, the product's and formats' names, the seats' letters."""


def extracted() -> dict[str | tuple[str, ...], list[str]]:
    """Every message of the sources, with where it is (``file:line``)."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[str | tuple[str, ...], list[str]] = defaultdict(list)
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
    from tutepgn.cli.main import COMMANDS, GROUPS

    commands = {spec.partition(":")[::2] for spec in [*COMMANDS.values(), *(spec for subs, _help in GROUPS.values()
                                                                             for spec in subs.values())] if spec}
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
    translated: dict[str, tuple[str, object]] = {}  # message -> (the file, its translation)
    for path in sorted((LOCALE / lang).glob("*.po")):
        with path.open("rb") as po:
            for message in read_po(po, locale=lang):
                if not message.id:
                    continue
                key = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
                if key in translated and translated[key][1] != message.string:
                    problems.append(f"{path.name} and {translated[key][0]} translate {key!r} differently")
                translated[key] = (path.name, message.string)
                if message.fuzzy or not all(message.string if isinstance(message.string, tuple) else
                                            [message.string]):
                    problems.append(f"{path.name}: {key!r} is not translated (empty or fuzzy)")
                ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
                strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
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


JS_TOKEN = re.compile(r"""(?P<space>\s+)|(?P<comment>//[^\n]*|/\*.*?\*/)
  |(?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)
  |(?P<name>[A-Za-z_$][\w$]*)|(?P<number>\d[\w.]*)
  |(?P<punct>===|!==|==|!=|<=|>=|&&|\|\||\+\+|--|[-+*/%=<>!&|^~?:;,.(){}\[\]])""", re.S | re.X)
JS_REGEX = re.compile(r"/(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[a-z]*")
"""A regular expression literal (read where a ``/`` cannot be a division)."""
SINK_PROPERTIES = frozenset({"textContent", "innerText", "innerHTML", "outerHTML", "title", "placeholder", "alt",
                             "ariaLabel", "label"})
"""The properties of an element whose value a person reads (or, for HTML, whose text)."""
SINK_CALLS = {"say": 0, "createTextNode": 0, "insertAdjacentHTML": 1, "alert": 0, "confirm": 0, "prompt": 0}
"""Calls whose argument (of that number) a person reads: the DOM's, and the pages' own helper that shows a
message, ``say(html, kind)``."""
CODE_CALLS = frozenset({"querySelector", "querySelectorAll", "closest", "matches", "getElementById",
                        "getElementsByClassName", "addEventListener", "removeEventListener", "dispatchEvent",
                        "CustomEvent", "Event", "EventSource", "getAttribute", "removeAttribute", "hasAttribute",
                        "toggleAttribute", "createElement", "createElementNS", "fetch", "getItem", "setItem",
                        "removeItem", "toggle", "add", "remove", "contains"})
"""Calls whose string arguments are code (selectors, event and attribute names, URLs, storage keys)."""
CODE_NEIGHBOURS = frozenset({"===", "!==", "==", "!=", "case", "in", "typeof"})
"""A string beside these is compared or looked up: code."""
WORD = re.compile(r"[^\W\d_]{2,}")
CODE_WORDS = re.compile(r"\S*[/#=$]\S*|\b\w+(?:[-_:]\w+)+\b|\w+-(?!\w)|&#?\w+;")
"""Parts of a literal that are not words: paths, selectors, URLs, ``kebab-case`` and ``snake_case`` names, entities."""
MARKUP = re.compile(r"<[A-Za-z/]")
PACK = frozenset({"oros", "copas", "espadas", "bastos", "as", "dos", "tres", "cuatro", "cinco", "seis", "siete",
                  "sota", "caballo", "rey"})
"""The names of the Spanish pack's suits and ranks: the same words in both languages (docs/i18n.md)."""
NOT_TEXT = {"table.js": frozenset({"North", "West", "South", "East"}), "cards.js": PACK, "replay.js": PACK,
            "validate.js": frozenset({" disabled"})}
"""Literals of a page script that the rules below take for text but are not: the tags of the seats' names, the
pack's names, an attribute written into a tag."""


def _js_tokens(source: str) -> list[tuple[str, str, int]]:
    """The tokens of a page script, (kind, text, line), comments and spaces left out; a ``/`` starts a regular
    expression where a value is expected, as JavaScript reads it."""
    tokens: list[tuple[str, str, int]] = []
    pos, line = 0, 1
    while pos < len(source):
        prev = tokens[-1] if tokens else ("punct", ";", 0)
        value_before = prev[0] in ("name", "number", "string") and prev[1] not in ("return", "typeof", "case") \
            or prev[1] in (")", "]", "}")
        regex = None if value_before or source[pos] != "/" else JS_REGEX.match(source, pos)
        if regex and not source.startswith(("//", "/*"), pos):
            kind, text = "regex", regex.group()
        else:
            match = JS_TOKEN.match(source, pos)
            if match is None:  # a character no rule knows: skip it
                pos += 1
                continue
            kind, text = match.lastgroup or "punct", match.group()
        if kind not in ("space", "comment"):
            tokens.append((kind, text, line))
        line += text.count("\n")
        pos += len(text)
    return tokens


def _js_string(token: str) -> str:
    """A string literal's value (escapes read as Python reads them, which covers those the scripts use)."""
    try:
        return str(ast.literal_eval(token if token[0] != "`" else '"""' + token[1:-1] + '"""'))
    except (ValueError, SyntaxError):
        return token[1:-1]


def _visible(text: str) -> str:
    """What a person would read of a literal: its text outside HTML tags and the visible attributes' values in
    them, without names, paths and entities."""
    shown = [value for tag in re.findall(r"<[^>]*>?", text) for name, value in
             re.findall(r"([\w-]+)\s*=\s*\"([^\"]*)\"?", tag) if name in VISIBLE_ATTRIBUTES]
    return CODE_WORDS.sub(" ", NOT_WORDS.sub(" ", " ".join([re.sub(r"<[^>]*>?", " ", text), *shown])))


@dataclass
class _Bracket:
    """An open bracket of a page script, as :func:`script_literals` reads it."""

    kind: str
    call: str | None = None  # the function called, for a call's "("
    arg: int = 0  # the number of the argument being read
    first: str | None = None  # the call's first argument, when a string
    table: bool = False  # an ALL_CAPS table of texts, or an object inside one
    block: bool = False  # a function's (or a statement's) body
    returning: bool = False  # in a block: reading its return statement


def script_literals(path: Path) -> list[tuple[int, str]]:
    """The literal text a person would read in a page script (``t("...")``/``tn(...)`` is how to say it):
    (line, text) for each string outside the messages of ``t``/``tn`` that is

    * a phrase (two words), anywhere but in code (selectors, event names, comparisons, object keys...);
    * HTML holding words (or a visible attribute holding words);
    * a word shown: assigned to ``textContent``/``innerHTML``/``title``... (in a function written there, its
      return value), passed to ``setAttribute`` of a visible attribute, to ``say()`` (the pages' message
      helper) or ``createTextNode``, the value of a visible attribute's key in an object, or a value of an
      ALL_CAPS table of texts (``var TEXT = {...}``).

    Literals the rules take for text but are not are listed in :data:`NOT_TEXT`."""
    allowed = NOT_TEXT.get(path.name, frozenset())
    tokens = _js_tokens(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    open_: list[_Bracket] = []
    sinks: list[int] = []  # how many brackets were open at each assignment to a visible property being read
    for i, (kind, text, line) in enumerate(tokens):
        before = tokens[i - 1] if i else ("punct", ";", 0)
        before2 = tokens[i - 2][1] if i >= 2 else ";"
        after = tokens[i + 1][1] if i + 1 < len(tokens) else ";"
        here = open_[-1] if open_ else _Bracket("")
        if kind == "punct" and text in "([{":
            table = text == "{" and (before[1] == "=" and re.fullmatch(r"[A-Z][A-Z0-9_]+", before2) is not None
                                     or here.table)
            called = before[1] if text == "(" and before[0] == "name" and before2 != "function" else None
            open_.append(_Bracket(text, call=called, table=table,
                                  block=text == "{" and before[1] in (")", "=>", "else", "try", "finally", "do")))
        elif kind == "punct" and text in ")]}":
            if open_:
                open_.pop()
            while sinks and sinks[-1] > len(open_):
                sinks.pop()
        elif text == ",":
            here.arg += 1
        elif text == ";":
            while sinks and sinks[-1] >= len(open_):
                sinks.pop()
            here.returning = False
        elif text == "return":
            here.returning = True
        elif text == "=" and before[1] in SINK_PROPERTIES and before2 == ".":
            sinks.append(len(open_))
        if kind != "string":
            continue
        value = _js_string(text)
        if here.arg == 0 and here.first is None:
            here.first = value
        message = here.call in ("t", "tn") and (here.arg == 0 or here.call == "tn" and here.arg == 1)
        key = here.kind == "{" and before[1] in ("{", ",") and after == ":"
        subscript = before[1] == "[" and (i >= 2 and tokens[i - 2][0] == "name" or before2 in (")", "]"))
        code = (here.call in CODE_CALLS or here.call == "setAttribute" and here.arg == 0 or key or subscript
                or before[1] in CODE_NEIGHBOURS or after in CODE_NEIGHBOURS
                or before[1] in ("{", ";", "}") and after in (";", "}"))  # a statement of its own: "use strict"
        if message or code or value in allowed:
            continue
        shown = _visible(value)
        phrase = re.search(r"[^\W\d_]+\s+[^\W\d_]{2,}|[^\W\d_]{2,}\s+[^\W\d_]+", shown)
        markup = MARKUP.search(value) and WORD.search(shown)
        assigned = any(all(b.returning for b in open_[depth:] if b.block) for depth in sinks)
        sink = (assigned or SINK_CALLS.get(here.call or "") == here.arg
                or here.call == "setAttribute" and here.arg == 1 and here.first in VISIBLE_ATTRIBUTES
                or before[1] == ":" and _js_string(before2) in VISIBLE_ATTRIBUTES | SINK_PROPERTIES
                or here.table and before[1] == ":")
        if phrase or markup or sink and WORD.search(shown):
            found.append((line, value))
    return found


def main() -> int:
    """Print the Spanish catalogue's gaps; the messages missing, as PO entries to paste and translate."""
    from babel.messages.pofile import read_po

    known: set[str] = set()
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        for path in sorted((LOCALE / lang).glob("*.po")):
            with path.open("rb") as po:
                known |= {m.id[0] if isinstance(m.id, (tuple, list)) else m.id for m in read_po(po) if m.id}
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
    for path in sorted((ROOT / "api" / "static").glob("*.js")):
        problems += [f"{path.name}:{line}: literal text {text!r}" for line, text in script_literals(path)]
    print("\n".join(problems), file=sys.stderr)
    return 1 if problems else 0


def escape(text: str) -> str:
    """A message as a PO string's body."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


if __name__ == "__main__":
    raise SystemExit(main())
