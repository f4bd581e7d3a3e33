"""Where each preset value comes from: a quoted sentence of a source text, our docs, or a decision.

:data:`SOURCES` gives, per preset and option, a :class:`~tutepgn.citations.Citation`:
the source sentence in its own language (copied exactly; ``…`` marks a cut) with
its English and Spanish translations, each made from the original, the name of the text as a reader knows it
(:data:`~tutepgn.citations.TEXTS`), and the section of docs/rules.md that states
the rule in our words.  :data:`DECISIONS` lists what the engine decides where
the texts are silent and no option says it.  ``tute rules NAME``, the API's
rules endpoint and docs/rules.md print both.

>>> from tutepgn.rules import preset
>>> source_of("ludoteka-pairs", "first_deal_trump").quotes[0].english
'exceptionally, in the first deal trump is oros'
>>> [d.key for d in decisions_for(preset("torofun-2p"))][:2]
['silence_judged_at_the_lead', 'exchange_is_not_a_cante']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .citations import Citation, Decision, Quote
from .i18n import N_

if TYPE_CHECKING:
    from .rules import Ruleset

# Sections of docs/rules.md that state the rules in our words.
GAME, ARRASTRE, STOCK = "1-the-game", "arrastre-what-you-must-play", "the-stock-monte-in-2-player-games"
LUDOTEKA, PLAYCARD, TOROFUN = "ludoteka-pairs", "playcard-2p", "what-the-torofun-presets-share"


def fr(original: str, english: str, spanish: str) -> Quote:
    """A quote of the Ludoteka rules (French), with its translations."""
    return Quote("fr", original, english, spanish)


def sv(original: str, english: str, spanish: str) -> Quote:
    """A quote of the Playcard FAQ (Swedish), with its translations."""
    return Quote("sv", original, english, spanish)


def tl(original: str, english: str, spanish: str) -> Quote:
    """A quote of Mga Patakaran ng Tute (Tagalog), with its translations."""
    return Quote("tl", original, english, spanish)


def cite(section: str, *quotes: Quote, note: str = "", decision: bool = False) -> Citation:
    """A citation: the section of docs/rules.md, then what the texts say and our words."""
    return Citation(section, quotes, note, decision)


SHARED = cite(GAME, note=N_("shared by every preset"))
"""Citation for an option whose value every preset shares and no source contests."""

# -- Citations used by several presets ---------------------------------------

_NO_PARTNER_EXEMPTION = cite(ARRASTRE, note=N_("no exemption when the partner is winning the trick; no source grants one"),
                             decision=True)
_NO_STOCK = cite(ARRASTRE, note=N_("shared; the whole pack is dealt, there is no stock, so the duties apply from the "
                                   "first trick"))
_NO_DRAW = cite(GAME, note=N_("shared; the whole pack is dealt, so there is no stock and no draw to wait for"))

_SV_DEAL_POINT = sv("Varje giv är en poäng i matchen", N_("every deal is one point in the match"),
                    "cada juego es un punto de la partida")
_SV_DUTIES = sv("Du måste bekänna färg, du måste slå kortet om du kan, och kan du inte bekänna måste du trumfa",
                N_("you must follow suit, beat the card if you can, and trump if you cannot follow"),
                "tienes que asistir, tienes que montar si puedes, y si no puedes asistir tienes que fallar")
_SV_CANTE = sv("Den är värd 20, eller 40 i trumf — las cuarenta", N_("it is worth 20, or 40 in trump, las cuarenta"),
               "vale 20, o 40 en triunfo: las cuarenta")
_SV_CANTE_WHEN = cite(PLAYCARD, sv("anmälda efter att du vunnit ett stick och innan du spelar ut till nästa",
                                   N_("declared after you have won a trick and before you lead to the next"),
                                   "cantados después de ganar una baza y antes de salir a la siguiente"),
                      note=N_("after any won trick, no loss named"))
_SV_EXCHANGE = sv("Så länge högen räcker får den som har trumfsjuan byta den mot det kortet när den har utspelet",
                  N_("while the stock lasts, the holder of the 7 of trump may exchange it for that card when on lead"),
                  "mientras dure el monte, quien tiene el 7 de triunfo puede cambiarlo por esa carta cuando es su salida")
_SV_NOT_USED = N_("not used: every deal is worth 1 match point (double_threshold is none)")

_TL_DECK = tl("Isang 40 barahang Spanish deck ang ginagamit sa paglalaro", N_("a 40-card Spanish pack is used"),
              "se juega con una baraja española de 40 cartas")
_TL_2P = tl("2 manlalaro: 8 baraha bawat isa (16 baraha at 24 pa sa stock o deck)",
            N_("2 players: 8 cards each (16 cards, and 24 more in the stock)"),
            "2 jugadores: 8 cartas cada uno (16 cartas, y 24 más en el monte)")
_TL_3P = tl("3 manlalaro: 12 baraha bawat isa (isang deck ng 36 baraha ang ginagamit, pinapabalik lahat ng deuces)",
            N_("3 players: 12 cards each (a 36-card pack is used, all the 2s are put back)"),
            "3 jugadores: 12 cartas cada uno (se usa una baraja de 36 cartas, se quitan todos los doses)")
_TL_4P = tl("4 manlalaro: 10 baraha bawat isa (isang buong deck ng 40 baraha ang ginagamit)",
            N_("4 players: 10 cards each (the whole 40-card pack is used)"),
            "4 jugadores: 10 cartas cada uno (se usa la baraja entera de 40 cartas)")
_TL_LAST_CARD = tl("Ang huling barahang ibinigay ay ang magmamarka ng trump", N_("the last card dealt marks trump"),
                   "la última carta repartida marca el triunfo")
_TL_NO_EXCHANGE = cite(TOROFUN, tl("2-manlalaro na mode", N_("2-player mode"), "modalidad de 2 jugadores"),
                       note=N_("the only section giving the exchange; here the whole pack is dealt and the turned card "
                               "stays in the dealer's hand"))
_TL_NO_DRAW = cite(TOROFUN, tl("Pagdeklara sa 2-manlalaro na mode", N_("declaring in 2-player mode"),
                               "cantar en la modalidad de 2 jugadores"),
                   note=N_("the draw rules need a stock; this preset deals the whole pack"))
_TL_AS_2P = tl("Ang mga deklarasyon ay katulad ng sa dalawang manlalaro na mode", N_("declarations are as in 2-player mode"),
               "los cantes son como en la modalidad de dos jugadores")
_TL_OVERTRUMP = tl("Maglaro ng barahang trump suit na may mas mataas na halaga kaysa sa anumang iba pang barahang "
                   "nilalaro", N_("play a trump higher than any other card played"),
                   "jugar un triunfo más alto que cualquier otra carta jugada")
_TL_UNDERTRUMP = tl("Maglaro ng anumang iba pang baraha, maging ito man ay trump suit o hindi",
                    N_("(else) play any other card, trump or not"), "jugar cualquier otra carta, sea de triunfo o no")
_TL_FIRST_WIN = tl("Kailangang gawing agarang deklarasyon ito pagkatapos manalo ng unang trick, kung hindi, "
                   "mawawala ang pagkakataon", N_("it must be declared at once after winning the first trick, otherwise "
                                                  "the chance is lost"),
                   "hay que cantarlo en el acto tras ganar la primera baza; si no, se pierde la ocasión")
_TL_WINS_GAME = tl("na nagwawagi ng laro ng awtomatiko", N_("which wins the game automatically"),
                   "que gana la partida automáticamente")

_TOROFUN: dict[str, Citation] = {
    "first_deal_trump": cite(TOROFUN, _TL_LAST_CARD, note=N_("in every deal: no first-deal exception")),
    "first_deal_leader_card": cite(TOROFUN, tl('Nagsisimula ang laro sa manlalaro na kasalukuyang "hand"',
                                               N_("play starts with the player who is currently 'hand' (mano)"),
                                               "empieza el jugador que es mano en ese momento")),
    "free_play_while_stock": _NO_STOCK,
    "must_follow": cite(TOROFUN, tl("Maglaro ng baraha ng parehong suit sa paunang baraha at may mas mababang halaga, "
                                    "kung maaari", N_("(else) play a lower card of the suit led, if possible"),
                                    "jugar una carta del palo de salida más baja, si se puede")),
    "must_beat": cite(TOROFUN, tl("Maglaro ng baraha ng parehong suit sa paunang baraha at may mas mataas na halaga "
                                  "ng baraha kaysa sa mga baraha sa mesa, kung maaari",
                                  N_("play a card of the suit led higher than the cards on the table, if possible"),
                                  "jugar una carta del palo de salida más alta que las de la mesa, si se puede")),
    "beat_waived_when_trumped": cite(TOROFUN, tl("Kung may ibang manlalaro na nakapaglaro na ng nanalong trump … "
                                                 "anumang baraha ng starting suit",
                                                 N_("once someone played a winning trump … any card of the suit led"),
                                                 "si otro jugador ya ha jugado un triunfo que gana … cualquier carta del palo de salida")),
    "must_trump": cite(TOROFUN, tl("Maglaro ng barahang trump suit na may mas mataas na halaga kaysa sa anumang iba "
                                   "pang barahang nilalaro ng ibang mga manlalaro",
                                   N_("(else) play a trump higher than any card the others played"),
                                   "jugar un triunfo más alto que cualquier carta jugada por los demás")),
    "must_overtrump": cite(TOROFUN, _TL_OVERTRUMP),
    "must_undertrump": cite(TOROFUN, _TL_UNDERTRUMP, note=N_("no duty to play a losing trump")),
    "partner_winning_exempts": _NO_PARTNER_EXEMPTION,
    "exchange_seven": _TL_NO_EXCHANGE,
    "exchange_seven_for": _TL_NO_EXCHANGE,
    "exchange_two": _TL_NO_EXCHANGE,
    "exchange_two_for": _TL_NO_EXCHANGE,
    "exchange_at_first_lead": _TL_NO_EXCHANGE,
    "cante_points": cite(TOROFUN, tl("20 puntos kung ang suit ng mga baraha ay iba sa suit ng trump",
                                     N_("20 points if the suit of the cards is not trump"),
                                     "20 puntos si el palo de las cartas no es el de triunfo")),
    "cuarenta_points": cite(TOROFUN, tl("40 puntos kung ang suit ng mga baraha ay kapareho ng suit ng trump",
                                        N_("40 points if the suit of the cards is trump"),
                                        "40 puntos si el palo de las cartas es el de triunfo")),
    "cantes_per_trick": cite(TOROFUN, tl("Isang deklarasyon lamang ang maaaring gawin para sa bawat nanalong trick",
                                         N_("only one declaration may be made for each won trick"),
                                         "solo se puede cantar una vez por cada baza ganada")),
    "forty_first": cite(TOROFUN, tl('Obligado na ideklara ang "the 40" muna', N_("the 40 must be declared first"),
                                    "es obligatorio cantar primero las cuarenta")),
    "cante_only_if_sung_at_first_win": cite(
        TOROFUN, _TL_FIRST_WIN, decision=True,
        note=N_("what is lost is the chance to sing what could be sung then (forfeit_unsung_cantes), not every later "
                "cante; a side that sings one cante keeps its others for later won tricks")),
    "forfeit_unsung_cantes": cite(TOROFUN, tl("kung hindi, mawawala ang pagkakataon … Pareho ring naaangkop sa mga "
                                              "susunod na deklarasyon", N_("otherwise the chance is lost … the same "
                                                                           "applies to later declarations"),
                                              "si no, se pierde la ocasión … lo mismo vale para los cantes siguientes")),
    "declare_only_after_draw": _TL_NO_DRAW,
    "no_declare_with_last_drawn": _TL_NO_DRAW,
    "tute_at_first_lead": cite(TOROFUN, _TL_FIRST_WIN, note=N_("a tute, like a cante, comes after a won trick: not "
                                                               "before the first lead")),
    "tute_blocked_by_earlier_cante": cite(TOROFUN, tl("Hindi maaaring ianunsyo ang tute kung mayroon nang ibang "
                                                      "deklarasyon na naisagawa nang mas maaga",
                                                      N_("tute cannot be announced if another declaration was made "
                                                         "earlier"),
                                                      "no se puede cantar tute si ya se hizo antes otro cante")),
    "tute_effect": cite(TOROFUN, _TL_WINS_GAME),
    "tute_match_points": cite(TOROFUN, _TL_WINS_GAME, note=N_("not used: a tute wins the match (tute_effect is "
                                                              "win_match)")),
    "tute_wins_match_below_target": cite(TOROFUN, _TL_WINS_GAME, note=N_("not used: a tute wins the match whatever "
                                                                         "the target")),
    "last_trick_bonus": cite(TOROFUN, tl("tumatanggap ng karagdagang 10 puntos, na tinatawag na “the last ten”",
                                         N_("receives an extra 10 points, called the last ten"),
                                         "recibe 10 puntos más, las llamadas diez de últimas")),
    "deal_points": cite(TOROFUN, tl("Ang manlalaro o koponan na nag-iipon ng pinakamaraming puntos sa isang round … "
                                    "ay ang nagwagi ng nasabing round",
                                    N_("the player or team with the most points in a round wins that round"),
                                    "el jugador o la pareja que reúne más puntos en un juego … gana ese juego")),
    "double_threshold": cite(TOROFUN, tl("Kung lumampas sa 120 puntos, ang manlalaro o koponan na nakamit ito ay "
                                         "makakuha ng dalawang laro",
                                         N_("over 120 points, that player or team gets two games"),
                                         "si pasa de 120 puntos, el jugador o la pareja que lo logra se lleva dos juegos")),
    "double_basis": cite(TOROFUN, tl("Sa bawat round, posible na umabot hanggang 120 puntos (30 para sa bawat suit), "
                                     "bukod sa 10 puntos ng huling trick",
                                     N_("in each round up to 120 points are possible (30 per suit), besides the 10 "
                                        "points of the last trick"),
                                     "en cada juego se puede llegar a 120 puntos (30 por palo), aparte de los 10 puntos de la última baza"), decision=True,
                         note=N_("over 120 counts card points plus the last ten; declarations do not count")),
    "double_points": cite(TOROFUN, tl("ay makakuha ng dalawang laro", N_("gets two games"), "se lleva dos juegos")),
    "match_target": cite(TOROFUN, tl("Kung walang napagkasunduan, ang laro ay nilalaro sa isang round lamang",
                                     N_("if nothing was agreed, the game is played to one round"),
                                     "si no se ha acordado nada, la partida se juega a un solo juego")),
    "match_target_choices": cite(TOROFUN, tl("isang napagkasunduang bilang ng mga rounds, na itinakda bago magsimula "
                                             "ang laro", N_("an agreed number of rounds, set before the game starts"),
                                             "un número de juegos acordado antes de empezar la partida"),
                                 note=N_("any number")),
}

_FR_TRUMP_PLAYED = fr("il devra couper (jouer de l´atout) s´il monte celui ou ceux joués au paravent",
                      N_("he must trump if he beats the trump(s) played before"),
                      "deberá fallar (jugar triunfo) si supera el o los jugados antes")
_FR_NO_EXCHANGE = cite(LUDOTEKA, note=N_("no exchange: the Ludoteka rules name none, and the turned card stays in the "
                                         "dealer's hand"))
_FR_TUTE_POINTS = fr("au cas contraire on obtient deux points", N_("otherwise one gets two points"),
                     "en caso contrario se obtienen dos puntos")
_FR_DOUBLE = fr("S´ils avaint dépassé les 100 points dans la main, on le leur asignera deux points",
                N_("if they passed 100 points in the deal, they are given two points"),
                "si han pasado de 100 puntos en el juego, se les asignan dos puntos")

SOURCES: dict[str, dict[str, Citation]] = {
    "ludoteka-pairs": {
        "players": cite(LUDOTEKA, fr("Si on joue entre 4 personnes il est joué en couples",
                                     N_("with 4 people it is played in pairs"),
                                     "si se juega entre 4 personas, se juega por parejas")),
        "partnerships": cite(LUDOTEKA, fr("Les points d´une main seront décomptés par couples",
                                          N_("the points of a deal are counted by pairs"),
                                          "los puntos de un juego se cuentan por parejas")),
        "removed_ranks": cite(LUDOTEKA, fr("formé de 4 séries de dix cartes", N_("made of 4 suits of ten cards"),
                                           "formada por 4 palos de diez cartas"),
                              note=N_("the 40-card pack, nothing removed")),
        "hand_size": cite(LUDOTEKA, fr("il distribuera toutes les cartes du talon entre les quatre joueurs une à une",
                                       N_("he deals all the cards among the four players one at a time"),
                                       "repartirá todas las cartas del mazo entre los cuatro jugadores de una en una"),
                          note=N_("40 / 4 = 10")),
        "trump_card": cite(LUDOTEKA, fr("il devra retourner et montrer la dernière avant de la garder pour soi: cette "
                                        "carte donne la couleur de l´atout",
                                        N_("he turns and shows the last card, then keeps it: it gives trump"),
                                        "deberá volver y enseñar la última antes de quedársela: esa carta da el palo de triunfo")),
        "first_deal_trump": cite(LUDOTEKA, fr("Exceptionnellement à la première main la couleur de l´atout c´est l´or",
                                              N_("exceptionally, in the first deal trump is oros"),
                                              "excepcionalmente, en el primer juego el triunfo es oros")),
        "first_deal_leader_card": cite(LUDOTEKA, fr("et le joueur qui a le 2 d´or a la main",
                                                    N_("and the player who holds the 2 of oros leads"),
                                                    "y el jugador que tiene el 2 de oros es mano")),
        "free_play_while_stock": _NO_STOCK,
        "must_follow": cite(LUDOTEKA, fr("il sera obligé de fournir une carte de cette couleur-là",
                                         N_("he must play a card of that suit"),
                                         "estará obligado a echar una carta de ese palo")),
        "must_beat": cite(LUDOTEKA, fr("et s´il pet, il devra monter", N_("and if he can, he must play higher"),
                                       "y si puede, deberá montar")),
        "beat_waived_when_trumped": cite(ARRASTRE, tl("Kung may ibang manlalaro na nakapaglaro na ng nanalong trump "
                                                      "… anumang baraha ng starting suit", N_("once someone played a "
                                                         "winning trump … any card of the suit led"),
                                                      "si otro jugador ya ha jugado un triunfo que gana … cualquier carta del palo de salida"), decision=True,
                                         note=N_("the Ludoteka rules are silent; the product follows the Tagalog text")),
        "must_trump": cite(LUDOTEKA, _FR_TRUMP_PLAYED),
        "must_overtrump": cite(LUDOTEKA, _FR_TRUMP_PLAYED),
        "must_undertrump": cite(LUDOTEKA, fr("ni pour couper en montant celles jouées au paravent, il poura alors "
                                             "jouer la carte qu´il préfère",
                                             N_("nor trump higher than those played, he may play any card he likes"),
                                             "ni para fallar montando a las jugadas antes, podrá jugar la carta que prefiera")),
        "partner_winning_exempts": _NO_PARTNER_EXEMPTION,
        "exchange_seven": _FR_NO_EXCHANGE,
        "exchange_seven_for": cite(LUDOTEKA, note=N_("no exchange (exchange_seven is false)")),
        "exchange_two": _FR_NO_EXCHANGE,
        "exchange_two_for": cite(LUDOTEKA, note=N_("no exchange (exchange_two is false)")),
        "exchange_at_first_lead": cite(LUDOTEKA, note=N_("no exchange at any time")),
        "cante_points": cite(LUDOTEKA, fr("chanter les 20 (s´il s´agit d u roi et du cheval de n´importe quelle "
                                          "couleur)", N_("sing the 20 (rey and caballo of any suit)"),
                                          "cantar las veinte (si son el rey y el caballo de cualquier palo)")),
        "cuarenta_points": cite(LUDOTEKA, fr("chanter les 40 (s´il s´agit du roi et du cheval de la couleur de "
                                             "l´atout)", N_("sing the 40 (rey and caballo of the trump suit)"),
                                             "cantar las cuarenta (si son el rey y el caballo del palo de triunfo)")),
        "cantes_per_trick": cite(LUDOTEKA, fr("deux canticos simultanés par couple maximum",
                                              N_("two at once per pair at most"),
                                              "dos cantes a la vez por pareja como máximo"), decision=True,
                                 note=N_("the text sets the limit for the first cante; the product keeps it for every "
                                         "won trick")),
        "forty_first": cite(LUDOTEKA, fr("il devra chanter 40 avant 20", N_("he must sing 40 before 20"),
                                         "deberá cantar las cuarenta antes que las veinte")),
        "cante_only_if_sung_at_first_win": cite(LUDOTEKA, fr("Le premier cantico devra être fait par les joueurs d´un "
                                                             "couple inmédiatement après d´emporter le premier pli",
                                                             N_("a pair's first cante must come right after it wins its "
                                                                "first trick"),
                                                             "el primer cante de una pareja debe hacerse inmediatamente después de ganar su primera baza")),
        "forfeit_unsung_cantes": cite(LUDOTEKA, fr("S´ils avaient encore des canticos à faire ils devront le faire "
                                                   "dans les plis suivants qu´ils emportent",
                                                   N_("further cantes are made after the later tricks they win"),
                                                   "si aún tuvieran cantes por hacer, deberán hacerlos en las bazas siguientes que ganen"),
                                      note=N_("none is lost")),
        "declare_only_after_draw": _NO_DRAW,
        "no_declare_with_last_drawn": _NO_DRAW,
        "tute_at_first_lead": cite(LUDOTEKA, fr("il pourra chanter TUTE aprés avoir emporté le premier pli du couple",
                                                N_("he may sing TUTE after the pair has won its first trick"),
                                                "podrá cantar TUTE después de que la pareja haya ganado su primera baza"),
                                   note=N_("not before the first lead")),
        "tute_blocked_by_earlier_cante": cite(LUDOTEKA, fr("il pourra chanter TUTE aprés avoir emporté le premier pli "
                                                           "du couple", N_("he may sing TUTE after the pair has won its "
                                                                           "first trick"),
                                                           "podrá cantar TUTE después de que la pareja haya ganado su primera baza"),
                                              note=N_("after any trick won by the pair; the text sets no bar after a "
                                                      "cante")),
        "tute_effect": cite(LUDOTEKA, _FR_TUTE_POINTS, note=N_("the deal is won (the match only below 5, see "
                                                               "tute_wins_match_below_target)")),
        "tute_match_points": cite(LUDOTEKA, _FR_TUTE_POINTS),
        "tute_wins_match_below_target": cite(LUDOTEKA, fr("lorsque la partie est jouée à emporter moins de 5 points, "
                                                          "qui chante Tute emporte la partie directement",
                                                          N_("in a match to fewer than 5 points, whoever sings Tute wins "
                                                             "the match outright"),
                                                          "cuando la partida se juega a menos de 5 puntos, quien canta tute gana la partida directamente")),
        "last_trick_bonus": cite(LUDOTEKA, fr("Le couple qui enporte le dernier pli d´une main additionnera 10 points",
                                              N_("the pair that wins the last trick of a deal adds 10 points"),
                                              "la pareja que gana la última baza de un juego suma 10 puntos")),
        "deal_points": cite(LUDOTEKA, fr("Le couple qui obtiendra le plus grand nombre de points dans une main … on le "
                                         "leur asignera un point", N_("the pair with the most points in a deal is given "
                                                                      "one point"),
                                         "la pareja que consiga más puntos en un juego … se le asigna un punto")),
        "double_threshold": cite(LUDOTEKA, _FR_DOUBLE),
        "double_basis": cite(LUDOTEKA, fr("dépassé les 100 points dans la main", N_("passed 100 points in the deal"),
                                          "pasado de 100 puntos en el juego"),
                             note=N_("the deal's whole total, cantes included")),
        "double_points": cite(LUDOTEKA, _FR_DOUBLE),
        "match_target": cite(LUDOTEKA, fr("gagner 2, 4, 6 ou 8 points", N_("win 2, 4, 6 or 8 points"),
                                          "ganar 2, 4, 6 u 8 puntos"), decision=True,
                             note=N_("the default 4 is the preset's choice; a record's MatchTarget tag says the target")),
        "match_target_choices": cite(LUDOTEKA, fr("gagner 2, 4, 6 ou 8 points", N_("win 2, 4, 6 or 8 points"),
                                                  "ganar 2, 4, 6 u 8 puntos")),
    },
    "playcard-2p": {
        "players": cite(PLAYCARD, sv("den klassiska versionen är för två, med åtta kort var — den som det här bordet "
                                     "delar ut", N_("the classic version is for two, eight cards each: the one this "
                                                    "table deals"),
                                     "la versión clásica es para dos, con ocho cartas cada uno: la que reparte esta mesa")),
        "partnerships": cite(PLAYCARD, sv("Det här bordet delar ut tute för två", N_("this table deals tute for two"),
                                          "esta mesa reparte tute para dos"),
                             note=N_("no partners")),
        "removed_ranks": cite(PLAYCARD, sv("Fyrtio kort: en spansk kortlek", N_("forty cards: a Spanish pack"),
                                           "cuarenta cartas: una baraja española")),
        "hand_size": cite(PLAYCARD, sv("den klassiska versionen är för två, med åtta kort var",
                                       N_("for two, eight cards each"),
                                       "la versión clásica es para dos, con ocho cartas cada uno")),
        "trump_card": cite(PLAYCARD, sv("Efter given vänds ett kort upp under högen, och dess färg är trumf … Det "
                                        "uppvända kortet dras sist", N_("a card is turned up under the stock; its suit is "
                                                                        "trump … it is drawn last"),
                                        "tras repartir se vuelve una carta bajo el monte, y su palo es el triunfo … la carta vuelta se roba la última")),
        "first_deal_trump": cite(PLAYCARD, sv("Efter given vänds ett kort upp under högen, och dess färg är trumf",
                                              N_("after the deal a card is turned up under the stock, and its suit is "
                                                 "trump"),
                                              "tras repartir se vuelve una carta bajo el monte, y su palo es el triunfo"), note=N_("every deal")),
        "first_deal_leader_card": cite(PLAYCARD, note=N_("the non-dealer (mano) leads the first trick"), decision=True),
        "free_play_while_stock": cite(PLAYCARD, sv("Inte så länge det finns en hög att dra från: du får spela vilket "
                                                   "kort du vill", N_("not while there is a stock to draw from: you may "
                                                                      "play any card"),
                                                   "no mientras haya monte del que robar: puedes jugar la carta que quieras")),
        "must_follow": cite(PLAYCARD, _SV_DUTIES),
        "must_beat": cite(PLAYCARD, _SV_DUTIES),
        "beat_waived_when_trumped": cite(ARRASTRE, note=N_("shared; never applies with two players: the trick is "
                                                           "complete once someone has trumped")),
        "must_trump": cite(PLAYCARD, _SV_DUTIES),
        "must_overtrump": cite(PLAYCARD, sv("kan du inte bekänna måste du trumfa", N_("if you cannot follow you must "
                                                                                      "trump"),
                                            "si no puedes asistir tienes que fallar"),
                               note=N_("with two players no trump is in the trick yet, so any trump beats it")),
        "must_undertrump": cite(ARRASTRE, note=N_("shared (no duty to play a trump that cannot win); never applies with "
                                                  "two players")),
        "partner_winning_exempts": cite(ARRASTRE, note=N_("no exemption when the partner is winning the trick; no "
                                                          "source grants one; no partners with two players"),
                                        decision=True),
        "exchange_seven": cite(PLAYCARD, _SV_EXCHANGE),
        "exchange_seven_for": cite(PLAYCARD, sv("byta den mot det kortet", N_("exchange it for that card"),
                                                "cambiarlo por esa carta"),
                                   note=N_("whatever the turned card is")),
        "exchange_two": cite(PLAYCARD, sv("trumfsjuan", N_("the 7 of trump"),
                                          "el 7 de triunfo"), note=N_("the only card the FAQ lets be "
                                                                                   "exchanged: no exchange of the 2")),
        "exchange_two_for": cite(PLAYCARD, note=N_("no exchange of the 2 (exchange_two is false)")),
        "exchange_at_first_lead": cite(PLAYCARD, sv("när den har utspelet", N_("when they are on lead"),
                                                    "cuando es su salida"),
                                       note=N_("the first lead of the deal included")),
        "cante_points": cite(PLAYCARD, _SV_CANTE),
        "cuarenta_points": cite(PLAYCARD, _SV_CANTE),
        "cantes_per_trick": cite(PLAYCARD, note=N_("the FAQ is silent: one cante per won trick"), decision=True),
        "forty_first": cite(PLAYCARD, note=N_("the FAQ is silent: 40 before 20"), decision=True),
        "cante_only_if_sung_at_first_win": _SV_CANTE_WHEN,
        "forfeit_unsung_cantes": _SV_CANTE_WHEN,
        "declare_only_after_draw": cite(PLAYCARD, note=N_("the FAQ is silent: cantes stay allowed after the stock is "
                                                          "exhausted"), decision=True),
        "no_declare_with_last_drawn": cite(PLAYCARD, note=N_("the FAQ is silent: cantes stay allowed after the stock is "
                                                             "exhausted, with any card"), decision=True),
        "tute_at_first_lead": cite(PLAYCARD, sv("Anmäl det när du har utspelet så vinner du given direkt",
                                                N_("announce it when you are on lead and you win the deal at once"),
                                                "cántalo cuando sea tu salida y ganas el juego en el acto")),
        "tute_blocked_by_earlier_cante": cite(PLAYCARD, sv("så vinner du given direkt, hur ställningen än ser ut",
                                                           N_("and you win the deal at once, whatever the score"),
                                                           "y ganas el juego en el acto, vaya como vaya el tanteo"),
                                              note=N_("no bar after a cante")),
        "tute_effect": cite(PLAYCARD, sv("så vinner du given direkt, hur ställningen än ser ut",
                                         N_("and you win the deal at once, whatever the score"),
                                         "y ganas el juego en el acto, vaya como vaya el tanteo")),
        "tute_match_points": cite(PLAYCARD, _SV_DEAL_POINT),
        "tute_wins_match_below_target": cite(PLAYCARD, _SV_DEAL_POINT, note=N_("a tute wins one deal, never the match")),
        "last_trick_bonus": cite(PLAYCARD, sv("Med tio för sista sticket rymmer en giv 130 poäng",
                                              N_("with ten for the last trick a deal holds 130 points"),
                                              "con diez por la última baza, un juego tiene 130 puntos")),
        "deal_points": cite(PLAYCARD, _SV_DEAL_POINT),
        "double_threshold": cite(PLAYCARD, _SV_DEAL_POINT, note=N_("no doubled deals")),
        "double_basis": cite(PLAYCARD, note=_SV_NOT_USED),
        "double_points": cite(PLAYCARD, note=_SV_NOT_USED),
        "match_target": cite(PLAYCARD, sv("tre, fem eller sju vunna givar", N_("three, five or seven won deals"),
                                          "tres, cinco o siete juegos ganados"),
                             decision=True, note=N_("the default 3 is the preset's choice; a record's MatchTarget tag "
                                                    "says the target")),
        "match_target_choices": cite(PLAYCARD, sv("värden väljer om matchen går till tre, fem eller sju vunna givar",
                                                  N_("the host chooses whether the match goes to three, five or seven "
                                                     "won deals"),
                                                  "el anfitrión elige si la partida es a tres, cinco o siete juegos ganados")),
    },
    "torofun-2p": {
        **_TOROFUN,
        "players": cite("torofun-2p", _TL_2P),
        "partnerships": cite("torofun-2p", _TL_2P, note=N_("each plays alone")),
        "removed_ranks": cite("torofun-2p", _TL_DECK),
        "hand_size": cite("torofun-2p", _TL_2P),
        "trump_card": cite("torofun-2p", _TL_LAST_CARD, tl("ang natitira ay inilalagay sa isang tumpok nang "
                                                           "nakatagilid upang iguhit", N_("the rest is put in a pile "
                                                                                          "to draw from"),
                                                           "el resto se deja en un montón aparte para robar"),
                           decision=True, note=N_("the card after the hands is turned under the stock and drawn last")),
        "free_play_while_stock": cite("torofun-2p", tl("Hanggang may mga baraha sa deck … Ang kalaban ay maaaring "
                                                       "maglaro ng anumang baraha", N_("while there are cards in the "
                                                          "deck … the opponent may play any card"),
                                                       "mientras queden cartas en el monte … el contrario puede jugar cualquier carta")),
        "beat_waived_when_trumped": cite("torofun-2p", tl("ang susunod na manlalaro ay maaaring maglaro ng anumang "
                                                          "baraha ng starting suit", N_("the next may play any card of "
                                                                                        "the suit led"),
                                                          "el siguiente jugador puede jugar cualquier carta del palo de salida"),
                                         note=N_("never applies with two players: the trick is complete once "
                                                 "someone has trumped")),
        "must_overtrump": cite(TOROFUN, _TL_OVERTRUMP, note=N_("with two players no trump is in the trick yet")),
        "must_undertrump": cite(TOROFUN, _TL_UNDERTRUMP, note=N_("no duty to play a losing trump; never applies with "
                                                                 "two players")),
        "partner_winning_exempts": cite(ARRASTRE, note=N_("no exemption when the partner is winning the trick; no "
                                                          "source grants one; no partners with two players"),
                                        decision=True),
        "exchange_seven": cite("torofun-2p", tl("ang manlalaro na may 7 ng parehong suit ay maaaring palitan ito",
                                                N_("the player holding the 7 of the same suit may exchange it"),
                                                "el jugador que tiene el 7 del mismo palo puede cambiarla")),
        "exchange_seven_for": cite("torofun-2p", tl("Kapag ang trump card ay isang ace, three, king, knight o jack",
                                                    N_("when the trump card is an ace, three, king, knight or jack"),
                                                    "cuando la carta de triunfo es un as, un tres, un rey, un caballo o una sota")),
        "exchange_two": cite("torofun-2p", tl("Maaari ring palitan ang 7, 6, 5 o 4 para sa 2 ng parehong suit",
                                              N_("a 7, 6, 5 or 4 may also be exchanged for the 2 of the same suit"),
                                              "también se puede cambiar un 7, 6, 5 o 4 por el 2 del mismo palo")),
        "exchange_two_for": cite("torofun-2p", tl("Maaari ring palitan ang 7, 6, 5 o 4 para sa 2 ng parehong suit",
                                                  N_("a 7, 6, 5 or 4 may also be exchanged for the 2 of the same suit"),
                                                  "también se puede cambiar un 7, 6, 5 o 4 por el 2 del mismo palo")),
        "exchange_at_first_lead": cite("torofun-2p", tl("Ang operasyon na ito ay maaari lamang isagawa hanggang sa "
                                                        "manalo ng trick", N_("this operation may only be done upon "
                                                                              "winning a trick"),
                                                        "esta operación solo puede hacerse al ganar una baza"),
                                       note=N_("only by the winner of the last trick")),
        "declare_only_after_draw": cite("torofun-2p", tl("Ang mga deklarasyon ay maaari lamang isagawa hangga't may "
                                                         "mga baraha sa deck", N_("declarations may only be made while "
                                                                                  "there are cards in the deck"),
                                                         "solo se puede cantar mientras queden cartas en el monte"),
                                        note=N_("after a trick followed by a draw, the draw that empties the stock "
                                                "included")),
        "no_declare_with_last_drawn": cite("torofun-2p", tl("hangga't ang knight o king ay hindi ang huling barahang "
                                                            "nakuha", N_("as long as the knight or king is not the last "
                                                                         "card drawn"),
                                                            "siempre que el caballo o el rey no sea la última carta robada")),
    },
    "torofun-3p": {
        **_TOROFUN,
        "players": cite("torofun-3p", _TL_3P),
        "partnerships": cite("torofun-3p", _TL_3P, note=N_("each plays alone (pairs need 4 players)")),
        "removed_ranks": cite("torofun-3p", _TL_3P),
        "hand_size": cite("torofun-3p", _TL_3P),
        "trump_card": cite("torofun-3p", _TL_LAST_CARD, note=N_("it stays in the dealer's hand")),
        "partner_winning_exempts": cite(ARRASTRE, note=N_("no exemption when the partner is winning the trick; no "
                                                          "source grants one; no partners with three players"),
                                        decision=True),
    },
    "torofun-4p": {
        **_TOROFUN,
        "players": cite("torofun-4p", _TL_4P),
        "partnerships": cite("torofun-4p", tl("dalawang pares ang nabuo (isang manlalaro sa harap ng isa pa)",
                                              N_("two pairs are formed (one player facing the other)"),
                                              "se forman dos parejas (cada jugador frente a su compañero)")),
        "removed_ranks": cite("torofun-4p", _TL_4P),
        "hand_size": cite("torofun-4p", _TL_4P),
        "trump_card": cite("torofun-4p", tl("10 baraha ang ibinibigay sa bawat manlalaro, at ang huling baraha ay "
                                            "nagbubunyag ng trump suit", N_("10 cards are dealt to each player, and the "
                                                                            "last card reveals the trump suit"),
                                            "se dan 10 cartas a cada jugador, y la última carta descubre el palo de triunfo")),
        "declare_only_after_draw": cite("torofun-4p", _TL_AS_2P, note=N_("no stock, so no draw rule")),
        "no_declare_with_last_drawn": cite("torofun-4p", _TL_AS_2P, note=N_("no stock, so no last draw")),
    },
}
"""Per preset, per option: the citation.  Options not listed fall back to :data:`SHARED`."""


def source_of(preset: str, option: str) -> Citation:
    """The citation behind one preset value."""
    return SOURCES.get(preset, {}).get(option, SHARED)


def _exchanges(r: Ruleset) -> bool:
    return r.exchange_seven or r.exchange_two


DECISIONS: tuple[Decision, ...] = (
    Decision(
        "silence_judged_at_the_lead", N_("Silence is judged when the window closes"),
        N_("What silence after a won trick costs (forfeit_unsung_cantes, cante_only_if_sung_at_first_win) is judged "
        "once, when the window closes: at the next lead, on the hands as they are then, so after any exchange made "
        "in the window. A cante completed by the card an exchange brought (a rey or caballo taken as the turned "
        "card) must be sung before that lead, or it is lost. Only the cantes that could be sung at that moment are "
        "lost: a 20 that had to wait for the 40 is kept, and nothing is lost when the draw rules forbid singing."),
        (tl("Ang manlalaro na nanalo sa trick ang nagsisimula sa susunod na kamay at may opsyon din na gumawa ng "
            "deklarasyon", N_("the player who won the trick leads the next one and may also make a declaration"),
            "el jugador que gana la baza sale en la siguiente y también puede cantar"),
         tl("kung hindi, mawawala ang pagkakataon", N_("otherwise the chance is lost"), "si no, se pierde la ocasión")),
        lambda r: r.forfeit_unsung_cantes or r.cante_only_if_sung_at_first_win,
        plain=N_("What you did not sing is judged at the next lead, on the hands as they are then: a cante completed "
                   "by an exchange must be sung before that lead. Only what you could sing then is lost.")),
    Decision(
        "exchange_is_not_a_cante", N_("An exchange is not a cante"),
        N_("The exchange is a declaration in our notation, written between tricks like a cante, but every rule that "
        "counts what a side declared counts cantes only: an exchange does not break a side's silence "
        "(forfeit_unsung_cantes, cante_only_if_sung_at_first_win), does not use up cantes_per_trick, and does not "
        "bar a later tute (tute_blocked_by_earlier_cante). The Tagalog text's declaration (deklarasyon) is a cante "
        "or a tute; it calls the exchange an operation (operasyon)."),
        (tl("Ang deklarasyon ay ginagawa kapagang isang manlalaro ay nag-anunsyo na mayroon siyang knight at hari ng "
            "parehong suit", N_("a declaration is made when a player announces holding the knight and king of one suit"),
            "se canta cuando un jugador anuncia que tiene el caballo y el rey del mismo palo"),
         tl("Ang operasyon na ito ay maaari lamang isagawa hanggang sa manalo ng trick",
            N_("this operation may only be done upon winning a trick"),
            "esta operación solo puede hacerse al ganar una baza")),
        _exchanges,
        plain=N_("Exchanging the 7 or the 2 is not singing: it does not break your silence, does not use up a cante "
                   "and does not bar a later tute.")),
    Decision(
        "exchanges_in_any_order", N_("Exchanges and cantes in one window, in any order"),
        N_("Between two tricks the player on lead may exchange before or after the side's cantes, and may exchange "
        "twice: once the 7 is given, it is the turned card, and the 2 may be given for it at once where the ruleset "
        "allows the 2 for a turned 7 (torofun-2p). No text sets an order or a limit."),
        (tl("Maaari ring palitan ang 7, 6, 5 o 4 para sa 2 ng parehong suit",
            N_("a 7, 6, 5 or 4 may also be exchanged for the 2 of the same suit"),
            "también se puede cambiar un 7, 6, 5 o 4 por el 2 del mismo palo"),),
        _exchanges,
        plain=N_("Between two tricks the player on lead may exchange before or after the cantes, and exchange twice "
                   "(the 7, then the 2 for that 7) where both exchanges are allowed.")),
    Decision(
        "tie_goes_to_the_latest_trick", N_("A tied deal goes to the side that won the latest trick"),
        N_("When sides tie for the most points, the deal goes to the tied side that won the latest trick; with two "
        "sides, to the winner of the last trick. Only the Ludoteka rules say so, for pairs; the product applies it "
        "to every preset."),
        (fr("S´il y a égalité entre les deux couples ce sera le couple qui ait emporté le dernier pli celui qui "
            "emportera le point", N_("if the two pairs tie, the pair that won the last trick takes the point"),
            "si hay empate entre las dos parejas, se llevará el punto la pareja que haya ganado la última baza"),),
        lambda r: True,
        plain=N_("A tied deal goes to the tied side that won the latest trick.")),
    Decision(
        "winner_draws_first", N_("The trick winner draws first"),
        N_("After each trick with a stock each player draws one card, the trick winner first, and the turned card is "
        "the last card drawn. The Playcard FAQ says so; the Tagalog text only says that both players draw, and the "
        "product follows the same order for torofun-2p."),
        (sv("båda drar efter varje stick, vinnaren först", N_("both draw after each trick, the winner first"),
            "los dos roban tras cada baza, primero el que la ganó"),
         tl("sa bawat tapos na trick, parehong manlalaro ay kailangang kumuha ng baraha mula sa deck",
            N_("after each finished trick, both players must take a card from the deck"),
            "tras cada baza terminada, los dos jugadores tienen que coger una carta del monte")),
        lambda r: r.trump_card == "stock_bottom",
        plain=N_("After each trick the winner draws first; the muestra is the last card drawn.")),
    Decision(
        "first_leader_card_missing", N_("Mano leads when no one holds the first leader's card"),
        N_("In a match's first deal the holder of first_deal_leader_card leads; if no one holds it (a custom ruleset "
        "that removes its rank), mano leads."),
        (fr("et le joueur qui a le 2 d´or a la main", N_("and the player who holds the 2 of oros leads"),
            "y el jugador que tiene el 2 de oros es mano"),),
        lambda r: r.first_deal_leader_card is not None,
        plain=N_("If no one holds the card that leads a match's first deal, mano leads.")),
    Decision(
        "hidden_cards_in_the_players_favour", N_("A reconstructed stock judges hidden cards in the player's favour"),
        N_("When a record without its Stock tag is validated on a reconstructed stock, a rule that depends on cards no "
        "event shows (forty_first: could the seat sing the 40 then; forfeit_unsung_cantes: did the silent side hold "
        "a pair then; no_declare_with_last_drawn: is a card of the cante the one drawn last) refuses an event only "
        "when no stock order consistent with the record, and with the orders chosen so for the events before it, "
        "allows it. A cante or tute whose card drawn last the record "
        "does not determine is allowed, with a warning that it is undecidable."),
        (tl("hangga't ang knight o king ay hindi ang huling barahang nakuha",
            N_("as long as the knight or king is not the last card drawn"),
            "siempre que el caballo o el rey no sea la última carta robada"),),
        lambda r: r.trump_card == "stock_bottom",
        plain=N_("When a record does not give the order of the stock, the cards nobody saw are judged in the player's "
                   "favour.")),
)
"""What the engine decides where the texts are silent and no option says it; docs/rules.md §6 states each."""


def decisions_for(ruleset: Ruleset) -> list[Decision]:
    """The decisions that concern ``ruleset``, as ``tute rules NAME`` lists them."""
    return [d for d in DECISIONS if d.applies(ruleset)]
