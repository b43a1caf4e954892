/* libFuzzer: the UNIX socket sink (JSON lines out, control lines in) against a
 * client that sends it arbitrary bytes (the input's first half). Every command
 * it hands on is one line shorter than 128 bytes; the next JSON line (the input's second half, minus newlines)
 * still reaches the client whole. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sink_api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ts_sink *sink;
static char path[64];

static void cleanup(void)
{
    if (sink)
        sink->destroy(sink);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    if (!sink) {
        snprintf(path, sizeof path, "/tmp/ts_fuzz_socket_%d.sock", (int)getpid());
        sink = ts_sink_socket_create(path, err, sizeof err);
        if (!sink)
            abort();
        atexit(cleanup);
    }
    int c = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof a) < 0)
        abort();
    size_t half = size / 2;
    if (half)
        (void)send(c, data, half, MSG_NOSIGNAL | MSG_DONTWAIT);
    char line[4096];
    size_t n = 0;
    for (size_t i = half; i < size && n < sizeof line - 1; i++)
        if (data[i] != '\n')
            line[n++] = (char)data[i];
    if (sink->poll(sink, err, sizeof err) < 0)
        abort();
    usleep(1000); /* let the bytes arrive */
    char cmd[256];
    for (int k = 0; k < 10000 && sink->command(sink, cmd, sizeof cmd); k++) {
        size_t cl = strlen(cmd);
        if (cl >= 128 || memchr(cmd, '\n', cl))
            abort();
    }
    if (sink->line(sink, line, n, err, sizeof err) < 0)
        abort();
    /* The new client gets the table as it was when it connected (the
     * previous line, if any), then exactly this line: each once, whole. */
    static char prev[4096];
    static size_t nprev;
    static int have_prev;
    size_t want = (have_prev ? nprev + 1 : 0) + n + 1;
    char got[8400];
    size_t have = 0;
    struct timeval tv = {5, 0};
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    while (have < want) {
        ssize_t r = recv(c, got + have, sizeof got - have, 0);
        if (r <= 0)
            abort();
        have += (size_t)r;
    }
    size_t at = 0;
    if (have_prev) {
        if (memcmp(got, prev, nprev) != 0 || got[nprev] != '\n')
            abort();
        at = nprev + 1;
    }
    if (have != want || memcmp(got + at, line, n) != 0 || got[at + n] != '\n')
        abort();
    memcpy(prev, line, n);
    nprev = n;
    have_prev = 1;
    close(c);
    return 0;
}
