/* lald.rl.vector._vector: N tables of Laugh and Lie Down stepped in one call, for lald.rl.vector.
 *
 * Each table is one deal played as lald.rl.deal.Deal plays it (the claim window, then the
 * turn), on the engine's 52-bit card sets (lald.core.engine.state.State): hands, table and won
 * piles as masks, rank r the nibble at bit 4r.  A decision takes an action ID of
 * lald.bots.learned.encoding and makes the engine's canonical action for it (the lowest suits); the
 * observation written for a seat is lald.bots.learned.encoding.observe's 451 float32 numbers, the
 * legal mask the IDs Deal.legal holds.  Everything the rules decide that is not a card
 * count comes from Python at construction (lald.rl.vector.tables._config): which captures each
 * (hand count, table count) of a rank allows and how many concrete captures each stands
 * for (lald.core.fast's tables), the claim options, the settlement's numbers, the
 * observation's layout and its 22 rules numbers.  The order of play, the claim order, the
 * end of a deal, the settlement's arithmetic and the shuffle are the kernel's too, written
 * once in lald/core/_rules.h; the rules that need card sets stay here (which ranks a seat
 * may claim, the cards each action moves).  tests/rl/vector/test_vector.py holds every
 * observation, mask, reward and deal to the pure path (lald.rl.vector.vecpy.PyTables, built on
 * Deal and observe) and to the PettingZoo adapter.
 *
 * Deals are dealt as lald.core.rng.PortableRandom (SplitMix64, the batched Fisher-Yates)
 * and State.deal do: a seed names a deal.  Each table also has a SplitMix64 stream for its
 * own draws (the random opponents, a random learner seat, random_actions), drawn as
 * PortableRandom.below draws.
 *
 * Arrays come and go through the buffer protocol (numpy's, without numpy's headers).
 * C99, CPython C API only.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

#include "../../core/_rules.h" /* the rules the kernel plays too: turns, claims' order, the end, the settlement, the shuffle */

#define MAXP LALD_MAX_SEATS
#define NRANKS 13
#define NACT 80
#define PASS_ID 79
#define LIE_ID 78
#define CLAIM0 65
#define TRAIL0 52
#define ONES 0x1111111111111ULL /* bit 0 of every rank's nibble */
#define DECK 52
#define MAX_HISTORY (DECK + NRANKS) /* encoding.MAX_HISTORY: the most actions a deal holds */
#define HISTORY_SLOT 26            /* encoding.HISTORY_SLOT */

enum { TURN = 0, CLAIM = 1, NONE = 2 };
enum { OPP_RANDOM = 0, OPP_EXTERNAL = 1, OPP_GREEDY = 2, OPP_HEURISTIC = 3 };
enum { AUTO_NEXT = 0, AUTO_SAME = 1, AUTO_OFF = 2 };
enum { MODE_ALL = 0, MODE_SEAT = 1 };

/* ---- the rules and the layout, as Python gives them ---------------------------------- */

typedef struct {
    int n, quota;
    int lie_down, hand_sets, own_sets, dead_all, dead_own, spotter, face_down, mournival;
    int card_count, prize_survivor, prize, ante_dealer, ante_other, floor_rounding;
    uint8_t cap[5][5];          /* bit k: capture kind k is legal with h in hand, t on the table */
    uint32_t capw[5][5][4];     /* concrete captures each kind stands for */
    int play[4], take[4];       /* cards played and taken by each kind (codes.SHAPES) */
    float rules_block[22];
    /* the observation's layout (encoding.LAYOUT) */
    int obs_size, o_hand, o_table, o_won, o_hs, o_ws, o_st, o_pr, o_dl, o_tm, o_lc, o_cf, o_se,
        o_fl, o_pot, o_bal, o_ru;
    int planes; /* the card planes lie side by side from 0, the rest after them */
    int history, o_hist; /* the latest actions the observation shows (encoding.history_block), and where */
    double chip_scale, chip_limit;
    uint8_t ring[1 << MAXP][MAXP]; /* lald_ring_fill's: the next holder after each seat */
    /* the heuristic opponents' turn scores (opponents.heuristic_scores): a capture's by its
     * kind and the rank's counts (the seat's, the table's, the cards it cannot place), a
     * trail's by the last */
    double cap_score[4][5][5][5], trail_score[5];
    struct Key *key;            /* keyed deals (NULL: seeded ones) */
} Config;

/* ---- one table ------------------------------------------------------------------------ */

typedef struct {
    uint64_t hand[MAXP], won[MAXP], down[MAXP];
    uint64_t table;
    uint64_t seed;          /* the seed that names this deal */
    uint64_t rng;           /* SplitMix64 state of the table's own draws */
    uint64_t legal[2];      /* the legal IDs of the deciding seat: bits 0-63, 64-79 */
    double acc;             /* one-seat mode: the learner's reward this step */
    int32_t chips[MAXP];    /* each seat's chips for the deal: the antes, then the settlement */
    int32_t pot;
    uint16_t win_claims[MAXP];
    int8_t win_seat[MAXP];
    int8_t win_len, win_pos;
    int8_t dealer, to_move, last_capture, last_actor, foreplay, over;
    uint8_t holders;        /* bit s: seat s holds cards */
    int8_t lain[MAXP];
    int8_t seat, deciding;  /* the seat to decide (-1 once over) and what it decides */
    uint8_t winners;        /* bit s: seat s has the most won cards (once over) */
    int8_t learner;         /* one-seat mode: the learner's seat */
    int8_t started;         /* one-seat mode: the learner has been offered a decision this deal */
    int8_t pending;         /* one-seat mode: the episode ended; deal again at the next step */
    int8_t term, illegal;   /* one-seat mode: this step's termination, and why */
    uint8_t acts;           /* the actions of the deal so far, oldest first in ``act``: */
    uint16_t act[MAX_HISTORY]; /* seat << 8 | face down << 7 | action ID */
} Tab;

typedef struct {
    PyObject_HEAD
    Config c;
    Tab *t;
    Py_ssize_t count;
    uint64_t stride;        /* a table's next deal is named by its seed plus the stride */
    int mode, opponents, autoreset, random_seat;
    int busy;               /* a step runs without the GIL: no other call may touch the tables */
} TablesObject;

/* ---- bits ------------------------------------------------------------------------------ */

static const uint8_t NIB[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

static inline int ctz64(uint64_t v) { return __builtin_ctzll(v); }

static inline int pop64(uint64_t v) { /* inline: without -mpopcnt the builtin is a call */
    v = v - ((v >> 1) & 0x5555555555555555ULL);
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((v * 0x0101010101010101ULL) >> 56);
}

static inline uint64_t nz(uint64_t m) { /* bit 4r where rank r's nibble is not empty */
    m |= m >> 1;
    m |= m >> 2;
    return m & ONES;
}

static inline uint64_t at3(uint64_t m) { /* bit 4r where rank r's nibble holds 3 or 4 */
    uint64_t c = m - ((m >> 1) & (ONES * 5));
    c = (c & (ONES * 3)) + ((c >> 2) & (ONES * 3));
    return ((c >> 2) | (c >> 1 & c)) & ONES;
}

static inline uint16_t ranks_of(uint64_t flags) { /* nibble flags -> a 13-bit rank mask */
    uint16_t out = 0;
    while (flags) {
        int sh = ctz64(flags);
        flags &= flags - 1;
        out |= (uint16_t)(1u << (sh >> 2));
    }
    return out;
}

static inline uint64_t lowest_k(uint64_t nib, int k) { /* the k lowest bits of a nibble */
    uint64_t out = 0;
    while (k-- > 0 && nib) {
        uint64_t low = nib & (~nib + 1);
        out |= low;
        nib ^= low;
    }
    return out;
}

static inline void set_id(Tab *T, int id) { T->legal[id >> 6] |= 1ULL << (id & 63); }
static inline int has_id(const Tab *T, int id) { return (int)(T->legal[id >> 6] >> (id & 63) & 1); }

/* ---- SplitMix64, as lald.core.rng.PortableRandom ---------------------------------------- */

static uint64_t below(uint64_t *s, uint64_t n) { /* PortableRandom.below: n >= 1 */
    uint64_t rem = (0 - n) % n; /* 2**64 mod n; the draws from 2**64 - rem up are drawn again */
    for (;;) {
        uint64_t x = lald_splitmix64(s);
        if (!rem || x < 0 - rem) return x % n;
    }
}

/* the shuffle's plan for 52 cards (rng._plan, made by lald_shuffle_group): the moduli read
 * from each draw, and 2**64 mod their product (the draws from 2**64 - rem up are drawn again) */
static int plan_len = 0;
static int plan_count[DECK];
static uint64_t plan_mod[DECK][64];
static uint64_t plan_rem[DECK];

static void make_plan(void) {
    uint64_t m = DECK;
    plan_len = 0;
    while (m > 1) {
        plan_count[plan_len] = lald_shuffle_group(&m, plan_mod[plan_len], &plan_rem[plan_len]);
        plan_len++;
    }
}

/* ---- keyed draws, as lald.core.rng.KeyedRandom: HMAC-SHA256 (FIPS 180-4, RFC 2104) ------ */

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};
static const uint32_t H256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

#define ROR(x, n) ((x) >> (n) | (x) << (32 - (n)))

static void sha_block(uint32_t h[8], const uint8_t *b) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 | (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = hh + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i];
        uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c));
        hh = g; g = f; f = e; e = d + t1; d = c; c = bb; bb = a; a = t1 + t2;
    }
    h[0] += a; h[1] += bb; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

/* The last blocks of a message of ``total`` bytes whose first ``done`` bytes (a multiple of
 * 64) are in h already; ``tail`` holds the rest. */
static void sha_finish(uint32_t h[8], const uint8_t *tail, size_t rest, uint64_t total, uint8_t out[32]) {
    uint8_t b[128] = {0};
    memcpy(b, tail, rest);
    b[rest] = 0x80;
    size_t len = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = total * 8;
    for (int i = 0; i < 8; i++) b[len - 1 - i] = (uint8_t)(bits >> (8 * i));
    sha_block(h, b);
    if (len == 128) sha_block(h, b + 64);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(h[i] >> 24); out[4 * i + 1] = (uint8_t)(h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(h[i] >> 8); out[4 * i + 3] = (uint8_t)h[i];
    }
}

static void sha256(const uint8_t *data, size_t len, uint8_t out[32]) {
    uint32_t h[8];
    memcpy(h, H256, sizeof h);
    size_t at = 0;
    for (; at + 64 <= len; at += 64) sha_block(h, data + at);
    sha_finish(h, data + at, len - at, len, out);
}

typedef struct Key {
    uint32_t inner[8], outer[8]; /* SHA-256 after the key's ipad and opad blocks */
} Key;

static void key_set(Key *k, const uint8_t *secret, size_t len) {
    uint8_t kb[64] = {0}, pad[64];
    if (len > 64) sha256(secret, len, kb);
    else memcpy(kb, secret, len);
    for (int i = 0; i < 64; i++) pad[i] = kb[i] ^ 0x36;
    memcpy(k->inner, H256, sizeof k->inner);
    sha_block(k->inner, pad);
    for (int i = 0; i < 64; i++) pad[i] = kb[i] ^ 0x5c;
    memcpy(k->outer, H256, sizeof k->outer);
    sha_block(k->outer, pad);
}

static void hmac(const Key *k, const uint8_t *msg, size_t len, uint8_t out[32]) { /* len <= 119 */
    uint32_t h[8];
    uint8_t inner[32];
    memcpy(h, k->inner, sizeof h);
    sha_finish(h, msg, len, 64 + len, inner);
    memcpy(h, k->outer, sizeof h);
    sha_finish(h, inner, 32, 64 + 32, out);
}

/* A stream of 64-bit draws: SplitMix64 from a seed, or KeyedRandom(secret, purpose, number):
 * the words of HMAC-SHA256(secret, "lald/<purpose>/<number>/" + counter as 8 bytes big-endian),
 * four a digest, each read big-endian from its first eight bytes on. */
typedef struct {
    const Key *key;
    uint64_t s;
    uint8_t msg[64];
    int label;
    uint64_t counter;
    uint64_t words[4];
    int next;
} Gen;

static void gen_init(Gen *g, const Key *key, uint64_t seed, const char *purpose) {
    g->key = key;
    g->s = seed;
    g->counter = 0;
    g->next = 4;
    if (key) g->label = snprintf((char *)g->msg, sizeof g->msg - 8, "lald/%s/%llu/", purpose, (unsigned long long)seed);
}

static uint64_t gen_next(Gen *g) {
    if (!g->key) return lald_splitmix64(&g->s);
    if (g->next == 4) {
        uint8_t d[32];
        for (int i = 0; i < 8; i++) g->msg[g->label + i] = (uint8_t)(g->counter >> (56 - 8 * i));
        hmac(g->key, g->msg, (size_t)g->label + 8, d);
        g->counter++;
        for (int w = 0; w < 4; w++) {
            uint64_t v = 0;
            for (int i = 0; i < 8; i++) v = v << 8 | d[8 * w + i];
            g->words[w] = v;
        }
        g->next = 0;
    }
    return g->words[g->next++];
}

static void shuffle_deck(Gen *g, uint8_t deck[DECK]) {
    for (int i = 0; i < DECK; i++) deck[i] = (uint8_t)i;
    int i = DECK - 1;
    for (int p = 0; p < plan_len; p++) {
        uint64_t x = gen_next(g);
        while (!LALD_ACCEPTED(x, plan_rem[p])) x = gen_next(g);
        for (int k = 0; k < plan_count[p]; k++) {
            uint64_t j = lald_shuffle_take(&x, plan_mod[p][k]);
            uint8_t tmp = deck[i];
            deck[i] = deck[j];
            deck[j] = tmp;
            i--;
        }
    }
}

/* ---- the deal --------------------------------------------------------------------------- */

static void open_window(const Config *c, Tab *T);

static int ante_of(const Config *c, int seat, int dealer) {
    return seat == dealer ? c->ante_dealer : c->ante_other;
}

static int total_antes(const Config *c) {
    return c->card_count ? 0 : c->ante_dealer + (c->n - 1) * c->ante_other;
}

/* Start table T from hands and table as dealt (State._start, with pot 0 and no balances). */
static void start(const Config *c, Tab *T, const uint64_t *hands, uint64_t table, int dealer) {
    int n = c->n;
    for (int s = 0; s < MAXP; s++) {
        T->hand[s] = s < n ? hands[s] : 0;
        T->won[s] = T->down[s] = 0;
        T->lain[s] = 0;
        T->chips[s] = 0;
    }
    T->table = table;
    T->dealer = (int8_t)dealer;
    T->to_move = (int8_t)lald_eldest(dealer, n);
    T->last_capture = T->last_actor = -1;
    T->holders = 0;
    for (int s = 0; s < n; s++)
        if (T->hand[s]) T->holders |= (uint8_t)(1u << s);
    T->foreplay = 1;
    T->over = 0;
    T->winners = 0;
    T->acts = 0;
    if (c->mournival) {
        uint64_t fours = table & table >> 1 & table >> 2 & table >> 3 & ONES;
        while (fours) {
            uint64_t low = fours & (~fours + 1);
            fours ^= low;
            uint64_t m = low * 15;
            T->table ^= m;
            T->won[dealer] |= m;
        }
    }
    int antes = total_antes(c);
    if (antes)
        for (int s = 0; s < n; s++) T->chips[s] = -ante_of(c, s, dealer);
    T->pot = antes;
    open_window(c, T);
}

/* State.deal(rules, seed, dealer): one card at a time clockwise from the eldest; with a key,
 * State.deal_from(rules, KeyedRandom(secret, "deal", seed), dealer). */
static void deal(const Config *c, Tab *T, uint64_t seed, int dealer) {
    uint8_t deck[DECK];
    uint64_t hands[MAXP] = {0};
    int n = c->n, dealt = n * c->quota;
    Gen g;
    gen_init(&g, c->key, seed, "deal");
    shuffle_deck(&g, deck);
    for (int k = 0; k < dealt; k++) hands[(dealer + 1 + k % n) % n] |= 1ULL << deck[k];
    uint64_t table = 0;
    for (int k = dealt; k < DECK; k++) table |= 1ULL << deck[k];
    T->seed = seed;
    start(c, T, hands, table, dealer);
}

static int dealer_of(const Config *c, uint64_t seed) { return (int)(seed % (uint64_t)c->n); }

/* ---- what may be done ---------------------------------------------------------------------- */

static inline uint64_t live_of(const Config *c, const Tab *T) {
    uint64_t live = T->table;
    for (int s = 0; s < c->n; s++) live |= T->hand[s];
    return live;
}

static inline int set_window(const Config *c, const Tab *T, int seat) {
    return c->hand_sets && (T->foreplay || (seat == T->to_move && c->own_sets));
}

/* The ranks ``seat`` may claim now (State.claims): hand sets, dead ranks, spotter claims. */
static uint16_t claims_of(const Config *c, const Tab *T, int seat, uint64_t live, uint64_t spotted) {
    if (T->over) return 0;
    uint64_t f = 0, hand = T->hand[seat];
    if (hand) {
        int own = seat == T->to_move;
        if (set_window(c, T, seat)) f |= at3(hand);
        if (c->dead_all || (own && c->dead_own)) f |= nz(hand) & ~nz(live & ~hand);
    }
    if (c->spotter) f |= spotted;
    return ranks_of(f);
}

static void turn_ids(const Config *c, Tab *T, int seat) {
    uint64_t hand = T->hand[seat], table = T->table;
    uint64_t f = nz(hand) & nz(table);
    int any = 0;
    while (f) {
        int sh = ctz64(f);
        f &= f - 1;
        int r = sh >> 2;
        int kinds = c->cap[NIB[hand >> sh & 15]][NIB[table >> sh & 15]];
        for (int k = 0; k < 4; k++)
            if (kinds >> k & 1) {
                set_id(T, k * NRANKS + r);
                any = 1;
            }
    }
    if (any) return;
    if (c->lie_down) {
        set_id(T, LIE_ID);
        return;
    }
    for (uint64_t h = nz(hand); h; h &= h - 1) set_id(T, TRAIL0 + (ctz64(h) >> 2));
}

/* Deal._next: the polled seat of the claim window, else the seat to move. */
static void next_decision(const Config *c, Tab *T) {
    T->legal[0] = T->legal[1] = 0;
    if (T->win_pos < T->win_len) {
        T->seat = T->win_seat[T->win_pos];
        T->deciding = CLAIM;
        for (uint16_t m = T->win_claims[T->win_pos]; m; m &= (uint16_t)(m - 1))
            set_id(T, CLAIM0 + __builtin_ctz(m));
        set_id(T, PASS_ID);
    } else if (T->over) {
        T->seat = -1;
        T->deciding = NONE;
    } else {
        T->seat = T->to_move;
        T->deciding = TURN;
        turn_ids(c, T, T->to_move);
    }
}

/* Deal._open: after an action, poll the seats with claims in claim order. */
static void open_window(const Config *c, Tab *T) {
    T->win_len = T->win_pos = 0;
    if (!T->over) {
        int n = c->n;
        uint64_t live = live_of(c, T);
        uint64_t spotted = nz(T->table) & ~nz(live & ~T->table);
        int first = (int)lald_claim_first(T->last_actor, lald_eldest(T->dealer, n), n);
        for (int i = 0; i < n; i++) {
            int s = (first + i) % n;
            uint16_t cl = claims_of(c, T, s, live, spotted);
            if (cl) {
                T->win_seat[T->win_len] = (int8_t)s;
                T->win_claims[T->win_len] = cl;
                T->win_len++;
            }
        }
    }
    next_decision(c, T);
}

/* ---- the end and the settlement (scoring.settle, with _rules.h) ----------------------- */

/* The deal is over: the survivor's hand and the table go to the dealer, then the settlement. */
static void end_deal(const Config *c, Tab *T) {
    int n = c->n, survivor = lald_survivor(T->holders);
    if (survivor >= 0) {
        T->won[T->dealer] |= T->hand[survivor];
        T->hand[survivor] = 0;
    }
    T->won[T->dealer] |= T->table;
    T->table = 0;
    T->over = 1;
    T->to_move = -1;
    long won[MAXP];
    for (int s = 0; s < n; s++) won[s] = pop64(T->won[s]);
    T->winners = (uint8_t)lald_winners(won, n);
    if (c->card_count) {
        for (int s = 0; s < n; s++) T->chips[s] = 0;
        T->pot = 0;
        return;
    }
    /* (the tables refuse prize_rule=last_card: lald.rl.vector.tables.make_tables) */
    long prize_to = lald_prize_to(c->prize_survivor ? LALD_PRIZE_SURVIVOR : LALD_PRIZE_LAST_CAPTURE, survivor,
                                  T->last_capture, -1);
    int total = 0;
    for (int s = 0; s < n; s++) {
        T->chips[s] = (int32_t)(lald_deal_chips(won[s], c->quota, c->floor_rounding, s, prize_to, c->prize) -
                                ante_of(c, s, T->dealer));
        total += T->chips[s];
    }
    T->pot = -total; /* the pot carried in is 0 */
}

/* After a move of ``seat`` (a turn move, ``turn``, or a claim), which left it without a
 * card when ``out``: State._next_turn and State._after_claim (lald_after_move). */
static inline void after_move(const Config *c, Tab *T, int seat, int turn, int out) {
    uint32_t holders = T->holders;
    long mover = T->to_move;
    int over = lald_after_move(c->ring, &holders, &mover, seat, turn, out);
    T->holders = (uint8_t)holders;
    if (over) {
        end_deal(c, T);
        return;
    }
    T->to_move = (int8_t)mover;
}

/* The history (encoding.public_actions): seat ``s`` made the action ``id``, face down or not. */
static inline void record(Tab *T, int s, int id, int face_down) {
    if (T->acts < MAX_HISTORY) T->act[T->acts++] = (uint16_t)(s << 8 | face_down << 7 | id);
}

/* Seat ``s``, to move, captures the cards ``take`` of the table with ``play`` from its hand. */
static void play_capture(const Config *c, Tab *T, int s, uint64_t play, uint64_t take) {
    const int kind = pop64(play) == 1 ? (pop64(take) == 3 ? 1 : 0) : pop64(play) == 2 ? 2 : 3;
    record(T, s, kind * NRANKS + (ctz64(play) >> 2), 0);
    T->hand[s] ^= play;
    T->table ^= take;
    T->won[s] |= play | take;
    T->last_capture = (int8_t)s;
    T->foreplay = 0;
    T->last_actor = (int8_t)s;
    after_move(c, T, s, 1, T->hand[s] == 0);
}

/* Seat ``s``, to move, trails ``card`` (a card mask) to the table. */
static void play_trail(const Config *c, Tab *T, int s, uint64_t card) {
    record(T, s, TRAIL0 + (ctz64(card) >> 2), 0);
    T->hand[s] ^= card;
    T->table |= card;
    T->foreplay = 0;
    T->last_actor = (int8_t)s;
    after_move(c, T, s, 1, T->hand[s] == 0);
}

/* Play ``id`` (legal) for the deciding seat: the engine's canonical action, lowest suits. */
static void apply_id(const Config *c, Tab *T, int id) {
    int s = T->seat;
    if (T->deciding == CLAIM) {
        if (id == PASS_ID) {
            T->win_pos++;
            next_decision(c, T);
            return;
        }
        int sh = 4 * (id - CLAIM0);
        uint64_t hn = T->hand[s] >> sh & 15;
        int had = T->hand[s] != 0;
        if (hn) { /* from the hand: a hand set or a dead rank (State.apply, _check_claim) */
            int hc = NIB[hn], is_set;
            uint64_t m = hc == 3 ? lowest_k(hn, 2) : hn;
            if (hc == 4) is_set = set_window(c, T, s);
            else is_set = hc == 3;
            m <<= sh;
            T->hand[s] ^= m;
            T->won[s] |= m;
            if (is_set && c->face_down) T->down[s] |= m;
            record(T, s, id, is_set && c->face_down);
        } else { /* a spotter claim: every card of the rank on the table */
            uint64_t m = (T->table >> sh & 15) << sh;
            record(T, s, id, 0);
            T->table ^= m;
            T->won[s] |= m;
        }
        T->last_actor = (int8_t)s;
        after_move(c, T, s, 0, had && !T->hand[s]);
        open_window(c, T);
        return;
    }
    if (id < CLAIM0 - NRANKS) { /* a capture */
        int k = id / NRANKS, sh = 4 * (id % NRANKS);
        play_capture(c, T, s, lowest_k(T->hand[s] >> sh & 15, c->play[k]) << sh,
                     lowest_k(T->table >> sh & 15, c->take[k]) << sh);
    } else if (id < CLAIM0) { /* a trail: the lowest card of the rank */
        int sh = 4 * (id - TRAIL0);
        play_trail(c, T, s, lowest_k(T->hand[s] >> sh & 15, 1) << sh);
    } else { /* lie down */
        record(T, s, LIE_ID, 0);
        T->table |= T->hand[s];
        T->hand[s] = 0;
        T->lain[s] = 1;
        T->foreplay = 0;
        T->last_actor = (int8_t)s;
        after_move(c, T, s, 1, 1);
    }
    open_window(c, T);
}

/* ---- what a seat sees (encoding.observe) ---------------------------------------------------- */

static inline float chips_f(const Config *c, int32_t x) {
    double v = (double)x;
    if (v > c->chip_limit) v = c->chip_limit;
    if (v < -c->chip_limit) v = -c->chip_limit;
    return (float)(v / c->chip_scale);
}

static inline void bits_to(float *out, uint64_t m) {
    while (m) {
        out[ctz64(m)] = 1.0f;
        m &= m - 1;
    }
}

/* fbits[b]: the 8 floats of the bits of byte b */
static float fbits[256][8];

/* bits [at, at + 52) of the 6-word bit vector w receive the 52 bits of m */
static inline void put52(uint64_t *w, int at, uint64_t m) {
    int q = at >> 6, r = at & 63;
    w[q] |= m << r;
    if (r > 12) w[q + 1] |= m >> (64 - r);
}

/* The observation of ``me``; ``deciding`` is TURN, CLAIM or NONE. */
static void observe(const Config *c, const Tab *T, int me, int deciding, float *out) {
    int n = c->n;
    if (c->planes) { /* hand, table and the won piles side by side from 0: byte by byte */
        uint64_t w[7] = {0};
        put52(w, 0, T->hand[me]);
        put52(w, DECK, T->table);
        for (int k = 0; k < n; k++) {
            int s = (me + k) % n;
            put52(w, 2 * DECK + DECK * k, s == me ? T->won[s] : T->won[s] & ~T->down[s]);
        }
        const int bits = (2 + MAXP) * DECK; /* 364 = 45 bytes and 4 bits */
        for (int b = 0; b < bits / 8; b++) memcpy(out + 8 * b, fbits[w[b >> 3] >> ((b & 7) * 8) & 0xFF], 32);
        memcpy(out + 8 * (bits / 8), fbits[w[(bits / 8) >> 3] >> (((bits / 8) & 7) * 8) & 0xFF], 4 * (bits % 8));
        memset(out + bits, 0, sizeof(float) * (size_t)(c->obs_size - bits));
    } else {
        memset(out, 0, sizeof(float) * (size_t)c->obs_size);
        bits_to(out + c->o_hand, T->hand[me]);
        bits_to(out + c->o_table, T->table);
        for (int k = 0; k < n; k++) {
            int s = (me + k) % n;
            bits_to(out + c->o_won + DECK * k, s == me ? T->won[s] : T->won[s] & ~T->down[s]);
        }
    }
    for (int k = 0; k < n; k++) {
        int s = (me + k) % n;
        uint64_t h = T->hand[s];
        out[c->o_hs + k] = (float)(pop64(h) / 13.0);
        out[c->o_ws + k] = (float)(pop64(T->won[s]) / 52.0);
        out[c->o_st + 3 * k + (T->lain[s] ? 1 : h ? 0 : 2)] = 1.0f;
        out[c->o_pr + k] = 1.0f;
        out[c->o_bal + k] = chips_f(c, T->chips[s]);
    }
    out[c->o_dl + (T->dealer - me + n) % n] = 1.0f;
    if (T->to_move >= 0) out[c->o_tm + (T->to_move - me + n) % n] = 1.0f;
    if (T->last_capture >= 0) out[c->o_lc + (T->last_capture - me + n) % n] = 1.0f;
    if (!T->over) {
        int first = (int)lald_claim_first(T->last_actor, lald_eldest(T->dealer, n), n);
        out[c->o_cf + (first - me + n) % n] = 1.0f;
    }
    out[c->o_se + me] = 1.0f;
    out[c->o_fl] = (float)T->foreplay;
    out[c->o_fl + 1] = (float)T->over;
    if (deciding == TURN) out[c->o_fl + 2] = 1.0f;
    else if (deciding == CLAIM) out[c->o_fl + 3] = 1.0f;
    out[c->o_pot] = chips_f(c, T->pot);
    memcpy(out + c->o_ru, c->rules_block, sizeof c->rules_block);
    /* the latest actions, the newest first (encoding.history_block; zeros past the first) */
    for (int j = 0; j < c->history && j < T->acts; j++) {
        const int e = T->act[T->acts - 1 - j], s = e >> 8, down = e >> 7 & 1, id = e & 127;
        float *slot = out + c->o_hist + HISTORY_SLOT * j;
        slot[(s - me + n) % n] = 1.0f;
        slot[5 + (id == LIE_ID ? 6 : id / NRANKS)] = 1.0f;
        if (id != LIE_ID && !(down && s != me)) slot[12 + id % NRANKS] = 1.0f;
        slot[HISTORY_SLOT - 1] = (float)down;
    }
}

/* 8 legal bits -> their 8 bytes of 0/1 */
static uint8_t spread[256][8];

static inline void write_mask(const Tab *T, uint8_t *row) {
    for (int b = 0; b < NACT / 8; b++) {
        unsigned word = (unsigned)(T->legal[b >> 3] >> ((b & 7) * 8) & 0xFF);
        memcpy(row + 8 * b, spread[word], 8);
    }
}

static inline double reward_of(const Config *c, const Tab *T, int seat) {
    if (c->card_count) return (double)(T->winners >> seat & 1);
    return (double)T->chips[seat];
}

/* ---- the random opponent: RandomBot's law (every concrete action once, pass once) ----------- */

static uint32_t weight_of(const Config *c, const Tab *T, int id) {
    int s = T->seat;
    if (T->deciding == CLAIM) {
        if (id == PASS_ID) return 1;
        uint64_t hn = T->hand[s] >> 4 * (id - CLAIM0) & 15;
        return NIB[hn] == 3 ? 3 : 1;
    }
    if (id < CLAIM0 - NRANKS) {
        int sh = 4 * (id % NRANKS);
        return c->capw[NIB[T->hand[s] >> sh & 15]][NIB[T->table >> sh & 15]][id / NRANKS];
    }
    if (id < CLAIM0) return NIB[T->hand[s] >> 4 * (id - TRAIL0) & 15];
    return 1;
}

static int random_engine_action(const Config *c, Tab *T) {
    uint32_t w[NACT];
    uint64_t total = 0;
    for (int id = 0; id < NACT; id++) {
        w[id] = has_id(T, id) ? weight_of(c, T, id) : 0;
        total += w[id];
    }
    uint64_t x = below(&T->rng, total);
    for (int id = 0; id < NACT; id++) {
        if (x < w[id]) return id;
        x -= w[id];
    }
    return -1; /* not reached */
}

static int random_id(Tab *T) { /* uniform among the legal IDs */
    int count = pop64(T->legal[0]) + pop64(T->legal[1]);
    uint64_t k = below(&T->rng, (uint64_t)count);
    for (int w = 0; w < 2; w++) {
        uint64_t m = T->legal[w];
        int here = pop64(m);
        if ((int)k < here) {
            while (k--) m &= m - 1;
            return 64 * w + ctz64(m);
        }
        k -= (uint64_t)here;
    }
    return -1; /* not reached */
}

/* ---- the greedy and heuristic opponents: lald.bots.heuristic's GreedyBot and HeuristicBot ---- */

/* Each chooses what the Python bot chooses from the seat's view (lald.rl.vector.opponents
 * seats those bots on the pure tables), draws included: the bot's rng.choice(seq) is
 * seq[below(len(seq))] on the table's own stream (opponents.StreamRandom).  A turn is
 * chosen among the engine's concrete actions in the engine's order (ranks upwards; per
 * rank singles, sweeps, pairs on pairs, prials on singles, as lald.core.moves.captures_of
 * lists them; trails card by card): greedy plays the very cards it drew, the heuristic the
 * lowest suits of the move it scored best (codes.choose_action). */

static uint64_t binomial(int n, int k) {
    uint64_t out = 1;
    for (int i = 0; i < k; i++) out = out * (uint64_t)(n - i) / (uint64_t)(i + 1);
    return out;
}

/* The ``j``-th ``size``-card combination of the cards of a nibble, in the order of
 * itertools.combinations over the cards lowest first. */
static uint64_t combination(uint64_t nib, int size, uint64_t j) {
    int pos[4], m = 0, idx[4];
    for (int b = 0; b < 4; b++)
        if (nib >> b & 1) pos[m++] = b;
    for (int i = 0; i < size; i++) idx[i] = i;
    for (; j > 0; j--) {
        int i = size - 1;
        while (idx[i] == m - size + i) i--;
        idx[i]++;
        for (int k = i + 1; k < size; k++) idx[k] = idx[k - 1] + 1;
    }
    uint64_t out = 0;
    for (int i = 0; i < size; i++) out |= 1ULL << pos[idx[i]];
    return out;
}

/* GreedyBot.act: the first kind of GREEDY_ORDER on offer (a sweep, a single, a pair on a
 * pair, a prial on a single), uniformly among its concrete captures; without a capture,
 * uniformly among the turn's actions (lying down, or a trail of any card). */
static int greedy_turn(const Config *c, Tab *T) {
    static const int order[4] = {1, 0, 2, 3};
    const int s = T->seat;
    const uint64_t hand = T->hand[s], table = T->table, f = nz(hand) & nz(table);
    for (int o = 0; o < 4 && f; o++) {
        const int k = order[o];
        uint64_t total = 0;
        for (uint64_t g = f; g; g &= g - 1) {
            const int sh = ctz64(g);
            total += c->capw[NIB[hand >> sh & 15]][NIB[table >> sh & 15]][k];
        }
        if (!total) continue;
        uint64_t x = below(&T->rng, total);
        for (uint64_t g = f; g; g &= g - 1) {
            const int sh = ctz64(g);
            const uint64_t hn = hand >> sh & 15, tn = table >> sh & 15;
            const uint64_t w = c->capw[NIB[hn]][NIB[tn]][k];
            if (x < w) {
                const uint64_t ways = binomial(NIB[tn], c->take[k]);
                play_capture(c, T, s, combination(hn, c->play[k], x / ways) << sh,
                             combination(tn, c->take[k], x % ways) << sh);
                open_window(c, T);
                return k * NRANKS + (sh >> 2);
            }
            x -= w;
        }
    }
    if (c->lie_down) {
        (void)below(&T->rng, 1); /* rng.choice of the one action draws all the same */
        apply_id(c, T, LIE_ID);
        return LIE_ID;
    }
    uint64_t card = hand;
    for (uint64_t k = below(&T->rng, (uint64_t)pop64(hand)); k; k--) card &= card - 1;
    card &= ~card + 1;
    play_trail(c, T, s, card);
    open_window(c, T);
    return TRAIL0 + (ctz64(card) >> 2);
}

/* The cards of a claim of rank ``r`` by the polled seat (lald.core.moves.claims_of's
 * first): two of three, else all of them, from its hand or (a spotter claim) the table. */
static int claim_cards(const Tab *T, int r) {
    uint64_t nib = T->hand[T->seat] >> 4 * r & 15;
    if (!nib) nib = T->table >> 4 * r & 15;
    return NIB[nib] == 3 ? 2 : NIB[nib];
}

/* GreedyBot.claim: the claim of most cards at once (the first of them in the engine's
 * order: claims from the hand, ranks upwards, then spotter claims). */
static int greedy_claim(const Tab *T) {
    const uint16_t ranks = T->win_claims[T->win_pos];
    const uint64_t hand = T->hand[T->seat];
    int best = -1, most = 0;
    for (int spot = 0; spot < 2; spot++)
        for (uint16_t m = ranks; m; m &= (uint16_t)(m - 1)) {
            const int r = __builtin_ctz(m);
            const int from_table = !(hand >> 4 * r & 15);
            if (from_table != spot) continue;
            const int cards = claim_cards(T, r);
            if (cards > most) {
                most = cards;
                best = r;
            }
        }
    return CLAIM0 + best;
}

/* HeuristicBot.claim (the level's habits): lald_heuristic_claim_key's first claim, else pass. */
static int heuristic_claim(const Tab *T) {
    const uint16_t ranks = T->win_claims[T->win_pos];
    const uint64_t hand = T->hand[T->seat];
    long top = -1;
    int best = PASS_ID;
    for (uint16_t m = ranks; m; m &= (uint16_t)(m - 1)) {
        const int r = __builtin_ctz(m);
        const long key = lald_heuristic_claim_key(!(hand >> 4 * r & 15), r, T->seat == T->to_move);
        if (key >= 0 && (top < 0 || key < top)) {
            top = key;
            best = CLAIM0 + r;
        }
    }
    return best;
}

/* HeuristicBot.act (the level, version 4): each turn move (its code: kind and rank) scored
 * by the table Python made of the policy's scores (tables.heuristic_scores: a capture by
 * its kind, the seat's cards of the rank, the table's and the cards of it the seat cannot
 * place; a trail by the last), the best one, drawn among equals; one move alone is played
 * without a draw. */
static int heuristic_turn(const Config *c, Tab *T) {
    const int s = T->seat, n = c->n;
    const uint64_t hand = T->hand[s], table = T->table, f = nz(hand) & nz(table);
    if (!f && c->lie_down) {
        apply_id(c, T, LIE_ID);
        return LIE_ID;
    }
    uint64_t seen = 0; /* the cards the seat saw go to won piles (its view's won_seen) */
    for (int q = 0; q < n; q++) seen |= q == s ? T->won[q] : T->won[q] & ~T->down[q];
    int ids[4 * NRANKS], count = 0;
    double score[4 * NRANKS], top = -INFINITY;
    for (uint64_t g = f ? f : nz(hand); g; g &= g - 1) {
        const int sh = ctz64(g), r = sh >> 2;
        const int h = NIB[hand >> sh & 15], t = NIB[table >> sh & 15];
        const int unknown = 4 - h - t - NIB[seen >> sh & 15];
        if (!f) {
            ids[count] = TRAIL0 + r;
            score[count++] = c->trail_score[unknown];
            continue;
        }
        for (int k = 0; k < 4; k++)
            if (c->capw[h][t][k]) {
                ids[count] = k * NRANKS + r;
                score[count++] = c->cap_score[k][h][t][unknown];
            }
    }
    if (count == 1) {
        apply_id(c, T, ids[0]);
        return ids[0];
    }
    for (int i = 0; i < count; i++)
        if (score[i] > top) top = score[i];
    int ties = 0;
    for (int i = 0; i < count; i++)
        if (score[i] == top) ids[ties++] = ids[i];
    const int id = ids[below(&T->rng, (uint64_t)ties)];
    apply_id(c, T, id);
    return id;
}

/* The level's opponent decides for the seat deciding at T (not over); the ID of its choice. */
static int bot_move(const Config *c, Tab *T, int level) {
    if (T->deciding == CLAIM) {
        const int id = level == OPP_GREEDY ? greedy_claim(T) : heuristic_claim(T);
        apply_id(c, T, id);
        return id;
    }
    return level == OPP_GREEDY ? greedy_turn(c, T) : heuristic_turn(c, T);
}

/* ---- buffers ----------------------------------------------------------------------------------- */

typedef struct {
    Py_buffer view;
    int held;
} Buf;

static void release(Buf *b) {
    if (b->held) PyBuffer_Release(&b->view);
    b->held = 0;
}

/* ``obj`` as a C-contiguous buffer of ``count`` items of ``size`` bytes, of one of the
 * struct ``kinds`` (format characters); None when ``optional`` and obj is None. */
static int get_buf(PyObject *obj, Buf *b, Py_ssize_t count, Py_ssize_t size, const char *kinds,
                   int writable, int optional, const char *what) {
    b->held = 0;
    if (optional && obj == Py_None) return 0;
    int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &b->view, flags) < 0) return -1;
    b->held = 1;
    const char *f = b->view.format ? b->view.format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    if (b->view.itemsize != size || strlen(f) != 1 || !strchr(kinds, *f) ||
        b->view.len != count * size) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items of %zd bytes", what, count, size);
        release(b);
        return -1;
    }
    return 0;
}

#define DATA(b, type) ((type *)(b).view.buf)

/* ---- the type ------------------------------------------------------------------------------------ */

static void tables_dealloc(TablesObject *self) {
    PyMem_Free(self->t);
    PyMem_Free(self->c.key);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int read_ints(PyObject *seq, int *out, Py_ssize_t count, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected %zd numbers", what, count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* Tables(count, mode, opponents, autoreset, random_seat, rules, layout, caps, weights, shapes, block,
 *        chip_scale, chip_limit, scores=None, history=0): see lald.rl.vector.tables._config for
 * each argument; ``scores`` (float64, opponents.heuristic_scores) with heuristic opponents;
 * ``history`` the latest actions each observation shows, after the layout's 451 numbers. */
static int tables_init(TablesObject *self, PyObject *args, PyObject *kw) {
    Py_ssize_t count;
    int mode, opponents, autoreset, random_seat;
    PyObject *rules, *layout, *caps, *weights, *shapes, *block, *scores = Py_None;
    double scale, limit;
    int history = 0;
    if (!PyArg_ParseTuple(args, "niiipOOOOOOdd|Oi", &count, &mode, &opponents, &autoreset, &random_seat,
                          &rules, &layout, &caps, &weights, &shapes, &block, &scale, &limit, &scores, &history))
        return -1;
    if (count < 1 || count > (1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "the number of tables must be 1 to 2**24");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "these tables are stepping in another thread");
        return -1;
    }
    Config *c = &self->c;
    PyMem_Free(c->key);
    memset(c, 0, sizeof *c);
    int r[16];
    if (read_ints(rules, r, 16, "rules") < 0) return -1;
    c->n = r[0]; c->quota = r[1]; c->lie_down = r[2]; c->hand_sets = r[3]; c->own_sets = r[4];
    c->dead_all = r[5]; c->dead_own = r[6]; c->spotter = r[7]; c->face_down = r[8];
    c->mournival = r[9]; c->card_count = r[10]; c->prize_survivor = r[11]; c->prize = r[12];
    c->ante_dealer = r[13]; c->ante_other = r[14]; c->floor_rounding = r[15];
    if (c->n < 3 || c->n > MAXP || c->quota < 1 || c->n * c->quota > DECK) {
        PyErr_SetString(PyExc_ValueError, "rules: bad player count or quota");
        return -1;
    }
    lald_ring_fill(c->ring, c->n);
    int o[17];
    if (read_ints(layout, o, 17, "layout") < 0) return -1;
    c->obs_size = o[0]; c->o_hand = o[1]; c->o_table = o[2]; c->o_won = o[3]; c->o_hs = o[4];
    c->o_ws = o[5]; c->o_st = o[6]; c->o_pr = o[7]; c->o_dl = o[8]; c->o_tm = o[9]; c->o_lc = o[10];
    c->o_cf = o[11]; c->o_se = o[12]; c->o_fl = o[13]; c->o_pot = o[14]; c->o_bal = o[15]; c->o_ru = o[16];
    /* every write of observe() stays inside the row */
    if (c->obs_size < 1 || c->obs_size > 4096 || o[1] < 0 || o[1] + DECK > c->obs_size ||
        o[2] < 0 || o[2] + DECK > c->obs_size || o[3] < 0 || o[3] + MAXP * DECK > c->obs_size ||
        o[16] < 0 || o[16] + 22 > c->obs_size) {
        PyErr_SetString(PyExc_ValueError, "layout out of range");
        return -1;
    }
    for (int i = 4; i <= 15; i++) {
        int width = i == 6 ? 3 * MAXP : i == 13 ? 4 : i == 14 ? 1 : MAXP;
        if (o[i] < 0 || o[i] + width > c->obs_size) {
            PyErr_SetString(PyExc_ValueError, "layout out of range");
            return -1;
        }
    }
    if (history < 0 || history > MAX_HISTORY || o[16] + 22 + HISTORY_SLOT * history > c->obs_size) {
        PyErr_SetString(PyExc_ValueError, "history out of range");
        return -1;
    }
    c->history = history;
    c->o_hist = o[16] + 22; /* right after the rules block, the layout's last piece */
    c->planes = c->o_hand == 0 && c->o_table == DECK && c->o_won == 2 * DECK;
    for (int i = 4; i <= 16; i++)
        if (o[i] < (2 + MAXP) * DECK) c->planes = 0;
    int cp[25], cw[100], sh[8];
    if (read_ints(caps, cp, 25, "caps") < 0 || read_ints(weights, cw, 100, "weights") < 0 ||
        read_ints(shapes, sh, 8, "shapes") < 0)
        return -1;
    for (int h = 0; h < 5; h++)
        for (int t = 0; t < 5; t++) {
            c->cap[h][t] = (uint8_t)(cp[5 * h + t] & 15);
            for (int k = 0; k < 4; k++) c->capw[h][t][k] = (uint32_t)cw[(5 * h + t) * 4 + k];
        }
    for (int k = 0; k < 4; k++) {
        c->play[k] = sh[2 * k];
        c->take[k] = sh[2 * k + 1];
        if (c->play[k] < 1 || c->play[k] > 4 || c->take[k] < 1 || c->take[k] > 4) {
            PyErr_SetString(PyExc_ValueError, "shapes out of range");
            return -1;
        }
    }
    Buf bb;
    if (get_buf(block, &bb, 22, 4, "f", 0, 0, "rules block") < 0) return -1;
    memcpy(c->rules_block, bb.view.buf, sizeof c->rules_block);
    release(&bb);
    c->chip_scale = scale;
    c->chip_limit = limit;
    if (mode != MODE_ALL && mode != MODE_SEAT) {
        PyErr_SetString(PyExc_ValueError, "mode");
        return -1;
    }
    if (opponents < OPP_RANDOM || opponents > OPP_HEURISTIC) {
        PyErr_SetString(PyExc_ValueError, "opponents");
        return -1;
    }
    if ((opponents == OPP_HEURISTIC) != (scores != Py_None)) {
        PyErr_SetString(PyExc_ValueError, "scores: give the heuristic's scores with heuristic opponents, and only then");
        return -1;
    }
    if (scores != Py_None) {
        const Py_ssize_t size = 4 * 5 * 5 * 5 + 5;
        Buf sb;
        if (get_buf(scores, &sb, size, 8, "d", 0, 0, "scores") < 0) return -1;
        memcpy(c->cap_score, sb.view.buf, sizeof c->cap_score);
        memcpy(c->trail_score, (const double *)sb.view.buf + 4 * 5 * 5 * 5, sizeof c->trail_score);
        release(&sb);
    }
    self->mode = mode;
    self->opponents = opponents;
    self->autoreset = autoreset;
    self->random_seat = random_seat;
    PyMem_Free(self->t);
    self->t = PyMem_Calloc((size_t)count, sizeof(Tab));
    if (!self->t) {
        PyErr_NoMemory();
        return -1;
    }
    self->count = count;
    self->stride = (uint64_t)count;
    for (Py_ssize_t i = 0; i < count; i++) { /* a valid state until reset() deals */
        self->t[i].over = 1;
        self->t[i].seat = -1;
        self->t[i].deciding = NONE;
        self->t[i].pending = 1;
    }
    return 0;
}

static int check_ready(TablesObject *self) {
    if (!self->t) {
        PyErr_SetString(PyExc_RuntimeError, "the tables are not initialised");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "these tables are stepping in another thread: one call at a time");
        return -1;
    }
    return 0;
}

/* The next deal of a table: the seed plus the stride, its dealer the seed mod n. */
static void deal_next(TablesObject *self, Tab *T) {
    uint64_t seed = T->seed + self->stride;
    deal(&self->c, T, seed, dealer_of(&self->c, seed));
}

/* ---- the one-seat mode: the learner, the opponents -------------------------------------- */

static void pick_learner(TablesObject *self, Tab *T) {
    if (self->random_seat) T->learner = (int8_t)below(&T->rng, (uint64_t)self->c.n);
}

enum { AT_LEARNER = 0, AT_OPPONENT = 1, AT_END = 2 };

/* Run table T until its learner decides, an external opponent must decide, or the episode
 * ends (lald.rl.adapters.gymnasium.SeatEnv._play_bots); a deal that ends before the learner had a
 * choice is dealt again.  ``final`` (may be NULL) receives the terminal observation when the
 * episode ends and the same-step autoreset deals again at once. */
static int advance(TablesObject *self, Tab *T, float *final, uint8_t *final_mask) {
    const Config *c = &self->c;
    for (;;) {
        if (T->over) {
            if (!T->started) { /* no choice for the learner in that deal: deal the next one */
                deal_next(self, T);
                continue;
            }
            T->acc += reward_of(c, T, T->learner);
            T->term = 1;
            if (self->autoreset == AUTO_SAME) {
                if (final) observe(c, T, T->learner, NONE, final);
                if (final_mask) *final_mask = 1;
                deal_next(self, T);
                pick_learner(self, T);
                T->started = 0;
                continue;
            }
            T->pending = 1;
            return AT_END;
        }
        if (T->seat == T->learner) {
            T->started = 1;
            return AT_LEARNER;
        }
        if (self->opponents == OPP_EXTERNAL) return AT_OPPONENT;
        if (self->opponents == OPP_RANDOM) apply_id(c, T, random_engine_action(c, T));
        else (void)bot_move(c, T, self->opponents);
    }
}

/* ---- methods --------------------------------------------------------------------------------- */

/* reset(seeds, dealers, rng_seeds, learners, select, stride, secret): deal each selected
 * table the deal named by its seed (uint64; with a secret, bytes: the deal of that number in
 * the secret's keyed stream) with its dealer (int8; -1: the seed mod n), seed its own
 * stream (uint64), and, in one-seat mode, give it its learner (int8; drawn from the
 * table's stream instead when the tables were made with a random seat).  ``select`` (bool, or None: all) says which tables; ``stride`` the step from a
 * table's deal seed to its next (0: keep the current one). */
static PyObject *m_reset(TablesObject *self, PyObject *args) {
    PyObject *o_seeds, *o_dealers, *o_rngs, *o_learners, *o_sel, *o_secret;
    unsigned long long stride;
    if (!PyArg_ParseTuple(args, "OOOOOKO", &o_seeds, &o_dealers, &o_rngs, &o_learners, &o_sel, &stride,
                          &o_secret))
        return NULL;
    if (check_ready(self) < 0) return NULL;
    if (o_secret != Py_None && (!PyBytes_Check(o_secret) || PyBytes_GET_SIZE(o_secret) < 16)) {
        PyErr_SetString(PyExc_ValueError, "secret: bytes, at least 16");
        return NULL;
    }
    Py_ssize_t N = self->count;
    Buf seeds, dealers, rngs, learners, sel;
    seeds.held = dealers.held = rngs.held = learners.held = sel.held = 0;
    PyObject *result = NULL;
    if (get_buf(o_seeds, &seeds, N, 8, "QLk", 0, 0, "seeds") < 0 ||
        get_buf(o_dealers, &dealers, N, 1, "b", 0, 0, "dealers") < 0 ||
        get_buf(o_rngs, &rngs, N, 8, "QLk", 0, 0, "rng seeds") < 0 ||
        get_buf(o_learners, &learners, N, 1, "b", 0, 0, "learners") < 0 ||
        get_buf(o_sel, &sel, N, 1, "?", 0, 1, "select") < 0)
        goto done;
    const int8_t *dl = DATA(dealers, int8_t), *ln = DATA(learners, int8_t);
    for (Py_ssize_t i = 0; i < N; i++) {
        if (sel.held && !DATA(sel, uint8_t)[i]) continue;
        if (dl[i] >= self->c.n || ln[i] >= self->c.n) {
            PyErr_Format(PyExc_ValueError, "table %zd: there is no seat %d", i, dl[i] >= self->c.n ? dl[i] : ln[i]);
            goto done;
        }
    }
    if (stride) self->stride = (uint64_t)stride;
    if (o_secret == Py_None) {
        PyMem_Free(self->c.key);
        self->c.key = NULL;
    } else {
        if (!self->c.key && !(self->c.key = PyMem_Malloc(sizeof(Key)))) {
            PyErr_NoMemory();
            goto done;
        }
        key_set(self->c.key, (const uint8_t *)PyBytes_AS_STRING(o_secret), (size_t)PyBytes_GET_SIZE(o_secret));
    }
    for (Py_ssize_t i = 0; i < N; i++) {
        if (sel.held && !DATA(sel, uint8_t)[i]) continue;
        Tab *T = &self->t[i];
        uint64_t seed = DATA(seeds, uint64_t)[i];
        T->rng = DATA(rngs, uint64_t)[i];
        T->acc = 0;
        T->term = T->illegal = T->pending = T->started = 0;
        deal(&self->c, T, seed, dl[i] < 0 ? dealer_of(&self->c, seed) : dl[i]);
        if (self->random_seat) T->learner = (int8_t)below(&T->rng, (uint64_t)self->c.n);
        else T->learner = ln[i] < 0 ? 0 : ln[i];
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    release(&seeds); release(&dealers); release(&rngs); release(&learners); release(&sel);
    return result;
}

/* load(i, hands, table, dealer): table i starts from this layout, as dealt (State.from_layout;
 * the caller has checked it with the engine). Its seed stays. */
static PyObject *m_load(TablesObject *self, PyObject *args) {
    Py_ssize_t i;
    PyObject *o_hands;
    unsigned long long table;
    int dealer;
    if (!PyArg_ParseTuple(args, "nOKi", &i, &o_hands, &table, &dealer)) return NULL;
    if (check_ready(self) < 0) return NULL;
    if (i < 0 || i >= self->count || dealer < 0 || dealer >= self->c.n) {
        PyErr_SetString(PyExc_IndexError, "no such table or dealer");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(o_hands, "hands");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != self->c.n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "one hand per seat");
        return NULL;
    }
    uint64_t hands[MAXP] = {0};
    for (int s = 0; s < self->c.n; s++) {
        hands[s] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, s));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    /* a layout of these rules: whole hands and the rest on the table, no card twice */
    uint64_t seen = (uint64_t)table;
    int ok = pop64(seen) == DECK - self->c.n * self->c.quota && !(seen >> DECK);
    for (int s = 0; s < self->c.n && ok; s++) {
        ok = pop64(hands[s]) == self->c.quota && !(hands[s] & seen) && !(hands[s] >> DECK);
        seen |= hands[s];
    }
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "load: not a layout of these rules");
        return NULL;
    }
    Tab *T = &self->t[i];
    T->term = T->illegal = T->pending = T->started = 0;
    T->acc = 0;
    start(&self->c, T, hands, (uint64_t)table, dealer);
    Py_RETURN_NONE;
}

/* Check ``a`` for table i: an ID (0..79) that is legal now; else set an error in words. */
static int check_action(const TablesObject *self, Py_ssize_t i, int64_t a) {
    const Tab *T = &self->t[i];
    if (a < 0 || a >= NACT) {
        PyErr_Format(PyExc_ValueError,
                     "table %zd: action %lld is not an action ID: give a whole number from 0 to %d",
                     i, (long long)a, NACT - 1);
        return -1;
    }
    if (T->over || T->seat < 0) {
        PyErr_Format(PyExc_ValueError, "table %zd: the deal is over: no action is legal", i);
        return -1;
    }
    return has_id(T, (int)a) ? 1 : 0;
}

/* step_all(actions, obs, mask, seats, rewards, done, illegal_reward): self-play.  Each table's
 * deciding seat plays its action; a deal that ends pays every seat (rewards, float64 N x n),
 * is marked done and is dealt again at once (its next seed).  Then each table's observation
 * of the seat now to decide (float32 N x obs), its legal mask (bool N x 80) and that seat
 * (int8).  ``illegal_reward`` None: an illegal action is refused (IllegalActionError is
 * raised by the caller from the ValueError's text) before any table changes; a float: that
 * table's deal ends with it paid to the offender and 0 to the others. */
static PyObject *m_step_all(TablesObject *self, PyObject *args) {
    PyObject *o_act, *o_obs, *o_mask, *o_seat, *o_rew, *o_done, *o_illegal, *o_flag;
    if (!PyArg_ParseTuple(args, "OOOOOOOO", &o_act, &o_obs, &o_mask, &o_seat, &o_rew, &o_done, &o_illegal,
                          &o_flag))
        return NULL;
    if (check_ready(self) < 0) return NULL;
    const Config *c = &self->c;
    Py_ssize_t N = self->count;
    int n = c->n, refuse = o_illegal == Py_None;
    double illegal_reward = refuse ? 0.0 : PyFloat_AsDouble(o_illegal);
    if (!refuse && illegal_reward == -1.0 && PyErr_Occurred()) return NULL;
    Buf act, obs, mask, seat, rew, done, flag;
    act.held = obs.held = mask.held = seat.held = rew.held = done.held = flag.held = 0;
    PyObject *result = NULL;
    if (get_buf(o_act, &act, N, 8, "qlL", 0, 0, "actions") < 0 ||
        get_buf(o_obs, &obs, N * c->obs_size, 4, "f", 1, 0, "observations") < 0 ||
        get_buf(o_mask, &mask, N * NACT, 1, "?", 1, 0, "masks") < 0 ||
        get_buf(o_seat, &seat, N, 1, "b", 1, 0, "seats") < 0 ||
        get_buf(o_rew, &rew, N * n, 8, "d", 1, 0, "rewards") < 0 ||
        get_buf(o_done, &done, N, 1, "?", 1, 0, "done") < 0 ||
        get_buf(o_flag, &flag, N, 1, "?", 1, 0, "illegal flags") < 0)
        goto out;
    const int64_t *a = DATA(act, int64_t);
    int any_illegal = 0;
    for (Py_ssize_t i = 0; i < N; i++) {
        int ok = check_action(self, i, a[i]);
        if (ok < 0) goto out;
        if (!ok) {
            if (refuse) {
                const Tab *T = &self->t[i];
                PyErr_Format(PyExc_LookupError, "%zd %d %lld", i, T->seat, (long long)a[i]);
                goto out;
            }
            any_illegal = 1;
        }
    }
    (void)any_illegal;
    float *ob = DATA(obs, float);
    uint8_t *mk = DATA(mask, uint8_t), *dn = DATA(done, uint8_t), *fl = DATA(flag, uint8_t);
    int8_t *st = DATA(seat, int8_t);
    double *rw = DATA(rew, double);
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < N; i++) {
        Tab *T = &self->t[i];
        double *r = rw + i * n;
        for (int s = 0; s < n; s++) r[s] = 0.0;
        dn[i] = 0;
        fl[i] = 0;
        const int64_t ai = a[i]; /* read once: checked above, but the array is the caller's */
        if (ai < 0 || ai >= NACT || !has_id(T, (int)ai)) { /* the offender's deal ends */
            r[T->seat] = illegal_reward;
            dn[i] = 1;
            fl[i] = 1;
            deal_next(self, T);
        } else {
            apply_id(c, T, (int)ai);
            if (T->over) {
                for (int s = 0; s < n; s++) r[s] = reward_of(c, T, s);
                dn[i] = 1;
                deal_next(self, T);
            }
        }
        st[i] = T->seat;
        observe(c, T, T->seat, T->deciding, ob + i * c->obs_size);
        write_mask(T, mk + i * NACT);
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    Py_INCREF(Py_None);
    result = Py_None;
out:
    release(&act); release(&obs); release(&mask); release(&seat); release(&rew); release(&done);
    release(&flag);
    return result;
}

/* The learner's outputs of one table (one-seat mode). */
static void seat_outputs(const Config *c, Tab *T, float *ob, uint8_t *mk) {
    int live = !T->pending && !T->over && T->seat == T->learner;
    observe(c, T, T->learner, live ? T->deciding : NONE, ob);
    if (live) write_mask(T, mk);
    else memset(mk, 0, NACT);
}

/* step_seat(actions, obs, mask, reward, term, illegal, final_obs, final_mask, illegal_reward,
 *           finish): one-seat mode.  Each table: a table whose episode ended at the last
 * step (next-step autoreset) deals again and ignores its action; else its learner's action
 * is played (an illegal one ends the episode with ``illegal_reward``, or with None is
 * refused before any table changes), then the opponents play (random ones here; external
 * ones stop the table, for waiting() and answer()) until the learner decides again or the
 * episode ends.  With ``finish`` the learner's observations, masks, rewards (float64) and
 * terminations are written; else call finish() once the opponents have answered. */
static PyObject *m_step_seat(TablesObject *self, PyObject *args) {
    PyObject *o_act, *o_obs, *o_mask, *o_rew, *o_term, *o_ill, *o_fin, *o_finm, *o_illegal;
    int finish;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOp", &o_act, &o_obs, &o_mask, &o_rew, &o_term, &o_ill, &o_fin,
                          &o_finm, &o_illegal, &finish))
        return NULL;
    if (check_ready(self) < 0) return NULL;
    const Config *c = &self->c;
    Py_ssize_t N = self->count;
    int refuse = o_illegal == Py_None;
    double illegal_reward = refuse ? 0.0 : PyFloat_AsDouble(o_illegal);
    if (!refuse && illegal_reward == -1.0 && PyErr_Occurred()) return NULL;
    Buf act, obs, mask, rew, term, ill, fin, finm;
    act.held = obs.held = mask.held = rew.held = term.held = ill.held = fin.held = finm.held = 0;
    PyObject *result = NULL;
    if (get_buf(o_act, &act, N, 8, "qlL", 0, 0, "actions") < 0 ||
        get_buf(o_obs, &obs, N * c->obs_size, 4, "f", 1, 0, "observations") < 0 ||
        get_buf(o_mask, &mask, N * NACT, 1, "?", 1, 0, "masks") < 0 ||
        get_buf(o_rew, &rew, N, 8, "d", 1, 0, "rewards") < 0 ||
        get_buf(o_term, &term, N, 1, "?", 1, 0, "terminations") < 0 ||
        get_buf(o_ill, &ill, N, 1, "?", 1, 0, "illegal flags") < 0 ||
        get_buf(o_fin, &fin, N * c->obs_size, 4, "f", 1, 1, "final observations") < 0 ||
        get_buf(o_finm, &finm, N, 1, "?", 1, 1, "final mask") < 0)
        goto out;
    const int64_t *a = DATA(act, int64_t);
    for (Py_ssize_t i = 0; i < N; i++) {
        const Tab *T = &self->t[i];
        if (T->pending) {
            if (self->autoreset == AUTO_OFF) {
                PyErr_Format(PyExc_RuntimeError,
                             "table %zd: its episode is over: reset it (options={'reset_mask': ...})", i);
                goto out;
            }
            continue;
        }
        int ok = check_action(self, i, a[i]);
        if (ok < 0) goto out;
        if (!ok && refuse) {
            PyErr_Format(PyExc_LookupError, "%zd %d %lld", i, T->seat, (long long)a[i]);
            goto out;
        }
    }
    float *fo = fin.held ? DATA(fin, float) : NULL;
    uint8_t *fm = finm.held ? DATA(finm, uint8_t) : NULL;
    if (fm) memset(fm, 0, (size_t)N);
    uint8_t *il = DATA(ill, uint8_t);
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < N; i++) {
        Tab *T = &self->t[i];
        const int64_t ai = a[i]; /* read once: checked above, but the array is the caller's */
        T->acc = 0;
        T->term = 0;
        T->illegal = 0;
        il[i] = 0;
        if (T->pending) {
            T->pending = 0;
            deal_next(self, T);
            pick_learner(self, T);
            T->started = 0;
        } else if (ai < 0 || ai >= NACT || !has_id(T, (int)ai)) { /* the episode ends where it stands */
            T->acc = illegal_reward;
            T->term = 1;
            T->illegal = 1;
            il[i] = 1;
            if (self->autoreset == AUTO_SAME) {
                if (fo) observe(c, T, T->learner, NONE, fo + i * c->obs_size);
                if (fm) fm[i] = 1;
                deal_next(self, T);
                pick_learner(self, T);
                T->started = 0;
            } else {
                T->pending = 1;
                continue;
            }
        } else {
            apply_id(c, T, (int)ai);
        }
        advance(self, T, fo ? fo + i * c->obs_size : NULL, fm ? fm + i : NULL);
    }
    if (finish) {
        float *ob = DATA(obs, float);
        uint8_t *mk = DATA(mask, uint8_t), *tm = DATA(term, uint8_t);
        double *rw = DATA(rew, double);
        for (Py_ssize_t i = 0; i < N; i++) {
            Tab *T = &self->t[i];
            seat_outputs(c, T, ob + i * c->obs_size, mk + i * NACT);
            rw[i] = T->acc;
            tm[i] = T->term;
        }
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    Py_INCREF(Py_None);
    result = Py_None;
out:
    release(&act); release(&obs); release(&mask); release(&rew); release(&term); release(&ill);
    release(&fin); release(&finm);
    return result;
}

/* start_seat(obs, mask): one-seat mode, after reset(): run each table to its learner's first
 * decision (random opponents; external ones stop it) and, with obs not None, write the
 * learner's observations and masks. */
static PyObject *m_start_seat(TablesObject *self, PyObject *args) {
    PyObject *o_obs, *o_mask, *o_sel;
    if (!PyArg_ParseTuple(args, "OOO", &o_obs, &o_mask, &o_sel)) return NULL;
    if (check_ready(self) < 0) return NULL;
    const Config *c = &self->c;
    Py_ssize_t N = self->count;
    Buf obs, mask, sel;
    obs.held = mask.held = sel.held = 0;
    PyObject *result = NULL;
    if (get_buf(o_obs, &obs, N * c->obs_size, 4, "f", 1, 1, "observations") < 0 ||
        get_buf(o_mask, &mask, N * NACT, 1, "?", 1, 1, "masks") < 0 ||
        get_buf(o_sel, &sel, N, 1, "?", 0, 1, "select") < 0)
        goto out;
    for (Py_ssize_t i = 0; i < N; i++) {
        if (sel.held && !DATA(sel, uint8_t)[i]) continue;
        Tab *T = &self->t[i];
        T->started = 0;
        T->acc = 0;
        T->term = T->pending = T->illegal = 0;
        advance(self, T, NULL, NULL);
        T->acc = 0;
        T->term = 0;
    }
    if (obs.held && mask.held)
        for (Py_ssize_t i = 0; i < N; i++)
            seat_outputs(c, &self->t[i], DATA(obs, float) + i * c->obs_size, DATA(mask, uint8_t) + i * NACT);
    Py_INCREF(Py_None);
    result = Py_None;
out:
    release(&obs); release(&mask); release(&sel);
    return result;
}

/* waiting(obs, mask, index): one-seat mode with external opponents: every table where an
 * opponent is to decide, its observation, legal mask and index, packed from row 0; returns
 * how many. */
static PyObject *m_waiting(TablesObject *self, PyObject *args) {
    PyObject *o_obs, *o_mask, *o_idx, *o_seat;
    if (!PyArg_ParseTuple(args, "OOOO", &o_obs, &o_mask, &o_idx, &o_seat)) return NULL;
    if (check_ready(self) < 0) return NULL;
    const Config *c = &self->c;
    Py_ssize_t N = self->count, k = 0;
    Buf obs, mask, idx, seat;
    obs.held = mask.held = idx.held = seat.held = 0;
    PyObject *result = NULL;
    if (get_buf(o_obs, &obs, N * c->obs_size, 4, "f", 1, 0, "observations") < 0 ||
        get_buf(o_mask, &mask, N * NACT, 1, "?", 1, 0, "masks") < 0 ||
        get_buf(o_idx, &idx, N, 8, "qlL", 1, 0, "index") < 0 ||
        get_buf(o_seat, &seat, N, 1, "b", 1, 0, "seats") < 0)
        goto out;
    for (Py_ssize_t i = 0; i < N; i++) {
        Tab *T = &self->t[i];
        if (T->pending || T->over || T->seat < 0 || T->seat == T->learner) continue;
        observe(c, T, T->seat, T->deciding, DATA(obs, float) + k * c->obs_size);
        write_mask(T, DATA(mask, uint8_t) + k * NACT);
        DATA(idx, int64_t)[k] = i;
        DATA(seat, int8_t)[k] = T->seat;
        k++;
    }
    result = PyLong_FromSsize_t(k);
out:
    release(&obs); release(&mask); release(&idx); release(&seat);
    return result;
}

/* answer(index, actions, final_obs, final_mask): the opponents' actions for the tables
 * waiting() listed (all checked before any is played; an illegal one is refused); each
 * table then runs on as step_seat runs it. */
static PyObject *m_answer(TablesObject *self, PyObject *args) {
    PyObject *o_idx, *o_act, *o_fin, *o_finm;
    if (!PyArg_ParseTuple(args, "OOOO", &o_idx, &o_act, &o_fin, &o_finm)) return NULL;
    if (check_ready(self) < 0) return NULL;
    const Config *c = &self->c;
    Py_ssize_t N = self->count;
    Py_buffer iv;
    if (PyObject_GetBuffer(o_idx, &iv, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    Py_ssize_t k = iv.itemsize == 8 ? iv.len / 8 : -1;
    PyBuffer_Release(&iv);
    if (k < 0 || k > N) {
        PyErr_SetString(PyExc_ValueError, "index: int64 expected");
        return NULL;
    }
    Buf idx, act, fin, finm;
    idx.held = act.held = fin.held = finm.held = 0;
    PyObject *result = NULL;
    if (get_buf(o_idx, &idx, k, 8, "qlL", 0, 0, "index") < 0 ||
        get_buf(o_act, &act, k, 8, "qlL", 0, 0, "opponent actions") < 0 ||
        get_buf(o_fin, &fin, N * c->obs_size, 4, "f", 1, 1, "final observations") < 0 ||
        get_buf(o_finm, &finm, N, 1, "?", 1, 1, "final mask") < 0)
        goto out;
    const int64_t *ix = DATA(idx, int64_t), *a = DATA(act, int64_t);
    for (Py_ssize_t j = 0; j < k; j++) {
        if (ix[j] < 0 || ix[j] >= N) {
            PyErr_SetString(PyExc_IndexError, "no such table");
            goto out;
        }
        const Tab *T = &self->t[ix[j]];
        if (T->pending || T->seat == T->learner) {
            PyErr_Format(PyExc_ValueError, "table %zd: no opponent is to decide", (Py_ssize_t)ix[j]);
            goto out;
        }
        int ok = check_action(self, ix[j], a[j]);
        if (ok < 0) goto out;
        if (!ok) {
            PyErr_Format(PyExc_LookupError, "%zd %d %lld", (Py_ssize_t)ix[j], T->seat, (long long)a[j]);
            goto out;
        }
    }
    float *fo = fin.held ? DATA(fin, float) : NULL;
    uint8_t *fm = finm.held ? DATA(finm, uint8_t) : NULL;
    for (Py_ssize_t j = 0; j < k; j++) {
        Tab *T = &self->t[ix[j]];
        apply_id(c, T, (int)a[j]);
        advance(self, T, fo ? fo + ix[j] * c->obs_size : NULL, fm ? fm + ix[j] : NULL);
    }
    Py_INCREF(Py_None);
    result = Py_None;
out:
    release(&idx); release(&act); release(&fin); release(&finm);
    return result;
}

/* finish(obs, mask, reward, term): the learners' outputs once every opponent has answered. */
static PyObject *m_finish(TablesObject *self, PyObject *args) {
    PyObject *o_obs, *o_mask, *o_rew, *o_term;
    if (!PyArg_ParseTuple(args, "OOOO", &o_obs, &o_mask, &o_rew, &o_term)) return NULL;
    if (check_ready(self) < 0) return NULL;
    const Config *c = &self->c;
    Py_ssize_t N = self->count;
    Buf obs, mask, rew, term;
    obs.held = mask.held = rew.held = term.held = 0;
    PyObject *result = NULL;
    if (get_buf(o_obs, &obs, N * c->obs_size, 4, "f", 1, 0, "observations") < 0 ||
        get_buf(o_mask, &mask, N * NACT, 1, "?", 1, 0, "masks") < 0 ||
        get_buf(o_rew, &rew, N, 8, "d", 1, 0, "rewards") < 0 ||
        get_buf(o_term, &term, N, 1, "?", 1, 0, "terminations") < 0)
        goto out;
    for (Py_ssize_t i = 0; i < N; i++) {
        Tab *T = &self->t[i];
        if (!T->pending && T->seat != T->learner) {
            PyErr_Format(PyExc_RuntimeError, "table %zd: an opponent has not answered", i);
            goto out;
        }
    }
    for (Py_ssize_t i = 0; i < N; i++) {
        Tab *T = &self->t[i];
        seat_outputs(c, T, DATA(obs, float) + i * c->obs_size, DATA(mask, uint8_t) + i * NACT);
        DATA(rew, double)[i] = T->acc;
        DATA(term, uint8_t)[i] = T->term;
    }
    Py_INCREF(Py_None);
    result = Py_None;
out:
    release(&obs); release(&mask); release(&rew); release(&term);
    return result;
}

/* observe(seats, obs): each table's observation of the seat given (int8; -1: the seat to
 * decide), with the deciding flags set when that seat decides. */
static PyObject *m_observe(TablesObject *self, PyObject *args) {
    PyObject *o_seats, *o_obs;
    if (!PyArg_ParseTuple(args, "OO", &o_seats, &o_obs)) return NULL;
    if (check_ready(self) < 0) return NULL;
    const Config *c = &self->c;
    Py_ssize_t N = self->count;
    Buf seats, obs;
    seats.held = obs.held = 0;
    PyObject *result = NULL;
    if (get_buf(o_seats, &seats, N, 1, "b", 0, 0, "seats") < 0 ||
        get_buf(o_obs, &obs, N * c->obs_size, 4, "f", 1, 0, "observations") < 0)
        goto out;
    for (Py_ssize_t i = 0; i < N; i++) {
        Tab *T = &self->t[i];
        int s = DATA(seats, int8_t)[i];
        if (s < 0) s = T->seat;
        if (s < 0 || s >= c->n) {
            PyErr_Format(PyExc_ValueError, "table %zd: no seat to observe", i);
            goto out;
        }
        observe(c, T, s, s == T->seat ? T->deciding : NONE, DATA(obs, float) + i * c->obs_size);
    }
    Py_INCREF(Py_None);
    result = Py_None;
out:
    release(&seats); release(&obs);
    return result;
}

/* masks(mask, seats): the legal mask of the seat to decide, and that seat. */
static PyObject *m_masks(TablesObject *self, PyObject *args) {
    PyObject *o_mask, *o_seat;
    if (!PyArg_ParseTuple(args, "OO", &o_mask, &o_seat)) return NULL;
    if (check_ready(self) < 0) return NULL;
    Py_ssize_t N = self->count;
    Buf mask, seat;
    mask.held = seat.held = 0;
    PyObject *result = NULL;
    if (get_buf(o_mask, &mask, N * NACT, 1, "?", 1, 0, "masks") < 0 ||
        get_buf(o_seat, &seat, N, 1, "b", 1, 0, "seats") < 0)
        goto out;
    for (Py_ssize_t i = 0; i < N; i++) {
        write_mask(&self->t[i], DATA(mask, uint8_t) + i * NACT);
        DATA(seat, int8_t)[i] = self->t[i].seat;
    }
    Py_INCREF(Py_None);
    result = Py_None;
out:
    release(&mask); release(&seat);
    return result;
}

/* random_actions(out): a uniform legal ID per table from its own stream (-1 where none is
 * legal). */
static PyObject *m_random_actions(TablesObject *self, PyObject *args) {
    PyObject *o_out;
    if (!PyArg_ParseTuple(args, "O", &o_out)) return NULL;
    if (check_ready(self) < 0) return NULL;
    Buf out;
    out.held = 0;
    if (get_buf(o_out, &out, self->count, 8, "qlL", 1, 0, "actions") < 0) return NULL;
    for (Py_ssize_t i = 0; i < self->count; i++) {
        Tab *T = &self->t[i];
        DATA(out, int64_t)[i] = (T->legal[0] | T->legal[1]) ? random_id(T) : -1;
    }
    release(&out);
    Py_RETURN_NONE;
}

/* deals(seeds, dealers, learners): each table's deal seed, dealer and learner seat now. */
static PyObject *m_deals(TablesObject *self, PyObject *args) {
    PyObject *o_s, *o_d, *o_l;
    if (!PyArg_ParseTuple(args, "OOO", &o_s, &o_d, &o_l)) return NULL;
    if (check_ready(self) < 0) return NULL;
    Py_ssize_t N = self->count;
    Buf s, d, l;
    s.held = d.held = l.held = 0;
    PyObject *result = NULL;
    if (get_buf(o_s, &s, N, 8, "QLk", 1, 0, "seeds") < 0 || get_buf(o_d, &d, N, 1, "b", 1, 0, "dealers") < 0 ||
        get_buf(o_l, &l, N, 1, "b", 1, 0, "learners") < 0)
        goto out;
    for (Py_ssize_t i = 0; i < N; i++) {
        DATA(s, uint64_t)[i] = self->t[i].seed;
        DATA(d, int8_t)[i] = self->t[i].dealer;
        DATA(l, int8_t)[i] = self->t[i].learner;
    }
    Py_INCREF(Py_None);
    result = Py_None;
out:
    release(&s); release(&d); release(&l);
    return result;
}

/* get(i): table i as a dict (the whole truth: for tests and for the trainer). */
static PyObject *m_get(TablesObject *self, PyObject *args) {
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "n", &i)) return NULL;
    if (check_ready(self) < 0) return NULL;
    if (i < 0 || i >= self->count) {
        PyErr_SetString(PyExc_IndexError, "no such table");
        return NULL;
    }
    const Tab *T = &self->t[i];
    int n = self->c.n;
    PyObject *hands = PyTuple_New(n), *won = PyTuple_New(n), *down = PyTuple_New(n);
    PyObject *lain = PyTuple_New(n), *chips = PyTuple_New(n), *window = PyTuple_New(T->win_len - T->win_pos > 0 ? T->win_len - T->win_pos : 0);
    PyObject *legal = PyList_New(0);
    if (!hands || !won || !down || !lain || !chips || !window || !legal) goto fail;
    for (int s = 0; s < n; s++) {
        PyTuple_SET_ITEM(hands, s, PyLong_FromUnsignedLongLong(T->hand[s]));
        PyTuple_SET_ITEM(won, s, PyLong_FromUnsignedLongLong(T->won[s]));
        PyTuple_SET_ITEM(down, s, PyLong_FromUnsignedLongLong(T->down[s]));
        PyTuple_SET_ITEM(lain, s, PyBool_FromLong(T->lain[s]));
        PyTuple_SET_ITEM(chips, s, PyLong_FromLong(T->chips[s]));
    }
    for (int k = T->win_pos; k < T->win_len; k++)
        PyTuple_SET_ITEM(window, k - T->win_pos, PyLong_FromLong(T->win_seat[k]));
    for (int id = 0; id < NACT; id++)
        if (has_id(T, id)) {
            PyObject *v = PyLong_FromLong(id);
            if (!v || PyList_Append(legal, v) < 0) { Py_XDECREF(v); goto fail; }
            Py_DECREF(v);
        }
    static const char *names[] = {"turn", "claim", "none"};
    PyObject *d = Py_BuildValue(
        "{s:N,s:K,s:N,s:N,s:N,s:N,s:N,s:i,s:K,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:s,s:i,s:i,s:i}",
        "hands", hands, "table", (unsigned long long)T->table, "won", won, "face_down", down,
        "lain", lain, "window", window, "legal", legal, "pot", (int)T->pot,
        "seed", (unsigned long long)T->seed, "dealer", (int)T->dealer, "to_move", (int)T->to_move,
        "last_capture", (int)T->last_capture, "last_actor", (int)T->last_actor,
        "foreplay", (int)T->foreplay, "over", (int)T->over, "seat", (int)T->seat,
        "deciding", names[T->deciding], "learner", (int)T->learner, "pending", (int)T->pending,
        "started", (int)T->started);
    if (!d) { Py_DECREF(chips); return NULL; }
    if (PyDict_SetItemString(d, "chips", chips) < 0) { Py_DECREF(chips); Py_DECREF(d); return NULL; }
    Py_DECREF(chips);
    return d;
fail:
    Py_XDECREF(hands); Py_XDECREF(won); Py_XDECREF(down); Py_XDECREF(lain); Py_XDECREF(chips);
    Py_XDECREF(window); Py_XDECREF(legal);
    return NULL;
}

/* weights(i): RandomBot's weight of each legal ID at table i now (the concrete actions it
 * stands for; pass 1), as a dict. */
static PyObject *m_weights(TablesObject *self, PyObject *args) {
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "n", &i)) return NULL;
    if (check_ready(self) < 0) return NULL;
    if (i < 0 || i >= self->count) {
        PyErr_SetString(PyExc_IndexError, "no such table");
        return NULL;
    }
    const Tab *T = &self->t[i];
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    for (int id = 0; id < NACT; id++) {
        if (!has_id(T, id)) continue;
        PyObject *k = PyLong_FromLong(id), *v = PyLong_FromUnsignedLong(weight_of(&self->c, T, id));
        if (!k || !v || PyDict_SetItem(out, k, v) < 0) {
            Py_XDECREF(k); Py_XDECREF(v); Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(k); Py_DECREF(v);
    }
    return out;
}

/* bot_step(i): the tables' opponent level decides for the seat deciding at table i, whichever
 * seat it is (for tests: the Python bots' choice, move by move); the ID of its choice, or -1
 * when the deal is over (nothing is played). */
static PyObject *m_bot_step(TablesObject *self, PyObject *args) {
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "n", &i)) return NULL;
    if (check_ready(self) < 0) return NULL;
    if (i < 0 || i >= self->count) {
        PyErr_SetString(PyExc_IndexError, "no such table");
        return NULL;
    }
    if (self->opponents != OPP_GREEDY && self->opponents != OPP_HEURISTIC) {
        PyErr_SetString(PyExc_ValueError, "these tables seat no greedy or heuristic opponents");
        return NULL;
    }
    Tab *T = &self->t[i];
    if (T->over) return PyLong_FromLong(-1);
    return PyLong_FromLong(bot_move(&self->c, T, self->opponents));
}

static PyObject *m_count(TablesObject *self, void *closure) {
    (void)closure;
    return PyLong_FromSsize_t(self->count);
}

static PyMethodDef tables_methods[] = {
    {"reset", (PyCFunction)m_reset, METH_VARARGS, "reset(seeds, dealers, rng_seeds, learners, select, stride)"},
    {"load", (PyCFunction)m_load, METH_VARARGS, "load(i, hands, table, dealer): a table from a layout"},
    {"step_all", (PyCFunction)m_step_all, METH_VARARGS, "step_all(actions, obs, mask, seats, rewards, done, illegal_reward, flags)"},
    {"step_seat", (PyCFunction)m_step_seat, METH_VARARGS, "step_seat(actions, obs, mask, reward, term, illegal, final, final_mask, illegal_reward, finish)"},
    {"start_seat", (PyCFunction)m_start_seat, METH_VARARGS, "start_seat(obs, mask, select)"},
    {"waiting", (PyCFunction)m_waiting, METH_VARARGS, "waiting(obs, mask, index, seats) -> count"},
    {"answer", (PyCFunction)m_answer, METH_VARARGS, "answer(index, actions, final, final_mask)"},
    {"finish", (PyCFunction)m_finish, METH_VARARGS, "finish(obs, mask, reward, term)"},
    {"observe", (PyCFunction)m_observe, METH_VARARGS, "observe(seats, obs)"},
    {"masks", (PyCFunction)m_masks, METH_VARARGS, "masks(mask, seats)"},
    {"random_actions", (PyCFunction)m_random_actions, METH_VARARGS, "random_actions(out)"},
    {"deals", (PyCFunction)m_deals, METH_VARARGS, "deals(seeds, dealers, learners)"},
    {"get", (PyCFunction)m_get, METH_VARARGS, "get(i) -> dict"},
    {"weights", (PyCFunction)m_weights, METH_VARARGS, "weights(i) -> {id: weight}"},
    {"bot_step", (PyCFunction)m_bot_step, METH_VARARGS, "bot_step(i) -> the ID the opponents' level chose (-1: over)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef tables_getset[] = {
    {"count", (getter)m_count, NULL, "the number of tables", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lald.rl.vector._vector.Tables",
    .tp_basicsize = sizeof(TablesObject),
    .tp_dealloc = (destructor)tables_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "N tables of Laugh and Lie Down (see lald.rl.vector)",
    .tp_methods = tables_methods,
    .tp_getset = tables_getset,
    .tp_init = (initproc)tables_init,
    .tp_new = PyType_GenericNew,
};

/* shuffle(seed, secret=None): the deck State.deal shuffles with this seed, or
 * KeyedRandom(secret, "deal", seed) (for the self-check) */
static PyObject *f_shuffle(PyObject *self, PyObject *args) {
    unsigned long long seed;
    const char *secret = NULL;
    Py_ssize_t len = 0;
    if (!PyArg_ParseTuple(args, "K|y#", &seed, &secret, &len)) return NULL;
    Key key;
    if (secret) key_set(&key, (const uint8_t *)secret, (size_t)len);
    uint8_t deck[DECK];
    Gen g;
    gen_init(&g, secret ? &key : NULL, (uint64_t)seed, "deal");
    shuffle_deck(&g, deck);
    PyObject *out = PyList_New(DECK);
    if (!out) return NULL;
    for (int i = 0; i < DECK; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(deck[i]));
    return out;
}

/* draws(seed, bound, count): PortableRandom(seed).below(bound) count times */
static PyObject *f_draws(PyObject *self, PyObject *args) {
    unsigned long long seed, bound;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "KKn", &seed, &bound, &count)) return NULL;
    if (bound < 1 || count < 0) {
        PyErr_SetString(PyExc_ValueError, "bound >= 1, count >= 0");
        return NULL;
    }
    uint64_t s = seed;
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < count; i++) PyList_SET_ITEM(out, i, PyLong_FromUnsignedLongLong(below(&s, bound)));
    return out;
}

static PyMethodDef module_methods[] = {
    {"shuffle", f_shuffle, METH_VARARGS,
     "shuffle(seed, secret=None) -> the deck as PortableRandom(seed) (or KeyedRandom(secret, 'deal', seed)) shuffles it"},
    {"draws", f_draws, METH_VARARGS, "draws(seed, bound, count) -> PortableRandom(seed).below(bound), count times"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "lald.rl.vector._vector",
    "N tables of Laugh and Lie Down stepped in one call (lald.rl.vector's compiled path).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__vector(void) {
    make_plan();
    for (int b = 0; b < 256; b++)
        for (int k = 0; k < 8; k++) {
            spread[b][k] = (uint8_t)(b >> k & 1);
            fbits[b][k] = (float)(b >> k & 1);
        }
    if (PyType_Ready(&TablesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&TablesType);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0) {
        Py_DECREF(&TablesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
