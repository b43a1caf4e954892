/* Runs a libFuzzer target over files without libFuzzer: every file of the
 * directories (or the files) named on the command line, once each. `make test`
 * replays each target's corpus (tests/fuzz/corpus/<target>: seeds and every
 * input that ever crashed it) this way, so a fixed crash stays fixed in the
 * ordinary build. A crash is the test failing (abort, sanitizer, signal). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "imageio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay(const char *path)
{
    uint8_t *data;
    size_t len;
    char err[512];
    if (ts_read_file(path, 16 << 20, &data, &len, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int n = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *e;
            while (d && (e = readdir(d))) {
                if (e->d_name[0] == '.')
                    continue;
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
                bad += replay(path) < 0;
                n++;
            }
            if (d)
                closedir(d);
        } else {
            bad += replay(argv[i]) < 0;
            n++;
        }
    }
    printf("replayed %d inputs\n", n);
    return bad ? 1 : 0;
}
