/*
 * _heapc: the compiled misère search over multisets of heaps (or heap classes).
 *
 * cgtalg.rulesets.heaps.misere_play drives it (and holds the plain-Python search that is the
 * reference); cgtalg.rulesets.heaps.heap_kernel loads it. It replaces the numba kernel of
 * cgtalg.rulesets.heaps._misere_kernel when built: the same search, the same answers, but
 * loaded in about a millisecond where numba costs one to three seconds per process.
 *
 * A Memo holds, for one mode (outcome or misère Grundy value), every state met so far:
 *   - the states are sorted tuples of classes, kept one after another in `arena` (int32);
 *     state s is arena[off[s] .. off[s] + ln[s]), its answer val[s] (-1 while unknown);
 *   - `table` is an open-addressing hash table (a power of two long, at most half full) of
 *     s + 1 (0: empty slot);
 *   - the moves come from an option table set by set_table(): for class c the rows
 *     opt[start[c] .. start[c + 1]) of `width` parts each (padded with -1), parts already
 *     replaced by their class and class-0 parts dropped; `one` is the class of *1 (or -1): a
 *     part equal to it removes a `one` already in the state (*1 + *1 = 0 in misère play).
 *
 * solve() is an iterative depth-first search from the root; it returns the answer, or PAUSE
 * after `step` new states, so that the caller can check its budgets, draw its progress bar
 * and let Ctrl-C through; a paused search resumes from the states it has solved (the states
 * left on its stack keep val == -1 and are walked down again). The search runs without the GIL
 * (it touches no Python object), so a watchdog thread runs meanwhile; a Memo refuses to be
 * used by two threads at once.
 *
 * Outcome mode stores 1 for N (the player to move wins) and 0 for P: a state is N when some
 * move reaches a P-state, or when it has no move (misère: the player who cannot move wins).
 * Grundy mode stores the misère Grundy value: 1 when there is no move, else the mex of the
 * options' values.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef CGTALG_HEAPC_SOURCE_HASH
#define CGTALG_HEAPC_SOURCE_HASH ""
#endif

#define PAUSE (-2)
#define NOMEM (-3)

typedef struct {
    PyObject_HEAD
    int32_t *arena;
    int64_t arena_cap, arena_used;
    int64_t *off;
    int32_t *ln, *val;
    int64_t states_cap, n;
    int64_t *table;
    int64_t table_cap;
    /* the depth-first stack: state, heap index, option row, phase (Grundy: 1 = mex pass) */
    int64_t *stk_s, *stk_j;
    int32_t *stk_i, *stk_phase;
    int64_t stk_cap;
    int32_t *buf;
    int64_t buf_cap;
    /* the option table */
    int64_t *start;
    int64_t classes; /* start has classes + 1 entries */
    int32_t *opt;
    int64_t rows;
    int32_t width;
    int busy;
} Memo;

static int grow(void **p, int64_t *cap, size_t elem, int64_t need)
{
    if (need <= *cap)
        return 0;
    int64_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q)
        return -1;
    memset((char *)q + (size_t)*cap * elem, 0, (size_t)(c - *cap) * elem);
    *p = q;
    *cap = c;
    return 0;
}

static inline uint64_t hash_of(const int32_t *b, int64_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (int64_t k = 0; k < n; k++)
        h = (h ^ (uint64_t)(uint32_t)(b[k] + 1)) * 1099511628211ULL;
    return h ^ (h >> 29);
}

/* the slot holding the tuple b[0..n), or the empty slot where it goes */
static int64_t find(const Memo *m, const int32_t *b, int64_t n)
{
    uint64_t mask = (uint64_t)m->table_cap - 1;
    uint64_t i = hash_of(b, n) & mask;
    for (;;) {
        int64_t e = m->table[i];
        if (e == 0)
            return (int64_t)i;
        int64_t s = e - 1;
        if (m->ln[s] == n && memcmp(m->arena + m->off[s], b, (size_t)n * sizeof(int32_t)) == 0)
            return (int64_t)i;
        i = (i + 1) & mask;
    }
}

static int rehash(Memo *m, int64_t cap)
{
    int64_t *t = calloc((size_t)cap, sizeof(int64_t));
    if (!t)
        return -1;
    free(m->table);
    m->table = t;
    m->table_cap = cap;
    for (int64_t s = 0; s < m->n; s++)
        m->table[find(m, m->arena + m->off[s], m->ln[s])] = s + 1;
    return 0;
}

/* the index of state b[0..n) (b must not point into the arena), added unknown if new; NOMEM */
static int64_t intern(Memo *m, const int32_t *b, int64_t n)
{
    int64_t i = find(m, b, n);
    if (m->table[i])
        return m->table[i] - 1;
    int64_t s = m->n;
    if (grow((void **)&m->arena, &m->arena_cap, sizeof(int32_t), m->arena_used + n) < 0)
        return NOMEM;
    if (s + 1 > m->states_cap) {
        int64_t c1 = m->states_cap, c2 = m->states_cap, c3 = m->states_cap;
        if (grow((void **)&m->off, &c1, sizeof(int64_t), s + 1) < 0 ||
            grow((void **)&m->ln, &c2, sizeof(int32_t), s + 1) < 0 ||
            grow((void **)&m->val, &c3, sizeof(int32_t), s + 1) < 0)
            return NOMEM;
        m->states_cap = c1;
    }
    if (2 * (s + 1) > m->table_cap) {
        if (rehash(m, 2 * m->table_cap) < 0)
            return NOMEM;
        i = find(m, b, n);
    }
    memcpy(m->arena + m->arena_used, b, (size_t)n * sizeof(int32_t));
    m->off[s] = m->arena_used;
    m->ln[s] = (int32_t)n;
    m->val[s] = -1;
    m->table[i] = s + 1;
    m->arena_used += n;
    m->n = s + 1;
    return s;
}

/* write into m->buf state s with its heap at index skip replaced by the parts of option row;
 * return the length (the buffer holds ln[s] + width entries) */
static int64_t child(Memo *m, int64_t s, int64_t skip, int64_t row, int32_t one)
{
    const int32_t *a = m->arena + m->off[s];
    int64_t n = m->ln[s], len = 0;
    int32_t *b = m->buf;
    for (int64_t k = 0; k < n; k++)
        if (k != skip)
            b[len++] = a[k];
    const int32_t *parts = m->opt + row * m->width;
    for (int32_t q = 0; q < m->width && parts[q] >= 0; q++) {
        int32_t p = parts[q];
        if (p == one) {
            int64_t f = -1;
            for (int64_t k = 0; k < len; k++)
                if (b[k] == one) {
                    f = k;
                    break;
                }
            if (f >= 0) {
                memmove(b + f, b + f + 1, (size_t)(len - f - 1) * sizeof(int32_t));
                len--;
                continue;
            }
        }
        int64_t k = len;
        while (k > 0 && b[k - 1] > p) {
            b[k] = b[k - 1];
            k--;
        }
        b[k] = p;
        len++;
    }
    return len;
}

/* the value of the child, or -1 when unknown (absent or on the way) */
static inline int32_t known(const Memo *m, int64_t len)
{
    int64_t e = m->table[find(m, m->buf, len)];
    return e ? m->val[e - 1] : -1;
}

/* the mex of the options' values of state s (all known) */
static int32_t mex_of(Memo *m, int64_t s, int32_t one)
{
    uint64_t mask = 0;
    int big = 0;
    for (int pass = 0;; pass++) {
        int32_t target = pass ? 63 + pass : -1;
        int hit = 0;
        for (int64_t i = 0; i < m->ln[s] && !hit; i++) {
            int32_t h = m->arena[m->off[s] + i];
            if (i > 0 && m->arena[m->off[s] + i - 1] == h)
                continue;
            for (int64_t j = m->start[h]; j < m->start[h + 1]; j++) {
                int32_t v = known(m, child(m, s, i, j, one));
                if (!pass) {
                    if (v >= 0 && v < 64)
                        mask |= 1ULL << v;
                    else
                        big = 1;
                } else if (v == target) {
                    hit = 1;
                    break;
                }
            }
        }
        if (!pass) {
            int32_t x = 0;
            while (x < 64 && (mask >> x) & 1)
                x++;
            if (x < 64 || !big)
                return x;
        } else if (!hit) {
            return target;
        }
    }
}

/* the search proper (runs without the GIL): the answer, PAUSE or NOMEM */
static int64_t run(Memo *m, const int32_t *root, int64_t rn, int grundy, int32_t one, int64_t step)
{
    int64_t r = intern(m, root, rn);
    if (r < 0)
        return r;
    if (m->val[r] >= 0)
        return m->val[r];
    int64_t created0 = m->n, depth = 0;
    {
        int64_t c1 = m->stk_cap, c2 = m->stk_cap, c3 = m->stk_cap, c4 = m->stk_cap;
        if (grow((void **)&m->stk_s, &c1, sizeof(int64_t), 64) < 0 ||
            grow((void **)&m->stk_j, &c2, sizeof(int64_t), 64) < 0 ||
            grow((void **)&m->stk_i, &c3, sizeof(int32_t), 64) < 0 ||
            grow((void **)&m->stk_phase, &c4, sizeof(int32_t), 64) < 0)
            return NOMEM;
        m->stk_cap = c1;
    }
    m->stk_s[0] = r;
    m->stk_i[0] = 0;
    m->stk_j[0] = -1;
    m->stk_phase[0] = 0;
    while (depth >= 0) {
        int64_t s = m->stk_s[depth];
        if (m->val[s] >= 0) { /* solved meanwhile (a shared subposition) */
            depth--;
            continue;
        }
        int64_t n = m->ln[s];
        if (grow((void **)&m->buf, &m->buf_cap, sizeof(int32_t), n + m->width + 1) < 0)
            return NOMEM;
        if (m->stk_phase[depth]) { /* Grundy: every option known */
            m->val[s] = mex_of(m, s, one);
            depth--;
            continue;
        }
        int64_t i = m->stk_i[depth], j = m->stk_j[depth];
        int pushed = 0, moved = 0;
        int32_t answer = -1;
        for (; i < n; i++, j = -1) {
            int32_t h = m->arena[m->off[s] + i];
            if (i > 0 && m->arena[m->off[s] + i - 1] == h)
                continue;
            if (j < 0)
                j = m->start[h];
            for (; j < m->start[h + 1]; j++) {
                moved = 1;
                int64_t len = child(m, s, i, j, one);
                int64_t e = m->table[find(m, m->buf, len)];
                if (e && m->val[e - 1] >= 0) {
                    if (!grundy && m->val[e - 1] == 0) { /* a move to a P-position: N */
                        answer = 1;
                        break;
                    }
                    continue;
                }
                int64_t c = e ? e - 1 : intern(m, m->buf, len);
                if (c < 0)
                    return c;
                if (depth + 1 >= m->stk_cap) {
                    int64_t c1 = m->stk_cap, c2 = m->stk_cap, c3 = m->stk_cap, c4 = m->stk_cap;
                    if (grow((void **)&m->stk_s, &c1, sizeof(int64_t), depth + 2) < 0 ||
                        grow((void **)&m->stk_j, &c2, sizeof(int64_t), depth + 2) < 0 ||
                        grow((void **)&m->stk_i, &c3, sizeof(int32_t), depth + 2) < 0 ||
                        grow((void **)&m->stk_phase, &c4, sizeof(int32_t), depth + 2) < 0)
                        return NOMEM;
                    m->stk_cap = c1;
                }
                m->stk_i[depth] = (int32_t)i;
                m->stk_j[depth] = j;
                depth++;
                m->stk_s[depth] = c;
                m->stk_i[depth] = 0;
                m->stk_j[depth] = -1;
                m->stk_phase[depth] = 0;
                pushed = 1;
                break;
            }
            if (pushed || answer >= 0)
                break;
        }
        if (pushed) {
            if (m->n - created0 >= step)
                return PAUSE;
            continue;
        }
        if (answer < 0) {
            if (!moved)
                answer = 1; /* no move: the mover has won (N), misère Grundy value 1 */
            else if (!grundy)
                answer = 0; /* every option is N */
            else {
                m->stk_phase[depth] = 1;
                continue;
            }
        }
        m->val[s] = answer;
        depth--;
    }
    return m->val[r];
}

/* ------------------------------------------------------------------------------------------ */
/* The Python type                                                                              */
/* ------------------------------------------------------------------------------------------ */

static void memo_free_table(Memo *m)
{
    free(m->start);
    free(m->opt);
    m->start = NULL;
    m->opt = NULL;
    m->classes = m->rows = 0;
    m->width = 0;
}

static void Memo_dealloc(Memo *m)
{
    free(m->arena);
    free(m->off);
    free(m->ln);
    free(m->val);
    free(m->table);
    free(m->stk_s);
    free(m->stk_j);
    free(m->stk_i);
    free(m->stk_phase);
    free(m->buf);
    memo_free_table(m);
    Py_TYPE(m)->tp_free((PyObject *)m);
}

static PyObject *Memo_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    if (!PyArg_ParseTuple(args, ":Memo"))
        return NULL;
    Memo *m = (Memo *)type->tp_alloc(type, 0);
    if (!m)
        return NULL;
    m->table_cap = 1024;
    m->table = calloc(1024, sizeof(int64_t));
    if (!m->table) {
        Py_DECREF(m);
        return PyErr_NoMemory();
    }
    return (PyObject *)m;
}

/* read a sequence of ints into a new int32 array (every entry in [lo, hi)); NULL on error */
static int32_t *read_ints(PyObject *seq, int64_t *n, int32_t lo, int64_t hi, const char *what)
{
    PyObject *f = PySequence_Fast(seq, what);
    if (!f)
        return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(f);
    int32_t *out = malloc((size_t)(len ? len : 1) * sizeof(int32_t));
    if (!out) {
        Py_DECREF(f);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < len; k++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(f, k));
        if (v == -1 && PyErr_Occurred())
            goto fail;
        if (v < lo || v >= hi) {
            PyErr_Format(PyExc_ValueError, "%s: %lld is not a class of the option table (0..%lld)", what, v,
                         (long long)hi - 1);
            goto fail;
        }
        out[k] = (int32_t)v;
    }
    Py_DECREF(f);
    *n = len;
    return out;
fail:
    Py_DECREF(f);
    free(out);
    return NULL;
}

static int check_free(Memo *m)
{
    if (m->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this misère-search memo is in use by another thread");
        return -1;
    }
    return 0;
}

static PyObject *Memo_set_table(Memo *m, PyObject *args)
{
    PyObject *start_seq, *rows_seq;
    if (!PyArg_ParseTuple(args, "OO:set_table", &start_seq, &rows_seq) || check_free(m) < 0)
        return NULL;
    PyObject *st = PySequence_Fast(start_seq, "start must be a sequence of ints");
    if (!st)
        return NULL;
    PyObject *rw = PySequence_Fast(rows_seq, "rows must be a sequence of tuples");
    if (!rw) {
        Py_DECREF(st);
        return NULL;
    }
    Py_ssize_t ns = PySequence_Fast_GET_SIZE(st), nr = PySequence_Fast_GET_SIZE(rw);
    int64_t *start = NULL;
    int32_t *opt = NULL;
    int32_t width = 1;
    if (ns < 1) {
        PyErr_SetString(PyExc_ValueError, "start must not be empty");
        goto fail;
    }
    for (Py_ssize_t k = 0; k < nr; k++) {
        Py_ssize_t w = PyObject_Length(PySequence_Fast_GET_ITEM(rw, k));
        if (w < 0)
            goto fail;
        if (w > width)
            width = (int32_t)w;
    }
    start = malloc((size_t)ns * sizeof(int64_t));
    opt = malloc((size_t)(nr ? nr : 1) * (size_t)width * sizeof(int32_t));
    if (!start || !opt) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t k = 0; k < ns; k++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(st, k));
        if (v == -1 && PyErr_Occurred())
            goto fail;
        if (v < (k ? start[k - 1] : 0) || v > nr) {
            PyErr_SetString(PyExc_ValueError, "start must be non-decreasing, from 0 to the number of rows");
            goto fail;
        }
        start[k] = v;
    }
    for (Py_ssize_t k = 0; k < nr; k++) {
        int64_t len;
        int32_t *parts = read_ints(PySequence_Fast_GET_ITEM(rw, k), &len, 0, ns - 1, "an option row");
        if (!parts)
            goto fail;
        for (int32_t q = 0; q < width; q++)
            opt[k * width + q] = q < len ? parts[q] : -1;
        free(parts);
    }
    Py_DECREF(st);
    Py_DECREF(rw);
    memo_free_table(m);
    m->start = start;
    m->opt = opt;
    m->classes = ns - 1;
    m->rows = nr;
    m->width = width;
    Py_RETURN_NONE;
fail:
    Py_DECREF(st);
    Py_DECREF(rw);
    free(start);
    free(opt);
    return NULL;
}

static PyObject *Memo_solve(Memo *m, PyObject *args)
{
    PyObject *root_seq;
    int grundy;
    int one;
    long long step;
    if (!PyArg_ParseTuple(args, "OpiL:solve", &root_seq, &grundy, &one, &step) || check_free(m) < 0)
        return NULL;
    if (!m->start) {
        PyErr_SetString(PyExc_ValueError, "solve before set_table");
        return NULL;
    }
    int64_t rn;
    int32_t *root = read_ints(root_seq, &rn, 0, m->classes, "the root state");
    if (!root)
        return NULL;
    for (int64_t k = 1; k < rn; k++)
        if (root[k - 1] > root[k]) {
            free(root);
            PyErr_SetString(PyExc_ValueError, "the root state must be sorted");
            return NULL;
        }
    int64_t r;
    m->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    r = run(m, root, rn, grundy, (int32_t)one, step < 1 ? 1 : step);
    Py_END_ALLOW_THREADS
    m->busy = 0;
    free(root);
    if (r == NOMEM)
        return PyErr_NoMemory();
    return PyLong_FromLongLong(r);
}

static PyObject *Memo_lookup(Memo *m, PyObject *args)
{
    PyObject *seq;
    if (!PyArg_ParseTuple(args, "O:lookup", &seq) || check_free(m) < 0)
        return NULL;
    int64_t n;
    int32_t *b = read_ints(seq, &n, INT32_MIN, INT32_MAX, "a state");
    if (!b)
        return NULL;
    int64_t e = m->table[find(m, b, n)];
    free(b);
    return PyLong_FromLong(e ? m->val[e - 1] : -1);
}

static PyObject *Memo_size(Memo *m, void *closure) { return PyLong_FromLongLong(m->n); }

static PyObject *Memo_nbytes(Memo *m, void *closure)
{
    int64_t b = m->arena_cap * 4 + m->states_cap * 16 + m->table_cap * 8 + m->stk_cap * 24 + m->buf_cap * 4 +
                (m->classes + 1) * 8 + m->rows * m->width * 4;
    return PyLong_FromLongLong(b);
}

static PyMethodDef Memo_methods[] = {
    {"set_table", (PyCFunction)Memo_set_table, METH_VARARGS,
     "set_table(start, rows): the moves: class c has the option rows rows[start[c]:start[c + 1]] "
     "(tuples of classes, class 0 dropped)"},
    {"solve", (PyCFunction)Memo_solve, METH_VARARGS,
     "solve(root, grundy, one, step) -> the answer of the sorted state root, or -2 after step new states"},
    {"lookup", (PyCFunction)Memo_lookup, METH_VARARGS, "lookup(state) -> its answer, -1 when unknown"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Memo_getset[] = {
    {"size", (getter)Memo_size, NULL, "number of states stored (known or on the way)", NULL},
    {"nbytes", (getter)Memo_nbytes, NULL, "bytes allocated", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject MemoType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cgtalg.rulesets.heaps._heapc.Memo",
    .tp_basicsize = sizeof(Memo),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The states of a misère search (one mode: outcome or Grundy value) and its option table.",
    .tp_new = Memo_new,
    .tp_dealloc = (destructor)Memo_dealloc,
    .tp_methods = Memo_methods,
    .tp_getset = Memo_getset,
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_heapc",
                                       "Compiled misère search over heap multisets.", -1, NULL};

PyMODINIT_FUNC PyInit__heapc(void)
{
    if (PyType_Ready(&MemoType) < 0)
        return NULL;
    PyObject *mod = PyModule_Create(&moduledef);
    if (!mod)
        return NULL;
    Py_INCREF(&MemoType);
    if (PyModule_AddObject(mod, "Memo", (PyObject *)&MemoType) < 0 ||
        PyModule_AddIntConstant(mod, "PAUSE", PAUSE) < 0 ||
        PyModule_AddStringConstant(mod, "SOURCE_HASH", CGTALG_HEAPC_SOURCE_HASH) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
