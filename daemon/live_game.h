/* The per-game part of the live daemon (`run`, `referee`): which game, its
 * zones and options, the SET hint ladder and other commands from the keyboard
 * and the control socket, the referee with its log and evidence, and the
 * Eleusis dealer. The vision thread feeds it every stable table; commands may
 * come from any thread. */
#ifndef TS_LIVE_GAME_H
#define TS_LIVE_GAME_H

#include <stddef.h>
#include <stdio.h>

#include "image.h"
#include "json.h"
#include "tracker.h"

typedef struct {
    const char *game;       /* --game (a game or family name, or "auto") */
    const char *zones_file; /* --zones FILE */
    const char *zone_spec[8]; /* --zone NAME:x0,y0,x1,y1 (repeatable) */
    int nzone_specs;
    int hint;               /* --hint N: the SET ladder's start (-1 = 4, every Set) */
    int first_lead;         /* --first-lead: Gang of Four, the game's first lead */
    int referee;            /* --referee */
    const char *log_dir;    /* --log DIR (referee; default tablesight-referee-TIME) */
    const char *rule_file;  /* --rule FILE: Eleusis, the secret rule (the dealer) */
    int players;            /* --players N (Eleusis dealer; default 3) */
    int reveal;             /* --reveal: show the rule and the scores at the end */
    int show_zones;         /* --show-zones */
} live_game_opts;

typedef struct live_game live_game;

/* A verdict for the screen: drawn large near the move for a few seconds. */
typedef struct {
    uint64_t seq;      /* bumped per verdict */
    char text[TS_REASON_MAX + 48];
    int kind;          /* ts_verdict_kind */
    float x, y;        /* where the move was */
    double settled_t;  /* capture time of the frame the move settled in */
    double decided_t;  /* when the referee gave it (ts_now()) */
    double until;      /* show until (ts_now()) */
} live_verdict;

/* Returns NULL with a one-line reason (bad zones, rule, log directory). */
live_game *live_game_open(const live_game_opts *o, char *err, size_t errlen);
void live_game_close(live_game *g);

/* The rules the tracker solves with (game, zones, hint level). */
const ts_table_rules *live_game_rules(live_game *g);
/* The zones in use (for drawing), NULL unless --show-zones. */
const ts_zones *live_game_zones(const live_game *g);

/* A command ("h", "hint", "hint 2", "r", "reveal", "p", "phase2", "f",
 * "first-lead"); any thread. Returns 1 if it was one. */
int live_game_command(live_game *g, const char *cmd);

/* Vision thread, after each tracker update: applies pending commands to trk,
 * runs the referee. When a verdict comes, its JSON line replaces j's content
 * and 1 is returned (else 0), and *v is filled for the screen. img is the
 * frame (borrowed), t its capture time. */
int live_game_frame(live_game *g, ts_tracker *trk, const ts_stable *st, const ts_image *img,
                    double t, ts_json *j, live_verdict *v);

/* A short status for the screen's top line ("hint 2/4", "dealer: phase 1, turn 2"). */
void live_game_status(live_game *g, char *out, size_t cap);

/* At the end: with --reveal (or the command), prints the secret rule and the
 * seed's scores to f. */
void live_game_finish(live_game *g, FILE *f);

#endif
