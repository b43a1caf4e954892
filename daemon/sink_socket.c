/* JSON lines on a UNIX stream socket (owner-only, mode 0600), to at most
 * MAX_CLIENTS clients; clients may send control lines back ("hint 2"), read
 * without waiting, at most CMD_MAX bytes each (the rest of a longer line is
 * thrown away, never taken for a command). Writes never
 * wait: a client whose socket buffer is full is dropped (it would only see a
 * stale table later anyway). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "sink_api.h"

enum { MAX_CLIENTS = 64, CMD_MAX = 128 };

typedef struct {
    ts_sink base;
    int fd;
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    int clients[MAX_CLIENTS];
    char inbuf[MAX_CLIENTS][CMD_MAX]; /* a command line being received, per client */
    int inlen[MAX_CLIENTS];
    int skipping[MAX_CLIENTS]; /* dropping the rest of an over-long line */
    int nclients;
    ts_buf last; /* the latest line with its newline, for new clients */
} socket_sink;

/* Sends a whole line without waiting: 0 if sent, -1 if the client has gone,
 * -2 if it is not reading (its buffer is full: a part line would garble it). */
static int send_all(int fd, const char *data, size_t len)
{
    ssize_t n = send(fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n == (ssize_t)len)
        return 0;
    return n >= 0 || errno == EAGAIN || errno == EWOULDBLOCK ? -2 : -1;
}

static void drop(socket_sink *s, int i)
{
    close(s->clients[i]);
    s->nclients--;
    s->clients[i] = s->clients[s->nclients];
    memcpy(s->inbuf[i], s->inbuf[s->nclients], CMD_MAX);
    s->inlen[i] = s->inlen[s->nclients];
    s->skipping[i] = s->skipping[s->nclients];
}

/* Control lines from clients ("hint", "hint 2", "reveal", ...): one per call.
 * Reads never wait; a line longer than CMD_MAX - 1 bytes is dropped whole. */
static int socket_command(ts_sink *base, char *out, size_t cap)
{
    socket_sink *s = (socket_sink *)base;
    for (int i = 0; i < s->nclients; i++) {
        char *nl;
        for (;;) {
            nl = memchr(s->inbuf[i], '\n', (size_t)s->inlen[i]);
            if (nl && s->skipping[i]) { /* the end of an over-long line: dropped */
                int used = (int)(nl - s->inbuf[i]) + 1;
                memmove(s->inbuf[i], s->inbuf[i] + used, (size_t)(s->inlen[i] - used));
                s->inlen[i] -= used;
                s->skipping[i] = 0;
                continue;
            }
            if (nl)
                break;
            if (s->skipping[i] || s->inlen[i] == CMD_MAX - 1) { /* too long: no command */
                s->inlen[i] = 0;
                s->skipping[i] = 1;
            }
            ssize_t n = recv(s->clients[i], s->inbuf[i] + s->inlen[i],
                             (size_t)(CMD_MAX - 1 - s->inlen[i]), MSG_DONTWAIT);
            if (n <= 0)
                break;
            s->inlen[i] += (int)n;
        }
        nl = memchr(s->inbuf[i], '\n', (size_t)s->inlen[i]);
        if (!nl)
            continue;
        size_t len = (size_t)(nl - s->inbuf[i]);
        if (len > 0 && s->inbuf[i][len - 1] == '\r')
            len--;
        snprintf(out, cap, "%.*s", (int)len, s->inbuf[i]);
        int used = (int)(nl - s->inbuf[i]) + 1;
        memmove(s->inbuf[i], s->inbuf[i] + used, (size_t)(s->inlen[i] - used));
        s->inlen[i] -= used;
        return 1;
    }
    return 0;
}

static void accept_clients(socket_sink *s)
{
    for (;;) {
        int c = accept(s->fd, NULL, NULL);
        if (c < 0)
            return; /* EAGAIN: nobody waiting (or a transient error) */
        fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK);
        if (s->nclients == MAX_CLIENTS || (s->last.len && send_all(c, s->last.data, s->last.len) < 0)) {
            close(c);
            continue;
        }
        s->inlen[s->nclients] = 0;
        s->skipping[s->nclients] = 0;
        s->clients[s->nclients++] = c;
    }
}

static int socket_poll(ts_sink *base, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    accept_clients((socket_sink *)base);
    return 0;
}

static int socket_line(ts_sink *base, const char *line, size_t len, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    socket_sink *s = (socket_sink *)base;
    accept_clients(s); /* before `last` changes: a new client gets the old table, then this
                          line, not this line twice (found by fuzz_socket) */
    ts_buf_clear(&s->last);
    ts_buf_add(&s->last, line, len);
    ts_buf_add(&s->last, "\n", 1);
    for (int i = 0; i < s->nclients; i++) {
        int rc = send_all(s->clients[i], s->last.data, s->last.len);
        if (rc == -2)
            fprintf(stderr, "socket: %s: dropped a client that is not reading\n", s->path);
        if (rc < 0)
            drop(s, i--);
    }
    return 0;
}

static void socket_destroy(ts_sink *base)
{
    socket_sink *s = (socket_sink *)base;
    while (s->nclients)
        drop(s, 0);
    if (s->fd >= 0) {
        close(s->fd);
        unlink(s->path);
    }
    ts_buf_free(&s->last);
    free(s);
}

/* An existing path may be replaced only if it is a socket nobody answers on
 * (left over from a run that was killed). */
static int may_replace(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(path, &st) < 0)
        return errno == ENOENT ? 0 : (snprintf(err, errlen, "%s: %s", path, strerror(errno)), -1);
    if (!S_ISSOCK(st.st_mode)) {
        snprintf(err, errlen, "%s exists and is not a socket; not replacing it", path);
        return -1;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    int live = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    if (fd >= 0)
        close(fd);
    if (live) {
        snprintf(err, errlen, "%s is in use by another process", path);
        return -1;
    }
    unlink(path);
    return 0;
}

ts_sink *ts_sink_socket_create(const char *path, char *err, size_t errlen)
{
    socket_sink *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->fd = -1;
    s->base.name = "socket";
    s->base.line = socket_line;
    s->base.poll = socket_poll;
    s->base.command = socket_command;
    s->base.destroy = socket_destroy;
    if (strlen(path) >= sizeof s->path) {
        snprintf(err, errlen, "socket path is longer than %zu bytes", sizeof s->path - 1);
        free(s);
        return NULL;
    }
    snprintf(s->path, sizeof s->path, "%s", path);
    if (may_replace(path, err, errlen) < 0) {
        free(s);
        return NULL;
    }
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, s->path, sizeof a.sun_path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    /* Owner-only whatever the umask: the table is the user's. bind() creates
     * the file with the umask's bits, so the umask is narrowed around it (the
     * sinks are opened before any thread of ours writes files) and the mode is
     * set again after, in case another thread changed the umask meanwhile. */
    mode_t old = umask(0177);
    int bound = fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0;
    umask(old);
    if (!bound || chmod(s->path, 0600) < 0 || listen(fd, 16) < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (bound)
            unlink(s->path);
        if (fd >= 0)
            close(fd);
        free(s);
        return NULL;
    }
    s->fd = fd;
    return &s->base;
}
