/* JSON lines: the stable-table line format, and the stdout sink. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result_json.h"
#include "sink_api.h"

static void point(ts_json *j, ts_pt p)
{
    ts_json_arr(j);
    ts_json_num(j, p.x, 1);
    ts_json_num(j, p.y, 1);
    ts_json_end(j);
}

static void events(ts_json *j, const ts_stable *st, double t0)
{
    ts_json_arr(j);
    for (int i = 0; i < st->nevents; i++) {
        const ts_event *e = &st->events[i];
        ts_json_obj(j);
        ts_json_key(j, "type");
        ts_json_str(j, ts_event_name(e->type));
        ts_json_key(j, "id");
        ts_json_int(j, e->id);
        ts_json_key(j, "code");
        ts_json_str(j, e->code);
        if (e->type == TS_EV_REREAD) {
            ts_json_key(j, "from");
            ts_json_str(j, e->from);
        }
        ts_json_key(j, "at");
        point(j, e->at);
        if (e->type == TS_EV_MOVED) {
            ts_json_key(j, "was");
            point(j, e->was);
        }
        ts_json_key(j, "frame");
        ts_json_int(j, (long long)e->frame);
        ts_json_key(j, "t");
        ts_json_num(j, e->t - t0, 3);
        ts_json_end(j);
    }
    ts_json_end(j);
}

void ts_stable_json(ts_json *j, const ts_stable *st, const char *source, const char *game,
                    double t0)
{
    /* The contract's members, then this line's own. */
    ts_json_reset(j);
    ts_json_obj(j);
    ts_result_json_members(j, &st->table, source, (long)st->frame, game);
    ts_json_key(j, "t");
    ts_json_num(j, st->t - t0, 3);
    ts_json_key(j, "ids");
    ts_json_arr(j);
    for (int i = 0; i < st->table.frame.ncards; i++)
        ts_json_int(j, st->id[i]);
    ts_json_end(j);
    ts_json_key(j, "events");
    events(j, st, t0);
    ts_json_end(j);
}

/* ---- stdout ------------------------------------------------------------- */

typedef struct {
    ts_sink base;
    FILE *f;
} json_sink;

static int json_line(ts_sink *s, const char *line, size_t len, char *err, size_t errlen)
{
    json_sink *js = (json_sink *)s;
    if (fwrite(line, 1, len, js->f) != len || fputc('\n', js->f) == EOF || fflush(js->f) == EOF) {
        snprintf(err, errlen, "cannot write JSON lines: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static void json_destroy(ts_sink *s)
{
    json_sink *js = (json_sink *)s;
    fflush(js->f);
    free(js);
}

ts_sink *ts_sink_json_create(FILE *f, char *err, size_t errlen)
{
    json_sink *js = calloc(1, sizeof *js);
    if (!js) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    js->f = f;
    js->base.name = "json";
    js->base.line = json_line;
    js->base.destroy = json_destroy;
    return &js->base;
}
