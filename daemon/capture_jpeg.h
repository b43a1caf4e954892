/* The capture's JPEG decoder: a camera's MJPEG frames (and any JPEG stream
 * one picture per buffer) decoded straight to BGR by TurboJPEG, as `scan`
 * decodes a photo (same pixels), into buffers that are recycled: a fresh 6 MB
 * buffer per 1080p frame would cost page faults on every frame.
 *
 * One thread decodes (the capture thread); any thread may give a buffer back.
 * The decoder is reference counted: the capture holds one reference and every
 * buffer handed out holds one, so frames stay valid after the capture is gone.
 */
#ifndef TS_CAPTURE_JPEG_H
#define TS_CAPTURE_JPEG_H

#include <stddef.h>
#include <stdint.h>

#include "image.h"

typedef struct ts_jpeg_dec ts_jpeg_dec;

/* NULL when memory is short. The caller's reference: ts_jpeg_dec_unref. */
ts_jpeg_dec *ts_jpeg_dec_create(void);
void ts_jpeg_dec_unref(ts_jpeg_dec *d);

/* Decodes one JPEG picture at full size into out (BGR, packed rows; out->buf
 * is d's, given back with ts_jpeg_dec_give_back). Harmless warnings (stray
 * bytes before a marker, common in webcam MJPEG) keep the picture; corrupt or
 * cut data does not. Returns 0, or -1 with a one-line reason in why. No EXIF
 * orientation: a camera's frames carry none. */
int ts_jpeg_dec_frame(ts_jpeg_dec *d, const uint8_t *data, size_t len, ts_image *out, char *why,
                      size_t n);

/* Hands img's pixels back to d (any thread) and clears img. */
void ts_jpeg_dec_give_back(ts_jpeg_dec *d, ts_image *img);

#endif
