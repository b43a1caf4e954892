/* libFuzzer entry point: card code lists of every family and the Qwirkle table
 * parser must never crash, and whatever parses must format and parse back to
 * the same cards. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "qwirkle.h"

enum { MAX_INPUT = 4096, MAX_CODES = 256 };

/* Formats codes[0..n) as one list and checks it parses back identically. */
static void check_round_trip(ts_family fam, const ts_code *codes, int n)
{
    static char text[MAX_CODES * TS_CODE_MAXLEN];
    static ts_code again[MAX_CODES];
    char err[128];
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        len += (size_t)ts_code_format(codes[i], text + len);
        text[len++] = ' ';
    }
    text[len] = '\0';
    if (ts_code_parse_list(fam, text, again, MAX_CODES, err, sizeof err) != n)
        abort();
    for (int i = 0; i < n; i++)
        if (again[i].family != codes[i].family || again[i].idx != codes[i].idx)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[MAX_INPUT + 1];
    static ts_code codes[MAX_CODES];
    static int idx[MAX_CODES];
    static ts_qw_table table;
    char err[128];
    if (size > MAX_INPUT)
        size = MAX_INPUT;
    memcpy(text, data, size);
    text[size] = '\0'; /* the NUL-terminated API stops at an embedded NUL */

    for (int fam = 0; fam < TS_FAM_COUNT; fam++) {
        /* the bounded form reads exactly size bytes, NULs included */
        int n = ts_code_parse_listn((ts_family)fam, (const char *)data, size, codes, MAX_CODES, err,
                                    sizeof err);
        if (n > 0)
            check_round_trip((ts_family)fam, codes, n);
        n = ts_code_parse_list((ts_family)fam, text, codes, MAX_CODES, err, sizeof err);
        if (ts_code_parse_indices((ts_family)fam, text, idx, MAX_CODES, err, sizeof err) != n)
            abort();
    }

    if (ts_qw_parse_table(text, &table, err, sizeof err) >= 0) {
        int bad;
        ts_qw_check_table(&table, &bad);
        for (int g = 0; g < table.n; g++)
            ts_qw_group_line(&table.g[g]);
    }
    return 0;
}
