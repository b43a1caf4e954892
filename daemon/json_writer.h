/* The rules core's writer API (rules/report.h) on top of the project's JSON
 * encoder: the one place to change when JSON moves to a library. */
#ifndef TS_JSON_WRITER_H
#define TS_JSON_WRITER_H

#include "json.h"
#include "report.h"

/* A writer that appends to j (borrowed). */
ts_writer ts_json_writer(ts_json *j);

#endif
