/* `tablesight run`: the live daemon. Thin ends around the pipeline (vision/pipeline.h):
 *
 *   capture thread  (capture.c)  newest BGR frame wins, faults retried
 *   vision thread   (here)       pipeline -> tracker -> stable table -> JSON lines
 *   main thread     (here)       latest results drawn on the current frame (at once when
 *                                new results come) -> window, file, HTTP
 *   signal thread   (here)       SIGINT/SIGTERM: clean stop; SIGUSR1: stats
 *
 * Capture never waits for vision and display never waits for either: the
 * stable table is shared under a mutex and drawn on whatever frame is newest.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "live_game.h"
#include "cmd.h"
#include "overlay.h"
#include "pipeline.h"
#include "sink_api.h"
#include "stats.h"
#include "capture_trace.h"
#include "tracker.h"

static const char USAGE[] =
    "usage: tablesight run [OPTIONS]\n"
    "\n"
    "Live card recognition: a camera looks down at the table, the video is shown\n"
    "with every card outlined and read, and each valid Set numbered on its cards.\n"
    "Hints come only from cards whose reading has held for several frames.\n"
    "\n"
    "Source:\n"
    "  --source SRC     where frames come from (default auto):\n"
    "                     auto                 the first V4L2 camera, else the bundled clip\n"
    "                                          samples/clip/frame_%04d.jpg\n"
    "                     /dev/video2          a camera (its largest mode up to 1080p at\n"
    "                                          30 fps: see --size)\n"
    "                     game.mkv, table.jpg  a video file, or a photo shown as a still camera\n"
    "                     frames/f_%04d.jpg    an image sequence (from index 0 or 1)\n"
    "                     rtsp://host/stream   any URI GStreamer can open\n"
    "                     'v4l2src device=/dev/video2 ! image/jpeg,width=1920,height=1080'\n"
    "                                          any GStreamer source description\n"
    "  --fps N          frame rate of image sequences and photos (15); a camera's\n"
    "                   rate to ask for (default 30, at least 25)\n"
    "  --size WxH       a camera's frame size to ask for (default: the largest up to\n"
    "                   1920x1080 at that rate; raw when the camera sends raw frames\n"
    "                   as fast, else MJPEG, decoded by tablesight)\n"
    "  --loop           start a file again at its end (default: exit 0 there)\n"
    "  --fast           files: no pacing, every frame processed (default: the file's\n"
    "                   own rate, frames dropped when vision is slower, as live)\n"
    "  --watchdog SEC   a live source that sends nothing this long is restarted (3)\n"
    "  --frames N       stop after N processed frames\n"
    "\n"
    "Recognition:\n"
    "  --game GAME      the game (and so the cards to read): set (default), setgrid\n"
    "                   (SET's connection grid), playing (eleusis), gof,\n"
    "                   qwirkle, qwtiles (Qwirkle tiles on a board: the tiles\n"
    "                   profile), domino (sapngwu), or auto (told from the cards)\n"
    "  --profile NAME   deck profile: classic (default), seecards, tiles, cards,\n"
    "                   chinese, double-six, or a SET profile file\n"
    "  --models DIR     where deck profiles live\n"
    "  --conf-floor X   below this confidence a card is unread (profile default)\n"
    "  --stable N       frames a reading must agree over before it is shown (4)\n"
    "  --keep N         frames an unseen card stays on the table (8)\n"
    "\n"
    "Games (hints from stable cards only; see tablesight rules for each game):\n"
    "  --hint N         SET hint ladder start: 0 nothing, 1 one card of a Set, 2 two,\n"
    "                   3 the Set, 4 every Set (default 4); 'h' in the window or\n"
    "                   'hint' on the socket steps it\n"
    "  --zones FILE     the table's zones, one per line: NAME x0 y0 x1 y1 (a rectangle)\n"
    "                   or eight numbers (four corners), fractions of the frame;\n"
    "                   NAME: table, hand, trick, mainline, sideline\n"
    "  --zone SPEC      one zone on the command line, NAME:x0,y0,x1,y1 (repeatable;\n"
    "                   replaces the default). Defaults: SET the whole view is the\n"
    "                   table; gof, sapngwu: trick above, hand in the half nearest the\n"
    "                   camera; qwirkle: table above, hand below; eleusis: mainline\n"
    "                   above, sideline below\n"
    "  --show-zones     draw the zones\n"
    "  --first-lead     Gang of Four: the game's first lead (1-5 cards with M1)\n"
    "  --referee        judge each move (a stable change between two settled tables):\n"
    "                   a JSON line per verdict on the line outputs, a large verdict\n"
    "                   on screen, before/after JPEGs in the log directory\n"
    "  --log DIR        the referee's log directory (default tablesight-referee-TIME)\n"
    "  --rule FILE      Eleusis: the automatic dealer's secret rule (rules eleusis\n"
    "                   --help has the language); each card placed at the end of the\n"
    "                   mainline is judged at once (implies --referee)\n"
    "  --players N      Eleusis: players besides the dealer, in turn order (3);\n"
    "                   Gang of Four, Sap Ng Wu: 2-4 seats, a hand zone each\n"
    "                   (hand1 nearest the camera, then in turn order)\n"
    "  --reveal         Eleusis: print the rule and the seed's scores at the end\n"
    "  Keys in the window / lines on the socket: h|hint, hint N, p|phase2 (Eleusis:\n"
    "  phase 1 is over), r|reveal, f|first-lead.\n"
    "\n"
    "Output (any combination):\n"
    "  (window)         the annotated video in a window on $DISPLAY (X11, Xvfb); video\n"
    "                   narrower than 1280 is shown 2-4 times larger when the screen has\n"
    "                   room; the overlay is drawn at the window's size (cairooverlay).\n"
    "                   Keys: F11 fullscreen on/off, q or Esc quit\n"
    "  --fullscreen     start the window fullscreen\n"
    "  --headless       no window\n"
    "  --record FILE    write the annotated video: .mkv or .avi (MJPEG), .mp4 (H.264,\n"
    "                   needs x264enc)\n"
    "  --json           one JSON line per change of the stable table on stdout: the\n"
    "                   object of `scan` for the stable table, plus \"t\", \"ids\" and\n"
    "                   \"events\" (added, removed, moved, reread; each with id, code,\n"
    "                   at, frame, t); a table empty from the start is said once\n"
    "                   (a line with no cards)\n"
    "  --socket PATH    the same lines to every client of a UNIX socket (a new client\n"
    "                   gets the current table first; a client that stops reading is\n"
    "                   dropped)\n"
    "  --http ADDR      MJPEG over HTTP on HOST:PORT, e.g. 127.0.0.1:8080 (port 0 picks a\n"
    "                   free one): GET / a page showing the stream (open it on a phone),\n"
    "                   /stream.mjpg the stream, /frame.jpg one frame; at most 8\n"
    "                   connections, one idle for 10 s is closed\n"
    "  --http-any       allow --http on a non-loopback address\n"
    "  --quiet          no start line on stderr (faults and stats still print)\n"
    "  --trace FILE     per-frame stage times (decode, vision, handed to the window,\n"
    "                   drawn there; CPU time, page faults, preemptions) as TSV, for\n"
    "                   latency work (tests/tools/live_trace.py reads it)\n"
    "  -h, --help       this text\n"
    "      --version    the version\n"
    "\n"
    "While running: a status line (camera and vision fps, latency, game, source) is\n"
    "drawn on the video; when a camera fails or stalls the last good frame stays on\n"
    "screen marked STALE while the source is retried with back-off.\n"
    "SIGINT/SIGTERM stop cleanly (files finished, outputs flushed; a second one forces\n"
    "exit); SIGUSR1 prints statistics, which are also printed on exit: frames captured,\n"
    "processed, dropped; latency p50/p95/max; per-stage medians.\n"
    "\n"
    "Options take their value as --opt VALUE or --opt=VALUE. A camera (/dev/videoN)\n"
    "that is not there, or cannot be opened, fails at once; one that goes away while\n"
    "running is retried.\n"
    "\n"
    "Exit status: 0 at the end of a file, on a signal, on q or Esc, or when the\n"
    "window is closed; 1 if the source or an output fails; 2 on bad usage.\n";

/* ---- Options ------------------------------------------------------------ */

/* Frames of a stream read by the reader --game auto chose, alone, before
 * every reader runs again (sooner when its reading drops): at 30 frames a
 * second, a table changed to another game is seen within a third of one. */
enum { RUN_AUTO_HOLD = 10 };

typedef struct {
    ts_capture_config cap;
    ts_pipeline_config proc;
    ts_tracker_config track;
    long frames;
    int headless, json, http_any, quiet, fullscreen;
    const char *record, *socket, *http, *trace;
    live_game_opts game;
} run_opts;

static int parse_num(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = s ? strtod(s, &end) : 0;
    if (!s || errno || end == s || *end || v < lo || v > hi) {
        cmd_usage_error("run", "%s needs a number from %g to %g", opt, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* WxH, each side 16..8192. */
static int parse_size(const char *s, int *w, int *h)
{
    char *x, *end;
    errno = 0;
    long a = strtol(s, &x, 10), b = *x == 'x' ? strtol(x + 1, &end, 10) : 0;
    if (errno || x == s || *x != 'x' || end == x + 1 || *end || a < 16 || b < 16 || a > 8192 ||
        b > 8192) {
        cmd_usage_error("run", "--size needs WIDTHxHEIGHT, e.g. 1920x1080");
        return -1;
    }
    *w = (int)a, *h = (int)b;
    return 0;
}

/* Returns 0, 1 (--help or --version printed) or -1 (usage error printed). */
static int parse_args(int argc, char **argv, run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->track = TS_TRACKER_DEFAULTS;
    o->game.hint = -1;
    enum { O_SOURCE = CMD_OPT_LONG, O_FPS, O_SIZE, O_LOOP, O_FAST, O_WATCHDOG, O_FRAMES, O_GAME,
           O_PROFILE, O_MODELS, O_CONF_FLOOR, O_STABLE, O_KEEP, O_HEADLESS, O_RECORD, O_JSON,
           O_SOCKET, O_HTTP, O_HTTP_ANY, O_QUIET, O_FULLSCREEN, O_HINT, O_ZONES, O_ZONE,
           O_SHOW_ZONES, O_FIRST_LEAD, O_REFEREE, O_LOG, O_RULE, O_PLAYERS, O_REVEAL, O_TRACE };
    static const struct option OPTS[] = {
        {"source", required_argument, NULL, O_SOURCE},
        {"fps", required_argument, NULL, O_FPS},
        {"size", required_argument, NULL, O_SIZE},
        {"loop", no_argument, NULL, O_LOOP},
        {"fast", no_argument, NULL, O_FAST},
        {"watchdog", required_argument, NULL, O_WATCHDOG},
        {"frames", required_argument, NULL, O_FRAMES},
        {"game", required_argument, NULL, O_GAME},
        {"profile", required_argument, NULL, O_PROFILE},
        {"models", required_argument, NULL, O_MODELS},
        {"conf-floor", required_argument, NULL, O_CONF_FLOOR},
        {"stable", required_argument, NULL, O_STABLE},
        {"keep", required_argument, NULL, O_KEEP},
        {"headless", no_argument, NULL, O_HEADLESS},
        {"record", required_argument, NULL, O_RECORD},
        {"json", no_argument, NULL, O_JSON},
        {"socket", required_argument, NULL, O_SOCKET},
        {"http", required_argument, NULL, O_HTTP},
        {"http-any", no_argument, NULL, O_HTTP_ANY},
        {"quiet", no_argument, NULL, O_QUIET},
        {"fullscreen", no_argument, NULL, O_FULLSCREEN},
        {"hint", required_argument, NULL, O_HINT},
        {"zones", required_argument, NULL, O_ZONES},
        {"zone", required_argument, NULL, O_ZONE},
        {"show-zones", no_argument, NULL, O_SHOW_ZONES},
        {"first-lead", no_argument, NULL, O_FIRST_LEAD},
        {"referee", no_argument, NULL, O_REFEREE},
        {"log", required_argument, NULL, O_LOG},
        {"rule", required_argument, NULL, O_RULE},
        {"players", required_argument, NULL, O_PLAYERS},
        {"reveal", no_argument, NULL, O_REVEAL},
        {"trace", required_argument, NULL, O_TRACE},
        CMD_COMMON_OPTIONS,
        {0}};
    for (int c; (c = cmd_getopt("run", argc, argv, OPTS)) != -1;) {
        const char *v = optarg;
        double x;
#define NUM(name, lo, hi, field, type)                                                          \
    if (parse_num(name, v, lo, hi, &x) < 0)                                                     \
        return -1;                                                                              \
    field = (type)x;                                                                            \
    break;
        switch (c) {
        case 'h': fputs(USAGE, stdout); return 1;
        case CMD_OPT_VERSION: cmd_version(); return 1;
        case O_SOURCE: o->cap.source = v; break;
        case O_FPS: NUM("--fps", 0.1, 1000, o->cap.fps, double)
        case O_SIZE:
            if (parse_size(v, &o->cap.width, &o->cap.height) < 0)
                return -1;
            break;
        case O_LOOP: o->cap.loop = 1; break;
        case O_FAST: o->cap.fast = 1; break;
        case O_WATCHDOG: NUM("--watchdog", 0.1, 3600, o->cap.watchdog, double)
        case O_FRAMES: NUM("--frames", 1, 1e12, o->frames, long)
        case O_GAME: o->proc.game = v; break;
        case O_PROFILE: o->proc.profile = v; break;
        case O_MODELS: o->proc.models_dir = v; break;
        case O_CONF_FLOOR: NUM("--conf-floor", 0, 1, o->proc.conf_floor, float)
        case O_STABLE: NUM("--stable", 1, 1000, o->track.stable_frames, int)
        case O_KEEP: NUM("--keep", 1, 100000, o->track.keep_frames, int)
        case O_HEADLESS: o->headless = 1; break;
        case O_RECORD: o->record = v; break;
        case O_JSON: o->json = 1; break;
        case O_SOCKET: o->socket = v; break;
        case O_HTTP: o->http = v; break;
        case O_HTTP_ANY: o->http_any = 1; break;
        case O_QUIET: o->quiet = 1; break;
        case O_FULLSCREEN: o->fullscreen = 1; break;
        case O_HINT: NUM("--hint", 0, 4, o->game.hint, int)
        case O_ZONES: o->game.zones_file = v; break;
        case O_ZONE:
            if (o->game.nzone_specs == 8) {
                cmd_usage_error("run", "--zone NAME:x0,y0,x1,y1 at most 8 times");
                return -1;
            }
            o->game.zone_spec[o->game.nzone_specs++] = v;
            break;
        case O_SHOW_ZONES: o->game.show_zones = 1; break;
        case O_FIRST_LEAD: o->game.first_lead = 1; break;
        case O_REFEREE: o->game.referee = 1; break;
        case O_LOG: o->game.log_dir = v; break;
        case O_RULE: o->game.rule_file = v; break;
        case O_PLAYERS: NUM("--players", 1, 16, o->game.players, int)
        case O_REVEAL: o->game.reveal = 1; break;
        case O_TRACE: o->trace = v; break;
        default: return -1;
        }
#undef NUM
    }
    if (optind < argc) {
        cmd_usage_error("run", "unexpected argument '%s' (the source is --source SRC)",
                        argv[optind]);
        return -1;
    }
    if (!o->proc.game)
        o->proc.game = "set";
    o->game.game = o->proc.game;
    const ts_game *g = ts_game_find(o->proc.game);
    if (g && strcmp(g->name, "setgrid") == 0)
        o->proc.game = "set"; /* a SET variant: the SET reader */
    if (g == &TS_GAME_QWIRKLE_TILES) { /* the Qwirkle reader, the tile set's profile */
        o->proc.game = "qwirkle";
        if (!o->proc.profile)
            o->proc.profile = "tiles";
    }
    o->proc.readers = 2; /* cards read on two cores: hints reach the screen sooner */
    /* --game auto: the chosen family's reader alone between full checks */
    o->proc.auto_hold = RUN_AUTO_HOLD;
    return 0;
}

/* ---- The run ------------------------------------------------------------ */

enum { MAX_SINKS = 4 };

typedef struct {
    run_opts o;
    ts_capture *cap;
    ts_pipeline *proc;
    ts_tracker *trk;
    live_game *lg;
    ts_stats *stats;
    ts_trace *trace; /* NULL unless --trace */
    char label[200];
    double t0;
    ts_sink *lines[MAX_SINKS];  /* vision thread's */
    ts_sink *frames[MAX_SINKS]; /* main thread's */
    int nlines, nframes;
    atomic_int quit, vision_done, failed, ending;
    atomic_ullong processed, displayed;

    pthread_mutex_t mu; /* the results the display draws: */
    ts_table table;          /* stable table of the newest processed frame */
    int missing[TS_MAX_CARDS]; /* frames since each of its cards was seen */
    uint64_t result_seq;     /* that frame's seq, and its capture time */
    double result_t;
    double vision_fps, latency_ms;
    live_verdict verdict;    /* the latest referee verdict for the screen */
} run;

static void request_quit(run *r)
{
    atomic_store(&r->quit, 1);
    ts_capture_stop(r->cap);
}

static void print_stats(run *r)
{
    ts_capture_status st;
    ts_capture_get_status(r->cap, &st);
    ts_stats_counts c = {st.captured, atomic_load(&r->processed), st.dropped,
                         atomic_load(&r->displayed), ts_now() - r->t0};
    ts_stats_print(r->stats, &c, stderr);
}

/* Frames (or events) per second over about the last second. */
typedef struct {
    double t;
    uint64_t n;
    double per_s;
} rate;

static void rate_update(rate *m, uint64_t count, double now)
{
    if (m->t == 0) {
        m->t = now, m->n = count;
    } else if (now - m->t >= 1.0) {
        m->per_s = (double)(count - m->n) / (now - m->t);
        m->t = now, m->n = count;
    }
}

/* Sink i failed for good: it is reported and closed (*n shrinks). Closing
 * the window ends the run normally; any other output failing makes the exit
 * status 1 while the rest goes on. */
static void sink_failed(run *r, ts_sink **sinks, int *n, int i, const char *why)
{
    if (strcmp(sinks[i]->name, "window") == 0)
        request_quit(r);
    else
        atomic_store(&r->failed, 1);
    fprintf(stderr, "tablesight run: %s\n", why);
    sinks[i]->destroy(sinks[i]);
    sinks[i] = sinks[--*n];
}

static void poll_sinks(run *r, ts_sink **sinks, int *n)
{
    char err[256];
    for (int i = 0; i < *n; i++)
        if (sinks[i]->poll && sinks[i]->poll(sinks[i], err, sizeof err) < 0)
            sink_failed(r, sinks, n, i--, err);
}

/* ---- Vision thread ------------------------------------------------------ */

static void publish(run *r, const ts_stable *st, const ts_frame *f, double latency, double fps)
{
    pthread_mutex_lock(&r->mu);
    r->table = st->table;
    memcpy(r->missing, st->missing, sizeof r->missing);
    r->result_seq = f->seq;
    r->result_t = f->t;
    r->latency_ms = r->latency_ms > 0 ? 0.8 * r->latency_ms + 0.2 * latency : latency;
    r->vision_fps = fps;
    pthread_mutex_unlock(&r->mu);
}

static void publish_verdict(run *r, const live_verdict *v)
{
    pthread_mutex_lock(&r->mu);
    r->verdict = *v;
    pthread_mutex_unlock(&r->mu);
}

/* Commands from sinks that take them (socket lines, window keys). */
static void read_commands(run *r, ts_sink **sinks, int n)
{
    char cmd[128];
    for (int i = 0; i < n; i++)
        while (sinks[i]->command && sinks[i]->command(sinks[i], cmd, sizeof cmd))
            if (!live_game_command(r->lg, cmd) && strcmp(cmd, "q") && strcmp(cmd, "Escape"))
                fprintf(stderr, "tablesight run: unknown command '%.40s'\n", cmd);
}

static void send_line(run *r, const ts_json *j)
{
    char err[256];
    for (int i = 0; i < r->nlines; i++)
        if (r->lines[i]->line(r->lines[i], j->buf.data, j->buf.len, err, sizeof err) < 0)
            sink_failed(r, r->lines, &r->nlines, i--, err);
}

static void *vision_thread(void *arg)
{
    run *r = arg;
    ts_json j;
    ts_json_init(&j);
    ts_frame_result *res = malloc(sizeof *res);
    uint64_t seq = 0, errors = 0;
    int said = 0; /* a JSON line has been sent */
    if (!res) {
        fprintf(stderr, "tablesight run: out of memory\n");
        atomic_store(&r->failed, 1);
        request_quit(r);
    }
    rate fps = {0};
    while (res && !atomic_load(&r->quit)) {
        ts_frame *f = ts_capture_next(r->cap, seq, 100, 1);
        poll_sinks(r, r->lines, &r->nlines);
        read_commands(r, r->lines, r->nlines);
        if (!f) {
            ts_capture_status st;
            ts_capture_get_status(r->cap, &st);
            if (ts_capture_finished(st.state))
                break;
            continue;
        }
        seq = f->seq;
        ts_trace_mark mark;
        ts_trace_mark_now(r->trace, &mark);
        double t_start = mark.t;
        char err[256];
        memset(res, 0, sizeof *res);
        if (ts_pipeline_process(r->proc, &f->img, res, err, sizeof err) < 0) {
            if (errors++ % 100 == 0) /* one line, then one per hundred */
                fprintf(stderr, "tablesight run: frame %llu: %s\n", (unsigned long long)seq, err);
            ts_frame_release(f);
            continue;
        }
        double t_proc = ts_now();
        const ts_stable *st = ts_tracker_update(r->trk, res, f->seq, f->t);
        double t_done = ts_now();

        ts_stats_add(r->stats, TS_ST_QUEUE, (t_start - f->t) * 1e3);
        ts_stats_add(r->stats, TS_ST_DETECT, res->ms_detect);
        ts_stats_add(r->stats, TS_ST_CLASSIFY, res->ms_rectify + res->ms_read);
        ts_stats_add(r->stats, TS_ST_RULES, st->table.ms_rules);
        ts_stats_add(r->stats, TS_ST_PROCESS, (t_proc - t_start) * 1e3);
        ts_stats_add(r->stats, TS_ST_TRACK, (t_done - t_proc) * 1e3);
        ts_stats_add(r->stats, TS_ST_READY, (t_done - f->t) * 1e3);
        uint64_t done = atomic_fetch_add(&r->processed, 1) + 1;
        rate_update(&fps, done, t_done);
        live_verdict lv = {0};
        int verdict = live_game_frame(r->lg, r->trk, st, &f->img, f->t, &j, &lv);
        publish(r, st, f, (t_done - f->t) * 1e3, fps.per_s);
        ts_capture_wake(r->cap); /* the display draws the results now */
        ts_trace_stage(r->trace, "vision", f->seq, f->t, &mark, 0);
        if (lv.seq)
            publish_verdict(r, &lv);
        if (verdict && r->nlines > 0)
            send_line(r, &j);
        /* A line per change; and a table that has been empty from the start
         * says so once, when it is as sure of that as of any card. */
        int empty_at_start = !said && st->table.frame.ncards == 0 &&
                             done >= (uint64_t)r->o.track.stable_frames;
        if ((st->nevents > 0 || empty_at_start) && r->nlines > 0) {
            ts_stable_json(&j, st, r->label, r->o.game.game, r->t0);
            send_line(r, &j);
            said = 1;
        }
        ts_frame_release(f);
        if (r->o.frames > 0 && done >= (uint64_t)r->o.frames)
            request_quit(r);
    }
    ts_json_free(&j);
    free(res);
    atomic_store(&r->vision_done, 1);
    return NULL;
}

/* ---- Display (main thread) ---------------------------------------------- */

/* The display waits for a frame or for results (vision wakes it) this long
 * at most, to service the sinks. A new frame waits up to HOLD_MS after its
 * capture for its own results (vision takes about half a frame interval at
 * 1080p): shown once, with its hints on it and prepared for the screen
 * meanwhile, rather than shown bare and then again with hints. */
enum { DISPLAY_WAIT_MS = 20, HOLD_MS = 25 };

typedef struct {
    ts_image canvas;
    ts_image blank; /* shown while a source has never sent a frame */
    ts_table table;
    int missing[TS_MAX_CARDS];
    ts_overlay_list ov; /* the overlay's draw list for the frame shown */
    uint64_t drawn_seq; /* result seq last drawn, for the capture->hints latency */
    uint64_t drawn_verdict; /* verdict seq last drawn, for the settled->verdict latency */
    rate cam;
} display;

static int any_wants_frame(run *r)
{
    for (int i = 0; i < r->nframes; i++)
        if (!r->frames[i]->wants_frame || r->frames[i]->wants_frame(r->frames[i]))
            return 1;
    return 0;
}

/* Whether a sink wants annotated frames (not the window, which draws its own). */
static int wants_canvas(const ts_sink *s)
{
    return !s->video && (!s->wants_frame || s->wants_frame((ts_sink *)s));
}

/* The latest results as a draw list for img (captured at t), handed to the
 * sinks: the window draws it on the video itself; the others get an annotated
 * copy of img. keep: the capture frame img lies in, or NULL. again: img was
 * shown before (now with newer results). */
static void show(run *r, display *d, const ts_image *img, ts_frame *keep, double t,
                 const ts_capture_status *cs, int again)
{
    ts_trace_mark mark;
    ts_trace_mark_now(r->trace, &mark);
    double t_start = mark.t;
    pthread_mutex_lock(&r->mu);
    d->table = r->table;
    memcpy(d->missing, r->missing, sizeof d->missing);
    live_verdict verdict = r->verdict;
    uint64_t rseq = r->result_seq;
    double rt = r->result_t, vfps = r->vision_fps, lat = r->latency_ms;
    pthread_mutex_unlock(&r->mu);

    rate_update(&d->cam, cs->captured, t_start);
    int stale = cs->state == TS_CAP_STALE;
    char status[320], gs[96];
    live_game_status(r->lg, gs, sizeof gs);
    snprintf(status, sizeof status, "%s | cam %.1f fps | vision %.1f fps | %.0f ms | %.40s%s%s%s",
             r->o.game.game, d->cam.per_s, vfps, lat, cs->label, strlen(cs->label) > 40 ? "..." : "",
             gs[0] ? " | " : "", gs);
    ts_overlay_opts oo = {.status = status, .stale = stale, .stale_reason = cs->reason, .plain = 1,
                          .zones = live_game_zones(r->lg), .missing = d->missing,
                          .keep_frames = r->o.track.keep_frames, .stamp = rt};
    int show_verdict = verdict.seq && t_start < verdict.until;
    if (show_verdict) {
        oo.verdict = verdict.text;
        oo.verdict_kind = verdict.kind;
        oo.verdict_x = verdict.x;
        oo.verdict_y = verdict.y;
    }
    ts_overlay_build(&d->ov, &d->table, &oo, img->w, img->h);

    int canvas = 0;
    for (int i = 0; i < r->nframes && !canvas; i++)
        canvas = wants_canvas(r->frames[i]);
    if (canvas) { /* annotated copies only for sinks that want them now */
        if (d->canvas.w != img->w || d->canvas.h != img->h) {
            ts_image_free(&d->canvas);
            if (ts_image_alloc(&d->canvas, img->w, img->h, 3) < 0)
                return;
        }
        for (int y = 0; y < img->h; y++)
            memcpy(ts_image_row(&d->canvas, y), ts_image_row(img, y), (size_t)img->w * 3);
        ts_overlay_render(&d->canvas, &d->ov);
    }

    char err[256];
    for (int i = 0; i < r->nframes; i++) {
        ts_sink *s = r->frames[i];
        int rc = 0;
        if (s->video)
            rc = s->video(s, img, keep, &d->ov, t, err, sizeof err);
        else if (wants_canvas(s))
            rc = s->frame(s, &d->canvas, t, err, sizeof err);
        if (rc < 0)
            sink_failed(r, r->frames, &r->nframes, i--, err);
    }
    double t_end = ts_now();
    ts_trace_stage(r->trace, again ? "again" : "show", keep ? keep->seq : 0, t, &mark, rt);
    atomic_fetch_add(&r->displayed, 1);
    ts_stats_add(r->stats, TS_ST_OVERLAY, (t_end - t_start) * 1e3);
    if (!stale && !again)
        ts_stats_add(r->stats, TS_ST_SCREEN, (t_end - t) * 1e3);
    if (rseq && rseq != d->drawn_seq) {
        ts_stats_add(r->stats, TS_ST_HINTS, (t_end - rt) * 1e3);
        d->drawn_seq = rseq;
    }
    if (show_verdict && verdict.seq != d->drawn_verdict) {
        if (verdict.settled_t > 0) {
            ts_stats_add(r->stats, TS_ST_VERDICT, (t_end - verdict.settled_t) * 1e3);
            ts_stats_add(r->stats, TS_ST_VERDICT_DRAW, (t_end - verdict.decided_t) * 1e3);
        }
        d->drawn_verdict = verdict.seq;
    }
}

/* The capture seq of the latest results (0: none yet). */
static uint64_t result_seq(run *r)
{
    pthread_mutex_lock(&r->mu);
    uint64_t rseq = r->result_seq;
    pthread_mutex_unlock(&r->mu);
    return rseq;
}

/* Lets the sinks prepare f while vision reads it (see ts_sink.prepare). */
static void prepare(run *r, ts_frame *f)
{
    char err[256];
    for (int i = 0; i < r->nframes; i++) {
        ts_sink *s = r->frames[i];
        if (s->prepare && s->prepare(s, &f->img, f, err, sizeof err) < 0)
            sink_failed(r, r->frames, &r->nframes, i--, err);
    }
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void display_loop(run *r)
{
    display d;
    memset(&d, 0, sizeof d);
    ts_frame *last = NULL; /* the frame shown last */
    ts_frame *held = NULL; /* a new frame waiting for its results (HOLD_MS) */
    uint64_t seq = 0, wakes = 0;
    double last_stale = 0;
    while (!atomic_load(&r->quit) && !atomic_load(&r->vision_done)) {
        ts_frame *f = NULL;
        int looking = any_wants_frame(r), wait_ms = DISPLAY_WAIT_MS;
        if (held) {
            int left = (int)((held->t - ts_now()) * 1e3) + HOLD_MS;
            wait_ms = left < 0 ? 0 : left < wait_ms ? left : wait_ms;
        }
        if (looking) /* new results wake the wait: drawn without waiting for a new frame */
            f = ts_capture_wait(r->cap, seq, &wakes, wait_ms);
        else
            sleep_ms(50); /* nobody is looking: just keep the sinks serviced */
        ts_capture_status cs;
        ts_capture_get_status(r->cap, &cs);
        if (held && (f || !looking || result_seq(r) >= held->seq ||
                     ts_now() >= held->t + HOLD_MS / 1e3)) {
            ts_frame_release(last);
            last = held;
            held = NULL;
            show(r, &d, &last->img, last, last->t, &cs, 0);
        }
        if (f) {
            seq = f->seq;
            if (looking && cs.state != TS_CAP_STALE) {
                held = f;
                prepare(r, f);
            } else {
                ts_frame_release(last);
                last = f;
                show(r, &d, &f->img, f, f->t, &cs, 0);
            }
        } else if (looking && last && !held && cs.state != TS_CAP_STALE &&
                   result_seq(r) && result_seq(r) != d.drawn_seq) {
            show(r, &d, &last->img, last, last->t, &cs, 1);
        } else if (cs.state == TS_CAP_STALE && ts_now() - last_stale > 0.5 && any_wants_frame(r)) {
            /* Keep the window alive: the last good frame (or a blank one if
             * none came yet), marked stale. */
            if (!last && !d.blank.buf && ts_image_alloc(&d.blank, 1280, 720, 3) == 0)
                memset(d.blank.buf, 0, (size_t)d.blank.stride * 720);
            if (last || d.blank.buf)
                show(r, &d, last ? &last->img : &d.blank, last, ts_now(), &cs, 1);
            last_stale = ts_now();
        }
        poll_sinks(r, r->frames, &r->nframes);
        read_commands(r, r->frames, r->nframes);
    }
    ts_frame_release(held);
    ts_frame_release(last);
    ts_image_free(&d.canvas);
    ts_image_free(&d.blank);
    ts_overlay_list_free(&d.ov);
}

/* ---- Signals ------------------------------------------------------------ */

static sigset_t handled_signals(void)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGUSR1);
    return s;
}

/* Signals are blocked in every thread and taken here with sigwait: no
 * handler, no global flag. At the end the run signals this thread itself. */
static void *signal_thread(void *arg)
{
    run *r = arg;
    sigset_t set = handled_signals();
    double first_stop = 0;
    for (;;) {
        int sig = 0;
        if (sigwait(&set, &sig) != 0)
            continue;
        if (atomic_load(&r->ending))
            return NULL;
        if (sig == SIGUSR1) {
            print_stats(r);
        } else if (first_stop == 0) {
            first_stop = ts_now();
            request_quit(r);
        } else if (ts_now() - first_stop > 1.0) { /* not the same signal sent twice at once */
            fprintf(stderr, "tablesight run: second signal, exiting now\n");
            _exit(130);
        }
    }
}

/* ---- Setup -------------------------------------------------------------- */

static int add_sink(ts_sink **sinks, int *n, ts_sink *s, const char *err)
{
    if (!s) {
        fprintf(stderr, "tablesight run: %s\n", err);
        return -1;
    }
    sinks[(*n)++] = s;
    return 0;
}

static int open_sinks(run *r)
{
    char err[256];
    const run_opts *o = &r->o;
    if (!o->headless &&
        add_sink(r->frames, &r->nframes,
                 ts_sink_window_create("tablesight", o->fullscreen, r->stats, r->trace, err,
                                       sizeof err),
                 err) < 0)
        return -1;
    if (o->record &&
        add_sink(r->frames, &r->nframes, ts_sink_record_create(o->record, err, sizeof err), err) < 0)
        return -1;
    if (o->http) {
        ts_sink *h = ts_sink_http_create(o->http, o->http_any, err, sizeof err);
        if (add_sink(r->frames, &r->nframes, h, err) < 0)
            return -1;
        /* Always printed: with port 0 this is how a caller learns the port. */
        fprintf(stderr, "tablesight run: MJPEG over HTTP on port %d (GET / for the page)\n",
                ts_sink_http_port(h));
    }
    if (o->json && add_sink(r->lines, &r->nlines, ts_sink_json_create(stdout, err, sizeof err), err) < 0)
        return -1;
    if (o->socket &&
        add_sink(r->lines, &r->nlines, ts_sink_socket_create(o->socket, err, sizeof err), err) < 0)
        return -1;
    return 0;
}

static void close_all(run *r)
{
    for (int i = 0; i < r->nlines; i++)
        r->lines[i]->destroy(r->lines[i]);
    for (int i = 0; i < r->nframes; i++)
        r->frames[i]->destroy(r->frames[i]);
    r->nlines = r->nframes = 0;
    ts_capture_destroy(r->cap);
    ts_pipeline_destroy(r->proc);
    ts_tracker_destroy(r->trk);
    live_game_close(r->lg);
    r->lg = NULL;
    ts_stats_destroy(r->stats);
    ts_trace_destroy(r->trace); /* after every thread and sink that writes it */
    r->trace = NULL;
    pthread_mutex_destroy(&r->mu);
}

static int run_live(run *rp);

int cmd_run(int argc, char **argv)
{
    run *r = calloc(1, sizeof *r); /* large: results and sinks */
    if (!r) {
        fprintf(stderr, "tablesight run: out of memory\n");
        return 1;
    }
    int pa = parse_args(argc, argv, &r->o);
    int code = pa > 0 ? 0 : pa < 0 ? 2 : run_live(r);
    free(r);
    return code;
}

/* Setup failed: everything made so far is closed. */
static int give_up(run *r, const sigset_t *old, const char *why)
{
    if (why)
        fprintf(stderr, "tablesight run: %s\n", why);
    close_all(r);
    pthread_sigmask(SIG_SETMASK, old, NULL);
    return 1;
}

static int run_live(run *r)
{
    /* Before any thread exists, so every thread (GStreamer's too) inherits it. */
    sigset_t sigs = handled_signals(), old;
    pthread_sigmask(SIG_BLOCK, &sigs, &old);
    signal(SIGPIPE, SIG_IGN); /* a closed stdout or client is an error return, not death */
    signal(SIGXFSZ, SIG_IGN); /* a file-size limit stops the recording (EFBIG), not the run */

    pthread_mutex_init(&r->mu, NULL);
    r->t0 = ts_now();
    char err[256];
    r->stats = ts_stats_create();
    r->trk = ts_tracker_create(&r->o.track);
    r->lg = live_game_open(&r->o.game, err, sizeof err); /* the game's own errors first */
    if (!r->lg)
        return give_up(r, &old, err);
    r->proc = ts_pipeline_create(&r->o.proc, err, sizeof err);
    if (!r->proc || !r->stats || !r->trk)
        return give_up(r, &old, r->proc ? "out of memory" : err);
    ts_tracker_set_rules(r->trk, live_game_rules(r->lg));
    if (r->o.trace && !(r->trace = ts_trace_create(r->o.trace, err, sizeof err)))
        return give_up(r, &old, err);
    r->o.cap.trace = r->trace;
    r->cap = ts_capture_create(&r->o.cap, err, sizeof err);
    if (!r->cap)
        return give_up(r, &old, err);
    ts_capture_status cs;
    ts_capture_get_status(r->cap, &cs);
    snprintf(r->label, sizeof r->label, "%s", cs.label);
    if (open_sinks(r) < 0)
        return give_up(r, &old, NULL);
    if (!r->o.quiet)
        fprintf(stderr, "tablesight run: %s -> %s%s%s%s%s%s\n", r->label,
                r->o.headless ? "" : "window ", r->o.record ? "record " : "",
                r->o.http ? "http " : "", r->o.json ? "json " : "", r->o.socket ? "socket " : "",
                r->nframes + r->nlines == 0 ? "(no outputs: stats only)" : "");
    /* auto found no camera: say so, so a missing webcam is not mistaken for
     * a working one. */
    const char *src = r->o.cap.source;
    if (!r->o.quiet && (!src || !*src || strcmp(src, "auto") == 0) &&
        strncmp(r->label, "/dev/", 5) != 0)
        fprintf(stderr, "tablesight run: no camera found (/dev/video*): playing the bundled "
                        "sample clip; --source /dev/videoN names a camera\n");

    pthread_t sig_thread, vis_thread;
    if (pthread_create(&sig_thread, NULL, signal_thread, r) != 0)
        return give_up(r, &old, "cannot start a thread");
    if (pthread_create(&vis_thread, NULL, vision_thread, r) != 0) {
        atomic_store(&r->vision_done, 1);
        atomic_store(&r->failed, 1);
    } else {
        display_loop(r);
        request_quit(r);
        pthread_join(vis_thread, NULL);
    }

    ts_capture_get_status(r->cap, &cs);
    int code = cs.state == TS_CAP_FAILED || atomic_load(&r->failed) ? 1 : 0;
    print_stats(r);
    live_game_finish(r->lg, stderr);
    atomic_store(&r->ending, 1);
    pthread_kill(sig_thread, SIGUSR1);
    pthread_join(sig_thread, NULL);
    close_all(r);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return code;
}
