/* lald/core/_rules.h: the rules both compiled extensions play, written once.
 *
 * lald.core._kernel (the play-outs, the dealing and the search, on per-rank counts) and
 * lald.rl.vector._vector (N tables for reinforcement learning, on 52-bit card sets) hold a deal in
 * different shapes, but the rules that do not depend on the shape are here, once, and both
 * include this file: the order of the turns and of the claims, when a deal ends and who
 * survives it, the settlement's arithmetic, and the deal's shuffle (SplitMix64 and
 * lald.core.rng.PortableRandom's plan of swaps).  What depends on the cards themselves (which
 * captures a rank allows, what each claim moves) comes from Python's tables
 * (lald.core.fast, lald.core.fast.tables) to both.
 *
 * The pure reference of each rule is named beside it; the twins and the tests that bind
 * them are listed in docs/architecture.md ("The compiled twins").  Everything here is
 * static inline and needs only C99 and <stdint.h>: each extension compiles its own copy of
 * this one source, and the compiler inlines it in the loops (no call, no speed lost).
 */
#ifndef LALD_RULES_H
#define LALD_RULES_H

#include <stdint.h>

#define LALD_MAX_SEATS 5
#define LALD_RANKS 13

/* ---- bits ------------------------------------------------------------------------------ */

static inline int lald_popcount(uint32_t v) {
    int c = 0;
    while (v) { v &= v - 1; c++; }
    return c;
}

static inline int lald_lowest(uint32_t v) { /* v != 0 */
#if defined(__GNUC__)
    return __builtin_ctz(v);
#else
    int r = 0;
    while (!(v & 1u)) { v >>= 1; r++; }
    return r;
#endif
}

/* ---- the order of play (State._next_turn, State._after_claim; the tables' ring) --------- */

/* The next seat clockwise after ``seat`` among the seats of the mask ``holders`` (those
 * that still hold cards); ``seat`` itself when there is none. */
static inline int lald_next_holder(uint32_t holders, int seat, int n) {
    for (int i = 1; i <= n; i++) {
        const int s = (seat + i) % n;
        if (holders >> s & 1u) return s;
    }
    return seat;
}

/* ring[holders][seat] = lald_next_holder(holders, seat, n), for every mask of n seats. */
static inline void lald_ring_fill(uint8_t ring[1 << LALD_MAX_SEATS][LALD_MAX_SEATS], int n) {
    for (uint32_t h = 0; h < (1u << n); h++)
        for (int s = 0; s < n; s++) ring[h][s] = (uint8_t)lald_next_holder(h, s, n);
}

/* The eldest hand: the dealer's left, who plays first and is first offered claims. */
static inline int lald_eldest(int dealer, int n) { return (dealer + 1) % n; }

/* The first seat offered claims in a claim window (State.claim_order): the seat after the
 * last to act, the eldest before anyone acted (``last_actor`` < 0). */
static inline long lald_claim_first(long last_actor, long eldest, int n) {
    return last_actor < 0 ? eldest : (last_actor + 1) % n;
}

/* The bookkeeping after a move of ``seat`` (State._next_turn after a turn move, ``turn``;
 * State._after_claim after a claim): ``out`` says the move left it without a card, and it
 * leaves the ring of holders; one holder or none left ends the deal (1 is returned).
 * Otherwise the turn passes on after a turn move, and after a claim that emptied the hand of
 * the seat to move; ``ring`` is lald_ring_fill's.  The mover needs not hold cards any more
 * when the deal ends. */
static inline int lald_after_move(const uint8_t ring[1 << LALD_MAX_SEATS][LALD_MAX_SEATS], uint32_t *holders,
                                  long *to_move, long seat, int turn, int out) {
    if (out) {
        *holders &= ~(1u << seat);
        if (!(*holders & (*holders - 1u))) return 1; /* one holder or none */
    }
    if (seat == *to_move && (turn || out)) *to_move = ring[*holders][*to_move];
    return 0;
}

/* The survivor of a deal that is over: the one seat left holding cards, or -1 (none). */
static inline int lald_survivor(uint32_t holders) { return holders ? lald_lowest(holders) : -1; }

/* ---- the heuristic's claims (HeuristicPolicy.claim, the level's habits; playout.first_claim) ---- */

/* How the heuristic ranks one seat's open claim of ``rank``, a spotter claim (``spotter``)
 * or one from its hand: every claim from the hand, lowest rank first (it sets every prial
 * and mournival aside and banks every dead rank at once), then, when it is the seat to move
 * (``is_mover``), the spotter claims, lowest rank first; the other spotter claims it lets
 * pass (-1).  A seat polled makes its claim of the smallest key; the kernel's roll-out,
 * which asks every seat at once, the first seat's in claim order. */
static inline long lald_heuristic_claim_key(int spotter, int rank, int is_mover) {
    if (spotter && !is_mover) return -1;
    return (long)spotter * LALD_RANKS + rank;
}

/* ---- the end and the settlement (scoring.settle, scoring.round_pairs) ---------------------- */

/* Pairs won over (or short of) the quota: ``d`` cards / 2, rounded towards zero or, with
 * floor rounding, down. */
static inline long lald_round_pairs(long d, int floor_rounding) {
    if (d >= 0) return d / 2;
    return floor_rounding ? -((-d + 1) / 2) : -((-d) / 2);
}

/* The prize rules (PrizeRule), as lald_prize_to takes them. */
enum { LALD_PRIZE_SURVIVOR = 0, LALD_PRIZE_LAST_CAPTURE = 1, LALD_PRIZE_LAST_CARD = 2 };

/* Who takes the prize: the survivor, the last to capture on a turn, or the last to take
 * cards by a capture or a claim (-1: nobody did, no prize). */
static inline long lald_prize_to(int prize_rule, long survivor, long last_capture, long last_take) {
    return prize_rule == LALD_PRIZE_SURVIVOR ? survivor
         : prize_rule == LALD_PRIZE_LAST_CAPTURE ? last_capture : last_take;
}

/* A seat's chips from the deal before its ante: its pairs, and the prize if it takes it. */
static inline long lald_deal_chips(long won, int quota, int floor_rounding, long seat, long prize_to, long prize) {
    return lald_round_pairs(won - quota, floor_rounding) + (prize_to >= 0 && seat == prize_to ? prize : 0);
}

/* The winners of the deal (DealResult.winners) as a mask: every seat with the most cards won. */
static inline uint32_t lald_winners(const long *won, int n) {
    long best = won[0];
    for (int s = 1; s < n; s++) if (won[s] > best) best = won[s];
    uint32_t mask = 0;
    for (int s = 0; s < n; s++) if (won[s] == best) mask |= 1u << s;
    return mask;
}

/* ---- the deal's shuffle: lald.core.rng.PortableRandom ------------------------------------ */

/* SplitMix64: PortableRandom's generator (its state advanced, the next draw returned). */
static inline uint64_t lald_splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* floor(2**64 / m) for m >= 2 */
static inline uint64_t lald_two64_over(uint64_t m) {
    return UINT64_MAX / m + (UINT64_MAX % m == m - 1 ? 1u : 0u);
}

/* One draw's worth of PortableRandom.shuffle (rng._plan): with ``*m`` slots left (> 1), the
 * moduli m, m - 1, ... whose product fits in 2**64, at most 64 of them, into ``moduli``;
 * ``*m`` goes down past them.  Returns how many, and ``*rem`` = 2**64 mod their product: a
 * draw at or above 2**64 - rem is drawn again (none when rem is 0).  The draw then gives the
 * swaps in turn: slot i (from the last down) with lald_shuffle_take(&draw, modulus). */
static inline int lald_shuffle_group(uint64_t *m, uint64_t moduli[64], uint64_t *rem) {
    int count = 0;
    uint64_t product = 1;
    while (*m > 1 && product <= lald_two64_over(*m)) { /* product * m <= 2**64 */
        product *= *m;
        moduli[count++] = *m;
        *m -= 1;
    }
    *rem = (UINT64_MAX % product + 1u) % product;
    return count;
}

/* The draw a group may use: ``x`` drawn again while at or above 2**64 - rem. */
#define LALD_ACCEPTED(x, rem) (!(rem) || (x) < 0u - (uint64_t)(rem))

/* The next swap's other slot, read from the draw ``*x``. */
static inline uint64_t lald_shuffle_take(uint64_t *x, uint64_t modulus) {
    const uint64_t j = *x % modulus;
    *x /= modulus;
    return j;
}

#endif /* LALD_RULES_H */
