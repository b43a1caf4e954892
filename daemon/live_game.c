/* The per-game part of the live daemon (see live_game.h). */
#include "live_game.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "eleusis_dealer.h"
#include "move_evidence.h"
#include "referee.h"
#include "referee_log.h"

enum { QUIET_COPY_EVERY = 10, VERDICT_SHOW_S = 4 };

struct live_game {
    live_game_opts o;
    ts_zones zones;
    ts_table_rules rules;
    atomic_int hint_level, first_lead_req, phase2_req, reveal_req;
    int applied_hint;
    ts_referee *ref;
    ts_eleusis_dealer *dealer;
    ts_referee_log *log;
    ts_image quiet;       /* the table at its last quiet moment: a move's "before" */
    int quiet_age;        /* frames since it was copied */
    const ts_image *now;  /* the frame being judged (borrowed, during an update) */
    uint64_t verdicts;
    double t0;            /* the first frame's time: verdict times count from it */
    char note[TS_TEXT_MAX]; /* a message for the screen (phase 1 over, the rule) */
};

static char *read_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open", path);
        return NULL;
    }
    char *buf = malloc(65536);
    size_t n = buf ? fread(buf, 1, 65535, f) : 0;
    fclose(f);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

/* The referee's evidence: a card the readings lost that looks the same in
 * the "before" picture and now still lies there. */
static int still_there(void *ctx, const ts_card *c)
{
    live_game *g = ctx;
    if (!g->now || !g->quiet.buf)
        return 0;
    return ts_quad_similarity(&g->quiet, g->now, c->quad) > TS_STILL_THERE;
}

live_game *live_game_open(const live_game_opts *o, char *err, size_t errlen)
{
    live_game *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->o = *o;
    g->rules.game = ts_game_find(o->game); /* NULL for "auto": by the cards' family */
    int climbing = g->rules.game == &TS_GAME_GOF || g->rules.game == &TS_GAME_SAPNGWU;
    if (climbing && o->players > TS_SEATS_MAX) {
        snprintf(err, errlen, "--players: %s seats at most %d players", g->rules.game->title,
                 TS_SEATS_MAX);
        live_game_close(g);
        return NULL;
    }
    /* Climbing games with --players: a hand zone per seat, so the referee
     * knows who played and when a hand is empty. */
    ts_zones_default_seats(g->rules.game ? g->rules.game->name : "set", climbing ? o->players : 0,
                           &g->zones);
    if (o->zones_file) {
        char *text = read_file(o->zones_file, err, errlen);
        char why[200];
        if (!text || ts_zones_parse(text, &g->zones, why, sizeof why) < 0) {
            if (text)
                snprintf(err, errlen, "%s: %s", o->zones_file, why);
            free(text);
            live_game_close(g);
            return NULL;
        }
        free(text);
    }
    if (o->nzone_specs > 0 && !o->zones_file)
        g->zones.n = 0; /* corners on the command line replace the default */
    for (int i = 0; i < o->nzone_specs; i++)
        if (ts_zones_add_spec(&g->zones, o->zone_spec[i], err, errlen) < 0) {
            live_game_close(g);
            return NULL;
        }
    g->rules.zones = g->rules.game || o->zones_file || o->nzone_specs ? &g->zones : NULL;
    g->applied_hint = o->hint >= 0 ? o->hint : 4;
    atomic_store(&g->hint_level, g->applied_hint);
    g->rules.opts = TS_GAME_OPTS_DEFAULT;
    g->rules.opts.hint_level = g->applied_hint;
    g->rules.opts.first_lead = o->first_lead;
    g->rules.set_opts = 1;

    if (o->rule_file) {
        char *text = read_file(o->rule_file, err, errlen);
        char why[220];
        if (text)
            g->dealer = ts_eleusis_dealer_create(text, o->players > 0 ? o->players : 3, why,
                                                 sizeof why);
        free(text);
        if (!g->dealer) {
            if (text)
                snprintf(err, errlen, "%s: %s", o->rule_file, why);
            live_game_close(g);
            return NULL;
        }
    }
    /* Climbing games keep a referee even without --referee: it knows which of
     * the plays on the trick is the newest, the one the hints must beat. */
    if (o->referee || g->dealer || climbing) {
        const ts_game *game = g->rules.game ? g->rules.game : &TS_GAME_SET;
        g->ref = ts_referee_create(game, NULL);
        if (!g->ref) {
            snprintf(err, errlen, "out of memory");
            live_game_close(g);
            return NULL;
        }
        ts_referee_set_dealer(g->ref, g->dealer);
        ts_referee_set_evidence(g->ref, still_there, g);
        ts_referee_set_first_lead(g->ref, o->first_lead);
        char dir[256];
        const char *log_dir = o->log_dir;
        if (!log_dir) {
            time_t now = time(NULL);
            struct tm tm;
            localtime_r(&now, &tm);
            strftime(dir, sizeof dir, "tablesight-referee-%Y%m%d-%H%M%S", &tm);
            log_dir = dir;
        }
        if (o->referee || g->dealer) {
            g->log = ts_referee_log_open(log_dir, err, errlen);
            if (!g->log) {
                live_game_close(g);
                return NULL;
            }
        }
    }
    return g;
}

void live_game_close(live_game *g)
{
    if (!g)
        return;
    ts_referee_destroy(g->ref);
    ts_eleusis_dealer_destroy(g->dealer);
    ts_referee_log_close(g->log);
    ts_image_free(&g->quiet);
    free(g);
}

const ts_table_rules *live_game_rules(live_game *g)
{
    return &g->rules;
}

const ts_zones *live_game_zones(const live_game *g)
{
    return g->o.show_zones ? &g->zones : NULL;
}

int live_game_command(live_game *g, const char *cmd)
{
    int level;
    if (!strcmp(cmd, "h") || !strcmp(cmd, "hint")) {
        int cur = atomic_load(&g->hint_level);
        atomic_store(&g->hint_level, (cur + 1) % 5);
    } else if (sscanf(cmd, "hint %d", &level) == 1 && level >= 0 && level <= 4) {
        atomic_store(&g->hint_level, level);
    } else if (!strcmp(cmd, "r") || !strcmp(cmd, "reveal")) {
        atomic_store(&g->reveal_req, 1);
    } else if (!strcmp(cmd, "p") || !strcmp(cmd, "phase2")) {
        atomic_store(&g->phase2_req, 1);
    } else if (!strcmp(cmd, "f") || !strcmp(cmd, "first-lead")) {
        atomic_store(&g->first_lead_req, 1);
    } else {
        return 0;
    }
    return 1;
}

static void copy_image(ts_image *dst, const ts_image *src)
{
    if (dst->w != src->w || dst->h != src->h) {
        ts_image_free(dst);
        if (ts_image_alloc(dst, src->w, src->h, 3) < 0)
            return;
    }
    for (int y = 0; y < src->h; y++)
        memcpy(ts_image_row(dst, y), ts_image_row(src, y), (size_t)src->w * 3);
}

/* Where a move was: the centre of its added cards, else of those taken. */
static void move_at(const ts_referee *ref, float *x, float *y)
{
    const ts_move *m = ts_referee_move(ref);
    const ts_table_snapshot *s = m->nadded ? ts_referee_after(ref) : ts_referee_before(ref);
    int n = m->nadded ? m->nadded : m->nremoved;
    const int *idx = m->nadded ? m->added : m->removed;
    float sx = 0, sy = 0;
    int k = 0;
    for (int i = 0; i < n && i < TS_MOVE_MAX; i++, k++) {
        ts_pt c = ts_card_centre(&s->cards[idx[i]]);
        sx += c.x, sy += c.y;
    }
    *x = k ? sx / (float)k : (float)s->w / 2;
    *y = k ? sy / (float)k : (float)s->h / 2;
}

static void screen_note(live_game *g, live_verdict *v, int kind, const char *text, int w, int h,
                        double t)
{
    v->seq = ++g->verdicts;
    snprintf(v->text, sizeof v->text, "%s", text);
    v->kind = kind;
    v->x = (float)w / 2;
    v->y = (float)h / 3;
    (void)t;
    v->settled_t = 0; /* a message, not a move: no latency sample */
    v->decided_t = ts_now();
    v->until = v->decided_t + VERDICT_SHOW_S;
}

int live_game_frame(live_game *g, ts_tracker *trk, const ts_stable *st, const ts_image *img,
                    double t, ts_json *j, live_verdict *v)
{
    if (g->t0 == 0)
        g->t0 = t;
    int level = atomic_load(&g->hint_level);
    if (level != g->applied_hint) {
        g->applied_hint = level;
        g->rules.opts.hint_level = level;
        ts_tracker_set_rules(trk, &g->rules);
    }
    const ts_frame_result *f = &st->table.frame;
    int out = 0;
    if (atomic_exchange(&g->first_lead_req, 0) && g->ref) {
        ts_referee_set_first_lead(g->ref, 1);
        g->rules.opts.first_lead = 1;
        ts_tracker_set_rules(trk, &g->rules);
    }
    if (atomic_exchange(&g->phase2_req, 0) && g->dealer) {
        int score = ts_eleusis_dealer_end_phase1(g->dealer);
        char text[96];
        snprintf(text, sizeof text, "phase 1 over: the dealer scores %d", score);
        screen_note(g, v, TS_VERDICT_INFO, text, f->w, f->h, t);
        out = 0;
    }
    if (atomic_exchange(&g->reveal_req, 0) && g->dealer) {
        char rule[TS_TEXT_MAX];
        ts_eleusis_dealer_reveal(g->dealer, rule, sizeof rule);
        char text[TS_TEXT_MAX + 8];
        snprintf(text, sizeof text, "rule: %s", rule);
        screen_note(g, v, TS_VERDICT_INFO, text, f->w, f->h, t);
        g->o.reveal = 1;
    }
    if (!g->ref)
        return out;
    ts_verdict verdict;
    g->now = img;
    int moved = ts_referee_update(g->ref, f->cards, st->id, st->table.zone, f->ncards, f->w, f->h,
                                  st->busy, t, &verdict);
    g->now = NULL;
    if (!moved) {
        if (ts_referee_quiet(g->ref) && (g->quiet_age++ % QUIET_COPY_EVERY == 0 || !g->quiet.buf))
            copy_image(&g->quiet, img);
        return out;
    }
    /* The play to beat, for the hints: the referee's, not the whole trick zone. */
    const ts_game_memory *mem = ts_referee_memory(g->ref);
    if (mem->nlast != g->rules.opts.ntrick ||
        memcmp(mem->last, g->rules.opts.trick, sizeof(ts_code) * (size_t)mem->nlast) != 0) {
        g->rules.opts.ntrick = mem->nlast;
        memcpy(g->rules.opts.trick, mem->last, sizeof(ts_code) * (size_t)mem->nlast);
        if (g->rules.game == &TS_GAME_GOF || g->rules.game == &TS_GAME_SAPNGWU)
            ts_tracker_set_rules(trk, &g->rules);
    }
    if (verdict.kind != TS_VERDICT_NONE && g->log) {
        float x, y;
        move_at(g->ref, &x, &y);
        const char *game = g->rules.game ? g->rules.game->name : "set";
        char err[256];
        if (ts_referee_log_write(g->log, &verdict, game, t - g->t0, g->quiet.buf ? &g->quiet : NULL, img,
                                 x, y, j, err, sizeof err) < 0)
            fprintf(stderr, "tablesight referee: %s\n", err);
        v->seq = ++g->verdicts;
        snprintf(v->text, sizeof v->text, "%s: %s", verdict.verdict, verdict.reason);
        v->kind = verdict.kind;
        v->x = x;
        v->y = y;
        v->settled_t = t;
        v->decided_t = ts_now();
        v->until = v->decided_t + VERDICT_SHOW_S;
        out = 1;
    }
    copy_image(&g->quiet, img); /* the new settled table: the next move's "before" */
    g->quiet_age = 1;
    return out;
}

void live_game_status(live_game *g, char *out, size_t cap)
{
    out[0] = '\0';
    if (g->rules.game == &TS_GAME_SET || !g->rules.game)
        snprintf(out, cap, "hint %d/4 (h)", g->applied_hint);
    if (g->dealer) {
        int p = ts_eleusis_dealer_phase(g->dealer);
        snprintf(out, cap, "dealer: %s, player %d to play", p == 1 ? "phase 1" : p == 2 ? "phase 2" : "over",
                 ts_eleusis_dealer_turn(g->dealer) + 1);
    }
    if (g->log && !g->dealer) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%sreferee", len ? " | " : "");
    }
}

void live_game_finish(live_game *g, FILE *f)
{
    if (!g->dealer || !g->o.reveal)
        return;
    char rule[1024];
    ts_eleusis_dealer_reveal(g->dealer, rule, sizeof rule);
    fprintf(f, "eleusis: the secret rule was: %s\n", rule);
    ts_eleusis_scores sc;
    if (ts_eleusis_dealer_phase(g->dealer) == 1)
        ts_eleusis_dealer_end_phase1(g->dealer);
    if (ts_eleusis_dealer_scores(g->dealer, &sc) == 0) {
        fprintf(f, "eleusis: dealer %g;", sc.dealer);
        for (int p = 0; p < (g->o.players > 0 ? g->o.players : 3); p++)
            fprintf(f, " player %d: %g (%d wrong left)", p + 1, sc.player[p],
                    ts_eleusis_dealer_wrong(g->dealer, p));
        fprintf(f, "\n");
    }
}
