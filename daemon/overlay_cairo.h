/* The overlay's cairo renderer: draws a draw list (overlay.h) where GStreamer
 * composes the window's video (cairooverlay), at the window's resolution, so
 * text is sharp and sized for the screen, not the source. */
#ifndef TS_OVERLAY_CAIRO_H
#define TS_OVERLAY_CAIRO_H

#include <cairo.h>

#include "overlay.h"

/* Draws l onto cr's target of out_w x out_h pixels, which shows l's frame
 * scaled with its aspect kept and centred (black bars, as videoscale does).
 * Returns 0, or -1 if cairo reports an error. */
int ts_overlay_render_cairo(cairo_t *cr, int out_w, int out_h, const ts_overlay_list *l);

/* How this renderer sizes text (a ts_ov_measure; ctx: a cairo_t *), for
 * layouts checked outside it. */
void ts_overlay_cairo_measure(void *ctx, const char *s, double px, int *w, int *h);

#endif
