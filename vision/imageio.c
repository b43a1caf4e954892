/* JPEG and PNG reading/writing (see imageio.h). */
#include "imageio.h"

#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <turbojpeg.h>
#include <unistd.h>

#define SET_ERR(...)                                                                               \
    do {                                                                                           \
        if (err)                                                                                   \
            snprintf(err, errlen, __VA_ARGS__);                                                    \
    } while (0)

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

/* ---- Limits ------------------------------------------------------------- */

static long long max_pixels(const ts_decode_limits *lim)
{
    return lim && lim->max_pixels > 0 ? lim->max_pixels : TS_DECODE_MAX_PIXELS;
}

/* Checks a header's size against the limits; writes the refusal. */
static int size_allowed(long long w, long long h, const ts_decode_limits *lim, char *err,
                        size_t errlen)
{
    if (w <= 0 || h <= 0) {
        SET_ERR("image has no pixels (%lldx%lld)", w, h);
        return 0;
    }
    if (w * h > max_pixels(lim)) {
        SET_ERR("image too large: %lldx%lld = %.1f M pixels, more than the limit of %.1f M "
                "pixels (--max-pixels)",
                w, h, (double)(w * h) / 1e6, (double)max_pixels(lim) / 1e6);
        return 0;
    }
    return 1;
}

/* ---- JPEG --------------------------------------------------------------- */

enum { JMSG_LENGTH_MAX_TS = 200 }; /* libjpeg's messages are shorter */

/* libjpeg's warning for data that ends before the image does. Bytes after the
 * end-of-image marker are never read, so they cannot cause it. */
static int is_truncation(const char *msg)
{
    return strstr(msg, "Premature end") != NULL;
}

/* Whether a start-of-scan marker (FF DA) occurs: without one the file ended
 * inside its header. */
static int has_scan(const uint8_t *d, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++)
        if (d[i] == 0xFF && d[i + 1] == 0xDA)
            return 1;
    return 0;
}

/* CMYK JPEGs (print workflows) decode to CMYK; convert to BGR as the Adobe
 * convention stores them (inverted: 255 = no ink). */
static int cmyk_to_bgr(const uint8_t *cmyk, ts_image *out)
{
    for (int y = 0; y < out->h; y++) {
        uint8_t *o = ts_image_row(out, y);
        const uint8_t *p = cmyk + (size_t)y * out->w * 4;
        for (int x = 0; x < out->w; x++, p += 4) {
            o[3 * x + 0] = (uint8_t)(p[2] * p[3] / 255); /* blue from yellow */
            o[3 * x + 1] = (uint8_t)(p[1] * p[3] / 255); /* green from magenta */
            o[3 * x + 2] = (uint8_t)(p[0] * p[3] / 255); /* red from cyan */
        }
    }
    return 0;
}

/* The largest libjpeg scale (1, 7/8, ... 1/8 as the library offers) whose
 * output has at most target pixels; 1 if none is needed or allowed. */
static tjscalingfactor pick_scale(int w, int h, const ts_decode_limits *lim)
{
    tjscalingfactor one = {1, 1};
    long long target = lim && lim->target_pixels ? lim->target_pixels : TS_DECODE_TARGET_PIXELS;
    if (target < 0 || (long long)w * h <= target)
        return one;
    int n = 0;
    tjscalingfactor *f = tjGetScalingFactors(&n);
    tjscalingfactor best = one;
    long long best_px = (long long)w * h;
    for (int i = 0; f && i < n; i++) {
        if (f[i].num > f[i].denom)
            continue; /* enlargements */
        long long px = (long long)TJSCALED(w, f[i]) * TJSCALED(h, f[i]);
        /* Smallest reduction that meets the target; else the smallest output. */
        if ((px <= target && (best_px > target || px > best_px)) ||
            (best_px > target && px < best_px))
            best = f[i], best_px = px;
    }
    return best;
}

static int jpeg_decode(const uint8_t *data, size_t len, const ts_decode_limits *lim, ts_image *out,
                       char *err, size_t errlen)
{
    tjhandle tj = tjInitDecompress();
    if (!tj) {
        SET_ERR("cannot start JPEG decoder");
        return -1;
    }
    int w = 0, h = 0, subsamp, colorspace, rc = -1;
    uint8_t *cmyk = NULL;
    if (!has_scan(data, len)) {
        SET_ERR("truncated JPEG (the file ends inside its header)");
        goto done;
    }
    if (tjDecompressHeader3(tj, data, (unsigned long)len, &w, &h, &subsamp, &colorspace) < 0) {
        const char *why = tjGetErrorStr2(tj);
        if (is_truncation(why))
            SET_ERR("truncated JPEG (the file ends inside its header)");
        else
            SET_ERR("corrupt JPEG header: %s", why);
        goto done;
    }
    if (!size_allowed(w, h, lim, err, errlen))
        goto done;
    tjscalingfactor sf = pick_scale(w, h, lim);
    int sw = TJSCALED(w, sf), sh = TJSCALED(h, sf);
    if ((long long)sw * sh > TS_IMAGE_MAX_PIXELS || sw > TS_IMAGE_MAX_SIDE ||
        sh > TS_IMAGE_MAX_SIDE) {
        SET_ERR("image too large: %dx%d pixels even at 1/8 size", w, h);
        goto done;
    }
    if (ts_image_alloc(out, sw, sh, 3) < 0) {
        SET_ERR("out of memory for a %dx%d image", sw, sh);
        goto done;
    }
    int cmyk_space = colorspace == TJCS_CMYK || colorspace == TJCS_YCCK;
    if (cmyk_space && !(cmyk = malloc((size_t)sw * sh * 4))) {
        SET_ERR("out of memory for a %dx%d CMYK image", sw, sh);
        goto done;
    }
    /* Warnings (extraneous bytes before a marker) leave a whole image; data
     * that ends early leaves grey rows, so it is refused. TurboJPEG reports a
     * fatal error that follows a warning as a warning, so the first pass stops
     * at the first problem and names it; only a harmless warning gets a second,
     * tolerant pass, which must end on that same message (a later fatal error
     * would replace it). */
    uint8_t *dst = cmyk_space ? cmyk : out->buf;
    int pf = cmyk_space ? TJPF_CMYK : TJPF_BGR, pitch = cmyk_space ? sw * 4 : out->stride;
    if (tjDecompress2(tj, data, (unsigned long)len, dst, sw, pitch, sh, pf, TJFLAG_STOPONWARNING) <
        0) {
        char first[JMSG_LENGTH_MAX_TS];
        snprintf(first, sizeof first, "%s", tjGetErrorStr2(tj));
        int warning = tjGetErrorCode(tj) == TJERR_WARNING;
        if (is_truncation(first)) {
            SET_ERR("truncated JPEG (the image data ends early, after %zu bytes)", len);
            goto done;
        }
        if (!warning) {
            SET_ERR("corrupt JPEG data: %s", first);
            goto done;
        }
        if (tjDecompress2(tj, data, (unsigned long)len, dst, sw, pitch, sh, pf, 0) < 0 &&
            strcmp(tjGetErrorStr2(tj), first) != 0) {
            const char *why = tjGetErrorStr2(tj);
            if (is_truncation(why))
                SET_ERR("truncated JPEG (the image data ends early, after %zu bytes)", len);
            else
                SET_ERR("corrupt JPEG data: %s", why);
            goto done;
        }
    }
    if (cmyk_space)
        cmyk_to_bgr(cmyk, out);
    if (ts_image_apply_orientation(out, ts_exif_orientation(data, len)) < 0) {
        SET_ERR("out of memory rotating a %dx%d image", sw, sh);
        goto done;
    }
    rc = 0;
done:
    if (rc < 0)
        ts_image_free(out);
    free(cmyk);
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

static int png_decode(const uint8_t *data, size_t len, const ts_decode_limits *lim,
                      ts_image *out, char *err, size_t errlen)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&pi, data, len)) {
        SET_ERR("corrupt PNG: %s", pi.message);
        return -1;
    }
    if (!size_allowed(pi.width, pi.height, lim, err, errlen)) {
        png_image_free(&pi);
        return -1;
    }
    if ((long long)pi.width * pi.height > TS_IMAGE_MAX_PIXELS || pi.width > TS_IMAGE_MAX_SIDE ||
        pi.height > TS_IMAGE_MAX_SIDE) {
        SET_ERR("image too large: a %ux%u PNG (at most %d M pixels or %d pixels a side)",
                pi.width, pi.height, TS_IMAGE_MAX_PIXELS / 1000000, TS_IMAGE_MAX_SIDE);
        png_image_free(&pi);
        return -1;
    }
    /* libpng takes 16-bit samples for linear light and would brighten them on
     * the way to 8 bits; viewers (and cameras) treat them as sRGB like 8-bit
     * ones, so they are read as they are and cut to their high byte. */
    int wide = (pi.format & PNG_FORMAT_FLAG_LINEAR) != 0;
    pi.format = wide ? PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_BGR |
                           PNG_FORMAT_FLAG_ALPHA
                     : PNG_FORMAT_BGR;
    if (ts_image_alloc(out, (int)pi.width, (int)pi.height, 3) < 0) {
        SET_ERR("out of memory for %ux%u image", pi.width, pi.height);
        png_image_free(&pi);
        return -1;
    }
    uint16_t *wbuf = wide ? malloc((size_t)pi.width * pi.height * 8) : NULL;
    if (wide && !wbuf) {
        SET_ERR("out of memory for %ux%u image", pi.width, pi.height);
        png_image_free(&pi);
        ts_image_free(out);
        return -1;
    }
    /* Transparent pixels are composited on white, as a viewer would show them. */
    png_color white = {255, 255, 255};
    int done = wide ? png_image_finish_read(&pi, NULL, wbuf, 0, NULL)
                    : png_image_finish_read(&pi, &white, out->buf, out->stride, NULL);
    if (done && wide) {
        /* Premultiplied by alpha: white shows through (65535 - alpha). */
        for (int y = 0; y < out->h; y++) {
            const uint16_t *p = wbuf + (size_t)y * out->w * 4;
            uint8_t *o = ts_image_row(out, y);
            for (int x = 0; x < out->w; x++, p += 4)
                for (int c = 0; c < 3; c++) {
                    unsigned v = (unsigned)p[c] + 65535u - p[3];
                    o[3 * x + c] = (uint8_t)((v > 65535u ? 65535u : v) >> 8);
                }
        }
    }
    free(wbuf);
    if (!done) {
        if (strstr(pi.message, "Read Error") || strstr(pi.message, "EOF") ||
            strstr(pi.message, "Not enough"))
            SET_ERR("truncated PNG (the image data ends early): %s", pi.message);
        else
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

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a named pipe (FIFO)" : S_ISCHR(m) ? "a character device"
           : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int ts_read_file(const char *path, size_t max, uint8_t **data, size_t *len, char *err,
                 size_t errlen)
{
    *data = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO with no writer returns at once instead of
     * waiting; the type check below then refuses it. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        SET_ERR("%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        SET_ERR("%s: %s, not a file; skipped", path, file_kind(st.st_mode));
        close(fd);
        return -1;
    }
    if ((unsigned long long)st.st_size > max) {
        SET_ERR("%s: file larger than %zu MB", path, max >> 20);
        close(fd);
        return -1;
    }
    /* The size may change while reading (a file being written): read to the
     * end, within max. */
    size_t cap = (size_t)st.st_size + 1, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            SET_ERR("%s: out of memory", path);
            close(fd);
            return -1;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            SET_ERR("%s: read error: %s", path, strerror(errno));
            free(buf);
            close(fd);
            return -1;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (n < cap)
            continue;
        if (cap > max) {
            SET_ERR("%s: file larger than %zu MB", path, max >> 20);
            free(buf);
            close(fd);
            return -1;
        }
        cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
        uint8_t *nb = realloc(buf, cap);
        if (!nb)
            free(buf);
        buf = nb;
    }
    close(fd);
    *data = buf;
    *len = n;
    return 0;
}

/* Names a format tablesight does not read, by its first bytes. */
static const char *other_format(const uint8_t *d, size_t len)
{
    if (len >= 6 && (memcmp(d, "GIF87a", 6) == 0 || memcmp(d, "GIF89a", 6) == 0))
        return "a GIF image";
    if (len >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0)
        return "a WebP image";
    if (len >= 12 && memcmp(d + 4, "ftyp", 4) == 0) {
        if (memcmp(d + 8, "avif", 4) == 0 || memcmp(d + 8, "avis", 4) == 0)
            return "an AVIF image";
        if (memcmp(d + 8, "hei", 3) == 0 || memcmp(d + 8, "mif1", 4) == 0 ||
            memcmp(d + 8, "msf1", 4) == 0 || memcmp(d + 8, "hev", 3) == 0)
            return "a HEIF/HEIC image (iPhone: Settings > Camera > Formats > Most Compatible)";
        return "a video or MP4/QuickTime file";
    }
    if (len >= 4 && (memcmp(d, "II*\0", 4) == 0 || memcmp(d, "MM\0*", 4) == 0))
        return "a TIFF image";
    if (len >= 2 && d[0] == 'B' && d[1] == 'M')
        return "a BMP image";
    if (len >= 2 && d[0] == 0xFF && d[1] == 0xD8)
        return "a JPEG that ends after its first marker (truncated)";
    return NULL;
}

int ts_image_decode_limited(const uint8_t *data, size_t len, const ts_decode_limits *lim,
                            ts_image *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (len == 0) {
        SET_ERR("empty file");
        return -1;
    }
    if (len >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF)
        return jpeg_decode(data, len, lim, out, err, errlen);
    if (len >= 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0)
        return png_decode(data, len, lim, out, err, errlen);
    const char *other = other_format(data, len);
    if (other)
        SET_ERR("%s; tablesight reads JPEG and PNG", other);
    else
        SET_ERR("not a JPEG or PNG image");
    return -1;
}

int ts_image_decode(const uint8_t *data, size_t len, ts_image *out, char *err, size_t errlen)
{
    return ts_image_decode_limited(data, len, NULL, out, err, errlen);
}

int ts_image_is_grey(const ts_image *img)
{
    if (img->channels == 1)
        return 1;
    /* About 64 x 64 samples: enough to find any colour a photo has. */
    int sx = img->w / 64 + 1, sy = img->h / 64 + 1;
    for (int y = 0; y < img->h; y += sy) {
        const uint8_t *row = ts_image_row(img, y);
        for (int x = 0; x < img->w; x += sx) {
            const uint8_t *p = row + 3 * x;
            if (abs(p[0] - p[1]) > 6 || abs(p[1] - p[2]) > 6 || abs(p[0] - p[2]) > 6)
                return 0;
        }
    }
    return 1;
}

int ts_image_load(const char *path, ts_image *out, char *err, size_t errlen)
{
    return ts_image_load_limited(path, NULL, out, err, errlen);
}

int ts_image_load_limited(const char *path, const ts_decode_limits *lim, ts_image *out, char *err,
                          size_t errlen)
{
    uint8_t *data;
    size_t len;
    memset(out, 0, sizeof *out);
    if (ts_read_file(path, TS_FILE_MAX_BYTES, &data, &len, err, errlen) < 0)
        return -1;
    char why[200] = "";
    int rc = ts_image_decode_limited(data, len, lim, out, why, sizeof why);
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
