/* Image files: JPEG (TurboJPEG, EXIF orientation applied) and PNG (libpng).
 *
 * Every function returns 0 on success or -1 with a one-line reason in err
 * (err may be NULL). Decoded images are owned by the caller: ts_image_free.
 */
#ifndef TS_IMAGEIO_H
#define TS_IMAGEIO_H

#include <stddef.h>
#include <stdint.h>

#include "image.h"

/* Largest file ts_image_load reads (bytes). */
enum { TS_FILE_MAX_BYTES = 256 * 1024 * 1024 };

/* What a decoder may spend. Both limits are checked against the image header,
 * before a single pixel is decoded or a buffer allocated. */
typedef struct {
    /* Images with more pixels than this (width x height of the file) are
     * refused. 0 = TS_DECODE_MAX_PIXELS. A 200 MP phone photo fits. */
    long long max_pixels;
    /* A JPEG with more pixels than this is decoded at 1/2, 1/4 or 1/8 size
     * (libjpeg's scaled IDCT: less time and memory, and cards stay far larger
     * than the reader needs). 0 = TS_DECODE_TARGET_PIXELS; < 0 = full size. */
    long long target_pixels;
} ts_decode_limits;

enum {
    TS_DECODE_MAX_PIXELS = 250 * 1000 * 1000,
    TS_DECODE_TARGET_PIXELS = 24 * 1000 * 1000,
};

/* Reads and decodes a JPEG or PNG file (by content, not name) into BGR.
 * Bytes after a JPEG's end-of-image marker (phone metadata trailers) are
 * ignored; a JPEG whose image data is cut is refused as truncated.
 * The message in err starts with the path. */
int ts_image_load(const char *path, ts_image *out, char *err, size_t errlen);
/* The same with limits (NULL = the defaults). */
int ts_image_load_limited(const char *path, const ts_decode_limits *lim, ts_image *out, char *err,
                          size_t errlen);

/* Decodes JPEG or PNG bytes into BGR. */
int ts_image_decode(const uint8_t *data, size_t len, ts_image *out, char *err, size_t errlen);
int ts_image_decode_limited(const uint8_t *data, size_t len, const ts_decode_limits *lim,
                            ts_image *out, char *err, size_t errlen);

/* True if a BGR image carries no colour (every sampled pixel has B = G = R
 * within a few levels): a greyscale photo, in whatever format it came. */
int ts_image_is_grey(const ts_image *img);

/* EXIF orientation (1..8) of JPEG bytes; 1 when absent or unreadable. */
int ts_exif_orientation(const uint8_t *data, size_t len);

/* Rotates/flips img in place so an image stored with EXIF orientation o is upright.
 * img must own its buffer (ts_image_alloc). */
int ts_image_apply_orientation(ts_image *img, int orientation);

/* Encodes a BGR or grey image as JPEG. *out is malloc'd; caller frees. */
int ts_jpeg_encode(const ts_image *img, int quality, uint8_t **out, size_t *outlen, char *err,
                   size_t errlen);

/* Writes img to path as PNG (".png") or JPEG (anything else, quality 90). */
int ts_image_save(const ts_image *img, const char *path, char *err, size_t errlen);
/* Writes img to path as JPEG of the given quality (1..100). */
int ts_image_save_jpeg(const ts_image *img, const char *path, int quality, char *err,
                       size_t errlen);

/* Reads a whole file (at most max bytes). *data is malloc'd; caller frees.
 * Only regular files: a FIFO, a device or a directory is refused at once
 * (opening never waits for a writer), so a batch never hangs on one. */
int ts_read_file(const char *path, size_t max, uint8_t **data, size_t *len, char *err,
                 size_t errlen);

#endif
