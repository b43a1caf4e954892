/* The output contract (ARCHITECTURE.md): one JSON object per image or frame. */
#ifndef TS_RESULT_JSON_H
#define TS_RESULT_JSON_H

#include "json.h"
#include "table.h"

/* Appends the object for t (source: file name or capture source, frame: index)
 * to j, without a trailing newline. */
void ts_result_json(ts_json *j, const ts_table *t, const char *source, long frame,
                    const char *game);
/* The same members into an object the caller has opened (and closes), so
 * other outputs can add members of their own. */
void ts_result_json_members(ts_json *j, const ts_table *t, const char *source, long frame,
                            const char *game);
/* A card's "code", "conf" and "read" members, into an object the caller has opened. */
void ts_result_json_card(ts_json *j, const ts_card *c);

#endif
