/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The chess evaluation every game builds on (eval.h): material, tapered
 * piece-square tables, mobility, pawn structure and passed pawns, rooks on
 * files, the bishop pair, outposts, threats to pieces, and the safety of
 * every king of each side (the time-travel games can have none, one or
 * several a side).  All from White's point of view, turned to the side
 * to move at the end.
 */
#include <stdlib.h>
#include <string.h>

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

/* Steps between two squares for a king: the larger of the file and rank
 * distances. */
static int king_steps(Square a, Square b)
{
    int df = abs(square_file(a) - square_file(b)), dr = abs(square_rank(a) - square_rank(b));
    return df > dr ? df : dr;
}

/* Steps from the nearest king of `kings` to s, at most 5 (a king further
 * away is as late as one 5 steps away); -1 where there is no king. */
static int nearest_king_steps(Bitboard kings, Square s)
{
    int best = -1;
    while (kings) {
        int d = king_steps(bb_pop(&kings), s);
        if (best < 0 || d < best) best = d;
    }
    return best > 5 ? 5 : best;
}

/* A passed pawn of c on s, `rank` its rank from c's side: what it is worth
 * beyond its rank's value in the end game is whether its next square is
 * free and which king is nearer to that square. */
static void evaluate_passer(const Board *b, Color c, Square s, int rank, const ChessWeights *w, Taper *score)
{
    add(score, w->passed_pawn[rank], 1);
    if (!w->extended_terms) return;
    Square next = (Square)(c == WHITE ? s + 8 : s - 8);
    if (!(board_occupied(b) & BB(next))) add(score, w->passed_free[rank], 1);
    int own = nearest_king_steps(board_kings(b, c), next), enemy = nearest_king_steps(board_kings(b, (Color)!c), next);
    if (own >= 0) add(score, w->passed_own_king[rank], own);
    if (enemy >= 0) add(score, w->passed_enemy_king[rank], enemy);
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
        Bitboard beside = adjacent_files(f) & (RANK_1 << (8 * r));
        if (w->extended_terms && (ours & (beside | pawn_attacks((Color)!c, s))))
            add(score, w->connected_pawn[rank_from_side], 1);
        if (!(front_span(c, s) & theirs)) evaluate_passer(b, c, s, rank_from_side, w, score);
    }
}

/* The squares around every king of colour c. */
static Bitboard king_zone(const Board *b, Color c)
{
    Bitboard zone = 0, kings = board_kings(b, c);
    while (kings) zone |= king_attacks(bb_pop(&kings));
    return zone;
}

/* What the pieces of each side attack, by type ([c][0]: every type),
 * gathered by evaluate_pieces for the terms that set one side's attacks
 * against the other's pieces and kings (threats, king danger), which can
 * only be counted once both sides' attacks are known. */
typedef struct AttackMaps {
    Bitboard by[2][KING + 1];
    int zone_units[2];   /* attack units of c's pieces on the squares around the other side's kings */
} AttackMaps;

/* The attack units a piece of each type brings to a king's zone, and
 * those of each safe check: the king danger's table is indexed by their
 * sum, so that a queen and a rook near a king weigh more than two
 * knights, as in most chess engines' king safety. */
static const int ZONE_UNITS[KING + 1] = { 0, 0, 2, 2, 3, 5, 0 };
enum { CHECK_UNITS = 3 };

/* A piece's value for the squares it can go to, from the table of its
 * type (the last entry for any count beyond). */
static Taper mobility_value(const ChessWeights *w, PieceType t, int n)
{
    switch (t) {
    case KNIGHT: return w->knight_mobility[n < 8 ? n : 8];
    case BISHOP: return w->bishop_mobility[n < 13 ? n : 13];
    case ROOK: return w->rook_mobility[n < 14 ? n : 14];
    case QUEEN: return w->queen_mobility[n < 27 ? n : 27];
    default: return (Taper){ 0, 0 };
    }
}

/* A knight or bishop of c on s that an own pawn defends, on the fourth
 * to sixth rank from c's side, where no enemy pawn can come to attack it. */
static bool on_outpost(Color c, Square s, Bitboard own_pawns, Bitboard enemy_pawns)
{
    int rank = c == WHITE ? square_rank(s) : 7 - square_rank(s);
    if (rank < 3 || rank > 5) return false;
    return (pawn_attacks((Color)!c, s) & own_pawns) && !(front_span(c, s) & adjacent_files(square_file(s)) & enemy_pawns);
}

/* What a knight or bishop adds beyond its mobility: an outpost, and for a
 * bishop the own pawns on its colour, which block it. */
static void evaluate_minor(Color c, PieceType t, Square s, Bitboard own_pawns, Bitboard enemy_pawns,
                           const ChessWeights *w, Taper *score)
{
    if (on_outpost(c, s, own_pawns, enemy_pawns)) add(score, w->outpost[t], 1);
    if (t == BISHOP) {
        Bitboard colour = square_is_dark(s) ? DARK_SQUARES : ~DARK_SQUARES;
        add(score, w->bishop_pawns, bb_count(own_pawns & colour));
    }
}

static void evaluate_pieces(const Board *b, Color c, const ChessWeights *w, Taper *score, AttackMaps *maps)
{
    Bitboard occ = board_occupied(b), own = b->by_color[c];
    Bitboard own_pawns = board_pieces(b, c, PAWN), enemy_pawns = board_pieces(b, (Color)!c, PAWN);
    Bitboard enemy_pawn_attacks = 0, ep = enemy_pawns;
    while (ep) enemy_pawn_attacks |= pawn_attacks((Color)!c, bb_pop(&ep));
    Bitboard enemy_zone = king_zone(b, (Color)!c);
    int attackers = 0;
    for (PieceType t = KNIGHT; t <= QUEEN; t++) {
        Bitboard pieces = board_pieces(b, c, t);
        while (pieces) {
            Square s = bb_pop(&pieces);
            Bitboard a = piece_attacks(t, s, occ);
            maps->by[c][t] |= a;
            if (a & enemy_zone) {
                attackers++;
                maps->zone_units[c] += ZONE_UNITS[t];
            }
            if (enemy_pawn_attacks & BB(s)) add(score, w->pawn_threat, 1);
            /* Mobility counts the squares a piece could go to that no enemy pawn guards. */
            int reach = bb_count(a & ~own & ~enemy_pawn_attacks);
            add(score, w->mobility[t], reach - 3);
            if (w->extended_terms) {
                add(score, mobility_value(w, t, reach), 1);
                if (t == KNIGHT || t == BISHOP) evaluate_minor(c, t, s, own_pawns, enemy_pawns, w, score);
            }
            if (t == ROOK) {
                Bitboard file = file_of(square_file(s));
                if (!(file & b->by_type[PAWN])) add(score, w->rook_open_file, 1);
                else if (!(file & own_pawns)) add(score, w->rook_half_open_file, 1);
            }
        }
    }
    Bitboard pawns = own_pawns;
    while (pawns) maps->by[c][PAWN] |= pawn_attacks(c, bb_pop(&pawns));
    Bitboard kings = board_kings(b, c);
    while (kings) maps->by[c][KING] |= king_attacks(bb_pop(&kings));
    for (PieceType t = PAWN; t <= KING; t++) maps->by[c][0] |= maps->by[c][t];
    if (bb_many(board_pieces(b, c, BISHOP))) add(score, w->bishop_pair, 1);
    add(score, w->king_attackers[attackers < 7 ? attackers : 7], 1);
}

/* c's pieces against the other side's: each enemy piece a knight, bishop
 * or rook of c attacks, by its type, and each one c attacks that nothing
 * defends. */
static void evaluate_threats(const Board *b, Color c, const AttackMaps *maps, const ChessWeights *w, Taper *score)
{
    Color them = (Color)!c;
    Bitboard minors = maps->by[c][KNIGHT] | maps->by[c][BISHOP];
    for (PieceType v = PAWN; v <= QUEEN; v++) {
        Bitboard victims = board_pieces(b, them, v);
        add(score, w->threat_by_minor[v], bb_count(victims & minors));
        add(score, w->threat_by_rook[v], bb_count(victims & maps->by[c][ROOK]));
    }
    Bitboard pieces = b->by_color[them] & ~b->by_type[PAWN] & ~b->by_type[KING];
    add(score, w->hanging, bb_count(pieces & maps->by[c][0] & ~maps->by[them][0]));
}

/* c's attack on the other side's kings: the squares around them each of
 * c's piece types attacks, the squares from which each type could check
 * one of them next move without being taken there, and the danger of it
 * all together, from the attack units. */
static void evaluate_king_attack(const Board *b, Color c, const AttackMaps *maps, const ChessWeights *w, Taper *score)
{
    Color them = (Color)!c;
    Bitboard occ = board_occupied(b), zone = king_zone(b, them);
    Bitboard safe = ~maps->by[them][0] & ~b->by_color[c];
    int units = maps->zone_units[c];
    for (PieceType t = PAWN; t <= QUEEN; t++) add(score, w->zone_attack[t], bb_count(zone & maps->by[c][t]));
    Bitboard kings = board_kings(b, them);
    while (kings) {
        Square k = bb_pop(&kings);
        Bitboard diagonal = bishop_attacks(k, occ), straight = rook_attacks(k, occ);
        Bitboard from[KING + 1] = { 0, 0, knight_attacks(k), diagonal, straight, diagonal | straight, 0 };
        for (PieceType t = KNIGHT; t <= QUEEN; t++) {
            int checks = bb_count(from[t] & maps->by[c][t] & safe);
            add(score, w->safe_check[t], checks);
            units += CHECK_UNITS * checks;
        }
    }
    if (board_kings(b, them)) add(score, w->king_danger[units < 31 ? units / 2 : 15], 1);
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
    AttackMaps maps;
    memset(&maps, 0, sizeof maps);
    for (Color c = WHITE; c <= BLACK; c++) evaluate_pieces(b, c, w, &side[c], &maps);
    for (Color c = WHITE; c <= BLACK; c++) {
        evaluate_kings(b, c, maps.by[!c][0], w, &side[c]);
        if (!w->extended_terms) continue;
        evaluate_threats(b, c, &maps, w, &side[c]);
        evaluate_king_attack(b, c, &maps, w, &side[c]);
    }
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
