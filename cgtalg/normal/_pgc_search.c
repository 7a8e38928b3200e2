/*
 * _pgc_search.c: what the board searches of the partizan kernel share (Domineering in
 * _pgc_dom.c, Clobber and Konane in _pgc_grid.c, Snort and Col in _pgc_graph.c): the memo
 * for keys of several words (PgKeyMap) and the progress ticker. The small helpers (PgVec,
 * pg_accumulate, pg_poll, U64Map) are inline in _pgc.h.
 */
#include "_pgc.h"
#include <string.h>

uint64_t pgkm_hash(const uint64_t *key, int32_t len)
{
    uint64_t h = 0x243f6a8885a308d3ULL ^ (uint64_t)len;
    for (int32_t i = 0; i < len; i++) {
        h ^= key[i];
        h *= 0x9e3779b97f4a7c15ULL;
        h ^= h >> 32;
    }
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return h ? h : 1;
}

static inline int key_is(const PgKeyMap *m, const PgKeySlot *slot, const uint64_t *key, int32_t len)
{
    const uint64_t *k = m->arena + slot->off;
    if ((int32_t)k[0] != len)
        return 0;
    for (int32_t i = 0; i < len; i++)
        if (k[i + 1] != key[i])
            return 0;
    return 1;
}

int pgkm_get(const PgKeyMap *m, const uint64_t *key, int32_t len, uint64_t h, int32_t *out)
{
    if (!m->cap)
        return 0;
    size_t mask = m->cap - 1, i = h & mask;
    while (m->slots[i].hash) {
        if (m->slots[i].hash == h && key_is(m, &m->slots[i], key, len)) {
            *out = m->slots[i].val;
            return 1;
        }
        i = (i + 1) & mask;
    }
    return 0;
}

static int grow_slots(PgKeyMap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 1 << 8;
    PgKeySlot *t = calloc(cap, sizeof(PgKeySlot));
    if (!t) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].hash) {
            size_t j = m->slots[i].hash & (cap - 1);
            while (t[j].hash)
                j = (j + 1) & (cap - 1);
            t[j] = m->slots[i];
        }
    free(m->slots);
    m->slots = t;
    m->cap = cap;
    return 0;
}

int pgkm_put(PgKeyMap *m, const uint64_t *key, int32_t len, uint64_t h, int32_t val)
{
    if ((m->n + 1) * 2 > m->cap && grow_slots(m) < 0)
        return -1;
    size_t mask = m->cap - 1, i = h & mask;
    while (m->slots[i].hash) {
        if (m->slots[i].hash == h && key_is(m, &m->slots[i], key, len)) {
            m->slots[i].val = val;
            return 0;
        }
        i = (i + 1) & mask;
    }
    if (m->alen + (size_t)len + 1 > m->acap) {
        size_t cap = m->acap ? m->acap * 2 : 1 << 10;
        while (cap < m->alen + (size_t)len + 1)
            cap *= 2;
        uint64_t *a = realloc(m->arena, cap * sizeof(uint64_t));
        if (!a) {
            PyErr_NoMemory();
            return -1;
        }
        m->arena = a;
        m->acap = cap;
    }
    m->arena[m->alen] = (uint64_t)len;
    memcpy(m->arena + m->alen + 1, key, (size_t)len * sizeof(uint64_t));
    m->slots[i].hash = h;
    m->slots[i].off = (int64_t)m->alen;
    m->slots[i].val = val;
    m->alen += (size_t)len + 1;
    m->n++;
    return 0;
}

void pgkm_clear(PgKeyMap *m)
{
    free(m->slots);
    free(m->arena);
    memset(m, 0, sizeof(*m));
}
int pg_solved(PgTicker *t)
{
    if ((++t->solved & 0xFF) == 0 && t->tick) {
        PyObject *r = PyObject_CallFunction(t->tick, "L", (long long)t->solved);
        if (!r)
            return -1;
        Py_DECREF(r);
    }
    return 0;
}
