#include "render_truth.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "geom.h"
#include "imageio.h"
#include "json.h"

enum { MAX_TRUTH_BYTES = 4 << 20 };

static int quad_of(const cJSON *q, ts_pt out[4])
{
    if (!cJSON_IsArray(q) || cJSON_GetArraySize(q) != 4)
        return -1;
    for (int k = 0; k < 4; k++) {
        const cJSON *p = cJSON_GetArrayItem(q, k);
        const cJSON *x = cJSON_GetArrayItem(p, 0), *y = cJSON_GetArrayItem(p, 1);
        if (!cJSON_IsArray(p) || !cJSON_IsNumber(x) || !cJSON_IsNumber(y))
            return -1;
        out[k] = (ts_pt){(float)x->valuedouble, (float)y->valuedouble};
    }
    return 0;
}

int ts_render_truth_parse(const char *text, size_t len, const char *name, ts_truth_code_fn code,
                          void *ctx, ts_truth_card *out, int max, char *err, size_t errlen)
{
    char jerr[256];
    cJSON *doc = ts_json_parse(text, len, jerr, sizeof jerr);
    if (!doc) {
        snprintf(err, errlen, "%s: %s", name, jerr);
        return -1;
    }
    const cJSON *cards = cJSON_GetObjectItemCaseSensitive(doc, "cards"), *c;
    int n = 0, rc = 0;
    if (!cJSON_IsArray(cards)) {
        snprintf(err, errlen, "%s: no \"cards\" array: not a render's truth", name);
        rc = -1;
        cards = NULL;
    }
    cJSON_ArrayForEach(c, cards)
    {
        const cJSON *cd = cJSON_GetObjectItemCaseSensitive(c, "code");
        const cJSON *vis = cJSON_GetObjectItemCaseSensitive(c, "visible");
        ts_truth_card t = {.visible = cJSON_IsNumber(vis) ? (float)vis->valuedouble : 1};
        if (n == max) {
            snprintf(err, errlen, "%s: more than %d cards", name, max);
            rc = -1;
            break;
        }
        if (!cJSON_IsString(cd) ||
            code(ctx, cd->valuestring, strlen(cd->valuestring), &t.code) < 0 ||
            quad_of(cJSON_GetObjectItemCaseSensitive(c, "quad"), t.quad) < 0) {
            snprintf(err, errlen, "%s: card %d: needs a code of this deck and a quad of 4 points",
                     name, n + 1);
            rc = -1;
            break;
        }
        out[n++] = t;
    }
    ts_json_doc_free(doc);
    return rc < 0 ? -1 : n;
}

int ts_render_truth_load(const char *image_path, ts_truth_code_fn code, void *ctx,
                         ts_truth_card *out, int max, char *err, size_t errlen)
{
    char path[4096];
    const char *slash = strrchr(image_path, '/'), *dot = strrchr(image_path, '.');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - image_path) : strlen(image_path);
    if (stem + 6 > sizeof path) {
        snprintf(err, errlen, "%s: path too long", image_path);
        return -1;
    }
    memcpy(path, image_path, stem);
    strcpy(path + stem, ".json");
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT)
        return 0; /* a photo: no truth beside it */
    uint8_t *data;
    size_t len;
    if (ts_read_file(path, MAX_TRUTH_BYTES, &data, &len, err, errlen) < 0)
        return -1;
    int n = ts_render_truth_parse((const char *)data, len, path, code, ctx, out, max, err, errlen);
    free(data);
    return n;
}

int ts_render_truth_under(const ts_truth_card *t, int n, const ts_pt quad[4])
{
    ts_pt c = {0, 0};
    for (int k = 0; k < 4; k++)
        c.x += quad[k].x / 4, c.y += quad[k].y / 4;
    for (int i = n - 1; i >= 0; i--)
        if (ts_point_in_quad(t[i].quad, c.x, c.y))
            return i;
    return -1;
}
