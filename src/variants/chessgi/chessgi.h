/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time Travel Chessgi (seed 004) and its base game Chessgi: the variant's
 * own state and the pieces of its rules that its notation needs.  The
 * rules are in chessgi.c, the notation in chessgi_notation.c;
 * docs/rules/chessgi.md states each rule with the seed text it rests on.
 */
#ifndef TTCHESS_CHESSGI_H
#define TTCHESS_CHESSGI_H

#include "game.h"

/* The game's limits are named options (Variant.options), in this order. */
enum ChessgiOption {
    CHESSGI_COOLDOWN,      /* plies after a time travel before the next (4)            */
    CHESSGI_FORWARD,       /* a piece travels at most this many moves forward (10)      */
    CHESSGI_KING_FORWARD,  /* a king travels at most this many moves forward (5)        */
    CHESSGI_CAPACITY,      /* a special travel needs fewer pocket pieces than this (16) */
    CHESSGI_OPTION_COUNT
};

/* A side never has more travellers than the largest capacity allowed:
 * a special travel needs room in the pocket, travellers included, and a
 * general travel keeps the mover's own travellers and gives the opponent
 * those it had at the earlier position. */
enum { CHESSGI_CAPACITY_MAX = 32 };

/* A piece sent to a future move: its owner may drop it at its turn at
 * move `due` (a king must be dropped then). */
typedef struct ChessgiTraveller {
    uint16_t due;
    uint8_t type;
    uint8_t reserved;
} ChessgiTraveller;

/*
 * The state beside the board.  Pockets count pieces by type; captures
 * enter them whatever their size, and a general travel keeps them while
 * the board returns to an earlier position, so a count can grow past the
 * pieces a chess set has.  Travellers are kept sorted by due move, one
 * per side per move.  `wait` is the number of plies before anyone may
 * time travel again: set to the cooldown by a travel, one less after
 * each other action.
 */
typedef struct ChessgiState {
    uint16_t pocket[2][KING];  /* [colour][PAWN..QUEEN]; [c][0] unused */
    uint8_t travellers[2];     /* how many each side has               */
    uint8_t wait;
    uint8_t reserved[5];
    ChessgiTraveller traveller[2][CHESSGI_CAPACITY_MAX];
} ChessgiState;

/* The fixed parameters that tell the two variants apart. */
typedef struct ChessgiParams {
    bool time_travel;
} ChessgiParams;

static inline ChessgiState *chessgi_state(State *s) { return (ChessgiState *)s->ext; }
static inline const ChessgiState *chessgi_cstate(const State *s) { return (const ChessgiState *)s->ext; }
static inline bool chessgi_travel_on(const Line *l)
{
    return ((const ChessgiParams *)line_variant(l)->params)->time_travel;
}

/* A State with room for Chessgi's ext, on the stack. */
typedef union ChessgiStateBuffer {
    State state;
    unsigned char bytes[sizeof(State) + sizeof(ChessgiState)];
    uint64_t align;
} ChessgiStateBuffer;

/* Pieces in c's pocket, travellers included (what the capacity counts). */
int chessgi_pocket_total(const State *s, Color c);
/* The index of c's traveller due at move `due`, or -1. */
int chessgi_traveller_at(const State *s, Color c, int due);
/* The traveller of the side to move due now, or NULL. */
const ChessgiTraveller *chessgi_due_now(const State *s);

/* The position a general travel to node `target` lands in, before the
 * move made there: the target's board and the opponent's pocket and
 * travellers there, the mover's own pocket and travellers from now (less
 * one due now, which is lost unless the target is at the same move).
 * Written to *out (room for Chessgi's ext). */
void chessgi_travel_state(const Line *l, int target, State *out);
/* Does a general travel to `target` leave the mover a king, on the board
 * or travelling? */
bool chessgi_travel_keeps_king(const State *landing, Color mover);
/* The actions of the base game and of the travellers at a position
 * (drops, due travellers, chess moves): everything but the two time
 * travels, which need the record.  False only when out of memory. */
bool chessgi_generate_base(const State *s, MoveList *out);
/* Why a time travel is not allowed at the line's present position, or
 * NULL when it is (in check, cooldown, a king due now, no time travel in
 * this variant).  `buf` holds the sentence. */
const char *chessgi_travel_barred(const Line *l, char *buf, size_t len);

/* The timeline and ply ("T.P") that name node i in a general travel. */
void chessgi_node_name(const Line *l, int node, int *timeline, int *ply);
/* The node named T.P, or -1. */
int chessgi_node_named(const Line *l, int timeline, int ply);

/* The notation (chessgi_notation.c). */
bool chessgi_parse(const Line *l, const char *text, Move *out, Text *err);
bool chessgi_format_coord(const Line *l, Move m, Text *out);
bool chessgi_format_human(const Line *l, Move m, Text *out);
bool chessgi_format_sheet(const Line *l, Move m, int part, Text *out);
bool chessgi_sheet_departure(const char *cell, int *move);
bool chessgi_sheet_join(const Line *l, const char *departure, const char *arrival, Move *out, Text *err);
/* Explains why a well-formed action is not legal now, naming the rule. */
void chessgi_explain(const Line *l, Move m, Text *err);
/* Explains why a drop or a traveller's drop is not legal at position s
 * (the present one, or where a general travel lands). */
void chessgi_explain_landing(const State *s, Move m, Text *err);

/* The engine's evaluators of both games (chessgi_eval.c). */
extern const struct Evaluator EVAL_CHESSGI_CLASSIC, EVAL_CHESSGI;

/* The FEN of each game (chessgi_fen.c). */
State *chessgi_classic_from_fen(const Options *o, const char *fen, Text *err);
State *chessgi_travel_from_fen(const Options *o, const char *fen, Text *err);
void chessgi_classic_to_fen(const Options *o, const State *s, Text *out);
void chessgi_travel_to_fen(const Options *o, const State *s, Text *out);
/* The FEN's parts beyond chess's of each game, for an editor. */
extern const FenPart CHESSGI_CLASSIC_FEN_PARTS[], CHESSGI_FEN_PARTS[];

/* Adds a traveller of colour c due at move `due`, kept sorted (chessgi.c). */
void chessgi_add_traveller(ChessgiState *gs, Color c, int due, PieceType type);
/* The key of ext computed from nothing (chessgi.c). */
uint64_t chessgi_ext_key(const Options *o, const State *s);

/* The order in which FEN and the play screen list a pocket: queens,
 * rooks, bishops, knights, pawns (chessgi_fen.c). */
enum { CHESSGI_POCKET_KINDS = 5 };
extern const char CHESSGI_POCKET_ORDER[CHESSGI_POCKET_KINDS];

#endif
