/*
 * _pgc.h: shared declarations of the compiled canonical-form engine for short partizan games
 * (cgtalg.normal.partizan_kernel is its Python face; cgtalg.normal.partizan is the reference).
 *
 * Forms live in one table, identified by int32 ids (id 0 is the form 0 = { | }). A form is
 * hash-consed on its sorted, duplicate-free Left and Right option id lists, so two ids are
 * the same form iff they are equal; the forms that come out of pg_canon(), pg_add() and
 * pg_neg() are canonical forms (Siegel, CGT II.2), so for them equal ids mean equal values.
 */
#ifndef CGTALG_PGC_H
#define CGTALG_PGC_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef struct {
    int32_t nl, nr;        /* numbers of Left and Right options */
    int64_t off;           /* nl Left option ids then nr Right option ids (each side sorted)
                              at pg_pool + off */
    int32_t birthday;
    uint8_t canonical;     /* made by pg_canon/pg_add/pg_neg/pg_number: a canonical form */
    uint8_t isnum;         /* canonical and a number (value in num) */
    uint8_t hasstops;      /* canonical, with both stops known (ls, rs) */
    double num;            /* the number's value (dyadic, held exactly) */
    double ls, rs;         /* Left and Right stops of a canonical form */
} PgNode;

/* the table of forms, and the pool of their option ids */
extern PgNode *pg_nodes;
extern int32_t pg_count;
extern int32_t *pg_pool;
#define PG_OPTS(id) (pg_pool + pg_nodes[(id)].off)

int pg_init(void);
void pg_free_all(void);

/* the raw hash-consed form {L | R} (ids sorted and deduplicated here); -1 on error */
int32_t pg_make(const int32_t *L, int32_t nl, const int32_t *R, int32_t nr);
/* the canonical form of {L | R} whose options are canonical forms; -1 on error */
int32_t pg_canon(const int32_t *L, int32_t nl, const int32_t *R, int32_t nr);
/* the canonical form of the dyadic number v; -1 on error (not exactly representable) */
int32_t pg_number(double v);
/* G <= H for forms (any forms; memoised); -1 on error */
int pg_le(int32_t g, int32_t h);
/* canonical forms of sums and negatives of canonical forms (memoised); -1 on error */
int32_t pg_add(int32_t a, int32_t b);
int32_t pg_neg(int32_t a);

/* statistics */
extern int64_t pg_le_calls, pg_le_entries, pg_add_entries;

#endif
