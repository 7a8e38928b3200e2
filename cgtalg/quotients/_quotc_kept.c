/*
 * _quotc_kept.c: the Kept type: per element, the inclusion-minimal option-image sets an
 * N-search met (bitsets), with insertion (kept_insert), copying, merging and reading back.
 */
#include "_quotc.h"

/* ------------------------------------------------------------------------------------------ */
/* Kept: per element, the inclusion-minimal option-image sets met (bitsets)                     */
/* ------------------------------------------------------------------------------------------ */

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

/* 1: T was added (no kept set of x is contained in it; kept supersets removed), 0: covered,
   -1: out of memory */
int kept_insert(KeptObject *K, int x, const uint64_t *T, uint64_t sg)
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

PyTypeObject KeptType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cgtalg.quotients._quotc.Kept",
    .tp_basicsize = sizeof(KeptObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Kept(order): per element, the inclusion-minimal option-image sets of an N-search.",
    .tp_new = Kept_new,
    .tp_dealloc = (destructor)Kept_dealloc,
    .tp_methods = Kept_methods,
    .tp_getset = Kept_getset,
};

