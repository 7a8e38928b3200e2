/*
 * _quotc: the compiled searches of cgtalg's misère-quotient construction.
 *
 * cgtalg.quotients.pretension holds the reference (Python) implementation of each search and the
 * proofs; this module runs the same searches in C, with the same results (cross-checked in
 * tests/test_quotient_kernel.py). cgtalg.quotients.kernel loads it and wraps it.
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
 * exact (see cgtalg.quotients.pretension). The walk is an odometer: the largest heap is the most
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
 * The kernel is split by topic (one extension module; hatch_build.py compiles them together):
 *   _quotc.h          the shared types and prototypes;
 *   _quotc_args.c     interruption (Ticker) and reading the arguments (columns, edges);
 *   _quotc_kept.c     the Kept type (kept minimal option-image sets, bitsets);
 *   _quotc_search.c   the N-search, the least words and the P-marking walk;
 *   _quotc_check.c    the P-check, the compatible elements, the option images, Nerode classes;
 *   _quotc_prod.c     product submonoids (blocks, generation), generation from columns, and
 *                     the option images of take-and-break codes;
 *   _quotc.c          this file: the module table and its initialisation.
 *
 * Interruption: every TICK_SIGNALS states PyErr_CheckSignals() (Ctrl-C, signal.alarm), every
 * TICK_CHECK states the budget callback `check` (cgtalg.budget.Deadline.check); either raising
 * stops the search with the exception set, after freeing what it allocated.
 */
#include "_quotc.h"

#ifndef CGTALG_QUOTC_SOURCE_HASH
#define CGTALG_QUOTC_SOURCE_HASH ""
#endif

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
