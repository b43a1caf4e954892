/* A small deterministic PRNG (splitmix64): renders depend only on the seed. */
#ifndef TS_RENDER_RNG_H
#define TS_RENDER_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double rng_unit(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in [a, b). */
static inline double rng_range(uint64_t *s, double a, double b)
{
    return a + (b - a) * rng_unit(s);
}

/* Uniform integer in [0, n). */
static inline int rng_int(uint64_t *s, int n)
{
    return n > 0 ? (int)(rng_unit(s) * n) : 0;
}

/* Roughly normal (sum of uniforms), mean 0, standard deviation 1. */
static inline double rng_gauss(uint64_t *s)
{
    double t = 0;
    for (int i = 0; i < 6; i++)
        t += rng_unit(s);
    return (t - 3.0) * 1.4142135623730951;
}

#endif
