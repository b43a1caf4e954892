/* Run-time choice of vector width for plain byte loops. The build targets
 * plain x86-64 (SSE2); a function marked TS_AVX2_CLONES is compiled twice,
 * once for AVX2, and the loader picks the one the processor runs (GCC's
 * target_clones). Only for loops whose result cannot depend on the width:
 * integer work, or float work in the same order (no FMA is enabled, so no
 * product and sum are fused). */
#ifndef TS_SIMD_H
#define TS_SIMD_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__AVX2__) && \
    defined(__linux__)
#define TS_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TS_AVX2_CLONES
#endif

#endif
