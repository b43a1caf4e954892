/* The recording: the annotated video in a file, MJPEG in Matroska or AVI, or
 * H.264 in MP4 when an encoder is installed. */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

#include "sink_api.h"
#include "sink_appsrc.h"

/* Smaller video is recorded scaled up (640x360 as 1280x720), its overlay
 * drawn at that size: a recording is watched on a screen, as the window is. */
enum { LEGIBLE_H = 720 };

typedef struct {
    ts_sink base;
    ts_appsrc_out *out;
    ts_image canvas; /* the annotated copy */
} record_sink;

static int record_frame(ts_sink *s, const ts_image *img, double t, char *err, size_t errlen)
{
    return ts_appsrc_out_push(((record_sink *)s)->out, img, t, err, errlen);
}

static int record_video(ts_sink *base, const ts_image *img, ts_frame *keep,
                        const ts_overlay_list *ov, double t, char *err, size_t errlen)
{
    (void)keep;
    record_sink *s = (record_sink *)base;
    if (ts_overlay_annotate(&s->canvas, img, ov, LEGIBLE_H, 1) < 0) {
        snprintf(err, errlen, "record: out of memory");
        return -1;
    }
    return record_frame(base, &s->canvas, t, err, errlen);
}

static int record_poll(ts_sink *s, char *err, size_t errlen)
{
    return ts_appsrc_out_poll(((record_sink *)s)->out, err, errlen);
}

static void record_destroy(ts_sink *s)
{
    ts_appsrc_out_destroy(((record_sink *)s)->out);
    ts_image_free(&((record_sink *)s)->canvas);
    free(s);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

ts_sink *ts_sink_record_create(const char *path, char *err, size_t errlen)
{
    const char *tail;
    if (ends_with(path, ".mkv")) {
        tail = "jpegenc quality=85 ! matroskamux ! filesink name=file";
    } else if (ends_with(path, ".avi")) {
        /* AVI has one frame rate for the whole file and avimux refuses the
         * variable rate (0/1) of live frames: videorate makes it a steady 15
         * fps by capture times, repeating a frame over camera jitter but not
         * over a gap longer than 0.5 s (a stall, a slow --fast file), where
         * repeats would only cost encoding time and disk. */
        tail = "videorate max-duplication-time=500000000 ! video/x-raw,framerate=15/1 ! "
               "jpegenc quality=85 ! avimux ! filesink name=file";
    } else if (ends_with(path, ".mp4")) {
        if (!ts_gst_has("x264enc")) {
            snprintf(err, errlen, "record: .mp4 needs x264enc (gstreamer1.0-plugins-ugly); use .mkv");
            return NULL;
        }
        tail = "video/x-raw,format=I420 ! x264enc tune=zerolatency speed-preset=veryfast ! "
               "mp4mux ! filesink name=file";
    } else {
        snprintf(err, errlen, "record: %s: use a .mkv, .avi or .mp4 name", path);
        return NULL;
    }
    ts_appsrc_out_config cfg = {.what = "record", .tail = tail, .file = path, .fixed_size = 1};
    record_sink *s = calloc(1, sizeof *s);
    if (!s || !(s->out = ts_appsrc_out_create(&cfg, err, errlen))) {
        if (!s)
            snprintf(err, errlen, "out of memory");
        free(s);
        return NULL;
    }
    s->base.name = "record";
    s->base.frame = record_frame;
    s->base.video = record_video;
    s->base.poll = record_poll;
    s->base.destroy = record_destroy;
    return &s->base;
}
