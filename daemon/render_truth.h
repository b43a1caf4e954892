/* The ground truth `tablesight render` writes beside each image (NAME.json:
 * every card's code, corners and visible fraction), read back so `eval` can
 * score rendered tables by how much of each card shows, not only as a
 * multiset of codes. */
#ifndef TS_RENDER_TRUTH_H
#define TS_RENDER_TRUTH_H

#include <stddef.h>

#include "card.h"
#include "codes.h"

enum { TS_RENDER_TRUTH_MAX = 256 }; /* cards in one rendered table, at most */

typedef struct {
    ts_code code;
    ts_pt quad[4];
    float visible; /* 0..1: in view and not covered by later (higher) cards */
} ts_truth_card;

/* Reads code text in the deck's letters: 0 with *out, or -1. */
typedef int (*ts_truth_code_fn)(void *ctx, const char *text, size_t len, ts_code *out);

/* Parses a truth file's len bytes (name for messages): the card count
 * (<= max, in drawing order: later cards lie on top), or -1 with a one-line
 * reason in err. */
int ts_render_truth_parse(const char *text, size_t len, const char *name, ts_truth_code_fn code,
                          void *ctx, ts_truth_card *out, int max, char *err, size_t errlen);

/* Loads the truth beside image_path (its extension replaced by .json).
 * Returns as ts_render_truth_parse, or 0 when there is no such file. */
int ts_render_truth_load(const char *image_path, ts_truth_code_fn code, void *ctx,
                         ts_truth_card *out, int max, char *err, size_t errlen);

/* Which truth card a found card lies on: the topmost one holding its
 * centre, or -1. */
int ts_render_truth_under(const ts_truth_card *t, int n, const ts_pt quad[4]);

#endif
