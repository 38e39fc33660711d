/* ttchess — time-travel chess.  Copyright (C) 2026 the ttchess authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The basic vocabulary shared by every module: squares, colours, pieces,
 * bitboards and the action ("move") that every game is made of.
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
enum { NO_PIECE = 0 };

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
 * time-travel games add their own.  The kinds are shared so that a record,
 * a notation or a search can hold any game's actions without knowing which
 * game it is.
 */
enum MoveKind {
    MOVE_NORMAL = 0,    /* from -> to, capturing whatever stands on to       */
    MOVE_DOUBLE_PUSH,   /* pawn two squares forward                          */
    MOVE_EN_PASSANT,    /* pawn captures en passant                          */
    MOVE_CASTLE,        /* king from -> to; the rook jumps over              */
    MOVE_PROMOTION,     /* pawn reaches the last rank; piece = new type      */
    MOVE_SEND_FORWARD,  /* piece on from leaves for move number arg          */
    MOVE_ARRIVAL,       /* scheduled piece (piece) lands on to               */
    MOVE_KING_BACK,     /* king on from travels back to move arg, lands on to */
    MOVE_DROP,          /* piece from the pocket lands on to                 */
    MOVE_VARIANT,       /* anything else a game defines; arg says what       */
    MOVE_NULL           /* no action (never legal; used as "none")           */
};

typedef struct Move {
    uint8_t from;   /* origin square, or SQ_NONE                        */
    uint8_t to;     /* destination square, or SQ_NONE                   */
    uint8_t kind;   /* enum MoveKind                                     */
    uint8_t piece;  /* promotion / dropped / arriving piece type         */
    uint32_t arg;   /* the kind's argument: a move number, a history node */
} Move;

static inline Move move_make(Square from, Square to, uint8_t kind, uint8_t piece, uint32_t arg)
{
    Move m = { from, to, kind, piece, arg };
    return m;
}

static inline bool move_equal(Move a, Move b)
{
    return a.from == b.from && a.to == b.to && a.kind == b.kind &&
           a.piece == b.piece && a.arg == b.arg;
}

/* Enough for any position of any of the games (the time-travel games add
 * many hundreds of actions to a chess position: every square times every
 * move number a king may travel to). */
enum { MAX_MOVES = 4096 };

typedef struct MoveList {
    int count;
    Move moves[MAX_MOVES];
} MoveList;

static inline void movelist_add(MoveList *l, Move m)
{
    if (l->count < MAX_MOVES) l->moves[l->count++] = m;
}

#endif
