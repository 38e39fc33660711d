/* SPDX-License-Identifier: GPL-3.0-or-later
 * Standard chess (FIDE rules) as the first variant. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "chess_rules.h"
#include "ttchess/game.h"
#include "ttchess/movegen.h"
#include "ttchess/notation.h"

static bool chess_from_fen(State *s, const char *fen, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    return board_from_fen(&s->board, fen, NULL, err, errlen);
}

static void chess_to_fen(const State *s, char *buf, size_t len) { board_to_fen(&s->board, buf, len); }

static void chess_generate(const Game *g, MoveList *out) { gen_legal(game_board(g), out); }

static int chess_apply(const Game *g, Move m, State *next)
{
    next->board = *game_board(g);
    board_make(&next->board, m);
    return g->current;
}

bool chess_insufficient_material(const Board *b)
{
    if (b->by_type[PAWN] | b->by_type[ROOK] | b->by_type[QUEEN]) return false;
    Bitboard minors = b->by_type[KNIGHT] | b->by_type[BISHOP];
    if (bb_count(minors) <= 1) return true;
    /* Only bishops, all on squares of one colour: no mate is possible. */
    if (b->by_type[KNIGHT]) return false;
    Bitboard bishops = b->by_type[BISHOP];
    return (bishops & DARK_SQUARES) == 0 || (bishops & ~DARK_SQUARES) == 0;
}

Outcome chess_board_outcome(const Game *g, int legal_count)
{
    const Board *b = game_board(g);
    if (legal_count == 0) {
        if (board_in_check(b, b->side))
            return outcome_make(b->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, "checkmate");
        return outcome_make(RESULT_DRAW, "stalemate");
    }
    if (game_repetitions(g) >= 2) return outcome_make(RESULT_DRAW, "threefold repetition");
    if (b->halfmove >= 100) return outcome_make(RESULT_DRAW, "fifty-move rule");
    return outcome_make(RESULT_NONE, "");
}

/* Move lists are 32 KiB: they go on the heap, not the stack. */
static MoveList *new_list(const Game *g)
{
    MoveList *l = malloc(sizeof *l);
    if (l) {
        l->count = 0;
        chess_generate(g, l);
    }
    return l;
}

static Outcome chess_outcome(const Game *g)
{
    MoveList *l = new_list(g);
    if (!l) return outcome_make(RESULT_NONE, "");
    Outcome o = chess_board_outcome(g, l->count);
    free(l);
    if (o.result == RESULT_NONE && chess_insufficient_material(game_board(g)))
        o = outcome_make(RESULT_DRAW, "insufficient material");
    return o;
}

bool chess_same_board_position(const Board *a, const Board *b)
{
    if (memcmp(a->squares, b->squares, sizeof a->squares) || a->side != b->side || a->castling != b->castling)
        return false;
    Square ea = board_ep_capture_legal(a) ? a->ep : SQ_NONE;
    Square eb = board_ep_capture_legal(b) ? b->ep : SQ_NONE;
    return ea == eb;
}

static bool chess_same_position(const State *a, const State *b)
{
    return chess_same_board_position(&a->board, &b->board);
}

static bool chess_parse(Game *g, const char *text, Move *out, char *err, size_t errlen)
{
    MoveList *l = new_list(g);
    if (!l) return false;
    bool ok = chess_parse_move(game_board(g), l, text, out, err, errlen);
    free(l);
    return ok;
}

static void chess_coord(const Game *g, Move m, char *buf, size_t len)
{
    (void)g;
    move_to_coord(m, buf, len);
}

static void chess_human(Game *g, Move m, char *buf, size_t len)
{
    MoveList *l = new_list(g);
    if (!l) {
        move_to_coord(m, buf, len);
        return;
    }
    san_format(game_board(g), l, m, game_check_suffix(g, m), buf, len);
    free(l);
}

const Variant VARIANT_CHESS = {
    .name = "chess",
    .title = "Standard",
    .start_fen = STARTPOS_FEN,
    .ext_size = 0,
    .from_fen = chess_from_fen,
    .to_fen = chess_to_fen,
    .generate = chess_generate,
    .apply = chess_apply,
    .outcome = chess_outcome,
    .same_position = chess_same_position,
    .parse_move = chess_parse,
    .format_coord = chess_coord,
    .format_human = chess_human,
    .format_sheet = NULL,
    .note = NULL,
    .describe = NULL,
};
