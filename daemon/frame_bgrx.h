/* Frames converted for the window: BGR -> BGRx (what X video sinks and
 * cairo draw on), on the caller's thread, with GStreamer's video converter
 * (SIMD, one thread: vision has the other core), into buffers recycled from
 * a pool. About 1 ms of CPU for a 1080p frame, where videoconvert in the
 * window's pipeline took both cores at the moment results were drawn.
 */
#ifndef TS_FRAME_BGRX_H
#define TS_FRAME_BGRX_H

#include <stddef.h>

#include <gst/video/video.h>

#include "image.h"

typedef struct ts_frame_bgrx ts_frame_bgrx;

ts_frame_bgrx *ts_frame_bgrx_create(void);
void ts_frame_bgrx_destroy(ts_frame_bgrx *c);

/* img (BGR, any stride) as a new BGRx buffer the caller owns (its only
 * reference: writable, so cairooverlay draws on it in place); info (out)
 * describes it. NULL with err on failure. */
GstBuffer *ts_frame_bgrx_get(ts_frame_bgrx *c, const ts_image *img, GstVideoInfo *info,
                             char *err, size_t errlen);

#endif
