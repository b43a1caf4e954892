/* The shared webcam photos' series split: their names carry a UUID1
 * (…_<card>-tlow-tmid-thigh-…), whose time field orders the shots. The
 * earlier half trains the playing-card nets, the later half is held out. */
#ifndef TS_TEST_UUID1_TIME_H
#define TS_TEST_UUID1_TIME_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The time field (100 ns steps) of the UUID1 after the name's first '-', or 0. */
static inline uint64_t uuid1_time(const char *name)
{
    unsigned long lo, mid, hi;
    const char *d = strchr(name, '-');
    if (!d || sscanf(d + 1, "%8lx-%4lx-%4lx", &lo, &mid, &hi) != 3)
        return 0;
    return ((uint64_t)(hi & 0xFFF) << 48) | ((uint64_t)mid << 32) | lo;
}

/* One webcam_held_card row of labels.tsv: image name, card, shot time. */
typedef struct {
    char name[1024], label[8];
    uint64_t t; /* UUID1 time: 100 ns steps */
} webcam_frame;

static inline int webcam_frame_by_time(const void *a, const void *b)
{
    const webcam_frame *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

/* Reads labels' webcam_held_card rows (up to max) into fr in time order and
 * sets *later to the first of the held-out later half (a run of shots of one
 * card kept whole). Returns the count, or -1 when labels cannot be read or a
 * name carries no UUID1 time. */
static inline int webcam_frames(const char *labels, webcam_frame *fr, int max, int *later)
{
    FILE *f = fopen(labels, "r");
    if (!f)
        return -1;
    char line[1024];
    int n = 0, bad = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        char *tab = strchr(line, '\t');
        if (!tab || !strstr(line, "\twebcam_held_card"))
            continue;
        *tab = 0;
        snprintf(fr[n].name, sizeof fr[n].name, "%s", line);
        sscanf(tab + 1, "%7s", fr[n].label);
        fr[n].t = uuid1_time(strrchr(line, '/') ? strrchr(line, '/') : line);
        bad |= fr[n].t == 0;
        n++;
    }
    fclose(f);
    qsort(fr, (size_t)n, sizeof *fr, webcam_frame_by_time);
    int h = n / 2;
    while (h > 0 && h < n && strcmp(fr[h].label, fr[h - 1].label) == 0)
        h++;
    *later = h;
    return bad ? -1 : n;
}

#endif
