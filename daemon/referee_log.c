/* A referee session's log directory (see referee_log.h). */
#include "referee_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "imageio.h"
#include "json_writer.h"
#include "overlay.h"

struct ts_referee_log {
    char dir[3072];
    FILE *f;
    int n;
    ts_image canvas;
};

ts_referee_log *ts_referee_log_open(const char *dir, char *err, size_t errlen)
{
    if (strlen(dir) > 3000) {
        snprintf(err, errlen, "log directory name too long");
        return NULL;
    }
    if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot create: %s", dir, strerror(errno));
        return NULL;
    }
    ts_referee_log *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(l->dir, sizeof l->dir, "%s", dir);
    char path[3200];
    snprintf(path, sizeof path, "%s/verdicts.jsonl", dir);
    l->f = fopen(path, "a");
    if (!l->f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        free(l);
        return NULL;
    }
    return l;
}

void ts_referee_log_close(ts_referee_log *l)
{
    if (!l)
        return;
    fclose(l->f);
    ts_image_free(&l->canvas);
    free(l);
}

static void verdict_members(ts_json *j, const ts_verdict *v, const char *game, double t)
{
    ts_writer w = ts_json_writer(j);
    ts_json_key(j, "type");
    ts_json_str(j, "verdict");
    ts_verdict_report(v, game, t, &w);
}

void ts_verdict_json(ts_json *j, const ts_verdict *v, const char *game, double t)
{
    ts_json_reset(j);
    ts_json_obj(j);
    verdict_members(j, v, game, t);
    ts_json_end(j);
}

/* A copy of img with the verdict drawn near the move. */
static int annotated(ts_referee_log *l, const ts_image *img, const ts_verdict *v, float x, float y)
{
    if (l->canvas.w != img->w || l->canvas.h != img->h) {
        ts_image_free(&l->canvas);
        if (ts_image_alloc(&l->canvas, img->w, img->h, 3) < 0)
            return -1;
    }
    for (int r = 0; r < img->h; r++)
        memcpy(ts_image_row(&l->canvas, r), ts_image_row(img, r), (size_t)img->w * 3);
    char text[TS_REASON_MAX + 40];
    snprintf(text, sizeof text, "%s: %s", v->verdict, v->reason);
    static ts_table empty; /* nothing but the verdict */
    ts_overlay_opts oo = {.hide_sets = 1, .verdict = text, .verdict_kind = v->kind,
                          .verdict_x = x, .verdict_y = y};
    return ts_overlay_draw(&l->canvas, &empty, &oo);
}

int ts_referee_log_write(ts_referee_log *l, const ts_verdict *v, const char *game, double t,
                         const ts_image *before, const ts_image *after, float at_x, float at_y,
                         ts_json *j, char *err, size_t errlen)
{
    l->n++;
    char bname[64], aname[64], path[3200];
    snprintf(bname, sizeof bname, "move_%04d_before.jpg", l->n);
    snprintf(aname, sizeof aname, "move_%04d_after.jpg", l->n);
    int ok_b = 0, ok_a = 0;
    if (before && before->buf) {
        snprintf(path, sizeof path, "%s/%s", l->dir, bname);
        ok_b = ts_image_save_jpeg(before, path, 85, err, errlen) == 0;
    }
    if (after && after->buf && annotated(l, after, v, at_x, at_y) == 0) {
        snprintf(path, sizeof path, "%s/%s", l->dir, aname);
        ok_a = ts_image_save_jpeg(&l->canvas, path, 85, err, errlen) == 0;
    }
    ts_json_reset(j);
    ts_json_obj(j);
    verdict_members(j, v, game, t);
    ts_json_key(j, "move");
    ts_json_int(j, l->n);
    ts_json_key(j, "before");
    if (ok_b)
        ts_json_str(j, bname);
    else
        ts_json_null(j);
    ts_json_key(j, "after");
    if (ok_a)
        ts_json_str(j, aname);
    else
        ts_json_null(j);
    ts_json_end(j);
    if (j->buf.failed || fprintf(l->f, "%s\n", j->buf.data) < 0 || fflush(l->f) != 0) {
        snprintf(err, errlen, "%s/verdicts.jsonl: cannot write", l->dir);
        return -1;
    }
    return 0;
}

/* The string value of "key" in a line we wrote ourselves (no escapes beyond
 * \" and \\ inside); "" if absent or null. */
static void field(const char *line, const char *key, char *out, size_t cap)
{
    char pat[40];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    out[0] = '\0';
    if (!p)
        return;
    p += strlen(pat);
    if (*p == '"') {
        size_t n = 0;
        for (p++; *p && *p != '"' && n + 1 < cap; p++) {
            if (*p == '\\' && p[1])
                p++;
            out[n++] = *p;
        }
        out[n] = '\0';
    } else if (*p == '[') {
        const char *e = strchr(p, ']');
        size_t n = e ? (size_t)(e - p + 1) : strlen(p);
        snprintf(out, cap, "%.*s", (int)n, p);
    } else {
        size_t n = strcspn(p, ",}");
        snprintf(out, cap, "%.*s", (int)n, p);
        if (strcmp(out, "null") == 0)
            out[0] = '\0';
    }
}

int ts_referee_replay(const char *dir, FILE *out, char *err, size_t errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/verdicts.jsonl", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char line[8192];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char t[32], game[32], zone[32], cards[256], kind[32], verdict[64], reason[TS_REASON_MAX + 64], move[16],
            before[96], after[96];
        field(line, "t", t, sizeof t);
        field(line, "game", game, sizeof game);
        field(line, "zone", zone, sizeof zone);
        field(line, "cards", cards, sizeof cards);
        field(line, "kind", kind, sizeof kind);
        field(line, "verdict", verdict, sizeof verdict);
        field(line, "reason", reason, sizeof reason);
        field(line, "move", move, sizeof move);
        field(line, "before", before, sizeof before);
        field(line, "after", after, sizeof after);
        if (!verdict[0])
            continue;
        n++;
        fprintf(out, "%s  %8ss  %-8s %-8s %-14s %s  %s: %s\n", move, t, game, zone, cards,
                strcmp(kind, "cannot judge") == 0 ? "?" : "", verdict, reason);
        if (before[0] || after[0])
            fprintf(out, "      evidence: %s/%s  %s/%s\n", dir, before[0] ? before : "-", dir,
                    after[0] ? after : "-");
    }
    fclose(f);
    fprintf(out, "%d verdict%s in %s\n", n, n == 1 ? "" : "s", dir);
    return n;
}
