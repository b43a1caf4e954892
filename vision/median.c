#include "median.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

void ts_sort_floats(float *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_float);
}

void ts_sort_doubles(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
}

double ts_median(double *v, int n)
{
    if (n <= 0)
        return 0;
    ts_sort_doubles(v, (size_t)n);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
