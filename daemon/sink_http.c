/* MJPEG over HTTP: the annotated video for a browser or `curl`, loopback only
 * unless asked. A tiny, non-blocking server: requests are read into a small
 * buffer, the path only picks one of two answers (never a file), and a viewer
 * that cannot keep up skips frames and is dropped when it stops reading. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "imageio.h"
#include "sink_api.h"
#include "stats.h"

enum {
    MAX_CLIENTS = 16,
    REQUEST_MAX = 2048,  /* a GET line and headers; anything longer is refused */
    JPEG_QUALITY = 80,
};
static const double REQUEST_TIMEOUT_S = 5, STUCK_TIMEOUT_S = 10;

#define BOUNDARY "tablesightframe"

typedef enum { C_REQUEST, C_STREAM, C_SNAPSHOT, C_CLOSING } client_state;

typedef struct {
    int fd;
    client_state state;
    char req[REQUEST_MAX + 1];
    size_t reqlen;
    ts_buf out;      /* bytes not yet sent */
    size_t sent;     /* of out */
    double since;    /* connected (request) or the last progress writing */
    int got_frame;   /* a snapshot client has its frame queued */
} client;

typedef struct {
    ts_sink base;
    int fd;
    int port;
    client clients[MAX_CLIENTS];
    int nclients;
} http_sink;

/* ---- Clients ------------------------------------------------------------ */

static void drop(http_sink *h, int i)
{
    close(h->clients[i].fd);
    ts_buf_free(&h->clients[i].out);
    h->clients[i] = h->clients[--h->nclients];
}

static void queue(client *c, const char *data, size_t n)
{
    if (c->sent == c->out.len) { /* all sent: start the buffer over */
        ts_buf_clear(&c->out);
        c->sent = 0;
    }
    ts_buf_add(&c->out, data, n);
}

/* Sends what it can without waiting. Returns -1 if the client is gone. */
static int flush(client *c)
{
    while (c->sent < c->out.len) {
        ssize_t n = send(c->fd, c->out.data + c->sent, c->out.len - c->sent,
                         MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
        c->sent += (size_t)n;
        c->since = ts_now();
    }
    return c->out.failed ? -1 : 0;
}

static void respond(client *c, const char *status, const char *body)
{
    char msg[256];
    int n = snprintf(msg, sizeof msg,
                     "HTTP/1.0 %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
                     "Connection: close\r\n\r\n%s",
                     status, strlen(body), body);
    queue(c, msg, (size_t)n);
    c->state = C_CLOSING;
}

/* The request line decides the answer; headers are read and ignored. */
static void route(client *c)
{
    char method[8] = "", path[64] = "";
    if (sscanf(c->req, "%7s %63s", method, path) != 2) {
        respond(c, "400 Bad Request", "bad request\n");
        return;
    }
    if (strcmp(method, "GET") != 0) {
        respond(c, "405 Method Not Allowed", "only GET\n");
        return;
    }
    if (strcmp(path, "/") == 0 || strcmp(path, "/stream") == 0 || strcmp(path, "/stream.mjpg") == 0) {
        static const char head[] = "HTTP/1.0 200 OK\r\n"
                                   "Content-Type: multipart/x-mixed-replace; boundary=" BOUNDARY "\r\n"
                                   "Cache-Control: no-cache, no-store\r\nPragma: no-cache\r\n"
                                   "Connection: close\r\n\r\n";
        queue(c, head, sizeof head - 1);
        c->state = C_STREAM;
    } else if (strcmp(path, "/frame.jpg") == 0) {
        c->state = C_SNAPSHOT;
    } else {
        respond(c, "404 Not Found", "try / (the stream) or /frame.jpg\n");
    }
}

static int read_request(client *c)
{
    ssize_t n = recv(c->fd, c->req + c->reqlen, REQUEST_MAX - c->reqlen, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
        return -1;
    if (n > 0) {
        c->reqlen += (size_t)n;
        c->req[c->reqlen] = '\0';
    }
    if (strstr(c->req, "\r\n\r\n") || strstr(c->req, "\n\n"))
        route(c);
    else if (c->reqlen == REQUEST_MAX)
        respond(c, "431 Request Header Fields Too Large", "request too large\n");
    return 0;
}

static void accept_clients(http_sink *h)
{
    for (;;) {
        int fd = accept(h->fd, NULL, NULL);
        if (fd < 0)
            return;
        if (h->nclients == MAX_CLIENTS) {
            close(fd);
            continue;
        }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        client *c = &h->clients[h->nclients++];
        memset(c, 0, sizeof *c);
        c->fd = fd;
        c->since = ts_now();
    }
}

static int http_poll(ts_sink *base, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    http_sink *h = (http_sink *)base;
    accept_clients(h);
    double now = ts_now();
    for (int i = 0; i < h->nclients; i++) {
        client *c = &h->clients[i];
        int gone = 0;
        if (c->state == C_REQUEST)
            gone = read_request(c) < 0 || now - c->since > REQUEST_TIMEOUT_S;
        if (!gone)
            gone = flush(c) < 0;
        if (!gone && c->sent < c->out.len && now - c->since > STUCK_TIMEOUT_S)
            gone = 1; /* not reading at all */
        if (!gone && c->sent == c->out.len &&
            (c->state == C_CLOSING || (c->state == C_SNAPSHOT && c->got_frame)))
            gone = 1; /* answered */
        if (gone)
            drop(h, i--);
    }
    return 0;
}

/* ---- Frames ------------------------------------------------------------- */

static int http_wants(ts_sink *base)
{
    http_sink *h = (http_sink *)base;
    for (int i = 0; i < h->nclients; i++) {
        const client *c = &h->clients[i];
        if ((c->state == C_STREAM || (c->state == C_SNAPSHOT && !c->got_frame)) &&
            c->sent == c->out.len)
            return 1;
    }
    return 0;
}

static int http_frame(ts_sink *base, const ts_image *img, double t, char *err, size_t errlen)
{
    (void)t;
    http_sink *h = (http_sink *)base;
    http_poll(base, err, errlen);
    if (!http_wants(base))
        return 0; /* nobody is ready for a frame: skip the encoding */
    uint8_t *jpg = NULL;
    size_t len = 0;
    char why[160];
    if (ts_jpeg_encode(img, JPEG_QUALITY, &jpg, &len, why, sizeof why) < 0)
        return 0; /* one frame lost; the stream goes on */
    for (int i = 0; i < h->nclients; i++) {
        client *c = &h->clients[i];
        if (c->sent != c->out.len)
            continue; /* still sending the last frame: this one is skipped */
        char head[160];
        int n;
        if (c->state == C_STREAM)
            n = snprintf(head, sizeof head,
                         "--" BOUNDARY "\r\nContent-Type: image/jpeg\r\nContent-Length: %zu\r\n\r\n",
                         len);
        else if (c->state == C_SNAPSHOT && !c->got_frame)
            n = snprintf(head, sizeof head,
                         "HTTP/1.0 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: %zu\r\n"
                         "Cache-Control: no-cache\r\nConnection: close\r\n\r\n",
                         len);
        else
            continue;
        queue(c, head, (size_t)n);
        queue(c, (const char *)jpg, len);
        if (c->state == C_STREAM)
            queue(c, "\r\n", 2);
        c->got_frame = 1;
        c->since = ts_now();
    }
    free(jpg);
    return http_poll(base, err, errlen);
}

static void http_destroy(ts_sink *base)
{
    http_sink *h = (http_sink *)base;
    while (h->nclients)
        drop(h, 0);
    if (h->fd >= 0)
        close(h->fd);
    free(h);
}

/* ---- Listening ---------------------------------------------------------- */

static int is_loopback(const struct sockaddr *a)
{
    if (a->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)a)->sin_addr.s_addr) >> 24) == 127;
    if (a->sa_family == AF_INET6) {
        const struct in6_addr *x = &((const struct sockaddr_in6 *)a)->sin6_addr;
        return IN6_IS_ADDR_LOOPBACK(x) ||
               (IN6_IS_ADDR_V4MAPPED(x) && x->s6_addr[12] == 127);
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
    if (hl >= hn || strlen(p) >= pn || !*p || strspn(p, "0123456789") != strlen(p))
        return -1;
    memcpy(host, h, hl);
    host[hl] = '\0';
    snprintf(port, pn, "%s", p);
    return 0;
}

ts_sink *ts_sink_http_create(const char *addr, int allow_any, char *err, size_t errlen)
{
    char host[128], port[16];
    if (split_addr(addr, host, sizeof host, port, sizeof port) < 0) {
        snprintf(err, errlen, "http: '%s' is not HOST:PORT", addr);
        return NULL;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *ai = NULL;
    int rc = getaddrinfo(host, port, &hints, &ai);
    if (rc != 0) {
        snprintf(err, errlen, "http: %s: %s", host, gai_strerror(rc));
        return NULL;
    }
    if (!allow_any && !is_loopback(ai->ai_addr)) {
        snprintf(err, errlen, "http: %s is not a loopback address; add --http-any to serve it to "
                              "the network", host);
        freeaddrinfo(ai);
        return NULL;
    }
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 8) < 0) {
        snprintf(err, errlen, "http: %s: %s", addr, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return NULL;
    }
    freeaddrinfo(ai);
    http_sink *h = calloc(1, sizeof *h);
    if (!h) {
        close(fd);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    struct sockaddr_storage bound;
    socklen_t bl = sizeof bound;
    getsockname(fd, (struct sockaddr *)&bound, &bl);
    h->port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                                : ((struct sockaddr_in *)&bound)->sin_port);
    h->fd = fd;
    h->base.name = "http";
    h->base.frame = http_frame;
    h->base.wants_frame = http_wants;
    h->base.poll = http_poll;
    h->base.destroy = http_destroy;
    return &h->base;
}

int ts_sink_http_port(const ts_sink *s)
{
    return ((const http_sink *)s)->port;
}
