/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The signs and orders of each game's evaluation terms (src/variants/
 * chess_eval.c, gifford_eval.c, chessgi_eval.c, vangog_eval.c,
 * travelers_eval.c), through the registry evaluator_for.
 *
 * Each check compares two positions that differ in one term only: which
 * one is better for the side the term is about, seen with that side to
 * move and with the other side to move (the order turns round), and the
 * colour mirror of the pair, which must score the same for its side to
 * move.  A term counted with the wrong sign, or a sooner arrival valued
 * below a later one, fails one of them.
 *
 * The games' own terms are measured as the evaluation less the shared
 * chess evaluation of the board (terms_of), so that positions whose
 * boards differ can be compared on those terms alone; the chess terms
 * are measured by evaluating one board twice, once with the term's
 * weight set to zero (chess_term).
 */
#include "support.h"

#include "eval.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static const Evaluator *evaluator_of(const char *variant)
{
    const Variant *v = variant_find(variant);
    assert_non_null(v);
    const Evaluator *e = evaluator_for(v);
    assert_string_equal(e->variant, variant);
    return e;
}

/* The weights of the board's evaluation in a game: chess has its own,
 * fitted (chess_weights.c); every other game the shared ones. */
static const ChessWeights *board_weights(const char *variant)
{
    return strcmp(variant, "chess") == 0 ? &CHESS_TUNED_WEIGHTS : &CHESS_WEIGHTS;
}

/* The evaluation of a position, for its side to move; with `board_only`
 * less the chess evaluation of its board. */
static int evaluate_fen(const char *variant, const char *fen, bool board_only)
{
    const Evaluator *e = evaluator_of(variant);
    Game g;
    game_start(&g, variant, fen);
    Line l;
    line_open(&l, &g, game_current(&g));
    int v = e->evaluate(&l);
    line_close(&l);
    if (board_only) v -= chess_eval_board(game_board(&g), board_weights(variant));
    game_free(&g);
    return v;
}

static int eval_of(const char *variant, const char *fen) { return evaluate_fen(variant, fen, false); }

/* What the game's own terms add to the chess evaluation of the board. */
static int terms_of(const char *variant, const char *fen) { return evaluate_fen(variant, fen, true); }

/* `better` must score above `worse`, naming both when it does not. */
static void assert_above(int better, int worse, const char *what, const char *fen_better, const char *fen_worse)
{
    if (better <= worse)
        fail_msg("%s: %s scores %d, not above %s at %d", what, fen_better, better, fen_worse, worse);
}

/* The game's terms of `good` are better than those of `bad` for White:
 * with White to move (fields "w") the side to move prefers `good`, with
 * Black to move ("b") it prefers `bad`.  Each is a printf format with one
 * %c for the side to move (and nothing else). */
static void assert_terms_favour_white(const char *variant, const char *good, const char *bad, const char *what)
{
    char g[256], b[256];
    for (int i = 0; i < 2; i++) {
        char side = i ? 'b' : 'w';
        snprintf(g, sizeof g, good, side);
        snprintf(b, sizeof b, bad, side);
        int vg = terms_of(variant, g), vb = terms_of(variant, b);
        if (side == 'w') assert_above(vg, vb, what, g, b);
        else assert_above(vb, vg, what, b, g);
    }
}

/* Two positions that are each other's colour mirror score the same for
 * their side to move, in the full evaluation and in the game's terms. */
static void assert_mirror(const char *variant, const char *fen, const char *mirror)
{
    int a = eval_of(variant, fen), b = eval_of(variant, mirror);
    if (a != b) fail_msg("%s scores %d but its mirror %s %d", fen, a, mirror, b);
    assert_int_equal(terms_of(variant, fen), terms_of(variant, mirror));
}

/* ------------------------------------------------------------------ */
/* Chess: each term of the shared board evaluation                     */
/* ------------------------------------------------------------------ */

/* Sets one term's weights to zero. */
typedef void (*ZeroTerm)(ChessWeights *w);

static void zero_material(ChessWeights *w) { memset(w->material, 0, sizeof w->material); }
static void zero_mobility(ChessWeights *w) { memset(w->mobility, 0, sizeof w->mobility); }
static void zero_doubled(ChessWeights *w) { w->doubled_pawn = (Taper){ 0, 0 }; }
static void zero_isolated(ChessWeights *w) { w->isolated_pawn = (Taper){ 0, 0 }; }
static void zero_backward(ChessWeights *w) { w->backward_pawn = (Taper){ 0, 0 }; }
static void zero_passed(ChessWeights *w) { memset(w->passed_pawn, 0, sizeof w->passed_pawn); }
static void zero_bishop_pair(ChessWeights *w) { w->bishop_pair = (Taper){ 0, 0 }; }
static void zero_rook_files(ChessWeights *w)
{
    w->rook_open_file = (Taper){ 0, 0 };
    w->rook_half_open_file = (Taper){ 0, 0 };
}
static void zero_king_shield(ChessWeights *w) { w->king_shield = (Taper){ 0, 0 }; }
static void zero_king_attack(ChessWeights *w) { w->king_attack = (Taper){ 0, 0 }; }
static void zero_tempo(ChessWeights *w) { w->tempo = (Taper){ 0, 0 }; }

/* What one term adds to the chess evaluation of a board, for its side to
 * move. */
static int chess_term(const char *fen, ZeroTerm zero)
{
    Board b;
    parse_ok(&b, fen);
    ChessWeights w = CHESS_WEIGHTS;
    zero(&w);
    return chess_eval_board(&b, NULL) - chess_eval_board(&b, &w);
}

/* The term's value for White on the board `placement` (White to move),
 * checked to be exactly the negation with Black to move and the same on
 * the colour mirror `mirror` (Black to move there); the chess evaluator
 * of the registry must be the board's evaluation, with the bare king's
 * term (test_chess_mop_up) where there is one. */
static int white_term(const char *placement, const char *mirror, ZeroTerm zero)
{
    char w[128], b[128], m[128];
    snprintf(w, sizeof w, "%s w - - 0 1", placement);
    snprintf(b, sizeof b, "%s b - - 0 1", placement);
    snprintf(m, sizeof m, "%s b - - 0 1", mirror);
    int white = chess_term(w, zero);
    if (chess_term(b, zero) != -white) fail_msg("%s: %d for White, %d for Black", placement, white, chess_term(b, zero));
    if (chess_term(m, zero) != white) fail_msg("%s: %d, its mirror %s: %d", placement, white, mirror, chess_term(m, zero));
    assert_mirror("chess", w, m);
    Board board;
    parse_ok(&board, w);
    assert_int_equal(terms_of("chess", w), chess_mop_up(&board));
    return white;
}

static void test_chess_material(void **state)
{
    (void)state;
    /* An extra piece is worth its value, a queen more than a rook, a rook
     * more than a knight, a knight more than a pawn. */
    int pawn = white_term("4k3/8/8/8/8/8/P7/4K3", "4k3/p7/8/8/8/8/8/4K3", zero_material);
    int knight = white_term("4k3/8/8/8/8/8/N7/4K3", "4k3/n7/8/8/8/8/8/4K3", zero_material);
    int rook = white_term("4k3/8/8/8/8/8/R7/4K3", "4k3/r7/8/8/8/8/8/4K3", zero_material);
    int queen = white_term("4k3/8/8/8/8/8/Q7/4K3", "4k3/q7/8/8/8/8/8/4K3", zero_material);
    assert_true(pawn > 0);
    assert_true(knight > pawn);
    assert_true(rook > knight);
    assert_true(queen > rook);
    /* Kings are not material. */
    assert_int_equal(white_term("4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4K3", zero_material), 0);
    /* Whole evaluations: a knight more is better, a knight less worse. */
    assert_above(eval_of("chess", "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"), eval_of("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
                 "a knight more", "1N2K3 w", "4K3 w");
    assert_above(eval_of("chess", "4k3/8/8/8/8/8/8/4K3 b - - 0 1"), eval_of("chess", "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1"),
                 "a knight less", "4K3 b", "1N2K3 b");
}

static void test_chess_passed_pawns(void **state)
{
    (void)state;
    /* A passed pawn counts, and more the further up it is. */
    int rank4 = white_term("k7/8/8/8/4P3/8/8/K7", "k7/8/8/4p3/8/8/8/K7", zero_passed);
    int rank6 = white_term("k7/8/4P3/8/8/8/8/K7", "k7/8/8/8/8/4p3/8/K7", zero_passed);
    int rank7 = white_term("k7/4P3/8/8/8/8/8/K7", "k7/8/8/8/8/8/4p3/K7", zero_passed);
    assert_true(rank4 > 0);
    assert_true(rank6 > rank4);
    assert_true(rank7 > rank6);
    /* An enemy pawn in front of it (on an adjacent file) stops it counting. */
    assert_int_equal(white_term("k7/3p4/8/8/4P3/8/8/K7", "k7/8/8/4p3/8/8/3P4/K7", zero_passed), 0);
}

static void test_chess_pawn_weaknesses(void **state)
{
    (void)state;
    /* Doubled pawns cost (two pawns on one file, one each side). */
    assert_true(white_term("k7/8/8/8/4P3/4P3/8/K7", "k7/8/4p3/4p3/8/8/8/K7", zero_doubled) < 0);
    assert_int_equal(white_term("k7/8/8/8/4P3/3P4/8/K7", "k7/8/3p4/4p3/8/8/8/K7", zero_doubled), 0);
    /* So do isolated pawns; a neighbour on the next file takes it away. */
    assert_true(white_term("k7/8/8/8/8/8/4P3/K7", "k7/4p3/8/8/8/8/8/K7", zero_isolated) < 0);
    assert_int_equal(white_term("k7/8/8/8/8/8/3PP3/K7", "k7/3pp3/8/8/8/8/8/K7", zero_isolated), 0);
    /* A backward pawn: d2, behind its neighbour on e4, cannot advance to
     * d3, which the black pawn on c4 attacks. */
    assert_true(white_term("k7/8/8/8/2p1P3/8/3P4/K7", "k7/3p4/8/2P1p3/8/8/8/K7", zero_backward) < 0);
}

static void test_chess_pieces(void **state)
{
    (void)state;
    /* Two bishops are worth more than their sum. */
    assert_true(white_term("k7/8/8/8/8/8/8/K1BB4", "k1bb4/8/8/8/8/8/8/K7", zero_bishop_pair) > 0);
    assert_int_equal(white_term("k7/8/8/8/8/8/8/K1BN4", "k1bn4/8/8/8/8/8/8/K7", zero_bishop_pair), 0);
    /* A rook on an open file more than on a half-open one, more than on a
     * closed one (nothing). */
    int open = white_term("k7/p7/8/8/8/8/P7/K3R3", "k3r3/p7/8/8/8/8/P7/K7", zero_rook_files);
    int half = white_term("k7/p3p3/8/8/8/8/P7/K3R3", "k3r3/p7/8/8/8/8/P3P3/K7", zero_rook_files);
    int closed = white_term("k7/p3p3/8/8/8/8/P3P3/K3R3", "k3r3/p3p3/8/8/8/8/P3P3/K7", zero_rook_files);
    assert_true(open > half);
    assert_true(half > closed);
    assert_int_equal(closed, 0);
    /* Mobility: a rook with an open board moves more than one boxed in. */
    int free_rook = white_term("k7/8/8/8/3R4/8/8/K7", "k7/8/8/3r4/8/8/8/K7", zero_mobility);
    int boxed_rook = white_term("k7/8/8/8/8/8/PP6/RK6", "rk6/pp6/8/8/8/8/8/K7", zero_mobility);
    assert_true(free_rook > 0);
    assert_true(free_rook > boxed_rook);
}

static void test_chess_king_safety(void **state)
{
    (void)state;
    /* Pawns in front of a king shield it (in the middle game: the
     * weight is 0 in the end game, hence the queens and rooks). */
    assert_true(white_term("rq4k1/8/8/8/8/8/5PPP/RQ4K1", "rq4k1/5ppp/8/8/8/8/8/RQ4K1", zero_king_shield) > 0);
    assert_int_equal(white_term("rq4k1/8/8/8/8/8/PPP5/RQ4K1", "rq4k1/ppp5/8/8/8/8/8/RQ4K1", zero_king_shield), 0);
    /* Enemy attacks on the squares around a king cost: the black rook on
     * the second rank attacks White's king zone. */
    assert_true(white_term("k7/8/8/8/8/8/r7/6K1", "6k1/R7/8/8/8/8/8/K7", zero_king_attack) < 0);
    assert_int_equal(white_term("k7/r7/8/8/8/8/8/6K1", "6k1/8/8/8/8/8/R7/K7", zero_king_attack), 0);
}

/* How many times the side to move's terms hold the one weight `set` sets
 * to 1 less the other side's, every other weight 0 (piece-square values
 * too): the count bench/tune-features reads for fitting. */
static int count_of(const char *fen, void (*set)(ChessWeights *w))
{
    Board b;
    parse_ok(&b, fen);
    ChessWeights w;
    memset(&w, 0, sizeof w);
    w.square_tables = true;
    w.extended_terms = true;
    set(&w);
    return chess_eval_board(&b, &w);
}

static void set_open_file(ChessWeights *w) { w->king_open_file = (Taper){ 1, 1 }; }
static void set_storm_3(ChessWeights *w) { w->pawn_storm[3] = (Taper){ 1, 1 }; }
static void set_storm_4(ChessWeights *w) { w->pawn_storm[4] = (Taper){ 1, 1 }; }
static void set_attackers_2(ChessWeights *w) { w->king_attackers[2] = (Taper){ 1, 1 }; }
static void set_attackers_1(ChessWeights *w) { w->king_attackers[1] = (Taper){ 1, 1 }; }
static void set_pawn_threat(ChessWeights *w) { w->pawn_threat = (Taper){ 1, 1 }; }
static void set_knight_f3(ChessWeights *w) { w->square[KNIGHT][21] = (Taper){ 1, 1 }; }

/* The king-safety terms of the fitted chess weights count what they say
 * (0 in CHESS_WEIGHTS, which the other games use). */
static void test_chess_king_terms_count(void **state)
{
    (void)state;
    /* Files f, g, h beside White's king on g1 hold no White pawn: 3 open;
     * Black's king on g8 has its three pawns: none. */
    assert_int_equal(count_of("6k1/5ppp/8/8/8/8/8/6K1 w - - 0 1", set_open_file), 3);
    assert_int_equal(count_of("6k1/5ppp/8/8/8/8/6P1/6K1 w - - 0 1", set_open_file), 2);
    assert_int_equal(count_of("6k1/5ppp/8/8/8/8/6P1/6K1 b - - 0 1", set_open_file), -2);
    /* A black pawn on g4 is three ranks ahead of the king on g1, on h5
     * four; one on a4 is not coming at it. */
    assert_int_equal(count_of("k7/8/8/8/6p1/8/8/6K1 w - - 0 1", set_storm_3), 1);
    assert_int_equal(count_of("k7/8/8/7p/p7/8/8/6K1 w - - 0 1", set_storm_4), 1);
    assert_int_equal(count_of("k7/8/8/7p/p7/8/8/6K1 w - - 0 1", set_storm_3), 0);
    /* White's queen and rook both attack the squares around Black's king
     * on g8 (the rook on the seventh rank, the queen on the g-file): two
     * attackers; the knight on a1 does not. */
    assert_int_equal(count_of("6k1/R7/8/8/8/8/8/N2K2Q1 w - - 0 1", set_attackers_2), 1);
    assert_int_equal(count_of("6k1/R7/8/8/8/8/8/N2K2Q1 w - - 0 1", set_attackers_1), 0);
    assert_int_equal(count_of("6k1/R7/8/8/8/8/8/N2K4 w - - 0 1", set_attackers_1), 1);
    /* A knight on d4 that the pawn on e5 attacks, for White: -1 when a
     * white piece is attacked, counted for the side it belongs to. */
    assert_int_equal(count_of("k7/8/8/4p3/3N4/8/8/K7 w - - 0 1", set_pawn_threat), 1);
    assert_int_equal(count_of("k7/8/8/4p3/3N4/8/8/K7 b - - 0 1", set_pawn_threat), -1);
    assert_int_equal(count_of("k7/8/8/4p3/2N5/8/8/K7 w - - 0 1", set_pawn_threat), 0);
    /* A square's value is a white piece's on it and a black piece's on
     * its mirror: f3 for White, f6 for Black. */
    assert_int_equal(count_of("k7/8/8/8/8/5N2/8/K7 w - - 0 1", set_knight_f3), 1);
    assert_int_equal(count_of("k7/8/5n2/8/8/8/8/K7 w - - 0 1", set_knight_f3), -1);
}

/* count_of for the weight at `offset` in ChessWeights (a Taper). */
static int count_at(const char *fen, size_t offset)
{
    Board b;
    parse_ok(&b, fen);
    ChessWeights w;
    memset(&w, 0, sizeof w);
    w.square_tables = true;
    w.extended_terms = true;
    *(Taper *)((char *)&w + offset) = (Taper){ 1, 1 };
    return chess_eval_board(&b, &w);
}
#define COUNT(fen, weight) count_at(fen, offsetof(ChessWeights, weight))

/* The terms added on 2026-11-28 (mobility by count, threats, the attack
 * on a king, passed pawns' free square and kings, connected pawns,
 * outposts, a bishop's own pawns) count what eval.h says, for the side
 * whose pieces they are. */
static void test_chess_added_terms_count(void **state)
{
    (void)state;
    /* A knight on d4 reaches 8 squares, one on b1 3 (a3, c3, d2); a rook
     * on d4 of an empty board 14, the table's last entry. */
    assert_int_equal(COUNT("k7/8/8/8/3N4/8/8/K7 w - - 0 1", knight_mobility[8]), 1);
    assert_int_equal(COUNT("k7/8/8/8/8/8/8/KN6 w - - 0 1", knight_mobility[3]), 1);
    assert_int_equal(COUNT("k7/8/8/8/8/8/8/KN6 b - - 0 1", knight_mobility[3]), -1);
    assert_int_equal(COUNT("k7/8/8/8/3R4/8/8/K7 w - - 0 1", rook_mobility[14]), 1);
    /* The knight on d3 attacks the rook on e5; the rook on e1 the knight
     * on e5, which nothing defends (hanging), unless a pawn on d6 does. */
    assert_int_equal(COUNT("k7/8/8/4r3/8/3N4/8/K7 w - - 0 1", threat_by_minor[ROOK]), 1);
    assert_int_equal(COUNT("k7/8/8/4r3/8/3N4/8/K7 b - - 0 1", threat_by_minor[ROOK]), -1);
    assert_int_equal(COUNT("k7/8/8/4n3/8/8/8/K3R3 w - - 0 1", threat_by_rook[KNIGHT]), 1);
    assert_int_equal(COUNT("k7/8/8/4n3/8/8/8/K3R3 w - - 0 1", hanging), 1);
    assert_int_equal(COUNT("k7/8/3p4/4n3/8/8/8/K3R3 w - - 0 1", hanging), 0);
    /* The rook on g1 attacks g7, beside Black's king on g8, and could
     * check from g2 to g6 where no black piece guards (g7 the king does):
     * 3 units for the rook and 3 for each of 5 checks, 18, the danger's
     * entry 9; White's own king, unattacked, is in entry 0. */
    assert_int_equal(COUNT("6k1/8/8/8/8/8/8/K5R1 w - - 0 1", zone_attack[ROOK]), 1);
    assert_int_equal(COUNT("6k1/8/8/8/8/8/8/K5R1 w - - 0 1", safe_check[ROOK]), 5);
    assert_int_equal(COUNT("6k1/8/8/8/8/8/8/K5R1 w - - 0 1", king_danger[9]), 1);
    assert_int_equal(COUNT("6k1/8/8/8/8/8/8/K5R1 w - - 0 1", king_danger[0]), -1);
    /* The passed pawn on e4: e5 free, White's king a1 4 steps from it,
     * Black's king h8 3; a knight on e5 blocks it. */
    assert_int_equal(COUNT("7k/8/8/8/4P3/8/8/K7 w - - 0 1", passed_free[3]), 1);
    assert_int_equal(COUNT("7k/8/8/4n3/4P3/8/8/K7 w - - 0 1", passed_free[3]), 0);
    assert_int_equal(COUNT("7k/8/8/8/4P3/8/8/K7 w - - 0 1", passed_own_king[3]), 4);
    assert_int_equal(COUNT("7k/8/8/8/4P3/8/8/K7 w - - 0 1", passed_enemy_king[3]), 3);
    /* Pawns side by side are connected; so is one an own pawn defends,
     * not the one defending it. */
    assert_int_equal(COUNT("k7/8/8/8/3PP3/8/8/K7 w - - 0 1", connected_pawn[3]), 2);
    assert_int_equal(COUNT("k7/8/8/8/4P3/3P4/8/K7 w - - 0 1", connected_pawn[3]), 1);
    assert_int_equal(COUNT("k7/8/8/8/4P3/3P4/8/K7 w - - 0 1", connected_pawn[2]), 0);
    /* A knight on d5 that e4 defends is on an outpost, though a black
     * pawn stands on c4 behind it; a pawn on c7 could drive it away. */
    assert_int_equal(COUNT("k7/8/8/3N4/2p1P3/8/8/K7 w - - 0 1", outpost[KNIGHT]), 1);
    assert_int_equal(COUNT("k7/2p5/8/3N4/4P3/8/8/K7 w - - 0 1", outpost[KNIGHT]), 0);
    /* The bishop on c1 and its pawns b2 and d2, all on dark squares. */
    assert_int_equal(COUNT("k7/8/8/8/8/8/1P1P4/K1B5 w - - 0 1", bishop_pawns), 2);
    assert_int_equal(COUNT("k7/8/8/8/8/8/P1P5/K1B5 w - - 0 1", bishop_pawns), 0);
}

/* The terms added on 2026-11-28 are counted only where the weights say
 * so (extended_terms): the shared weights, which hold none of them, give
 * every position the same score either way, and a weight of those terms
 * counts nothing with the flag cleared. */
static void test_chess_extended_terms_flag(void **state)
{
    (void)state;
    static const char *const FENS[] = {
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
        "6k1/8/8/8/8/8/8/K5R1 w - - 0 1",
        "7k/8/8/4n3/4P3/8/8/K7 b - - 0 1",
        "k7/8/8/3N4/2p1P3/8/8/K7 w - - 0 1",
    };
    ChessWeights all = CHESS_WEIGHTS;
    all.extended_terms = true;
    for (size_t i = 0; i < sizeof FENS / sizeof FENS[0]; i++) {
        Board b;
        parse_ok(&b, FENS[i]);
        assert_int_equal(chess_eval_board(&b, &CHESS_WEIGHTS), chess_eval_board(&b, &all));
    }
    Board b;
    parse_ok(&b, "6k1/8/8/8/8/8/8/K5R1 w - - 0 1");
    ChessWeights w;
    memset(&w, 0, sizeof w);
    w.square_tables = true;
    w.safe_check[ROOK] = (Taper){ 1, 1 };
    assert_int_equal(chess_eval_board(&b, &w), 0);
    w.extended_terms = true;
    assert_int_equal(chess_eval_board(&b, &w), 5);
}

/* Chess's fitted weights keep the order of the pieces and of passed pawns
 * nearing promotion, in either phase: a fit that learned otherwise was
 * fed too few positions. */
static void test_chess_tuned_weights_ordered(void **state)
{
    (void)state;
    const ChessWeights *w = &CHESS_TUNED_WEIGHTS;
    assert_true(w->square_tables);
    assert_true(w->material[PAWN].mg > 0 && w->material[PAWN].eg > 0);
    assert_true(w->material[KNIGHT].mg > w->material[PAWN].mg && w->material[KNIGHT].eg > w->material[PAWN].eg);
    assert_true(w->material[ROOK].mg > w->material[BISHOP].mg && w->material[ROOK].eg > w->material[BISHOP].eg);
    assert_true(w->material[QUEEN].mg > w->material[ROOK].mg && w->material[QUEEN].eg > w->material[ROOK].eg);
    assert_true(w->passed_pawn[6].eg > w->passed_pawn[5].eg && w->passed_pawn[5].eg > w->passed_pawn[4].eg);
    /* The other games' shared weights hold none of the chess-only terms. */
    assert_false(CHESS_WEIGHTS.square_tables);
    assert_true(w->extended_terms);
    assert_false(CHESS_WEIGHTS.extended_terms);
    assert_int_equal(CHESS_WEIGHTS.king_open_file.mg, 0);
    assert_int_equal(CHESS_WEIGHTS.pawn_threat.eg, 0);
    assert_int_equal(CHESS_WEIGHTS.king_danger[15].mg, 0);
    assert_int_equal(CHESS_WEIGHTS.hanging.mg, 0);
    assert_int_equal(CHESS_WEIGHTS.knight_mobility[8].eg, 0);
}

/* Against a bare king, chess's evaluation pays the stronger side 12 a step
 * of the bare king from the centre (files and ranks added, 0 to 6) and 4 a
 * step its own king is nearer than 14: only where the stronger side can
 * force mate, and only in chess (issue 28). */
static void test_chess_mop_up(void **state)
{
    (void)state;
    /* Black's king a8 is 6 steps out, White's king e1 11 steps from it. */
    assert_int_equal(terms_of("chess", "k7/8/8/8/8/8/8/1R2K3 w - - 0 1"), 12 * 6 + 4 * 3);
    assert_int_equal(terms_of("chess", "k7/8/8/8/8/8/8/1R2K3 b - - 0 1"), -(12 * 6 + 4 * 3));
    /* In the centre (d5: 0 steps), the kings 5 steps apart. */
    assert_int_equal(terms_of("chess", "8/8/8/3k4/8/8/8/R3K3 w - - 0 1"), 4 * 9);
    /* Black the stronger: a queen against White's bare king h1, kings 4 steps apart. */
    assert_int_equal(terms_of("chess", "8/8/8/8/8/5k2/8/q6K w - - 0 1"), -(12 * 6 + 4 * 10));
    /* Bishop and knight mate; two knights, a bishop alone, pawns do not;
     * nor is a king with a pawn bare. */
    assert_int_equal(terms_of("chess", "k7/8/8/8/8/8/8/BN2K3 w - - 0 1"), 12 * 6 + 4 * 3);
    assert_int_equal(terms_of("chess", "k7/8/8/8/8/8/8/NN2K3 w - - 0 1"), 0);
    assert_int_equal(terms_of("chess", "k7/8/8/8/8/8/8/B3K3 w - - 0 1"), 0);
    assert_int_equal(terms_of("chess", "k7/8/8/8/8/8/P7/4K3 w - - 0 1"), 0);
    assert_int_equal(terms_of("chess", "k7/p7/8/8/8/8/8/1R2K3 w - - 0 1"), 0);
    int corner = eval_of("chess", "k7/8/8/8/8/8/8/1R2K3 b - - 0 1");
    int centre = eval_of("chess", "8/8/8/3k4/8/8/8/R3K3 b - - 0 1");
    assert_above(centre, corner, "a bare king in the centre, for its side", "8/8/8/3k4/8/8/8/R3K3 b", "k7/8/8/8/8/8/8/1R2K3 b");
}

static void test_chess_tempo(void **state)
{
    (void)state;
    /* The side to move gains the tempo: with White to move it is White's,
     * with Black to move Black's (for the side to move, positive both times). */
    assert_true(chess_term("4k3/8/8/8/8/8/8/4K3 w - - 0 1", zero_tempo) > 0);
    assert_true(chess_term("4k3/8/8/8/8/8/8/4K3 b - - 0 1", zero_tempo) > 0);
}

/* ------------------------------------------------------------------ */
/* Gifford: pieces in transit, kings in transit, backward travels      */
/* ------------------------------------------------------------------ */

/* Bare kings at move 5: White's arrivals may lie in moves 5..14 with
 * White to move, 6..15 with Black to move. */
#define GIFFORD_KINGS "4k3/8/8/8/8/8/8/4K3 %c - - 0 5 "

static void test_gifford_transit_counts(void **state)
{
    (void)state;
    /* A knight in transit is worth something to its owner. */
    assert_terms_favour_white("gifford", GIFFORD_KINGS "N7/- 0/0", GIFFORD_KINGS "-/- 0/0", "White's knight in transit");
    assert_terms_favour_white("gifford", GIFFORD_KINGS "-/- 0/0", GIFFORD_KINGS "-/N7 0/0", "Black's knight in transit");
    /* The same from the whole evaluation: more than nothing, less than
     * the knight on a good square. */
    int transit = eval_of("gifford", "4k3/8/8/8/8/8/8/4K3 w - - 0 5 N7/- 0/0");
    int gone = eval_of("gifford", "4k3/8/8/8/8/8/8/4K3 w - - 0 5 -/- 0/0");
    int landed = eval_of("gifford", "4k3/8/8/8/3N4/8/8/4K3 w - - 0 5 -/- 0/0");
    assert_above(transit, gone, "in transit against gone", "N7", "-");
    assert_above(landed, transit, "on d4 against in transit", "Nd4", "N7");
    /* A queen in transit more than a knight. */
    assert_terms_favour_white("gifford", GIFFORD_KINGS "Q7/- 0/0", GIFFORD_KINGS "N7/- 0/0", "a queen against a knight");
    /* Mirrors: White's knight due in two moves with White to move is
     * Black's due in two with Black to move.  White acts first in a
     * move, so the mirror of "White to move at move n" is "Black to move
     * at move n", in which White's first move still to come is n + 1:
     * Black's rook four moves after Black's first becomes White's rook
     * four moves after White's (10, not 9). */
    assert_mirror("gifford", "4k3/8/8/8/8/8/8/4K3 w - - 0 5 N7/- 0/0", "4k3/8/8/8/8/8/8/4K3 b - - 0 5 -/N7 0/0");
    assert_mirror("gifford", "4k3/8/8/8/8/8/8/4K3 b - - 0 5 N7/- 0/0", "4k3/8/8/8/8/8/8/4K3 w - - 0 6 -/N7 0/0");
    assert_mirror("gifford", "4k3/8/8/8/8/8/8/4K3 w - - 0 5 N7/R9 0/0", "4k3/8/8/8/8/8/8/4K3 b - - 0 5 R10/N7 0/0");
}

static void test_gifford_sooner_counts_more(void **state)
{
    (void)state;
    /* A piece due sooner lands sooner, and counts more (DueValue). */
    assert_terms_favour_white("gifford", GIFFORD_KINGS "N7/- 0/0", GIFFORD_KINGS "N12/- 0/0", "White's knight due sooner");
    assert_terms_favour_white("gifford", GIFFORD_KINGS "-/N12 0/0", GIFFORD_KINGS "-/N7 0/0", "Black's knight due sooner");
    /* Due as late as the rules allow, it still counts. */
    assert_terms_favour_white("gifford", GIFFORD_KINGS "N14/- 0/0", GIFFORD_KINGS "-/- 0/0", "a knight due late");
}

static void test_gifford_king_in_transit(void **state)
{
    (void)state;
    /* A king in transit is a risk, not a piece: it costs its side. */
    assert_terms_favour_white("gifford", GIFFORD_KINGS "-/- 0/0", GIFFORD_KINGS "K7/- 0/0", "White's second king in transit");
    assert_terms_favour_white("gifford", GIFFORD_KINGS "-/K7 0/0", GIFFORD_KINGS "-/- 0/0", "Black's second king in transit");
    /* More so with no king on the board meanwhile. */
    assert_terms_favour_white("gifford", "4k3/8/8/8/8/8/8/3K4 %c - - 0 5 K7/- 0/0", "4k3/8/8/8/8/8/8/8 %c - - 0 5 K7/- 0/0",
                              "White's only king in transit");
}

static void test_gifford_back_travels_left(void **state)
{
    (void)state;
    /* Each backward travel still allowed is an asset. */
    assert_terms_favour_white("gifford", GIFFORD_KINGS "-/- 0/0", GIFFORD_KINGS "-/- 1/0", "White's backward travels left");
    assert_terms_favour_white("gifford", GIFFORD_KINGS "-/- 0/1", GIFFORD_KINGS "-/- 0/0", "Black's backward travels left");
}

/* ------------------------------------------------------------------ */
/* Chessgi: pockets, drops near a king, travellers                     */
/* ------------------------------------------------------------------ */

#define CHESSGI_KINGS "4k3/8/8/8/8/8/8/4K3"

static void test_chessgi_pockets(void **state)
{
    (void)state;
    const char *variants[] = { "chessgi-classic", "chessgi" };
    for (int i = 0; i < 2; i++) {
        const char *v = variants[i];
        char w[128], b[128];
        /* A piece in hand counts for its owner. */
        assert_terms_favour_white(v, CHESSGI_KINGS "[N] %c - - 0 1", CHESSGI_KINGS "[] %c - - 0 1", "White's knight in hand");
        assert_terms_favour_white(v, CHESSGI_KINGS "[] %c - - 0 1", CHESSGI_KINGS "[n] %c - - 0 1", "Black's knight in hand");
        assert_terms_favour_white(v, CHESSGI_KINGS "[P] %c - - 0 1", CHESSGI_KINGS "[] %c - - 0 1", "White's pawn in hand");
        assert_terms_favour_white(v, CHESSGI_KINGS "[Q] %c - - 0 1", CHESSGI_KINGS "[R] %c - - 0 1", "a queen against a rook");
        /* In the whole evaluation: more than nothing. */
        snprintf(w, sizeof w, "%s[N] w - - 0 1", CHESSGI_KINGS);
        snprintf(b, sizeof b, "%s[] w - - 0 1", CHESSGI_KINGS);
        assert_above(eval_of(v, w), eval_of(v, b), v, w, b);
        /* Mirrors. */
        assert_mirror(v, CHESSGI_KINGS "[N] w - - 0 1", CHESSGI_KINGS "[n] b - - 0 1");
        assert_mirror(v, CHESSGI_KINGS "[QPr] b - - 0 1", CHESSGI_KINGS "[Rqp] w - - 0 1");
        /* An enemy piece in hand weighs on a king with empty squares around
         * it: White's king on e1 with three pawns before it has two empty
         * neighbours, without them five. */
        assert_terms_favour_white(v, "4k3/8/8/8/8/8/3PPP2/4K3[n] %c - - 0 1", "4k3/8/8/8/8/8/8/4K3[n] %c - - 0 1",
                                  "a sheltered king against Black's knight in hand");
        assert_terms_favour_white(v, "4k3/8/8/8/8/8/8/4K3[N] %c - - 0 1", "4k3/3ppp2/8/8/8/8/8/4K3[N] %c - - 0 1",
                                  "White's knight in hand against an open black king");
    }
}

/* Kings at move 5 in Time Travel Chessgi, no wait before travelling. */
#define CHESSGI_TRAVEL "4k3/8/8/8/8/8/8/4K3[] %c - - 0 5 "

static void test_chessgi_travellers(void **state)
{
    (void)state;
    /* A traveller counts for its owner. */
    assert_terms_favour_white("chessgi", CHESSGI_TRAVEL "N7/- 0", CHESSGI_TRAVEL "-/- 0", "White's knight traveller");
    assert_terms_favour_white("chessgi", CHESSGI_TRAVEL "-/- 0", CHESSGI_TRAVEL "-/N7 0", "Black's knight traveller");
    /* And more when it is due sooner. */
    assert_terms_favour_white("chessgi", CHESSGI_TRAVEL "N7/- 0", CHESSGI_TRAVEL "N12/- 0", "White's knight due sooner");
    assert_terms_favour_white("chessgi", CHESSGI_TRAVEL "-/N12 0", CHESSGI_TRAVEL "-/N7 0", "Black's knight due sooner");
    /* A traveller is worth less than the same piece in hand. */
    assert_terms_favour_white("chessgi", "4k3/8/8/8/8/8/8/4K3[N] %c - - 0 5 -/- 0", CHESSGI_TRAVEL "N6/- 0",
                              "a knight in hand against one travelling");
    /* A king traveller is a cost: White's king away against a knight
     * away, the board the same but for the king. */
    assert_terms_favour_white("chessgi", "4k3/8/8/8/8/8/8/4K3[] %c - - 0 5 N7/- 0",
                              "4k3/8/8/8/8/8/8/8[] %c - - 0 5 K7/- 0", "White's king travelling");
    assert_true(terms_of("chessgi", "4k3/8/8/8/8/8/8/8[] w - - 0 5 K7/- 0") < 0);
    /* Mirrors. */
    assert_mirror("chessgi", CHESSGI_KINGS "[] w - - 0 5 N7/- 0", CHESSGI_KINGS "[] b - - 0 5 -/N7 0");
    assert_mirror("chessgi", CHESSGI_KINGS "[] b - - 0 5 N7,R9/B8 0", CHESSGI_KINGS "[] w - - 0 5 B8/N7,R9 0");
}

/* ------------------------------------------------------------------ */
/* van Gog: obligations and travellers, for both sides                 */
/* ------------------------------------------------------------------ */

static void test_vangog_obligations(void **state)
{
    (void)state;
    /* An open obligation is a debt of its side (the other tests,
     * tests/test_eval_timetravel.c, order them among themselves). */
    assert_terms_favour_white("vangog-past", "3qk3/8/8/8/8/8/8/3QK3 %c - - 0 5", "3qk3/8/8/8/8/8/8/3QK3 %c - - 0 5 - 1:Qd1d4",
                              "White's obligation");
    assert_terms_favour_white("vangog-past", "3qk3/8/8/8/8/8/8/3QK3 %c - - 0 5 - 1:qd8d5", "3qk3/8/8/8/8/8/8/3QK3 %c - - 0 5",
                              "Black's obligation");
    /* A piece ready to fulfil it makes it cheaper than one far away. */
    assert_terms_favour_white("vangog", "3qk3/8/8/8/8/8/8/3QK3 %c - - 0 5 - 1:Qd1d4",
                              "3qk3/8/8/8/8/8/8/Q3K3 %c - - 0 5 - 1:Qd1d4", "White's queen on d1 against a1");
    /* The obligation costs the same in every mode that has it. */
    assert_int_equal(terms_of("vangog", "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4"),
                     terms_of("vangog-past", "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4"));
}

static void test_vangog_travellers(void **state)
{
    (void)state;
    /* A traveller that can land is worth something to its owner. */
    assert_terms_favour_white("vangog-future", "4k3/8/8/8/8/8/8/4K3 %c - - 0 5 - - - Qh5", "4k3/8/8/8/8/8/8/4K3 %c - - 0 5",
                              "White's queen travelling");
    assert_terms_favour_white("vangog-future", "4k3/8/8/8/8/8/8/4K3 %c - - 0 5", "4k3/8/8/8/8/8/8/4K3 %c - - 0 5 - - - qh4",
                              "Black's queen travelling");
    /* A queen more than a knight. */
    assert_terms_favour_white("vangog-future", "4k3/8/8/8/8/8/8/4K3 %c - - 0 5 - - - Qh5",
                              "4k3/8/8/8/8/8/8/4K3 %c - - 0 5 - - - Nh5", "a queen against a knight travelling");
    /* One that must come back giving check costs more to bring back. */
    assert_terms_favour_white("vangog-future", "4k3/8/8/8/8/8/8/4K3 %c - - 0 5 - - - Qh5",
                              "4k3/8/8/8/8/8/8/4K3 %c - - 0 5 - - - Qh5+", "a queen that must check on landing");
    assert_mirror("vangog-future", "4k3/8/8/8/8/8/8/4K3 w - - 0 5 - - - Qh5", "4k3/8/8/8/8/8/8/4K3 b - - 0 5 - - - qh4");
}

/* ------------------------------------------------------------------ */
/* Time Traveler's Chess: piece states, kinglessness                   */
/* ------------------------------------------------------------------ */

static void test_travelers_states(void **state)
{
    (void)state;
    /* A traveled knight keeps most of its value, so the terms (the board
     * counting it whole) take a little off for its owner. */
    assert_terms_favour_white("travelers", "4k3/8/8/8/8/5N2/8/4K1N1 %c - - 0 1",
                              "4k3/8/8/8/8/5N\"2/8/4K1N1 %c - - 0 1 g1:1 Nf6:1 -", "White's knight traveled");
    /* A traveling one keeps less: worse than traveled for its owner. */
    assert_terms_favour_white("travelers", "4k3/8/8/8/8/5N\"2/8/4K1N1 %c - - 0 1 g1:1 Nf6:1 -",
                              "4k3/8/8/8/8/5N'2/8/4K1N1 %c - - 0 1 g1:1 Nf3:1 -", "White's knight traveling");
    assert_mirror("travelers", "4k3/8/8/8/8/5N'2/8/4K1N1 w - - 0 1 g1:1 Nf3:1 -",
                  "4k1n1/8/5n'2/8/8/8/8/4K3 b - - 0 1 g8:1 nf6:1 -");
}

static void test_travelers_kingless(void **state)
{
    (void)state;
    /* A side with no king that counts is in danger (in check whenever
     * its resolved opponent keeps it so): White without its king, to
     * move, facing a resolved Black. */
    int with_king = terms_of("travelers", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    int kingless = terms_of("travelers", "4k3/8/8/8/8/8/8/R7 w - - 0 1");
    assert_above(with_king, kingless, "a king against none", "R3K3", "R7");
    /* Black without its king, to move: White's view turns round. */
    int black_kingless = terms_of("travelers", "r7/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_int_equal(black_kingless, kingless);
    assert_mirror("travelers", "4k3/8/8/8/8/8/8/R7 w - - 0 1", "r7/8/8/8/8/8/8/4K3 b - - 0 1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chess_material),
        cmocka_unit_test(test_chess_passed_pawns),
        cmocka_unit_test(test_chess_pawn_weaknesses),
        cmocka_unit_test(test_chess_pieces),
        cmocka_unit_test(test_chess_king_safety),
        cmocka_unit_test(test_chess_king_terms_count),
        cmocka_unit_test(test_chess_added_terms_count),
        cmocka_unit_test(test_chess_extended_terms_flag),
        cmocka_unit_test(test_chess_tuned_weights_ordered),
        cmocka_unit_test(test_chess_mop_up),
        cmocka_unit_test(test_chess_tempo),
        cmocka_unit_test(test_gifford_transit_counts),
        cmocka_unit_test(test_gifford_sooner_counts_more),
        cmocka_unit_test(test_gifford_king_in_transit),
        cmocka_unit_test(test_gifford_back_travels_left),
        cmocka_unit_test(test_chessgi_pockets),
        cmocka_unit_test(test_chessgi_travellers),
        cmocka_unit_test(test_vangog_obligations),
        cmocka_unit_test(test_vangog_travellers),
        cmocka_unit_test(test_travelers_states),
        cmocka_unit_test(test_travelers_kingless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
