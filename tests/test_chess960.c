/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of Chess960 (the UCI engine's UCI_Chess960): perft against the
 * published counts of the Chess Programming Wiki's "Chess960 Perft
 * Results", the one-king generator against trying every pseudo-legal
 * move, X-FEN and Shredder-FEN read and written, and castling itself:
 * king takes own rook, a king that stays where it is, a rook that leaves
 * its king in check, the rights a move takes away.
 */
#include "support.h"

/* Starts a Chess960 game or fails the test. */
static void start960(Game *g, const char *fen)
{
    Text err = TEXT_INIT;
    if (!game_init(g, &VARIANT_CHESS960, NULL, fen, &err)) fail_msg("bad FEN %s: %s", fen, text_str(&err));
    text_free(&err);
}

/* The reason a Chess960 FEN is refused, in a static buffer. */
static const char *refusal960(const char *fen)
{
    static char buf[512];
    Text err = TEXT_INIT;
    Board b;
    if (board_from_fen_chess960(&b, fen, NULL, &err)) fail_msg("FEN %s was accepted but should be refused", fen);
    snprintf(buf, sizeof buf, "%s", text_str(&err));
    text_free(&err);
    return buf;
}

/* ------------------------------------------------------------------ */
/* Perft                                                               */
/* ------------------------------------------------------------------ */

/* The Chess Programming Wiki's Chess960 perft positions (from Ethereal's
 * fischer.epd), with their published counts at depths 1 to 4. */
static const struct {
    const char *fen;
    uint64_t counts[4];
} PUBLISHED[] = {
    { "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", { 21, 528, 12189, 326672 } },
    { "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", { 21, 807, 18002, 667366 } },
    { "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", { 20, 479, 10471, 273318 } },
    { "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9", { 22, 593, 13440, 382958 } },
    { "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9", { 28, 1120, 31058, 1171749 } },
    { "qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9", { 29, 899, 26578, 824055 } },
    { "q1bnrkr1/ppppp2p/2n2p2/4b1p1/2NP4/8/PPP1PPPP/QNB1RRKB w ge - 1 9", { 30, 860, 24566, 732757 } },
    { "qbn1brkr/ppp1p1p1/2n4p/3p1p2/P7/6PP/QPPPPP2/1BNNBRKR w HFhf - 0 9", { 25, 635, 17054, 465806 } },
    { "qnnbbrkr/1p2ppp1/2pp3p/p7/1P5P/2NP4/P1P1PPP1/Q1NBBRKR w HFhf - 0 9", { 24, 572, 15243, 384260 } },
    { "qn1rbbkr/ppp2p1p/1n1pp1p1/8/3P4/P6P/1PP1PPPK/QNNRBB1R w hd - 2 9", { 28, 811, 23175, 679699 } },
};
enum { PUBLISHED_COUNT = sizeof PUBLISHED / sizeof PUBLISHED[0] };

static void test_perft_published(void **state)
{
    (void)state;
    for (int i = 0; i < PUBLISHED_COUNT; i++) {
        Game g;
        start960(&g, PUBLISHED[i].fen);
        for (int d = 1; d <= 4; d++) {
            uint64_t got = 0;
            if (!game_perft(&g, d, &got)) fail_msg("perft %d of %s: out of memory", d, PUBLISHED[i].fen);
            if (got != PUBLISHED[i].counts[d - 1])
                fail_msg("perft %d of %s: expected %llu, got %llu", d, PUBLISHED[i].fen,
                         (unsigned long long)PUBLISHED[i].counts[d - 1], (unsigned long long)got);
        }
        game_free(&g);
    }
}

/* The same moves as the fast generator, found by trying every
 * pseudo-legal one (move_is_legal, which the notation's explanations
 * use), at every node of a small tree. */
static void expect_trial_agrees(const Board *b, int depth)
{
    MoveList fast, pseudo;
    movelist_init(&fast);
    movelist_init(&pseudo);
    assert_true(gen_legal(b, &fast) && gen_pseudo(b, &pseudo));
    int kept = 0;
    for (int i = 0; i < pseudo.count; i++) {
        if (!move_is_legal(b, pseudo.moves[i])) continue;
        kept++;
        if (!movelist_contains(&fast, pseudo.moves[i])) fail_msg("%s: a legal move is not generated", fen_of(b));
    }
    assert_int_equal(kept, fast.count);
    for (int i = 0; depth > 1 && i < fast.count; i++) {
        Board next = *b;
        board_make(&next, fast.moves[i]);
        assert_true(next.key == board_compute_key(&next));
        expect_trial_agrees(&next, depth - 1);
    }
    movelist_free(&fast);
    movelist_free(&pseudo);
}

static void test_trial_agrees(void **state)
{
    (void)state;
    for (int i = 0; i < PUBLISHED_COUNT; i++) {
        Board b;
        Text err = TEXT_INIT;
        assert_true(board_from_fen_chess960(&b, PUBLISHED[i].fen, NULL, &err));
        expect_trial_agrees(&b, 3);
        text_free(&err);
    }
}

/* ------------------------------------------------------------------ */
/* FEN                                                                 */
/* ------------------------------------------------------------------ */

static void expect_fen960(const char *fen, const char *written)
{
    Game g;
    start960(&g, fen);
    assert_string_equal(game_fen(&g), written);
    Game again;
    start960(&again, written);
    assert_string_equal(game_fen(&again), written);
    assert_true(game_state(&g)->board.key == game_state(&again)->board.key);
    game_free(&g);
    game_free(&again);
}

static void test_fen_forms(void **state)
{
    (void)state;
    /* Shredder-FEN reads; X-FEN writes KQkq for the outermost rooks. */
    expect_fen960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                  "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    expect_fen960("b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
                  "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w KQ - 1 9");
    /* The standard start reads and writes as in chess. */
    expect_fen960(STARTPOS_FEN, STARTPOS_FEN);
    expect_fen960("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", STARTPOS_FEN);
    /* An inner rook's right is its file: C (c1) inside h1; the outer h1's
     * is K. */
    expect_fen960("4k3/8/8/8/8/8/8/RKR4R w C - 0 1", "4k3/8/8/8/8/8/8/RKR4R w C - 0 1");
    expect_fen960("4k3/8/8/8/8/8/8/RKR4R w HA - 0 1", "4k3/8/8/8/8/8/8/RKR4R w KQ - 0 1");
    expect_fen960("r1r1k2r/8/8/8/8/8/8/4K3 b c - 0 1", "r1r1k2r/8/8/8/8/8/8/4K3 b c - 0 1");
    expect_fen960("r1r1k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "r1r1k2r/8/8/8/8/8/8/4K3 b kq - 0 1");
}

static void test_fen_refusals(void **state)
{
    (void)state;
    assert_string_equal(refusal960("4k3/8/8/8/8/8/8/RK6 w K - 0 1"),
                        "bad FEN: the castling right 'K' needs a white rook on the king's rank, on its h-side");
    assert_string_equal(refusal960("4k3/8/8/8/8/8/8/RK6 w B - 0 1"),
                        "bad FEN: the castling right 'B' needs a white rook on the king's rank, on that file");
    assert_string_equal(refusal960("4k3/8/8/8/8/8/4K3/R6R w HA - 0 1"),
                        "bad FEN: the castling right 'H' needs the white king on its first rank");
    assert_string_equal(refusal960("4k3/8/8/8/8/8/8/RKR4R w HC - 0 1"),
                        "bad FEN: the castling rights name two white rooks on the same side of the king");
    assert_string_equal(refusal960("4k3/8/8/8/8/8/8/RK5R w X - 0 1"),
                        "bad FEN: Chess960 castling rights must be '-', letters from 'KQkq' or rook files from "
                        "'A'-'H' and 'a'-'h'");
    /* Standard chess reads no file letters. */
    Board b;
    Text err = TEXT_INIT;
    assert_false(board_from_fen(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", NULL, &err));
    assert_string_equal(text_str(&err), "bad FEN: castling rights must be '-' or letters from 'KQkq'");
    text_free(&err);
}

/* ------------------------------------------------------------------ */
/* Castling                                                            */
/* ------------------------------------------------------------------ */

/* The coordinate and human forms of a legal action given as text. */
static void expect_forms(Game *g, const char *text, const char *coord, const char *human)
{
    Move m;
    Text err = TEXT_INIT, c = TEXT_INIT, h = TEXT_INIT;
    Line l;
    line_open(&l, g, game_current(g));
    if (!line_parse_text(&l, text, &m, &err)) fail_msg("%s refused: %s", text, text_str(&err));
    assert_true(g->variant->format_coord(&l, m, &c) && g->variant->format_human(&l, m, &h));
    assert_string_equal(text_str(&c), coord);
    assert_string_equal(text_str(&h), human);
    line_close(&l);
    text_free(&err);
    text_free(&c);
    text_free(&h);
}

static void test_castling_king_takes_rook(void **state)
{
    (void)state;
    Game g;
    /* The king on g1 castles with the rook on h1: it stays, the rook
     * goes to f1; written g1h1, O-O. */
    start960(&g, "4k3/8/8/8/8/8/8/R5KR w HA - 0 1");
    expect_forms(&g, "O-O", "g1h1", "O-O");
    expect_forms(&g, "g1h1", "g1h1", "O-O");
    /* Queenside: the king goes to c1, the rook to d1, over b1..f1. */
    expect_forms(&g, "O-O-O", "g1a1", "O-O-O");
    play_all(&g, "g1h1");
    assert_string_equal(game_fen(&g), "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1");
    game_free(&g);

    /* The king lands where its rook stood (b1 takes c1: king c1, rook
     * d1), and the other side's rights stay. */
    start960(&g, "1rk5/8/8/8/8/8/8/1RK5 w Bb - 0 1");
    play_all(&g, "c1b1");
    assert_string_equal(game_fen(&g), "1rk5/8/8/8/8/8/8/2KR4 b q - 1 1");
    play_all(&g, "O-O-O");
    assert_string_equal(game_fen(&g), "2kr4/8/8/8/8/8/8/2KR4 w - - 2 2");
    game_free(&g);
}

static void test_castling_rules960(void **state)
{
    (void)state;
    Game g;
    /* The rook leaving b1 would uncover c1 to the rook on a1. */
    start960(&g, "4k3/8/8/8/8/8/8/rRK5 w B - 0 1");
    assert_string_equal(refused(&g, "c1b1"),
                        "white cannot castle: the king would pass through or land on an attacked square");
    game_free(&g);
    /* The king's landing square is attacked (c1 by the rook on c8); the
     * rook's may be (d1 by the rook on d8). */
    start960(&g, "2r1k3/8/8/8/8/8/8/RK6 w A - 0 1");
    assert_string_equal(refused(&g, "O-O-O"),
                        "white cannot castle: the king would pass through or land on an attacked square");
    game_free(&g);
    start960(&g, "3rk3/8/8/8/8/8/8/RK6 w A - 0 1");
    play_all(&g, "O-O-O");
    assert_string_equal(game_fen(&g), "3rk3/8/8/8/8/8/8/2KR4 b - - 1 1");
    game_free(&g);
    /* A piece on the rook's landing square (the knight on f1). */
    start960(&g, "4k3/8/8/8/8/8/8/1K3N1R w H - 0 1");
    assert_string_equal(refused(&g, "O-O"), "white cannot castle kingside: there are pieces between the king and the rook");
    game_free(&g);
    /* King takes own rook, where no castling is: said as castling. */
    start960(&g, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_string_equal(refused(&g, "g1h1"),
                        "white cannot castle kingside: a square the king or the rook crosses or lands on is taken");
    game_free(&g);
    start960(&g, "4k3/8/8/8/8/8/8/RKR4R w H - 0 1");
    assert_string_equal(refused(&g, "b1c1"),
                        "white cannot castle with the rook on c1: the king or that rook has already moved");
    assert_string_equal(refused(&g, "b1a1"),
                        "white cannot castle with the rook on a1: the king or that rook has already moved");
    game_free(&g);
    /* A rook that moves loses its right; a king that moves, both. */
    start960(&g, "r3k1r1/8/8/8/8/8/8/1R2K2R w HBga - 0 1");
    play_all(&g, "b1b2");
    assert_string_equal(game_fen(&g), "r3k1r1/8/8/8/8/8/1R6/4K2R b Kkq - 1 1");
    play_all(&g, "e8d8");
    assert_string_equal(game_fen(&g), "r2k2r1/8/8/8/8/8/1R6/4K2R w K - 2 2");
    /* Taking the castling rook takes the right too. */
    game_free(&g);
    start960(&g, "r3k1r1/8/8/8/8/8/8/1R2K1R1 w GBga - 0 1");
    play_all(&g, "g1g8");
    assert_string_equal(game_fen(&g), "r3k1R1/8/8/8/8/8/8/1R2K3 b Qq - 0 1");
    game_free(&g);
}

/* Every legal move of the published positions reads back from its
 * coordinate form as itself. */
static void test_moves_read_back(void **state)
{
    (void)state;
    for (int i = 0; i < PUBLISHED_COUNT; i++) {
        Game g;
        start960(&g, PUBLISHED[i].fen);
        MoveList l;
        legal_list(&g, &l);
        Line line;
        line_open(&line, &g, game_current(&g));
        for (int k = 0; k < l.count; k++) {
            Text c = TEXT_INIT, err = TEXT_INIT;
            Move back;
            assert_true(g.variant->format_coord(&line, l.moves[k], &c));
            if (!line_parse_text(&line, text_str(&c), &back, &err)) fail_msg("%s refused: %s", text_str(&c), text_str(&err));
            assert_true(move_equal(back, l.moves[k]));
            text_free(&c);
            text_free(&err);
        }
        line_close(&line);
        movelist_free(&l);
        game_free(&g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_published),
        cmocka_unit_test(test_trial_agrees),
        cmocka_unit_test(test_fen_forms),
        cmocka_unit_test(test_fen_refusals),
        cmocka_unit_test(test_castling_king_takes_rook),
        cmocka_unit_test(test_castling_rules960),
        cmocka_unit_test(test_moves_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
