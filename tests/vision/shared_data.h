/* Tests that read ../shared/data skip (not fail) where it is missing. */
#ifndef TS_TEST_SHARED_DATA_H
#define TS_TEST_SHARED_DATA_H

#include <stdio.h>

/* 1 if path can be opened; else 0 with a line saying the shared data is missing. */
static inline int shared_file_exists(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f)
        fclose(f);
    else
        fprintf(stderr, "shared data not found at %s\n", path);
    return f != NULL;
}

#endif
