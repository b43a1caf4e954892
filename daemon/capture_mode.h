/* The mode a camera is asked for: which of the formats, sizes and rates a
 * V4L2 device offers (its caps) `run --source /dev/videoN` uses.
 *
 * USB webcams send 1080p at 30 fps only as MJPEG (raw YUY2 at that size fits
 * USB 2 at 5 fps), and v4l2src left to itself may negotiate any mode. So the
 * capture asks for one: the size wanted (default: the largest up to
 * 1920x1080) at the rate wanted (default 30 fps, at least 25), raw when raw
 * does that as well as JPEG (no decoding, no artefacts), else JPEG, which the
 * capture decodes itself (capture_jpeg.h). The choice is a pure function of
 * the caps; the probe that reads them from the device is a thin wrapper.
 */
#ifndef TS_CAPTURE_MODE_H
#define TS_CAPTURE_MODE_H

#include <stddef.h>

#include <gst/gst.h>

typedef struct {
    int w, h;   /* the frame size asked for; 0 = the largest up to 1920x1080 */
    double fps; /* the rate asked for; 0 = 30 (and at least 25) */
} ts_camera_want;

typedef struct {
    int jpeg;        /* image/jpeg (MJPEG), else video/x-raw */
    char format[32]; /* raw: the pixel format (YUY2, NV12, ...); "" for JPEG */
    int w, h;
    int fps_n, fps_d; /* 0/1 when the caps say no rate */
} ts_camera_mode;

/* Picks the mode from a device's caps (image/jpeg and video/x-raw structures;
 * others, such as H.264, are skipped). Sizes and rates may be single values,
 * lists or ranges. When want's size is not offered the nearest in area is
 * taken; when no mode reaches the rate, the fastest at the largest size.
 * Returns 0, or -1 if the caps offer no JPEG or raw mode at all. */
int ts_camera_pick(const GstCaps *caps, const ts_camera_want *want, ts_camera_mode *out);

/* The caps to put after v4l2src for m ("image/jpeg,width=1920,height=1080,
 * framerate=30/1"). Returns 0, or -1 if it does not fit. */
int ts_camera_mode_caps(const ts_camera_mode *m, char *out, size_t n);

/* m in words for a status line: "1920x1080 MJPEG 30 fps". */
void ts_camera_mode_describe(const ts_camera_mode *m, char *out, size_t n);

/* The caps a V4L2 device offers (v4l2src brought to READY on it): a new
 * reference, or NULL with a one-line reason in err. */
GstCaps *ts_camera_probe(const char *device, char *err, size_t errlen);

#endif
