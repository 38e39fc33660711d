/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A toy fifth game, for the test that a game is one folder
 * (tests/toy_game/run.sh): chess in which a pawn one step in front of its
 * home rank may also step back to it, onto an empty square.  It lives
 * outside src/variants and joins the library only in a build of its own,
 * made with GAME_DIR_EXTRA=tests/toy_game, which changes no other file:
 * this folder is the whole game, its rules, FEN, notation, evaluation and
 * its line in the registry (toy_game_variants.h).  A step back is a kind
 * of action of its own, and a game in which every pawn of both sides is
 * home again ends in an end of its own: both reach the server and the web
 * page as the data this table gives (kinds, ends), which run.sh checks.
 */
#include <string.h>

#include "bitboard.h"
#include "chess.h"
#include "eval.h"
#include "rules.h"
#include "movegen.h"
#include "notation.h"

/* ---- Rules -------------------------------------------------------------- */

/* The toy game's own kind of action and its own end, described for every
 * client by the table below. */
enum { MOVE_STEP_BACK = MOVE_OWN };

static const ActionKind TOY_KINDS[] = {
    { MOVE_STEP_BACK, "step-back", "step back", true, KIND_NO_TRAVEL, NULL, NULL, false, NULL, "steps back", 1 },
    { 0, NULL, NULL, false, 0, NULL, NULL, false, NULL, NULL, 0 },
};

static const char *const TOY_ENDS[] = { "pawns all home", NULL };

/* The steps back of the side to move that leave its king safe. */
static void gen_steps_back(const Board *b, MoveList *out)
{
    Color us = b->side;
    Bitboard pawns = board_pieces(b, us, PAWN) & (us == WHITE ? RANK_3 : RANK_6);
    while (pawns) {
        Square from = bb_pop(&pawns);
        Square to = (Square)(us == WHITE ? from - 8 : from + 8);
        Move m = move_make(from, to, MOVE_NORMAL, NO_TYPE, 0);
        if (b->squares[to] != NO_PIECE || !move_is_legal(b, m)) continue;
        m.kind = MOVE_STEP_BACK;
        movelist_add(out, m);
    }
}

static bool toy_generate(const Line *l, MoveList *out)
{
    const Board *b = line_board(l);
    if (!gen_legal(b, out)) return false;
    gen_steps_back(b, out);
    return !out->failed;
}

static int toy_apply(const Line *l, Move m, State *next)
{
    next->board = *line_board(l);
    /* On the board a step back is a quiet pawn move. */
    if (m.kind == MOVE_STEP_BACK) m.kind = MOVE_NORMAL;
    board_make(&next->board, m);
    return line_current(l);
}

static bool toy_in_check(const Line *l)
{
    const Board *b = line_board(l);
    return board_in_check(b, b->side);
}

/* Every pawn of both sides on its home rank again, after the start: a
 * draw, the toy game's own end. */
static bool pawns_all_home(const Line *l)
{
    const Board *b = line_board(l);
    Bitboard white = board_pieces(b, WHITE, PAWN), black = board_pieces(b, BLACK, PAWN);
    return line_current(l) > 0 && (white || black) && !(white & ~RANK_2) && !(black & ~RANK_7);
}

static bool toy_outcome(const Line *l, Outcome *out)
{
    if (pawns_all_home(l)) {
        *out = outcome_own(RESULT_DRAW, TOY_ENDS[0], SIDE_NONE);
        return true;
    }
    int count;
    if (!legal_count(l, &count)) return false;
    *out = standard_outcome(l, count, chess_insufficient_material(line_board(l)));
    return true;
}

static bool toy_can_win(const Line *l, Color side) { return has_men_besides_kings(line_board(l), side); }

static bool toy_same_position(const State *a, const State *b)
{
    return chess_same_board_position(&a->board, &b->board);
}

/* ---- Notation: the coordinate form only --------------------------------- */

static bool toy_parse(const Line *l, const char *text, Move *out, Text *err)
{
    MoveList list;
    if (!legal_actions(l, &list, err)) return false;
    bool found = false;
    Text coord = TEXT_INIT;
    for (int i = 0; i < list.count && !found; i++) {
        text_clear(&coord);
        move_to_coord(list.moves[i], &coord);
        if (!strcmp(text_str(&coord), text)) {
            *out = list.moves[i];
            found = true;
        }
    }
    text_free(&coord);
    movelist_free(&list);
    return found || text_fail(err, "'%s' is not a legal move here (write e2e4, e3e2)", text);
}

static bool toy_coord(const Line *l, Move m, Text *out)
{
    (void)l;
    move_to_coord(m, out);
    return !out->failed;
}

/* ---- Evaluation: the board's alone --------------------------------------- */

static int toy_evaluate(const Line *l) { return chess_eval_board(line_board(l), NULL); }

static const Evaluator EVAL_TOY = { "toy", toy_evaluate, NULL, NULL, true, 0, NULL, false };

const Variant VARIANT_TOY = {
    .name = "toy",
    .title = "Toy Chess (pawns step back)",
    .evaluator = &EVAL_TOY,
    .start_fen = STARTPOS_FEN,
    .notation_help = "A pawn one step in front of its home rank may step back to it: e3e2.\n",
    .from_fen = chess_from_fen,
    .to_fen = chess_to_fen,
    .generate = toy_generate,
    .apply = toy_apply,
    .in_check = toy_in_check,
    .outcome = toy_outcome,
    .can_win = toy_can_win,
    .same_position = toy_same_position,
    .kinds = TOY_KINDS,
    .ends = TOY_ENDS,
    .parse = toy_parse,
    .format_coord = toy_coord,
    .format_human = toy_coord,
};
