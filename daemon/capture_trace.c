/* Per-frame stage stamps (see capture_trace.h). */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "capture_trace.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "clock.h"

struct ts_trace {
    pthread_mutex_t mu;
    FILE *f;
    double t0;
};

ts_trace *ts_trace_create(const char *path, char *err, size_t errlen)
{
    ts_trace *tr = calloc(1, sizeof *tr);
    if (!tr || !(tr->f = fopen(path, "w"))) {
        snprintf(err, errlen, "--trace %.200s: %s", path, tr ? strerror(errno) : "out of memory");
        free(tr);
        return NULL;
    }
    setvbuf(tr->f, NULL, _IOFBF, 1 << 20); /* no write per line on a streaming thread */
    pthread_mutex_init(&tr->mu, NULL);
    tr->t0 = ts_now();
    fputs("stage\tseq\tt_frame\tt_start\tt_end\tcpu_ms\tminflt\tnivcsw\taux\n", tr->f);
    return tr;
}

void ts_trace_destroy(ts_trace *tr)
{
    if (!tr)
        return;
    fclose(tr->f);
    pthread_mutex_destroy(&tr->mu);
    free(tr);
}

void ts_trace_mark_now(const ts_trace *tr, ts_trace_mark *m)
{
    memset(m, 0, sizeof *m);
    m->t = ts_now();
    if (!tr)
        return;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    getrusage(RUSAGE_THREAD, &ru);
    m->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
             ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e-6;
    m->minflt = ru.ru_minflt;
    m->nivcsw = ru.ru_nivcsw;
}

void ts_trace_stage(ts_trace *tr, const char *stage, uint64_t seq, double t_frame,
                    const ts_trace_mark *from, double aux)
{
    if (!tr)
        return;
    ts_trace_mark now;
    ts_trace_mark_now(tr, &now);
    ts_trace_mark start = from ? *from : now;
    pthread_mutex_lock(&tr->mu);
    fprintf(tr->f, "%s\t%llu\t%.3f\t%.3f\t%.3f\t%.3f\t%ld\t%ld\t%.3f\n", stage,
            (unsigned long long)seq, t_frame > 0 ? (t_frame - tr->t0) * 1e3 : -1,
            (start.t - tr->t0) * 1e3, (now.t - tr->t0) * 1e3, (now.cpu - start.cpu) * 1e3,
            now.minflt - start.minflt, now.nivcsw - start.nivcsw,
            aux > 0 ? (aux - tr->t0) * 1e3 : -1);
    pthread_mutex_unlock(&tr->mu);
}
