/* libFuzzer: arbitrary bytes as a label file. Never a crash; a file that parses
 * gives at least one label with at most TS_LABEL_MAX_CARDS cards, each a valid
 * SET index, and a path built from the file's folder. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "fuzz_set_code.h"
#include "labels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ts_label *ls;
    int n;
    char err[512];
    if (ts_labels_parse((const char *)data, size, "boards/labels.tsv", fuzz_set_code,
                        (void *)&TS_SET_CLASSIC_LETTERS, "SET", &ls, &n, err, sizeof err) < 0) {
        if (!err[0] || strchr(err, '\n'))
            abort(); /* a refusal is one line */
        return 0;
    }
    if (n < 1)
        abort();
    for (int i = 0; i < n; i++) {
        if (ls[i].n < 0 || ls[i].n > TS_LABEL_MAX_CARDS || !ls[i].name[0])
            abort();
        for (int k = 0; k < ls[i].n; k++)
            if (ls[i].code[k].family != TS_FAM_SET || ls[i].code[k].idx >= 81)
                abort();
        if (ls[i].name[0] != '/' && strncmp(ls[i].path, "boards/", 7) != 0)
            abort();
    }
    ts_labels_free(ls, n);
    return 0;
}
