/* Ascending sorts and one median, for stage timers, benchmarks, the
 * pipeline's typical card size and the finders' medians and quantiles. */
#ifndef TS_MEDIAN_H
#define TS_MEDIAN_H

#include <stddef.h>

/* Sorts v ascending, in place. */
void ts_sort_doubles(double *v, size_t n);
void ts_sort_floats(float *v, size_t n);
/* Median of v (sorts it; the mean of the two middle values for even n; 0 if n == 0). */
double ts_median(double *v, int n);

#endif
