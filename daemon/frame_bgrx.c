/* BGR -> BGRx for the window (see frame_bgrx.h). */
#include "frame_bgrx.h"

#include <stdio.h>
#include <stdlib.h>

struct ts_frame_bgrx {
    GstVideoInfo in, out;
    int have_size;
    GstVideoConverter *conv;
    GstBufferPool *pool;
};

ts_frame_bgrx *ts_frame_bgrx_create(void)
{
    return calloc(1, sizeof(ts_frame_bgrx));
}

static void drop_size(ts_frame_bgrx *c)
{
    if (c->conv)
        gst_video_converter_free(c->conv);
    c->conv = NULL;
    if (c->pool) {
        gst_buffer_pool_set_active(c->pool, FALSE);
        gst_object_unref(c->pool);
    }
    c->pool = NULL;
    c->have_size = 0;
}

void ts_frame_bgrx_destroy(ts_frame_bgrx *c)
{
    if (!c)
        return;
    drop_size(c);
    free(c);
}

/* Converter and pool for w x h frames whose rows are stride bytes apart. */
static int set_size(ts_frame_bgrx *c, const ts_image *img)
{
    if (c->have_size && (int)c->in.width == img->w && (int)c->in.height == img->h &&
        (int)GST_VIDEO_INFO_PLANE_STRIDE(&c->in, 0) == img->stride)
        return 0;
    drop_size(c);
    gst_video_info_set_format(&c->in, GST_VIDEO_FORMAT_BGR, (guint)img->w, (guint)img->h);
    GST_VIDEO_INFO_PLANE_STRIDE(&c->in, 0) = img->stride;
    GST_VIDEO_INFO_SIZE(&c->in) = (gsize)img->stride * (gsize)img->h;
    gst_video_info_set_format(&c->out, GST_VIDEO_FORMAT_BGRx, (guint)img->w, (guint)img->h);
    c->conv = gst_video_converter_new(&c->in, &c->out,
                                      gst_structure_new("ts-bgrx", GST_VIDEO_CONVERTER_OPT_THREADS,
                                                        G_TYPE_UINT, 1, NULL));
    c->pool = gst_video_buffer_pool_new();
    GstCaps *caps = gst_video_info_to_caps(&c->out);
    if (!c->conv || !c->pool || !caps) {
        if (caps)
            gst_caps_unref(caps);
        drop_size(c);
        return -1;
    }
    /* Frames on their way: the appsrc queue, drawing, the screen. */
    GstStructure *cfg = gst_buffer_pool_get_config(c->pool);
    gst_buffer_pool_config_set_params(cfg, caps, (guint)GST_VIDEO_INFO_SIZE(&c->out), 2, 0);
    gst_caps_unref(caps);
    if (!gst_buffer_pool_set_config(c->pool, cfg) || !gst_buffer_pool_set_active(c->pool, TRUE)) {
        drop_size(c);
        return -1;
    }
    c->have_size = 1;
    return 0;
}

GstBuffer *ts_frame_bgrx_get(ts_frame_bgrx *c, const ts_image *img, GstVideoInfo *info,
                             char *err, size_t errlen)
{
    if (img->channels != 3 || set_size(c, img) < 0) {
        snprintf(err, errlen, "window: cannot convert a %dx%d frame for display", img->w, img->h);
        return NULL;
    }
    *info = c->out;
    GstBuffer *in = gst_buffer_new_wrapped_full(GST_MEMORY_FLAG_READONLY, img->buf,
                                                GST_VIDEO_INFO_SIZE(&c->in), 0,
                                                GST_VIDEO_INFO_SIZE(&c->in), NULL, NULL);
    GstBuffer *out = NULL;
    GstVideoFrame fin, fout;
    int ok = in && gst_buffer_pool_acquire_buffer(c->pool, &out, NULL) == GST_FLOW_OK;
    if (ok && gst_video_frame_map(&fin, &c->in, in, GST_MAP_READ)) {
        if (gst_video_frame_map(&fout, &c->out, out, GST_MAP_WRITE)) {
            gst_video_converter_frame(c->conv, &fin, &fout);
            gst_video_frame_unmap(&fout);
        } else {
            ok = 0;
        }
        gst_video_frame_unmap(&fin);
    } else {
        ok = 0;
    }
    if (in)
        gst_buffer_unref(in);
    if (!ok) {
        if (out)
            gst_buffer_unref(out);
        snprintf(err, errlen, "window: out of memory converting a frame for display");
        return NULL;
    }
    return out;
}
