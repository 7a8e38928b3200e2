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
 * The kernel is split by topic (one extension module; hatch_build.py compiles them together):
 *   _nimc.h           the shared types, state, inline helpers and prototypes;
 *   _nimc_arith.c     interruption, finite nim-products, element and accumulator storage;
 *   _nimc_mono.c      monomial keys and memoised monomial products, element products;
 *   _nimc_nimber.c    conversions and the NimberBase type (the + and * slots);
 *   _nimc.c           this file: the module's functions, its table and its initialisation.
 *
 * Every loop that can run long (products of large elements, Frobenius maps and powers, the
 * monomial reductions they trigger) counts its work with tick_add(): every TICK_SIGNALS
 * monomial products it runs PyErr_CheckSignals() (so Ctrl-C and a signal.alarm handler are
 * answered within a fraction of a second) and, every TICK_CHECK, the budget callback set by
 * set_check() (cgtalg.nimbers.limits.budget_check: the time and memory ceilings of the budgets
 * open in the calling thread). A failed check returns -1 with the exception set, frees what was
 * allocated, and is never mistaken for a request of the Python path (the flag `stopped`).
 */
#include "_nimc.h"

#ifndef CGTALG_NIMC_SOURCE_HASH
#define CGTALG_NIMC_SOURCE_HASH ""
#endif

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
