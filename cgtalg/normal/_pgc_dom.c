/*
 * _pgc_dom.c: Domineering in the partizan kernel (Left places vertical dominoes, Right
 * horizontal ones: CGSuite's and Winning Ways' convention, ch. 5).
 *
 * A board of at most 8 x 8 cells is one uint64: bit 8 r + c is the cell (r, c), set when free.
 * A position's value is the canonical sum of its components' values (the 4-connected regions
 * of free cells; Siegel CGT II.1); each component is cropped and normalised to the least of its
 * images under reversing the rows and/or the columns (the symmetries that keep vertical
 * vertical), and its canonical form, built from the canonical forms of its options
 * (pg_canon), is memoised on that normal form.
 */
#include "_pgc.h"
#include <stdlib.h>
#include <string.h>

#define COL0 0x0101010101010101ULL
#define COL7 0x8080808080808080ULL

/* the memo: normalised component -> canonical form id (open addressing; key 0 is "empty":
   the empty board is never stored) */
static U64Map dmemo = {NULL, NULL, 0, 0};
static PyObject *tick_fn = NULL; /* called with the count of components solved, every 256 */
static int64_t solved = 0;

static void wmemo_clear(void);

void pgc_dom_clear(void)
{
    wmemo_clear();
    u64map_clear(&dmemo);
}

int64_t pgc_dom_entries(void) { return (int64_t)dmemo.n; }

static inline uint64_t fold_cols(uint64_t b)
{
    b |= b >> 32;
    b |= b >> 16;
    b |= b >> 8;
    return b & 0xFF;
}

static inline uint64_t rev_in_bytes(uint64_t b)
{
    b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
    b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
    b = ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return b;
}

/* the cropped board's least image under the row and column reversals */
static uint64_t normalise(uint64_t b)
{
    b >>= 8 * (__builtin_ctzll(b) / 8);
    uint64_t cols = fold_cols(b);
    int cmin = __builtin_ctzll(cols);
    b >>= cmin;
    cols >>= cmin;
    int h = (63 - __builtin_clzll(b)) / 8 + 1;
    int w = 64 - __builtin_clzll(cols);
    uint64_t rr = h == 8 ? __builtin_bswap64(b) : __builtin_bswap64(b) >> (8 * (8 - h));
    uint64_t cr = rev_in_bytes(b) >> (8 - w);
    uint64_t rc = rev_in_bytes(rr) >> (8 - w);
    uint64_t m = b;
    if (rr < m)
        m = rr;
    if (cr < m)
        m = cr;
    if (rc < m)
        m = rc;
    return m;
}

static inline uint64_t grow(uint64_t c, uint64_t board)
{
    for (;;) {
        uint64_t g = (c | ((c << 1) & ~COL0) | ((c >> 1) & ~COL7) | (c << 8) | (c >> 8)) & board;
        if (g == c)
            return c;
        c = g;
    }
}

static int32_t solve_component(uint64_t b);

/* the canonical form of a board (any number of components) */
static int32_t value_of(uint64_t board)
{
    int32_t acc = 0;
    while (board) {
        uint64_t comp = grow(board & -board, board);
        board &= ~comp;
        if (!(comp & (comp - 1)))
            continue; /* a single cell: no move for anyone */
        int32_t v = solve_component(normalise(comp));
        if (v < 0)
            return -1;
        acc = acc ? pg_add(acc, v) : v;
        if (acc < 0)
            return -1;
    }
    return acc;
}

static int32_t solve_component(uint64_t b)
{
    int32_t id;
    if (b != UINT64_MAX && u64map_get(&dmemo, b, &id))
        return id;
    if ((solved & 0xFF) == 0 && PyErr_CheckSignals() < 0)
        return -1;
    uint64_t vert = b & (b >> 8);
    uint64_t horiz = b & (b >> 1) & ~COL7;
    int nl = __builtin_popcountll(vert), nr = __builtin_popcountll(horiz);
    int32_t opts[128];
    int k = 0;
    while (vert) {
        uint64_t p = vert & -vert;
        vert ^= p;
        int32_t v = value_of(b & ~(p | (p << 8)));
        if (v < 0)
            return -1;
        opts[k++] = v;
    }
    while (horiz) {
        uint64_t p = horiz & -horiz;
        horiz ^= p;
        int32_t v = value_of(b & ~(p | (p << 1)));
        if (v < 0)
            return -1;
        opts[k++] = v;
    }
    id = pg_canon(opts, nl, opts + nl, nr);
    if (id < 0)
        return -1;
    if (b != UINT64_MAX && u64map_put(&dmemo, b, id) < 0)
        return -1;
    if ((++solved & 0xFF) == 0 && tick_fn) {
        PyObject *r = PyObject_CallFunction(tick_fn, "L", (long long)solved);
        if (!r)
            return -1;
        Py_DECREF(r);
    }
    return id;
}

/* -- boards wider than 8 columns: rows `stride` bits apart (rows x stride <= 64) ------------ */
static int W = 8;                 /* the stride of the current wide search */
static uint64_t WFIRST, WLAST, WROW;
static U64Map wmemo = {NULL, NULL, 0, 0}; /* key: board; emptied when the stride changes
                                             (wide boards are rare) */
static int wstride = 0;

static void wmemo_clear(void) { u64map_clear(&wmemo); }

static inline uint64_t rev_bits(uint64_t x, int w)
{
    uint64_t r = 0;
    for (int i = 0; i < w; i++)
        if (x >> i & 1)
            r |= 1ULL << (w - 1 - i);
    return r;
}

static uint64_t normalise_w(uint64_t b)
{
    const int s = W;
    b >>= s * (__builtin_ctzll(b) / s);
    uint64_t cols = 0;
    for (int r = 0; r * s < 64; r++)
        cols |= (b >> (r * s)) & WROW;
    int c0 = __builtin_ctzll(cols);
    b >>= c0;
    cols >>= c0;
    int h = (63 - __builtin_clzll(b)) / s + 1, w = 64 - __builtin_clzll(cols);
    uint64_t rr = 0, cr = 0, rc = 0;
    for (int r = 0; r < h; r++) {
        uint64_t row = (b >> (r * s)) & WROW, rev = rev_bits(row, w);
        rr |= row << ((h - 1 - r) * s);
        cr |= rev << (r * s);
        rc |= rev << ((h - 1 - r) * s);
    }
    uint64_t m = b;
    if (rr < m)
        m = rr;
    if (cr < m)
        m = cr;
    if (rc < m)
        m = rc;
    return m;
}

static int32_t solve_w(uint64_t b);

static int32_t value_w(uint64_t board)
{
    int32_t acc = 0;
    while (board) {
        uint64_t c = board & -board;
        for (;;) {
            uint64_t g = (c | ((c << 1) & ~WFIRST) | ((c >> 1) & ~WLAST) | (c << W) | (c >> W)) & board;
            if (g == c)
                break;
            c = g;
        }
        board &= ~c;
        if (!(c & (c - 1)))
            continue;
        int32_t v = solve_w(normalise_w(c));
        if (v < 0)
            return -1;
        acc = acc ? pg_add(acc, v) : v;
        if (acc < 0)
            return -1;
    }
    return acc;
}

static int32_t solve_w(uint64_t b)
{
    int32_t id;
    if (u64map_get(&wmemo, b, &id))
        return id;
    if ((solved & 0xFF) == 0 && PyErr_CheckSignals() < 0)
        return -1;
    uint64_t vert = b & (b >> W);
    uint64_t horiz = b & (b >> 1) & ~WLAST;
    int nl = __builtin_popcountll(vert), nr = __builtin_popcountll(horiz);
    int32_t opts[128];
    int k = 0;
    while (vert) {
        uint64_t p = vert & -vert;
        vert ^= p;
        int32_t v = value_w(b & ~(p | (p << W)));
        if (v < 0)
            return -1;
        opts[k++] = v;
    }
    while (horiz) {
        uint64_t p = horiz & -horiz;
        horiz ^= p;
        int32_t v = value_w(b & ~(p | (p << 1)));
        if (v < 0)
            return -1;
        opts[k++] = v;
    }
    id = pg_canon(opts, nl, opts + nl, nr);
    if (id < 0 || u64map_put(&wmemo, b, id) < 0)
        return -1;
    if ((++solved & 0xFF) == 0 && tick_fn) {
        PyObject *r = PyObject_CallFunction(tick_fn, "L", (long long)solved);
        if (!r)
            return -1;
        Py_DECREF(r);
    }
    return id;
}

/* the canonical form's id of the board given as rows (bit c of rows[r]: cell (r, c) free), at
   most 8 x 8; tick (a callable or NULL) is called with the number of components solved by
   this call every 256 of them, and may raise to stop the search */
int pgc_dom_solve(const uint64_t *rows, int nrows, int32_t *out, PyObject *tick)
{
    uint64_t b = 0, all = 0;
    for (int r = 0; r < nrows; r++)
        all |= rows[r];
    int width = all ? 64 - __builtin_clzll(all) : 0;
    int32_t v;
    tick_fn = tick;
    solved = 0;
    if (nrows <= 8 && width <= 8) {
        for (int r = 0; r < nrows; r++)
            b |= rows[r] << (8 * r);
        v = value_of(b);
    } else if (nrows * width <= 64 && width < 64) {
        if (wstride != width) {  /* the wide memo holds one stride at a time */
            wmemo_clear();
            wstride = width;
        }
        W = width;
        WROW = (1ULL << W) - 1;
        WFIRST = 0;
        for (int r = 0; r * W < 64; r++)
            WFIRST |= 1ULL << (r * W);
        WLAST = WFIRST << (W - 1);
        for (int r = 0; r < nrows; r++)
            b |= rows[r] << (W * r);
        v = value_w(b);
    } else {
        tick_fn = NULL;
        PyErr_SetString(PyExc_OverflowError, "the kernel's Domineering takes boards of at most 64 cells (rows x columns)");
        return -1;
    }
    tick_fn = NULL;
    if (v < 0)
        return -1;
    *out = v;
    return 0;
}
