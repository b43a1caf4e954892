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
/* The same without anti-aliasing: a third of the cost on long thick lines
 * (live video, where a frame is seen for 33 ms). */
int tscv_polyline_plain(ts_image *img, const ts_pt *pts, int n, int closed, ts_bgr c,
                        int thickness, char *err);
/* Filled polygon (anti-aliased edges). */
int tscv_fill_poly(ts_image *img, const ts_pt *pts, int n, ts_bgr c, char *err);
/* Text with its baseline-left at (x, y); Hershey simplex font. */
int tscv_text(ts_image *img, float x, float y, const char *s, double scale, ts_bgr c,
              int thickness, char *err);
/* Width and height (above baseline) of text as tscv_text would draw it. */
void tscv_text_size(const char *s, double scale, int thickness, int *w, int *h);
/* Filled axis-aligned rectangle blended with alpha (0..1) over the image. */
int tscv_fill_rect(ts_image *img, int x, int y, int w, int h, ts_bgr c, double alpha, char *err);
/* Anti-aliased circle of radius r; thickness < 0 fills it. */
int tscv_circle(ts_image *img, float cx, float cy, float r, ts_bgr c, int thickness, char *err);

/* Hershey fonts for tscv_text_font: simplex (as tscv_text), duplex (heavier),
 * complex and triplex (serifed, as printed indices), script (handwritten
 * strokes) and the italic forms of simplex and triplex. */
typedef enum {
    TSCV_FONT_SIMPLEX = 0,
    TSCV_FONT_DUPLEX,
    TSCV_FONT_COMPLEX,
    TSCV_FONT_TRIPLEX,
    TSCV_FONT_SCRIPT,
    TSCV_FONT_SIMPLEX_ITALIC,
    TSCV_FONT_TRIPLEX_ITALIC
} tscv_font;
/* Like tscv_text, in the given font. */
int tscv_text_font(ts_image *img, float x, float y, const char *s, tscv_font font, double scale,
                   ts_bgr c, int thickness, char *err);
/* Like tscv_text_size, in the given font. */
void tscv_text_font_size(const char *s, tscv_font font, double scale, int thickness, int *w,
                         int *h);

#ifdef __cplusplus
}
#endif

#endif
