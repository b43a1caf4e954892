/* libFuzzer: arbitrary bytes as a render's truth file (NAME.json beside a
 * rendered image, read by eval). Never a crash; a refusal is one line naming
 * the file; a file that parses gives at most max cards, each a valid SET code
 * and a visible fraction eval can compare. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "fuzz_set_code.h"
#include "render_truth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAX = 8 };
    ts_truth_card cards[MAX];
    char err[512];
    int n = ts_render_truth_parse((const char *)data, size, "set_1.json", fuzz_set_code,
                                  (void *)&TS_SET_CLASSIC_LETTERS, cards, MAX, err, sizeof err);
    if (n < 0) {
        if (strncmp(err, "set_1.json: ", 12) != 0 || strchr(err, '\n'))
            abort(); /* a refusal is one line naming the file */
        return 0;
    }
    if (n > MAX)
        abort();
    for (int i = 0; i < n; i++) {
        if (cards[i].code.family != TS_FAM_SET || cards[i].code.idx >= 81)
            abort();
        ts_render_truth_under(cards, n, cards[i].quad); /* any corners, no crash */
    }
    return 0;
}
