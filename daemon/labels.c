/* Label files (see labels.h). */
#include "labels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imageio.h"

void ts_labels_free(ts_label *ls, int n)
{
    for (int i = 0; ls && i < n; i++) {
        free(ls[i].name);
        free(ls[i].path);
    }
    free(ls);
}

int ts_labels_load(const char *file, ts_label_code_fn code, void *ctx, const char *family,
                   ts_label **out, int *nout, char *err, size_t errlen)
{
    uint8_t *data;
    size_t len;
    *out = NULL;
    *nout = 0;
    if (ts_read_file(file, 64 << 20, &data, &len, err, errlen) < 0)
        return -1;
    int rc = ts_labels_parse((const char *)data, len, file, code, ctx, family, out, nout, err,
                             errlen);
    free(data);
    return rc;
}

int ts_labels_parse(const char *text, size_t len, const char *file, ts_label_code_fn code,
                    void *ctx, const char *family, ts_label **out, int *nout, char *err,
                    size_t errlen)
{
    char dir[2048] = "";
    const char *slash = strrchr(file, '/');
    if (slash)
        snprintf(dir, sizeof dir, "%.*s/", (int)(slash - file), file);
    int cap = 64, n = 0, lineno = 0;
    ts_label *ls = malloc(sizeof *ls * (size_t)cap);
    size_t pos = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        pos = 3; /* a UTF-8 byte-order mark (Windows editors write one) */
    int rc = -1;
    while (ls && pos < len) {
        size_t e = pos;
        while (e < len && text[e] != '\n')
            e++;
        lineno++;
        const char *line = text + pos;
        size_t ll = e - pos;
        pos = e + 1;
        if (ll && line[ll - 1] == '\r')
            ll--;
        if (ll == 0 || line[0] == '#')
            continue;
        if (memchr(line, '\0', ll)) {
            snprintf(err, errlen, "%s:%d: NUL byte (not a text label file)", file, lineno);
            goto done;
        }
        const char *tab = memchr(line, '\t', ll);
        if (!tab || tab == line) {
            snprintf(err, errlen, "%s:%d: expected 'image<TAB>codes'", file, lineno);
            goto done;
        }
        if (n == cap) {
            ts_label *nl = realloc(ls, sizeof *ls * (size_t)(cap *= 2));
            if (!nl)
                goto done;
            ls = nl;
        }
        ts_label *l = &ls[n];
        memset(l, 0, sizeof *l);
        int nlen = (int)(tab - line);
        l->name = strndup(line, (size_t)nlen);
        size_t plen = strlen(dir) + (size_t)nlen + 1;
        l->path = malloc(plen);
        if (!l->name || !l->path) {
            free(l->name);
            free(l->path);
            goto done;
        }
        snprintf(l->path, plen, "%s%.*s", line[0] == '/' ? "" : dir, nlen, line);
        n++;
        /* Codes fill the second column; a further one (the shared playing
         * cards' "kind") is a note, not codes. */
        const char *p = tab + 1, *end = line + ll;
        const char *tab2 = memchr(p, '\t', (size_t)(end - p));
        if (tab2)
            end = tab2;
        while (p < end) {
            while (p < end && *p == ' ')
                p++;
            const char *s = p;
            while (p < end && *p != ' ')
                p++;
            if (p == s)
                break;
            ts_code one;
            if (code(ctx, s, (size_t)(p - s), &one) < 0) {
                snprintf(err, errlen, "%s:%d: '%.*s' is not a %s card code", file, lineno,
                         (int)(p - s > 16 ? 16 : p - s), s, family);
                goto done;
            }
            if (l->n == TS_LABEL_MAX_CARDS) {
                snprintf(err, errlen, "%s:%d: more than %d cards", file, lineno, TS_LABEL_MAX_CARDS);
                goto done;
            }
            l->code[l->n++] = one;
        }
    }
    if (!ls) {
        snprintf(err, errlen, "%s: out of memory", file);
        goto done;
    }
    if (n == 0) {
        snprintf(err, errlen, "%s: no labelled images", file);
        goto done;
    }
    rc = 0;
done:
    if (rc < 0) {
        ts_labels_free(ls, ls ? n : 0);
        ls = NULL;
        n = 0;
    }
    *out = ls;
    *nout = n;
    return rc;
}

