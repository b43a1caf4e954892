/* A scene: the table under the camera, the cards on it with their soft
 * shadows, then light, lens and sensor (see render.h). Each stage draws its
 * random numbers from its own stream of the seed, so changing one stage
 * (or the cards) leaves the others as they were. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "cv/cvdraw.h"
#include "cv/cvrender.h"
#include "geom.h"
#include "light.h"
#include "place.h"
#include "render.h"
#include "rng.h"
#include "sensor.h"
#include "texture.h"

enum { STREAM_LOOK = 10, STREAM_CAMERA, STREAM_TABLE, STREAM_DECK, STREAM_NOISE = 40 };

typedef struct {
    const ts_scene_spec *spec;
    ts_camera cam;
    ts_light light;
    ts_sensor sensor;
    ts_table_kind table;
    float view[4]; /* the table box the camera frames, mm */
    ts_image *img;
    uint8_t *ids;                    /* which card (1-based) is on top at each pixel, 0 = table */
    uint8_t *gloss;                  /* how glossy each pixel's surface is */
    long drawn[TS_RENDER_MAX_CARDS]; /* pixels each card covered when it was laid */
    char *err;
} scene_ctx;

static int oom(char *err)
{
    snprintf(err, TSCV_ERR_MAX, "render: out of memory");
    return -1;
}

/* ---- Camera -------------------------------------------------------------- */

static void place_camera(scene_ctx *S)
{
    const ts_scene_spec *spec = S->spec;
    uint64_t r = rng_stream(spec->seed, STREAM_CAMERA);
    ts_camera *cam = &S->cam;
    memset(cam, 0, sizeof *cam);
    const double deg = M_PI / 180;
    switch (S->sensor.kind) {
    case TS_CAM_WEBCAM: /* on a stand, looking down */
        cam->tilt = fmin(fabs(rng_gauss(&r)) * 12, 30) * deg;
        cam->fov = rng_range(&r, 55, 75) * deg;
        break;
    case TS_CAM_PHONE: /* held over the table */
        cam->tilt = rng_range(&r, 0, 32) * deg;
        cam->fov = rng_range(&r, 48, 70) * deg;
        break;
    default:
        cam->tilt = rng_range(&r, 5, 35) * deg;
        cam->fov = rng_range(&r, 30, 55) * deg;
        break;
    }
    cam->azimuth = rng_gauss(&r) * 0.12;
    cam->roll = rng_gauss(&r) * 0.03;
    memcpy(S->view, spec->view, sizeof S->view);
    if (S->view[2] <= S->view[0] || S->view[3] <= S->view[1]) { /* none given: the cards' box */
        ts_scene_spec boxed = *spec;
        ts_place_view(&boxed);
        memcpy(S->view, boxed.view, sizeof S->view);
    }
    /* The lens crops its barrel-distorted picture to fill the frame, which
     * enlarges the middle by up to 1 + k1 rc^2 (rc: the corners' radius). */
    double side = fmax(spec->w, spec->h),
           rc2 = ((double)spec->w * spec->w + (double)spec->h * spec->h) / (side * side);
    double fill = rng_range(&r, 0.68, 0.96) / (1 + S->sensor.lens_k1 * rc2);
    ts_camera_fit(cam, S->view, spec->w, spec->h, fill, rng_range(&r, -1, 1), rng_range(&r, -1, 1));
}

/* Pixels per millimetre on the table around the point (x, y). */
static float scale_at(const ts_camera *cam, float x, float y)
{
    ts_pt a = ts_camera_project(cam, x, y), b = ts_camera_project(cam, x + 1, y),
          c = ts_camera_project(cam, x, y + 1);
    return fmaxf(ts_dist(a, b), ts_dist(a, c));
}

/* ---- Table --------------------------------------------------------------- */

static int paint_table(scene_ctx *S)
{
    const ts_camera *cam = &S->cam;
    int w = S->spec->w, h = S->spec->h;
    /* the table seen by the frame (clamped: a steep camera sees far away) */
    float cx = (S->view[0] + S->view[2]) / 2, cy = (S->view[1] + S->view[3]) / 2;
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    const float us[4] = {0, (float)w, (float)w, 0}, vs[4] = {0, 0, (float)h, (float)h};
    for (int k = 0; k < 4; k++) {
        ts_pt p = ts_camera_unproject(cam, us[k], vs[k]);
        x0 = fminf(x0, p.x);
        y0 = fminf(y0, p.y);
        x1 = fmaxf(x1, p.x);
        y1 = fmaxf(y1, p.y);
    }
    x0 = fmaxf(x0, cx - 4000) - 20;
    y0 = fmaxf(y0, cy - 4000) - 20;
    x1 = fminf(x1, cx + 4000) + 20;
    y1 = fminf(y1, cy + 4000) + 20;
    ts_pt near = ts_camera_unproject(cam, w / 2.0, h);
    float ppm = fminf(8, fmaxf(0.4f, scale_at(cam, near.x, near.y)));
    while ((x1 - x0) * ppm > 2600 || (y1 - y0) * ppm > 2600)
        ppm *= 0.8f;
    ts_image tex;
    uint64_t r = rng_stream(S->spec->seed, STREAM_TABLE);
    if (ts_table_paint(&tex, (int)((x1 - x0) * ppm) + 1, (int)((y1 - y0) * ppm) + 1, S->table, ppm,
                       &r, S->err) < 0)
        return -1;
    /* texture pixel -> table mm -> image pixel */
    const double T[9] = {1 / ppm, 0, x0, 0, 1 / ppm, y0, 0, 0, 1};
    double H[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            H[3 * i + j] =
                cam->H[3 * i] * T[j] + cam->H[3 * i + 1] * T[3 + j] + cam->H[3 * i + 2] * T[6 + j];
    int rc = tscv_warp_homography(&tex, H, S->img, w, h, S->err);
    ts_image_free(&tex);
    return rc;
}

/* ---- Cards --------------------------------------------------------------- */

/* Darkens what lies under a card's soft shadow: the card, a little above the
 * table, shades it on the side away from the light. */
static int cast_shadow(scene_ctx *S, const ts_card_place *c, float cw, float ch, float ppm)
{
    const ts_light *l = &S->light;
    ts_card_place moved = *c;
    moved.x += l->shadow_dx;
    moved.y += l->shadow_dy;
    ts_pt q[4], p[4];
    ts_place_corners(&moved, cw, ch, q);
    float soft = fmaxf(0.6f, l->shadow_soft * ppm), margin = 3 * soft + 2;
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int k = 0; k < 4; k++) {
        p[k] = ts_camera_project(&S->cam, q[k].x, q[k].y);
        x0 = fminf(x0, p[k].x);
        y0 = fminf(y0, p[k].y);
        x1 = fmaxf(x1, p[k].x);
        y1 = fmaxf(y1, p[k].y);
    }
    int bx = (int)floorf(x0 - margin), by = (int)floorf(y0 - margin);
    int bw = (int)ceilf(x1 + margin) - bx, bh = (int)ceilf(y1 + margin) - by;
    if (bx >= S->img->w || by >= S->img->h || bx + bw <= 0 || by + bh <= 0)
        return 0;
    ts_image mask;
    if (ts_image_alloc(&mask, bw, bh, 1) < 0)
        return oom(S->err);
    memset(mask.buf, 0, (size_t)bw * (size_t)bh);
    for (int k = 0; k < 4; k++)
        p[k] = (ts_pt){p[k].x - (float)bx, p[k].y - (float)by};
    if (tscv_fill_poly(&mask, p, 4, (ts_bgr){255, 255, 255}, S->err) < 0 ||
        tscv_blur(&mask, &mask, soft, S->err) < 0) {
        ts_image_free(&mask);
        return -1;
    }
    for (int y = 0; y < bh; y++) {
        int yy = by + y;
        if (yy < 0 || yy >= S->img->h)
            continue;
        uint8_t *o = ts_image_row(S->img, yy);
        const uint8_t *m = ts_image_row(&mask, y);
        for (int x = 0; x < bw; x++) {
            int xx = bx + x;
            if (xx < 0 || xx >= S->img->w || !m[x])
                continue;
            float f = 1 - l->shadow_k * m[x] / 255.0f;
            for (int ch3 = 0; ch3 < 3; ch3++)
                o[3 * xx + ch3] = (uint8_t)(o[3 * xx + ch3] * f);
        }
    }
    ts_image_free(&mask);
    return 0;
}

/* Pixels of the frame where card id lies on top, within quad q's box. */
static long count_id(const scene_ctx *S, const ts_pt q[4], uint8_t id)
{
    int x0 = S->img->w, y0 = S->img->h, x1 = 0, y1 = 0;
    for (int k = 0; k < 4; k++) {
        x0 = (int)fminf((float)x0, floorf(q[k].x) - 1);
        y0 = (int)fminf((float)y0, floorf(q[k].y) - 1);
        x1 = (int)fmaxf((float)x1, ceilf(q[k].x) + 2);
        y1 = (int)fmaxf((float)y1, ceilf(q[k].y) + 2);
    }
    long n = 0;
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < S->img->h; y++) {
        const uint8_t *row = S->ids + (size_t)y * (size_t)S->img->w;
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < S->img->w; x++)
            n += row[x] == id;
    }
    return n;
}

static int lay_card(scene_ctx *S, int i, ts_scene_card *out)
{
    const ts_card_place *c = &S->spec->cards[i];
    float cw, ch;
    ts_render_card_size((ts_family)c->code.family, &cw, &ch);
    ts_pt q[4];
    ts_place_corners(c, cw, ch, q);
    for (int k = 0; k < 4; k++)
        out->quad[k] = ts_camera_project(&S->cam, q[k].x, q[k].y);
    out->code = c->code;
    float ppm = scale_at(&S->cam, c->x, c->y);
    if (cast_shadow(S, c, cw, ch, ppm) < 0)
        return -1;
    /* The face is drawn at twice the size it is seen and softened, as a lens
     * would, before it is sampled: fine stripes then blur as they do in
     * photos instead of aliasing into coarse bands. */
    float face_ppm = fminf(24, fmaxf(2, 2 * ppm));
    uint64_t deck_seed = rng_stream(S->spec->seed, STREAM_DECK);
    uint64_t card_seed = rng_stream(deck_seed, 1000 + c->print * 131u + c->code.idx);
    ts_image face, alpha;
    if (ts_render_face(c->code, S->spec->deck, face_ppm, deck_seed, card_seed, &face, &alpha,
                       S->err) < 0)
        return -1;
    int rc = tscv_blur(&face, &face, 0.45 * face_ppm / fmaxf(ppm, 0.1f), S->err);
    if (rc == 0)
        rc =
            tscv_composite_quad(S->img, &face, &alpha, out->quad, S->ids, (uint8_t)(i + 1), S->err);
    ts_image_free(&face);
    ts_image_free(&alpha);
    S->drawn[i] = rc == 0 ? count_id(S, out->quad, (uint8_t)(i + 1)) : 0;
    return rc;
}

/* Share of quad q's area inside the w x h frame (the quad clipped to each
 * side of the frame in turn). */
static double in_frame(const ts_pt q[4], int w, int h)
{
    ts_pt a[12], b[12];
    int n = 4;
    memcpy(a, q, sizeof(ts_pt) * 4);
    const float lim[4] = {0, (float)w, 0, (float)h};
    for (int side = 0; side < 4 && n > 0; side++) {
        int m = 0;
        for (int i = 0; i < n; i++) {
            ts_pt p = a[i], r = a[(i + 1) % n];
            float vp = side < 2 ? p.x : p.y, vr = side < 2 ? r.x : r.y;
            int ip = side % 2 ? vp <= lim[side] : vp >= lim[side];
            int ir = side % 2 ? vr <= lim[side] : vr >= lim[side];
            if (ip)
                b[m++] = p;
            if (ip != ir) {
                float t = (lim[side] - vp) / (vr - vp);
                b[m++] = (ts_pt){p.x + (r.x - p.x) * t, p.y + (r.y - p.y) * t};
            }
        }
        n = m;
        memcpy(a, b, sizeof(ts_pt) * (size_t)n);
    }
    double inside = 0, all = ts_quad_area(q);
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        inside += (double)a[i].x * a[j].y - (double)a[j].x * a[i].y;
    }
    return all > 0 ? fabs(inside) / 2 / all : 0;
}

/* Moves the cards' corners as the lens moves the picture (the inverse of
 * the mapping tscv_lens_distort samples with, by fixed-point iteration). */
static void distort_corners(ts_scene *sc, int w, int h, float k1)
{
    const float cx = w / 2.0f, cy = h / 2.0f, norm = 1.0f / (cx > cy ? cx : cy);
    const float gc = 1 + k1 * (cx * cx + cy * cy) * norm * norm;
    for (int i = 0; i < sc->ncards; i++)
        for (int q = 0; q < 4; q++) {
            ts_pt u = sc->cards[i].quad[q], d = u;
            for (int it = 0; it < 20; it++) {
                float dx = (d.x - cx) * norm, dy = (d.y - cy) * norm;
                float f = (1 + k1 * (dx * dx + dy * dy)) / gc;
                d.x = cx + (u.x - cx) / f;
                d.y = cy + (u.y - cy) / f;
            }
            sc->cards[i].quad[q] = d;
        }
}

/* Defocus across the frame: relative change of inverse depth from the focus,
 * which is linear in the pixel position on a plane. */
static void focus_plane(const ts_camera *cam, int w, int h, double out[3])
{
    double zf = ts_camera_depth(cam, cam->cx, cam->cy);
    double i0 = zf / ts_camera_depth(cam, 0, 0) - 1;
    double iu = zf / ts_camera_depth(cam, w, 0) - 1;
    double iv = zf / ts_camera_depth(cam, 0, h) - 1;
    /* sensor.dof is the blur at a quarter's change of depth */
    out[0] = (iu - i0) / w * 4;
    out[1] = (iv - i0) / h * 4;
    out[2] = i0 * 4;
}

/* ---- Scene --------------------------------------------------------------- */

static int check(const ts_scene_spec *spec, char *err)
{
    if (spec->w < TS_RENDER_MIN_SIDE || spec->h < TS_RENDER_MIN_SIDE ||
        spec->w > TS_RENDER_MAX_SIDE || spec->h > TS_RENDER_MAX_SIDE) {
        snprintf(err, TSCV_ERR_MAX, "render: image size %dx%d out of range (%d..%d)", spec->w,
                 spec->h, TS_RENDER_MIN_SIDE, TS_RENDER_MAX_SIDE);
        return -1;
    }
    if (spec->ncards < 0 || spec->ncards > TS_RENDER_MAX_CARDS) {
        snprintf(err, TSCV_ERR_MAX, "render: %d cards out of range (0..%d)", spec->ncards,
                 TS_RENDER_MAX_CARDS);
        return -1;
    }
    if (spec->family >= TS_FAM_COUNT) {
        snprintf(err, TSCV_ERR_MAX, "render: unknown card family %d", (int)spec->family);
        return -1;
    }
    for (int i = 0; i < spec->ncards; i++)
        if (ts_render_deck_copies(spec->cards[i].code) == 0) {
            snprintf(err, TSCV_ERR_MAX, "render: card %d is no card (family %d, index %d)", i,
                     spec->cards[i].code.family, spec->cards[i].code.idx);
            return -1;
        }
    return 0;
}

int ts_render_scene(const ts_scene_spec *spec, ts_scene *out, char *err)
{
    memset(out, 0, sizeof *out);
    if (check(spec, err) < 0)
        return -1;
    scene_ctx S = {.spec = spec, .img = &out->img, .err = err};
    uint64_t look = rng_stream(spec->seed, STREAM_LOOK);
    ts_light_pick(&S.light, &look);
    ts_sensor_pick(&S.sensor, spec->w, spec->h, &S.light, &look);
    S.table = ts_table_pick(&look);
    place_camera(&S);
    size_t npx = (size_t)spec->w * (size_t)spec->h;
    S.ids = calloc(npx, 1);
    S.gloss = calloc(npx, 1);
    ts_image shade = {0};
    int rc = (!S.ids || !S.gloss) ? oom(err) : paint_table(&S);
    for (int i = 0; rc == 0 && i < spec->ncards; i++)
        rc = lay_card(&S, i, &out->cards[i]);
    if (rc < 0)
        goto done;
    out->ncards = spec->ncards;

    /* Visible fraction: of the pixels a card covered when laid, those still
     * on top at the end, times its share inside the frame. */
    long count[TS_RENDER_MAX_CARDS + 1] = {0};
    uint8_t table_gloss = (uint8_t)(255 * ts_table_gloss(S.table));
    for (size_t i = 0; i < npx; i++) {
        count[S.ids[i]]++;
        S.gloss[i] = S.ids[i] ? 255 : table_gloss;
    }
    for (int i = 0; i < out->ncards; i++) {
        double v = S.drawn[i] > 0 ? (double)count[i + 1] / (double)S.drawn[i] : 0;
        v *= in_frame(out->cards[i].quad, spec->w, spec->h);
        out->cards[i].visible = (float)(v > 1 ? 1 : v);
    }

    /* Light and sensor. */
    if (S.light.occluder_k > 0) {
        uint64_t r = rng_stream(spec->seed, STREAM_LOOK + 100);
        if (ts_image_alloc(&shade, spec->w, spec->h, 1) < 0) {
            rc = oom(err);
            goto done;
        }
        memset(shade.buf, 255, npx);
        if ((rc = ts_light_occluder(&S.light, &shade, &r, err)) < 0)
            goto done;
    }
    ts_pt centre =
        ts_camera_project(&S.cam, (S.view[0] + S.view[2]) / 2, (S.view[1] + S.view[3]) / 2);
    float card_light = ts_light_at(&S.light, centre.x / spec->w, centre.y / spec->h);
    ts_sensor_develop(&S.sensor, &S.light, &out->img, S.gloss, shade.buf ? &shade : NULL,
                      card_light);
    if (S.sensor.lens_k1 > 0.001f) {
        if ((rc = tscv_lens_distort(&out->img, S.sensor.lens_k1, 0, err)) < 0)
            goto done;
        distort_corners(out, spec->w, spec->h, S.sensor.lens_k1);
    }
    double focus[3];
    focus_plane(&S.cam, spec->w, spec->h, focus);
    for (int k = 0; k < 3; k++)
        focus[k] *= S.sensor.dof;
    uint64_t noise = rng_stream(spec->seed, STREAM_NOISE + (uint64_t)spec->frame);
    rc = ts_sensor_finish(&S.sensor, &out->img, focus, noise, err);

    ts_scene_info *in = &out->info;
    in->table = ts_table_name(S.table);
    in->camera = ts_sensor_name(S.sensor.kind);
    in->tilt_deg = (float)(S.cam.tilt * 180 / M_PI);
    in->fov_deg = (float)(S.cam.fov * 180 / M_PI);
    in->distance_mm = (float)S.cam.distance;
    in->lens_k1 = S.sensor.lens_k1;
    in->kelvin = S.light.kelvin;
    in->blur_px = S.sensor.blur;
    in->noise = S.sensor.noise;
    in->jpeg_quality = S.sensor.jpeg_quality;
done:
    free(S.ids);
    free(S.gloss);
    ts_image_free(&shade);
    if (rc < 0)
        ts_scene_free(out);
    return rc;
}

void ts_scene_free(ts_scene *s)
{
    ts_image_free(&s->img);
    s->ncards = 0;
}

int ts_scene_card_under(const ts_scene *sc, const ts_pt q[4])
{
    float x = (q[0].x + q[1].x + q[2].x + q[3].x) / 4, y = (q[0].y + q[1].y + q[2].y + q[3].y) / 4;
    for (int i = sc->ncards - 1; i >= 0; i--) /* later cards lie on top */
        if (ts_point_in_quad(sc->cards[i].quad, x, y))
            return i;
    return -1;
}

float ts_scene_corner_error(const ts_pt q[4], const ts_pt g[4])
{
    float side = ts_dist(g[0], g[1]), best = 1e9f;
    for (int turn = 0; turn < 4; turn += 2) {
        float e = 0;
        for (int k = 0; k < 4; k++)
            e = fmaxf(e, ts_dist(q[(k + turn) % 4], g[k]));
        best = fminf(best, e);
    }
    return best / side;
}

int ts_scene_card_read(const ts_scene *sc, const ts_pt q[4])
{
    int top = ts_scene_card_under(sc, q), at = top;
    if (top < 0)
        return -1;
    float x = (q[0].x + q[1].x + q[2].x + q[3].x) / 4, y = (q[0].y + q[1].y + q[2].y + q[3].y) / 4;
    float best = ts_scene_corner_error(q, sc->cards[top].quad);
    for (int i = top - 1; i >= 0; i--) {
        if (!ts_point_in_quad(sc->cards[i].quad, x, y))
            continue;
        float e = ts_scene_corner_error(q, sc->cards[i].quad);
        if (e < 0.25f && e <= 0.5f * best) {
            best = e;
            at = i;
        }
    }
    return at;
}
