/* SPDX-License-Identifier: GPL-3.0-or-later
 * Static exchange evaluation of a chess move on the present board (see.c). */
#ifndef TTCHESS_SEE_H
#define TTCHESS_SEE_H

#include "board.h"

/* What the move wins in centipawns once every capture on its square has
 * been made, the cheapest piece first; 0 for an action that is not a
 * chess move. */
int see_value(const Board *b, Move m);

#endif
