/* MJPEG over HTTP for a phone's browser at the table, on libmicrohttpd.
 *
 *   GET /             a small page that shows the stream full screen
 *   GET /stream.mjpg  the annotated video (multipart/x-mixed-replace), also /stream
 *   GET /frame.jpg    one frame
 *
 * HTTP parsing, timeouts and connection bookkeeping are libmicrohttpd's (a
 * maintained, fuzzed server) rather than a hand-written parser. Bounds: at most
 * MAX_CLIENTS connections at once (more are refused at accept), a connection
 * with no progress for IDLE_TIMEOUT_S is closed (an idle socket, a viewer that
 * stopped reading), requests larger than REQUEST_MAX bytes are refused. The path
 * only picks one of the answers above: no file is ever served.
 *
 * Threads: libmicrohttpd runs one thread per connection; each stream thread
 * waits for the next frame under the sink's mutex. The display thread encodes a
 * frame only when some viewer is waiting for one (wants_frame), and publishes
 * it as a shared, reference-counted JPEG: it never waits on a client. */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "imageio.h"
#include "sink_api.h"

enum {
    MAX_CLIENTS = 8,       /* a few phones and a laptop at one table */
    IDLE_TIMEOUT_S = 10,   /* no bytes moved for this long: closed */
    REQUEST_MAX = 8192,    /* per-connection memory for the request line and headers */
    URL_MAX = 256,         /* longer paths are refused (414) */
    SNAPSHOT_WAIT_MS = 3000,
    JPEG_QUALITY = 80,
    LEGIBLE_H = 720,       /* smaller video is scaled up (2x, 3x) before drawing on it */
    BLOCK = 64 * 1024,     /* bytes handed to libmicrohttpd per call */
};

#define BOUNDARY "tablesightframe"

static const char PAGE[] =
    "<!doctype html><html lang=en><meta charset=utf-8>"
    "<meta name=viewport content=\"width=device-width,initial-scale=1\">"
    "<title>tablesight</title>"
    "<style>html,body{margin:0;height:100%;background:#111}"
    "img{display:block;width:100%;height:100%;object-fit:contain}"
    "p{position:fixed;bottom:0;margin:4px;color:#888;font:12px sans-serif}</style>"
    "<img src=\"/stream.mjpg\" alt=\"the table, live, with hints\">"
    "<p>tablesight live table (reload if the stream stops)</p></html>\n";

/* One encoded frame, shared by every viewer sending it. */
typedef struct {
    atomic_int refs;
    uint64_t seq;
    size_t len;
    uint8_t data[];
} jpeg_frame;

static void frame_unref(jpeg_frame *f)
{
    if (f && atomic_fetch_sub(&f->refs, 1) == 1)
        free(f);
}

typedef struct {
    ts_sink base;
    struct MHD_Daemon *daemon;
    int fd, port;
    atomic_int waiting; /* viewers waiting for a frame: the display encodes one */

    pthread_mutex_t mu; /* guards the rest */
    pthread_cond_t cv;  /* a new frame, or stop */
    jpeg_frame *latest;
    int stopping;

    ts_image canvas; /* display thread: the annotated copy */
} http_sink;

/* Text on the stream is this much larger than in the window: a phone shows the
 * whole picture a few hundred pixels wide (a 640x360 stream's codes came out
 * 7 px tall, then shrunk by the phone). */
static const double PHONE_TEXT = 1.5;

/* ---- Frames for viewers ------------------------------------------------- */

static struct timespec deadline_ms(int ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    long long ns = t.tv_nsec + (long long)ms * 1000000LL;
    t.tv_sec += (time_t)(ns / 1000000000LL);
    t.tv_nsec = (long)(ns % 1000000000LL);
    return t;
}

/* A reference to a frame newer than after, waiting up to wait_ms (< 0: until
 * one comes or the sink stops). NULL on timeout or stop. */
static jpeg_frame *next_frame(http_sink *h, uint64_t after, int wait_ms)
{
    struct timespec until = deadline_ms(wait_ms < 0 ? 0 : wait_ms);
    jpeg_frame *f = NULL;
    atomic_fetch_add(&h->waiting, 1);
    pthread_mutex_lock(&h->mu);
    while (!h->stopping && !(h->latest && h->latest->seq > after)) {
        if (wait_ms < 0)
            pthread_cond_wait(&h->cv, &h->mu);
        else if (pthread_cond_timedwait(&h->cv, &h->mu, &until) == ETIMEDOUT)
            break;
    }
    if (!h->stopping && h->latest && h->latest->seq > after) {
        f = h->latest;
        atomic_fetch_add(&f->refs, 1);
    }
    pthread_mutex_unlock(&h->mu);
    atomic_fetch_sub(&h->waiting, 1);
    return f;
}

/* ---- The stream --------------------------------------------------------- */

typedef struct {
    http_sink *h;
    jpeg_frame *f;   /* the part being sent */
    char head[160];  /* its part header */
    size_t head_len, off; /* bytes of head + data + "\r\n" sent */
} stream;

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    stream *s = cls;
    if (!s->f || s->off == s->head_len + s->f->len + 2) {
        uint64_t after = s->f ? s->f->seq : 0;
        jpeg_frame *next = next_frame(s->h, after, -1); /* a thread per connection: may wait */
        if (!next)
            return MHD_CONTENT_READER_END_OF_STREAM; /* the sink is stopping */
        frame_unref(s->f);
        s->f = next;
        s->off = 0;
        s->head_len = (size_t)snprintf(s->head, sizeof s->head,
                                       "--" BOUNDARY "\r\nContent-Type: image/jpeg\r\n"
                                       "Content-Length: %zu\r\n\r\n",
                                       next->len);
    }
    size_t n = 0, total = s->head_len + s->f->len + 2;
    while (n < max && s->off < total) {
        size_t take;
        if (s->off < s->head_len) {
            take = s->head_len - s->off < max - n ? s->head_len - s->off : max - n;
            memcpy(buf + n, s->head + s->off, take);
        } else if (s->off < s->head_len + s->f->len) {
            size_t at = s->off - s->head_len;
            take = s->f->len - at < max - n ? s->f->len - at : max - n;
            memcpy(buf + n, s->f->data + at, take);
        } else {
            size_t at = s->off - s->head_len - s->f->len;
            take = 2 - at < max - n ? 2 - at : max - n;
            static const char crlf[2] = {'\r', '\n'};
            memcpy(buf + n, crlf + at, take);
        }
        n += take;
        s->off += take;
    }
    return (ssize_t)n;
}

static void stream_free(void *cls)
{
    stream *s = cls;
    frame_unref(s->f);
    free(s);
}

/* ---- Requests ----------------------------------------------------------- */

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *type,
                                 const char *body)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, "Allow", "GET, HEAD");
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result send_snapshot(http_sink *h, struct MHD_Connection *c)
{
    uint64_t seen = 0;
    pthread_mutex_lock(&h->mu);
    if (h->latest)
        seen = h->latest->seq;
    pthread_mutex_unlock(&h->mu);
    /* A fresh frame (the display encodes one for a waiting viewer); else the
     * last one there was. */
    jpeg_frame *f = next_frame(h, seen, SNAPSHOT_WAIT_MS);
    if (!f)
        f = next_frame(h, 0, 0);
    if (!f)
        return send_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain", "no frame yet\n");
    struct MHD_Response *r =
        MHD_create_response_from_buffer(f->len, f->data, MHD_RESPMEM_MUST_COPY);
    frame_unref(f);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", "image/jpeg");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result send_stream(http_sink *h, struct MHD_Connection *c)
{
    stream *s = calloc(1, sizeof *s);
    if (!s)
        return MHD_NO;
    s->h = h;
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, BLOCK, stream_read, s, stream_free);
    if (!r) {
        free(s);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "multipart/x-mixed-replace; boundary=" BOUNDARY);
    MHD_add_response_header(r, "Cache-Control", "no-cache, no-store");
    MHD_add_response_header(r, "Pragma", "no-cache");
    enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_size, void **state)
{
    (void)version;
    (void)upload_data;
    http_sink *h = cls;
    if (!*state) { /* first call: headers only; answer on the second */
        *state = h;
        return MHD_YES;
    }
    if (*upload_size) { /* a body: not wanted, but read and dropped */
        *upload_size = 0;
        return MHD_YES;
    }
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return send_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", "only GET\n");
    if (strlen(url) > URL_MAX)
        return send_text(c, MHD_HTTP_URI_TOO_LONG, "text/plain", "path too long\n");
    if (strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0)
        return send_text(c, MHD_HTTP_OK, "text/html; charset=utf-8", PAGE);
    if (strcmp(url, "/stream.mjpg") == 0 || strcmp(url, "/stream") == 0)
        return send_stream(h, c);
    if (strcmp(url, "/frame.jpg") == 0)
        return send_snapshot(h, c);
    return send_text(c, MHD_HTTP_NOT_FOUND, "text/plain",
                     "try / (a page), /stream.mjpg (the stream) or /frame.jpg (one frame)\n");
}

/* ---- The sink ----------------------------------------------------------- */

static int http_wants(ts_sink *base)
{
    return atomic_load(&((http_sink *)base)->waiting) > 0;
}

static int http_frame(ts_sink *base, const ts_image *img, double t, char *err, size_t errlen)
{
    (void)t;
    (void)err;
    (void)errlen;
    http_sink *h = (http_sink *)base;
    if (!http_wants(base))
        return 0; /* nobody is waiting for a frame: skip the encoding */
    uint8_t *jpg = NULL;
    size_t len = 0;
    char why[160];
    if (ts_jpeg_encode(img, JPEG_QUALITY, &jpg, &len, why, sizeof why) < 0)
        return 0; /* one frame lost; the stream goes on */
    jpeg_frame *f = malloc(sizeof *f + len);
    if (!f) {
        free(jpg);
        return 0;
    }
    atomic_init(&f->refs, 1); /* the sink's */
    f->len = len;
    memcpy(f->data, jpg, len);
    free(jpg);
    pthread_mutex_lock(&h->mu);
    f->seq = h->latest ? h->latest->seq + 1 : 1;
    jpeg_frame *old = h->latest;
    h->latest = f;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    frame_unref(old);
    return 0;
}

/* The frame with its overlay drawn for a phone: at least LEGIBLE_H lines,
 * text PHONE_TEXT times the window's, only when a viewer waits for it. */
static int http_video(ts_sink *base, const ts_image *img, ts_frame *keep,
                      const ts_overlay_list *ov, double t, char *err, size_t errlen)
{
    (void)keep;
    http_sink *h = (http_sink *)base;
    if (!http_wants(base))
        return 0;
    if (ts_overlay_annotate(&h->canvas, img, ov, LEGIBLE_H, PHONE_TEXT) < 0)
        return 0; /* one frame lost; the stream goes on */
    return http_frame(base, &h->canvas, t, err, errlen);
}

/* Waits up to DRAIN_MS for the server's connections to end (each sees
 * stopping): libmicrohttpd 0.9.75 stopped while a connection's thread
 * was still closing it crashed in that thread (once, fuzz_http at exit). */
enum { DRAIN_MS = 1000, DRAIN_STEP_MS = 5 };
static void drain_connections(struct MHD_Daemon *d)
{
    struct timespec step = {0, DRAIN_STEP_MS * 1000000L};
    for (int waited = 0; waited < DRAIN_MS; waited += DRAIN_STEP_MS) {
        const union MHD_DaemonInfo *i = MHD_get_daemon_info(d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
        if (!i || i->num_connections == 0)
            return;
        nanosleep(&step, NULL);
    }
}

static void http_destroy(ts_sink *base)
{
    http_sink *h = (http_sink *)base;
    pthread_mutex_lock(&h->mu);
    h->stopping = 1; /* waiting viewers end their streams */
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    if (h->daemon) {
        drain_connections(h->daemon);
        MHD_stop_daemon(h->daemon);
    }
    if (h->fd >= 0)
        close(h->fd);
    frame_unref(h->latest);
    ts_image_free(&h->canvas);
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->mu);
    free(h);
}

/* ---- Listening ---------------------------------------------------------- */

static int is_loopback(const struct sockaddr *a)
{
    if (a->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)a)->sin_addr.s_addr) >> 24) == 127;
    if (a->sa_family == AF_INET6) {
        const struct in6_addr *x = &((const struct sockaddr_in6 *)a)->sin6_addr;
        return IN6_IS_ADDR_LOOPBACK(x) || (IN6_IS_ADDR_V4MAPPED(x) && x->s6_addr[12] == 127);
    }
    return 0;
}

/* "HOST:PORT", "[V6]:PORT" or ":PORT"/"PORT" (loopback). */
static int split_addr(const char *addr, char *host, size_t hn, char *port, size_t pn)
{
    const char *colon = strrchr(addr, ':');
    const char *h = addr, *p = colon ? colon + 1 : addr;
    size_t hl = colon ? (size_t)(colon - addr) : 0;
    if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']')
        h++, hl -= 2;
    if (hl == 0)
        h = "127.0.0.1", hl = strlen(h);
    if (hl >= hn || strlen(p) >= pn || !*p || strspn(p, "0123456789") != strlen(p) ||
        atoi(p) > 65535)
        return -1;
    memcpy(host, h, hl);
    host[hl] = '\0';
    snprintf(port, pn, "%s", p);
    return 0;
}

/* The listening socket is made here (the address checked as loopback before
 * anything listens) and handed to libmicrohttpd. */
static int listen_on(const char *addr, int allow_any, int *port_out, char *err, size_t errlen)
{
    char host[128], port[16];
    if (split_addr(addr, host, sizeof host, port, sizeof port) < 0) {
        snprintf(err, errlen, "http: '%s' is not HOST:PORT", addr);
        return -1;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *ai = NULL;
    int rc = getaddrinfo(host, port, &hints, &ai);
    if (rc != 0) {
        snprintf(err, errlen, "http: %s: %s", host, gai_strerror(rc));
        return -1;
    }
    if (!allow_any && !is_loopback(ai->ai_addr)) {
        snprintf(err, errlen,
                 "http: %s is not a loopback address; add --http-any to serve it to the network",
                 host);
        freeaddrinfo(ai);
        return -1;
    }
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 16) < 0) {
        snprintf(err, errlen, "http: %s: %s", addr, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return -1;
    }
    freeaddrinfo(ai);
    struct sockaddr_storage bound;
    socklen_t bl = sizeof bound;
    getsockname(fd, (struct sockaddr *)&bound, &bl);
    *port_out = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                                  : ((struct sockaddr_in *)&bound)->sin_port);
    return fd;
}

ts_sink *ts_sink_http_create(const char *addr, int allow_any, char *err, size_t errlen)
{
    http_sink *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    atomic_init(&h->waiting, 0);
    h->fd = listen_on(addr, allow_any, &h->port, err, errlen);
    if (h->fd < 0) {
        h->fd = -1;
        http_destroy(&h->base);
        return NULL;
    }
    h->daemon = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, 0, NULL,
        NULL, on_request, h, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)h->fd,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)MAX_CLIENTS, MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned)IDLE_TIMEOUT_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)REQUEST_MAX,
        MHD_OPTION_THREAD_STACK_SIZE, (size_t)(256 * 1024), MHD_OPTION_END);
    if (!h->daemon) {
        snprintf(err, errlen, "http: %s: the HTTP server would not start", addr);
        http_destroy(&h->base);
        return NULL;
    }
    h->fd = -1; /* libmicrohttpd owns and closes it */
    h->base.name = "http";
    h->base.frame = http_frame;
    h->base.video = http_video;
    h->base.wants_frame = http_wants;
    h->base.destroy = http_destroy;
    return &h->base;
}

int ts_sink_http_port(const ts_sink *s)
{
    return ((const http_sink *)s)->port;
}
