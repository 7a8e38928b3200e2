/*
 * _pgc_graph.c: Snort and Col on graphs of at most 64 vertices in the partizan kernel
 * (Winning Ways ch. 2 and 6; ONAG ch. 15; the rules and the tinting are those of
 * cgtalg.rulesets.partizan.snort_col, which keeps the Python search as the reference).
 *
 * The graph is given once per search: n vertices, adj[v] the bitmask of v's neighbours. A
 * position is two bitmasks: L, the vertices Left may still colour, and R, those Right may
 * still colour (a vertex in both is untinted; one in neither is coloured or dead, off the
 * graph). Colouring v takes it off; in Snort its neighbours lose the other player's right to
 * be coloured, in Col the mover's own.
 *
 * An edge that can never matter again is dropped: in Snort one between two vertices only Left
 * (or only Right) may colour, in Col one between a vertex only Left may colour and one only
 * Right may colour (a move at either end takes from the other only a right it has not got).
 * The components of the graph left (Siegel CGT II.1: the position is their sum) are solved
 * apart, each memoised twice:
 *   - on its exact (L, R) in the labels of the graph searched (a memo emptied when the graph
 *     or the game changes);
 *   - on a relabelling that does not depend on the labels: colour refinement from the tints
 *     (1-dimensional Weisfeiler-Leman), a vertex of the first class of two or more that are not
 *     all twins individualised (the lowest label: a choice that may depend on the labels) and
 *     refinement again, until every class is one vertex or twins (vertices with the same
 *     neighbours besides each other: any order of them gives the same key); the vertices in the
 *     order of their colours, then of their labels. The key is the
 *     whole relabelled graph (its size, the tints in order, the adjacency's lower triangle), so
 *     equal keys are isomorphic tinted graphs, the same game, whatever the relabelling did:
 *     isomorphic components share a key whenever the individualised vertices were in one
 *     orbit (always when refinement alone separates every vertex), and only miss otherwise.
 *     This memo is kept across searches (one per game).
 * A component of one vertex is * (untinted), 1 (Left's) or -1 (Right's).
 */
#include "_pgc.h"
#include <stdlib.h>
#include <string.h>

enum { GAME_COL = 0, GAME_SNORT = 1 };

static int gn = 0, snort = 1;
static uint64_t adj[64];
static uint64_t graph_sig = 0;        /* the graph and game the exact memo is for */
static PgKeyMap exact, relabelled[2];
static PgTicker ticker = {NULL, 0};
static int32_t ONE = -1, MINUS_ONE = -1, STAR = -1;

void pgc_graph_clear(void)
{
    pgkm_clear(&exact);
    pgkm_clear(&relabelled[0]);
    pgkm_clear(&relabelled[1]);
    graph_sig = 0;
}

int64_t pgc_graph_entries(void) { return (int64_t)(relabelled[0].n + relabelled[1].n); }

/* the neighbours of v that still matter, among the live vertices */
static inline uint64_t links(int v, uint64_t L, uint64_t R)
{
    uint64_t live = L | R, bit = 1ULL << v, lonly = L & ~R, ronly = R & ~L;
    uint64_t nb = adj[v] & live;
    if (snort) {
        if (lonly & bit)
            nb &= ~lonly;
        else if (ronly & bit)
            nb &= ~ronly;
    } else {
        if (lonly & bit)
            nb &= ~ronly;
        else if (ronly & bit)
            nb &= ~lonly;
    }
    return nb;
}

typedef struct {
    uint64_t c;
    int i;
} Tag;

/* sort by colour (insertion sort: at most 64); returns the number of distinct colours */
static int sort_tags(Tag *t, int k)
{
    for (int a = 1; a < k; a++) {
        Tag x = t[a];
        int b = a - 1;
        while (b >= 0 && (t[b].c > x.c || (t[b].c == x.c && t[b].i > x.i))) {
            t[b + 1] = t[b];
            b--;
        }
        t[b + 1] = x;
    }
    int d = k > 0;
    for (int a = 1; a < k; a++)
        d += t[a].c != t[a - 1].c;
    return d;
}

/* refine the colours c of the k vertices (local neighbour masks nb) until stable; returns the
   number of classes, with t sorted by colour */
static int refine(uint64_t *c, const uint64_t *nb, int k, Tag *t, int classes)
{
    uint64_t nc[64];
    for (int round = 0; round <= k; round++) {
        for (int i = 0; i < k; i++) {
            uint64_t s = 0;
            for (uint64_t m = nb[i]; m; m &= m - 1)
                s += pg_mix64(c[__builtin_ctzll(m)]);
            nc[i] = pg_mix64(c[i] * 0x9e3779b97f4a7c15ULL + s);
        }
        for (int i = 0; i < k; i++) {
            c[i] = nc[i];
            t[i].c = nc[i];
            t[i].i = i;
        }
        int d = sort_tags(t, k);
        if (d == classes || d == k)
            return d;
        classes = d;
    }
    return classes; /* (only after a collision of colours: the order of t is still total) */
}

/* whether the vertices t[s..e) are twins of t[s] (the same neighbours besides each other) */
static int twins(const Tag *t, int s, int e, const uint64_t *nb)
{
    int u = t[s].i;
    for (int j = s + 1; j < e; j++) {
        int v = t[j].i;
        if ((nb[u] & ~(1ULL << v)) != (nb[v] & ~(1ULL << u)))
            return 0;
    }
    return 1;
}

/* the relabelled key of the component (module comment); returns its length in words */
static int32_t relabel_key(uint64_t comp, uint64_t L, uint64_t R, uint64_t *key)
{
    int idx[64], loc[64], k = 0;
    for (uint64_t m = comp; m; m &= m - 1) {
        int v = __builtin_ctzll(m);
        loc[v] = k;
        idx[k++] = v;
    }
    uint64_t nb[64], c[64];
    Tag t[64];
    for (int i = 0; i < k; i++) {
        int v = idx[i];
        uint64_t m = links(v, L, R), local = 0;
        for (; m; m &= m - 1)
            local |= 1ULL << loc[__builtin_ctzll(m)];
        nb[i] = local;
        c[i] = pg_mix64((uint64_t)(((L >> v) & 1) | (((R >> v) & 1) << 1)) + 0x1234567ULL);
        t[i].c = c[i];
        t[i].i = i;
    }
    int classes = refine(c, nb, k, t, sort_tags(t, k));
    for (int round = 0; classes < k && round < k; round++) {
        /* individualise the lowest-labelled vertex of the first class of two or more that are
           not all twins (twins: the same neighbours besides each other, so swapping two is an
           automorphism, and their order among themselves does not change the key) */
        int a = -1;
        for (int s = 0, e; s < k && a < 0; s = e) {
            for (e = s + 1; e < k && t[e].c == t[s].c; e++)
                ;
            if (e - s >= 2 && !twins(t, s, e, nb))
                a = s;
        }
        if (a < 0)
            break;
        c[t[a].i] = pg_mix64(c[t[a].i] ^ 0x5bd1e9955bd1e995ULL);
        classes = refine(c, nb, k, t, classes + 1);
    }
    /* t is in a total order (ties, after a collision of colours only, by label) */
    int rank[64];
    for (int r = 0; r < k; r++)
        rank[t[r].i] = r;
    int tw = (2 * k + 63) / 64, aw = (k * (k - 1) / 2 + 63) / 64;
    int32_t len = 1 + tw + aw;
    memset(key, 0, (size_t)len * sizeof(uint64_t));
    key[0] = (uint64_t)k;
    for (int r = 0; r < k; r++) {
        int v = idx[t[r].i];
        uint64_t code = ((L >> v) & 1) | (((R >> v) & 1) << 1);
        key[1 + (2 * r) / 64] |= code << ((2 * r) % 64);
    }
    uint64_t *tri = key + 1 + tw;
    for (int r = 1; r < k; r++) {
        size_t base = (size_t)r * (r - 1) / 2;
        for (uint64_t m = nb[t[r].i]; m; m &= m - 1) {
            int s = rank[__builtin_ctzll(m)];
            if (s < r)
                tri[(base + s) / 64] |= 1ULL << ((base + s) % 64);
        }
    }
    return len;
}

static int32_t value_of(uint64_t L, uint64_t R);

/* the canonical form of the connected position (L, R) */
static int32_t solve_component(uint64_t comp, uint64_t L, uint64_t R)
{
    if (!(comp & (comp - 1)))
        return (L & R) ? STAR : (L ? ONE : MINUS_ONE);
    int32_t id;
    uint64_t ek[2] = {L, R}, eh = pgkm_hash(ek, 2);
    if (pgkm_get(&exact, ek, 2, eh, &id))
        return id;
    uint64_t key[1 + 2 + 32];
    int32_t len = relabel_key(comp, L, R, key);
    uint64_t h = pgkm_hash(key, len);
    PgKeyMap *memo = &relabelled[snort];
    if (!pgkm_get(memo, key, len, h, &id)) {
        if (pg_poll(&ticker) < 0)
            return -1;
        int32_t opts[128];
        int nl = 0, nr = 0;
        for (uint64_t m = L; m; m &= m - 1) {
            int v = __builtin_ctzll(m);
            uint64_t bit = 1ULL << v, nb = adj[v];
            int32_t x = snort ? value_of(L & ~bit, R & ~(bit | nb)) : value_of(L & ~(bit | nb), R & ~bit);
            if (x < 0)
                return -1;
            opts[nl++] = x;
        }
        for (uint64_t m = R; m; m &= m - 1) {
            int v = __builtin_ctzll(m);
            uint64_t bit = 1ULL << v, nb = adj[v];
            int32_t x = snort ? value_of(L & ~(bit | nb), R & ~bit) : value_of(L & ~bit, R & ~(bit | nb));
            if (x < 0)
                return -1;
            opts[nl + nr++] = x;
        }
        id = pg_canon(opts, nl, opts + nl, nr);
        if (id < 0 || pgkm_put(memo, key, len, h, id) < 0 || pg_solved(&ticker) < 0)
            return -1;
    }
    if (pgkm_put(&exact, ek, 2, eh, id) < 0)
        return -1;
    return id;
}

/* the canonical form of the position (L, R): the sum of its components' */
static int32_t value_of(uint64_t L, uint64_t R)
{
    uint64_t live = L | R;
    int32_t acc = 0;
    while (live) {
        uint64_t comp = live & -live, frontier = comp;
        while (frontier) {
            uint64_t next = 0;
            for (uint64_t m = frontier; m; m &= m - 1)
                next |= links(__builtin_ctzll(m), L, R);
            frontier = next & ~comp;
            comp |= frontier;
        }
        live &= ~comp;
        if (pg_accumulate(&acc, solve_component(comp, L & comp, R & comp)) < 0)
            return -1;
    }
    return acc;
}

/* the canonical form's id of a Snort (game 1) or Col (game 0) position on the graph of n <= 64
   vertices with neighbour masks nbrs[]: L the vertices Left may colour, R those Right may;
   tick as for the other searches */
int pgc_graph_solve(int game, int n, const uint64_t *nbrs, uint64_t L, uint64_t R, PyObject *tick, int32_t *out)
{
    if (game != GAME_COL && game != GAME_SNORT) {
        PyErr_SetString(PyExc_ValueError, "graph game: 0 (Col) or 1 (Snort)");
        return -1;
    }
    if (n < 0 || n > 64) {
        PyErr_SetString(PyExc_OverflowError, "the kernel's Snort and Col take graphs of at most 64 vertices");
        return -1;
    }
    uint64_t all = n == 64 ? ~0ULL : (1ULL << n) - 1;
    if ((L | R) & ~all) {
        PyErr_SetString(PyExc_ValueError, "graph game: a tinted vertex beyond the graph's vertices");
        return -1;
    }
    uint64_t sig = pgkm_hash(nbrs, n) ^ (uint64_t)(game + 2 * n + 1);
    for (int v = 0; v < n; v++) {
        if ((nbrs[v] & ~all) || (nbrs[v] >> v & 1)) {
            PyErr_Format(PyExc_ValueError, "graph game: vertex %d has a loop or a neighbour beyond the graph", v);
            return -1;
        }
        for (uint64_t m = nbrs[v]; m; m &= m - 1)
            if (!(nbrs[__builtin_ctzll(m)] >> v & 1)) {
                PyErr_Format(PyExc_ValueError, "graph game: the edge %d-%d is not in both neighbour lists", v,
                             __builtin_ctzll(m));
                return -1;
            }
    }
    if (STAR < 0) {
        int32_t z = 0;
        ONE = pg_number(1.0);
        MINUS_ONE = pg_number(-1.0);
        STAR = pg_canon(&z, 1, &z, 1);
        if (ONE < 0 || MINUS_ONE < 0 || STAR < 0) {
            STAR = -1;
            return -1;
        }
    }
    if (sig != graph_sig || gn != n || memcmp(adj, nbrs, (size_t)n * sizeof(uint64_t)) != 0 || snort != game) {
        pgkm_clear(&exact);
        graph_sig = sig;
    }
    gn = n;
    snort = game;
    memset(adj, 0, sizeof(adj));
    memcpy(adj, nbrs, (size_t)n * sizeof(uint64_t));
    ticker.tick = tick;
    ticker.solved = 0;
    int32_t v = value_of(L, R);
    ticker.tick = NULL;
    if (v < 0)
        return -1;
    *out = v;
    return 0;
}
