/* SPDX-License-Identifier: GPL-3.0-or-later
 * Standard chess (FIDE rules), the first variant. */
#include "bitboard.h"
#include "chess.h"
#include "rules.h"
#include "movegen.h"
#include "notation.h"

/* ---- The variant -------------------------------------------------------- */

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

/* Positions worth trying (Variant.samples): the bench's, with their
 * depths, then starts for the fuzz harnesses. */
static const SamplePosition CHESS_SAMPLES[] = {
    { NULL, NULL, NULL, 12 },
    { "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", NULL, NULL, 10 },
    { "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", NULL, NULL, 0 },
    /* Black to move at the root: both sides promote. */
    { "4k3/P7/8/8/8/8/6p1/4K3 b - - 0 1", NULL, NULL, 0 },
    { NULL, "e4 e5 Nf3 Nc6", NULL, 0 },
    /* Perft positions 3, 4 and 5 of the Chess Programming Wiki: pins and
     * checks along a rank, castling and promotion under fire. */
    { "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", NULL, NULL, 0 },
    { "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", NULL, NULL, 0 },
    { "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", NULL, NULL, 0 },
    /* The knights out and back: the position after 2.Nf3 stands a second time. */
    { NULL, "e4 e5 Nf3 Nc6 Ng1 Nb8 Nf3", NULL, 0 },
    /* Two plies short of the fifty-move rule, castling still allowed. */
    { "6k1/8/8/8/8/8/8/R3K2R w KQ - 98 60", NULL, NULL, 0 },
    /* Qc7 stalemates. */
    { "k7/8/1Q6/8/8/8/8/7K w - - 0 1", NULL, NULL, 0 },
    /* White promotes with or without a capture (a8, axb8), Black on b1. */
    { "1n2k3/P7/8/8/8/8/1p6/4K3 w - - 0 1", NULL, NULL, 0 },
    /* White may take en passant (exd6). */
    { NULL, "e4 a6 e5 d5", NULL, 0 },
};

const Variant VARIANT_CHESS = {
    .name = "chess",
    .title = "Standard",
    .evaluator = &EVAL_CHESS,
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
    .samples = CHESS_SAMPLES,
    .sample_count = sizeof CHESS_SAMPLES / sizeof CHESS_SAMPLES[0],
};

/* Chess960 (Fischer random chess): the same game from one of 960 starts,
 * whose castling follows its own rules (movegen.c) and is written king
 * takes own rook (e1h1), as UCI engines write it.  It is not in the
 * registry's list of games: only the UCI engine plays it, when a GUI
 * sets UCI_Chess960 (docs/engine.md); the server, the page and the
 * records know standard chess alone. */
const Variant VARIANT_CHESS960 = {
    .name = "chess960",
    .title = "Chess960",
    .evaluator = &EVAL_CHESS,
    .start_fen = STARTPOS_FEN,
    .ext_size = 0,
    .from_fen = chess960_from_fen,
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
