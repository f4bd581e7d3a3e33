"""The deal page's analysis in a real browser, in Spanish and English, on a desktop and a phone (390x844): the graph's
legend and axis words, marks as words and no machine text (``[%dd 53]``) anywhere, the card shown judged, the best
line stepped through on the board and left back at the same frame, all from the keyboard too.

The app is the real one (tests/threaded.py's ``serving``) over an archive of ``samples/torofun-4p-analysed.tpgn``,
a record whose comments hold ``tute analyse --annotate``'s commands.  Its analysis is answered by the hand-made
version 2 fixture ``tests/data/analysis-v2-torofun-4p.json`` (today's analysis of that deal with cantes, plus the
new keys with plausible values and legal best lines; Playwright routes the page's request to it), so that the page
is tested on every key whatever the analysis's speed; the best line is put on the board by the real
POST /api/v1/replay.  Playwright drives Debian's Chromium (/usr/bin/chromium).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tutepgn.analysis.model import AnalysisModel
from tutepgn.analysis.version import ANALYSIS_VERSION
from tutepgn.i18n import speaking
from tutepgn.words import card_words, seat_words
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive

from threaded import serving
from test_browser import CHROMIUM, browser  # noqa: F401  (the suite's one Chromium and its fixture)

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "torofun-4p-analysed.tpgn"
FIXTURE = ROOT / "tests" / "data" / "analysis-v2-torofun-4p.json"
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
                         "has_touch": True}
WORDS = {"en": {"??": "blunder", "?": "mistake", "?!": "inaccuracy", "y": "chance of winning the deal",
                "x": "trick", "points": "Points with cantes", "see": "See the best line", "back": "Back to the game",
                "exact": "exact"},
         "es": {"??": "error grave", "?": "error", "?!": "imprecisión", "y": "probabilidad de ganar el juego",
                "x": "baza", "points": "Puntos con cantes", "see": "Ver la mejor línea", "back": "Volver al juego",
                "exact": "exacta"}}

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is missing at /usr/bin/chromium")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """The real app over an archive of the annotated sample; its URL and the deal's id."""
    db = tmp_path_factory.mktemp("analysis-page") / "archive.duckdb"
    archive = Archive(db)
    archive.import_sources([SAMPLE])
    archive.close()
    with serving(create_app(Settings(db=db))) as url:
        import httpx

        deal = httpx.get(url + "/api/v1/deals", params={"rules": "torofun-4p"}, timeout=30).json()["items"][0]
        yield url, int(deal["id"])


@pytest.fixture(scope="module")
def analysis() -> dict[str, Any]:
    """The fixture, checked against the analysis's own JSON model: the page is tested on the keys it will get."""
    fixture = dict(json.loads(FIXTURE.read_text(encoding="utf-8")))
    assert AnalysisModel.model_validate(fixture).model_dump(mode="json").keys() == fixture.keys()
    assert fixture["version"] == ANALYSIS_VERSION
    return fixture


def _open(browser: Browser, site: tuple[str, int], analysis: dict[str, Any], lang: str,
          device: dict[str, Any], frame: int | None = None) -> tuple[Page, list[str]]:
    """The deal page in ``lang`` with the fixture as its analysis, ready; the script errors it meets."""
    url, deal = site
    page = browser.new_context(**device).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    def answer(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(analysis))

    page.route(re.compile(r".*/api/v1/deals/\d+/analysis.*"), answer)
    query = f"?lang={lang}" + (f"&frame={frame}" if frame is not None else "")
    page.goto(f"{url}/deals/{deal}{query}")
    expect(page.locator("#replay")).to_have_attribute("data-analysis", "ready")
    return page, errors


def _number(value: float, lang: str) -> str:
    """A number as the page writes it in ``lang``: one decimal at most, a decimal comma in Spanish."""
    text = f"{round(value, 1):g}"
    return text.replace(".", ",") if lang == "es" else text


def _marked(analysis: dict[str, Any], mark: str) -> dict[str, Any]:
    return next(p for p in analysis["plays"] if p["mark"] == mark)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_graph_has_a_legend_and_axis_words(browser: Browser, site: tuple[str, int], analysis: dict[str, Any],
                                           lang: str, device: dict[str, Any]) -> None:
    page, errors = _open(browser, site, analysis, lang, device)
    words = WORDS[lang]
    legend = page.locator("#graph-legend li")
    for side in analysis["sides"]:  # each side's name beside its colour, in words
        with speaking(lang):
            shown = seat_words(side)
        expect(legend.filter(has_text=shown).locator(".swatch")).to_have_count(1)
    expect(page.locator("#graph-y")).to_contain_text(words["y"])
    expect(page.locator("#eval-figure .axis-x")).to_contain_text(words["x"])
    svg = page.locator("#eval-graph svg")
    expect(svg.locator("polyline")).to_have_count(len(analysis["sides"]))
    expect(svg.locator("text", has_text="100%")).to_have_count(1)  # the y axis's top: a probability
    expect(svg.locator("circle[data-frame]")).to_have_count(len(analysis["plays"]))
    # The other view: points with cantes, its own axis word and scale.
    page.get_by_role("button", name=words["points"]).click()
    expect(page.get_by_role("button", name=words["points"])).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#graph-y")).to_contain_text(words["points"].lower())
    expect(svg.locator("text", has_text="100%")).to_have_count(0)
    top = max(max(row) for row in analysis["trick_values"])
    expect(page.locator("#eval-graph svg text", has_text=re.compile(rf"^{top}$"))).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the page scrolls sideways"
    page.locator("#eval-figure").screenshot(path=str(ROOT / "test-artifacts" / f"graph-{lang}-{device['viewport']['width']}.png"))
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_marks_are_words_and_no_machine_text(browser: Browser, site: tuple[str, int], analysis: dict[str, Any],
                                             lang: str) -> None:
    page, errors = _open(browser, site, analysis, lang, DESKTOP)
    words = WORDS[lang]
    for mark in ("??", "?", "?!"):
        p = _marked(analysis, mark)
        expect(page.locator(f'#moves button[data-index="{p["index"] + 1}"] .dd')).to_have_text(f"{mark} {words[mark]}")
    blunder = _marked(analysis, "??")
    page.locator(f'#moves button[data-index="{blunder["index"] + 1}"]').click()
    verdict = page.locator("#play-analysis")
    expect(verdict).to_contain_text(words["??"])
    loss, known, luck = (_number(v, lang) for v in (100 * blunder["loss"], blunder["pimc_cost"], blunder["luck"]))
    expect(verdict).to_contain_text(re.compile(rf"\b{loss}\b.*{words['y']}"))  # the loss in percentage points
    expect(verdict.locator(".split")).to_contain_text(re.compile(rf"\b{known}\b.*\b{luck}\b"))  # could know / luck hid
    expect(verdict).to_contain_text("cartas vistas")
    exact = next(p for p in analysis["plays"] if p["exact"])
    page.locator(f'#moves button[data-index="{exact["index"] + 1}"]').click()
    expect(verdict.locator(".exact")).to_have_text(words["exact"])
    # The record's comments hold [%dd ...]: said in words at their frames, never shown raw; nor in the record box.
    page.locator("details.record-box summary").click()
    for frame in range(int(page.locator("#frame-count").inner_text()) + 1):
        page.locator(f'#moves button[data-index="{frame}"]').click()
        text = page.locator("body").inner_text()
        assert "[%" not in text, (frame, text[text.index("[%") - 80:text.index("[%") + 40])
    page.locator('#moves button[data-index="1"]').click()
    expect(page.locator("#note .comment")).to_contain_text("cartas vistas")
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_best_line_is_stepped_through_and_left(browser: Browser, site: tuple[str, int], analysis: dict[str, Any],
                                                   lang: str, device: dict[str, Any]) -> None:
    play = next(p for p in analysis["plays"] if p["best_line"] and p["index"] > 20)
    shown = play["index"] + 1
    page, errors = _open(browser, site, analysis, lang, device, frame=shown)
    words = WORDS[lang]
    expect(page.locator("#frame-index")).to_have_text(str(shown))
    page.get_by_role("button", name=words["see"]).click()
    expect(page.locator("#replay")).to_have_attribute("data-line", "on")
    expect(page.locator("#line-bar")).to_be_visible()
    expect(page.locator("#frame-index")).to_have_text(str(play["index"]))  # the position before the card
    line = play["best_line"]
    page.locator("#next").click()  # the best card, on the table
    expect(page.locator(f'#trick svg.card[data-card="{line[0]}"]')).to_have_count(1)
    steps = len(line)
    for k in range(2, steps + 1):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#frame-index")).to_have_text(str(play["index"] + k))
    expect(page.locator("#note .over")).to_be_visible()  # the line plays the deal to its end
    expect(page.locator("#line-text")).to_contain_text(f"{steps}")
    expect(page.locator("#play-analysis")).to_be_hidden()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#frame-index")).to_have_text(str(play["index"] + steps - 1))
    page.locator("#first").click()  # the line's start is as far back as it goes
    expect(page.locator("#frame-index")).to_have_text(str(play["index"]))
    page.get_by_role("button", name=words["back"]).click()
    expect(page.locator("#replay")).not_to_have_attribute("data-line", "on")
    expect(page.locator("#line-bar")).to_be_hidden()
    expect(page.locator("#frame-index")).to_have_text(str(shown))  # back at the frame shown before
    expect(page.locator(f'#moves button[data-index="{shown}"]')).to_have_class(re.compile(r"\bcurrent\b"))
    assert f"frame={shown}" in page.url
    assert errors == []
    page.context.close()


def test_keyboard_reaches_the_graph_and_the_best_line(browser: Browser, site: tuple[str, int],
                                                      analysis: dict[str, Any]) -> None:
    page, errors = _open(browser, site, analysis, "es", DESKTOP)
    blunder = _marked(analysis, "??")
    dot = page.locator(f'#eval-graph circle[data-frame="{blunder["index"] + 1}"]')
    dot.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#frame-index")).to_have_text(str(blunder["index"] + 1))
    expect(page.locator("#play-analysis")).to_contain_text("error grave")
    dot.focus()
    page.keyboard.press(" ")  # space on a point shows it, and does not start the autoplay
    expect(page.locator("#replay")).not_to_have_attribute("data-playing", "true")
    see = page.get_by_role("button", name="Ver la mejor línea")
    see.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#replay")).to_have_attribute("data-line", "on")
    expect(page.locator("#line-leave")).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#frame-index")).to_have_text(str(blunder["index"] + 2))
    page.keyboard.press("Escape")
    expect(page.locator("#replay")).not_to_have_attribute("data-line", "on")
    expect(page.locator("#frame-index")).to_have_text(str(blunder["index"] + 1))
    assert errors == []
    page.context.close()


def test_summary_outcome_par_accuracy_and_match(browser: Browser, site: tuple[str, int],
                                                analysis: dict[str, Any]) -> None:
    page, errors = _open(browser, site, analysis, "es", DESKTOP)
    summary = page.locator("#analysis-summary")
    with speaking("es"):  # seats and sides in words
        said = {label: seat_words(label) for label in [*analysis["sides"], *analysis["seats"]]}
    winner = said[analysis["sides"][analysis["outcome"]["winner"]]]
    expect(summary).to_contain_text(f"{winner} gana el juego")
    expect(summary).to_contain_text(f"par {said[analysis['sides'][0]]} {analysis['par'][0]}")
    for seat, accuracy in zip(analysis["seats"], analysis["accuracy"]):
        expect(summary.locator(".acc", has_text=re.compile(rf"^\s*{said[seat]} "))).to_contain_text(f"{round(accuracy)}%")
    expect(summary.locator(".match-chance")).to_contain_text(
        f"{said[analysis['sides'][0]]} {round(100 * analysis['match']['win_before'][0])} % → "
        f"{round(100 * analysis['match']['win_after'][0])} %")
    assert errors == []
    page.context.close()


def test_an_older_analysis_without_the_new_keys_still_draws(browser: Browser, site: tuple[str, int],
                                                            analysis: dict[str, Any]) -> None:
    """Version 1's keys only (no win graph, no loss, no best line): the points view, marks, no summary."""
    new = {"win_graph", "outcome", "accuracy", "match", "worlds", "seed", "inference", "totals", "given"}
    old = {k: v for k, v in analysis.items() if k not in new}
    old["plays"] = [{k: v for k, v in p.items() if k not in {"exact", "method", "luck", "win_before", "win_after",
                                                             "loss", "accuracy", "best_line"}} for p in analysis["plays"]]
    page, errors = _open(browser, site, old, "en", DESKTOP)
    expect(page.locator('.graph-views button[data-view="win"]')).to_be_hidden()
    expect(page.locator("#graph-y")).to_contain_text("points with cantes")
    expect(page.locator("#eval-graph svg polyline")).to_have_count(2)
    expect(page.locator("#analysis-summary")).to_be_hidden()
    assert errors == []
    page.context.close()


def test_a_line_that_starts_after_the_best_card_is_put_after_it(browser: Browser, site: tuple[str, int],
                                                                analysis: dict[str, Any]) -> None:
    """The solver's line may hold the rest after the best card: the board plays the best card first all the same."""
    play = next(p for p in analysis["plays"] if p["best_line"] and p["index"] > 20)
    rest = {**analysis, "plays": [{**p, "best_line": p["best_line"][1:]} if p is play else p for p in analysis["plays"]]}
    page, errors = _open(browser, site, rest, "en", DESKTOP, frame=play["index"] + 1)
    page.get_by_role("button", name="See the best line").click()
    expect(page.locator("#replay")).to_have_attribute("data-line", "on")
    page.keyboard.press("ArrowRight")
    expect(page.locator(f'#trick svg.card[data-card="{play["best_line"][0]}"]')).to_have_count(1)
    page.keyboard.press("End")
    expect(page.locator("#frame-index")).to_have_text(str(play["index"] + len(play["best_line"])))
    expect(page.locator("#moves .move.illegal")).to_have_count(0)
    expect(page.locator("#note .illegal")).to_have_count(0)
    page.locator('#moves button[data-index="3"]').click()  # a card of the deal's move list: the deal again, there
    expect(page.locator("#replay")).not_to_have_attribute("data-line", "on")
    expect(page.locator("#frame-index")).to_have_text("3")
    expect(page.locator("#line-bar")).to_be_hidden()
    assert errors == []
    page.context.close()


def _with_seats(line: list[str], before: int) -> list[str]:
    """The line's cards written with their seats ("W 6E"), as the engine's actions write themselves."""
    from tutepgn.cards import card_code
    from tutepgn.events import Context, Play
    from tutepgn.notation import read_record

    record = read_record(SAMPLE)
    deal = record.header().deal()
    for event in record.events[:before]:
        deal.apply(event)
    ctx, texts = Context.of(deal), []
    for text in line:
        act = next(a for a in deal.legal_actions()
                   if (card_code(a.card) == text if isinstance(a, Play) else a.text(ctx).replace(" ", ":", 1) == text))
        deal.apply(act)
        texts.append(act.text(ctx))
    return texts


def test_a_line_whose_cards_name_their_seats(browser: Browser, site: tuple[str, int], analysis: dict[str, Any]) -> None:
    """The line written as the engine's actions write themselves ("W 6E", "N 40") is put on the board as well."""
    play = next(p for p in analysis["plays"] if p["best_line"] and p["index"] > 20)
    seated = _with_seats(play["best_line"], play["index"])
    assert seated[0].split(" ")[1] == play["best_line"][0]
    changed = {**analysis, "plays": [{**p, "best_line": seated} if p is play else p for p in analysis["plays"]]}
    page, errors = _open(browser, site, changed, "en", PHONE, frame=play["index"] + 1)
    page.get_by_role("button", name="See the best line").click()
    expect(page.locator("#replay")).to_have_attribute("data-line", "on")
    page.locator("#last").tap()
    expect(page.locator("#frame-index")).to_have_text(str(play["index"] + len(seated)))
    expect(page.locator("#note .over")).to_be_visible()
    expect(page.locator("#note .illegal")).to_have_count(0)
    assert errors == []
    page.context.close()


REAL = ROOT / "samples" / "playcard-exchange-and-late-cante.tpgn"


def test_the_real_analysis_of_a_two_player_deal(browser: Browser, tmp_path: Path) -> None:
    """No fixture: the service analyses a 2-player deal (a cante sung late, an exchange); each play the analysis
    valued is in the graph, its mark in words, and a real best line replays legally to the deal's end."""
    import httpx

    db = tmp_path / "archive.duckdb"
    archive = Archive(db)
    archive.import_sources([REAL])
    archive.close()
    with serving(create_app(Settings(db=db))) as url:
        deal = httpx.get(url + "/api/v1/deals", timeout=30).json()["items"][0]["id"]
        page = browser.new_context(**PHONE).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{url}/deals/{deal}?lang=es")
        expect(page.locator("#replay")).to_have_attribute("data-analysis", "ready", timeout=120_000)
        found = httpx.get(f"{url}/api/v1/deals/{deal}/analysis", timeout=120).json()
        analysis = found.get("analysis", found)
        AnalysisModel.model_validate(analysis)
        valued = [p for p in analysis["plays"] if p["win_before"] is not None]
        expect(page.locator("#eval-graph circle[data-frame]")).to_have_count(len(valued))
        expect(page.locator("#eval-graph svg polyline")).to_have_count(len(analysis["sides"]))
        for p in valued:
            if p["mark"]:
                expect(page.locator(f'#moves button[data-index="{p["index"] + 1}"] .dd')).to_contain_text(
                    {"?!": "imprecisión", "?": "error", "??": "error grave"}[p["mark"]])
        play = next((p for p in valued if p["best_line"]), valued[-1])
        page.locator(f'#moves button[data-index="{play["index"] + 1}"]').click()
        with speaking("es"):
            card = card_words(play["card"])
        expect(page.locator("#play-analysis")).to_contain_text(card)  # the card in words
        if not play["best_line"]:  # an analysis without best lines offers none
            expect(page.get_by_role("button", name="Ver la mejor línea")).to_have_count(0)
        else:
            page.get_by_role("button", name="Ver la mejor línea").click()
            expect(page.locator("#replay")).to_have_attribute("data-line", "on")
            page.keyboard.press("End")
            expect(page.locator("#note .over")).to_be_visible()
            expect(page.locator("#note .illegal")).to_have_count(0)
            page.keyboard.press("Escape")
        expect(page.locator("#frame-index")).to_have_text(str(play["index"] + 1))
        assert "[%" not in page.locator("body").inner_text()
        assert errors == []
        page.context.close()
