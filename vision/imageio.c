/* JPEG and PNG reading/writing (see imageio.h). */
#include "imageio.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#define SET_ERR(...)                                                                               \
    do {                                                                                           \
        if (err)                                                                                   \
            snprintf(err, errlen, __VA_ARGS__);                                                    \
    } while (0)

static int size_ok(int w, int h)
{
    return w > 0 && h > 0 && w <= TS_IMAGE_MAX_SIDE && h <= TS_IMAGE_MAX_SIDE &&
           (long long)w * h <= TS_IMAGE_MAX_PIXELS;
}

/* ---- EXIF --------------------------------------------------------------- */

static unsigned rd16(const uint8_t *p, int le)
{
    return le ? (unsigned)(p[0] | p[1] << 8) : (unsigned)(p[0] << 8 | p[1]);
}
static uint32_t rd32(const uint8_t *p, int le)
{
    return le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
              : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Orientation tag (0x0112) of IFD0 inside a TIFF block; 1 if absent. */
static int tiff_orientation(const uint8_t *t, size_t n)
{
    if (n < 8)
        return 1;
    int le;
    if (t[0] == 'I' && t[1] == 'I')
        le = 1;
    else if (t[0] == 'M' && t[1] == 'M')
        le = 0;
    else
        return 1;
    uint32_t ifd = rd32(t + 4, le);
    if (ifd > n - 2)
        return 1;
    unsigned count = rd16(t + ifd, le);
    for (unsigned i = 0; i < count; i++) {
        size_t e = (size_t)ifd + 2 + (size_t)i * 12;
        if (e + 12 > n)
            break;
        if (rd16(t + e, le) == 0x0112) {
            unsigned v = rd16(t + e + 8, le);
            return v >= 1 && v <= 8 ? (int)v : 1;
        }
    }
    return 1;
}

int ts_exif_orientation(const uint8_t *d, size_t len)
{
    if (len < 4 || d[0] != 0xFF || d[1] != 0xD8)
        return 1;
    size_t p = 2;
    /* Walk the marker segments before the image data. */
    while (p + 4 <= len && d[p] == 0xFF) {
        unsigned marker = d[p + 1];
        if (marker == 0xDA || marker == 0xD9) /* start of scan / end */
            break;
        size_t seg = (size_t)(d[p + 2] << 8 | d[p + 3]);
        if (seg < 2 || p + 2 + seg > len)
            break;
        if (marker == 0xE1 && seg >= 8 && memcmp(d + p + 4, "Exif\0\0", 6) == 0)
            return tiff_orientation(d + p + 10, seg - 8);
        p += 2 + seg;
    }
    return 1;
}

int ts_image_apply_orientation(ts_image *img, int o)
{
    if (o <= 1 || o > 8)
        return 0;
    int swap = o >= 5; /* 5..8 transpose the axes */
    ts_image out;
    if (ts_image_alloc(&out, swap ? img->h : img->w, swap ? img->w : img->h, img->channels) < 0)
        return -1;
    const int c = img->channels, W = img->w, H = img->h;
    for (int y = 0; y < H; y++) {
        const uint8_t *src = ts_image_row(img, y);
        for (int x = 0; x < W; x++) {
            int dx, dy; /* destination of source pixel (x, y) */
            switch (o) {
            case 2: dx = W - 1 - x; dy = y; break;
            case 3: dx = W - 1 - x; dy = H - 1 - y; break;
            case 4: dx = x; dy = H - 1 - y; break;
            case 5: dx = y; dy = x; break;
            case 6: dx = H - 1 - y; dy = x; break;
            case 7: dx = H - 1 - y; dy = W - 1 - x; break;
            default: dx = y; dy = W - 1 - x; break; /* 8 */
            }
            memcpy(ts_image_row(&out, dy) + (size_t)dx * c, src + (size_t)x * c, (size_t)c);
        }
    }
    ts_image_free(img);
    *img = out;
    return 0;
}

/* ---- JPEG --------------------------------------------------------------- */

/* A complete JPEG ends in EOI (FF D9), perhaps followed by padding. */
static int jpeg_has_end(const uint8_t *d, size_t len)
{
    size_t n = len;
    while (n > 2 && (d[n - 1] == 0x00 || d[n - 1] == 0x0A || d[n - 1] == 0x0D || d[n - 1] == 0x20))
        n--;
    return n >= 4 && d[n - 2] == 0xFF && d[n - 1] == 0xD9;
}

/* CMYK JPEGs (print workflows) decode to CMYK; convert to BGR as the Adobe
 * convention stores them (inverted: 255 = no ink). */
static int jpeg_decode_cmyk(tjhandle tj, const uint8_t *data, size_t len, ts_image *out, char *err,
                            size_t errlen)
{
    size_t n = (size_t)out->w * out->h;
    uint8_t *cmyk = malloc(n * 4);
    if (!cmyk) {
        SET_ERR("out of memory for a %dx%d CMYK image", out->w, out->h);
        ts_image_free(out);
        return -1;
    }
    if (tjDecompress2(tj, data, (unsigned long)len, cmyk, out->w, out->w * 4, out->h, TJPF_CMYK,
                      0) < 0 &&
        tjGetErrorCode(tj) != TJERR_WARNING) {
        SET_ERR("corrupt JPEG data: %s", tjGetErrorStr2(tj));
        free(cmyk);
        ts_image_free(out);
        return -1;
    }
    for (int y = 0; y < out->h; y++) {
        uint8_t *o = ts_image_row(out, y);
        const uint8_t *p = cmyk + (size_t)y * out->w * 4;
        for (int x = 0; x < out->w; x++, p += 4) {
            o[3 * x + 0] = (uint8_t)(p[2] * p[3] / 255); /* blue from yellow */
            o[3 * x + 1] = (uint8_t)(p[1] * p[3] / 255); /* green from magenta */
            o[3 * x + 2] = (uint8_t)(p[0] * p[3] / 255); /* red from cyan */
        }
    }
    free(cmyk);
    return 0;
}

static int jpeg_decode(const uint8_t *data, size_t len, ts_image *out, char *err, size_t errlen)
{
    if (!jpeg_has_end(data, len)) {
        SET_ERR("truncated JPEG (no end-of-image marker)");
        return -1;
    }
    tjhandle tj = tjInitDecompress();
    if (!tj) {
        SET_ERR("cannot start JPEG decoder");
        return -1;
    }
    int w, h, subsamp, colorspace, rc = -1;
    if (tjDecompressHeader3(tj, data, (unsigned long)len, &w, &h, &subsamp, &colorspace) < 0) {
        SET_ERR("corrupt JPEG header: %s", tjGetErrorStr2(tj));
        goto done;
    }
    if (!size_ok(w, h)) {
        SET_ERR("image too large or empty (%dx%d)", w, h);
        goto done;
    }
    if (ts_image_alloc(out, w, h, 3) < 0) {
        SET_ERR("out of memory for %dx%d image", w, h);
        goto done;
    }
    if (colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) {
        rc = jpeg_decode_cmyk(tj, data, len, out, err, errlen);
        if (rc < 0)
            goto done;
        rc = -1;
    } else if (tjDecompress2(tj, data, (unsigned long)len, out->buf, w, out->stride, h, TJPF_BGR,
                             0) < 0 &&
               tjGetErrorCode(tj) != TJERR_WARNING) {
        /* Warnings (e.g. extraneous bytes) leave a usable image; errors do not. */
        SET_ERR("corrupt JPEG data: %s", tjGetErrorStr2(tj));
        ts_image_free(out);
        goto done;
    }
    rc = ts_image_apply_orientation(out, ts_exif_orientation(data, len));
    if (rc < 0) {
        SET_ERR("out of memory rotating %dx%d image", w, h);
        ts_image_free(out);
    }
done:
    tjDestroy(tj);
    return rc;
}

int ts_jpeg_encode(const ts_image *img, int quality, uint8_t **out, size_t *outlen, char *err,
                   size_t errlen)
{
    tjhandle tj = tjInitCompress();
    if (!tj) {
        SET_ERR("cannot start JPEG encoder");
        return -1;
    }
    unsigned char *buf = NULL;
    unsigned long n = 0;
    int grey = img->channels == 1;
    int rc = tjCompress2(tj, img->buf, img->w, img->stride, img->h, grey ? TJPF_GRAY : TJPF_BGR,
                         &buf, &n, grey ? TJSAMP_GRAY : TJSAMP_420, quality, TJFLAG_FASTDCT);
    if (rc < 0) {
        SET_ERR("JPEG encoding failed: %s", tjGetErrorStr2(tj));
        tjFree(buf);
        tjDestroy(tj);
        return -1;
    }
    tjDestroy(tj);
    /* Hand out a malloc'd copy so callers free with free(). */
    *out = malloc(n);
    if (!*out) {
        tjFree(buf);
        SET_ERR("out of memory");
        return -1;
    }
    memcpy(*out, buf, n);
    *outlen = n;
    tjFree(buf);
    return 0;
}

/* ---- PNG ---------------------------------------------------------------- */

static int png_decode(const uint8_t *data, size_t len, ts_image *out, char *err, size_t errlen)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&pi, data, len)) {
        SET_ERR("corrupt PNG: %s", pi.message);
        return -1;
    }
    if (!size_ok((int)pi.width, (int)pi.height)) {
        SET_ERR("image too large or empty (%ux%u)", pi.width, pi.height);
        png_image_free(&pi);
        return -1;
    }
    pi.format = PNG_FORMAT_BGR;
    if (ts_image_alloc(out, (int)pi.width, (int)pi.height, 3) < 0) {
        SET_ERR("out of memory for %ux%u image", pi.width, pi.height);
        png_image_free(&pi);
        return -1;
    }
    /* Transparent pixels are composited on white, as a viewer would show them. */
    png_color white = {255, 255, 255};
    if (!png_image_finish_read(&pi, &white, out->buf, out->stride, NULL)) {
        SET_ERR("corrupt PNG data: %s", pi.message);
        png_image_free(&pi);
        ts_image_free(out);
        return -1;
    }
    return 0;
}

static int png_save(const ts_image *img, const char *path, char *err, size_t errlen)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    pi.width = (png_uint_32)img->w;
    pi.height = (png_uint_32)img->h;
    pi.format = img->channels == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_BGR;
    if (!png_image_write_to_file(&pi, path, 0, img->buf, img->stride, NULL)) {
        SET_ERR("%s: cannot write PNG: %s", path, pi.message);
        return -1;
    }
    return 0;
}

/* ---- Files -------------------------------------------------------------- */

int ts_read_file(const char *path, size_t max, uint8_t **data, size_t *len, char *err,
                 size_t errlen)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        SET_ERR("%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            SET_ERR("%s: out of memory", path);
            fclose(f);
            return -1;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        if (cap >= max) {
            SET_ERR("%s: file larger than %zu MB", path, max >> 20);
            free(buf);
            fclose(f);
            return -1;
        }
        cap = cap * 2 > max ? max : cap * 2;
        uint8_t *nb = realloc(buf, cap);
        if (!nb)
            free(buf);
        buf = nb;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        SET_ERR("%s: read error", path);
        free(buf);
        return -1;
    }
    *data = buf;
    *len = n;
    return 0;
}

int ts_image_decode(const uint8_t *data, size_t len, ts_image *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (len == 0) {
        SET_ERR("empty file");
        return -1;
    }
    if (len >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF)
        return jpeg_decode(data, len, out, err, errlen);
    if (len >= 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0)
        return png_decode(data, len, out, err, errlen);
    SET_ERR("not a JPEG or PNG image");
    return -1;
}

int ts_image_load(const char *path, ts_image *out, char *err, size_t errlen)
{
    uint8_t *data;
    size_t len;
    memset(out, 0, sizeof *out);
    if (ts_read_file(path, TS_FILE_MAX_BYTES, &data, &len, err, errlen) < 0)
        return -1;
    char why[200] = "";
    int rc = ts_image_decode(data, len, out, why, sizeof why);
    free(data);
    if (rc < 0)
        SET_ERR("%s: %s", path, why);
    return rc;
}

int ts_image_save(const ts_image *img, const char *path, char *err, size_t errlen)
{
    size_t n = strlen(path);
    if (n >= 4 && strcmp(path + n - 4, ".png") == 0)
        return png_save(img, path, err, errlen);
    return ts_image_save_jpeg(img, path, 90, err, errlen);
}

int ts_image_save_jpeg(const ts_image *img, const char *path, int quality, char *err,
                       size_t errlen)
{
    uint8_t *jpg;
    size_t len;
    char why[200];
    if (ts_jpeg_encode(img, quality, &jpg, &len, why, sizeof why) < 0) {
        SET_ERR("%s: %s", path, why);
        return -1;
    }
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(jpg, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    free(jpg);
    if (!ok) {
        SET_ERR("%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
