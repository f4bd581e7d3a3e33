"""What the library's objects print at a prompt: one short line that says what they are (as python-chess's
``Board`` and ``Move`` do), never ``<... object at 0x...>``."""

from __future__ import annotations

from pathlib import Path

from tutepgn.archive import Archive
from tutepgn.engine import Deal
from tutepgn.events import Cante, Exchange, Play, Tute
from tutepgn.check.moment import Moment
from tutepgn.rules import preset
from tutepgn.recording.simulate import simulate_deals
from tutepgn.analysis import Position


def test_events_print_their_seat_and_card_codes() -> None:
    assert [repr(e) for e in (Play(0, 9), Cante(1, 2), Tute(1, 12), Exchange(2, 4))] == [
        "Play(0, '1O')", "Cante(1, 'E')", "Tute(1, 12)", "Exchange(2, '7O')"]


def test_a_deal_prints_its_rules_dealer_and_where_the_play_stands() -> None:
    deal = Deal.shuffled(preset("torofun-4p").with_options(forty_first=False), seed=7, dealer="S")
    assert repr(deal) == "<Deal torofun-4p forty_first=false dealer=S trick 1, E to play>"
    for _ in range(5):
        deal.apply(deal.legal_actions()[-1])
    assert repr(deal) == "<Deal torofun-4p forty_first=false dealer=S trick 2, " + \
        f"{deal.rules.seat_names[deal.turn]} to play>"
    done = next(simulate_deals(preset("playcard-2p"), 1, seed=1))
    assert repr(done) == "<Deal playcard-2p dealer=N over>"


def test_a_moment_prints_as_the_call_that_reads_it_back_and_a_position_in_codes() -> None:
    shuffled = Deal.shuffled(preset("playcard-2p"), 7)  # a moment a deal reaches (Moment.parse refuses any other)
    shuffled.play(min(shuffled.legal_plays()))
    moment = Moment.of(shuffled)
    assert repr(moment) == f"Moment.parse({moment.text()!r})" and eval(repr(moment)) == moment
    deal = Deal.from_hands(preset("playcard-2p"), ["1O 3O", "1C 3C"], turned="3O")
    deal.play("S", "1C")
    assert repr(Position.from_deal(deal)) == "<Position trump O, N to move, hands N 1O 3O / S 3C, trick 1C, for side 0>"


def test_an_archive_prints_as_the_call_that_opens_it(tmp_path: Path) -> None:
    path = tmp_path / "deals.duckdb"
    with Archive(path) as archive:
        assert repr(archive) == f"Archive({str(path)!r})"
    with Archive(path, read_only=True) as archive:
        assert repr(archive) == f"Archive({str(path)!r}, read_only=True)"
