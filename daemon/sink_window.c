/* The window: annotated frames on the X display (works under Xvfb). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink_api.h"
#include "sink_appsrc.h"

typedef struct {
    ts_sink base;
    ts_appsrc_out *out;
} window_sink;

/* The user closing the window is the normal way to quit, not a failure. */
static int closed(int rc, char *err, size_t errlen)
{
    if (rc < 0 && strstr(err, "closed"))
        snprintf(err, errlen, "window closed");
    return rc;
}

static int window_frame(ts_sink *s, const ts_image *img, double t, char *err, size_t errlen)
{
    return closed(ts_appsrc_out_push(((window_sink *)s)->out, img, t, err, errlen), err, errlen);
}

static int window_poll(ts_sink *s, char *err, size_t errlen)
{
    return closed(ts_appsrc_out_poll(((window_sink *)s)->out, err, errlen), err, errlen);
}

static int window_command(ts_sink *s, char *out, size_t cap)
{
    return ts_appsrc_out_key(((window_sink *)s)->out, out, cap);
}

static void window_destroy(ts_sink *s)
{
    ts_appsrc_out_destroy(((window_sink *)s)->out);
    free(s);
}

ts_sink *ts_sink_window_create(const char *title, char *err, size_t errlen)
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
    char tail[128];
    snprintf(tail, sizeof tail, "%s sync=false", video);
    ts_appsrc_out_config cfg = {.what = "window", .tail = tail, .title = title, .live = 1};
    window_sink *s = calloc(1, sizeof *s);
    if (!s || !(s->out = ts_appsrc_out_create(&cfg, err, errlen))) {
        if (!s)
            snprintf(err, errlen, "out of memory");
        free(s);
        return NULL;
    }
    s->base.name = "window";
    s->base.frame = window_frame;
    s->base.poll = window_poll;
    s->base.command = window_command;
    s->base.destroy = window_destroy;
    return &s->base;
}
