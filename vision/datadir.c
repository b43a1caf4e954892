/* The data directory lookup (see datadir.h). */
#include "datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TS_SOURCE_DIR
#define TS_SOURCE_DIR "."
#endif
#ifndef TS_DATA_FROM_BIN /* set by CMake from the install layout */
#define TS_DATA_FROM_BIN "../share/tablesight"
#endif

enum { MAX_PLACES = 3 };

/* The candidate folders, in order; returns how many. */
static int places(char dirs[MAX_PLACES][PATH_MAX])
{
    int n = 0;
    const char *env = getenv("TABLESIGHT_DATA");
    if (env && *env)
        snprintf(dirs[n++], PATH_MAX, "%s", env);
    /* The running program's own folder: /proc/self/exe survives a relative
     * argv[0] and PATH lookup alike. */
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            char share[PATH_MAX];
            snprintf(share, sizeof share, "%.*s/%s", PATH_MAX - 100, exe, TS_DATA_FROM_BIN);
            if (!realpath(share, dirs[n])) /* tidy when it exists, as written when not */
                snprintf(dirs[n], PATH_MAX, "%s", share);
            n++;
        }
    }
    snprintf(dirs[n++], PATH_MAX, "%s", TS_SOURCE_DIR);
    return n;
}

int ts_data_path(const char *rel, char *out, size_t outlen)
{
    char dirs[MAX_PLACES][PATH_MAX];
    int n = places(dirs);
    struct stat st;
    for (int i = 0; i < n; i++) {
        snprintf(out, outlen, "%s/%s", dirs[i], rel);
        if (stat(out, &st) == 0)
            return 0;
    }
    /* Not found: name the installed place if this program is installed (its
     * share/tablesight exists), else the source tree. */
    int pick = n - 1;
    for (int i = 0; i < n - 1; i++)
        if (stat(dirs[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            pick = i;
            break;
        }
    snprintf(out, outlen, "%s/%s", dirs[pick], rel);
    return -1;
}

void ts_data_places(char *out, size_t outlen)
{
    char dirs[MAX_PLACES][PATH_MAX];
    int n = places(dirs);
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < n && k < outlen; i++) {
        int w = snprintf(out + k, outlen - k, "%s%s", i ? ", " : "", dirs[i]);
        if (w < 0)
            break;
        k += (size_t)w;
    }
}

int ts_model_path(const char *models_dir, const char *file, char *out, size_t outlen)
{
    if (models_dir && *models_dir) {
        snprintf(out, outlen, "%s/%s", models_dir, file);
        struct stat st;
        return stat(out, &st) == 0 ? 0 : -1;
    }
    char rel[PATH_MAX];
    snprintf(rel, sizeof rel, "models/%.*s", PATH_MAX - 16, file);
    return ts_data_path(rel, out, outlen);
}
