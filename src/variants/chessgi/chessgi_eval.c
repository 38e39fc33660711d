/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The evaluation of Chessgi and Time Travel Chessgi (eval.h): the board,
 * the pieces in hand, and the travellers.  A piece in hand can be dropped
 * anywhere, so it is worth about as much as on the board (a pawn a little
 * more: it can land on its own first rank and blocks or mates); the
 * enemy's pieces in hand weigh on every king, for a drop next to a king is
 * how most Chessgi games end.  A traveller is valued by how soon it is
 * due; a king traveller is a risk, for if it cannot be dropped when due
 * its side loses (docs/rules/chessgi.md).
 */
#include "attacks.h"
#include "chessgi.h"
#include "eval.h"

typedef struct ChessgiWeights {
    int pocket_percent[KING];   /* a piece in hand, per cent of its board value */
    int pocket_king_danger;     /* per enemy piece in hand (not pawns), per empty
                                   square next to a king                          */
    DueValue traveller;         /* a traveller, by when it is due                 */
    int king_traveller;         /* a king on its way (a cost)                    */
} ChessgiWeights;

static const ChessgiWeights CHESSGI_WEIGHTS = {
    .pocket_percent = { 0, 115, 100, 100, 100, 100 },
    .pocket_king_danger = 3,
    .traveller = { .now_percent = 90, .per_move = 5, .min_percent = 40 },
    .king_traveller = 80,
};

static int side_value(const State *s, Color c)
{
    const ChessgiWeights *w = &CHESSGI_WEIGHTS;
    const ChessgiState *g = chessgi_cstate(s);
    const Board *b = &s->board;
    int value = 0, enemy_pieces = 0;
    for (PieceType t = PAWN; t < KING; t++) {
        value += g->pocket[c][t] * eval_piece_value(t) * w->pocket_percent[t] / 100;
        if (t != PAWN) enemy_pieces += g->pocket[!c][t];
    }
    /* Drops next to a king: the more empty squares around it and the more
     * enemy pieces in hand, the more danger. */
    Bitboard kings = board_kings(b, c);
    while (kings) {
        Square k = (Square)__builtin_ctzll(kings);
        kings &= kings - 1;
        Bitboard around = king_attacks(k) & ~board_occupied(b);
        value -= w->pocket_king_danger * enemy_pieces * bb_count(around);
    }
    for (int i = 0; i < g->travellers[c]; i++) {
        const ChessgiTraveller *t = &g->traveller[c][i];
        if (t->type == KING) {
            value -= w->king_traveller;
            continue;
        }
        value += eval_due_value(t->type, &w->traveller, (int)t->due - b->fullmove);
    }
    return value;
}

static int chessgi_evaluate(const Line *l)
{
    const State *s = line_state(l);
    Color us = s->board.side;
    return chess_eval_board(&s->board, NULL) + side_value(s, us) - side_value(s, (Color)!us);
}

static bool one_king_to_move(const Line *l)
{
    const Board *b = line_board(l);
    return bb_count(board_kings(b, b->side)) == 1;
}

/* With time travel a pass would change when travellers are due, and the
 * positions a general travel can reach: only with no traveller at all. */
static bool chessgi_null_move_ok(const Line *l)
{
    const ChessgiState *g = chessgi_cstate(line_state(l));
    return one_king_to_move(l) && g->travellers[WHITE] == 0 && g->travellers[BLACK] == 0;
}

const Evaluator EVAL_CHESSGI_CLASSIC = { "chessgi-classic", chessgi_evaluate, one_king_to_move, NULL, true, 0, NULL, true };
const Evaluator EVAL_CHESSGI = { "chessgi", chessgi_evaluate, chessgi_null_move_ok, NULL, true, 0, NULL, false };
