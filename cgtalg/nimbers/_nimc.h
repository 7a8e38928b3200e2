/*
 * _nimc.h: the private header of the _nimc extension (cgtalg/nimbers/_nimc*.c, compiled
 * together into one module by hatch_build.py; the source hash covers every one of those files
 * and this header). It holds what the files share: the element and accumulator types, the
 * state shared between files (the interruption counters, the monomial tables, the bound
 * Python callables), the small inline helpers of the hot loops (finite products of
 * coefficients, the accumulator's insertion, the work counter), and the prototypes of the
 * functions one file calls in another.
 */
#ifndef CGTALG_NIMC_H
#define CGTALG_NIMC_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

/* state and functions shared by the files of the kernel, not exported by the module */
#if defined(__GNUC__) && !defined(_WIN32)
#define NIMC_INTERNAL __attribute__((visibility("hidden")))
#else
#define NIMC_INTERNAL
#endif

#define BIG 1 /* return code: an operand or a coefficient needs the Python path */

#define TICK_SIGNALS 4096u   /* terms between two PyErr_CheckSignals() */
#define TICK_CHECK 16384u    /* terms between two calls of the budget callback */

/* Elements: sparse arrays of (monomial id, coefficient) */
typedef struct {
    Py_ssize_t n, cap;
    int64_t *id;
    uint64_t *c;
} Elem;

/* Accumulator: an open-addressing table id -> coefficient (XOR on insert). */
#define ACC_INLINE 64
typedef struct {
    size_t mask, used;
    int64_t *key;
    uint64_t *val;
    int64_t key_buf[ACC_INLINE];
    uint64_t val_buf[ACC_INLINE];
} Acc;

/* The Nimber base type's instances (_nimc_nimber.c). */
typedef struct {
    PyObject_HEAD
    PyObject *v; /* int, or dict {monomial id: coefficient} with a nonzero id */
    PyObject *h; /* cached hash (set from Python), or NULL */
} NimberObject;

/* -- defined in _nimc_arith.c -------------------------------------------------------------- */

NIMC_INTERNAL extern PyObject *g_check; /* set_check(f): f() raises to stop (None: no callback) */
NIMC_INTERNAL extern uint64_t tick_n, tick_next, tick_last_check;
NIMC_INTERNAL extern int stopped; /* a signal handler or the budget callback raised: do not retry */
NIMC_INTERNAL extern uint8_t T8[256 * 256];

NIMC_INTERNAL int tick_slow(void);
NIMC_INTERNAL void build_t8(void);
NIMC_INTERNAL uint64_t nm(uint64_t a, uint64_t b, int L);
NIMC_INTERNAL void elem_free(Elem *e);
NIMC_INTERNAL int elem_reserve(Elem *e, Py_ssize_t cap);
NIMC_INTERNAL int acc_grow(Acc *a);
NIMC_INTERNAL int acc_to_elem(Acc *a, Elem *out);

/* -- defined in _nimc_mono.c --------------------------------------------------------------- */

NIMC_INTERNAL extern PyObject *g_mono_mul; /* engine.mono_mul(ia, ib) -> ((id, coeff), ...) */
NIMC_INTERNAL extern PyObject *g_py_mul; /* the Python engine's mul (the reference) */
NIMC_INTERNAL extern PyObject *g_py_square; /* the Python engine's square */
NIMC_INTERNAL extern size_t mc_mask, mc_used;
NIMC_INTERNAL extern size_t pool_n, pool_cap;
NIMC_INTERNAL extern int depth; /* nesting of element operations (mono_mul may call back into them) */
NIMC_INTERNAL extern Py_ssize_t mono_misses;
NIMC_INTERNAL extern int32_t *kk_K;
NIMC_INTERNAL extern int64_t *kk_low;
NIMC_INTERNAL extern uint32_t *kk_off, *kk_len;
NIMC_INTERNAL extern size_t kk_n, kk_cap;
NIMC_INTERNAL extern uint32_t *kd; /* the digits of every key */
NIMC_INTERNAL extern PyObject *g_alpha; /* engine.alpha_elem(k) -> alpha_{p_k} as a dict */

NIMC_INTERNAL void mono_clear(void);
NIMC_INTERNAL int keys_reset(void);
NIMC_INTERNAL int64_t key_intern(int64_t low, int32_t K, const uint32_t *d, size_t n);
NIMC_INTERNAL void enter(void);
NIMC_INTERNAL void leave(void);
NIMC_INTERNAL int elem_mul(const Elem *x, const Elem *y, Elem *out);
NIMC_INTERNAL int elem_square(const Elem *x, Elem *out);

/* -- defined in _nimc_nimber.c ------------------------------------------------------------- */

NIMC_INTERNAL extern PyObject *g_cls; /* the Nimber class (a subclass of NimberBase) */
NIMC_INTERNAL extern PyObject *g_slow_add; /* Nimber add with coercion / the Python path */
NIMC_INTERNAL extern PyObject *g_slow_mul; /* Nimber mul with coercion / the Python path */
NIMC_INTERNAL extern PyTypeObject NimberBaseType;

NIMC_INTERNAL int from_value(PyObject *v, Elem *e);
NIMC_INTERNAL PyObject *to_dict(const Elem *e);
NIMC_INTERNAL PyObject *make_nimber(PyObject *v);
NIMC_INTERNAL PyObject *nimber_add(PyObject *a, PyObject *b);
NIMC_INTERNAL PyObject *nimber_mul(PyObject *a, PyObject *b);

/* -- inline helpers of the hot loops ------------------------------------------------------- */

/* Count k units of work (monomial products); every TICK_SIGNALS of them, tick_slow(). */
static inline int tick_add(uint64_t k)
{
    tick_n += k;
    return tick_n < tick_next ? 0 : tick_slow();
}

static inline int tick(void) { return tick_add(1); }

static inline uint64_t cm(uint64_t a, uint64_t b)
{
    if ((a | b) < 256)
        return T8[(a << 8) | b];
    if (a == 1)
        return b;
    if (b == 1)
        return a;
    if (!a || !b)
        return 0;
    uint64_t m = a | b;
    return nm(a, b, m < (1ULL << 16) ? 16 : m < (1ULL << 32) ? 32 : 64);
}

static inline void elem_init(Elem *e) { e->n = 0; e->cap = 0; e->id = NULL; e->c = NULL; }

static inline void acc_init(Acc *a)
{
    a->mask = ACC_INLINE - 1;
    a->used = 0;
    a->key = a->key_buf;
    a->val = a->val_buf;
    memset(a->key_buf, 0xff, sizeof(a->key_buf)); /* -1: empty */
}

static inline void acc_free(Acc *a)
{
    if (a->key != a->key_buf) {
        PyMem_Free(a->key);
        PyMem_Free(a->val);
    }
}

static inline size_t hash_id(int64_t k) { return (size_t)((uint64_t)k * 0x9E3779B97F4A7C15ULL >> 17); }

static inline int acc_xor(Acc *a, int64_t k, uint64_t v)
{
    size_t j = hash_id(k) & a->mask;
    for (;;) {
        int64_t kk = a->key[j];
        if (kk == k) {
            a->val[j] ^= v;
            return 0;
        }
        if (kk < 0)
            break;
        j = (j + 1) & a->mask;
    }
    a->key[j] = k;
    a->val[j] = v;
    if (++a->used * 2 > a->mask + 1)
        return acc_grow(a);
    return 0;
}

static inline void elem_swap(Elem *a, Elem *b)
{
    Elem t = *a;
    *a = *b;
    *b = t;
}

static inline int is_nimber(PyObject *x) { return (PyObject *)Py_TYPE(x) == g_cls; }

#endif /* CGTALG_NIMC_H */
