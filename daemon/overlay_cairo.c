/* The overlay's cairo renderer (see overlay_cairo.h). */
#include "overlay_cairo.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* DejaVu Sans Bold: its capitals stand about 0.73 em tall. */
static const double CAP = 0.73;

static void source(cairo_t *cr, ts_bgr c, double a)
{
    cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, a);
}

static void font(cairo_t *cr, double px)
{
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, px / CAP);
}

void ts_overlay_cairo_measure(void *ctx, const char *s, double px, int *w, int *h)
{
    cairo_t *cr = ctx;
    cairo_text_extents_t e;
    font(cr, px);
    cairo_text_extents(cr, s, &e);
    *w = (int)ceil(e.x_advance);
    *h = (int)ceil(px);
}

static void path(cairo_t *cr, const ts_ov_item *it, double s)
{
    cairo_new_path(cr);
    for (int i = 0; i < it->npt; i++)
        cairo_line_to(cr, it->pt[i].x * s, it->pt[i].y * s);
    if (it->closed)
        cairo_close_path(cr);
}

static void poly(cairo_t *cr, const ts_ov_item *it, double s, double u)
{
    double w = it->width * u;
    if (w < 1)
        w = 1;
    if (it->dashed) {
        double d[2] = {10 * u, 7 * u};
        cairo_set_dash(cr, d, 2, 0);
    }
    int under = it->role != TS_OVR_GONE && it->role != TS_OVR_ZONE && it->role != TS_OVR_STATUS;
    path(cr, it, s);
    if (under) { /* a dark line under a coloured one reads on light and dark cloth */
        /* Opaque unless fading: at 1080p a translucent stroke costs cairo
         * twice an opaque one (measured: 12 outlines, 4.2 ms -> 2.0 ms). */
        cairo_set_source_rgba(cr, 0, 0, 0, it->alpha);
        cairo_set_line_width(cr, w + 2 * u);
        cairo_stroke_preserve(cr);
    }
    source(cr, it->colour, it->alpha);
    cairo_set_line_width(cr, w);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
}

static void box(cairo_t *cr, double x, double y, double w, double h, ts_bgr c, double a)
{
    if (a <= 0)
        return;
    source(cr, c, a);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
}

static void text(cairo_t *cr, const ts_ov_item *it, double s, double u, int vw, int vh)
{
    ts_ov_textbox b;
    ts_overlay_text_box(it, s, u, vw, vh, ts_overlay_cairo_measure, cr, &b);
    box(cr, b.x, b.y, b.w, b.h, it->bg, it->bg_alpha);
    font(cr, it->size * u);
    source(cr, it->colour, it->alpha);
    cairo_move_to(cr, b.tx, b.ty);
    cairo_show_text(cr, it->text);
}

static ts_bgr ink_on(ts_bgr c)
{
    return 0.114 * c.b + 0.587 * c.g + 0.299 * c.r > 140 ? (ts_bgr){0, 0, 0}
                                                           : (ts_bgr){255, 255, 255};
}

static void disc(cairo_t *cr, double cx, double cy, double r, double R, ts_bgr c,
                 const char *num)
{
    cairo_new_path(cr);
    cairo_arc(cr, cx, cy, R, 0, 2 * M_PI);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_fill(cr);
    cairo_arc(cr, cx, cy, R - 1, 0, 2 * M_PI);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_fill(cr);
    cairo_arc(cr, cx, cy, r, 0, 2 * M_PI);
    source(cr, c, 1);
    cairo_fill(cr);
    int w, h;
    double px = strlen(num) > 1 ? r * 0.8 : r; /* two digits fit the disc too */
    ts_overlay_cairo_measure(cr, num, px, &w, &h);
    source(cr, ink_on(c), 1);
    cairo_move_to(cr, cx - w / 2.0, cy + h / 2.0);
    cairo_show_text(cr, num);
}

int ts_overlay_render_cairo(cairo_t *cr, int out_w, int out_h, const ts_overlay_list *l)
{
    if (!cr || !l || l->w <= 0 || l->h <= 0 || out_w <= 0 || out_h <= 0)
        return -1;
    /* The picture inside the output: aspect kept, centred. */
    double s = fmin((double)out_w / l->w, (double)out_h / l->h);
    int vw = (int)lround(l->w * s), vh = (int)lround(l->h * s);
    double u = ts_overlay_unit(vw, vh);
    cairo_save(cr);
    cairo_translate(cr, (out_w - vw) / 2, (out_h - vh) / 2);
    cairo_rectangle(cr, 0, 0, vw, vh);
    cairo_clip(cr);
    cairo_set_antialias(cr, l->plain ? CAIRO_ANTIALIAS_FAST : CAIRO_ANTIALIAS_DEFAULT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    ts_ov_layout lay;
    if (ts_overlay_layout(l, s, u, vw, vh, ts_overlay_cairo_measure, cr, &lay) < 0) {
        cairo_restore(cr);
        return -1;
    }
    for (int i = 0; i < l->n; i++) {
        const ts_ov_item *it = &l->item[i];
        switch (it->shape) {
        case TS_OV_DIM: box(cr, 0, 0, vw, vh, it->colour, it->alpha); break;
        case TS_OV_POLY: poly(cr, it, s, u); break;
        case TS_OV_TEXT: text(cr, it, s, u, vw, vh); break;
        case TS_OV_BADGE:
            disc(cr, lay.discs[i].x, lay.discs[i].y, lay.discs[i].r, lay.discs[i].R, it->colour,
                 it->text);
            break;
        case TS_OV_ROW: {
            if (it->corner < 0)
                break;
            const ts_ov_rowbox *b = &lay.rows[i];
            box(cr, b->x, b->y, b->w, b->h, it->bg, it->bg_alpha);
            if (it->group > 0) {
                char num[12];
                snprintf(num, sizeof num, "%d", it->group);
                disc(cr, b->bx, b->by, b->br * 0.85, ts_overlay_badge_outer(b->br * 0.85f, u),
                     it->colour, num);
            }
            font(cr, b->px);
            source(cr, it->group > 0 ? (ts_bgr){255, 255, 255} : it->colour, 1);
            cairo_move_to(cr, b->tx, b->ty);
            cairo_show_text(cr, it->text);
            break;
        }
        }
    }
    cairo_restore(cr);
    ts_overlay_layout_free(&lay);
    return cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : -1;
}
