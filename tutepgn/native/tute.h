/* The game as both C files of the core need it, written once: cards, masks, points, the cante pair and the
 * play duties.  Python keeps the reference of each (tutepgn/cards.py, tutepgn/declarations.py,
 * tutepgn/duties.py); the layouts shared with Python are generated apart, in layout.h.
 *
 * Cards are ints suit*10+strength (strength 0 = the 2, 9 = the as); hands are 40-bit masks.
 */
#ifndef TUTEPGN_TUTE_H
#define TUTEPGN_TUTE_H

#include <stdint.h>

#include "layout.h"

typedef uint64_t u64;

#define BIT(c) (1ULL << (c))
#define SUIT_MASK(s) (1023ULL << (10 * (s)))
#define ABOVE(c) (SUIT_MASK((c) / 10) & ~((2ULL << (c)) - 1)) /* the cards of c's suit stronger than c */
#define REY_CABALLO(s) (3ULL << (10 * (s) + 6))                /* caballo (strength 6) and rey (7) of a suit */
#define FOUR(strength) ((1ULL | 1ULL << 10 | 1ULL << 20 | 1ULL << 30) << (strength))

#define P10 0, 0, 0, 0, 0, 2, 3, 4, 10, 11
static const unsigned char CARD_POINTS[40] = {P10, P10, P10, P10}; /* by card: no division in the search */
#undef P10

/* tutepgn.duties.play_duty: the cards of hand that may be played, given the suit led (-1: leading), the
 * strongest card of it in the trick, the strongest trump (-1: none), whether a partner is winning the trick
 * and the duty word (layout.h's DUTY_* bits). */
static inline u64 play_duty(u64 hand, int led, int high_led, int high_trump, int trump, int partner_winning,
                            int duties) {
    if (led < 0) return hand;
    u64 follow = hand & SUIT_MASK(led);
    if (partner_winning && (duties & DUTY_PARTNER_WINNING_EXEMPTS))
        return (follow && (duties & DUTY_MUST_FOLLOW)) ? follow : hand;
    if (follow && (duties & DUTY_MUST_FOLLOW)) {
        int high = high_led;
        if (led == trump) high = high_trump;
        else if ((duties & DUTY_BEAT_WAIVED_WHEN_TRUMPED) && high_trump >= 0) return follow;
        if (duties & DUTY_MUST_BEAT) {
            u64 beat = follow & ABOVE(high);
            if (beat) return beat;
        }
        return follow;
    }
    if ((duties & DUTY_MUST_TRUMP) && !follow) {
        u64 trumps = hand & SUIT_MASK(trump);
        if (trumps) {
            if (high_trump < 0 || !(duties & DUTY_MUST_OVERTRUMP)) return trumps;
            u64 over = trumps & ABOVE(high_trump);
            if (over) return over;
            if (duties & DUTY_MUST_UNDERTRUMP) return trumps;
        }
    }
    return hand;
}

#endif
