/* The one monotonic clock of the pipeline's stage timers and the daemon's statistics. */
#ifndef TS_CLOCK_H
#define TS_CLOCK_H

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
double ts_now(void);
/* The same clock in milliseconds (stage timers). */
double ts_now_ms(void);

#endif
