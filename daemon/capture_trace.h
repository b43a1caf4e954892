/* Per-frame stage stamps of the live path, for latency work (`run --trace
 * FILE`): one tab-separated line per stage a frame goes through (decode,
 * vision, handed to the window, drawn in the window), with the thread's own
 * CPU time, page faults and involuntary context switches over the stage, so a
 * late frame can be told apart as waiting (preempted, queued) or working
 * (more CPU, faults), whatever the host's load.
 *
 * Columns: stage seq t_frame t_start t_end cpu_ms minflt nivcsw aux
 * (times in ms since the trace opened, on the ts_now() clock; t_frame is the
 * frame's capture time, aux a time the stage names: the capture time of the
 * results drawn; -1 when none).
 * Any thread may write; lines are buffered and written as they come.
 */
#ifndef TS_CAPTURE_TRACE_H
#define TS_CAPTURE_TRACE_H

#include <stddef.h>
#include <stdint.h>

typedef struct ts_trace ts_trace;

/* The calling thread's clock, CPU time and counters at one moment. */
typedef struct {
    double t, cpu;
    long minflt, nivcsw;
} ts_trace_mark;

/* NULL with err if path cannot be created. */
ts_trace *ts_trace_create(const char *path, char *err, size_t errlen);
void ts_trace_destroy(ts_trace *tr); /* flushes and closes; NULL is fine */

/* Marks the calling thread now: the clock, and with a trace its CPU time and
 * counters (one getrusage, which an untraced run does not pay for). */
void ts_trace_mark_now(const ts_trace *tr, ts_trace_mark *m);

/* A stage of frame seq (captured at t_frame, ts_now() s) that ran on this
 * thread from `from` until now. from NULL: an instant (start = end). aux_t: a
 * time (ts_now() s) or 0. tr NULL: nothing. */
void ts_trace_stage(ts_trace *tr, const char *stage, uint64_t seq, double t_frame,
                    const ts_trace_mark *from, double aux_t);

#endif
