/* `tablesight rules eleusis`: judge plays against a secret rule, score a round. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answers.h"
#include "cmd.h"
#include "eleusis.h"
#include "rules_cli.h"

#define PROG "tablesight rules eleusis"

enum { MAX_CARDS = 256 }; /* a mainline from up to four decks */
enum { MAX_STRING = 4 };  /* cards in one play (seed 003: a string of 2-4 cards) */

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: " PROG " --rule TEXT [--mainline CODES] [--play CODES | --hand CODES] [--json]\n"
        "       " PROG " --score SPEC [--scoring seed|new] [--json]\n"
        "\n"
        "Judges Eleusis plays against the dealer's secret rule (seed 003).\n"
        "  --rule TEXT       the secret rule, in the language below\n"
        "  --mainline CODES  the cards played correctly so far, starter first: \"8H JS 4H\"\n"
        "  --play CODES      one card, or a string of 2-4 cards, to judge: prints right or wrong\n"
        "  --hand CODES      prints which of these cards would be right now\n"
        "                    (with neither, the mainline itself is checked, starter exempt)\n"
        "  --score SPEC      scores a finished round (players in order, not the dealer):\n"
        "                      wrong=10,5,3   seed: cards each player holds after phase 1\n"
        "                                     (their wrong cards) -> dealer score\n"
        "                      left=2,3,10,0  cards each player holds at the end -> player scores\n"
        "                      prophet=N prophet-right=R prophet-wrong=W before-marker=B\n"
        "                                     New Eleusis: surviving prophet N (1-based), the\n"
        "                                     cards played after and before the marker\n"
        "                    items are separated by spaces or ';'\n"
        "  --scoring S       seed (default: the seed's two-phase scoring) or new (New Eleusis)\n"
        "  --json            one JSON object instead of text\n"
        "Exit status: 0 right (or done), 1 wrong, 2 usage error or a malformed card or rule.\n"
        "\n"
        "Rule language (case-insensitive; '#' comments to end of line):\n"
        "  card attributes  value (A=1 .. K=13), suit, colour/color, face (J Q K)\n"
        "                   bare for the candidate card; prev.value, prev2.suit, ...,\n"
        "                   previousN.colour (N <= 32), first.value (the starter)\n"
        "  constants        numbers, A T J Q K, ace jack queen king, red black,\n"
        "                   clubs diamonds hearts spades, true false; length = mainline size\n"
        "  operators        + - * / mod   == != < <= > >=   x in lo..hi\n"
        "                   not, and, or   if C then X else Y   odd() even() abs() min() max()\n"
        "  A rule needing N previous cards accepts every card until N exist (seed note 2).\n"
        "  Examples:  odd(value) != odd(prev.value)\n"
        "             if prev.colour == prev2.colour then value in 1..7 else value in 7..K\n"
        "             colour != prev.colour and value > 5\n");
}

/* ---- Arguments --------------------------------------------------------------- */

typedef struct {
    const char *rule, *mainline, *play, *hand, *score;
    int scoring, json;
} options;

/* Returns 0, 1 (--help or --version answered) or -1 (usage error printed). */
static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    enum { O_JSON = CMD_OPT_LONG, O_SCORING, O_RULE, O_MAINLINE, O_PLAY, O_HAND, O_SCORE };
    static const struct option OPTS[] = {
        {"json", no_argument, NULL, O_JSON},
        {"scoring", required_argument, NULL, O_SCORING},
        {"rule", required_argument, NULL, O_RULE},
        {"mainline", required_argument, NULL, O_MAINLINE},
        {"play", required_argument, NULL, O_PLAY},
        {"hand", required_argument, NULL, O_HAND},
        {"score", required_argument, NULL, O_SCORE},
        CMD_COMMON_OPTIONS,
        {0}};
    for (int c; (c = cmd_getopt("rules eleusis", argc, argv, OPTS)) != -1;) {
        switch (c) {
        case 'h': usage(stdout); return 1;
        case CMD_OPT_VERSION: cmd_version(); return 1;
        case O_JSON: o->json = 1; break;
        case O_SCORING:
            if (strcmp(optarg, "seed") == 0)
                o->scoring = TS_ELEUSIS_SCORE_SEED;
            else if (strcmp(optarg, "new") == 0)
                o->scoring = TS_ELEUSIS_SCORE_NEW;
            else {
                fprintf(stderr, PROG ": --scoring is 'seed' or 'new', not '%s'\n", optarg);
                return -1;
            }
            break;
        case O_RULE: o->rule = optarg; break;
        case O_MAINLINE: o->mainline = optarg; break;
        case O_PLAY: o->play = optarg; break;
        case O_HAND: o->hand = optarg; break;
        case O_SCORE: o->score = optarg; break;
        default: return -1;
        }
    }
    if (optind < argc) {
        cmd_usage_error("rules eleusis", "unexpected argument '%s' (cards go after --mainline, "
                                         "--play or --hand)", argv[optind]);
        return -1;
    }
    if (!o->score && !o->rule) {
        fprintf(stderr, PROG ": give --rule TEXT (or --score SPEC); see --help\n");
        return -1;
    }
    if (o->play && o->hand) {
        fprintf(stderr, PROG ": give --play or --hand, not both\n");
        return -1;
    }
    return 0;
}

static int parse_cards(const char *what, const char *text, ts_code *out, int max)
{
    char err[128];
    int n = ts_code_parse_list(TS_FAM_PLAYING, text ? text : "", out, max, err, sizeof err);
    if (n < 0)
        fprintf(stderr, PROG ": bad %s: %s\n", what, err);
    return n;
}

/* ---- Judging ----------------------------------------------------------------- */

/* The rule around the error position (pos is 1-based, 0 = none) on one line,
 * with a caret under it: at most 30 characters either side, whatever the
 * rule's length, control characters shown as spaces. */
static void print_excerpt(FILE *f, const char *rule, int pos)
{
    enum { SIDE = 30 };
    size_t len = strlen(rule), at = pos > 0 ? (size_t)pos - 1 : 0;
    if (at > len)
        at = len;
    size_t from = at > SIDE ? at - SIDE : 0, to = at + SIDE < len ? at + SIDE : len;
    char line[2 * SIDE + 8];
    size_t n = 0;
    for (size_t i = from; i < to; i++)
        line[n++] = (unsigned char)rule[i] < 0x20 || rule[i] == 0x7f ? ' ' : rule[i];
    line[n] = '\0';
    fprintf(f, "  %s%s%s\n  %*s^\n", from ? "..." : "", line, to < len ? "..." : "",
            (int)(at - from + (from ? 3 : 0)), "");
}

static int judge(const options *o)
{
    ts_eleusis_error err;
    ts_eleusis_rule *rule = ts_eleusis_compile(o->rule, &err);
    if (!rule) {
        fprintf(stderr, PROG ": bad rule: %s\n", err.msg);
        print_excerpt(stderr, o->rule, err.pos);
        return 2;
    }
    ts_code line[MAX_CARDS], cards[MAX_CARDS];
    int n = parse_cards("--mainline", o->mainline, line, MAX_CARDS);
    int k = 0;
    if (n >= 0 && (o->play || o->hand))
        k = parse_cards(o->play ? "--play" : "--hand", o->play ? o->play : o->hand, cards,
                        MAX_CARDS);
    if (n < 0 || k < 0) {
        ts_eleusis_free(rule);
        return 2;
    }
    if ((o->play || o->hand) && k == 0) {
        fprintf(stderr, PROG ": %s names no card\n", o->play ? "--play" : "--hand");
        ts_eleusis_free(rule);
        return 2;
    }
    if (o->play && k > MAX_STRING) { /* the seed: a play is one card or a string of 2-4 */
        fprintf(stderr, PROG ": --play takes one card or a string of 2 to %d cards, not %d\n",
                MAX_STRING, k);
        ts_eleusis_free(rule);
        return 2;
    }
    /* Without --play/--hand the mainline judges itself: starter, then the rest. */
    const ts_code *history = line, *judged = cards;
    int hn = n;
    if (!o->play && !o->hand) {
        hn = n > 0 ? 1 : 0;
        judged = line + hn;
        k = n - hn;
    }
    int first_wrong = -1, right = 1;
    int verdict[MAX_CARDS];
    if (o->hand) {
        for (int i = 0; i < k; i++)
            verdict[i] = ts_eleusis_judge(rule, history, hn, judged[i]);
    } else {
        right = ts_eleusis_judge_string(rule, history, hn, judged, k, &first_wrong);
    }

    char canon[1024], code[TS_CODE_MAXLEN];
    ts_eleusis_format(rule, canon, sizeof canon);
    if (o->json) {
        ts_json j;
        ts_writer w = rules_cli_json(&j);
        ts_eleusis_report_judge(&w, canon, ts_eleusis_history_needed(rule), line, n,
                                o->play ? "play" : "checked", judged, k, o->hand ? verdict : NULL,
                                right, right ? -1 : first_wrong + (o->play ? 0 : hn));
        if (!rules_cli_emit_json(&j, PROG))
            right = -1;
    } else if (o->hand) {
        for (int want = 1; want >= 0; want--) {
            printf("%s:", want ? "right" : "wrong");
            for (int i = 0; i < k; i++)
                if (verdict[i] == want) {
                    ts_code_format(judged[i], code);
                    printf(" %s", code);
                }
            printf("\n");
        }
    } else if (o->play || right) {
        printf("%s\n", right ? "right" : "wrong"); /* a string's wrong card stays secret */
    } else {
        ts_code_format(judged[first_wrong], code);
        printf("wrong: card %d (%s) breaks the rule\n", hn + first_wrong + 1, code);
    }
    ts_eleusis_free(rule);
    if (right < 0)
        return 2;
    return o->hand || right ? 0 : 1;
}

/* ---- Scoring ----------------------------------------------------------------- */

/* "10,5,3" -> counts; returns how many, -1 on a bad number. */
static int parse_counts(const char *s, size_t len, int *out)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        char *end;
        long v = strtol(s + i, &end, 10);
        size_t used = (size_t)(end - (s + i));
        if (used == 0 || used > len - i || v < 0 || v > 100000 || n == TS_ELEUSIS_MAX_PLAYERS)
            return -1;
        out[n++] = (int)v;
        i += used;
        if (i < len && s[i] != ',')
            return -1;
        i += i < len;
    }
    return n;
}

static int parse_score(const char *spec, ts_eleusis_round *r, int *have_wrong, int *have_left)
{
    memset(r, 0, sizeof *r);
    r->prophet = -1;
    *have_wrong = *have_left = 0;
    const char *p = spec;
    for (;;) {
        while (*p == ' ' || *p == ';' || *p == '\t')
            p++;
        if (!*p)
            break;
        const char *item = p;
        while (*p && *p != ' ' && *p != ';' && *p != '\t')
            p++;
        size_t len = (size_t)(p - item);
        const char *eq = memchr(item, '=', len);
        size_t klen = eq ? (size_t)(eq - item) : len;
        const char *val = eq ? eq + 1 : p;
        size_t vlen = (size_t)(p - val);
        int counts[TS_ELEUSIS_MAX_PLAYERS], n = eq ? parse_counts(val, vlen, counts) : -1;
#define KEY(name) (klen == strlen(name) && strncmp(item, name, klen) == 0)
        int ok = n > 0;
        if (ok && (KEY("wrong") || KEY("left"))) {
            int *dst = KEY("wrong") ? r->wrong : r->left;
            if (r->players && r->players != n) {
                fprintf(stderr, PROG ": --score: wrong= and left= list different player counts\n");
                return -1;
            }
            r->players = n;
            memcpy(dst, counts, sizeof(int) * (size_t)n);
            *(KEY("wrong") ? have_wrong : have_left) = 1;
        } else if (ok && n == 1 && KEY("prophet")) {
            r->prophet = counts[0] - 1;
        } else if (ok && n == 1 && KEY("prophet-right")) {
            r->prophet_right = counts[0];
        } else if (ok && n == 1 && KEY("prophet-wrong")) {
            r->prophet_wrong = counts[0];
        } else if (ok && n == 1 && KEY("before-marker")) {
            r->before_marker = counts[0];
        } else {
            fprintf(stderr,
                    PROG ": --score: bad item '%.*s' (expected wrong=, left= with comma-separated "
                         "counts, or prophet=, prophet-right=, prophet-wrong=, before-marker=)\n",
                    (int)(len > 40 ? 40 : len), item);
            return -1;
        }
#undef KEY
    }
    if (!r->players) {
        fprintf(stderr, PROG ": --score needs wrong=... or left=...\n");
        return -1;
    }
    return 0;
}

static int score(const options *o)
{
    ts_eleusis_round r;
    int have_wrong, have_left;
    if (parse_score(o->score, &r, &have_wrong, &have_left) < 0)
        return 2;
    int seed = o->scoring == TS_ELEUSIS_SCORE_SEED;
    if (!seed && !have_left) {
        fprintf(stderr, PROG ": New Eleusis scoring needs left=...\n");
        return 2;
    }
    if (!seed && (r.prophet < -1 || r.prophet >= r.players)) {
        fprintf(stderr, PROG ": --score: prophet=%d is not one of the %d players\n", r.prophet + 1,
                r.players);
        return 2;
    }
    ts_eleusis_scores s;
    memset(&s, 0, sizeof s);
    /* Seed scoring has two halves: phase 1 gives the dealer's, phase 2 the players'. */
    if (seed && have_wrong)
        s.dealer = ts_eleusis_seed_dealer_score(r.wrong, r.players);
    if (seed && have_left)
        ts_eleusis_seed_player_scores(r.left, r.players, s.player);
    if (!seed && ts_eleusis_score(&r, TS_ELEUSIS_SCORE_NEW, &s) < 0) {
        fprintf(stderr, PROG ": --score: inconsistent round\n");
        return 2;
    }
    int show_dealer = !seed || have_wrong, show_players = !seed || have_left;
    if (o->json) {
        ts_json j;
        ts_writer w = rules_cli_json(&j);
        ts_eleusis_report_scores(&w, seed ? "seed" : "new", show_dealer ? &s.dealer : NULL,
                                 show_players ? s.player : NULL, r.players);
        return rules_cli_emit_json(&j, PROG) ? 0 : 2;
    }
    if (show_dealer)
        printf("dealer: %g\n", s.dealer);
    for (int i = 0; show_players && i < r.players; i++)
        printf("player %d: %g\n", i + 1, s.player[i]);
    return 0;
}

/* ---- Entry ------------------------------------------------------------------- */

int rules_cli_eleusis(int argc, char **argv)
{
    options o;
    int pa = parse_args(argc, argv, &o);
    if (pa != 0)
        return pa > 0 ? 0 : 2;
    return o.score ? score(&o) : judge(&o);
}
