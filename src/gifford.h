/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Gifford's Time Travel Chess: the variant's own state and the pieces of
 * its rules that its notation needs.  The rules are in gifford.c, the
 * notation in gifford_notation.c; docs/rules/gifford.md states each rule
 * with the seed text it rests on.
 */
#ifndef TTCHESS_GIFFORD_H
#define TTCHESS_GIFFORD_H

#include "ttchess/game.h"

/* The game's limits, as named options rather than numbers in the code. */
typedef struct GiffordOptions {
    int forward_limit;   /* a piece or king travels at most this many moves forward */
    int back_limit;      /* a king travels at most this many moves back             */
    int back_travels;    /* backward travels per player per game                    */
} GiffordOptions;

extern const GiffordOptions GIFFORD_OPTIONS;

/*
 * An arrival is stored by its move number modulo 16: at any moment a side's
 * pending arrivals lie within 11 consecutive move numbers (from the present
 * move to ten moves ahead), so the slot is unique and "is move m free?" is
 * one lookup.  A slot holds the piece type, and for a bishop whether it
 * travels on dark squares (it keeps the colour of the square it left).
 */
enum { ARRIVAL_SLOTS = 16, ARRIVAL_DARK = 8 };

typedef struct GiffordState {
    uint8_t arrival[2][ARRIVAL_SLOTS];
    uint8_t backs_used[2];   /* king-back travels made, over all timelines */
} GiffordState;

static inline GiffordState *gifford_state(State *s) { return (GiffordState *)s->ext.bytes; }
static inline const GiffordState *gifford_cstate(const State *s) { return (const GiffordState *)s->ext.bytes; }

/* The first move number at which colour c can still have an arrival. */
int gifford_first_pending(const Board *b, Color c);
/* The arrival code of colour c at move m (0 if none). */
uint8_t gifford_arrival_at(const State *s, Color c, int m);
/* The arrival the side to move must make now (0 if none). */
uint8_t gifford_due_now(const State *s);
/* Would placing this arrival on q be legal? */
bool gifford_placement_legal(const Board *b, uint8_t code, Square q);
/* The first square where the arrival may legally land, or SQ_NONE. */
Square gifford_first_placement(const Board *b, uint8_t code);
/* The node T a king going back to move t lands in, or -1. */
int gifford_back_target(const Game *g, int t);

/* Piece type and bishop colour of an arrival code; its name as Gifford
 * writes it between brackets ("P", "Bw", "Bb", "K"). */
static inline PieceType arrival_type(uint8_t code) { return (PieceType)(code & 7); }
void arrival_label(uint8_t code, char buf[4]);

/* The notation (gifford_notation.c). */
bool gifford_parse(Game *g, const char *text, Move *out, char *err, size_t errlen);
void gifford_format_coord(const Game *g, Move m, char *buf, size_t len);
void gifford_format_human(Game *g, Move m, char *buf, size_t len);
void gifford_format_sheet(Game *g, Move m, int part, char *buf, size_t len);
/* Explains why a well-formed action is not legal now, naming the rule. */
void gifford_explain(const Game *g, Move m, char *err, size_t errlen);

#endif
