/* `tablesight rules sapngwu`: legal Sap Ng Wu plays from a hand, payments, bench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "json.h"
#include "rules_cli.h"
#include "sapngwu.h"

#define PROG "tablesight rules sapngwu"

enum { MAX_HAND = 28 }; /* three players hold 28 cards each */

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: " PROG " --hand CODES [--trick CODES] [--no-mixed] [--json]\n"
        "       " PROG " --wu N [--declined-at M] [--json]\n"
        "       " PROG " --bench [--samples N] [--json]\n"
        "\n"
        "Sap Ng Wu (seed 004, Hong Kong version). Cards are domino codes low:high, \"1:3\".\n"
        "  --hand CODES     your cards (up to 28)\n"
        "  --trick CODES    the play to beat; without it, every lead is listed\n"
        "                   Plays are listed best first: the plays the fewest kinds of card\n"
        "                   could beat, then more cards; 'sure' marks a play no card outside\n"
        "                   your hand (and the trick) can beat. Nothing beats the trick: pass.\n"
        "  --no-mixed       house rule: no civil+military combinations\n"
        "  --wu N           chips each other player pays a declaration at N wu\n"
        "                   (15-17: 1, 18-20: 2, 21-23: 3, 24-26: 4, 27+: 5)\n"
        "  --declined-at M  the wu at which you last let a declaration pass: you may\n"
        "                   declare again only once the payment has gone up\n"
        "  --bench          median microseconds to list the legal plays of a random\n"
        "                   28-card hand against a random trick\n"
        "  --samples N      hands for --bench (default 2000)\n"
        "  --json           one JSON object instead of text\n"
        "Exit status: 0 ok, 1 --wu: may not declare, 2 usage error or a malformed card or play.\n");
}

/* ---- Arguments --------------------------------------------------------------- */

typedef struct {
    const char *hand, *trick;
    int wu, declined_at, samples;
    int have_wu, bench, json;
    ts_sapngwu_options rules;
} options;

static int parse_int(const char *flag, const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi) {
        fprintf(stderr, PROG ": %s takes a whole number from %d to %d, not '%s'\n", flag, lo, hi,
                s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->samples = 2000;
    o->rules = TS_SAPNGWU_DEFAULTS;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--json") == 0) {
            o->json = 1;
            continue;
        }
        if (strcmp(a, "--bench") == 0) {
            o->bench = 1;
            continue;
        }
        if (strcmp(a, "--no-mixed") == 0) {
            o->rules.mixed = 0;
            continue;
        }
        const char *v = i + 1 < argc ? argv[++i] : NULL;
        int r = 0;
        if (!v && (!strcmp(a, "--hand") || !strcmp(a, "--trick") || !strcmp(a, "--wu") ||
                   !strcmp(a, "--declined-at") || !strcmp(a, "--samples"))) {
            fprintf(stderr, PROG ": missing value after '%s' (see --help)\n", a);
            r = -1;
        } else if (strcmp(a, "--hand") == 0) {
            o->hand = v;
        } else if (strcmp(a, "--trick") == 0) {
            o->trick = v;
        } else if (strcmp(a, "--wu") == 0) {
            r = parse_int(a, v, 0, 1000, &o->wu);
            o->have_wu = 1;
        } else if (strcmp(a, "--declined-at") == 0) {
            r = parse_int(a, v, 0, 1000, &o->declined_at);
        } else if (strcmp(a, "--samples") == 0) {
            r = parse_int(a, v, 1, 1000000, &o->samples);
        } else {
            fprintf(stderr, PROG ": unknown option '%s' (see --help)\n", a);
            r = -1;
        }
        if (r < 0)
            return -1;
    }
    if (!o->hand && !o->have_wu && !o->bench) {
        fprintf(stderr, PROG ": give --hand CODES, --wu N or --bench; see --help\n");
        return -1;
    }
    return 0;
}

/* Parses codes into a multiset; `what` names the option in messages. */
static int parse_cards(const char *what, const char *text, ts_sapngwu_hand *out)
{
    ts_code codes[TS_SAPNGWU_DECK];
    char err[128];
    int n = ts_code_parse_list(TS_FAM_DOMINO, text, codes, TS_SAPNGWU_DECK, err, sizeof err);
    if (n < 0 || ts_sapngwu_hand_from_codes(codes, n, out, err, sizeof err) < 0) {
        fprintf(stderr, PROG ": bad %s: %s\n", what, err);
        return -1;
    }
    return n;
}

static void play_text(const ts_sapngwu_play *p, char *out, size_t cap)
{
    ts_code codes[TS_SAPNGWU_MAX_CARDS];
    int n = ts_sapngwu_play_codes(p, codes);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n && len + TS_CODE_MAXLEN + 1 < cap; i++) {
        char code[TS_CODE_MAXLEN];
        ts_code_format(codes[i], code);
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", code);
    }
}

static void json_play(ts_json *j, const ts_sapngwu_play *p, int sure)
{
    ts_code codes[TS_SAPNGWU_MAX_CARDS];
    char code[TS_CODE_MAXLEN], desc[80];
    int n = ts_sapngwu_play_codes(p, codes);
    ts_json_obj(j);
    ts_json_key(j, "cards");
    ts_json_arr(j);
    for (int i = 0; i < n; i++) {
        ts_code_format(codes[i], code);
        ts_json_str(j, code);
    }
    ts_json_end(j);
    ts_json_key(j, "type");
    ts_json_str(j, ts_sapngwu_type_name(p->type));
    ts_json_key(j, "size");
    ts_json_int(j, p->size);
    ts_sapngwu_describe(p, desc, sizeof desc);
    ts_json_key(j, "what");
    ts_json_str(j, desc);
    if (sure >= 0) {
        ts_json_key(j, "sure");
        ts_json_bool(j, sure);
    }
    ts_json_end(j);
}

/* ---- Legal plays ------------------------------------------------------------- */

static int list_plays(const options *o)
{
    ts_sapngwu_hand hand, trick_cards, unseen;
    ts_sapngwu_play trick, plays[TS_SAPNGWU_MAX_PLAYS];
    int n_hand = parse_cards("--hand", o->hand, &hand);
    if (n_hand < 0)
        return 2;
    if (n_hand > MAX_HAND) { /* the largest deal: 3 players of 28 */
        fprintf(stderr, PROG ": --hand holds %d cards; a hand has at most %d\n", n_hand, MAX_HAND);
        return 2;
    }
    memset(&trick_cards, 0, sizeof trick_cards);
    if (o->trick) {
        char why[160];
        int n = parse_cards("--trick", o->trick, &trick_cards);
        if (n < 0)
            return 2;
        if (ts_sapngwu_classify(&trick_cards, &o->rules, &trick, why, sizeof why) < 0) {
            fprintf(stderr, PROG ": bad --trick: not a play: %s\n", why);
            return 2;
        }
    }
    for (int t = 0; t < TS_SAPNGWU_TILES; t++) {
        int in_play = hand.n[t] + trick_cards.n[t];
        if (in_play > TS_SAPNGWU_COPIES) {
            ts_code c = {TS_FAM_DOMINO, (uint8_t)t};
            char code[TS_CODE_MAXLEN];
            ts_code_format(c, code);
            fprintf(stderr, PROG ": hand and trick hold %d copies of %s; the deck has %d\n",
                    in_play, code, TS_SAPNGWU_COPIES);
            return 2;
        }
        unseen.n[t] = (uint8_t)(TS_SAPNGWU_COPIES - in_play);
    }
    int n = o->trick ? ts_sapngwu_list_follows(&hand, &trick, plays)
                     : ts_sapngwu_list_leads(&hand, &o->rules, plays);
    if (o->json) {
        ts_json j;
        ts_json_init(&j);
        ts_json_obj(&j);
        ts_json_key(&j, "game");
        ts_json_str(&j, "sapngwu");
        ts_json_key(&j, "hand_size");
        ts_json_int(&j, n_hand);
        ts_json_key(&j, "trick");
        if (o->trick)
            json_play(&j, &trick, -1);
        else
            ts_json_null(&j);
        ts_json_key(&j, "plays");
        ts_json_arr(&j);
        for (int i = 0; i < n; i++)
            json_play(&j, &plays[i], !ts_sapngwu_beatable(&plays[i], &unseen));
        ts_json_end(&j);
        ts_json_key(&j, "pass");
        ts_json_bool(&j, o->trick && n == 0);
        ts_json_end(&j);
        return rules_cli_emit_json(&j, PROG) ? 0 : 2;
    }
    for (int i = 0; i < n; i++) {
        char cards[80], desc[80];
        play_text(&plays[i], cards, sizeof cards);
        ts_sapngwu_describe(&plays[i], desc, sizeof desc);
        printf("%-24s %s%s\n", cards, desc,
               ts_sapngwu_beatable(&plays[i], &unseen) ? "" : ", sure");
    }
    if (n == 0)
        printf("pass\n");
    return 0;
}

/* ---- Payments ---------------------------------------------------------------- */

static int payments(const options *o)
{
    int chips = ts_sapngwu_chips(o->wu), may = ts_sapngwu_may_declare(o->wu, o->declined_at);
    if (o->json) {
        ts_json j;
        ts_json_init(&j);
        ts_json_obj(&j);
        ts_json_key(&j, "game");
        ts_json_str(&j, "sapngwu");
        ts_json_key(&j, "wu");
        ts_json_int(&j, o->wu);
        ts_json_key(&j, "chips");
        ts_json_int(&j, chips);
        ts_json_key(&j, "may_declare");
        ts_json_bool(&j, may);
        ts_json_end(&j);
        int rc = rules_cli_emit_json(&j, PROG) ? 0 : 2;
        return rc ? rc : !may;
    }
    printf("chips: %d\nmay declare: %s\n", chips, may ? "yes" : "no");
    return !may;
}

/* ---- Benchmark --------------------------------------------------------------- */

/* Each sample: deal 3 hands, take a random lead from player 2 as the trick, and
 * time listing player 1's legal plays (averaged over a burst, for clock resolution). */
static int bench(const options *o)
{
    enum { BURST = 64 };
    double *follow = malloc(sizeof(double) * (size_t)o->samples);
    double *lead = malloc(sizeof(double) * (size_t)o->samples);
    ts_sapngwu_play *plays = malloc(sizeof(ts_sapngwu_play) * TS_SAPNGWU_MAX_PLAYS);
    if (!follow || !lead || !plays) {
        free(follow), free(lead), free(plays);
        fprintf(stderr, PROG ": out of memory\n");
        return 2;
    }
    uint64_t rng = 20130711;
    long listed = 0;
    for (int s = 0; s < o->samples; s++) {
        ts_sapngwu_hand hands[3];
        ts_sapngwu_deal(&rng, 3, hands);
        int n = ts_sapngwu_list_leads(&hands[1], &o->rules, plays);
        ts_sapngwu_play trick = plays[((uint64_t)ts_sapngwu_random(&rng) * (uint64_t)n) >> 32];
        double t0 = rules_cli_now_us();
        for (int r = 0; r < BURST; r++)
            listed += ts_sapngwu_list_follows(&hands[0], &trick, plays);
        double t1 = rules_cli_now_us();
        for (int r = 0; r < BURST; r++)
            listed += ts_sapngwu_list_leads(&hands[0], &o->rules, plays);
        double t2 = rules_cli_now_us();
        follow[s] = (t1 - t0) / BURST;
        lead[s] = (t2 - t1) / BURST;
    }
    double follow_med = ts_median(follow, o->samples);
    double lead_med = ts_median(lead, o->samples);
    free(follow), free(lead), free(plays);
    if (o->json) {
        ts_json j;
        ts_json_init(&j);
        ts_json_obj(&j);
        ts_json_key(&j, "game");
        ts_json_str(&j, "sapngwu");
        ts_json_key(&j, "samples");
        ts_json_int(&j, o->samples);
        ts_json_key(&j, "follow_median_us");
        ts_json_num(&j, follow_med, 3);
        ts_json_key(&j, "lead_median_us");
        ts_json_num(&j, lead_med, 3);
        ts_json_key(&j, "plays_listed");
        ts_json_int(&j, listed);
        ts_json_end(&j);
        return rules_cli_emit_json(&j, PROG) ? 0 : 2;
    }
    printf("median %.3f us to list the legal plays of a 28-card hand against a random trick\n"
           "median %.3f us to list every lead of a 28-card hand (%d hands)\n",
           follow_med, lead_med, o->samples);
    return 0;
}

/* ---- Entry ------------------------------------------------------------------- */

int rules_cli_sapngwu(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (cmd_is_help(argv[i])) {
            usage(stdout);
            return 0;
        }
    options o;
    if (parse_args(argc, argv, &o) < 0)
        return 2;
    if (o.bench)
        return bench(&o);
    if (o.have_wu)
        return payments(&o);
    return list_plays(&o);
}
