/* Capture: GStreamer source -> appsink -> the newest frame (see capture.h). */
#include "capture.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/videodev2.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include "capture_jpeg.h"
#include "capture_mode.h"
#include "datadir.h"
#include "stats.h"

/* The bundled clip, in the data directory (datadir.h). */
static void sample_clip(char *out, size_t n)
{
    char dir[1024];
    ts_data_path("samples/clip", dir, sizeof dir);
    snprintf(out, n, "%.1000s/frame_%%04d.jpg", dir);
}

enum { PULL_MS = 100 }; /* the capture thread looks at stop, bus and watchdog this often */

/* ---- Frames ------------------------------------------------------------- */

typedef struct {
    ts_frame pub; /* first: a ts_frame * is a frame_impl * */
    GstSample *sample; /* a raw frame: the sample its mapped pixels lie in ... */
    GstVideoFrame vf;
    ts_image own;      /* ... or a JPEG frame decoded here: pixels of dec's */
    ts_jpeg_dec *dec;
    atomic_int refs;
} frame_impl;

void ts_frame_release(ts_frame *f)
{
    frame_impl *fi = (frame_impl *)f;
    if (!fi || atomic_fetch_sub(&fi->refs, 1) != 1)
        return;
    if (fi->sample) {
        gst_video_frame_unmap(&fi->vf);
        gst_sample_unref(fi->sample);
    }
    ts_jpeg_dec_give_back(fi->dec, &fi->own);
    free(fi);
}

static ts_frame *frame_ref(frame_impl *f)
{
    atomic_fetch_add(&f->refs, 1);
    return &f->pub;
}

ts_frame *ts_frame_ref(ts_frame *f)
{
    return f ? frame_ref((frame_impl *)f) : NULL;
}

/* ---- Source resolution -------------------------------------------------- */

/* Whether path names a V4L2 device that captures video. */
static int is_capture_device(const char *path)
{
    int fd = open(path, O_RDWR | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    int ok = ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0;
    close(fd);
    if (!ok)
        return 0;
    unsigned caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    return (caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE)) != 0;
}

/* A printf pattern with exactly one integer conversion (%d, %04d) and no other
 * conversion, so formatting it with an int is safe. */
static int sequence_pattern(const char *s)
{
    int conversions = 0;
    for (const char *p = s; *p; p++) {
        if (*p != '%')
            continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        p++;
        if (*p == '0')
            p++;
        while (isdigit((unsigned char)*p))
            p++;
        if (*p != 'd')
            return 0;
        conversions++;
    }
    return conversions == 1;
}

static int sequence_file(const char *pattern, int i, char *out, size_t n)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    int len = snprintf(out, n, pattern, i); /* checked by sequence_pattern */
#pragma GCC diagnostic pop
    return len > 0 && (size_t)len < n;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The first index (0 or 1) at which an image sequence has a file, or -1. */
static int sequence_start(const char *pattern)
{
    char path[1024];
    for (int i = 0; i <= 1; i++)
        if (sequence_file(pattern, i, path, sizeof path) && file_exists(path))
            return i;
    return -1;
}

/* "jpeg", "png" or NULL, by the first bytes of a file. */
static const char *image_kind(const char *path)
{
    unsigned char m[8] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t n = fread(m, 1, sizeof m, f);
    fclose(f);
    if (n >= 3 && m[0] == 0xFF && m[1] == 0xD8 && m[2] == 0xFF)
        return "jpeg";
    if (n >= 8 && memcmp(m, "\x89PNG\r\n\x1a\n", 8) == 0)
        return "png";
    return NULL;
}

int ts_capture_auto_source(char *out, size_t n)
{
    glob_t g;
    int found = 0;
    if (glob("/dev/video*", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc && !found; i++)
            if (is_capture_device(g.gl_pathv[i]))
                found = snprintf(out, n, "%s", g.gl_pathv[i]) < (int)n;
        globfree(&g);
    }
    if (found)
        return 0;
    char clip[1100];
    sample_clip(clip, sizeof clip);
    if (sequence_start(clip) >= 0)
        return snprintf(out, n, "%s", clip) < (int)n ? 0 : -1;
    return -1;
}

/* The first word of a description is a GStreamer element. */
static int names_element(const char *s)
{
    char name[128];
    size_t i = 0;
    while (s[i] && !isspace((unsigned char)s[i]) && s[i] != '!' && i < sizeof name - 1) {
        name[i] = s[i];
        i++;
    }
    name[i] = '\0';
    GstElementFactory *f = i ? gst_element_factory_find(name) : NULL;
    if (f)
        gst_object_unref(f);
    return f != NULL;
}

/* Writes a plan field; a field that does not fit makes the whole plan fail. */
#define PLAN(field, ...)                                                                        \
    (too_long |= snprintf(plan->field, sizeof plan->field, __VA_ARGS__) >= (int)sizeof plan->field)

int ts_capture_plan(const ts_capture_config *cfg, ts_source_plan *plan, char *err, size_t errlen)
{
    memset(plan, 0, sizeof *plan);
    int too_long = 0;
    char resolved[1024];
    const char *src = cfg->source;
    int fps = cfg->fps > 0 ? (int)(cfg->fps + 0.5) : 15;
    if (fps < 1)
        fps = 1;
    if (!src || !*src || strcmp(src, "auto") == 0) {
        if (ts_capture_auto_source(resolved, sizeof resolved) < 0) {
            char clip[1100];
            sample_clip(clip, sizeof clip);
            snprintf(err, errlen, "no camera (/dev/video*) and no sample clip at %s", clip);
            return -1;
        }
        src = resolved;
    }
    PLAN(label, "%.180s%s", src, strlen(src) > 180 ? "..." : "");
    struct stat st;
    int exists = stat(src, &st) == 0;
    /* A camera that was never there fails now, as zbarcam does; one that goes
     * away while running is retried (capture thread). */
    if (strncmp(src, "/dev/", 5) == 0 && !exists) {
        snprintf(err, errlen, "%.200s: no such camera (%s)", src, strerror(errno));
        return -1;
    }
    if (strncmp(src, "/dev/", 5) == 0 && S_ISCHR(st.st_mode)) {
        if (access(src, R_OK | W_OK) != 0) {
            snprintf(err, errlen, "%.200s: cannot open the camera: %s", src, strerror(errno));
            return -1;
        }
        if (!is_capture_device(src)) {
            snprintf(err, errlen, "%.200s: not a video capture device", src);
            return -1;
        }
    }

    if (strncmp(src, "/dev/", 5) == 0 || (exists && S_ISCHR(st.st_mode))) {
        PLAN(desc, "v4l2src name=tssrc ! decodebin name=tsdec");
        PLAN(prop, "device");
        PLAN(location, "%s", src);
        plan->live = 1;
        plan->camera = 1;
    } else if (strstr(src, "://")) {
        PLAN(desc, "uridecodebin name=tssrc");
        PLAN(prop, "uri");
        PLAN(location, "%s", src);
        plan->live = strncmp(src, "rtsp", 4) == 0;
    } else if (!exists && strpbrk(src, " !") && names_element(src)) {
        /* A description ("multifilesrc location=f%03d.jpg ! jpegdec") may hold
         * a '%' of its own: it is a pipeline, not a file pattern. */
        PLAN(desc, "%s ! decodebin name=tsdec", src);
    } else if (!exists && strchr(src, '%')) {
        if (!sequence_pattern(src)) {
            snprintf(err, errlen, "%s: an image sequence needs one %%d-style number (frame_%%04d.jpg)",
                     src);
            return -1;
        }
        int start = sequence_start(src);
        if (start < 0) {
            snprintf(err, errlen, "%s: no frame at index 0 or 1", src);
            return -1;
        }
        char first[1024];
        sequence_file(src, start, first, sizeof first);
        const char *kind = image_kind(first);
        if (!kind) {
            snprintf(err, errlen, "%s: not a JPEG or PNG image", first);
            return -1;
        }
        PLAN(desc, "multifilesrc name=tssrc index=%d caps=\"image/%s,framerate=%d/1\" ! decodebin name=tsdec",
             start, kind, fps);
        PLAN(prop, "location");
        PLAN(location, "%s", src);
    } else if (exists && S_ISREG(st.st_mode)) {
        if (image_kind(src)) { /* a photo: show it as a still camera would */
            PLAN(desc, "filesrc name=tssrc ! decodebin ! imagefreeze ! video/x-raw,framerate=%d/1", fps);
            plan->still = 1;
        } else {
            PLAN(desc, "filesrc name=tssrc ! decodebin name=tsdec");
        }
        PLAN(prop, "location");
        PLAN(location, "%s", src);
    } else if (!exists && names_element(src)) {
        PLAN(desc, "%s ! decodebin name=tsdec", src);
        /* Live or not is learnt when the pipeline starts. */
    } else {
        snprintf(err, errlen, "%s: no such file, device or GStreamer element", src);
        return -1;
    }
    if (too_long) {
        snprintf(err, errlen, "source is too long");
        return -1;
    }
    return 0;
}

/* ---- The capture -------------------------------------------------------- */

struct ts_capture {
    ts_capture_config cfg;
    ts_source_plan plan;
    pthread_t thread;
    int started;

    pthread_mutex_t mu; /* guards everything below up to the next comment */
    pthread_cond_t cv;  /* a frame, a state change, a take, or stop */
    int stop;
    frame_impl *latest;
    int latest_taken;
    uint64_t seq;
    uint64_t wakes; /* ts_capture_wake calls */
    ts_capture_status st;

    /* Capture thread only (and its creator before it starts, its joiner after). */
    GstElement *pipe;
    GstAppSink *sink;
    int sink_jpeg;      /* the appsink takes JPEG (decoded here) */
    ts_jpeg_dec *jpeg;  /* decodes JPEG frames (made at the first one) */
    double pace_t0;     /* a JPEG file paced here: when its first frame came, */
    long pace_n;        /* ... and frames since */
    GstBus *bus;
    GstCaps *caps;      /* caps of the last frame, and their parsed info */
    GstVideoInfo info;
    int live;           /* this pipeline is live */
    int warned;         /* a decoder warning was logged for this pipeline */
    double backoff;     /* the next pause before a restart, s */
    double retry_at;    /* ts_now() of the next restart; 0 = now */
    double fault_at;    /* ts_now() of the first fault of the current outage */
    char mode[64];      /* a camera's mode last said on stderr */
};

/* A pthread_cond_timedwait deadline s seconds from now. */
static struct timespec deadline_in(double s)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    long long ns = (long long)ts.tv_nsec + (long long)(s * 1e9);
    ts.tv_sec += (time_t)(ns / 1000000000LL);
    ts.tv_nsec = (long)(ns % 1000000000LL);
    return ts;
}

static void say(const ts_capture *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const ts_capture *c, const char *fmt, ...)
{
    if (c->cfg.quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "capture: %s: ", c->plan.label);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Caller holds mu. */
static void set_state(ts_capture *c, ts_capture_state s, const char *reason)
{
    if (c->st.state != s)
        c->st.since = ts_now();
    c->st.state = s;
    snprintf(c->st.reason, sizeof c->st.reason, "%s", reason ? reason : "");
    pthread_cond_broadcast(&c->cv);
}

static int stopping(ts_capture *c)
{
    pthread_mutex_lock(&c->mu);
    int s = c->stop;
    pthread_mutex_unlock(&c->mu);
    return s;
}

static void teardown(ts_capture *c)
{
    if (!c->pipe)
        return;
    gst_element_set_state(c->pipe, GST_STATE_NULL);
    gst_object_unref(c->sink);
    c->sink = NULL;
    gst_object_unref(c->bus);
    gst_object_unref(c->pipe);
    c->pipe = NULL;
    c->bus = NULL;
    if (c->caps)
        gst_caps_unref(c->caps);
    c->caps = NULL;
}

/* The first error message waiting on the bus, for a failed state change. */
static void bus_error(GstBus *bus, char *err, size_t n)
{
    GstMessage *m = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    GError *ge = NULL;
    if (m) {
        gst_message_parse_error(m, &ge, NULL);
        snprintf(err, n, "%s", ge ? ge->message : "pipeline error");
        g_clear_error(&ge);
        gst_message_unref(m);
    } else {
        snprintf(err, n, "the pipeline would not start");
    }
}

/* Newest wins: one buffer queued, older ones dropped; once the pipeline is
 * known to be a file, it is paced at its own rate, or with `fast` waits for
 * vision instead of dropping. JPEG from a file carries no timestamps to sync
 * on (multifilesrc): the file waits for the capture thread, which paces it
 * (pace). file: the pipeline started and is known not to be live. */
static void tune_sink(ts_capture *c, int file)
{
    g_object_set(c->sink, "max-buffers", 1, "drop", !(file && (c->cfg.fast || c->sink_jpeg)),
                 "sync", file && !c->cfg.fast && !c->sink_jpeg, "enable-last-sample", FALSE,
                 NULL);
}

/* JPEG frames one picture per buffer, as a camera, a demuxer or an image
 * sequence hands them (they carry a frame rate, or a parser framed them). */
static int framed_jpeg(const GstCaps *caps)
{
    if (!caps || gst_caps_is_any(caps) || gst_caps_get_size(caps) < 1)
        return 0;
    const GstStructure *st = gst_caps_get_structure(caps, 0);
    gboolean parsed = FALSE;
    return gst_structure_has_name(st, "image/jpeg") &&
           (gst_structure_has_field(st, "framerate") ||
            (gst_structure_get_boolean(st, "parsed", &parsed) && parsed));
}

/* Whether the plan's source sends framed JPEG (a description ending in
 * image/jpeg caps with a frame rate: an image sequence, a camera asked for
 * MJPEG, multifilesrc with JPEG caps). Then the capture decodes it itself,
 * straight to BGR (TurboJPEG, as `scan` reads a photo), instead of decodebin's
 * jpegdec to I420 and a videoconvert to BGR: about 6 ms of CPU per 1080p frame
 * instead of 11. head gets the description without its final decodebin.
 * Anything else (a camera's own choice of format, a URI, a video file) keeps
 * decodebin. */
static const char FINAL_DECODER[] = " ! decodebin name=tsdec";

static int jpeg_source(const ts_capture *c, char *head, size_t n)
{
    size_t len = strlen(c->plan.desc), dl = strlen(FINAL_DECODER);
    if (len <= dl || strcmp(c->plan.desc + len - dl, FINAL_DECODER) != 0 || len - dl + 32 > n)
        return 0;
    snprintf(head, n, "%.*s ! identity name=tshead", (int)(len - dl), c->plan.desc);
    GstElement *p = gst_parse_launch_full(head, NULL, GST_PARSE_FLAG_FATAL_ERRORS, NULL);
    GstElement *id = p ? gst_bin_get_by_name(GST_BIN(p), "tshead") : NULL;
    GstPad *pad = id ? gst_element_get_static_pad(id, "src") : NULL;
    GstCaps *caps = pad ? gst_pad_query_caps(pad, NULL) : NULL;
    int jpeg = framed_jpeg(caps);
    for (guint i = 0; jpeg && i < gst_caps_get_size(caps); i++) /* JPEG and nothing else */
        jpeg = gst_structure_has_name(gst_caps_get_structure(caps, i), "image/jpeg");
    if (caps)
        gst_caps_unref(caps);
    if (pad)
        gst_object_unref(pad);
    if (id)
        gst_object_unref(id);
    if (p)
        gst_object_unref(p);
    head[len - dl] = '\0';
    return jpeg;
}

/* A camera's pipeline head, asked for the mode chosen from the caps the
 * device offers now (a camera plugged back in may be another one). When the
 * device cannot be probed (gone, busy) v4l2src picks: starting it will fail
 * or not, as before, and a failure is retried. */
static void camera_head(ts_capture *c)
{
    char why[256], want[160], mode[64];
    snprintf(c->plan.desc, sizeof c->plan.desc, "v4l2src name=tssrc ! decodebin name=tsdec");
    GstCaps *caps = ts_camera_probe(c->plan.location, why, sizeof why);
    ts_camera_want w = {.w = c->cfg.width, .h = c->cfg.height, .fps = c->cfg.fps};
    ts_camera_mode m;
    if (!caps || ts_camera_pick(caps, &w, &m) < 0 ||
        ts_camera_mode_caps(&m, want, sizeof want) < 0) {
        if (caps)
            gst_caps_unref(caps);
        return;
    }
    gst_caps_unref(caps);
    snprintf(c->plan.desc, sizeof c->plan.desc, "v4l2src name=tssrc ! %s ! decodebin name=tsdec",
             want);
    ts_camera_mode_describe(&m, mode, sizeof mode);
    if (strcmp(mode, c->mode) != 0) {
        snprintf(c->mode, sizeof c->mode, "%s", mode);
        say(c, "camera mode %s%s", mode, m.jpeg ? " (decoded here)" : "");
    }
}

/* Builds and starts the pipeline. Returns 0, or -1 with err. */
static int build(ts_capture *c, char *err, size_t n)
{
    char head[sizeof c->plan.desc], desc[sizeof c->plan.desc + 128];
    if (c->plan.camera)
        camera_head(c);
    int jpeg = jpeg_source(c, head, sizeof head);
    if (jpeg)
        snprintf(desc, sizeof desc, "%s ! appsink name=tssink caps=image/jpeg", head);
    else
        snprintf(desc, sizeof desc,
                 "%s ! videoconvert ! video/x-raw,format=BGR ! appsink name=tssink", c->plan.desc);
    GError *ge = NULL;
    GstElement *p = gst_parse_launch_full(desc, NULL, GST_PARSE_FLAG_FATAL_ERRORS, &ge);
    if (!p) {
        snprintf(err, n, "%s", ge ? ge->message : "bad pipeline description");
        g_clear_error(&ge);
        return -1;
    }
    if (c->plan.location[0]) {
        GstElement *src = gst_bin_get_by_name(GST_BIN(p), "tssrc");
        if (src) {
            g_object_set(src, c->plan.prop, c->plan.location, NULL);
            gst_object_unref(src);
        }
    }
    c->pipe = p;
    c->bus = gst_element_get_bus(p);
    c->warned = 0;
    c->pace_n = 0;
    c->sink = GST_APP_SINK(gst_bin_get_by_name(GST_BIN(p), "tssink"));
    c->sink_jpeg = jpeg;
    tune_sink(c, 0);
    GstStateChangeReturn r = gst_element_set_state(p, GST_STATE_PAUSED);
    if (r == GST_STATE_CHANGE_FAILURE) {
        bus_error(c->bus, err, n);
        teardown(c);
        return -1;
    }
    c->live = r == GST_STATE_CHANGE_NO_PREROLL || c->plan.live;
    tune_sink(c, !c->live);
    pthread_mutex_lock(&c->mu);
    c->st.live = c->live;
    pthread_mutex_unlock(&c->mu);
    if (gst_element_set_state(p, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        bus_error(c->bus, err, n);
        teardown(c);
        return -1;
    }
    return 0;
}

static double first_backoff(const ts_capture *c)
{
    return c->cfg.max_backoff < 0.5 ? c->cfg.max_backoff : 0.5;
}

/* A fault: a live source turns stale and is retried after a growing pause; a
 * file fails for good. */
static void fault(ts_capture *c, const char *why)
{
    char reason[sizeof c->st.reason];
    snprintf(reason, sizeof reason, "%s", why);
    size_t n = strlen(reason);
    if (n > 1 && reason[n - 1] == '.') /* GStreamer's sentences end in one */
        reason[n - 1] = '\0';
    int live = c->live || c->plan.live;
    teardown(c);
    double now = ts_now();
    pthread_mutex_lock(&c->mu);
    int first = c->st.state != TS_CAP_STALE;
    if (live) {
        set_state(c, TS_CAP_STALE, reason);
        c->st.restarts++;
    } else {
        set_state(c, TS_CAP_FAILED, reason);
    }
    pthread_mutex_unlock(&c->mu);
    if (!live) {
        say(c, "%s", reason);
        return;
    }
    if (first) {
        c->fault_at = now;
        say(c, "%s; retrying every %.1f s or less", reason, c->cfg.max_backoff);
    }
    c->retry_at = now + c->backoff;
    c->backoff = c->backoff * 2 < c->cfg.max_backoff ? c->backoff * 2 : c->cfg.max_backoff;
}

/* A raw BGR sample as a frame: its pixels mapped, not copied (takes s). */
static frame_impl *raw_frame(ts_capture *c, GstSample *s)
{
    GstCaps *caps = gst_sample_get_caps(s);
    GstBuffer *buf = gst_sample_get_buffer(s);
    if (caps && caps != c->caps) {
        if (!gst_video_info_from_caps(&c->info, caps)) {
            gst_sample_unref(s);
            return NULL;
        }
        gst_caps_replace(&c->caps, caps);
    }
    frame_impl *f = calloc(1, sizeof *f);
    if (!c->caps || !buf || !f || GST_VIDEO_INFO_FORMAT(&c->info) != GST_VIDEO_FORMAT_BGR ||
        !gst_video_frame_map(&f->vf, &c->info, buf, GST_MAP_READ)) {
        free(f);
        gst_sample_unref(s);
        return NULL;
    }
    f->sample = s;
    f->pub.img.w = GST_VIDEO_FRAME_WIDTH(&f->vf);
    f->pub.img.h = GST_VIDEO_FRAME_HEIGHT(&f->vf);
    f->pub.img.stride = GST_VIDEO_FRAME_PLANE_STRIDE(&f->vf, 0);
    f->pub.img.channels = 3;
    f->pub.img.buf = GST_VIDEO_FRAME_PLANE_DATA(&f->vf, 0);
    return f;
}

/* A JPEG sample decoded to BGR at its full size (takes s). A frame that does
 * not decode is skipped, said once per pipeline: garbage comes in runs. */
static frame_impl *jpeg_frame(ts_capture *c, GstSample *s)
{
    GstBuffer *buf = gst_sample_get_buffer(s);
    frame_impl *f = calloc(1, sizeof *f);
    GstMapInfo m;
    int ok = 0;
    if (!c->jpeg)
        c->jpeg = ts_jpeg_dec_create();
    if (f && buf && c->jpeg && gst_buffer_map(buf, &m, GST_MAP_READ)) {
        char why[200];
        ok = ts_jpeg_dec_frame(c->jpeg, m.data, m.size, &f->own, why, sizeof why) == 0;
        gst_buffer_unmap(buf, &m);
        if (!ok && !c->warned++)
            say(c, "warning: a frame could not be decoded (%s)", why);
    }
    gst_sample_unref(s);
    if (!ok) {
        free(f);
        return NULL;
    }
    f->pub.img = f->own;
    f->dec = c->jpeg;
    return f;
}

/* A JPEG file plays at the frame rate of its caps: waits (for stop) until
 * the frame is due. Returns 0 to decode it, 1 to skip it (late by more than a
 * frame: dropped, as a synced sink would), -1 on stop. */
static int pace(ts_capture *c, const GstCaps *caps)
{
    int num = 0, den = 1;
    const GstStructure *st = gst_caps_get_structure(caps, 0);
    if (c->live || c->cfg.fast || !gst_structure_get_fraction(st, "framerate", &num, &den) ||
        num <= 0 || den <= 0)
        return 0;
    double now = ts_now(), period = (double)den / num;
    if (c->pace_n == 0)
        c->pace_t0 = now;
    double due = c->pace_t0 + period * (double)c->pace_n++;
    if (now > due + period)
        return 1;
    pthread_mutex_lock(&c->mu);
    while (!c->stop && ts_now() < due) {
        struct timespec ts = deadline_in(due - ts_now());
        pthread_cond_timedwait(&c->cv, &c->mu, &ts);
    }
    int stop = c->stop;
    pthread_mutex_unlock(&c->mu);
    return stop ? -1 : 0;
}

/* Publishes a pulled sample as the latest frame (takes the sample's ref). */
static void publish(ts_capture *c, GstSample *s)
{
    GstCaps *caps = gst_sample_get_caps(s);
    int jpeg = framed_jpeg(caps);
    if (jpeg && pace(c, caps) != 0) {
        gst_sample_unref(s);
        return;
    }
    ts_trace_mark m;
    ts_trace_mark_now(c->cfg.trace, &m);
    frame_impl *f = jpeg ? jpeg_frame(c, s) : raw_frame(c, s);
    if (!f)
        return;
    atomic_init(&f->refs, 1); /* the latest-frame slot's */
    f->pub.t = ts_now();

    pthread_mutex_lock(&c->mu);
    f->pub.seq = ++c->seq;
    frame_impl *old = c->latest;
    if (old && !c->latest_taken)
        c->st.dropped++;
    c->latest = f;
    c->latest_taken = 0;
    c->st.captured++;
    int resumed = c->st.state == TS_CAP_STALE;
    if (c->st.state != TS_CAP_RUNNING)
        set_state(c, TS_CAP_RUNNING, NULL);
    pthread_cond_broadcast(&c->cv);
    uint64_t seq = f->pub.seq;
    double t = f->pub.t;
    pthread_mutex_unlock(&c->mu);
    ts_trace_stage(c->cfg.trace, "decode", seq, t, &m, 0);
    ts_frame_release(old ? &old->pub : NULL);
    if (resumed)
        say(c, "frames again after %.1f s", f->pub.t - c->fault_at);
    c->backoff = first_backoff(c);
}

/* Reads the bus. Returns 1 if a fault ended this pipeline. */
static int poll_bus(ts_capture *c)
{
    GstMessage *m;
    while ((m = gst_bus_pop_filtered(c->bus, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
        GError *ge = NULL;
        char what[200];
        int error = GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR;
        if (error)
            gst_message_parse_error(m, &ge, NULL);
        else
            gst_message_parse_warning(m, &ge, NULL);
        snprintf(what, sizeof what, "%s (%s)", ge ? ge->message : "unknown",
                 GST_MESSAGE_SRC(m) ? GST_OBJECT_NAME(GST_MESSAGE_SRC(m)) : "?");
        g_clear_error(&ge);
        gst_message_unref(m);
        if (error) {
            fault(c, what);
            return 1;
        }
        if (!c->warned++) /* one line per pipeline: garbage frames come in runs */
            say(c, "warning: %s", what);
    }
    return 0;
}

/* End of stream: a file loops or ends; a live source that ends is a fault. */
static void end_of_stream(ts_capture *c)
{
    if (c->live) {
        fault(c, "the stream ended");
        return;
    }
    teardown(c);
    if (c->cfg.loop)
        return; /* rebuilt on the next turn */
    pthread_mutex_lock(&c->mu);
    set_state(c, TS_CAP_ENDED, NULL);
    pthread_mutex_unlock(&c->mu);
}

/* Waits (for stop) until the next restart is due, then rebuilds. */
static void restart(ts_capture *c)
{
    pthread_mutex_lock(&c->mu);
    while (!c->stop && ts_now() < c->retry_at) {
        struct timespec ts = deadline_in(c->retry_at - ts_now());
        pthread_cond_timedwait(&c->cv, &c->mu, &ts);
    }
    int stop = c->stop;
    pthread_mutex_unlock(&c->mu);
    if (stop)
        return;
    char err[256];
    if (build(c, err, sizeof err) < 0)
        fault(c, err);
}

/* With `fast`, a file waits until vision took the frame before pulling the
 * next. Returns 1 once it may pull, 0 after a while or on stop. */
static int wait_for_take(ts_capture *c)
{
    pthread_mutex_lock(&c->mu);
    if (!c->stop && c->latest && !c->latest_taken) {
        struct timespec ts = deadline_in(PULL_MS / 1000.0);
        pthread_cond_timedwait(&c->cv, &c->mu, &ts);
    }
    int ok = !c->stop && (!c->latest || c->latest_taken);
    pthread_mutex_unlock(&c->mu);
    return ok;
}

static void *capture_thread(void *arg)
{
    ts_capture *c = arg;
    double waiting_since = ts_now(); /* since when a frame is due */
    for (;;) {
        if (stopping(c))
            break;
        pthread_mutex_lock(&c->mu);
        int over = ts_capture_finished(c->st.state);
        pthread_mutex_unlock(&c->mu);
        if (over)
            break;
        if (!c->pipe) {
            restart(c);
            waiting_since = ts_now();
            continue;
        }
        if (c->cfg.fast && !c->live && !wait_for_take(c)) {
            waiting_since = ts_now(); /* waiting for vision is not a stall */
            poll_bus(c);
            continue;
        }
        GstSample *s = gst_app_sink_try_pull_sample(c->sink, PULL_MS * GST_MSECOND);
        int eos = !s && gst_app_sink_is_eos(c->sink);
        if (s) {
            publish(c, s);
            waiting_since = ts_now();
            continue;
        }
        if (poll_bus(c))
            continue;
        if (eos) {
            end_of_stream(c);
            waiting_since = ts_now();
            continue;
        }
        double idle = ts_now() - waiting_since;
        if (idle > c->cfg.watchdog) {
            char why[64];
            snprintf(why, sizeof why, "no frame for %.1f s", idle);
            fault(c, why);
        }
    }
    teardown(c);
    return NULL;
}

/* ---- Public ------------------------------------------------------------- */

int ts_capture_finished(ts_capture_state s)
{
    return s == TS_CAP_ENDED || s == TS_CAP_FAILED || s == TS_CAP_STOPPED;
}

ts_capture *ts_capture_create(const ts_capture_config *cfg, char *err, size_t errlen)
{
    GError *ge = NULL;
    if (!gst_init_check(NULL, NULL, &ge)) {
        snprintf(err, errlen, "GStreamer: %s", ge ? ge->message : "cannot initialise");
        g_clear_error(&ge);
        return NULL;
    }
    ts_capture *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->cfg = *cfg;
    if (c->cfg.watchdog <= 0)
        c->cfg.watchdog = 3;
    if (c->cfg.max_backoff <= 0)
        c->cfg.max_backoff = 5;
    c->backoff = first_backoff(c);
    if (ts_capture_plan(&c->cfg, &c->plan, err, errlen) < 0) {
        free(c);
        return NULL;
    }
    c->cfg.source = NULL; /* borrowed; the plan holds what is needed */
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    snprintf(c->st.label, sizeof c->st.label, "%s", c->plan.label);
    c->st.since = ts_now();

    /* Start once here so a bad description or a missing file is an error now;
     * a camera that is not there yet is retried by the thread. */
    char why[256];
    if (build(c, why, sizeof why) < 0) {
        if (!c->plan.live) {
            snprintf(err, errlen, "%s: %s", c->plan.label, why);
            ts_capture_destroy(c);
            return NULL;
        }
        fault(c, why);
    }
    if (pthread_create(&c->thread, NULL, capture_thread, c) != 0) {
        snprintf(err, errlen, "cannot start the capture thread");
        ts_capture_destroy(c);
        return NULL;
    }
    c->started = 1;
    return c;
}

void ts_capture_stop(ts_capture *c)
{
    pthread_mutex_lock(&c->mu);
    c->stop = 1;
    if (!ts_capture_finished(c->st.state))
        set_state(c, TS_CAP_STOPPED, NULL);
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

void ts_capture_destroy(ts_capture *c)
{
    if (!c)
        return;
    ts_capture_stop(c);
    if (c->started)
        pthread_join(c->thread, NULL);
    teardown(c);
    ts_frame_release(c->latest ? &c->latest->pub : NULL);
    ts_jpeg_dec_unref(c->jpeg);
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

static ts_frame *next_frame(ts_capture *c, uint64_t after, uint64_t *seen, int timeout_ms,
                            int take)
{
    struct timespec ts = deadline_in(timeout_ms / 1000.0);
    ts_frame *f = NULL;
    pthread_mutex_lock(&c->mu);
    for (;;) {
        if (c->stop)
            break;
        if (c->latest && c->latest->pub.seq > after) { /* a new frame first: it shows both */
            f = frame_ref(c->latest);
            if (take) {
                c->latest_taken = 1;
                pthread_cond_broadcast(&c->cv);
            }
            break;
        }
        if (seen && c->wakes != *seen) {
            *seen = c->wakes;
            break;
        }
        if (ts_capture_finished(c->st.state))
            break;
        if (pthread_cond_timedwait(&c->cv, &c->mu, &ts) == ETIMEDOUT)
            break;
    }
    pthread_mutex_unlock(&c->mu);
    return f;
}

ts_frame *ts_capture_next(ts_capture *c, uint64_t after, int timeout_ms, int take)
{
    return next_frame(c, after, NULL, timeout_ms, take);
}

ts_frame *ts_capture_wait(ts_capture *c, uint64_t after, uint64_t *seen, int timeout_ms)
{
    return next_frame(c, after, seen, timeout_ms, 0);
}

void ts_capture_wake(ts_capture *c)
{
    pthread_mutex_lock(&c->mu);
    c->wakes++;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

ts_frame *ts_capture_latest(ts_capture *c)
{
    pthread_mutex_lock(&c->mu);
    ts_frame *f = c->latest ? frame_ref(c->latest) : NULL;
    pthread_mutex_unlock(&c->mu);
    return f;
}

void ts_capture_get_status(ts_capture *c, ts_capture_status *out)
{
    pthread_mutex_lock(&c->mu);
    *out = c->st;
    pthread_mutex_unlock(&c->mu);
}
