/* appsrc -> videoconvert -> tail (see sink_appsrc.h). */
#include "sink_appsrc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/video/navigation.h>
#include <gst/video/video.h>

enum { FINISH_TIMEOUT_S = 30, MAX_KEYS = 16 }; /* longest wait for a muxer to finish a file */

struct ts_appsrc_out {
    ts_appsrc_out_config cfg;
    GstElement *pipe;
    GstAppSrc *src;
    GstElement *size; /* the fixed-size capsfilter, or NULL */
    GstBus *bus;
    GstVideoInfo info; /* of the frames going in */
    int have_info;
    double t0;         /* the first frame's time: PTS 0 */
    GstClockTime last_pts;
    unsigned long pushed;
    char failed[256];  /* set once the pipeline failed */
    GMutex keys_mu;    /* keys pressed in the window (a GStreamer thread adds them) */
    char keys[MAX_KEYS][16];
    int nkeys;
};

/* Upstream navigation events from the video sink: key presses are queued. */
static GstPadProbeReturn on_upstream(GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
    (void)pad;
    ts_appsrc_out *o = data;
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT(info);
    const gchar *key = NULL;
    if (ev && GST_EVENT_TYPE(ev) == GST_EVENT_NAVIGATION &&
        gst_navigation_event_get_type(ev) == GST_NAVIGATION_EVENT_KEY_PRESS &&
        gst_navigation_event_parse_key_event(ev, &key) && key) {
        g_mutex_lock(&o->keys_mu);
        if (o->nkeys < MAX_KEYS)
            snprintf(o->keys[o->nkeys++], sizeof o->keys[0], "%s", key);
        g_mutex_unlock(&o->keys_mu);
    }
    return GST_PAD_PROBE_OK;
}

int ts_appsrc_out_key(ts_appsrc_out *o, char *out, size_t cap)
{
    g_mutex_lock(&o->keys_mu);
    int got = o->nkeys > 0;
    if (got) {
        snprintf(out, cap, "%s", o->keys[0]);
        memmove(o->keys[0], o->keys[1], sizeof o->keys[0] * (size_t)(--o->nkeys));
    }
    g_mutex_unlock(&o->keys_mu);
    return got;
}

int ts_gst_has(const char *factory)
{
    GstElementFactory *f = gst_element_factory_find(factory);
    if (f)
        gst_object_unref(f);
    return f != NULL;
}

/* Pops errors; remembers the first. */
static void read_bus(ts_appsrc_out *o)
{
    GstMessage *m;
    while ((m = gst_bus_pop_filtered(o->bus, GST_MESSAGE_ERROR))) {
        GError *ge = NULL;
        gst_message_parse_error(m, &ge, NULL);
        if (!o->failed[0])
            snprintf(o->failed, sizeof o->failed, "%s", ge ? ge->message : "pipeline error");
        g_clear_error(&ge);
        gst_message_unref(m);
    }
}

ts_appsrc_out *ts_appsrc_out_create(const ts_appsrc_out_config *cfg, char *err, size_t errlen)
{
    GError *ge = NULL;
    if (!gst_init_check(NULL, NULL, &ge)) {
        snprintf(err, errlen, "GStreamer: %s", ge ? ge->message : "cannot initialise");
        g_clear_error(&ge);
        return NULL;
    }
    ts_appsrc_out *o = calloc(1, sizeof *o);
    if (!o) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    o->cfg = *cfg;
    char desc[1024];
    snprintf(desc, sizeof desc, "appsrc name=src ! videoconvert name=conv ! %s%s", cfg->fixed_size ?
             "videoscale ! capsfilter name=size ! videoconvert ! " : "", cfg->tail);
    o->pipe = gst_parse_launch_full(desc, NULL, GST_PARSE_FLAG_FATAL_ERRORS, &ge);
    if (!o->pipe) {
        snprintf(err, errlen, "%s: %s", cfg->what, ge ? ge->message : "bad pipeline");
        g_clear_error(&ge);
        free(o);
        return NULL;
    }
    o->src = GST_APP_SRC(gst_bin_get_by_name(GST_BIN(o->pipe), "src"));
    g_mutex_init(&o->keys_mu);
    GstPad *srcpad = gst_element_get_static_pad(GST_ELEMENT(o->src), "src");
    if (srcpad) {
        gst_pad_add_probe(srcpad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, on_upstream, o, NULL);
        gst_object_unref(srcpad);
    }
    o->size = cfg->fixed_size ? gst_bin_get_by_name(GST_BIN(o->pipe), "size") : NULL;
    o->bus = gst_element_get_bus(o->pipe);
    if (cfg->file) {
        GstElement *f = gst_bin_get_by_name(GST_BIN(o->pipe), "file");
        if (f) {
            g_object_set(f, "location", cfg->file, NULL);
            gst_object_unref(f);
        }
    }
    g_object_set(o->src, "format", GST_FORMAT_TIME, "is-live", cfg->live, "block", FALSE,
                 "max-buffers", (guint64)(cfg->newest ? 1 : 2), NULL);
    gst_util_set_object_arg(G_OBJECT(o->src), "leaky-type", "downstream");
    if (gst_element_set_state(o->pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        read_bus(o);
        snprintf(err, errlen, "%s: %s", cfg->what, o->failed[0] ? o->failed : "would not start");
        ts_appsrc_out_destroy(o);
        return NULL;
    }
    return o;
}

/* (Re)describes the frames going in when their format or size changes. */
static int set_caps(ts_appsrc_out *o, GstVideoFormat format, int w, int h)
{
    if (o->have_info && GST_VIDEO_INFO_FORMAT(&o->info) == format && (int)o->info.width == w &&
        (int)o->info.height == h)
        return 0;
    gst_video_info_set_format(&o->info, format, (guint)w, (guint)h);
    o->info.fps_n = 0; /* variable frame rate: frames come as captured */
    o->info.fps_d = 1;
    GstCaps *caps = gst_video_info_to_caps(&o->info);
    if (!caps)
        return -1;
    if (o->size && !o->have_info) {
        GstCaps *fixed = gst_caps_new_simple("video/x-raw", "width", G_TYPE_INT, w, "height",
                                             G_TYPE_INT, h, NULL);
        g_object_set(o->size, "caps", fixed, NULL);
        gst_caps_unref(fixed);
    }
    gst_app_src_set_caps(o->src, caps);
    gst_caps_unref(caps);
    if (!o->have_info && o->cfg.title)
        gst_element_send_event(GST_ELEMENT(o->src),
                               gst_event_new_tag(gst_tag_list_new(GST_TAG_TITLE, o->cfg.title, NULL)));
    o->have_info = 1;
    return 0;
}

/* Stamps buf with its capture time and pushes it (takes buf). */
static int push(ts_appsrc_out *o, GstBuffer *buf, double t, char *err, size_t errlen);

int ts_appsrc_out_push(ts_appsrc_out *o, const ts_image *img, double t, char *err, size_t errlen)
{
    if (ts_appsrc_out_poll(o, err, errlen) < 0)
        return -1;
    if (img->channels != 3 || set_caps(o, GST_VIDEO_FORMAT_BGR, img->w, img->h) < 0) {
        snprintf(err, errlen, "%s: cannot describe a %dx%d frame", o->cfg.what, img->w, img->h);
        return -1;
    }
    size_t row = (size_t)img->w * 3, stride = (size_t)GST_VIDEO_INFO_PLANE_STRIDE(&o->info, 0);
    GstBuffer *buf = gst_buffer_new_allocate(NULL, GST_VIDEO_INFO_SIZE(&o->info), NULL);
    GstMapInfo map;
    if (!buf || !gst_buffer_map(buf, &map, GST_MAP_WRITE)) {
        if (buf)
            gst_buffer_unref(buf);
        snprintf(err, errlen, "%s: out of memory", o->cfg.what);
        return -1;
    }
    for (int y = 0; y < img->h; y++)
        memcpy(map.data + (size_t)y * stride, ts_image_row(img, y), row);
    gst_buffer_unmap(buf, &map);
    return push(o, buf, t, err, errlen);
}

int ts_appsrc_out_push_buffer(ts_appsrc_out *o, GstBuffer *buf, const GstVideoInfo *info,
                              double t, char *err, size_t errlen)
{
    if (ts_appsrc_out_poll(o, err, errlen) < 0 ||
        set_caps(o, GST_VIDEO_INFO_FORMAT(info), (int)info->width, (int)info->height) < 0) {
        if (!o->failed[0])
            snprintf(err, errlen, "%s: cannot describe a %dx%d frame", o->cfg.what,
                     (int)info->width, (int)info->height);
        gst_buffer_unref(buf);
        return -1;
    }
    return push(o, buf, t, err, errlen);
}

static int push(ts_appsrc_out *o, GstBuffer *buf, double t, char *err, size_t errlen)
{
    if (o->pushed++ == 0)
        o->t0 = t;
    GstClockTime pts = t > o->t0 ? (GstClockTime)((t - o->t0) * 1e9) : 0;
    if (o->pushed > 1 && pts <= o->last_pts) /* must grow, even for a re-shown frame */
        pts = o->last_pts + GST_MSECOND;
    o->last_pts = pts;
    GST_BUFFER_PTS(buf) = pts;
    if (gst_app_src_push_buffer(o->src, buf) != GST_FLOW_OK) {
        read_bus(o);
        snprintf(err, errlen, "%s: %s", o->cfg.what, o->failed[0] ? o->failed : "stream stopped");
        return -1;
    }
    return 0;
}

int ts_appsrc_out_poll(ts_appsrc_out *o, char *err, size_t errlen)
{
    read_bus(o);
    if (!o->failed[0])
        return 0;
    snprintf(err, errlen, "%s: %s", o->cfg.what, o->failed);
    return -1;
}

double ts_appsrc_out_time(const ts_appsrc_out *o, GstClockTime pts)
{
    return o->t0 + (double)pts / 1e9;
}

GstElement *ts_appsrc_out_element(ts_appsrc_out *o, const char *name)
{
    return gst_bin_get_by_name(GST_BIN(o->pipe), name);
}

void ts_appsrc_out_destroy(ts_appsrc_out *o)
{
    if (!o)
        return;
    if (o->have_info && !o->failed[0]) {
        /* Let muxers write their index: EOS through, then wait for it. */
        gst_app_src_end_of_stream(o->src);
        GstMessage *m = gst_bus_timed_pop_filtered(o->bus, (GstClockTime)FINISH_TIMEOUT_S * GST_SECOND,
                                                   GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
        if (m)
            gst_message_unref(m);
    }
    gst_element_set_state(o->pipe, GST_STATE_NULL);
    if (o->size)
        gst_object_unref(o->size);
    gst_object_unref(o->src);
    gst_object_unref(o->bus);
    gst_object_unref(o->pipe);
    g_mutex_clear(&o->keys_mu);
    free(o);
}
