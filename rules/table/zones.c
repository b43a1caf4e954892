/* Zones (see zones.h). */
#include "zones.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const NAMES[TS_NZONES] = {"table",    "hand",     "trick",
                                             "mainline", "sideline", "off"};

static const char *const SEATED_HANDS[TS_SEATS_MAX] = {"hand1", "hand2", "hand3", "hand4"};

const char *ts_zone_name(int zone)
{
    int k = ts_zone_kind_of(zone), seat = ts_zone_seat(zone);
    if (zone < 0 || seat > TS_SEATS_MAX || k >= TS_NZONES || (seat > 0 && k != TS_ZONE_HAND))
        return "?";
    return seat > 0 ? SEATED_HANDS[seat - 1] : NAMES[k];
}

int ts_zone_from_name(const char *name, size_t len)
{
    for (int k = 0; k < TS_NZONES; k++)
        if (strlen(NAMES[k]) == len && strncmp(NAMES[k], name, len) == 0)
            return k;
    for (int s = 1; s <= TS_SEATS_MAX; s++)
        if (len == 5 && strncmp(SEATED_HANDS[s - 1], name, len) == 0)
            return TS_ZONE_HAND + TS_ZONE_SEAT * s;
    return -1;
}

static void rect(ts_zones *z, int k, float x0, float y0, float x1, float y1)
{
    if (z->n >= TS_ZONES_MAX)
        return;
    ts_zone *o = &z->z[z->n++];
    o->kind = k;
    o->q[0] = (ts_pt){x0, y0};
    o->q[1] = (ts_pt){x1, y0};
    o->q[2] = (ts_pt){x1, y1};
    o->q[3] = (ts_pt){x0, y1};
}

void ts_zones_default(const char *game, ts_zones *z)
{
    z->n = 0;
    const char *g = game ? game : "";
    if (!strcmp(g, "gof") || !strcmp(g, "sapngwu")) {
        rect(z, TS_ZONE_TRICK, 0, 0, 1, 0.5f);
        rect(z, TS_ZONE_HAND, 0, 0.5f, 1, 1);
    } else if (!strcmp(g, "qwirkle") || !strcmp(g, "setgrid")) {
        rect(z, TS_ZONE_TABLE, 0, 0, 1, 0.5f);
        rect(z, TS_ZONE_HAND, 0, 0.5f, 1, 1);
    } else if (!strcmp(g, "eleusis")) {
        rect(z, TS_ZONE_MAINLINE, 0, 0, 1, 0.5f);
        rect(z, TS_ZONE_SIDELINE, 0, 0.5f, 1, 1);
    } else {
        rect(z, TS_ZONE_TABLE, 0, 0, 1, 1);
    }
}

void ts_zones_default_seats(const char *game, int seats, ts_zones *z)
{
    const char *g = game ? game : "";
    if ((strcmp(g, "gof") && strcmp(g, "sapngwu")) || seats < 2 || seats > TS_SEATS_MAX) {
        ts_zones_default(game, z);
        return;
    }
    z->n = 0;
    const int hand = TS_ZONE_HAND;
    rect(z, hand + TS_ZONE_SEAT * 1, 0, 0.7f, 1, 1); /* nearest the camera */
    if (seats == 2) {
        rect(z, hand + TS_ZONE_SEAT * 2, 0, 0, 1, 0.3f);
        rect(z, TS_ZONE_TRICK, 0, 0.3f, 1, 0.7f);
    } else if (seats == 3) {
        rect(z, hand + TS_ZONE_SEAT * 2, 0.75f, 0, 1, 0.7f);
        rect(z, hand + TS_ZONE_SEAT * 3, 0, 0, 0.25f, 0.7f);
        rect(z, TS_ZONE_TRICK, 0.25f, 0, 0.75f, 0.7f);
    } else {
        rect(z, hand + TS_ZONE_SEAT * 2, 0.75f, 0.3f, 1, 0.7f);
        rect(z, hand + TS_ZONE_SEAT * 3, 0, 0, 1, 0.3f);
        rect(z, hand + TS_ZONE_SEAT * 4, 0, 0.3f, 0.25f, 0.7f);
        rect(z, TS_ZONE_TRICK, 0.25f, 0.3f, 0.75f, 0.7f);
    }
}

int ts_zones_add_spec(ts_zones *z, const char *spec, char *err, size_t errlen)
{
    size_t nl = strcspn(spec, ": \t");
    int kind = ts_zone_from_name(spec, nl);
    if (kind < 0 || kind == TS_ZONE_OFF) {
        snprintf(err, errlen,
                 "'%.*s' is not a zone (table, hand, hand1-hand4, trick, mainline, sideline)",
                 (int)(nl > 24 ? 24 : nl), spec);
        return -1;
    }
    float v[8];
    int n = 0;
    const char *p = spec + nl;
    while (*p) {
        while (*p == ':' || *p == ',' || *p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#' || *p == '\n')
            break;
        char *end;
        double x = strtod(p, &end);
        if (end == p || n == 8 || !isfinite(x) || x < -1 || x > 2) {
            snprintf(err, errlen, "zone %s: give 4 or 8 numbers, fractions of the frame (0..1)",
                     ts_zone_name(kind));
            return -1;
        }
        v[n++] = (float)x;
        p = end;
    }
    if (n != 4 && n != 8) {
        snprintf(err, errlen, "zone %s: give 4 numbers (x0,y0,x1,y1) or 8 (four corners)",
                 ts_zone_name(kind));
        return -1;
    }
    if (z->n >= TS_ZONES_MAX) {
        snprintf(err, errlen, "at most %d zones", TS_ZONES_MAX);
        return -1;
    }
    if (n == 4) {
        rect(z, kind, v[0] < v[2] ? v[0] : v[2], v[1] < v[3] ? v[1] : v[3],
             v[0] < v[2] ? v[2] : v[0], v[1] < v[3] ? v[3] : v[1]);
    } else {
        ts_zone *o = &z->z[z->n++];
        o->kind = kind;
        for (int i = 0; i < 4; i++)
            o->q[i] = (ts_pt){v[2 * i], v[2 * i + 1]};
    }
    return 0;
}

int ts_zones_parse(const char *text, ts_zones *z, char *err, size_t errlen)
{
    z->n = 0;
    int line = 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char buf[256];
        line++;
        if (len >= sizeof buf) {
            snprintf(err, errlen, "line %d: too long", line);
            return -1;
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *s = buf;
        while (*s == ' ' || *s == '\t' || *s == '\r')
            s++;
        if (*s) {
            char why[160];
            if (ts_zones_add_spec(z, s, why, sizeof why) < 0) {
                snprintf(err, errlen, "line %d: %s", line, why);
                return -1;
            }
        }
        p += len + (end ? 1 : 0);
    }
    return z->n;
}

/* Inside a quadrilateral of either winding (convex). */
static int inside(const ts_pt q[4], float x, float y)
{
    int sign = 0;
    for (int i = 0; i < 4; i++) {
        ts_pt a = q[i], b = q[(i + 1) & 3];
        float c = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
        if (c == 0)
            continue;
        int s = c > 0 ? 1 : -1;
        if (sign && s != sign)
            return 0;
        sign = s;
    }
    return 1;
}

int ts_zones_at(const ts_zones *z, float x, float y, int w, int h)
{
    if (w <= 0 || h <= 0)
        return TS_ZONE_OFF;
    float fx = x / (float)w, fy = y / (float)h;
    for (int i = 0; i < z->n; i++)
        if (inside(z->z[i].q, fx, fy))
            return z->z[i].kind;
    return TS_ZONE_OFF;
}

ts_pt ts_card_centre(const ts_card *c)
{
    ts_pt m = {0, 0};
    for (int i = 0; i < 4; i++) {
        m.x += c->quad[i].x / 4;
        m.y += c->quad[i].y / 4;
    }
    return m;
}

float ts_card_diag(const ts_card *c)
{
    float a = hypotf(c->quad[0].x - c->quad[2].x, c->quad[0].y - c->quad[2].y);
    float b = hypotf(c->quad[1].x - c->quad[3].x, c->quad[1].y - c->quad[3].y);
    return a > b ? a : b;
}

int ts_zones_card(const ts_zones *z, const ts_card *c, int w, int h)
{
    ts_pt m = ts_card_centre(c);
    return ts_zones_at(z, m.x, m.y, w, h);
}
