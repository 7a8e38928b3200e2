/*
 * _pgc_grid.c: Clobber and Konane in the partizan kernel, on 8 x 8 bitboards.
 *
 * A position is three uint64 (bit 8 r + c is the square (r, c)): Left's stones x, Right's
 * stones o, and the board (the squares on the grid; Konane's walls and the squares outside the
 * grid are not on it). Moves:
 *   Clobber (Albert, Grossman, Nowakowski, Wolfe 2005): a stone moves onto an orthogonally
 *     adjacent opponent stone, which is removed;
 *   Konane (Ernst 1995): a stone jumps orthogonally over an adjacent opponent stone into the
 *     empty square beyond (on the board), removing it, and may go on jumping in the same
 *     direction; each stopping square is a separate move.
 * Components (the position is their disjunctive sum, Siegel CGT II.1):
 *   Clobber: the 4-connected groups of stones;
 *   Konane: the 4-connected groups of the closure R of the occupied squares under "an empty
 *     board square two steps beyond a square of R across a square of R" (the only squares a
 *     stone may ever stand on: stones in different groups never meet); a group's board is its
 *     part of R.
 * Groups with stones of one colour only are 0 and dropped. A group is cropped to its bounding
 * box and normalised to the least of its 8 images under the grid's symmetries (all keep both
 * games' rules); its canonical form is memoised on that normal form.
 */
#include "_pgc.h"
#include <stdlib.h>
#include <string.h>

#define COL0 0x0101010101010101ULL
#define COL7 0x8080808080808080ULL

enum { GAME_CLOBBER = 0, GAME_KONANE = 1 };

typedef struct {
    uint64_t x, o, b;
} Pos;

/* -- memo: normalised component (x, o, board: three words) -> canonical form id ----------- */
static PgKeyMap gmemo;
static PgTicker ticker = {NULL, 0};

void pgc_grid_clear(void) { pgkm_clear(&gmemo); }

int64_t pgc_grid_entries(void) { return (int64_t)gmemo.n; }

/* -- bitboard geometry -------------------------------------------------------------------- */
/* the four directions: 0 east (c+1), 1 west (c-1), 2 south (r+1), 3 north (r-1) */
static inline uint64_t shift(uint64_t b, int d)
{
    switch (d) {
    case 0:
        return (b << 1) & ~COL0;
    case 1:
        return (b >> 1) & ~COL7;
    case 2:
        return b << 8;
    default:
        return b >> 8;
    }
}

static inline uint64_t neighbours(uint64_t b)
{
    return ((b << 1) & ~COL0) | ((b >> 1) & ~COL7) | (b << 8) | (b >> 8);
}

static inline uint64_t rev_bytes_bits(uint64_t b)
{
    b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
    b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
    b = ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return b;
}

static inline uint64_t transpose(uint64_t x)
{
    uint64_t t;
    t = 0x0f0f0f0f00000000ULL & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = 0x3333000033330000ULL & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = 0x5500550055005500ULL & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    return x;
}

static inline int plt(Pos a, Pos b)
{
    if (a.x != b.x)
        return a.x < b.x;
    if (a.o != b.o)
        return a.o < b.o;
    return a.b < b.b;
}

/* crop so that the extent (the union of the three boards) starts at row 0 and column 0 */
static Pos crop(Pos p, int *h, int *w)
{
    uint64_t all = p.x | p.o | p.b;
    int r0 = __builtin_ctzll(all) / 8;
    uint64_t cols = all | (all >> 32);
    cols |= cols >> 16;
    cols |= cols >> 8;
    cols &= 0xFF;
    int c0 = __builtin_ctzll(cols);
    int s = 8 * r0 + c0;
    p.x >>= s;
    p.o >>= s;
    p.b >>= s;
    all >>= s;
    *h = (63 - __builtin_clzll(all)) / 8 + 1;
    *w = 64 - __builtin_clzll(cols >> c0);
    return p;
}

static inline uint64_t flip_rows(uint64_t b, int h) { return h == 8 ? __builtin_bswap64(b) : __builtin_bswap64(b) >> (8 * (8 - h)); }
static inline uint64_t flip_cols(uint64_t b, int w) { return rev_bytes_bits(b) >> (8 - w); }

static Pos normal_form(Pos p)
{
    int h, w;
    p = crop(p, &h, &w);
    Pos best = p;
    for (int t = 0; t < 2; t++) {
        Pos q = p;
        int hh = h, ww = w;
        if (t) {
            q.x = transpose(p.x);
            q.o = transpose(p.o);
            q.b = transpose(p.b);
            hh = w;
            ww = h;
        }
        for (int f = 0; f < 4; f++) {
            Pos r = q;
            if (f & 1) {
                r.x = flip_rows(r.x, hh);
                r.o = flip_rows(r.o, hh);
                r.b = flip_rows(r.b, hh);
            }
            if (f & 2) {
                r.x = flip_cols(r.x, ww);
                r.o = flip_cols(r.o, ww);
                r.b = flip_cols(r.b, ww);
            }
            if (plt(r, best))
                best = r;
        }
    }
    return best;
}

static inline uint64_t grow_in(uint64_t c, uint64_t within)
{
    for (;;) {
        uint64_t g = (c | neighbours(c)) & within;
        if (g == c)
            return c;
        c = g;
    }
}

/* Konane: the squares a stone may ever stand on */
static uint64_t konane_reach(uint64_t x, uint64_t o, uint64_t board)
{
    uint64_t r = x | o;
    for (;;) {
        uint64_t add = 0;
        for (int d = 0; d < 4; d++) {
            /* s in r with s+d in r: the squares s+2d beyond */
            uint64_t mid = shift(r, d) & r;
            add |= shift(mid, d);
        }
        add &= board & ~r;
        if (!add)
            return r;
        r |= add;
    }
}

static int32_t solve_grid(Pos p, int game);

/* the canonical form of a position (any number of components) */
static int32_t grid_value(uint64_t x, uint64_t o, uint64_t board, int game)
{
    uint64_t within = game == GAME_KONANE ? konane_reach(x, o, board) : (x | o);
    int32_t acc = 0;
    while (within) {
        uint64_t comp = grow_in(within & -within, within);
        within &= ~comp;
        if (!(x & comp) || !(o & comp))
            continue; /* one colour only: no move for anyone, ever */
        Pos c = {x & comp, o & comp, game == GAME_KONANE ? comp : 0};
        if (pg_accumulate(&acc, solve_grid(normal_form(c), game)) < 0)
            return -1;
    }
    return acc;
}

/* the options of `me` (stones m) against `them` (stones t), pushed as canonical forms */
static int side_options(Pos p, int left, int game, PgVec *out)
{
    uint64_t me = left ? p.x : p.o, them = left ? p.o : p.x;
    uint64_t board = game == GAME_KONANE ? p.b : ~0ULL;
    uint64_t stones = me;
    while (stones) {
        uint64_t s = stones & -stones;
        stones ^= s;
        for (int d = 0; d < 4; d++) {
            if (game == GAME_CLOBBER) {
                uint64_t t = shift(s, d);
                if (!(t & them))
                    continue;
                uint64_t nme = (me & ~s) | t, nthem = them & ~t;
                int32_t v = left ? grid_value(nme, nthem, board, game) : grid_value(nthem, nme, board, game);
                if (v < 0 || pgvec_push(out, v) < 0)
                    return -1;
            } else {
                uint64_t cur = s, nthem = them;
                uint64_t occupied = p.x | p.o;
                for (;;) {
                    uint64_t m = shift(cur, d);
                    uint64_t e = shift(m, d);
                    if (!(m & nthem) || !e || !(e & board) || (e & occupied))
                        break;
                    nthem &= ~m;
                    occupied &= ~(m | cur);
                    occupied |= e;
                    cur = e;
                    uint64_t nme = (me & ~s) | e;
                    int32_t v = left ? grid_value(nme, nthem, board, game) : grid_value(nthem, nme, board, game);
                    if (v < 0 || pgvec_push(out, v) < 0)
                        return -1;
                }
            }
        }
    }
    return 0;
}

static int32_t solve_grid(Pos p, int game)
{
    int32_t id;
    uint64_t key[3] = {p.x, p.o, p.b}, h = pgkm_hash(key, 3);
    if (pgkm_get(&gmemo, key, 3, h, &id))
        return id;
    if (pg_poll(&ticker) < 0)
        return -1;
    PgVec L = {0}, R = {0};
    id = -1;
    if (side_options(p, 1, game, &L) == 0 && side_options(p, 0, game, &R) == 0)
        id = pg_canon_vecs(&L, &R);
    free(L.a);
    free(R.a);
    if (id < 0 || pgkm_put(&gmemo, key, 3, h, id) < 0 || pg_solved(&ticker) < 0)
        return -1;
    return id;
}

/* the canonical form's id of a Clobber (game 0) or Konane (game 1) position given as three
   bitboards (8 x 8, bit 8 r + c); tick (a callable or NULL) is called with the number of
   components solved by this call every 256 of them, and may raise to stop the search */
int pgc_grid_solve(uint64_t x, uint64_t o, uint64_t board, int game, PyObject *tick, int32_t *out)
{
    if (game != GAME_CLOBBER && game != GAME_KONANE) {
        PyErr_SetString(PyExc_ValueError, "grid game: 0 (Clobber) or 1 (Konane)");
        return -1;
    }
    if ((x & o) || ((x | o) & ~board)) {
        PyErr_SetString(PyExc_ValueError, "grid game: stones overlap or lie off the board");
        return -1;
    }
    ticker.tick = tick;
    ticker.solved = 0;
    int32_t v = grid_value(x, o, board, game);
    ticker.tick = NULL;
    if (v < 0)
        return -1;
    *out = v;
    return 0;
}
