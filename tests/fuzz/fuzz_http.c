/* libFuzzer: arbitrary bytes as an HTTP request to the MJPEG sink (its
 * libmicrohttpd server and our request handling), over a real loopback TCP
 * connection. Never a crash or a hang; an answer, if any, is an HTTP status
 * line. Frames are published between requests so stream and snapshot
 * requests have something to send. Leaks are counted at exit, after the
 * sink is destroyed (the Makefile passes -detect_leaks=0): the server's
 * threads may still hold a request's memory when an input returns. */
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "image.h"
#include "sink_api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ts_sink *sink;
static ts_image frame;

static void cleanup(void)
{
    if (sink)
        sink->destroy(sink);
    ts_image_free(&frame);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    if (!sink) {
        sink = ts_sink_http_create("127.0.0.1:0", 0, err, sizeof err);
        if (!sink || ts_image_alloc(&frame, 64, 48, 3) < 0)
            abort();
        memset(frame.buf, 128, (size_t)frame.stride * 48);
        atexit(cleanup);
    }
    int c = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)ts_sink_http_port(sink)),
                            .sin_addr.s_addr = htonl(0x7f000001)};
    if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof a) < 0)
        abort();
    struct timeval tv = {0, 20000};
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (size)
        (void)send(c, data, size, MSG_NOSIGNAL);
    shutdown(c, SHUT_WR);
    char got[512];
    size_t have = 0;
    for (int i = 0; i < 5 && have < sizeof got; i++) {
        if (sink->wants_frame(sink))
            sink->frame(sink, &frame, 0, err, sizeof err);
        ssize_t r = recv(c, got + have, sizeof got - have, 0);
        if (r == 0)
            break;
        if (r > 0)
            have += (size_t)r;
    }
    if (have >= 5 && memcmp(got, "HTTP/", 5) != 0)
        abort();
    close(c);
    return 0;
}
