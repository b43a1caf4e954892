/* Candidate cards for the Gang of Four reader: the shared detector run on a
 * small "card stock" image instead of the frame's whitest channel.
 *
 * The shared detector looks for white cards (the minimum of B, G, R); Gang
 * of Four stock is beige, whose blue is low, so on wood or under warm light
 * it sinks into the table. Here each pixel of a decimated frame is scored
 * by how bright it is in red and green less how much bluer it is than beige
 * (white cloth, paper), and the shared contour, erosion and seam machinery
 * runs on that small image: fewer pixels, so a table costs a few ms. Three
 * binarisations (adaptive, Otsu, and Otsu again over the brighter class, for
 * cards on a two-tone or pale table), each as is and eroded. A blob that is
 * a clean quadrilateral is offered whole and split into rows and columns of
 * cards along its darkest seams; the corners of the others (piles) imply a
 * card of the table's card size each.
 *
 * Where the stock blobs are not explained by the lone cards found (blocks of
 * touching cards, rows, piles), the cards implied by their corner indices
 * (gof_index.h) are offered too, within that part of the frame only: the
 * ones with both indices showing after the lone cards, the others last.
 * There too, adaptive and Otsu run again on how far each pixel's chroma is
 * from the table's: stock as bright as the table in the stock score (grey
 * stock on yellow wood, beige on a pale grey cloth) still differs in hue.
 */
#ifndef TS_READERS_GOF_FIND_H
#define TS_READERS_GOF_FIND_H

#include "detect.h"
#include "image.h"

typedef struct ts_gof_finder ts_gof_finder;

/* Returns a finder (caller destroys) or NULL if out of memory. */
ts_gof_finder *ts_gof_finder_create(float min_aspect, float max_aspect);
void ts_gof_finder_destroy(ts_gof_finder *f);
/* ts_detect's contract: candidates in frame pixels, in the order to try,
 * except that their corners are as found on the decimated image (a few
 * frame pixels off): snap each with ts_gof_snap_edges (gof_edges.h) before
 * warping it. Only the candidates read cost the snapping so (the reader
 * reads one or two per card of the dozens offered).
 * card and kind (room for max each, or both NULL): the card each candidate
 * stands for and what it is (ts_gof_kind). For an index view (offered
 * last, only when card is not NULL), out[i] is a quad centred on a corner
 * index seen and card[i] the whole card it implies, which may run under
 * other cards: read card[i] from its indices and report out[i], the place
 * that shows. Returns the count (<= max) or -1 with err (TSCV_ERR_MAX). */
typedef enum {
    TS_GOF_OUTLINE, /* a card's outline, or a cell of a split block */
    TS_GOF_PART,    /* implied by a corner of a blob or by an index: may lie under others */
    TS_GOF_VIEW,    /* an index view */
    TS_GOF_ASIDE    /* a part a little off the blob of one card it was found on (gof.c) */
} ts_gof_kind;
int ts_gof_find(ts_gof_finder *f, const ts_image *frame, ts_quad *out, ts_quad *card,
                unsigned char *kind, int max, char *err);

/* The cards implied by the last ts_gof_find's index pairs (gof_index.h: the
 * index seen at q[0]), all of them, before any was dropped for its size or
 * for lying on a lone card; none where the index finder did not run. Valid
 * until the next ts_gof_find. Returns their count. */
int ts_gof_find_pairs(const ts_gof_finder *f, const ts_quad **pairs);

/* Whether candidate q is a pile corner's card whose two edges at the
 * corner are a card's two sides (not sized by the other cards). */
int ts_gof_corner_whole(const ts_quad *q);

/* The stock score (gof_edges.h) that three quarters of the places round
 * card q, a tenth of it in from its edges, reach: low when part of q lies
 * off card stock. */
int ts_gof_ring_stock(const ts_image *frame, const ts_quad *q);

/* The index view of card q whose index is at its corner q[0] (q[0]-q[1]
 * the short side at the index's top): a quad of the card's shape, 0.6 of
 * its size, centred on the index between numeral and symbol. */
void ts_gof_index_view(const ts_quad *q, ts_quad *view);

#endif
