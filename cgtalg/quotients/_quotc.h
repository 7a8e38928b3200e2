/*
 * _quotc.h: the private header of the _quotc extension (cgtalg/quotients/_quotc*.c, compiled
 * together into one module by hatch_build.py; the source hash covers every one of those files
 * and this header). It holds what the files share: the Ticker (interruption), the Monoid and
 * Edge readers of the arguments, the Kept object (kept option-image bitsets) with its inline
 * covering test, and the functions one file calls in another (the py_* entry points of the
 * module table in _quotc.c among them).
 */
#ifndef CGTALG_QUOTC_H
#define CGTALG_QUOTC_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

/* functions and objects shared by the files of the kernel, not exported by the module */
#if defined(__GNUC__) && !defined(_WIN32)
#define QUOTC_INTERNAL __attribute__((visibility("hidden")))
#else
#define QUOTC_INTERNAL
#endif

/* -- Interruption (_quotc_args.c) ---------------------------------------------------------- */

#define TICK_SIGNALS 1024u
#define TICK_CHECK 4096u

typedef struct {
    PyObject *check;          /* callable or NULL */
    uint64_t ticks, next_sig, next_check;
} Ticker;

QUOTC_INTERNAL int tick_slow(Ticker *tk);

/* count one state; every TICK_SIGNALS of them, tick_slow() */
static inline int tick(Ticker *tk)
{
    tk->ticks++;
    return tk->ticks < tk->next_sig ? 0 : tick_slow(tk);
}

QUOTC_INTERNAL void ticker_init(Ticker *tk, PyObject *check);

/* -- Reading arguments (_quotc_args.c) ----------------------------------------------------- */

typedef struct {
    Py_buffer cb, mb;
    const int32_t *cols, *colmap;
    Py_ssize_t rows;
    int m;
    int have_c, have_m;
} Monoid;


QUOTC_INTERNAL void monoid_release(Monoid *M);
QUOTC_INTERNAL int monoid_get(Monoid *M, PyObject *cols, PyObject *colmap);
/* the column of z (x -> x*z), or NULL with an exception when z is not available */
QUOTC_INTERNAL const int32_t *column(Monoid *M, long z);

/* An edge: one heap with its image g and the images S of its options. */
typedef struct {
    long heap;
    const int32_t *gcol;
    int ns;
    const int32_t **scols;
    int32_t *svals;
} Edge;

QUOTC_INTERNAL void edges_free(Edge *E, int k);
/* edges: a sequence of (heap, g, S) with S a sequence of elements */
QUOTC_INTERNAL Edge *edges_get(Monoid *M, PyObject *seq, int *k_out);
QUOTC_INTERNAL int bytes_of_len(PyObject *o, Py_buffer *b, Py_ssize_t n, const char *what);

/* -- Kept: per element, the inclusion-minimal option-image sets met (_quotc_kept.c) --------- */

typedef struct {
    PyObject_HEAD
    int m, W;
    int *cnt, *cap;
    uint64_t **bits; /* per element: cap * W words */
    uint64_t **sig;  /* per element: cap signatures (OR of the words) */
    Py_ssize_t total;
} KeptObject;

QUOTC_INTERNAL extern PyTypeObject KeptType;

static inline int subset(const uint64_t *a, const uint64_t *b, int W)
{
    for (int i = 0; i < W; i++)
        if (a[i] & ~b[i])
            return 0;
    return 1;
}

/* 1: T was added (no kept set of x is contained in it; kept supersets removed), 0: covered,
   -1: out of memory */
QUOTC_INTERNAL int kept_insert(KeptObject *K, int x, const uint64_t *T, uint64_t sg);

/* whether some kept set of x is contained in T */
static inline int kept_covered(const KeptObject *K, int x, const uint64_t *T, uint64_t sg)
{
    int W = K->W, n = K->cnt[x];
    const uint64_t *bs = K->bits[x], *sv = K->sig[x];
    for (int i = 0; i < n; i++)
        if (!(sv[i] & ~sg) && subset(bs + (Py_ssize_t)i * W, T, W))
            return 1;
    return 0;
}

/* the len marked elements z < m as a sorted tuple, marks cleared (_quotc_check.c) */
QUOTC_INTERNAL PyObject *marked_tuple(unsigned char *mark, int m, int len);

/* -- The module's functions (the table of _quotc.c) ----------------------------------------- */

QUOTC_INTERNAL PyObject *py_nsearch(PyObject *self, PyObject *args);       /* _quotc_search.c */
QUOTC_INTERNAL PyObject *py_walk(PyObject *self, PyObject *args);          /* _quotc_search.c */
QUOTC_INTERNAL PyObject *py_p_check(PyObject *self, PyObject *args);       /* _quotc_check.c */
QUOTC_INTERNAL PyObject *py_compatible(PyObject *self, PyObject *args);    /* _quotc_check.c */
QUOTC_INTERNAL PyObject *py_images(PyObject *self, PyObject *args);        /* _quotc_check.c */
QUOTC_INTERNAL PyObject *py_nerode(PyObject *self, PyObject *args);        /* _quotc_check.c */
QUOTC_INTERNAL PyObject *py_prod_block(PyObject *self, PyObject *args);    /* _quotc_prod.c */
QUOTC_INTERNAL PyObject *py_tb_images(PyObject *self, PyObject *args);     /* _quotc_prod.c */
QUOTC_INTERNAL PyObject *py_generate(PyObject *self, PyObject *args);      /* _quotc_prod.c */
QUOTC_INTERNAL PyObject *py_prod_generate(PyObject *self, PyObject *args); /* _quotc_prod.c */

#endif /* CGTALG_QUOTC_H */
