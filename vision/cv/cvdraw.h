/* Drawing on ts_image through OpenCV (annotations, overlay, synthetic scenes).
 * Same conventions as cvwrap.h: 0 or -1 with err (TSCV_ERR_MAX, may be NULL).
 * Colours are B,G,R. Coordinates are pixels (float, drawn with subpixel shift). */
#ifndef TS_CVDRAW_H
#define TS_CVDRAW_H

#include "cvwrap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned char b, g, r;
} ts_bgr;

/* Anti-aliased polyline; closed joins the last point to the first. */
int tscv_polyline(ts_image *img, const ts_pt *pts, int n, int closed, ts_bgr c, int thickness,
                  char *err);
/* Filled polygon (anti-aliased edges). */
int tscv_fill_poly(ts_image *img, const ts_pt *pts, int n, ts_bgr c, char *err);
/* Text with its baseline-left at (x, y); Hershey simplex font. */
int tscv_text(ts_image *img, float x, float y, const char *s, double scale, ts_bgr c,
              int thickness, char *err);
/* Width and height (above baseline) of text as tscv_text would draw it. */
void tscv_text_size(const char *s, double scale, int thickness, int *w, int *h);
/* Filled axis-aligned rectangle blended with alpha (0..1) over the image. */
int tscv_fill_rect(ts_image *img, int x, int y, int w, int h, ts_bgr c, double alpha, char *err);

#ifdef __cplusplus
}
#endif

#endif
