/* The validator's fast path in C: replay a deal's events and score it, or name the first illegal event.
 *
 * Built into the same extension as the solver (tutepgn.native.ccore: one build, one fallback); the Python
 * side is tutepgn/check/fastreplay.py.  The engine (tutepgn/engine.py, declarations.py, duties.py, score.py) stays
 * the reference: this file applies the same rules in the same order and only answers "legal, with this
 * score sheet" or "illegal at event k"; the validator then replays an illegal deal in Python to explain it.
 * tests/test_fastreplay.py replays simulated and tampered deals of every preset (and of other option
 * combinations) through both and requires the same verdicts, first illegal events and score sheets.
 *
 * It reads ruleset options, never a preset: the options come as a tuple of ints (layout.h's O_*, generated
 * from tutepgn/native/layout.py, built by tutepgn.native.replayinput.options).  Events come as plain integers, two
 * bytes each (encode_events): kind << 2 | seat (kinds: layout.h's EVENT_*), then the card, suit or rank.
 * The game's masks, points and play duties are tute.h's, shared with ccore.c; the deal's state, its refusals
 * and deal_apply are declared in creplay.h for the play-out (playout.c), which replays with them.
 */
#include "creplay.h"

#include <string.h>
#include <structmember.h>

#define CABALLOS FOUR(6)

static const int RANK[10] = {2, 4, 5, 6, 7, 10, 11, 12, 3, 1};

/* tute.h's play_duty for the seat (the caller knows that no card is free while the stock lasts). */
u64 allowed(const Deal *d, int seat) {
    int w = d->winning;
    return play_duty(d->hands[seat], d->led, d->high_led, d->high_trump, d->trump,
                     w != seat && SIDE(d, w) == SIDE(d, seat), (int)d->o[O_DUTIES]);
}

/* declarations._window_refusal: after a trick won by the declarer's side, before the next lead. */
static int window_refused(const Deal *d, int seat) {
    return OVER(d) || d->tlen || !d->ntricks || d->window_side != SIDE(d, seat);
}

/* declarations._draw_refusal: the 2-player rules that tie declarations to the draws. */
static int draw_refused(const Deal *d, int seat, u64 cards) {
    if (d->o[O_DECLARE_ONLY_AFTER_DRAW] && !d->window_after_draw) return 1;
    return d->o[O_NO_DECLARE_WITH_LAST_DRAWN] && d->last_draw[seat] >= 0 && (cards >> d->last_draw[seat] & 1);
}

/* declarations.cante_refusal, as a yes or no. */
int cante_refused(const Deal *d, int seat, int suit) {
    int side = SIDE(d, seat);
    return window_refused(d, seat) || (d->hands[seat] & REY_CABALLO(suit)) != REY_CABALLO(suit) || (d->sung >> suit & 1)
        || (d->barred >> side & 1) || (d->lost[side] >> suit & 1) || d->window_cantes >= d->o[O_CANTES_PER_TRICK]
        || draw_refused(d, seat, REY_CABALLO(suit))
        || (d->o[O_FORTY_FIRST] && suit != d->trump && !cante_refused(d, seat, d->trump));
}

/* declarations.tute_refusal, as a yes or no. */
int tute_refused(const Deal *d, int seat, int rank) {
    if (rank != 11 && rank != 12) return 1;
    u64 four = FOUR(rank == 12 ? 7 : 6);
    int first_lead = !d->ntricks && !d->tlen && !OVER(d);
    if (first_lead && d->o[O_TUTE_AT_FIRST_LEAD] ? seat != d->turn : window_refused(d, seat)) return 1;
    if ((d->hands[seat] & four) != four) return 1;
    if (d->o[O_TUTE_BLOCKED_BY_EARLIER_CANTE])
        for (int i = 0; i < d->ncantes; i++)
            if (SIDE(d, d->c_seat[i]) == SIDE(d, seat)) return 1;
    return !first_lead && draw_refused(d, seat, four);
}

/* declarations.exchange_refusal, as a yes or no. */
int exchange_refused(const Deal *d, int seat, int c) {
    int rank = RANK[c % 10];
    long ranks_for;
    if (rank == 7 && d->o[O_EXCHANGE_SEVEN]) ranks_for = d->o[O_EXCHANGE_SEVEN_FOR];
    else if (rank == 2 && d->o[O_EXCHANGE_TWO]) ranks_for = d->o[O_EXCHANGE_TWO_FOR];
    else return 1;
    return OVER(d) || c / 10 != d->trump || d->stock_pos >= d->stock_len || d->tlen || seat != d->turn
        || (!d->ntricks && !d->o[O_EXCHANGE_AT_FIRST_LEAD]) || !(d->hands[seat] >> c & 1)
        || !(ranks_for >> RANK[d->turned % 10] & 1);
}

/* declarations.close_window: at the next lead, what silence after a won trick costs. */
static void close_window(Deal *d) {
    int side = d->window_side;
    if ((!d->o[O_CANTE_ONLY_IF_SUNG_AT_FIRST_WIN] && !d->o[O_FORFEIT_UNSUNG_CANTES]) || d->window_cantes) {
        d->window_side = -1;
        return;
    }
    if (d->o[O_CANTE_ONLY_IF_SUNG_AT_FIRST_WIN] && d->wins[side] == 1) d->barred |= 1 << side;
    if (d->o[O_FORFEIT_UNSUNG_CANTES]) {
        int lost = 0;
        u64 unsung = CABALLOS;
        for (int s = 0; s < 4; s++)
            if (d->sung >> s & 1) unsung &= ~REY_CABALLO(s);
        for (int seat = 0; seat < d->n; seat++) {
            if (SIDE(d, seat) != side) continue;
            u64 held = d->hands[seat] & (d->hands[seat] >> 1) & unsung; /* caballos whose rey is held too */
            for (int s = 0; s < 4; s++)
                if ((held & SUIT_MASK(s)) && !cante_refused(d, seat, s)) lost |= 1 << s;
        }
        d->lost[side] |= lost;
    }
    d->window_side = -1;
}

/* Deal._finish_trick and Deal._draw. */
static void finish_trick(Deal *d) {
    int winner = d->winning, points = 0, side = SIDE(d, winner), k = d->ntricks++;
    for (int i = 0; i < d->n; i++) {
        points += CARD_POINTS[d->trick[i]];
        d->t_cards[k][i] = d->trick[i];
    }
    d->t_leader[k] = d->leader;
    d->t_winner[k] = winner;
    d->t_points[k] = points;
    d->won[side] += points;
    d->wins[side] += 1;
    d->tlen = 0;
    d->led = d->high_led = d->high_trump = d->winning = -1;
    int drew = d->stock_pos < d->stock_len;
    if (drew) {
        int drawn[4] = {-1, -1, -1, -1};
        for (int i = 0; i < d->n && d->stock_pos < d->stock_len; i++) {
            int seat = (winner + i) % d->n;
            drawn[seat] = d->stock[d->stock_pos++];
            d->hands[seat] |= BIT(drawn[seat]);
        }
        if (d->stock_pos == d->stock_len) memcpy(d->last_draw, drawn, sizeof drawn);
    } else {
        u64 left = 0;
        for (int seat = 0; seat < d->n; seat++) left |= d->hands[seat];
        if (!left) {
            d->turn = -1;
            d->window_side = -1;
            return;
        }
    }
    d->leader = d->turn = winner;
    d->window_side = side;
    d->window_cantes = 0;
    d->window_after_draw = drew;
}

/* Deal.apply of one event: 0 if it is legal (and applied), 1 if the engine refuses it. */
int deal_apply(Deal *d, int kind, int seat, int value, int index) {
    if (kind == EVENT_PLAY) {
        int c = value, turn = d->turn;
        if (OVER(d) || seat != turn || !(d->hands[seat] >> c & 1)) return 1;
        if (d->tlen && d->stock_pos >= d->free_below && !(allowed(d, seat) >> c & 1)) return 1;
        if (!d->tlen && d->window_side >= 0) close_window(d);
        d->hands[seat] ^= BIT(c);
        d->played |= BIT(c);
        int suit = c / 10;
        if (d->tlen) {
            if (suit == d->trump) {
                if (c > d->high_trump) { d->high_trump = c; d->winning = seat; }
            } else if (suit == d->led && c > d->high_led) {
                d->high_led = c;
                if (d->high_trump < 0) d->winning = seat;
            }
        } else {
            d->led = suit; d->high_led = c; d->winning = seat;
            if (suit == d->trump) d->high_trump = c;
        }
        d->trick[d->tlen++] = c;
        if (d->tlen == d->n) finish_trick(d);
        else d->turn = seat + 1 < d->n ? seat + 1 : 0;
        return 0;
    }
    if (kind == EVENT_CANTE) {
        if (cante_refused(d, seat, value)) return 1;
        int k = d->ncantes++;
        d->c_seat[k] = seat;
        d->c_suit[k] = value;
        d->c_points[k] = (int)(value == d->trump ? d->o[O_CUARENTA_POINTS] : d->o[O_CANTE_POINTS]);
        d->sung |= 1 << value;
        d->window_cantes += 1;
        return 0;
    }
    if (kind == EVENT_TUTE) {
        if (tute_refused(d, seat, value)) return 1;
        d->tute = index;
        return 0;
    }
    if (exchange_refused(d, seat, value)) return 1;
    d->hands[seat] = (d->hands[seat] & ~BIT(value)) | BIT(d->turned);
    d->stock[d->stock_len - 1] = d->turned = value;
    return 0;
}

static PyObject *ints(const int *values, int count) {
    PyObject *t = PyTuple_New(count);
    if (!t) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (!v) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *side_or_none(int side) {
    if (side < 0) Py_RETURN_NONE;
    return PyLong_FromLong(side);
}

/* tutepgn.score.count, at the end of the replay: the fields of a ScoreSheet in its order from card_points
 * on, the tricks as trick_type (the Trick named tuple) and the cantes as (seat, side, suit, points). */
static PyObject *sheet(const Deal *d, PyTypeObject *trick_type, int tute_seat) {
    int sides = (int)d->o[O_SIDES], totals[4], cards_last[4], points[4] = {0, 0, 0, 0};
    int complete = d->turn < 0 && d->tute < 0, last_side = -1, winner = -1, tie_break = 0, doubled = 0;
    int wins_match = 0;
    if (complete) last_side = SIDE(d, d->t_winner[d->ntricks - 1]);
    for (int k = 0; k < sides; k++) {
        totals[k] = cards_last[k] = d->won[k] + (k == last_side ? (int)d->o[O_LAST_TRICK_BONUS] : 0);
    }
    for (int i = 0; i < d->ncantes; i++) totals[SIDE(d, d->c_seat[i])] += d->c_points[i];
    if (d->tute >= 0) {
        winner = SIDE(d, tute_seat);
        if (d->o[O_TUTE_WINS_MATCH]) wins_match = 1;
        else points[winner] = (int)d->o[O_TUTE_MATCH_POINTS];
    } else if (complete) { /* tutepgn.score.decide */
        int best = totals[0], tied = 0;
        for (int k = 1; k < sides; k++) if (totals[k] > best) best = totals[k];
        for (int k = 0; k < sides; k++) tied += totals[k] == best;
        tie_break = tied > 1;
        for (int k = 0; k < sides && !tie_break; k++) if (totals[k] == best) winner = k;
        for (int i = d->ntricks - 1; i >= 0 && tie_break && winner < 0; i--) {
            int side = SIDE(d, d->t_winner[i]);
            if (totals[side] == best) winner = side;
        }
        if (winner < 0) Py_RETURN_NONE; /* no tied side won a trick: the engine's own count has no answer */
        int basis = d->o[O_DOUBLE_BASIS_TOTAL] ? totals[winner] : cards_last[winner];
        doubled = d->o[O_DOUBLE] && basis > d->o[O_DOUBLE_THRESHOLD];
        points[winner] = (int)(doubled ? d->o[O_DOUBLE_POINTS] : d->o[O_DEAL_POINTS]);
    }
    PyObject *tricks = PyTuple_New(d->ntricks), *cantes = PyTuple_New(d->ncantes);
    if (!tricks || !cantes) goto fail;
    for (int k = 0; k < d->ntricks; k++) {
        PyObject *t = trick_type->tp_alloc(trick_type, 4);
        if (!t) goto fail;
        PyTuple_SET_ITEM(tricks, k, t);
        PyObject *cards = ints(d->t_cards[k], d->n);
        if (!cards) goto fail;
        PyTuple_SET_ITEM(t, 0, PyLong_FromLong(d->t_leader[k]));
        PyTuple_SET_ITEM(t, 1, cards);
        PyTuple_SET_ITEM(t, 2, PyLong_FromLong(d->t_winner[k]));
        PyTuple_SET_ITEM(t, 3, PyLong_FromLong(d->t_points[k]));
    }
    for (int i = 0; i < d->ncantes; i++) {
        PyObject *c = Py_BuildValue("(iiii)", d->c_seat[i], SIDE(d, d->c_seat[i]), d->c_suit[i], d->c_points[i]);
        if (!c) goto fail;
        PyTuple_SET_ITEM(cantes, i, c);
    }
    return Py_BuildValue("(NNNiNNNNNNOO)", tricks, ints(d->won, sides), side_or_none(last_side),
                         last_side >= 0 ? (int)d->o[O_LAST_TRICK_BONUS] : 0, cantes, ints(totals, sides),
                         side_or_none(winner), PyBool_FromLong(tie_break), ints(points, sides),
                         PyBool_FromLong(doubled), wins_match ? Py_True : Py_False,
                         complete ? Py_True : Py_False);
fail:
    Py_XDECREF(tricks);
    Py_XDECREF(cantes);
    return NULL;
}

static int read_ints(PyObject *seq, int *out, int most, const char *what) {
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > most) {
        PyErr_Format(PyExc_ValueError, "at most %d %s", most, what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v > 39) {
            PyErr_Format(PyExc_ValueError, "%s: %ld is not a card", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    return (int)count;
}

/* The deal's start from Python's values (the options tuple, the hands, the stock, the leader and the trump):
 * 0, or -1 with an exception set. */
int deal_start(Deal *d, PyObject *options, PyObject *hands, PyObject *stock, int leader, int trump) {
    memset(d, 0, sizeof *d);
    if (PyTuple_GET_SIZE(options) != NOPTIONS) {
        PyErr_Format(PyExc_ValueError, "%d options expected", NOPTIONS);
        return -1;
    }
    for (int i = 0; i < NOPTIONS; i++) {
        d->o[i] = PyLong_AsLong(PyTuple_GET_ITEM(options, i));
        if (d->o[i] == -1 && PyErr_Occurred()) return -1;
    }
    d->n = (int)d->o[O_PLAYERS];
    if (d->n < 2 || d->n > 4 || PyList_GET_SIZE(hands) != d->n) {
        PyErr_Format(PyExc_ValueError, "2 to 4 hands");
        return -1;
    }
    for (int seat = 0; seat < d->n; seat++) {
        d->hands[seat] = PyLong_AsUnsignedLongLongMask(PyList_GET_ITEM(hands, seat)) & ((1ULL << 40) - 1);
        if (PyErr_Occurred()) return -1;
    }
    d->stock_len = read_ints(stock, d->stock, 40, "stock cards");
    if (d->stock_len < 0) return -1;
    if (leader < 0 || leader >= d->n || trump < 0 || trump > 3) {
        PyErr_Format(PyExc_ValueError, "bad start");
        return -1;
    }
    d->trump = trump;
    d->turned = d->stock_len ? d->stock[d->stock_len - 1] : 0;
    d->free_below = d->o[O_FREE_PLAY_WHILE_STOCK] ? d->stock_len : 0;
    d->leader = d->turn = leader;
    d->led = d->high_led = d->high_trump = d->winning = -1;
    d->tute = d->window_side = -1;
    for (int seat = 0; seat < 4; seat++) d->last_draw[seat] = -1;
    return 0;
}

/* The events (encode_events's bytes) applied in turn: -1 if all are legal, the index of the first illegal one
 * (or the first that ``before``, when given, refuses: it sees each event before it is applied), or -2 with an
 * exception set.  *tute_seat: the seat of a tute applied (left as it was without one). */
Py_ssize_t deal_events(Deal *d, const unsigned char *codes, Py_ssize_t ncodes, int *tute_seat, EventHook before,
                       void *context) {
    if (ncodes % 2) {
        PyErr_Format(PyExc_ValueError, "bad events");
        return -2;
    }
    for (Py_ssize_t i = 0; i < ncodes; i += 2) {
        int kind = codes[i] >> 2, seat = codes[i] & 3, value = codes[i + 1];
        if (seat >= d->n || (kind == EVENT_CANTE ? value > 3 : kind != EVENT_TUTE && value > 39)) {
            PyErr_Format(PyExc_ValueError, "event %zd: bad code", i / 2);
            return -2;
        }
        if (before && before(d, kind, seat, value, context)) return i / 2;
        if (kind == EVENT_PLAY && d->ntricks == MAX_TRICKS) return i / 2;  /* a card after the end */
        if (deal_apply(d, kind, seat, value, (int)(i / 2))) return i / 2;
        if (kind == EVENT_TUTE) *tute_seat = seat;
    }
    return -1;
}

Py_ssize_t deal_replay(Deal *d, PyObject *options, PyObject *hands, PyObject *stock, int leader, int trump,
                       const unsigned char *codes, Py_ssize_t ncodes, int *tute_seat, EventHook before, void *context) {
    *tute_seat = -1;
    if (deal_start(d, options, hands, stock, leader, trump)) return -2;
    return deal_events(d, codes, ncodes, tute_seat, before, context);
}

static PyObject *replay(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *options, *hands, *stock, *trick_type;
    const unsigned char *codes;
    Py_ssize_t ncodes;
    int leader, trump;
    if (!PyArg_ParseTuple(args, "O!O!O!iiy#O!", &PyTuple_Type, &options, &PyList_Type, &hands, &PyList_Type,
                          &stock, &leader, &trump, &codes, &ncodes, &PyType_Type, &trick_type))
        return NULL;
    Deal d;
    int tute_seat;
    Py_ssize_t illegal = deal_replay(&d, options, hands, stock, leader, trump, codes, ncodes, &tute_seat, NULL, NULL);
    if (illegal == -2) return NULL;
    if (illegal >= 0) return PyLong_FromSsize_t(illegal);
    int left = 0;
    for (int seat = 0; seat < d.n; seat++) left += __builtin_popcountll(d.hands[seat]);
    PyObject *counted = sheet(&d, (PyTypeObject *)trick_type, tute_seat);
    if (!counted || counted == Py_None) return counted;
    return Py_BuildValue("(OiiN)", OVER(&d) ? Py_True : Py_False, left, d.tute, counted);
}

/* Where each kind's seat and card (suit, rank) live in its objects: the offsets of their slots, read once per
 * kind (the event classes are slotted dataclasses); -1 when a field is not a plain slot (then it is asked for). */
static PyObject *known_kinds[NKINDS];
static Py_ssize_t seat_at[NKINDS], value_at[NKINDS];

static Py_ssize_t slot_offset(PyObject *kind, PyObject *name) {
    PyObject *descr = PyObject_GetAttr(kind, name);
    if (!descr) {
        PyErr_Clear();
        return -1;
    }
    Py_ssize_t at = -1;
    if (Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
        if (member->type == T_OBJECT_EX && !(member->flags & READ_RESTRICTED)) at = member->offset;
    }
    Py_DECREF(descr);
    return at;
}

static PyObject *field(PyObject *event, Py_ssize_t at, PyObject *name) {
    if (at < 0) return PyObject_GetAttr(event, name);
    PyObject *v = *(PyObject **)((char *)event + at);
    if (!v) return PyObject_GetAttr(event, name); /* an unset slot: let Python raise */
    Py_INCREF(v);
    return v;
}

/* The events as plain integers: two bytes each, kind << 2 | seat then the card, suit or rank (a rank
 * other than 11 or 12 is written 0: the engine refuses it all the same).  None when an event is none of
 * the four kinds or names a seat, card or suit out of range: the engine answers for those. */
static PyObject *encode_events(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *events, *kinds;
    int players;
    if (!PyArg_ParseTuple(args, "OO!i", &events, &PyTuple_Type, &kinds, &players)) return NULL;
    if (PyTuple_GET_SIZE(kinds) != NKINDS) return PyErr_Format(PyExc_ValueError, "%d event kinds expected", NKINDS);
    static PyObject *names[NKINDS], *seat_name;
    if (!seat_name) {
        seat_name = PyUnicode_InternFromString("seat");
        names[EVENT_PLAY] = names[EVENT_EXCHANGE] = PyUnicode_InternFromString("card");
        names[EVENT_CANTE] = PyUnicode_InternFromString("suit");
        names[EVENT_TUTE] = PyUnicode_InternFromString("rank");
        if (!seat_name || !names[EVENT_PLAY] || !names[EVENT_CANTE] || !names[EVENT_TUTE]) return NULL;
    }
    for (int k = 0; k < NKINDS; k++) {
        PyObject *kind = PyTuple_GET_ITEM(kinds, k);
        if (kind == known_kinds[k]) continue;
        if (!PyType_Check(kind)) return PyErr_Format(PyExc_TypeError, "event kinds must be classes");
        Py_INCREF(kind);
        Py_XSETREF(known_kinds[k], kind);
        seat_at[k] = slot_offset(kind, seat_name);
        value_at[k] = slot_offset(kind, names[k]);
    }
    PyObject *seq = PySequence_Fast(events, "events must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyBytes_FromStringAndSize(NULL, 2 * count);
    if (!out) { Py_DECREF(seq); return NULL; }
    unsigned char *codes = (unsigned char *)PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *event = PySequence_Fast_GET_ITEM(seq, i);
        int kind = 0;
        while (kind < NKINDS && (PyObject *)Py_TYPE(event) != known_kinds[kind]) kind++;
        if (kind == NKINDS) goto none;
        long seat, value;
        PyObject *v = field(event, seat_at[kind], seat_name);
        if (!v) goto fail;
        seat = PyLong_Check(v) ? PyLong_AsLong(v) : -1;
        Py_DECREF(v);
        v = field(event, value_at[kind], names[kind]);
        if (!v) goto fail;
        value = PyLong_Check(v) ? PyLong_AsLong(v) : -1;
        Py_DECREF(v);
        if (PyErr_Occurred()) { /* too big for a C long: the engine answers */
            PyErr_Clear();
            goto none;
        }
        if (kind == EVENT_TUTE && value != 11 && value != 12) value = 0;
        if (seat < 0 || seat >= players || value < 0 || value > (kind == EVENT_CANTE ? 3 : 39)) goto none;
        codes[2 * i] = (unsigned char)(kind << 2 | seat);
        codes[2 * i + 1] = (unsigned char)value;
    }
    Py_DECREF(seq);
    return out;
none:
    Py_DECREF(seq);
    Py_DECREF(out);
    Py_RETURN_NONE;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef creplay_methods[] = {
    {"encode_events", encode_events, METH_VARARGS,
     "encode_events(events, (Play, Cante, Tute, Exchange), players): the events as bytes, 2 a event, or None."},
    {"replay", replay, METH_VARARGS,
     "replay(options, hands, stock, leader, trump, codes, Trick): the index of the first "
     "illegal event; or (over, cards left, the tute's index or -1, the score sheet's fields from tricks on); "
     "None: no answer."},
    {NULL, NULL, 0, NULL},
};

/* Called by PyInit_ccore: the fast path's functions join the solver's module. */
int creplay_add(PyObject *module) {
    return PyModule_AddFunctions(module, creplay_methods);
}
