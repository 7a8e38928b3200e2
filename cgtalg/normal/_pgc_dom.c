/*
 * _pgc_dom.c: Domineering in the partizan kernel (Left places vertical dominoes, Right
 * horizontal ones: CGSuite's and Winning Ways' convention, ch. 5).
 *
 * A board of at most 64 cells is one uint64 whose rows are `stride` bits apart (stride = the
 * board's width, or 8 for boards of at most 8 x 8, the common case, whose normalisation is a
 * few byte operations): bit stride r + c is the cell (r, c), set when free.
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

/* the memos: normalised component -> canonical form id; one for stride 8, one for the wider
   stride last searched (emptied when the stride changes: wide boards are rare) */
static U64Map dmemo = {NULL, NULL, 0, 0}, wmemo = {NULL, NULL, 0, 0};
static int wstride = 0;
static PgTicker ticker = {NULL, 0};

/* the geometry of the wide search under way: stride, first and last columns, one row */
static int W = 8;
static uint64_t FIRST = COL0, LAST = COL7, ROW = 0xFF;

void pgc_dom_clear(void)
{
    u64map_clear(&dmemo);
    u64map_clear(&wmemo);
}

int64_t pgc_dom_entries(void) { return (int64_t)(dmemo.n + wmemo.n); }

static inline uint64_t rev_in_bytes(uint64_t b)
{
    b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
    b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
    b = ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return b;
}

static inline uint64_t rev_bits(uint64_t x, int w)
{
    uint64_t r = 0;
    for (int i = 0; i < w; i++)
        if (x >> i & 1)
            r |= 1ULL << (w - 1 - i);
    return r;
}

static inline uint64_t least4(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t m = a < b ? a : b;
    m = m < c ? m : c;
    return m < d ? m : d;
}

/* the cropped board's least image under the row and column reversals (stride s) */
static inline __attribute__((always_inline)) uint64_t normalise(uint64_t b, const int s)
{
    b >>= s * (__builtin_ctzll(b) / s);
    uint64_t cols = 0;
    if (s == 8) {
        cols = b | (b >> 32);
        cols |= cols >> 16;
        cols |= cols >> 8;
        cols &= 0xFF;
    } else {
        for (int r = 0; r * s < 64; r++)
            cols |= (b >> (r * s)) & ROW;
    }
    int c0 = __builtin_ctzll(cols);
    b >>= c0;
    cols >>= c0;
    int h = (63 - __builtin_clzll(b)) / s + 1, w = 64 - __builtin_clzll(cols);
    if (s == 8) {
        uint64_t rr = h == 8 ? __builtin_bswap64(b) : __builtin_bswap64(b) >> (8 * (8 - h));
        return least4(b, rr, rev_in_bytes(b) >> (8 - w), rev_in_bytes(rr) >> (8 - w));
    }
    uint64_t rr = 0, cr = 0, rc = 0;
    for (int r = 0; r < h; r++) {
        uint64_t row = (b >> (r * s)) & ROW, rev = rev_bits(row, w);
        rr |= row << ((h - 1 - r) * s);
        cr |= rev << (r * s);
        rc |= rev << ((h - 1 - r) * s);
    }
    return least4(b, rr, cr, rc);
}

/* The search, written once and compiled twice (the bodies are inlined into value8/solve8 with
   the stride 8 a constant, and into valuew/solvew with the stride of the wide board). */
typedef int32_t (*Solver)(uint64_t);

/* the canonical form of a board (any number of components) */
static inline __attribute__((always_inline)) int32_t value_body(uint64_t board, const int s, const uint64_t first,
                                                                const uint64_t last, Solver solve)
{
    int32_t acc = 0;
    while (board) {
        uint64_t comp = board & -board;
        for (;;) {
            uint64_t g = (comp | ((comp << 1) & ~first) | ((comp >> 1) & ~last) | (comp << s) | (comp >> s)) & board;
            if (g == comp)
                break;
            comp = g;
        }
        board &= ~comp;
        if (comp & (comp - 1) && pg_accumulate(&acc, solve(normalise(comp, s))) < 0)
            return -1; /* (a single cell: no move for anyone) */
    }
    return acc;
}

/* the canonical form of a normalised component, memoised */
static inline __attribute__((always_inline)) int32_t solve_body(uint64_t b, const int s, const uint64_t last,
                                                                U64Map *m, Solver value)
{
    int32_t id;
    if (u64map_get(m, b, &id))
        return id;
    if (pg_poll(&ticker) < 0)
        return -1;
    uint64_t vert = b & (b >> s);
    uint64_t horiz = b & (b >> 1) & ~last;
    int nl = __builtin_popcountll(vert), nr = __builtin_popcountll(horiz);
    int32_t opts[128];
    int k = 0;
    for (; vert; vert &= vert - 1) {
        uint64_t p = vert & -vert;
        if ((opts[k++] = value(b & ~(p | (p << s)))) < 0)
            return -1;
    }
    for (; horiz; horiz &= horiz - 1) {
        uint64_t p = horiz & -horiz;
        if ((opts[k++] = value(b & ~(p | (p << 1)))) < 0)
            return -1;
    }
    id = pg_canon(opts, nl, opts + nl, nr);
    if (id < 0 || u64map_put(m, b, id) < 0 || pg_solved(&ticker) < 0)
        return -1;
    return id;
}

static int32_t value8(uint64_t b);
static int32_t valuew(uint64_t b);
static int32_t solve8(uint64_t b) { return solve_body(b, 8, COL7, &dmemo, value8); }
static int32_t solvew(uint64_t b) { return solve_body(b, W, LAST, &wmemo, valuew); }
static int32_t value8(uint64_t b) { return value_body(b, 8, COL0, COL7, solve8); }
static int32_t valuew(uint64_t b) { return value_body(b, W, FIRST, LAST, solvew); }

/* the canonical form's id of the board given as rows (bit c of rows[r]: cell (r, c) free), at
   most 64 cells (rows x columns); tick (a callable or NULL) is called with the number of
   components solved by this call every 256 of them, and may raise to stop the search */
int pgc_dom_solve(const uint64_t *rows, int nrows, int32_t *out, PyObject *tick)
{
    uint64_t all = 0, b = 0;
    for (int r = 0; r < nrows; r++)
        all |= rows[r];
    int width = all ? 64 - __builtin_clzll(all) : 0;
    int narrow = (nrows <= 8 && width <= 8) || !all;
    if (narrow) {
        W = 8;
    } else if (nrows * width <= 64 && width < 64) {
        if (wstride != width) { /* the wide memo holds one stride at a time */
            u64map_clear(&wmemo);
            wstride = width;
        }
        W = width;
    } else {
        PyErr_SetString(PyExc_OverflowError, "the kernel's Domineering takes boards of at most 64 cells (rows x columns)");
        return -1;
    }
    ROW = (1ULL << W) - 1;
    FIRST = 0;
    for (int r = 0; r * W < 64; r++)
        FIRST |= 1ULL << (r * W);
    LAST = FIRST << (W - 1);
    for (int r = 0; r < nrows; r++)
        b |= rows[r] << (W * r);
    ticker.tick = tick;
    ticker.solved = 0;
    int32_t v = narrow ? value8(b) : valuew(b);
    ticker.tick = NULL;
    if (v < 0)
        return -1;
    *out = v;
    return 0;
}
