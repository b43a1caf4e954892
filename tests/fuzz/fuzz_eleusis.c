/* libFuzzer entry: arbitrary bytes into the Eleusis rule compiler. A rule that
 * compiles is judged against short mainlines, and its canonical form must
 * recompile to the same text and the same verdicts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eleusis.h"

enum { MAX_INPUT = 4096, LINE = 6 };

static char *canonical(const ts_eleusis_rule *rule)
{
    size_t need = ts_eleusis_format(rule, NULL, 0);
    char *text = malloc(need + 1);
    if (text)
        ts_eleusis_format(rule, text, need + 1);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_INPUT)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    ts_eleusis_error err;
    ts_eleusis_rule *rule = ts_eleusis_compile(text, &err);
    if (!rule) {
        /* Every failure explains itself and points inside the text (or just past it). */
        if (!err.msg[0] || err.pos < 1 || (size_t)err.pos > strlen(text) + 1)
            abort();
        free(text);
        return 0;
    }

    char *canon = canonical(rule);
    ts_eleusis_rule *again = canon ? ts_eleusis_compile(canon, &err) : NULL;
    char *canon2 = again ? canonical(again) : NULL;
    if (!canon || !again || !canon2 || strcmp(canon, canon2) != 0 ||
        ts_eleusis_history_needed(rule) != ts_eleusis_history_needed(again))
        abort();

    /* A mainline made from the input bytes, judged card by card and as a string. */
    ts_code line[LINE];
    for (int i = 0; i < LINE; i++)
        line[i] = (ts_code){TS_FAM_PLAYING, (uint8_t)((size ? data[(size_t)i % size] : 0) % 52)};
    for (int n = 0; n <= LINE; n++)
        for (int idx = 0; idx < 52; idx++) {
            ts_code c = {TS_FAM_PLAYING, (uint8_t)idx};
            int v = ts_eleusis_judge(rule, line, n, c);
            if (v < 0 || v > 1 || v != ts_eleusis_judge(again, line, n, c))
                abort();
        }
    int wrong = -1;
    if (ts_eleusis_judge_string(rule, line, 1, line + 1, LINE - 1, &wrong) < 0)
        abort();

    free(canon2);
    free(canon);
    ts_eleusis_free(again);
    ts_eleusis_free(rule);
    free(text);
    return 0;
}
