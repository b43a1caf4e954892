/* Unit shapes the card faces are drawn from: closed polygons with x and y in
 * [-1, 1] (x along the shape's long axis), placed later by ts_poly_place. */
#ifndef TS_RENDER_SHAPES_H
#define TS_RENDER_SHAPES_H

#include "cv/cvwrap.h"

enum { TS_POLY_MAX = 480 };

typedef struct {
    int n;
    ts_pt p[TS_POLY_MAX];
} ts_poly;

/* The polygon's bounding box. */
void ts_poly_bounds(const ts_poly *p, float *x0, float *x1, float *y0, float *y1);

/* SET, classic deck. */
void ts_shape_diamond(ts_poly *p);
void ts_shape_stadium(ts_poly *p, float aspect); /* the oval; aspect = width / height */
void ts_shape_squiggle(ts_poly *p);
/* SET, SeeCards deck. */
void ts_shape_hexagon(ts_poly *p);
void ts_shape_leaf(ts_poly *p);
void ts_shape_snake(ts_poly *p);
/* General. */
void ts_shape_star(ts_poly *p, int points, float inner, float turn);
void ts_shape_round_square(ts_poly *p, float r); /* corner radius r in unit lengths */
void ts_shape_heart(ts_poly *p);
void ts_shape_spade(ts_poly *p);
/* Gang of Four specials. */
void ts_shape_phoenix(ts_poly *p);
void ts_shape_dragon(ts_poly *p);

#endif
