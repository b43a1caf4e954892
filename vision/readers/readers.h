/* The reader classes the registry lists (one file each under vision/readers/). */
#ifndef TS_READERS_H
#define TS_READERS_H

#include "reader.h"

extern const ts_reader_class ts_set_reader_class;     /* readers/set.c */
extern const ts_reader_class ts_qwirkle_reader_class; /* readers/qwirkle.c */
extern const ts_reader_class ts_domino_reader_class;  /* readers/domino.c */

#endif
