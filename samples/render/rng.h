/* The renderer's own deterministic PRNG (splitmix64): a render depends only
 * on its seed, never on rand() or the platform. State is one uint64_t the
 * caller owns. */
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

/* A state derived from a seed and a purpose, so independent draws (table,
 * camera, each card) do not shift when one of them draws more numbers. */
static inline uint64_t rng_stream(uint64_t seed, uint64_t purpose)
{
    uint64_t s = seed ^ (purpose * 0xD1B54A32D192ED03ull);
    rng_next(&s);
    return s;
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

/* Roughly normal, mean 0, standard deviation 1: the sum of four 16-bit
 * uniforms from one draw (fast enough for per-pixel sensor noise). */
static inline float rng_gauss(uint64_t *s)
{
    uint64_t v = rng_next(s);
    uint32_t t = (uint32_t)(v & 0xFFFF) + (uint32_t)((v >> 16) & 0xFFFF) +
                 (uint32_t)((v >> 32) & 0xFFFF) + (uint32_t)(v >> 48);
    return ((float)t * (1.0f / 65536.0f) - 2.0f) * 1.7320508f;
}

/* Index i in [0, n) with probability w[i] / sum(w). */
static inline int rng_pick(uint64_t *s, const float *w, int n)
{
    float total = 0;
    for (int i = 0; i < n; i++)
        total += w[i];
    float r = (float)rng_unit(s) * total;
    for (int i = 0; i < n; i++) {
        if (r < w[i])
            return i;
        r -= w[i];
    }
    return n - 1;
}

#endif
