/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Gifford's Time Travel Chess: the variant's own state and the pieces of
 * its rules that its notation needs.  The rules are in gifford.c, the
 * notation in gifford_notation.c; docs/rules/gifford.md states each rule
 * with the seed text it rests on.
 */
#ifndef TTCHESS_GIFFORD_H
#define TTCHESS_GIFFORD_H

#include "game.h"

/* The game's limits are named options (Variant.options), in this order. */
enum GiffordOption {
    GIFFORD_FORWARD,       /* a piece or king travels at most this many moves forward (10) */
    GIFFORD_BACK,          /* a king travels at most this many moves back (5)             */
    GIFFORD_BACK_TRAVELS,  /* backward travels per player per game (2)                    */
    GIFFORD_OPTION_COUNT
};

/*
 * An arrival is stored by its move number modulo ARRIVAL_SLOTS: at any
 * moment a side's pending arrivals lie within `forward` consecutive move
 * numbers (the first move it can still act at, and the ones after it up
 * to where its last send could reach), so with `forward` below the slot
 * count the slot is unique and "is move m free?" is one lookup.  A slot
 * holds the piece type, and for a bishop whether it travels on dark
 * squares (it keeps the colour of the square it left).
 */
enum { ARRIVAL_SLOTS = 32, ARRIVAL_DARK = 8 };

typedef struct GiffordState {
    uint8_t arrival[2][ARRIVAL_SLOTS];
    uint8_t backs_used[2];   /* king-back travels made, over all timelines */
} GiffordState;

static inline GiffordState *gifford_state(State *s) { return (GiffordState *)s->ext; }
static inline const GiffordState *gifford_cstate(const State *s) { return (const GiffordState *)s->ext; }

/* The first and last move numbers at which colour c can have an arrival:
 * from the next move it acts at to `forward` moves after its last action. */
int gifford_first_pending(const Board *b, Color c);
static inline int gifford_last_pending(const Board *b, Color c, int forward)
{
    return gifford_first_pending(b, c) + forward - 1;
}
/* The arrival code of colour c at move m (0 if none). */
uint8_t gifford_arrival_at(const State *s, int forward, Color c, int m);
/* The arrival the side to move must make now (0 if none). */
uint8_t gifford_due_now(const State *s);
/* Would placing this arrival on q be legal? */
bool gifford_placement_legal(const Board *b, uint8_t code, Square q);
/* The first square where the arrival may legally land, or SQ_NONE. */
Square gifford_first_placement(const Board *b, uint8_t code);
/* The node T a king going back to move t lands in, or -1. */
int gifford_back_target(const Line *l, int t);

/* Piece type and bishop colour of an arrival code; its name as Gifford
 * writes it between brackets ("P", "Bw", "Bb", "K"). */
static inline PieceType arrival_type(uint8_t code) { return (PieceType)(code & 7); }
void arrival_label(uint8_t code, char buf[4]);

/* The notation (gifford_notation.c). */
bool gifford_parse(const Line *l, const char *text, Move *out, Text *err);
bool gifford_format_coord(const Line *l, Move m, Text *out);
bool gifford_format_human(const Line *l, Move m, Text *out);
bool gifford_format_sheet(const Line *l, Move m, int part, Text *out);
bool gifford_sheet_departure(const char *cell, int *move);
bool gifford_sheet_join(const Line *l, const char *departure, const char *arrival, Move *out, Text *err);
/* Explains why a well-formed action is not legal now, naming the rule. */
void gifford_explain(const Line *l, Move m, Text *err);

/* The engine's evaluator of Gifford's game (gifford_eval.c). */
extern const struct Evaluator EVAL_GIFFORD;

/* The FEN (gifford_fen.c). */
State *gifford_from_fen(const Options *o, const char *fen, Text *err);
void gifford_to_fen(const Options *o, const State *s, Text *out);
/* The FEN's parts beyond chess's, for an editor (gifford_fen.c). */
extern const FenPart GIFFORD_FEN_PARTS[];

/* The key of ext computed from nothing (gifford.c). */
uint64_t gifford_ext_key(const Options *o, const State *s);

#endif
