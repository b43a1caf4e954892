/* Playing cards (the Eleusis deck, standard 52) behind the reader interface.
 *
 * A card is read from its corner index only (rank above suit), so a card in a
 * fan or half under another one reads as long as one index corner shows, and
 * court cards of any design read alike. Both index corners are cut out - the
 * top-left one and the bottom-right one turned half a circle - and one small
 * net (models/playing.tsnet, trained by models/train_playing.py) reads each:
 * rank (13), suit (4) and whether the patch is an index at all. The two
 * corners' readings are pooled, each weighted by how sure the net is that it
 * shows an index, so a card upside down reads the same and a covered corner
 * does not vote. A smaller net distilled from it (models/playing-fast.tsnet,
 * a quarter of its cost) reads each first corner first; the shipped net
 * reads again only the corners it is not TS_PLAYING_FAST_SURE of, and every
 * other corner. The other two corners, turned a quarter, are read too: a
 * card whose quad came the other way round (in a photo stretched to a square
 * a card can look wider than long) shows its index there.
 *
 * The class's finder adds cards found by their index alone
 * (playing_index.c): each rank-above-suit glyph pair's patch is screened by
 * a tiny net (models/playing-find.tsnet) in one batch, and a pair read surely
 * offers the whole card it implies, after the exact outlines and before the
 * rough blob candidates of playing_find.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv/cvdnn.h"
#include "datadir.h"
#include "geom.h"
#include "median.h"
#include "reader.h"
#include "readers/place_pick.h"
#include "readers/playing.h"
#include "readers/playing_beside.h"
#include "readers/playing_face.h"
#include "readers/playing_held.h"
#include "readers/playing_suit.h"
#include "readers/readers.h"

enum { NRANK = 13, NSUIT = 4, NPATCH = 4, NOUT = NRANK + NSUIT + 2, PIP_RANKS = 10 };
/* Index candidates: glyph pairs looked at per frame (SCREEN_PAIRS screened;
 * READ_PAIRS on a frame of small cards, ts_playing_index_small_cards: on a
 * pile, whose cards' outlines run together, the pips of the cards on top
 * pair clearer than the indices and took all of 48; on the phone photos
 * 160 made 2 more false cards), and the ways a frame may be stretched (a
 * photo squeezed to a square: cards look narrower or squatter than they
 * are) tried for each pair. */
enum { MAX_PAIRS = 512, READ_PAIRS = 160, SCREEN_PAIRS = 48, NSTRETCH = TS_PLAYING_NSTRETCH,
       MAX_CARD_PAIRS = 64 };
/* Pairs read in every stretch to tell how the frame is stretched; more
 * of a close-up's coarse ones, few and mostly pips, whose index pairs
 * (less white about their large glyphs) come late in the margin order. */
enum { PROBE = 6, PROBE_COARSE = 16 };

/* The stretches to try on frame: only a square frame may be a squeezed
 * photo. On others a stretch that scored higher on a few pips implied
 * cards of the wrong size, and the screening net's reads in the four
 * other stretches were most of the index finder's net time. */
static int frame_stretches(const ts_image *frame)
{
    return frame->w == frame->h ? NSTRETCH : 1;
}
/* Candidates that overlap one read as a card below this confidence are read
 * too, and the surest of them takes the place: the first quad found around
 * a held card is often a loose one (a finger, the face behind) that reads
 * the corner half right. On the 111 webcam frames: 25 -> 32 cards right. */
#define RERANK_SURE 0.97f
enum { MAX_RANKED = 256 }; /* the finder's candidates */
/* Held quads per frame whose fit was found not worth it, remembered so
 * that their other sizes (the same centre) are not fitted again. */
enum { MAX_UNFIT = 16 };
/* An index patch read this surely makes a card candidate. At 0.5 the
 * screening net let faces and pips through: 49 confident false cards on the
 * 317 phone photos against 19 without the index finder; at 0.9, 25, with
 * more cards read right (307/383 against 302 at 0.5). */
#define IDX_SURE 0.9f
/* One read less surely still offers its card, last (before the frame
 * itself), where the cards already found have taken their places: a
 * close-up's large index is one the screening net is less sure of. */
#define IDX_MAYBE 0.5f
/* How surely such a card must read to be one (0.9 let 2 wrong readings
 * and a false card through on the webcam frames), unless its corner shows
 * beside its index: then the floor (late_card). */
#define LATE_SURE 0.97f
/* The share of a close-up's card (found on the coarse level) that must lie
 * in the frame, unless its corner shows (late_card). */
#define CLOSE_UP_IN_FRAME 0.5f
/* One corner read this surely (rank * suit * index) is the card's reading:
 * the opposite corner is not read. */
#define ONE_CORNER_SURE 0.97f
/* An index's glyph pair on the rectified card (in card widths): the rank
 * glyph's centre this near a corner (0.15 on the decks measured), the step
 * to the suit glyph (0.154) within this range. */
#define CHECK_NEAR 0.32f
#define CHECK_STEP_MIN 0.07f
#define CHECK_STEP_MAX 0.30f
/* A reading the face contradicts keeps at most this confidence: below the
 * floor (unread), still a card (it holds its place against loose quads). */
#define FACE_VETO_CAP (0.5f * TS_PLAYING_FLOOR)
/* A fitted held quad's index shape is looked for also on the quad grown by
 * these. */
enum { SHAPE_GROWS = 2 };
static const float SHAPE_GROW[SHAPE_GROWS] = {1.06f, 1.12f};
/* A fitted held quad's index read where its glyph pair lies (held_index):
 * pairs looked for on the quad grown by HELD_GROW (the fit may end inside
 * the card's margins), at most HELD_PAIRS of them (clearest first) whose
 * rank glyph lies within HELD_NEAR card widths of a corner of the fitted
 * quad; the surest patch must read HELD_INDEX_SURE before the face may
 * confirm it (0.64 let a 3S read 3C, the face agreeing). */
enum { HELD_PAIRS = 8 };
#define HELD_GROW 1.15f
#define HELD_NEAR 0.35f
#define HELD_INDEX_SURE 0.8f
/* A held card neither its quad nor the fit reads, read from its index
 * alone (held_pairs): at most HELD_XPAIRS of the frame's glyph pairs about
 * its quad, each pair's patch screened by the finder's net in every
 * stretch; the HELD_XREAD surest give the card they imply, read whole, and
 * it is one only when the face agrees (its pips are its rank and suit):
 * index and face err apart, and of the pairs read on the webcam frames
 * none that the face agreed with was the wrong card. */
enum { HELD_XPAIRS = 32, HELD_XREAD = 5 };
#define HELD_XMAYBE 0.4f
/* Where the frame's pairs about a held quad make no card, the pairs are
 * looked for again in its region (the quad's box grown by HELD_REGION_GROW),
 * enlarged to HELD_REGION_W px on its long side: in a dim frame a small
 * index's glyphs (8-10 px) are blurred into one blob, more so inside a
 * light box drawn round it (the box lowers the local mean the ink is
 * measured against); enlarged, the ink's window spans less than a glyph
 * step. Kept: pairs no wider apart than REGION_STEP_MAX of the quad's short
 * side (an index's step is 0.154 of a card's width): enlarged, a card's
 * pips pair too, and such a pair on a black 5 read 5C (the face agreeing)
 * where the frame's pairs read it 5S. */
#define HELD_REGION_GROW 1.5f
#define REGION_STEP_MAX 0.18f /* an index's step: 0.154 of a card's width */
enum { HELD_REGION_W = 640 };
/* A pair's card whose face is silent (a dim frame, a light box drawn round
 * the index: the face net sees 0.01-0.2 of a card) is one only when read
 * HELD_STEADY_SURE and again above the floor, as the same card, at each of
 * HELD_JITTERS small moves of its cut (shares of its width and height, and
 * a scale about its centre): there the index net's reading of a boxed
 * index flips with a 2 px move of the cut (a 2D read 2H, 8H, 3D or 2S),
 * and a reading that flips is unsure. */
#define HELD_STEADY_SURE 0.97f
/* A pair's card is at most this many times its held quad's area
 * (pair_card_fits). */
#define HELD_PAIR_CARD_MAX 6.0f
enum { HELD_JITTERS = 5 };
static const float HELD_JITTER[HELD_JITTERS][3] = {
    {0.03f, 0, 1}, {-0.03f, 0, 1}, {0, 0.03f, 1}, {0, -0.03f, 1}, {0, 0, 0.95f}};
_Static_assert((int)HELD_JITTERS <= (int)HELD_XREAD, "the jitters are read in r->hxcard");
/* A card read through the class whose first index corner reads this surely
 * (rank * suit * index) and shows an index's glyph shape has its second
 * corner read by the index finder's screening net; read alike as surely,
 * the face is not asked (corners_alike). No reading changed: every playing
 * kind, ts-render-eval 103000, 105000, 87000 and 106000 (20 each), 20
 * tables of each other family under --game playing. The sure one-corner
 * readings the face vetoes there (Gang of Four numerals, 9s read on another
 * card) have a second corner the nets doubt (the fast net: the Gang of Four
 * ones at most 0.998). */
#define CORNERS_SURE TS_PLAYING_FAST_SURE
/* How sure of itself the face must be to make a card of an unsure index. */
#define FACE_RESCUE 0.9f
/* A first corner the fast net reads at least FAST_FACE_FIRST, yet below
 * TS_PLAYING_FAST_SURE, has its card's face read first: a face agreeing
 * with the fast net's card at FACE_RESCUE spares the shipped net's re-read
 * (10 M instructions a corner); such a card's face is asked anyway, as its
 * corners are not CORNERS_SURE. */
#define FAST_FACE_FIRST ONE_CORNER_SURE
/* The share of a card cut by the frame's edge that must lie in the frame
 * for its face to veto an index read LATE_SURE: of one mostly beyond the
 * edge the warp is mostly smear, and the face, counting the few pips that
 * show, rules out the rank of a cut close-up's index read right (3C, 9S). */
#define FACE_SEES 0.5f
/* A card under this many frame px wide shows its index's suit glyph too
 * small to tell a club from a spade, a heart from a diamond (the black
 * pip cards 127000's scatters and rows read wrong on their true corners:
 * 56-88 px wide; the playing grid's are 120-180): its face is read even
 * when its two corners read alike, and rules its suit (suit_by_pips). */
#define SMALL_CARD 100.0f

/* A card found by its index alone (a glyph pair's, paired_quad) is placed
 * by its index: its view is a box INDEX_VIEW card widths square about the
 * index's middle (INDEX_MID_U card widths across, INDEX_MID_V card lengths
 * down: the rank glyph 0.112 widths down, the suit 0.266, playing_index.c),
 * and two places are one when either's view or quad holds the other's
 * middle (ts_quad_overlap), as the pipeline takes them: a fan's neighbours'
 * indices lie 0.15-0.3 card widths apart, their whole quads over each
 * other's middles (ts_playing_index_view, ts_playing_same_place). */
#define INDEX_VIEW 0.2f
#define INDEX_MID_U 0.10f
#define INDEX_MID_V 0.136f
/* Two cards found by their index are one card when they face opposite
 * ways and their middles lie within this many card widths: a card's two
 * indices, each implying the whole card from its glyph step (a held card's
 * two: 0.14 apart). A fan's neighbours face nearly the same way. */
#define SAME_CARD 0.3f
/* White cards edge to edge merge into one bright outline or blob: one
 * holding the indices of two cards read surely, each at most 1 /
 * MERGED_AREA of it, is no card (drop_merged). */
#define MERGED_AREA 1.7f
/* A card given by its index view (its face under others, so no face can
 * check it) is read again by the view net on cuts of its index a little
 * smaller and larger about the card's corner (its size is implied by its
 * glyph step, which is off by a tenth or more in a blurred fan). Unless
 * their mean reads the same card at INDEX_STEADY (rank * suit * index),
 * it is unread; else the two readings agree (its confidence 1 - the
 * product of their doubts). Read by the fast net, the views of the fanned
 * tables of 111000-117000 read sure: 109 right, 25 wrong (a 3, 6, 8 or 9
 * read Q at 0.97-1); so, 108 right, 2 wrong. */
#define INDEX_STEADY 0.7f
/* A view the view net reads as another card than the whole card's reading
 * at VIEW_OWN or more is that card: under other cards the whole card's
 * other corners and face are its neighbours', and on the fans of 123000 and
 * 125000 the view net was right in each of the 21 views it read so against
 * the reading (KS for KC, 3D for 5D, QD for 3D). */
#define VIEW_OWN 0.9f
/* A fan's or pile's card no chosen card stands for (fan_cards): a fine
 * glyph pair whose index the screening net read at least FAN_FAINT (a
 * fanned index, its neighbour's edge beside it, reads 0.2-0.5 where the
 * view net is sure), lying under another index at least FAN_APART card
 * widths from its own, is a card when the view net reads it FAN_SURE. */
#define FAN_FAINT 0.2f
#define FAN_SURE 0.9f
#define FAN_APART 0.1f
#define FAN_REACH 1.5f
/* A fan's indices come late in the frame's glyph pairs (the top card's
 * large pips pair clearer): on a frame with a card under another, up to
 * FAN_MORE more pairs not on a card chosen whole are screened for them. */
enum { FAN_MORE = 48 };
/* Two chosen quads lying over each other by this share of either's area
 * are one place: a card found by its index there is given as its index
 * view (lies_across). */
#define SHARED_PLACE 0.25f
enum { INDEX_CUTS = 5 };
static const float INDEX_CUT[INDEX_CUTS] = {1, 0.9f, 1.1f, 0.8f, 1.2f};

/* Cards read in one batch (each net step one run over all of them). */
enum { BATCH = 48 };
/* Readings kept from find()'s first pass for the pass after: every
 * candidate it read, ahead or one by one. */
enum { MAX_KEPT = MAX_RANKED + BATCH };
/* Another game's table (other_table): at least TABLE_GROUP whole outlines
 * of one size (areas within a factor TABLE_SIZE of the group's first) in
 * as many places (overlapping none of the group before them: a card's
 * outline is often found several times), each at least TABLE_MIN_AREA of
 * the frame and inside no outline TABLE_INSIDE times as large (a playing
 * card's pips, outlined: 0.19-0.29% of a rendered touching table, inside
 * the card on a phone photo), no index read surely, and the first TABLE_SAMPLE of them, read
 * in one batch, not one a card above the floor. Read one by one, the
 * outlines, blobs and held quads of a table of Qwirkle Cards or Chinese
 * domino cards (none a playing card) cost 3.7-5 G instructions. */
enum { TABLE_GROUP = 6, TABLE_SAMPLE = 4 };
#define TABLE_SIZE 1.25f
#define TABLE_INSIDE 1.5f
#define TABLE_MIN_AREA 0.004f /* Chinese domino cards' outlines: 0.56-0.62% */
/* An outline found inside its card (read_grown): a small card on a
 * printed cloth whose light cells merge with its rim, a card edge to edge
 * with another, its index ends cut off. Read unsure or as no card, it is
 * read again grown by OUTLINE_GROW about its middle; the first grown quad
 * read GROWN_SURE takes its place (at RERANK_SURE two sure wrong cards
 * more on 119000's scattered cards, read 0.97). */
enum { OUTLINE_GROWS = 2 };
static const float OUTLINE_GROW[OUTLINE_GROWS] = {1.08f, 1.16f};
#define GROWN_SURE 0.995f

/* read_cards' flags per card: CARD_CUT, it runs past the frame's edge, whose
 * smeared warp the face only half sees (on half a card it counts the pips
 * that show: an 8D cut in two read 5D, its face agreeing), so the face may
 * veto it but not lift it; CARD_PAIRED, it is such a card that the
 * corner-index finder made from a glyph pair at its top-left corner, whose
 * shape is then known (the pair, found at the frame's scale, is not always
 * found again on the small card); CARD_MOSTLY_OUT, a cut card less than
 * FACE_SEES of which lies in the frame: the face does not veto it when its
 * index reads LATE_SURE; CARD_SPARE_FACE, it is read through the reader
 * class (a candidate of find(), or a card handed to read(): the two must
 * read a quad alike, reader.h's read_found), whose face may be spared
 * (corners_alike); not a crop read by ts_playing_read nor a fitted held
 * quad, whose callers weigh the face's verdict. CARD_SMALL, it is under
 * SMALL_CARD px wide, where the index's suit glyph is too small to tell a
 * club from a spade or a heart from a diamond (suit_by_pips). */
enum { CARD_CUT = 1, CARD_PAIRED = 2, CARD_MOSTLY_OUT = 4, CARD_SPARE_FACE = 8,
       CARD_SMALL = 16 };

/* What reading one card of a batch needs. */
typedef struct {
    ts_image patch[NPATCH]; /* corners turned upright (patch[0] is a view) */
    float probs[NPATCH][NOUT];
    ts_image turned; /* the card turned a quarter for the face (allocated when needed) */
    int face;        /* the face is asked: 0 no, 1 to check a card, 2 to rescue one,
                        3 for its pips' suit alone (suit_by_pips) */
    int face_read;   /* fr holds the upright card's face, read before its corners (run_first) */
    ts_playing_face_reading fr;
} card_scratch;

/* A glyph pair's card (its quad as the pair implies it) and how surely
 * the screening net read its index (rank * suit * index). */
typedef struct {
    ts_pt q[4];
    float conf;
} screened_pair;

struct ts_playing_reader {
    tscv_net *net;      /* reads a card's corners */
    tscv_net *fast_net; /* reads the first corner first (TS_PLAYING_FAST_MODEL) */
    tscv_net *view_net; /* reads index views again (TS_PLAYING_VIEW_MODEL) */
    tscv_net *find_net; /* a smaller one that screens the corner-index finder's patches */
    ts_playing_face *face; /* reads the whole face: a second opinion */
    ts_playing_suit *suit; /* the index's suit glyph by its outline, on a card without colour */
    ts_playing_finder *finder; /* for the class's find() */
    ts_index_ink *indexer;
    ts_image coarse; /* its last level, halved for the coarse pairs */
    ts_index_ink *checker; /* glyph pairs on one rectified card */
    ts_playing_pair *cpairs;     /* MAX_CARD_PAIRS */
    ts_playing_pair *pairs;         /* MAX_PAIRS */
    ts_image *ipatch;               /* READ_PAIRS * NSTRETCH index patches */
    float *iprobs;                  /* their net outputs */
    ts_quad icand[READ_PAIRS];      /* the cards they imply */
    int nicand, nsure, nfine; /* of which the first nsure read surely, the
                                 first nfine on the finer levels */
    /* Index patch sizes (px) on the rectified card: upright, and for a card
     * lying across the warp (its long side along the warp's short one). */
    int pw, ph, lw, lh;
    card_scratch *cs;         /* BATCH: each card of a batch read */
    ts_image bimg[BATCH];     /* one net run's inputs (views) */
    float bprobs[BATCH * NOUT]; /* and outputs */
    ts_playing_face_reading faces[BATCH];
    screened_pair spair[READ_PAIRS + FAN_MORE]; /* the frame's fine pairs screened (fan_cards) */
    int nspair;
    int screen; /* this frame's pairs screened: SCREEN_PAIRS or READ_PAIRS */
    ts_reading_memo memo; /* the finder's readings of this frame's quads */
    ts_image *ahead_img;  /* BATCH cards read ahead (read_ahead) */
    ts_reading ahead[BATCH];
    int ahead_cand[BATCH]; /* the candidate each is */
    ts_pt kept_q[MAX_KEPT][4]; /* the quads read in find()'s first pass */
    ts_reading kept[MAX_KEPT]; /* and their readings, not read again after it */
    int nkept, nahead;
    int *ahead_slot;       /* MAX_RANKED: each candidate's place in ahead, or -1 */
    ts_image warp;    /* the finder's warp of one candidate */
    ts_image grown;   /* a fitted held quad's, grown (held_face, held_index) */
    ts_image hpatch[HELD_PAIRS]; /* its index patches (held_index) */
    float hprobs[HELD_PAIRS * NOUT];
    ts_index_ink *hindexer;  /* region_pairs' glyph pairs */
    ts_playing_pair *hpairs; /* the frame's glyph pairs (index_candidates), all MAX_PAIRS */
    int nhpairs;             /* their count */
    ts_image hregion;        /* a held quad's region, enlarged (region_pairs) */
    ts_playing_pair rpairs[MAX_CARD_PAIRS]; /* its pairs, in frame pixels */
    ts_image hxpatch[HELD_XPAIRS * NSTRETCH]; /* their index patches */
    float hxprobs[HELD_XPAIRS * NSTRETCH * NOUT];
    ts_image hxcard[HELD_XREAD]; /* the cards the surest imply */
    ts_pt unfit[MAX_UNFIT]; /* this frame's held quads not worth fitting: centres */
    int nunfit;
    ts_pt unpaired[MAX_UNFIT]; /* and those no glyph pair about made a card */
    int nunpaired;
    const ts_image *frame; /* during find(): the frame (borrowed) */
    int nprefix;      /* find()'s first pass: candidates before the blobs' place */
    int noutline;     /* find()'s candidates: the first noutline are whole outlines */
    int blobs_matter; /* it read what the blobs may change */
    ts_quad *ranked;  /* the finder's output before it is copied out */
    unsigned char *met; /* MAX_RANKED^2: same_size's overlaps, each measured once */
};

ts_playing_reader *ts_playing_reader_create(const char *models_dir, char *err, size_t errlen)
{
    ts_playing_reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->net = ts_playing_net_load(models_dir, TS_PLAYING_MODEL, "index", "index", err, errlen);
    r->fast_net = r->net ? ts_playing_net_load(models_dir, TS_PLAYING_FAST_MODEL, "index", "index",
                                                 err, errlen)
                         : NULL;
    r->view_net = r->fast_net ? ts_playing_net_load(models_dir, TS_PLAYING_VIEW_MODEL, "index",
                                                      "index", err, errlen)
                              : NULL;
    r->find_net = r->view_net ? ts_playing_net_load(models_dir, TS_PLAYING_FIND_MODEL, "index",
                                                      "index", err, errlen)
                              : NULL;
    r->face = r->find_net ? ts_playing_face_create(models_dir, err, errlen) : NULL;
    if (!r->face) {
        ts_playing_reader_destroy(r);
        return NULL;
    }
    r->pw = (int)lroundf(TS_PLAYING_CARD_W * TS_PLAYING_CORNER_W);
    r->ph = (int)lroundf(TS_PLAYING_CARD_H * TS_PLAYING_CORNER_H);
    r->lw = (int)lroundf(TS_PLAYING_CARD_H * TS_PLAYING_CORNER_W);
    r->lh = (int)lroundf(TS_PLAYING_CARD_W * TS_PLAYING_CORNER_H);
    r->finder = ts_playing_finder_create();
    r->indexer = ts_index_ink_create(TS_PLAYING_INK_BLOBS);
    r->checker = ts_index_ink_create(TS_PLAYING_INK_BLOBS);
    r->hindexer = ts_index_ink_create(TS_PLAYING_INK_BLOBS);
    r->hpairs = malloc(sizeof *r->hpairs * MAX_PAIRS);
    r->suit = ts_playing_suit_create();
    r->cpairs = malloc(sizeof *r->cpairs * MAX_CARD_PAIRS);
    r->pairs = malloc(sizeof *r->pairs * MAX_PAIRS);
    r->ipatch = calloc(READ_PAIRS * NSTRETCH, sizeof *r->ipatch);
    r->ranked = malloc(sizeof *r->ranked * MAX_RANKED);
    r->iprobs = malloc(sizeof *r->iprobs * READ_PAIRS * NSTRETCH * NOUT);
    r->cs = calloc(BATCH, sizeof *r->cs);
    r->ahead_img = calloc(BATCH, sizeof *r->ahead_img);
    r->ahead_slot = malloc(sizeof *r->ahead_slot * MAX_RANKED);
    r->met = malloc((size_t)MAX_RANKED * MAX_RANKED);
    int ok = r->finder && r->indexer && r->checker && r->hindexer && r->hpairs && r->suit &&
             r->cpairs && r->pairs && r->ipatch && r->iprobs && r->ranked && r->cs &&
             r->ahead_img && r->ahead_slot && r->met;
    for (int i = 0; ok && i < BATCH; i++)
        ok = ts_image_alloc(&r->cs[i].patch[1], r->pw, r->ph, 3) == 0 &&
             ts_image_alloc(&r->cs[i].patch[2], r->lw, r->lh, 3) == 0 &&
             ts_image_alloc(&r->cs[i].patch[3], r->lw, r->lh, 3) == 0;
    if (!ok) {
        snprintf(err, errlen, "out of memory");
        ts_playing_reader_destroy(r);
        return NULL;
    }
    /* pairs need the blobs alone */
    r->indexer->keep_labels = r->checker->keep_labels = r->hindexer->keep_labels = 0;
    return r;
}

void ts_playing_reader_destroy(ts_playing_reader *r)
{
    if (!r)
        return;
    tscv_net_destroy(r->net);
    tscv_net_destroy(r->fast_net);
    tscv_net_destroy(r->view_net);
    tscv_net_destroy(r->find_net);
    ts_playing_face_destroy(r->face);
    ts_playing_finder_destroy(r->finder);
    ts_index_ink_destroy(r->indexer);
    ts_image_free(&r->coarse);
    ts_index_ink_destroy(r->checker);
    ts_index_ink_destroy(r->hindexer);
    free(r->hpairs);
    ts_image_free(&r->hregion);
    for (int i = 0; i < HELD_XPAIRS * NSTRETCH; i++)
        ts_image_free(&r->hxpatch[i]);
    for (int i = 0; i < HELD_XREAD; i++)
        ts_image_free(&r->hxcard[i]);
    ts_playing_suit_destroy(r->suit);
    free(r->cpairs);
    if (r->ipatch)
        for (int i = 0; i < READ_PAIRS * NSTRETCH; i++)
            ts_image_free(&r->ipatch[i]);
    free(r->ipatch);
    free(r->iprobs);
    free(r->pairs);
    if (r->cs)
        for (int i = 0; i < BATCH; i++) {
            for (int k = 1; k < NPATCH; k++)
                ts_image_free(&r->cs[i].patch[k]);
            ts_image_free(&r->cs[i].turned);
        }
    free(r->cs);
    if (r->ahead_img)
        for (int i = 0; i < BATCH; i++)
            ts_image_free(&r->ahead_img[i]);
    free(r->ahead_img);
    free(r->ahead_slot);
    free(r->met);
    ts_image_free(&r->warp);
    ts_image_free(&r->grown);
    for (int i = 0; i < HELD_PAIRS; i++)
        ts_image_free(&r->hpatch[i]);
    free(r->ranked);
    free(r);
}

/* Fills dst (3 channels) with the top-left corner of the card turned by
 * quarter turns clockwise (1, 2 or 3): dst(x, y) = turned card(x, y). */
static void turned_corner(const ts_image *card, int quarters, ts_image *dst)
{
    int W = card->w, H = card->h, ch = card->channels;
    for (int y = 0; y < dst->h; y++) {
        uint8_t *d = ts_image_row(dst, y);
        for (int x = 0; x < dst->w; x++, d += 3) {
            int sx, sy;
            if (quarters == 2) {
                sx = W - 1 - x, sy = H - 1 - y;
            } else if (quarters == 1) { /* turned clockwise: top-left was bottom-left */
                sx = y, sy = H - 1 - x;
            } else { /* turned anticlockwise: top-left was top-right */
                sx = W - 1 - y, sy = x;
            }
            const uint8_t *p = ts_image_row(card, sy) + (size_t)sx * ch;
            d[0] = p[0];
            d[1] = p[ch == 3 ? 1 : 0];
            d[2] = p[ch == 3 ? 2 : 0];
        }
    }
}

/* rank conf * suit conf * P(index) of one patch's net outputs. */
static float index_conf(const float *p)
{
    float pr = 0, ps = 0;
    for (int k = 0; k < NRANK; k++)
        pr = p[k] > pr ? p[k] : pr;
    for (int k = 0; k < NSUIT; k++)
        ps = p[NRANK + k] > ps ? p[NRANK + k] : ps;
    return pr * ps * p[NRANK + NSUIT + 1];
}

static int argmax(const float *p, int n, float *best)
{
    int arg = 0;
    for (int k = 1; k < n; k++)
        if (p[k] > p[arg])
            arg = k;
    *best = p[arg];
    return arg;
}

/* Pools the corners' distributions over n classes: a weighted sum of
 * log-probabilities (weight = P(the patch is an index)), renormalised. */
static int pool(const float *const *p, const float *w, int np, int n, float *best)
{
    double lp[NRANK], mx = -1e30, sum = 0;
    for (int k = 0; k < n; k++) {
        lp[k] = 0;
        for (int i = 0; i < np; i++)
            lp[k] += w[i] * log(p[i][k] + 1e-6);
        mx = lp[k] > mx ? lp[k] : mx;
    }
    int arg = 0;
    for (int k = 0; k < n; k++) {
        lp[k] = exp(lp[k] - mx);
        sum += lp[k];
        if (lp[k] > lp[arg])
            arg = k;
    }
    *best = (float)(lp[arg] / sum);
    return arg;
}

/* The reading of one way round (0 upright: patches 0 and 1; 1 across:
 * patches 2 and 3) from the net's outputs in probs; second: whether the
 * second corner was read (it is, unless the first was ONE_CORNER_SURE). */
static void way_reading(float probs[][NOUT], int across, ts_playing_reading *out)
{
    memset(out, 0, sizeof *out);
    /* The first corner alone first: read this surely it needs no second
     * opinion, and the net is most of a card's reading time. */
    const float *p0 = probs[2 * across];
    if (index_conf(p0) >= ONE_CORNER_SURE) {
        out->index_conf[2 * across] = p0[NRANK + NSUIT + 1];
        out->rank = argmax(p0, NRANK, &out->rank_conf);
        out->suit = argmax(p0 + NRANK, NSUIT, &out->suit_conf);
        out->conf = out->rank_conf * out->suit_conf * out->index_conf[2 * across];
        out->is_card = 1;
        out->across = across;
        out->one_corner = 1;
        return;
    }
    const float *p[2] = {probs[2 * across], probs[2 * across + 1]};
    const float *ps[2] = {p[0] + NRANK, p[1] + NRANK};
    float w[2], v[2];
    for (int i = 0; i < 2; i++) /* head order: rank suit index */
        out->index_conf[2 * across + i] = w[i] = p[i][NRANK + NSUIT + 1];
    float wmax = w[0] > w[1] ? w[0] : w[1];
    if (wmax < 0.5f)
        return; /* no corner shows an index */
    /* a corner far less sure than the other is covered or blurred: no vote */
    for (int i = 0; i < 2; i++)
        v[i] = w[i] < 0.5f * wmax ? 0 : w[i];
    float pr, psu;
    out->rank = pool(p, v, 2, NRANK, &pr);
    out->suit = pool(ps, v, 2, NSUIT, &psu);
    out->rank_conf = pr;
    out->suit_conf = psu;
    out->conf = pr * psu * wmax;
    /* A patch the net takes for an index but cannot read is far more often
     * a piece of something else (a pip, a court figure, a shadow) than a
     * card: call it no card, so the next candidate at that place is tried. */
    out->is_card = out->conf >= TS_PLAYING_MIN_CONF;
    out->across = across;
}

/* Runs an index net once over the patches job[0..n) (card * NPATCH +
 * patch) of a batch's cards, each patch's outputs to its card's probs. */
static int run_patches(ts_playing_reader *r, tscv_net *net, const int *job, int n, char *err)
{
    if (n == 0)
        return 0;
    for (int k = 0; k < n; k++)
        r->bimg[k] = r->cs[job[k] / NPATCH].patch[job[k] % NPATCH];
    if (tscv_net_run(net, r->bimg, n, r->bprobs, err) < 0)
        return -1;
    for (int k = 0; k < n; k++)
        memcpy(r->cs[job[k] / NPATCH].probs[job[k] % NPATCH], r->bprobs + (size_t)k * NOUT,
               sizeof r->bprobs[0] * NOUT);
    return 0;
}

/* Reads the faces of cards[job[k] / NPATCH] (upright) for k < n into their
 * scratch (face_read, fr). */
static int faces_first(ts_playing_reader *r, const ts_image *cards, const int *job, int n,
                       char *err)
{
    for (int k = 0; k < n; k++)
        r->bimg[k] = cards[job[k] / NPATCH];
    if (ts_playing_face_read_n(r->face, r->bimg, n, r->faces, err) < 0)
        return -1;
    for (int k = 0; k < n; k++) {
        card_scratch *c = &r->cs[job[k] / NPATCH];
        c->fr = r->faces[k];
        c->face_read = 1;
    }
    return 0;
}

/* Whether the face read first (faces_first) agrees at FACE_RESCUE with the
 * card the patch's probs p read. */
static int face_backs(const card_scratch *c, const float *p)
{
    float conf, face_conf;
    int rank = argmax(p, NRANK, &conf), suit = argmax(p + NRANK, NSUIT, &conf);
    return ts_playing_face_judge(&c->fr, rank, suit, &face_conf) == TS_FACE_AGREES &&
           face_conf >= FACE_RESCUE;
}

/* The first corners job[0..n) of cards: the fast net reads them all, the
 * shipped net again those the fast one is not TS_PLAYING_FAST_SURE of,
 * unless it reads FAST_FACE_FIRST and the face agrees: with upright (the
 * face's way) and of a card read through the reader class (spare[i],
 * CARD_SPARE_FACE: not a crop nor a held quad, whose callers weigh the
 * net's confidence themselves). */
static int run_first(ts_playing_reader *r, const ts_image *cards, const int *spare,
                     const int *job, int n, int upright, char *err)
{
    if (run_patches(r, r->fast_net, job, n, err) < 0)
        return -1;
    int unsure[BATCH], nu = 0, ask[BATCH], na = 0;
    for (int k = 0; k < n; k++) {
        float c = index_conf(r->cs[job[k] / NPATCH].probs[job[k] % NPATCH]);
        if (c >= TS_PLAYING_FAST_SURE)
            continue;
        if (upright && spare[job[k] / NPATCH] && c >= FAST_FACE_FIRST)
            ask[na++] = job[k];
        else
            unsure[nu++] = job[k];
    }
    if (na && faces_first(r, cards, ask, na, err) < 0)
        return -1;
    for (int k = 0; k < na; k++) {
        const card_scratch *c = &r->cs[ask[k] / NPATCH];
        if (!face_backs(c, c->probs[ask[k] % NPATCH]))
            unsure[nu++] = ask[k];
    }
    return run_patches(r, r->net, unsure, nu, err);
}

/* True if the rectified card shows an index's shape at one of its corners:
 * a glyph above a smaller one, card white beside them, near the corner and
 * running away from it along the card's length (or, for a card lying
 * across the warp, its width), of an index's size. The net alone takes too
 * much for an index: a window's bars, a face, a shirt's folds read as court
 * cards in webcam frames, where loose quads around no card are many. */
static int index_shape(ts_playing_reader *r, const ts_image *card, char *err)
{
    int n = ts_playing_index_pairs(r->checker, card, r->cpairs, MAX_CARD_PAIRS, err);
    if (n < 0)
        return -1;
    float W = (float)card->w, H = (float)card->h;
    /* corners TL, TR, BR, BL and the card's down at each (an upright index
     * at TL and, turned, at BR; a card across the warp at TR and BL) */
    const float cx[4] = {0, W, W, 0}, cy[4] = {0, 0, H, H};
    const float dx[4] = {0, -1, 0, 1}, dy[4] = {1, 0, -1, 0};
    for (int i = 0; i < n; i++) {
        const ts_playing_pair *p = &r->cpairs[i];
        float vx = p->suit.x - p->rank.x, vy = p->suit.y - p->rank.y, d = hypotf(vx, vy);
        if (d < CHECK_STEP_MIN * W || d > CHECK_STEP_MAX * W)
            continue;
        for (int k = 0; k < 4; k++)
            if (hypotf(p->rank.x - cx[k], p->rank.y - cy[k]) < CHECK_NEAR * W &&
                (vx * dx[k] + vy * dy[k]) > 0.8f * d)
                return 1;
    }
    return 0;
}

/* Reads the corner indices of cards[0..n) (n <= BATCH), each net step run
 * once over every card that needs it. Upright: the top-left corner and the
 * bottom-right one turned half a circle. Across: a card whose quad was
 * taken the other way round (a photo stretched to a square can make a card
 * look wider than long) has its index at the top-right or bottom-left,
 * lying on its side; it is tried when the upright reading is unsure. */
static int read_corners(ts_playing_reader *r, const ts_image *cards, const int *flags, int n,
                        ts_playing_reading *out, char *err)
{
    int job[BATCH] = {0}, nj = 0, spare[BATCH];
    for (int i = 0; i < n; i++) {
        const ts_image *card = &cards[i];
        if (card->w != TS_PLAYING_CARD_W || card->h != TS_PLAYING_CARD_H) {
            snprintf(err, TSCV_ERR_MAX, "playing reader wants %dx%d cards, got %dx%d",
                     TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, card->w, card->h);
            return -1;
        }
        r->cs[i].patch[0] = ts_image_roi(card, 0, 0, r->pw, r->ph);
        r->cs[i].face_read = 0;
        spare[i] = flags && (flags[i] & CARD_SPARE_FACE);
        turned_corner(card, 2, &r->cs[i].patch[1]);
        job[nj++] = i * NPATCH;
    }
    for (int across = 0; across < 2; across++) {
        if (run_first(r, cards, spare, job, nj, across == 0, err) < 0) /* the first corner */
            return -1;
        int nsecond = 0;
        for (int k = 0; k < nj; k++)
            if (index_conf(r->cs[job[k] / NPATCH].probs[2 * across]) < ONE_CORNER_SURE)
                job[nsecond++] = job[k] + 1;
        if (run_patches(r, r->net, job, nsecond, err) < 0)
            return -1;
        nj = 0;
        for (int i = 0; i < n; i++) {
            ts_playing_reading way;
            if (across == 0) {
                way_reading(r->cs[i].probs, 0, &out[i]);
                if (out[i].conf >= TS_PLAYING_SURE)
                    continue; /* read upright: the other way round need not be tried */
                turned_corner(&cards[i], 3, &r->cs[i].patch[2]);
                turned_corner(&cards[i], 1, &r->cs[i].patch[3]);
                job[nj++] = i * NPATCH + 2;
                continue;
            }
            if (out[i].conf >= TS_PLAYING_SURE)
                continue;
            way_reading(r->cs[i].probs, 1, &way);
            memcpy(way.index_conf, out[i].index_conf, 2 * sizeof *way.index_conf);
            if (way.conf > out[i].conf)
                out[i] = way;
            else
                memcpy(out[i].index_conf + 2, way.index_conf + 2, 2 * sizeof *way.index_conf);
        }
    }
    return 0;
}

/* The card as the face net reads it: a card lying across the warp (its
 * long side along the warp's short one) is turned a quarter first, which
 * gives it its own proportions again once shrunk to the face net's input. */
static int face_view(ts_playing_reader *r, int i, const ts_image *card, int across,
                     ts_image *view)
{
    if (!across) {
        *view = *card;
        return 0;
    }
    ts_image *t = &r->cs[i].turned;
    if (!t->buf && ts_image_alloc(t, TS_PLAYING_CARD_H, TS_PLAYING_CARD_W, 3) < 0)
        return -1;
    turned_corner(card, 1, t);
    *view = *t;
    return 0;
}

/* What the face says of an index reading (face_conf and verdict). check:
 * the index made a card: agreement makes the two independent cues' doubt
 * the product of theirs; a face sure of another rank or suit leaves the
 * card unread. Else (a rescue) an index read too unsurely to call the place
 * a card (or without an index's glyph shape) is one when the face, sure of
 * itself, reads the same card: two independent cues rarely agree by chance
 * on one of 52 codes. */
static void face_apply(const ts_playing_face_reading *f, int check, int cut, int mostly_out,
                       ts_playing_reading *out)
{
    out->face = (int)ts_playing_face_judge(f, out->rank, out->suit, &out->face_conf);
    if ((cut && out->face == TS_FACE_AGREES) || (mostly_out && out->conf >= LATE_SURE))
        return;
    if (check) {
        if (out->face == TS_FACE_AGREES)
            out->conf = 1.0f - (1.0f - out->conf) * (1.0f - out->face_conf);
        else if (out->face == TS_FACE_DISAGREES && out->conf >= FACE_VETO_CAP)
            out->conf = FACE_VETO_CAP;
    } else if (out->face == TS_FACE_AGREES && out->face_conf >= FACE_RESCUE) {
        out->is_card = 1;
        out->conf = 1.0f - (1.0f - out->conf) * (1.0f - out->face_conf);
    }
}

/* A card without colour whose index suit glyph's outline contradicts the
 * suit read keeps at most FACE_VETO_CAP: unread, still a card. The glyph
 * is measured at both corners of the way the card was read that show an
 * index (a corner's glyph may be blurred or not found): a diamond's outline
 * at either contradicts another suit, a diamond needs one at both. */
static void suit_check(ts_playing_reader *r, int i, const ts_image *card,
                       ts_playing_reading *out)
{
    if (!out->is_card || out->conf <= FACE_VETO_CAP || !ts_playing_card_grey(card))
        return;
    int against = 0, measured = 0, diamond = out->suit == TS_PLAYING_SUIT_D;
    for (int k = 2 * out->across; k < 2 * out->across + 2; k++) {
        if (out->index_conf[k] < 0.5f)
            continue;
        float asym = ts_playing_suit_asym(r->suit, &r->cs[i].patch[k]);
        if (asym < 0)
            continue;
        measured++;
        against += ts_playing_suit_contradicts(out->suit, asym);
    }
    if (diamond ? measured && against == measured : against > 0)
        out->conf = FACE_VETO_CAP;
}

/* Whether card i of a batch (flags: NULL, none), read as out, is a small
 * pip card (CARD_SMALL, A-10) whose suit its face's pips rule
 * (suit_by_pips). Its corners read alike spare only the face's check: a
 * small card's face in a pile shows the cards over it, and its verdict on
 * the rank left cards read right unread (127000's piles 230 -> 227). */
static int pips_tell_suit(const int *flags, int i, const ts_playing_reading *out)
{
    return flags && (flags[i] & CARD_SMALL) && out->is_card && out->rank < PIP_RANKS;
}

/* A small card (CARD_SMALL) whose face, read as its index's rank, is sure
 * of the other suit of its index's colour keeps at most FACE_VETO_CAP
 * (unread, still a card): its pips, many times the index's suit glyph,
 * show a club's lobes or a spade's point where the glyph (4-6 px) does
 * not (129025's TC read TS 1.00, 129017's AC read AS 1.00). */
static void suit_by_pips(const card_scratch *c, ts_playing_reading *out)
{
    int seen = c->face || (c->face_read && !out->across); /* c->fr is this card's face */
    if (out->is_card && out->conf > FACE_VETO_CAP && seen &&
        ts_playing_face_twin_suit(&c->fr, out->rank, out->suit))
        out->conf = FACE_VETO_CAP;
}

/* alike[i]: card i (CARD_SPARE_FACE), read from its first corner alone
 * CORNERS_SURE with an index's glyph shape, reads the same from its second
 * corner as surely (the screening net, a quarter of the face net's cost; the fast
 * net's half spared less): two sure readings of one index and its shape
 * leave the face nothing to add. */
static int corners_alike(ts_playing_reader *r, const int *flags, int n,
                         const ts_playing_reading *out, int *alike, char *err)
{
    int job[BATCH] = {0}, nj = 0;
    for (int i = 0; i < n; i++) {
        alike[i] = 0;
        if (flags && (flags[i] & CARD_SPARE_FACE) && out[i].is_card && out[i].shape &&
            out[i].one_corner && out[i].conf >= CORNERS_SURE)
            job[nj++] = i * NPATCH + 2 * out[i].across + 1;
    }
    if (run_patches(r, r->find_net, job, nj, err) < 0)
        return -1;
    for (int k = 0; k < nj; k++) {
        int i = job[k] / NPATCH;
        const float *p = r->cs[i].probs[job[k] % NPATCH];
        float c;
        alike[i] = index_conf(p) >= CORNERS_SURE && argmax(p, NRANK, &c) == out[i].rank &&
                   argmax(p + NRANK, NSUIT, &c) == out[i].suit;
    }
    return 0;
}

/* Reads cards[0..n) (n <= BATCH): corner indices, the index's glyph shape,
 * then the face as a second opinion (not of a card whose corners read
 * alike, corners_alike), each net step in one batch. flags (NULL: none):
 * CARD_CUT and the others, per card. */
static int read_cards(ts_playing_reader *r, const ts_image *cards, const int *flags, int n,
                      ts_playing_reading *out, char *err)
{
    if (read_corners(r, cards, flags, n, out, err) < 0)
        return -1;
    int job[BATCH] = {0}, nj = 0;
    for (int i = 0; i < n; i++) {
        r->cs[i].face = 0; /* no face read */
        if (!out[i].is_card) {
            r->cs[i].face = out[i].conf > 0 ? 2 : 0; /* a rescue */
            continue;
        }
        int shape = flags && (flags[i] & CARD_PAIRED) && out[i].one_corner && !out[i].across
                        ? 1
                        : index_shape(r, &cards[i], err);
        if (shape < 0)
            return -1;
        out[i].shape = shape;
        /* a tight crop or a deck whose pips touch its index: both corners
         * agree (the second read below if the first was sure alone) */
        if (!shape && out[i].one_corner)
            job[nj++] = i * NPATCH + 2 * out[i].across + 1;
    }
    int alike[BATCH];
    if (run_patches(r, r->net, job, nj, err) < 0 ||
        corners_alike(r, flags, n, out, alike, err) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (out[i].is_card && !out[i].shape) {
            int a = 2 * out[i].across;
            float c;
            int agree = 1;
            for (int k = 0; k < 2; k++) {
                const float *p = r->cs[i].probs[a + k];
                if (p[NRANK + NSUIT + 1] < 0.5f || argmax(p, NRANK, &c) != out[i].rank ||
                    argmax(p + NRANK, NSUIT, &c) != out[i].suit)
                    agree = 0;
            }
            /* not out->conf capped below the floor: an unsure card there would
             * hide a real one under a loose quad (webcam 20/111 against 25) */
            out[i].is_card = agree;
            r->cs[i].face = agree ? 1 : out[i].conf > 0 ? 2 : 0;
        } else if (out[i].is_card) {
            r->cs[i].face = !alike[i] ? 1 : pips_tell_suit(flags, i, &out[i]) ? 3 : 0;
        }
    }
    nj = 0;
    for (int i = 0; i < n; i++)
        if (r->cs[i].face && !(r->cs[i].face_read && !out[i].across)) {
            if (face_view(r, i, &cards[i], out[i].across, &r->bimg[nj]) < 0) {
                snprintf(err, TSCV_ERR_MAX, "out of memory");
                return -1;
            }
            job[nj++] = i;
        }
    if (ts_playing_face_read_n(r->face, r->bimg, nj, r->faces, err) < 0)
        return -1;
    for (int k = 0; k < nj; k++)
        r->cs[job[k]].fr = r->faces[k];
    for (int i = 0; i < n; i++)
        if (r->cs[i].face == 1 || r->cs[i].face == 2)
            face_apply(&r->cs[i].fr, r->cs[i].face == 1, flags && (flags[i] & CARD_CUT),
                       flags && (flags[i] & CARD_MOSTLY_OUT), &out[i]);
    for (int i = 0; i < n; i++) {
        suit_check(r, i, &cards[i], &out[i]);
        if (pips_tell_suit(flags, i, &out[i]))
            suit_by_pips(&r->cs[i], &out[i]);
    }
    return 0;
}

int ts_playing_read(ts_playing_reader *r, const ts_image *card, ts_playing_reading *out,
                    char *err)
{
    return read_cards(r, card, NULL, 1, out, err);
}

/* ---- The reader class ---------------------------------------------------- */

static void *playing_create(const ts_reader_config *cfg, char *err, size_t errlen)
{
    if (cfg && cfg->profile && strcmp(cfg->profile, "standard") != 0) {
        snprintf(err, errlen, "playing cards: unknown profile '%s' (known: standard)",
                 cfg->profile);
        return NULL;
    }
    return ts_playing_reader_create(cfg ? cfg->models_dir : NULL, err, errlen);
}

static void playing_destroy(void *reader)
{
    ts_playing_reader_destroy(reader);
}

static void to_reading(const ts_playing_reading *r, ts_reading *out)
{
    memset(out, 0, sizeof *out);
    if (!r->is_card)
        return;
    out->is_card = 1;
    out->code = (ts_code){TS_FAM_PLAYING, (uint8_t)(r->suit * NRANK + r->rank)};
    out->conf = r->conf;
    out->nattr = 2;
    out->attr_conf[0] = r->rank_conf;
    out->attr_conf[1] = r->suit_conf;
}

static int read_fresh(ts_playing_reader *pr, const ts_image *card, int flags, ts_reading *out,
                      char *err)
{
    ts_playing_reading r;
    if (read_cards(pr, card, &flags, 1, &r, err) < 0)
        return -1;
    to_reading(&r, out);
    return 0;
}

static int playing_read(void *reader, const ts_image *card, ts_reading *out, char *err)
{
    return read_fresh(reader, card, CARD_SPARE_FACE, out, err);
}

/* The reading find() made of quad q in this frame (reader.h). */
static int playing_read_found(void *reader, const ts_pt q[4], ts_reading *out)
{
    return ts_reading_memo_found(&((ts_playing_reader *)reader)->memo, q, out);
}

/* True if a corner of q lies on or beyond the frame's edge: a card cut by
 * the frame; or a detected outline that is not a whole card's (on the phone
 * photos a card cut by the edge is often outlined with the desk about it,
 * its index inside). */
static int on_frame_edge(const ts_pt q[4], const ts_image *frame)
{
    float w = (float)frame->w, h = (float)frame->h;
    float m = 0.01f * (w > h ? w : h);
    for (int i = 0; i < 4; i++)
        if (q[i].x < m || q[i].y < m || q[i].x > w - 1 - m || q[i].y > h - 1 - m)
            return 1;
    return 0;
}

/* The share of quad q (sampled on a grid) where inside(ctx, point). */
static float share_where(const ts_pt q[4], int (*inside)(const void *, ts_pt), const void *ctx)
{
    enum { N = 8 };
    int in = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            in += inside(ctx, ts_quad_point(q, (i + 0.5f) / N, (j + 0.5f) / N));
    return (float)in / (N * N);
}

static int in_image(const void *frame, ts_pt p)
{
    const ts_image *f = frame;
    return p.x >= 0 && p.y >= 0 && p.x < f->w && p.y < f->h;
}

static int in_quad(const void *quad, ts_pt p)
{
    return ts_point_in_quad(quad, p.x, p.y);
}

/* The share of quad q that lies in the frame. */
static float in_frame(const ts_pt q[4], const ts_image *frame)
{
    return share_where(q, in_image, frame);
}

/* Whether quad q is a card the corner-index finder made from a glyph pair:
 * 0 no, 1 a sure one, 2 a late one, 3 a late one of the coarse level. */
static int paired_quad(const ts_playing_reader *r, const ts_pt q[4])
{
    for (int i = 0; i < r->nicand; i++)
        if (memcmp(r->icand[i].q, q, sizeof r->icand[i].q) == 0)
            return i < r->nsure ? 1 : i < r->nfine ? 2 : 3;
    return 0;
}

void ts_playing_index_view(const ts_quad *card, ts_quad *view)
{
    const ts_pt *q = card->q;
    float h = 0.5f * INDEX_VIEW, w = ts_dist(q[0], q[1]), len = ts_dist(q[0], q[3]);
    float hv = len > 0 ? h * w / len : h;
    const float u[4] = {INDEX_MID_U - h, INDEX_MID_U + h, INDEX_MID_U + h, INDEX_MID_U - h};
    const float v[4] = {INDEX_MID_V - hv, INDEX_MID_V - hv, INDEX_MID_V + hv, INDEX_MID_V + hv};
    for (int k = 0; k < 4; k++)
        view->q[k] = ts_quad_point(q, u[k], v[k]);
    view->score = card->score;
    view->area = card->area;
}

/* Whether cards a and b found by their index are one card's two indices
 * (SAME_CARD). */
static int two_indices(const ts_quad *a, const ts_quad *b)
{
    float wa = ts_dist(a->q[0], a->q[1]), wb = ts_dist(b->q[0], b->q[1]);
    float ax = a->q[1].x - a->q[0].x, ay = a->q[1].y - a->q[0].y;
    float bx = b->q[1].x - b->q[0].x, by = b->q[1].y - b->q[0].y;
    int opposite = ax * bx + ay * by < -0.7f * wa * wb;
    return opposite && ts_dist(ts_quad_centre(a->q), ts_quad_centre(b->q)) < SAME_CARD * wa;
}

int ts_playing_same_place(const ts_quad *a, int a_by_index, const ts_quad *b, int b_by_index)
{
    if (a_by_index && b_by_index && two_indices(a, b))
        return 1;
    if (!ts_quad_overlap(a, b))
        return 0; /* one glyph pair read two ways: a close-up's two cards */
    ts_quad va, vb;
    if (a_by_index)
        ts_playing_index_view(a, &va);
    if (b_by_index)
        ts_playing_index_view(b, &vb);
    return ts_quad_overlap(a_by_index ? &va : a, b_by_index ? &vb : b);
}

/* The place pick's rule (ts_place_pick_by): ts_playing_same_place, a card
 * found by its index being a glyph pair's (paired_quad). */
static int same_place(void *ctx, const ts_quad *a, const ts_quad *b)
{
    const ts_playing_reader *r = ctx;
    return ts_playing_same_place(a, paired_quad(r, a->q) != 0, b, paired_quad(r, b->q) != 0);
}

/* read_cards' flags for candidate quad q. */
static int card_flags(const ts_playing_reader *r, const ts_pt q[4], const ts_image *frame)
{
    float w = ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]);
    int flags = CARD_SPARE_FACE | (w < 2 * SMALL_CARD ? CARD_SMALL : 0);
    if (!on_frame_edge(q, frame))
        return flags;
    return flags | CARD_CUT | (paired_quad(r, q) == 1 ? CARD_PAIRED : 0) |
           (in_frame(q, frame) < FACE_SEES ? CARD_MOSTLY_OUT : 0);
}

/* 1 with the reading find()'s first pass made of quad q (r->kept) in out. */
static int kept_reading(const ts_playing_reader *r, const ts_pt q[4], ts_reading *out)
{
    for (int j = 0; j < r->nkept; j++)
        if (memcmp(r->kept_q[j], q, sizeof r->kept_q[j]) == 0) {
            *out = r->kept[j];
            return 1;
        }
    return 0;
}

/* Keeps reading rd of quad q for the pass after (kept_reading). */
static void keep_reading(ts_playing_reader *r, const ts_pt q[4], const ts_reading *rd)
{
    if (r->nkept >= MAX_KEPT)
        return;
    memcpy(r->kept_q[r->nkept], q, sizeof r->kept_q[0]);
    r->kept[r->nkept++] = *rd;
}

/* Keeps the readings the last read_ahead made (of cand) for the pass after. */
static void keep_ahead(ts_playing_reader *r, const ts_quad *cand)
{
    for (int j = 0; j < r->nahead; j++)
        keep_reading(r, cand[r->ahead_cand[j]].q, &r->ahead[j]);
}

/* Reads ahead, in one batch, the candidates ts_place_pick will read if each
 * it reads is a card: the first, then each one overlapping none of those
 * before it (at most max of them). Their readings wait in r->ahead for
 * read_candidate; a place whose card reads unsure, or is no card, has its
 * other candidates read one by one as before. */
static int read_ahead(ts_playing_reader *r, const ts_image *frame, const ts_quad *cand, int n,
                      int max, char *err)
{
    int k = 0, nread = 0, flags[BATCH] = {0}, which[BATCH];
    if (max > BATCH)
        max = BATCH;
    for (int i = 0; i < n; i++) {
        r->ahead_slot[i] = -1;
        int free = k < max;
        for (int j = 0; j < k && free; j++)
            free = !same_place(r, &cand[r->ahead_cand[j]], &cand[i]);
        if (!free)
            continue;
        r->ahead_slot[i] = k;
        r->ahead_cand[k] = i;
        if (kept_reading(r, cand[i].q, &r->ahead[k])) {
            k++;
            continue;
        }
        if (tscv_warp_quad(frame, cand[i].q, &r->ahead_img[nread], TS_PLAYING_CARD_W,
                           TS_PLAYING_CARD_H, err) < 0)
            return -1;
        flags[nread] = card_flags(r, cand[i].q, frame);
        which[nread++] = k++;
    }
    r->nahead = k;
    ts_playing_reading rd[BATCH];
    if (read_cards(r, r->ahead_img, flags, nread, rd, err) < 0)
        return -1;
    for (int j = 0; j < nread; j++)
        to_reading(&rd[j], &r->ahead[which[j]]);
    return 0;
}

/* Whether a late pair's card (paired 2, or 3 of the coarse level) read
 * conf is one. It is tried where nothing else was a card, often on pips, a
 * figure or a face (webcam). One read LATE_SURE is (of the coarse level:
 * if mostly in the frame, as a close-up is). One read above the floor is
 * when the card ends beside its index as a card's corner does, wherever it
 * lies: a card cut by the frame's edge (phone photos 354 -> 359 of 383;
 * the pips and figures the webcam frames pair show no such corner). */
static int late_card(const ts_playing_reader *r, const ts_pt q[4], int paired, float conf)
{
    if (conf >= LATE_SURE && (paired == 2 || in_frame(q, r->frame) >= CLOSE_UP_IN_FRAME))
        return 1;
    return conf >= TS_PLAYING_FLOOR && ts_playing_index_corner(r->frame, q);
}

/* Cuts from the frame the index patches of the glyph pairs found on fitted
 * held quad q (grown by HELD_GROW, warped into r->grown) near a corner of
 * the card: each pair's patch placed as the corner-index finder places it
 * (ts_playing_index_card), so an index the fit left off the warp's corner
 * (a side a little out, the quad a little turned) is cut where it lies.
 * across[k]: pair k runs along the warp's width (the card lies across it).
 * Returns the count (r->hpatch) or -1 with err. */
static int held_patches(ts_playing_reader *r, const ts_pt q[4], int across[HELD_PAIRS], char *err)
{
    ts_pt g[4];
    ts_quad_scale(q, HELD_GROW, g);
    if (tscv_warp_quad(r->frame, g, &r->grown, TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, err) < 0)
        return -1;
    int n = ts_playing_index_pairs(r->checker, &r->grown, r->cpairs, MAX_CARD_PAIRS, err);
    if (n < 0)
        return -1;
    float W = (float)r->grown.w, H = (float)r->grown.h;
    /* the fitted quad's corners in the grown warp */
    float in = 0.5f * (1.0f - 1.0f / HELD_GROW);
    const float cx[4] = {in * W, (1 - in) * W, (1 - in) * W, in * W};
    const float cy[4] = {in * H, in * H, (1 - in) * H, (1 - in) * H};
    int np = 0;
    for (int i = 0; i < n && np < HELD_PAIRS; i++) {
        const ts_playing_pair *p = &r->cpairs[i];
        float vx = p->suit.x - p->rank.x, vy = p->suit.y - p->rank.y, d = hypotf(vx, vy);
        float card_w = W / HELD_GROW;
        if (d < CHECK_STEP_MIN * card_w || d > CHECK_STEP_MAX * card_w)
            continue;
        int near = 0;
        for (int k = 0; k < 4; k++)
            near |= hypotf(p->rank.x - cx[k], p->rank.y - cy[k]) < HELD_NEAR * card_w;
        if (!near)
            continue;
        ts_pt card[4], patch[4], fp[4];
        ts_playing_index_card(p, 0, card, patch);
        for (int k = 0; k < 4; k++)
            fp[k] = ts_quad_point(g, patch[k].x / W, patch[k].y / H);
        if (tscv_warp_quad(r->frame, fp, &r->hpatch[np], r->pw, r->ph, err) < 0)
            return -1;
        across[np++] = fabsf(vx) > fabsf(vy);
    }
    return np;
}

/* The face of fitted warp r->warp, upright (across 0) or turned a quarter
 * (1), into f: read_cards' reading of it (rd, its reading of r->warp) when
 * it read the face that way, else read now. */
static int fitted_face(ts_playing_reader *r, const ts_playing_reading *rd, int across,
                       ts_playing_face_reading *f, char *err)
{
    if (r->cs[0].face && rd->across == across) {
        *f = r->faces[0];
        return 0;
    }
    ts_image view;
    if (face_view(r, 0, &r->warp, across, &view) < 0) {
        snprintf(err, TSCV_ERR_MAX, "out of memory");
        return -1;
    }
    return ts_playing_face_read(r->face, &view, f, err);
}

/* Whether face f could agree with some index reading: it sees a pip card. */
static int face_may_agree(const ts_playing_face_reading *f)
{
    float c, fr, fs;
    int rank = argmax(f->rank, NRANK, &fr), suit = argmax(f->suit, NSUIT, &fs);
    return ts_playing_face_judge(f, rank, suit, &c) == TS_FACE_AGREES;
}

/* The index of fitted held quad q read where its glyph pairs lie
 * (held_patches), after read_cards' reading rd of its warp r->warp: the
 * surest patch's reading into out, a card when it reads HELD_INDEX_SURE;
 * then the face judges it as it judges any card's index (face_apply), and
 * on a card without colour the suit glyph's outline (as suit_check). Only
 * patches the face, turned their way, could agree with are read (the net
 * is most of the cost: a face that sees a court card or no card makes
 * none of them a card). */
static int held_index(ts_playing_reader *r, const ts_pt q[4], const ts_playing_reading *rd,
                      ts_playing_reading *out, char *err)
{
    memset(out, 0, sizeof *out);
    int across[HELD_PAIRS];
    int np = held_patches(r, q, across, err);
    if (np < 0)
        return -1;
    ts_playing_face_reading f[2];
    int may[2] = {0, 0};
    for (int a = 0; a < 2; a++) {
        int some = 0;
        for (int k = 0; k < np; k++)
            some |= across[k] == a;
        if (some && fitted_face(r, rd, a, &f[a], err) < 0)
            return -1;
        may[a] = some && face_may_agree(&f[a]);
    }
    int kept = 0;
    for (int k = 0; k < np; k++)
        if (may[across[k]]) {
            ts_image t = r->hpatch[kept]; /* keep every buffer */
            r->hpatch[kept] = r->hpatch[k], r->hpatch[k] = t;
            across[kept++] = across[k];
        }
    if (kept > 0 && tscv_net_run(r->net, r->hpatch, kept, r->hprobs, err) < 0)
        return -1;
    int best = -1;
    float conf = HELD_INDEX_SURE;
    for (int k = 0; k < kept; k++)
        if (index_conf(r->hprobs + (size_t)k * NOUT) >= conf)
            best = k, conf = index_conf(r->hprobs + (size_t)k * NOUT);
    if (best < 0)
        return 0;
    const float *p = r->hprobs + (size_t)best * NOUT;
    out->rank = argmax(p, NRANK, &out->rank_conf);
    out->suit = argmax(p + NRANK, NSUIT, &out->suit_conf);
    out->conf = conf;
    out->across = across[best];
    out->is_card = 1;
    face_apply(&f[out->across], 1, 0, 0, out);
    if (ts_playing_card_grey(&r->warp) &&
        ts_playing_suit_contradicts(out->suit, ts_playing_suit_asym(r->suit, &r->hpatch[best])))
        out->conf = FACE_VETO_CAP;
    return 0;
}

/* A held card's quad q (updated) fitted to its face (ts_playing_held_fit)
 * and read again into out; returns 1, out unchanged, when not worth
 * fitting (or another size of it was not, r->unfit). The fit moves the sides to where the face net
 * sees a whole card, and on another game's card that can frame an index's
 * likeness (a Gang of Four card read JD at 0.97, a domino AH at 0.98, the
 * face seeing no card there): the reading stays below the floor unless the
 * face agrees with it, as it did on every webcam card so read. An index
 * the corners do not read surely is read again where its glyph pair lies
 * (held_index). */
static int read_fitted(ts_playing_reader *r, ts_pt q[4], ts_reading *out, char *err)
{
    ts_playing_reading rd;
    /* the sizes of one held quad share its centre: one not worth fitting
     * (most of them, on another game's table) makes the others so too */
    ts_pt c = ts_quad_centre(q);
    for (int k = 0; k < r->nunfit; k++)
        if (ts_dist(c, r->unfit[k]) < 1.0f)
            return 1;
    int fit = ts_playing_held_fit(r->face, r->frame, q, err);
    if (fit == 1 && r->nunfit < MAX_UNFIT)
        r->unfit[r->nunfit++] = c;
    if (fit != 0)
        return fit;
    if (tscv_warp_quad(r->frame, q, &r->warp, TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, err) < 0 ||
        read_cards(r, &r->warp, NULL, 1, &rd, err) < 0)
        return -1;
    if (rd.face != TS_FACE_AGREES && rd.conf > FACE_VETO_CAP)
        rd.conf = FACE_VETO_CAP;
    if (!rd.is_card || rd.conf < TS_PLAYING_FLOOR) {
        ts_playing_reading ix;
        if (held_index(r, q, &rd, &ix, err) < 0)
            return -1;
        if (ix.is_card && ix.face == TS_FACE_AGREES && ix.conf > rd.conf)
            rd = ix;
    }
    to_reading(&rd, out);
    return 0;
}

/* A held card's reading out, unsure, replaced by its face's (card: the
 * warp of its quad q) where an index's glyph shape shows at a corner of it,
 * or of the quad grown a little (SHAPE_GROW: a fit that ends inside the
 * card's margins cuts the index). */
static int held_face(ts_playing_reader *r, const ts_pt q[4], const ts_image *card, ts_reading *out,
                     char *err)
{
    if (out->is_card && out->conf >= TS_PLAYING_FLOOR)
        return 0;
    int shape = index_shape(r, card, err);
    for (int k = 0; k < SHAPE_GROWS && shape == 0; k++) {
        ts_pt g[4];
        ts_quad_scale(q, SHAPE_GROW[k], g);
        shape = tscv_warp_quad(r->frame, g, &r->grown, TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, err) < 0
                    ? -1
                    : index_shape(r, &r->grown, err);
    }
    if (shape <= 0)
        return shape;
    ts_reading face;
    if (ts_playing_held_face(r->face, card, out, &face, err) < 0)
        return -1;
    if (face.is_card)
        *out = face;
    return 0;
}

/* The (at most HELD_XREAD) surest of n screened patches (hxprobs), read
 * HELD_XMAYBE at least, surest first: their places in pick. Not one
 * stretch a pair: of a squeezed frame's index, the screening net may like
 * another stretch a little better than the one that shows its card. */
static int surest_patches(const ts_playing_reader *r, int n, int *pick)
{
    float conf[HELD_XREAD];
    int m = 0;
    for (int k = 0; k < n; k++) {
        float c = index_conf(r->hxprobs + (size_t)k * NOUT);
        if (c < HELD_XMAYBE || (m == HELD_XREAD && c <= conf[m - 1]))
            continue;
        int j = m < HELD_XREAD ? m++ : m - 1; /* the last place, freed */
        for (; j > 0 && conf[j - 1] < c; j--)
            conf[j] = conf[j - 1], pick[j] = pick[j - 1];
        conf[j] = c, pick[j] = k;
    }
    return m;
}

/* The glyph pairs of held quad q's region (HELD_REGION_GROW), enlarged to
 * HELD_REGION_W px on its long side, index-sized for q (REGION_STEP_MAX),
 * in frame pixels (rpairs): their count, 0 where the region is no smaller
 * than that, -1 on error. */
static int region_pairs(ts_playing_reader *r, const ts_pt q[4], char *err)
{
    ts_pt g[4];
    ts_quad_scale(q, HELD_REGION_GROW, g);
    float x0 = g[0].x, x1 = g[0].x, y0 = g[0].y, y1 = g[0].y;
    for (int k = 1; k < 4; k++) {
        x0 = fminf(x0, g[k].x), x1 = fmaxf(x1, g[k].x);
        y0 = fminf(y0, g[k].y), y1 = fmaxf(y1, g[k].y);
    }
    x0 = fmaxf(x0, 0), y0 = fmaxf(y0, 0);
    x1 = fminf(x1, (float)r->frame->w), y1 = fminf(y1, (float)r->frame->h);
    float side = fmaxf(x1 - x0, y1 - y0);
    if (x1 - x0 < 1 || y1 - y0 < 1 || side >= HELD_REGION_W)
        return 0;
    float k = HELD_REGION_W / side;
    int w = (int)lroundf((x1 - x0) * k), h = (int)lroundf((y1 - y0) * k);
    const ts_pt box[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    if (w < 2 || h < 2)
        return 0;
    if (r->hregion.w != w || r->hregion.h != h)
        ts_image_free(&r->hregion); /* the warp keeps a picture of its size */
    if (tscv_warp_quad(r->frame, box, &r->hregion, w, h, err) < 0)
        return -1;
    int n = ts_playing_index_pairs(r->hindexer, &r->hregion, r->rpairs, MAX_CARD_PAIRS, err);
    if (n < 0)
        return -1;
    float short_side = fminf(ts_dist(q[0], q[1]), ts_dist(q[1], q[2]));
    int kept = 0;
    for (int i = 0; i < n; i++) {
        ts_playing_pair p = r->rpairs[i];
        p.rank = (ts_pt){x0 + p.rank.x / k, y0 + p.rank.y / k};
        p.suit = (ts_pt){x0 + p.suit.x / k, y0 + p.suit.y / k};
        if (ts_dist(p.rank, p.suit) <= REGION_STEP_MAX * short_side)
            r->rpairs[kept++] = p;
    }
    return kept;
}

/* Whether card quad q, read rd, reads the same card above the floor at
 * every small move of its cut (HELD_JITTER; the face not against it);
 * -1 on error. Uses r->hxcard (the pair cards are read by then). */
static int steady_card(ts_playing_reader *r, const ts_pt q[4], const ts_playing_reading *rd,
                       char *err)
{
    for (int j = 0; j < HELD_JITTERS; j++) {
        const float *m = HELD_JITTER[j];
        ts_pt s[4], moved[4];
        ts_quad_scale(q, m[2], s);
        float dx = m[0] * (q[1].x - q[0].x) + m[1] * (q[3].x - q[0].x);
        float dy = m[0] * (q[1].y - q[0].y) + m[1] * (q[3].y - q[0].y);
        for (int k = 0; k < 4; k++)
            moved[k] = (ts_pt){s[k].x + dx, s[k].y + dy};
        if (tscv_warp_quad(r->frame, moved, &r->hxcard[j], TS_PLAYING_CARD_W, TS_PLAYING_CARD_H,
                           err) < 0)
            return -1;
    }
    ts_playing_reading jr[HELD_JITTERS];
    if (read_cards(r, r->hxcard, NULL, HELD_JITTERS, jr, err) < 0)
        return -1;
    for (int j = 0; j < HELD_JITTERS; j++)
        if (!jr[j].is_card || jr[j].conf < TS_PLAYING_FLOOR || jr[j].rank != rd->rank ||
            jr[j].suit != rd->suit || jr[j].face == TS_FACE_DISAGREES)
            return 0;
    return 1;
}

/* Whether a glyph pair's card c is of a card's size for held quad q: at
 * most HELD_PAIR_CARD_MAX times its area. A quad found on the pips is
 * smaller than its card, or larger where it ran on into the hand (the
 * webcam cards so read: 0.28-4.3 times), but a cluster of pips on a table's
 * close-up card is a twelfth of the card its pair implies (render 109021's
 * 7H: the table path reads the same card from the same pair). */
static int pair_card_fits(const ts_pt q[4], const ts_pt c[4])
{
    return ts_quad_area(c) <= HELD_PAIR_CARD_MAX * ts_quad_area(q);
}

/* held_pairs' card from npairs glyph pairs: 1 found (q and out updated),
 * 0 none, -1 error. */
static int pairs_card(ts_playing_reader *r, const ts_playing_pair *pairs, int npairs, ts_pt q[4],
                      ts_reading *out, char *err)
{
    int idx[HELD_XPAIRS];
    int n = ts_playing_held_pairs(pairs, npairs, q, idx, HELD_XPAIRS);
    int ns = frame_stretches(r->frame);
    ts_pt card[HELD_XPAIRS * NSTRETCH][4];
    for (int i = 0; i < n * ns; i++) {
        ts_pt patch[4];
        ts_playing_index_card(&pairs[idx[i / ns]], i % ns, card[i], patch);
        if (tscv_warp_quad(r->frame, patch, &r->hxpatch[i], r->pw, r->ph, err) < 0)
            return -1;
    }
    if (n > 0 && tscv_net_run(r->find_net, r->hxpatch, n * ns, r->hxprobs, err) < 0)
        return -1;
    int pick[HELD_XREAD];
    int m = surest_patches(r, n * ns, pick);
    for (int i = 0; i < m; i++)
        if (tscv_warp_quad(r->frame, card[pick[i]], &r->hxcard[i], TS_PLAYING_CARD_W,
                           TS_PLAYING_CARD_H, err) < 0)
            return -1;
    ts_playing_reading rd[HELD_XREAD];
    if (m > 0 && read_cards(r, r->hxcard, NULL, m, rd, err) < 0)
        return -1;
    /* a card mostly beyond the frame's edge (a pair's card in the wrong
     * stretch) would take the place of the card there, and is no card of
     * the frame's */
    int best = -1;
    for (int k = 0; k < m; k++)
        if (rd[k].is_card && rd[k].face == TS_FACE_AGREES && rd[k].conf >= TS_PLAYING_FLOOR &&
            (best < 0 || rd[k].conf > rd[best].conf) &&
            in_frame(card[pick[k]], r->frame) >= FACE_SEES && pair_card_fits(q, card[pick[k]]))
            best = k;
    /* else the surest read with the face silent, if its reading is steady */
    int silent = -1;
    for (int k = 0; k < m && best < 0; k++)
        if (rd[k].is_card && rd[k].face == TS_FACE_SILENT && rd[k].conf >= HELD_STEADY_SURE &&
            in_frame(card[pick[k]], r->frame) >= FACE_SEES && pair_card_fits(q, card[pick[k]]) &&
            (silent < 0 || rd[k].conf > rd[silent].conf))
            silent = k;
    if (silent >= 0) {
        int steady = steady_card(r, card[pick[silent]], &rd[silent], err);
        if (steady < 0)
            return -1;
        best = steady ? silent : -1;
    }
    if (best < 0)
        return 0;
    memcpy(q, card[pick[best]], sizeof card[0]);
    to_reading(&rd[best], out);
    return 1;
}

/* A held card's quad q (updated) and reading out (a card only when one is
 * found) from the frame's glyph pairs about it (HELD_XPAIRS), else its
 * region's (region_pairs): the card a pair implies, read whole, where the
 * face agrees with its index. */
static int held_pairs(ts_playing_reader *r, ts_pt q[4], ts_reading *out, char *err)
{
    /* the sizes of one held quad share its centre and its pairs */
    ts_pt c = ts_quad_centre(q);
    for (int k = 0; k < r->nunpaired; k++)
        if (ts_dist(c, r->unpaired[k]) < 1.0f)
            return 0;
    if (r->nunpaired < MAX_UNFIT)
        r->unpaired[r->nunpaired++] = c;
    int found = pairs_card(r, r->hpairs, r->nhpairs, q, out, err);
    if (found != 0)
        return found < 0 ? -1 : 0;
    int nr = region_pairs(r, q, err);
    if (nr <= 0)
        return nr;
    return pairs_card(r, r->rpairs, nr, q, out, err) < 0 ? -1 : 0;
}

/* Outline q read unsure or as no card, read again grown (OUTLINE_GROW):
 * returns 1 with the grown quad read GROWN_SURE in g and its reading in
 * out, 0 if none, -1 with err. */
static int read_grown(ts_playing_reader *r, const ts_pt q[4], ts_pt g[4], ts_reading *out,
                      char *err)
{
    for (int k = 0; k < OUTLINE_GROWS; k++) {
        ts_quad_scale(q, OUTLINE_GROW[k], g);
        if (!ts_quad_in_frame(g, r->frame->w, r->frame->h, 0))
            return 0;
        ts_reading rd;
        if (tscv_warp_quad(r->frame, g, &r->warp, TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, err) < 0 ||
            read_fresh(r, &r->warp, card_flags(r, g, r->frame), &rd, err) < 0)
            return -1;
        if (rd.is_card && rd.conf >= GROWN_SURE) {
            *out = rd;
            return 1;
        }
    }
    return 0;
}

/* Reads candidate i for the finder (read ahead, or now), keeping a card's
 * reading for the pipeline's read of the same quad. */
static int read_candidate(void *ctx, ts_quad *cand, int i, ts_reading *out, char *err)
{
    ts_playing_reader *r = ctx;
    if (r->ahead_slot[i] >= 0) {
        *out = r->ahead[r->ahead_slot[i]];
    } else if (!kept_reading(r, cand[i].q, out)) {
        if (tscv_warp_quad(r->frame, cand[i].q, &r->warp, TS_PLAYING_CARD_W, TS_PLAYING_CARD_H,
                           err) < 0 ||
            read_fresh(r, &r->warp, card_flags(r, cand[i].q, r->frame), out, err) < 0)
            return -1;
        keep_reading(r, cand[i].q, out);
    }
    /* a held card's index unread: its quad fitted to its face, then the
     * index again, else its face alone (playing_held.h) where an index's
     * glyph shape shows at a corner (a face net sure of a pip card is not
     * enough: a Chinese domino card's pips read 6D at 0.93); a fit that
     * neither confirms is undone (another game's card, framed anew, lets
     * a card of its own show in another place) */
    if (cand[i].score >= TS_PLAYING_HELD_MIN_SCORE && (!out->is_card || out->conf < TS_PLAYING_FLOOR)) {
        ts_quad was = cand[i];
        ts_reading before = *out;
        int fit = read_fitted(r, cand[i].q, out, err);
        if (fit < 0 || (fit == 0 && held_face(r, cand[i].q, &r->warp, out, err) < 0))
            return -1;
        if (!out->is_card || out->conf < TS_PLAYING_FLOOR)
            cand[i] = was, *out = before;
        /* then its index alone, where a glyph pair about it shows one */
        if ((!out->is_card || out->conf < TS_PLAYING_FLOOR) &&
            held_pairs(r, cand[i].q, out, err) < 0)
            return -1;
        /* the pipeline drops a quad by its area: the moved quad's, not the
         * held quad's (a table's 7H read from its pair, a twelfth as big) */
        cand[i].area = (float)ts_quad_area(cand[i].q);
    } else if (i < r->noutline && (!out->is_card || out->conf < RERANK_SURE)) {
        ts_pt g[4];
        int grown = read_grown(r, cand[i].q, g, out, err);
        if (grown < 0)
            return -1;
        if (grown) {
            memcpy(cand[i].q, g, sizeof g);
            cand[i].area = (float)ts_quad_area(g);
            keep_reading(r, g, out);
        }
    }
    /* a late pair's card is one only when read surely (late_card) */
    int paired = paired_quad(r, cand[i].q);
    if (out->is_card && paired >= 2 && !late_card(r, cand[i].q, paired, out->conf))
        out->is_card = 0;
    ts_reading_memo_put(&r->memo, cand[i].q, out);
    return 0;
}

static int by_score(const void *a, const void *b)
{
    const ts_quad *x = a, *y = b;
    return (x->score < y->score) - (x->score > y->score);
}

/* Cuts the index patches of pairs [from, to) in one stretch; slot[pair][stretch]
 * = where each landed. */
static int cut_pairs(ts_playing_reader *r, const ts_image *frame, int from, int to, int s,
                     int *npatch, int slot[][NSTRETCH], ts_pt card[][4], char *err)
{
    for (int i = from; i < to; i++) {
        ts_pt patch[4];
        int k = (*npatch)++;
        ts_playing_index_card(&r->pairs[i], s, card[k], patch);
        if (tscv_warp_quad(frame, patch, &r->ipatch[k], r->pw, r->ph, err) < 0)
            return -1;
        slot[i][s] = k;
    }
    return 0;
}

/* Reads the index patches [first, npatch) in one batch. */
static int read_patches(ts_playing_reader *r, int first, int npatch, char *err)
{
    if (npatch > first &&
        tscv_net_run(r->find_net, r->ipatch + first, npatch - first, r->iprobs + (size_t)first * NOUT,
                     err) < 0)
        return -1;
    return 0;
}

/* Cards found by their index: each glyph pair's patch is read (batched),
 * and a pair read surely enough gives the card it implies. A frame is
 * stretched one way for all its cards: the stretches are tried on the
 * clearest few pairs, and the rest are read in the best one only. */
/* True if the glyph pair lies inside one of the outlines and is of a size
 * that fits it (an index, or pips, of that card): the outline is offered
 * first, and a pair on a card already offered whole is not worth the net. */
static int in_outline(const ts_playing_pair *p, const ts_quad *outline, int n,
                      const ts_image *frame)
{
    float step = ts_dist(p->rank, p->suit);
    for (int i = 0; i < n; i++) {
        const ts_pt *q = outline[i].q;
        if (on_frame_edge(q, frame))
            continue;
        float w = 0.5f * (ts_dist(q[0], q[1]) + ts_dist(q[2], q[3]));
        if (step > 0.05f * w && step < 0.35f * w && ts_point_in_quad(q, p->rank.x, p->rank.y) &&
            ts_point_in_quad(q, p->suit.x, p->suit.y))
            return 1;
    }
    return 0;
}

/* The stretch (of the first ns) the frame's first probe pairs read best
 * in: the most index confidence summed over them, or (surest) the stretch
 * their surest one reads in: a close-up's few coarse pairs are mostly pips,
 * whose sum outweighs its one index (a card then implied twice too large). */
static int frame_stretch(const ts_playing_reader *r, int probe, int ns, int slot[][NSTRETCH],
                         int surest)
{
    int best_s = 0;
    float score[NSTRETCH] = {0};
    for (int s = 0; s < ns; s++) {
        for (int i = 0; i < probe; i++) {
            float c = index_conf(r->iprobs + (size_t)slot[i][s] * NOUT);
            score[s] = surest ? (c > score[s] ? c : score[s]) : score[s] + c;
        }
        if (score[s] > score[best_s])
            best_s = s;
    }
    return best_s;
}

/* Keeps the card q a fine glyph pair implies, its index read conf by the
 * screening net, for fan_cards. */
static void keep_screened(ts_playing_reader *r, const ts_pt q[4], float conf)
{
    if (r->nspair >= READ_PAIRS + FAN_MORE)
        return;
    screened_pair *sp = &r->spair[r->nspair++];
    memcpy(sp->q, q, sizeof sp->q);
    sp->conf = conf;
}

/* The cards the glyph pairs r->pairs[0..np) imply, read at least IDX_MAYBE
 * (surest first); coarse: the pairs are a close-up's coarse level's
 * (PROBE_COARSE of them probed, the frame's stretch from the surest). */
static int pair_cards(ts_playing_reader *r, const ts_image *frame, int np,
                      const ts_quad *outline, int noutline, int coarse, ts_quad *out, int max,
                      char *err)
{
    /* pairs on cards whose whole outline was found cost no net time */
    int kept = 0;
    for (int i = 0; i < np; i++)
        if (!in_outline(&r->pairs[i], outline, noutline, frame))
            r->pairs[kept++] = r->pairs[i];
    np = kept;
    if (np > r->screen)
        np = r->screen;
    ts_pt card[READ_PAIRS * NSTRETCH][4];
    int slot[READ_PAIRS][NSTRETCH], npatch = 0;
    memset(slot, -1, sizeof slot);
    int most = coarse ? PROBE_COARSE : PROBE, probe = np < most ? np : most;
    int ns = frame_stretches(frame);
    for (int s = 0; s < ns; s++) /* the probes in every stretch: one batch */
        if (cut_pairs(r, frame, 0, probe, s, &npatch, slot, card, err) < 0)
            return -1;
    if (read_patches(r, 0, npatch, err) < 0)
        return -1;
    int best_s = frame_stretch(r, probe, ns, slot, coarse), first = npatch;
    if (cut_pairs(r, frame, probe, np, best_s, &npatch, slot, card, err) < 0 ||
        read_patches(r, first, npatch, err) < 0)
        return -1;
    int n = 0;
    for (int i = 0; i < np; i++) {
        float best = 0;
        int arg = -1;
        for (int s = 0; s < NSTRETCH; s++) {
            if (slot[i][s] < 0)
                continue;
            float conf = index_conf(r->iprobs + (size_t)slot[i][s] * NOUT);
            if (conf > best)
                best = conf, arg = slot[i][s];
        }
        if (!coarse && arg >= 0)
            keep_screened(r, card[arg], best);
        if (best < IDX_MAYBE || n >= max)
            continue;
        memcpy(out[n].q, card[arg], sizeof out[n].q);
        out[n].area = (float)ts_quad_area(out[n].q);
        out[n++].score = best;
    }
    qsort(out, (size_t)n, sizeof *out, by_score);
    return n;
}

/* The median width (short side) of the whole card-shaped outlines of
 * outline[0..n) (not cut by the frame's edge), or 0 if none: how large the
 * table's index glyphs are. */
static float outlined_width(const ts_quad *outline, int n, const ts_image *frame)
{
    double w[MAX_RANKED];
    int m = 0;
    for (int i = 0; i < n && m < MAX_RANKED; i++) {
        const ts_pt *q = outline[i].q;
        if (ts_playing_card_shaped(q) && !on_frame_edge(q, frame))
            w[m++] = fminf(ts_dist(q[0], q[1]), ts_dist(q[1], q[2]));
    }
    return m ? (float)ts_median(w, m) : 0;
}

/* The cards implied by the frame's glyph pairs read at least IDX_MAYBE, the
 * first *nsure of them IDX_SURE, then the late ones, those from the coarse
 * level (from r->nfine on) last, each part surest first. */
static int index_candidates(ts_playing_reader *r, const ts_image *frame, const ts_quad *outline,
                            int noutline, ts_quad *out, int max, int *nsure, char *err)
{
    /* the frame's pairs, kept whole for held_pairs: pair_cards drops those
     * in outlines (found once a frame, not again for its held quads: 12 M
     * instructions a 720p frame) */
    float card_w = outlined_width(outline, noutline, frame);
    r->screen = ts_playing_index_small_cards(frame, card_w) ? READ_PAIRS : SCREEN_PAIRS;
    int np = ts_playing_index_pairs_sized(r->indexer, frame, card_w, r->hpairs, MAX_PAIRS, err);
    if (np < 0)
        return -1;
    r->nhpairs = np;
    r->nspair = 0;
    memcpy(r->pairs, r->hpairs, sizeof *r->pairs * (size_t)np);
    int n = pair_cards(r, frame, np, outline, noutline, 0, out, max, err);
    if (n < 0)
        return -1;
    *nsure = 0;
    while (*nsure < n && out[*nsure].score >= IDX_SURE)
        ++*nsure;
    r->nfine = n;
    if (*nsure == 0) {
        /* no index read surely: a close-up's, or a cut card's, may be larger
         * (its cards late too: on a table these glyphs are pips) */
        np = ts_playing_index_pairs_coarse(r->indexer, frame, &r->coarse, r->pairs, MAX_PAIRS,
                                           err);
        int m = np < 0 ? -1
                       : pair_cards(r, frame, np, outline, noutline, 1, out + n, max - n, err);
        if (m < 0)
            return -1;
        r->nfine = n;
        n += m;
    }
    return n;
}

/* A new frame: the readings and the held cards' notes of the last pass
 * forgotten. */
static void frame_reset(ts_playing_reader *r)
{
    ts_reading_memo_clear(&r->memo);
    r->nunfit = 0;
    r->nunpaired = 0;
}

/* read_candidate in find()'s first pass (no blobs): stopped, -1 with
 * r->blobs_matter, where the blobs could change the pick: a candidate
 * after where they would be is read (no outline nor sure index took its
 * place), or a card reads unsure (the place's other candidates are read). */
static int read_outlined(void *ctx, ts_quad *cand, int i, ts_reading *out, char *err)
{
    ts_playing_reader *r = ctx;
    if (i >= r->nprefix)
        return r->blobs_matter = 1, -1;
    if (read_candidate(ctx, cand, i, out, err) < 0)
        return -1;
    if (out->is_card && out->conf < RERANK_SURE)
        return r->blobs_matter = 1, -1;
    return 0;
}

/* Whether chosen card out[j] lies over card out[i] found by its index:
 * j's index (found by it) lies on i, or j is a quad of another kind that
 * overlaps it (an outline, seen whole). */
static int lies_over(const ts_playing_reader *r, const ts_quad *out, int i, int j)
{
    if (!paired_quad(r, out[j].q))
        return ts_quad_overlap(&out[i], &out[j]);
    ts_pt m = ts_quad_point(out[j].q, INDEX_MID_U, INDEX_MID_V);
    return ts_point_in_quad(out[i].q, m.x, m.y);
}

/* The card that net reads on card quad q's index, on the mean of its
 * INDEX_CUTS cuts, in *seen (its family kept), and how surely (rank * suit
 * * index) in *conf. Uses r->ipatch and r->iprobs (the glyph pairs are
 * read by then). Returns 0 or -1 with err. */
static int index_again(ts_playing_reader *r, tscv_net *net, const ts_pt q[4], ts_code *seen,
                       float *conf, char *err)
{
    const float u[4] = {0, TS_PLAYING_CORNER_W, TS_PLAYING_CORNER_W, 0};
    const float v[4] = {0, 0, TS_PLAYING_CORNER_H, TS_PLAYING_CORNER_H};
    for (int k = 0; k < INDEX_CUTS; k++) {
        ts_pt p[4];
        for (int c = 0; c < 4; c++)
            p[c] = ts_quad_point(q, u[c] * INDEX_CUT[k], v[c] * INDEX_CUT[k]);
        if (tscv_warp_quad(r->frame, p, &r->ipatch[k], r->pw, r->ph, err) < 0)
            return -1;
    }
    if (tscv_net_run(net, r->ipatch, INDEX_CUTS, r->iprobs, err) < 0)
        return -1;
    float mean[NOUT] = {0}, c;
    for (int k = 0; k < INDEX_CUTS; k++)
        for (int j = 0; j < NOUT; j++)
            mean[j] += r->iprobs[k * NOUT + j] / INDEX_CUTS;
    int rank = argmax(mean, NRANK, &c), suit = argmax(mean + NRANK, NSUIT, &c);
    seen->idx = (uint8_t)(suit * NRANK + rank);
    *conf = index_conf(mean);
    return 0;
}

/* Gives card out[i] as its index view, its reading kept for the view and
 * read again (index_again) by the view net, and where that does not
 * confirm it by the fast net (which read the views before it; on close-ups
 * a card's loose blob makes it a view, and the fast net is the surer there):
 * the same card at INDEX_STEADY confirms it, else it is capped unread.
 * (Taking the view's own card where it reads another above the floor read
 * fans 157 of 300 against 136, but made the playing reader surer of Gang of
 * Four fans than their own reader: test_auto_family.) Returns 1, 0 if it
 * has no reading kept, -1 on error. */
static int give_view(ts_playing_reader *r, ts_quad *out, int i, char *err)
{
    ts_reading rd;
    float again, fast;
    if (!ts_reading_memo_found(&r->memo, out[i].q, &rd))
        return 0;
    ts_code seen = rd.code, fast_seen = rd.code;
    if (index_again(r, r->view_net, out[i].q, &seen, &again, err) < 0)
        return -1;
    if (seen.idx != rd.code.idx || again < INDEX_STEADY) {
        if (index_again(r, r->fast_net, out[i].q, &fast_seen, &fast, err) < 0)
            return -1;
        if (fast_seen.idx == rd.code.idx && fast >= INDEX_STEADY)
            seen = fast_seen, again = fast;
    }
    if (seen.idx == rd.code.idx && again >= INDEX_STEADY)
        rd.conf = 1.0f - (1.0f - rd.conf) * (1.0f - again);
    else if (again >= VIEW_OWN)
        rd.code = seen, rd.conf = again;
    else if (rd.conf > FACE_VETO_CAP)
        rd.conf = FACE_VETO_CAP;
    ts_quad v;
    ts_playing_index_view(&out[i], &v);
    ts_reading_memo_move(&r->memo, out[i].q, v.q, &rd);
    out[i] = v;
    return 1;
}

/* The reading of chosen card q (kept), or none (conf 0, code -1). */
static void chosen_reading(const ts_playing_reader *r, const ts_quad *q, float *conf, int *code)
{
    ts_reading rd;
    int kept = ts_reading_memo_found(&r->memo, q->q, &rd);
    *conf = kept ? rd.conf : 0;
    *code = kept ? rd.code.idx : -1;
}

/* Marks in drop[0..n) each card of out[0..n) (chosen quads, their
 * readings conf and code) that another chosen card not dropped, read more
 * surely (the first of two as sure), overlaps (ts_quad_overlap of whole[])
 * as one card: of the same code (same_code: a card's other index, found
 * upside down, a little off the card's outline; a deck holds each card
 * once), else any read below the floor (pips paired on a close-up's card,
 * the loose blob round it: the place rule parts only cards read surely). */
static void drop_twins(const ts_quad *whole, const float *conf, const int *code, int n,
                       int same_code, unsigned char *drop)
{
    for (int i = 0; i < n; i++) {
        if (drop[i] || (!same_code && conf[i] >= TS_PLAYING_FLOOR))
            continue;
        for (int j = 0; j < n && !drop[i]; j++)
            drop[i] = j != i && !drop[j] && (!same_code || code[j] == code[i]) &&
                      (conf[j] > conf[i] || (conf[j] == conf[i] && j < i)) &&
                      ts_quad_overlap(&whole[i], &whole[j]);
    }
}

/* Marks in drop[0..n) each view (viewed) of the code of another card read
 * above the floor: a card not a view, or a surer view (the first of two as
 * sure). A deck holds each card once, and a card's other index, found
 * apart from its outline (or beside a part of the card outlined), is a
 * view of it that the view net reads as surely as the card. */
static void drop_view_twins(const float *conf, const int *code, const unsigned char *viewed, int n,
                            unsigned char *drop)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n && viewed[i] && !drop[i]; j++)
            drop[i] = j != i && !drop[j] && code[j] == code[i] && conf[j] >= TS_PLAYING_FLOOR &&
                      (!viewed[j] || conf[j] > conf[i] || (conf[j] == conf[i] && j < i));
}

/* The chosen cards as give_views works on them: out[0..n) as the pipeline
 * will take them (room for max), each one's quad as chosen (whole), and
 * whether it is dropped (a twin) or given as its index view. */
typedef struct {
    ts_quad *out;
    ts_quad whole[MAX_RANKED];
    unsigned char drop[MAX_RANKED], viewed[MAX_RANKED];
    int n, max;
} chosen_set;

/* Where chosen card o's index lies, in *m: for a card found by its index,
 * its index middle; for an index view, its middle. 0 for an outline or
 * blob (seen whole: no point). */
static int index_point(const ts_playing_reader *r, const ts_quad *o, ts_pt *m)
{
    if (paired_quad(r, o->q)) {
        *m = ts_quad_point(o->q, INDEX_MID_U, INDEX_MID_V);
        return 1;
    }
    if (ts_playing_card_shaped(o->q))
        return 0;
    *m = ts_quad_centre(o->q);
    return 1;
}

/* Whether chosen card q was read above the floor. */
static int read_sure(const ts_playing_reader *r, const ts_quad *q)
{
    float conf;
    int code;
    chosen_reading(r, q, &conf, &code);
    return conf >= TS_PLAYING_FLOOR;
}

/* Whether chosen card k of cs counts against a fan card: not dropped, and
 * read above the floor or found by its index (it is given its own view). */
static int holds_place(const ts_playing_reader *r, const chosen_set *cs, int k)
{
    return !cs->drop[k] && (read_sure(r, &cs->out[k]) || paired_quad(r, cs->out[k].q));
}

/* Whether index view v is free: no chosen card holding its place
 * (holds_place) takes it, by its index view or as given. */
static int view_free(const ts_playing_reader *r, const chosen_set *cs, const ts_quad *v)
{
    for (int k = 0; k < cs->n; k++) {
        ts_quad place = cs->out[k];
        if (paired_quad(r, place.q))
            ts_playing_index_view(&cs->out[k], &place);
        if (holds_place(r, cs, k) && ts_quad_overlap(v, &place))
            return 0;
    }
    return 1;
}

/* Whether index point m is another's than c's own (own, FAN_APART card
 * widths w from it) and lies on c as far as FAN_REACH of it reaches from
 * its index corner (reach): c lies under it. */
static int another_on(ts_pt m, ts_pt own, float w, const ts_pt reach[4])
{
    return ts_dist(m, own) > FAN_APART * w && ts_point_in_quad(reach, m.x, m.y);
}

/* Whether another index lies on card c (pair self's): a chosen card's
 * holding its place (or an outline over c), or another glyph pair's read
 * IDX_MAYBE by the screening net: c lies in a fan or a pile, under it.
 * On a fan's card reaching FAN_REACH of its size from its index corner:
 * sized by its glyph step, a fanned card is often found a third short. */
static int under_another(const ts_playing_reader *r, const chosen_set *cs, int self,
                         const ts_quad *c)
{
    ts_pt own = ts_quad_point(c->q, INDEX_MID_U, INDEX_MID_V), reach[4];
    float w = ts_dist(c->q[0], c->q[1]);
    for (int k = 0; k < 4; k++)
        reach[k] = ts_quad_point(c->q, k == 1 || k == 2 ? FAN_REACH : 0, k >= 2 ? FAN_REACH : 0);
    for (int k = 0; k < cs->n; k++) {
        ts_pt m;
        if (!holds_place(r, cs, k))
            continue;
        if (index_point(r, &cs->out[k], &m) ? another_on(m, own, w, reach)
                                            : ts_quad_overlap(c, &cs->out[k]))
            return 1;
    }
    for (int i = 0; i < r->nspair; i++)
        if (i != self && r->spair[i].conf >= IDX_MAYBE &&
            another_on(ts_quad_point(r->spair[i].q, INDEX_MID_U, INDEX_MID_V), own, w, reach))
            return 1;
    return 0;
}

/* Whether a chosen card of cs not dropped was read above the floor as code
 * (a deck holds each card once). */
static int code_read(const ts_playing_reader *r, const chosen_set *cs, int code)
{
    for (int k = 0; k < cs->n; k++) {
        float conf;
        int c;
        chosen_reading(r, &cs->out[k], &conf, &c);
        if (!cs->drop[k] && c == code && conf >= TS_PLAYING_FLOOR)
            return 1;
    }
    return 0;
}

/* Adds index view v of card c to cs before the first card read below the
 * floor that the pipeline would take at its place (ts_quad_overlap): an
 * unsure blob over a fan gives way to the cards read at their indices. */
static void insert_view(const ts_playing_reader *r, chosen_set *cs, const ts_quad *v,
                        const ts_quad *c)
{
    int at = cs->n;
    for (int k = 0; k < cs->n && at == cs->n; k++)
        if (!cs->drop[k] && !read_sure(r, &cs->out[k]) && ts_quad_overlap(v, &cs->out[k]))
            at = k;
    size_t tail = (size_t)(cs->n - at);
    memmove(cs->out + at + 1, cs->out + at, sizeof *cs->out * tail);
    memmove(cs->whole + at + 1, cs->whole + at, sizeof *cs->whole * tail);
    memmove(cs->drop + at + 1, cs->drop + at, tail);
    memmove(cs->viewed + at + 1, cs->viewed + at, tail);
    cs->out[at] = *v;
    cs->whole[at] = *c;
    cs->drop[at] = 0;
    cs->viewed[at] = 1;
    cs->n++;
}

/* Gives each card of cs found by its index whose whole quad the pipeline
 * would take at view v's place (ts_quad_overlap) as its index view
 * (give_view), as give_views does. Returns 0 or -1 with err. */
static int turn_over_view(ts_playing_reader *r, chosen_set *cs, const ts_quad *v, char *err)
{
    for (int k = 0; k < cs->n; k++) {
        if (cs->drop[k] || !paired_quad(r, cs->out[k].q) || !ts_quad_overlap(&cs->out[k], v))
            continue;
        int rc = give_view(r, cs->out, k, err);
        if (rc < 0)
            return -1;
        cs->viewed[k] = rc > 0;
    }
    return 0;
}

/* Whether a chosen card of cs not dropped was read above the floor: a
 * fan's cards are read on their index alone only beside a playing card
 * read so (its top card, or an index view the whole card's reading
 * confirmed). On a Gang of Four fan (109019), where the playing reader is
 * sure of no card, the view net read two red numerals 3D and 7D. */
static int sure_card(const ts_playing_reader *r, const chosen_set *cs)
{
    for (int k = 0; k < cs->n; k++)
        if (!cs->drop[k] && read_sure(r, &cs->out[k]))
            return 1;
    return 0;
}

/* Whether quad q is a screened pair's card already. */
static int screened(const ts_playing_reader *r, const ts_pt q[4])
{
    for (int i = 0; i < r->nspair; i++)
        if (memcmp(r->spair[i].q, q, sizeof r->spair[i].q) == 0)
            return 1;
    return 0;
}

/* Whether glyph pair p lies on a card of cs seen whole (not given as its
 * view) and read above the floor: its pips, or its own index. */
static int on_whole_card(const ts_playing_reader *r, const chosen_set *cs, const ts_playing_pair *p)
{
    for (int k = 0; k < cs->n; k++) {
        const ts_pt *q = cs->out[k].q;
        if (cs->drop[k] || cs->viewed[k] || !ts_playing_card_shaped(q))
            continue;
        if (read_sure(r, &cs->out[k]) && ts_point_in_quad(q, p->rank.x, p->rank.y) &&
            ts_point_in_quad(q, p->suit.x, p->suit.y))
            return 1;
    }
    return 0;
}

/* Screens (the screening net, one batch, the frame unstretched) up to
 * FAN_MORE of the frame's glyph pairs not screened yet nor on a card seen
 * whole, when a card of cs was given as its view (a fan or a pile), and
 * keeps them (keep_screened). Returns 0 or -1 with err. */
static int screen_more(ts_playing_reader *r, const chosen_set *cs, char *err)
{
    int viewed = 0, n = 0;
    for (int k = 0; k < cs->n; k++)
        viewed |= cs->viewed[k] && !cs->drop[k];
    if (!viewed)
        return 0;
    ts_pt card[FAN_MORE][4];
    for (int i = 0; i < r->nhpairs && n < FAN_MORE && n < READ_PAIRS * NSTRETCH; i++) {
        ts_pt patch[4];
        ts_playing_index_card(&r->hpairs[i], 0, card[n], patch);
        if (screened(r, card[n]) || on_whole_card(r, cs, &r->hpairs[i]))
            continue;
        if (tscv_warp_quad(r->frame, patch, &r->ipatch[n], r->pw, r->ph, err) < 0)
            return -1;
        n++;
    }
    if (read_patches(r, 0, n, err) < 0)
        return -1;
    for (int k = 0; k < n; k++)
        keep_screened(r, card[k], index_conf(r->iprobs + (size_t)k * NOUT));
    return 0;
}

/* The card the view net reads on card quad q's index (index_again), in
 * *code, and how surely in *conf: its own confidence when FAN_SURE; when
 * INDEX_STEADY and the screening net read the pair's index IDX_MAYBE
 * (screened), the fast net reading the same card confirms it, as
 * give_view (1 - the product of their doubts); else 0 (on a held webcam
 * card's face, a pair screened 0.45 read 7D so). Returns 0 or -1 with
 * err. */
static int fan_index(ts_playing_reader *r, const ts_pt q[4], float screened, ts_code *code,
                     float *conf, char *err)
{
    ts_code fast_seen = {TS_FAM_PLAYING, 0};
    float fast;
    *code = fast_seen;
    if (index_again(r, r->view_net, q, code, conf, err) < 0)
        return -1;
    if (*conf >= FAN_SURE)
        return 0;
    if (*conf < INDEX_STEADY || screened < IDX_MAYBE)
        return *conf = 0, 0;
    if (index_again(r, r->fast_net, q, &fast_seen, &fast, err) < 0)
        return -1;
    *conf = fast_seen.idx == code->idx ? 1.0f - (1.0f - *conf) * (1.0f - fast) : 0;
    return 0;
}

/* A fan's or a pile's cards whose index shows and that no chosen card
 * stands for: each glyph pair the screening net read FAN_FAINT (often
 * less than IDX_MAYBE on a fanned index, its neighbour's edge beside it)
 * whose index view is free (view_free) and that lies under another index
 * (under_another) is read on its index alone by the view net
 * (index_again); read FAN_SURE, as a card no chosen card was read, it is
 * added as its index view (insert_view). On the fans of 123000 and 125000
 * the view net read every such index it read at 0.9 or more right (107),
 * where the whole card's reading (its other corners and face under other
 * cards) was no card, unsure or wrong. Returns 0 or -1 with err. */
static int fan_cards(ts_playing_reader *r, chosen_set *cs, char *err)
{
    const ts_image *frame = r->frame;
    if (!sure_card(r, cs))
        return 0;
    if (screen_more(r, cs, err) < 0)
        return -1;
    for (int i = 0; i < r->nspair && cs->n < cs->max; i++) {
        if (r->spair[i].conf < FAN_FAINT)
            continue;
        ts_quad c = {.score = r->spair[i].conf}, v;
        memcpy(c.q, r->spair[i].q, sizeof c.q);
        c.area = (float)ts_quad_area(c.q);
        ts_playing_index_view(&c, &v);
        if (!ts_quad_in_frame(v.q, frame->w, frame->h, 0) || !view_free(r, cs, &v) ||
            !under_another(r, cs, i, &c))
            continue;
        ts_reading rd = {.is_card = 1, .nattr = 2};
        if (fan_index(r, c.q, r->spair[i].conf, &rd.code, &rd.conf, err) < 0)
            return -1;
        if (rd.conf < TS_PLAYING_FLOOR || code_read(r, cs, rd.code.idx))
            continue;
        rd.attr_conf[0] = rd.attr_conf[1] = rd.conf;
        ts_reading_memo_put(&r->memo, v.q, &rd);
        insert_view(r, cs, &v, &c);
        if (turn_over_view(r, cs, &v, err) < 0)
            return -1;
    }
    return 0;
}

/* The share of quad a that lies in quad b. */
static float share_in(const ts_pt a[4], const ts_pt b[4])
{
    return share_where(a, in_quad, b);
}

/* Whether chosen cards a and b, both read sure as two cards, lie over each
 * other by SHARED_PLACE of either's area, though neither holds the other's
 * middle: a card a glyph pair implies whole (sized by its glyph step,
 * often short) over the card lying on it, or under it (a fan's top card
 * found by its far index, 129037's QS, and the KS under it whose whole
 * quad lay on the QS's face). Not a card read unsure: a held webcam card's
 * pips read AS 0.48, given as its view, took the place of its 4S (webcam
 * 97 -> 95 of 111 read). */
static int lies_across(const ts_playing_reader *r, const ts_quad *a, const ts_quad *b)
{
    float ca, cb;
    int code_a, code_b;
    chosen_reading(r, a, &ca, &code_a);
    chosen_reading(r, b, &cb, &code_b);
    return ca >= TS_PLAYING_FLOOR && cb >= TS_PLAYING_FLOOR && code_b != code_a &&
           (share_in(a->q, b->q) >= SHARED_PLACE || share_in(b->q, a->q) >= SHARED_PLACE);
}

/* The chosen cards out[0..n) of frame as the pipeline takes them (one a
 * place, ts_quad_overlap): a card found by its index that another lies
 * over (lies_over: a fan's card under the next; not its own twin) is given
 * as its index view, where it shows, read again (give_view), and so then
 * is one still overlapping another (a view is no paired quad: each card
 * turns once); a fan's cards no chosen card stands for are added
 * (fan_cards); twins and cards left unsure under sure ones are dropped
 * (drop_twins). Returns the count kept (room for max) or -1. */
static int give_views(ts_playing_reader *r, const ts_image *frame, ts_quad *out, int n, int max,
                      char *err)
{
    chosen_set cs = {.out = out, .max = max < MAX_RANKED ? max : MAX_RANKED};
    float conf[MAX_RANKED];
    int code[MAX_RANKED];
    unsigned char *drop = cs.drop, *viewed = cs.viewed;
    if (n > cs.max)
        n = cs.max;
    memcpy(cs.whole, out, sizeof *out * (size_t)n);
    for (int i = 0; i < n; i++)
        chosen_reading(r, &out[i], &conf[i], &code[i]);
    drop_twins(cs.whole, conf, code, n, 1, drop);
    r->frame = frame;
    int rc = 0;
    for (int i = 0; i < n && rc >= 0; i++) {
        int under = 0;
        for (int j = 0; j < n && !under; j++)
            under = j != i && !(drop[j] && ts_quad_overlap(&out[i], &out[j])) &&
                    lies_over(r, out, i, j);
        if (under && paired_quad(r, out[i].q))
            viewed[i] = (rc = give_view(r, out, i, err)) > 0;
    }
    for (int turned = 1; turned && rc >= 0;) {
        turned = 0;
        for (int i = 0; i < n && rc >= 0; i++) {
            int over = 0;
            if (!paired_quad(r, out[i].q))
                continue;
            for (int j = 0; j < n && !over; j++)
                over = j != i && !drop[j] &&
                       (ts_quad_overlap(&out[i], &out[j]) || lies_across(r, &out[i], &out[j]));
            if (over)
                turned |= viewed[i] = (rc = give_view(r, out, i, err)) > 0;
        }
    }
    cs.n = n;
    rc = rc < 0 ? -1 : fan_cards(r, &cs, err);
    n = cs.n;
    r->frame = NULL;
    for (int i = 0; i < n; i++)
        chosen_reading(r, &out[i], &conf[i], &code[i]);
    drop_view_twins(conf, code, viewed, n, drop);
    drop_twins(cs.whole, conf, code, n, 0, drop);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!drop[i])
            out[k++] = out[i];
    return rc < 0 ? -1 : k;
}

/* Drops from the chosen cards out[0..n) each outline or blob read
 * TS_PLAYING_FLOOR whose area is OVERSIZED times the median of those
 * (when OVERSIZED_PEERS or more): two cards of a row or block in one quad,
 * read from one card's index while it lies on the other (rows 119014,
 * 119033, 121018: the neighbour's code, in its neighbour's place); their
 * sure neighbours then offer both places (ts_playing_offer_beside). Cards
 * found by their index, sized by its glyphs, and a fan's index views
 * (squares, small) are not counted. Returns the count kept. */
#define OVERSIZED 1.95f
enum { OVERSIZED_PEERS = 4 };
static int drop_oversized(const ts_playing_reader *r, ts_quad *out, int n)
{
    double area[MAX_RANKED];
    unsigned char whole[MAX_RANKED];
    int m = 0;
    n = n < MAX_RANKED ? n : MAX_RANKED;
    for (int i = 0; i < n; i++) {
        float conf;
        int code;
        chosen_reading(r, &out[i], &conf, &code);
        whole[i] = conf >= TS_PLAYING_FLOOR && !paired_quad(r, out[i].q) &&
                   ts_playing_card_shaped(out[i].q);
        if (whole[i])
            area[m++] = ts_quad_area(out[i].q);
    }
    if (m < OVERSIZED_PEERS)
        return n;
    double top = OVERSIZED * ts_median(area, m);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!whole[i] || ts_quad_area(out[i].q) < top)
            out[k++] = out[i];
    return k;
}

/* Drops from the chosen cards out[0..n) each index view (not card-shaped)
 * read as the code of a card-shaped one read above the floor: a card
 * offered beside its neighbours (ts_playing_offer_beside) whose other
 * index was read as a fan's card (a row's 7C, 123000). Returns the count
 * kept. */
static int drop_beside_twins(const ts_playing_reader *r, ts_quad *out, int n)
{
    float conf[MAX_RANKED];
    int code[MAX_RANKED], k = 0;
    unsigned char shaped[MAX_RANKED];
    n = n < MAX_RANKED ? n : MAX_RANKED;
    for (int i = 0; i < n; i++) {
        chosen_reading(r, &out[i], &conf[i], &code[i]);
        shaped[i] = (unsigned char)ts_playing_card_shaped(out[i].q);
    }
    for (int i = 0; i < n; i++) {
        int twin = 0;
        for (int j = 0; j < n && !twin && !shaped[i]; j++)
            twin = j != i && shaped[j] && code[j] == code[i] && conf[j] >= TS_PLAYING_FLOOR;
        if (!twin)
            out[k++] = out[i];
    }
    return k;
}

/* The chosen quads of r->ranked[0..n) in out, the first nahead read
 * ahead, then picked with read (read_candidate or read_outlined). */
static int pick(ts_playing_reader *r, const ts_image *frame, int n, int nahead,
                ts_place_read_fn read, ts_quad *out, int max, char *err)
{
    if (read_ahead(r, frame, r->ranked, nahead, max, err) < 0)
        return -1;
    r->frame = frame;
    n = ts_place_pick_by(r->ranked, n, RERANK_SURE, read, same_place, r, out, max, err);
    r->frame = NULL;
    return n;
}

/* Whether lone outlines lone[a] and lone[b] of cand overlap
 * (ts_quad_overlap), each pair measured once: met[a * m + b] is 0 before,
 * then 1 apart or 2 overlapping (the group search below asks of one pair
 * up to m times: 28,000 tests on the playing grid). */
static int overlap_met(const ts_quad *cand, const int *lone, int m, unsigned char *met, int a,
                       int b)
{
    unsigned char *v = &met[a * m + b];
    if (!*v)
        *v = met[b * m + a] = ts_quad_overlap(&cand[lone[a]], &cand[lone[b]]) ? 2 : 1;
    return *v == 2;
}

/* Whether cand[j]'s centre lies in one of cand[0..n) TABLE_INSIDE times
 * as large. */
static int inside_larger(const ts_quad *cand, int n, int j)
{
    ts_pt c = ts_quad_centre(cand[j].q);
    for (int k = 0; k < n; k++)
        if (cand[k].area >= TABLE_INSIDE * cand[j].area && ts_point_in_quad(cand[k].q, c.x, c.y))
            return 1;
    return 0;
}

/* The largest group of whole outlines cand[0..n) of one size (areas within
 * a factor TABLE_SIZE of its first's), each in a place of its own (the
 * first outline of each place) and inside no larger one (inside_larger),
 * their places in group (room for n); returns its count. met: room for
 * n * n (overlap_met). */
static int same_size(const ts_quad *cand, int n, const ts_image *frame, unsigned char *met,
                     int *group)
{
    int lone[MAX_RANKED], m = 0;
    for (int j = 0; j < n; j++)
        if (cand[j].area >= TABLE_MIN_AREA * frame->w * frame->h &&
            !on_frame_edge(cand[j].q, frame) && !inside_larger(cand, n, j))
            lone[m++] = j;
    memset(met, 0, (size_t)m * m);
    int best = 0;
    for (int i = 0; i < m; i++) {
        int ng = 0, at[MAX_RANKED]; /* places in lone */
        const float area = cand[lone[i]].area;
        for (int j = 0; j < m; j++) {
            const float aj = cand[lone[j]].area;
            if (aj > TABLE_SIZE * area || aj * TABLE_SIZE < area)
                continue;
            int free = 1;
            for (int k = 0; k < ng && free; k++)
                free = !overlap_met(cand, lone, m, met, at[k], j);
            if (free)
                at[ng++] = j;
        }
        if (ng > best) {
            best = ng;
            for (int k = 0; k < ng; k++)
                group[k] = lone[at[k]];
        }
    }
    return best;
}

/* Whether one of the sample outlines cand[pick[0..n)] grown by
 * OUTLINE_GROW[0] (read_grown: a small card's outline on a printed cloth
 * ends inside it) reads GROWN_SURE as a card (read in one batch): 1, 0 if
 * none, -1 with err. Asked only on a frame of PATTERN_PAIRS glyph pairs or
 * more (a printed cloth's cells, dots and stripes pair like an index's
 * glyphs: 106-512 on the tables it was given up on; the speed frames of
 * the other games, which it then gives up on, 6-66): the four reads cost
 * 195 M instructions. */
enum { PATTERN_PAIRS = 100 };
static int grown_sample_reads_card(ts_playing_reader *r, const ts_image *frame,
                                   const ts_quad *cand, const int *pick, int n, char *err)
{
    int flags[TABLE_SAMPLE], m = 0;
    for (int k = 0; k < n; k++) {
        ts_pt g[4];
        ts_quad_scale(cand[pick[k]].q, OUTLINE_GROW[0], g);
        if (!ts_quad_in_frame(g, frame->w, frame->h, 0))
            continue;
        if (tscv_warp_quad(frame, g, &r->ahead_img[m], TS_PLAYING_CARD_W, TS_PLAYING_CARD_H,
                           err) < 0)
            return -1;
        flags[m++] = card_flags(r, g, frame);
    }
    ts_playing_reading rd[TABLE_SAMPLE];
    if (m > 0 && read_cards(r, r->ahead_img, flags, m, rd, err) < 0)
        return -1;
    for (int k = 0; k < m; k++) {
        ts_reading out;
        to_reading(&rd[k], &out);
        if (out.is_card && out.conf >= GROWN_SURE)
            return 1;
    }
    return 0;
}

/* Reads in one batch the first TABLE_SAMPLE outlines of group[0..ng) of
 * cand, keeping their readings for find() (kept_reading). Returns 1 if one
 * reads as a card above the floor, or every one as a card and one of them
 * above the face's veto (a scattered playing table, 111020: 0.57, 0.45,
 * 0.45, 0.71; of the 141 rendered SET, Qwirkle, Gang of Four and Chinese
 * domino tables of seeds 111000-111041 and 113000-113041 it gives as
 * another's, 2 read every one as a card, each vetoed to 0.45), 0 if not,
 * -1 with err. */
static int sample_reads_card(ts_playing_reader *r, const ts_image *frame, const ts_quad *cand,
                             const int *group, int ng, char *err)
{
    int pick[TABLE_SAMPLE], flags[TABLE_SAMPLE], n = 0;
    for (int g = 0; g < ng && n < TABLE_SAMPLE; g++) {
        const ts_quad *c = &cand[group[g]];
        if (tscv_warp_quad(frame, c->q, &r->ahead_img[n], TS_PLAYING_CARD_W, TS_PLAYING_CARD_H,
                           err) < 0)
            return -1;
        flags[n] = card_flags(r, c->q, frame);
        pick[n++] = group[g];
    }
    ts_playing_reading rd[TABLE_SAMPLE];
    if (read_cards(r, r->ahead_img, flags, n, rd, err) < 0)
        return -1;
    int card = 0, cards = 0, unvetoed = 0;
    for (int k = 0; k < n; k++) {
        ts_reading out;
        to_reading(&rd[k], &out);
        keep_reading(r, cand[pick[k]].q, &out);
        card |= out.is_card && out.conf >= TS_PLAYING_FLOOR;
        cards += out.is_card;
        unvetoed |= out.is_card && out.conf > FACE_VETO_CAP;
    }
    if (card || (cards == n && unvetoed))
        return 1;
    return r->nhpairs < PATTERN_PAIRS ? 0 : grown_sample_reads_card(r, frame, cand, pick, n, err);
}

/* 1 if the frame is a table of another game's cards (TABLE_GROUP): many
 * outlines (cand[0..nout)) of one size, no index read surely (nsure), and
 * a sample of those outlines no playing card; 0 if not, -1 with err. */
static int other_table(ts_playing_reader *r, const ts_image *frame, const ts_quad *cand, int nout,
                       int nsure, char *err)
{
    if (nsure > 0 || nout < TABLE_GROUP)
        return 0;
    int group[MAX_RANKED];
    int ng = same_size(cand, nout, frame, r->met, group);
    if (ng < TABLE_GROUP)
        return 0;
    int card = sample_reads_card(r, frame, cand, group, ng, err);
    return card < 0 ? -1 : !card;
}

/* The neighbour offering's questions (playing_beside.h): how surely chosen
 * card q was read, how it was found, and a place read afresh. */
static float beside_conf(void *ctx, const ts_quad *q)
{
    float conf;
    int code;
    chosen_reading(ctx, q, &conf, &code);
    return conf;
}

static int beside_paired(void *ctx, const ts_pt q[4])
{
    return paired_quad(ctx, q);
}

/* Reads card quad q of frame afresh, keeping its reading in the memo. */
static int read_place(void *ctx, const ts_image *frame, const ts_quad *q, ts_reading *rd,
                      char *err)
{
    ts_playing_reader *r = ctx;
    if (tscv_warp_quad(frame, q->q, &r->warp, TS_PLAYING_CARD_W, TS_PLAYING_CARD_H, err) < 0 ||
        read_fresh(r, &r->warp, card_flags(r, q->q, frame), rd, err) < 0)
        return -1;
    ts_reading_memo_put(&r->memo, q->q, rd);
    return 0;
}

/* Whether outline o holds the index middles of two cards of sure[0..n)
 * lying apart (not one card's two indices, nor a fan's cards, each over
 * the other's middle), each at most 1 / MERGED_AREA of it. */
static int holds_two_cards(const ts_quad *o, const ts_quad *sure, int n)
{
    int first = -1;
    for (int i = 0; i < n; i++) {
        ts_pt m = ts_quad_point(sure[i].q, INDEX_MID_U, INDEX_MID_V);
        if (o->area < MERGED_AREA * sure[i].area || !ts_point_in_quad(o->q, m.x, m.y))
            continue;
        if (first < 0)
            first = i;
        else if (!two_indices(&sure[first], &sure[i]) && !ts_quad_overlap(&sure[first], &sure[i]))
            return 1;
    }
    return 0;
}

/* Drops from outline[0..n) the merged ones (holds_two_cards of the cards
 * read surely by their index, sure[0..nsure); not those cards): read first, such a blob
 * read one of its cards surely and took the places of the others
 * (touching 117000: 3 of 12 cards read). Returns the count kept. */
static int drop_merged(const ts_playing_reader *r, ts_quad *outline, int n, const ts_quad *sure,
                       int nsure)
{
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (paired_quad(r, outline[i].q) || !holds_two_cards(&outline[i], sure, nsure))
            outline[kept++] = outline[i];
    return kept;
}

static int playing_find(void *reader, const ts_image *frame, ts_quad *out, int max, char *err)
{
    ts_playing_reader *r = reader;
    frame_reset(r);
    r->nkept = 0;
    int cap = max < MAX_RANKED ? max : MAX_RANKED;
    int nout = ts_playing_outlines(r->finder, frame, r->ranked, cap, err);
    if (nout < 0)
        return -1;
    int nsure, n = index_candidates(r, frame, r->ranked, nout, r->icand, READ_PAIRS, &nsure, err);
    if (n < 0)
        return -1;
    r->nicand = n;
    r->nsure = nsure;
    /* A close-up's index found on the coarse level only and read surely
     * offers its card before the blobs too (after them a loose blob read
     * unsure took its place); it is a card only as a late one is
     * (late_card). */
    ts_quad early[READ_PAIRS], late[READ_PAIRS];
    int ne = 0, nl = 0;
    for (int i = 0; i < n; i++) {
        if (i < nsure || (i >= r->nfine && r->icand[i].score >= IDX_SURE))
            early[ne++] = r->icand[i];
        else
            late[nl++] = r->icand[i];
    }
    nout = drop_merged(r, r->ranked, nout, early, ne);
    int other = other_table(r, frame, r->ranked, nout, ne, err);
    if (other != 0)
        return other < 0 ? -1 : 0;
    /* First without the blobs (a third of the finder's time on a table of
     * outlined cards): kept when every place the outlines and sure indices
     * offer read surely or as no card, no later candidate was read, and
     * the cards chosen leave no paper unexplained; else the blobs are
     * found and the frame read again as before, the quads this pass read
     * ahead not read twice (keep_ahead). On the rendered playing grid
     * 203.4 -> 167.1 M instructions; the same readings on every playing
     * kind and on 40 rendered tables of each layout. */
    n = ts_playing_find_outlined(r->finder, frame, early, ne, late, nl, r->ranked, nout, cap, err);
    if (n < 0)
        return -1;
    r->noutline = nout;
    int room = cap - 2 - nout; /* ts_playing_find_late's room for the early ones */
    r->nprefix = nout + (ne < room ? ne : room > 0 ? room : 0);
    r->blobs_matter = 0;
    int k = pick(r, frame, n, r->nprefix, read_outlined, out, max, err); /* reads no later one */
    if (k < 0 && !r->blobs_matter)
        return -1;
    if (k <= 0 || ts_playing_unexplained(r->finder, out, k)) {
        frame_reset(r);
        keep_ahead(r, r->ranked);
        n = ts_playing_find_late(r->finder, frame, early, ne, late, nl, r->ranked, nout, cap, err);
        n = n < 0 ? n : drop_merged(r, r->ranked, n, early, ne); /* and merged blobs */
        k = n < 0 ? -1 : pick(r, frame, n, n, read_candidate, out, max, err);
    }
    k = k < 0 ? -1 : give_views(r, frame, out, k, max, err);
    k = k < 0 ? -1 : drop_oversized(r, out, k);
    const ts_beside_reader beside = {r, beside_conf, beside_paired, read_place};
    k = k < 0 ? -1 : ts_playing_offer_beside(&beside, frame, out, k, max, err);
    return k < 0 ? -1 : drop_beside_twins(r, out, k);
}

static const char *const playing_profiles[] = {"standard", NULL};

const ts_reader_class ts_playing_reader_class = {
    .family = TS_FAM_PLAYING,
    .name = "playing",
    .profiles = playing_profiles,
    .min_aspect = 1.0f,
    .max_aspect = 2.0f,
    .card_w = TS_PLAYING_CARD_W,
    .card_h = TS_PLAYING_CARD_H,
    .conf_floor = TS_PLAYING_FLOOR,
    .whole_min_aspect = 1.25f, /* crops of one card (63 x 88 mm, 1.40) */
    .whole_max_aspect = 1.6f,
    .create = playing_create,
    .destroy = playing_destroy,
    .read = playing_read,
    .find = playing_find,
    .read_found = playing_read_found,
};
