/* The mode a camera is asked for (see capture_mode.h). */
#include "capture_mode.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { CAP_W = 1920, CAP_H = 1080, DEFAULT_FPS = 30, FLOOR_FPS = 25 };

/* One mode a structure offers, with the rate chosen for the target. */
typedef struct {
    ts_camera_mode m;
    double rate; /* fps_n / fps_d; 0 = unknown */
} candidate;

/* A value inside an int range [lo, hi] with step, nearest to want. */
static int in_range(const GValue *v, int want)
{
    int lo = gst_value_get_int_range_min(v), hi = gst_value_get_int_range_max(v);
    int step = gst_value_get_int_range_step(v);
    int x = want < lo ? lo : want > hi ? hi : want;
    if (step > 1)
        x = lo + (x - lo) / step * step;
    return x;
}

/* The ints a width or height field offers (a value, a list; a range gives the
 * one nearest to want). Returns how many were written (at most cap). */
static int field_ints(const GstStructure *st, const char *name, int want, int *out, int cap)
{
    const GValue *v = gst_structure_get_value(st, name);
    if (!v)
        return 0;
    if (G_VALUE_HOLDS_INT(v)) {
        out[0] = g_value_get_int(v);
        return 1;
    }
    if (GST_VALUE_HOLDS_INT_RANGE(v)) {
        out[0] = in_range(v, want);
        return 1;
    }
    int n = 0;
    if (GST_VALUE_HOLDS_LIST(v))
        for (guint i = 0; i < gst_value_list_get_size(v) && n < cap; i++) {
            const GValue *e = gst_value_list_get_value(v, i);
            if (G_VALUE_HOLDS_INT(e))
                out[n++] = g_value_get_int(e);
        }
    return n;
}

static double frac(int n, int d)
{
    return d > 0 ? (double)n / d : 0;
}

/* Whether rate a (n/d) suits target better than the best so far: the
 * slowest at or above the target (no more frames than wanted), else the
 * fastest below it. */
static int better_rate(double a, double best, double target)
{
    int a_ok = a >= target - 0.01, b_ok = best >= target - 0.01;
    if (a_ok != b_ok)
        return a_ok;
    return a_ok ? a < best : a > best;
}

/* The rate of a framerate field chosen for target: n/d, or 0/1 if none. */
static void pick_rate(const GstStructure *st, double target, int *n, int *d)
{
    *n = 0, *d = 1;
    const GValue *v = gst_structure_get_value(st, "framerate");
    if (!v)
        return;
    if (GST_VALUE_HOLDS_FRACTION(v)) {
        *n = gst_value_get_fraction_numerator(v), *d = gst_value_get_fraction_denominator(v);
    } else if (GST_VALUE_HOLDS_LIST(v)) {
        for (guint i = 0; i < gst_value_list_get_size(v); i++) {
            const GValue *e = gst_value_list_get_value(v, i);
            if (!GST_VALUE_HOLDS_FRACTION(e))
                continue;
            int en = gst_value_get_fraction_numerator(e);
            int ed = gst_value_get_fraction_denominator(e);
            if (ed > 0 && en > 0 && (*n == 0 || better_rate(frac(en, ed), frac(*n, *d), target)))
                *n = en, *d = ed;
        }
    } else if (GST_VALUE_HOLDS_FRACTION_RANGE(v)) {
        const GValue *lo = gst_value_get_fraction_range_min(v);
        const GValue *hi = gst_value_get_fraction_range_max(v);
        int ln = gst_value_get_fraction_numerator(lo), ld = gst_value_get_fraction_denominator(lo);
        int hn = gst_value_get_fraction_numerator(hi), hd = gst_value_get_fraction_denominator(hi);
        if (target > frac(hn, hd))
            *n = hn, *d = hd;
        else if (target < frac(ln, ld))
            *n = ln, *d = ld;
        else
            gst_util_double_to_fraction(target, n, d);
    }
    if (*n <= 0 || *d <= 0)
        *n = 0, *d = 1;
}

/* Whether candidate a is a better choice than b for want. */
static int better(const candidate *a, const candidate *b, const ts_camera_want *want)
{
    double target = want->fps > 0 ? want->fps : DEFAULT_FPS;
    double floor = want->fps > 0 ? want->fps - 0.01 : FLOOR_FPS - 0.01;
    int sized = want->w > 0 && want->h > 0;
    /* The size asked for, when offered. */
    if (sized) {
        int ea = a->m.w == want->w && a->m.h == want->h;
        int eb = b->m.w == want->w && b->m.h == want->h;
        if (ea != eb)
            return ea;
    }
    /* Then the rate: a mode too slow for live hints loses to any that is not. */
    int ma = a->rate >= floor, mb = b->rate >= floor;
    if (ma != mb)
        return ma;
    /* Then the size: nearest to the one asked for, or the largest up to 1080p
     * (a 4K frame costs four times the decoding and reading). */
    double aa = (double)a->m.w * a->m.h, ab = (double)b->m.w * b->m.h;
    if (sized) {
        double wa = (double)want->w * want->h;
        double da = fabs(log(aa / wa)), db = fabs(log(ab / wa));
        if (fabs(da - db) > 1e-9)
            return da < db;
    } else {
        double cap = (double)CAP_W * CAP_H;
        int ca = aa <= cap, cb = ab <= cap;
        if (ca != cb)
            return ca;
        if (aa != ab)
            return ca ? aa > ab : aa < ab;
    }
    /* Then the rate nearest the target (both fast enough), or the faster. */
    if (a->rate != b->rate)
        return ma ? fabs(a->rate - target) < fabs(b->rate - target) : a->rate > b->rate;
    /* Raw when raw does as well: no decoding. */
    return !a->m.jpeg && b->m.jpeg;
}

int ts_camera_pick(const GstCaps *caps, const ts_camera_want *want, ts_camera_mode *out)
{
    memset(out, 0, sizeof *out);
    if (!caps || gst_caps_is_any(caps) || gst_caps_is_empty(caps))
        return -1;
    double target = want->fps > 0 ? want->fps : DEFAULT_FPS;
    int want_w = want->w > 0 ? want->w : CAP_W, want_h = want->h > 0 ? want->h : CAP_H;
    candidate best = {0};
    int have = 0;
    for (guint i = 0; i < gst_caps_get_size(caps); i++) {
        const GstStructure *st = gst_caps_get_structure(caps, i);
        GstCapsFeatures *feat = gst_caps_get_features(caps, i);
        if (feat && !gst_caps_features_is_any(feat) &&
            !gst_caps_features_is_equal(feat, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
            continue; /* DMA buffers and the like: not mapped here */
        int jpeg = gst_structure_has_name(st, "image/jpeg");
        if (!jpeg && !gst_structure_has_name(st, "video/x-raw"))
            continue;
        const char *formats[16];
        int nf = 0;
        if (jpeg) {
            formats[nf++] = "";
        } else {
            const GValue *fv = gst_structure_get_value(st, "format");
            if (fv && G_VALUE_HOLDS_STRING(fv))
                formats[nf++] = g_value_get_string(fv);
            else if (fv && GST_VALUE_HOLDS_LIST(fv))
                for (guint k = 0; k < gst_value_list_get_size(fv) && nf < 16; k++) {
                    const GValue *e = gst_value_list_get_value(fv, k);
                    if (G_VALUE_HOLDS_STRING(e))
                        formats[nf++] = g_value_get_string(e);
                }
        }
        int ws[16], hs[16];
        int nw = field_ints(st, "width", want_w, ws, 16);
        int nh = field_ints(st, "height", want_h, hs, 16);
        candidate c;
        memset(&c, 0, sizeof c);
        c.m.jpeg = jpeg;
        pick_rate(st, target, &c.m.fps_n, &c.m.fps_d);
        c.rate = frac(c.m.fps_n, c.m.fps_d);
        for (int f = 0; f < nf; f++)
            for (int x = 0; x < nw; x++)
                for (int y = 0; y < nh; y++) {
                    if (ws[x] <= 0 || hs[y] <= 0)
                        continue;
                    snprintf(c.m.format, sizeof c.m.format, "%s", formats[f]);
                    c.m.w = ws[x], c.m.h = hs[y];
                    if (!have || better(&c, &best, want)) {
                        best = c;
                        have = 1;
                    }
                }
    }
    if (!have)
        return -1;
    *out = best.m;
    return 0;
}

int ts_camera_mode_caps(const ts_camera_mode *m, char *out, size_t n)
{
    char fmt[64] = "", rate[48] = "";
    if (!m->jpeg)
        snprintf(fmt, sizeof fmt, ",format=%s", m->format);
    if (m->fps_n > 0)
        snprintf(rate, sizeof rate, ",framerate=%d/%d", m->fps_n, m->fps_d);
    int len = snprintf(out, n, "%s%s,width=%d,height=%d%s", m->jpeg ? "image/jpeg" : "video/x-raw",
                       fmt, m->w, m->h, rate);
    return len > 0 && (size_t)len < n ? 0 : -1;
}

void ts_camera_mode_describe(const ts_camera_mode *m, char *out, size_t n)
{
    char rate[32] = "";
    if (m->fps_n > 0)
        snprintf(rate, sizeof rate, " %.4g fps", frac(m->fps_n, m->fps_d));
    snprintf(out, n, "%dx%d %s%s", m->w, m->h, m->jpeg ? "MJPEG" : m->format, rate);
}

GstCaps *ts_camera_probe(const char *device, char *err, size_t errlen)
{
    GstElement *src = gst_element_factory_make("v4l2src", NULL);
    if (!src) {
        snprintf(err, errlen, "v4l2src is not installed (gstreamer1.0-plugins-good)");
        return NULL;
    }
    gst_object_ref_sink(src);
    g_object_set(src, "device", device, NULL);
    GstCaps *caps = NULL;
    if (gst_element_set_state(src, GST_STATE_READY) == GST_STATE_CHANGE_SUCCESS) {
        GstPad *pad = gst_element_get_static_pad(src, "src");
        if (pad) {
            caps = gst_pad_query_caps(pad, NULL);
            gst_object_unref(pad);
        }
    }
    gst_element_set_state(src, GST_STATE_NULL);
    gst_object_unref(src);
    if (!caps)
        snprintf(err, errlen, "%.200s: cannot read the camera's formats", device);
    return caps;
}
