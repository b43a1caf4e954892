/* The capture's JPEG decoder (see capture_jpeg.h). */
#include "capture_jpeg.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <turbojpeg.h>

/* Frames alive at once: the newest, the one vision reads, the one shown, and
 * one being decoded; more are freed rather than kept. */
enum { KEEP = 6 };

struct ts_jpeg_dec {
    tjhandle tj; /* the decoding thread's */
    pthread_mutex_t mu; /* guards the rest */
    int refs;
    size_t size; /* bytes of every kept buffer */
    int n;
    uint8_t *kept[KEEP];
};

ts_jpeg_dec *ts_jpeg_dec_create(void)
{
    ts_jpeg_dec *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    if (!(d->tj = tjInitDecompress())) {
        free(d);
        return NULL;
    }
    pthread_mutex_init(&d->mu, NULL);
    d->refs = 1;
    return d;
}

void ts_jpeg_dec_unref(ts_jpeg_dec *d)
{
    if (!d)
        return;
    pthread_mutex_lock(&d->mu);
    int last = --d->refs == 0;
    pthread_mutex_unlock(&d->mu);
    if (!last)
        return;
    for (int i = 0; i < d->n; i++)
        free(d->kept[i]);
    tjDestroy(d->tj);
    pthread_mutex_destroy(&d->mu);
    free(d);
}

/* A buffer of size bytes (a kept one if it fits), with a reference on d. */
static uint8_t *take(ts_jpeg_dec *d, size_t size)
{
    uint8_t *p = NULL;
    pthread_mutex_lock(&d->mu);
    if (size != d->size) { /* the picture size changed: the kept ones are no use */
        for (int i = 0; i < d->n; i++)
            free(d->kept[i]);
        d->n = 0;
        d->size = size;
    }
    if (d->n > 0)
        p = d->kept[--d->n];
    d->refs++;
    pthread_mutex_unlock(&d->mu);
    if (!p && !(p = malloc(size)))
        ts_jpeg_dec_unref(d);
    return p;
}

void ts_jpeg_dec_give_back(ts_jpeg_dec *d, ts_image *img)
{
    if (!d || !img->buf)
        return;
    size_t size = (size_t)img->stride * (size_t)img->h;
    pthread_mutex_lock(&d->mu);
    if (size == d->size && d->n < KEEP) {
        d->kept[d->n++] = img->buf;
        img->buf = NULL;
    }
    pthread_mutex_unlock(&d->mu);
    free(img->buf);
    memset(img, 0, sizeof *img);
    ts_jpeg_dec_unref(d);
}

int ts_jpeg_dec_frame(ts_jpeg_dec *d, const uint8_t *data, size_t len, ts_image *out, char *why,
                      size_t n)
{
    memset(out, 0, sizeof *out);
    int w = 0, h = 0, subsamp, colorspace;
    if (tjDecompressHeader3(d->tj, data, (unsigned long)len, &w, &h, &subsamp, &colorspace) < 0) {
        snprintf(why, n, "corrupt JPEG header: %s", tjGetErrorStr2(d->tj));
        return -1;
    }
    if (w <= 0 || h <= 0 || w > TS_IMAGE_MAX_SIDE || h > TS_IMAGE_MAX_SIDE ||
        (long long)w * h > TS_IMAGE_MAX_PIXELS) {
        snprintf(why, n, "a %dx%d JPEG frame is too large", w, h);
        return -1;
    }
    size_t size = (size_t)w * (size_t)h * 3;
    uint8_t *p = take(d, size);
    if (!p) {
        snprintf(why, n, "out of memory for a %dx%d frame", w, h);
        return -1;
    }
    *out = (ts_image){.w = w, .h = h, .stride = w * 3, .channels = 3, .buf = p};
    /* Default flags, as ts_image_decode: accurate DCT and smooth chroma. */
    if (tjDecompress2(d->tj, data, (unsigned long)len, p, w, w * 3, h, TJPF_BGR, 0) < 0) {
        const char *msg = tjGetErrorStr2(d->tj);
        /* Data that ends early leaves grey rows: not a frame to read. */
        if (tjGetErrorCode(d->tj) != TJERR_WARNING || strstr(msg, "Premature end")) {
            snprintf(why, n, "corrupt JPEG data: %s", msg);
            ts_jpeg_dec_give_back(d, out);
            return -1;
        }
    }
    return 0;
}
