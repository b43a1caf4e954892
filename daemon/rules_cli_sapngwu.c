/* `tablesight rules sapngwu`: legal Sap Ng Wu plays from a hand, payments, bench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "cmd.h"
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

/* Returns 0, 1 (--help or --version answered) or -1 (usage error printed). */
static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->samples = 2000;
    o->rules = TS_SAPNGWU_DEFAULTS;
    enum { O_JSON = CMD_OPT_LONG, O_BENCH, O_NO_MIXED, O_HAND, O_TRICK, O_WU, O_DECLINED_AT,
           O_SAMPLES };
    static const struct option OPTS[] = {
        {"json", no_argument, NULL, O_JSON},
        {"bench", no_argument, NULL, O_BENCH},
        {"no-mixed", no_argument, NULL, O_NO_MIXED},
        {"hand", required_argument, NULL, O_HAND},
        {"trick", required_argument, NULL, O_TRICK},
        {"wu", required_argument, NULL, O_WU},
        {"declined-at", required_argument, NULL, O_DECLINED_AT},
        {"samples", required_argument, NULL, O_SAMPLES},
        CMD_COMMON_OPTIONS,
        {0}};
    for (int c; (c = cmd_getopt("rules sapngwu", argc, argv, OPTS)) != -1;) {
        int r = 0;
        switch (c) {
        case 'h': usage(stdout); return 1;
        case CMD_OPT_VERSION: cmd_version(); return 1;
        case O_JSON: o->json = 1; break;
        case O_BENCH: o->bench = 1; break;
        case O_NO_MIXED: o->rules.mixed = 0; break;
        case O_HAND: o->hand = optarg; break;
        case O_TRICK: o->trick = optarg; break;
        case O_WU:
            r = cmd_whole_int("rules sapngwu", "--wu", optarg, 0, 1000, &o->wu);
            o->have_wu = 1;
            break;
        case O_DECLINED_AT: r = cmd_whole_int("rules sapngwu", "--declined-at", optarg, 0, 1000, &o->declined_at); break;
        case O_SAMPLES: r = cmd_whole_int("rules sapngwu", "--samples", optarg, 1, 1000000, &o->samples); break;
        default: return -1;
        }
        if (r < 0)
            return -1;
    }
    if (optind < argc) {
        cmd_usage_error("rules sapngwu", "unexpected argument '%s' (cards go after --hand or "
                                         "--trick)", argv[optind]);
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
        ts_writer w = rules_cli_json(&j);
        ts_sapngwu_report_plays(&w, n_hand, o->trick ? &trick : NULL, plays, n, &unseen);
        return rules_cli_emit_json(&j, PROG) ? 0 : 2;
    }
    for (int i = 0; i < n; i++) {
        char cards[80], desc[80];
        ts_sapngwu_play_text(&plays[i], cards, sizeof cards);
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
        ts_writer w = rules_cli_json(&j);
        ts_sapngwu_report_payment(&w, o->wu, chips, may);
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
    options o;
    int pa = parse_args(argc, argv, &o);
    if (pa != 0)
        return pa > 0 ? 0 : 2;
    if (o.bench)
        return bench(&o);
    if (o.have_wu)
        return payments(&o);
    return list_plays(&o);
}
