/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The chess evaluation every game builds on (eval.h): material, tapered
 * piece-square tables, mobility, pawn structure, rooks on files, the
 * bishop pair, and the safety of every king of each side (the time-travel
 * games can have none, one or several a side).  All from White's point of
 * view, turned to the side to move at the end.
 */
#include <stdlib.h>

#include "attacks.h"
#include "eval.h"

/* Every weight of the board's evaluation, by name (docs/engine.md). */
const ChessWeights CHESS_WEIGHTS = {
    .material = { { 0, 0 }, { 90, 110 }, { 330, 310 }, { 345, 330 }, { 480, 540 }, { 980, 1000 }, { 0, 0 } },
    .mobility = { { 0, 0 }, { 0, 0 }, { 4, 4 }, { 5, 5 }, { 2, 5 }, { 1, 3 }, { 0, 0 } },
    .doubled_pawn = { -10, -22 },
    .isolated_pawn = { -12, -14 },
    .backward_pawn = { -6, -8 },
    .passed_pawn = { { 0, 0 }, { 4, 12 }, { 6, 18 }, { 12, 32 }, { 24, 56 }, { 45, 95 }, { 70, 140 }, { 0, 0 } },
    .bishop_pair = { 30, 50 },
    .rook_open_file = { 25, 12 },
    .rook_half_open_file = { 12, 6 },
    .king_shield = { 12, 0 },
    .king_attack = { -9, -2 },
    .tempo = { 12, 6 },
};

/* How far a square is from the centre, 0 (d4, e4, d5, e5) to 3 (a corner
 * file or rank): the tables below are built from it, so that their shape
 * says what they mean. */
static int edge_distance(Square s)
{
    int f = square_file(s), r = square_rank(s);
    int df = f < 4 ? 3 - f : f - 4, dr = r < 4 ? 3 - r : r - 4;
    return df > dr ? df : dr;
}

/* Piece-square values for a white piece on s (Black's are mirrored).
 * Written as rules rather than 64-entry tables: knights and bishops want
 * the centre, pawns want to advance (in the centre early), rooks the
 * seventh rank, queens a little centre, kings shelter early and the
 * centre late. */
static Taper square_value(PieceType t, Square s)
{
    int f = square_file(s), r = square_rank(s), d = edge_distance(s);
    int centre_file = f >= 2 && f <= 5;
    switch (t) {
    case PAWN: return (Taper){ (r - 1) * 3 + (centre_file && r >= 3 ? 8 : 0), (r - 1) * 8 };
    case KNIGHT: return (Taper){ 12 - 8 * d, 8 - 6 * d };
    case BISHOP: return (Taper){ 8 - 4 * d, 6 - 4 * d };
    case ROOK: return (Taper){ r == 6 ? 15 : 0, r == 6 ? 10 : 0 };
    case QUEEN: return (Taper){ 4 - 2 * d, 8 - 4 * d };
    case KING: return (Taper){ r == 0 ? (f == 1 || f == 6 ? 20 : f == 2 ? 10 : 0) : -12 * r, 20 - 10 * d };
    default: return (Taper){ 0, 0 };
    }
}


static Bitboard file_of(int f) { return FILE_A << f; }

static Bitboard adjacent_files(int f)
{
    return (f > 0 ? file_of(f - 1) : 0) | (f < 7 ? file_of(f + 1) : 0);
}

/* Squares in front of s from c's side, on its file and the two beside it. */
static Bitboard front_span(Color c, Square s)
{
    int f = square_file(s), r = square_rank(s);
    Bitboard files = file_of(f) | adjacent_files(f);
    Bitboard ahead = c == WHITE ? (r == 7 ? 0 : ~0ULL << (8 * (r + 1))) : (r == 0 ? 0 : ~0ULL >> (8 * (8 - r)));
    return files & ahead;
}

static void add(Taper *a, Taper b, int times)
{
    a->mg += b.mg * times;
    a->eg += b.eg * times;
}

static void evaluate_pawns(const Board *b, Color c, const ChessWeights *w, Taper *score)
{
    Bitboard ours = board_pieces(b, c, PAWN), theirs = board_pieces(b, (Color)!c, PAWN);
    Bitboard rest = ours;
    while (rest) {
        Square s = bb_pop(&rest);
        int f = square_file(s), r = square_rank(s);
        int rank_from_side = c == WHITE ? r : 7 - r;
        if (bb_many(ours & file_of(f))) add(score, w->doubled_pawn, 1);
        if (!(ours & adjacent_files(f))) add(score, w->isolated_pawn, 1);
        else if (!(front_span((Color)!c, s) & ours & adjacent_files(f)) &&
                 (pawn_attacks(c, (Square)(c == WHITE ? s + 8 : s - 8)) & theirs))
            add(score, w->backward_pawn, 1);
        if (!(front_span(c, s) & theirs)) add(score, w->passed_pawn[rank_from_side], 1);
    }
}

/* The squares around every king of colour c. */
static Bitboard king_zone(const Board *b, Color c)
{
    Bitboard zone = 0, kings = board_kings(b, c);
    while (kings) zone |= king_attacks(bb_pop(&kings));
    return zone;
}

static void evaluate_pieces(const Board *b, Color c, const ChessWeights *w, Taper *score, Bitboard *attacks)
{
    Bitboard occ = board_occupied(b), own = b->by_color[c];
    Bitboard enemy_pawn_attacks = 0, ep = board_pieces(b, (Color)!c, PAWN);
    while (ep) enemy_pawn_attacks |= pawn_attacks((Color)!c, bb_pop(&ep));
    Bitboard enemy_zone = king_zone(b, (Color)!c);
    int attackers = 0;
    for (PieceType t = KNIGHT; t <= QUEEN; t++) {
        Bitboard pieces = board_pieces(b, c, t);
        while (pieces) {
            Square s = bb_pop(&pieces);
            Bitboard a = piece_attacks(t, s, occ);
            *attacks |= a;
            if (a & enemy_zone) attackers++;
            if (enemy_pawn_attacks & BB(s)) add(score, w->pawn_threat, 1);
            /* Mobility counts the squares a piece could go to that no enemy pawn guards. */
            add(score, w->mobility[t], bb_count(a & ~own & ~enemy_pawn_attacks) - 3);
            if (t == ROOK) {
                Bitboard file = file_of(square_file(s));
                if (!(file & b->by_type[PAWN])) add(score, w->rook_open_file, 1);
                else if (!(file & board_pieces(b, c, PAWN))) add(score, w->rook_half_open_file, 1);
            }
        }
    }
    Bitboard pawns = board_pieces(b, c, PAWN);
    while (pawns) *attacks |= pawn_attacks(c, bb_pop(&pawns));
    Bitboard kings = board_kings(b, c);
    while (kings) *attacks |= king_attacks(bb_pop(&kings));
    if (bb_many(board_pieces(b, c, BISHOP))) add(score, w->bishop_pair, 1);
    add(score, w->king_attackers[attackers < 7 ? attackers : 7], 1);
}

/* Every king of colour c: the pawns in front of it, the files beside it
 * with none of its own pawns (open to the enemy's rooks), the enemy pawns
 * coming at it (a storm: nearer is worse), and the enemy's attacks on the
 * squares around it. */
static void evaluate_kings(const Board *b, Color c, Bitboard enemy_attacks, const ChessWeights *w, Taper *score)
{
    Bitboard kings = board_kings(b, c), pawns = board_pieces(b, c, PAWN);
    Bitboard enemy_pawns = board_pieces(b, (Color)!c, PAWN);
    while (kings) {
        Square k = bb_pop(&kings);
        Bitboard zone = king_attacks(k);
        Bitboard shield = zone & front_span(c, k) & pawns;
        add(score, w->king_shield, bb_count(shield));
        add(score, w->king_attack, bb_count(zone & enemy_attacks));
        int f = square_file(k);
        for (int g = f > 0 ? f - 1 : 0; g <= f + 1 && g < 8; g++)
            if (!(file_of(g) & pawns)) add(score, w->king_open_file, 1);
        Bitboard storm = front_span(c, k) & enemy_pawns;
        while (storm) add(score, w->pawn_storm[abs(square_rank(bb_pop(&storm)) - square_rank(k))], 1);
    }
}

int eval_phase(const Board *b)
{
    int p = bb_count(b->by_type[KNIGHT] | b->by_type[BISHOP]) + 2 * bb_count(b->by_type[ROOK]) +
            4 * bb_count(b->by_type[QUEEN]);
    return p > PHASE_MAX ? PHASE_MAX : p;
}

int eval_piece_value(PieceType t) { return CHESS_WEIGHTS.material[t].mg; }

int eval_due_value(PieceType t, const DueValue *d, int moves_away)
{
    int percent = d->now_percent - d->per_move * (moves_away > 0 ? moves_away : 0);
    if (percent < d->min_percent) percent = d->min_percent;
    return eval_piece_value(t) * percent / 100;
}

Taper chess_eval_terms(const Board *b, const ChessWeights *w, int *phase)
{
    Taper side[2] = { { 0, 0 }, { 0, 0 } };
    for (Color c = WHITE; c <= BLACK; c++) {
        for (PieceType t = PAWN; t <= KING; t++) {
            Bitboard pieces = board_pieces(b, c, t);
            add(&side[c], w->material[t], bb_count(pieces));
            while (pieces) {
                Square s = bb_pop(&pieces), white_s = c == WHITE ? s : (Square)(s ^ 56);
                add(&side[c], w->square_tables ? w->square[t][white_s] : square_value(t, white_s), 1);
            }
        }
        evaluate_pawns(b, c, w, &side[c]);
    }
    Bitboard attacks[2] = { 0, 0 };
    for (Color c = WHITE; c <= BLACK; c++) evaluate_pieces(b, c, w, &side[c], &attacks[c]);
    for (Color c = WHITE; c <= BLACK; c++) evaluate_kings(b, c, attacks[!c], w, &side[c]);
    add(&side[b->side], w->tempo, 1);
    *phase = eval_phase(b);
    return (Taper){ side[WHITE].mg - side[BLACK].mg, side[WHITE].eg - side[BLACK].eg };
}

int chess_eval_board(const Board *b, const ChessWeights *w)
{
    int phase;
    Taper diff = chess_eval_terms(b, w ? w : &CHESS_WEIGHTS, &phase);
    int score = taper_blend(diff, phase);
    return b->side == WHITE ? score : -score;
}
