/* Cards that leave the table leave the screen: a rendered SET deal (samples/
 * render/sequence.c: twelve cards dealt, then a Set taken away) goes frame by
 * frame through the real pipeline (the SET reader), the live tracker and the
 * overlay's draw list, each rendered frame held as a camera would see it. Once
 * the Set is taken away, within TS_TRACK_GONE_AFTER frames none of its cards
 * carries a code or a hint (badge, ring, legend row), and once the tracker
 * lets them go (keep_frames) nothing at all is drawn for them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "overlay.h"
#include "pipeline.h"
#include "render.h"
#include "tracker.h"

enum { HOLD = 8 }; /* camera frames per rendered frame: enough to settle */

typedef struct {
    ts_pipeline *p;
    ts_tracker *trk;
    ts_frame_result res;
    uint64_t frame;
    const ts_stable *st;
    ts_overlay_list ov;
} live;

static void render_read(live *L, const ts_sequence *seq, int f, ts_scene *sc)
{
    ts_scene_spec spec;
    char err[TSCV_ERR_MAX];
    ts_sequence_frame(seq, f, &spec);
    assert_int_equal(ts_render_scene(&spec, sc, err), 0);
    char why[256];
    memset(&L->res, 0, sizeof L->res);
    assert_int_equal(ts_pipeline_process(L->p, &sc->img, &L->res, why, sizeof why), 0);
}

/* One camera frame: the tracker's update, then the overlay as the live
 * window builds it. */
static void step(live *L)
{
    L->frame++;
    L->st = ts_tracker_update(L->trk, &L->res, L->frame, (double)L->frame / 15);
    ts_overlay_opts oo = {.missing = L->st->missing,
                          .keep_frames = TS_TRACKER_DEFAULTS.keep_frames};
    assert_int_equal(ts_overlay_build(&L->ov, &L->st->table, &oo, L->res.w, L->res.h), 0);
}

/* The stable card lying where q lies (centres within a third of its diagonal), or -1. */
static int card_at(const ts_stable *st, const ts_pt q[4])
{
    float cx = (q[0].x + q[1].x + q[2].x + q[3].x) / 4, cy = (q[0].y + q[1].y + q[2].y + q[3].y) / 4;
    float diag = hypotf(q[2].x - q[0].x, q[2].y - q[0].y);
    for (int i = 0; i < st->table.frame.ncards; i++) {
        const ts_pt *p = st->table.frame.cards[i].quad;
        float px = (p[0].x + p[1].x + p[2].x + p[3].x) / 4, py = (p[0].y + p[1].y + p[2].y + p[3].y) / 4;
        if (hypotf(px - cx, py - cy) < diag / 3)
            return i;
    }
    return -1;
}

/* Items of the draw list on card i: all of them, and the ones that show it
 * as present (code, outline) or hint on it (badges, rings). */
static void items_on(const ts_overlay_list *l, int i, int *all, int *present, int *hints)
{
    *all = *present = *hints = 0;
    for (int k = 0; k < l->n; k++) {
        const ts_ov_item *it = &l->item[k];
        if (it->card != i)
            continue;
        (*all)++;
        *present += it->role == TS_OVR_CARD || it->role == TS_OVR_CODE || it->role == TS_OVR_UNREAD;
        *hints += it->role == TS_OVR_HINT;
    }
}

/* Whether a legend row names code. */
static int legend_names(const ts_overlay_list *l, const char *code)
{
    for (int k = 0; k < l->n; k++)
        if (l->item[k].shape == TS_OV_ROW && l->item[k].group > 0 && strstr(l->item[k].text, code))
            return 1;
    return 0;
}

static void taken_set_leaves_the_screen(void **state)
{
    (void)state;
    char err[256];
    live L;
    memset(&L, 0, sizeof L);
    L.p = ts_pipeline_create(NULL, err, sizeof err);
    assert_non_null(L.p);
    L.trk = ts_tracker_create(NULL);
    assert_non_null(L.trk);
    ts_overlay_list_init(&L.ov);

    ts_scene_spec look = {.family = TS_FAM_SET, .w = 1280, .h = 720, .seed = 11};
    ts_sequence seq;
    char rerr[TSCV_ERR_MAX];
    assert_int_equal(ts_render_sequence(TS_SEQ_DEAL, &look, &seq, rerr), 0);
    /* The step of the deal that takes cards away (a Set). */
    int last = -1;
    for (int f = 1; f < seq.nframes && last < 0; f++)
        if (seq.present[f - 1] & ~seq.present[f])
            last = f;
    assert_true(last > 0);
    uint64_t taken = seq.present[last - 1] & ~seq.present[last];

    /* Every frame up to the one before the Set goes, each held HOLD frames. */
    ts_scene before;
    memset(&before, 0, sizeof before);
    for (int f = 0; f < last; f++) {
        ts_scene_free(&before);
        render_read(&L, &seq, f, &before);
        for (int k = 0; k < HOLD; k++)
            step(&L);
    }
    /* The taken cards, as the stable table holds them (read right, with hints). */
    int idx[TS_RENDER_MAX_CARDS], ntaken = 0;
    char code[TS_RENDER_MAX_CARDS][TS_CODE_MAXLEN];
    for (int i = 0; i < before.ncards; i++) {
        if (!(taken >> i & 1))
            continue;
        int c = card_at(L.st, before.cards[i].quad);
        assert_true(c >= 0);
        assert_true(L.st->table.frame.cards[c].read);
        snprintf(code[ntaken], sizeof code[0], "%s", L.st->table.frame.cards[c].text);
        idx[ntaken++] = c;
    }
    int all, present, hints, hinted = 0;
    for (int t = 0; t < ntaken; t++) {
        items_on(&L.ov, idx[t], &all, &present, &hints);
        assert_true(present > 0);
        hinted += hints > 0;
    }
    assert_true(hinted > 0); /* the Set about to be taken is on screen as a hint */

    /* The Set is taken: within TS_TRACK_GONE_AFTER frames no code, no hint, no
     * legend row on its cards; then nothing at all once the tracker drops them. */
    ts_scene after;
    render_read(&L, &seq, last, &after);
    int gone_at = -1, dropped_at = -1;
    for (int k = 1; k <= TS_TRACKER_DEFAULTS.keep_frames + 2; k++) {
        step(&L);
        int shown = 0, any = 0;
        for (int t = 0; t < ntaken; t++) {
            /* Indices stay put while the tracker keeps a card (no events). */
            int c = idx[t];
            if (L.st->nevents > 0 || c >= L.st->table.frame.ncards ||
                strcmp(L.st->table.frame.cards[c].text, code[t]) != 0) {
                c = -1; /* the table changed: look the card up again by its code */
                for (int i = 0; i < L.st->table.frame.ncards; i++)
                    if (strcmp(L.st->table.frame.cards[i].text, code[t]) == 0)
                        c = i;
            }
            if (c < 0)
                continue;
            idx[t] = c;
            items_on(&L.ov, c, &all, &present, &hints);
            shown += present + hints + legend_names(&L.ov, code[t]);
            any += all;
        }
        if (shown == 0 && gone_at < 0)
            gone_at = k;
        if (any == 0 && dropped_at < 0)
            dropped_at = k;
        if (gone_at > 0)
            assert_int_equal(shown, 0); /* once gone, never back */
    }
    assert_true(gone_at > 0 && gone_at <= TS_TRACK_GONE_AFTER);
    assert_true(dropped_at > 0 && dropped_at <= TS_TRACKER_DEFAULTS.keep_frames + 1);

    ts_scene_free(&before);
    ts_scene_free(&after);
    ts_overlay_list_free(&L.ov);
    ts_tracker_destroy(L.trk);
    ts_pipeline_destroy(L.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(taken_set_leaves_the_screen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
