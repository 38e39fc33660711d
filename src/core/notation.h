/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Standard chess notation: coordinate moves (e2e4, e7e8q, e1g1) and SAN
 * (Nf3, exd5, e8=Q+, O-O, also 0-0 and o-o).  The variants build their own
 * notations on these two. */
#ifndef TTCHESS_NOTATION_H
#define TTCHESS_NOTATION_H

#include "board.h"

/* SAN of a legal chess move; `legal` disambiguates; suffix is '+', '#' or 0. */
void san_format(const Board *b, const MoveList *legal, Move m, char suffix, Text *out);

/* Reads one chess move in coordinate form or SAN.  `legal` holds the
 * moves the game allows (a variant may allow fewer or more than chess).
 * On failure writes what is wrong, e.g. "no knight can reach f6",
 * "that would leave the white king in check", and returns false. */
bool chess_parse_move(const Board *b, const MoveList *legal, const char *text, Move *out, Text *err);

/* Small readers the variants' notations are made of: each reads one item
 * at *p and moves *p past it, or fails and leaves *p where it was. */
/* An upper-case piece letter (PNBRQK); NO_TYPE if there is none. */
PieceType notation_read_piece(const char **p);
/* A square name such as "e4". */
bool notation_read_square(const char **p, Square *s);
/* A whole number of one to six digits, not followed by another digit. */
bool notation_read_number(const char **p, int *n);

/* Copies text without move annotations: check and mate marks, !/? marks,
 * footnote stars, white space and trailing dots.  Returns false if nothing
 * is left or the rest does not fit in buf (buf is then empty). */
bool notation_strip(const char *text, char *buf, size_t len);

#endif
