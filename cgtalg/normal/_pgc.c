/*
 * _pgc: the compiled canonical-form engine for short partizan games.
 *
 * The Python face is cgtalg.normal.partizan_kernel; the reference, which the tests check this
 * engine against form by form, is cgtalg.normal.partizan. The kernel is split by topic:
 *   _pgc.h        the form table's types and the engine's prototypes;
 *   _pgc_core.c   the table, numbers, comparison, canonical forms, sums and negatives;
 *   _pgc_dom.c    Domineering: bitboard moves, components, and the memoised search;
 *   _pgc_grid.c   Clobber and Konane: the same on three bitboards (stones of each, board);
 *   _pgc_graph.c  Snort and Col on graphs of at most 64 vertices (neighbour bitmasks);
 *   _pgc_search.c what the searches share: the multi-word memo and the progress ticker;
 *   _pgc.c        this file: the module's functions, its table and its initialisation.
 *
 * Ids are the engine's own (not cgtalg.core's hash-cons ids); the wrapper translates.
 */
#include "_pgc.h"

#ifndef CGTALG_PGC_SOURCE_HASH
#define CGTALG_PGC_SOURCE_HASH ""
#endif

int pgc_dom_solve(const uint64_t *rows, int nrows, int32_t *out, PyObject *tick);
void pgc_dom_clear(void);
int64_t pgc_dom_entries(void);
int pgc_grid_solve(uint64_t x, uint64_t o, uint64_t board, int game, PyObject *tick, int32_t *out);
void pgc_grid_clear(void);
int64_t pgc_grid_entries(void);
int pgc_graph_solve(int game, int n, const uint64_t *nbrs, uint64_t L, uint64_t R, PyObject *tick, int32_t *out);
void pgc_graph_clear(void);
int64_t pgc_graph_entries(void);

static int check_id(long long id)
{
    if (id < 0 || id >= pg_count) {
        PyErr_Format(PyExc_IndexError, "no form with id %lld in the partizan kernel's table", id);
        return -1;
    }
    return 0;
}

/* a sequence of ids as a malloc'd int32 array (n set); NULL on error */
static int32_t *ids_of(PyObject *seq, Py_ssize_t *n)
{
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of form ids");
    if (!fast)
        return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    int32_t *out = malloc((size_t)(len + 1) * sizeof(int32_t));
    if (!out) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < len; i++) {
        long long v = PyLong_AsLongLong(items[i]);
        if ((v == -1 && PyErr_Occurred()) || check_id(v) < 0) {
            free(out);
            Py_DECREF(fast);
            return NULL;
        }
        if (!pg_nodes[v].canonical) {
            PyErr_Format(PyExc_ValueError, "form %lld is not a canonical form of the kernel", v);
            free(out);
            Py_DECREF(fast);
            return NULL;
        }
        out[i] = (int32_t)v;
    }
    *n = len;
    Py_DECREF(fast);
    return out;
}

static PyObject *py_canon(PyObject *self, PyObject *args)
{
    PyObject *lo, *ro;
    if (!PyArg_ParseTuple(args, "OO", &lo, &ro))
        return NULL;
    Py_ssize_t nl, nr;
    int32_t *L = ids_of(lo, &nl);
    if (!L)
        return NULL;
    int32_t *R = ids_of(ro, &nr);
    if (!R) {
        free(L);
        return NULL;
    }
    int32_t id = pg_canon(L, (int32_t)nl, R, (int32_t)nr);
    free(L);
    free(R);
    if (id < 0)
        return NULL;
    return PyLong_FromLong(id);
}

static int two_ids(PyObject *args, int32_t *a, int32_t *b)
{
    long long x, y;
    if (!PyArg_ParseTuple(args, "LL", &x, &y) || check_id(x) < 0 || check_id(y) < 0)
        return -1;
    *a = (int32_t)x;
    *b = (int32_t)y;
    return 0;
}

static PyObject *py_le(PyObject *self, PyObject *args)
{
    int32_t a, b;
    if (two_ids(args, &a, &b) < 0)
        return NULL;
    int r = pg_le(a, b);
    if (r < 0)
        return NULL;
    return PyBool_FromLong(r);
}

static PyObject *py_add(PyObject *self, PyObject *args)
{
    int32_t a, b;
    if (two_ids(args, &a, &b) < 0)
        return NULL;
    if (!pg_nodes[a].canonical || !pg_nodes[b].canonical) {
        PyErr_SetString(PyExc_ValueError, "add() takes canonical forms of the kernel");
        return NULL;
    }
    int32_t r = pg_add(a, b);
    return r < 0 ? NULL : PyLong_FromLong(r);
}

static PyObject *py_neg(PyObject *self, PyObject *arg)
{
    long long a = PyLong_AsLongLong(arg);
    if ((a == -1 && PyErr_Occurred()) || check_id(a) < 0)
        return NULL;
    if (!pg_nodes[a].canonical) {
        PyErr_SetString(PyExc_ValueError, "neg() takes a canonical form of the kernel");
        return NULL;
    }
    int32_t r = pg_neg((int32_t)a);
    return r < 0 ? NULL : PyLong_FromLong(r);
}

static PyObject *py_number(PyObject *self, PyObject *arg)
{
    double v = PyFloat_AsDouble(arg);
    if (v == -1.0 && PyErr_Occurred())
        return NULL;
    int32_t r = pg_number(v);
    return r < 0 ? NULL : PyLong_FromLong(r);
}

static PyObject *py_options(PyObject *self, PyObject *arg)
{
    long long a = PyLong_AsLongLong(arg);
    if ((a == -1 && PyErr_Occurred()) || check_id(a) < 0)
        return NULL;
    const PgNode *n = &pg_nodes[a];
    PyObject *l = PyTuple_New(n->nl), *r = PyTuple_New(n->nr);
    if (!l || !r) {
        Py_XDECREF(l);
        Py_XDECREF(r);
        return NULL;
    }
    const int32_t *o = PG_OPTS(a);
    for (int32_t k = 0; k < n->nl; k++)
        PyTuple_SET_ITEM(l, k, PyLong_FromLong(o[k]));
    for (int32_t k = 0; k < n->nr; k++)
        PyTuple_SET_ITEM(r, k, PyLong_FromLong(o[n->nl + k]));
    return Py_BuildValue("(NN)", l, r);
}

/* the subpositions of a form, children before parents, with their option lists:
   a list of (id, left ids, right ids) */
static PyObject *py_walk(PyObject *self, PyObject *arg)
{
    long long root = PyLong_AsLongLong(arg);
    if ((root == -1 && PyErr_Occurred()) || check_id(root) < 0)
        return NULL;
    PyObject *out = PyList_New(0);
    char *seen = calloc((size_t)pg_count, 1);
    size_t cap = 1024;
    int32_t *stack = malloc(cap * sizeof(int32_t));
    if (!out || !seen || !stack) {
        Py_XDECREF(out);
        free(seen);
        free(stack);
        return PyErr_NoMemory();
    }
    int64_t sp = 0;
    stack[sp++] = (int32_t)root;
    /* seen: 1 = opened, 2 = emitted */
    while (sp) {
        int32_t g = stack[sp - 1];
        if (seen[g] == 2) {
            sp--;
            continue;
        }
        const PgNode *n = &pg_nodes[g];
        const int32_t *o = PG_OPTS(g);
        if (!seen[g]) {
            seen[g] = 1;
            if ((size_t)(sp + n->nl + n->nr) > cap) {
                while ((size_t)(sp + n->nl + n->nr) > cap)
                    cap *= 2;
                int32_t *t = realloc(stack, cap * sizeof(int32_t));
                if (!t) {
                    Py_DECREF(out);
                    free(seen);
                    free(stack);
                    return PyErr_NoMemory();
                }
                stack = t;
            }
            for (int32_t k = 0; k < n->nl + n->nr; k++)
                if (!seen[o[k]])
                    stack[sp++] = o[k];
            continue;
        }
        sp--;
        seen[g] = 2;
        PyObject *item = Py_BuildValue("(iNN)", g, PyTuple_New(n->nl), PyTuple_New(n->nr));
        if (!item) {
            Py_DECREF(out);
            free(seen);
            free(stack);
            return NULL;
        }
        PyObject *l = PyTuple_GET_ITEM(item, 1), *r = PyTuple_GET_ITEM(item, 2);
        for (int32_t k = 0; k < n->nl; k++)
            PyTuple_SET_ITEM(l, k, PyLong_FromLong(o[k]));
        for (int32_t k = 0; k < n->nr; k++)
            PyTuple_SET_ITEM(r, k, PyLong_FromLong(o[n->nl + k]));
        if (PyList_Append(out, item) < 0) {
            Py_DECREF(item);
            Py_DECREF(out);
            free(seen);
            free(stack);
            return NULL;
        }
        Py_DECREF(item);
    }
    free(seen);
    free(stack);
    return out;
}

static PyObject *py_info(PyObject *self, PyObject *arg)
{
    long long a = PyLong_AsLongLong(arg);
    if ((a == -1 && PyErr_Occurred()) || check_id(a) < 0)
        return NULL;
    const PgNode *n = &pg_nodes[a];
    PyObject *num = n->isnum ? PyFloat_FromDouble(n->num) : (Py_INCREF(Py_None), Py_None);
    return Py_BuildValue("{s:N,s:O,s:i}", "number", num, "canonical", n->canonical ? Py_True : Py_False,
                         "birthday", n->birthday);
}

static PyObject *py_stats(PyObject *self, PyObject *noargs)
{
    return Py_BuildValue("{s:i,s:L,s:L,s:L,s:L,s:L}", "forms", pg_count, "comparisons_memoised",
                         (long long)pg_le_entries, "sums_memoised", (long long)pg_add_entries,
                         "domineering_positions", (long long)pgc_dom_entries(), "grid_positions",
                         (long long)pgc_grid_entries(), "graph_positions", (long long)pgc_graph_entries());
}

/* the sequence of at most 64 masks seq into out[]; its length, or -1 with an error set */
static Py_ssize_t masks_of(PyObject *seq, uint64_t *out, const char *what, const char *too_long)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > 64) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_OverflowError, too_long);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    return n;
}

static PyObject *py_domineering(PyObject *self, PyObject *args)
{
    static const char *too_long = "the kernel's Domineering takes boards of at most 64 cells";
    PyObject *arg, *tick = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &arg, &tick))
        return NULL;
    uint64_t rows[64];
    Py_ssize_t n = masks_of(arg, rows, "domineering() takes a sequence of row bitmasks", too_long);
    if (n < 0)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        if (rows[i] >> 63) {
            PyErr_SetString(PyExc_OverflowError, too_long);
            return NULL;
        }
    int32_t out;
    if (pgc_dom_solve(rows, (int)n, &out, tick == Py_None ? NULL : tick) < 0)
        return NULL;
    return PyLong_FromLong(out);
}

static PyObject *py_grid(PyObject *self, PyObject *args)
{
    int game;
    unsigned long long x, o, b;
    PyObject *tick = Py_None;
    if (!PyArg_ParseTuple(args, "iKKK|O", &game, &x, &o, &b, &tick))
        return NULL;
    int32_t out;
    if (pgc_grid_solve(x, o, b, game, tick == Py_None ? NULL : tick, &out) < 0)
        return NULL;
    return PyLong_FromLong(out);
}

static PyObject *py_graph(PyObject *self, PyObject *args)
{
    int game;
    unsigned long long L, R;
    PyObject *seq, *tick = Py_None;
    if (!PyArg_ParseTuple(args, "iOKK|O", &game, &seq, &L, &R, &tick))
        return NULL;
    uint64_t nbrs[64];
    Py_ssize_t n = masks_of(seq, nbrs, "graph() takes a sequence of neighbour bitmasks",
                            "the kernel's Snort and Col take graphs of at most 64 vertices");
    if (n < 0)
        return NULL;
    int32_t out;
    if (pgc_graph_solve(game, (int)n, nbrs, L, R, tick == Py_None ? NULL : tick, &out) < 0)
        return NULL;
    return PyLong_FromLong(out);
}

static PyObject *py_clear_searches(PyObject *self, PyObject *noargs)
{
    pgc_dom_clear();
    pgc_grid_clear();
    pgc_graph_clear();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"clear_searches", py_clear_searches, METH_NOARGS,
     "clear_searches(): forget the positions memoised by the Domineering, Clobber, Konane, Snort and Col searches"},
    {"graph", py_graph, METH_VARARGS,
     "graph(game, neighbours, left, right, tick=None): the canonical form's id of a Col (0) or Snort (1) position: "
     "neighbour bitmasks of at most 64 vertices, the vertices Left / Right may colour"},
    {"grid", py_grid, METH_VARARGS,
     "grid(game, x, o, board, tick=None): the canonical form's id of a Clobber (0) or Konane (1) position on 8 x 8 bitboards"},
    {"canon", py_canon, METH_VARARGS, "canon(left_ids, right_ids): the canonical form of {L | R}, options canonical"},
    {"le", py_le, METH_VARARGS, "le(a, b): a <= b"},
    {"add", py_add, METH_VARARGS, "add(a, b): the canonical form of a + b"},
    {"neg", py_neg, METH_O, "neg(a): the canonical form of -a"},
    {"number", py_number, METH_O, "number(v): the canonical form of the dyadic number v (a float)"},
    {"options", py_options, METH_O, "options(a): (left ids, right ids)"},
    {"walk", py_walk, METH_O, "walk(a): [(id, left ids, right ids)] over a's subpositions, children first"},
    {"info", py_info, METH_O, "info(a): {'number': float or None, 'canonical': bool, 'birthday': int}"},
    {"stats", py_stats, METH_NOARGS, "stats(): sizes of the tables"},
    {"domineering", py_domineering, METH_VARARGS, "domineering(rows, tick=None): the canonical form's id of a Domineering board (at most 64 cells)"},
    {NULL, NULL, 0, NULL},
};

static void module_free(void *m)
{
    pgc_dom_clear();
    pgc_grid_clear();
    pgc_graph_clear();
    pg_free_all();
}

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_pgc", "Compiled canonical-form engine for short partizan games (cgtalg).", -1, methods,
    NULL, NULL, NULL, module_free,
};

PyMODINIT_FUNC PyInit__pgc(void)
{
    if (pg_init() < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "the partizan kernel failed to initialise");
        return NULL;
    }
    PyObject *m = PyModule_Create(&moddef);
    if (!m)
        return NULL;
    if (PyModule_AddStringConstant(m, "SOURCE_HASH", CGTALG_PGC_SOURCE_HASH) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
