"""Where each preset value comes from: a sentence of a source text, or a decision.

``tute rules NAME`` and ``docs/rules.md`` print these.  Source files are in
``shared/seeds`` beside the project: 000 is the French Ludoteka text, 001 the
Swedish Playcard FAQ, 002 the Tagalog rules page; rules.md is the product's
reference decision on each rule.

A citation is one of:

- ``seed NNN (lang): «quotation» — "English gloss"``: the source sentence in
  its own language, copied exactly (``…`` marks a cut);
- ``rules.md §N (decision): ...``: a value the product chose where the source
  is silent or ambiguous;
- ``rules.md §N: ...``: a value rules.md states or that follows from the
  preset's other values (for example an option that cannot apply to it);
- ``rules.md §1: shared ...``: a value every preset shares that no source contests.

>>> source_of("ludoteka-pairs", "first_deal_trump").startswith("seed 000 (fr)")
True
"""

from __future__ import annotations

SHARED = "rules.md §1: shared by every preset"
"""Citation for an option whose value every preset shares and no source contests."""

# -- Citations used by several presets ---------------------------------------

_NO_PARTNER_EXEMPTION = "rules.md §1 (decision): no exemption when the partner is winning the trick; no source grants one"
_NO_STOCK = "rules.md §1: shared; the whole pack is dealt, there is no stock, so the duties apply from the first trick"
_NO_DRAW = "rules.md §1: shared; the whole pack is dealt, so there is no stock and no draw to wait for"
_TWO_PLAYER_TRICK = "; never applies with two players: the trick is complete once someone has trumped"

_SV_DEAL_POINT = 'seed 001 (sv): «Varje giv är en poäng i matchen» — "every deal is one point in the match"'
_SV_DUTIES = ('seed 001 (sv): «Du måste bekänna färg, du måste slå kortet om du kan, och kan du inte bekänna måste du '
              'trumfa» — "you must follow suit, beat the card if you can, and trump if you cannot follow"')
_SV_CANTE = ('seed 001 (sv): «Den är värd 20, eller 40 i trumf — las cuarenta» — "it is worth 20, or 40 in trump, '
             'las cuarenta"')
_SV_CANTE_WHEN = ('seed 001 (sv): «anmälda efter att du vunnit ett stick och innan du spelar ut till nästa» — '
                  '"declared after you have won a trick and before you lead to the next": after any won trick, no loss named')
_SV_EXCHANGE = ('seed 001 (sv): «Så länge högen räcker får den som har trumfsjuan byta den mot det kortet när den har '
                'utspelet» — "while the stock lasts, the holder of the 7 of trump may exchange it for that card when on lead"')

_TL_DECK = 'seed 002 (tl): «Isang 40 barahang Spanish deck ang ginagamit sa paglalaro» — "a 40-card Spanish pack is used"'
_TL_2P = ('seed 002 (tl): «2 manlalaro: 8 baraha bawat isa (16 baraha at 24 pa sa stock o deck)» — '
          '"2 players: 8 cards each (16 cards, and 24 more in the stock)"')
_TL_3P = ('seed 002 (tl): «3 manlalaro: 12 baraha bawat isa (isang deck ng 36 baraha ang ginagamit, pinapabalik lahat '
          'ng deuces)» — "3 players: 12 cards each (a 36-card pack is used, all the 2s are put back)"')
_TL_4P = ('seed 002 (tl): «4 manlalaro: 10 baraha bawat isa (isang buong deck ng 40 baraha ang ginagamit)» — '
          '"4 players: 10 cards each (the whole 40-card pack is used)"')
_TL_LAST_CARD = ('seed 002 (tl): «Ang huling barahang ibinigay ay ang magmamarka ng trump» — '
                 '"the last card dealt marks trump" (in every deal: no first-deal exception)')
_TL_NO_EXCHANGE = ('seed 002 (tl): «2-manlalaro na mode» — "2-player mode": the only section giving the exchange; '
                   'here the whole pack is dealt and the turned card stays in the dealer\'s hand')
_TL_NO_DRAW = ('rules.md §4: the 2-player draw rules («Pagdeklara sa 2-manlalaro na mode» — "declaring in 2-player '
               'mode") need a stock; this preset deals the whole pack')

_TOROFUN: dict[str, str] = {
    "first_deal_trump": _TL_LAST_CARD,
    "first_deal_leader_card": ('seed 002 (tl): «Nagsisimula ang laro sa manlalaro na kasalukuyang "hand"» — '
                               '"play starts with the player who is currently \'hand\' (mano)"'),
    "free_play_while_stock": _NO_STOCK,
    "must_follow": ('seed 002 (tl): «Maglaro ng baraha ng parehong suit sa paunang baraha at may mas mababang halaga, '
                    'kung maaari» — "(else) play a lower card of the suit led, if possible"'),
    "must_beat": ('seed 002 (tl): «Maglaro ng baraha ng parehong suit sa paunang baraha at may mas mataas na halaga ng '
                  'baraha kaysa sa mga baraha sa mesa, kung maaari» — "play a card of the suit led higher than the cards '
                  'on the table, if possible"'),
    "beat_waived_when_trumped": ('seed 002 (tl): «Kung may ibang manlalaro na nakapaglaro na ng nanalong trump … '
                                 'anumang baraha ng starting suit» — "once someone played a winning trump … any card '
                                 'of the suit led"'),
    "must_trump": ('seed 002 (tl): «Maglaro ng barahang trump suit na may mas mataas na halaga kaysa sa anumang iba pang '
                   'barahang nilalaro ng ibang mga manlalaro» — "(else) play a trump higher than any card the others played"'),
    "must_overtrump": ('seed 002 (tl): «Maglaro ng barahang trump suit na may mas mataas na halaga kaysa sa anumang iba '
                       'pang barahang nilalaro» — "play a trump higher than any other card played"'),
    "must_undertrump": ('seed 002 (tl): «Maglaro ng anumang iba pang baraha, maging ito man ay trump suit o hindi» — '
                        '"(else) play any other card, trump or not": no duty to play a losing trump'),
    "partner_winning_exempts": _NO_PARTNER_EXEMPTION,
    "exchange_seven": _TL_NO_EXCHANGE,
    "exchange_seven_for": _TL_NO_EXCHANGE,
    "exchange_two": _TL_NO_EXCHANGE,
    "exchange_two_for": _TL_NO_EXCHANGE,
    "exchange_at_first_lead": _TL_NO_EXCHANGE,
    "cante_points": ('seed 002 (tl): «20 puntos kung ang suit ng mga baraha ay iba sa suit ng trump» — '
                     '"20 points if the suit of the cards is not trump"'),
    "cuarenta_points": ('seed 002 (tl): «40 puntos kung ang suit ng mga baraha ay kapareho ng suit ng trump» — '
                        '"40 points if the suit of the cards is trump"'),
    "cantes_per_trick": ('seed 002 (tl): «Isang deklarasyon lamang ang maaaring gawin para sa bawat nanalong trick» — '
                         '"only one declaration may be made for each won trick"'),
    "forty_first": 'seed 002 (tl): «Obligado na ideklara ang "the 40" muna» — "the 40 must be declared first"',
    "cante_only_if_sung_at_first_win": ('rules.md §4: "A side that declares one cante keeps its other cantes for '
                                        'later won tricks"; silence costs through forfeit_unsung_cantes instead'),
    "forfeit_unsung_cantes": ('seed 002 (tl): «kung hindi, mawawala ang pagkakataon … Pareho ring naaangkop sa mga '
                              'susunod na deklarasyon» — "otherwise the chance is lost … the same applies to later '
                              'declarations"'),
    "declare_only_after_draw": _TL_NO_DRAW,
    "no_declare_with_last_drawn": _TL_NO_DRAW,
    "tute_at_first_lead": ('rules.md §4: tute is "announced right after a trick won by the player (in pairs, by the '
                           'pair), before the next lead": not before the first lead'),
    "tute_blocked_by_earlier_cante": ('seed 002 (tl): «Hindi maaaring ianunsyo ang tute kung mayroon nang ibang '
                                      'deklarasyon na naisagawa nang mas maaga» — "tute cannot be announced if another '
                                      'declaration was made earlier"'),
    "tute_effect": 'seed 002 (tl): «na nagwawagi ng laro ng awtomatiko» — "which wins the game automatically"',
    "tute_match_points": 'rules.md §4: not used: a tute "wins the match at once" (tute_effect is win_match)',
    "tute_wins_match_below_target": 'rules.md §4: not used: a tute "wins the match at once" whatever the target',
    "last_trick_bonus": ('seed 002 (tl): «tumatanggap ng karagdagang 10 puntos, na tinatawag na “the last ten”» — '
                         '"receives an extra 10 points, called the last ten"'),
    "deal_points": ('seed 002 (tl): «Ang manlalaro o koponan na nag-iipon ng pinakamaraming puntos sa isang round … ay '
                    'ang nagwagi ng nasabing round» — "the player or team with the most points in a round wins that round"'),
    "double_threshold": ('seed 002 (tl): «Kung lumampas sa 120 puntos, ang manlalaro o koponan na nakamit ito ay '
                         'makakuha ng dalawang laro» — "over 120 points, that player or team gets two games"'),
    "double_basis": ('rules.md §4 (decision on what counts): "More than 120 points of cards plus last ten '
                     '(declarations not counted) wins two games"'),
    "double_points": 'seed 002 (tl): «ay makakuha ng dalawang laro» — "gets two games"',
    "match_target": ('seed 002 (tl): «Kung walang napagkasunduan, ang laro ay nilalaro sa isang round lamang» — '
                     '"if nothing was agreed, the game is played to one round"'),
    "match_target_choices": ('seed 002 (tl): «isang napagkasunduang bilang ng mga rounds, na itinakda bago magsimula '
                             'ang laro» — "an agreed number of rounds, set before the game starts": any number'),
}

SOURCES: dict[str, dict[str, str]] = {
    "ludoteka-pairs": {
        "players": ('seed 000 (fr): «Si on joue entre 4 personnes il est joué en couples» — '
                    '"with 4 people it is played in pairs"'),
        "partnerships": ('seed 000 (fr): «Les points d´une main seront décomptés par couples» — '
                         '"the points of a deal are counted by pairs"'),
        "removed_ranks": ('seed 000 (fr): «formé de 4 séries de dix cartes» — "made of 4 suits of ten cards": '
                          'the 40-card pack, nothing removed'),
        "hand_size": ('seed 000 (fr): «il distribuera toutes les cartes du talon entre les quatre joueurs une à une» — '
                      '"he deals all the cards among the four players one at a time": 40 / 4 = 10'),
        "trump_card": ('seed 000 (fr): «il devra retourner et montrer la dernière avant de la garder pour soi: cette '
                       'carte donne la couleur de l´atout» — "he turns and shows the last card, then keeps it: it gives trump"'),
        "first_deal_trump": ('seed 000 (fr): «Exceptionnellement à la première main la couleur de l´atout c´est l´or» — '
                             '"exceptionally, in the first deal trump is oros"'),
        "first_deal_leader_card": ('seed 000 (fr): «et le joueur qui a le 2 d´or a la main» — '
                                   '"and the player who holds the 2 of oros leads"'),
        "free_play_while_stock": _NO_STOCK,
        "must_follow": ('seed 000 (fr): «il sera obligé de fournir une carte de cette couleur-là» — '
                        '"he must play a card of that suit"'),
        "must_beat": 'seed 000 (fr): «et s´il pet, il devra monter» — "and if he can, he must play higher"',
        "beat_waived_when_trumped": ('rules.md §1 (decision for ludoteka-pairs; explicit in the Tagalog text): once a '
                                    'non-trump lead is trumped, any card of the led suit will do'),
        "must_trump": ('seed 000 (fr): «il devra couper (jouer de l´atout) s´il monte celui ou ceux joués au paravent» — '
                       '"he must trump if he beats the trump(s) played before"'),
        "must_overtrump": ('seed 000 (fr): «il devra couper (jouer de l´atout) s´il monte celui ou ceux joués au '
                           'paravent» — "he must trump if he beats the trump(s) played before"'),
        "must_undertrump": ('seed 000 (fr): «ni pour couper en montant celles jouées au paravent, il poura alors jouer la '
                            'carte qu´il préfère» — "nor trump higher than those played, he may play any card he likes"'),
        "partner_winning_exempts": _NO_PARTNER_EXEMPTION,
        "exchange_seven": ('rules.md §2: no exchange; seed 000 names none, and the turned card stays in the '
                           'dealer\'s hand'),
        "exchange_seven_for": 'rules.md §2: no exchange (exchange_seven is false)',
        "exchange_two": ('rules.md §2: no exchange; seed 000 names none, and the turned card stays in the '
                         'dealer\'s hand'),
        "exchange_two_for": 'rules.md §2: no exchange (exchange_two is false)',
        "exchange_at_first_lead": 'rules.md §2: no exchange at any time',
        "cante_points": ('seed 000 (fr): «chanter les 20 (s´il s´agit d u roi et du cheval de n´importe quelle '
                         'couleur)» — "sing the 20 (rey and caballo of any suit)"'),
        "cuarenta_points": ('seed 000 (fr): «chanter les 40 (s´il s´agit du roi et du cheval de la couleur de '
                            'l´atout)» — "sing the 40 (rey and caballo of the trump suit)"'),
        "cantes_per_trick": ('rules.md §2 (decision): at most two cantes after any won trick; seed 000 (fr): '
                             '«deux canticos simultanés par couple maximum» — "two at once per pair at most" for the first'),
        "forty_first": 'seed 000 (fr): «il devra chanter 40 avant 20» — "he must sing 40 before 20"',
        "cante_only_if_sung_at_first_win": ('seed 000 (fr): «Le premier cantico devra être fait par les joueurs d´un '
                                            'couple inmédiatement après d´emporter le premier pli» — "a pair\'s first '
                                            'cante must come right after it wins its first trick"'),
        "forfeit_unsung_cantes": ('seed 000 (fr): «S´ils avaient encore des canticos à faire ils devront le faire dans '
                                  'les plis suivants qu´ils emportent» — "further cantes are made after the later '
                                  'tricks they win": none is lost'),
        "declare_only_after_draw": _NO_DRAW,
        "no_declare_with_last_drawn": _NO_DRAW,
        "tute_at_first_lead": ('seed 000 (fr): «il pourra chanter TUTE aprés avoir emporté le premier pli du couple» — '
                               '"he may sing TUTE after the pair has won its first trick": not before the first lead'),
        "tute_blocked_by_earlier_cante": ('rules.md §2: tute "right after any trick won by the pair (not only the '
                                          'first)"; seed 000 sets no bar after a cante'),
        "tute_effect": ('seed 000 (fr): «au cas contraire on obtient deux points» — "otherwise one gets two points": '
                        'the deal is won (the match only below 5, see tute_wins_match_below_target)'),
        "tute_match_points": 'seed 000 (fr): «au cas contraire on obtient deux points» — "otherwise one gets two points"',
        "tute_wins_match_below_target": ('seed 000 (fr): «lorsque la partie est jouée à emporter moins de 5 points, qui '
                                         'chante Tute emporte la partie directement» — "in a match to fewer than 5 '
                                         'points, whoever sings Tute wins the match outright"'),
        "last_trick_bonus": ('seed 000 (fr): «Le couple qui enporte le dernier pli d´une main additionnera 10 points» — '
                             '"the pair that wins the last trick of a deal adds 10 points"'),
        "deal_points": ('seed 000 (fr): «Le couple qui obtiendra le plus grand nombre de points dans une main … on le '
                        'leur asignera un point» — "the pair with the most points in a deal is given one point"'),
        "double_threshold": ('seed 000 (fr): «S´ils avaint dépassé les 100 points dans la main, on le leur asignera deux '
                             'points» — "if they passed 100 points in the deal, they are given two points"'),
        "double_basis": ('rules.md §2: "A winner whose total is over 100 scores 2 points", cantes included; seed 000 '
                         '(fr): «dépassé les 100 points dans la main» — "passed 100 points in the deal"'),
        "double_points": ('seed 000 (fr): «S´ils avaint dépassé les 100 points dans la main, on le leur asignera deux '
                          'points» — "if they passed 100 points in the deal, they are given two points"'),
        "match_target": ('rules.md §2: "to 2, 4, 6 or 8 points, chosen before the start (a tag of the record)"; '
                         'the default 4 is the preset\'s choice, stated by neither text'),
        "match_target_choices": ('seed 000 (fr): «gagner 2, 4, 6 ou 8 points» — "win 2, 4, 6 or 8 points"'),
    },
    "playcard-2p": {
        "players": ('seed 001 (sv): «den klassiska versionen är för två, med åtta kort var — den som det här bordet '
                    'delar ut» — "the classic version is for two, eight cards each: the one this table deals"'),
        "partnerships": ('seed 001 (sv): «Det här bordet delar ut tute för två» — "this table deals tute for two": '
                         'no partners'),
        "removed_ranks": 'seed 001 (sv): «Fyrtio kort: en spansk kortlek» — "forty cards: a Spanish pack"',
        "hand_size": 'seed 001 (sv): «den klassiska versionen är för två, med åtta kort var» — "for two, eight cards each"',
        "trump_card": ('seed 001 (sv): «Efter given vänds ett kort upp under högen, och dess färg är trumf … Det uppvända '
                       'kortet dras sist» — "a card is turned up under the stock; its suit is trump … it is drawn last"'),
        "first_deal_trump": ('seed 001 (sv): «Efter given vänds ett kort upp under högen, och dess färg är trumf» — '
                             '"after the deal a card is turned up under the stock, and its suit is trump": every deal'),
        "first_deal_leader_card": 'rules.md §3 (decision): the non-dealer (mano) leads the first trick',
        "free_play_while_stock": ('seed 001 (sv): «Inte så länge det finns en hög att dra från: du får spela vilket kort '
                                  'du vill» — "not while there is a stock to draw from: you may play any card"'),
        "must_follow": _SV_DUTIES,
        "must_beat": _SV_DUTIES,
        "beat_waived_when_trumped": "rules.md §1: shared" + _TWO_PLAYER_TRICK,
        "must_trump": _SV_DUTIES,
        "must_overtrump": ('seed 001 (sv): «kan du inte bekänna måste du trumfa» — "if you cannot follow you must '
                           'trump"; with two players no trump is in the trick yet, so any trump beats it'),
        "must_undertrump": ('rules.md §1: shared (no duty to play a trump that cannot win); never applies with '
                            'two players'),
        "partner_winning_exempts": _NO_PARTNER_EXEMPTION + "; no partners with two players",
        "exchange_seven": _SV_EXCHANGE,
        "exchange_seven_for": ('seed 001 (sv): «byta den mot det kortet» — "exchange it for that card": '
                               'whatever the turned card is'),
        "exchange_two": 'rules.md §3: "There is no exchange of the 2"; seed 001 (sv) names only «trumfsjuan» — "the 7 of trump"',
        "exchange_two_for": 'rules.md §3: "There is no exchange of the 2"',
        "exchange_at_first_lead": ('rules.md §3: on lead "(the first lead of the deal included)"; seed 001 (sv): «när den '
                                   'har utspelet» — "when they are on lead"'),
        "cante_points": _SV_CANTE,
        "cuarenta_points": _SV_CANTE,
        "cantes_per_trick": 'rules.md §3 (decision: the text is silent): one cante per won trick',
        "forty_first": 'rules.md §3 (decision: the text is silent): 40 before 20',
        "cante_only_if_sung_at_first_win": _SV_CANTE_WHEN,
        "forfeit_unsung_cantes": _SV_CANTE_WHEN,
        "declare_only_after_draw": ('rules.md §3 (decision: the text is silent): cantes stay allowed after the stock '
                                    'is exhausted'),
        "no_declare_with_last_drawn": ('rules.md §3 (decision: the text is silent): cantes stay allowed after the '
                                       'stock is exhausted, with any card'),
        "tute_at_first_lead": ('seed 001 (sv): «Anmäl det när du har utspelet så vinner du given direkt» — '
                               '"announce it when you are on lead and you win the deal at once"'),
        "tute_blocked_by_earlier_cante": ('seed 001 (sv): «så vinner du given direkt, hur ställningen än ser ut» — '
                                          '"and you win the deal at once, whatever the score": no bar after a cante'),
        "tute_effect": ('seed 001 (sv): «så vinner du given direkt, hur ställningen än ser ut» — '
                        '"and you win the deal at once, whatever the score"'),
        "tute_match_points": _SV_DEAL_POINT,
        "tute_wins_match_below_target": _SV_DEAL_POINT + ": a tute wins one deal, never the match",
        "last_trick_bonus": ('seed 001 (sv): «Med tio för sista sticket rymmer en giv 130 poäng» — '
                             '"with ten for the last trick a deal holds 130 points"'),
        "deal_points": _SV_DEAL_POINT,
        "double_threshold": _SV_DEAL_POINT + ": no doubled deals",
        "double_basis": 'rules.md §3: not used: "Every deal is worth 1 match point" (double_threshold is none)',
        "double_points": 'rules.md §3: not used: "Every deal is worth 1 match point" (double_threshold is none)',
        "match_target": ('rules.md §3: "the match goes to 3, 5 or 7 won deals"; the default 3 is the preset\'s '
                         'choice, stated by neither text'),
        "match_target_choices": ('seed 001 (sv): «värden väljer om matchen går till tre, fem eller sju vunna givar» — '
                                 '"the host chooses whether the match goes to three, five or seven won deals"'),
    },
    "torofun-2p": {
        **_TOROFUN,
        "players": _TL_2P,
        "partnerships": _TL_2P + ": each plays alone",
        "removed_ranks": _TL_DECK,
        "hand_size": _TL_2P,
        "trump_card": ('rules.md §4: "the turned card under it shows trump and is drawn last"; seed 002 (tl): «Kapag ang '
                       'trump card ay isang ace … maaaring palitan ito» — "when the trump card is an ace … it may be exchanged"'),
        "free_play_while_stock": ('seed 002 (tl): «Hanggang may mga baraha sa deck … Ang kalaban ay maaaring maglaro ng '
                                  'anumang baraha» — "while there are cards in the deck … the opponent may play any card"'),
        "beat_waived_when_trumped": ('seed 002 (tl): «ang susunod na manlalaro ay maaaring maglaro ng anumang baraha ng '
                                     'starting suit» — "the next may play any card of the suit led"' + _TWO_PLAYER_TRICK),
        "must_overtrump": _TOROFUN["must_overtrump"] + "; with two players no trump is in the trick yet",
        "must_undertrump": _TOROFUN["must_undertrump"] + "; never applies with two players",
        "partner_winning_exempts": _NO_PARTNER_EXEMPTION + "; no partners with two players",
        "exchange_seven": ('seed 002 (tl): «ang manlalaro na may 7 ng parehong suit ay maaaring palitan ito» — '
                           '"the player holding the 7 of the same suit may exchange it"'),
        "exchange_seven_for": ('seed 002 (tl): «Kapag ang trump card ay isang ace, three, king, knight o jack» — '
                               '"when the trump card is an ace, three, king, knight or jack"'),
        "exchange_two": ('seed 002 (tl): «Maaari ring palitan ang 7, 6, 5 o 4 para sa 2 ng parehong suit» — '
                         '"a 7, 6, 5 or 4 may also be exchanged for the 2 of the same suit"'),
        "exchange_two_for": ('seed 002 (tl): «Maaari ring palitan ang 7, 6, 5 o 4 para sa 2 ng parehong suit» — '
                             '"a 7, 6, 5 or 4 may also be exchanged for the 2 of the same suit"'),
        "exchange_at_first_lead": ('seed 002 (tl): «Ang operasyon na ito ay maaari lamang isagawa hanggang sa manalo ng '
                                   'trick» — "this may only be done upon winning a trick"; rules.md §4: only by the last trick\'s winner'),
        "declare_only_after_draw": ('seed 002 (tl): «Ang mga deklarasyon ay maaari lamang isagawa hangga\'t may mga baraha '
                                    'sa deck» — "declarations may only be made while there are cards in the deck"'),
        "no_declare_with_last_drawn": ('seed 002 (tl): «hangga\'t ang knight o king ay hindi ang huling barahang '
                                       'nakuha» — "as long as the knight or king is not the last card drawn"'),
    },
    "torofun-3p": {
        **_TOROFUN,
        "players": _TL_3P,
        "partnerships": 'rules.md §4: "played individually" (pairs need 4 players)',
        "removed_ranks": _TL_3P,
        "hand_size": _TL_3P,
        "trump_card": ('seed 002 (tl): «Ang huling barahang ibinigay ay ang magmamarka ng trump» — '
                       '"the last card dealt marks trump"; it stays in the dealer\'s hand'),
        "partner_winning_exempts": _NO_PARTNER_EXEMPTION + "; no partners with three players",
    },
    "torofun-4p": {
        **_TOROFUN,
        "players": _TL_4P,
        "partnerships": ('seed 002 (tl): «dalawang pares ang nabuo (isang manlalaro sa harap ng isa pa)» — '
                         '"two pairs are formed (one player facing the other)"'),
        "removed_ranks": _TL_4P,
        "hand_size": _TL_4P,
        "trump_card": ('seed 002 (tl): «10 baraha ang ibinibigay sa bawat manlalaro, at ang huling baraha ay nagbubunyag '
                       'ng trump suit» — "10 cards are dealt to each player, and the last card reveals the trump suit"'),
        "declare_only_after_draw": ('seed 002 (tl): «Ang mga deklarasyon ay katulad ng sa dalawang manlalaro na mode» — '
                                    '"declarations are as in 2-player mode"; rules.md §4: no stock, so no draw rule'),
        "no_declare_with_last_drawn": ('seed 002 (tl): «Ang mga deklarasyon ay katulad ng sa dalawang manlalaro na '
                                       'mode» — "as in 2-player mode"; rules.md §4: no stock, so no last draw'),
    },
}
"""Per preset, per option: the citation.  Options not listed fall back to :data:`SHARED`."""


def source_of(preset: str, option: str) -> str:
    """The citation behind one preset value."""
    return SOURCES.get(preset, {}).get(option, SHARED)
