/* Spanish-pack card faces as SVG strings.
 *
 * cardSVG("12O") gives the rey de oros, backSVG() a face-down card.  Both are
 * pure functions returning markup for a 60x90 viewBox; CSS sets the size.
 * A card code is a rank (1-7, 10 sota, 11 caballo, 12 rey) then a suit letter:
 * O oros, C copas, E espadas, B bastos.
 */
(function (root) {
  "use strict";

  var SUITS = {
    O: { name: "oros", color: "#a87900", ink: "#7a5700" },
    C: { name: "copas", color: "#c62828", ink: "#7f1010" },
    E: { name: "espadas", color: "#1565c0", ink: "#0d3c85" },
    B: { name: "bastos", color: "#2e7d32", ink: "#1b4d1e" }
  };
  var RANK_NAMES = { 1: "as", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete",
                     10: "sota", 11: "caballo", 12: "rey" };
  var FIGURE_LETTERS = { 10: "S", 11: "C", 12: "R" };

  function parse(code) {
    var m = /^(1[0-2]|[1-7])([OCEB])$/.exec(String(code || "").toUpperCase());
    return m ? { rank: parseInt(m[1], 10), suit: m[2] } : null;
  }

  /* One suit symbol, drawn in a box about 20 wide and 30 tall around (0, 0). */
  function suitShape(suit) {
    var s = SUITS[suit];
    switch (suit) {
      case "O":  // a gold coin
        return '<circle r="9" fill="#e8b923" stroke="' + s.ink + '" stroke-width="1.3"/>' +
               '<circle r="5.6" fill="#f6d55c" stroke="' + s.ink + '" stroke-width="0.9"/>' +
               '<circle r="2" fill="' + s.ink + '"/>';
      case "C":  // a cup: rim, bowl, stem and foot
        return '<path d="M-8,-9 L8,-9 C8,-1 4.5,2.5 1.6,3.4 L1.6,7.5 L5.5,9.6 L5.5,11.5 L-5.5,11.5 L-5.5,9.6 ' +
               'L-1.6,7.5 L-1.6,3.4 C-4.5,2.5 -8,-1 -8,-9 Z" fill="' + s.color + '" stroke="' + s.ink +
               '" stroke-width="0.9" stroke-linejoin="round"/>' +
               '<ellipse cy="-9" rx="8" ry="2.2" fill="#ef9a9a" stroke="' + s.ink + '" stroke-width="0.9"/>';
      case "E":  // a sword, point up
        return '<path d="M0,-15 L2.4,-11 L2.4,5.5 L-2.4,5.5 L-2.4,-11 Z" fill="#bbdefb" stroke="' + s.ink +
               '" stroke-width="0.9" stroke-linejoin="round"/>' +
               '<line x1="0" y1="-11" x2="0" y2="4.5" stroke="' + s.color + '" stroke-width="0.8"/>' +
               '<rect x="-7.5" y="5.5" width="15" height="2.6" rx="1.2" fill="' + s.color + '" stroke="' +
               s.ink + '" stroke-width="0.6"/>' +
               '<rect x="-1.5" y="8.1" width="3" height="5" fill="' + s.ink + '"/>' +
               '<circle cy="14.6" r="1.9" fill="' + s.color + '" stroke="' + s.ink + '" stroke-width="0.6"/>';
      case "B":  // a knotty club, thick end up
        return '<g transform="rotate(-18)">' +
               '<path d="M-1.8,14 C-3,6 -5.6,-4 -5,-10 C-4.4,-15.5 4.4,-15.5 5,-10 C5.6,-4 3,6 1.8,14 Z" ' +
               'fill="#66bb6a" stroke="' + s.ink + '" stroke-width="1" stroke-linejoin="round"/>' +
               '<circle cx="-4.6" cy="-3.5" r="1.4" fill="' + s.ink + '"/>' +
               '<circle cx="4.4" cy="1" r="1.3" fill="' + s.ink + '"/>' +
               '<circle cx="-3" cy="6" r="1.1" fill="' + s.ink + '"/>' +
               '<circle cx="1" cy="-9" r="1.2" fill="' + s.ink + '"/></g>';
    }
    return "";
  }

  function place(suit, x, y, scale) {
    return '<g transform="translate(' + x + ' ' + y + ') scale(' + scale + ')">' + suitShape(suit) + "</g>";
  }

  /* Where the pips of a number card go (x, y in the 60x90 card) and how large, as Spanish packs lay them out:
   * one large emblem for the as, then columns of two. */
  var PIPS = {
    1: [[30, 50, 1.5]],
    2: [[33, 28, 0.62], [33, 70, 0.62]],
    3: [[33, 24, 0.55], [33, 48, 0.55], [33, 72, 0.55]],
    4: [[23, 28, 0.55], [43, 28, 0.55], [23, 70, 0.55], [43, 70, 0.55]],
    5: [[23, 26, 0.5], [43, 26, 0.5], [33, 49, 0.5], [23, 72, 0.5], [43, 72, 0.5]],
    6: [[23, 24, 0.48], [43, 24, 0.48], [23, 48, 0.48], [43, 48, 0.48], [23, 72, 0.48], [43, 72, 0.48]],
    7: [[23, 22, 0.45], [43, 22, 0.45], [33, 36, 0.45], [23, 50, 0.45], [43, 50, 0.45], [23, 73, 0.45], [43, 73, 0.45]]
  };

  /* A figure (sota, caballo, rey) in the suit's colours, standing in the card's middle and holding the suit's
   * emblem: the rey crowned and robed, the caballo a rider on a horse, the sota a page in a short tunic. */
  function figure(rank, suit) {
    var s = SUITS[suit], skin = "#f3d2b0", line = ' stroke="#3b2a1a" stroke-width="0.8" stroke-linejoin="round"';
    var out = "";
    if (rank === 12) {  // rey: crown, beard, long robe and cape
      out += '<path d="M22,80 L25,46 Q33,40 41,46 L44,80 Z" fill="' + s.color + '"' + line + "/>" +
             '<path d="M25,46 Q33,52 41,46 L42,58 Q33,62 24,58 Z" fill="#f6d55c"' + line + "/>" +
             '<rect x="31" y="58" width="4" height="22" fill="#fff3c4" opacity="0.8"/>' +
             '<circle cx="33" cy="35" r="6" fill="' + skin + '"' + line + "/>" +
             '<path d="M27.5,37 Q33,47 38.5,37 Q33,41 27.5,37 Z" fill="#8d6e63"' + line + "/>" +
             '<path d="M26.5,30 L27.5,22 L30.5,26 L33,20 L35.5,26 L38.5,22 L39.5,30 Z" fill="#e8b923"' + line + "/>";
      out += place(suit, 47, 52, 0.42);
    } else if (rank === 11) {  // caballo: a horse with its rider
      out += '<path d="M16,60 Q18,50 30,50 L42,50 Q47,44 50,38 L54,40 L52,46 Q50,52 46,56 L46,62 Q40,66 30,65 ' +
             'Q20,66 16,60 Z" fill="#d7ccc8"' + line + "/>" +
             '<path d="M20,63 L18,80 M25,65 L25,80 M40,64 L42,80 M45,60 L48,79" stroke="#3b2a1a" stroke-width="2.2" ' +
             'stroke-linecap="round" fill="none"/>' +
             '<path d="M16,58 Q11,62 12,72" stroke="#5d4037" stroke-width="2" fill="none"/>' +
             '<path d="M27,50 L29,36 Q33,32 37,36 L38,50 Z" fill="' + s.color + '"' + line + "/>" +
             '<path d="M30,50 L32,60" stroke="' + s.ink + '" stroke-width="2.4" stroke-linecap="round"/>' +
             '<circle cx="33" cy="29" r="5" fill="' + skin + '"' + line + "/>" +
             '<path d="M27.5,27 Q33,18 38.5,27 Z" fill="' + s.ink + '"/>';
      out += place(suit, 44, 26, 0.38);
    } else {  // sota: a page in a short tunic, hat and hose
      out += '<path d="M27,64 L26,80 M39,64 L40,80" stroke="' + s.ink + '" stroke-width="3.2" stroke-linecap="round"/>' +
             '<path d="M24,66 L26,44 Q33,39 40,44 L42,66 Z" fill="' + s.color + '"' + line + "/>" +
             '<path d="M26,52 L40,52" stroke="#f6d55c" stroke-width="2"/>' +
             '<circle cx="33" cy="34" r="5.6" fill="' + skin + '"' + line + "/>" +
             '<path d="M26,31 Q33,22 40,31 L43,30 Q36,25 33,25 Z" fill="' + s.ink + '"/>' +
             '<path d="M39,24 Q44,18 46,21" stroke="#e8b923" stroke-width="1.4" fill="none"/>';
      out += place(suit, 47, 56, 0.4);
    }
    return out;
  }

  /* The face of a card as an SVG string; an unknown code gives a blank card with the code written on it. */
  function cardSVG(code) {
    var c = parse(code);
    var open = '<svg class="card" viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" role="img" ';
    var frame = '<rect x="1" y="1" width="58" height="88" rx="6" fill="#fffdf6" stroke="#9e9481" stroke-width="1.2"/>';
    if (!c) {
      return open + 'aria-label="' + String(code).replace(/[<>&"]/g, "") + '" data-card="' +
             String(code).replace(/[<>&"]/g, "") + '">' + frame +
             '<text x="30" y="50" text-anchor="middle" font-size="12" fill="#555">?</text></svg>';
    }
    var s = SUITS[c.suit];
    var name = RANK_NAMES[c.rank] + " de " + s.name;
    var out = open + 'aria-label="' + name + '" data-card="' + c.rank + c.suit + '"><title>' + name + "</title>" + frame;
    // Spanish packs mark the suit with breaks in the border (pintas): none for oros, one for copas, two for
    // espadas, three for bastos.
    var breaks = { O: 0, C: 1, E: 2, B: 3 }[c.suit];
    out += '<rect x="4.5" y="4.5" width="51" height="81" rx="3.5" fill="none" stroke="' + s.color +
           '" stroke-width="0.9"' + (breaks ? ' stroke-dasharray="' + (breaks === 1 ? "60 4" : breaks === 2 ? "28 3 3 3" : "20 2.5 2.5 2.5 2.5 2.5") + '"' : "") +
           ' opacity="0.7"/>';
    // The corner indexes, top left and bottom right: they stay visible when cards overlap.
    var size = c.rank >= 10 ? 13 : 16;
    out += '<text x="6.5" y="19" font-family="Arial, Helvetica, sans-serif" font-weight="700" font-size="' + size +
           '" letter-spacing="-0.8" fill="' + s.ink + '">' + c.rank + "</text>" + place(c.suit, 11.5, 28, 0.34) +
           '<text x="53.5" y="83" text-anchor="end" font-family="Arial, Helvetica, sans-serif" font-weight="700" font-size="' +
           (size - 4) + '" fill="' + s.ink + '" opacity="0.8">' + c.rank + "</text>";
    if (FIGURE_LETTERS[c.rank]) {
      out += figure(c.rank, c.suit);
    } else {
      out += PIPS[c.rank].map(function (p) { return place(c.suit, p[0], p[1], p[2]); }).join("");
    }
    return out + "</svg>";
  }

  /* A face-down card. */
  function backSVG() {
    var out = '<svg class="card back" viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" role="img" ' +
              'aria-label="' + t("face-down card") + '"><rect x="1" y="1" width="58" height="88" rx="6" fill="#fffdf6" ' +
              'stroke="#9e9481" stroke-width="1.2"/><rect x="5" y="5" width="50" height="80" rx="3" fill="#8e2424"/>';
    for (var i = 0; i < 5; i++) {   // a lattice of diamonds
      for (var j = 0; j < 8; j++) {
        var cx = 10 + i * 10, cy = 10 + j * 10;
        out += '<path d="M' + cx + "," + (cy - 4) + " L" + (cx + 4) + "," + cy + " L" + cx + "," + (cy + 4) + " L" +
               (cx - 4) + "," + cy + ' Z" fill="#b23a3a"/>';
      }
    }
    out += '<ellipse cx="30" cy="45" rx="12" ry="17" fill="#8e2424" stroke="#e8c25a" stroke-width="1.5"/>' +
           '<text x="30" y="50" text-anchor="middle" font-family="Georgia, serif" font-weight="700" font-size="13" ' +
           'fill="#e8c25a">T</text></svg>';
    return out;
  }

  /* Cards, suits and seats as a sentence names them in the page's language: the same words as the library's
   * tutepgn/words.py (Spanish: "el caballo de copas", "bastos", "Norte", "Norte-Sur"; English names the suits and
   * keeps the notation for cards and seats).  The seats' words come with the catalogue (/i18n/<lang>.js sets
   * TUTE_SEAT_WORDS from tutepgn.words.SEAT_WORDS): none in English. */
  function seatTable() { return root.TUTE_SEAT_WORDS || {}; }
  function inWords() { return Object.keys(seatTable()).length > 0; }
  function suitWords(letter) { return SUITS[letter] ? SUITS[letter].name : letter; }
  function cardWords(code) {
    var c = parse(code);
    if (!c || !inWords()) return code;
    var name = c.rank === 1 || c.rank >= 10 ? RANK_NAMES[c.rank] : String(c.rank);
    return (c.rank === 10 ? "la " : "el ") + name + " de " + SUITS[c.suit].name;
  }
  function seatWords(seat) {
    var words = seatTable(), text = String(seat || "");
    if (!inWords() || !text || text.split("").some(function (ch) { return !words[ch]; })) return text;
    return text.split("").map(function (ch) { return words[ch]; }).join("-");
  }

  /* A value per side as notation writes it (a MatchScore: "NS:0 WE:2") as a sentence says it: "Norte-Sur 0, Oeste-Este 2"
   * where seats are said in words; as written otherwise. */
  function standingWords(text) {
    var standing = String(text || "");
    if (!inWords()) return standing;
    var parts = standing.trim().split(/\s+/).map(function (part) {
      var m = /^([NSWE]+):(-?\d+)$/.exec(part);
      return m ? seatWords(m[1]) + " " + m[2] : null;
    });
    return parts.length && parts.every(Boolean) ? parts.join(", ") : standing;
  }

  var api = { cardWords: cardWords, suitWords: suitWords, seatWords: seatWords, standingWords: standingWords, cardSVG: cardSVG, backSVG: backSVG, suitSVG: function (suit, size) {
    var s = SUITS[suit];
    if (!s) return "";
    return '<svg class="suit" viewBox="-11 -16 22 32" width="' + (size || 14) + '" height="' + (size || 14) * 32 / 22 +
           '" role="img" aria-label="' + s.name + '">' + suitShape(suit) + "</svg>";
  }, SUITS: SUITS, parse: parse };
  root.TuteCards = api;
  root.cardSVG = cardSVG;
  root.backSVG = backSVG;
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : this);
