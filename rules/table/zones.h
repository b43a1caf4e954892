/* Zones: the places of a card table (the play area or trick, a hand, the
 * Eleusis mainline and sideline), as quadrilaterals in frame fractions
 * (0..1, so one layout fits any resolution). A card's zone is the first zone
 * holding its centre; a card in none is off the table for the game.
 *
 * Layouts come from a game's default, a small config file, or corners given on
 * the command line. Pure functions over caller memory; libc only.
 */
#ifndef TS_ZONES_H
#define TS_ZONES_H

#include <stddef.h>

#include "card.h"

typedef enum {
    TS_ZONE_TABLE = 0, /* the play area (SET, Qwirkle groups) */
    TS_ZONE_HAND,      /* a player's hand, laid down or held up */
    TS_ZONE_TRICK,     /* climbing games: the trick */
    TS_ZONE_MAINLINE,  /* Eleusis: cards judged right, left to right */
    TS_ZONE_SIDELINE,  /* Eleusis: cards judged wrong */
    TS_ZONE_OFF,       /* in no zone */
    TS_NZONES
} ts_zone_kind;

enum { TS_ZONES_MAX = 8 };

/* Seats. A hand zone may belong to a seat, 1..TS_SEATS_MAX, named "hand1" ..
 * "hand4" ("hand" alone: an unnamed seat, 0), so the referee can tell who
 * played and whose hand is empty. A zone value (a card's zone, ts_zone.kind)
 * is then kind + TS_ZONE_SEAT * seat; without seats it is the plain kind. */
enum { TS_SEATS_MAX = 4, TS_ZONE_SEAT = 8 };

static inline int ts_zone_kind_of(int zone) { return zone % TS_ZONE_SEAT; }
static inline int ts_zone_seat(int zone) { return zone / TS_ZONE_SEAT; }

typedef struct {
    int kind;   /* a zone value: ts_zone_kind, with its seat for seated hands */
    ts_pt q[4]; /* corners in frame fractions, in order around the zone */
} ts_zone;

typedef struct {
    int n;
    ts_zone z[TS_ZONES_MAX];
} ts_zones;

/* "table", "hand", "trick", "mainline", "sideline", "off"; "hand2" for a
 * seated hand. */
const char *ts_zone_name(int zone);
/* The zone value of a name (with its seat: "hand3"), -1 if unknown. */
int ts_zone_from_name(const char *name, size_t len);

/* A game's default layout: SET the whole view is the table; Gang of Four and
 * Sap Ng Wu the trick above, the hand in the half nearest the camera (the
 * bottom of the image); Qwirkle and the SET grid the table above, the hand below; Eleusis the
 * mainline above, the sideline below. Unknown game: the whole view is the table. */
void ts_zones_default(const char *game, ts_zones *z);
/* The climbing games' layout for `seats` players (2-4), in turn order: seat 1
 * the band nearest the camera, then to its right, across, to its left (seats
 * 2-4 as players sit), the trick in the middle. Other games or seats: as
 * ts_zones_default. */
void ts_zones_default_seats(const char *game, int seats, ts_zones *z);

/* Adds one zone from "NAME:x0,y0,x1,y1" (a rectangle) or
 * "NAME:x0,y0,x1,y1,x2,y2,x3,y3" (four corners), fractions of the frame.
 * Returns 0, or -1 with a one-line reason in err. */
int ts_zones_add_spec(ts_zones *z, const char *spec, char *err, size_t errlen);

/* Parses a config file's text: one zone per line in the same form, with
 * spaces allowed for ',' and ':'; '#' comments. Replaces *z. Returns the
 * number of zones, or -1 with "line N: reason" in err. */
int ts_zones_parse(const char *text, ts_zones *z, char *err, size_t errlen);

/* The zone value of a point given in frame pixels (w x h frame). */
int ts_zones_at(const ts_zones *z, float x, float y, int w, int h);
/* The zone value of a card (its centre). */
int ts_zones_card(const ts_zones *z, const ts_card *c, int w, int h);

/* Centre of a card's quad. */
ts_pt ts_card_centre(const ts_card *c);
/* The card's size: its longer diagonal. */
float ts_card_diag(const ts_card *c);

#endif
