/* Inside the renderer: procedural table surfaces, painted in table
 * millimetres (the camera then sees them in perspective). */
#ifndef TS_RENDER_TEXTURE_H
#define TS_RENDER_TEXTURE_H

#include <stdint.h>

#include "image.h"

typedef enum {
    TS_TABLE_DARK_CLOTH = 0, /* black or dark tablecloth with folds (most of the SET photos) */
    TS_TABLE_DESK,           /* smooth laminate, dark to light, glossy */
    TS_TABLE_WOOD,           /* planks with grain, walnut to birch */
    TS_TABLE_FELT,           /* card-table felt */
    TS_TABLE_CLOTH,          /* plain woven cloth with folds */
    TS_TABLE_CARPET,         /* flecked pile */
    TS_TABLE_PRINTED,        /* printed tablecloth: gingham, stripes or dots */
    TS_TABLE_COUNT
} ts_table_kind;

/* Picks a surface, darker ones more often (as in the photographed tables). */
ts_table_kind ts_table_pick(uint64_t *rng);
const char *ts_table_name(ts_table_kind k);
/* How glossy the surface is, 0 (cloth) .. 1 (as glossy as a card). */
float ts_table_gloss(ts_table_kind k);

/* Paints *tex (BGR, w x h, allocated here; caller frees) with the surface at
 * px_per_mm. Returns 0 or -1 with err (TSCV_ERR_MAX). */
int ts_table_paint(ts_image *tex, int w, int h, ts_table_kind kind, float px_per_mm, uint64_t *rng,
                   char *err);

#endif
