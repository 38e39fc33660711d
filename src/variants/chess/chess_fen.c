/* SPDX-License-Identifier: GPL-3.0-or-later
 * Standard chess and Chess960: their FEN (the board's, with one king a
 * side; Chess960's castling field is X-FEN or Shredder-FEN). */
#include <stdlib.h>

#include "bitboard.h"
#include "chess.h"
#include "rules.h"

/* Chess needs exactly one king a side. */
static bool chess_kings_ok(const Board *b, Text *err)
{
    for (Color c = WHITE; c <= BLACK; c++) {
        int kings = bb_count(board_kings(b, c));
        if (kings != 1)
            return text_fail(err, "bad FEN: %s has %d kings, and chess needs exactly one king a side", color_name(c),
                             kings);
    }
    return true;
}

/* A FEN of chess or of Chess960, read by `read`. */
static State *read_chess_fen(const char *fen, bool (*read)(Board *, const char *, const char **, Text *), Text *err)
{
    State *s = state_new(0, err);
    if (s && read(&s->board, fen, NULL, err) && chess_kings_ok(&s->board, err) &&
        fen_side_not_to_move_safe(&s->board, err))
        return s;
    free(s);
    return NULL;
}

State *chess_from_fen(const Options *o, const char *fen, Text *err)
{
    (void)o;
    return read_chess_fen(fen, board_from_fen, err);
}

State *chess960_from_fen(const Options *o, const char *fen, Text *err)
{
    (void)o;
    return read_chess_fen(fen, board_from_fen_chess960, err);
}

void chess_to_fen(const Options *o, const State *s, Text *out)
{
    (void)o;
    board_to_fen(&s->board, out);
}
