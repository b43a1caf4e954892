/* The one small writer API the rules core reports through (JSON today: the
 * daemon adapts its encoder to it; a switch of JSON library stays local to
 * that adapter). Calls nest like JSON: obj/arr ... end; key before each member
 * of an object. The writer owns its context; the rules core only calls. */
#ifndef TS_REPORT_H
#define TS_REPORT_H

typedef struct ts_writer ts_writer;

struct ts_writer {
    void *ctx;
    void (*obj)(void *ctx);
    void (*arr)(void *ctx);
    void (*end)(void *ctx);
    void (*key)(void *ctx, const char *key);
    void (*str)(void *ctx, const char *s);
    void (*integer)(void *ctx, long long v);
    void (*num)(void *ctx, double v, int decimals);
    void (*boolean)(void *ctx, int v);
    void (*null)(void *ctx);
};

/* Short forms. */
static inline void tw_obj(const ts_writer *w) { w->obj(w->ctx); }
static inline void tw_arr(const ts_writer *w) { w->arr(w->ctx); }
static inline void tw_end(const ts_writer *w) { w->end(w->ctx); }
static inline void tw_key(const ts_writer *w, const char *k) { w->key(w->ctx, k); }
static inline void tw_str(const ts_writer *w, const char *s) { w->str(w->ctx, s); }
static inline void tw_int(const ts_writer *w, long long v) { w->integer(w->ctx, v); }
static inline void tw_num(const ts_writer *w, double v, int d) { w->num(w->ctx, v, d); }
static inline void tw_bool(const ts_writer *w, int v) { w->boolean(w->ctx, v); }
static inline void tw_null(const ts_writer *w) { w->null(w->ctx); }

#endif
