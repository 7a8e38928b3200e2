/*
 * _nimc_mono.c: the monomials of Lenstra's kappa/alpha engine: the memoised table of monomial
 * products, the monomial keys interned here, the products of monomials computed by the
 * kappa/alpha reduction rules, and the products and squares of elements built on them.
 */
#include "_nimc.h"

/* ------------------------------------------------------------------------------------------ */
/* Monomial products, memoised                                                                 */
/* ------------------------------------------------------------------------------------------ */

PyObject *g_mono_mul = NULL;   /* engine.mono_mul(ia, ib) -> ((id, coeff), ...) */
PyObject *g_py_mul = NULL;     /* the Python engine's mul (the reference) */
PyObject *g_py_square = NULL;  /* the Python engine's square */

#define POOL_LIMIT (1 << 21)
static uint64_t *mc_key = NULL; /* 0: empty; else (ia << 32 | ib), ia <= ib, ia >= 1 */
static uint32_t *mc_off = NULL, *mc_len = NULL;
size_t mc_mask = 0, mc_used = 0;
static int64_t *pool_id = NULL;
static uint64_t *pool_c = NULL;
size_t pool_n = 0, pool_cap = 0;
int depth = 0; /* nesting of element operations (mono_mul may call back into them) */
Py_ssize_t mono_misses = 0;

void mono_clear(void)
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
int32_t *kk_K = NULL;
int64_t *kk_low = NULL;
uint32_t *kk_off = NULL, *kk_len = NULL;
size_t kk_n = 0, kk_cap = 0;
uint32_t *kd = NULL; /* the digits of every key */
static size_t kd_n = 0, kd_cap = 0;
static int64_t *kh = NULL; /* intern table: id, or -1 for empty */
static size_t kh_mask = 0;
static uint32_t *primes = NULL; /* the odd primes 3, 5, 7, ... */
static size_t primes_n = 0, primes_cap = 0;
PyObject *g_alpha = NULL; /* engine.alpha_elem(k) -> alpha_{p_k} as a dict */
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
int keys_reset(void)
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
int64_t key_intern(int64_t low, int32_t K, const uint32_t *d, size_t n)
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

void enter(void)
{
    if (depth == 0) {
        stopped = 0;
        if (pool_n > POOL_LIMIT)
            mono_clear(); /* only between top-level operations: inner ones hold pool offsets */
    }
    depth++;
}

void leave(void) { depth--; }

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
int elem_mul(const Elem *x, const Elem *y, Elem *out)
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
int elem_square(const Elem *x, Elem *out)
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
