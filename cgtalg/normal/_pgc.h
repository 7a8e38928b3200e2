/*
 * _pgc.h: shared declarations of the compiled canonical-form engine for short partizan games
 * (cgtalg.normal.partizan_kernel is its Python face; cgtalg.normal.partizan is the reference).
 *
 * Forms live in one table, identified by int32 ids (id 0 is the form 0 = { | }). A form is
 * hash-consed on its sorted, duplicate-free Left and Right option id lists, so two ids are
 * the same form iff they are equal; the forms that come out of pg_canon(), pg_add() and
 * pg_neg() are canonical forms (Siegel, CGT II.2), so for them equal ids mean equal values.
 */
#ifndef CGTALG_PGC_H
#define CGTALG_PGC_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    int32_t nl, nr;        /* numbers of Left and Right options */
    int64_t off;           /* nl Left option ids then nr Right option ids (each side sorted)
                              at pg_pool + off */
    int32_t birthday;
    uint8_t canonical;     /* made by pg_canon/pg_add/pg_neg/pg_number: a canonical form */
    uint8_t isnum;         /* canonical and a number (value in num) */
    uint8_t hasstops;      /* canonical, with both stops known (ls, rs) */
    double num;            /* the number's value (dyadic, held exactly) */
    double ls, rs;         /* Left and Right stops of a canonical form */
} PgNode;

/* the table of forms, and the pool of their option ids */
extern PgNode *pg_nodes;
extern int32_t pg_count;
extern int32_t *pg_pool;
#define PG_OPTS(id) (pg_pool + pg_nodes[(id)].off)

int pg_init(void);
void pg_free_all(void);

/* the raw hash-consed form {L | R} (ids sorted and deduplicated here); -1 on error */
int32_t pg_make(const int32_t *L, int32_t nl, const int32_t *R, int32_t nr);
/* the canonical form of {L | R} whose options are canonical forms; -1 on error */
int32_t pg_canon(const int32_t *L, int32_t nl, const int32_t *R, int32_t nr);
/* the canonical form of the dyadic number v; -1 on error (not exactly representable) */
int32_t pg_number(double v);
/* G <= H for forms (any forms; memoised); -1 on error */
int pg_le(int32_t g, int32_t h);
/* canonical forms of sums and negatives of canonical forms (memoised); -1 on error */
int32_t pg_add(int32_t a, int32_t b);
int32_t pg_neg(int32_t a);

/* statistics */
extern int64_t pg_le_calls, pg_le_entries, pg_add_entries;

/* An open-addressing map from nonzero uint64 keys to int32 values (key 0 marks an empty
   slot), doubling when half full: the board searches' memos. */
typedef struct {
    uint64_t *keys;
    int32_t *vals;
    size_t cap, n;
} U64Map;

/* a 64-bit finaliser (MurmurHash3's fmix64): the hashes of the memos and of colour refinement */
static inline uint64_t pg_mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t pg_hmix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ULL;
    x ^= x >> 29;
    return x;
}

static inline int u64map_get(const U64Map *m, uint64_t key, int32_t *out)
{
    if (!m->cap)
        return 0;
    size_t mask = m->cap - 1, i = pg_hmix(key) & mask;
    while (m->keys[i]) {
        if (m->keys[i] == key) {
            *out = m->vals[i];
            return 1;
        }
        i = (i + 1) & mask;
    }
    return 0;
}

/* 0, or -1 with a Python MemoryError set */
static inline int u64map_put(U64Map *m, uint64_t key, int32_t val)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 1 << 12;
        uint64_t *k = calloc(cap, sizeof(uint64_t));
        int32_t *v = malloc(cap * sizeof(int32_t));
        if (!k || !v) {
            free(k);
            free(v);
            PyErr_NoMemory();
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t j = pg_hmix(m->keys[i]) & (cap - 1);
                while (k[j])
                    j = (j + 1) & (cap - 1);
                k[j] = m->keys[i];
                v[j] = m->vals[i];
            }
        free(m->keys);
        free(m->vals);
        m->keys = k;
        m->vals = v;
        m->cap = cap;
    }
    size_t mask = m->cap - 1, i = pg_hmix(key) & mask;
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    if (!m->keys[i])
        m->n++;
    m->keys[i] = key;
    m->vals[i] = val;
    return 0;
}

static inline void u64map_clear(U64Map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->n = 0;
}

/* -- the board searches' shared scaffolding (_pgc_search.c) -------------------------------- */

/* a growable array of int32 (option ids); 0, or -1 with a Python MemoryError set */
typedef struct {
    int32_t *a;
    int32_t n, cap;
} PgVec;

static inline int pgvec_push(PgVec *v, int32_t x)
{
    if (v->n == v->cap) {
        int32_t cap = v->cap ? v->cap * 2 : 32;
        int32_t *t = realloc(v->a, (size_t)cap * sizeof(int32_t));
        if (!t) {
            PyErr_NoMemory();
            return -1;
        }
        v->a = t;
        v->cap = cap;
    }
    v->a[v->n++] = x;
    return 0;
}

/* A map from keys of one or more uint64 words (any length up to 2^31 words) to int32 values:
   the memos of the searches whose positions do not fit one word. Keys are copied into an
   arena; a lookup compares the whole key, so equal keys are the only hits. */
typedef struct {
    uint64_t hash;      /* the key's hash (never 0); 0 for an empty slot */
    int64_t off;        /* where the key is in the arena (its length, then its words) */
    int32_t val;
} PgKeySlot;

typedef struct {
    PgKeySlot *slots;
    size_t cap, n;
    uint64_t *arena;
    size_t alen, acap;
} PgKeyMap;

uint64_t pgkm_hash(const uint64_t *key, int32_t len);
/* 1 and *out set when the key is present, else 0 */
int pgkm_get(const PgKeyMap *m, const uint64_t *key, int32_t len, uint64_t h, int32_t *out);
/* 0, or -1 with a Python MemoryError set */
int pgkm_put(PgKeyMap *m, const uint64_t *key, int32_t len, uint64_t h, int32_t val);
void pgkm_clear(PgKeyMap *m);

/* A search's progress: PyErr_CheckSignals before every 256th component solved, and the tick
   callable (or NULL) called with the count solved after every 256th; it may raise to stop. */
typedef struct {
    PyObject *tick;
    int64_t solved;
} PgTicker;

static inline int pg_poll(const PgTicker *t)
{
    return ((t->solved & 0xFF) == 0 && PyErr_CheckSignals() < 0) ? -1 : 0;
}

/* count one component solved; 0, or -1 when the tick raised */
int pg_solved(PgTicker *t);

/* acc += v (canonical sums; acc 0 to start); 0, or -1 on error */
static inline int pg_accumulate(int32_t *acc, int32_t v)
{
    if (v < 0)
        return -1;
    *acc = *acc ? pg_add(*acc, v) : v;
    return *acc < 0 ? -1 : 0;
}

/* the canonical form {L | R} of the option lists, which are then emptied (their memory kept) */
static inline int32_t pg_canon_vecs(PgVec *L, PgVec *R)
{
    int32_t id = pg_canon(L->a, L->n, R->a, R->n);
    L->n = R->n = 0;
    return id;
}

#endif
