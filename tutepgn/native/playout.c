/* The PIMC rollout's play-out in C: a world's deal replayed once, then each candidate card played and the deal
 * played to its end by the play model, every action chosen as tutepgn.policy.choose chooses it; and the
 * likelihood of a world's history under the same model (tutepgn.analysis.worlds.log_likelihood).
 *
 * Python stays the reference (tutepgn/policy.py, tutepgn.analysis.pimc.played_out): the legal actions are
 * enumerated in the order of Deal.legal_actions (engine.py), each is scored with the same double arithmetic in
 * the same order of operations (the extension is built with -ffp-contract=off, so no multiply-add is fused and
 * the scores are bit for bit Python's), and the first of equal best scores is kept, as max() keeps it; the
 * probabilities add exp() and log() of the same libm as Python's math, and sum() as the interpreter adds.
 * tests/test_rollout.py holds both to the same results on every preset and other option combinations.
 * The deal, its rules and its replay are creplay.c's (creplay.h).
 */
#include "creplay.h"

#include <math.h>
#include <string.h>

/* tutepgn.policy's constants. */
#define DECLARE 100.0
#define TUTE 1000.0
#define FOLLOW_POINTS 2.0
#define WINDOW_SHARE 0.6
#define PAIR_KEEP 4.0
#define FLOOR 1e-4
#define ALL_CARDS ((1ULL << 40) - 1)

/* policy._View: the trick and the cards as the actor sees them, read once for all its legal cards. */
typedef struct {
    int trump, to_come, led, high_led, high_trump, partner_winning, partner_to_come;
    u64 unseen, keep;
    double window, expected;
} View;

static void view_of(const Deal *d, int seat, View *v) {
    u64 hand = d->hands[seat], seen = d->played | hand;
    if (d->stock_len - d->stock_pos) seen |= BIT(d->turned);
    v->trump = d->trump;
    v->unseen = ALL_CARDS & ~seen;
    v->to_come = d->n - 1 - d->tlen;
    int on_table = 0;
    for (int i = 0; i < d->tlen; i++) on_table += CARD_POINTS[d->trick[i]];
    v->led = d->led;
    v->high_led = d->high_led;
    v->high_trump = d->high_trump;
    int side = SIDE(d, seat);
    v->partner_winning = d->winning >= 0 && SIDE(d, d->winning) == side;
    v->partner_to_come = 0;
    for (int k = 1; k <= v->to_come; k++)
        if (SIDE(d, (seat + k) % d->n) == side) v->partner_to_come = 1;
    int best = 0;
    v->keep = 0;
    for (int s = 0; s < 4; s++) {
        if (d->sung >> s & 1) continue;
        u64 pair = REY_CABALLO(s);
        if ((hand & pair) == pair) {
            int points = (int)(s == d->trump ? d->o[O_CUARENTA_POINTS] : d->o[O_CANTE_POINTS]);
            if (points > best) best = points;
        }
        if ((hand & pair) && !(d->played & pair)) v->keep |= pair;
    }
    v->window = WINDOW_SHARE * best;
    int last_ten = __builtin_popcountll(hand) == 1 ? (int)d->o[O_LAST_TRICK_BONUS] : 0;
    v->expected = (double)on_table + FOLLOW_POINTS * v->to_come + last_ten;
}

/* _View.threats: how many unseen cards may still beat c once played (trumps over a plain card count less). */
static double threats(const View *v, int c, int led) {
    if (!v->to_come) return 0.0;
    if (c / 10 == v->trump) return (double)__builtin_popcountll(v->unseen & ABOVE(c));
    int higher = c / 10 == led ? __builtin_popcountll(v->unseen & ABOVE(c)) : 0;
    int trumps = __builtin_popcountll(v->unseen & SUIT_MASK(v->trump));
    int gone = 10 - __builtin_popcountll(v->unseen & SUIT_MASK(led));
    return higher + (trumps ? trumps * 0.15 * gone / 10 : 0.0);
}

/* _View._partner_sure: the partner's winning card can no longer be beaten by any unseen card. */
static int partner_sure(const View *v) {
    int top = v->high_trump >= 0 ? v->high_trump : v->high_led;
    return !v->to_come || threats(v, top, v->led) == 0;
}

/* _View.card_score. */
static double card_score(const View *v, int c) {
    int led = v->led < 0 ? c / 10 : v->led, beats;
    double p;
    if (v->led < 0) beats = 1;
    else if (c / 10 == v->trump) beats = c > v->high_trump;
    else beats = c / 10 == led && v->high_trump < 0 && c > v->high_led;
    if (beats && !(v->partner_winning && partner_sure(v))) {
        double t = threats(v, c, led);
        if (t != 0) {
            double q = 0.85 - 0.3 * t;
            p = q > 0.05 ? q : 0.05;
        } else p = 1.0;
    } else if (v->partner_winning) p = partner_sure(v) ? 1.0 : 0.6;
    else p = v->partner_to_come ? 0.3 : 0.0;
    double trick = v->expected + CARD_POINTS[c];
    double spend = 0.4 * (c % 10) + (c / 10 == v->trump ? 3.0 : 0.0);
    if (v->keep >> c & 1) spend += PAIR_KEEP;
    return p * trick - (1 - p) * trick - spend + p * v->window;
}

/* policy._worth: what a card in hand is worth for the tricks to come. */
static double worth(int c, int trump) {
    return CARD_POINTS[c] + 0.4 * (c % 10) + (c / 10 == trump ? 4.0 : 0.0);
}

#define MAX_ACTIONS 64 /* 8 tutes, 16 cantes, 2 exchanges and a hand of at most 20 cards */

typedef struct {
    int count, kind[MAX_ACTIONS], seat[MAX_ACTIONS], value[MAX_ACTIONS];
    double score[MAX_ACTIONS];
} Scored;

static void add(Scored *out, int kind, int seat, int value, double score) {
    int i = out->count++;
    out->kind[i] = kind;
    out->seat[i] = seat;
    out->value[i] = value;
    out->score[i] = score;
}

/* policy.scores: Deal.legal_actions in its order, each with its score. */
static void scores(const Deal *d, Scored *out) {
    out->count = 0;
    if (OVER(d)) return;
    if (!d->tlen) {
        for (int seat = 0; seat < d->n; seat++) {
            u64 hand = d->hands[seat];
            for (int rank = 12; rank >= 11; rank--) { /* declarations.FOURS: the reyes, then the caballos */
                u64 four = FOUR(rank == 12 ? 7 : 6);
                if ((hand & four) == four && !tute_refused(d, seat, rank)) add(out, EVENT_TUTE, seat, rank, TUTE);
            }
            if (d->ntricks)
                for (int suit = 0; suit < 4; suit++)
                    if ((hand & REY_CABALLO(suit)) == REY_CABALLO(suit) && !cante_refused(d, seat, suit))
                        add(out, EVENT_CANTE, seat, suit,
                            DECLARE + (int)(suit == d->trump ? d->o[O_CUARENTA_POINTS] : d->o[O_CANTE_POINTS]));
        }
        if (d->o[O_EXCHANGE_SEVEN] || d->o[O_EXCHANGE_TWO]) {
            int swaps[2] = {d->trump * 10 + 4, d->trump * 10}; /* the trump 7, then the trump 2 */
            for (int i = 0; i < 2; i++)
                if (!exchange_refused(d, d->turn, swaps[i])) {
                    double gain = worth(d->turned, d->trump) - worth(swaps[i], d->trump);
                    add(out, EVENT_EXCHANGE, d->turn, swaps[i], gain > 0 ? DECLARE + gain : gain);
                }
        }
    }
    int seat = d->turn;
    u64 plays = d->stock_pos < d->free_below ? d->hands[seat] : allowed(d, seat);
    if (!plays) return;
    View v;
    view_of(d, seat, &v);
    for (u64 m = plays; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        add(out, EVENT_PLAY, seat, c, card_score(&v, c));
    }
}

/* policy.choose: the index of the best-scored action, the first of equals (as max() keeps it); -1: none. */
static int choose(const Scored *scored) {
    int best = -1;
    for (int i = 0; i < scored->count; i++)
        if (best < 0 || scored->score[i] > scored->score[best]) best = i;
    return best;
}

/* The end of a played-out deal as _rollout reads its score sheet: each side's card points with the last ten,
 * its totals with the cantes, and the tute's seat (-1: none). */
static PyObject *ending(const Deal *d, int tute_seat) {
    int sides = (int)d->o[O_SIDES], last_side = -1;
    if (d->turn < 0 && d->tute < 0) last_side = SIDE(d, d->t_winner[d->ntricks - 1]);
    PyObject *cards = PyTuple_New(sides), *totals = PyTuple_New(sides);
    if (!cards || !totals) {
        Py_XDECREF(cards);
        Py_XDECREF(totals);
        return NULL;
    }
    for (int k = 0; k < sides; k++) {
        int points = d->won[k] + (k == last_side ? (int)d->o[O_LAST_TRICK_BONUS] : 0), total = points;
        for (int i = 0; i < d->ncantes; i++)
            if (SIDE(d, d->c_seat[i]) == k) total += d->c_points[i];
        PyTuple_SET_ITEM(cards, k, PyLong_FromLong(points));
        PyTuple_SET_ITEM(totals, k, PyLong_FromLong(total));
    }
    return Py_BuildValue("(NNi)", cards, totals, tute_seat);
}

static PyObject *playout(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *options, *hands, *stock, *cards;
    const unsigned char *codes;
    Py_ssize_t ncodes;
    int leader, trump;
    if (!PyArg_ParseTuple(args, "O!O!O!iiy#O!", &PyTuple_Type, &options, &PyList_Type, &hands, &PyList_Type,
                          &stock, &leader, &trump, &codes, &ncodes, &PyList_Type, &cards))
        return NULL;
    Deal start;
    int tute_seat;
    Py_ssize_t illegal = deal_replay(&start, options, hands, stock, leader, trump, codes, ncodes, &tute_seat, NULL, NULL);
    if (illegal == -2) return NULL;
    if (illegal >= 0 || OVER(&start)) Py_RETURN_NONE;
    Py_ssize_t count = PyList_GET_SIZE(cards);
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(cards, i));
        if (c == -1 && PyErr_Occurred()) goto fail;
        Deal d;
        memcpy(&d, &start, sizeof d);
        int tuted = -1, index = (int)(ncodes / 2);
        if (c < 0 || c > 39 || deal_apply(&d, EVENT_PLAY, d.turn, (int)c, index++)) {
            PyErr_Format(PyExc_ValueError, "card %ld: not a legal play", c);
            goto fail;
        }
        while (!OVER(&d)) {
            Scored scored;
            scores(&d, &scored);
            int k = choose(&scored);
            if (k < 0 || deal_apply(&d, scored.kind[k], scored.seat[k], scored.value[k], index++)) {
                PyErr_SetString(PyExc_RuntimeError, "the play-out chose an action the rules refuse");
                goto fail;
            }
            if (scored.kind[k] == EVENT_TUTE) tuted = scored.seat[k];
        }
        PyObject *end = ending(&d, tuted);
        if (!end) goto fail;
        PyList_SET_ITEM(out, i, end);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* Where the events lead (tutepgn.analysis.worlds' check of a world): (the hands, the stock left) after them, or
 * None when one is not legal. */
static PyObject *replayed(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *options, *hands, *stock;
    const unsigned char *codes;
    Py_ssize_t ncodes;
    int leader, trump;
    if (!PyArg_ParseTuple(args, "O!O!O!iiy#", &PyTuple_Type, &options, &PyList_Type, &hands, &PyList_Type, &stock,
                          &leader, &trump, &codes, &ncodes))
        return NULL;
    Deal d;
    int tute_seat;
    Py_ssize_t illegal = deal_replay(&d, options, hands, stock, leader, trump, codes, ncodes, &tute_seat, NULL, NULL);
    if (illegal == -2) return NULL;
    if (illegal >= 0) Py_RETURN_NONE;
    PyObject *held = PyTuple_New(d.n), *left = PyTuple_New(d.stock_len - d.stock_pos);
    if (!held || !left) goto fail;
    for (int seat = 0; seat < d.n; seat++) {
        PyObject *v = PyLong_FromUnsignedLongLong(d.hands[seat]);
        if (!v) goto fail;
        PyTuple_SET_ITEM(held, seat, v);
    }
    for (int i = d.stock_pos; i < d.stock_len; i++) {
        PyObject *v = PyLong_FromLong(d.stock[i]);
        if (!v) goto fail;
        PyTuple_SET_ITEM(left, i - d.stock_pos, v);
    }
    return Py_BuildValue("(NN)", held, left);
fail:
    Py_XDECREF(held);
    Py_XDECREF(left);
    return NULL;
}

/* policy.scores after the events, for the tests: [(kind, seat, card or suit or rank, score)] in the order of
 * Deal.legal_actions; None when the events do not replay. */
static PyObject *policy_scores(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *options, *hands, *stock;
    const unsigned char *codes;
    Py_ssize_t ncodes;
    int leader, trump;
    if (!PyArg_ParseTuple(args, "O!O!O!iiy#", &PyTuple_Type, &options, &PyList_Type, &hands, &PyList_Type, &stock,
                          &leader, &trump, &codes, &ncodes))
        return NULL;
    Deal d;
    int tute_seat;
    Py_ssize_t illegal = deal_replay(&d, options, hands, stock, leader, trump, codes, ncodes, &tute_seat, NULL, NULL);
    if (illegal == -2) return NULL;
    if (illegal >= 0) Py_RETURN_NONE;
    Scored scored;
    scores(&d, &scored);
    PyObject *out = PyList_New(scored.count);
    if (!out) return NULL;
    for (int i = 0; i < scored.count; i++) {
        PyObject *item = Py_BuildValue("(iiid)", scored.kind[i], scored.seat[i], scored.value[i], scored.score[i]);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

/* Python's sum() of floats, as the running interpreter adds them (3.12 and later compensate, Neumaier's way). */
static double python_sum(const double *x, int count) {
    if (!count) return 0.0;
    double total = x[0];
#if PY_VERSION_HEX >= 0x030C0000
    double c = 0.0;
    for (int i = 1; i < count; i++) {
        double t = total + x[i];
        c += fabs(total) >= fabs(x[i]) ? (total - t) + x[i] : (x[i] - t) + total;
        total = t;
    }
    if (c && isfinite(c)) total += c;
#else
    for (int i = 1; i < count; i++) total += x[i];
#endif
    return total;
}

/* policy.probabilities of the action k of the scored ones: the softmax at the temperature, mixed with FLOOR. */
static double probability(const Scored *scored, int k, double temperature) {
    double top = scored->score[0], weights[MAX_ACTIONS] = {0};
    for (int i = 1; i < scored->count; i++)
        if (scored->score[i] > top) top = scored->score[i];
    for (int i = 0; i < scored->count; i++) weights[i] = exp((scored->score[i] - top) / temperature);
    double total = python_sum(weights, scored->count), even = FLOOR / scored->count;
    return (1 - FLOOR) * weights[k] / total + even;
}

typedef struct {
    int me;
    double temperature, total;
} Likelihood;

/* log_likelihood's look at an event before it is applied: adds the log of its probability when another seat's,
 * refuses it when the play model does not list it (not legal). */
static int add_log(const Deal *d, int kind, int seat, int value, void *context) {
    Likelihood *l = context;
    if (seat == l->me) return 0;
    Scored scored;
    scores(d, &scored);
    int k = 0;
    while (k < scored.count && (scored.kind[k] != kind || scored.seat[k] != seat || scored.value[k] != value)) k++;
    if (k == scored.count) return 1;
    l->total += log(probability(&scored, k, l->temperature));
    return 0;
}

/* tutepgn.analysis.worlds.log_likelihood from one starting deal: the sum of the logs of the play model's
 * probability of each event of a seat other than me, before it is applied; None when an event is not legal. */
static PyObject *log_likelihood(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *options, *hands, *stock;
    const unsigned char *codes;
    Py_ssize_t ncodes;
    int leader, trump, me;
    double temperature;
    if (!PyArg_ParseTuple(args, "O!O!O!iiy#id", &PyTuple_Type, &options, &PyList_Type, &hands, &PyList_Type,
                          &stock, &leader, &trump, &codes, &ncodes, &me, &temperature))
        return NULL;
    Likelihood l = {me, temperature, 0.0};
    Deal d;
    int tute_seat;
    Py_ssize_t illegal = deal_replay(&d, options, hands, stock, leader, trump, codes, ncodes, &tute_seat, add_log, &l);
    if (illegal == -2) return NULL;
    if (illegal >= 0) Py_RETURN_NONE; /* an event not legal (Python's KeyError or IllegalAction) */
    return PyFloat_FromDouble(l.total);
}

static PyMethodDef playout_methods[] = {
    {"playout", playout, METH_VARARGS,
     "playout(options, hands, stock, leader, trump, codes, cards): each card played after the events and the "
     "deal played out by the play model: [(card points with the last ten per side, totals per side, tute seat "
     "or -1)], one per card; None when the events do not replay or end the deal."},
    {"policy_scores", policy_scores, METH_VARARGS,
     "policy_scores(options, hands, stock, leader, trump, codes): after the events, the play model's legal "
     "actions in order, each (kind, seat, card or suit or rank, score); None when the events do not replay."},
    {"replayed", replayed, METH_VARARGS,
     "replayed(options, hands, stock, leader, trump, codes): (the hands, the stock left) after the events, or None "
     "when one is not legal."},
    {"log_likelihood", log_likelihood, METH_VARARGS,
     "log_likelihood(options, hands, stock, leader, trump, codes, me, temperature): the log of the play model's "
     "probability of the events of the seats other than me, from this start; None when one is not legal."},
    {NULL, NULL, 0, NULL},
};

/* Called by PyInit_ccore: the play-out joins the solver's module. */
int playout_add(PyObject *module) {
    return PyModule_AddFunctions(module, playout_methods);
}
