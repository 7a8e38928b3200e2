/*
 * _quotc_args.c: interruption (the Ticker: signals and the budget callback) and reading the
 * arguments of the searches (the monoid's columns, the edges (heap, g, S), byte buffers).
 */
#include "_quotc.h"

int tick_slow(Ticker *tk)
{
    tk->next_sig = tk->ticks + TICK_SIGNALS;
    /* let the other threads run for a moment (a watchdog thread enforcing a budget or turning
     * Ctrl-C into an exception): the searches hold Python objects, so they keep the GIL
     * between ticks and yield it here, where nothing is half-done */
    Py_BEGIN_ALLOW_THREADS
    Py_END_ALLOW_THREADS
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

void ticker_init(Ticker *tk, PyObject *check)
{
    tk->check = (check && check != Py_None) ? check : NULL;
    tk->ticks = 0;
    tk->next_sig = TICK_SIGNALS;
    tk->next_check = TICK_CHECK;
}

/* ------------------------------------------------------------------------------------------ */
/* Reading arguments                                                                            */
/* ------------------------------------------------------------------------------------------ */

void monoid_release(Monoid *M)
{
    if (M->have_c)
        PyBuffer_Release(&M->cb);
    if (M->have_m)
        PyBuffer_Release(&M->mb);
    M->have_c = M->have_m = 0;
}

int monoid_get(Monoid *M, PyObject *cols, PyObject *colmap)
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
const int32_t *column(Monoid *M, long z)
{
    if (z < 0 || z >= M->m || M->colmap[z] < 0 || M->colmap[z] >= M->rows) {
        PyErr_Format(PyExc_ValueError, "no column for element %ld", z);
        return NULL;
    }
    return M->cols + (Py_ssize_t)M->colmap[z] * M->m;
}


void edges_free(Edge *E, int k)
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
Edge *edges_get(Monoid *M, PyObject *seq, int *k_out)
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

int bytes_of_len(PyObject *o, Py_buffer *b, Py_ssize_t n, const char *what)
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
