/* Output sinks of `tablesight run`: one small function table per kind, chosen
 * by the command line (zbar's backend-per-file idea), so every sink is
 * replaceable and the run loop knows none of them.
 *
 *   frame sinks (display thread): window, recording, MJPEG over HTTP
 *   line sinks  (vision thread):  JSON lines on stdout, on a UNIX socket
 *
 * A sink is used by one thread only. No sink ever blocks its caller for long:
 * slow clients are dropped, full encoder queues drop frames.
 */
#ifndef TS_SINK_API_H
#define TS_SINK_API_H

#include <stddef.h>

#include "capture.h"
#include "image.h"
#include "json.h"
#include "stats.h"
#include "overlay.h"
#include "tracker.h"

typedef struct ts_sink ts_sink;

struct ts_sink {
    const char *name; /* "window", "record", "http", "json", "socket" */
    /* An annotated frame (BGR, borrowed for the call); t = its capture time
     * (ts_now()). NULL for line sinks. Returns 0, or -1 when the sink failed for
     * good: its one-line reason is in err, and the caller destroys it. */
    int (*frame)(ts_sink *s, const ts_image *img, double t, char *err, size_t errlen);
    /* Instead of frame: a sink that draws the overlay itself where its video
     * is composed (the window, at screen resolution) gets the captured frame
     * unannotated and the draw list for it. img: BGR, borrowed for the call;
     * keep: the capture frame img lies in (its seq names the frame), or NULL;
     * ov: borrowed for the call. Same return as frame. NULL = the sink takes
     * frame. */
    int (*video)(ts_sink *s, const ts_image *img, ts_frame *keep, const ts_overlay_list *ov,
                 double t, char *err, size_t errlen);
    /* Optional, with video: the capture frame keep (img in it) is to be shown
     * as soon as its results are ready; the sink does now, while vision reads
     * it, what does not need the draw list (the window converts it for the
     * screen). Same return as frame. NULL = nothing to prepare. */
    int (*prepare)(ts_sink *s, const ts_image *img, ts_frame *keep, char *err, size_t errlen);
    /* Whether a frame would be used now (an HTTP server without viewers says
     * no, so nothing is drawn or encoded for it). NULL = always. */
    int (*wants_frame)(ts_sink *s);
    /* One JSON line, without the newline. NULL for frame sinks. Same return. */
    int (*line)(ts_sink *s, const char *json, size_t len, char *err, size_t errlen);
    /* Housekeeping between frames: accept clients, flush, read the bus.
     * Same return as above. NULL = none. */
    int (*poll)(ts_sink *s, char *err, size_t errlen);
    /* A control command from the user, if one came: a key pressed in the
     * window ("h"), a line a socket client sent ("hint 2"). Returns 1 with
     * the command in out, 0 if none. NULL = the sink takes no commands. */
    int (*command)(ts_sink *s, char *out, size_t cap);
    /* Flushes, finishes files, closes. */
    void (*destroy)(ts_sink *s);
};

/* ---- Constructors: NULL with a one-line reason in err ------------------- */

/* A window on the X display (ximagesink, or another video sink if missing).
 * Small video is shown scaled up (2x, 3x: text stays legible) when the
 * screen has room. Keys: F11 toggles fullscreen, q or Esc quits; other keys
 * are commands (see command above). The user closing the window or quitting
 * -> frame/poll return -1 "window closed". fullscreen: start fullscreen.
 * stats (borrowed, may be NULL): gets the latencies measured where the overlay
 * is drawn on the video (TS_ST_WIN_FRAME, TS_ST_WIN_HINTS). trace (borrowed,
 * may be NULL): a "draw" stage per frame drawn on. */
ts_sink *ts_sink_window_create(const char *title, int fullscreen, ts_stats *stats,
                               ts_trace *trace, char *err, size_t errlen);

/* Annotated video in path: .mkv or .avi (MJPEG), .mp4 (H.264 if an encoder is
 * installed). The frame size is fixed by the first frame. Takes video + the
 * draw list: video under 720 lines is recorded scaled up (ts_overlay_annotate),
 * the overlay drawn at the recorded size. */
ts_sink *ts_sink_record_create(const char *path, char *err, size_t errlen);

/* MJPEG over HTTP on "HOST:PORT" (port 0 picks a free one; see the log line),
 * served by libmicrohttpd on its own threads. Non-loopback hosts are refused
 * unless allow_any. Serves GET / (a page showing the stream), /stream.mjpg
 * (multipart/x-mixed-replace) and /frame.jpg (one frame); nothing else. At
 * most 8 connections; one that moves no bytes for 10 s is closed. Frames are
 * annotated only while a viewer waits, at 720 lines or more, with text 1.5x
 * the window's (a phone shows the whole picture a few hundred pixels wide). */
ts_sink *ts_sink_http_create(const char *addr, int allow_any, char *err, size_t errlen);
/* The port an HTTP sink listens on. */
int ts_sink_http_port(const ts_sink *s);

/* JSON lines to a stdio stream (borrowed; flushed after every line). */
ts_sink *ts_sink_json_create(FILE *f, char *err, size_t errlen);

/* JSON lines to every client of a UNIX socket at path, created here and
 * removed on destroy. An existing file that is not a stale socket is refused.
 * A new client first gets the latest line. */
ts_sink *ts_sink_socket_create(const char *path, char *err, size_t errlen);

/* ---- The line format ---------------------------------------------------- */

/* One stable-table line: the output contract object (result_json.h) for the
 * stable table, plus "t" (seconds since t0), "ids" (the track id of each card,
 * in card order) and "events" (this update's events). Replaces j's content. */
void ts_stable_json(ts_json *j, const ts_stable *st, const char *source, const char *game,
                    double t0);

#endif
