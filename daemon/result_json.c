#include "result_json.h"

#include "json_writer.h"

void ts_result_json(ts_json *j, const ts_table *t, const char *source, long frame,
                    const char *game)
{
    ts_json_obj(j);
    ts_result_json_members(j, t, source, frame, game);
    ts_json_end(j);
}

void ts_result_json_card(ts_json *j, const ts_card *c)
{
    ts_json_key(j, "code");
    ts_json_str(j, c->text);
    ts_json_key(j, "conf");
    ts_json_num(j, c->conf, 2);
    ts_json_key(j, "read");
    ts_json_bool(j, c->read);
}

void ts_result_json_members(ts_json *j, const ts_table *t, const char *source, long frame,
                            const char *game)
{
    const ts_frame_result *r = &t->frame;
    ts_json_key(j, "source");
    ts_json_str(j, source);
    ts_json_key(j, "frame");
    ts_json_int(j, frame);
    ts_json_key(j, "game");
    ts_json_str(j, game);
    ts_json_key(j, "w");
    ts_json_int(j, r->w);
    ts_json_key(j, "h");
    ts_json_int(j, r->h);
    ts_json_key(j, "cards");
    ts_json_arr(j);
    for (int i = 0; i < r->ncards; i++) {
        const ts_card *c = &r->cards[i];
        ts_json_obj(j);
        ts_result_json_card(j, c);
        if (t->game && t->game != &TS_GAME_SET) { /* where zones are set */
            ts_json_key(j, "zone");
            ts_json_str(j, ts_zone_name(t->zone[i]));
        }
        ts_json_key(j, "quad");
        ts_json_arr(j);
        for (int k = 0; k < 4; k++) {
            ts_json_arr(j);
            ts_json_num(j, c->quad[k].x, 1);
            ts_json_num(j, c->quad[k].y, 1);
            ts_json_end(j);
        }
        ts_json_end(j);
        ts_json_end(j);
    }
    ts_json_end(j);
    if (r->family == TS_FAM_SET) {
        ts_json_key(j, "sets");
        ts_json_arr(j);
        for (int s = 0; s < t->nsets; s++) {
            ts_json_arr(j);
            for (int k = 0; k < 3; k++)
                ts_json_int(j, t->sets[s][k]);
            ts_json_end(j);
        }
        ts_json_end(j);
    }
    if (t->game && t->game != &TS_GAME_SET) { /* the game's hints, plays, groups */
        ts_writer w = ts_json_writer(j);
        ts_json_key(j, "rules");
        ts_json_str(j, t->game->name);
        ts_game_report(t->game, &t->view, &w);
    } else if (t->game) {
        ts_json_key(j, "headline");
        ts_json_str(j, t->view.headline);
        if (t->view.show_groups >= 0) { /* the hint ladder: the cards shown now */
            ts_json_key(j, "shown");
            ts_json_arr(j);
            for (int g = 0; g < t->view.show_groups && g < t->view.ngroups; g++) {
                int last = g == t->view.show_groups - 1 && t->view.show_cards >= 0;
                for (int k = 0; k < 3 && (!last || k < t->view.show_cards); k++)
                    ts_json_int(j, t->view.group[g].card[k]);
            }
            ts_json_end(j);
        }
    }
    ts_json_key(j, "conflict");
    ts_json_bool(j, t->conflict);
    ts_json_key(j, "timing_ms");
    ts_json_obj(j);
    ts_json_key(j, "decode");
    ts_json_num(j, r->ms_decode, 2);
    ts_json_key(j, "detect");
    ts_json_num(j, r->ms_detect, 2);
    ts_json_key(j, "rectify");
    ts_json_num(j, r->ms_rectify, 2);
    ts_json_key(j, "read");
    ts_json_num(j, r->ms_read, 2);
    ts_json_key(j, "classify");
    ts_json_num(j, r->ms_rectify + r->ms_read, 2);
    ts_json_key(j, "rules");
    ts_json_num(j, t->ms_rules, 3);
    ts_json_key(j, "total");
    ts_json_num(j, r->ms_decode + r->ms_total + t->ms_rules, 2);
    ts_json_end(j);
}
