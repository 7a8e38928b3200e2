/*
 * _quotc: the compiled searches of cgtalg's misère-quotient construction.
 *
 * cgtalg.misere.pretension holds the reference (Python) implementation of each search and the
 * proofs; this module runs the same searches in C, with the same results (cross-checked in
 * tests/test_quotient_kernel.py). cgtalg.misere.quotient_kernel loads it and wraps it.
 *
 * A monoid is read through "columns": a C-contiguous int32 matrix `cols` (one row per element
 * z that is needed) and `colmap` (int32, length m: the row of z, or -1), so that x*z is
 * cols[colmap[z]][x]. For a full multiplication table, cols is the table and colmap the
 * identity (the monoid is commutative, so row z is column z).
 *
 * Every search walks the positions (words: exponent vectors over a list of heaps) depth first
 * in increasing *colex* order: a word is smaller when it has fewer copies of the largest heap
 * where two words differ (compare the count of the largest heap first, then the next). This
 * is a monomial order (w < w' implies w + u < w' + u), which is what makes the prunings below
 * exact (see cgtalg.misere.pretension). The walk is an odometer: the largest heap is the most
 * significant digit, and a digit is increased until its state is pruned.
 *
 *   least_words: the first visit of each element is its least word (prune: element seen).
 *   mark_p:      the P-portion of a candidate from the least words' option images.
 *   p_check:     the P-condition, per heap the failing element of least rank.
 *   nsearch:     the N-condition over pairs (x, T), keeping per element the inclusion-minimal
 *                option-image sets T (bitsets, in a Kept object) and pruning a state whose set
 *                contains a kept one; the first failure met is the least one.
 *   compatible:  the elements x with the right P-status that satisfy the P-condition for one
 *                new heap with option images S (no z with xz in P and sz in P, s in S).
 *
 * Interruption: every TICK_SIGNALS states PyErr_CheckSignals() (Ctrl-C, signal.alarm), every
 * TICK_CHECK states the budget callback `check` (cgtalg.budget.Deadline.check); either raising
 * stops the search with the exception set, after freeing what it allocated.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#ifndef CGTALG_QUOTC_SOURCE_HASH
#define CGTALG_QUOTC_SOURCE_HASH ""
#endif

#define TICK_SIGNALS 1024u
#define TICK_CHECK 4096u

typedef struct {
    PyObject *check;          /* callable or NULL */
    uint64_t ticks, next_sig, next_check;
} Ticker;

static int tick_slow(Ticker *tk)
{
    tk->next_sig = tk->ticks + TICK_SIGNALS;
    if (PyErr_CheckSignals() < 0)
        return -1;
    if (tk->check && tk->ticks >= tk->next_check) {
        tk->next_check = tk->ticks + TICK_CHECK;
        PyObject *r = PyObject_CallNoArgs(tk->check);
        if (!r)
            return -1;
        Py_DECREF(r);
    }
    return 0;
}

static inline int tick(Ticker *tk)
{
    tk->ticks++;
    return tk->ticks < tk->next_sig ? 0 : tick_slow(tk);
}

static void ticker_init(Ticker *tk, PyObject *check)
{
    tk->check = (check && check != Py_None) ? check : NULL;
    tk->ticks = 0;
    tk->next_sig = TICK_SIGNALS;
    tk->next_check = TICK_CHECK;
}

/* ------------------------------------------------------------------------------------------ */
/* Reading arguments                                                                            */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    Py_buffer cb, mb;
    const int32_t *cols, *colmap;
    Py_ssize_t rows;
    int m;
    int have_c, have_m;
} Monoid;

static void monoid_release(Monoid *M)
{
    if (M->have_c)
        PyBuffer_Release(&M->cb);
    if (M->have_m)
        PyBuffer_Release(&M->mb);
    M->have_c = M->have_m = 0;
}

static int monoid_get(Monoid *M, PyObject *cols, PyObject *colmap)
{
    memset(M, 0, sizeof(*M));
    if (PyObject_GetBuffer(cols, &M->cb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0)
        return -1;
    M->have_c = 1;
    if (PyObject_GetBuffer(colmap, &M->mb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0) {
        monoid_release(M);
        return -1;
    }
    M->have_m = 1;
    if (M->cb.itemsize != 4 || M->mb.itemsize != 4 || M->cb.ndim != 2 || M->mb.ndim != 1) {
        PyErr_SetString(PyExc_TypeError, "cols must be a 2-d int32 array and colmap a 1-d int32 array");
        monoid_release(M);
        return -1;
    }
    M->m = (int)M->mb.shape[0];
    M->rows = M->cb.shape[0];
    if (M->cb.shape[1] != M->m) {
        PyErr_SetString(PyExc_ValueError, "cols rows must have one entry per element");
        monoid_release(M);
        return -1;
    }
    M->cols = (const int32_t *)M->cb.buf;
    M->colmap = (const int32_t *)M->mb.buf;
    return 0;
}

/* the column of z (x -> x*z), or NULL with an exception when z is not available */
static const int32_t *column(Monoid *M, long z)
{
    if (z < 0 || z >= M->m || M->colmap[z] < 0 || M->colmap[z] >= M->rows) {
        PyErr_Format(PyExc_ValueError, "no column for element %ld", z);
        return NULL;
    }
    return M->cols + (Py_ssize_t)M->colmap[z] * M->m;
}

/* An edge: one heap with its image g and the images S of its options. */
typedef struct {
    long heap;
    const int32_t *gcol;
    int ns;
    const int32_t **scols;
    int32_t *svals;
} Edge;

static void edges_free(Edge *E, int k)
{
    if (!E)
        return;
    for (int i = 0; i < k; i++) {
        free(E[i].scols);
        free(E[i].svals);
    }
    free(E);
}

/* edges: a sequence of (heap, g, S) with S a sequence of elements */
static Edge *edges_get(Monoid *M, PyObject *seq, int *k_out)
{
    PyObject *fast = PySequence_Fast(seq, "edges must be a sequence");
    if (!fast)
        return NULL;
    int k = (int)PySequence_Fast_GET_SIZE(fast);
    Edge *E = calloc(k > 0 ? k : 1, sizeof(Edge));
    if (!E) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (int i = 0; i < k; i++) {
        PyObject *it = PySequence_Fast_GET_ITEM(fast, i);
        PyObject *S;
        long h, g;
        if (!PyArg_ParseTuple(it, "llO", &h, &g, &S))
            goto fail;
        E[i].heap = h;
        if (!(E[i].gcol = column(M, g)))
            goto fail;
        PyObject *sf = PySequence_Fast(S, "S must be a sequence");
        if (!sf)
            goto fail;
        int ns = (int)PySequence_Fast_GET_SIZE(sf);
        E[i].ns = ns;
        E[i].scols = calloc(ns > 0 ? ns : 1, sizeof(int32_t *));
        E[i].svals = calloc(ns > 0 ? ns : 1, sizeof(int32_t));
        if (!E[i].scols || !E[i].svals) {
            Py_DECREF(sf);
            PyErr_NoMemory();
            goto fail;
        }
        for (int j = 0; j < ns; j++) {
            long s = PyLong_AsLong(PySequence_Fast_GET_ITEM(sf, j));
            if (s == -1 && PyErr_Occurred()) {
                Py_DECREF(sf);
                goto fail;
            }
            E[i].svals[j] = (int32_t)s;
            if (!(E[i].scols[j] = column(M, s))) {
                Py_DECREF(sf);
                goto fail;
            }
        }
        Py_DECREF(sf);
    }
    Py_DECREF(fast);
    *k_out = k;
    return E;
fail:
    Py_DECREF(fast);
    edges_free(E, k);
    return NULL;
}

static int bytes_of_len(PyObject *o, Py_buffer *b, Py_ssize_t n, const char *what)
{
    if (PyObject_GetBuffer(o, b, PyBUF_SIMPLE) < 0)
        return -1;
    if (b->len != n) {
        PyErr_Format(PyExc_ValueError, "%s must have %zd bytes (got %zd)", what, n, b->len);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Kept: per element, the inclusion-minimal option-image sets met (bitsets)                     */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    int m, W;
    int *cnt, *cap;
    uint64_t **bits; /* per element: cap * W words */
    uint64_t **sig;  /* per element: cap signatures (OR of the words) */
    Py_ssize_t total;
} KeptObject;

static PyTypeObject KeptType;

static void kept_clear_arrays(KeptObject *K)
{
    if (K->bits) {
        for (int x = 0; x < K->m; x++) {
            free(K->bits[x]);
            free(K->sig[x]);
        }
    }
    free(K->bits);
    free(K->sig);
    free(K->cnt);
    free(K->cap);
    K->bits = NULL;
    K->sig = NULL;
    K->cnt = K->cap = NULL;
}

static int kept_alloc(KeptObject *K, int m)
{
    K->m = m;
    K->W = (m + 63) / 64;
    K->total = 0;
    K->cnt = calloc(m, sizeof(int));
    K->cap = calloc(m, sizeof(int));
    K->bits = calloc(m, sizeof(uint64_t *));
    K->sig = calloc(m, sizeof(uint64_t *));
    if (!K->cnt || !K->cap || !K->bits || !K->sig) {
        kept_clear_arrays(K);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Kept_dealloc(KeptObject *K)
{
    kept_clear_arrays(K);
    Py_TYPE(K)->tp_free((PyObject *)K);
}

static PyObject *Kept_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    int m;
    if (!PyArg_ParseTuple(args, "i", &m))
        return NULL;
    if (m < 1) {
        PyErr_SetString(PyExc_ValueError, "Kept needs an order >= 1");
        return NULL;
    }
    KeptObject *K = (KeptObject *)type->tp_alloc(type, 0);
    if (!K)
        return NULL;
    if (kept_alloc(K, m) < 0) {
        Py_DECREF(K);
        return NULL;
    }
    return (PyObject *)K;
}

static inline int subset(const uint64_t *a, const uint64_t *b, int W)
{
    for (int i = 0; i < W; i++)
        if (a[i] & ~b[i])
            return 0;
    return 1;
}

/* 1: T was added (no kept set of x is contained in it; kept supersets removed), 0: covered,
   -1: out of memory */
static int kept_insert(KeptObject *K, int x, const uint64_t *T, uint64_t sg)
{
    int W = K->W, n = K->cnt[x];
    uint64_t *bs = K->bits[x], *sv = K->sig[x];
    for (int i = 0; i < n; i++)
        if (!(sv[i] & ~sg) && subset(bs + (Py_ssize_t)i * W, T, W))
            return 0;
    for (int i = 0; i < n;) {
        if (!(sg & ~sv[i]) && subset(T, bs + (Py_ssize_t)i * W, W)) {
            n--;
            if (i != n) {
                memcpy(bs + (Py_ssize_t)i * W, bs + (Py_ssize_t)n * W, W * sizeof(uint64_t));
                sv[i] = sv[n];
            }
            K->total--;
        } else {
            i++;
        }
    }
    if (n == K->cap[x]) {
        int nc = K->cap[x] ? 2 * K->cap[x] : 4;
        uint64_t *nb = realloc(bs, (size_t)nc * W * sizeof(uint64_t));
        if (!nb)
            return -1;
        K->bits[x] = bs = nb;
        uint64_t *ns = realloc(sv, (size_t)nc * sizeof(uint64_t));
        if (!ns)
            return -1;
        K->sig[x] = sv = ns;
        K->cap[x] = nc;
    }
    memcpy(bs + (Py_ssize_t)n * W, T, W * sizeof(uint64_t));
    sv[n] = sg;
    K->cnt[x] = n + 1;
    K->total++;
    return 1;
}

/* whether some kept set of x is contained in T */
static int kept_covered(const KeptObject *K, int x, const uint64_t *T, uint64_t sg)
{
    int W = K->W, n = K->cnt[x];
    const uint64_t *bs = K->bits[x], *sv = K->sig[x];
    for (int i = 0; i < n; i++)
        if (!(sv[i] & ~sg) && subset(bs + (Py_ssize_t)i * W, T, W))
            return 1;
    return 0;
}

/* merge(other): insert every set of other (same order) */
static PyObject *Kept_merge(KeptObject *K, PyObject *arg);

static PyObject *Kept_copy(KeptObject *K, PyObject *noargs)
{
    KeptObject *C = (KeptObject *)KeptType.tp_alloc(&KeptType, 0);
    if (!C)
        return NULL;
    if (kept_alloc(C, K->m) < 0) {
        Py_DECREF(C);
        return NULL;
    }
    for (int x = 0; x < K->m; x++) {
        int n = K->cnt[x];
        if (!n)
            continue;
        C->bits[x] = malloc((size_t)n * K->W * sizeof(uint64_t));
        C->sig[x] = malloc((size_t)n * sizeof(uint64_t));
        if (!C->bits[x] || !C->sig[x]) {
            Py_DECREF(C);
            return PyErr_NoMemory();
        }
        memcpy(C->bits[x], K->bits[x], (size_t)n * K->W * sizeof(uint64_t));
        memcpy(C->sig[x], K->sig[x], (size_t)n * sizeof(uint64_t));
        C->cnt[x] = C->cap[x] = n;
    }
    C->total = K->total;
    return (PyObject *)C;
}

static PyObject *Kept_merge(KeptObject *K, PyObject *arg)
{
    if (!PyObject_TypeCheck(arg, &KeptType)) {
        PyErr_SetString(PyExc_TypeError, "merge wants a Kept");
        return NULL;
    }
    KeptObject *O = (KeptObject *)arg;
    if (O->m != K->m) {
        PyErr_SetString(PyExc_ValueError, "kept sets of another order");
        return NULL;
    }
    for (int x = 0; x < O->m; x++)
        for (int i = 0; i < O->cnt[x]; i++)
            if (kept_insert(K, x, O->bits[x] + (Py_ssize_t)i * O->W, O->sig[x][i]) < 0)
                return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* covering(x, S): whether some kept set of x is contained in the set S (a sequence) */
static PyObject *Kept_covering(KeptObject *K, PyObject *args)
{
    int x;
    PyObject *S;
    if (!PyArg_ParseTuple(args, "iO", &x, &S))
        return NULL;
    if (x < 0 || x >= K->m) {
        PyErr_SetString(PyExc_ValueError, "element out of range");
        return NULL;
    }
    PyObject *sf = PySequence_Fast(S, "S must be a sequence");
    if (!sf)
        return NULL;
    uint64_t *T = calloc(K->W, sizeof(uint64_t));
    if (!T) {
        Py_DECREF(sf);
        return PyErr_NoMemory();
    }
    uint64_t sg = 0;
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(sf); j++) {
        long s = PyLong_AsLong(PySequence_Fast_GET_ITEM(sf, j));
        if (s < 0 || s >= K->m) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "element out of range");
            free(T);
            Py_DECREF(sf);
            return NULL;
        }
        T[s >> 6] |= (uint64_t)1 << (s & 63);
        sg |= (uint64_t)1 << (s & 63);
    }
    Py_DECREF(sf);
    int found = 0;
    for (int i = 0; i < K->cnt[x] && !found; i++)
        if (!(K->sig[x][i] & ~sg) && subset(K->bits[x] + (Py_ssize_t)i * K->W, T, K->W))
            found = 1;
    free(T);
    return PyBool_FromLong(found);
}

/* sets(x): the kept sets of x, as a list of sorted tuples */
static PyObject *Kept_sets(KeptObject *K, PyObject *args)
{
    int x;
    if (!PyArg_ParseTuple(args, "i", &x))
        return NULL;
    if (x < 0 || x >= K->m) {
        PyErr_SetString(PyExc_ValueError, "element out of range");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (!out)
        return NULL;
    for (int i = 0; i < K->cnt[x]; i++) {
        const uint64_t *b = K->bits[x] + (Py_ssize_t)i * K->W;
        PyObject *lst = PyList_New(0);
        if (!lst)
            goto fail;
        for (int e = 0; e < K->m; e++)
            if (b[e >> 6] >> (e & 63) & 1) {
                PyObject *v = PyLong_FromLong(e);
                if (!v || PyList_Append(lst, v) < 0) {
                    Py_XDECREF(v);
                    Py_DECREF(lst);
                    goto fail;
                }
                Py_DECREF(v);
            }
        PyObject *tup = PyList_AsTuple(lst);
        Py_DECREF(lst);
        if (!tup || PyList_Append(out, tup) < 0) {
            Py_XDECREF(tup);
            goto fail;
        }
        Py_DECREF(tup);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyObject *Kept_get_order(KeptObject *K, void *c) { return PyLong_FromLong(K->m); }
static PyObject *Kept_get_total(KeptObject *K, void *c) { return PyLong_FromSsize_t(K->total); }
static PyObject *Kept_get_nbytes(KeptObject *K, void *c)
{
    Py_ssize_t b = 0;
    for (int x = 0; x < K->m; x++)
        b += (Py_ssize_t)K->cap[x] * (K->W + 1) * 8;
    return PyLong_FromSsize_t(b);
}

static PyMethodDef Kept_methods[] = {
    {"copy", (PyCFunction)Kept_copy, METH_NOARGS, "An independent copy."},
    {"merge", (PyCFunction)Kept_merge, METH_O,
     "merge(other): add the sets of other (removing the sets that contain one of them)."},
    {"covering", (PyCFunction)Kept_covering, METH_VARARGS,
     "covering(x, S): whether some kept set of element x is contained in S."},
    {"sets", (PyCFunction)Kept_sets, METH_VARARGS, "sets(x): the kept sets of x (sorted tuples)."},
    {NULL}};

static PyGetSetDef Kept_getset[] = {
    {"order", (getter)Kept_get_order, NULL, "the order of the monoid", NULL},
    {"total", (getter)Kept_get_total, NULL, "how many sets are kept", NULL},
    {"nbytes", (getter)Kept_get_nbytes, NULL, "bytes allocated for the sets", NULL},
    {NULL}};

static PyTypeObject KeptType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cgtalg.misere._quotc.Kept",
    .tp_basicsize = sizeof(KeptObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Kept(order): per element, the inclusion-minimal option-image sets of an N-search.",
    .tp_new = Kept_new,
    .tp_dealloc = (destructor)Kept_dealloc,
    .tp_methods = Kept_methods,
    .tp_getset = Kept_getset,
};

/* ------------------------------------------------------------------------------------------ */
/* The N-condition search                                                                       */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    int32_t *list; /* elements of T */
    int len;
    uint64_t *bits;
    uint64_t sig;
    int elem;
    int hasp; /* T meets P */
} State;

typedef struct {
    Monoid *M;
    Edge *E;
    int k, m, W;
    const unsigned char *P;
    KeptObject *K;
    KeptObject *seeds; /* read-only kept sets that also prune (NULL: none) */
    State *lev, *tmp; /* per level: current state; tmp: one per level (swap) */
    long *cnt;        /* count per edge */
    /* limit (colex), over all heaps 0..nh-1: counts */
    long *limit;      /* NULL: none */
    long nh;
    long *edge_of_heap;
    Ticker tk;
    long long states, max_states;
    int top_only;
    int result; /* 0 none, 1 failure found, 2 limit reached, 3 states exceeded */
} NCtx;

/* the state s' = s + heap of edge e, into out */
static void nstep(NCtx *c, const State *s, int e, State *out)
{
    const Edge *E = &c->E[e];
    const int32_t *g = E->gcol;
    const unsigned char *P = c->P;
    int W = c->W, len = 0, hasp = 0;
    uint64_t sig = 0;
    memset(out->bits, 0, W * sizeof(uint64_t));
    for (int i = 0; i < s->len; i++) {
        int32_t z = g[s->list[i]];
        uint64_t bit = (uint64_t)1 << (z & 63);
        if (!(out->bits[z >> 6] & bit)) {
            out->bits[z >> 6] |= bit;
            out->list[len++] = z;
            sig |= bit;
            hasp |= P[z];
        }
    }
    int y = s->elem;
    for (int j = 0; j < E->ns; j++) {
        int32_t z = E->scols[j][y];
        uint64_t bit = (uint64_t)1 << (z & 63);
        if (!(out->bits[z >> 6] & bit)) {
            out->bits[z >> 6] |= bit;
            out->list[len++] = z;
            sig |= bit;
            hasp |= P[z];
        }
    }
    out->len = len;
    out->sig = sig;
    out->hasp = hasp;
    out->elem = g[y];
}

/* -1 word < limit, 0 equal, 1 greater */
static int cmp_limit(NCtx *c)
{
    for (long h = c->nh - 1; h >= 0; h--) {
        long e = c->edge_of_heap[h];
        long a = e >= 0 ? c->cnt[e] : 0, b = c->limit[h];
        if (a != b)
            return a < b ? -1 : 1;
    }
    return 0;
}

/* explore digit d (and lower) from state s (digits > d set, digits <= d zero) */
static int nexplore(NCtx *c, int d, const State *s)
{
    if (d < 0)
        return 0;
    int r;
    if (!(c->top_only && d == c->k - 1)) {
        if ((r = nexplore(c, d - 1, s)))
            return r;
    }
    if (c->E[d].ns == 0)
        return 0;
    const State *cur = s;
    State *a = &c->lev[d], *b = &c->tmp[d];
    for (;;) {
        nstep(c, cur, d, a);
        c->cnt[d]++;
        if (tick(&c->tk) < 0) {
            c->cnt[d] = 0;
            return -1;
        }
        if (c->limit && cmp_limit(c) >= 0) {
            c->result = 2;
            return 2;
        }
        if (++c->states > c->max_states) {
            c->result = 3;
            return 3;
        }
        if (c->seeds && kept_covered(c->seeds, a->elem, a->bits, a->sig))
            break;
        int ins = kept_insert(c->K, a->elem, a->bits, a->sig);
        if (ins < 0) {
            PyErr_NoMemory();
            return -1;
        }
        if (ins == 0)
            break;
        if (!c->P[a->elem] && !a->hasp) {
            c->result = 1;
            return 1;
        }
        if ((r = nexplore(c, d - 1, a)))
            return r;
        /* swap buffers: the next state is built from a into b */
        cur = a;
        State *t = a;
        a = b;
        b = t;
    }
    c->cnt[d] = 0;
    return 0;
}

/*
 * nsearch(cols, colmap, P, edges, kept, limit, max_states, top_only, check[, seeds])
 *   edges: (heap, g, S) in increasing heap order (S nonempty for a searched edge).
 *   kept: a Kept (filled in place; it may hold the sets of an earlier search: seeds).
 *   seeds: None or a Kept that prunes too but is not modified.
 *   limit: None or a tuple of counts per heap 0..nheaps-1: stop at the first word >= it.
 * Returns (status, counts, states): status 0 no failure, 1 failure (counts per edge), 2 limit
 * reached, 3 max_states exceeded.
 */
static PyObject *py_nsearch(PyObject *self, PyObject *args)
{
    PyObject *cols, *colmap, *Pobj, *edges, *keptobj, *limit, *check, *seedobj = Py_None;
    long long max_states;
    int top_only;
    if (!PyArg_ParseTuple(args, "OOOOO!OLpO|O", &cols, &colmap, &Pobj, &edges, &KeptType, &keptobj,
                          &limit, &max_states, &top_only, &check, &seedobj))
        return NULL;
    if (seedobj != Py_None && !PyObject_TypeCheck(seedobj, &KeptType)) {
        PyErr_SetString(PyExc_TypeError, "seeds must be a Kept or None");
        return NULL;
    }
    Monoid M;
    if (monoid_get(&M, cols, colmap) < 0)
        return NULL;
    Py_buffer Pb;
    if (bytes_of_len(Pobj, &Pb, M.m, "P") < 0) {
        monoid_release(&M);
        return NULL;
    }
    NCtx c;
    memset(&c, 0, sizeof(c));
    PyObject *ret = NULL;
    c.M = &M;
    c.m = M.m;
    c.W = (M.m + 63) / 64;
    c.P = Pb.buf;
    c.K = (KeptObject *)keptobj;
    c.seeds = seedobj == Py_None ? NULL : (KeptObject *)seedobj;
    if (c.K->m != M.m || (c.seeds && c.seeds->m != M.m)) {
        PyErr_SetString(PyExc_ValueError, "kept sets of another order");
        goto done;
    }
    if (!(c.E = edges_get(&M, edges, &c.k)))
        goto done;
    for (int i = 1; i < c.k; i++)
        if (c.E[i].heap <= c.E[i - 1].heap) {
            PyErr_SetString(PyExc_ValueError, "edges must be in increasing heap order");
            goto done;
        }
    c.lev = calloc(c.k + 1, sizeof(State));
    c.tmp = calloc(c.k + 1, sizeof(State));
    c.cnt = calloc(c.k + 1, sizeof(long));
    if (!c.lev || !c.tmp || !c.cnt) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < c.k; i++) {
        State *ss[2] = {&c.lev[i], &c.tmp[i]};
        for (int j = 0; j < 2; j++) {
            ss[j]->list = malloc((size_t)c.m * sizeof(int32_t));
            ss[j]->bits = malloc((size_t)c.W * sizeof(uint64_t));
            if (!ss[j]->list || !ss[j]->bits) {
                PyErr_NoMemory();
                goto done;
            }
        }
    }
    if (limit != Py_None) {
        PyObject *lf = PySequence_Fast(limit, "limit must be a sequence of counts");
        if (!lf)
            goto done;
        c.nh = (long)PySequence_Fast_GET_SIZE(lf);
        c.limit = calloc(c.nh + 1, sizeof(long));
        if (!c.limit) {
            Py_DECREF(lf);
            PyErr_NoMemory();
            goto done;
        }
        for (long h = 0; h < c.nh; h++) {
            c.limit[h] = PyLong_AsLong(PySequence_Fast_GET_ITEM(lf, h));
            if (c.limit[h] == -1 && PyErr_Occurred()) {
                Py_DECREF(lf);
                goto done;
            }
        }
        Py_DECREF(lf);
        c.edge_of_heap = malloc((c.nh + 1) * sizeof(long));
        if (!c.edge_of_heap) {
            PyErr_NoMemory();
            goto done;
        }
        for (long h = 0; h < c.nh; h++)
            c.edge_of_heap[h] = -1;
        for (int i = 0; i < c.k; i++) {
            if (c.E[i].heap >= c.nh) {
                PyErr_SetString(PyExc_ValueError, "limit shorter than the heaps of the edges");
                goto done;
            }
            c.edge_of_heap[c.E[i].heap] = i;
        }
    }
    ticker_init(&c.tk, check);
    c.max_states = max_states;
    c.top_only = top_only;
    {
        State root;
        int32_t dummy = 0;
        uint64_t zero = 0;
        root.list = &dummy;
        root.len = 0;
        root.bits = &zero;
        root.sig = 0;
        root.elem = 0;
        root.hasp = 0;
        int r = c.k ? nexplore(&c, c.k - 1, &root) : 0;
        if (r < 0)
            goto done;
        PyObject *counts = Py_None;
        Py_INCREF(Py_None);
        if (c.result == 1) {
            Py_DECREF(counts);
            counts = PyTuple_New(c.k);
            if (!counts)
                goto done;
            for (int i = 0; i < c.k; i++)
                PyTuple_SET_ITEM(counts, i, PyLong_FromLong(c.cnt[i]));
        }
        ret = Py_BuildValue("iNL", c.result, counts, (long long)c.states);
    }
done:
    if (c.lev)
        for (int i = 0; i < c.k; i++) {
            free(c.lev[i].list);
            free(c.lev[i].bits);
            free(c.tmp[i].list);
            free(c.tmp[i].bits);
        }
    free(c.lev);
    free(c.tmp);
    free(c.cnt);
    free(c.limit);
    free(c.edge_of_heap);
    edges_free(c.E, c.k);
    PyBuffer_Release(&Pb);
    monoid_release(&M);
    return ret;
}

/* ------------------------------------------------------------------------------------------ */
/* Least words and the P-marking of a candidate                                                 */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    Monoid *M;
    Edge *E;
    int k, m, W;
    int with_t; /* mark_p: carry option-image sets */
    unsigned char *seen, *P;
    int32_t *order, *parent, *via;
    int norder;
    State *lev, *tmp;
    Ticker tk;
    int bad; /* an option image not marked before its position */
} WCtx;

static void wstep(WCtx *c, const State *s, int e, State *out)
{
    const Edge *E = &c->E[e];
    const int32_t *g = E->gcol;
    out->elem = g[s->elem];
    if (!c->with_t)
        return;
    int W = c->W, len = 0;
    memset(out->bits, 0, W * sizeof(uint64_t));
    for (int i = 0; i < s->len; i++) {
        int32_t z = g[s->list[i]];
        uint64_t bit = (uint64_t)1 << (z & 63);
        if (!(out->bits[z >> 6] & bit)) {
            out->bits[z >> 6] |= bit;
            out->list[len++] = z;
        }
    }
    int y = s->elem;
    for (int j = 0; j < E->ns; j++) {
        int32_t z = E->scols[j][y];
        uint64_t bit = (uint64_t)1 << (z & 63);
        if (!(out->bits[z >> 6] & bit)) {
            out->bits[z >> 6] |= bit;
            out->list[len++] = z;
        }
    }
    out->len = len;
}

static int wexplore(WCtx *c, int d, const State *s)
{
    if (d < 0)
        return 0;
    int r;
    if ((r = wexplore(c, d - 1, s)))
        return r;
    const State *cur = s;
    State *a = &c->lev[d], *b = &c->tmp[d];
    for (;;) {
        wstep(c, cur, d, a);
        if (tick(&c->tk) < 0)
            return -1;
        int y = a->elem;
        if (c->seen[y])
            break;
        c->seen[y] = 1;
        c->order[c->norder++] = y;
        c->parent[y] = cur->elem;
        c->via[y] = (int32_t)d;
        if (c->with_t) {
            int p = 1;
            for (int i = 0; i < a->len; i++) {
                if (!c->seen[a->list[i]])
                    c->bad = 1;
                if (c->P[a->list[i]])
                    p = 0;
            }
            c->P[y] = (unsigned char)(a->len > 0 ? p : 0);
        }
        if ((r = wexplore(c, d - 1, a)))
            return r;
        cur = a;
        State *t = a;
        a = b;
        b = t;
    }
    return 0;
}

/*
 * walk(cols, colmap, edges, with_t, check) -> (order, parent, via, P)
 *   order: the elements in the order of their least words (first visits; int32 bytes);
 *   parent[y], via[y]: the least word of y is that of parent[y] plus the heap of edge via[y]
 *   (-1 for the identity and unreached elements); P: with_t, the outcome of each least word
 *   (bytes 0/1), else None.
 */
static PyObject *py_walk(PyObject *self, PyObject *args)
{
    PyObject *cols, *colmap, *edges, *check;
    int with_t;
    if (!PyArg_ParseTuple(args, "OOOpO", &cols, &colmap, &edges, &with_t, &check))
        return NULL;
    Monoid M;
    if (monoid_get(&M, cols, colmap) < 0)
        return NULL;
    WCtx c;
    memset(&c, 0, sizeof(c));
    PyObject *ret = NULL;
    c.M = &M;
    c.m = M.m;
    c.W = (M.m + 63) / 64;
    c.with_t = with_t;
    if (!(c.E = edges_get(&M, edges, &c.k)))
        goto done;
    c.seen = calloc(c.m, 1);
    c.P = calloc(c.m, 1);
    c.order = malloc(c.m * sizeof(int32_t));
    c.parent = malloc(c.m * sizeof(int32_t));
    c.via = malloc(c.m * sizeof(int32_t));
    c.lev = calloc(c.k + 1, sizeof(State));
    c.tmp = calloc(c.k + 1, sizeof(State));
    if (!c.seen || !c.P || !c.order || !c.parent || !c.via || !c.lev || !c.tmp) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < c.m; i++)
        c.parent[i] = c.via[i] = -1;
    if (with_t)
        for (int i = 0; i < c.k; i++) {
            State *ss[2] = {&c.lev[i], &c.tmp[i]};
            for (int j = 0; j < 2; j++) {
                ss[j]->list = malloc((size_t)c.m * sizeof(int32_t));
                ss[j]->bits = malloc((size_t)c.W * sizeof(uint64_t));
                if (!ss[j]->list || !ss[j]->bits) {
                    PyErr_NoMemory();
                    goto done;
                }
            }
        }
    ticker_init(&c.tk, check);
    {
        State root;
        int32_t dummy = 0;
        uint64_t zero = 0;
        root.list = &dummy;
        root.len = 0;
        root.bits = &zero;
        root.elem = 0;
        c.seen[0] = 1;
        c.order[c.norder++] = 0;
        if (c.k && wexplore(&c, c.k - 1, &root) < 0)
            goto done;
        if (c.bad) {
            PyErr_SetString(PyExc_AssertionError, "option image not marked before its position");
            goto done;
        }
        ret = Py_BuildValue("y#y#y#O", (char *)c.order, (Py_ssize_t)c.norder * 4, (char *)c.parent,
                            (Py_ssize_t)c.m * 4, (char *)c.via, (Py_ssize_t)c.m * 4, Py_None);
        if (ret && with_t) {
            PyObject *pb = PyBytes_FromStringAndSize((char *)c.P, c.m);
            if (!pb) {
                Py_CLEAR(ret);
                goto done;
            }
            PyTuple_SetItem(ret, 3, pb);
        }
    }
done:
    if (c.lev && with_t)
        for (int i = 0; i < c.k; i++) {
            free(c.lev[i].list);
            free(c.lev[i].bits);
            free(c.tmp[i].list);
            free(c.tmp[i].bits);
        }
    free(c.lev);
    free(c.tmp);
    free(c.seen);
    free(c.P);
    free(c.order);
    free(c.parent);
    free(c.via);
    edges_free(c.E, c.k);
    monoid_release(&M);
    return ret;
}

/* ------------------------------------------------------------------------------------------ */
/* The P-condition and the compatible elements                                                  */
/* ------------------------------------------------------------------------------------------ */

/*
 * p_check(cols, colmap, P, edges, rank) -> list: for each edge (heap, g, S), the element x of
 * least rank (rank: int32 bytes, -1 for elements that are not images) with x*g in P and some
 * x*s in P (s in S), or -1.
 */
static PyObject *py_p_check(PyObject *self, PyObject *args)
{
    PyObject *cols, *colmap, *Pobj, *edges, *rankobj;
    if (!PyArg_ParseTuple(args, "OOOOO", &cols, &colmap, &Pobj, &edges, &rankobj))
        return NULL;
    Monoid M;
    if (monoid_get(&M, cols, colmap) < 0)
        return NULL;
    Py_buffer Pb, Rb;
    if (bytes_of_len(Pobj, &Pb, M.m, "P") < 0) {
        monoid_release(&M);
        return NULL;
    }
    if (bytes_of_len(rankobj, &Rb, (Py_ssize_t)M.m * 4, "rank") < 0) {
        PyBuffer_Release(&Pb);
        monoid_release(&M);
        return NULL;
    }
    const unsigned char *P = Pb.buf;
    const int32_t *rank = Rb.buf;
    int k = 0;
    PyObject *out = NULL;
    Edge *E = edges_get(&M, edges, &k);
    if (!E)
        goto done;
    out = PyList_New(k);
    if (!out)
        goto done;
    for (int e = 0; e < k; e++) {
        int best = -1, bestr = 0;
        const int32_t *g = E[e].gcol;
        for (int x = 0; x < M.m; x++) {
            if (rank[x] < 0 || !P[g[x]] || (best >= 0 && rank[x] >= bestr))
                continue;
            for (int j = 0; j < E[e].ns; j++)
                if (P[E[e].scols[j][x]]) {
                    best = x;
                    bestr = rank[x];
                    break;
                }
        }
        PyList_SET_ITEM(out, e, PyLong_FromLong(best));
    }
done:
    edges_free(E, k);
    PyBuffer_Release(&Pb);
    PyBuffer_Release(&Rb);
    monoid_release(&M);
    return out;
}

/*
 * compatible(table, P, S, want_p) -> list of the elements x, in increasing order, with
 * P[x] == want_p and no z such that x*z in P and s*z in P for some s in S (the P-condition
 * for a heap with option images S mapped to x). table: the full m x m int32 table.
 */
static PyObject *py_compatible(PyObject *self, PyObject *args)
{
    PyObject *tobj, *Pobj, *S;
    int want_p;
    if (!PyArg_ParseTuple(args, "OOOp", &tobj, &Pobj, &S, &want_p))
        return NULL;
    Py_buffer tb, Pb;
    if (PyObject_GetBuffer(tobj, &tb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0)
        return NULL;
    if (tb.itemsize != 4 || tb.ndim != 2 || tb.shape[0] != tb.shape[1]) {
        PyBuffer_Release(&tb);
        PyErr_SetString(PyExc_TypeError, "table must be a square int32 array");
        return NULL;
    }
    int m = (int)tb.shape[0];
    if (bytes_of_len(Pobj, &Pb, m, "P") < 0) {
        PyBuffer_Release(&tb);
        return NULL;
    }
    const int32_t *t = tb.buf;
    const unsigned char *P = Pb.buf;
    PyObject *out = NULL;
    unsigned char *opt = calloc(m, 1);
    PyObject *sf = PySequence_Fast(S, "S must be a sequence");
    if (!opt || !sf) {
        if (!opt)
            PyErr_NoMemory();
        goto done;
    }
    /* opt[z]: some s*z in P */
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(sf); j++) {
        long s = PyLong_AsLong(PySequence_Fast_GET_ITEM(sf, j));
        if (s < 0 || s >= m) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "element out of range");
            goto done;
        }
        const int32_t *row = t + (Py_ssize_t)s * m;
        for (int z = 0; z < m; z++)
            opt[z] |= P[row[z]];
    }
    out = PyList_New(0);
    if (!out)
        goto done;
    for (int x = 0; x < m; x++) {
        if ((P[x] != 0) != (want_p != 0))
            continue;
        const int32_t *row = t + (Py_ssize_t)x * m;
        int ok = 1;
        for (int z = 0; z < m; z++)
            if (opt[z] && P[row[z]]) {
                ok = 0;
                break;
            }
        if (ok) {
            PyObject *v = PyLong_FromLong(x);
            if (!v || PyList_Append(out, v) < 0) {
                Py_XDECREF(v);
                Py_CLEAR(out);
                goto done;
            }
            Py_DECREF(v);
        }
    }
done:
    Py_XDECREF(sf);
    free(opt);
    PyBuffer_Release(&Pb);
    PyBuffer_Release(&tb);
    return out;
}

/*
 * images(cols, colmap, phi, options) -> list of sorted tuples: for each heap, the distinct
 * images of its options (an option is a tuple of heaps; its image the product of their phi).
 * Needs the columns of the phi values.
 */
static PyObject *py_images(PyObject *self, PyObject *args)
{
    PyObject *cols, *colmap, *phi, *options;
    if (!PyArg_ParseTuple(args, "OOOO", &cols, &colmap, &phi, &options))
        return NULL;
    Monoid M;
    if (monoid_get(&M, cols, colmap) < 0)
        return NULL;
    int m = M.m;
    PyObject *out = NULL, *pf = NULL, *of = NULL;
    const int32_t **ph = NULL;
    unsigned char *mark = calloc(m, 1);
    pf = PySequence_Fast(phi, "phi must be a sequence");
    of = PySequence_Fast(options, "options must be a sequence");
    if (!mark || !pf || !of) {
        if (!mark)
            PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t nphi = PySequence_Fast_GET_SIZE(pf);
    ph = malloc((nphi + 1) * sizeof(int32_t *));
    if (!ph) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nphi; i++) {
        long z = PyLong_AsLong(PySequence_Fast_GET_ITEM(pf, i));
        if (z == -1 && PyErr_Occurred())
            goto done;
        if (!(ph[i] = column(&M, z)))
            goto done;
    }
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(of);
    out = PyList_New(nh);
    if (!out)
        goto done;
    for (Py_ssize_t h = 0; h < nh; h++) {
        PyObject *ofh = PySequence_Fast(PySequence_Fast_GET_ITEM(of, h), "options of a heap");
        if (!ofh) {
            Py_CLEAR(out);
            goto done;
        }
        int len = 0;
        for (Py_ssize_t o = 0; o < PySequence_Fast_GET_SIZE(ofh); o++) {
            PyObject *parts = PySequence_Fast_GET_ITEM(ofh, o);
            Py_ssize_t np = PyTuple_Check(parts) ? PyTuple_GET_SIZE(parts) : -1;
            if (np < 0) {
                PyErr_SetString(PyExc_TypeError, "an option must be a tuple of heaps");
                Py_DECREF(ofh);
                Py_CLEAR(out);
                goto done;
            }
            int x = 0;
            for (Py_ssize_t q = 0; q < np; q++) {
                long p = PyLong_AsLong(PyTuple_GET_ITEM(parts, q));
                if (p < 0 || p >= nphi) {
                    if (!PyErr_Occurred())
                        PyErr_SetString(PyExc_ValueError, "an option has a heap without phi");
                    Py_DECREF(ofh);
                    Py_CLEAR(out);
                    goto done;
                }
                x = ph[p][x];
            }
            if (!mark[x]) {
                mark[x] = 1;
                len++;
            }
        }
        Py_DECREF(ofh);
        /* sorted tuple, marks cleared */
        int cnt = 0;
        PyObject *tup = PyTuple_New(len);
        if (!tup) {
            Py_CLEAR(out);
            goto done;
        }
        for (int z = 0; z < m && cnt < len; z++)
            if (mark[z]) {
                mark[z] = 0;
                PyTuple_SET_ITEM(tup, cnt++, PyLong_FromLong(z));
            }
        PyList_SET_ITEM(out, h, tup);
    }
done:
    Py_XDECREF(pf);
    Py_XDECREF(of);
    free(ph);
    free(mark);
    monoid_release(&M);
    return out;
}

/*
 * nerode(P, cols) -> int32 bytes: the classes of x ~ y <=> (for all z: xz in P <=> yz in P) in
 * a monoid generated by the elements whose columns are the rows of cols (k x m int32: x -> x*g),
 * by Moore's refinement: start from P / not P, and split by the classes of x*g for every
 * generator g until nothing splits. Classes are numbered by first occurrence.
 */
static inline uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

static PyObject *py_nerode(PyObject *self, PyObject *args)
{
    PyObject *Pobj, *cobj, *check;
    if (!PyArg_ParseTuple(args, "OOO", &Pobj, &cobj, &check))
        return NULL;
    Py_buffer cb, Pb;
    if (PyObject_GetBuffer(cobj, &cb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0)
        return NULL;
    if (cb.itemsize != 4 || cb.ndim != 2) {
        PyBuffer_Release(&cb);
        PyErr_SetString(PyExc_TypeError, "cols must be a 2-d int32 array");
        return NULL;
    }
    Py_ssize_t k = cb.shape[0], m = cb.shape[1];
    if (PyObject_GetBuffer(Pobj, &Pb, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&cb);
        return NULL;
    }
    PyObject *ret = NULL;
    const int32_t *cols = cb.buf;
    const unsigned char *P = Pb.buf;
    Ticker tk;
    ticker_init(&tk, check);
    Py_ssize_t hsz = 16;
    while (hsz < 2 * m)
        hsz <<= 1;
    int32_t *cls = malloc((m + 1) * sizeof(int32_t)), *nw = malloc((m + 1) * sizeof(int32_t));
    int32_t *tab = malloc(hsz * sizeof(int32_t));
    uint64_t *hv = malloc((m + 1) * sizeof(uint64_t));
    if (!cls || !nw || !tab || !hv) {
        PyErr_NoMemory();
        goto done;
    }
    if (Pb.len != m) {
        PyErr_SetString(PyExc_ValueError, "P must have one byte per element");
        goto done;
    }
    /* first classes: P, not P, by first occurrence */
    int32_t ncls = 0, idp = -1, idn = -1;
    for (Py_ssize_t x = 0; x < m; x++) {
        if (P[x]) {
            if (idp < 0)
                idp = ncls++;
            cls[x] = idp;
        } else {
            if (idn < 0)
                idn = ncls++;
            cls[x] = idn;
        }
    }
    for (;;) {
        for (Py_ssize_t i = 0; i < hsz; i++)
            tab[i] = -1;
        int32_t nn = 0;
        for (Py_ssize_t x = 0; x < m; x++) {
            if ((x & 1023) == 0 && tick(&tk) < 0)
                goto done;
            uint64_t h = mix(0x12345, (uint64_t)cls[x]);
            for (Py_ssize_t g = 0; g < k; g++)
                h = mix(h, (uint64_t)cls[cols[g * m + x]]);
            hv[x] = h;
            Py_ssize_t slot = (Py_ssize_t)(h & (uint64_t)(hsz - 1));
            for (;;) {
                int32_t r = tab[slot];
                if (r < 0) {
                    tab[slot] = (int32_t)x;
                    nw[x] = nn++;
                    break;
                }
                if (hv[r] == h && cls[r] == cls[x]) {
                    int same = 1;
                    for (Py_ssize_t g = 0; g < k && same; g++)
                        same = cls[cols[g * m + r]] == cls[cols[g * m + x]];
                    if (same) {
                        nw[x] = nw[r];
                        break;
                    }
                }
                slot = (slot + 1) & (hsz - 1);
            }
        }
        int32_t *t = cls;
        cls = nw;
        nw = t;
        if (nn == ncls)
            break;
        ncls = nn;
    }
    ret = PyBytes_FromStringAndSize((char *)cls, m * sizeof(int32_t));
done:
    free(cls);
    free(nw);
    free(tab);
    free(hv);
    PyBuffer_Release(&cb);
    PyBuffer_Release(&Pb);
    return ret;
}

/*
 * prod_block(C, tables, stride, lut, xs, ys) -> int32 bytes (len(xs) x len(ys), row-major):
 * the products x*y in a submonoid of a direct product of finite monoids whose elements are
 * given by coordinates: C (size x f int64, C[x, j] the j-th coordinate), tables (f square int32
 * arrays), stride (f int64: the code of a coordinate vector is sum stride[j] * c_j), lut (int64
 * array: code -> element id, -1 outside the submonoid), xs and ys (int64 element ids).
 */
static PyObject *py_prod_block(PyObject *self, PyObject *args)
{
    PyObject *Co, *tabs, *so, *lo, *xo, *yo;
    if (!PyArg_ParseTuple(args, "OOOOOO", &Co, &tabs, &so, &lo, &xo, &yo))
        return NULL;
    Py_buffer bufs[5];
    PyObject *objs[5] = {Co, so, lo, xo, yo};
    int got = 0;
    PyObject *ret = NULL, *tf = NULL;
    Py_buffer *tb = NULL;
    int nt = 0, ntb = 0;
    for (; got < 5; got++)
        if (PyObject_GetBuffer(objs[got], &bufs[got], PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0)
            goto done;
    for (int i = 0; i < 5; i++)
        if (bufs[i].itemsize != 8) {
            PyErr_SetString(PyExc_TypeError, "prod_block wants int64 arrays");
            goto done;
        }
    if (bufs[0].ndim != 2) {
        PyErr_SetString(PyExc_TypeError, "C must be 2-d");
        goto done;
    }
    Py_ssize_t size = bufs[0].shape[0], f = bufs[0].shape[1];
    const int64_t *C = bufs[0].buf, *stride = bufs[1].buf, *lut = bufs[2].buf;
    const int64_t *xs = bufs[3].buf, *ys = bufs[4].buf;
    Py_ssize_t nlut = bufs[2].len / 8, nx = bufs[3].len / 8, ny = bufs[4].len / 8;
    tf = PySequence_Fast(tabs, "tables must be a sequence");
    if (!tf)
        goto done;
    nt = (int)PySequence_Fast_GET_SIZE(tf);
    if (nt != f || bufs[1].len / 8 != f) {
        PyErr_SetString(PyExc_ValueError, "one table and one stride per coordinate");
        goto done;
    }
    tb = calloc(nt, sizeof(Py_buffer));
    const int32_t **T = calloc(nt, sizeof(int32_t *));
    Py_ssize_t *tn = calloc(nt, sizeof(Py_ssize_t));
    if (!tb || !T || !tn) {
        free(T);
        free(tn);
        PyErr_NoMemory();
        goto done;
    }
    for (; ntb < nt; ntb++) {
        if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(tf, ntb), &tb[ntb],
                               PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0) {
            free(T);
            free(tn);
            goto done;
        }
        if (tb[ntb].itemsize != 4 || tb[ntb].ndim != 2) {
            ntb++;
            free(T);
            free(tn);
            PyErr_SetString(PyExc_TypeError, "tables must be 2-d int32 arrays");
            goto done;
        }
        T[ntb] = tb[ntb].buf;
        tn[ntb] = tb[ntb].shape[1];
    }
    for (Py_ssize_t i = 0; i < nx; i++)
        if (xs[i] < 0 || xs[i] >= size) {
            PyErr_SetString(PyExc_ValueError, "element out of range");
            free(T);
            free(tn);
            goto done;
        }
    for (Py_ssize_t i = 0; i < ny; i++)
        if (ys[i] < 0 || ys[i] >= size) {
            PyErr_SetString(PyExc_ValueError, "element out of range");
            free(T);
            free(tn);
            goto done;
        }
    ret = PyBytes_FromStringAndSize(NULL, nx * ny * 4);
    if (!ret) {
        free(T);
        free(tn);
        goto done;
    }
    int32_t *out = (int32_t *)PyBytes_AS_STRING(ret);
    for (Py_ssize_t i = 0; i < nx; i++) {
        const int64_t *cx = C + xs[i] * f;
        for (Py_ssize_t j = 0; j < ny; j++) {
            const int64_t *cy = C + ys[j] * f;
            int64_t code = 0;
            for (Py_ssize_t q = 0; q < f; q++)
                code += stride[q] * T[q][cx[q] * tn[q] + cy[q]];
            out[i * ny + j] = (code >= 0 && code < nlut) ? (int32_t)lut[code] : -1;
        }
        if ((i & 255) == 255 && PyErr_CheckSignals() < 0) {
            Py_CLEAR(ret);
            break;
        }
    }
    free(T);
    free(tn);
done:
    for (int i = 0; i < ntb; i++)
        PyBuffer_Release(&tb[i]);
    free(tb);
    Py_XDECREF(tf);
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&bufs[i]);
    return ret;
}

/*
 * tb_images(cols, colmap, phi, digits, n0, n1) -> list of sorted tuples: S_n for the heaps
 * n0 <= n < n1 of the take-and-break code whose digit for taking t tokens is digits[t]
 * (t = 0 .. len(digits) - 1; 0 beyond): bit 1 removes a whole heap of t, bit 2 leaves one
 * heap, bit 4 two heaps, bit 8 three heaps (the nonempty heaps left, as
 * cgtalg.rulesets.octal.TakeAndBreak.heap_options enumerates them). phi covers heaps < n1.
 */
static PyObject *py_tb_images(PyObject *self, PyObject *args)
{
    PyObject *cols, *colmap, *phi, *digits;
    long n0, n1;
    if (!PyArg_ParseTuple(args, "OOOOll", &cols, &colmap, &phi, &digits, &n0, &n1))
        return NULL;
    Monoid M;
    if (monoid_get(&M, cols, colmap) < 0)
        return NULL;
    int m = M.m;
    PyObject *out = NULL, *pf = NULL, *df = NULL;
    const int32_t **ph = NULL;
    long *dg = NULL;
    unsigned char *mark = calloc(m, 1);
    pf = PySequence_Fast(phi, "phi must be a sequence");
    df = PySequence_Fast(digits, "digits must be a sequence");
    if (!mark || !pf || !df) {
        if (!mark)
            PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t nphi = PySequence_Fast_GET_SIZE(pf), nd = PySequence_Fast_GET_SIZE(df);
    if (n0 < 0 || n1 < n0 || n1 > nphi) {
        PyErr_SetString(PyExc_ValueError, "heaps outside phi");
        goto done;
    }
    ph = malloc((nphi + 1) * sizeof(int32_t *));
    dg = malloc((nd + 1) * sizeof(long));
    if (!ph || !dg) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nphi; i++) {
        long z = PyLong_AsLong(PySequence_Fast_GET_ITEM(pf, i));
        if (z == -1 && PyErr_Occurred())
            goto done;
        if (!(ph[i] = column(&M, z)))
            goto done;
    }
    for (Py_ssize_t i = 0; i < nd; i++) {
        dg[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(df, i));
        if (dg[i] == -1 && PyErr_Occurred())
            goto done;
    }
    if (nd > 0 && (dg[0] & 3)) {
        PyErr_SetString(PyExc_ValueError, "a digit for taking 0 tokens may only split (4 or 8)");
        goto done;
    }
    out = PyList_New(n1 - n0);
    if (!out)
        goto done;
    for (long n = n0; n < n1; n++) {
        int len = 0;
#define ADD(x)                     \
    do {                           \
        int x_ = (x);              \
        if (!mark[x_]) {           \
            mark[x_] = 1;          \
            len++;                 \
        }                          \
    } while (0)
        for (long t = 0; t < nd && t <= n; t++) {
            long d = dg[t], r = n - t;
            if (!d)
                continue;
            if (r == 0) {
                if (d & 1)
                    ADD(0);
                continue;
            }
            if (d & 2)
                ADD(ph[r][0]);
            if ((d & 4) && r >= 2)
                for (long a = 1; a <= r / 2; a++)
                    ADD(ph[r - a][ph[a][0]]);
            if ((d & 8) && r >= 3)
                for (long a = 1; a <= r / 3; a++)
                    for (long b = a; b <= (r - a) / 2; b++)
                        ADD(ph[r - a - b][ph[b][ph[a][0]]]);
        }
#undef ADD
        int cnt = 0;
        PyObject *tup = PyTuple_New(len);
        if (!tup) {
            Py_CLEAR(out);
            goto done;
        }
        for (int z = 0; z < m && cnt < len; z++)
            if (mark[z]) {
                mark[z] = 0;
                PyTuple_SET_ITEM(tup, cnt++, PyLong_FromLong(z));
            }
        PyList_SET_ITEM(out, n - n0, tup);
    }
done:
    Py_XDECREF(pf);
    Py_XDECREF(df);
    free(ph);
    free(dg);
    free(mark);
    monoid_release(&M);
    return out;
}

/*
 * generate(cols, lut, check) -> int64 bytes: the elements of the submonoid generated by the
 * elements whose columns are the rows of cols (k x m int32), breadth first from the identity
 * 0: layer by layer, each layer in the order of first occurrence over (generator, element of
 * the previous layer), generator-major. lut (int64, length m, all -1 on entry) receives
 * old id -> new id.
 */
static PyObject *py_generate(PyObject *self, PyObject *args)
{
    PyObject *cobj, *lobj, *check;
    if (!PyArg_ParseTuple(args, "OOO", &cobj, &lobj, &check))
        return NULL;
    Py_buffer cb, lb;
    if (PyObject_GetBuffer(cobj, &cb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0)
        return NULL;
    if (PyObject_GetBuffer(lobj, &lb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&cb);
        return NULL;
    }
    PyObject *ret = NULL;
    int64_t *order = NULL;
    if (cb.itemsize != 4 || cb.ndim != 2 || lb.itemsize != 8 || lb.len / 8 != cb.shape[1]) {
        PyErr_SetString(PyExc_TypeError, "generate wants a k x m int32 array and an int64 lut of m");
        goto done;
    }
    Py_ssize_t k = cb.shape[0], m = cb.shape[1];
    const int32_t *cols = cb.buf;
    int64_t *lut = lb.buf;
    Ticker tk;
    ticker_init(&tk, check);
    order = malloc((m + 1) * sizeof(int64_t));
    if (!order) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t count = 1, start = 0, end = 1;
    order[0] = 0;
    lut[0] = 0;
    while (start < end && k > 0) {
        for (Py_ssize_t g = 0; g < k; g++) {
            const int32_t *c = cols + g * m;
            for (Py_ssize_t i = start; i < end; i++) {
                int32_t y = c[order[i]];
                if (y < 0 || y >= m) {
                    PyErr_SetString(PyExc_ValueError, "a product outside the monoid");
                    goto done;
                }
                if (lut[y] < 0) {
                    lut[y] = count;
                    order[count++] = y;
                }
            }
            if (tick(&tk) < 0)
                goto done;
        }
        start = end;
        end = count;
    }
    ret = PyBytes_FromStringAndSize((char *)order, count * sizeof(int64_t));
done:
    free(order);
    PyBuffer_Release(&cb);
    PyBuffer_Release(&lb);
    return ret;
}

/*
 * prod_generate(tables, G, stride, lut, check) -> int64 bytes (count x f): the coordinates of
 * the elements of the submonoid of a direct product of finite monoids (tables: f square int32
 * arrays) generated by the coordinate vectors G (ngens x f int64), breadth first from the
 * identity (all coordinates 0): layer by layer, each in the order of first occurrence over
 * (element of the previous layer, generator), element-major. lut (int64, all -1 on entry, one
 * entry per code sum stride[j] * c_j) receives code -> element id. Every TICK_CHECK elements
 * the callback check (the budget) runs.
 */
static PyObject *py_prod_generate(PyObject *self, PyObject *args)
{
    PyObject *tabs, *Go, *so, *lo, *check;
    if (!PyArg_ParseTuple(args, "OOOOO", &tabs, &Go, &so, &lo, &check))
        return NULL;
    Py_buffer gb, sb, lb;
    int have = 0;
    PyObject *ret = NULL, *tf = NULL;
    Py_buffer *tb = NULL;
    const int32_t **T = NULL;
    Py_ssize_t *tn = NULL;
    int64_t *C = NULL;
    int ntb = 0;
    if (PyObject_GetBuffer(Go, &gb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0)
        return NULL;
    have = 1;
    if (PyObject_GetBuffer(so, &sb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0)
        goto done;
    have = 2;
    if (PyObject_GetBuffer(lo, &lb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND | PyBUF_WRITABLE) < 0)
        goto done;
    have = 3;
    if (gb.itemsize != 8 || gb.ndim != 2 || sb.itemsize != 8 || lb.itemsize != 8) {
        PyErr_SetString(PyExc_TypeError, "prod_generate wants int64 arrays");
        goto done;
    }
    Py_ssize_t ng = gb.shape[0], f = gb.shape[1], total = lb.len / 8;
    const int64_t *G = gb.buf, *stride = sb.buf;
    int64_t *lut = lb.buf;
    tf = PySequence_Fast(tabs, "tables must be a sequence");
    if (!tf)
        goto done;
    if (PySequence_Fast_GET_SIZE(tf) != f || sb.len / 8 != f) {
        PyErr_SetString(PyExc_ValueError, "one table and one stride per coordinate");
        goto done;
    }
    tb = calloc(f + 1, sizeof(Py_buffer));
    T = calloc(f + 1, sizeof(int32_t *));
    tn = calloc(f + 1, sizeof(Py_ssize_t));
    if (!tb || !T || !tn) {
        PyErr_NoMemory();
        goto done;
    }
    for (; ntb < f; ntb++) {
        if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(tf, ntb), &tb[ntb],
                               PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0)
            goto done;
        if (tb[ntb].itemsize != 4 || tb[ntb].ndim != 2) {
            ntb++;
            PyErr_SetString(PyExc_TypeError, "tables must be 2-d int32 arrays");
            goto done;
        }
        T[ntb] = tb[ntb].buf;
        tn[ntb] = tb[ntb].shape[1];
    }
    for (Py_ssize_t i = 0; i < ng * f; i++) {
        Py_ssize_t j = i % f;
        if (G[i] < 0 || G[i] >= tn[j]) {
            PyErr_SetString(PyExc_ValueError, "a generator coordinate out of range");
            goto done;
        }
    }
    Ticker tk;
    ticker_init(&tk, check);
    Py_ssize_t cap = 1024, count = 1;
    C = calloc(cap * f, sizeof(int64_t));
    if (!C) {
        PyErr_NoMemory();
        goto done;
    }
    if (total < 1) {
        PyErr_SetString(PyExc_ValueError, "empty look-up table");
        goto done;
    }
    lut[0] = 0;
    Py_ssize_t start = 0, end = 1;
    while (start < end && ng > 0) {
        for (Py_ssize_t i = start; i < end; i++) {
            for (Py_ssize_t g = 0; g < ng; g++) {
                if (count == cap) {
                    Py_ssize_t nc = cap * 2;
                    int64_t *n2 = realloc(C, (size_t)nc * f * sizeof(int64_t));
                    if (!n2) {
                        PyErr_NoMemory();
                        goto done;
                    }
                    C = n2;
                    cap = nc;
                }
                int64_t *dst = C + count * f, code = 0;
                const int64_t *src = C + i * f, *gg = G + g * f;
                for (Py_ssize_t j = 0; j < f; j++) {
                    dst[j] = T[j][src[j] * tn[j] + gg[j]];
                    code += stride[j] * dst[j];
                }
                if (code < 0 || code >= total) {
                    PyErr_SetString(PyExc_ValueError, "a code outside the look-up table");
                    goto done;
                }
                if (lut[code] < 0) {
                    lut[code] = count++;
                    if (tick(&tk) < 0)
                        goto done;
                }
            }
        }
        start = end;
        end = count;
    }
    ret = PyBytes_FromStringAndSize((char *)C, count * f * sizeof(int64_t));
done:
    free(C);
    for (int i = 0; i < ntb; i++)
        PyBuffer_Release(&tb[i]);
    free(tb);
    free(T);
    free(tn);
    Py_XDECREF(tf);
    if (have >= 3)
        PyBuffer_Release(&lb);
    if (have >= 2)
        PyBuffer_Release(&sb);
    PyBuffer_Release(&gb);
    return ret;
}

static PyMethodDef methods[] = {
    {"generate", py_generate, METH_VARARGS, "generate(cols, lut, check) -> int64 bytes of members"},
    {"prod_generate", py_prod_generate, METH_VARARGS,
     "prod_generate(tables, G, stride, lut, check) -> int64 bytes of coordinates"},
    {"tb_images", py_tb_images, METH_VARARGS,
     "tb_images(cols, colmap, phi, digits, n0, n1) -> S_n of a take-and-break code"},
    {"prod_block", py_prod_block, METH_VARARGS,
     "prod_block(C, tables, stride, lut, xs, ys) -> int32 bytes of the products"},
    {"nerode", py_nerode, METH_VARARGS, "nerode(P, cols, check) -> int32 bytes of classes"},
    {"nsearch", py_nsearch, METH_VARARGS,
     "nsearch(cols, colmap, P, edges, kept, limit, max_states, top_only, check) -> (status, counts, states)"},
    {"walk", py_walk, METH_VARARGS,
     "walk(cols, colmap, edges, with_t, check) -> (order, parent, via, P or None)"},
    {"p_check", py_p_check, METH_VARARGS, "p_check(cols, colmap, P, edges, rank) -> list"},
    {"compatible", py_compatible, METH_VARARGS, "compatible(table, P, S, want_p) -> list"},
    {"images", py_images, METH_VARARGS, "images(cols, colmap, phi, options) -> list of sorted tuples"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_quotc",
                                       "Compiled searches of cgtalg's misère quotients.", -1, methods};

PyMODINIT_FUNC PyInit__quotc(void)
{
    if (PyType_Ready(&KeptType) < 0)
        return NULL;
    PyObject *mod = PyModule_Create(&moduledef);
    if (!mod)
        return NULL;
    Py_INCREF(&KeptType);
    if (PyModule_AddObject(mod, "Kept", (PyObject *)&KeptType) < 0 ||
        PyModule_AddStringConstant(mod, "SOURCE_HASH", CGTALG_QUOTC_SOURCE_HASH) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
