"""A ruleset checks its own values (it is a plain dataclass, not a pydantic model): every option's type, then the
combinations that cannot be dealt, each refusal an UnknownRuleset in words of the catalogue; and the service still
describes it with the same schema."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.errors import UnknownRuleset
from tutepgn.i18n import speaking
from tutepgn.rules import OPTIONS, PRESETS, Ruleset, preset


@pytest.mark.parametrize(("spec", "message"), [
    ("playcard-2p players=5", "option players takes one of 2, 3, 4, not 5"),
    ("playcard-2p trump_card=x", "option trump_card takes one of dealer_last, stock_bottom, not 'x'"),
    ("playcard-2p cante_points=x", "option cante_points takes a whole number, not 'x'"),
    ("playcard-2p double_threshold=x", "option double_threshold takes a whole number or none, not 'x'"),
    ("playcard-2p exchange_two=maybe", "option exchange_two takes true or false, not 'maybe'"),
    ("playcard-2p exchange_two_for=a", "option exchange_two_for takes whole numbers separated by commas, not 'a'"),
    ("torofun-3p hand_size=10", "invalid ruleset: trump_card=dealer_last deals the whole pack: 3 x 10 != 36 cards"),
    ("playcard-2p hand_size=20", "invalid ruleset: trump_card=stock_bottom needs a stock: 2 x 20 leaves no card of 40"),
    ("playcard-2p partnerships=true", "invalid ruleset: partnerships needs 4 players"),
    ("playcard-2p first_deal_trump=X", "invalid ruleset: first_deal_trump must be one of O, C, E, B"),
    ("playcard-2p match_target=0", "invalid ruleset: match_target must be at least 1"),
    ("torofun-3p removed_ranks=99", "invalid ruleset: no rank 99 in the Spanish pack"),
    ("playcard-2p first_deal_leader_card=13O", "invalid ruleset: '13O' is not a card code"),
    ("playcard-2p foo=1", "unknown ruleset option 'foo'; `tute rules playcard-2p` lists them"),
    ("playcard-2p preset=x", "unknown ruleset option 'preset'"),
    ("playcard-2p x", "'x' is not an override: write option=value"),
    ("", "empty ruleset: give a preset name"),
    ("chinchon", "unknown ruleset 'chinchon'; presets are ludoteka-pairs, playcard-2p"),
])
def test_a_ruleset_that_cannot_be_read_or_dealt_is_refused_in_words(spec: str, message: str) -> None:
    with pytest.raises(UnknownRuleset) as refused:
        Ruleset.from_spec(spec)
    assert str(refused.value).startswith(message)


@pytest.mark.parametrize("value", [None, True, 4.0, [1, 2]])
def test_a_value_of_the_wrong_type_from_python_is_refused(value: object) -> None:
    option = "exchange_two_for" if isinstance(value, list) else "match_target"
    with pytest.raises(UnknownRuleset, match=f"option {option} takes"):
        preset("playcard-2p").with_options(**{option: value})
    with pytest.raises(UnknownRuleset):  # a ruleset made directly is checked as well
        Ruleset(**{**{name: getattr(PRESETS["playcard-2p"], name) for name in OPTIONS}, option: value})


def test_refusals_and_seats_in_spanish() -> None:
    with speaking("es"), pytest.raises(UnknownRuleset) as refused:
        Ruleset.from_spec("torofun-3p hand_size=10")
    assert str(refused.value) == "reglamento no válido: trump_card=dealer_last reparte toda la baraja: 3 x 10 != 36 cartas"
    with speaking("es"), pytest.raises(UnknownRuleset) as refused:
        Ruleset.from_spec("playcard-2p players=5")
    assert str(refused.value) == "la opción players admite uno de 2, 3, 4, no 5"
    with speaking("es"), pytest.raises(ValueError) as refused:
        preset("playcard-2p").seat("W")
    assert str(refused.value) == "'W' no es un puesto de 2 jugadores: los puestos son N S (o de 0 a 1 en orden de turno)"


def test_every_spelling_reads_back_and_a_ruleset_is_a_value() -> None:
    four = Ruleset.from_spec("torofun-3p players=4 removed_ranks=none hand_size=10")  # players=4 is a number
    assert four.players == 4 and str(four) == "torofun-3p players=4 removed_ranks= hand_size=10"
    assert Ruleset.from_spec(str(four)) == four and hash(Ruleset.from_spec(str(four))) == hash(four)
    assert pickle.loads(pickle.dumps(four)) == four and four.seating == ((0, 1, 2, 3), ((0,), (1,), (2,), (3,)))
    assert list(OPTIONS)[0] == "preset" and OPTIONS["players"].description == "Number of players."
    with pytest.raises(AttributeError):
        four.players = 3  # type: ignore[misc]


def test_the_service_describes_a_ruleset_with_its_options_meanings(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(db=tmp_path / "a.duckdb"))) as client:
        schema = client.get("/openapi.json").json()["components"]["schemas"]["Ruleset"]
        one = client.get("/api/v1/rules/torofun-3p").json()["options"]
    assert schema["additionalProperties"] is False and schema["title"] == "Ruleset"
    assert schema["required"] == [name for name in OPTIONS if name in ("preset", "players", "hand_size", "trump_card",
                                                                        "tute_effect", "match_target")]
    assert {name: prop["description"] for name, prop in schema["properties"].items()} == {
        name: option.description for name, option in OPTIONS.items()}
    assert schema["properties"]["players"]["enum"] == [2, 3, 4]
    assert one == {name: list(v) if isinstance(v, tuple) else v for name, v in vars(PRESETS["torofun-3p"]).items()
                   if name in OPTIONS}
