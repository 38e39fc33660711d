/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The chess board shared by every game: pieces on squares, side to move,
 * castling rights, en passant square, the move counters and the Zobrist
 * key of all of these.  A board may hold any number of kings of either
 * colour, including none: the time-travel games need from zero to three a
 * side.  Change a board only through the functions here (and board_make):
 * they keep the key right.
 */
#ifndef TTCHESS_BOARD_H
#define TTCHESS_BOARD_H

#include "text.h"
#include "types.h"

typedef struct Board {
    Bitboard by_type[7];   /* [0] = every occupied square, [PAWN..KING] */
    Bitboard by_color[2];
    Piece squares[64];
    Color side;            /* side to move                               */
    uint8_t castling;      /* CASTLE_* bits                              */
    Square ep;             /* en passant target square, or SQ_NONE        */
    uint16_t halfmove;     /* plies since the last capture or pawn move   */
    uint16_t fullmove;     /* 1 at the start, +1 after each Black action */
    uint64_t key;          /* Zobrist key: pieces, side, castling, the en
                              passant file whenever ep is set            */
    /* Chess960 (board_from_fen_chess960): castling follows its rules, and
     * castle_rook[i] is the square of the rook that the right 1 << i
     * castles with (a1..h1 or a8..h8).  A right is lost when that rook
     * or its king moves or is taken, so within a game the rook of a right
     * never changes, and the key of the rights alone still tells
     * positions apart.  False, and castle_rook unused, for every other
     * board: standard chess keeps its rules and its speed. */
    bool chess960;
    Square castle_rook[4];
} Board;

#define STARTPOS_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

void board_clear(Board *b);
void board_put(Board *b, Square s, Piece p);
void board_remove(Board *b, Square s);
void board_set_castling(Board *b, uint8_t rights);
void board_set_ep(Board *b, Square ep);
/* Ends the turn of an action that is not a chess move (a time travel, a
 * drop): no en passant right, the move number advances after Black, the
 * other side moves; the half-move clock is reset when `reset_clock`,
 * else advanced. */
void board_end_turn(Board *b, bool reset_clock);
/* The key computed from nothing (tests compare it with the kept one). */
uint64_t board_compute_key(const Board *b);

static inline Bitboard board_pieces(const Board *b, Color c, PieceType t)
{
    return b->by_type[t] & b->by_color[c];
}
static inline Bitboard board_occupied(const Board *b) { return b->by_type[0]; }
static inline Bitboard board_kings(const Board *b, Color c) { return board_pieces(b, c, KING); }

/* Every square from which a piece of colour `by` attacks `s` given the
 * occupancy `occ` (pass board_occupied for the current one). */
Bitboard board_attackers(const Board *b, Square s, Color by, Bitboard occ);
bool board_square_attacked(const Board *b, Square s, Color by);
/* Every square attacked by colour `by` (with the present occupancy). */
Bitboard board_attacked_squares(const Board *b, Color by);
/* Is any king of colour c attacked?  A side without a king is never in check. */
bool board_in_check(const Board *b, Color c);
/* Pieces of the opponent of c giving check to c's king, for a side with exactly one king. */
Bitboard board_checkers(const Board *b, Color c);

/* FEN.  board_from_fen parses the first six fields of `fen` (the last
 * two may be left out); on failure it writes a sentence saying what is
 * wrong into err and returns false.  If `rest` is not NULL it receives a
 * pointer to whatever follows (variants extend FEN with fields of their
 * own); otherwise anything after the six fields is an error.  The board
 * may hold any number of kings: each variant checks its own limits. */
bool board_from_fen(Board *b, const char *fen, const char **rest, Text *err);
/* The same for a game where pawns may stand on their own first rank
 * (Chessgi drops them there), when `first_rank_pawns`. */
bool board_from_fen_pawns(Board *b, const char *fen, const char **rest, bool first_rank_pawns, Text *err);
/* The same for Chess960: the castling field is X-FEN (KQkq for the
 * outermost rook on that side of the king, a file letter, "HAha", for
 * another one) or Shredder-FEN (file letters only); the board is marked
 * chess960.  Pawns never stand on their first rank. */
bool board_from_fen_chess960(Board *b, const char *fen, const char **rest, Text *err);
/* A chess960 board's castling field is X-FEN: KQkq where they name the
 * outermost rook, a file letter where they would not. */
void board_to_fen(const Board *b, Text *out);

/* Parses a square name such as "e4"; returns SQ_NONE if it is not one. */
Square square_parse(const char *s);
/* Writes the square's name (two characters and a terminator) to buf. */
void square_name(Square s, char buf[3]);
char piece_letter(PieceType t);          /* 'P','N','B','R','Q','K'     */
PieceType piece_type_from_letter(char c); /* accepts either case; NO_TYPE if none */
const char *piece_type_name(PieceType t);  /* "pawn", "knight", ...    */
const char *color_name(Color c);           /* "white", "black"         */

bool board_equal(const Board *a, const Board *b); /* same pieces, side, castling, ep */

#endif
