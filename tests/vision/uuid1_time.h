/* The shared webcam photos' series split: their names carry a UUID1
 * (…_<card>-tlow-tmid-thigh-…), whose time field orders the shots. The
 * earlier half trains the playing-card nets, the later half is held out. */
#ifndef TS_TEST_UUID1_TIME_H
#define TS_TEST_UUID1_TIME_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The time field (100 ns steps) of the UUID1 after the name's first '-', or 0. */
static inline uint64_t uuid1_time(const char *name)
{
    unsigned long lo, mid, hi;
    const char *d = strchr(name, '-');
    if (!d || sscanf(d + 1, "%8lx-%4lx-%4lx", &lo, &mid, &hi) != 3)
        return 0;
    return ((uint64_t)(hi & 0xFFF) << 48) | ((uint64_t)mid << 32) | lo;
}

#endif
