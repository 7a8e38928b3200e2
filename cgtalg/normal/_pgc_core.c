/*
 * _pgc_core.c: the table of forms, comparison, canonical forms, sums and negatives.
 *
 * Theory (Conway, ONAG ch. 1, 2, 10; Siegel, CGT II.1-II.3):
 *   - G <= H iff no G^L >= H and no H^R <= G;
 *   - the canonical form of {L | R} with canonical options: if every option is a number,
 *     the simplest number strictly between max L and min R (simplicity rule), or the hot
 *     {a | b} when a >= b; otherwise dominated options are removed and reversible ones
 *     bypassed (a Left option x reverses through x^R <= G, replaced by x^R's Left options;
 *     a Right option y through y^L >= G, replaced by y^L's Right options) until neither is left;
 *   - G + x for a number x and a G that is not a number is {G^L + x | G^R + x} (number
 *     translation), so a number component contributes no moves to a sum;
 *   - stops of canonical forms: LS(G) = G if G is a number, else max RS(G^L); RS dually. Then
 *     G <= H needs LS(G) <= LS(H) and RS(G) <= RS(H), and RS(H) > LS(G) gives G < H (CGT II.4).
 */
#include "_pgc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

PgNode *pg_nodes = NULL;
int32_t pg_count = 0;
int32_t *pg_pool = NULL;
static int64_t pool_len = 0, pool_cap = 0;
static int32_t node_cap = 0;
int64_t pg_le_calls = 0, pg_le_entries = 0, pg_add_entries = 0;

/* -- an open-addressing map uint64 -> int32 (key UINT64_MAX is "empty") ------------------- */
typedef struct {
    uint64_t *keys;
    int32_t *vals;
    size_t cap, n;
} Map;

static Map forms_map;  /* hash of option lists -> not used as key: see form_index */
static Map le_map, add_map, num_map;
static int32_t *neg_of = NULL;
static int32_t *form_index = NULL; /* open-addressing table of node ids, -1 empty */
static size_t form_cap = 0;

#define mix64 pg_mix64

static int map_init(Map *m, size_t cap)
{
    m->keys = malloc(cap * sizeof(uint64_t));
    m->vals = malloc(cap * sizeof(int32_t));
    if (!m->keys || !m->vals) {
        PyErr_NoMemory();
        return -1;
    }
    memset(m->keys, 0xff, cap * sizeof(uint64_t));
    m->cap = cap;
    m->n = 0;
    return 0;
}

static void map_free(Map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->n = 0;
}

static inline int map_get(const Map *m, uint64_t key, int32_t *out)
{
    size_t mask = m->cap - 1, i = mix64(key) & mask;
    for (;;) {
        uint64_t k = m->keys[i];
        if (k == key) {
            *out = m->vals[i];
            return 1;
        }
        if (k == UINT64_MAX)
            return 0;
        i = (i + 1) & mask;
    }
}

static int map_put(Map *m, uint64_t key, int32_t val);

static int map_grow(Map *m)
{
    Map old = *m;
    if (map_init(m, old.cap * 2) < 0) {
        *m = old;
        return -1;
    }
    for (size_t i = 0; i < old.cap; i++)
        if (old.keys[i] != UINT64_MAX)
            map_put(m, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
    return 0;
}

static int map_put(Map *m, uint64_t key, int32_t val)
{
    if ((m->n + 1) * 4 > m->cap * 3 && map_grow(m) < 0)
        return -1;
    size_t mask = m->cap - 1, i = mix64(key) & mask;
    while (m->keys[i] != UINT64_MAX && m->keys[i] != key)
        i = (i + 1) & mask;
    if (m->keys[i] == UINT64_MAX)
        m->n++;
    m->keys[i] = key;
    m->vals[i] = val;
    return 0;
}

/* -- the table of forms ------------------------------------------------------------------- */
static uint64_t hash_opts(const int32_t *L, int32_t nl, const int32_t *R, int32_t nr)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)nl;
    for (int32_t i = 0; i < nl; i++)
        h = mix64(h + (uint64_t)L[i] + 1);
    h = mix64(h ^ 0xabcdefULL ^ ((uint64_t)nr << 40));
    for (int32_t i = 0; i < nr; i++)
        h = mix64(h + (uint64_t)R[i] + 7);
    return h;
}

static uint64_t hash_node(int32_t id)
{
    const PgNode *n = &pg_nodes[id];
    const int32_t *o = PG_OPTS(id);
    return hash_opts(o, n->nl, o + n->nl, n->nr);
}

static int index_insert(int32_t id)
{
    size_t mask = form_cap - 1, i = hash_node(id) & mask;
    while (form_index[i] >= 0)
        i = (i + 1) & mask;
    form_index[i] = id;
    return 0;
}

static int index_grow(void)
{
    size_t cap = form_cap ? form_cap * 2 : 1 << 16;
    int32_t *t = malloc(cap * sizeof(int32_t));
    if (!t) {
        PyErr_NoMemory();
        return -1;
    }
    memset(t, 0xff, cap * sizeof(int32_t));
    free(form_index);
    form_index = t;
    form_cap = cap;
    for (int32_t id = 0; id < pg_count; id++)
        index_insert(id);
    return 0;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* sort and deduplicate in place; returns the new length */
static int32_t sort_unique(int32_t *a, int32_t n)
{
    if (n <= 1)
        return n;
    if (n == 2) {
        if (a[0] == a[1])
            return 1;
        if (a[0] > a[1]) {
            int32_t t = a[0];
            a[0] = a[1];
            a[1] = t;
        }
        return 2;
    }
    qsort(a, (size_t)n, sizeof(int32_t), cmp_i32);
    int32_t k = 1;
    for (int32_t i = 1; i < n; i++)
        if (a[i] != a[k - 1])
            a[k++] = a[i];
    return k;
}

/* the form {L | R} with L and R already sorted and duplicate-free */
static int32_t make_sorted(const int32_t *L, int32_t nl, const int32_t *R, int32_t nr)
{
    if (form_cap == 0 && index_grow() < 0)
        return -1;
    uint64_t h = hash_opts(L, nl, R, nr);
    size_t mask = form_cap - 1, i = h & mask;
    for (;;) {
        int32_t id = form_index[i];
        if (id < 0)
            break;
        const PgNode *n = &pg_nodes[id];
        if (n->nl == nl && n->nr == nr) {
            const int32_t *o = PG_OPTS(id);
            if (memcmp(o, L, (size_t)nl * 4) == 0 && memcmp(o + nl, R, (size_t)nr * 4) == 0)
                return id;
        }
        i = (i + 1) & mask;
    }
    if (pg_count >= INT32_MAX - 1) {
        PyErr_SetString(PyExc_OverflowError, "the partizan kernel's table of forms is full");
        return -1;
    }
    if (pg_count == node_cap) {
        int32_t cap = node_cap ? node_cap * 2 : 1 << 14;
        PgNode *t = realloc(pg_nodes, (size_t)cap * sizeof(PgNode));
        int32_t *ng = realloc(neg_of, (size_t)cap * sizeof(int32_t));
        if (!t || !ng) {
            if (t)
                pg_nodes = t;
            if (ng)
                neg_of = ng;
            PyErr_NoMemory();
            return -1;
        }
        pg_nodes = t;
        neg_of = ng;
        node_cap = cap;
    }
    if (pool_len + nl + nr > pool_cap) {
        int64_t cap = pool_cap ? pool_cap * 2 : 1 << 16;
        while (cap < pool_len + nl + nr)
            cap *= 2;
        int32_t *p = realloc(pg_pool, (size_t)cap * sizeof(int32_t));
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        pg_pool = p;
        pool_cap = cap;
    }
    int32_t id = pg_count++;
    PgNode *n = &pg_nodes[id];
    n->nl = nl;
    n->nr = nr;
    n->off = pool_len;
    memcpy(pg_pool + pool_len, L, (size_t)nl * 4);
    memcpy(pg_pool + pool_len + nl, R, (size_t)nr * 4);
    pool_len += nl + nr;
    int32_t b = -1;
    for (int32_t k = 0; k < nl; k++)
        if (pg_nodes[L[k]].birthday > b)
            b = pg_nodes[L[k]].birthday;
    for (int32_t k = 0; k < nr; k++)
        if (pg_nodes[R[k]].birthday > b)
            b = pg_nodes[R[k]].birthday;
    n->birthday = b + 1;
    n->canonical = n->isnum = n->hasstops = 0;
    n->num = n->ls = n->rs = 0.0;
    neg_of[id] = -1;
    if ((size_t)pg_count * 2 > form_cap) {
        if (index_grow() < 0)
            return -1;
    } else {
        form_index[i] = id;
    }
    return id;
}

int32_t pg_make(const int32_t *L, int32_t nl, const int32_t *R, int32_t nr)
{
    int32_t buf[64], *tmp = (nl + nr) <= 64 ? buf : malloc((size_t)(nl + nr + 1) * 4);
    if (!tmp) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(tmp, L, (size_t)nl * 4);
    memcpy(tmp + nl, R, (size_t)nr * 4);
    int32_t a = sort_unique(tmp, nl);
    memmove(tmp + a, tmp + nl, (size_t)nr * 4);
    int32_t b = sort_unique(tmp + a, nr);
    int32_t id = make_sorted(tmp, a, tmp + a, b);
    if (tmp != buf)
        free(tmp);
    return id;
}

/* -- numbers ------------------------------------------------------------------------------ */
/* a dyadic held exactly in a double, of a size the engine accepts */
static int number_ok(double v)
{
    if (!isfinite(v) || fabs(v) > 1048576.0)
        return 0;
    double s = v * 1099511627776.0; /* 2^40: at most 40 binary places */
    return s == floor(s);
}

/* the simplest number x with a < x < b (has_a/has_b: whether the bound exists) */
static double simplest_between(int has_a, double a, int has_b, double b)
{
    if (!has_a && !has_b)
        return 0.0;
    if (!has_a)
        return b > 0 ? 0.0 : ceil(b) - 1.0;
    if (!has_b)
        return a < 0 ? 0.0 : floor(a) + 1.0;
    if (a < 0 && b > 0)
        return 0.0;
    if (a >= 0) {
        double n = floor(a) + 1.0;
        if (n < b)
            return n;
    } else {
        double n = ceil(b) - 1.0;
        if (n > a)
            return n;
    }
    for (double d = 0.5; d > 1e-15; d *= 0.5) {
        double x = (floor(a / d) + 1.0) * d;
        if (x < b)
            return x;
    }
    return NAN;
}

static uint64_t dkey(double v)
{
    uint64_t k;
    v += 0.0; /* -0.0 -> 0.0 */
    memcpy(&k, &v, 8);
    return k;
}

/* mark a freshly made canonical form: number recognition and stops */
static void finish(int32_t id)
{
    PgNode *n = &pg_nodes[id];
    if (n->canonical)
        return;
    n->canonical = 1;
    const int32_t *o = PG_OPTS(id);
    int allnum = 1;
    double a = -INFINITY, b = INFINITY;
    for (int32_t k = 0; k < n->nl + n->nr && allnum; k++)
        if (!pg_nodes[o[k]].isnum)
            allnum = 0;
    if (allnum) {
        for (int32_t k = 0; k < n->nl; k++)
            if (pg_nodes[o[k]].num > a)
                a = pg_nodes[o[k]].num;
        for (int32_t k = 0; k < n->nr; k++)
            if (pg_nodes[o[n->nl + k]].num < b)
                b = pg_nodes[o[n->nl + k]].num;
        if (n->nl == 0 || n->nr == 0 || a < b) {
            double v = simplest_between(n->nl > 0, a, n->nr > 0, b);
            n->isnum = 1;
            n->num = v;
            n->ls = n->rs = v;
            n->hasstops = 1;
            return;
        }
    }
    if (n->nl == 0 || n->nr == 0)
        return;
    double ls = -INFINITY, rs = INFINITY;
    for (int32_t k = 0; k < n->nl; k++) {
        const PgNode *c = &pg_nodes[o[k]];
        if (!c->hasstops)
            return;
        if (c->rs > ls)
            ls = c->rs;
    }
    for (int32_t k = 0; k < n->nr; k++) {
        const PgNode *c = &pg_nodes[o[n->nl + k]];
        if (!c->hasstops)
            return;
        if (c->ls < rs)
            rs = c->ls;
    }
    n->ls = ls;
    n->rs = rs;
    n->hasstops = 1;
}

int32_t pg_number(double v)
{
    if (!number_ok(v)) {
        PyErr_Format(PyExc_OverflowError, "the number %g is beyond the partizan kernel's range", v);
        return -1;
    }
    int32_t id;
    if (map_get(&num_map, dkey(v), &id))
        return id;
    int32_t l = -1, r = -1;
    if (v == floor(v)) {
        /* integers iteratively from 0 (n = {n-1 | }, -n = { | -n+1}): no deep recursion */
        double step = v > 0 ? 1.0 : -1.0;
        int32_t prev = 0;
        for (double k = step; k != v + step; k += step) {
            int32_t got;
            if (map_get(&num_map, dkey(k), &got)) {
                prev = got;
                continue;
            }
            got = step > 0 ? make_sorted(&prev, 1, NULL, 0) : make_sorted(NULL, 0, &prev, 1);
            if (got < 0)
                return -1;
            finish(got);
            if (map_put(&num_map, dkey(k), got) < 0)
                return -1;
            prev = got;
        }
        return prev;
    } else {
        double d = 0.5;
        while ((v / d) != floor(v / d) || fmod(v / d, 2.0) == 0.0)
            d *= 0.5;
        if ((l = pg_number(v - d)) < 0 || (r = pg_number(v + d)) < 0)
            return -1;
    }
    id = make_sorted(&l, l >= 0, &r, r >= 0);
    if (id < 0)
        return -1;
    finish(id);
    if (map_put(&num_map, dkey(v), id) < 0)
        return -1;
    return id;
}

/* -- comparison --------------------------------------------------------------------------- */
int pg_le(int32_t g, int32_t h)
{
    if (g == h)
        return 1;
    const PgNode *x = &pg_nodes[g], *y = &pg_nodes[h];
    if (x->isnum && y->isnum)
        return x->num <= y->num;
    if (x->hasstops && y->hasstops) {
        if (x->ls > y->ls || x->rs > y->rs)
            return 0;
        if (y->rs > x->ls)
            return 1;
    }
    uint64_t key = ((uint64_t)(uint32_t)g << 32) | (uint32_t)h;
    int32_t v;
    if (map_get(&le_map, key, &v))
        return v;
    if ((++pg_le_calls & 0xFFFFF) == 0 && PyErr_CheckSignals() < 0)
        return -1;
    int result = 1;
    int32_t nl = x->nl, nr = y->nr;
    int64_t xo = x->off, yo = y->off + y->nl;
    /* number avoidance (Siegel CGT II.3): for a number x and a canonical H that is not a
       number, x <= H iff no H^R <= x (a winning move of Right in H - x may be taken in H),
       and dually G <= x iff no G^L >= x: the number's own options need not be tried */
    if (x->isnum && y->canonical && !y->isnum)
        nl = 0;
    else if (y->isnum && x->canonical && !x->isnum)
        nr = 0;
    for (int32_t k = 0; k < nl && result; k++) {
        int r = pg_le(h, pg_pool[xo + k]);
        if (r < 0)
            return -1;
        if (r)
            result = 0;
    }
    for (int32_t k = 0; k < nr && result; k++) {
        int r = pg_le(pg_pool[yo + k], g);
        if (r < 0)
            return -1;
        if (r)
            result = 0;
    }
    if (map_put(&le_map, key, result) < 0)
        return -1;
    pg_le_entries++;
    return result;
}

/* -- canonical forms ---------------------------------------------------------------------- */
static int undominated(PgVec *v, int left)
{
    int32_t n = v->n, k = 0;
    if (n <= 1)
        return 0;
    char sbuf[64], *dead = n <= 64 ? sbuf : calloc((size_t)n, 1);
    if (!dead) {
        PyErr_NoMemory();
        return -1;
    }
    memset(dead, 0, (size_t)n);
    for (int32_t i = 0; i < n; i++) {
        for (int32_t j = 0; j < n; j++) {
            if (i == j || dead[j])
                continue;
            int r = left ? pg_le(v->a[i], v->a[j]) : pg_le(v->a[j], v->a[i]);
            if (r < 0) {
                if (dead != sbuf)
                    free(dead);
                return -1;
            }
            if (r) {
                dead[i] = 1;
                break;
            }
        }
    }
    for (int32_t i = 0; i < n; i++)
        if (!dead[i])
            v->a[k++] = v->a[i];
    v->n = k;
    if (dead != sbuf)
        free(dead);
    return 0;
}

/* one side of g0 = {L | R} into out, its reversible options bypassed: a Left option x
   reverses through an x^R <= g0 and is replaced by x^R's Left options, a Right option y through
   a y^L >= g0, replaced by y^L's Right options. 1 when one was bypassed, 0 when none, -1 on error */
static inline __attribute__((always_inline)) int bypass_side(const PgVec *in, int32_t g0, const int left, PgVec *out)
{
    int changed = 0;
    for (int32_t k = 0; k < in->n; k++) {
        int32_t x = in->a[k], through = -1;
        const PgNode *xn = &pg_nodes[x];
        int32_t cnt = left ? xn->nr : xn->nl;
        int64_t off = left ? xn->off + xn->nl : xn->off;
        for (int32_t j = 0; j < cnt && through < 0; j++) {
            int32_t y = pg_pool[off + j];
            int r = left ? pg_le(y, g0) : pg_le(g0, y);
            if (r < 0)
                return -1;
            if (r)
                through = y;
        }
        if (through < 0) {
            if (pgvec_push(out, x) < 0)
                return -1;
            continue;
        }
        changed = 1;
        const PgNode *t = &pg_nodes[through];
        int32_t tn = left ? t->nl : t->nr;
        int64_t to = left ? t->off : t->off + t->nl;
        for (int32_t j = 0; j < tn; j++)
            if (pgvec_push(out, pg_pool[to + j]) < 0)
                return -1;
    }
    return changed;
}

int32_t pg_canon(const int32_t *L0, int32_t nl0, const int32_t *R0, int32_t nr0)
{
    PgVec L = {0}, R = {0}, NL = {0}, NR = {0};
    int32_t result = -1;
    for (int32_t k = 0; k < nl0; k++)
        if (pgvec_push(&L, L0[k]) < 0)
            goto done;
    for (int32_t k = 0; k < nr0; k++)
        if (pgvec_push(&R, R0[k]) < 0)
            goto done;
    L.n = sort_unique(L.a, L.n);
    R.n = sort_unique(R.a, R.n);
    /* every option a number: the simplicity rule, or the hot {a | b} */
    int allnum = 1;
    double a = -INFINITY, b = INFINITY;
    int32_t ai = -1, bi = -1;
    for (int32_t k = 0; k < L.n && allnum; k++) {
        if (!pg_nodes[L.a[k]].isnum)
            allnum = 0;
        else if (pg_nodes[L.a[k]].num > a) {
            a = pg_nodes[L.a[k]].num;
            ai = L.a[k];
        }
    }
    for (int32_t k = 0; k < R.n && allnum; k++) {
        if (!pg_nodes[R.a[k]].isnum)
            allnum = 0;
        else if (pg_nodes[R.a[k]].num < b) {
            b = pg_nodes[R.a[k]].num;
            bi = R.a[k];
        }
    }
    if (allnum) {
        if (L.n == 0 || R.n == 0 || a < b) {
            double v = simplest_between(L.n > 0, a, R.n > 0, b);
            result = pg_number(v);
        } else {
            result = make_sorted(&ai, 1, &bi, 1);
            if (result >= 0)
                finish(result);
        }
        goto done;
    }
    if (undominated(&L, 1) < 0 || undominated(&R, 0) < 0)
        goto done;
    for (;;) {
        int32_t g0 = make_sorted(L.a, L.n, R.a, R.n);
        if (g0 < 0)
            goto done;
        int changed;
        NL.n = NR.n = 0;
        int cl = bypass_side(&L, g0, 1, &NL), cr = cl < 0 ? -1 : bypass_side(&R, g0, 0, &NR);
        if (cr < 0)
            goto done;
        changed = cl || cr;
        if (!changed) {
            finish(g0);
            result = g0;
            goto done;
        }
        PgVec t = L;
        L = NL;
        NL = t;
        t = R;
        R = NR;
        NR = t;
        L.n = sort_unique(L.a, L.n);
        R.n = sort_unique(R.a, R.n);
        if (undominated(&L, 1) < 0 || undominated(&R, 0) < 0)
            goto done;
    }
done:
    free(L.a);
    free(R.a);
    free(NL.a);
    free(NR.a);
    return result;
}

/* -- sums and negatives ------------------------------------------------------------------- */
int32_t pg_neg(int32_t a)
{
    if (neg_of[a] >= 0)
        return neg_of[a];
    if (pg_nodes[a].isnum) {
        int32_t r = pg_number(-pg_nodes[a].num);
        if (r >= 0)
            neg_of[a] = r;
        return r;
    }
    int32_t nl = pg_nodes[a].nl, nr = pg_nodes[a].nr;
    int32_t *buf = malloc((size_t)(nl + nr + 1) * 4);
    if (!buf) {
        PyErr_NoMemory();
        return -1;
    }
    for (int32_t k = 0; k < nl + nr; k++) {
        int32_t o = PG_OPTS(a)[k];
        int32_t m = pg_neg(o);
        if (m < 0) {
            free(buf);
            return -1;
        }
        /* the negative's Left options are the negatives of a's Right options */
        if (k < nl)
            buf[nr + k] = m;
        else
            buf[k - nl] = m;
    }
    int32_t r = pg_make(buf, nr, buf + nr, nl);
    free(buf);
    if (r < 0)
        return -1;
    finish(r);
    neg_of[a] = r;
    neg_of[r] = a;
    return r;
}

int32_t pg_add(int32_t a, int32_t b)
{
    if (a == 0)
        return b;
    if (b == 0)
        return a;
    const PgNode *x = &pg_nodes[a], *y = &pg_nodes[b];
    if (x->isnum && y->isnum)
        return pg_number(x->num + y->num);
    if (a > b) {
        int32_t t = a;
        a = b;
        b = t;
    }
    uint64_t key = ((uint64_t)(uint32_t)a << 32) | (uint32_t)b;
    int32_t v;
    if (map_get(&add_map, key, &v))
        return v;
    x = &pg_nodes[a];
    y = &pg_nodes[b];
    int xn = !x->isnum, yn = !y->isnum;
    int32_t xl = xn ? x->nl : 0, xr = xn ? x->nr : 0, yl = yn ? y->nl : 0, yr = yn ? y->nr : 0;
    int32_t total = xl + xr + yl + yr;
    int32_t *buf = malloc((size_t)(2 * total + 1) * 4);
    if (!buf) {
        PyErr_NoMemory();
        return -1;
    }
    /* copy the option lists first: the recursion below may move the table */
    int32_t *src = buf + total;
    memcpy(src, PG_OPTS(a), (size_t)(xl + xr) * 4);
    memcpy(src + xl + xr, PG_OPTS(b), (size_t)(yl + yr) * 4);
    int32_t nl = 0, nr = 0;
    int32_t *Lb = buf, *Rb = buf + xl + yl;
    for (int32_t k = 0; k < xl; k++)
        if ((Lb[nl++] = pg_add(src[k], b)) < 0)
            goto fail;
    for (int32_t k = 0; k < yl; k++)
        if ((Lb[nl++] = pg_add(a, src[xl + xr + k])) < 0)
            goto fail;
    for (int32_t k = 0; k < xr; k++)
        if ((Rb[nr++] = pg_add(src[xl + k], b)) < 0)
            goto fail;
    for (int32_t k = 0; k < yr; k++)
        if ((Rb[nr++] = pg_add(a, src[xl + xr + yl + k])) < 0)
            goto fail;
    int32_t r = pg_canon(Lb, nl, Rb, nr);
    free(buf);
    if (r < 0 || map_put(&add_map, key, r) < 0)
        return -1;
    pg_add_entries++;
    return r;
fail:
    free(buf);
    return -1;
}

/* -- life cycle --------------------------------------------------------------------------- */
int pg_init(void)
{
    (void)forms_map;
    if (map_init(&le_map, 1 << 16) < 0 || map_init(&add_map, 1 << 12) < 0 || map_init(&num_map, 1 << 10) < 0)
        return -1;
    int32_t zero = make_sorted(NULL, 0, NULL, 0);
    if (zero != 0)
        return -1;
    finish(zero);
    if (map_put(&num_map, dkey(0.0), 0) < 0)
        return -1;
    neg_of[0] = 0;
    return 0;
}

void pg_free_all(void)
{
    map_free(&le_map);
    map_free(&add_map);
    map_free(&num_map);
    free(pg_nodes);
    free(pg_pool);
    free(neg_of);
    free(form_index);
    pg_nodes = NULL;
    pg_pool = NULL;
    neg_of = NULL;
    form_index = NULL;
    pg_count = node_cap = 0;
    pool_len = pool_cap = 0;
    form_cap = 0;
}
