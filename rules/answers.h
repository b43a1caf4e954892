/* The answers `tablesight rules GAME` gives to a question asked in card codes,
 * as JSON through the rules core's one report writer (report.h) - the writer
 * the game interface reports frames and verdicts with (game.h). The front door
 * (daemon/rules_cli_*.c) parses the question, asks the rules core, prints the
 * text form and hands these the answer; each answer's JSON object is written
 * here once, beside the game it belongs to (game_*.c).
 *
 * Each ts_*_report_* writes one whole object (obj ... end). Borrowed inputs,
 * no I/O, no global state.
 */
#ifndef TS_ANSWERS_H
#define TS_ANSWERS_H

#include "codes.h"
#include "eleusis.h"
#include "gof.h"
#include "qwirkle.h"
#include "report.h"
#include "sapngwu.h"
#include "set.h"

/* ---- Shared pieces (game.c) ------------------------------------------------------ */

/* "key": ["R7", "G7"] - the codes of family fam given as indices. */
void ts_report_card_indices(const ts_writer *w, const char *key, ts_family fam, const int *idx,
                            int n);
/* "key": [...] - codes. key NULL: the array alone (inside an array). */
void ts_report_codes(const ts_writer *w, const char *key, const ts_code *codes, int n);

/* ---- SET (game_set.c, game_setgrid.c) ---------------------------------------------- */

/* Every Set on a table: cards, sets (index triples, the first `shown` of
 * nsets), count, the table decision, every identical pair. */
void ts_set_report_table(const ts_writer *w, const int *cards, int n, const int (*sets)[3],
                         int shown, int nsets, ts_set_table_state decision);
/* A hint of the ladder: level, the positions and their codes. */
void ts_set_report_hint(const ts_writer *w, const int *cards, int level, const int *pos, int k);
/* The connection grid's best moves: rows x cols as written, the hand, the
 * first `shown` of n moves (cells counted from the written grid: the caller's
 * margin of empty cells is taken off). */
void ts_set_report_grid(const ts_writer *w, int rows, int cols, int margin, const int *hand,
                        int nhand, const ts_set_grid_move *moves, int shown, int n);

/* ---- Gang of Four (game_gof.c) -------------------------------------------------------- */

/* "gang of 4", "pair", ...: a combination's name, into buf. */
const char *ts_gof_combo_name(const ts_gof_combo *c, char buf[24]);
/* Legal plays from a hand: the trick (NULL: leading), first_lead, the first
 * `shown` of count plays, count, pass (passing is allowed when following). */
void ts_gof_report_plays(const ts_writer *w, const ts_gof_combo *trick, int first_lead,
                         const ts_gof_combo *plays, int shown, int count);
/* One play judged: play (NULL when it is no combination), legal, the reason
 * it is not (NULL: legal). */
void ts_gof_report_judge(const ts_writer *w, const ts_gof_combo *play, const char *refusal);

/* ---- Qwirkle Cards (game_qwirkle.c) ------------------------------------------------------ */

/* The table's groups (valid or the error, the line, Qwirkle or not), valid,
 * and with a hand (plays != NULL) the first `shown` of count plays. */
void ts_qw_report_answer(const ts_writer *w, const ts_qw_table *t, const ts_qw_play *plays,
                         int shown, int count);

/* ---- Eleusis (game_eleusis.c) -------------------------------------------------------------- */

/* A judgement: the rule (canonical text), the history it needs, the mainline;
 * then either a hand sorted into right and wrong (verdict != NULL: one per
 * judged card) or a play / the mainline checked (`what` is "play" or
 * "checked"), right or wrong, and the position of the first wrong card
 * (first_wrong < 0: none). */
void ts_eleusis_report_judge(const ts_writer *w, const char *rule, int needs_history,
                             const ts_code *mainline, int n, const char *what,
                             const ts_code *judged, int k, const int *verdict, int right,
                             int first_wrong);
/* Scores: scoring "seed" or "new"; the dealer's when dealer != NULL; the
 * players' (nplayers of them) when players != NULL. */
void ts_eleusis_report_scores(const ts_writer *w, const char *scoring, const double *dealer,
                              const double *players, int nplayers);

/* ---- Sap Ng Wu (game_sapngwu.c) ------------------------------------------------------------ */

/* The cards of a play as text "1:3 2:3", into out. */
void ts_sapngwu_play_text(const ts_sapngwu_play *p, char *out, size_t cap);
/* Legal plays: the hand's size, the trick (NULL: leading), the plays with
 * "sure" (no card of `unseen` can beat it; unseen NULL: not said), pass. */
void ts_sapngwu_report_plays(const ts_writer *w, int hand_size, const ts_sapngwu_play *trick,
                             const ts_sapngwu_play *plays, int n, const ts_sapngwu_hand *unseen);
/* A declaration at wu: chips from each other player, may it be made. */
void ts_sapngwu_report_payment(const ts_writer *w, int wu, int chips, int may_declare);

#endif
