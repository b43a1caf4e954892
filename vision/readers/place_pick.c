/* The surest card per place, readings kept (see place_pick.h). */
#include "place_pick.h"

#include <string.h>

#include "detect.h"
#include "geom.h"

void ts_reading_memo_clear(ts_reading_memo *m)
{
    m->n = 0;
}

int ts_reading_memo_found(const ts_reading_memo *m, const ts_pt q[4], ts_reading *out)
{
    for (int i = 0; i < m->n; i++)
        if (memcmp(m->quad[i], q, sizeof m->quad[i]) == 0) {
            *out = m->reading[i];
            return 1;
        }
    return 0;
}

void ts_reading_memo_put(ts_reading_memo *m, const ts_pt q[4], const ts_reading *r)
{
    if (!r->is_card || m->n >= TS_MEMO_MAX)
        return;
    memcpy(m->quad[m->n], q, sizeof m->quad[0]);
    m->reading[m->n++] = *r;
}

int ts_reading_memo_move(ts_reading_memo *m, const ts_pt from[4], const ts_pt to[4],
                         const ts_reading *r)
{
    for (int i = 0; i < m->n; i++)
        if (memcmp(m->quad[i], from, sizeof m->quad[i]) == 0) {
            memcpy(m->quad[i], to, sizeof m->quad[i]);
            m->reading[i] = *r;
            return 1;
        }
    return 0;
}

static int overlap(void *ctx, const ts_quad *a, const ts_quad *b)
{
    (void)ctx;
    return ts_quad_overlap(a, b);
}

/* Whether q is one place with one of the quads already chosen. */
static int taken(ts_place_same_fn same, void *ctx, const ts_quad *out, int nout, const ts_quad *q)
{
    for (int k = 0; k < nout; k++)
        if (same(ctx, &out[k], q))
            return 1;
    return 0;
}

int ts_place_pick(ts_quad *cand, int n, float sure, ts_place_read_fn read, void *ctx,
                  ts_quad *out, int max, char *err)
{
    return ts_place_pick_by(cand, n, sure, read, overlap, ctx, out, max, err);
}

int ts_place_pick_by(ts_quad *cand, int n, float sure, ts_place_read_fn read,
                     ts_place_same_fn same, void *ctx, ts_quad *out, int max, char *err)
{
    int nout = 0;
    for (int i = 0; i < n && nout < max; i++) {
        if (taken(same, ctx, out, nout, &cand[i]))
            continue;
        ts_reading ri;
        if (read(ctx, cand, i, &ri, err) < 0)
            return -1;
        if (!ri.is_card)
            continue;
        int best = i;
        float best_conf = ri.conf;
        for (int j = i + 1; j < n && best_conf < sure; j++) {
            if (!same(ctx, &cand[i], &cand[j]) || taken(same, ctx, out, nout, &cand[j]))
                continue;
            ts_reading rj;
            if (read(ctx, cand, j, &rj, err) < 0)
                return -1;
            if (rj.is_card && rj.conf > best_conf)
                best = j, best_conf = rj.conf;
        }
        out[nout++] = cand[best];
    }
    return nout;
}

int ts_place_taken(const ts_quad *out, int n, const ts_quad *q)
{
    for (int k = 0; k < n; k++)
        if (ts_quad_overlap(&out[k], q))
            return 1;
    return 0;
}

int ts_place_tried(const ts_quad *list, int n, const ts_quad *q, float tol)
{
    for (int k = 0; k < n; k++) {
        int near = 0;
        for (int c = 0; c < 4; c++)
            for (int e = 0; e < 4; e++)
                near += ts_dist(list[k].q[e], q->q[c]) < tol;
        if (near >= 4)
            return 1;
    }
    return 0;
}
