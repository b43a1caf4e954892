/* Run statistics (see stats.h). */
#include "stats.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    double ring[TS_STATS_WINDOW];
    uint64_t n; /* samples ever added; the newest is ring[(n - 1) % WINDOW] */
    double max;
} series;

struct ts_stats {
    pthread_mutex_t mu;
    series s[TS_ST_COUNT];
    double scratch[TS_STATS_WINDOW]; /* sorted copy for percentiles */
};

ts_stats *ts_stats_create(void)
{
    ts_stats *s = calloc(1, sizeof *s);
    if (s)
        pthread_mutex_init(&s->mu, NULL);
    return s;
}

void ts_stats_destroy(ts_stats *s)
{
    if (!s)
        return;
    pthread_mutex_destroy(&s->mu);
    free(s);
}

void ts_stats_add(ts_stats *s, ts_stat which, double ms)
{
    if ((unsigned)which >= TS_ST_COUNT)
        return;
    pthread_mutex_lock(&s->mu);
    series *x = &s->s[which];
    x->ring[x->n % TS_STATS_WINDOW] = ms;
    if (x->n == 0 || ms > x->max)
        x->max = ms;
    x->n++;
    pthread_mutex_unlock(&s->mu);
}

/* Caller holds the lock. */
static double percentile_locked(ts_stats *s, ts_stat which, double p)
{
    series *x = &s->s[which];
    size_t n = x->n < TS_STATS_WINDOW ? (size_t)x->n : TS_STATS_WINDOW;
    if (n == 0)
        return 0;
    memcpy(s->scratch, x->ring, n * sizeof(double));
    ts_sort_doubles(s->scratch, n);
    size_t rank = (size_t)(p / 100.0 * (double)n + 0.999999); /* nearest rank, 1-based */
    if (rank < 1)
        rank = 1;
    if (rank > n)
        rank = n;
    return s->scratch[rank - 1];
}

double ts_stats_percentile(ts_stats *s, ts_stat which, double p)
{
    if ((unsigned)which >= TS_ST_COUNT)
        return 0;
    pthread_mutex_lock(&s->mu);
    double v = percentile_locked(s, which, p);
    pthread_mutex_unlock(&s->mu);
    return v;
}

double ts_stats_max(ts_stats *s, ts_stat which)
{
    if ((unsigned)which >= TS_ST_COUNT)
        return 0;
    pthread_mutex_lock(&s->mu);
    double v = s->s[which].max;
    pthread_mutex_unlock(&s->mu);
    return v;
}

uint64_t ts_stats_n(ts_stats *s, ts_stat which)
{
    if ((unsigned)which >= TS_ST_COUNT)
        return 0;
    pthread_mutex_lock(&s->mu);
    uint64_t n = s->s[which].n;
    pthread_mutex_unlock(&s->mu);
    return n;
}

static void latency_line(ts_stats *s, FILE *f, const char *what, ts_stat which)
{
    if (s->s[which].n == 0)
        return;
    fprintf(f, "  %-28s p50 %7.1f  p95 %7.1f  max %7.1f ms  (n=%llu)\n", what,
            percentile_locked(s, which, 50), percentile_locked(s, which, 95), s->s[which].max,
            (unsigned long long)s->s[which].n);
}

void ts_stats_print(ts_stats *s, const ts_stats_counts *c, FILE *f)
{
    static const struct {
        ts_stat id;
        const char *name;
    } STAGES[] = {{TS_ST_QUEUE, "queue"},     {TS_ST_DETECT, "detect"}, {TS_ST_CLASSIFY, "classify"},
                  {TS_ST_RULES, "rules"},     {TS_ST_PROCESS, "process"}, {TS_ST_TRACK, "track"},
                  {TS_ST_OVERLAY, "overlay+sinks"}};
    double secs = c->seconds > 1e-9 ? c->seconds : 1e-9;
    pthread_mutex_lock(&s->mu);
    fprintf(f,
            "stats: %.1f s; frames captured %llu (%.1f/s), processed %llu (%.1f/s), dropped %llu, "
            "displayed %llu\n",
            c->seconds, (unsigned long long)c->captured, (double)c->captured / secs,
            (unsigned long long)c->processed, (double)c->processed / secs,
            (unsigned long long)c->dropped, (unsigned long long)c->displayed);
    latency_line(s, f, "processing (capture->result)", TS_ST_READY);
    latency_line(s, f, "capture->hints on screen", TS_ST_HINTS);
    latency_line(s, f, "capture->frame on screen", TS_ST_SCREEN);
    latency_line(s, f, "capture->hints in window", TS_ST_WIN_HINTS);
    latency_line(s, f, "capture->frame in window", TS_ST_WIN_FRAME);
    latency_line(s, f, "move settled->verdict shown", TS_ST_VERDICT);
    latency_line(s, f, "verdict decided->shown", TS_ST_VERDICT_DRAW);
    int any = 0;
    for (size_t i = 0; i < sizeof STAGES / sizeof STAGES[0]; i++) {
        if (!s->s[STAGES[i].id].n)
            continue;
        fprintf(f, "%s %s %.2f", any++ ? "" : "  stage medians ms:", STAGES[i].name,
                percentile_locked(s, STAGES[i].id, 50));
    }
    if (any)
        fprintf(f, "\n");
    pthread_mutex_unlock(&s->mu);
    fflush(f);
}
