/* Capture: a GStreamer source into BGR frames, newest frame wins.
 *
 *   SOURCE ! decodebin ! videoconvert ! video/x-raw,format=BGR ! appsink
 *   SOURCE (image/jpeg, framed) ! appsink, decoded here (TurboJPEG -> BGR)
 *
 * A camera named by its device (/dev/video0, or the default camera) is asked
 * for a mode chosen from the caps it offers (capture_mode.h): the largest
 * size up to 1080p at 30 fps, raw when raw is as fast, else MJPEG, which then
 * takes the JPEG path below. The device is probed again at every restart.
 *
 * A source that sends JPEG one picture per buffer (a JPEG image sequence, a
 * camera asked for MJPEG: "v4l2src ! image/jpeg,width=1920,...", multifilesrc
 * with JPEG caps) is decoded by the capture thread straight to BGR, as `scan`
 * decodes a photo: about half the CPU of jpegdec's I420 plus a conversion, and
 * the same pixels as the batch path. A JPEG file source has no timestamps to
 * sync on: the capture thread paces it at its caps' frame rate.
 *
 * A capture thread pulls from the appsink and publishes each frame as the
 * latest; consumers (vision, display) take a reference to the newest frame and
 * never block the capture. A frame the vision consumer never took is counted as
 * dropped. Live sources run with `max-buffers=1 drop=true sync=false`; files are
 * paced at their own frame rate, or with `fast` handed over frame by frame with
 * no drops (the file waits for vision instead).
 *
 * Faults of a live source (an error, the device gone, no frame within the
 * watchdog, garbage the decoder gives up on) are logged as one line on stderr,
 * the status turns stale, and the pipeline is rebuilt with growing back-off
 * until frames come again. A file that errors ends the capture with an error.
 */
#ifndef TS_CAPTURE_H
#define TS_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "capture_trace.h"
#include "image.h"

typedef struct {
    /* NULL or "auto": the first V4L2 camera, else the bundled sample clip.
     * Otherwise a device path (/dev/video2), a video or image file, an image
     * sequence pattern (frames/f_%04d.jpg), a URI (rtsp://, http://, file://),
     * or a GStreamer source description ("v4l2src ! image/jpeg,width=1920"). */
    const char *source;
    int loop;        /* files: start again at the end instead of ending */
    int fast;        /* files: no pacing, every frame goes to vision (no drops) */
    double fps;      /* image sequences and still images: frames per second (default 15);
                      * cameras: the rate to ask for (default 30, at least 25) */
    int width, height; /* cameras: the frame size to ask for (0: the largest up to 1920x1080) */
    double watchdog; /* seconds without a frame before a source counts as stalled (default 3) */
    double max_backoff; /* longest pause between restarts of a faulty live source, s (default 5) */
    int quiet;       /* no fault lines on stderr (tests) */
    ts_trace *trace; /* borrowed, may be NULL: each frame's "decode" stage */
} ts_capture_config;

/* One captured frame, shared by reference. The image is read-only; it stays
 * valid until the last ts_frame_release, even after ts_capture_destroy. */
typedef struct {
    ts_image img;  /* BGR; stride from the negotiated caps (rows may be padded) */
    uint64_t seq;  /* 1, 2, 3, ... in capture order, across restarts */
    double t;      /* ts_now() when the frame reached the appsink */
} ts_frame;

void ts_frame_release(ts_frame *f); /* NULL is fine */
/* Another reference to f (released with ts_frame_release); returns f. The
 * window hands frames to GStreamer this way, without copying them. */
ts_frame *ts_frame_ref(ts_frame *f);

typedef enum {
    TS_CAP_STARTING = 0, /* no frame yet */
    TS_CAP_RUNNING,      /* frames are arriving */
    TS_CAP_STALE,        /* a live source failed; retrying (reason says why) */
    TS_CAP_ENDED,        /* a file reached its end (without loop) */
    TS_CAP_FAILED,       /* a file or pipeline failed for good (reason says why) */
    TS_CAP_STOPPED       /* ts_capture_stop was called */
} ts_capture_state;

typedef struct {
    ts_capture_state state;
    int live;            /* the source is live (camera, stream) */
    uint64_t captured;   /* frames published */
    uint64_t dropped;    /* frames replaced before vision took them */
    uint64_t restarts;   /* pipeline rebuilds after faults */
    double since;        /* ts_now() of the last state change */
    char reason[200];    /* why stale / failed; "" otherwise */
    char label[200];     /* the source, short, for status lines */
} ts_capture_status;

typedef struct ts_capture ts_capture;

/* Resolves the source, builds and starts the pipeline and the capture thread.
 * Returns NULL with a one-line reason in err if the source cannot be resolved
 * or the description does not parse. A live source that is present but not
 * delivering yet is not an error: it starts stale and is retried. */
ts_capture *ts_capture_create(const ts_capture_config *cfg, char *err, size_t errlen);

/* Stops the capture thread (any thread may call it; waiters wake up). */
void ts_capture_stop(ts_capture *c);
/* Stops, joins and frees. Frames still referenced stay valid. */
void ts_capture_destroy(ts_capture *c);

/* Waits up to timeout_ms for a frame with seq > after; returns a new
 * reference (release it) or NULL on timeout, end, failure or stop.
 * take = 1 is the vision consumer: the frame counts as taken (not dropped) and,
 * with `fast`, lets the capture fetch the next one. Display passes take = 0. */
ts_frame *ts_capture_next(ts_capture *c, uint64_t after, int timeout_ms, int take);

/* The display's wait: like ts_capture_next (take = 0), and also returns NULL
 * at once when ts_capture_wake was called since *seen was read (*seen is then
 * brought up to date; start it at 0). So the display waits for a frame or for
 * vision's results in one wait, with no wake-up lost between a check and the
 * wait, instead of polling for results every few ms. */
ts_frame *ts_capture_wait(ts_capture *c, uint64_t after, uint64_t *seen, int timeout_ms);

/* Wakes ts_capture_wait (vision: new results are published). */
void ts_capture_wake(ts_capture *c);

/* The newest frame (any seq), or NULL if none yet; a new reference. */
ts_frame *ts_capture_latest(ts_capture *c);

void ts_capture_get_status(ts_capture *c, ts_capture_status *out);

/* True for states after which no frame will come (ended, failed, stopped). */
int ts_capture_finished(ts_capture_state s);

/* ---- Source resolution (pure; exposed for tests and --help) ------------- */

typedef struct {
    char desc[1024];     /* gst-launch description ending in the decoder, before videoconvert */
    char prop[16];       /* property of the element named "tssrc" that gets location */
    char location[1024]; /* the file, device or URI ("" = none) */
    char label[200];
    int live;            /* known live before starting (a camera, RTSP) */
    int still;           /* a single image, repeated at fps */
    int camera;          /* a V4L2 device: its mode is chosen from its caps at each start */
} ts_source_plan;

/* Turns cfg->source into a pipeline head. The location of files and devices is
 * set as a property, never pasted into the description, so no path can inject
 * pipeline syntax. Returns 0, or -1 with err. */
int ts_capture_plan(const ts_capture_config *cfg, ts_source_plan *plan, char *err, size_t errlen);

/* The default source for "auto": writes a device path or the sample clip
 * pattern; returns 0, or -1 if neither exists. */
int ts_capture_auto_source(char *out, size_t n);

#endif
