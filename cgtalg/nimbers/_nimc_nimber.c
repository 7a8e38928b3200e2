/*
 * _nimc_nimber.c: conversions between the Python values (ints, dicts {monomial id: coeff})
 * and elements, and the Nimber base type (NimberBase) with its nim-sum and nim-product slots.
 */
#include "_nimc.h"

/* bound by setup_nimber() (_nimc.c) */
PyObject *g_cls = NULL;        /* the Nimber class (a subclass of NimberBase) */
PyObject *g_slow_add = NULL;   /* Nimber add with coercion / the Python path */
PyObject *g_slow_mul = NULL;   /* Nimber mul with coercion / the Python path */

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
int from_value(PyObject *v, Elem *e)
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
PyObject *to_dict(const Elem *e)
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

PyObject *make_nimber(PyObject *v) /* steals v */
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

PyObject *nimber_add(PyObject *a, PyObject *b)
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

PyObject *nimber_mul(PyObject *a, PyObject *b)
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

PyTypeObject NimberBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cgtalg.nimbers._nimc.NimberBase",
    .tp_basicsize = sizeof(NimberObject),
    .tp_dealloc = (destructor)nimber_dealloc,
    .tp_as_number = &nimber_as_number,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Storage and the nim-sum / nim-product slots of cgtalg.nimbers.Nimber.",
    .tp_members = nimber_members,
};
