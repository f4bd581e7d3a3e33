"""A ruleset told to players (tutepgn/rules_text.py), the presets' names for players, and ``tute rules`` in a
narrow terminal."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutepgn.errors import UnknownRuleset
from tutepgn.i18n import speaking
from tutepgn.rules import NAMES, OPTIONS, PRESETS, Ruleset, display_name, preset
from tutepgn.rules_text import SECTIONS, has_stock, told


def sentences(r: Ruleset) -> dict[tuple[str, ...], str]:
    return {s.options: s.text for section in told(r) for s in section.sentences}


def test_every_option_is_told_by_exactly_one_sentence() -> None:
    told_options = [name for _title, tellers in SECTIONS for options, _tell in tellers for name in options]
    assert sorted(told_options) == sorted(name for name in OPTIONS if name != "preset")


def test_the_sentences_come_from_the_values_never_from_the_presets_name() -> None:
    """torofun-4p's values under ludoteka-pairs' name are told as torofun-4p is."""
    disguised = dataclasses.replace(PRESETS["torofun-4p"], preset="ludoteka-pairs")
    assert sentences(disguised) == sentences(PRESETS["torofun-4p"])
    assert sentences(PRESETS["ludoteka-pairs"]) != sentences(PRESETS["torofun-4p"])


@pytest.mark.parametrize("name", [name for name in OPTIONS if OPTIONS[name].annotation is bool])
def test_each_value_of_a_yes_or_no_option_has_its_own_sentence(name: str) -> None:
    """Wherever a sentence tells the option both ways, the two sentences differ (but where the value changes
    nothing: free play while there is a stock where the whole pack is dealt, an exchange for no muestra)."""
    both = 0
    for r in PRESETS.values():
        if name == "free_play_while_stock" and not has_stock(r) or name.startswith("exchange_") \
                and name != "exchange_at_first_lead" and not getattr(r, name + "_for"):
            continue
        try:
            flipped = r.with_options(**{name: not getattr(r, name)})
        except UnknownRuleset:  # partnerships with 2 players
            continue
        key = next(options for _title, tellers in SECTIONS for options, _tell in tellers if name in options)
        said, other = sentences(r).get(key), sentences(flipped).get(key)
        if said is not None and other is not None:
            both += 1
            assert said != other, (r.preset, name)
    assert both, name


def test_a_ruleset_is_told_in_spanish_with_the_tables_words() -> None:
    english = sentences(PRESETS["ludoteka-pairs"])
    with speaking("es"):
        spanish = sentences(PRESETS["ludoteka-pairs"])
    assert all(spanish[k] != english[k] for k in english)
    assert spanish[("first_deal_leader_card",)] == ("En el primer juego de la partida sale quien tenga el 2 de oros; "
                                                    "después, sale el mano.")
    assert spanish[("match_target",)] == "La partida es a 4 tantos."


def test_each_quote_is_shown_once_under_the_first_sentence_that_rests_on_it() -> None:
    for r in PRESETS.values():
        shown = [(q.text, q.original) for section in told(r) for s in section.sentences for q in s.quotes]
        assert shown and len(shown) == len(set(shown))
    overridden = PRESETS["torofun-3p"].with_options(match_target=3)
    assert [s.quotes for section in told(overridden) for s in section.sentences if s.options == ("match_target",)] \
        == [()]  # an override's value is no source's


@pytest.mark.parametrize(("name", "key"), [
    ("tute a tres", "torofun-3p"), ("Tute a tres", "torofun-3p"), ("tres", "torofun-3p"),
    ("tute for three", "torofun-3p"), ("Tute por parejas (Ludoteka)", "ludoteka-pairs"),
    ("parejas ludoteka", "ludoteka-pairs"), ("tute por parejas torofun", "torofun-4p"),
    ("Tute a dos (Playcard)", "playcard-2p"), ("a dos torofun", "torofun-2p"), ("ludoteka", "ludoteka-pairs"),
    ("torofun", "torofun-2p"), ("TOROFUN-4P", "torofun-4p"), ("tute a tres", "torofun-3p")])
def test_a_preset_is_found_by_its_name_for_players_in_either_language(name: str, key: str) -> None:
    assert preset(name).preset == key


@pytest.mark.parametrize("name", ["parejas", "tute por parejas", "tute a dos", "pairs"])
def test_a_name_two_presets_share_is_refused_naming_both(name: str) -> None:
    with pytest.raises(UnknownRuleset) as refused:
        preset(name)
    assert sum(key in str(refused.value) for key in PRESETS) == 2 and "name one of them" in str(refused.value)


def test_a_rules_spec_takes_a_name_of_several_words_and_keeps_the_id() -> None:
    r = Ruleset.from_spec("tute a tres match_target=3")
    assert (r.preset, r.match_target, str(r)) == ("torofun-3p", 3, "torofun-3p match_target=3")
    with pytest.raises(UnknownRuleset, match="is not an override"):
        Ruleset.from_spec("ludoteka-pairs foo")


def test_every_preset_has_a_distinct_name_in_each_language() -> None:
    assert set(NAMES) == set(PRESETS)
    for lang in ("es", "en"):
        with speaking(lang):
            names = [display_name(key) for key in PRESETS]
        assert len(set(names)) == len(names)
        assert all(preset(name).preset == key for name, key in zip(names, PRESETS))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_tute_rules_never_cuts_a_name_in_a_narrow_terminal(lang: str) -> None:
    env = {**os.environ, "TUTEPGN_LANG": lang, "COLUMNS": "60"}
    run = subprocess.run([str(Path(sys.executable).parent / "tute"), "rules"], capture_output=True, text=True,
                         env=env, check=True)
    assert "…" not in run.stdout
    with speaking(lang):
        names = [display_name(key) for key in PRESETS]
    assert all(key in run.stdout for key in PRESETS)
    words = run.stdout.replace("│", " ").split()
    assert all(word in words for name in names for word in name.split())


def test_docs_rules_gives_every_name_for_players() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    for key in PRESETS:
        for lang in ("es", "en"):
            with speaking(lang):
                assert f"| `{key}` |" in text and f" {display_name(key)} |" in text, (key, lang)
