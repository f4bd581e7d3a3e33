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

  /* The face of a card as an SVG string; an unknown code gives a blank card with the code written on it. */
  function cardSVG(code) {
    var c = parse(code);
    var open = '<svg class="card" viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" role="img" ';
    var frame = '<rect x="1" y="1" width="58" height="88" rx="6" fill="#fffdf6" stroke="#9e9481" stroke-width="1.2"/>';
    if (!c) {
      return open + 'aria-label="' + String(code) + '" data-card="' + String(code) + '">' + frame +
             '<text x="30" y="50" text-anchor="middle" font-size="12" fill="#555">?</text></svg>';
    }
    var s = SUITS[c.suit];
    var name = RANK_NAMES[c.rank] + " de " + s.name;
    var figure = FIGURE_LETTERS[c.rank];
    var out = open + 'aria-label="' + name + '" data-card="' + c.rank + c.suit + '"><title>' + name + "</title>" + frame;
    // Spanish packs mark the suit with breaks in the border (pintas): a coloured inner line here.
    out += '<rect x="4.5" y="4.5" width="51" height="81" rx="3.5" fill="none" stroke="' + s.color +
           '" stroke-width="0.7" opacity="0.55"/>';
    // The corner index: rank, figure letter, small suit.  It stays visible when cards overlap.
    out += '<text x="6.5" y="19" font-family="Arial, Helvetica, sans-serif" font-weight="700" font-size="' +
           (c.rank >= 10 ? 14 : 16) + '" letter-spacing="-0.6" fill="' + s.ink + '">' + c.rank + "</text>";
    var y = 28;
    if (figure) {
      out += '<text x="7" y="29" font-family="Arial, Helvetica, sans-serif" font-weight="700" font-size="10" fill="' +
             s.color + '">' + figure + "</text>";
      y = 39;
    }
    out += place(c.suit, 12, y, 0.42);
    if (figure) {
      // A figure: a framed panel with the suit and the figure's letter.
      out += '<rect x="22" y="12" width="30" height="66" rx="3" fill="' + s.color + '" fill-opacity="0.09" stroke="' +
             s.color + '" stroke-width="0.9"/>' +
             '<text x="37" y="31" text-anchor="middle" font-family="Georgia, serif" font-weight="700" font-size="15" fill="' +
             s.ink + '">' + figure + "</text>" + place(c.suit, 37, 56, 0.95);
    } else {
      out += place(c.suit, 36, 52, 1.15);
    }
    return out + "</svg>";
  }

  /* A face-down card. */
  function backSVG() {
    var out = '<svg class="card back" viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" role="img" ' +
              'aria-label="face-down card"><rect x="1" y="1" width="58" height="88" rx="6" fill="#fffdf6" ' +
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

  var api = { cardSVG: cardSVG, backSVG: backSVG, suitSVG: function (suit, size) {
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
