"""The Spanish walk's word list and checks (tests/spanish_words.py): English words in, Spanish words and names out,
and each kind of finding found where it is and only there."""

from __future__ import annotations

from spanish_words import english, findings


def test_the_list_holds_english_words_of_the_catalogue_and_the_frameworks() -> None:
    words = english()
    assert {"the", "trick", "deal", "match", "trump", "stock", "found", "record"} <= words  # the catalogue's
    assert {"usage", "try", "argument"} <= words  # click's
    assert {"unprocessable", "entity"} <= words  # HTTP's reason phrases


def test_the_list_leaves_out_spanish_words_and_names() -> None:
    words = english()
    spanish = {"de", "a", "no", "total", "final", "error", "bastos", "copas", "oros", "espadas", "mano", "muestra",
               "tute", "cante", "las", "cuarenta", "juego", "partida", "baza", "arrastre", "as", "rey", "caballo"}
    assert spanish & words == set()
    assert {"ludoteka", "playcard", "tutepgn", "json", "csv", "pdf", "bar"} & words == set()  # names, formats


def test_each_kind_is_found_in_running_text() -> None:
    text = ("Norte juega el as de oros. The deal is over. Sur cantó 20 en C. Ganan NS: 2025.03.15. "
            "Mira [%dd 71] y 12C. Quien da: W.")
    found = {(f.kind, f.what) for f in findings(text)}
    assert found == {("english", "the"), ("english", "deal"), ("english", "is"), ("english", "over"),
                     ("suit", "C"), ("seat", "NS"), ("date", "2025.03.15"), ("commands", "[%"), ("card", "12C"),
                     ("seat", "W")}
    context = next(f.context for f in findings(text) if f.what == "deal")
    assert "The deal is over" in context  # enough of the page around it to find it


def test_names_values_and_a_tag_named_are_not_words() -> None:
    text = ("La etiqueta Deal dice otra cosa; `tute search` lista los juegos; match_target=6 en docs/rules.md; "
            "Norte-Sur gana, Oeste-Este pierde.")
    assert findings(text) == []
