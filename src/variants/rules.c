/* SPDX-License-Identifier: GPL-3.0-or-later
 * The pieces of the chess rules that the variants share (rules.h). */
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "rules.h"
#include "movegen.h"
#include "notation.h"

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

Outcome standard_outcome(const Line *l, int legal_count, bool dead_position)
{
    const Board *b = line_board(l);
    if (legal_count == 0) {
        if (line_in_check(l)) return outcome_make(result_loss_for(b->side), REASON_CHECKMATE, SIDE_NONE);
        return outcome_make(RESULT_DRAW, REASON_STALEMATE, SIDE_NONE);
    }
    if (dead_position) return outcome_make(RESULT_DRAW, REASON_INSUFFICIENT_MATERIAL, SIDE_NONE);
    if (b->halfmove >= 100) return outcome_make(RESULT_DRAW, REASON_FIFTY_MOVES, SIDE_NONE);
    if (line_repetitions(l) >= 2) return outcome_make(RESULT_DRAW, REASON_REPETITION, SIDE_NONE);
    return outcome_none();
}

bool same_pieces_side_castling(const Board *a, const Board *b)
{
    return !memcmp(a->squares, b->squares, sizeof a->squares) && a->side == b->side && a->castling == b->castling;
}

bool chess_same_board_position(const Board *a, const Board *b)
{
    if (!same_pieces_side_castling(a, b)) return false;
    Square ea = board_ep_capture_legal(a) ? a->ep : SQ_NONE;
    Square eb = board_ep_capture_legal(b) ? b->ep : SQ_NONE;
    return ea == eb;
}

bool fen_side_not_to_move_safe(const Board *b, Text *err)
{
    Color other = (Color)!b->side;
    if (!board_in_check(b, other)) return true;
    return text_fail(err, "bad FEN: %s is in check, but %s is to move (that position cannot arise)",
                     color_name(other), color_name(b->side));
}

size_t fen_next_field(const char **p, const char **start)
{
    while (**p == ' ' || **p == '\t' || **p == '\r' || **p == '\n') (*p)++;
    *start = *p;
    while (**p && !strchr(" \t\r\n", **p)) (*p)++;
    return (size_t)(*p - *start);
}

State *state_new(size_t ext_size, Text *err)
{
    State *s = calloc(1, offsetof(State, ext) + ext_size);
    if (!s) {
        text_fail(err, "out of memory");
        return NULL;
    }
    s->ext_size = (uint32_t)ext_size;
    return s;
}

bool legal_actions(const Line *l, MoveList *out, Text *err)
{
    movelist_init(out);
    if (line_generate(l, out)) return true;
    movelist_free(out);
    return err ? text_fail(err, "out of memory") : false;
}

bool accept_if_legal(const Line *l, Move m, void (*explain)(const Line *l, Move m, Text *err), Move *out, Text *err)
{
    bool legal;
    if (!line_is_legal(l, m, &legal)) return text_fail(err, "out of memory");
    if (legal) {
        *out = m;
        return true;
    }
    explain(l, m, err);
    return false;
}

bool legal_count(const Line *l, int *count)
{
    MoveList list;
    if (!legal_actions(l, &list, NULL)) return false;
    *count = list.count;
    movelist_free(&list);
    return true;
}

bool san_in_line(const Line *l, Move m, Text *out)
{
    MoveList list;
    char mark;
    if (!legal_actions(l, &list, NULL)) return false;
    bool ok = line_check_mark(l, m, &mark);
    if (ok) san_format(line_board(l), &list, m, mark, out);
    movelist_free(&list);
    return ok && !out->failed;
}
