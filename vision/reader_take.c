/* One reader alone on a frame (see reader.h: ts_reader_take). */
#include "reader.h"

int ts_reader_take(const ts_reader_class *cls, void *rd, const ts_image *frame,
                   const ts_quad *cand, int nc, ts_image *card, ts_quad *taken,
                   ts_reading *reads, int *taken_as, int max, char *err)
{
    int nt = 0;
    for (int c = 0; c < nc; c++) {
        if (taken_as)
            taken_as[c] = -1;
        int clash = 0;
        for (int t = 0; t < nt && !clash; t++)
            clash = ts_quad_overlap(&cand[c], &taken[t]);
        if (clash || nt >= max)
            continue;
        ts_reading *r = &reads[nt];
        if (!rd) { /* the finder alone: every free place is a card, unread */
            *r = (ts_reading){.is_card = 1, .conf = 1, .code.idx = 255};
        } else if (cls->read_found && cls->read_found(rd, cand[c].q, r)) {
            /* the finder read this quad already */
        } else if (tscv_warp_quad(frame, cand[c].q, card, cls->card_w, cls->card_h, err) < 0 ||
                   cls->read(rd, card, r, err) < 0) {
            return -1;
        }
        if (!r->is_card)
            continue;
        if (taken_as)
            taken_as[c] = nt;
        taken[nt++] = cand[c];
    }
    return nt;
}
