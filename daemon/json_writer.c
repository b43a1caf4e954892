#include "json_writer.h"

static void w_obj(void *c) { ts_json_obj(c); }
static void w_arr(void *c) { ts_json_arr(c); }
static void w_end(void *c) { ts_json_end(c); }
static void w_key(void *c, const char *k) { ts_json_key(c, k); }
static void w_str(void *c, const char *s) { ts_json_str(c, s); }
static void w_int(void *c, long long v) { ts_json_int(c, v); }
static void w_num(void *c, double v, int d) { ts_json_num(c, v, d); }
static void w_bool(void *c, int v) { ts_json_bool(c, v); }
static void w_null(void *c) { ts_json_null(c); }

ts_writer ts_json_writer(ts_json *j)
{
    return (ts_writer){j, w_obj, w_arr, w_end, w_key, w_str, w_int, w_num, w_bool, w_null};
}
