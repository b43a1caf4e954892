/* The mode a plain /dev/videoN is asked for, chosen from caps as v4l2src
 * reports them for real webcams. The modes below (formats, sizes, rates) are
 * those of gst-device-monitor-1.0 listings posted in public issue threads:
 * Logitech HD Pro Webcam C920 (opencv/opencv#19458, WebKit/WebKit#9883),
 * Jabra PanaCast (webcamoid/webcamoid#433), a 4K UVC camera
 * (bitsy-ai/printnanny-os#154) and a camera that sends raw YUY2 at 1080p30
 * (dusty-nv/jetson-inference#864); written here in GStreamer's caps syntax,
 * some sizes left out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <gst/gst.h>

#include "capture_mode.h"

#define RATES_C920 "framerate=(fraction){ 30/1, 24/1, 20/1, 15/1, 10/1, 15/2, 5/1 }"

static const char C920[] =
    "video/x-raw, format=(string)YUY2, width=(int)2304, height=(int)1536, framerate=(fraction)2/1; "
    "video/x-raw, format=(string)YUY2, width=(int)1920, height=(int)1080, framerate=(fraction)5/1; "
    "video/x-raw, format=(string)YUY2, width=(int)1600, height=(int)896, "
    "framerate=(fraction){ 15/2, 5/1 }; "
    "video/x-raw, format=(string)YUY2, width=(int)1280, height=(int)720, "
    "framerate=(fraction){ 10/1, 15/2, 5/1 }; "
    "video/x-raw, format=(string)YUY2, width=(int)800, height=(int)600, "
    "framerate=(fraction){ 24/1, 20/1, 15/1, 10/1, 15/2, 5/1 }; "
    "video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, " RATES_C920 "; "
    "video/x-raw, format=(string)YUY2, width=(int)320, height=(int)240, " RATES_C920 "; "
    "image/jpeg, width=(int)1920, height=(int)1080, pixel-aspect-ratio=(fraction)1/1, "
    RATES_C920 "; "
    "image/jpeg, width=(int)1600, height=(int)896, " RATES_C920 "; "
    "image/jpeg, width=(int)1280, height=(int)720, " RATES_C920 "; "
    "image/jpeg, width=(int)640, height=(int)480, " RATES_C920 "; "
    "video/x-h264, stream-format=(string)byte-stream, alignment=(string)au, width=(int)1920, "
    "height=(int)1080, " RATES_C920;

/* Only MJPEG; a double-wide mode above 1080p and below 25 fps, and rate lists
 * with repeats, as the device reports them. */
static const char PANACAST[] =
    "image/jpeg, width=(int)3840, height=(int)1080, framerate=(fraction){ 22/1, 15/1 }; "
    "image/jpeg, width=(int)1920, height=(int)1080, framerate=(fraction){ 30/1, 24/1, 15/1 }; "
    "image/jpeg, width=(int)1280, height=(int)720, "
    "framerate=(fraction){ 30/1, 27/1, 24/1, 15/1, 30/1, 27/1, 24/1, 15/1 }; "
    "image/jpeg, width=(int)960, height=(int)544, framerate=(fraction){ 30/1, 27/1, 24/1, 15/1 }; "
    "image/jpeg, width=(int)640, height=(int)360, framerate=(fraction){ 30/1, 27/1, 24/1, 15/1 }";

#define RATES_4K "framerate=(fraction){ 30/1, 24/1, 20/1, 15/1, 10/1, 15/2, 5/1 }"
static const char CAM4K[] =
    "image/jpeg, width=(int)4096, height=(int)2160, " RATES_4K "; "
    "image/jpeg, width=(int)3840, height=(int)2160, " RATES_4K "; "
    "image/jpeg, width=(int)2560, height=(int)1440, " RATES_4K "; "
    "image/jpeg, width=(int)1920, height=(int)1080, "
    "framerate=(fraction){ 60/1, 30/1, 24/1, 20/1, 15/1, 10/1, 15/2, 5/1 }; "
    "image/jpeg, width=(int)1280, height=(int)720, "
    "framerate=(fraction){ 90/1, 60/1, 30/1, 24/1, 20/1, 15/1, 10/1, 15/2, 5/1 }; "
    "video/x-raw, format=(string)YUY2, width=(int)1920, height=(int)1080, framerate=(fraction)5/1";

/* Raw YUY2 at 1080p30 (a USB 3 or on-board camera), and MJPEG as fast. */
static const char RAW1080[] =
    "video/x-raw, format=(string)YUY2, width=(int)1920, height=(int)1080, "
    "pixel-aspect-ratio=(fraction)1/1, framerate=(fraction)30/1; "
    "video/x-raw, format=(string)YUY2, width=(int)1280, height=(int)720, "
    "pixel-aspect-ratio=(fraction)1/1, framerate=(fraction)30/1; "
    "image/jpeg, width=(int)1920, height=(int)1080, pixel-aspect-ratio=(fraction)1/1, "
    "framerate=(fraction){ 30/1, 25/1 }; "
    "image/jpeg, width=(int)1280, height=(int)720, pixel-aspect-ratio=(fraction)1/1, "
    "framerate=(fraction){ 60/1, 30/1 }";

static ts_camera_mode pick(const char *caps_str, int w, int h, double fps)
{
    GstCaps *caps = gst_caps_from_string(caps_str);
    assert_non_null(caps);
    ts_camera_want want = {.w = w, .h = h, .fps = fps};
    ts_camera_mode m;
    assert_int_equal(ts_camera_pick(caps, &want, &m), 0);
    gst_caps_unref(caps);
    return m;
}

static void assert_mode(ts_camera_mode m, const char *caps)
{
    char got[160];
    assert_int_equal(ts_camera_mode_caps(&m, got, sizeof got), 0);
    assert_string_equal(got, caps);
}

/* The C920 sends 1080p at 30 fps only as MJPEG (raw 1080p: 5 fps). */
static void c920_default_is_mjpeg_1080p30(void **state)
{
    (void)state;
    assert_mode(pick(C920, 0, 0, 0), "image/jpeg,width=1920,height=1080,framerate=30/1");
}

/* 640x480 comes raw at 30 fps: raw is as good, so raw (no decoding). */
static void c920_small_is_raw(void **state)
{
    (void)state;
    assert_mode(pick(C920, 640, 480, 0),
                "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1");
    /* At 15 fps the 800x600 raw mode is nearest in size at the rate. */
    assert_mode(pick(C920, 800, 600, 15),
                "video/x-raw,format=YUY2,width=800,height=600,framerate=15/1");
}

/* A rate asked for that the camera lacks: the nearest above it. */
static void c920_rate_asked(void **state)
{
    (void)state;
    assert_mode(pick(C920, 1280, 720, 12), "image/jpeg,width=1280,height=720,framerate=15/1");
    assert_mode(pick(C920, 0, 0, 24), "image/jpeg,width=1920,height=1080,framerate=24/1");
}

/* A size not offered: the nearest in area at the rate. */
static void c920_size_not_offered(void **state)
{
    (void)state;
    assert_mode(pick(C920, 1366, 768, 0), "image/jpeg,width=1280,height=720,framerate=30/1");
}

/* The double-wide 22 fps mode is neither 1080p nor fast enough. */
static void panacast_default(void **state)
{
    (void)state;
    ts_camera_mode m = pick(PANACAST, 0, 0, 0);
    assert_mode(m, "image/jpeg,width=1920,height=1080,framerate=30/1");
    char words[64];
    ts_camera_mode_describe(&m, words, sizeof words);
    assert_string_equal(words, "1920x1080 MJPEG 30 fps");
    /* Asked for, it is taken, at its fastest. */
    assert_mode(pick(PANACAST, 3840, 1080, 0), "image/jpeg,width=3840,height=1080,framerate=22/1");
}

/* A 4K camera: 1080p by default (a 4K frame costs four times the work), at
 * 30 fps rather than 60; 4K or 60 fps when asked for. */
static void cam4k(void **state)
{
    (void)state;
    assert_mode(pick(CAM4K, 0, 0, 0), "image/jpeg,width=1920,height=1080,framerate=30/1");
    assert_mode(pick(CAM4K, 3840, 2160, 0), "image/jpeg,width=3840,height=2160,framerate=30/1");
    assert_mode(pick(CAM4K, 0, 0, 60), "image/jpeg,width=1920,height=1080,framerate=60/1");
    assert_mode(pick(CAM4K, 0, 0, 90), "image/jpeg,width=1280,height=720,framerate=90/1");
}

/* Raw 1080p30 is as good as MJPEG 1080p30: raw. */
static void raw_when_as_good(void **state)
{
    (void)state;
    ts_camera_mode m = pick(RAW1080, 0, 0, 0);
    assert_mode(m, "video/x-raw,format=YUY2,width=1920,height=1080,framerate=30/1");
    char words[64];
    ts_camera_mode_describe(&m, words, sizeof words);
    assert_string_equal(words, "1920x1080 YUY2 30 fps");
    /* 60 fps only comes as MJPEG. */
    assert_mode(pick(RAW1080, 1280, 720, 60), "image/jpeg,width=1280,height=720,framerate=60/1");
}

/* Drivers that report ranges (v4l2loopback, stepwise sizes) and lists of
 * formats; a camera that only offers a slow rate still gets a mode. */
static void ranges_and_lists(void **state)
{
    (void)state;
    static const char RANGES[] =
        "video/x-raw, format=(string){ YUY2, NV12 }, width=(int)[ 48, 4096, 16 ], "
        "height=(int)[ 32, 2304, 8 ], framerate=(fraction)[ 1/1, 60/1 ]";
    assert_mode(pick(RANGES, 0, 0, 0),
                "video/x-raw,format=YUY2,width=1920,height=1080,framerate=30/1");
    assert_mode(pick(RANGES, 1000, 700, 0),
                "video/x-raw,format=YUY2,width=992,height=696,framerate=30/1");
    static const char SLOW[] =
        "image/jpeg, width=(int)1280, height=(int)720, framerate=(fraction)15/1; "
        "image/jpeg, width=(int)640, height=(int)480, framerate=(fraction)10/1";
    assert_mode(pick(SLOW, 0, 0, 0), "image/jpeg,width=1280,height=720,framerate=15/1");
    static const char NORATE[] =
        "video/x-raw, format=(string)NV21, width=(int)640, height=(int)480; "
        "video/x-raw, format=(string)NV21, width=(int)1280, height=(int)720";
    assert_mode(pick(NORATE, 0, 0, 0), "video/x-raw,format=NV21,width=1280,height=720");
}

/* Nothing tablesight can take: an H.264-only or Bayer camera, or no caps. */
static void nothing_usable(void **state)
{
    (void)state;
    static const char *NONE[] = {
        "video/x-h264, width=(int)1920, height=(int)1080, framerate=(fraction)30/1",
        "video/x-bayer, format=(string)rggb, width=(int)1280, height=(int)720",
        "EMPTY",
    };
    for (size_t i = 0; i < sizeof NONE / sizeof NONE[0]; i++) {
        GstCaps *caps = gst_caps_from_string(NONE[i]);
        assert_non_null(caps);
        ts_camera_want want = {0};
        ts_camera_mode m;
        assert_int_equal(ts_camera_pick(caps, &want, &m), -1);
        gst_caps_unref(caps);
    }
    ts_camera_want want = {0};
    ts_camera_mode m;
    assert_int_equal(ts_camera_pick(NULL, &want, &m), -1);
}

/* The probe on a path that is no camera says so (there is no camera here). */
static void probe_without_camera(void **state)
{
    (void)state;
    char err[256] = "";
    GstCaps *caps = ts_camera_probe("/dev/null", err, sizeof err);
    assert_null(caps);
    assert_non_null(strstr(err, "/dev/null"));
}

int main(void)
{
    gst_init(NULL, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(c920_default_is_mjpeg_1080p30),
        cmocka_unit_test(c920_small_is_raw),
        cmocka_unit_test(c920_rate_asked),
        cmocka_unit_test(c920_size_not_offered),
        cmocka_unit_test(panacast_default),
        cmocka_unit_test(cam4k),
        cmocka_unit_test(raw_when_as_good),
        cmocka_unit_test(ranges_and_lists),
        cmocka_unit_test(nothing_usable),
        cmocka_unit_test(probe_without_camera),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
