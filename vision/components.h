/* Connected components (8-connected) of a binary image by its runs: the
 * same components, statistics and numbering as OpenCV's
 * connectedComponentsWithStats (tscv_components), which costs about 40
 * instructions a pixel; a mask of sparse ink (index glyphs) has few runs,
 * and this costs a few a pixel. OpenCV numbers the components in the order
 * their first 2 x 2 block comes in a scan of 2 x 2 blocks, row pair by row
 * pair: so does this (test_components compares the two). */
#ifndef TS_COMPONENTS_H
#define TS_COMPONENTS_H

#include "cv/cvwrap.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ts_components ts_components;

/* Scratch reused across images (caller destroys), or NULL. */
ts_components *ts_components_create(void);
void ts_components_destroy(ts_components *c); /* NULL is fine */

/* The components of bin (1 channel, nonzero is foreground): the first max
 * into blobs (as tscv_components), their labels (1, 2, ...; 0 background)
 * into labels[y * w + x] unless labels is NULL. Returns how many it wrote,
 * or -1 if out of memory. */
int ts_components_find(ts_components *c, const ts_image *bin, int *labels, tscv_blob *blobs,
                       int max);

#ifdef __cplusplus
}
#endif

#endif
