/*
 * _quotc_check.c: the P-condition per heap (p_check), the compatible elements of a new heap
 * (compatible), the images of the heaps' options (images) and the Nerode classes of a
 * P-portion by Moore's refinement (nerode).
 */
#include "_quotc.h"

/* the len marked elements z < m, as a sorted tuple of ints; the marks are cleared */
QUOTC_INTERNAL PyObject *marked_tuple(unsigned char *mark, int m, int len)
{
    PyObject *tup = PyTuple_New(len);
    if (!tup)
        return NULL;
    int cnt = 0;
    for (int z = 0; z < m && cnt < len; z++)
        if (mark[z]) {
            mark[z] = 0;
            PyTuple_SET_ITEM(tup, cnt++, PyLong_FromLong(z));
        }
    return tup;
}

/* ------------------------------------------------------------------------------------------ */
/* The P-condition and the compatible elements                                                  */
/* ------------------------------------------------------------------------------------------ */

/*
 * p_check(cols, colmap, P, edges, rank) -> list: for each edge (heap, g, S), the element x of
 * least rank (rank: int32 bytes, -1 for elements that are not images) with x*g in P and some
 * x*s in P (s in S), or -1.
 */
PyObject *py_p_check(PyObject *self, PyObject *args)
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
PyObject *py_compatible(PyObject *self, PyObject *args)
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
PyObject *py_images(PyObject *self, PyObject *args)
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
        PyObject *tup = marked_tuple(mark, m, len);
        if (!tup) {
            Py_CLEAR(out);
            goto done;
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

PyObject *py_nerode(PyObject *self, PyObject *args)
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
