#include "result_json.h"

void ts_result_json(ts_json *j, const ts_frame_result *r, const char *source, long frame,
                    const char *game)
{
    ts_json_obj(j);
    ts_result_json_members(j, r, source, frame, game);
    ts_json_end(j);
}

void ts_result_json_members(ts_json *j, const ts_frame_result *r, const char *source, long frame,
                            const char *game)
{
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
        ts_json_key(j, "code");
        ts_json_str(j, c->text);
        ts_json_key(j, "conf");
        ts_json_num(j, c->conf, 2);
        ts_json_key(j, "read");
        ts_json_bool(j, c->read);
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
    ts_json_key(j, "sets");
    ts_json_arr(j);
    for (int s = 0; s < r->nsets; s++) {
        ts_json_arr(j);
        for (int k = 0; k < 3; k++)
            ts_json_int(j, r->sets[s][k]);
        ts_json_end(j);
    }
    ts_json_end(j);
    ts_json_key(j, "conflict");
    ts_json_bool(j, r->conflict);
    ts_json_key(j, "timing_ms");
    ts_json_obj(j);
    ts_json_key(j, "decode");
    ts_json_num(j, r->ms_decode, 2);
    ts_json_key(j, "detect");
    ts_json_num(j, r->ms_detect, 2);
    ts_json_key(j, "classify");
    ts_json_num(j, r->ms_classify, 2);
    ts_json_key(j, "rules");
    ts_json_num(j, r->ms_rules, 3);
    ts_json_key(j, "total");
    ts_json_num(j, r->ms_decode + r->ms_detect + r->ms_classify + r->ms_rules, 2);
    ts_json_end(j);
}
