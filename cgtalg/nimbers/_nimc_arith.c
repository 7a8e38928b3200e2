/*
 * _nimc_arith.c: the interruption counter (signals and the budget callback), the finite
 * nim-products below 2^64 on a 256 x 256 byte table (Fermat 2-power splitting, ONAG ch. 6),
 * and the storage of elements (Elem) and of the accumulator (Acc) that sums products.
 */
#include "_nimc.h"

/* ------------------------------------------------------------------------------------------ */
/* Interruption: signals and the budget callback                                               */
/* ------------------------------------------------------------------------------------------ */

PyObject *g_check = NULL; /* set_check(f): f() raises to stop (None: no callback) */
uint64_t tick_n = 0, tick_next = TICK_SIGNALS, tick_last_check = 0;
int stopped = 0; /* a signal handler or the budget callback raised: do not retry */

/* 0, or -1 with the exception set when a signal handler or the budget callback raised. */
int tick_slow(void)
{
    tick_next = tick_n + TICK_SIGNALS;
    /* let the other threads run for a moment (a watchdog thread enforcing a budget or turning
     * Ctrl-C into an exception): the arithmetic works on Python objects and the module's
     * tables, so it keeps the GIL between ticks and yields it here, between two products
     * (another thread must not compute nimbers meanwhile: the tables are the module's) */
    Py_BEGIN_ALLOW_THREADS
    Py_END_ALLOW_THREADS
    if (g_check && tick_n - tick_last_check >= TICK_CHECK) {
        tick_last_check = tick_n;
        PyObject *r = PyObject_CallNoArgs(g_check);
        if (!r) {
            stopped = 1;
            return -1;
        }
        Py_DECREF(r);
    }
    if (PyErr_CheckSignals() < 0) {
        stopped = 1;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Finite nim-products below 2^64                                                              */
/* ------------------------------------------------------------------------------------------ */

uint8_t T8[256 * 256];

static uint64_t nm_small(uint64_t a, uint64_t b, int L)
{
    /* a (x) b for a, b < 2^L, L in {1, 2, 4, 8}: the definition by Fermat 2-power splitting. */
    if (L == 1)
        return a & b;
    int h = L / 2;
    uint64_t mask = (1ULL << h) - 1;
    uint64_t a1 = a >> h, a0 = a & mask, b1 = b >> h, b0 = b & mask;
    uint64_t c0 = nm_small(a0, b0, h);
    uint64_t c2 = nm_small(a1, b1, h);
    uint64_t c1 = nm_small(a0 ^ a1, b0 ^ b1, h);
    return ((c1 ^ c0) << h) | (c0 ^ nm_small(c2, 1ULL << (h - 1), h));
}

void build_t8(void)
{
    for (unsigned a = 0; a < 256; a++)
        for (unsigned b = 0; b < 256; b++)
            T8[(a << 8) | b] = (uint8_t)nm_small(a, b, 8);
}

static uint64_t nmh(uint64_t x, int L)
{
    /* x (x) 2^(L-1) for x < 2^L (L a power of two >= 8). */
    if (L == 8)
        return T8[(x << 8) | 128];
    int h = L / 2;
    uint64_t mask = (1ULL << h) - 1;
    uint64_t x1 = x >> h, x0 = x & mask;
    return (nmh(x1 ^ x0, h) << h) | nmh(nmh(x1, h), h);
}

uint64_t nm(uint64_t a, uint64_t b, int L)
{
    if (L == 8)
        return T8[(a << 8) | b];
    int h = L / 2;
    uint64_t mask = (1ULL << h) - 1;
    uint64_t a1 = a >> h, a0 = a & mask, b1 = b >> h, b0 = b & mask;
    if (!a1 && !b1)
        return nm(a0, b0, h);
    uint64_t c0 = nm(a0, b0, h);
    uint64_t c2 = nm(a1, b1, h);
    uint64_t c1 = nm(a0 ^ a1, b0 ^ b1, h);
    return ((c1 ^ c0) << h) | (c0 ^ nmh(c2, h));
}

/* ------------------------------------------------------------------------------------------ */
/* Elements: sparse arrays of (monomial id, coefficient)                                       */
/* ------------------------------------------------------------------------------------------ */

void elem_free(Elem *e)
{
    PyMem_Free(e->id);
    PyMem_Free(e->c);
    elem_init(e);
}

int elem_reserve(Elem *e, Py_ssize_t cap)
{
    if (cap <= e->cap)
        return 0;
    if (cap < 8)
        cap = 8;
    int64_t *id = PyMem_Realloc(e->id, (size_t)cap * sizeof(int64_t));
    if (!id) {
        PyErr_NoMemory();
        return -1;
    }
    e->id = id;
    uint64_t *c = PyMem_Realloc(e->c, (size_t)cap * sizeof(uint64_t));
    if (!c) {
        PyErr_NoMemory();
        return -1;
    }
    e->c = c;
    e->cap = cap;
    return 0;
}

int acc_grow(Acc *a)
{
    size_t cap = (a->mask + 1) * 4;
    int64_t *key = PyMem_Malloc(cap * sizeof(int64_t));
    uint64_t *val = PyMem_Malloc(cap * sizeof(uint64_t));
    if (!key || !val) {
        PyMem_Free(key);
        PyMem_Free(val);
        PyErr_NoMemory();
        return -1;
    }
    memset(key, 0xff, cap * sizeof(int64_t));
    size_t mask = cap - 1;
    for (size_t i = 0; i <= a->mask; i++) {
        if (a->key[i] < 0)
            continue;
        size_t j = hash_id(a->key[i]) & mask;
        while (key[j] >= 0)
            j = (j + 1) & mask;
        key[j] = a->key[i];
        val[j] = a->val[i];
    }
    if (a->key != a->key_buf) {
        PyMem_Free(a->key);
        PyMem_Free(a->val);
    }
    a->key = key;
    a->val = val;
    a->mask = mask;
    return 0;
}

int acc_to_elem(Acc *a, Elem *out)
{
    out->n = 0;
    if (elem_reserve(out, (Py_ssize_t)a->used) < 0)
        return -1;
    for (size_t i = 0; i <= a->mask; i++) {
        if (a->key[i] >= 0 && a->val[i]) {
            out->id[out->n] = a->key[i];
            out->c[out->n] = a->val[i];
            out->n++;
        }
    }
    return 0;
}
