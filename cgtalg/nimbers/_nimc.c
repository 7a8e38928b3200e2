/*
 * _nimc: the compiled core of cgtalg's ordinal nimber arithmetic.
 *
 * Nimbers below omega^(omega^omega) are held by cgtalg.nimbers.lenstra's kappa/alpha engine
 * (Lenstra 1977, "On the algebraic closure of two"; Conway, ONAG ch. 6) as a Python int (a
 * finite nimber) or a dict {monomial id: finite coefficient}, where a monomial id names a
 * product of powers of Lenstra's kappa_q and id 0 is the monomial 1. This module does, in C,
 * the parts that run on every operation:
 *
 *   - finite nim-products below 2^64 (Fermat 2-power splitting, ONAG ch. 6: with X = 2^h a
 *     Fermat 2-power, X (x) X = X + X/2), on a 256 x 256 byte table;
 *   - the product, square, power and Frobenius map of engine elements, with the products of
 *     pairs of monomials memoised in a C table; a missing product is computed here by the
 *     kappa/alpha reduction rules over the monomial keys, which are interned here too (the
 *     Python engine's kid() and mono_mul stay the reference and mirror the keys);
 *   - the nim-sum and nim-product slots of the Nimber value type (NimberBase, subclassed by
 *     cgtalg.nimbers.nimber.Nimber), so that ``a + b`` and ``a * b`` between Nimbers run
 *     without a Python frame.
 *
 * Anything outside the fast paths (coefficients of 64 bits or more, operands of other types,
 * monomial ids beyond 2^31, errors such as an alpha_p beyond the table) is handed back to the
 * Python implementation, which stays the reference: the results are the same by construction
 * and are cross-checked in tests/test_nimbers_compiled.py.
 *
 * Every loop that can run long (products of large elements, Frobenius maps and powers, the
 * monomial reductions they trigger) counts its work with tick_add(): every TICK_SIGNALS
 * monomial products it runs PyErr_CheckSignals() (so Ctrl-C and a signal.alarm handler are
 * answered within a fraction of a second) and, every TICK_CHECK, the budget callback set by
 * set_check() (cgtalg.nimbers.limits.budget_check: the time and memory ceilings of the budgets
 * open in the calling thread). A failed check returns -1 with the exception set, frees what was
 * allocated, and is never mistaken for a request of the Python path (the flag `stopped`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#ifndef CGTALG_NIMC_SOURCE_HASH
#define CGTALG_NIMC_SOURCE_HASH ""
#endif

#define BIG 1 /* return code: an operand or a coefficient needs the Python path */

/* ------------------------------------------------------------------------------------------ */
/* Interruption: signals and the budget callback                                               */
/* ------------------------------------------------------------------------------------------ */

#define TICK_SIGNALS 4096u   /* terms between two PyErr_CheckSignals() */
#define TICK_CHECK 16384u    /* terms between two calls of the budget callback */

static PyObject *g_check = NULL; /* set_check(f): f() raises to stop (None: no callback) */
static uint64_t tick_n = 0, tick_next = TICK_SIGNALS, tick_last_check = 0;
static int stopped = 0; /* a signal handler or the budget callback raised: do not retry */

/* 0, or -1 with the exception set when a signal handler or the budget callback raised. */
static int tick_slow(void)
{
    tick_next = tick_n + TICK_SIGNALS;
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

/* Count k units of work (monomial products); every TICK_SIGNALS of them, tick_slow(). */
static inline int tick_add(uint64_t k)
{
    tick_n += k;
    return tick_n < tick_next ? 0 : tick_slow();
}

static inline int tick(void) { return tick_add(1); }

/* ------------------------------------------------------------------------------------------ */
/* Finite nim-products below 2^64                                                              */
/* ------------------------------------------------------------------------------------------ */

static uint8_t T8[256 * 256];

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

static void build_t8(void)
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

static uint64_t nm(uint64_t a, uint64_t b, int L)
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

/* ------------------------------------------------------------------------------------------ */
/* Elements: sparse arrays of (monomial id, coefficient)                                       */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    Py_ssize_t n, cap;
    int64_t *id;
    uint64_t *c;
} Elem;

static void elem_init(Elem *e) { e->n = 0; e->cap = 0; e->id = NULL; e->c = NULL; }

static void elem_free(Elem *e)
{
    PyMem_Free(e->id);
    PyMem_Free(e->c);
    elem_init(e);
}

static int elem_reserve(Elem *e, Py_ssize_t cap)
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

/* Accumulator: an open-addressing table id -> coefficient (XOR on insert). */
#define ACC_INLINE 64
typedef struct {
    size_t mask, used;
    int64_t *key;
    uint64_t *val;
    int64_t key_buf[ACC_INLINE];
    uint64_t val_buf[ACC_INLINE];
} Acc;

static void acc_init(Acc *a)
{
    a->mask = ACC_INLINE - 1;
    a->used = 0;
    a->key = a->key_buf;
    a->val = a->val_buf;
    memset(a->key_buf, 0xff, sizeof(a->key_buf)); /* -1: empty */
}

static void acc_free(Acc *a)
{
    if (a->key != a->key_buf) {
        PyMem_Free(a->key);
        PyMem_Free(a->val);
    }
}

static inline size_t hash_id(int64_t k) { return (size_t)((uint64_t)k * 0x9E3779B97F4A7C15ULL >> 17); }

static int acc_grow(Acc *a)
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

static int acc_to_elem(Acc *a, Elem *out)
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

/* ------------------------------------------------------------------------------------------ */
/* Monomial products, memoised                                                                 */
/* ------------------------------------------------------------------------------------------ */

static PyObject *g_mono_mul = NULL;   /* engine.mono_mul(ia, ib) -> ((id, coeff), ...) */
static PyObject *g_py_mul = NULL;     /* the Python engine's mul (the reference) */
static PyObject *g_py_square = NULL;  /* the Python engine's square */
static PyObject *g_cls = NULL;        /* the Nimber class (a subclass of NimberBase) */
static PyObject *g_slow_add = NULL;   /* Nimber add with coercion / the Python path */
static PyObject *g_slow_mul = NULL;   /* Nimber mul with coercion / the Python path */

#define POOL_LIMIT (1 << 21)
static uint64_t *mc_key = NULL; /* 0: empty; else (ia << 32 | ib), ia <= ib, ia >= 1 */
static uint32_t *mc_off = NULL, *mc_len = NULL;
static size_t mc_mask = 0, mc_used = 0;
static int64_t *pool_id = NULL;
static uint64_t *pool_c = NULL;
static size_t pool_n = 0, pool_cap = 0;
static int depth = 0; /* nesting of element operations (mono_mul may call back into them) */
static Py_ssize_t mono_misses = 0;

static void mono_clear(void)
{
    if (mc_key)
        memset(mc_key, 0, (mc_mask + 1) * sizeof(uint64_t));
    mc_used = 0;
    pool_n = 0;
}

static int mono_table_grow(void)
{
    size_t cap = mc_key ? (mc_mask + 1) * 2 : 1024;
    uint64_t *key = PyMem_Calloc(cap, sizeof(uint64_t));
    uint32_t *off = PyMem_Malloc(cap * sizeof(uint32_t));
    uint32_t *len = PyMem_Malloc(cap * sizeof(uint32_t));
    if (!key || !off || !len) {
        PyMem_Free(key);
        PyMem_Free(off);
        PyMem_Free(len);
        PyErr_NoMemory();
        return -1;
    }
    size_t mask = cap - 1;
    if (mc_key) {
        for (size_t i = 0; i <= mc_mask; i++) {
            if (!mc_key[i])
                continue;
            size_t j = hash_id((int64_t)mc_key[i]) & mask;
            while (key[j])
                j = (j + 1) & mask;
            key[j] = mc_key[i];
            off[j] = mc_off[i];
            len[j] = mc_len[i];
        }
        PyMem_Free(mc_key);
        PyMem_Free(mc_off);
        PyMem_Free(mc_len);
    }
    mc_key = key;
    mc_off = off;
    mc_len = len;
    mc_mask = mask;
    return 0;
}

static int pool_reserve(size_t extra)
{
    if (pool_n + extra <= pool_cap)
        return 0;
    size_t cap = pool_cap ? pool_cap : 4096;
    while (cap < pool_n + extra)
        cap *= 2;
    int64_t *id = PyMem_Realloc(pool_id, cap * sizeof(int64_t));
    if (!id) {
        PyErr_NoMemory();
        return -1;
    }
    pool_id = id;
    uint64_t *c = PyMem_Realloc(pool_c, cap * sizeof(uint64_t));
    if (!c) {
        PyErr_NoMemory();
        return -1;
    }
    pool_c = c;
    pool_cap = cap;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Monomial keys, interned here, so that a product of monomials not yet in the table is        */
/* computed in C                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* A monomial prod_{k,j} kappa_{p_k^(j+1)}^(d_{k,j}) is stored as (K, low, top): K the index of
   its largest odd prime p_K (K = -1 for the monomial 1, id 0), low the id of the monomial
   without its p_K digits, top its base-p_K digits d_{K,0}, d_{K,1}, ... (lowest first, no
   trailing zeros, at least one). The ids are the engine's (the Python engine's kid() interns
   through intern_key(); key_parts() lets it mirror the keys made here). */
static int32_t *kk_K = NULL;
static int64_t *kk_low = NULL;
static uint32_t *kk_off = NULL, *kk_len = NULL;
static size_t kk_n = 0, kk_cap = 0;
static uint32_t *kd = NULL; /* the digits of every key */
static size_t kd_n = 0, kd_cap = 0;
static int64_t *kh = NULL; /* intern table: id, or -1 for empty */
static size_t kh_mask = 0;
static uint32_t *primes = NULL; /* the odd primes 3, 5, 7, ... */
static size_t primes_n = 0, primes_cap = 0;
static PyObject *g_alpha = NULL; /* engine.alpha_elem(k) -> alpha_{p_k} as a dict */
static Elem *alphas = NULL;
static char *alpha_ok = NULL;
static size_t alphas_n = 0;

static size_t key_hash(int64_t low, int32_t K, const uint32_t *d, size_t n)
{
    uint64_t h = (uint64_t)low * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)(K + 1) * 0xC2B2AE3D27D4EB4FULL);
    for (size_t i = 0; i < n; i++)
        h = (h ^ d[i]) * 0x100000001B3ULL;
    return (size_t)(h ^ (h >> 29));
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *q = PyMem_Realloc(*p, c * size);
    if (!q) {
        PyErr_NoMemory();
        return -1;
    }
    *p = q;
    *cap = c;
    return 0;
}

static int keys_grow(size_t need)
{
    if (need <= kk_cap)
        return 0;
    size_t c = kk_cap ? kk_cap * 2 : 1024;
    while (c < need)
        c *= 2;
    int32_t *K = PyMem_Realloc(kk_K, c * sizeof(int32_t));
    if (K)
        kk_K = K;
    int64_t *low = K ? PyMem_Realloc(kk_low, c * sizeof(int64_t)) : NULL;
    if (low)
        kk_low = low;
    uint32_t *off = low ? PyMem_Realloc(kk_off, c * sizeof(uint32_t)) : NULL;
    if (off)
        kk_off = off;
    uint32_t *len = off ? PyMem_Realloc(kk_len, c * sizeof(uint32_t)) : NULL;
    if (!len) {
        PyErr_NoMemory();
        return -1;
    }
    kk_len = len;
    kk_cap = c;
    return 0;
}

static int kh_rehash(size_t cap)
{
    int64_t *t = PyMem_Malloc(cap * sizeof(int64_t));
    if (!t) {
        PyErr_NoMemory();
        return -1;
    }
    memset(t, 0xff, cap * sizeof(int64_t));
    size_t mask = cap - 1;
    for (size_t i = 1; i < kk_n; i++) {
        size_t j = key_hash(kk_low[i], kk_K[i], kd + kk_off[i], kk_len[i]) & mask;
        while (t[j] >= 0)
            j = (j + 1) & mask;
        t[j] = (int64_t)i;
    }
    PyMem_Free(kh);
    kh = t;
    kh_mask = mask;
    return 0;
}

/* Forget every key but the monomial 1 (id 0). */
static int keys_reset(void)
{
    if (keys_grow(1) < 0)
        return -1;
    kk_K[0] = -1;
    kk_low[0] = 0;
    kk_off[0] = 0;
    kk_len[0] = 0;
    kk_n = 1;
    kd_n = 0;
    for (size_t k = 0; k < alphas_n; k++)
        if (alpha_ok[k])
            elem_free(&alphas[k]);
    if (alpha_ok)
        memset(alpha_ok, 0, alphas_n);
    return kh_rehash(1024);
}

/* The id of the key (K, low, top = d[0 : n]) (n >= 1, d[n-1] != 0, low's primes below p_K),
   interned on first sight; -1 on error. */
static int64_t key_intern(int64_t low, int32_t K, const uint32_t *d, size_t n)
{
    size_t j = key_hash(low, K, d, n) & kh_mask;
    for (;;) {
        int64_t i = kh[j];
        if (i < 0)
            break;
        if (kk_K[i] == K && kk_low[i] == low && kk_len[i] == n && !memcmp(kd + kk_off[i], d, n * sizeof(uint32_t)))
            return i;
        j = (j + 1) & kh_mask;
    }
    if (kk_n >= (1ULL << 31) || kd_n + n >= (1ULL << 32)) {
        PyErr_SetString(PyExc_MemoryError, "too many monomials for the nimber kernel");
        return -1;
    }
    if (keys_grow(kk_n + 1) < 0 || grow((void **)&kd, &kd_cap, kd_n + n, sizeof(uint32_t)) < 0)
        return -1;
    int64_t id = (int64_t)kk_n++;
    kk_K[id] = K;
    kk_low[id] = low;
    kk_off[id] = (uint32_t)kd_n;
    kk_len[id] = (uint32_t)n;
    memcpy(kd + kd_n, d, n * sizeof(uint32_t));
    kd_n += n;
    kh[j] = id;
    if (kk_n * 2 > kh_mask + 1)
        return kh_rehash((kh_mask + 1) * 2) < 0 ? -1 : id;
    return id;
}

/* The odd prime p_K (p_0 = 3). */
static uint32_t odd_prime(int32_t K)
{
    while (primes_n <= (size_t)K) {
        if (grow((void **)&primes, &primes_cap, primes_n + 1, sizeof(uint32_t)) < 0)
            return 0;
        uint32_t q = primes_n ? primes[primes_n - 1] + 2 : 3;
        for (;; q += 2) {
            int prime = 1;
            for (uint32_t f = 3; f * f <= q; f += 2)
                if (q % f == 0) {
                    prime = 0;
                    break;
                }
            if (prime)
                break;
        }
        primes[primes_n++] = q;
    }
    return primes[K];
}

static int from_value(PyObject *v, Elem *e);

/* alpha_{p_K} as an element (asked of the engine once; it raises beyond the shipped table). */
static const Elem *alpha_of(int32_t K)
{
    if ((size_t)K >= alphas_n) {
        size_t n = alphas_n ? alphas_n : 16;
        while (n <= (size_t)K)
            n *= 2;
        Elem *a = PyMem_Realloc(alphas, n * sizeof(Elem));
        if (!a) {
            PyErr_NoMemory();
            return NULL;
        }
        alphas = a;
        char *ok = PyMem_Realloc(alpha_ok, n);
        if (!ok) {
            PyErr_NoMemory();
            return NULL;
        }
        alpha_ok = ok;
        memset(alpha_ok + alphas_n, 0, n - alphas_n);
        alphas_n = n;
    }
    if (!alpha_ok[K]) {
        if (!g_alpha) {
            PyErr_SetString(PyExc_RuntimeError, "cgtalg.nimbers._nimc.setup_engine() has not been called");
            return NULL;
        }
        PyObject *d = PyObject_CallFunction(g_alpha, "i", (int)K);
        if (!d)
            return NULL;
        elem_init(&alphas[K]);
        int rc = from_value(d, &alphas[K]);
        Py_DECREF(d);
        if (rc) {
            elem_free(&alphas[K]);
            if (rc == BIG)
                PyErr_SetString(PyExc_OverflowError, "alpha_p with a coefficient of 64 bits or more");
            return NULL;
        }
        alpha_ok[K] = 1;
    }
    return &alphas[K];
}

static int mono_get(int64_t ia, int64_t ib, size_t *off, size_t *len);
static void elem_swap(Elem *a, Elem *b);
static int elem_mul(const Elem *x, const Elem *y, Elem *out);

/* out = monomial ia (x) monomial ib (1 <= ia <= ib < kk_n) by Lenstra's rules: the p_K digits
   add with carries to the next lower digit (kappa_{p^(j+2)}^p = kappa_{p^(j+1)}), a carry out
   of the lowest digit multiplies by alpha_{p_K} (kappa_p^p = alpha_p), and the parts below
   p_K multiply recursively (the same reduction as the Python engine's _mono_keys). */
static int mono_compute(int64_t ia, int64_t ib, Elem *out)
{
    int32_t Ka = kk_K[ia], Kb = kk_K[ib];
    int32_t K = Ka > Kb ? Ka : Kb;
    int64_t la = Ka == K ? kk_low[ia] : ia, lb = Kb == K ? kk_low[ib] : ib;
    size_t na = Ka == K ? kk_len[ia] : 0, nb = Kb == K ? kk_len[ib] : 0;
    size_t n = na > nb ? na : nb;
    uint32_t p = odd_prime(K);
    if (!p)
        return -1;
    uint32_t buf[64];
    uint32_t *s = n <= 64 ? buf : PyMem_Malloc(n * sizeof(uint32_t));
    if (!s) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t j = 0; j < n; j++)
        s[j] = (j < na ? kd[kk_off[ia] + j] : 0) + (j < nb ? kd[kk_off[ib] + j] : 0);
    uint32_t carry = 0;
    for (size_t j = n; j-- > 0;) {
        uint32_t v = s[j] + carry;
        carry = v >= p;
        s[j] = carry ? v - p : v;
    }
    while (n && !s[n - 1])
        n--;
    Elem low, t;
    elem_init(&low);
    elem_init(&t);
    int rc = elem_reserve(&low, 1);
    if (!rc && (la == 0 || lb == 0)) {
        low.id[0] = la | lb;
        low.c[0] = 1;
        low.n = 1;
    } else if (!rc) {
        size_t o, l;
        rc = mono_get(la, lb, &o, &l);
        if (!rc)
            rc = elem_reserve(&low, (Py_ssize_t)l);
        if (!rc) {
            memcpy(low.id, pool_id + o, l * sizeof(int64_t));
            memcpy(low.c, pool_c + o, l * sizeof(uint64_t));
            low.n = (Py_ssize_t)l;
        }
    }
    if (!rc && carry) {
        const Elem *a = alpha_of(K);
        rc = a ? elem_mul(&low, a, &t) : -1;
        elem_swap(&low, &t);
    }
    if (!rc && n) {
        for (Py_ssize_t i = 0; i < low.n && !rc; i++) {
            int64_t id = key_intern(low.id[i], K, s, n);
            if (id < 0)
                rc = -1;
            else
                low.id[i] = id;
        }
    }
    if (!rc)
        elem_swap(&low, out);
    elem_free(&low);
    elem_free(&t);
    if (s != buf)
        PyMem_Free(s);
    return rc;
}

/* The product of monomials ia, ib (both >= 1) as pool[*off : *off + *len].
   0: found; -1: error (exception set); BIG: the Python path is needed. The pool may move:
   callers hold offsets, not pointers. */
static int mono_get(int64_t ia, int64_t ib, size_t *off, size_t *len)
{
    if (ia > ib) {
        int64_t t = ia;
        ia = ib;
        ib = t;
    }
    if (ib >= (1LL << 31))
        return BIG;
    uint64_t key = ((uint64_t)ia << 32) | (uint64_t)ib;
    if (mc_key) {
        size_t j = hash_id((int64_t)key) & mc_mask;
        for (;;) {
            uint64_t kk = mc_key[j];
            if (kk == key) {
                *off = mc_off[j];
                *len = mc_len[j];
                return 0;
            }
            if (!kk)
                break;
            j = (j + 1) & mc_mask;
        }
    }
    /* a miss: computed here (for ids made elsewhere, asked of the Python engine) */
    mono_misses++;
    size_t start;
    Py_ssize_t n;
    if (ib < (int64_t)kk_n) {
        Elem r;
        elem_init(&r);
        int rc = mono_compute(ia, ib, &r);
        if (!rc)
            rc = pool_reserve((size_t)r.n);
        if (rc) {
            elem_free(&r);
            return rc;
        }
        start = pool_n;
        n = r.n;
        memcpy(pool_id + start, r.id, (size_t)n * sizeof(int64_t));
        memcpy(pool_c + start, r.c, (size_t)n * sizeof(uint64_t));
        elem_free(&r);
    } else {
    if (!g_mono_mul) {
        PyErr_SetString(PyExc_RuntimeError, "cgtalg.nimbers._nimc.setup_engine() has not been called");
        return -1;
    }
    PyObject *r = PyObject_CallFunction(g_mono_mul, "LL", (long long)ia, (long long)ib);
    if (!r)
        return -1;
    PyObject *seq = PySequence_Fast(r, "mono_mul must return a sequence");
    Py_DECREF(r);
    if (!seq)
        return -1;
    n = PySequence_Fast_GET_SIZE(seq);
    if (pool_reserve((size_t)n) < 0) {
        Py_DECREF(seq);
        return -1;
    }
    start = pool_n;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_TypeError, "mono_mul must return (id, coefficient) pairs");
            return -1;
        }
        long long k = PyLong_AsLongLong(PyTuple_GET_ITEM(pair, 0));
        if (k == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        unsigned long long c = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(pair, 1));
        if (c == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                return BIG; /* not cached: the Python path handles this product */
            }
            return -1;
        }
        pool_id[start + i] = k;
        pool_c[start + i] = c;
    }
    Py_DECREF(seq);
    }
    pool_n = start + (size_t)n;
    if (!mc_key || (mc_used + 1) * 2 > mc_mask + 1) {
        if (mono_table_grow() < 0)
            return -1;
    }
    size_t j = hash_id((int64_t)key) & mc_mask;
    while (mc_key[j])
        j = (j + 1) & mc_mask;
    mc_key[j] = key;
    mc_off[j] = (uint32_t)start;
    mc_len[j] = (uint32_t)n;
    mc_used++;
    *off = start;
    *len = (size_t)n;
    return 0;
}

static void enter(void)
{
    if (depth == 0) {
        stopped = 0;
        if (pool_n > POOL_LIMIT)
            mono_clear(); /* only between top-level operations: inner ones hold pool offsets */
    }
    depth++;
}

static void leave(void) { depth--; }

/* acc += c (x) (monomial ia) (x) (monomial ib). */
static inline int acc_term(Acc *acc, int64_t ia, int64_t ib, uint64_t c)
{
    if (ia == 0 || ib == 0)
        return acc_xor(acc, ia | ib, c);
    size_t off, len;
    int rc = mono_get(ia, ib, &off, &len);
    for (size_t t = 0; !rc && t < len; t++) {
        uint64_t cc = pool_c[off + t];
        rc = acc_xor(acc, pool_id[off + t], cc == 1 ? c : cm(c, cc));
    }
    return rc;
}

/* out = x (x) y. */
static int elem_mul(const Elem *x, const Elem *y, Elem *out)
{
    Acc acc;
    acc_init(&acc);
    int rc = 0;
    for (Py_ssize_t i = 0; i < x->n && !rc; i++) {
        rc = tick_add((uint64_t)y->n); /* a row of products */
        for (Py_ssize_t j = 0; j < y->n && !rc; j++)
            rc = acc_term(&acc, x->id[i], y->id[j], cm(x->c[i], y->c[j]));
    }
    if (!rc)
        rc = acc_to_elem(&acc, out);
    acc_free(&acc);
    return rc;
}

/* out = x (x) x: in characteristic 2, the sum of the squared terms. */
static int elem_square(const Elem *x, Elem *out)
{
    Acc acc;
    acc_init(&acc);
    int rc = 0;
    for (Py_ssize_t i = 0; i < x->n && !rc; i++) {
        if ((i & 255) == 0) /* a block of squared terms */
            rc = tick_add((uint64_t)(x->n - i < 256 ? x->n - i : 256));
        if (!rc)
            rc = acc_term(&acc, x->id[i], x->id[i], cm(x->c[i], x->c[i]));
    }
    if (!rc)
        rc = acc_to_elem(&acc, out);
    acc_free(&acc);
    return rc;
}

static void elem_swap(Elem *a, Elem *b)
{
    Elem t = *a;
    *a = *b;
    *b = t;
}

/* ------------------------------------------------------------------------------------------ */
/* Conversions                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* A PyLong < 2^64 into *out: 0, BIG (too large: the Python path), -1 (error). */
static inline int as_u64(PyObject *v, uint64_t *out)
{
    unsigned long long c = PyLong_AsUnsignedLongLong(v);
    if (c == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            return BIG;
        }
        return -1;
    }
    *out = c;
    return 0;
}

/* An engine element (dict {id: coeff}) or an internal value (int or dict) into e. */
static int from_value(PyObject *v, Elem *e)
{
    e->n = 0;
    if (PyLong_CheckExact(v)) {
        uint64_t c;
        int rc = as_u64(v, &c);
        if (rc)
            return rc;
        if (!c)
            return 0;
        if (elem_reserve(e, 1) < 0)
            return -1;
        e->id[0] = 0;
        e->c[0] = c;
        e->n = 1;
        return 0;
    }
    if (!PyDict_CheckExact(v)) {
        PyErr_SetString(PyExc_TypeError, "a nimber element must be an int or a dict");
        return -1;
    }
    if (elem_reserve(e, PyDict_GET_SIZE(v)) < 0)
        return -1;
    Py_ssize_t pos = 0;
    PyObject *k, *c;
    while (PyDict_Next(v, &pos, &k, &c)) {
        long long kid = PyLong_AsLongLong(k);
        if (kid == -1 && PyErr_Occurred())
            return -1;
        uint64_t cc;
        int rc = as_u64(c, &cc);
        if (rc)
            return rc;
        if (!cc)
            continue;
        e->id[e->n] = kid;
        e->c[e->n] = cc;
        e->n++;
    }
    return 0;
}

/* Interned PyLong objects for monomial ids (they are dict keys of every result). */
static PyObject **id_obj = NULL;
static Py_ssize_t id_obj_n = 0;

static PyObject *id_to_py(int64_t k)
{
    if (k < 256 || k >= (1 << 22))
        return PyLong_FromLongLong(k);
    if (k >= id_obj_n) {
        Py_ssize_t n = id_obj_n ? id_obj_n : 1024;
        while (n <= k)
            n *= 2;
        PyObject **p = PyMem_Realloc(id_obj, (size_t)n * sizeof(PyObject *));
        if (!p)
            return PyErr_NoMemory();
        memset(p + id_obj_n, 0, (size_t)(n - id_obj_n) * sizeof(PyObject *));
        id_obj = p;
        id_obj_n = n;
    }
    if (!id_obj[k]) {
        id_obj[k] = PyLong_FromLongLong(k);
        if (!id_obj[k])
            return NULL;
    }
    Py_INCREF(id_obj[k]);
    return id_obj[k];
}

/* The engine's dict form ({} for 0, {0: c} for a finite c). */
static PyObject *to_dict(const Elem *e)
{
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    for (Py_ssize_t i = 0; i < e->n; i++) {
        PyObject *k = id_to_py(e->id[i]);
        PyObject *c = k ? PyLong_FromUnsignedLongLong(e->c[i]) : NULL;
        if (!c || PyDict_SetItem(d, k, c) < 0) {
            Py_XDECREF(k);
            Py_XDECREF(c);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(k);
        Py_DECREF(c);
    }
    return d;
}

/* The internal value of a Nimber: an int when finite, else the dict. */
static PyObject *to_value(const Elem *e)
{
    if (e->n == 0)
        return PyLong_FromLong(0);
    if (e->n == 1 && e->id[0] == 0)
        return PyLong_FromUnsignedLongLong(e->c[0]);
    return to_dict(e);
}

/* ------------------------------------------------------------------------------------------ */
/* The Nimber base type                                                                        */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    PyObject *v; /* int, or dict {monomial id: coefficient} with a nonzero id */
    PyObject *h; /* cached hash (set from Python), or NULL */
} NimberObject;

static PyTypeObject NimberBaseType;

static PyObject *make_nimber(PyObject *v) /* steals v */
{
    if (!v)
        return NULL;
    if (!g_cls) {
        Py_DECREF(v);
        PyErr_SetString(PyExc_RuntimeError, "cgtalg.nimbers._nimc.setup_nimber() has not been called");
        return NULL;
    }
    PyTypeObject *tp = (PyTypeObject *)g_cls;
    NimberObject *o = (NimberObject *)tp->tp_alloc(tp, 0);
    if (!o) {
        Py_DECREF(v);
        return NULL;
    }
    o->v = v;
    o->h = NULL;
    /* A Nimber holds an int or a dict of ints (and its hash): it can close no reference cycle,
       so the collector need not watch it (instances of the Python subclass are allocated as
       GC objects, as every heap type's are; untracked, a batch of results does not make the
       collector walk the interpreter's objects). */
    if (PyObject_IS_GC((PyObject *)o))
        PyObject_GC_UnTrack(o);
    return (PyObject *)o;
}

static void nimber_dealloc(NimberObject *self)
{
    Py_CLEAR(self->v);
    Py_CLEAR(self->h);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static inline int is_nimber(PyObject *x) { return (PyObject *)Py_TYPE(x) == g_cls; }

static inline int is_zero(PyObject *v)
{
#if PY_VERSION_HEX < 0x030C0000
    return PyLong_CheckExact(v) && Py_SIZE(v) == 0;
#else
    return PyLong_CheckExact(v) && PyObject_Not(v) == 1;
#endif
}

/* a (+) b on internal values; a new reference to the normalised value. */
static PyObject *value_add(PyObject *a, PyObject *b)
{
    int ai = PyLong_CheckExact(a), bi = PyLong_CheckExact(b);
    if (ai && bi)
        return PyNumber_Xor(a, b);
    if (ai) { /* the infinite operand first */
        PyObject *t = a;
        a = b;
        b = t;
        bi = 1;
    }
    if (bi) {
        if (is_zero(b)) {
            Py_INCREF(a);
            return a;
        }
        /* finite + infinite: only the constant term changes; the result stays infinite */
        PyObject *out = PyDict_Copy(a);
        if (!out)
            return NULL;
        PyObject *zero = PyLong_FromLong(0);
        PyObject *cur = PyDict_GetItemWithError(out, zero);
        PyObject *nv = cur ? PyNumber_Xor(cur, b) : (Py_INCREF(b), b);
        if (!nv) {
            Py_DECREF(zero);
            Py_DECREF(out);
            return NULL;
        }
        int rc = is_zero(nv) ? PyDict_DelItem(out, zero) : PyDict_SetItem(out, zero, nv);
        Py_DECREF(nv);
        Py_DECREF(zero);
        if (rc < 0) {
            Py_DECREF(out);
            return NULL;
        }
        return out;
    }
    if (PyDict_GET_SIZE(a) == 1 && PyDict_GET_SIZE(b) == 1) { /* monomial + monomial */
        Py_ssize_t pa = 0, pb = 0;
        PyObject *ka, *ca, *kb, *cb;
        PyDict_Next(a, &pa, &ka, &ca);
        PyDict_Next(b, &pb, &kb, &cb);
        int same = PyObject_RichCompareBool(ka, kb, Py_EQ);
        if (same < 0)
            return NULL;
        if (same) {
            PyObject *nv = PyNumber_Xor(ca, cb);
            if (!nv || is_zero(nv))
                return nv;
            PyObject *out = PyDict_New();
            if (!out || PyDict_SetItem(out, ka, nv) < 0) {
                Py_XDECREF(out);
                Py_DECREF(nv);
                return NULL;
            }
            Py_DECREF(nv);
            return out;
        }
    }
    if (PyDict_GET_SIZE(b) > PyDict_GET_SIZE(a)) {
        PyObject *t = a;
        a = b;
        b = t;
    }
    PyObject *out = PyDict_Copy(a);
    if (!out)
        return NULL;
    Py_ssize_t pos = 0;
    PyObject *k, *c;
    while (PyDict_Next(b, &pos, &k, &c)) {
        PyObject *cur = PyDict_GetItemWithError(out, k);
        int rc;
        if (cur) {
            PyObject *nv = PyNumber_Xor(cur, c);
            if (!nv) {
                Py_DECREF(out);
                return NULL;
            }
            rc = is_zero(nv) ? PyDict_DelItem(out, k) : PyDict_SetItem(out, k, nv);
            Py_DECREF(nv);
        } else if (PyErr_Occurred()) {
            rc = -1;
        } else {
            rc = PyDict_SetItem(out, k, c);
        }
        if (rc < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    Py_ssize_t n = PyDict_GET_SIZE(out);
    if (n < 2) { /* {} -> 0, {0: c} -> c */
        if (n == 0) {
            Py_DECREF(out);
            return PyLong_FromLong(0);
        }
        PyObject *zero = PyLong_FromLong(0);
        PyObject *c0 = PyDict_GetItemWithError(out, zero);
        Py_DECREF(zero);
        if (c0) {
            Py_INCREF(c0);
            Py_DECREF(out);
            return c0;
        }
        if (PyErr_Occurred()) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

static PyObject *call_slow(PyObject *f, PyObject *a, PyObject *b)
{
    return PyObject_CallFunctionObjArgs(f, a, b, NULL);
}

static PyObject *nimber_add(PyObject *a, PyObject *b)
{
    if (!g_cls) {
        PyErr_SetString(PyExc_RuntimeError, "cgtalg.nimbers._nimc.setup_nimber() has not been called");
        return NULL;
    }
    if (!is_nimber(a) || !is_nimber(b))
        return call_slow(g_slow_add, a, b);
    PyObject *va = ((NimberObject *)a)->v, *vb = ((NimberObject *)b)->v;
    if (is_zero(vb)) {
        Py_INCREF(a);
        return a;
    }
    if (is_zero(va)) {
        Py_INCREF(b);
        return b;
    }
    return make_nimber(value_add(va, vb));
}

/* The product of internal values as a new internal value; NULL with no exception set means
   "use the Python path". */
static PyObject *value_mul(PyObject *va, PyObject *vb)
{
    if (PyLong_CheckExact(va) && PyLong_CheckExact(vb)) {
        uint64_t a, b;
        if (as_u64(va, &a) || as_u64(vb, &b))
            return NULL;
        return PyLong_FromUnsignedLongLong(cm(a, b));
    }
    Elem x, y, z;
    elem_init(&x);
    elem_init(&y);
    elem_init(&z);
    PyObject *res = NULL;
    int rc = from_value(va, &x);
    if (!rc)
        rc = from_value(vb, &y);
    if (!rc) {
        enter();
        rc = x.n <= y.n ? elem_mul(&x, &y, &z) : elem_mul(&y, &x, &z);
        leave();
    }
    if (!rc)
        res = to_value(&z);
    elem_free(&x);
    elem_free(&y);
    elem_free(&z);
    return res;
}

static PyObject *nimber_mul(PyObject *a, PyObject *b)
{
    if (!g_cls) {
        PyErr_SetString(PyExc_RuntimeError, "cgtalg.nimbers._nimc.setup_nimber() has not been called");
        return NULL;
    }
    if (!is_nimber(a) || !is_nimber(b))
        return call_slow(g_slow_mul, a, b);
    PyObject *va = ((NimberObject *)a)->v, *vb = ((NimberObject *)b)->v;
    if (PyLong_CheckExact(va) && !PyLong_CheckExact(vb)) {
        PyObject *t = a;
        a = b;
        b = t;
        va = ((NimberObject *)a)->v;
        vb = ((NimberObject *)b)->v;
    }
    if (PyLong_CheckExact(vb) && !PyLong_CheckExact(va)) { /* infinite (x) finite */
        if (is_zero(vb)) {
            Py_INCREF(b);
            return b;
        }
        long one = PyLong_AsLong(vb);
        if (one == 1) {
            Py_INCREF(a);
            return a;
        }
        PyErr_Clear();
    }
    PyObject *v = value_mul(va, vb);
    if (v)
        return make_nimber(v);
    if (stopped && PyErr_Occurred())
        return NULL; /* a signal handler or the budget callback raised: stop here */
    /* coefficients of 64 bits or more, an alpha_p beyond the table, ...: the Python path
       computes the product or raises the library's error for it */
    PyErr_Clear();
    return call_slow(g_slow_mul, a, b);
}

static PyNumberMethods nimber_as_number = {
    .nb_add = nimber_add,
    .nb_subtract = nimber_add,
    .nb_multiply = nimber_mul,
};

static PyMemberDef nimber_members[] = {
    {"_v", T_OBJECT_EX, offsetof(NimberObject, v), READONLY, "the internal value (int or dict)"},
    {"_h", T_OBJECT_EX, offsetof(NimberObject, h), 0, "the cached hash"},
    {NULL},
};

static PyTypeObject NimberBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cgtalg.nimbers._nimc.NimberBase",
    .tp_basicsize = sizeof(NimberObject),
    .tp_dealloc = (destructor)nimber_dealloc,
    .tp_as_number = &nimber_as_number,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Storage and the nim-sum / nim-product slots of cgtalg.nimbers.Nimber.",
    .tp_members = nimber_members,
};

/* ------------------------------------------------------------------------------------------ */
/* Module functions                                                                            */
/* ------------------------------------------------------------------------------------------ */

static int set_callables(PyObject *args, PyObject *kw, char **names, PyObject ***slots, int n)
{
    PyObject *got[4] = {NULL, NULL, NULL, NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, n == 4 ? "OOOO" : n == 3 ? "OOO" : "OO", names, &got[0], &got[1],
                                     &got[2], &got[3]))
        return -1;
    for (int i = 0; i < n; i++) {
        Py_INCREF(got[i]);
        Py_XSETREF(*slots[i], got[i]);
    }
    return 0;
}

/* setup_engine(mono_mul, py_mul, py_square, alpha): bind a new Python engine (its monomial
   products for ids not made here, the reference product and square for operands beyond
   64-bit coefficients, and its alpha_p elements); the keys start again from the monomial 1. */
static PyObject *m_setup_engine(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"mono_mul", "py_mul", "py_square", "alpha", NULL};
    PyObject **slots[] = {&g_mono_mul, &g_py_mul, &g_py_square, &g_alpha};
    if (depth) {
        PyErr_SetString(PyExc_RuntimeError, "setup_engine() inside an element operation");
        return NULL;
    }
    if (set_callables(args, kw, names, slots, 4) < 0)
        return NULL;
    mono_clear();
    if (keys_reset() < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* intern_key(low, K, top): the id of the monomial (K, low, top) (see key_intern). */
static PyObject *m_intern_key(PyObject *self, PyObject *args)
{
    long long low;
    int K;
    PyObject *top;
    if (!PyArg_ParseTuple(args, "LiO!", &low, &K, &PyTuple_Type, &top))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(top);
    if (K < 0 || low < 0 || low >= (long long)kk_n || n < 1 || (kk_K[low] >= K)) {
        PyErr_SetString(PyExc_ValueError, "intern_key: not a monomial key");
        return NULL;
    }
    uint32_t *d = PyMem_Malloc((size_t)n * sizeof(uint32_t));
    if (!d)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(top, i));
        if ((v == (unsigned long)-1 && PyErr_Occurred()) || v > 0xFFFFFFFFUL) {
            PyMem_Free(d);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_OverflowError, "intern_key: digit too large");
            return NULL;
        }
        d[i] = (uint32_t)v;
    }
    if (!d[n - 1]) {
        PyMem_Free(d);
        PyErr_SetString(PyExc_ValueError, "intern_key: trailing zero digit");
        return NULL;
    }
    int64_t id = key_intern(low, K, d, (size_t)n);
    PyMem_Free(d);
    return id < 0 ? NULL : PyLong_FromLongLong(id);
}

static PyObject *m_key_count(PyObject *self, PyObject *unused) { return PyLong_FromSize_t(kk_n); }

/* key_parts(start[, stop]): [(K, low, top), ...] for the ids start, start + 1, ... (start >= 1),
   up to stop (excluded) when given. */
static PyObject *m_key_parts(PyObject *self, PyObject *args)
{
    Py_ssize_t start, stop = -1;
    if (!PyArg_ParseTuple(args, "n|n", &start, &stop))
        return NULL;
    if (start < 1)
        start = 1;
    Py_ssize_t total = (Py_ssize_t)kk_n;
    if (stop >= 0 && stop < total)
        total = stop;
    PyObject *out = PyList_New(start < total ? total - start : 0);
    if (!out)
        return NULL;
    for (Py_ssize_t i = start; i < total; i++) {
        PyObject *top = PyTuple_New(kk_len[i]);
        if (!top) {
            Py_DECREF(out);
            return NULL;
        }
        for (uint32_t j = 0; j < kk_len[i]; j++) {
            PyObject *v = PyLong_FromUnsignedLong(kd[kk_off[i] + j]);
            if (!v) {
                Py_DECREF(top);
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(top, j, v);
        }
        PyObject *t = Py_BuildValue("(iLN)", (int)kk_K[i], (long long)kk_low[i], top);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i - start, t);
    }
    return out;
}

/* setup_nimber(cls, slow_add, slow_mul): the Nimber class (instances made here are of it) and
   the Python paths for mixed operands and for what the fast paths leave out. */
static PyObject *m_setup_nimber(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"cls", "slow_add", "slow_mul", NULL};
    PyObject **slots[] = {&g_cls, &g_slow_add, &g_slow_mul};
    PyObject *cls = args && PyTuple_GET_SIZE(args) ? PyTuple_GET_ITEM(args, 0) : NULL;
    if (kw && !cls)
        cls = PyDict_GetItemString(kw, "cls");
    if (!cls || !PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &NimberBaseType)) {
        PyErr_SetString(PyExc_TypeError, "cls must be a subclass of NimberBase");
        return NULL;
    }
    if (set_callables(args, kw, names, slots, 3) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *m_make(PyObject *self, PyObject *v)
{
    Py_INCREF(v);
    return make_nimber(v);
}

static int two_elems(PyObject *a, PyObject *b, Elem *x, Elem *y)
{
    int rc = from_value(a, x);
    if (!rc && b)
        rc = from_value(b, y);
    return rc;
}

/* elem_mul(x, y): the engine's product of two elements (dicts), as a dict. */
static PyObject *m_elem_mul(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "elem_mul(x, y)");
        return NULL;
    }
    Elem x, y, z;
    elem_init(&x);
    elem_init(&y);
    elem_init(&z);
    PyObject *res = NULL;
    int rc = two_elems(args[0], args[1], &x, &y);
    if (!rc) {
        enter();
        rc = x.n <= y.n ? elem_mul(&x, &y, &z) : elem_mul(&y, &x, &z);
        leave();
    }
    if (!rc)
        res = to_dict(&z);
    else if (rc == BIG && g_py_mul)
        res = PyObject_Vectorcall(g_py_mul, args, 2, NULL);
    else if (rc == BIG)
        PyErr_SetString(PyExc_RuntimeError, "setup_engine() has not been called");
    elem_free(&x);
    elem_free(&y);
    elem_free(&z);
    return res;
}

static PyObject *m_elem_square(PyObject *self, PyObject *x_obj)
{
    Elem x, z;
    elem_init(&x);
    elem_init(&z);
    PyObject *res = NULL;
    int rc = from_value(x_obj, &x);
    if (!rc) {
        enter();
        rc = elem_square(&x, &z);
        leave();
    }
    if (!rc)
        res = to_dict(&z);
    else if (rc == BIG && g_py_square)
        res = PyObject_CallOneArg(g_py_square, x_obj);
    else if (rc == BIG)
        PyErr_SetString(PyExc_RuntimeError, "setup_engine() has not been called");
    elem_free(&x);
    elem_free(&z);
    return res;
}

/* The dict of an element operation's result, None for BIG (the Python path), NULL on error. */
static PyObject *elem_result(int rc, const Elem *r)
{
    if (!rc)
        return to_dict(r);
    if (rc == BIG)
        Py_RETURN_NONE;
    return NULL;
}

/* elem_frobenius(x, m): x^(2^m); None when the Python path is needed. */
static PyObject *m_elem_frobenius(PyObject *self, PyObject *args)
{
    PyObject *x_obj;
    long long m;
    if (!PyArg_ParseTuple(args, "OL", &x_obj, &m))
        return NULL;
    Elem x, z;
    elem_init(&x);
    elem_init(&z);
    int rc = from_value(x_obj, &x);
    if (!rc) {
        enter();
        for (long long i = 0; i < m && !rc; i++) {
            rc = tick();
            if (!rc)
                rc = elem_square(&x, &z);
            elem_swap(&x, &z);
        }
        leave();
    }
    PyObject *res = elem_result(rc, &x);
    elem_free(&x);
    elem_free(&z);
    return res;
}

/* elem_pow(x, n): x^n for 1 <= n < 2^63 by square and multiply; None for the Python path. */
static PyObject *m_elem_pow(PyObject *self, PyObject *args)
{
    PyObject *x_obj;
    unsigned long long n;
    if (!PyArg_ParseTuple(args, "OK", &x_obj, &n))
        return NULL;
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "elem_pow: n must be >= 1");
        return NULL;
    }
    Elem x, r, t;
    elem_init(&x);
    elem_init(&r);
    elem_init(&t);
    int rc = from_value(x_obj, &x);
    if (!rc) {
        int top = 63;
        while (!((n >> top) & 1))
            top--;
        rc = elem_reserve(&r, x.n);
        if (!rc) {
            memcpy(r.id, x.id, (size_t)x.n * sizeof(int64_t));
            memcpy(r.c, x.c, (size_t)x.n * sizeof(uint64_t));
            r.n = x.n;
        }
        enter();
        for (int bit = top - 1; bit >= 0 && !rc; bit--) {
            rc = tick();
            if (!rc)
                rc = elem_square(&r, &t);
            elem_swap(&r, &t);
            if (!rc && ((n >> bit) & 1)) {
                rc = r.n <= x.n ? elem_mul(&r, &x, &t) : elem_mul(&x, &r, &t);
                elem_swap(&r, &t);
            }
        }
        leave();
    }
    PyObject *res = elem_result(rc, &r);
    elem_free(&x);
    elem_free(&r);
    elem_free(&t);
    return res;
}

/* Elementwise products / sums of two equally long lists of Nimbers. */
static PyObject *map2(PyObject *args, binaryfunc f)
{
    PyObject *a, *b;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &a, &PyList_Type, &b))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(a);
    if (PyList_GET_SIZE(b) != n) {
        PyErr_SetString(PyExc_ValueError, "lists of different lengths");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) /* only Nimbers here: None sends the caller elsewhere */
        if (!g_cls || !is_nimber(PyList_GET_ITEM(a, i)) || !is_nimber(PyList_GET_ITEM(b, i)))
            Py_RETURN_NONE;
    PyObject *out = PyList_New(n);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = f(PyList_GET_ITEM(a, i), PyList_GET_ITEM(b, i));
        if (!r) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, r);
    }
    return out;
}

static PyObject *m_mul_lists(PyObject *self, PyObject *args) { return map2(args, nimber_mul); }
static PyObject *m_add_lists(PyObject *self, PyObject *args) { return map2(args, nimber_add); }

static PyObject *m_nim_mul64(PyObject *self, PyObject *args)
{
    unsigned long long a, b;
    if (!PyArg_ParseTuple(args, "KK", &a, &b))
        return NULL;
    return PyLong_FromUnsignedLongLong(cm(a, b));
}

/* set_check(f): call f() (no arguments) every TICK_CHECK terms of element arithmetic; an
   exception it raises stops the operation and propagates. None removes it. Returns the
   previous callback (None if there was none), so that budgets nest. */
static PyObject *m_set_check(PyObject *self, PyObject *f)
{
    if (f != Py_None && !PyCallable_Check(f)) {
        PyErr_SetString(PyExc_TypeError, "set_check(f): f must be callable or None");
        return NULL;
    }
    PyObject *old = g_check ? g_check : Py_None;
    Py_INCREF(old);
    if (f == Py_None) {
        Py_CLEAR(g_check);
    } else {
        Py_INCREF(f);
        Py_XSETREF(g_check, f);
    }
    return old;
}

static PyObject *m_stats(PyObject *self, PyObject *unused)
{
    return Py_BuildValue("{sn,sn,sn}", "cached_products", (Py_ssize_t)mc_used, "pool_terms",
                         (Py_ssize_t)pool_n, "misses", mono_misses);
}

static PyObject *m_clear(PyObject *self, PyObject *unused)
{
    if (depth) {
        PyErr_SetString(PyExc_RuntimeError, "clear() inside an element operation");
        return NULL;
    }
    mono_clear();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup_engine", (PyCFunction)(void (*)(void))m_setup_engine, METH_VARARGS | METH_KEYWORDS,
     "setup_engine(mono_mul, py_mul, py_square, alpha): bind the Python kappa/alpha engine."},
    {"intern_key", m_intern_key, METH_VARARGS, "intern_key(low, K, top): the id of a monomial key."},
    {"key_count", m_key_count, METH_NOARGS, "The number of monomial ids made so far."},
    {"key_parts", m_key_parts, METH_VARARGS, "key_parts(start[, stop]): (K, low, top) of the ids from start on (to stop)."},
    {"setup_nimber", (PyCFunction)(void (*)(void))m_setup_nimber, METH_VARARGS | METH_KEYWORDS,
     "setup_nimber(cls, slow_add, slow_mul): bind the Nimber class and its Python paths."},
    {"make", m_make, METH_O, "make(v): a Nimber holding the internal value v (not checked)."},
    {"elem_mul", (PyCFunction)(void (*)(void))m_elem_mul, METH_FASTCALL, "elem_mul(x, y): x (x) y of engine elements."},
    {"elem_square", m_elem_square, METH_O, "elem_square(x): x (x) x of an engine element."},
    {"elem_frobenius", m_elem_frobenius, METH_VARARGS, "elem_frobenius(x, m): x^(2^m), or None (Python path)."},
    {"elem_pow", m_elem_pow, METH_VARARGS, "elem_pow(x, n): x^n for 1 <= n < 2^64, or None (Python path)."},
    {"mul_lists", m_mul_lists, METH_VARARGS, "mul_lists(a, b): [x * y for x, y in zip(a, b)] for lists of Nimbers, else None."},
    {"add_lists", m_add_lists, METH_VARARGS, "add_lists(a, b): [x + y for x, y in zip(a, b)] for lists of Nimbers, else None."},
    {"nim_mul64", m_nim_mul64, METH_VARARGS, "nim_mul64(a, b): the nim-product of a, b < 2^64."},
    {"set_check", m_set_check, METH_O, "set_check(f): call f() every so many terms (it may raise to stop); returns the previous f."},
    {"stats", m_stats, METH_NOARGS, "Sizes of the monomial product cache."},
    {"clear", m_clear, METH_NOARGS, "Empty the monomial product cache."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_nimc", "Compiled core of cgtalg's ordinal nimber arithmetic.", -1, methods,
};

PyMODINIT_FUNC PyInit__nimc(void)
{
    build_t8();
    if (PyType_Ready(&NimberBaseType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m)
        return NULL;
    Py_INCREF(&NimberBaseType);
    if (PyModule_AddObject(m, "NimberBase", (PyObject *)&NimberBaseType) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_HASH", CGTALG_NIMC_SOURCE_HASH) < 0 ||
        PyModule_AddIntConstant(m, "ABI", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
