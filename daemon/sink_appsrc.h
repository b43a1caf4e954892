/* The GStreamer half of the window and recording sinks:
 *
 *   appsrc (BGR or BGRx frames) ! videoconvert [! videoscale ! fixed size] ! TAIL
 *
 * Frames are copied into GStreamer buffers (rows repacked to GStreamer's
 * stride), or handed over as buffers ready in their format, and stamped with
 * their capture time. The appsrc queue holds two
 * frames and drops the oldest when the tail cannot keep up: the caller never
 * waits on an encoder or a display.
 */
#ifndef TS_SINK_APPSRC_H
#define TS_SINK_APPSRC_H

#include <stddef.h>

#include <gst/gst.h>
#include <gst/video/video.h>

#include "image.h"

typedef struct ts_appsrc_out ts_appsrc_out;

typedef struct {
    const char *what;      /* name for messages: "window", "record" */
    const char *tail;      /* description after videoconvert (elements only) */
    const char *file;      /* if set: the "location" of the element named "file" */
    const char *title;     /* if set: sent as the stream title (window name) */
    int fixed_size;        /* scale every frame to the first frame's size */
    int live;              /* frames are shown as they come (no pacing by timestamps) */
    int newest;            /* queue one frame, not two: a display shows the newest */
} ts_appsrc_out_config;

/* Builds the pipeline and brings it to PLAYING (a display that cannot be
 * opened or a file that cannot be created fails here). NULL with err. */
ts_appsrc_out *ts_appsrc_out_create(const ts_appsrc_out_config *cfg, char *err, size_t errlen);

/* Copies img (BGR, any stride) in as the next frame, t = capture time (s). */
int ts_appsrc_out_push(ts_appsrc_out *o, const ts_image *img, double t, char *err, size_t errlen);

/* Pushes buf (takes it), a frame already in the format info describes (the
 * window's BGRx: videoconvert passes it through), t = capture time (s). */
int ts_appsrc_out_push_buffer(ts_appsrc_out *o, GstBuffer *buf, const GstVideoInfo *info,
                              double t, char *err, size_t errlen);

/* Reads the bus: -1 with err once the pipeline has failed (or the window was
 * closed), else 0. */
int ts_appsrc_out_poll(ts_appsrc_out *o, char *err, size_t errlen);

/* A key pressed in the window (its name: "h", "r", "space"), oldest first:
 * 1 with the name in out, 0 if none. Keys come as navigation events from the
 * video sink (ximagesink and friends send them). */
int ts_appsrc_out_key(ts_appsrc_out *o, char *out, size_t cap);

/* Ends the stream, waits (bounded) for files to be finished, frees. */
void ts_appsrc_out_destroy(ts_appsrc_out *o);

/* The pipeline's element of that name (from the tail), a new reference the
 * caller unrefs, or NULL. For sinks that tune their tail while running. */
GstElement *ts_appsrc_out_element(ts_appsrc_out *o, const char *name);

/* The capture time (ts_now() clock) of a buffer this pipeline got with PTS pts. */
double ts_appsrc_out_time(const ts_appsrc_out *o, GstClockTime pts);

/* Whether a GStreamer element factory is installed. */
int ts_gst_has(const char *factory);

#endif
