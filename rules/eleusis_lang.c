/* Eleusis rule language: lexer, parser with type checks, formatter, evaluator.
 * The grammar is documented in eleusis.h. A compiled rule is a flat node array;
 * children always precede their parent, the root is the last node. */
#include "eleusis.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Compiled form ----------------------------------------------------------- */

typedef enum { TY_NUM, TY_BOOL, TY_SUIT, TY_COLOUR } value_type;

/* clang-format off */
typedef enum {
    OP_CONST, OP_ATTR, OP_LENGTH,
    OP_NEG, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_IN,
    OP_AND, OP_OR, OP_NOT, OP_IF,
    OP_ODD, OP_EVEN, OP_ABS, OP_MIN, OP_MAX
} opcode;
/* clang-format on */

typedef enum { AT_VALUE, AT_SUIT, AT_COLOUR, AT_FACE } attribute;

enum { REF_FIRST = 255 };   /* node.back for the starter card */
enum { MAX_HEIGHT = 100 };  /* tree height limit: bounds evaluation recursion */
enum { MAX_NESTING = 256 }; /* parser recursion limit (canonical form needs <= 2 per level) */
enum { MAX_LITERAL = 1000000 };

typedef struct {
    uint8_t op;   /* opcode */
    uint8_t type; /* value_type of the result */
    uint8_t back; /* OP_ATTR: 0 candidate, k = k cards back, REF_FIRST */
    uint8_t attr; /* OP_ATTR: attribute */
    uint16_t height;
    int32_t kid[3];
    int64_t value; /* OP_CONST */
} node;

struct ts_eleusis_rule {
    int count, root, needed;
    node nodes[];
};

/* ---- Words ------------------------------------------------------------------- */

/* clang-format off */
typedef enum {
    W_IF, W_THEN, W_ELSE, W_AND, W_OR, W_NOT, W_MOD, W_IN, W_LENGTH,
    W_CONST, W_ATTR, W_REF, W_FUNC
} word_class;
/* clang-format on */

typedef struct {
    const char *name;
    uint8_t cls;  /* word_class */
    uint8_t type; /* W_CONST: value_type */
    uint8_t op;   /* W_FUNC: opcode */
    int value;    /* W_CONST value, W_ATTR attribute, W_REF back, W_FUNC arity */
} word;

/* clang-format off */
static const word WORDS[] = {
    {"if", W_IF, 0, 0, 0},        {"then", W_THEN, 0, 0, 0},   {"else", W_ELSE, 0, 0, 0},
    {"and", W_AND, 0, 0, 0},      {"or", W_OR, 0, 0, 0},       {"not", W_NOT, 0, 0, 0},
    {"mod", W_MOD, 0, 0, 0},      {"in", W_IN, 0, 0, 0},       {"length", W_LENGTH, 0, 0, 0},
    {"true", W_CONST, TY_BOOL, 0, 1},       {"false", W_CONST, TY_BOOL, 0, 0},
    {"black", W_CONST, TY_COLOUR, 0, 0},    {"red", W_CONST, TY_COLOUR, 0, 1},
    {"clubs", W_CONST, TY_SUIT, 0, 0},      {"club", W_CONST, TY_SUIT, 0, 0},
    {"diamonds", W_CONST, TY_SUIT, 0, 1},   {"diamond", W_CONST, TY_SUIT, 0, 1},
    {"hearts", W_CONST, TY_SUIT, 0, 2},     {"heart", W_CONST, TY_SUIT, 0, 2},
    {"spades", W_CONST, TY_SUIT, 0, 3},     {"spade", W_CONST, TY_SUIT, 0, 3},
    {"ace", W_CONST, TY_NUM, 0, 1},         {"a", W_CONST, TY_NUM, 0, 1},
    {"t", W_CONST, TY_NUM, 0, 10},          {"jack", W_CONST, TY_NUM, 0, 11},
    {"j", W_CONST, TY_NUM, 0, 11},          {"queen", W_CONST, TY_NUM, 0, 12},
    {"q", W_CONST, TY_NUM, 0, 12},          {"king", W_CONST, TY_NUM, 0, 13},
    {"k", W_CONST, TY_NUM, 0, 13},
    {"value", W_ATTR, 0, 0, AT_VALUE},      {"suit", W_ATTR, 0, 0, AT_SUIT},
    {"colour", W_ATTR, 0, 0, AT_COLOUR},    {"color", W_ATTR, 0, 0, AT_COLOUR},
    {"face", W_ATTR, 0, 0, AT_FACE},
    {"card", W_REF, 0, 0, 0},               {"prev", W_REF, 0, 0, 1},
    {"previous", W_REF, 0, 0, 1},           {"first", W_REF, 0, 0, REF_FIRST},
    {"odd", W_FUNC, 0, OP_ODD, 1},          {"even", W_FUNC, 0, OP_EVEN, 1},
    {"abs", W_FUNC, 0, OP_ABS, 1},          {"min", W_FUNC, 0, OP_MIN, 2},
    {"max", W_FUNC, 0, OP_MAX, 2},
};
/* clang-format on */
enum { N_WORDS = sizeof WORDS / sizeof WORDS[0] };

static const char *const TYPE_NAMES[] = {"a number", "true/false", "a suit", "a colour"};
static const char *const ATTR_NAMES[] = {"value", "suit", "colour", "face"};
static const char *const SUIT_NAMES[] = {"clubs", "diamonds", "hearts", "spades"};

/* ---- Lexer ------------------------------------------------------------------- */

/* clang-format off */
typedef enum {
    TK_END, TK_NUM, TK_WORD, TK_BAD,
    TK_LPAREN, TK_RPAREN, TK_COMMA, TK_DOT, TK_DOTDOT,
    TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT,
    TK_EQ, TK_NE, TK_LT, TK_LE, TK_GT, TK_GE
} token_kind;
/* clang-format on */

typedef struct {
    token_kind kind;
    size_t start, len;
    int64_t num;   /* TK_NUM */
    const word *w; /* TK_WORD: known word, or NULL */
    int back;      /* TK_WORD "prevN": N (w is then the "prev" entry) */
} token;

typedef struct {
    const char *text;
    size_t len, pos;
    token tok;
    node *nodes;
    int count, cap, nesting, needed;
    ts_eleusis_error *err;
    int failed;
} parser;

static void fail(parser *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fail(parser *p, size_t at, const char *fmt, ...)
{
    if (p->failed)
        return; /* the first error is the one that explains */
    p->failed = 1;
    if (!p->err)
        return;
    p->err->pos = (int)at + 1;
    int n = snprintf(p->err->msg, sizeof p->err->msg, "position %d: ", (int)at + 1);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err->msg + n, sizeof p->err->msg - (size_t)n, fmt, ap);
    va_end(ap);
}

/* Quoted token text for messages: "'and'" or "the end of the rule". */
static const char *describe(const parser *p, const token *t, char *buf, size_t cap)
{
    if (t->kind == TK_END)
        return "the end of the rule";
    unsigned char c = (unsigned char)p->text[t->start];
    if (t->kind == TK_BAD && !isprint(c))
        snprintf(buf, cap, "byte 0x%02x", c);
    else
        snprintf(buf, cap, "'%.*s'", (int)(t->len > 24 ? 24 : t->len), p->text + t->start);
    return buf;
}

static int lower_equal(const char *a, size_t n, const char *word)
{
    for (size_t i = 0; i < n; i++)
        if (!word[i] || tolower((unsigned char)a[i]) != word[i])
            return 0;
    return word[n] == '\0';
}

/* Edit distance of two short strings (caps at 9); for "did you mean". */
static int edit_distance(const char *a, size_t na, const char *b)
{
    size_t nb = strlen(b);
    if (na > 16 || nb > 16)
        return 9;
    int row[17];
    for (size_t j = 0; j <= nb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int up = row[j];
            int sub = diag + (tolower((unsigned char)a[i - 1]) != b[j - 1]);
            int best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[nb];
}

static const word *lookup_word(const char *s, size_t n)
{
    for (int i = 0; i < N_WORDS; i++)
        if (lower_equal(s, n, WORDS[i].name))
            return &WORDS[i];
    return NULL;
}

/* "prev7" / "previous7": fills the back count, or fails with a reason. */
static const word *lookup_prev_n(parser *p, size_t start, size_t n, int *back)
{
    size_t stem = 0;
    if (n > 8 && lower_equal(p->text + start, 8, "previous"))
        stem = 8;
    else if (n > 4 && lower_equal(p->text + start, 4, "prev"))
        stem = 4;
    if (!stem)
        return NULL;
    long k = 0;
    for (size_t i = stem; i < n; i++) {
        if (!isdigit((unsigned char)p->text[start + i]))
            return NULL;
        if (k <= 1000)
            k = k * 10 + (p->text[start + i] - '0');
    }
    if (k < 1 || k > TS_ELEUSIS_MAX_BACK) {
        fail(p, start, "'%.*s' is not a card: count back from prev1 (= prev) to prev%d", (int)n,
             p->text + start, TS_ELEUSIS_MAX_BACK);
        return NULL;
    }
    *back = (int)k;
    return lookup_word("prev", 4);
}

static void next_token(parser *p)
{
    const char *s = p->text;
    for (;;) {
        while (p->pos < p->len && isspace((unsigned char)s[p->pos]))
            p->pos++;
        if (p->pos < p->len && s[p->pos] == '#') {
            while (p->pos < p->len && s[p->pos] != '\n')
                p->pos++;
            continue;
        }
        break;
    }
    token *t = &p->tok;
    memset(t, 0, sizeof *t);
    t->start = p->pos;
    if (p->pos >= p->len) {
        t->kind = TK_END;
        return;
    }
    char c = s[p->pos];
    char d = p->pos + 1 < p->len ? s[p->pos + 1] : '\0';
    if (isdigit((unsigned char)c)) {
        int64_t v = 0;
        while (p->pos < p->len && isdigit((unsigned char)s[p->pos])) {
            if (v <= MAX_LITERAL)
                v = v * 10 + (s[p->pos] - '0');
            p->pos++;
        }
        t->kind = TK_NUM;
        t->num = v;
    } else if (isalpha((unsigned char)c) || c == '_') {
        while (p->pos < p->len && (isalnum((unsigned char)s[p->pos]) || s[p->pos] == '_'))
            p->pos++;
        t->kind = TK_WORD;
        t->len = p->pos - t->start;
        t->w = lookup_word(s + t->start, t->len);
        if (t->w)
            t->back = t->w->cls == W_REF ? t->w->value : 0;
        else
            t->w = lookup_prev_n(p, t->start, t->len, &t->back);
        return;
    } else {
        static const struct {
            char a, b;
            token_kind kind;
        } OPS[] = {{'=', '=', TK_EQ},   {'!', '=', TK_NE},   {'<', '>', TK_NE},
                   {'<', '=', TK_LE},   {'>', '=', TK_GE},   {'.', '.', TK_DOTDOT},
                   {'(', 0, TK_LPAREN}, {')', 0, TK_RPAREN}, {',', 0, TK_COMMA},
                   {'.', 0, TK_DOT},    {'+', 0, TK_PLUS},   {'-', 0, TK_MINUS},
                   {'*', 0, TK_STAR},   {'/', 0, TK_SLASH},  {'%', 0, TK_PERCENT},
                   {'=', 0, TK_EQ},     {'<', 0, TK_LT},     {'>', 0, TK_GT}};
        t->kind = TK_BAD;
        size_t n = 1;
        for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
            if (OPS[i].a == c && (OPS[i].b == 0 || OPS[i].b == d)) {
                t->kind = OPS[i].kind;
                n = OPS[i].b ? 2 : 1;
                break;
            }
        p->pos += n;
    }
    t->len = p->pos - t->start;
}

static int is_word(const parser *p, word_class cls)
{
    return p->tok.kind == TK_WORD && p->tok.w && p->tok.w->cls == cls;
}

/* Consumes a token of the given kind or fails naming what was expected. */
static int expect(parser *p, token_kind kind, const char *what)
{
    if (p->tok.kind == kind) {
        next_token(p);
        return 0;
    }
    char buf[48];
    fail(p, p->tok.start, "expected %s but found %s", what, describe(p, &p->tok, buf, sizeof buf));
    return -1;
}

static int expect_word(parser *p, word_class cls, const char *what)
{
    if (is_word(p, cls)) {
        next_token(p);
        return 0;
    }
    char buf[48];
    fail(p, p->tok.start, "expected %s but found %s", what, describe(p, &p->tok, buf, sizeof buf));
    return -1;
}

/* ---- Node building with type checks -------------------------------------------- */

static int add_node(parser *p, size_t at, opcode op, value_type type, int a, int b, int c)
{
    if (p->failed)
        return -1;
    int kids[3] = {a, b, c};
    unsigned height = 1;
    for (int i = 0; i < 3; i++)
        if (kids[i] >= 0 && p->nodes[kids[i]].height + 1u > height)
            height = p->nodes[kids[i]].height + 1u;
    if (height > MAX_HEIGHT) {
        fail(p, at, "the rule nests too deeply (more than %d levels)", MAX_HEIGHT);
        return -1;
    }
    if (p->count == p->cap) {
        int cap = p->cap ? p->cap * 2 : 32;
        node *grown = realloc(p->nodes, (size_t)cap * sizeof *grown);
        if (!grown) {
            fail(p, at, "out of memory");
            return -1;
        }
        p->nodes = grown;
        p->cap = cap;
    }
    node *n = &p->nodes[p->count];
    memset(n, 0, sizeof *n);
    n->op = (uint8_t)op;
    n->type = (uint8_t)type;
    n->height = (uint16_t)height;
    n->kid[0] = a;
    n->kid[1] = b;
    n->kid[2] = c;
    return p->count++;
}

static value_type type_of(const parser *p, int i)
{
    return (value_type)p->nodes[i].type;
}

/* Fails unless node i has the wanted type; `what` names the operator. */
static int need_type(parser *p, size_t at, int i, value_type want, const char *what,
                     const char *side)
{
    if (i < 0)
        return -1;
    if (type_of(p, i) == want)
        return 0;
    fail(p, at, "%s needs %s%s, but %s is %s", what, TYPE_NAMES[want],
         side[0] ? " on both sides" : "", side[0] ? side : "its argument",
         TYPE_NAMES[type_of(p, i)]);
    return -1;
}

static int binary(parser *p, size_t at, opcode op, const char *name, int l, int r)
{
    if (l < 0 || r < 0)
        return -1;
    char what[24];
    snprintf(what, sizeof what, "'%s'", name);
    switch (op) {
    case OP_AND:
    case OP_OR:
        if (need_type(p, at, l, TY_BOOL, what, "its left side") < 0 ||
            need_type(p, at, r, TY_BOOL, what, "its right side") < 0)
            return -1;
        return add_node(p, at, op, TY_BOOL, l, r, -1);
    case OP_EQ:
    case OP_NE:
        if (type_of(p, l) != type_of(p, r)) {
            fail(p, at, "%s cannot compare %s with %s", what, TYPE_NAMES[type_of(p, l)],
                 TYPE_NAMES[type_of(p, r)]);
            return -1;
        }
        return add_node(p, at, op, TY_BOOL, l, r, -1);
    case OP_LT:
    case OP_LE:
    case OP_GT:
    case OP_GE:
        if (type_of(p, l) != type_of(p, r) ||
            (type_of(p, l) != TY_NUM && type_of(p, l) != TY_SUIT)) {
            fail(p, at, "%s compares two numbers or two suits, not %s with %s", what,
                 TYPE_NAMES[type_of(p, l)], TYPE_NAMES[type_of(p, r)]);
            return -1;
        }
        return add_node(p, at, op, TY_BOOL, l, r, -1);
    default: /* arithmetic */
        if (need_type(p, at, l, TY_NUM, what, "its left side") < 0 ||
            need_type(p, at, r, TY_NUM, what, "its right side") < 0)
            return -1;
        if ((op == OP_DIV || op == OP_MOD) && p->nodes[r].op == OP_CONST &&
            p->nodes[r].value == 0) {
            fail(p, at, "%s by zero", what);
            return -1;
        }
        return add_node(p, at, op, TY_NUM, l, r, -1);
    }
}

/* ---- Parser ------------------------------------------------------------------ */

static int parse_expr(parser *p);

static int enter(parser *p)
{
    if (++p->nesting > MAX_NESTING) {
        fail(p, p->tok.start, "the rule nests too deeply (more than %d levels)", MAX_NESTING);
        return -1;
    }
    return 0;
}

/* cardref '.' attribute, or a bare attribute of the candidate. */
static int parse_attribute(parser *p)
{
    size_t at = p->tok.start;
    int back = 0;
    if (is_word(p, W_REF)) {
        back = p->tok.back;
        char ref[40];
        snprintf(ref, sizeof ref, "'%.*s'", (int)(p->tok.len > 24 ? 24 : p->tok.len),
                 p->text + p->tok.start);
        next_token(p);
        if (p->tok.kind != TK_DOT) {
            char buf[48];
            fail(p, p->tok.start,
                 "expected '.' and an attribute after %s (like prev.value) "
                 "but found %s",
                 ref, describe(p, &p->tok, buf, sizeof buf));
            return -1;
        }
        next_token(p);
        if (!is_word(p, W_ATTR)) {
            char buf[48];
            fail(p, p->tok.start, "expected an attribute (value, suit, colour, face) but found %s",
                 describe(p, &p->tok, buf, sizeof buf));
            return -1;
        }
    }
    static const value_type ATTR_TYPES[] = {TY_NUM, TY_SUIT, TY_COLOUR, TY_BOOL};
    int attr = p->tok.w->value;
    next_token(p);
    int i = add_node(p, at, OP_ATTR, ATTR_TYPES[attr], -1, -1, -1);
    if (i < 0)
        return -1;
    p->nodes[i].back = (uint8_t)back;
    p->nodes[i].attr = (uint8_t)attr;
    int needs = back == REF_FIRST ? 1 : back;
    if (needs > p->needed)
        p->needed = needs;
    return i;
}

static int parse_call(parser *p)
{
    const word *w = p->tok.w;
    size_t at = p->tok.start;
    next_token(p);
    char open[40];
    snprintf(open, sizeof open, "'(' after '%s'", w->name);
    if (expect(p, TK_LPAREN, open) < 0)
        return -1;
    int args[2] = {-1, -1};
    for (int i = 0; i < w->value; i++) {
        if (i > 0 && expect(p, TK_COMMA, w->value == 2 ? "',' and a second argument" : "','") < 0)
            return -1;
        size_t arg_at = p->tok.start;
        args[i] = parse_expr(p);
        char what[24];
        snprintf(what, sizeof what, "'%s'", w->name);
        if (need_type(p, arg_at, args[i], TY_NUM, what, "") < 0)
            return -1;
    }
    if (expect(p, TK_RPAREN, w->value == 1 ? "')' (one argument)" : "')' (two arguments)") < 0)
        return -1;
    value_type t = (w->op == OP_ODD || w->op == OP_EVEN) ? TY_BOOL : TY_NUM;
    return add_node(p, at, (opcode)w->op, t, args[0], args[1], -1);
}

static int parse_if(parser *p)
{
    size_t at = p->tok.start;
    next_token(p);
    size_t cond_at = p->tok.start;
    int c = parse_expr(p);
    if (c < 0 || need_type(p, cond_at, c, TY_BOOL, "the condition of 'if'", "") < 0)
        return -1;
    if (expect_word(p, W_THEN, "'then'") < 0)
        return -1;
    int a = parse_expr(p);
    if (a < 0 || expect_word(p, W_ELSE, "'else' (every 'if' needs one)") < 0)
        return -1;
    size_t else_at = p->tok.start;
    int b = parse_expr(p);
    if (b < 0)
        return -1;
    if (type_of(p, a) != type_of(p, b)) {
        fail(p, else_at, "'if' branches differ: 'then' gives %s, 'else' gives %s",
             TYPE_NAMES[type_of(p, a)], TYPE_NAMES[type_of(p, b)]);
        return -1;
    }
    return add_node(p, at, OP_IF, type_of(p, a), c, a, b);
}

static int parse_primary(parser *p)
{
    token *t = &p->tok;
    size_t at = t->start;
    char buf[48];
    if (enter(p) < 0)
        return -1;
    int r = -1;
    if (t->kind == TK_NUM) {
        if (t->num > MAX_LITERAL) {
            fail(p, at, "number too large (at most %d)", MAX_LITERAL);
            return -1;
        }
        r = add_node(p, at, OP_CONST, TY_NUM, -1, -1, -1);
        if (r >= 0)
            p->nodes[r].value = t->num;
        next_token(p);
    } else if (t->kind == TK_LPAREN) {
        next_token(p);
        r = parse_expr(p);
        if (r >= 0 && expect(p, TK_RPAREN, "')'") < 0)
            r = -1;
    } else if (t->kind == TK_WORD && !t->w) {
        /* Suggest the nearest word: 1 edit away for short words, 2 for longer. */
        const word *best = NULL;
        int best_d = t->len >= 5 ? 3 : 2;
        for (int i = 0; i < N_WORDS; i++) {
            int d = edit_distance(p->text + at, t->len, WORDS[i].name);
            if (d < best_d && strlen(WORDS[i].name) > 1) {
                best_d = d;
                best = &WORDS[i];
            }
        }
        if (best)
            fail(p, at, "unknown word %s (did you mean '%s'?)", describe(p, t, buf, sizeof buf),
                 best->name);
        else
            fail(p, at, "unknown word %s", describe(p, t, buf, sizeof buf));
    } else if (t->kind == TK_WORD && t->w->cls == W_CONST) {
        r = add_node(p, at, OP_CONST, (value_type)t->w->type, -1, -1, -1);
        if (r >= 0)
            p->nodes[r].value = t->w->value;
        next_token(p);
    } else if (t->kind == TK_WORD && t->w->cls == W_LENGTH) {
        r = add_node(p, at, OP_LENGTH, TY_NUM, -1, -1, -1);
        next_token(p);
    } else if (t->kind == TK_WORD && (t->w->cls == W_ATTR || t->w->cls == W_REF)) {
        r = parse_attribute(p);
    } else if (t->kind == TK_WORD && t->w->cls == W_FUNC) {
        r = parse_call(p);
    } else if (t->kind == TK_WORD && t->w->cls == W_IF) {
        r = parse_if(p);
    } else {
        fail(p, at, "expected a value (number, attribute, constant, '(' or 'if') but found %s",
             describe(p, t, buf, sizeof buf));
    }
    p->nesting--;
    return r;
}

static int parse_unary(parser *p)
{
    if (p->tok.kind != TK_MINUS)
        return parse_primary(p);
    size_t at = p->tok.start;
    next_token(p);
    if (enter(p) < 0)
        return -1;
    int x = parse_unary(p);
    p->nesting--;
    if (need_type(p, at, x, TY_NUM, "'-'", "") < 0)
        return -1;
    return add_node(p, at, OP_NEG, TY_NUM, x, -1, -1);
}

static int parse_product(parser *p)
{
    int l = parse_unary(p);
    for (;;) {
        opcode op;
        const char *name;
        if (p->tok.kind == TK_STAR)
            op = OP_MUL, name = "*";
        else if (p->tok.kind == TK_SLASH)
            op = OP_DIV, name = "/";
        else if (p->tok.kind == TK_PERCENT || is_word(p, W_MOD))
            op = OP_MOD, name = "mod";
        else
            return l;
        size_t at = p->tok.start;
        next_token(p);
        l = binary(p, at, op, name, l, parse_unary(p));
    }
}

static int parse_sum(parser *p)
{
    int l = parse_product(p);
    while (p->tok.kind == TK_PLUS || p->tok.kind == TK_MINUS) {
        int plus = p->tok.kind == TK_PLUS;
        size_t at = p->tok.start;
        next_token(p);
        l = binary(p, at, plus ? OP_ADD : OP_SUB, plus ? "+" : "-", l, parse_product(p));
    }
    return l;
}

static int compare_op(token_kind k, opcode *op, const char **name)
{
    static const struct {
        token_kind kind;
        opcode op;
        const char *name;
    } CMP[] = {{TK_EQ, OP_EQ, "=="}, {TK_NE, OP_NE, "!="}, {TK_LT, OP_LT, "<"},
               {TK_LE, OP_LE, "<="}, {TK_GT, OP_GT, ">"},  {TK_GE, OP_GE, ">="}};
    for (size_t i = 0; i < sizeof CMP / sizeof CMP[0]; i++)
        if (CMP[i].kind == k) {
            *op = CMP[i].op;
            *name = CMP[i].name;
            return 1;
        }
    return 0;
}

static int parse_compare(parser *p)
{
    int l = parse_sum(p);
    opcode op;
    const char *name;
    int r;
    if (is_word(p, W_IN)) {
        size_t at = p->tok.start;
        next_token(p);
        int lo = parse_sum(p);
        if (lo < 0 || expect(p, TK_DOTDOT, "'..' (a range is written lo..hi)") < 0)
            return -1;
        int hi = parse_sum(p);
        if (need_type(p, at, l, TY_NUM, "'in'", "its left side") < 0 ||
            need_type(p, at, lo, TY_NUM, "'in'", "the range start") < 0 ||
            need_type(p, at, hi, TY_NUM, "'in'", "the range end") < 0)
            return -1;
        r = add_node(p, at, OP_IN, TY_BOOL, l, lo, hi);
    } else if (compare_op(p->tok.kind, &op, &name)) {
        size_t at = p->tok.start;
        next_token(p);
        r = binary(p, at, op, name, l, parse_sum(p));
    } else {
        return l;
    }
    if (!p->failed && (compare_op(p->tok.kind, &op, &name) || is_word(p, W_IN))) {
        fail(p, p->tok.start, "comparisons do not chain; join them with 'and'");
        return -1;
    }
    return r;
}

static int parse_not(parser *p)
{
    if (!is_word(p, W_NOT))
        return parse_compare(p);
    size_t at = p->tok.start;
    next_token(p);
    if (enter(p) < 0)
        return -1;
    int x = parse_not(p);
    p->nesting--;
    if (need_type(p, at, x, TY_BOOL, "'not'", "") < 0)
        return -1;
    return add_node(p, at, OP_NOT, TY_BOOL, x, -1, -1);
}

/* A chain of one associative operator (and, or): its terms are kept in order
 * and joined as a balanced tree, so a rule listing a hundred conditions is
 * about seven levels tall, not a hundred; evaluation is still left to right
 * with the same short cuts. */
typedef struct {
    int *term;
    size_t *at; /* position of the operator before each term (term 0: the chain's start) */
    int n, cap;
} chain;

static int chain_add(parser *p, chain *c, int term, size_t at)
{
    if (term < 0)
        return -1;
    if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 16;
        int *t = realloc(c->term, sizeof *t * (size_t)cap);
        if (t)
            c->term = t;
        size_t *a = t ? realloc(c->at, sizeof *a * (size_t)cap) : NULL;
        if (!t || !a) {
            fail(p, at, "out of memory");
            return -1;
        }
        c->at = a;
        c->cap = cap;
    }
    c->term[c->n] = term;
    c->at[c->n++] = at;
    return 0;
}

/* Terms lo..hi-1 joined by op; the left half takes the extra term. */
static int chain_join(parser *p, const chain *c, int lo, int hi, opcode op, const char *name)
{
    if (hi - lo == 1)
        return c->term[lo];
    int mid = lo + (hi - lo + 1) / 2;
    int l = chain_join(p, c, lo, mid, op, name);
    int r = chain_join(p, c, mid, hi, op, name);
    return binary(p, c->at[mid], op, name, l, r);
}

static int parse_chain(parser *p, word_class w, opcode op, const char *name,
                       int (*term)(parser *))
{
    int first = term(p);
    if (first < 0 || !is_word(p, w))
        return first;
    chain c = {0};
    int rc = chain_add(p, &c, first, 0);
    while (rc == 0 && is_word(p, w)) {
        size_t at = p->tok.start;
        next_token(p);
        rc = chain_add(p, &c, term(p), at);
    }
    int joined = rc == 0 && !p->failed ? chain_join(p, &c, 0, c.n, op, name) : -1;
    free(c.term);
    free(c.at);
    return joined;
}

static int parse_and(parser *p)
{
    return parse_chain(p, W_AND, OP_AND, "and", parse_not);
}

static int parse_expr(parser *p)
{
    int l = parse_chain(p, W_OR, OP_OR, "or", parse_and);
    return p->failed ? -1 : l;
}

/* ---- Compile / free ---------------------------------------------------------- */

ts_eleusis_rule *ts_eleusis_compile(const char *text, ts_eleusis_error *err)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.err = err;
    if (err) {
        err->pos = 0;
        err->msg[0] = '\0';
    }
    if (!text) {
        fail(&p, 0, "no rule given");
        return NULL;
    }
    p.text = text;
    p.len = strnlen(text, TS_ELEUSIS_MAX_RULE_LEN + 1);
    if (p.len > TS_ELEUSIS_MAX_RULE_LEN) {
        fail(&p, 0, "rule too long (at most %d characters)", TS_ELEUSIS_MAX_RULE_LEN);
        return NULL;
    }
    next_token(&p);
    int root = -1;
    if (p.tok.kind == TK_END && !p.failed) {
        fail(&p, p.tok.start, "the rule is empty");
    } else {
        size_t at = p.tok.start;
        root = parse_expr(&p);
        if (root >= 0 && p.tok.kind != TK_END) {
            char buf[48];
            fail(&p, p.tok.start, "expected an operator or the end of the rule but found %s",
                 describe(&p, &p.tok, buf, sizeof buf));
        } else if (root >= 0 && type_of(&p, root) != TY_BOOL) {
            fail(&p, at, "a rule must be a true/false condition, but this is %s",
                 TYPE_NAMES[type_of(&p, root)]);
        }
    }
    ts_eleusis_rule *rule = NULL;
    if (!p.failed) {
        rule = malloc(sizeof *rule + (size_t)p.count * sizeof(node));
        if (rule) {
            rule->count = p.count;
            rule->root = root;
            rule->needed = p.needed;
            memcpy(rule->nodes, p.nodes, (size_t)p.count * sizeof(node));
        } else {
            fail(&p, 0, "out of memory");
        }
    }
    free(p.nodes);
    return rule;
}

void ts_eleusis_free(ts_eleusis_rule *rule)
{
    free(rule);
}

int ts_eleusis_history_needed(const ts_eleusis_rule *rule)
{
    return rule ? rule->needed : 0;
}

/* ---- Formatter --------------------------------------------------------------- */

typedef struct {
    char *out;
    size_t cap, len;
} writer;

static void put(writer *w, const char *s)
{
    for (; *s; s++, w->len++)
        if (w->len + 1 < w->cap)
            w->out[w->len] = *s;
}

static void format_node(const ts_eleusis_rule *r, int i, writer *w)
{
    static const char *const BIN[] = {
        [OP_ADD] = "+", [OP_SUB] = "-",   [OP_MUL] = "*", [OP_DIV] = "/", [OP_MOD] = "mod",
        [OP_EQ] = "==", [OP_NE] = "!=",   [OP_LT] = "<",  [OP_LE] = "<=", [OP_GT] = ">",
        [OP_GE] = ">=", [OP_AND] = "and", [OP_OR] = "or"};
    static const char *const FUNC[] = {
        [OP_ODD] = "odd", [OP_EVEN] = "even", [OP_ABS] = "abs", [OP_MIN] = "min", [OP_MAX] = "max"};
    const node *n = &r->nodes[i];
    char buf[32];
    switch ((opcode)n->op) {
    case OP_CONST:
        if (n->type == TY_NUM)
            snprintf(buf, sizeof buf, "%lld", (long long)n->value);
        else if (n->type == TY_BOOL)
            snprintf(buf, sizeof buf, "%s", n->value ? "true" : "false");
        else if (n->type == TY_SUIT)
            snprintf(buf, sizeof buf, "%s", SUIT_NAMES[n->value & 3]);
        else
            snprintf(buf, sizeof buf, "%s", n->value ? "red" : "black");
        put(w, buf);
        break;
    case OP_ATTR:
        if (n->back == REF_FIRST)
            put(w, "first.");
        else if (n->back == 1)
            put(w, "prev.");
        else if (n->back > 1) {
            snprintf(buf, sizeof buf, "prev%d.", n->back);
            put(w, buf);
        }
        put(w, ATTR_NAMES[n->attr]);
        break;
    case OP_LENGTH: put(w, "length"); break;
    case OP_NEG:
    case OP_NOT:
        put(w, n->op == OP_NEG ? "(-" : "(not ");
        format_node(r, n->kid[0], w);
        put(w, ")");
        break;
    case OP_IN:
        put(w, "(");
        format_node(r, n->kid[0], w);
        put(w, " in ");
        format_node(r, n->kid[1], w);
        put(w, "..");
        format_node(r, n->kid[2], w);
        put(w, ")");
        break;
    case OP_IF:
        put(w, "(if ");
        format_node(r, n->kid[0], w);
        put(w, " then ");
        format_node(r, n->kid[1], w);
        put(w, " else ");
        format_node(r, n->kid[2], w);
        put(w, ")");
        break;
    case OP_ODD:
    case OP_EVEN:
    case OP_ABS:
    case OP_MIN:
    case OP_MAX:
        put(w, FUNC[n->op]);
        put(w, "(");
        format_node(r, n->kid[0], w);
        if (n->kid[1] >= 0) {
            put(w, ", ");
            format_node(r, n->kid[1], w);
        }
        put(w, ")");
        break;
    default: /* binary operators */
        put(w, "(");
        format_node(r, n->kid[0], w);
        put(w, " ");
        put(w, BIN[n->op]);
        put(w, " ");
        format_node(r, n->kid[1], w);
        put(w, ")");
    }
}

size_t ts_eleusis_format(const ts_eleusis_rule *rule, char *out, size_t cap)
{
    writer w = {out, cap, 0};
    if (rule)
        format_node(rule, rule->root, &w);
    if (cap)
        out[w.len < cap ? w.len : cap - 1] = '\0';
    return w.len;
}

/* ---- Evaluator --------------------------------------------------------------- */

/* The mainline seen by a candidate: part a, then part b (a string being judged). */
typedef struct {
    const ts_code *a, *b;
    int na, nb;
    ts_code card;
} history;

/* Wrapping arithmetic: a rule can never invoke undefined behaviour. */
static int64_t wrap_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}
static int64_t wrap_sub(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}
static int64_t wrap_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

static int64_t floor_div(int64_t a, int64_t b)
{
    if (b == 0)
        return 0;
    if (b == -1)
        return wrap_sub(0, a);
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t floor_mod(int64_t a, int64_t b)
{
    if (b == 0 || b == -1)
        return 0;
    int64_t m = a % b;
    return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;
}

static int64_t card_attr(ts_code c, int attr)
{
    int suit = c.idx / 13, value = c.idx % 13 + 1;
    switch (attr) {
    case AT_VALUE: return value;
    case AT_SUIT: return suit;
    case AT_COLOUR: return suit == 1 || suit == 2; /* diamonds, hearts are red */
    default: return value >= 11;
    }
}

static int64_t eval(const ts_eleusis_rule *r, int i, const history *h)
{
    const node *n = &r->nodes[i];
    int len = h->na + h->nb;
    int64_t a = 0, b = 0;
    switch ((opcode)n->op) {
    case OP_CONST: return n->value;
    case OP_LENGTH: return len;
    case OP_ATTR: {
        if (n->back == 0)
            return card_attr(h->card, n->attr);
        int at = n->back == REF_FIRST ? 0 : len - n->back; /* >= 0: rule->needed checked */
        return card_attr(at < h->na ? h->a[at] : h->b[at - h->na], n->attr);
    }
    case OP_AND: return eval(r, n->kid[0], h) && eval(r, n->kid[1], h);
    case OP_OR: return eval(r, n->kid[0], h) || eval(r, n->kid[1], h);
    case OP_NOT: return !eval(r, n->kid[0], h);
    case OP_IF: return eval(r, n->kid[0], h) ? eval(r, n->kid[1], h) : eval(r, n->kid[2], h);
    case OP_IN:
        a = eval(r, n->kid[0], h);
        return a >= eval(r, n->kid[1], h) && a <= eval(r, n->kid[2], h);
    default: break;
    }
    a = eval(r, n->kid[0], h);
    if (n->kid[1] >= 0)
        b = eval(r, n->kid[1], h);
    /* clang-format off */
    switch ((opcode)n->op) {
    case OP_NEG: return wrap_sub(0, a);
    case OP_ABS: return a < 0 ? wrap_sub(0, a) : a;
    case OP_ODD: return (a & 1) != 0;
    case OP_EVEN: return (a & 1) == 0;
    case OP_ADD: return wrap_add(a, b);
    case OP_SUB: return wrap_sub(a, b);
    case OP_MUL: return wrap_mul(a, b);
    case OP_DIV: return floor_div(a, b);
    case OP_MOD: return floor_mod(a, b);
    case OP_MIN: return a < b ? a : b;
    case OP_MAX: return a > b ? a : b;
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    default: return 0;
    }
    /* clang-format on */
}

/* ---- Judging ----------------------------------------------------------------- */

static int is_playing_card(ts_code c)
{
    return c.family == TS_FAM_PLAYING && c.idx < 52;
}

static int all_playing_cards(const ts_code *cards, int n)
{
    for (int i = 0; i < n; i++)
        if (!is_playing_card(cards[i]))
            return 0;
    return 1;
}

/* Seed note 2: before the rule has the history it needs, every card is right. */
static int judge_one(const ts_eleusis_rule *rule, const history *h)
{
    if (h->na + h->nb < rule->needed)
        return 1;
    return eval(rule, rule->root, h) != 0;
}

int ts_eleusis_judge(const ts_eleusis_rule *rule, const ts_code *mainline, int n, ts_code card)
{
    if (!rule || n < 0 || (n > 0 && !mainline) || !is_playing_card(card) ||
        !all_playing_cards(mainline, n))
        return -1;
    history h = {mainline, NULL, n, 0, card};
    return judge_one(rule, &h);
}

int ts_eleusis_judge_string(const ts_eleusis_rule *rule, const ts_code *mainline, int n,
                            const ts_code *cards, int k, int *first_wrong)
{
    if (!rule || n < 0 || k < 0 || (n > 0 && !mainline) || (k > 0 && !cards) ||
        !all_playing_cards(mainline, n) || !all_playing_cards(cards, k))
        return -1;
    for (int j = 0; j < k; j++) {
        history h = {mainline, cards, n, j, cards[j]};
        if (!judge_one(rule, &h)) {
            if (first_wrong)
                *first_wrong = j;
            return 0;
        }
    }
    return 1;
}
