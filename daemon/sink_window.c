/* The window: the video with its overlay on the X display (works under Xvfb).
 *
 *   appsrc (BGRx) ! videoconvert ! videoscale ! capsfilter name=winsize (BGRx)
 *          ! cairooverlay name=ov ! videoconvert ! ximagesink name=win
 *
 * Frames are converted to BGRx here (frame_bgrx.h), and the overlay's draw
 * list is drawn by cairooverlay on the scaled video, at the size shown: text
 * is sized for the screen, not for the source. The capsfilter sets the size
 * shown: the video's own, a whole multiple of it when the video is small and the screen has room (a 640x360 clip is shown
 * at 1280x720, so its text is twice as tall), or the screen's in fullscreen
 * (aspect kept, black bars). Keys come back from the video sink as navigation
 * events (sink_appsrc queues them): F11 fullscreen, q / Esc quit, any other
 * key is a command for the run (the game's keys). The screen's size and the
 * fullscreen request to the window manager go through our own Xlib
 * connection, used on the display thread only.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <gst/video/videooverlay.h>

#include "frame_bgrx.h"
#include "overlay_cairo.h"
#include "sink_api.h"
#include "sink_appsrc.h"

enum {
    LEGIBLE_W = 1280, /* video narrower than this is scaled up ... */
    MAX_SCALE = 4,    /* ... by a whole factor up to this, if the screen has room */
};

typedef struct {
    ts_sink base;
    ts_appsrc_out *out;
    GstElement *size;   /* the capsfilter that sets the shown size */
    Display *x;         /* our own connection: screen size, fullscreen; may be NULL */
    int screen_w, screen_h;
    int video_w, video_h; /* of the frames coming in */
    int shown_w, shown_h; /* size last set on the capsfilter */
    int fullscreen;
    atomic_ulong xid; /* the video sink's window (from its bus message) */
    int quit_key;     /* q or Esc pressed */
    /* The draw list, triple-buffered so that neither thread ever waits for
     * the other's work: the display thread fills ov_build, then swaps it with
     * ov_next; the draw callback swaps ov_next with ov_draw when it is fresh
     * and draws ov_draw without the lock (a draw at 1080p takes ~3 ms of CPU,
     * far longer on a loaded host, and the display thread used to wait for
     * it: seen in --trace as the hand-over taking up to 96 ms with no CPU). */
    GMutex ov_mu;             /* guards ov_next, ov_fresh, drawn_t: swaps only */
    ts_overlay_list ov_build; /* display thread's */
    ts_overlay_list ov_next;
    int ov_fresh;             /* ov_next is newer than ov_draw */
    ts_overlay_list ov_draw;  /* draw callback's */
    double drawn_t;           /* capture time of the frame last drawn on */
    double pushed_t;          /* display thread: capture time of the frame last pushed */
    uint64_t pushed_seq;      /* ... and its capture seq (0: not a capture frame) */
    ts_frame_bgrx *bgrx; /* converts frames for the window */
    GstBuffer *ready;    /* a frame converted ahead (prepare), for capture seq ready_seq */
    uint64_t ready_seq;
    GstVideoInfo ready_info; /* describes the buffers converted */
    GstElement *cairo;
    GstElement *win;    /* the video sink (its window is resized under it) */
    ts_stats *stats;  /* borrowed; NULL = no figures */
    ts_trace *trace;  /* borrowed; NULL = no per-frame stamps */
    guint64 last_pts; /* cairooverlay's thread: the last frame drawn on */
    double last_stamp; /* ... and the results last drawn */
} window_sink;

/* ---- The overlay (cairooverlay's streaming thread) ------------------------ */

static void on_draw(GstElement *ov, cairo_t *cr, guint64 ts, guint64 dur, gpointer data)
{
    (void)ov, (void)dur;
    window_sink *s = data;
    cairo_surface_t *target = cairo_get_target(cr);
    int w = cairo_image_surface_get_width(target), h = cairo_image_surface_get_height(target);
    ts_trace_mark m;
    ts_trace_mark_now(s->trace, &m);
    double t_frame = ts_appsrc_out_time(s->out, ts);
    g_mutex_lock(&s->ov_mu);
    if (s->ov_fresh) {
        ts_overlay_list tmp = s->ov_draw;
        s->ov_draw = s->ov_next;
        s->ov_next = tmp;
        s->ov_fresh = 0;
    }
    s->drawn_t = t_frame;
    g_mutex_unlock(&s->ov_mu);
    if (s->ov_draw.n > 0)
        ts_overlay_render_cairo(cr, w, h, &s->ov_draw);
    double stamp = s->ov_draw.stamp;
    ts_trace_stage(s->trace, "draw", 0, t_frame, &m, stamp);
    if (!s->stats)
        return;
    double now = ts_now();
    /* A frame shown again with newer results has its PTS bumped by 1 ms
     * (sink_appsrc): only a real step forward is a new frame. */
    if (ts > s->last_pts + 2 * GST_MSECOND || s->last_pts == 0)
        ts_stats_add(s->stats, TS_ST_WIN_FRAME, (now - ts_appsrc_out_time(s->out, ts)) * 1e3);
    s->last_pts = ts;
    if (stamp > 0 && stamp != s->last_stamp)
        ts_stats_add(s->stats, TS_ST_WIN_HINTS, (now - stamp) * 1e3);
    s->last_stamp = stamp;
}

/* ---- Trace stamps (streaming threads; only with --trace) ------------------ */

/* A frame entering the window's conversion ("wconv": it left the appsrc
 * queue) or reaching the video sink ("wsink": drawn on, about to be put on
 * the screen). The stage's name is the probe's user data. */
static GstPadProbeReturn on_trace_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
    (void)pad;
    window_sink *s = g_object_get_data(G_OBJECT(pad), "ts-window");
    GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER(info);
    if (s && b && GST_BUFFER_PTS_IS_VALID(b))
        ts_trace_stage(s->trace, data, 0, ts_appsrc_out_time(s->out, GST_BUFFER_PTS(b)), NULL, 0);
    return GST_PAD_PROBE_OK;
}

static void trace_pad(window_sink *s, const char *element, const char *stage)
{
    GstElement *e = ts_appsrc_out_element(s->out, element);
    GstPad *pad = e ? gst_element_get_static_pad(e, "sink") : NULL;
    if (pad) {
        g_object_set_data(G_OBJECT(pad), "ts-window", s);
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_trace_probe, (gpointer)stage, NULL);
        gst_object_unref(pad);
    }
    if (e)
        gst_object_unref(e);
}

/* ---- The window id (a GStreamer thread) --------------------------------- */

static GstBusSyncReply on_bus_message(GstBus *bus, GstMessage *m, gpointer data)
{
    (void)bus;
    window_sink *s = data;
    const GstStructure *st = GST_MESSAGE_TYPE(m) == GST_MESSAGE_ELEMENT ? gst_message_get_structure(m)
                                                                       : NULL;
    guint64 handle = 0;
    if (st && gst_structure_has_name(st, "have-window-handle") &&
        gst_structure_get_uint64(st, "window-handle", &handle))
        atomic_store(&s->xid, (unsigned long)handle);
    return GST_BUS_PASS;
}

/* ---- Size and fullscreen (display thread) -------------------------------- */

/* The size to show video_w x video_h at, outside fullscreen. */
static void legible_size(const window_sink *s, int *w, int *h)
{
    int k = 1;
    if (s->video_w < LEGIBLE_W) {
        k = (LEGIBLE_W + s->video_w - 1) / s->video_w;
        if (k > MAX_SCALE)
            k = MAX_SCALE;
        /* Leave room for a title bar and panels. */
        while (k > 1 && s->screen_w > 0 &&
               (k * s->video_w > s->screen_w * 9 / 10 || k * s->video_h > s->screen_h * 9 / 10))
            k--;
    }
    *w = k * s->video_w;
    *h = k * s->video_h;
}

static void set_shown_size(window_sink *s, int w, int h)
{
    if (w == s->shown_w && h == s->shown_h)
        return;
    GstCaps *caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, "BGRx", "width",
                                        G_TYPE_INT, w, "height", G_TYPE_INT, h,
                                        "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL);
    g_object_set(s->size, "caps", caps, NULL);
    gst_caps_unref(caps);
    s->shown_w = w, s->shown_h = h;
}

/* Asks the window manager for (or out of) fullscreen, and places the window
 * itself too, for a display without one (Xvfb). */
static void x_fullscreen(window_sink *s, int on, int w, int h)
{
    Window win = (Window)atomic_load(&s->xid);
    if (!s->x || !win)
        return;
    XEvent e;
    memset(&e, 0, sizeof e);
    e.xclient.type = ClientMessage;
    e.xclient.window = win;
    e.xclient.message_type = XInternAtom(s->x, "_NET_WM_STATE", False);
    e.xclient.format = 32;
    e.xclient.data.l[0] = on ? 1 : 0; /* _NET_WM_STATE_ADD / _REMOVE */
    e.xclient.data.l[1] = (long)XInternAtom(s->x, "_NET_WM_STATE_FULLSCREEN", False);
    e.xclient.data.l[3] = 1; /* from a normal application */
    XSendEvent(s->x, DefaultRootWindow(s->x), False,
               SubstructureRedirectMask | SubstructureNotifyMask, &e);
    if (on)
        XMoveResizeWindow(s->x, win, 0, 0, (unsigned)w, (unsigned)h);
    else
        XResizeWindow(s->x, win, (unsigned)w, (unsigned)h);
    /* The X sink learns its window's size from ConfigureNotify, which its
     * event loop can swallow (seen: frames kept drawn into the old size's
     * corner). Once the server has the new size, an expose makes the sink
     * read the geometry itself. */
    XSync(s->x, False);
    if (s->win && GST_IS_VIDEO_OVERLAY(s->win))
        gst_video_overlay_expose(GST_VIDEO_OVERLAY(s->win));
}

static void apply_size(window_sink *s)
{
    int w, h;
    if (s->fullscreen && s->screen_w > 0) {
        w = s->screen_w, h = s->screen_h;
    } else {
        legible_size(s, &w, &h);
    }
    int was = s->shown_w;
    set_shown_size(s, w, h);
    if (was && (w != was || s->fullscreen))
        x_fullscreen(s, s->fullscreen, w, h);
}

/* ---- The sink ------------------------------------------------------------ */

/* The user closing the window is the normal way to quit, not a failure. */
static int closed(int rc, char *err, size_t errlen)
{
    if (rc < 0 && strstr(err, "closed"))
        snprintf(err, errlen, "window closed");
    return rc;
}

static int window_poll(ts_sink *base, char *err, size_t errlen)
{
    window_sink *s = (window_sink *)base;
    if (s->quit_key) {
        snprintf(err, errlen, "window closed (quit key)");
        return -1;
    }
    /* Fullscreen asked for at start: once the sink's window exists. */
    static const int PLACED = 2;
    if (s->fullscreen == 1 && atomic_load(&s->xid) && s->shown_w) {
        x_fullscreen(s, 1, s->shown_w, s->shown_h);
        s->fullscreen = PLACED;
    }
    return closed(ts_appsrc_out_poll(s->out, err, errlen), err, errlen);
}

/* The frame as BGRx for the screen (a new buffer), stamped in the trace. */
static GstBuffer *convert(window_sink *s, const ts_image *img, const ts_frame *keep, double t,
                          char *err, size_t errlen)
{
    ts_trace_mark m;
    ts_trace_mark_now(s->trace, &m);
    GstBuffer *buf = ts_frame_bgrx_get(s->bgrx, img, &s->ready_info, err, errlen);
    ts_trace_stage(s->trace, "bgrx", keep ? keep->seq : 0, t, &m, 0);
    return buf;
}

/* Converted while vision reads the frame: showing it with its hints is then
 * only the draw. */
static int window_prepare(ts_sink *base, const ts_image *img, ts_frame *keep, char *err,
                          size_t errlen)
{
    window_sink *s = (window_sink *)base;
    if (s->ready)
        gst_buffer_unref(s->ready);
    s->ready = convert(s, img, keep, keep->t, err, errlen);
    s->ready_seq = keep->seq;
    return s->ready ? 0 : -1;
}

static int window_video(ts_sink *base, const ts_image *img, ts_frame *keep,
                        const ts_overlay_list *ov, double t, char *err, size_t errlen)
{
    window_sink *s = (window_sink *)base;
    if (img->w != s->video_w || img->h != s->video_h) {
        s->video_w = img->w, s->video_h = img->h;
        apply_size(s);
    }
    if (window_poll(base, err, errlen) < 0)
        return -1;
    ts_trace_mark m;
    ts_trace_mark_now(s->trace, &m);
    if (ts_overlay_list_copy(&s->ov_build, ov) < 0) {
        snprintf(err, errlen, "window: out of memory");
        return -1;
    }
    g_mutex_lock(&s->ov_mu);
    ts_overlay_list tmp = s->ov_next;
    s->ov_next = s->ov_build;
    s->ov_build = tmp;
    s->ov_fresh = 1;
    /* A frame pushed and not drawn on yet is still on its way. */
    int in_flight = s->pushed_t > s->drawn_t + 1e-4;
    g_mutex_unlock(&s->ov_mu);
    ts_trace_stage(s->trace, "ovcopy", keep ? keep->seq : 0, t, &m, 0);
    /* The same frame again, for newer results: the frame on its way draws
     * them (the draw takes the newest list), sooner than this one would, and
     * without converting it again or dropping a newer frame queued. */
    if (keep && keep->seq == s->pushed_seq && in_flight)
        return 0;
    GstBuffer *buf = s->ready;
    s->ready = NULL;
    if (!buf || !keep || keep->seq != s->ready_seq) { /* not prepared: convert it now */
        if (buf)
            gst_buffer_unref(buf);
        if (!(buf = convert(s, img, keep, t, err, errlen)))
            return -1;
    }
    ts_trace_mark_now(s->trace, &m);
    int rc = ts_appsrc_out_push_buffer(s->out, buf, &s->ready_info, t, err, errlen);
    if (rc == 0) {
        s->pushed_t = t;
        s->pushed_seq = keep ? keep->seq : 0;
    }
    ts_trace_stage(s->trace, "push", keep ? keep->seq : 0, t, &m, 0);
    return closed(rc, err, errlen);
}

/* Keys pressed in the window (queued by sink_appsrc): the window's own
 * (F11 fullscreen, q and Esc quit) are handled here, the rest go to the run
 * as commands (the game's keys: h, p, r, f, ...). */
static int window_command(ts_sink *base, char *out, size_t cap)
{
    window_sink *s = (window_sink *)base;
    while (ts_appsrc_out_key(s->out, out, cap)) {
        if (strcmp(out, "q") == 0 || strcmp(out, "Q") == 0 || strcmp(out, "Escape") == 0) {
            s->quit_key = 1;
        } else if (strcmp(out, "F11") == 0) {
            if (s->video_w > 0) {
                s->fullscreen = !s->fullscreen;
                apply_size(s);
            }
        } else {
            return 1;
        }
    }
    return 0;
}

static void window_destroy(ts_sink *base)
{
    window_sink *s = (window_sink *)base;
    ts_appsrc_out_destroy(s->out);
    if (s->ready)
        gst_buffer_unref(s->ready);
    ts_frame_bgrx_destroy(s->bgrx);
    if (s->size)
        gst_object_unref(s->size);
    if (s->cairo)
        gst_object_unref(s->cairo);
    if (s->win)
        gst_object_unref(s->win);
    ts_overlay_list_free(&s->ov_build);
    ts_overlay_list_free(&s->ov_next);
    ts_overlay_list_free(&s->ov_draw);
    g_mutex_clear(&s->ov_mu);
    if (s->x)
        XCloseDisplay(s->x);
    free(s);
}

ts_sink *ts_sink_window_create(const char *title, int fullscreen, ts_stats *stats,
                               ts_trace *trace, char *err, size_t errlen)
{
    const char *x11 = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
    if ((!x11 || !*x11) && (!wl || !*wl)) {
        snprintf(err, errlen, "window: no display (DISPLAY is not set); use --headless");
        return NULL;
    }
    /* Plain X first: it works everywhere X does, Xvfb included. Never let
     * autovideosink fall back to a text-mode sink on the terminal. */
    static const char *SINKS[] = {"ximagesink", "xvimagesink", "glimagesink", "waylandsink"};
    const char *video = NULL;
    for (size_t i = 0; i < sizeof SINKS / sizeof SINKS[0] && !video; i++)
        if (ts_gst_has(SINKS[i]) && (strcmp(SINKS[i], "waylandsink") == 0 ? wl && *wl : x11 && *x11))
            video = SINKS[i];
    if (!video) {
        snprintf(err, errlen, "window: no X video sink installed (gstreamer1.0-x); use --headless");
        return NULL;
    }
    if (!ts_gst_has("cairooverlay")) {
        snprintf(err, errlen, "window: cairooverlay is not installed (gstreamer1.0-plugins-good); "
                              "use --headless");
        return NULL;
    }
    window_sink *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g_mutex_init(&s->ov_mu);
    s->stats = stats;
    s->trace = trace;
    ts_overlay_list_init(&s->ov_build);
    ts_overlay_list_init(&s->ov_next);
    ts_overlay_list_init(&s->ov_draw);
    s->fullscreen = fullscreen ? 1 : 0;
    if (x11 && *x11 && (s->x = XOpenDisplay(NULL))) {
        s->screen_w = DisplayWidth(s->x, DefaultScreen(s->x));
        s->screen_h = DisplayHeight(s->x, DefaultScreen(s->x));
    }
    char tail[256];
    snprintf(tail, sizeof tail,
             "videoscale ! capsfilter name=winsize caps=video/x-raw,format=BGRx ! "
             "cairooverlay name=ov ! videoconvert ! %s name=win sync=false", video);
    ts_appsrc_out_config cfg = {.what = "window", .tail = tail, .title = title, .live = 1,
                                .newest = 1};
    if (!(s->out = ts_appsrc_out_create(&cfg, err, errlen))) {
        window_destroy(&s->base);
        return NULL;
    }
    s->size = ts_appsrc_out_element(s->out, "winsize");
    if (!(s->bgrx = ts_frame_bgrx_create())) {
        snprintf(err, errlen, "out of memory");
        window_destroy(&s->base);
        return NULL;
    }
    if (s->trace) {
        trace_pad(s, "conv", "wconv");
        trace_pad(s, "win", "wsink");
    }
    if ((s->cairo = ts_appsrc_out_element(s->out, "ov")))
        g_signal_connect(s->cairo, "draw", G_CALLBACK(on_draw), s);
    GstElement *win = s->win = ts_appsrc_out_element(s->out, "win");
    if (win) {
        /* The pipeline's bus (a child's bus is its bin's own relay). */
        GstObject *pipe = gst_element_get_parent(win);
        GstBus *bus = pipe ? gst_element_get_bus(GST_ELEMENT(pipe)) : NULL;
        if (bus) {
            gst_bus_set_sync_handler(bus, on_bus_message, s, NULL);
            gst_object_unref(bus);
        }
        if (pipe)
            gst_object_unref(pipe);
    }
    s->base.name = "window";
    s->base.video = window_video;
    s->base.prepare = window_prepare;
    s->base.poll = window_poll;
    s->base.command = window_command;
    s->base.destroy = window_destroy;
    return &s->base;
}
