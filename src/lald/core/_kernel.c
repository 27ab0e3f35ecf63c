/* lald.core._kernel: the random play-out of lald.core.fast.playout.random_outcome, in C.
 *
 * It computes exactly what the pure function computes (the reference, kept in
 * playout.random_outcome_py): the same Outcome tuple, the same trace codes, and the same
 * draws from the random.Random object in the same order, read from and written back to
 * its Mersenne Twister state (the layout of CPython's _randommodule.c).  lald.core.compiled
 * verifies that layout against the object's own methods before it lets this module play
 * (draw_random / draw_bits below, its selfcheck), and lald.core.fast.pack hands over the rules' tables once per rules
 * (prepare): the C side keeps them as flat arrays, F (the tables' bit fields) as a
 * 256-bit integer of four 64-bit words in two's complement, so every addition of the
 * Python kernel is one four-word addition here.
 *
 * Whenever an input is not what the pure path is known to treat the same way (a subclass
 * of Random, a trace that is not a list, a malformed deal), random_outcome returns None
 * before any draw and the caller plays the pure path.
 *
 * scored_outcome is playout.scored_outcome_py (the heuristic's play-out of the search
 * bots) in C: the same Outcome and trace.  It plays only playout.first_claim as the claim
 * chooser (the heuristic's, written out below) and policy tables pack.pack_policy
 * accepts; for anything else it returns None before any move and the pure path plays.
 *
 * The order of play, the claim order, the end of a deal, the settlement's arithmetic and
 * the deal's shuffle are _rules.h's, which lald.rl.vector._vector plays too.
 * C99, CPython C API only.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "_rules.h" /* the rules the vectorized environment plays too: turns, claims' order, the end, the settlement, the shuffle */

#define NUM_RANKS LALD_RANKS
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif
#define FIELD ((1u << NUM_RANKS) - 1u)
#define BOTH ((1u << (2 * NUM_RANKS)) - 1u)
#define WON_BITS 8
#define PICK_BITS 5
#define MAX_N LALD_MAX_SEATS
#define LIE 4
#define TRAIL 5

/* ---- the Mersenne Twister of CPython 3.11's _randommodule.c ------------------------- */

#define MT_N 624
#define MT_M 397
#define MATRIX_A 0x9908b0dfU
#define UPPER_MASK 0x80000000U
#define LOWER_MASK 0x7fffffffU

typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[MT_N];
} RandomObject;

static void mt_refill(RandomObject *self) {
    uint32_t y;
    static const uint32_t mag01[2] = {0x0U, MATRIX_A};
    uint32_t *mt = self->state;
    int kk;
    for (kk = 0; kk < MT_N - MT_M; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    for (; kk < MT_N - 1; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    y = (mt[MT_N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
    mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
    self->index = 0;
}

static ALWAYS_INLINE uint32_t genrand_uint32(RandomObject *self) {
    if (self->index >= MT_N) mt_refill(self);
    uint32_t y = self->state[self->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static ALWAYS_INLINE double genrand_double(RandomObject *self) {
    uint32_t a = genrand_uint32(self) >> 5;
    uint32_t b = genrand_uint32(self) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* ---- module state --------------------------------------------------------------------- */

static PyTypeObject *base_random_type = NULL; /* _random.Random */
static PyTypeObject *random_type = NULL;      /* random.Random (exactly this type plays) */
static PyObject *prepare_hook = NULL;         /* rules -> capsule of the rules' tables */
static PyObject *rules_cache = NULL;          /* id(rules) -> (rules, capsule) */
static PyObject *last_rules = NULL;           /* borrowed: held by rules_cache */
static void *last_tables = NULL;
static int enabled = 0;
static PyObject *s_random, *s_getrandbits;
static PyObject *s_rules, *s_dealer, *s_hc, *s_tc, *s_lc, *s_hs, *s_won, *s_to_move;
static PyObject *s_foreplay, *s_last_capture, *s_last_actor, *s_eldest, *s_over, *s_last_take;

/* pick[mask][bits]: as tables.pick_table */
static int8_t pick[1 << NUM_RANKS][1 << PICK_BITS];

/* ---- the tables of one rules ----------------------------------------------------------- */

typedef struct { uint64_t w[4]; } F256;

typedef struct {
    F256 d;
    int32_t j;
    int32_t out;
    int32_t code;
} CCapture;

typedef struct {
    F256 d;
    int32_t j;
} CStep;

typedef struct {
    F256 d;
    int32_t code;
    int32_t r;
    int32_t j;
    int32_t emptied;
} CClaim;

typedef struct {
    int n, ns, G, lie_down, fore, full;
    int held[MAX_N], base[MAX_N];
    uint8_t ring[1 << MAX_N][MAX_N];
    int32_t *counts;     /* G * (n + 1) */
    F256 *bits;          /* G */
    int32_t *local;      /* 5 ** (n + 1): counts key -> local index, or -1 */
    int32_t *single;     /* n * G: 1 when the capture needs no draw */
    int32_t *multi_off;  /* n * G */
    int32_t *multi_len;  /* n * G */
    CCapture *caps;
    Py_ssize_t ncaps;
    CStep *lie;          /* n * G */
    CStep *trail;        /* n * G */
    int32_t *claim_off;  /* 2 * n * G */
    int32_t *claim_len;  /* 2 * n * G */
    CClaim *claims;
    Py_ssize_t nclaims;
} Tables;

static void tables_free(Tables *t) {
    if (!t) return;
    PyMem_Free(t->counts); PyMem_Free(t->bits); PyMem_Free(t->local); PyMem_Free(t->single);
    PyMem_Free(t->multi_off); PyMem_Free(t->multi_len); PyMem_Free(t->caps);
    PyMem_Free(t->lie); PyMem_Free(t->trail); PyMem_Free(t->claim_off);
    PyMem_Free(t->claim_len); PyMem_Free(t->claims);
    PyMem_Free(t);
}

static void capsule_free(PyObject *cap) {
    tables_free((Tables *)PyCapsule_GetPointer(cap, "lald.core._kernel.tables"));
}

/* A copy of the bytes object ``b`` of exactly ``count`` items of ``size`` bytes. */
static void *copy_items(PyObject *b, Py_ssize_t count, size_t size, const char *what) {
    if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) != count * (Py_ssize_t)size) {
        PyErr_Format(PyExc_ValueError, "prepare: %s has the wrong size", what);
        return NULL;
    }
    void *p = PyMem_Malloc(count * size > 0 ? count * size : 1);
    if (!p) { PyErr_NoMemory(); return NULL; }
    memcpy(p, PyBytes_AS_STRING(b), count * size);
    return p;
}

static int check_range(const int32_t *a, Py_ssize_t count, Py_ssize_t stride, int32_t lo, int32_t hi,
                       const char *what) {
    for (Py_ssize_t i = 0; i < count; i++) {
        int32_t v = a[i * stride];
        if (v < lo || v > hi) {
            PyErr_Format(PyExc_ValueError, "prepare: %s out of range", what);
            return -1;
        }
    }
    return 0;
}

/* prepare(n, ns, lie_down, fore, held, base, ring, counts, bits, local, single, multi_off,
 * multi_len, caps, lie, trail, claim_off, claim_len, claims): the tables as bytes (int32
 * and uint64 items in native order, F256 as four words lowest first); see
 * pack.pack_tables. */
static PyObject *k_prepare(PyObject *self, PyObject *args) {
    int n, ns, lie_down, fore;
    PyObject *held, *base, *ring, *counts, *bits, *local, *single, *moff, *mlen, *caps, *lie,
        *trail, *coff, *clen, *claims;
    if (!PyArg_ParseTuple(args, "iiiiOOOOOOOOOOOOOOO", &n, &ns, &lie_down, &fore, &held, &base,
                          &ring, &counts, &bits, &local, &single, &moff, &mlen, &caps, &lie,
                          &trail, &coff, &clen, &claims))
        return NULL;
    if (n < 2 || n > MAX_N || ns < 1 || ns > 1000) {
        PyErr_SetString(PyExc_ValueError, "prepare: bad player count");
        return NULL;
    }
    Tables *t = PyMem_Calloc(1, sizeof(Tables));
    if (!t) return PyErr_NoMemory();
    int G = NUM_RANKS * ns;
    t->n = n; t->ns = ns; t->G = G; t->lie_down = lie_down != 0; t->fore = fore;
    t->full = (1 << n) - 1;
    int32_t *tmp = copy_items(held, n, 4, "held");
    if (!tmp) goto fail;
    memcpy(t->held, tmp, n * 4); PyMem_Free(tmp);
    tmp = copy_items(base, n, 4, "base");
    if (!tmp) goto fail;
    memcpy(t->base, tmp, n * 4); PyMem_Free(tmp);
    for (int s = 0; s < n; s++) {
        if (t->held[s] < 0 || t->held[s] + NUM_RANKS > 256 || t->base[s] < 0 ||
            t->base[s] + 2 * NUM_RANKS > 256) {
            PyErr_SetString(PyExc_ValueError, "prepare: field out of range");
            goto fail;
        }
    }
    if (fore < 0 || fore + NUM_RANKS > 256) {
        PyErr_SetString(PyExc_ValueError, "prepare: field out of range");
        goto fail;
    }
    /* the ring is the rules' (lald_ring_fill); the tables' own must be the same */
    lald_ring_fill(t->ring, n);
    tmp = copy_items(ring, (Py_ssize_t)(1 << n) * n, 4, "ring");
    if (!tmp) goto fail;
    for (int h = 0; h < (1 << n); h++)
        for (int s = 0; s < n; s++)
            if (tmp[h * n + s] != t->ring[h][s]) {
                PyMem_Free(tmp);
                PyErr_SetString(PyExc_ValueError, "prepare: the ring is not the rules' turn order");
                goto fail;
            }
    PyMem_Free(tmp);
    Py_ssize_t nG = (Py_ssize_t)n * G;
    Py_ssize_t keys = 1;
    for (int i = 0; i <= n; i++) keys *= 5;
    if (!(t->counts = copy_items(counts, (Py_ssize_t)G * (n + 1), 4, "counts"))) goto fail;
    if (!(t->bits = copy_items(bits, G, sizeof(F256), "bits"))) goto fail;
    if (!(t->local = copy_items(local, keys, 4, "local"))) goto fail;
    if (!(t->single = copy_items(single, nG, 4, "single"))) goto fail;
    if (!(t->multi_off = copy_items(moff, nG, 4, "multi_off"))) goto fail;
    if (!(t->multi_len = copy_items(mlen, nG, 4, "multi_len"))) goto fail;
    if (!PyBytes_Check(caps) || PyBytes_GET_SIZE(caps) % sizeof(CCapture)) {
        PyErr_SetString(PyExc_ValueError, "prepare: caps");
        goto fail;
    }
    t->ncaps = PyBytes_GET_SIZE(caps) / (Py_ssize_t)sizeof(CCapture);
    if (!(t->caps = copy_items(caps, t->ncaps, sizeof(CCapture), "caps"))) goto fail;
    if (!(t->lie = copy_items(lie, nG, sizeof(CStep), "lie"))) goto fail;
    if (!(t->trail = copy_items(trail, nG, sizeof(CStep), "trail"))) goto fail;
    if (!(t->claim_off = copy_items(coff, 2 * nG, 4, "claim_off"))) goto fail;
    if (!(t->claim_len = copy_items(clen, 2 * nG, 4, "claim_len"))) goto fail;
    if (!PyBytes_Check(claims) || PyBytes_GET_SIZE(claims) % sizeof(CClaim)) {
        PyErr_SetString(PyExc_ValueError, "prepare: claims");
        goto fail;
    }
    t->nclaims = PyBytes_GET_SIZE(claims) / (Py_ssize_t)sizeof(CClaim);
    if (!(t->claims = copy_items(claims, t->nclaims, sizeof(CClaim), "claims"))) goto fail;
    /* every index the loop follows stays inside its array: a bad table cannot crash */
    if (check_range(t->counts, (Py_ssize_t)G * (n + 1), 1, 0, 4, "counts") ||
        check_range(t->local, keys, 1, -1, ns - 1, "local") ||
        check_range(t->multi_len, nG, 1, 0, 1 << 20, "multi_len") ||
        check_range(t->claim_len, 2 * nG, 1, 0, 1 << 20, "claim_len"))
        goto fail;
    for (Py_ssize_t i = 0; i < nG; i++) {
        if (t->multi_off[i] < 0 || (Py_ssize_t)t->multi_off[i] + t->multi_len[i] > t->ncaps ||
            (t->single[i] && t->multi_len[i] < 1) ||
            t->lie[i].j < -1 || t->lie[i].j >= G || t->trail[i].j < -1 || t->trail[i].j >= G) {
            PyErr_SetString(PyExc_ValueError, "prepare: turn tables out of range");
            goto fail;
        }
    }
    for (Py_ssize_t i = 0; i < 2 * nG; i++) {
        if (t->claim_off[i] < 0 || (Py_ssize_t)t->claim_off[i] + t->claim_len[i] > t->nclaims) {
            PyErr_SetString(PyExc_ValueError, "prepare: claim tables out of range");
            goto fail;
        }
    }
    for (Py_ssize_t i = 0; i < t->ncaps; i++)
        if (t->caps[i].j < 0 || t->caps[i].j >= G) {
            PyErr_SetString(PyExc_ValueError, "prepare: capture out of range");
            goto fail;
        }
    for (Py_ssize_t i = 0; i < t->nclaims; i++) {
        CClaim *c = &t->claims[i];
        if (c->j < 0 || c->j >= G || c->r < 0 || c->r >= NUM_RANKS || (c->code >> 7) >= n || c->code < 0) {
            PyErr_SetString(PyExc_ValueError, "prepare: claim out of range");
            goto fail;
        }
    }
    PyObject *cap = PyCapsule_New(t, "lald.core._kernel.tables", capsule_free);
    if (!cap) goto fail;
    return cap;
fail:
    tables_free(t);
    return NULL;
}

/* ---- F as four words -------------------------------------------------------------------- */

static ALWAYS_INLINE void f_add(uint64_t *f, const F256 *d) {
#if defined(__SIZEOF_INT128__)
    unsigned __int128 t = (unsigned __int128)f[0] + d->w[0];
    f[0] = (uint64_t)t;
    t = (t >> 64) + f[1] + d->w[1];
    f[1] = (uint64_t)t;
    t = (t >> 64) + f[2] + d->w[2];
    f[2] = (uint64_t)t;
    f[3] = f[3] + d->w[3] + (uint64_t)(t >> 64);
#else
    uint64_t carry = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t a = f[i];
        uint64_t s = a + d->w[i];
        uint64_t c1 = s < a;
        uint64_t s2 = s + carry;
        uint64_t c2 = s2 < s;
        f[i] = s2;
        carry = c1 | c2;
    }
#endif
}

static ALWAYS_INLINE uint32_t f_get(const uint64_t *f, int pos, int width) {
    int w = pos >> 6, b = pos & 63;
    uint64_t v = f[w] >> b;
    if (b + width > 64) v |= f[w + 1] << (64 - b);
    return (uint32_t)(v & ((1ULL << width) - 1));
}

/* playout._won: the won piles at the end of a deal, read from F's won fields, the cards
 * not in them (of ``total`` in play) to the dealer: the survivor's hand and the table. */
static void won_at_end(const uint64_t *f, int n, long dealer, long total, long *won) {
    long sum = 0;
    for (int s = 0; s < n; s++) sum += won[s] = (long)(f[0] >> (WON_BITS * s) & 0xff);
    won[dealer] += total - sum;
}

/* ---- reading the deal -------------------------------------------------------------------- */

/* CPython keeps the ints -5 to 256 as one array of objects, which every small count of a
 * deal is: small_base is 0's, when PyInit__kernel found them laid out as that array
 * (else NULL, and every int is read through the C API). */
static PyObject *small_base = NULL;
#define SMALL_LOW (-5)
#define SMALL_HIGH 256

/* The int of an exact int object in [lo, hi], or -1 with *ok = 0 (no error set). */
static long small_int_slow(PyObject *o, long lo, long hi, int *ok);

static ALWAYS_INLINE long small_int(PyObject *o, long lo, long hi, int *ok) {
    if (small_base) { /* the offset from -5's object, in objects */
        const size_t size = sizeof(PyLongObject);
        const size_t at = (size_t)((const char *)o - (const char *)small_base) + (size_t)(-SMALL_LOW) * size;
        if (at <= (size_t)(SMALL_HIGH - SMALL_LOW) * size && at % size == 0) {
            const long v = (long)(at / size) + SMALL_LOW;
            if (v < lo || v > hi) { *ok = 0; return -1; }
            return v;
        }
    }
    return small_int_slow(o, lo, hi, ok);
}

static long small_int_slow(PyObject *o, long lo, long hi, int *ok) {
    if (!o || !PyLong_CheckExact(o)) { *ok = 0; return -1; }
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred()) || v < lo || v > hi) {
        PyErr_Clear();
        *ok = 0;
        return -1;
    }
    return v;
}

/* The items of an exact list or tuple of exactly ``len`` items, or NULL. */
static ALWAYS_INLINE PyObject **items_of(PyObject *o, Py_ssize_t len) {
    if (PyList_CheckExact(o)) {
        return PyList_GET_SIZE(o) == len ? ((PyListObject *)o)->ob_item : NULL;
    }
    if (PyTuple_CheckExact(o)) {
        return PyTuple_GET_SIZE(o) == len ? ((PyTupleObject *)o)->ob_item : NULL;
    }
    return NULL;
}

static PyObject *last_capsule = NULL; /* borrowed: held by rules_cache */

/* The tables of ``rules`` (made by prepare_hook once per rules); ``capsule`` receives
 * their capsule (borrowed) when not NULL. */
static Tables *tables_of2(PyObject *rules, PyObject **capsule) {
    if (rules == last_rules) {
        if (capsule) *capsule = last_capsule;
        return (Tables *)last_tables;
    }
    PyObject *key = PyLong_FromVoidPtr(rules);
    if (!key) return NULL;
    PyObject *hit = PyDict_GetItemWithError(rules_cache, key);
    if (!hit) {
        if (PyErr_Occurred() || !prepare_hook) { Py_DECREF(key); return NULL; }
        PyObject *cap = PyObject_CallOneArg(prepare_hook, rules);
        if (!cap) { Py_DECREF(key); return NULL; }
        if (PyDict_GET_SIZE(rules_cache) > 256) {
            last_rules = NULL;
            PyDict_Clear(rules_cache);
        }
        hit = PyTuple_Pack(2, rules, cap); /* holding ``rules`` keeps its id from being reused */
        Py_DECREF(cap);
        if (!hit || PyDict_SetItem(rules_cache, key, hit) < 0) { Py_XDECREF(hit); Py_DECREF(key); return NULL; }
        Py_DECREF(hit); /* the dict holds it */
    }
    Py_DECREF(key);
    PyObject *cap = PyTuple_GET_ITEM(hit, 1);
    void *t = PyCapsule_GetPointer(cap, "lald.core._kernel.tables");
    if (!t) return NULL;
    last_rules = rules;
    last_tables = t;
    last_capsule = cap;
    if (capsule) *capsule = cap;
    return (Tables *)t;
}

static Tables *tables_of(PyObject *rules) { return tables_of2(rules, NULL); }

static int append_code(PyObject *trace, long code) {
    if (trace == Py_None) return 0;
    PyObject *v = PyLong_FromLong(code);
    if (!v) return -1;
    int rc = PyList_Append(trace, v);
    Py_DECREF(v);
    return rc;
}

static PyObject *index_error(void) {
    PyErr_SetString(PyExc_IndexError, "tuple index out of range");
    return NULL;
}

/* Whether ``rng`` draws through _random.Random's own methods: exactly random.Random, with
 * neither method replaced on the class or the instance. */
static unsigned int random_tag = 0; /* random.Random's version tag when its dict was last found plain */

static int plain_random(PyObject *rng) {
    if (Py_TYPE(rng) != random_type) return 0;
    /* the class's dict: looked up again only once it changed (its version tag with it) */
    const int tagged = (random_type->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) && random_type->tp_version_tag;
    if (!tagged || random_type->tp_version_tag != random_tag) {
        PyObject *tdict = random_type->tp_dict;
        if (PyDict_GetItemWithError(tdict, s_random) || PyDict_GetItemWithError(tdict, s_getrandbits)) return 0;
        if (PyErr_Occurred()) { PyErr_Clear(); return 0; }
        random_tag = tagged ? random_type->tp_version_tag : 0;
    }
    PyObject *d = PyObject_GenericGetDict(rng, NULL);
    if (!d) { PyErr_Clear(); return 0; }
    int shadowed = PyDict_GetItemWithError(d, s_random) || PyDict_GetItemWithError(d, s_getrandbits);
    Py_DECREF(d);
    if (PyErr_Occurred()) { PyErr_Clear(); return 0; }
    return !shadowed;
}

/* Reading a deal's fields: for exactly the type configure_deal was given (FastState, whose
 * fields are slots), straight from the slot while the class is unchanged (its version tag);
 * for anything else, by attribute lookup. */
#define DEAL_FIELDS 14
static PyTypeObject *deal_type = NULL;
static unsigned int deal_tag = 0;
static PyObject **deal_names[DEAL_FIELDS];
static Py_ssize_t deal_offsets[DEAL_FIELDS];
enum { F_RULES, F_DEALER, F_ELDEST, F_HC, F_TC, F_LC, F_HS, F_WON, F_TO_MOVE, F_FOREPLAY, F_LAST_CAPTURE,
       F_LAST_ACTOR, F_OVER, F_LAST_TAKE };

static ALWAYS_INLINE PyObject *deal_attr(PyObject *fs, int field) {
    if (Py_TYPE(fs) == deal_type && (deal_type->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) &&
        deal_type->tp_version_tag == deal_tag) {
        PyObject *v = *(PyObject **)((char *)fs + deal_offsets[field]);
        if (!v) return NULL; /* an unset slot: refused, as its AttributeError would be */
        return Py_NewRef(v);
    }
    return PyObject_GetAttr(fs, *deal_names[field]);
}

#define GET(var, name) PyObject *var = deal_attr(fs, name); if (!var) { PyErr_Clear(); goto refuse; } held_refs[nrefs++] = var

/* random_outcome(fs, rng, claim_p, trace): the Outcome, or None when this input is not
 * one the kernel plays (the caller then plays the pure path; no draw was made). */
static PyObject *k_random_outcome(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "random_outcome(fs, rng, claim_p, trace)");
        return NULL;
    }
    PyObject *fs = args[0], *rngobj = args[1], *pobj = args[2], *trace = args[3];
    PyObject *held_refs[16];
    int nrefs = 0;
    PyObject *result = NULL, *lain = NULL, *won_list = NULL;
    if (!enabled || !plain_random(rngobj)) Py_RETURN_NONE;
    double claim_p;
    if (PyFloat_CheckExact(pobj)) {
        claim_p = PyFloat_AS_DOUBLE(pobj);
    } else if (PyLong_Check(pobj)) { /* int and bool: compared exactly with a draw in [0, 1) */
        int overflow = 0;
        long v = PyLong_AsLongAndOverflow(pobj, &overflow);
        if (v == -1 && PyErr_Occurred()) { PyErr_Clear(); Py_RETURN_NONE; }
        claim_p = overflow > 0 || v > 0 ? 2.0 : 0.0;
    } else {
        Py_RETURN_NONE;
    }
    if (trace != Py_None && !PyList_CheckExact(trace)) Py_RETURN_NONE;
    RandomObject *R = (RandomObject *)rngobj;
    if (R->index < 0 || R->index > MT_N) Py_RETURN_NONE;

    GET(rules, F_RULES);
    Tables *T = tables_of(rules);
    if (!T) {
        if (PyErr_Occurred()) { PyErr_Clear(); }
        goto refuse;
    }
    const int n = T->n, G = T->G, ns = T->ns;
    GET(o_hc, F_HC);
    GET(o_tc, F_TC);
    GET(o_lc, F_LC);
    GET(o_hs, F_HS);
    GET(o_won, F_WON);
    GET(o_m, F_TO_MOVE);
    GET(o_dealer, F_DEALER);
    GET(o_la, F_LAST_ACTOR);
    GET(o_lcap, F_LAST_CAPTURE);
    GET(o_lt, F_LAST_TAKE);
    GET(o_fp, F_FOREPLAY);
    int ok = 1;
    long m = small_int(o_m, 0, n - 1, &ok);
    long dealer = small_int(o_dealer, 0, n - 1, &ok);
    long la = small_int(o_la, LONG_MIN / 2, LONG_MAX / 2, &ok);
    long lcap = small_int(o_lcap, LONG_MIN / 2, LONG_MAX / 2, &ok);
    long lt = small_int(o_lt, LONG_MIN / 2, LONG_MAX / 2, &ok);
    if (!ok || !PyBool_Check(o_fp)) goto refuse;
    int fp = o_fp == Py_True;
    PyObject **hc = items_of(o_hc, n), **tc = items_of(o_tc, NUM_RANKS), **lc = items_of(o_lc, NUM_RANKS);
    PyObject **hs = items_of(o_hs, n), **won0 = items_of(o_won, n);
    if (!hc || !tc || !lc || !hs || !won0) goto refuse;
    int cnt[MAX_N + 1][NUM_RANKS];
    long cards = 0, won_total = 0, live_total = 0;
    uint32_t holders = 0;
    for (int s = 0; s < n; s++) {
        PyObject **row = items_of(hc[s], NUM_RANKS);
        if (!row) goto refuse;
        long size = 0;
        for (int r = 0; r < NUM_RANKS; r++) size += cnt[s][r] = (int)small_int(row[r], 0, 4, &ok);
        long h = small_int(hs[s], 0, 52, &ok);
        if (!ok || h != size) goto refuse;
        if (h) holders |= 1u << s;
        cards += size;
    }
    for (int r = 0; r < NUM_RANKS; r++) {
        cards += cnt[n][r] = (int)small_int(tc[r], 0, 4, &ok);
        live_total += small_int(lc[r], -(1L << 30), 1L << 30, &ok);
    }
    long wonv[MAX_N];
    for (int s = 0; s < n; s++) won_total += wonv[s] = small_int(won0[s], 0, 255, &ok);
    if (!ok) goto refuse;
    for (int s = 0; s < n; s++)
        if (wonv[s] + cards > 255) goto refuse; /* no won pile can reach the next field */

    /* _begin: the rank states and F */
    int rs[NUM_RANKS];
    uint64_t f[4] = {0, 0, 0, 0};
    for (int r = 0; r < NUM_RANKS; r++) {
        long key = 0, mul = 1;
        for (int s = 0; s <= n; s++) { key += cnt[s][r] * mul; mul *= 5; }
        int32_t i = T->local[key];
        if (i < 0) goto refuse; /* more than 4 cards of a rank */
        rs[r] = r * ns + i;
        f_add(f, &T->bits[rs[r]]);
    }
    for (int s = 0; s < n; s++) f[0] += (uint64_t)wonv[s] << (WON_BITS * s);
    int holding = lald_popcount(holders);
    if (holding > 1 && !(holders >> m & 1u)) goto refuse; /* the seat to move holds no card */

    lain = PyList_New(0);
    if (!lain) goto error;
    PyObject *foreplay = o_fp; /* borrowed until the end (held in held_refs) */
    const int fore = T->fore;
    if (holding > 1) {
        uint32_t x = f_get(f, T->base[m], 2 * NUM_RANKS);
        if (fp) {
            x |= f_get(f, fore, NUM_RANKS) << NUM_RANKS;
            fp = x > FIELD;
            foreplay = fp ? Py_True : Py_False;
        }
        for (;;) {
            int out;
            if (x > FIELD) {
                if (genrand_double(R) < claim_p) {
                    /* _claims */
                    int over = 0;
                    for (;;) {
                        const Py_ssize_t row = ((Py_ssize_t)fp * n + m) * G;
                        const int32_t *coff = T->claim_off + row, *clen = T->claim_len + row;
                        long total = 0;
                        for (uint32_t cm = x >> NUM_RANKS; cm; cm &= cm - 1) total += clen[rs[lald_lowest(cm)]];
                        long idx = (long)floor(genrand_double(R) * (double)total);
                        if (idx >= total) { index_error(); goto error; }
                        const CClaim *c = NULL;
                        for (uint32_t cm = x >> NUM_RANKS; cm; cm &= cm - 1) {
                            int g = rs[lald_lowest(cm)];
                            if (idx < clen[g]) { c = &T->claims[coff[g] + idx]; break; }
                            idx -= clen[g];
                        }
                        rs[c->r] = c->j;
                        f_add(f, &c->d);
                        int seat = c->code >> 7;
                        la = lt = seat;
                        if (append_code(trace, c->code) < 0) goto error;
                        if (lald_after_move(T->ring, &holders, &m, seat, 0,
                                            c->emptied && !f_get(f, T->held[seat], NUM_RANKS))) {
                            over = 1;
                            break;
                        }
                        x = f_get(f, T->base[m], 2 * NUM_RANKS);
                        if (fp) x |= f_get(f, fore, NUM_RANKS) << NUM_RANKS;
                        if (!(x > FIELD && genrand_double(R) < claim_p)) break;
                    }
                    if (over) break;
                    x = f_get(f, T->base[m], 2 * NUM_RANKS);
                }
                fp = 0;
                foreplay = Py_False;
                x &= FIELD;
            }
            if (x) {
                int r;
                do {
                    r = pick[x][genrand_uint32(R) >> (32 - PICK_BITS)];
                } while (r < 0);
                const Py_ssize_t mg = (Py_ssize_t)m * G + rs[r];
                const CCapture *c;
                if (T->single[mg]) {
                    c = &T->caps[T->multi_off[mg]];
                } else {
                    long len = T->multi_len[mg];
                    long idx = (long)floor(genrand_double(R) * (double)len);
                    if (idx >= len) { index_error(); goto error; }
                    c = &T->caps[T->multi_off[mg] + idx];
                }
                rs[r] = c->j;
                f_add(f, &c->d);
                lcap = lt = m;
                if (append_code(trace, m << 7 | c->code) < 0) goto error;
                out = c->out && !f_get(f, T->held[m], NUM_RANKS);
            } else if (T->lie_down) {
                const CStep *lie = T->lie + (Py_ssize_t)m * G;
                for (uint32_t hm = f_get(f, T->held[m], NUM_RANKS); hm; hm &= hm - 1) {
                    int q = lald_lowest(hm);
                    const CStep *st = &lie[rs[q]];
                    if (st->j < 0) { PyErr_SetString(PyExc_SystemError, "lie-down table"); goto error; }
                    rs[q] = st->j;
                    f_add(f, &st->d);
                }
                PyObject *seat = PyLong_FromLong(m);
                if (!seat || PyList_Append(lain, seat) < 0) { Py_XDECREF(seat); goto error; }
                Py_DECREF(seat);
                if (append_code(trace, m << 7 | LIE) < 0) goto error;
                out = 1;
            } else {
                const uint32_t hm = f_get(f, T->held[m], NUM_RANKS);
                long sum = 0;
                for (uint32_t q = hm; q; q &= q - 1) sum += T->counts[rs[lald_lowest(q)] * (n + 1) + m];
                double u = genrand_double(R) * (double)sum;
                int r = -1;
                for (uint32_t q = hm; q; q &= q - 1) {
                    r = lald_lowest(q);
                    u -= (double)T->counts[rs[r] * (n + 1) + m];
                    if (u < 0) break;
                }
                if (r < 0) { PyErr_SetString(PyExc_SystemError, "trail from an empty hand"); goto error; }
                const CStep *st = &T->trail[(Py_ssize_t)m * G + rs[r]];
                if (st->j < 0) { PyErr_SetString(PyExc_SystemError, "trail table"); goto error; }
                rs[r] = st->j;
                f_add(f, &st->d);
                if (append_code(trace, m << 7 | r << 3 | TRAIL) < 0) goto error;
                out = !f_get(f, T->held[m], NUM_RANKS);
            }
            if (lald_after_move(T->ring, &holders, &m, m, 1, out)) {
                la = m;
                break;
            }
            x = f_get(f, T->base[m], 2 * NUM_RANKS);
        }
    }
    /* _won: the survivor's hand and the table go to the dealer */
    won_list = PyList_New(n);
    if (!won_list) goto error;
    long won_end[MAX_N];
    won_at_end(f, n, dealer, won_total + live_total, won_end);
    for (int s = 0; s < n; s++) {
        PyObject *v = PyLong_FromLong(won_end[s]);
        if (!v) goto error;
        PyList_SET_ITEM(won_list, s, v);
    }
    /* (won, survivor, last_capture, last_actor, foreplay, lain, last_take) */
    result = PyTuple_New(7);
    if (!result) goto error;
    PyTuple_SET_ITEM(result, 0, won_list);
    won_list = NULL;
    PyTuple_SET_ITEM(result, 5, lain);
    lain = NULL;
    PyObject *v1 = PyLong_FromLong(T->ring[holders][m]), *v2 = PyLong_FromLong(lcap), *v3 = PyLong_FromLong(la);
    PyObject *v6 = PyLong_FromLong(lt);
    PyTuple_SET_ITEM(result, 1, v1);
    PyTuple_SET_ITEM(result, 2, v2);
    PyTuple_SET_ITEM(result, 3, v3);
    PyTuple_SET_ITEM(result, 4, Py_NewRef(foreplay));
    PyTuple_SET_ITEM(result, 6, v6);
    if (!v1 || !v2 || !v3 || !v6) goto error;
    for (int i = 0; i < nrefs; i++) Py_DECREF(held_refs[i]);
    return result;
error:
    Py_XDECREF(lain);
    Py_XDECREF(won_list);
    Py_XDECREF(result);
    for (int i = 0; i < nrefs; i++) Py_DECREF(held_refs[i]);
    return NULL;
refuse:
    for (int i = 0; i < nrefs; i++) Py_DECREF(held_refs[i]);
    Py_RETURN_NONE;
}

/* ---- the heuristic's play-out: playout.scored_outcome ------------------------------------ */

#define HAND_CLAIM 6
#define TABLE_CLAIM 7
#define POLICY_CACHE 64

/* A deal read from a FastState-like object (tables.Deal), as playout._begin reads it. */
typedef struct {
    long m, dealer, eldest, la, lcap, lt;
    int fp;
    PyObject *o_fp; /* borrowed from the caller's refs */
    long won_total, live_total;
    uint32_t holders;
    int rs[NUM_RANKS];
    uint64_t f[4];
} CDeal;

#define GETD(var, name) PyObject *var = deal_attr(fs, name); if (!var) { PyErr_Clear(); return 0; } refs[(*nrefs)++] = var

/* Read ``fs`` for the tables ``T``: 1, or 0 to refuse (no error set).  ``refs`` receives
 * the new references it takes (at most 16), the caller releases them. */
static int read_deal(PyObject *fs, Tables *T, CDeal *d, PyObject **refs, int *nrefs) {
    const int n = T->n, ns = T->ns;
    GETD(o_hc, F_HC);
    GETD(o_tc, F_TC);
    GETD(o_lc, F_LC);
    GETD(o_hs, F_HS);
    GETD(o_won, F_WON);
    GETD(o_m, F_TO_MOVE);
    GETD(o_dealer, F_DEALER);
    GETD(o_eldest, F_ELDEST);
    GETD(o_la, F_LAST_ACTOR);
    GETD(o_lcap, F_LAST_CAPTURE);
    GETD(o_lt, F_LAST_TAKE);
    GETD(o_fp, F_FOREPLAY);
    int ok = 1;
    d->m = small_int(o_m, 0, n - 1, &ok);
    d->dealer = small_int(o_dealer, 0, n - 1, &ok);
    d->eldest = small_int(o_eldest, 0, n - 1, &ok);
    d->la = small_int(o_la, LONG_MIN / 2, LONG_MAX / 2, &ok);
    d->lcap = small_int(o_lcap, LONG_MIN / 2, LONG_MAX / 2, &ok);
    d->lt = small_int(o_lt, LONG_MIN / 2, LONG_MAX / 2, &ok);
    if (!ok || !PyBool_Check(o_fp)) return 0;
    d->o_fp = o_fp;
    d->fp = o_fp == Py_True;
    PyObject **hc = items_of(o_hc, n), **tc = items_of(o_tc, NUM_RANKS), **lc = items_of(o_lc, NUM_RANKS);
    PyObject **hs = items_of(o_hs, n), **won0 = items_of(o_won, n);
    if (!hc || !tc || !lc || !hs || !won0) return 0;
    int cnt[MAX_N + 1][NUM_RANKS];
    long cards = 0;
    d->won_total = d->live_total = 0;
    d->holders = 0;
    for (int s = 0; s < n; s++) {
        PyObject **row = items_of(hc[s], NUM_RANKS);
        if (!row) return 0;
        long size = 0;
        for (int r = 0; r < NUM_RANKS; r++) size += cnt[s][r] = (int)small_int(row[r], 0, 4, &ok);
        long h = small_int(hs[s], 0, 52, &ok);
        if (!ok || h != size) return 0;
        if (h) d->holders |= 1u << s;
        cards += size;
    }
    for (int r = 0; r < NUM_RANKS; r++) {
        cards += cnt[n][r] = (int)small_int(tc[r], 0, 4, &ok);
        d->live_total += small_int(lc[r], -(1L << 30), 1L << 30, &ok);
    }
    long wonv[MAX_N];
    for (int s = 0; s < n; s++) d->won_total += wonv[s] = small_int(won0[s], 0, 255, &ok);
    if (!ok) return 0;
    for (int s = 0; s < n; s++)
        if (wonv[s] + cards > 255) return 0; /* no won pile can reach the next field */
    memset(d->f, 0, sizeof d->f);
    for (int r = 0; r < NUM_RANKS; r++) {
        long key = 0, mul = 1;
        for (int s = 0; s <= n; s++) { key += cnt[s][r] * mul; mul *= 5; }
        int32_t i = T->local[key];
        if (i < 0) return 0; /* more than 4 cards of a rank */
        d->rs[r] = r * ns + i;
        f_add(d->f, &T->bits[d->rs[r]]);
    }
    for (int s = 0; s < n; s++) d->f[0] += (uint64_t)wonv[s] << (WON_BITS * s);
    if (lald_popcount(d->holders) > 1 && !(d->holders >> d->m & 1u)) return 0; /* the seat to move holds no card */
    return 1;
}

/* (won, survivor, last_capture, last_actor, foreplay, lain, last_take): playout._won and
 * the tuple. */
static PyObject *outcome_of(Tables *T, const CDeal *d, const uint64_t *f, long survivor, long lcap, long la,
                            PyObject *foreplay, PyObject *lain, long lt) {
    const int n = T->n;
    PyObject *won_list = PyList_New(n);
    if (!won_list) return NULL;
    long won_end[MAX_N];
    won_at_end(f, n, d->dealer, d->won_total + d->live_total, won_end);
    for (int s = 0; s < n; s++) {
        PyObject *v = PyLong_FromLong(won_end[s]);
        if (!v) { Py_DECREF(won_list); return NULL; }
        PyList_SET_ITEM(won_list, s, v);
    }
    return Py_BuildValue("(NlllOOl)", won_list, survivor, lcap, la, foreplay, lain, lt);
}

/* A policy of scored_outcome in C: per mover and rank state the preferred capture (an
 * index into the tables' captures, or -1) with its score, and the trail key.  It is known
 * by the identity of the lists it was read from (held, so that no id is reused); its
 * tables' capsule is held too.  ``playable`` 0: pack refused it (the pure path plays).
 * The arrays live in a capsule (``data``), so that a search context can hold them after
 * the cache has moved on. */
typedef struct {
    int32_t *cap;
    double *score;
    int32_t *key;
} PolicyData;

typedef struct {
    Tables *T;
    PyObject *tcap, *best, *trail, *data;
    PyObject *rows[2 * MAX_N];
    int playable;
    int32_t *cap;
    double *score;
    int32_t *key;
} Policy;

static Policy policies[POLICY_CACHE];
static int policy_next = 0;
static PyObject *policy_hook = NULL;  /* pack.pack_policy(rules, best, trail_key) */
static PyObject *native_claim = NULL; /* playout.first_claim: the chooser played in C */

static void policy_data_free(PyObject *cap) {
    PolicyData *d = PyCapsule_GetPointer(cap, "lald.core._kernel.policy");
    if (!d) return;
    PyMem_Free(d->cap); PyMem_Free(d->score); PyMem_Free(d->key);
    PyMem_Free(d);
}

static void policy_clear(Policy *p) {
    Py_CLEAR(p->tcap);
    Py_CLEAR(p->best);
    Py_CLEAR(p->trail);
    Py_CLEAR(p->data);
    for (int i = 0; i < 2 * MAX_N; i++) Py_CLEAR(p->rows[i]);
    p->cap = NULL; p->score = NULL; p->key = NULL;
    p->T = NULL;
    p->playable = 0;
}

/* The policy of (best, trail_key) for the tables T (capsule tcap) of ``rules``; NULL with
 * an error set, or a policy that may say it is not playable. */
static Policy *policy_of(Tables *T, PyObject *tcap, PyObject *rules, PyObject *best, PyObject *trail) {
    const int n = T->n;
    PyObject **brows = items_of(best, PyList_CheckExact(best) ? PyList_GET_SIZE(best) : -1);
    PyObject **trows = items_of(trail, PyList_CheckExact(trail) ? PyList_GET_SIZE(trail) : -1);
    int shaped = brows && trows && PyList_GET_SIZE(best) >= n && PyList_GET_SIZE(trail) >= n;
    if (shaped) {
        for (int i = 0; i < POLICY_CACHE; i++) {
            Policy *p = &policies[i];
            if (p->T != T || p->best != best || p->trail != trail) continue;
            int same = 1;
            for (int s = 0; s < n && same; s++) same = p->rows[s] == brows[s] && p->rows[MAX_N + s] == trows[s];
            if (same) return p;
        }
    }
    Policy *p = &policies[policy_next];
    policy_next = (policy_next + 1) % POLICY_CACHE;
    policy_clear(p);
    if (!shaped) {  /* not lists of rows: a one-off refusal, not remembered */
        return p;
    }
    PyObject *packed = PyObject_CallFunctionObjArgs(policy_hook, rules, best, trail, NULL);
    if (!packed) return NULL;
    if (packed != Py_None) {
        PyObject *b_cap, *b_score, *b_key;
        Py_ssize_t nG = (Py_ssize_t)n * T->G;
        if (!PyArg_ParseTuple(packed, "OOO", &b_cap, &b_score, &b_key)) { Py_DECREF(packed); return NULL; }
        PolicyData *d = PyMem_Calloc(1, sizeof(PolicyData));
        if (!d) { Py_DECREF(packed); PyErr_NoMemory(); return NULL; }
        d->cap = copy_items(b_cap, nG, 4, "policy captures");
        d->score = d->cap ? copy_items(b_score, nG, sizeof(double), "policy scores") : NULL;
        d->key = d->score ? copy_items(b_key, nG, 4, "policy trail keys") : NULL;
        PyObject *data = d->key ? PyCapsule_New(d, "lald.core._kernel.policy", policy_data_free) : NULL;
        if (!data) {
            PyMem_Free(d->cap); PyMem_Free(d->score); PyMem_Free(d->key); PyMem_Free(d);
            Py_DECREF(packed);
            return NULL;
        }
        p->data = data;
        p->cap = d->cap; p->score = d->score; p->key = d->key;
        for (Py_ssize_t i = 0; i < nG; i++) {
            int32_t c = p->cap[i];
            Py_ssize_t off = T->multi_off[i];
            if (c != -1 && (c < off || c >= off + T->multi_len[i])) {
                Py_DECREF(packed);
                policy_clear(p);
                PyErr_SetString(PyExc_ValueError, "policy: capture out of range");
                return NULL;
            }
        }
        p->playable = 1;
    }
    Py_DECREF(packed);
    p->T = T;
    p->tcap = Py_NewRef(tcap);
    p->best = Py_NewRef(best);
    p->trail = Py_NewRef(trail);
    for (int s = 0; s < n; s++) {
        p->rows[s] = Py_NewRef(brows[s]);
        p->rows[MAX_N + s] = Py_NewRef(trows[s]);
    }
    return p;
}

/* ---- a deal in play: the state the search and the heuristic's play-out share ----------- */

/* One deal on rank states, as playout's loops hold it: the rank states, F, the seats that
 * hold cards, the seat to move, the last actor and turn capture (-1: none) and whether
 * foreplay goes on (FastState's flag: only a turn move ends it); ``over`` once one seat or
 * none holds cards, with the survivor. */
typedef struct {
    int rs[NUM_RANKS];
    uint64_t f[4];
    uint32_t holders;
    long m, la, lcap, lt;
    int fp, over, survivor;
} KState;

static void kstate_of(const CDeal *d, KState *st) {
    memcpy(st->rs, d->rs, sizeof st->rs);
    memcpy(st->f, d->f, sizeof st->f);
    st->holders = d->holders;
    st->m = d->m; st->la = d->la; st->lcap = d->lcap; st->lt = d->lt;
    st->fp = d->fp;
    st->over = 0;
    st->survivor = -1;
}

/* The heuristic's play-out (playout.scored_outcome_py) of ``st`` to its end, with the
 * policy's arrays; ``skip_claims``: the claims open now are let pass (the seat to move
 * plays its turn first).  ``trace`` (a list or None) and ``lain`` (a list or NULL)
 * receive the codes and the seats that lie down.  0, or -1 with an error set. */
static int scored_play(const Tables *T, const int32_t *pcap, const double *pscore, const int32_t *pkey,
                       long eldest, KState *st, int skip_claims, PyObject *trace, PyObject *lain) {
    const int n = T->n, G = T->G, fore = T->fore;
    int *rs = st->rs;
    uint64_t *f = st->f;
    uint32_t holders = st->holders;
    int done = lald_popcount(holders) <= 1;
    long m = st->m, la = st->la, lcap = st->lcap, lt = st->lt;
    int fp = st->fp;
    if (!done) {
        uint32_t x = f_get(f, T->base[m], 2 * NUM_RANKS);
        if (fp) {
            x |= f_get(f, fore, NUM_RANKS) << NUM_RANKS;
            fp = x > FIELD;
        }
        for (;;) {
            while (x > FIELD && !skip_claims) { /* claims may be open: the first seat in claim order
                                                   with a hand claim takes its lowest rank's; the
                                                   mover also spots */
                const Py_ssize_t row = ((Py_ssize_t)fp * n + m) * G;
                const int32_t *coff = T->claim_off + row, *clen = T->claim_len + row;
                const long first = lald_claim_first(la, eldest, n);
                const CClaim *chosen = NULL;
                long top = LONG_MAX;
                for (uint32_t cm = x >> NUM_RANKS; cm; cm &= cm - 1) {
                    const int g = rs[lald_lowest(cm)];
                    const CClaim *c = &T->claims[coff[g]];
                    for (int i = 0; i < clen[g]; i++, c++) {
                        const long seat = c->code >> 7;
                        const long own = lald_heuristic_claim_key((c->code & 7) == TABLE_CLAIM, c->r, seat == m);
                        if (own < 0) continue;
                        const long key = ((seat - first + n) % n) * 64 + own;
                        if (key < top) { top = key; chosen = c; }
                    }
                }
                if (!chosen) break;
                rs[chosen->r] = chosen->j;
                f_add(f, &chosen->d);
                la = lt = chosen->code >> 7;
                if (append_code(trace, chosen->code) < 0) return -1;
                if (lald_after_move(T->ring, &holders, &m, la, 0,
                                    chosen->emptied && !f_get(f, T->held[la], NUM_RANKS))) {
                    done = 1;
                    break;
                }
                x = f_get(f, T->base[m], 2 * NUM_RANKS);
                if (fp) x |= f_get(f, fore, NUM_RANKS) << NUM_RANKS;
            }
            skip_claims = 0;
            if (done) break;
            fp = 0;
            int out;
            if (x & FIELD) {
                const Py_ssize_t mrow = (Py_ssize_t)m * G;
                double top = -INFINITY;
                int rank = -1;
                int32_t ci = -1;
                for (uint32_t cm = x & FIELD; cm; cm &= cm - 1) {
                    const int r = lald_lowest(cm);
                    const int32_t e = pcap[mrow + rs[r]];
                    if (e >= 0 && pscore[mrow + rs[r]] > top) {
                        top = pscore[mrow + rs[r]];
                        ci = e;
                        rank = r;
                    }
                }
                if (ci < 0) { PyErr_SetString(PyExc_SystemError, "no capture scored"); return -1; }
                const CCapture *c = &T->caps[ci];
                rs[rank] = c->j;
                f_add(f, &c->d);
                lcap = lt = m;
                if (append_code(trace, m << 7 | c->code) < 0) return -1;
                out = c->out && !f_get(f, T->held[m], NUM_RANKS);
            } else if (T->lie_down) {
                const CStep *lie = T->lie + (Py_ssize_t)m * G;
                for (uint32_t hm = f_get(f, T->held[m], NUM_RANKS); hm; hm &= hm - 1) {
                    int q = lald_lowest(hm);
                    const CStep *stp = &lie[rs[q]];
                    if (stp->j < 0) { PyErr_SetString(PyExc_SystemError, "lie-down table"); return -1; }
                    rs[q] = stp->j;
                    f_add(f, &stp->d);
                }
                if (lain) {
                    PyObject *seat = PyLong_FromLong(m);
                    if (!seat || PyList_Append(lain, seat) < 0) { Py_XDECREF(seat); return -1; }
                    Py_DECREF(seat);
                }
                if (append_code(trace, m << 7 | LIE) < 0) return -1;
                out = 1;
            } else {
                const int32_t *key = pkey + (Py_ssize_t)m * G;
                int rank = -1;
                int32_t low = 0;
                for (uint32_t q = f_get(f, T->held[m], NUM_RANKS); q; q &= q - 1) {
                    const int r = lald_lowest(q);
                    if (rank < 0 || key[rs[r]] < low) { rank = r; low = key[rs[r]]; }
                }
                if (rank < 0) { PyErr_SetString(PyExc_SystemError, "trail from an empty hand"); return -1; }
                const CStep *stp = &T->trail[(Py_ssize_t)m * G + rs[rank]];
                if (stp->j < 0) { PyErr_SetString(PyExc_SystemError, "trail table"); return -1; }
                rs[rank] = stp->j;
                f_add(f, &stp->d);
                if (append_code(trace, m << 7 | rank << 3 | TRAIL) < 0) return -1;
                out = !f_get(f, T->held[m], NUM_RANKS);
            }
            la = m;
            if (lald_after_move(T->ring, &holders, &m, m, 1, out)) break;
            x = f_get(f, T->base[m], 2 * NUM_RANKS);
        }
    }
    st->survivor = T->ring[holders][m];
    st->holders = holders;
    st->m = -1;
    st->la = la;
    st->lcap = lcap;
    st->lt = lt;
    st->fp = fp;
    st->over = 1;
    return 0;
}

/* scored_outcome(fs, best, trail_key, choose_claim, trace): playout.scored_outcome_py's
 * Outcome, or None when this input is not one the kernel plays (before any move). */
static PyObject *k_scored_outcome(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "scored_outcome(fs, best, trail_key, choose_claim, trace)");
        return NULL;
    }
    PyObject *fs = args[0], *best = args[1], *trail = args[2], *chooser = args[3], *trace = args[4];
    PyObject *refs[16];
    int nrefs = 0;
    PyObject *lain = NULL, *result = NULL;
    if (!enabled || !native_claim || chooser != native_claim || !policy_hook) Py_RETURN_NONE;
    if (trace != Py_None && !PyList_CheckExact(trace)) Py_RETURN_NONE;
    PyObject *rules = deal_attr(fs, F_RULES);
    if (!rules) { PyErr_Clear(); Py_RETURN_NONE; }
    refs[nrefs++] = rules;
    PyObject *tcap = NULL;
    Tables *T = tables_of2(rules, &tcap);
    if (!T) {
        if (PyErr_Occurred()) PyErr_Clear();
        goto refuse;
    }
    CDeal d;
    if (!read_deal(fs, T, &d, refs, &nrefs)) goto refuse;
    Policy *P = policy_of(T, tcap, rules, best, trail);
    if (!P) goto error;
    if (!P->playable) goto refuse;
    lain = PyList_New(0);
    if (!lain) goto error;
    KState st;
    kstate_of(&d, &st);
    if (scored_play(T, P->cap, P->score, P->key, d.eldest, &st, 0, trace, lain) < 0) goto error;
    result = outcome_of(T, &d, st.f, (long)st.survivor, st.lcap, st.la, st.fp ? Py_True : Py_False, lain, st.lt);
    Py_DECREF(lain);
    for (int i = 0; i < nrefs; i++) Py_DECREF(refs[i]);
    return result;
error:
    Py_XDECREF(lain);
    for (int i = 0; i < nrefs; i++) Py_DECREF(refs[i]);
    return NULL;
refuse:
    for (int i = 0; i < nrefs; i++) Py_DECREF(refs[i]);
    Py_RETURN_NONE;
}

/* ---- the expert's search in one world: lald.bots.expert.Player.finish, in C ------------- */

static PyObject *perf_counter = NULL; /* time.perf_counter: the solve's deadline is read on it */
static int read_hands(PyObject *o, int n, int hands[MAX_N][NUM_RANKS]);

/* The game goes on from a move of ``seat`` (FastState.apply's bookkeeping after the
 * cards moved): a turn move (``turn``) or a claim that emptied the hand (``out``). */
static void kstate_after(const Tables *T, KState *st, long seat, int turn, int out) {
    st->la = seat;
    if (lald_after_move(T->ring, &st->holders, &st->m, seat, turn, out)) {
        st->over = 1;
        st->survivor = lald_survivor(st->holders);
        st->m = -1;
    }
}

static void kstate_capture(const Tables *T, KState *st, int r, const CCapture *c) {
    const long m = st->m;
    st->rs[r] = c->j;
    f_add(st->f, &c->d);
    st->lcap = st->lt = m;
    st->fp = 0;
    kstate_after(T, st, m, 1, c->out && !f_get(st->f, T->held[m], NUM_RANKS));
}

static int kstate_lie(const Tables *T, KState *st) {
    const long m = st->m;
    const CStep *lie = T->lie + (Py_ssize_t)m * T->G;
    for (uint32_t hm = f_get(st->f, T->held[m], NUM_RANKS); hm; hm &= hm - 1) {
        const int q = lald_lowest(hm);
        const CStep *stp = &lie[st->rs[q]];
        if (stp->j < 0) return -1;
        st->rs[q] = stp->j;
        f_add(st->f, &stp->d);
    }
    st->fp = 0;
    kstate_after(T, st, m, 1, 1);
    return 0;
}

static int kstate_trail(const Tables *T, KState *st, int r) {
    const long m = st->m;
    const CStep *stp = &T->trail[(Py_ssize_t)m * T->G + st->rs[r]];
    if (stp->j < 0) return -1;
    st->rs[r] = stp->j;
    f_add(st->f, &stp->d);
    st->fp = 0;
    kstate_after(T, st, m, 1, !f_get(st->f, T->held[m], NUM_RANKS));
    return 0;
}

static void kstate_claim(const Tables *T, KState *st, const CClaim *c) {
    const long seat = c->code >> 7;
    st->rs[c->r] = c->j;
    f_add(st->f, &c->d);
    st->lt = seat;
    kstate_after(T, st, seat, 0, c->emptied && !f_get(st->f, T->held[seat], NUM_RANKS));
}

/* The claim the heuristic makes now (playout.first_claim over every open claim, as
 * Player._claims offers them), only by the seats after ``after`` in the claim order when
 * ``after`` >= 0; NULL when none. */
static const CClaim *kfirst_claim(const Tables *T, const KState *st, long eldest, long after) {
    if (st->over) return NULL;
    const int n = T->n;
    const long m = st->m;
    uint32_t x = f_get(st->f, T->base[m], 2 * NUM_RANKS);
    if (st->fp) x |= f_get(st->f, T->fore, NUM_RANKS) << NUM_RANKS;
    if (x <= FIELD) return NULL;
    const Py_ssize_t row = ((Py_ssize_t)st->fp * n + m) * T->G;
    const int32_t *coff = T->claim_off + row, *clen = T->claim_len + row;
    const long first = lald_claim_first(st->la, eldest, n);
    const long limit = after >= 0 ? ((after - first) % n + n) % n : -1;
    const CClaim *chosen = NULL;
    long top = LONG_MAX;
    for (uint32_t cm = x >> NUM_RANKS; cm; cm &= cm - 1) {
        const int g = st->rs[lald_lowest(cm)];
        const CClaim *c = &T->claims[coff[g]];
        for (int i = 0; i < clen[g]; i++, c++) {
            const long seat = c->code >> 7;
            const long own = lald_heuristic_claim_key((c->code & 7) == TABLE_CLAIM, c->r, seat == m);
            if (own < 0) continue;
            const long pos = ((seat - first) % n + n) % n;
            if (pos <= limit) continue;
            const long key = pos * 64 + own;
            if (key < top) { top = key; chosen = c; }
        }
    }
    return chosen;
}

/* A turn move of the seat to move: a capture of rank ``r`` (``c``), a lie-down, a trail of ``r``. */
typedef struct {
    int what; /* 0 capture, 1 lie down, 2 trail */
    int r;
    const CCapture *c;
} KMove;

#define MAX_MOVES (4 * NUM_RANKS + 1)

/* The turn moves in FastState.turn_codes' order: per rank the mover can capture (upwards)
 * each kind once; else lie down, or trail each rank held. */
static int kturn_moves(const Tables *T, const KState *st, KMove *out) {
    const long m = st->m;
    int count = 0;
    uint32_t x = f_get(st->f, T->base[m], NUM_RANKS);
    if (x) {
        for (; x; x &= x - 1) {
            const int r = lald_lowest(x);
            const Py_ssize_t mg = (Py_ssize_t)m * T->G + st->rs[r];
            const CCapture *c = &T->caps[T->multi_off[mg]];
            int32_t prev = -1;
            for (int i = 0; i < T->multi_len[mg]; i++, c++) {
                if (c->code == prev) continue;
                prev = c->code;
                if (count < MAX_MOVES) out[count++] = (KMove){0, r, c};
            }
        }
    } else if (T->lie_down) {
        out[count++] = (KMove){1, -1, NULL};
    } else {
        for (uint32_t q = f_get(st->f, T->held[m], NUM_RANKS); q; q &= q - 1)
            out[count++] = (KMove){2, lald_lowest(q), NULL};
    }
    return count;
}

static int kstate_move(const Tables *T, KState *st, const KMove *mv) {
    if (mv->what == 0) { kstate_capture(T, st, mv->r, mv->c); return 0; }
    if (mv->what == 1) return kstate_lie(T, st);
    return kstate_trail(T, st, mv->r);
}

/* The search's view of one decision: the rules' tables and the roll-out policy, the deal
 * as the seat sees it (everything but the hidden hands), the seat, its candidate codes
 * (-1: let the open claims pass) and the rules' scoring. */
typedef struct {
    Tables *T;
    PyObject *tcap, *pdata;
    const int32_t *pcap, *pkey;
    const double *pscore;
    int n, seat, ncodes;
    long dealer, eldest, m, la, lcap, lt;
    int fp;
    int tc[NUM_RANKS];
    long won[MAX_N];
    int card_count, hand_size, floor_rounding, prize, prize_rule;
    long *codes;
} SearchCtx;

static void search_free(PyObject *cap) {
    SearchCtx *c = PyCapsule_GetPointer(cap, "lald.core._kernel.search");
    if (!c) return;
    Py_XDECREF(c->tcap);
    Py_XDECREF(c->pdata);
    PyMem_Free(c->codes);
    PyMem_Free(c);
}


/* FastState.value of the finished ``st`` for ``seat``, given its won piles. */
static double kvalue(const SearchCtx *c, const KState *st, const long *won, int seat) {
    if (c->card_count) {
        const uint32_t winners = lald_winners(won, c->n);
        const double share = winners >> seat & 1u ? 1.0 / (double)lald_popcount(winners) : 0.0;
        return share + (double)won[seat] / 100.0;
    }
    const long to = lald_prize_to(c->prize_rule, st->survivor, st->lcap, st->lt);
    return (double)lald_deal_chips(won[seat], c->hand_size, c->floor_rounding, seat, to, c->prize);
}

typedef struct {
    const SearchCtx *c;
    long total, nodes, cap;
    double deadline;
} Solver;

/* Player._solve: every seat's value under max-n play of the turn moves, claims made as
 * the heuristic makes them.  1 with the values in ``out``, 0 past the node cap or the
 * deadline, -1 with an error set. */
static int ksolve(Solver *S, KState *st, int skip, double *out) {
    const SearchCtx *c = S->c;
    const Tables *T = c->T;
    S->nodes += 1;
    if (S->nodes > S->cap) return 0;
    if ((S->nodes & 63) == 0 && S->deadline < INFINITY) {
        PyObject *now = PyObject_CallNoArgs(perf_counter);
        if (!now) return -1;
        const double t = PyFloat_AsDouble(now);
        Py_DECREF(now);
        if (t == -1.0 && PyErr_Occurred()) return -1;
        if (t > S->deadline) return 0;
    }
    while (!st->over) {
        if (!skip) {
            const CClaim *cl = kfirst_claim(T, st, c->eldest, -1);
            if (cl) { kstate_claim(T, st, cl); continue; }
        }
        skip = 0;
        KMove moves[MAX_MOVES];
        const int count = kturn_moves(T, st, moves);
        if (count < 1) { PyErr_SetString(PyExc_SystemError, "no turn move"); return -1; }
        if (count == 1) {
            if (kstate_move(T, st, &moves[0]) < 0) { PyErr_SetString(PyExc_SystemError, "move tables"); return -1; }
            continue;
        }
        const long mover = st->m;
        double best[MAX_N], values[MAX_N];
        int have = 0;
        for (int i = 0; i < count; i++) {
            KState child = *st;
            if (kstate_move(T, &child, &moves[i]) < 0) { PyErr_SetString(PyExc_SystemError, "move tables"); return -1; }
            const int rc = ksolve(S, &child, 0, values);
            if (rc <= 0) return rc;
            if (!have || values[mover] > best[mover]) {
                memcpy(best, values, sizeof best);
                have = 1;
            }
        }
        memcpy(out, best, sizeof best);
        return 1;
    }
    long won[MAX_N];
    won_at_end(st->f, c->n, c->dealer, S->total, won);
    for (int s = 0; s < c->n; s++) out[s] = kvalue(c, st, won, s);
    return 1;
}

/* Apply the seat's candidate ``code`` (a turn move or a claim, as FastState.apply): 0, or
 * -1 when it is not a move open here (the caller refuses). */
static int kapply_code(const Tables *T, KState *st, long code) {
    if (st->over || code < 0) return -1;
    const int kind = (int)(code & 7), r = (int)(code >> 3 & 15);
    const long seat = code >> 7;
    if (r >= NUM_RANKS || seat >= T->n) return -1;
    const int g = st->rs[r];
    if (kind < LIE) {
        if (seat != st->m) return -1;
        const Py_ssize_t mg = (Py_ssize_t)seat * T->G + g;
        const CCapture *c = &T->caps[T->multi_off[mg]];
        for (int i = 0; i < T->multi_len[mg]; i++, c++)
            if (c->code == (code & 127)) { kstate_capture(T, st, r, c); return 0; }
        return -1;
    }
    if (kind == LIE) {
        if (seat != st->m || !T->lie_down || f_get(st->f, T->base[seat], NUM_RANKS)) return -1;
        return kstate_lie(T, st);
    }
    if (kind == TRAIL) {
        if (seat != st->m || T->lie_down || f_get(st->f, T->base[seat], NUM_RANKS)) return -1;
        return kstate_trail(T, st, r);
    }
    const Py_ssize_t row = ((Py_ssize_t)st->fp * T->n + st->m) * T->G;
    const CClaim *c = &T->claims[T->claim_off[row + g]];
    for (int i = 0; i < T->claim_len[row + g]; i++, c++)
        if (c->code == code) { kstate_claim(T, st, c); return 0; }
    return -1;
}

#define GETT(var, name) PyObject *var = deal_attr(template, name); if (!var) { PyErr_Clear(); goto refuse; } refs[nrefs++] = var

/* search_context(template, best, trail_key, seat, codes, scoring): the search's view of
 * one decision, for world_values; ``template`` is a FastState of the deal (its hands are
 * not read), ``scoring`` (card_count, hand_size, floor_rounding, prize, prize_rule: 0 the
 * survivor, 1 the last capture, 2 the last card, as lald_prize_to).
 * None for what it leaves to the pure path. */
static PyObject *k_search_context(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "search_context(template, best, trail_key, seat, codes, scoring)");
        return NULL;
    }
    PyObject *template = args[0], *best = args[1], *trail = args[2];
    PyObject *refs[16];
    int nrefs = 0;
    if (!enabled || !policy_hook || !perf_counter) Py_RETURN_NONE;
    GETT(rules, F_RULES);
    PyObject *tcap = NULL;
    Tables *T = tables_of2(rules, &tcap);
    if (!T) {
        if (PyErr_Occurred()) PyErr_Clear();
        goto refuse;
    }
    const int n = T->n;
    Policy *P = policy_of(T, tcap, rules, best, trail);
    if (!P) goto error;
    if (!P->playable) goto refuse;
    GETT(o_tc, F_TC);
    GETT(o_won, F_WON);
    GETT(o_m, F_TO_MOVE);
    GETT(o_dealer, F_DEALER);
    GETT(o_eldest, F_ELDEST);
    GETT(o_la, F_LAST_ACTOR);
    GETT(o_lcap, F_LAST_CAPTURE);
    GETT(o_lt, F_LAST_TAKE);
    GETT(o_fp, F_FOREPLAY);
    GETT(o_over, F_OVER);
    int ok = 1;
    SearchCtx tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.m = small_int(o_m, 0, n - 1, &ok);
    tmp.dealer = small_int(o_dealer, 0, n - 1, &ok);
    tmp.eldest = small_int(o_eldest, 0, n - 1, &ok);
    tmp.la = small_int(o_la, -1, n - 1, &ok);
    tmp.lcap = small_int(o_lcap, -1, n - 1, &ok);
    tmp.lt = small_int(o_lt, -1, n - 1, &ok);
    tmp.seat = (int)small_int(args[3], 0, n - 1, &ok);
    if (!ok || !PyBool_Check(o_fp) || o_over != Py_False) goto refuse;
    tmp.fp = o_fp == Py_True;
    PyObject **tc = items_of(o_tc, NUM_RANKS), **won = items_of(o_won, n);
    PyObject **sc = items_of(args[5], 5);
    Py_ssize_t ncodes = PyList_CheckExact(args[4]) ? PyList_GET_SIZE(args[4]) : -1;
    PyObject **codes = ncodes >= 1 && ncodes <= 256 ? items_of(args[4], ncodes) : NULL;
    if (!tc || !won || !sc || !codes) goto refuse;
    for (int r = 0; r < NUM_RANKS; r++) tmp.tc[r] = (int)small_int(tc[r], 0, 4, &ok);
    for (int s = 0; s < n; s++) tmp.won[s] = small_int(won[s], 0, 52, &ok);
    tmp.card_count = (int)small_int(sc[0], 0, 1, &ok);
    tmp.hand_size = (int)small_int(sc[1], 0, 52, &ok);
    tmp.floor_rounding = (int)small_int(sc[2], 0, 1, &ok);
    tmp.prize = (int)small_int(sc[3], -1000000, 1000000, &ok);
    tmp.prize_rule = (int)small_int(sc[4], 0, 2, &ok);
    if (!ok) goto refuse;
    SearchCtx *c = PyMem_Calloc(1, sizeof(SearchCtx));
    if (!c) { PyErr_NoMemory(); goto error; }
    *c = tmp;
    c->codes = PyMem_Calloc((size_t)ncodes, sizeof(long));
    if (!c->codes) { PyMem_Free(c); PyErr_NoMemory(); goto error; }
    for (Py_ssize_t i = 0; i < ncodes; i++) {
        c->codes[i] = small_int(codes[i], -1, 1L << 20, &ok);
    }
    if (!ok) { PyMem_Free(c->codes); PyMem_Free(c); goto refuse; }
    c->ncodes = (int)ncodes;
    c->n = n;
    c->T = T;
    c->tcap = Py_NewRef(tcap);
    c->pdata = Py_NewRef(P->data);
    c->pcap = P->cap; c->pscore = P->score; c->pkey = P->key;
    PyObject *cap = PyCapsule_New(c, "lald.core._kernel.search", search_free);
    if (!cap) {
        Py_DECREF(c->tcap); Py_DECREF(c->pdata); PyMem_Free(c->codes); PyMem_Free(c);
        goto error;
    }
    for (int i = 0; i < nrefs; i++) Py_DECREF(refs[i]);
    return cap;
error:
    for (int i = 0; i < nrefs; i++) Py_DECREF(refs[i]);
    return NULL;
refuse:
    for (int i = 0; i < nrefs; i++) Py_DECREF(refs[i]);
    Py_RETURN_NONE;
}

/* world_values(context, hands, solve_cards, node_cap, deadline): for each candidate code,
 * the seat's value of the world whose hands are ``hands`` (13 counts a seat) after it, as
 * Player.finish gives it (for -1: the open claims let pass, passed=seat); None for what
 * it leaves to the pure path. */
static PyObject *k_world_values(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "world_values(context, hands, solve_cards, node_cap, deadline)");
        return NULL;
    }
    if (!enabled) Py_RETURN_NONE;
    SearchCtx *c = PyCapsule_IsValid(args[0], "lald.core._kernel.search") ?
        PyCapsule_GetPointer(args[0], "lald.core._kernel.search") : NULL;
    if (!c) Py_RETURN_NONE;
    const Tables *T = c->T;
    const int n = c->n, ns = T->ns;
    int hands[MAX_N][NUM_RANKS];
    if (!read_hands(args[1], n, hands)) Py_RETURN_NONE;
    int ok = 1;
    const long solve_cards = small_int(args[2], 0, 1L << 20, &ok);
    const long node_cap = small_int(args[3], 0, LONG_MAX / 2, &ok);
    if (!ok || !PyFloat_CheckExact(args[4])) Py_RETURN_NONE;
    const double deadline = PyFloat_AS_DOUBLE(args[4]);
    /* the world's deal, as FastState.from_world makes it */
    KState base;
    memset(&base, 0, sizeof base);
    long cards = 0, total = 0;
    for (int s = 0; s < n; s++) {
        int size = 0;
        for (int r = 0; r < NUM_RANKS; r++) size += hands[s][r];
        if (size) base.holders |= 1u << s;
        cards += size;
        total += c->won[s];
    }
    for (int r = 0; r < NUM_RANKS; r++) {
        cards += c->tc[r];
        long key = 0, mul = 1;
        for (int s = 0; s < n; s++) { key += hands[s][r] * mul; mul *= 5; }
        key += c->tc[r] * mul;
        const int32_t i = T->local[key];
        if (i < 0) Py_RETURN_NONE; /* more than 4 cards of a rank */
        base.rs[r] = r * ns + i;
        f_add(base.f, &T->bits[base.rs[r]]);
    }
    total += cards;
    for (int s = 0; s < n; s++) {
        if (c->won[s] + cards > 255) Py_RETURN_NONE;
        base.f[0] += (uint64_t)c->won[s] << (WON_BITS * s);
    }
    if (lald_popcount(base.holders) <= 1 || !(base.holders >> c->m & 1u)) Py_RETURN_NONE;
    base.m = c->m; base.la = c->la; base.lcap = c->lcap; base.lt = c->lt; base.fp = c->fp;
    base.over = 0; base.survivor = -1;
    PyObject *out = PyList_New(c->ncodes);
    if (!out) return NULL;
    for (int i = 0; i < c->ncodes; i++) {
        KState st = base;
        int skip = 0;
        if (c->codes[i] == -1) { /* pass: the seats after this one may claim, else the turn comes */
            const CClaim *cl = kfirst_claim(T, &st, c->eldest, c->seat);
            if (cl) kstate_claim(T, &st, cl);
            else skip = 1;
        } else if (kapply_code(T, &st, c->codes[i]) < 0) {
            Py_DECREF(out);
            Py_RETURN_NONE;
        }
        double value = 0.0;
        int solved = 0;
        if (!st.over && solve_cards) {
            long held = 0;
            for (int r = 0; r < NUM_RANKS; r++)
                for (int s = 0; s < n; s++) held += T->counts[st.rs[r] * (n + 1) + s];
            if (held <= solve_cards) {
                Solver S = {c, total, 0, node_cap, deadline};
                KState copy = st;
                double values[MAX_N];
                const int rc = ksolve(&S, &copy, skip, values);
                if (rc < 0) { Py_DECREF(out); return NULL; }
                if (rc == 1) { value = values[c->seat]; solved = 1; }
            }
        }
        if (!solved) {
            if (!st.over && scored_play(T, c->pcap, c->pscore, c->pkey, c->eldest, &st, skip, Py_None, NULL) < 0) {
                Py_DECREF(out);
                return NULL;
            }
            long won[MAX_N];
            won_at_end(st.f, c->n, c->dealer, total, won);
            value = kvalue(c, &st, won, c->seat);
        }
        PyObject *v = PyFloat_FromDouble(value);
        if (!v) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* configure_scored(first_claim, pack_policy): the claim chooser played in C and the
 * policy packer (pack.pack_policy). */
static PyObject *k_configure_scored(PyObject *self, PyObject *args) {
    PyObject *chooser, *hook;
    if (!PyArg_ParseTuple(args, "OO", &chooser, &hook)) return NULL;
    if (!PyCallable_Check(chooser) || !PyCallable_Check(hook)) {
        PyErr_SetString(PyExc_TypeError, "configure_scored: callables expected");
        return NULL;
    }
    for (int i = 0; i < POLICY_CACHE; i++) policy_clear(&policies[i]);
    Py_XSETREF(native_claim, Py_NewRef(chooser));
    Py_XSETREF(policy_hook, Py_NewRef(hook));
    Py_RETURN_NONE;
}

/* ---- random.Random's own integer draws, as CPython 3.11's random.py makes them ---------- */

static PyObject *py_randbelow = NULL, *py_shuffle = NULL, *py_choice = NULL, *py_choices = NULL;
static PyObject *s_randbelow, *s_shuffle, *s_choice, *s_choices; /* random.Random's own methods */

static int bit_length32(uint32_t v) {
    int k = 0;
    while (v) { k++; v >>= 1; }
    return k;
}

/* Random._randbelow_with_getrandbits(n) for 1 <= n < 2**32: getrandbits(n.bit_length())
 * until below n (getrandbits(k) is genrand >> (32 - k) for k <= 32). */
static uint32_t randbelow(RandomObject *R, uint32_t n) {
    const int k = bit_length32(n);
    uint32_t r = genrand_uint32(R) >> (32 - k);
    while (r >= n) r = genrand_uint32(R) >> (32 - k);
    return r;
}

/* Random.shuffle of ``len`` ints: for i from len - 1 down to 1, swap i with randbelow(i + 1). */
static void shuffle_ints(RandomObject *R, int *x, int len) {
    for (int i = len - 1; i > 0; i--) {
        int j = (int)randbelow(R, (uint32_t)i + 1u);
        int t = x[i]; x[i] = x[j]; x[j] = t;
    }
}

/* Random.choices(range(len), weights)[0] for positive int weights: the first cumulative
 * weight above random() * total, among all but the last (bisect_right with hi = len - 1). */
static int weighted_index(RandomObject *R, const int *weights, int len) {
    long cum[4 * NUM_RANKS + 1];
    long total = 0;
    for (int i = 0; i < len; i++) cum[i] = total += weights[i];
    const double x = genrand_double(R) * (double)total;
    int lo = 0, hi = len - 1;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (x < (double)cum[mid]) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* Whether ``rng`` makes its integer draws, shuffles and choices with random.Random's own
 * methods (none replaced on the class or the instance), besides plain_random's checks. */
static int plain_methods(PyObject *rng) {
    if (!plain_random(rng) || !py_randbelow || !py_shuffle || !py_choice || !py_choices) return 0;
    PyObject *tdict = random_type->tp_dict;
    if (PyDict_GetItemWithError(tdict, s_randbelow) != py_randbelow ||
        PyDict_GetItemWithError(tdict, s_shuffle) != py_shuffle ||
        PyDict_GetItemWithError(tdict, s_choice) != py_choice ||
        PyDict_GetItemWithError(tdict, s_choices) != py_choices) {
        PyErr_Clear();
        return 0;
    }
    PyObject *d = PyObject_GenericGetDict(rng, NULL);
    if (!d) { PyErr_Clear(); return 0; }
    int shadowed = PyDict_GetItemWithError(d, s_randbelow) || PyDict_GetItemWithError(d, s_shuffle) ||
                   PyDict_GetItemWithError(d, s_choice) || PyDict_GetItemWithError(d, s_choices);
    Py_DECREF(d);
    if (PyErr_Occurred()) { PyErr_Clear(); return 0; }
    return !shadowed;
}

/* ---- the search's worlds: lald.bots.sampler.sample's draw, in C -------------------------- */

#define MAX_SETS 16

/* What a seat knows, as lald.bots.kernel.sampler_spec packs it (int32 items): players,
 * seat, the number of other seats holding cards and of unseen face-down sets; the other
 * seats (in order, -1 padded to 5), the hand sizes, the seat's hand, the unknown cards,
 * the ranks each seat cannot hold, the table; then per face-down set: its seat, its
 * count, the ranks it cannot be (the table when its seat trailed before it) and per rank
 * the cards its seat showed leaving its hand after it. */
typedef struct {
    int n, seat, nothers, nsets;
    int others[MAX_N], sizes[MAX_N];
    int hand[NUM_RANKS], unknown[NUM_RANKS], table[NUM_RANKS];
    uint32_t forbidden[MAX_N];
    int set_seat[MAX_SETS], set_count[MAX_SETS];
    uint32_t set_trail[MAX_SETS];
    int set_after[MAX_SETS][NUM_RANKS];
} Knows;

#define SPEC_HEAD (4 + 5 + 5 + 13 + 13 + 5 + 13)
#define SPEC_SET (3 + 13)

/* Read a packed spec: 1, or 0 (malformed: the caller refuses). */
static int knows_of(PyObject *spec, Knows *k) {
    if (!PyBytes_Check(spec) || PyBytes_GET_SIZE(spec) < SPEC_HEAD * 4 || PyBytes_GET_SIZE(spec) % 4) return 0;
    const int32_t *v = (const int32_t *)PyBytes_AS_STRING(spec);
    const Py_ssize_t len = PyBytes_GET_SIZE(spec) / 4;
    k->n = v[0]; k->seat = v[1]; k->nothers = v[2]; k->nsets = v[3];
    if (k->n < 2 || k->n > MAX_N || k->seat < 0 || k->seat >= k->n || k->nothers < 0 || k->nothers >= k->n ||
        k->nsets < 0 || k->nsets > MAX_SETS || len != SPEC_HEAD + (Py_ssize_t)k->nsets * SPEC_SET)
        return 0;
    const int32_t *p = v + 4;
    for (int i = 0; i < MAX_N; i++) k->others[i] = p[i];
    p += 5;
    for (int i = 0; i < k->nothers; i++)
        if (k->others[i] < 0 || k->others[i] >= k->n || k->others[i] == k->seat) return 0;
    for (int s = 0; s < MAX_N; s++) {
        k->sizes[s] = p[s];
        if (p[s] < 0 || p[s] > 52) return 0;
    }
    p += 5;
    for (int r = 0; r < NUM_RANKS; r++) {
        k->hand[r] = p[r];
        k->unknown[r] = p[NUM_RANKS + r];
        if (p[r] < 0 || p[r] > 4 || p[NUM_RANKS + r] < -52 || p[NUM_RANKS + r] > 4) return 0;
    }
    p += 2 * NUM_RANKS;
    for (int s = 0; s < MAX_N; s++) k->forbidden[s] = (uint32_t)p[s] & FIELD;
    p += 5;
    for (int r = 0; r < NUM_RANKS; r++) {
        k->table[r] = p[r];
        if (p[r] < 0 || p[r] > 4) return 0;
    }
    p += NUM_RANKS;
    for (int i = 0; i < k->nsets; i++, p += SPEC_SET) {
        k->set_seat[i] = p[0];
        k->set_count[i] = p[1];
        k->set_trail[i] = (uint32_t)p[2] & FIELD;
        if (p[0] < 0 || p[0] >= k->n || p[1] < 0 || p[1] > 4) return 0;
        for (int r = 0; r < NUM_RANKS; r++) {
            k->set_after[i][r] = p[3 + r];
            if (p[3 + r] < 0 || p[3 + r] > 52) return 0;
        }
    }
    return 1;
}

static const int COMB[5][5] = {{1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1}};

/* sampler._propose: hands and set ranks, or 0 when the proposal is rejected. */
static int propose(const Knows *k, RandomObject *R, int hands[MAX_N][NUM_RANKS], int *set_ranks) {
    int pool[NUM_RANKS];
    memcpy(pool, k->unknown, sizeof pool);
    for (int i = 0; i < k->nsets; i++) {
        const int m = k->set_count[i];
        int eligible[NUM_RANKS], len = 0;
        for (int r = 0; r < NUM_RANKS; r++)
            if (pool[r] >= m) eligible[len++] = r;
        if (!len) return 0;
        const int r = eligible[randbelow(R, (uint32_t)len)];
        const int have = pool[r] < 0 ? 0 : pool[r] > 4 ? 4 : pool[r]; /* (pool[r] >= m >= 0) */
        if (genrand_double(R) * (double)COMB[4][m] >= (double)COMB[have][m]) return 0;
        pool[r] -= m;
        set_ranks[i] = r;
    }
    int tokens[4 * NUM_RANKS], ntok = 0;
    for (int r = 0; r < NUM_RANKS; r++)
        for (int c = 0; c < pool[r]; c++) tokens[ntok++] = r;
    shuffle_ints(R, tokens, ntok);
    memset(hands, 0, sizeof(int) * MAX_N * NUM_RANKS);
    memcpy(hands[k->seat], k->hand, sizeof k->hand);
    int i = 0;
    for (int o = 0; o < k->nothers; o++) {
        const int s = k->others[o];
        for (int t = i; t < i + k->sizes[s] && t < ntok; t++) hands[s][tokens[t]] += 1;
        i += k->sizes[s];
    }
    return 1;
}

/* sampler.consistent for a proposal (whose own hand is the seat's by construction). */
static int consistent_c(const Knows *k, int hands[MAX_N][NUM_RANKS], const int *set_ranks) {
    int pool[NUM_RANKS];
    memcpy(pool, k->unknown, sizeof pool);
    for (int i = 0; i < k->nsets; i++) pool[set_ranks[i]] -= k->set_count[i];
    for (int s = 0; s < k->n; s++) {
        if (s == k->seat) continue;
        int size = 0;
        for (int r = 0; r < NUM_RANKS; r++) size += hands[s][r];
        if (size != k->sizes[s]) return 0;
        for (int r = 0; r < NUM_RANKS; r++) {
            pool[r] -= hands[s][r];
            if (hands[s][r] && (k->forbidden[s] >> r & 1u)) return 0;
        }
    }
    for (int r = 0; r < NUM_RANKS; r++)
        if (pool[r]) return 0;
    for (int i = 0; i < k->nsets; i++) {
        const int r = set_ranks[i], seat = k->set_seat[i];
        int held = hands[seat][r] + k->set_count[i] + k->set_after[i][r];
        for (int o = i + 1; o < k->nsets; o++)
            if (k->set_seat[o] == seat && set_ranks[o] == r) held += k->set_count[o];
        if (held != (k->set_count[i] == 2 ? 3 : 4)) return 0;
        if (k->set_trail[i] >> r & 1u) return 0;
    }
    return 1;
}

/* sampler._try_fill: hands drawn card by card among the ranks each seat may hold (the
 * seat with the fewest choices first, ties by a draw), ``strict``: the ranks it trailed
 * with ruled out; 0 when that runs into a dead end. */
static int try_fill(const Knows *k, RandomObject *R, int strict, int hands[MAX_N][NUM_RANKS], int *set_ranks) {
    int pool[NUM_RANKS];
    memcpy(pool, k->unknown, sizeof pool);
    for (int i = 0; i < k->nsets; i++) {
        int ranks[NUM_RANKS], len = 0;
        for (int r = 0; r < NUM_RANKS; r++)
            if (pool[r] >= k->set_count[i]) ranks[len++] = r;
        if (!len) { /* the rank with the most unknown cards, the first of them */
            int top = 0;
            for (int r = 1; r < NUM_RANKS; r++)
                if (pool[r] > pool[top]) top = r;
            ranks[len++] = top;
        }
        const int r = ranks[randbelow(R, (uint32_t)len)];
        pool[r] -= k->set_count[i] < pool[r] ? k->set_count[i] : pool[r];
        set_ranks[i] = r;
    }
    memset(hands, 0, sizeof(int) * MAX_N * NUM_RANKS);
    memcpy(hands[k->seat], k->hand, sizeof k->hand);
    int need[MAX_N] = {0};
    for (int o = 0; o < k->nothers; o++) need[o] = k->sizes[k->others[o]];
    for (;;) {
        int any = 0;
        for (int o = 0; o < k->nothers; o++) any |= need[o] != 0;
        if (!any) return 1;
        /* the seat with the fewest ranks open, a draw for every seat breaking ties */
        int best = -1, best_len = 0;
        double best_u = 0.0;
        int ranks[NUM_RANKS], len = 0;
        for (int o = 0; o < k->nothers; o++) {
            if (!need[o]) continue;
            const int s = k->others[o];
            int count = 0;
            for (int r = 0; r < NUM_RANKS; r++)
                if (pool[r] && !(strict && (k->forbidden[s] >> r & 1u))) count++;
            const double u = genrand_double(R);
            if (best < 0 || count < best_len || (count == best_len && u < best_u)) {
                best = o;
                best_len = count;
                best_u = u;
            }
        }
        const int s = k->others[best];
        for (int r = 0; r < NUM_RANKS; r++)
            if (pool[r] && !(strict && (k->forbidden[s] >> r & 1u))) ranks[len++] = r;
        if (!len) return 0;
        int weights[NUM_RANKS];
        for (int i = 0; i < len; i++) weights[i] = pool[ranks[i]];
        const int r = ranks[weighted_index(R, weights, len)];
        hands[s][r] += 1;
        pool[r] -= 1;
        need[best] -= 1;
    }
}

/* sampler.sample: up to ``tries`` proposals, else the constrained fill (sampler._fill).
 * 1 exact, 0 filled, -1 with an error set (a fill that cannot succeed). */
static int sample_world(const Knows *k, RandomObject *R, long tries, int hands[MAX_N][NUM_RANKS], int *set_ranks) {
    for (long t = 0; t < tries; t++)
        if (propose(k, R, hands, set_ranks) && consistent_c(k, hands, set_ranks)) return 1;
    for (int strict = 1; strict >= 0; strict--)
        for (int t = 0; t < (strict ? 200 : 1); t++)
            if (try_fill(k, R, strict, hands, set_ranks)) return 0;
    PyErr_SetString(PyExc_AssertionError, "a relaxed fill always succeeds");
    return -1;
}

/* ExpertBot._plausible on C hands: the seats of ``capped`` hold no prial, those of ``dead``
 * no dead rank (but a whole hand under ``keep_whole``). */
static int plausible_c(const Knows *k, int hands[MAX_N][NUM_RANKS], long capped, long dead, int keep_whole) {
    for (int s = 0; s < k->n; s++)
        if (capped >> s & 1)
            for (int r = 0; r < NUM_RANKS; r++)
                if (hands[s][r] >= 3) return 0;
    if (dead) {
        int live[NUM_RANKS];
        for (int r = 0; r < NUM_RANKS; r++) {
            live[r] = k->hand[r] + k->table[r];
            for (int o = 0; o < k->nothers; o++) live[r] += hands[k->others[o]][r];
        }
        for (int s = 0; s < k->n; s++) {
            if (!(dead >> s & 1)) continue;
            for (int r = 0; r < NUM_RANKS; r++)
                if (hands[s][r] && hands[s][r] == live[r] && !(keep_whole && hands[s][r] == k->sizes[s]))
                    return 0;
        }
    }
    return 1;
}

static PyObject *hands_list(int n, int hands[MAX_N][NUM_RANKS]) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int s = 0; s < n; s++) {
        PyObject *row = PyList_New(NUM_RANKS);
        if (!row) { Py_DECREF(out); return NULL; }
        for (int r = 0; r < NUM_RANKS; r++) {
            PyObject *v = PyLong_FromLong(hands[s][r]);
            if (!v) { Py_DECREF(row); Py_DECREF(out); return NULL; }
            PyList_SET_ITEM(row, r, v);
        }
        PyList_SET_ITEM(out, s, row);
    }
    return out;
}

static PyObject *world_tuple(const Knows *k, int hands[MAX_N][NUM_RANKS], const int *set_ranks) {
    PyObject *h = hands_list(k->n, hands);
    if (!h) return NULL;
    PyObject *sr = PyList_New(k->nsets);
    if (!sr) { Py_DECREF(h); return NULL; }
    for (int i = 0; i < k->nsets; i++) {
        PyObject *v = PyLong_FromLong(set_ranks[i]);
        if (!v) { Py_DECREF(h); Py_DECREF(sr); return NULL; }
        PyList_SET_ITEM(sr, i, v);
    }
    return Py_BuildValue("(NN)", h, sr);
}

/* The generator and knowledge a draw reads: 1, or 0 to refuse (before any draw). */
static int draw_inputs(PyObject *spec, PyObject *rng, PyObject *tries, Knows *k, long *t) {
    if (!enabled || !plain_methods(rng) || !knows_of(spec, k) || !PyLong_CheckExact(tries)) return 0;
    for (int r = 0; r < NUM_RANKS; r++)
        if (k->unknown[r] < 0) return 0;
    *t = PyLong_AsLong(tries);
    if (*t == -1 && PyErr_Occurred()) { PyErr_Clear(); return 0; }
    RandomObject *R = (RandomObject *)rng;
    return R->index >= 0 && R->index <= MT_N;
}

/* sample(spec, rng, tries): lald.bots.sampler.sample, ((hands, set_ranks), exact); None
 * for an input it leaves to the pure path (before any draw). */
static PyObject *k_sample(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "sample(spec, rng, tries)");
        return NULL;
    }
    Knows k;
    long tries;
    if (!draw_inputs(args[0], args[1], args[2], &k, &tries)) Py_RETURN_NONE;
    int hands[MAX_N][NUM_RANKS], set_ranks[MAX_SETS];
    const int exact = sample_world(&k, (RandomObject *)args[1], tries, hands, set_ranks);
    if (exact < 0) return NULL;
    PyObject *w = world_tuple(&k, hands, set_ranks);
    return w ? Py_BuildValue("(NO)", w, exact ? Py_True : Py_False) : NULL;
}

/* draw_world(spec, rng, tries, capped, dead, keep_whole): ExpertBot.draw_world, a world
 * sampled (300 proposals, then the fill) up to ``tries`` times until the opponent model
 * finds it plausible, the last one drawn if none: (hands, set_ranks); None to play the
 * pure path (before any draw). */
static PyObject *k_draw_world(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "draw_world(spec, rng, tries, capped, dead, keep_whole)");
        return NULL;
    }
    Knows k;
    long tries;
    if (!draw_inputs(args[0], args[1], args[2], &k, &tries)) Py_RETURN_NONE;
    int ok = 1;
    const long capped = small_int(args[3], 0, 31, &ok), dead = small_int(args[4], 0, 31, &ok);
    const int keep_whole = PyObject_IsTrue(args[5]);
    if (!ok || keep_whole < 0 || tries < 1) { PyErr_Clear(); Py_RETURN_NONE; }
    int hands[MAX_N][NUM_RANKS], set_ranks[MAX_SETS];
    for (long t = 0; t < tries; t++) {
        if (sample_world(&k, (RandomObject *)args[1], 300, hands, set_ranks) < 0) return NULL;
        if (plausible_c(&k, hands, capped, dead, keep_whole)) break;
    }
    return world_tuple(&k, hands, set_ranks);
}

/* Read ``n`` hands of 13 counts (each 0 to 4) from a list of lists: 1, or 0. */
static int read_hands(PyObject *o, int n, int hands[MAX_N][NUM_RANKS]) {
    PyObject **rows = items_of(o, n);
    if (!rows) return 0;
    int ok = 1;
    for (int s = 0; s < n; s++) {
        PyObject **row = items_of(rows[s], NUM_RANKS);
        if (!row) return 0;
        for (int r = 0; r < NUM_RANKS; r++) hands[s][r] = (int)small_int(row[r], 0, 4, &ok);
    }
    return ok;
}

/* plausible(spec, hands, capped, dead, keep_whole): ExpertBot._plausible, with the seats
 * as bit masks; None for an input it leaves to the pure path. */
static PyObject *k_plausible(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "plausible(spec, hands, capped, dead, keep_whole)");
        return NULL;
    }
    Knows k;
    int hands[MAX_N][NUM_RANKS];
    if (!enabled || !knows_of(args[0], &k) || !read_hands(args[1], k.n, hands)) Py_RETURN_NONE;
    int ok = 1;
    const long capped = small_int(args[2], 0, 31, &ok), dead = small_int(args[3], 0, 31, &ok);
    const int keep_whole = PyObject_IsTrue(args[4]);
    if (!ok || keep_whole < 0) { PyErr_Clear(); Py_RETURN_NONE; }
    return PyBool_FromLong(plausible_c(&k, hands, capped, dead, keep_whole));
}

/* ---- dealing: lald.core.rng.PortableRandom.shuffle (SplitMix64, several swaps a draw) ---- */

static PyTypeObject *portable_type = NULL; /* lald.core.rng.PortableRandom (exactly it plays) */
static PyObject *s_state;

/* PortableRandom.shuffle on ``len`` slots: the permutation, applied to ``items``. */
static void portable_shuffle_items(uint64_t *state, PyObject **items, Py_ssize_t len) {
    Py_ssize_t i = len - 1;
    uint64_t m = (uint64_t)len;
    while (m > 1) { /* one draw's swaps at a time (lald_shuffle_group) */
        uint64_t moduli[64], rem;
        const int count = lald_shuffle_group(&m, moduli, &rem);
        uint64_t x = lald_splitmix64(state);
        while (!LALD_ACCEPTED(x, rem)) x = lald_splitmix64(state);
        for (int c = 0; c < count; c++) {
            const uint64_t j = lald_shuffle_take(&x, moduli[c]);
            PyObject *t = items[i]; items[i] = items[j]; items[j] = t;
            i -= 1;
        }
    }
}

/* portable_shuffle(rng, items): shuffle the list ``items`` as rng.shuffle(items) does and
 * advance rng's state as it does; False (nothing drawn, nothing moved) for an input it
 * leaves to the pure path: rng not exactly PortableRandom, items not a list. */
static PyObject *k_portable_shuffle(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "portable_shuffle(rng, items)");
        return NULL;
    }
    PyObject *rng = args[0], *items = args[1];
    if (!portable_type || Py_TYPE(rng) != portable_type || !PyList_CheckExact(items)) Py_RETURN_FALSE;
    PyObject *st = PyObject_GetAttr(rng, s_state);
    if (!st) { PyErr_Clear(); Py_RETURN_FALSE; }
    if (!PyLong_CheckExact(st)) { Py_DECREF(st); Py_RETURN_FALSE; }
    uint64_t state = PyLong_AsUnsignedLongLong(st);
    Py_DECREF(st);
    if (state == (uint64_t)-1 && PyErr_Occurred()) { PyErr_Clear(); Py_RETURN_FALSE; }
    const Py_ssize_t len = PyList_GET_SIZE(items);
    if (len > 1) portable_shuffle_items(&state, ((PyListObject *)items)->ob_item, len);
    PyObject *nv = PyLong_FromUnsignedLongLong(state);
    if (!nv) return NULL;
    int rc = PyObject_SetAttr(rng, s_state, nv);
    Py_DECREF(nv);
    if (rc < 0) return NULL;
    Py_RETURN_TRUE;
}

/* configure_portable(PortableRandom or None): the one type portable_shuffle plays for. */
static PyObject *k_configure_portable(PyObject *self, PyObject *pt) {
    if (pt == Py_None) {
        Py_CLEAR(portable_type);
        Py_RETURN_FALSE;
    }
    if (!PyType_Check(pt)) {
        PyErr_SetString(PyExc_TypeError, "configure_portable: a type or None");
        return NULL;
    }
    Py_XSETREF(portable_type, (PyTypeObject *)Py_NewRef(pt));
    Py_RETURN_TRUE;
}

/* configure_draws(): random.Random's methods, read from the class as it is now (the
 * self-check compares the C draws with them). */
static PyObject *k_configure_draws(PyObject *self, PyObject *unused) {
    if (!random_type) {
        PyErr_SetString(PyExc_RuntimeError, "configure first");
        return NULL;
    }
    PyObject *tdict = random_type->tp_dict;
    Py_XSETREF(py_randbelow, Py_XNewRef(PyDict_GetItemWithError(tdict, s_randbelow)));
    Py_XSETREF(py_shuffle, Py_XNewRef(PyDict_GetItemWithError(tdict, s_shuffle)));
    Py_XSETREF(py_choice, Py_XNewRef(PyDict_GetItemWithError(tdict, s_choice)));
    Py_XSETREF(py_choices, Py_XNewRef(PyDict_GetItemWithError(tdict, s_choices)));
    if (PyErr_Occurred()) return NULL;
    return PyBool_FromLong(py_randbelow && py_shuffle && py_choice && py_choices);
}

static RandomObject *as_random(PyObject *o);

/* draw_below(rng, n): rng._randbelow(n), 1 <= n < 2**32, read from its state. */
static PyObject *k_draw_below(PyObject *self, PyObject *args) {
    PyObject *o;
    unsigned long n;
    if (!PyArg_ParseTuple(args, "Ok", &o, &n)) return NULL;
    if (n < 1 || n > 0xffffffffUL) {
        PyErr_SetString(PyExc_ValueError, "n must be 1 to 2**32 - 1");
        return NULL;
    }
    RandomObject *R = as_random(o);
    return R ? PyLong_FromUnsignedLong(randbelow(R, (uint32_t)n)) : NULL;
}

/* draw_weighted(rng, weights): rng.choices(range(len(weights)), weights)[0] for positive
 * int weights (at most 52 of them), read from its state. */
static PyObject *k_draw_weighted(PyObject *self, PyObject *args) {
    PyObject *o, *w;
    if (!PyArg_ParseTuple(args, "OO!", &o, &PyList_Type, &w)) return NULL;
    const Py_ssize_t len = PyList_GET_SIZE(w);
    if (len < 1 || len > 4 * NUM_RANKS) {
        PyErr_SetString(PyExc_ValueError, "1 to 52 weights");
        return NULL;
    }
    int weights[4 * NUM_RANKS];
    for (Py_ssize_t i = 0; i < len; i++) {
        const long v = PyLong_AsLong(PyList_GET_ITEM(w, i));
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (v < 1 || v > 52) {
            PyErr_SetString(PyExc_ValueError, "weights 1 to 52");
            return NULL;
        }
        weights[i] = (int)v;
    }
    RandomObject *R = as_random(o);
    return R ? PyLong_FromLong(weighted_index(R, weights, (int)len)) : NULL;
}

/* shuffled(rng, length): list(range(length)) shuffled as rng.shuffle would, read from its state. */
static PyObject *k_shuffled(PyObject *self, PyObject *args) {
    PyObject *o;
    int len;
    if (!PyArg_ParseTuple(args, "Oi", &o, &len)) return NULL;
    if (len < 0 || len > 4 * NUM_RANKS) {
        PyErr_SetString(PyExc_ValueError, "length must be 0 to 52");
        return NULL;
    }
    RandomObject *R = as_random(o);
    if (!R) return NULL;
    int x[4 * NUM_RANKS];
    for (int i = 0; i < len; i++) x[i] = i;
    shuffle_ints(R, x, len);
    PyObject *out = PyList_New(len);
    if (!out) return NULL;
    for (int i = 0; i < len; i++) {
        PyObject *v = PyLong_FromLong(x[i]);
        if (!v) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* ---- the self-check's side: draws read from the state, for comparison ------------------ */

static RandomObject *as_random(PyObject *o) {
    if (!base_random_type || !PyObject_TypeCheck(o, base_random_type)) {
        PyErr_SetString(PyExc_TypeError, "not a _random.Random");
        return NULL;
    }
    RandomObject *R = (RandomObject *)o;
    if (R->index < 0 || R->index > MT_N) {
        PyErr_SetString(PyExc_ValueError, "unexpected Random state");
        return NULL;
    }
    return R;
}

static PyObject *k_draw_random(PyObject *self, PyObject *o) {
    RandomObject *R = as_random(o);
    return R ? PyFloat_FromDouble(genrand_double(R)) : NULL;
}

static PyObject *k_draw_bits(PyObject *self, PyObject *args) {
    PyObject *o;
    int k;
    if (!PyArg_ParseTuple(args, "Oi", &o, &k)) return NULL;
    if (k < 1 || k > 32) {
        PyErr_SetString(PyExc_ValueError, "k must be 1 to 32");
        return NULL;
    }
    RandomObject *R = as_random(o);
    return R ? PyLong_FromUnsignedLong(genrand_uint32(R) >> (32 - k)) : NULL;
}

/* configure(random.Random, _random.Random, prepare): the types and the table maker; it
 * says whether the object layout is the one this module reads (the sizes agree). */
static PyObject *k_configure(PyObject *self, PyObject *args) {
    PyObject *rt, *bt, *hook;
    if (!PyArg_ParseTuple(args, "O!O!O", &PyType_Type, &rt, &PyType_Type, &bt, &hook)) return NULL;
    if (!PyCallable_Check(hook)) {
        PyErr_SetString(PyExc_TypeError, "prepare must be callable");
        return NULL;
    }
    enabled = 0;
    Py_XSETREF(random_type, (PyTypeObject *)Py_NewRef(rt));
    Py_XSETREF(base_random_type, (PyTypeObject *)Py_NewRef(bt));
    Py_XSETREF(prepare_hook, Py_NewRef(hook));
    last_rules = NULL;
    PyDict_Clear(rules_cache);
    int layout = ((PyTypeObject *)bt)->tp_basicsize == (Py_ssize_t)sizeof(RandomObject) &&
                 PyType_IsSubtype((PyTypeObject *)rt, (PyTypeObject *)bt);
    return PyBool_FromLong(layout);
}

/* enable(flag): let random_outcome play (lald.core.compiled calls it once the self-check passed). */
static PyObject *k_enable(PyObject *self, PyObject *flag) {
    int v = PyObject_IsTrue(flag);
    if (v < 0) return NULL;
    enabled = v && random_type && base_random_type && prepare_hook;
    return PyBool_FromLong(enabled);
}

/* configure_deal(cls): read the fields of exactly ``cls`` (lald.core.fast.FastState) from
 * its slots; False (and attribute lookups) when a field is not a plain object slot. */
static PyObject *k_configure_deal(PyObject *self, PyObject *cls) {
    Py_CLEAR(deal_type);
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "configure_deal: a class");
        return NULL;
    }
    PyTypeObject *t = (PyTypeObject *)cls;
    if (PyType_Ready(t) < 0) return NULL;
    for (int i = 0; i < DEAL_FIELDS; i++) {
        PyObject *d = PyDict_GetItemWithError(t->tp_dict, *deal_names[i]);
        if (!d) {
            if (PyErr_Occurred()) return NULL;
            Py_RETURN_FALSE;
        }
        if (!Py_IS_TYPE(d, &PyMemberDescr_Type)) Py_RETURN_FALSE;
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX || m->offset <= 0 || m->offset + (Py_ssize_t)sizeof(PyObject *) > t->tp_basicsize)
            Py_RETURN_FALSE;
        deal_offsets[i] = m->offset;
    }
    /* the version tag that says the class is as read now: a lookup assigns it */
    PyObject *probe = PyObject_GetAttr(cls, s_rules);
    if (!probe) return NULL;
    Py_DECREF(probe);
    if (!(t->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || !t->tp_version_tag) Py_RETURN_FALSE;
    deal_tag = t->tp_version_tag;
    deal_type = (PyTypeObject *)Py_NewRef(cls);
    Py_RETURN_TRUE;
}

/* layout(): the sizes of the table items (lald.core.fast.pack packs them to these) */
static PyObject *k_layout(PyObject *self, PyObject *unused) {
    (void)self; (void)unused;
    return Py_BuildValue("(nnn)", (Py_ssize_t)sizeof(CCapture), (Py_ssize_t)sizeof(CStep),
                         (Py_ssize_t)sizeof(CClaim));
}

static PyMethodDef methods[] = {
    {"random_outcome", (PyCFunction)(void (*)(void))k_random_outcome, METH_FASTCALL,
     "random_outcome(fs, rng, claim_p, trace): the Outcome, or None to play the pure path"},
    {"scored_outcome", (PyCFunction)(void (*)(void))k_scored_outcome, METH_FASTCALL,
     "scored_outcome(fs, best, trail_key, choose_claim, trace): the Outcome, or None to play the pure path"},
    {"search_context", (PyCFunction)(void (*)(void))k_search_context, METH_FASTCALL,
     "search_context(template, best, trail_key, seat, codes, scoring): one decision's search, or None"},
    {"world_values", (PyCFunction)(void (*)(void))k_world_values, METH_FASTCALL,
     "world_values(context, hands, solve_cards, node_cap, deadline): each code's value in one world, or None"},
    {"configure_scored", k_configure_scored, METH_VARARGS,
     "configure_scored(first_claim, pack_policy): the chooser played in C and the policy packer"},
    {"prepare", k_prepare, METH_VARARGS, "prepare(...): a capsule of one rules' tables"},
    {"sample", (PyCFunction)(void (*)(void))k_sample, METH_FASTCALL,
     "sample(spec, rng, tries): ((hands, set_ranks), exact) as sampler.sample, or None to play the pure path"},
    {"plausible", (PyCFunction)(void (*)(void))k_plausible, METH_FASTCALL,
     "plausible(spec, hands, capped, dead, keep_whole): the expert's opponent model, or None"},
    {"portable_shuffle", (PyCFunction)(void (*)(void))k_portable_shuffle, METH_FASTCALL,
     "portable_shuffle(rng, items): PortableRandom.shuffle in C; False to play the pure path"},
    {"configure_draws", k_configure_draws, METH_NOARGS,
     "configure_draws() -> whether random.Random's methods were found"},
    {"configure_portable", k_configure_portable, METH_O,
     "configure_portable(PortableRandom or None): the type portable_shuffle plays for"},
    {"draw_below", k_draw_below, METH_VARARGS, "draw_below(rng, n): rng._randbelow(n), read from its state"},
    {"shuffled", k_shuffled, METH_VARARGS, "shuffled(rng, length): rng.shuffle(list(range(length))) in C"},
    {"draw_weighted", k_draw_weighted, METH_VARARGS,
     "draw_weighted(rng, weights): rng.choices(range(len(weights)), weights)[0] in C"},
    {"draw_world", (PyCFunction)(void (*)(void))k_draw_world, METH_FASTCALL,
     "draw_world(spec, rng, tries, capped, dead, keep_whole): the expert's world draw, or None"},
    {"draw_random", k_draw_random, METH_O, "draw_random(rng): rng.random(), read from its state"},
    {"draw_bits", k_draw_bits, METH_VARARGS, "draw_bits(rng, k): rng.getrandbits(k), 1 <= k <= 32"},
    {"configure", k_configure, METH_VARARGS, "configure(Random, _random.Random, prepare) -> layout ok"},
    {"configure_deal", k_configure_deal, METH_O, "configure_deal(FastState) -> whether its fields are read from its slots"},
    {"layout", k_layout, METH_NOARGS, "layout() -> the sizes of a capture, a step and a claim"},
    {"enable", k_enable, METH_O, "enable(flag) -> whether random_outcome plays"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "lald.core._kernel",
    "The compiled play-outs of lald.core.fast.playout (see its random_outcome_py).", -1, methods,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    for (int mask = 0; mask < (1 << NUM_RANKS); mask++) {
        int ranks[NUM_RANKS], len = 0;
        for (int r = 0; r < NUM_RANKS; r++)
            if (mask >> r & 1) ranks[len++] = r;
        int size = 1 << PICK_BITS;
        for (int i = 0; i < size; i++) {
            if (!len) pick[mask][i] = -1;
            else pick[mask][i] = i < size - size % len ? (int8_t)ranks[i % len] : -1;
        }
    }
    rules_cache = PyDict_New();
    if (!rules_cache) return NULL;
#define INTERN(var, text) if (!(var = PyUnicode_InternFromString(text))) return NULL
    INTERN(s_random, "random");
    INTERN(s_getrandbits, "getrandbits");
    INTERN(s_rules, "rules");
    INTERN(s_dealer, "dealer");
    INTERN(s_hc, "hc");
    INTERN(s_tc, "tc");
    INTERN(s_lc, "lc");
    INTERN(s_hs, "hs");
    INTERN(s_won, "won");
    INTERN(s_to_move, "to_move");
    INTERN(s_foreplay, "foreplay");
    INTERN(s_last_capture, "last_capture");
    INTERN(s_last_actor, "last_actor");
    INTERN(s_eldest, "eldest");
    INTERN(s_over, "over");
    INTERN(s_last_take, "last_take");
    {
        PyObject **names[DEAL_FIELDS] = {&s_rules, &s_dealer, &s_eldest, &s_hc, &s_tc, &s_lc, &s_hs, &s_won,
                                         &s_to_move, &s_foreplay, &s_last_capture, &s_last_actor, &s_over,
                                         &s_last_take};
        memcpy(deal_names, names, sizeof names);
    }
    INTERN(s_randbelow, "_randbelow");
    INTERN(s_shuffle, "shuffle");
    INTERN(s_choice, "choice");
    INTERN(s_choices, "choices");
    INTERN(s_state, "_state");
    /* the small ints, if they lie as one array (each the object PyLong_FromLong gives) */
    PyObject *zero = PyLong_FromLong(0);
    if (!zero) return NULL;
    int laid_out = 1;
    for (long v = SMALL_LOW; v <= SMALL_HIGH && laid_out; v++) {
        PyObject *o = PyLong_FromLong(v);
        if (!o) { Py_DECREF(zero); return NULL; }
        int ok = 1;
        laid_out = (const char *)o - (const char *)zero == v * (Py_ssize_t)sizeof(PyLongObject) &&
                   PyLong_CheckExact(o) && small_int_slow(o, SMALL_LOW, SMALL_HIGH, &ok) == v && ok;
        Py_DECREF(o);
    }
    small_base = laid_out ? zero : NULL; /* (immortal in practice: the interpreter holds it) */
    if (!laid_out) Py_DECREF(zero);
    PyObject *tmod = PyImport_ImportModule("time");
    if (!tmod) return NULL;
    perf_counter = PyObject_GetAttrString(tmod, "perf_counter");
    Py_DECREF(tmod);
    if (!perf_counter) return NULL;
    PyObject *rmod = PyImport_ImportModule("_random");
    if (!rmod) return NULL;
    PyObject *rtype = PyObject_GetAttrString(rmod, "Random");
    Py_DECREF(rmod);
    if (!rtype) return NULL;
    if (!PyType_Check(rtype)) {
        Py_DECREF(rtype);
        PyErr_SetString(PyExc_ImportError, "_random.Random is not a type");
        return NULL;
    }
    base_random_type = (PyTypeObject *)rtype;
    return PyModule_Create(&moduledef);
}
