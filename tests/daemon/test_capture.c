/* Capture over real GStreamer pipelines: videotestsrc, a JPEG frame clip made
 * here, a file that ends, sources that error or stall mid-stream. No timing
 * assertions: every wait is "until it happens" with a generous bound. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <gst/gst.h>

#include "capture.h"
#include "imageio.h"
#include "stats.h"

enum { BOUND_S = 60 }; /* longest any wait may take before the test fails */

static char dir[64]; /* the test's scratch directory */

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ts_capture_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(dir);
    return 0;
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* Frames frame_0000.jpg ... of a flat grey whose level encodes the index. */
static void write_clip(int n, int garbage_at)
{
    for (int i = 0; i < n; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/frame_%04d.jpg", dir, i);
        if (i == garbage_at) {
            static const char junk[] = "this is not a JPEG at all, just bytes ......";
            write_file(path, junk, sizeof junk);
            continue;
        }
        ts_image img;
        assert_int_equal(ts_image_alloc(&img, 160, 120, 3), 0);
        memset(img.buf, 20 + 20 * i, (size_t)img.stride * (size_t)img.h);
        uint8_t *jpg = NULL;
        size_t len = 0;
        assert_int_equal(ts_jpeg_encode(&img, 90, &jpg, &len, NULL, 0), 0);
        write_file(path, jpg, len);
        free(jpg);
        ts_image_free(&img);
    }
}

static ts_capture *open_source(const char *source, int fast, int loop)
{
    ts_capture_config cfg = {.source = source, .fast = fast, .loop = loop, .fps = 30,
                             .watchdog = 1.0, .max_backoff = 0.2, .quiet = 1};
    char err[256] = "";
    ts_capture *c = ts_capture_create(&cfg, err, sizeof err);
    if (!c)
        fail_msg("%s: %s", source, err);
    return c;
}

static ts_capture_state state_of(ts_capture *c)
{
    ts_capture_status st;
    ts_capture_get_status(c, &st);
    return st.state;
}

/* Takes frames as vision would until the capture finishes; returns the count.
 * levels[i] gets the grey level of the i-th frame (if levels). */
static int drain(ts_capture *c, int *levels, int max)
{
    int n = 0;
    uint64_t seq = 0;
    double end = ts_now() + BOUND_S;
    while (ts_now() < end) {
        ts_frame *f = ts_capture_next(c, seq, 200, 1);
        if (!f) {
            if (ts_capture_finished(state_of(c)))
                break;
            continue;
        }
        assert_true(f->seq > seq);
        seq = f->seq;
        if (levels && n < max)
            levels[n] = ts_image_row(&f->img, f->img.h / 2)[3 * (f->img.w / 2) + 1];
        n++;
        ts_frame_release(f);
    }
    return n;
}

/* Waits until the capture reaches state s. */
static int wait_state(ts_capture *c, ts_capture_state s)
{
    double end = ts_now() + BOUND_S;
    while (ts_now() < end) {
        if (state_of(c) == s)
            return 1;
        ts_frame_release(ts_capture_next(c, UINT64_MAX - 1, 50, 1));
    }
    return 0;
}

/* ---- Source resolution -------------------------------------------------- */

static void plans_each_kind_of_source(void **state)
{
    (void)state;
    gst_init(NULL, NULL);
    ts_source_plan p;
    char err[256];
    ts_capture_config cfg = {0};

    /* A camera that is not there fails at once, with a message naming it
     * (a camera that was there and goes away is retried while running). */
    cfg.source = "/dev/video97";
    assert_int_equal(ts_capture_plan(&cfg, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "/dev/video97: no such camera"));
    cfg.source = "/dev/null";
    assert_int_equal(ts_capture_plan(&cfg, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "/dev/null: not a video capture device"));

    cfg.source = "rtsp://127.0.0.1:8554/table";
    assert_int_equal(ts_capture_plan(&cfg, &p, err, sizeof err), 0);
    assert_non_null(strstr(p.desc, "uridecodebin"));
    assert_string_equal(p.prop, "uri");
    assert_true(p.live);

    cfg.source = "videotestsrc is-live=true ! video/x-raw,width=640";
    assert_int_equal(ts_capture_plan(&cfg, &p, err, sizeof err), 0);
    assert_non_null(strstr(p.desc, "videotestsrc is-live=true"));
    assert_string_equal(p.location, "");

    write_clip(2, -1);
    char pattern[128];
    snprintf(pattern, sizeof pattern, "%s/frame_%%04d.jpg", dir);
    cfg.source = pattern;
    cfg.fps = 12;
    assert_int_equal(ts_capture_plan(&cfg, &p, err, sizeof err), 0);
    assert_non_null(strstr(p.desc, "multifilesrc"));
    assert_non_null(strstr(p.desc, "framerate=12/1"));
    assert_non_null(strstr(p.desc, "index=0"));
    assert_string_equal(p.location, pattern); /* a property, never pasted in */
    assert_null(strstr(p.desc, dir));

    /* A description with a '%' of its own is a pipeline, not a file pattern
     * (issue 12), and it runs. */
    char desc[256];
    snprintf(desc, sizeof desc,
             "multifilesrc location=%s/frame_%%04d.jpg index=0 caps=image/jpeg,framerate=30/1 "
             "! jpegdec", dir);
    cfg.source = desc;
    assert_int_equal(ts_capture_plan(&cfg, &p, err, sizeof err), 0);
    assert_non_null(strstr(p.desc, "multifilesrc location="));
    assert_string_equal(p.location, "");
    ts_capture_config run = {.source = desc, .fast = 1, .quiet = 1};
    ts_capture *c = ts_capture_create(&run, err, sizeof err);
    if (!c)
        fail_msg("%s", err);
    ts_frame *f = ts_capture_next(c, 0, BOUND_S * 1000, 1);
    assert_non_null(f);
    assert_true(f->img.w > 0);
    ts_frame_release(f);
    ts_capture_destroy(c);

    char photo[128];
    snprintf(photo, sizeof photo, "%s/frame_0001.jpg", dir);
    cfg.source = photo;
    assert_int_equal(ts_capture_plan(&cfg, &p, err, sizeof err), 0);
    assert_true(p.still);
    assert_non_null(strstr(p.desc, "imagefreeze"));
}

static void rejects_what_it_cannot_open(void **state)
{
    (void)state;
    ts_source_plan p;
    char err[256];
    ts_capture_config cfg = {0};
    const char *bad[] = {"/no/such/file.mkv", "nosuchelement ! foo", "frames_%s_%d.jpg",
                         "/tmp/none_%04d.jpg"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cfg.source = bad[i];
        err[0] = '\0';
        assert_int_equal(ts_capture_plan(&cfg, &p, err, sizeof err), -1);
        assert_true(strlen(err) > 0);
        assert_null(strchr(err, '\n'));
    }
    /* A description that names real elements but does not link is refused at create. */
    cfg.source = "videotestsrc ! nosuchelement";
    assert_null(ts_capture_create(&cfg, err, sizeof err));
    assert_true(strlen(err) > 0);
    /* A path with pipeline syntax in it is a file name, not a pipeline. */
    char evil[256];
    snprintf(evil, sizeof evil, "%s/x ! filesink location=%s/pwned", dir, dir);
    cfg.source = evil;
    assert_null(ts_capture_create(&cfg, err, sizeof err));
    char pwned[256];
    snprintf(pwned, sizeof pwned, "%s/pwned", dir);
    assert_int_equal(access(pwned, F_OK), -1);
}

/* ---- Live ---------------------------------------------------------------- */

static void live_test_source_gives_bgr_frames(void **state)
{
    (void)state;
    /* Solid red (ARGB 0xffff0000) must arrive as B,G,R = 0,0,255. */
    ts_capture *c = open_source("videotestsrc is-live=true pattern=solid-color "
                                "foreground-color=0xffff0000 ! video/x-raw,width=320,height=240,"
                                "framerate=30/1",
                                0, 0);
    uint64_t seq = 0;
    for (int i = 0; i < 5; i++) {
        ts_frame *f = ts_capture_next(c, seq, BOUND_S * 1000, 1);
        assert_non_null(f);
        assert_int_equal(f->img.w, 320);
        assert_int_equal(f->img.h, 240);
        assert_int_equal(f->img.channels, 3);
        assert_true(f->img.stride >= 320 * 3);
        const uint8_t *px = ts_image_row(&f->img, 100) + 3 * 50;
        assert_true(px[0] < 10 && px[1] < 10 && px[2] > 245);
        assert_true(f->seq > seq);
        seq = f->seq;
        ts_frame_release(f);
    }
    ts_capture_status st;
    ts_capture_get_status(c, &st);
    assert_int_equal(st.state, TS_CAP_RUNNING);
    assert_true(st.live);
    assert_true(st.captured >= 5);
    ts_capture_destroy(c);
}

static void padded_rows_use_the_negotiated_stride(void **state)
{
    (void)state;
    /* 321 BGR pixels = 963 bytes; GStreamer pads rows to 4 bytes. */
    ts_capture *c = open_source("videotestsrc is-live=true pattern=solid-color "
                                "foreground-color=0xff00ff00 ! video/x-raw,width=321,height=7",
                                0, 0);
    ts_frame *f = ts_capture_next(c, 0, BOUND_S * 1000, 1);
    assert_non_null(f);
    assert_int_equal(f->img.w, 321);
    assert_int_equal(f->img.stride, 964);
    for (int y = 0; y < f->img.h; y++) { /* last pixel of every row is green */
        const uint8_t *px = ts_image_row(&f->img, y) + 3 * 320;
        assert_true(px[0] < 10 && px[1] > 245 && px[2] < 10);
    }
    ts_frame_release(f);
    ts_capture_destroy(c);
}

static void newest_frame_wins_and_slow_vision_drops(void **state)
{
    (void)state;
    ts_capture *c = open_source("videotestsrc is-live=true ! video/x-raw,width=160,height=120,"
                                "framerate=30/1",
                                0, 0);
    uint64_t seq = 0;
    int taken = 0, jumped = 0;
    for (int i = 0; i < 6; i++) {
        ts_frame *f = ts_capture_next(c, seq, BOUND_S * 1000, 1);
        assert_non_null(f);
        jumped += f->seq > seq + 1 && seq > 0;
        seq = f->seq;
        taken++;
        ts_frame_release(f);
        usleep(150 * 1000); /* vision slower than the camera */
    }
    ts_capture_status st;
    ts_capture_get_status(c, &st);
    assert_true(jumped > 0);
    assert_true(st.dropped > 0);
    assert_true(st.captured >= (uint64_t)taken + st.dropped - 1);
    /* A display peek does not count as taken. */
    ts_frame *a = ts_capture_latest(c);
    assert_non_null(a);
    ts_frame_release(a);
    ts_capture_destroy(c);
}

/* The display's wait returns a new frame, or returns at once (no frame)
 * when vision woke it since it last looked, even with no frame due; a wake
 * made before the wait is not lost. */
static void display_wait_is_woken_by_results(void **state)
{
    (void)state;
    ts_capture *c = open_source("videotestsrc is-live=true ! video/x-raw,width=160,height=120,"
                                "framerate=30/1",
                                0, 0);
    uint64_t seen = 0;
    ts_frame *f = ts_capture_wait(c, 0, &seen, BOUND_S * 1000);
    assert_non_null(f);
    assert_int_equal(seen, 0);
    ts_frame_release(f);
    ts_capture_wake(c); /* before the wait: still wakes it */
    assert_null(ts_capture_wait(c, UINT64_MAX, &seen, BOUND_S * 1000));
    assert_int_equal(seen, 1);
    ts_capture_wake(c);
    ts_capture_wake(c);
    assert_null(ts_capture_wait(c, UINT64_MAX, &seen, BOUND_S * 1000));
    assert_int_equal(seen, 3);
    /* Vision's ts_capture_next is not woken: it waits for its frame. */
    ts_capture_wake(c);
    f = ts_capture_next(c, 0, BOUND_S * 1000, 1);
    assert_non_null(f);
    ts_frame_release(f);
    ts_capture_destroy(c);
}

static void frame_outlives_the_capture(void **state)
{
    (void)state;
    ts_capture *c = open_source("videotestsrc is-live=true pattern=solid-color "
                                "foreground-color=0xff0000ff ! video/x-raw,width=64,height=48",
                                0, 0);
    ts_frame *f = ts_capture_next(c, 0, BOUND_S * 1000, 1);
    assert_non_null(f);
    ts_capture_destroy(c);
    const uint8_t *px = ts_image_row(&f->img, 10) + 30;
    assert_true(px[0] > 245 && px[2] < 10); /* blue, still readable */
    ts_frame_release(f);
}

static void live_error_mid_stream_goes_stale_and_recovers(void **state)
{
    (void)state;
    /* identity fails the pipeline after 10 buffers; each rebuild gives 10 more. */
    ts_capture *c = open_source("videotestsrc is-live=true ! video/x-raw,width=160,height=120,"
                                "framerate=30/1 ! identity error-after=10",
                                0, 0);
    assert_true(wait_state(c, TS_CAP_STALE));
    ts_capture_status st;
    ts_capture_get_status(c, &st);
    assert_true(strlen(st.reason) > 0);
    assert_true(wait_state(c, TS_CAP_RUNNING));
    double end = ts_now() + BOUND_S;
    do { /* frames from the rebuilt pipeline */
        ts_frame_release(ts_capture_next(c, UINT64_MAX - 1, 50, 1));
        ts_capture_get_status(c, &st);
    } while (st.captured <= 12 && ts_now() < end);
    assert_true(st.captured > 12);
    assert_true(st.restarts >= 1);
    ts_capture_destroy(c);
}

static void stalled_source_trips_the_watchdog(void **state)
{
    (void)state;
    /* Frames stop coming (every buffer is dropped): no error, just silence. */
    ts_capture *c = open_source("videotestsrc is-live=true ! video/x-raw,width=160,height=120 ! "
                                "identity drop-probability=1.0",
                                0, 0);
    assert_true(wait_state(c, TS_CAP_STALE));
    ts_capture_status st;
    ts_capture_get_status(c, &st);
    assert_non_null(strstr(st.reason, "no frame"));
    assert_true(st.live);
    ts_capture_destroy(c);
}

static void live_source_that_ends_is_restarted(void **state)
{
    (void)state;
    ts_capture *c = open_source("videotestsrc is-live=true num-buffers=5 ! "
                                "video/x-raw,width=160,height=120,framerate=30/1",
                                0, 0);
    assert_true(wait_state(c, TS_CAP_STALE));
    double end = ts_now() + BOUND_S;
    ts_capture_status st;
    do {
        ts_frame_release(ts_capture_next(c, UINT64_MAX - 1, 50, 1));
        ts_capture_get_status(c, &st);
    } while (st.captured <= 5 && ts_now() < end);
    assert_true(st.captured > 5);
    ts_capture_destroy(c);
}

/* ---- Files --------------------------------------------------------------- */

static void jpeg_clip_fast_delivers_every_frame_in_order(void **state)
{
    (void)state;
    write_clip(10, -1);
    char pattern[128];
    snprintf(pattern, sizeof pattern, "%s/frame_%%04d.jpg", dir);
    ts_capture *c = open_source(pattern, 1, 0);
    int levels[10];
    int n = drain(c, levels, 10);
    assert_int_equal(n, 10);
    for (int i = 0; i < 10; i++)
        assert_true(abs(levels[i] - (20 + 20 * i)) <= 3);
    ts_capture_status st;
    ts_capture_get_status(c, &st);
    assert_int_equal(st.state, TS_CAP_ENDED);
    assert_int_equal(st.dropped, 0);
    assert_false(st.live);
    ts_capture_destroy(c);
}

/* A coloured, textured picture: chroma that a decoder must upsample. */
static void write_colour_photo(const char *path, int w, int h)
{
    ts_image img;
    assert_int_equal(ts_image_alloc(&img, w, h, 3), 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = ts_image_row(&img, y) + 3 * x;
            p[0] = (uint8_t)(x * 255 / w);
            p[1] = (uint8_t)(((x / 7 + y / 5) & 1) ? 200 : 40);
            p[2] = (uint8_t)(y * 255 / h);
        }
    assert_int_equal(ts_image_save_jpeg(&img, path, 85, NULL, 0), 0);
    ts_image_free(&img);
}

/* JPEG frames (an image sequence, a camera's MJPEG, MJPEG in a file) are
 * decoded by the capture straight to BGR, exactly as scan decodes the photo:
 * the same pixels, byte for byte (jpegdec's I420 and a conversion differ). */
static void jpeg_frames_are_decoded_as_scan_decodes_them(void **state)
{
    (void)state;
    char path[128], pattern[128];
    snprintf(path, sizeof path, "%s/frame_0000.jpg", dir);
    write_colour_photo(path, 320, 240);
    snprintf(path, sizeof path, "%s/frame_0001.jpg", dir);
    write_colour_photo(path, 320, 240);
    snprintf(pattern, sizeof pattern, "%s/frame_%%04d.jpg", dir);
    ts_image ref;
    assert_int_equal(ts_image_load(path, &ref, NULL, 0), 0);

    char mjpeg[256];
    snprintf(mjpeg, sizeof mjpeg,
             "multifilesrc location=%s caps=image/jpeg,framerate=30/1 loop=true", path);
    const char *sources[] = {pattern, mjpeg};
    for (int k = 0; k < 2; k++) {
        ts_capture *c = open_source(sources[k], 1, 0);
        ts_frame *f = ts_capture_next(c, 0, BOUND_S * 1000, 1);
        assert_non_null(f);
        assert_int_equal(f->img.w, ref.w);
        assert_int_equal(f->img.h, ref.h);
        assert_int_equal(f->img.channels, 3);
        for (int y = 0; y < ref.h; y++)
            assert_memory_equal(ts_image_row(&f->img, y), ts_image_row(&ref, y), (size_t)ref.w * 3);
        ts_frame_release(f);
        ts_capture_destroy(c);
    }
    ts_image_free(&ref);
}

static void paced_clip_ends(void **state)
{
    (void)state;
    write_clip(6, -1);
    char pattern[128];
    snprintf(pattern, sizeof pattern, "%s/frame_%%04d.jpg", dir);
    ts_capture *c = open_source(pattern, 0, 0);
    int n = drain(c, NULL, 0);
    assert_true(n >= 1 && n <= 6);
    assert_int_equal(state_of(c), TS_CAP_ENDED);
    ts_capture_destroy(c);
}

static void looping_clip_starts_again(void **state)
{
    (void)state;
    write_clip(4, -1);
    char pattern[128];
    snprintf(pattern, sizeof pattern, "%s/frame_%%04d.jpg", dir);
    ts_capture *c = open_source(pattern, 1, 1);
    int levels[12];
    uint64_t seq = 0;
    for (int i = 0; i < 12; i++) {
        ts_frame *f = ts_capture_next(c, seq, BOUND_S * 1000, 1);
        assert_non_null(f);
        seq = f->seq;
        levels[i] = ts_image_row(&f->img, 60)[3 * 80];
        ts_frame_release(f);
    }
    for (int i = 0; i < 12; i++)
        assert_true(abs(levels[i] - (20 + 20 * (i % 4))) <= 3);
    assert_int_equal(state_of(c), TS_CAP_RUNNING);
    ts_capture_destroy(c);
}

static void garbage_frame_in_clip_is_skipped(void **state)
{
    (void)state;
    write_clip(8, 3);
    char pattern[128];
    snprintf(pattern, sizeof pattern, "%s/frame_%%04d.jpg", dir);
    ts_capture *c = open_source(pattern, 1, 0);
    int levels[8];
    int n = drain(c, levels, 8);
    assert_int_equal(n, 7);
    assert_true(abs(levels[3] - (20 + 20 * 4)) <= 3); /* frame 4 follows frame 2 */
    assert_int_equal(state_of(c), TS_CAP_ENDED);
    ts_capture_destroy(c);
}

static void video_file_ends(void **state)
{
    (void)state;
    char path[128], desc[256];
    snprintf(path, sizeof path, "%s/clip.mkv", dir);
    snprintf(desc, sizeof desc,
             "videotestsrc num-buffers=20 ! video/x-raw,width=160,height=120,framerate=30/1 ! "
             "jpegenc ! matroskamux ! filesink location=%s",
             path);
    GstElement *p = gst_parse_launch(desc, NULL);
    assert_non_null(p);
    gst_element_set_state(p, GST_STATE_PLAYING);
    GstBus *bus = gst_element_get_bus(p);
    GstMessage *m = gst_bus_timed_pop_filtered(bus, (GstClockTime)BOUND_S * GST_SECOND,
                                               GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    assert_non_null(m);
    assert_int_equal(GST_MESSAGE_TYPE(m), GST_MESSAGE_EOS);
    gst_message_unref(m);
    gst_object_unref(bus);
    gst_element_set_state(p, GST_STATE_NULL);
    gst_object_unref(p);

    ts_capture *c = open_source(path, 1, 0);
    assert_int_equal(drain(c, NULL, 0), 20);
    assert_int_equal(state_of(c), TS_CAP_ENDED);
    ts_capture_destroy(c);
}

static void file_error_mid_stream_fails_with_a_reason(void **state)
{
    (void)state;
    ts_capture *c = open_source("videotestsrc num-buffers=100 ! video/x-raw,width=160,height=120 ! "
                                "identity error-after=10",
                                1, 0);
    int n = drain(c, NULL, 0);
    assert_true(n >= 1 && n <= 10);
    ts_capture_status st;
    ts_capture_get_status(c, &st);
    assert_int_equal(st.state, TS_CAP_FAILED);
    assert_true(strlen(st.reason) > 0);
    assert_int_equal(st.restarts, 0);
    ts_capture_destroy(c);
}

static void still_photo_repeats_until_stopped(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/photo.jpg", dir);
    ts_image img;
    assert_int_equal(ts_image_alloc(&img, 200, 100, 3), 0);
    memset(img.buf, 128, (size_t)img.stride * 100);
    assert_int_equal(ts_image_save(&img, path, NULL, 0), 0);
    ts_image_free(&img);
    ts_capture *c = open_source(path, 1, 0);
    uint64_t seq = 0;
    for (int i = 0; i < 10; i++) {
        ts_frame *f = ts_capture_next(c, seq, BOUND_S * 1000, 1);
        assert_non_null(f);
        assert_int_equal(f->img.w, 200);
        seq = f->seq;
        ts_frame_release(f);
    }
    ts_capture_stop(c);
    assert_null(ts_capture_next(c, 0, BOUND_S * 1000, 1)); /* stop wakes waiters */
    assert_int_equal(state_of(c), TS_CAP_STOPPED);
    ts_capture_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(plans_each_kind_of_source, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(rejects_what_it_cannot_open, make_dir, remove_dir),
        cmocka_unit_test(live_test_source_gives_bgr_frames),
        cmocka_unit_test(padded_rows_use_the_negotiated_stride),
        cmocka_unit_test(newest_frame_wins_and_slow_vision_drops),
        cmocka_unit_test(display_wait_is_woken_by_results),
        cmocka_unit_test(frame_outlives_the_capture),
        cmocka_unit_test(live_error_mid_stream_goes_stale_and_recovers),
        cmocka_unit_test(stalled_source_trips_the_watchdog),
        cmocka_unit_test(live_source_that_ends_is_restarted),
        cmocka_unit_test_setup_teardown(jpeg_clip_fast_delivers_every_frame_in_order, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(jpeg_frames_are_decoded_as_scan_decodes_them, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(paced_clip_ends, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(looping_clip_starts_again, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(garbage_frame_in_clip_is_skipped, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(video_file_ends, make_dir, remove_dir),
        cmocka_unit_test(file_error_mid_stream_fails_with_a_reason),
        cmocka_unit_test_setup_teardown(still_photo_repeats_until_stopped, make_dir, remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
