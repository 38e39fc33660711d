/* SPDX-License-Identifier: GPL-3.0-or-later
 * Standard chess: what its files share (chess.c the rules and notation,
 * chess_fen.c the FEN, chess_eval.c the evaluation, chess_weights.c
 * its weights). */
#ifndef TTCHESS_CHESS_H
#define TTCHESS_CHESS_H

#include "game.h"

/* Reads a chess FEN: one king a side, the side not to move not in check. */
State *chess_from_fen(const Options *o, const char *fen, Text *err);
void chess_to_fen(const Options *o, const State *s, Text *out);
/* The same for Chess960: castling rights in X-FEN or Shredder-FEN. */
State *chess960_from_fen(const Options *o, const char *fen, Text *err);

/* The engine's evaluator of chess (chess_eval.c). */
extern const struct Evaluator EVAL_CHESS;

#endif
