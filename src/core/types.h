/* ttchess — time-travel chess.  Copyright (C) 2026 the ttchess authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The basic vocabulary shared by every module: squares, colours, pieces,
 * bitboards, the action ("move") that every game is made of, and the
 * growing list of actions that the generators fill.
 */
#ifndef TTCHESS_TYPES_H
#define TTCHESS_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t Bitboard;

/* Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63. */
enum { SQ_NONE = 64 };
typedef uint8_t Square;

enum Color { WHITE = 0, BLACK = 1 };
typedef uint8_t Color;

enum PieceType {
    NO_TYPE = 0, PAWN = 1, KNIGHT = 2, BISHOP = 3, ROOK = 4, QUEEN = 5, KING = 6
};
typedef uint8_t PieceType;

/* A piece is its type with the colour in bit 3; 0 is an empty square. */
typedef uint8_t Piece;
enum { NO_PIECE = 0, PIECE_CODES = 16 };

static inline Piece make_piece(Color c, PieceType t) { return (Piece)((c << 3) | t); }
static inline PieceType piece_type(Piece p) { return (PieceType)(p & 7); }
static inline Color piece_color(Piece p) { return (Color)(p >> 3); }
static inline int square_file(Square s) { return s & 7; }
static inline int square_rank(Square s) { return s >> 3; }
static inline Square make_square(int file, int rank) { return (Square)(rank * 8 + file); }

/* Castling rights, one bit each. */
enum {
    CASTLE_WK = 1, CASTLE_WQ = 2, CASTLE_BK = 4, CASTLE_BQ = 8,
    CASTLE_ALL = 15
};

/*
 * What an action does.  Standard chess uses the first five kinds; the
 * time-travel games add theirs.  The kinds are shared so that a record, a
 * notation or a search can hold any game's actions without knowing which
 * game it is.  docs/design.md lists how each game's actions are encoded.
 */
enum MoveKind {
    MOVE_NORMAL = 0,    /* from -> to, capturing whatever stands on to            */
    MOVE_DOUBLE_PUSH,   /* pawn two squares forward                               */
    MOVE_EN_PASSANT,    /* pawn captures en passant                               */
    MOVE_CASTLE,        /* king from -> to; the rook jumps over                   */
    MOVE_PROMOTION,     /* pawn reaches the last rank; piece = the new type       */
    MOVE_SEND_FORWARD,  /* the piece on from leaves for move number arg           */
    MOVE_ARRIVAL,       /* a piece due from elsewhere in time lands on to: piece;
                           from = where it comes from, when the game names it     */
    MOVE_KING_BACK,     /* king on from travels back to move arg, lands on to    */
    MOVE_DROP,          /* piece from the pocket lands on to                      */
    MOVE_DEPART_PAST,   /* the piece on from moves to to and leaves for the past  */
    MOVE_DEPART_FUTURE, /* the piece on from moves to to and leaves for the future */
    MOVE_REAPPEAR,      /* a piece back from the future lands on to: piece        */
    MOVE_EXPLOSION,     /* piece explodes on from, its traveled half moves to to;
                           promo = an exploding pawn's promotion                  */
    MOVE_ANNIHILATION,  /* the piece on from moves onto its traveling twin on to  */
    MOVE_NULL,          /* no action (never legal; used as "none")                */
    MOVE_KINDS,
    /* A game's own kinds of action, which only it makes and reads, start
     * here; the game describes them in its Variant.kinds. */
    MOVE_OWN = 64
};

/* Flags of an action. */
enum {
    /* The action is made at history node `arg` rather than in the present
     * position (Chessgi's general travel: back to an earlier position of
     * any timeline, then the move given by the other fields there). */
    MOVE_AT_NODE = 1
};

typedef struct Move {
    uint8_t from;   /* origin square, or SQ_NONE                              */
    uint8_t to;     /* destination square, or SQ_NONE                         */
    uint8_t kind;   /* enum MoveKind                                          */
    uint8_t piece;  /* the piece type the kind names: promotion, drop,
                       arrival, explosion; NO_TYPE otherwise                 */
    uint8_t promo;  /* a second piece type: an exploding pawn's promotion    */
    uint8_t flags;  /* MOVE_AT_NODE                                           */
    uint32_t arg;   /* a move number, or the history node of MOVE_AT_NODE    */
} Move;

static inline Move move_make(Square from, Square to, uint8_t kind, uint8_t piece, uint32_t arg)
{
    Move m = { from, to, kind, piece, NO_TYPE, 0, arg };
    return m;
}

static inline Move move_none(void) { return move_make(SQ_NONE, SQ_NONE, MOVE_NULL, NO_TYPE, 0); }

static inline bool move_equal(Move a, Move b)
{
    return a.from == b.from && a.to == b.to && a.kind == b.kind && a.piece == b.piece && a.promo == b.promo &&
           a.flags == b.flags && a.arg == b.arg;
}

/* Does the action move pieces as a chess move does (and nothing else)? */
static inline bool move_is_chess(Move m) { return m.kind <= MOVE_PROMOTION && !m.flags; }

/*
 * A list of actions that grows as needed: a Chessgi general travel may
 * offer every earlier position times every action there, thousands of
 * actions.  An allocation that fails sets `failed` and drops the action;
 * whoever filled the list checks `failed` once at the end and reports
 * "out of memory", so nothing is ever lost silently.
 */
typedef struct MoveList {
    Move *moves;
    int count;
    int capacity;
    bool failed;
} MoveList;

void movelist_init(MoveList *l);
void movelist_free(MoveList *l);
/* Makes room for `more` actions beyond count; false (and failed) if the
 * memory cannot be had. */
bool movelist_reserve(MoveList *l, int more);
bool movelist_grow(MoveList *l);

static inline void movelist_add(MoveList *l, Move m)
{
    if (l->count < l->capacity || movelist_grow(l)) l->moves[l->count++] = m;
}

/* Is m in the list? */
bool movelist_contains(const MoveList *l, Move m);

#endif
