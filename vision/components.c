/* Connected components by runs (see components.h). */
#include "components.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "union_find.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

typedef struct {
    int x0, x1, y; /* pixels x0 .. x1 - 1 of row y */
} run;

/* A component, gathered at its root run. */
typedef struct {
    int64_t sx, sy;
    int area, left, right, top, bottom;
    int label;
} comp;

/* Where a component comes in OpenCV's numbering: its first 2 x 2 block. */
typedef struct {
    int64_t key;
    int root;
} rank;

struct ts_components {
    run *runs;
    int *parent; /* union-find over the runs; a root is its component's first run */
    comp *comps; /* by root run */
    rank *order; /* the components in numbering order */
    size_t cap;  /* runs room */
};

ts_components *ts_components_create(void)
{
    return calloc(1, sizeof(ts_components));
}

void ts_components_destroy(ts_components *c)
{
    if (!c)
        return;
    free(c->runs);
    free(c->parent);
    free(c->comps);
    free(c->order);
    free(c);
}

static int grow(ts_components *c, size_t need)
{
    if (need <= c->cap)
        return 0;
    free(c->runs), free(c->parent), free(c->comps), free(c->order);
    c->runs = malloc(sizeof *c->runs * need);
    c->parent = malloc(sizeof *c->parent * need);
    c->comps = malloc(sizeof *c->comps * need);
    c->order = malloc(sizeof *c->order * need);
    c->cap = c->runs && c->parent && c->comps && c->order ? need : 0;
    return c->cap ? 0 : -1;
}

static void add_run(ts_components *c, int x0, int x1, int y, int *n)
{
    c->runs[*n] = (run){x0, x1, y};
    c->parent[*n] = *n;
    (*n)++;
}

/* Appends the runs of row y to c->runs from n on; returns the new count.
 * Sixteen pixels a step: their ink as bits, each run's ends the next set
 * and the next clear bit (ink is sparse and its runs short). */
static int row_runs(ts_components *c, const uint8_t *p, int w, int y, int n)
{
    int x = 0, x0 = -1; /* x0: where the open run began, or -1 */
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128();
    for (; x + 16 <= w; x += 16) {
        const unsigned ink =
            0xffffu ^ (unsigned)_mm_movemask_epi8(
                           _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + x)), zero));
        if (ink == (x0 < 0 ? 0u : 0xffffu))
            continue; /* no run begins or ends here */
        unsigned from = 0; /* bits below are done */
        for (;;) {
            const unsigned next = (x0 < 0 ? ink : ~ink & 0xffffu) & (0xffffu << from);
            if (!next)
                break;
            const int at = __builtin_ctz(next);
            if (x0 < 0)
                x0 = x + at;
            else {
                add_run(c, x0, x + at, y, &n);
                x0 = -1;
            }
            from = (unsigned)at + 1;
            if (from == 16)
                break;
        }
    }
#endif
    for (; x < w; x++) {
        if (p[x] && x0 < 0)
            x0 = x;
        else if (!p[x] && x0 >= 0) {
            add_run(c, x0, x, y, &n);
            x0 = -1;
        }
    }
    if (x0 >= 0)
        add_run(c, x0, w, y, &n);
    return n;
}

/* Joins each run of [cur, end) with the runs of [prev, cur) (the row
 * above) it touches, diagonally too. */
static void join_rows(ts_components *c, int prev, int cur, int end)
{
    int j = prev;
    for (int i = cur; i < end; i++) {
        const run *r = &c->runs[i];
        while (j < cur && c->runs[j].x1 < r->x0)
            j++;
        for (int k = j; k < cur && c->runs[k].x0 <= r->x1; k++)
            ts_join_lower(c->parent, i, k); /* a root is the first run of its component */
    }
}

static int by_key(const void *a, const void *b)
{
    int64_t x = ((const rank *)a)->key, y = ((const rank *)b)->key;
    return (x > y) - (x < y);
}

/* Each component's statistics and label at its root, c->order in
 * OpenCV's numbering. Returns their count. */
static int gather(ts_components *c, int n, int w)
{
    int nc = 0;
    for (int i = 0; i < n; i++) {
        const run *r = &c->runs[i];
        int root = ts_find_root(c->parent, i), len = r->x1 - r->x0;
        comp *k = &c->comps[root];
        int64_t key = (int64_t)(r->y >> 1) * w + (r->x0 >> 1);
        if (root == i) { /* the component's first run */
            *k = (comp){0, 0, 0, r->x0, r->x1 - 1, r->y, r->y, nc};
            c->order[nc++] = (rank){key, i};
        }
        rank *o = &c->order[k->label]; /* its place in order, until sorted */
        o->key = key < o->key ? key : o->key;
        k->sx += (int64_t)(r->x0 + r->x1 - 1) * len / 2;
        k->sy += (int64_t)r->y * len;
        k->area += len;
        k->left = r->x0 < k->left ? r->x0 : k->left;
        k->right = r->x1 - 1 > k->right ? r->x1 - 1 : k->right;
        k->bottom = r->y; /* runs come row by row */
    }
    qsort(c->order, (size_t)nc, sizeof *c->order, by_key);
    for (int i = 0; i < nc; i++)
        c->comps[c->order[i].root].label = i + 1;
    return nc;
}

int ts_components_find(ts_components *c, const ts_image *bin, int *labels, tscv_blob *blobs,
                       int max)
{
    int w = bin->w, h = bin->h;
    if (grow(c, (size_t)h * ((size_t)w / 2 + 1)) < 0)
        return -1;
    int n = 0, prev = 0;
    for (int y = 0; y < h; y++) {
        int cur = n;
        n = row_runs(c, ts_image_row(bin, y), w, y, n);
        join_rows(c, prev, cur, n);
        prev = cur;
    }
    int nc = gather(c, n, w);
    int nb = nc < max ? nc : max;
    for (int i = 0; i < nb; i++) {
        const comp *k = &c->comps[c->order[i].root];
        blobs[i] = (tscv_blob){k->left, k->top, k->right - k->left + 1, k->bottom - k->top + 1,
                               k->area, (float)((double)k->sx / k->area),
                               (float)((double)k->sy / k->area)};
    }
    if (labels) {
        memset(labels, 0, sizeof *labels * (size_t)w * h);
        for (int i = 0; i < n; i++) {
            const run *r = &c->runs[i];
            int l = c->comps[ts_find_root(c->parent, i)].label;
            for (int x = r->x0; x < r->x1; x++)
                labels[(size_t)r->y * w + x] = l;
        }
    }
    return nb;
}
