/* SPDX-License-Identifier: GPL-3.0-or-later
 * Standard chess (FIDE rules) as the first variant, and the pieces of its
 * rules the other variants share (rules.h). */
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "rules.h"
#include "ttchess/movegen.h"
#include "ttchess/notation.h"

/* ---- Shared rules ------------------------------------------------------- */

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

/* ---- The variant -------------------------------------------------------- */

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

static State *chess_from_fen(const Options *o, const char *fen, Text *err)
{
    (void)o;
    State *s = state_new(0, err);
    if (s && board_from_fen(&s->board, fen, NULL, err) && chess_kings_ok(&s->board, err) &&
        fen_side_not_to_move_safe(&s->board, err))
        return s;
    free(s);
    return NULL;
}

static void chess_to_fen(const Options *o, const State *s, Text *out)
{
    (void)o;
    board_to_fen(&s->board, out);
}

static bool chess_generate(const Line *l, MoveList *out) { return gen_legal(line_board(l), out); }

static int chess_apply(const Line *l, Move m, State *next)
{
    next->board = *line_board(l);
    board_make(&next->board, m);
    return line_current(l);
}

static bool chess_in_check(const Line *l)
{
    const Board *b = line_board(l);
    return board_in_check(b, b->side);
}

static bool chess_outcome(const Line *l, Outcome *out)
{
    int count;
    if (!legal_count(l, &count)) return false;
    *out = standard_outcome(l, count, chess_insufficient_material(line_board(l)));
    return true;
}

/* A side with nothing but its king can never give check, let alone mate
 * (docs/rules/chess.md, "Time"): its opponent's flag is then a draw. */
static bool chess_can_win(const Line *l, Color side) { return has_men_besides_kings(line_board(l), side); }

static bool chess_same_position(const State *a, const State *b)
{
    return chess_same_board_position(&a->board, &b->board);
}

static bool chess_parse(const Line *l, const char *text, Move *out, Text *err)
{
    MoveList list;
    if (!legal_actions(l, &list, err)) return false;
    bool ok = chess_parse_move(line_board(l), &list, text, out, err);
    movelist_free(&list);
    return ok;
}

static bool chess_coord(const Line *l, Move m, Text *out)
{
    (void)l;
    move_to_coord(m, out);
    return !out->failed;
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

const Variant VARIANT_CHESS = {
    .name = "chess",
    .title = "Standard",
    .start_fen = STARTPOS_FEN,
    .ext_size = 0,
    .from_fen = chess_from_fen,
    .to_fen = chess_to_fen,
    .generate = chess_generate,
    .apply = chess_apply,
    .in_check = chess_in_check,
    .outcome = chess_outcome,
    .can_win = chess_can_win,
    .same_position = chess_same_position,
    .parse = chess_parse,
    .format_coord = chess_coord,
    .format_human = san_in_line,
};
