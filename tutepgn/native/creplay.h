/* The deal as creplay.c replays it, shared with the play-out (playout.c): the state, the rules' refusals and
 * one event applied.  creplay.c holds the code; tute.h the game under it. */
#ifndef TUTEPGN_CREPLAY_H
#define TUTEPGN_CREPLAY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "tute.h"

#define MAX_TRICKS 20

typedef struct {
    long o[NOPTIONS];
    int n, trump, free_below;
    u64 hands[4], played;                               /* played: the cards of the tricks and of the table */
    int stock[40], stock_len, stock_pos, turned;
    int leader, turn, trick[4], tlen, led, high_led, high_trump, winning;
    int ntricks, t_leader[MAX_TRICKS], t_cards[MAX_TRICKS][4], t_winner[MAX_TRICKS], t_points[MAX_TRICKS];
    int won[4], wins[4];
    int ncantes, c_seat[4], c_suit[4], c_points[4];
    int sung, barred, lost[4], last_draw[4], tute;      /* tute: the index of the tute event, -1 */
    int window_side, window_cantes, window_after_draw;  /* window_side -1: no declaration window */
} Deal;

#define SIDE(d, seat) ((int)(d)->o[O_SIDE0 + (seat)])
#define OVER(d) ((d)->tute >= 0 || (d)->turn < 0)

u64 allowed(const Deal *d, int seat);                   /* the cards the seat may play once duties apply */
int cante_refused(const Deal *d, int seat, int suit);   /* declarations.cante_refusal, as a yes or no */
int tute_refused(const Deal *d, int seat, int rank);    /* declarations.tute_refusal */
int exchange_refused(const Deal *d, int seat, int c);   /* declarations.exchange_refusal */
int deal_apply(Deal *d, int kind, int seat, int value, int index);  /* Deal.apply: 0, or 1 if refused */
int deal_start(Deal *d, PyObject *options, PyObject *hands, PyObject *stock, int leader, int trump);
typedef int (*EventHook)(const Deal *d, int kind, int seat, int value, void *context); /* nonzero: refused */
Py_ssize_t deal_events(Deal *d, const unsigned char *codes, Py_ssize_t ncodes, int *tute_seat, EventHook before,
                       void *context);
/* deal_start, then deal_events: the same answer, -2 too when the start is refused (an exception set). */
Py_ssize_t deal_replay(Deal *d, PyObject *options, PyObject *hands, PyObject *stock, int leader, int trump,
                       const unsigned char *codes, Py_ssize_t ncodes, int *tute_seat, EventHook before, void *context);

#endif
