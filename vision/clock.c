#include "clock.h"

#include <time.h>

double ts_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double ts_now_ms(void)
{
    return ts_now() * 1e3;
}
