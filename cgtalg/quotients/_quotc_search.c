/*
 * _quotc_search.c: the depth-first colex searches over words: the N-condition search
 * (nsearch, pruned by kept option-image sets) and the walk of least words with the P-marking
 * of a candidate (walk).
 */
#include "_quotc.h"

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

/* the per-level states of a depth-first search (lev[i], tmp[i], i < k: option-image sets of up to
   m elements, W words of bits); -1 (MemoryError set) when they cannot be allocated. lev and tmp
   come from calloc (k + 1 entries), so states_free is safe after a partial allocation. */
static int states_alloc(State *lev, State *tmp, int k, int m, int W)
{
    for (int i = 0; i < k; i++) {
        State *ss[2] = {&lev[i], &tmp[i]};
        for (int j = 0; j < 2; j++) {
            ss[j]->list = malloc((size_t)m * sizeof(int32_t));
            ss[j]->bits = malloc((size_t)W * sizeof(uint64_t));
            if (!ss[j]->list || !ss[j]->bits) {
                PyErr_NoMemory();
                return -1;
            }
        }
    }
    return 0;
}

static void states_free(State *lev, State *tmp, int k)
{
    for (int i = 0; lev && i < k; i++) {
        free(lev[i].list);
        free(lev[i].bits);
    }
    for (int i = 0; tmp && i < k; i++) {
        free(tmp[i].list);
        free(tmp[i].bits);
    }
    free(lev);
    free(tmp);
}

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
PyObject *py_nsearch(PyObject *self, PyObject *args)
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
    if (states_alloc(c.lev, c.tmp, c.k, c.m, c.W) < 0)
        goto done;
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
    states_free(c.lev, c.tmp, c.k);
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
PyObject *py_walk(PyObject *self, PyObject *args)
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
    if (with_t && states_alloc(c.lev, c.tmp, c.k, c.m, c.W) < 0)
        goto done;
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
    states_free(c.lev, c.tmp, c.k);
    free(c.seen);
    free(c.P);
    free(c.order);
    free(c.parent);
    free(c.via);
    edges_free(c.E, c.k);
    monoid_release(&M);
    return ret;
}

