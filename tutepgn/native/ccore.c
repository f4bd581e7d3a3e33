/* The double-dummy search of tutepgn in C: the same algorithm as tutepgn/analysis/alphabeta.py, line for line.
 *
 * A Table object owns the transposition table (no global state: one per solver, so threads and worker
 * processes never share one).  Table.search(packed, alpha, beta, only) reads a position packed by
 * tutepgn.analysis.position.Position.packed (layout: layout.h's P_*, generated from tutepgn/native/layout.py)
 * and returns the fail-soft value.  The game's masks, points and play duties are tute.h's, shared with creplay.c.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "tute.h"

#define UNKNOWN_HIGH (1 << 14)
#define ZERO_STRENGTHS 5
#define HUGE_PAGE ((size_t)2 << 20)
#define MAX_MOVES 40 /* a hand holds at most 40 cards in a packed position (12 in the presets) */

/* Constant tables, filled once at import (read-only afterwards). */
static unsigned char SQUEEZE[32][32], MERGE[32][32], SLACK[32][32];
static const u64 ZEROS = 31ULL | 31ULL << 10 | 31ULL << 20 | 31ULL << 30;

#define POINTS(c) CARD_POINTS[c]

typedef struct { /* 32 bytes: a bucket of two is one cache line */
    u64 k[3];
    int16_t low, high;
    int8_t best;
    uint8_t cards; /* cards left at the entry's trick start, 0 for an empty slot: the bigger subtree stays */
} Entry;

typedef struct {
    PyObject_HEAD
    Entry *entries; /* block itself, aligned to 64 bytes at least: buckets of two by the whole key, a ranked
                     * key's in the first half (other keys anywhere) */
    Entry *shapes;  /* the second half: buckets of SHAPE_WAYS by a ranked key's shape (the points left out) */
    void *block;
    u64 mask;
    long long nodes;
} Table;

typedef struct { /* what a play changes: saved and restored around each move */
    u64 hands[4];
    int leader, tlen, trick[4];
    int led, high_led, high_trump, winning;
    int sung, barred, won;
    int stock_pos; /* cards drawn from the stock so far */
    int pending;   /* cantes the side to lead may still choose in its open window, 0: none to choose */
} Dyn;

typedef struct {
    int n, trump, team, duties, side_of[4], sing, cante_points, cuarenta_points, limit, bonus, bar_silent;
    int lost[4], forty_first, only_after_draw, team_side;
    u64 blocked, blocked_last; /* cards no cante may use: given, and of the draw that empties the stock */
    int stock_len, free_play;
    Dyn d;
    Table *t;
    u64 stock_after[MAX_STOCK + 1]; /* stock_after[i]: the cards of stock[i:] */
    int stock[MAX_STOCK];           /* the stock, the next drawn first */
} State;

static void fill_tables(void) {
    for (int live = 0; live < 32; live++)
        for (int bits = 0; bits < 32; bits++) {
            int out = 0, k = 0, merged = 0, previous = 0;
            for (int i = 0; i < ZERO_STRENGTHS; i++) {
                if (!(live >> i & 1)) continue;
                int mine = bits >> i & 1;
                if (mine) out |= 1 << k;
                k++;
                if (mine && !previous) merged |= 1 << i;
                previous = mine;
            }
            SQUEEZE[live][bits] = (unsigned char)out;
            MERGE[live][bits] = (unsigned char)merged;
            int d = 0, a = live, b = bits; /* SLACK: the live point cards of a suit, a and b, matched from the top */
            while (a || b) {
                int pa = a ? CARD_POINTS[ZERO_STRENGTHS + 31 - __builtin_clz((unsigned)a)] : 0;
                int pb = b ? CARD_POINTS[ZERO_STRENGTHS + 31 - __builtin_clz((unsigned)b)] : 0;
                d += pa > pb ? pa - pb : pb - pa;
                if (a) a ^= 1 << (31 - __builtin_clz((unsigned)a));
                if (b) b ^= 1 << (31 - __builtin_clz((unsigned)b));
            }
            SLACK[live][bits] = (unsigned char)d;
        }
}

static u64 live_cards(const State *s) {
    u64 live = s->stock_after[s->d.stock_pos];
    for (int i = 0; i < s->n; i++) live |= s->d.hands[i];
    for (int i = 0; i < s->d.tlen; i++) live |= 1ULL << s->d.trick[i];
    return live;
}

/* The key at a trick start: the four canonical hands (40 bits each), the leader and either the cante state and
 * the cards drawn or (RANKED) the live point cards, packed into 3 words: h0 | h1 << 40, h1 >> 24 | h2 << 16,
 * h3 | leader << 40 | cantes << 42 | drawn << 54 or h3 | leader << 40 | points << 43 | RANKED (bit 63, which no
 * other key sets: the cante state's first bit, 42, once doubled as the flag, and keys with cantes were read
 * as shapes whose "points" were the cantes sung).  While the
 * stock has cards the hands are not squeezed; with the stock out and no cantes each suit's live cards are
 * squeezed to the bottom whatever their points (their ranks alone: the hands' shape), and the points, 5 bits a
 * suit (the live sota, caballo, rey, tres, as), say what the cards are worth.  A position whose key differs
 * only in the points is the same game, each card worth other points: its value differs by at most SLACK. */

#define SHAPE_WAYS 4
#define RANKED (1ULL << 63)
#define POINT_BITS (((1ULL << 20) - 1) << 43)

static void make_key(const State *s, u64 k[3]) {
    u64 live = live_cards(s), canon[4];
    int drawing = s->d.stock_pos < s->stock_len, ranked = !drawing && !s->sing;
    for (int i = 0; i < 4; i++) {
        u64 h = i < s->n ? s->d.hands[i] : 0, c = h & ~ZEROS;
        if (drawing) {
            canon[i] = h;
            continue;
        }
        if (ranked) c = 0;
        for (int suit = 0; suit < 4; suit++) {
            int shift = 10 * suit, low = (int)(live >> shift & 31);
            c |= (u64)SQUEEZE[low][h >> shift & 31] << shift;
            if (ranked)
                c |= (u64)SQUEEZE[live >> (shift + 5) & 31][h >> (shift + 5) & 31] << (shift + __builtin_popcount((unsigned)low));
        }
        canon[i] = c;
    }
    k[0] = canon[0] | canon[1] << 40;
    k[1] = canon[1] >> 24 | canon[2] << 16;
    k[2] = canon[3] | (u64)s->d.leader << 40;
    if (ranked) {
        u64 points = 0;
        for (int suit = 0; suit < 4; suit++) points |= (live >> (10 * suit + 5) & 31) << (5 * suit);
        k[2] |= RANKED | points << 43;
    } else {
        k[2] |= (u64)s->d.stock_pos << 54;
        if (s->sing) k[2] |= (u64)(s->d.sung | s->d.barred << 4 | s->d.won << 8) << 42;
    }
}

/* The most two ranked keys' values can differ by, from their live point cards (POINT_BITS of k[2]). */
static int slack(u64 a, u64 b) {
    int d = 0;
    for (int suit = 0; suit < 4; suit++) d += SLACK[a >> (43 + 5 * suit) & 31][b >> (43 + 5 * suit) & 31];
    return d;
}

static u64 mix(u64 x) { /* splitmix64's finaliser: every bit of x moves the low bits that pick a bucket */
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static u64 hash_key(const u64 k[3], u64 last) { /* last: the bits of k[2] hashed */
    return mix(k[0] * 0x9E3779B97F4A7C15ULL ^ k[1] * 0xC2B2AE3D27D4EB4FULL ^ (k[2] & last) * 0x165667B19E3779F9ULL);
}

/* The engine's play duties (tute.h's play_duty), with any card free while the stock lasts if the rules say so. */
static u64 legal_cards(const State *s, int seat) {
    const Dyn *d = &s->d;
    if (s->free_play && d->stock_pos < s->stock_len) return d->hands[seat];
    int w = d->winning;
    return play_duty(d->hands[seat], d->led, d->high_led, d->high_trump, s->trump,
                     w >= 0 && w != seat && s->side_of[w] == s->side_of[seat], s->duties);
}

/* The suits a side may sing now (tutepgn.analysis.cantes.singable), and in *forty, when the 40 is among them,
 * every singable suit of the seat that holds it. */
static int singable(const State *s, int side, int *forty) {
    const Dyn *d = &s->d;
    u64 blocked = s->blocked | (d->stock_pos == s->stock_len ? s->blocked_last : 0);
    int closed = d->sung | s->lost[side], suits = 0;
    *forty = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 pair = REY_CABALLO(suit);
        if ((closed >> suit & 1) || (blocked & pair)) continue;
        for (int seat = 0; seat < s->n; seat++)
            if (s->side_of[seat] == side && (d->hands[seat] & pair) == pair) { suits |= 1 << suit; break; }
    }
    if (suits >> s->trump & 1) {
        u64 pair = REY_CABALLO(s->trump);
        int holder = 0;
        while (s->side_of[holder] != side || (d->hands[holder] & pair) != pair) holder++;
        for (int suit = 0; suit < 4; suit++)
            if ((suits >> suit & 1) && (d->hands[holder] & REY_CABALLO(suit)) == REY_CABALLO(suit)) *forty |= 1 << suit;
    }
    return suits;
}

/* The maximal legal sets of cantes (tutepgn.analysis.cantes.cante_sets): min(limit, singable) suits each, those
 * with the 40 first, then by increasing mask; under forty_first a set without the 40 holds no suit of its holder. */
static int cante_sets(int suits, int forty, int trump, int limit, int forty_first, int sets[16]) {
    int k = __builtin_popcount((unsigned)suits), count = 0;
    if (limit < k) k = limit;
    for (int pass = 0; pass < 2; pass++)
        for (int m = 1; m < 16; m++) {
            if (__builtin_popcount((unsigned)m) != k || (m & ~suits) || (m >> trump & 1) != !pass) continue;
            if (pass && forty_first && (m & forty)) continue;
            sets[count++] = m;
        }
    return count;
}

static int set_points(const State *s, int suits) {
    int points = 0;
    for (int suit = 0; suit < 4; suit++)
        if (suits >> suit & 1) points += suit == s->trump ? s->cuarenta_points : s->cante_points;
    return points;
}

/* The declaration window of a side (its seats lead next), tutepgn.analysis.alphabeta.PythonSearch.window: the
 * fixed policy's cantes, or the side valued's when one set is legal (their points returned), or pending set. */
__attribute__((noinline)) static int window(State *s, int side, int drew, int remaining, int first_silent) {
    Dyn *d = &s->d;
    int suits = 0, forty, sets[16];
    if (remaining > 0 && !(d->barred >> side & 1) && !(s->only_after_draw && !drew))
        suits = singable(s, side, &forty);
    if (!suits) {
        if (s->bar_silent && first_silent) d->barred |= 1 << side;
        return 0;
    }
    int ours = side == s->team_side;
    if (__builtin_popcount((unsigned)suits) > remaining) {
        if (ours) { d->pending = remaining; return 0; }
        cante_sets(suits, 0, s->trump, remaining, 0, sets); /* the policy: its first set is legal */
        suits = sets[0];
    }
    d->sung |= suits;
    return ours ? set_points(s, suits) : 0;
}

static int play(State *s, int seat, int c) {
    Dyn *d = &s->d;
    d->hands[seat] ^= 1ULL << c;
    int suit = c / 10;
    if (d->tlen == 0) {
        d->led = suit; d->high_led = c; d->winning = seat;
        d->high_trump = suit == s->trump ? c : -1;
    } else if (suit == s->trump) {
        if (c > d->high_trump) { d->high_trump = c; d->winning = seat; }
    } else if (suit == d->led && c > d->high_led) {
        d->high_led = c;
        if (d->high_trump < 0) d->winning = seat;
    }
    d->trick[d->tlen++] = c;
    if (d->tlen < s->n) return 0;
    int w = d->winning, points = 0;
    for (int i = 0; i < s->n; i++) points += POINTS(d->trick[i]);
    int drew = d->stock_pos < s->stock_len, more = d->hands[w] != 0 || drew;
    if (!more) points += s->bonus;
    int gained = s->team >> w & 1 ? points : 0;
    int side = s->side_of[w];
    for (int i = 0; i < s->n && d->stock_pos < s->stock_len; i++) /* the draw, the winner first (Deal._draw) */
        d->hands[(w + i) % s->n] |= 1ULL << s->stock[d->stock_pos++];
    d->tlen = 0;
    d->leader = w;
    d->led = d->high_led = d->high_trump = d->winning = -1;
    if (s->sing && more) /* the window opens after the draw, on the hands it filled (Deal._finish_trick) */
        gained += window(s, side, drew, s->limit, !(d->won >> side & 1));
    d->won |= 1 << side;
    return gained;
}

static int card_points(u64 cards) {
    int points = 0;
    for (int strength = 5; strength < 10; strength++) {
        u64 m = (1ULL << strength) | (1ULL << (10 + strength)) | (1ULL << (20 + strength)) | (1ULL << (30 + strength));
        points += CARD_POINTS[strength] * __builtin_popcountll(cards & m);
    }
    return points;
}

/* The points the leader's side surely captures by leading, from the top, the leader's run of the highest live
 * cards of plain suits, with the stock empty and suits to be followed.  A round of suit s is sure while
 * every opponent holding a trump still has a card of s (so must follow and cannot beat); a partner who may
 * trump wins the round for the side but takes the lead, so the chain stops there.  Counted: the cards led
 * and, in each sure round, the cheapest card of s each other seat must follow with (for a seat without
 * trumps, which may have discarded cards of s in earlier rounds, only in the first suit run). */
static int quick_tricks(const State *s) {
    const Dyn *d = &s->d;
    if (d->stock_pos < s->stock_len || !(s->duties & DUTY_MUST_FOLLOW)) return 0;
    int L = d->leader, side = s->team >> L & 1, points = 0, first = 1;
    u64 trumps = SUIT_MASK(s->trump), live = 0;
    for (int i = 0; i < s->n; i++) live |= d->hands[i];
    for (int suit = 0; suit < 4; suit++) {
        if (suit == s->trump) continue;
        u64 sm = SUIT_MASK(suit), rest = live & sm, mine = d->hands[L] & sm, led = 0;
        int k = 0;
        while (rest) {
            int top = 63 - __builtin_clzll(rest);
            if (!(mine >> top & 1)) break;
            led |= 1ULL << top;
            rest ^= 1ULL << top;
            k++;
        }
        if (!k) continue;
        int rounds = k, stop = 0;
        for (int i = 1; i < s->n; i++) {
            int p = (L + i) % s->n, m = __builtin_popcountll(d->hands[p] & sm);
            if (!(d->hands[p] & trumps)) continue;
            if ((s->team >> p & 1) != side) { if (m < rounds) { rounds = m; stop = 0; } }
            else if (m + 1 <= rounds) { rounds = m + 1; stop = 1; }
        }
        if (!rounds) continue; /* no sure round of this suit: an opponent may trump the first */
        for (int j = 0; j < rounds; j++) { /* the leader's top cards, highest first */
            int top = 63 - __builtin_clzll(led);
            points += POINTS(top);
            led ^= 1ULL << top;
        }
        for (int i = 1; i < s->n; i++) {
            int p = (L + i) % s->n;
            u64 h = d->hands[p] & sm;
            if (!first && !(d->hands[p] & trumps)) continue;
            for (int j = 0; j < rounds && h; j++) { points += POINTS(__builtin_ctzll(h)); h &= h - 1; }
        }
        first = 0;
        if (stop) break;
    }
    return points;
}

/* The last trick, one card in each hand and the stock empty, played out: the team's points from it (its cards
 * and the last ten if the team wins it; no cante is sung after the last trick).  -1 if it is not that. */
static int last_trick(const State *s) {
    const Dyn *d = &s->d;
    if (d->stock_pos < s->stock_len) return -1;
    int L = d->leader, win = L, high = -1, points = s->bonus;
    for (int i = 0; i < s->n; i++) {
        int seat = (L + i) % s->n;
        u64 h = d->hands[seat];
        if (!h || (h & (h - 1))) return -1;
        int c = __builtin_ctzll(h);
        points += POINTS(c);
        if (high < 0 || (c / 10 == high / 10 ? c > high : c / 10 == s->trump)) { high = c; win = seat; }
    }
    return s->team >> win & 1 ? points : 0;
}

/* At a trick start, bounds of the team's points from here.  The most: every card point, the last ten and
 * the cantes still held, less the points of the opponents' trumps above every trump of the team and of the
 * stock (the highest trump left always wins its trick, and every card is played).  The least: the points of
 * the team's trumps above every trump of the opponents and of the stock. */
static void bounds(const State *s, int only, int *least, int *most) {
    u64 ours = 0, theirs = 0, trumps = SUIT_MASK(s->trump), stock = s->stock_after[s->d.stock_pos];
    for (int i = 0; i < s->n; i++) {
        if (s->team >> i & 1) ours |= s->d.hands[i];
        else theirs |= s->d.hands[i];
    }
    u64 our_trumps = ours & trumps, their_trumps = theirs & trumps, sure_ours = 0, sure_theirs = 0;
    u64 above_ours = their_trumps | (stock & trumps), above_theirs = our_trumps | (stock & trumps);
    if (our_trumps) sure_ours = above_ours ? our_trumps & ABOVE(63 - __builtin_clzll(above_ours)) : our_trumps;
    if (their_trumps)
        sure_theirs = above_theirs ? their_trumps & ABOVE(63 - __builtin_clzll(above_theirs)) : their_trumps;
    int quick = only < 0 ? quick_tricks(s) : 0; /* the leader's choice of lead: not with a forced card */
    *least = card_points(sure_ours);
    *most = s->bonus + card_points(ours | theirs | stock) - card_points(sure_theirs);
    if (s->team >> s->d.leader & 1) *least += quick;
    else *most -= quick;
    int side = s->team_side;
    if (s->sing && !(s->d.barred >> side & 1) && !(s->only_after_draw && s->d.stock_pos == s->stock_len)) {
        int closed = s->d.sung | s->lost[side];
        u64 reach = ours | stock;
        for (int suit = 0; suit < 4; suit++)
            if (!(closed >> suit & 1) && (reach & REY_CABALLO(suit)) == REY_CABALLO(suit))
                *most += suit == s->trump ? s->cuarenta_points : s->cante_points;
    }
}

/* True if an opponent of the mover still to play in this trick could beat card c (duties aside). */
static int beaten_later(const State *s, int seat, int c) {
    const Dyn *d = &s->d;
    int suit = c / 10, led = d->tlen ? d->led : suit, mine = s->team >> seat & 1;
    for (int i = d->tlen + 1; i < s->n; i++) {
        int later = (seat + i - d->tlen) % s->n;
        if ((s->team >> later & 1) == mine) continue;
        u64 h = d->hands[later];
        if (suit == s->trump) {
            if (h & ABOVE(c)) return 1;
        } else if (h & SUIT_MASK(led)) {
            if (h & ABOVE(c)) return 1;
        } else if (h & SUIT_MASK(s->trump)) {
            return 1;
        }
    }
    return 0;
}

/* At a lead, the plain suits no opponent of the leader can trump: each opponent holding a trump holds the suit. */
static u64 safe_suits(const State *s, int maxing) {
    u64 safe = ~SUIT_MASK(s->trump);
    for (int i = 0; i < s->n; i++) {
        u64 h = s->d.hands[i];
        if ((s->team >> i & 1) == maxing || !(h & SUIT_MASK(s->trump))) continue;
        for (int suit = 0; suit < 4; suit++)
            if (!(h & SUIT_MASK(suit))) safe &= ~SUIT_MASK(suit);
    }
    return safe;
}

/* The order to try cards in: the table's best lead, sure winners with many points, points given to a
 * partner sure to win, leads of a plain suit no opponent can trump (the cheapest first), then cheap cards
 * thrown; ties by card int. */
static int order_moves(const State *s, int seat, u64 moves, int hint, int cards[MAX_MOVES]) {
    const Dyn *d = &s->d;
    int scores[MAX_MOVES], count = 0, w = d->winning, maxing = s->team >> seat & 1;
    int mate_sure = w >= 0 && (s->team >> w & 1) == maxing
                    && !beaten_later(s, seat, d->high_trump >= 0 ? d->high_trump : d->high_led);
    u64 safe = d->tlen == 0 ? safe_suits(s, maxing) : 0;
    while (moves) {
        int c = __builtin_ctzll(moves);
        moves &= moves - 1;
        int points = POINTS(c), strength = c % 10, score, suit = c / 10;
        int wins = d->tlen == 0 || (suit == s->trump ? c > d->high_trump
                                    : (suit == d->led && d->high_trump < 0 && c > d->high_led));
        if (c == hint) score = 1 << 20;
        else if (wins && !beaten_later(s, seat, c)) score = 2000 + 16 * points - strength;
        else if (mate_sure) score = 1000 + 16 * points - strength;
        else if (safe >> c & 1) score = 500 - 16 * points - strength;
        else score = -16 * points - strength;
        int i = count++;
        while (i > 0 && scores[i - 1] < score) { scores[i] = scores[i - 1]; cards[i] = cards[i - 1]; i--; }
        scores[i] = score; cards[i] = c;
    }
    return count;
}

static int node(State *s, int alpha, int beta, int only);

/* Two cards of one hand with no live card of another hand between them (a run) can be swapped for each
 * other in every line of play: each beats, follows and is beaten as the other, so the values of playing one
 * or the other differ by at most their difference in points (the trick each falls to).  From the fail-soft
 * values of the cards of the run tried before c, the bound that says c is no better for the mover: the
 * least upper bound (maxing) or the greatest lower bound.  False when no card of c's run was tried. */
static int sibling_bound(const int *cards, const int *values, int tried, int c, u64 gaps, u64 swappable,
                         int maxing, int *bound) {
    int found = 0;
    if (!(swappable >> c & 1)) return 0;
    for (int j = 0; j < tried; j++) {
        int a = cards[j], lo = a < c ? a : c, hi = a < c ? c : a;
        if (a / 10 != c / 10 || !(swappable >> a & 1) || (gaps & ((1ULL << hi) - (2ULL << lo)))) continue;
        int diff = POINTS(a) > POINTS(c) ? POINTS(a) - POINTS(c) : POINTS(c) - POINTS(a);
        int v = maxing ? values[j] + diff : values[j] - diff;
        if (!found || (maxing ? v < *bound : v > *bound)) *bound = v;
        found = 1;
    }
    return found;
}

/* The node of a pending window of the side valued: each maximal legal set of cantes, maximising. */
__attribute__((noinline)) static int choose(State *s, int alpha, int beta, int only) {
    Dyn *d = &s->d;
    int remaining = d->pending, forty, sets[16], best = -1, sung = d->sung;
    d->pending = 0;
    int suits = singable(s, s->side_of[d->leader], &forty);
    int count = cante_sets(suits, forty, s->trump, remaining, s->forty_first, sets);
    for (int i = 0; i < count; i++) {
        d->sung = sung | sets[i];
        int points = set_points(s, sets[i]);
        int v = points + node(s, alpha - points, beta - points, only);
        if (v > best) { best = v; if (v > alpha) alpha = v; }
        if (alpha >= beta) break;
    }
    d->sung = sung;
    d->pending = remaining;
    return best;
}

static int node(State *s, int alpha, int beta, int only) {
    Table *t = s->t;
    Dyn *d = &s->d;
    t->nodes++;
    int start = d->tlen == 0, seat, hint = -1;
    Entry *e = NULL, *bucket = NULL, *shape = NULL;
    u64 k[3];
    int low = 0, high = UNKNOWN_HIGH; /* the entry's bounds as probed: a deeper node may overwrite the slot */
    if (start) {
        if (d->pending) return choose(s, alpha, beta, only);
        seat = d->leader;
        if (!d->hands[seat]) return 0;
        int last = last_trick(s);
        if (last >= 0) return last;
        if (t->entries) { /* the bucket fetched from memory while the bounds are worked out */
            make_key(s, k);
            /* a key that is not ranked has no shape: its bucket anywhere in the table */
            u64 within = k[2] & RANKED ? t->mask >> 1 : t->mask;
            bucket = &t->entries[(hash_key(k, ~0ULL) & within) & ~(u64)1];
            __builtin_prefetch(bucket);
            if (k[2] & RANKED) {
                shape = &t->shapes[(hash_key(k, ~POINT_BITS) & within) & ~(u64)(SHAPE_WAYS - 1)];
                for (int j = 0; j < SHAPE_WAYS; j += 2) __builtin_prefetch(shape + j);
            }
        }
        int least, most;
        bounds(s, only, &least, &most);
        if (least >= beta) return least;
        if (most <= alpha) return most;
    } else {
        seat = (d->leader + d->tlen) % s->n;
    }
    if (start && t->entries) { /* Table(0) is table-free: the reference the table is checked against */
        e = bucket[0].cards && !memcmp(bucket[0].k, k, sizeof k) ? &bucket[0]
            : bucket[1].cards && !memcmp(bucket[1].k, k, sizeof k) ? &bucket[1] : NULL;
        if (e && only < 0) {
            hint = e->best;
            low = e->low;
            high = e->high;
            if (low == high || low >= beta) return low;
            if (high <= alpha) return high;
        } else if (!e && only < 0 && shape) { /* the same hands' shape, other points: bounds with slack */
            for (int j = 0; j < SHAPE_WAYS; j++) {
                Entry *o = &shape[j];
                if (!o->cards || o->k[0] != k[0] || o->k[1] != k[1] || (o->k[2] ^ k[2]) & ~POINT_BITS) continue;
                int d = slack(o->k[2], k[2]);
                if (o->low - d >= beta) return o->low - d;
                if (o->high < UNKNOWN_HIGH && o->high + d <= alpha) return o->high + d;
            }
        }
    }
    u64 legal = legal_cards(s, seat), live = live_cards(s);
    int maxing = s->team >> seat & 1, cards[MAX_MOVES], count;
    if (only >= 0) {
        cards[0] = only;
        count = 1;
    } else {
        u64 moves = legal & ~ZEROS;
        for (int suit = 0; suit < 4; suit++) {
            int shift = 10 * suit;
            moves |= (u64)MERGE[live >> shift & 31][legal >> shift & 31] << shift;
        }
        count = order_moves(s, seat, moves, hint, cards);
    }
    int alpha0 = alpha, beta0 = beta, best = maxing ? -1 : UNKNOWN_HIGH, best_card = -1, values[MAX_MOVES];
    u64 hand = d->hands[seat], gaps = live & ~hand, swappable = s->sing ? hand & ~FOUR(6) & ~FOUR(7) : hand;
    for (int i = 0; i < count; i++) {
        int c = cards[i], v = 0;
        if (sibling_bound(cards, values, i, c, gaps, swappable, maxing, &v)
            && (maxing ? v <= alpha : v >= beta)) { /* a card swapped for one tried: no better than its bound */
            values[i] = v;
            if (maxing ? v > best : v < best) { best = v; best_card = c; }
            continue;
        }
        Dyn saved = *d;
        int gained = play(s, seat, c);
        v = gained + node(s, alpha - gained, beta - gained, -1);
        *d = saved;
        values[i] = v;
        if (maxing) {
            if (v > best) { best = v; best_card = c; if (v > alpha) alpha = v; }
        } else if (v < best) {
            best = v; best_card = c;
            if (v < beta) beta = v;
        }
        if (alpha >= beta) break;
    }
    if (start && only < 0 && t->entries) {
        if (best <= alpha0) { if (best < high) high = best; }
        else if (best >= beta0) { if (best > low) low = best; }
        else low = high = best;
        /* The slot that holds the key now (a deeper node may have moved it), else the deeper-preferred
         * slot 0 when this subtree is at least as big as its entry's, else the always-replaced slot 1. */
        int cards = __builtin_popcountll(live);
        e = !memcmp(bucket[0].k, k, sizeof k) && bucket[0].cards ? &bucket[0]
            : !memcmp(bucket[1].k, k, sizeof k) && bucket[1].cards ? &bucket[1] : NULL;
        if (!e) {
            if (cards >= bucket[0].cards) { bucket[1] = bucket[0]; e = &bucket[0]; }
            else e = &bucket[1];
        }
        memcpy(e->k, k, sizeof k);
        e->low = (int16_t)low; e->high = (int16_t)high; e->best = (int8_t)best_card; e->cards = (uint8_t)cards;
        if (shape) { /* a copy among its shape's: the same key's slot, else the smallest subtree's, the last first */
            Entry *o = NULL;
            for (int j = 0; j < SHAPE_WAYS && !o; j++) if (!memcmp(shape[j].k, k, sizeof k) && shape[j].cards) o = &shape[j];
            if (!o) {
                o = &shape[SHAPE_WAYS - 1];
                for (int j = SHAPE_WAYS - 2; j >= 0; j--) if (shape[j].cards < o->cards) o = &shape[j];
            }
            *o = *e;
        }
    }
    return best;
}

static int unpack(PyObject *packed, long long v[NPACKED]) {
    PyObject *seq = PySequence_Fast(packed, "packed must be a tuple of ints");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != NPACKED) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "packed position must have %d ints", NPACKED);
        return -1;
    }
    for (int i = 0; i < NPACKED; i++) {
        v[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v[i] == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
    }
    Py_DECREF(seq);
    if (v[P_PLAYERS] < 2 || v[P_PLAYERS] > 4 || v[P_LEADER] < 0 || v[P_LEADER] >= v[P_PLAYERS] || v[P_TRICK_LEN] < 0
        || v[P_TRICK_LEN] >= v[P_PLAYERS] || v[P_TRUMP] < 0 || v[P_TRUMP] > 3) {
        PyErr_SetString(PyExc_ValueError, "packed position out of range");
        return -1;
    }
    return 0;
}

static PyObject *Table_search(Table *self, PyObject *args) {
    PyObject *packed;
    int alpha, beta, only = -1;
    long long v[NPACKED];
    if (!PyArg_ParseTuple(args, "Oii|i", &packed, &alpha, &beta, &only)) return NULL;
    if (unpack(packed, v) < 0) return NULL;
    if (only >= 40 || (only >= 0 && !((u64)v[P_HAND0 + (v[P_LEADER] + v[P_TRICK_LEN]) % v[P_PLAYERS]] >> only & 1))) {
        PyErr_SetString(PyExc_ValueError, "only must be a card of the hand to move, or -1");
        return NULL;
    }
    State s;
    memset(&s, 0, sizeof s);
    s.t = self;
    s.n = (int)v[P_PLAYERS]; s.trump = (int)v[P_TRUMP];
    for (int i = 0; i < 4; i++) s.d.hands[i] = (u64)v[P_HAND0 + i] & ((1ULL << 40) - 1);
    s.d.leader = (int)v[P_LEADER];
    s.team = (int)v[P_TEAM]; s.duties = (int)v[P_DUTIES];
    for (int i = 0; i < 4; i++) s.side_of[i] = (int)(v[P_SIDES] >> (2 * i) & 3);
    s.sing = (int)v[P_SING]; s.cante_points = (int)v[P_CANTE_POINTS]; s.cuarenta_points = (int)v[P_CUARENTA_POINTS];
    s.limit = (int)v[P_CANTES_PER_TRICK]; s.bonus = (int)v[P_LAST_TRICK_BONUS];
    s.bar_silent = (int)v[P_BAR_SILENT_FIRST_WIN];
    s.d.sung = (int)v[P_SUNG]; s.d.barred = (int)v[P_BARRED];
    for (int i = 0; i < 4; i++) s.lost[i] = (int)(v[P_LOST] >> (4 * i) & 15);
    s.d.won = (int)v[P_WON_BEFORE];
    for (int i = 0; i < 4; i++) s.blocked |= (u64)v[P_BLOCKED0 + i]; /* a blocked card is in its drawer's hand */
    s.forty_first = (int)v[P_FORTY_FIRST];
    s.only_after_draw = (int)v[P_ONLY_AFTER_DRAW];
    s.team_side = s.side_of[s.team ? __builtin_ctz((unsigned)s.team) : 0];
    s.stock_len = (int)v[P_STOCK_LEN];
    s.free_play = (int)v[P_FREE_PLAY];
    if (s.stock_len < 0 || s.stock_len > MAX_STOCK) {
        PyErr_SetString(PyExc_ValueError, "packed stock out of range");
        return NULL;
    }
    for (int i = 0; i < s.stock_len; i++) {
        s.stock[i] = (int)(v[P_STOCK0 + i / STOCK_PER_WORD] >> (6 * (i % STOCK_PER_WORD)) & 63);
        if (s.stock[i] >= 40) { PyErr_SetString(PyExc_ValueError, "bad card in the stock"); return NULL; }
    }
    if (v[P_BLOCK_LAST_DRAWN] && s.stock_len)
        for (int i = s.stock_len - ((s.stock_len - 1) % s.n + 1); i < s.stock_len; i++) s.blocked_last |= 1ULL << s.stock[i];
    s.stock_after[s.stock_len] = 0;
    for (int i = s.stock_len - 1; i >= 0; i--) s.stock_after[i] = s.stock_after[i + 1] | 1ULL << s.stock[i];
    s.d.stock_pos = 0;
    s.d.led = s.d.high_led = s.d.high_trump = s.d.winning = -1;
    s.d.tlen = 0;
    /* Replay the trick on the table (tutepgn.analysis.position.trick_state). */
    int trick_len = (int)v[P_TRICK_LEN];
    for (int i = 0; i < trick_len; i++) {
        int c = (int)v[P_TRICK0 + i], seat = (s.d.leader + i) % s.n, suit = c / 10;
        if (c < 0 || c >= 40) { PyErr_SetString(PyExc_ValueError, "bad card on the table"); return NULL; }
        if (i == 0) {
            s.d.led = suit; s.d.high_led = c; s.d.winning = seat;
            if (suit == s.trump) s.d.high_trump = c;
        } else if (suit == s.trump) {
            if (c > s.d.high_trump) { s.d.high_trump = c; s.d.winning = seat; }
        } else if (suit == s.d.led && c > s.d.high_led) {
            s.d.high_led = c;
            if (s.d.high_trump < 0) s.d.winning = seat;
        }
        s.d.trick[s.d.tlen++] = c;
    }
    if (!(s.sing && v[P_WINDOW_OPEN] && trick_len == 0)) return PyLong_FromLong(node(&s, alpha, beta, only));
    int cantes = (int)v[P_WINDOW_CANTES];
    int gained = window(&s, s.side_of[s.d.leader], (int)v[P_WINDOW_AFTER_DRAW], s.limit - cantes,
                        v[P_WINDOW_FIRST_WIN] && !cantes);
    return PyLong_FromLong(gained + node(&s, alpha - gained, beta - gained, only));
}

static PyObject *Table_clear(Table *self, PyObject *Py_UNUSED(ignored)) {
    if (self->entries) memset(self->entries, 0, (self->mask + 1) * sizeof(Entry));
    self->nodes = 0;
    Py_RETURN_NONE;
}

static PyObject *Table_get_nodes(Table *self, void *Py_UNUSED(closure)) {
    return PyLong_FromLongLong(self->nodes);
}

static int Table_init(Table *self, PyObject *args, PyObject *kwds) {
    int bits = 18;
    static char *kwlist[] = {"bits", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|i", kwlist, &bits)) return -1;
    if (bits != 0 && (bits < 4 || bits > 28)) {
        PyErr_SetString(PyExc_ValueError, "bits must be 0 (no table) or 4..28");
        return -1;
    }
    free(self->block);
    self->block = NULL;
    self->entries = self->shapes = NULL;
    self->mask = 0;
    self->nodes = 0;
    if (bits == 0) return 0;
    /* A bucket in one cache line; a table of 2 MB or more in huge pages where the system gives them: a probe
     * is a cache miss anyway, and without them a TLB miss too (with the miss, 30% of the search in perf). */
    size_t size = ((size_t)1 << bits) * sizeof(Entry), align = size >= HUGE_PAGE ? HUGE_PAGE : 64;
    self->block = aligned_alloc(align, size);
    if (!self->block) { PyErr_NoMemory(); return -1; }
#ifdef MADV_HUGEPAGE
    if (align == HUGE_PAGE) madvise(self->block, size, MADV_HUGEPAGE);
#endif
    memset(self->block, 0, size);
    self->entries = (Entry *)self->block;
    self->shapes = self->entries + ((size_t)1 << (bits - 1));
    self->mask = ((u64)1 << bits) - 1;
    self->nodes = 0;
    return 0;
}

static void Table_dealloc(Table *self) {
    free(self->block);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Table_methods[] = {
    {"search", (PyCFunction)Table_search, METH_VARARGS,
     "search(packed, alpha, beta, only=-1): the fail-soft value of a packed position for its team."},
    {"clear", (PyCFunction)Table_clear, METH_NOARGS, "Empty the table."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Table_getset[] = {
    {"nodes", (getter)Table_get_nodes, NULL, "Nodes searched since the table was made or cleared.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tutepgn.native.ccore.Table",
    .tp_doc = "A transposition table and the search over it: Table(bits=18) holds 2**bits entries (a half by shape), Table(0) none.",
    .tp_basicsize = sizeof(Table),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Table_init,
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
};

int creplay_add(PyObject *module); /* creplay.c: the validator's replay fast path, in this module */
int cscan_add(PyObject *module);   /* cscan.c: the header scan's hot loop, in this module */
int playout_add(PyObject *module); /* playout.c: the PIMC rollout's play-out, in this module */

static struct PyModuleDef ccore_module = {
    PyModuleDef_HEAD_INIT, "ccore", "The C core of tutepgn: the double-dummy search, the replay fast path, the reader's hot loops, the rollout's play-out.", -1, NULL,
};

PyMODINIT_FUNC PyInit_ccore(void) {
    fill_tables();
    if (PyType_Ready(&TableType) < 0) return NULL;
    PyObject *m = PyModule_Create(&ccore_module);
    if (!m) return NULL;
    Py_INCREF(&TableType);
    if (PyModule_AddObject(m, "Table", (PyObject *)&TableType) < 0) {
        Py_DECREF(&TableType);
        Py_DECREF(m);
        return NULL;
    }
    if (creplay_add(m) < 0 || cscan_add(m) < 0 || playout_add(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
