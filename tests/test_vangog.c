/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of van Gog's Time Travel Chess in its three modes (vangog,
 * vangog-past, vangog-future): perft, every seed example of the rules file,
 * the rules one by one with the words of each refusal, the ends and how
 * obligations decide them, resignations and agreed draws, the notation in
 * every form the seed writes, the FEN extension round-tripped over random
 * games, and the records.  docs/rules/vangog.md names the test of each rule.
 *
 * The perft counts from positions with open obligations and travellers
 * were checked with the independent reading of the rules file in
 * tests/ref/vangog_ref.c ("vangog-ref MODE perft DEPTH ACTIONS...").
 */
#include "support.h"

#include "pgn.h"
#include "sheets.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static uint64_t perft_of(const char *variant, const char *fen, const char *moves, int depth)
{
    Game g;
    game_start(&g, variant, fen);
    if (moves) play_all(&g, moves);
    uint64_t n;
    assert_true(game_perft(&g, depth, &n));
    game_free(&g);
    return n;
}

static const char *status_after(const char *variant, const char *fen, const char *moves)
{
    Game g;
    game_start(&g, variant, fen);
    if (moves) play_all(&g, moves);
    const char *s = game_status(&g);
    game_free(&g);
    return s;
}

/* The human form of the last action, as the record writes it. */
static const char *last_human(const Game *g)
{
    static char buf[64];
    Line l;
    Text t = TEXT_INIT;
    line_open(&l, g, game_current(g) - 1);
    assert_true(g->variant->format_human(&l, game_node(g, game_current(g))->move, &t));
    line_close(&l);
    snprintf(buf, sizeof buf, "%s", text_str(&t));
    text_free(&t);
    return buf;
}

/* Is the action (in any notation) legal now? */
static bool legal_text(const Game *g, const char *action)
{
    Line l;
    Move m;
    Text err = TEXT_INIT;
    line_open(&l, g, game_current(g));
    bool ok = g->variant->parse(&l, action, &m, &err);
    line_close(&l);
    text_free(&err);
    return ok;
}

/* The result line if the game were ended now by `how`; the game is left
 * as it was. */
static const char *ended_by(Game *g, Outcome how)
{
    assert_true(game_declare(g, how, NULL));
    const char *s = game_status(g);
    assert_true(game_declare(g, outcome_none(), NULL));
    return s;
}

static Outcome white_resigns(void) { return outcome_make(RESULT_BLACK_WINS, REASON_RESIGNATION, SIDE_WHITE); }
static Outcome black_resigns(void) { return outcome_make(RESULT_WHITE_WINS, REASON_RESIGNATION, SIDE_BLACK); }
static Outcome agreed_draw(void) { return outcome_make(RESULT_DRAW, REASON_AGREED_DRAW, SIDE_NONE); }

/* The result line if `flagged` ran out of time now; the game is left as
 * it was. */
static const char *flag_line(Game *g, Color flagged)
{
    Line l;
    line_open(&l, g, game_current(g));
    Outcome o = outcome_on_time(&l, flagged);
    line_close(&l);
    return ended_by(g, o);
}

static int count_kind(const MoveList *l, int kind)
{
    int n = 0;
    for (int i = 0; i < l->count; i++) n += l->moves[i].kind == kind;
    return n;
}

/* ------------------------------------------------------------------ */
/* Perft                                                               */
/* ------------------------------------------------------------------ */

static void test_perft_start(void **state)
{
    (void)state;
    assert_int_equal(perft_of("vangog", NULL, NULL, 1), 3444);
    assert_int_equal(perft_of("vangog", NULL, NULL, 2), 11037472);
    assert_int_equal(perft_of("vangog-past", NULL, NULL, 1), 3410);
    assert_int_equal(perft_of("vangog-past", NULL, NULL, 2), 10814510);
    assert_int_equal(perft_of("vangog-future", NULL, NULL, 1), 54);
    assert_int_equal(perft_of("vangog-future", NULL, NULL, 2), 2916);
    assert_int_equal(perft_of("vangog-future", NULL, NULL, 3), 168698);
}

/* From positions with open obligations, links and travellers, reached by
 * actions and given as FEN; the counts agree with tests/ref/vangog_ref.c. */
static void test_perft_positions(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *moves, *fen;
        int depth;
        uint64_t nodes;
    } cases[] = {
        { "vangog", "Qd1d4* Pe7e5* d2d3 d8e7^",
          "rnb1kbnr/pppp1ppp/8/4p3/3Q4/3P4/PPP1PPPP/RNBQKBNR w KQkq - 0 3 d4:1,e5:2 1:Qd1d4,2:pe7e5 - qe7s", 2,
          10576424 },
        { "vangog-past", "Qd1d4* e7e5 Nb1c3* g8f6 Bf1c4*",
          "rnbqkb1r/pppp1ppp/5n2/4p3/2BQ4/2N5/PPPPPPPP/RNBQKBNR b KQkq - 0 3 c3:2,c4:3,d4:1 1:Qd1d4,2:Nb1c3,3:Bf1c4 - -",
          2, 10429227 },
        { "vangog-future", "e2e4 d7d5 d1h5^ c8g4^ b1c3",
          "rn1qkbnr/ppp1pppp/8/3p4/4P3/2N5/PPPP1PPP/R1B1KBNR b KQkq - 1 3 - - - Qh5,bg4", 3, 289319 },
        { "vangog", "e2e4 e7e5 Qd1h5* d8h4^ b1c3 Qh4^^ h5h4",
          "rnb1kbnr/pppp1ppp/8/4p3/4P2Q/2N5/PPPP1PPP/R1BQKBNR b KQkq - 0 4 h4:1 1:Qd1h5 - -", 2, 10552701 },
        { "vangog-future", "e2e4 e7e5 e1e2^ e8e7^", "rnbq1bnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQ1BNR w - - 0 3 - - - Ke2,ke7",
          3, 351956 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game g;
        game_start(&g, cases[i].variant, NULL);
        play_all(&g, cases[i].moves);
        assert_string_equal(game_fen(&g), cases[i].fen);
        game_free(&g);
        assert_int_equal(perft_of(cases[i].variant, NULL, cases[i].moves, cases[i].depth), cases[i].nodes);
        assert_int_equal(perft_of(cases[i].variant, cases[i].fen, NULL, cases[i].depth), cases[i].nodes);
    }
}

/* ------------------------------------------------------------------ */
/* The seed examples of the rules file                                 */
/* ------------------------------------------------------------------ */

/* "1 Qd1-d4* legal from the start: White has two queens and one obligation." */
static void test_seed_queen_arrives(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog", NULL);
    play_all(&g, "Qd1-d4*");
    assert_int_equal(__builtin_popcountll(board_pieces(game_board(&g), WHITE, QUEEN)), 2);
    assert_string_equal(game_fen(&g),
                        "rnbqkbnr/pppppppp/8/8/3Q4/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1 d4:1 1:Qd1d4 - -");
    assert_string_equal(last_human(&g), "Qd1-d4*");
    game_free(&g);
}

/* "1 Qd1-f3* Nc6 2 Bf1-c4* b6 3 Qxf7+ is legal and not mate; if the game
 * is then resigned or drawn, White's two open obligations make White lose." */
static void test_seed_qxf7_not_mate(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog", NULL);
    play_all(&g, "Qd1-f3* Nc6 Bf1-c4* b6 Qxf7+");
    assert_string_equal(game_status(&g), "ongoing");
    assert_true(game_in_check(&g));
    assert_string_equal(last_human(&g), "Qxf7+");
    /* A knight from the future answers it. */
    assert_true(legal_text(&g, "Ng5xf7*"));
    MoveList l;
    legal_list(&g, &l);
    assert_int_equal(l.count, 52);
    movelist_free(&l);
    assert_string_equal(ended_by(&g, black_resigns()), "0-1 white obligations unmet");
    assert_string_equal(ended_by(&g, agreed_draw()), "0-1 white obligations unmet");
    assert_string_equal(ended_by(&g, white_resigns()), "0-1 white resigns");
    game_free(&g);
}

/* "1 d4 Rd8xd4*: Black's obligation needs a capture on d4 by a rook from
 * d8; if the game ends with it open, Black loses." */
static void test_seed_capture_obligation(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog-past", NULL);
    play_all(&g, "d4 Rd8xd4*");
    assert_string_equal(game_fen(&g), "rnbqkbnr/pppppppp/8/8/3r4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2 d4:1 1:rd8d4x - -");
    assert_string_equal(ended_by(&g, agreed_draw()), "1-0 black obligations unmet");
    assert_string_equal(ended_by(&g, white_resigns()), "1-0 black obligations unmet");
    /* White keeps d4 empty: the rook may not come back by a quiet move. */
    game_free(&g);
    game_start(&g, "vangog-past", NULL);
    play_all(&g, "d4 Rd8xd4* Qxd4 e5 Qd3 Qe7 Nc3 Qd8 Nb1");
    /* The rook would need to capture on d4, which is empty. */
    assert_string_equal(refused(&g, "Rd8-d4**"), "the piece on d8 is a queen, not a rook");
    game_free(&g);
}

/* "Departure square must match: Qe2-f3** does not fulfil Qd1-f3*." */
static void test_seed_departure_square_must_match(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog", NULL);
    play_all(&g, "e4 e5 Qd1-f3* a6 Qf3e2 a5");
    assert_string_equal(refused(&g, "Qe2-f3**"),
                        "no open obligation Qe2-f3* (white's open obligations: Qd1-f3*)");
    /* The queen on d1 can: the squares match. */
    play_all(&g, "Qe2d3 a4 Qd1-f3**");
    assert_string_equal(game_fen(&g), "rnbqkbnr/1ppp1ppp/8/4p3/p3P3/3Q4/PPPP1PPP/RNB1KBNR b KQkq - 0 5 d3:1 - 1=0 -");
    game_free(&g);
}

/* "Ex nihilo: the piece that arrived by Qd1-d2* cannot itself play Qd1-d2**." */
static void test_seed_ex_nihilo(void **state)
{
    (void)state;
    Game g;
    /* The queen that arrived stands on d1 (origin 1), the old one on e3. */
    game_start(&g, "vangog", "rnbqkbnr/pppppppp/8/8/8/4Q3/PPP1PPPP/RNBQKBNR w KQkq - 0 5 d1:1 1:Qd1d2 - -");
    assert_string_equal(refused(&g, "Qd1-d2**"), "the queen that arrived by Qd1-d2* cannot fulfil its own obligation");
    assert_string_equal(refused(&g, "d1d2**"), "the queen that arrived by Qd1-d2* cannot fulfil its own obligation");
    game_free(&g);
    /* The same in play: the queen from the future goes round to d1. */
    game_start(&g, "vangog", NULL);
    play_all(&g, "d4 a6 Qd1-d3* a5 Qd1d2 a4 Qd2g5 b6 Qd3d1 b5");
    assert_string_equal(refused(&g, "Qd1-d3**"), "the queen that arrived by Qd1-d3* cannot fulfil its own obligation");
    game_free(&g);
    /* The queen of the start position may. */
    game_start(&g, "vangog", NULL);
    play_all(&g, "d4 a6 Qd1-d3* a5 Qd3h3 b6 Qd1-d3**");
    assert_string_equal(game_fen(&g), "rnbqkbnr/2pppppp/1p6/p7/3P4/7Q/PPP1PPPP/RNB1KBNR b KQkq - 0 4 h3:1 - 1=0 -");
    game_free(&g);
}

/* The ban follows links: a piece whose origin's arrival was fulfilled by
 * the piece of arrival k descends from k too. */
static void test_ex_nihilo_through_links(void **state)
{
    (void)state;
    Game g;
    /* Arrival 2's queen (on d1) was fulfilled by... no: arrival 1 was
     * fulfilled by the piece of origin 2 (link 1=2), so the queen of
     * origin 1 (on d1) descends from arrival 2 and cannot fulfil it. */
    game_start(&g, "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 30 d1:1 2:Qd1d3 1=2 -");
    assert_string_equal(refused(&g, "Qd1-d3**"),
                        "the queen on d1 owes its existence to the arrival Qd1-d3*, so it cannot fulfil that "
                        "obligation (no ex nihilo loops)");
    game_free(&g);
    /* Without the link it may. */
    game_start(&g, "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 30 d1:1 2:Qd1d3 1=0 -");
    play_all(&g, "Qd1-d3**");
    assert_string_equal(game_fen(&g), "4k3/8/8/8/8/8/8/4K3 b - - 0 30 - - 1=0,2=1 -");
    game_free(&g);
}

/* Mode future: "1 e4 f6 2 Qh5† g5 3 Qh5#††: move 3 refused (check mismatch)". */
static void test_seed_reappearance_check_mismatch(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog-future", NULL);
    play_all(&g, "e4 f6 Qh5† g5");
    assert_string_equal(refused(&g, "Qh5#††"), "the queen left without giving check, so it may not return giving check");
    assert_string_equal(refused(&g, "Qh5^^"), "the queen left without giving check, so it may not return giving check");
    game_free(&g);
    /* The other way: a piece that left giving check (by discovery) must
     * return giving check. */
    game_start(&g, "vangog-future", "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 20 - - - -");
    play_all(&g, "Nc3+† Kd8");
    assert_string_equal(game_fen(&g), "3k4/8/8/8/8/8/8/4R1K1 w - - 1 21 - - - Nc3+");
    assert_string_equal(refused(&g, "Nc3^^"), "the knight left giving check, so it must return giving check");
    game_free(&g);
}

/* Mode future: "1 e4 f6 2 Qh5† g5 3 Be2 Nc6 4 Bh5#: checkmate, but h5 is
 * occupied, the queen can never return: result 0-1." */
static void test_seed_mate_and_lose(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog-future", NULL);
    play_all(&g, "e4 f6 Qh5† g5 Be2 Nc6 Bh5#");
    assert_string_equal(game_status(&g), "0-1 white obligations unmet");
    /* It is a mate on the board all the same. */
    assert_string_equal(last_human(&g), "Bh5#");
    Outcome o;
    assert_true(game_outcome(&g, &o));
    assert_int_equal(o.board, REASON_CHECKMATE);
    assert_int_equal(o.side, SIDE_WHITE);
    game_free(&g);
}

/* "Fool's mate 1 f3 e5 2 g4 Qh4+ is not mate (an arrival blocks on g3 or
 * f2, or captures on h4)"; in mode future it is. */
static void test_seed_fools_mate(void **state)
{
    (void)state;
    assert_string_equal(status_after("vangog-future", NULL, "f3 e5 g4 Qh4#"), "0-1 checkmate");
    assert_string_equal(status_after("chess", NULL, "f3 e5 g4 Qh4#"), "0-1 checkmate");
    static const char *const modes[] = { "vangog-past", "vangog" };
    for (int i = 0; i < 2; i++) {
        Game g;
        game_start(&g, modes[i], NULL);
        play_all(&g, "f3 e5 g4 Qh4+");
        assert_string_equal(game_status(&g), "ongoing");
        assert_true(legal_text(&g, "Pg2-g3*"));
        assert_true(legal_text(&g, "Ne4-f2*"));
        assert_true(legal_text(&g, "Ng6xh4*"));
        assert_true(legal_text(&g, "Rh1xh4*"));
        /* No arrival elsewhere answers the check. */
        assert_string_equal(refused(&g, "Qd1-d4*"), "that would leave the white king in check");
        game_free(&g);
    }
}

/* ------------------------------------------------------------------ */
/* The rules one by one                                                */
/* ------------------------------------------------------------------ */

/* Arrivals: the piece's move on an empty board; nothing between matters;
 * the target empty, an enemy or a piece of one's own, never a king. */
static void test_arrival_shapes(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog-past", NULL);
    assert_true(legal_text(&g, "Ra1-a5*"));     /* through the pawn on a2 */
    assert_true(legal_text(&g, "Bc1-h6*"));     /* through the pawn on d2 */
    assert_true(legal_text(&g, "Rh8xh2*"));     /* a white arrival onto its own pawn */
    assert_true(legal_text(&g, "Qd8xd7*"));     /* ... and onto a black pawn */
    assert_true(legal_text(&g, "Nb1xd2*"));
    assert_string_equal(refused(&g, "Qd1-e3*"), "a queen cannot move from d1 to e3");
    assert_string_equal(refused(&g, "Qd1xe8*"), "kings are never captured (a king stands on e8)");
    assert_string_equal(refused(&g, "Qd2xe1*"), "kings are never captured (a king stands on e1)");
    assert_string_equal(refused(&g, "Kd1xd2*"), "kings never capture their own pieces");
    assert_true(legal_text(&g, "Kd4-d3*"));
    /* A king does not arrive in check. */
    play_all(&g, "e4 Bf8-c5*");
    assert_string_equal(refused(&g, "Ke4-e3*"), "a king cannot arrive on e3: it would stand in check");
    game_free(&g);
}

/* Pawns arrive one or two steps straight on onto an empty square, or one
 * diagonally onto a piece; never from or to their first rank, never onto
 * their last (no promotion in time travel). */
static void test_arrival_pawns(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog", NULL);
    assert_true(legal_text(&g, "Pe3-e4*"));
    assert_true(legal_text(&g, "e2-e4*"));      /* from its second rank, two steps */
    assert_true(legal_text(&g, "Pd6xe7*"));     /* onto a black pawn */
    assert_true(legal_text(&g, "Pd1xe2*") == false);
    assert_string_equal(refused(&g, "Pe1e2*"),
                        "a pawn cannot arrive on its first rank or from it: no white pawn ever stands on e1");
    assert_string_equal(refused(&g, "Pe6e7*"), "a pawn arriving straight on needs an empty square, and e7 is occupied");
    assert_string_equal(refused(&g, "Pd3e4*"), "a pawn arriving diagonally must capture (or self-capture), and e4 is empty");
    assert_string_equal(refused(&g, "Pe3e5*"),
                        "a pawn cannot come from e3 to e5: one or two steps forward, or one diagonally forward");
    play_all(&g, "Nf3 Nf6 Ng1 Ng8");
    assert_string_equal(refused(&g, "Pe7e8*"), "a pawn cannot arrive on its last rank: time travel never promotes");
    /* Arrivals leave no en passant right. */
    play_all(&g, "e4 e5 Pc2-c4*");
    assert_true(game_board(&g)->ep == SQ_NONE);
    game_free(&g);
    game_start(&g, "vangog", "4k3/8/8/8/3p4/8/8/4K3 w - - 0 20 - - - -");
    play_all(&g, "e2-e4*");
    assert_false(legal_text(&g, "dxe3"));
    game_free(&g);
}

/* The obligation's five facts: piece, from, to, capture kind, check. */
static void test_obligation_facts(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog", NULL);
    play_all(&g, "e4 f6 Qd1-h5+*");
    assert_string_equal(last_human(&g), "Qd1-h5+*");
    assert_string_equal(game_fen(&g), "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2 h5:1 1:Qd1h5+ - -");
    play_all(&g, "g6 Qh5xg6+ hxg6 Bf1-d3* Rh8-h2*");
    assert_string_equal(game_fen(&g),
                        "rnbqkbnr/ppppp3/5pp1/8/4P3/3B4/PPPP1PPr/RNBQKBNR w KQq - 0 5 h2:3,d3:2 1:Qd1h5+,2:Bf1d3,3:rh8h2x - -");
    game_free(&g);
    /* A self-capture is one of its own kind: Rd1xd2* made with the white
     * pawn on d2 needs a white piece on d2 when the rook leaves. */
    game_start(&g, "vangog", "4k3/8/8/8/8/8/3P4/3RK3 w - - 0 20 - - - -");
    play_all(&g, "Rd1xd2* Kf7");
    assert_string_equal(game_fen(&g), "8/5k2/8/8/8/8/3R4/3RK3 w - - 1 21 d2:1 1:Rd1d2s - -");
    play_all(&g, "Rd2d3 Ke6");
    assert_string_equal(refused(&g, "Rd1-d2**"), "no open obligation Rd1-d2* (white's open obligations: Rd1xd2*)");
    play_all(&g, "Rd3d2 Kf6 Rd1xd2**");
    assert_string_equal(game_fen(&g), "8/8/5k2/8/8/8/8/4K3 b - - 0 23 - - 1=0 -");
    game_free(&g);
}

/* A departure fulfils the oldest matching obligation the ban permits;
 * obligations alike give one action. */
static void test_departure_fulfils_oldest(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 30 - 1:Qd1d3,2:Qd1d3 - -");
    MoveList l;
    legal_list(&g, &l);
    assert_int_equal(count_kind(&l, MOVE_DEPART_PAST), 1);
    movelist_free(&l);
    play_all(&g, "d1d3**");
    assert_string_equal(game_fen(&g), "4k3/8/8/8/8/8/8/4K3 b - - 0 30 - 2:Qd1d3 1=0 -");
    game_free(&g);
    /* The queen of origin 1 may not fulfil 1, so it fulfils 2. */
    game_start(&g, "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 30 d1:1 1:Qd1d3,2:Qd1d3 - -");
    play_all(&g, "d1d3**");
    assert_string_equal(game_fen(&g), "4k3/8/8/8/8/8/8/4K3 b - - 0 30 - 1:Qd1d3 2=1 -");
    game_free(&g);
}

/* A departure is a real move: the path clear, the pawn rules, a king not
 * onto an attacked square, and none of the mover's kings left attacked. */
static void test_departure_is_a_move(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog", NULL);
    assert_string_equal(refused(&g, "d1h5^"), "the queen on d1 cannot move to h5");
    assert_string_equal(refused(&g, "e1e2^"), "kings never capture their own pieces");
    assert_string_equal(refused(&g, "e1d1^"), "kings never capture their own pieces");
    assert_string_equal(refused(&g, "e1g1^"), "kings never capture their own pieces");
    assert_string_equal(refused(&g, "d2d3**"), "no open obligation d2-d3* (white has none)");
    assert_true(legal_text(&g, "d1d2^"));       /* a self-capture */
    assert_true(legal_text(&g, "Nxd2†"));
    game_free(&g);
    game_start(&g, "vangog", "4k3/8/8/8/8/8/4K3/5r2 w - - 0 20 - - - -");
    assert_string_equal(refused(&g, "e2f3^"), "a king may not step onto an attacked square, not even to leave");
    assert_string_equal(refused(&g, "Ke2-d1^"), "a king may not step onto an attacked square, not even to leave");
    assert_true(legal_text(&g, "e2d3^"));
    game_free(&g);
    /* A pinned piece may not leave; capturing the pinner it may. */
    game_start(&g, "vangog-future", "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 20 - - - -");
    assert_string_equal(refused(&g, "d2f3^"), "that would leave the white king in check");
    game_free(&g);
    game_start(&g, "vangog-future", "4k3/8/8/8/1b6/2N5/8/4K3 w - - 0 20 - - - -");
    assert_true(legal_text(&g, "c3b5^") == false);
    game_free(&g);
    game_start(&g, "vangog-future", "4k3/8/8/8/1b6/8/3R4/4K3 w - - 0 20 - - - -");
    assert_true(legal_text(&g, "Rd2-d1†") == false);
    game_free(&g);
    game_start(&g, "vangog-future", "4k3/8/8/8/8/2b5/3B4/4K3 w - - 0 20 - - - -");
    assert_true(legal_text(&g, "Bd2xc3†"));
    assert_string_equal(refused(&g, "Bd2-e3†"), "that would leave the white king in check");
    game_free(&g);
    /* No promotion, no en passant, no castling by time travel. */
    game_start(&g, "vangog-future", "4k3/1P6/8/3pP3/8/8/8/R3K2R w KQ d6 0 20 - - - -");
    assert_string_equal(refused(&g, "b7b8^"), "a pawn cannot travel in time onto its last rank: time travel never promotes");
    assert_string_equal(refused(&g, "e5d6^"), "the pawn on e5 cannot move to d6");
    assert_string_equal(refused(&g, "e1g1^"), "a king cannot castle into time travel");
    assert_true(legal_text(&g, "e5d6"));
    game_free(&g);
}

/* The only king may leave for the future: no king, no check; it is judged
 * at the end by the square it must find as it left it. */
static void test_king_to_the_future(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog-future", NULL);
    play_all(&g, "e4 e5 Ke1-e2† d5");
    assert_false(game_in_check(&g));
    assert_string_equal(game_fen(&g), "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQ1BNR w kq d6 0 3 - - - Ke2");
    play_all(&g, "Nf3 Bg4 Bc4 Bxf3");
    assert_string_equal(refused(&g, "Ke2^^"), "that would leave the white king in check");
    play_all(&g, "gxf3 Qg5 Ke2^^");
    assert_string_equal(last_human(&g), "Ke2††");
    game_free(&g);
    /* A king returns only where it is not attacked. */
    game_start(&g, "vangog-future", "4k3/8/8/8/8/8/8/8 w - - 0 20 - - - Ke2,rh2");
    assert_true(legal_text(&g, "Ke2^^"));
    game_free(&g);
    game_start(&g, "vangog-future", "4k3/8/8/8/8/8/P6r/8 w - - 0 20 - - - Ke2");
    assert_string_equal(refused(&g, "Ke2^^"), "that would leave the white king in check");
    game_free(&g);
}

/* Reappearances match the departure: empty, capture, self-capture. */
static void test_reappearance_matches(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog-future", NULL);
    play_all(&g, "e4 d5 exd5† Qd5");
    assert_string_equal(game_fen(&g), "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 1 3 - - - Pd5x");
    assert_string_equal(last_human(&g), "Qd5");
    play_all(&g, "Nc3 Qd6");
    assert_string_equal(refused(&g, "d5^^"),
                        "the pawn captured on d5 when it left, so it must return by capturing an enemy piece there");
    play_all(&g, "Nb5 Qd5 Nc3 Qd6 Nb1 Qd5");
    assert_true(legal_text(&g, "Pxd5††"));
    play_all(&g, "Pxd5††");
    assert_string_equal(last_human(&g), "Pxd5††");
    game_free(&g);
    game_start(&g, "vangog-future", NULL);
    play_all(&g, "Nxd2† e5");
    assert_string_equal(refused(&g, "Nd2^^"),
                        "the knight took a piece of its own on d2 when it left, so it must return onto one of its own "
                        "pieces (no king)");
    play_all(&g, "Qd2 e4");
    assert_string_equal(refused(&g, "Qh5^^"), "white has no queen travelling to h5");
    play_all(&g, "Nd2††");
    game_free(&g);
}

/* Of identical travellers the oldest returns, keeping its origin. */
static void test_travellers_oldest_first(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog", "4k3/8/8/8/8/8/8/4K3 w - - 0 30 - 1:Qd1d3,2:Qd1d3 - Qa3:2,Qa3:1");
    MoveList l;
    legal_list(&g, &l);
    assert_int_equal(count_kind(&l, MOVE_REAPPEAR), 1);
    movelist_free(&l);
    play_all(&g, "Qa3^^");
    assert_string_equal(game_fen(&g), "4k3/8/8/8/8/Q7/8/4K3 b - - 0 30 a3:2 1:Qd1d3,2:Qd1d3 - Qa3:1");
    game_free(&g);
}

/* Castling rights go for good with any action naming a corner or a
 * king's square, the square an arrival comes from included. */
static void test_castling_rights(void **state)
{
    (void)state;
    static const struct {
        const char *moves, *castling;
    } cases[] = {
        { "Ra1-a4*", "Kkq" }, { "Rh8-h4*", "KQq" }, { "Nb3xa1*", "Kkq" }, { "Ke1-e2*", "kq" },
        { "Rh1-h2*", "Qkq" }, { "Qd1-e2*", "KQkq" }, { "a1a2^", "Kkq" },  { "Nb1-c3* Ke8-e7*", "KQ" },
        { "Rh1xh8*", "Qq" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game g;
        game_start(&g, "vangog", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 - - - -");
        play_all(&g, cases[i].moves);
        uint8_t rights = game_board(&g)->castling;
        char got[8] = "", *p = got;
        if (rights & CASTLE_WK) *p++ = 'K';
        if (rights & CASTLE_WQ) *p++ = 'Q';
        if (rights & CASTLE_BK) *p++ = 'k';
        if (rights & CASTLE_BQ) *p++ = 'q';
        *p = 0;
        if (strcmp(got, cases[i].castling)) fail_msg("%s: castling %s, expected %s", cases[i].moves, got, cases[i].castling);
        game_free(&g);
    }
}

/* The fifty-move count: every time-travel action resets it. */
static void test_fifty_moves(void **state)
{
    (void)state;
    assert_string_equal(status_after("vangog", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80 - - - -", "Ra2"),
                        "1/2-1/2 fifty-move rule");
    assert_string_equal(status_after("vangog", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80 - - - -", "Ra1-a5*"), "ongoing");
    assert_string_equal(status_after("vangog-future", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80 - - - -", "a1a5^"), "ongoing");
    /* Fifty moves with an obligation open: the draw is lost. */
    assert_string_equal(status_after("vangog", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80 - 1:ra8a7 - -", "Ra2"),
                        "1-0 black obligations unmet");
}

/* Repetition: the board with origins, the open obligations and the
 * travellers; no dead position (arrivals bring material). */
static void test_repetition_identity(void **state)
{
    (void)state;
    assert_string_equal(status_after("vangog", NULL, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"), "1/2-1/2 threefold repetition");
    assert_string_equal(status_after("vangog", NULL, "Qd1-d4* Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1"),
                        "0-1 white obligations unmet");
    assert_string_equal(status_after("vangog", "4k3/8/8/8/8/8/8/4K3 w - - 0 80 - - - -", NULL), "ongoing");
    /* The same board with another origin is another position. */
    Text err = TEXT_INIT;
    const Variant *v = variant_find("vangog");
    State *a = v->from_fen(NULL, "4k3/8/8/8/8/8/8/3QK3 w - - 0 30 - - 1=0 -", &err);
    State *b = v->from_fen(NULL, "4k3/8/8/8/8/8/8/3QK3 w - - 0 30 d1:1 - 1=0 -", &err);
    State *c = v->from_fen(NULL, "4k3/8/8/8/8/8/8/3QK3 w - - 0 30 - - 1=2,2=0 -", &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_false(v->same_position(a, b));
    assert_true(a->ext_key != b->ext_key);
    /* Links are no part of it. */
    assert_true(v->same_position(a, c));
    assert_true(a->ext_key == c->ext_key);
    free(a);
    free(b);
    free(c);
    text_free(&err);
}

/* The ends, and how unmet obligations and travellers decide them. */
static void test_results(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog", NULL);
    assert_string_equal(ended_by(&g, white_resigns()), "0-1 white resigns");
    assert_string_equal(ended_by(&g, agreed_draw()), "1/2-1/2 agreed draw");
    play_all(&g, "Qd1-d4* Qd8-d5*");
    assert_string_equal(ended_by(&g, white_resigns()), "0-0 both obligations unmet");
    assert_string_equal(ended_by(&g, agreed_draw()), "0-0 both obligations unmet");
    game_free(&g);
    /* Travellers: judged by the square only (vacancy principle). */
    game_start(&g, "vangog-future", NULL);
    play_all(&g, "e4 e5 Qh5† Nc6");
    assert_string_equal(ended_by(&g, agreed_draw()), "1/2-1/2 agreed draw");
    play_all(&g, "a3 g6 a4 Qh4 a5 Qh5");
    assert_string_equal(ended_by(&g, agreed_draw()), "0-1 white obligations unmet");
    assert_string_equal(ended_by(&g, black_resigns()), "0-1 white obligations unmet");
    game_free(&g);
    /* A mate on the board that the mated side's obligations confirm. */
    assert_string_equal(status_after("vangog-future", "k7/8/1K6/8/8/8/8/7R w - - 0 80 - - - rb1", "Rh8#"),
                        "1-0 checkmate");
    assert_string_equal(status_after("vangog-future", "k7/8/1K6/8/8/8/8/1N5R w - - 0 80 - - - rb1", "Rh8#"),
                        "1-0 checkmate");
    assert_string_equal(status_after("vangog-future", "k7/8/1K6/8/8/8/8/1N5R w - - 0 80 - - - rb1,Qb1", "Rh8#"),
                        "0-0 both obligations unmet");
    /* A stalemate lost by obligations. */
    assert_string_equal(status_after("vangog-future", "k7/8/8/1Q6/8/8/8/4K3 w - - 0 80 - - - Pd5", "Qb6"),
                        "1/2-1/2 stalemate");
    assert_string_equal(status_after("vangog-future", "k7/8/8/1Q1p4/3P4/8/8/4K3 w - - 0 80 - - - Pd5", "Qb6"),
                        "0-1 white obligations unmet");
}

/* end works for every variant and refuses a game already over. */
static void test_declared_ends_every_variant(void **state)
{
    (void)state;
    for (int i = 0; VARIANTS[i]; i++) {
        Game g;
        Text err = TEXT_INIT;
        assert_true(game_init(&g, VARIANTS[i], NULL, NULL, &err));
        assert_string_equal(ended_by(&g, white_resigns()), "0-1 white resigns");
        assert_string_equal(ended_by(&g, black_resigns()), "1-0 black resigns");
        assert_string_equal(ended_by(&g, agreed_draw()), "1/2-1/2 agreed draw");
        game_free(&g);
        text_free(&err);
    }
}

/* ------------------------------------------------------------------ */
/* Notation                                                            */
/* ------------------------------------------------------------------ */

static void test_notation_forms(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *before, *text, *coord, *human;
    } cases[] = {
        { "vangog", "", "Qd1-d4*", "Qd1d4*", "Qd1-d4*" },
        { "vangog", "", "Qd1d4*", "Qd1d4*", "Qd1-d4*" },
        { "vangog", "", "\xE2\x99\x95" "d1-d4*", "Qd1d4*", "Qd1-d4*" },   /* ♕ */
        { "vangog", "e4", "\xE2\x99\x9C" "d8-d5*", "Rd8d5*", "Rd8-d5*" }, /* ♜ */
        { "vangog", "d4", "Rd8xd4*", "Rd8d4*", "Rd8xd4*" },
        { "vangog", "e4 f6", "Qd1-h5+*", "Qd1h5*", "Qd1-h5+*" },
        { "vangog", "e4 f6", "Qd1-h5*", "Qd1h5*", "Qd1-h5+*" },
        { "vangog", "", "Pe2-e4*", "Pe2e4*", "e2-e4*" },
        { "vangog", "", "e2-e4*", "Pe2e4*", "e2-e4*" },
        { "vangog", "", "\xE2\x99\x99" "e2-e4*", "Pe2e4*", "e2-e4*" }, /* ♙ */
        { "vangog", "d4 e5 Qd1-d3* a6", "d4e5", "d4e5", "dxe5" },
        { "vangog", "d4 e5 dxe5 a6 Qd1-d4* a5 Qd4a4 b6", "Qd1-d4**", "d1d4**", "Qd1-d4**" },
        { "vangog", "d4 e5 dxe5 a6 Qd1-d4* a5 Qd4a4 b6", "d1d4**", "d1d4**", "Qd1-d4**" },
        { "vangog", "d4 e5 dxe5 a6 Qd1-d4* a5 Qd4a4 b6", "\xE2\x99\x95" "d1-d4**", "d1d4**", "Qd1-d4**" },
        { "vangog", "e4 e5", "Qh5\xE2\x80\xA0", "d1h5^", "Qh5\xE2\x80\xA0" },
        { "vangog", "e4 e5", "Qh5^", "d1h5^", "Qh5\xE2\x80\xA0" },
        { "vangog", "e4 e5", "d1h5^", "d1h5^", "Qh5\xE2\x80\xA0" },
        { "vangog", "e4 e5", "Qd1-h5^", "d1h5^", "Qh5\xE2\x80\xA0" },
        { "vangog", "e4 e5", "\xE2\x99\x95h5\xE2\x80\xA0", "d1h5^", "Qh5\xE2\x80\xA0" },
        { "vangog", "", "Nxd2^", "b1d2^", "Nxd2\xE2\x80\xA0" },
        { "vangog", "", "Nbd2^", "b1d2^", "Nxd2\xE2\x80\xA0" },
        { "vangog", "Nf3 a6 d4 b6", "Nbd2^", "b1d2^", "Nbd2\xE2\x80\xA0" },
        { "vangog", "Nf3 a6 d4 b6", "Nfd2^", "f3d2^", "Nfd2\xE2\x80\xA0" },
        { "vangog", "", "e4^", "e2e4^", "e4\xE2\x80\xA0" },
        { "vangog-future", "e4 f6 Qh5+\xE2\x80\xA0 g6 d4 Nc6", "Qh5#\xE2\x80\xA0\xE2\x80\xA0", "Qh5^^",
          "Qh5\xE2\x80\xA0\xE2\x80\xA0" },
        { "vangog-future", "e4 f6 Qh5+\xE2\x80\xA0 g6 d4 Nc6", "Qh5^^", "Qh5^^", "Qh5\xE2\x80\xA0\xE2\x80\xA0" },
        { "vangog-future", "e4 f6 Qh5+\xE2\x80\xA0 g6 d4 Nc6", "Qh5\xE2\x80\xA1", "Qh5^^", "Qh5\xE2\x80\xA0\xE2\x80\xA0" },
        { "vangog-future", "e4 f5 exf5\xE2\x80\xA0 e5 d3 Qg5 a3 Qf5", "Pxf5^^", "Pf5^^", "Pxf5\xE2\x80\xA0\xE2\x80\xA0" },
        { "vangog-future", "e4 f5 exf5\xE2\x80\xA0 e5 d3 Qg5 a3 Qf5", "xf5^^", "Pf5^^", "Pxf5\xE2\x80\xA0\xE2\x80\xA0" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game g;
        game_start(&g, cases[i].variant, NULL);
        if (*cases[i].before) play_all(&g, cases[i].before);
        Line l;
        Move m;
        Text err = TEXT_INIT, coord = TEXT_INIT, human = TEXT_INIT;
        line_open(&l, &g, game_current(&g));
        if (!g.variant->parse(&l, cases[i].text, &m, &err))
            fail_msg("%s after '%s': %s refused: %s", cases[i].variant, cases[i].before, cases[i].text, text_str(&err));
        assert_true(g.variant->format_coord(&l, m, &coord) && g.variant->format_human(&l, m, &human));
        if (strcmp(text_str(&coord), cases[i].coord) || strcmp(text_str(&human), cases[i].human))
            fail_msg("%s: read as %s / %s, expected %s / %s", cases[i].text, text_str(&coord), text_str(&human),
                     cases[i].coord, cases[i].human);
        /* Both written forms read back as the same action. */
        Move again;
        assert_true(g.variant->parse(&l, text_str(&coord), &again, &err));
        assert_true(move_equal(m, again));
        assert_true(g.variant->parse(&l, text_str(&human), &again, &err));
        assert_true(move_equal(m, again));
        line_close(&l);
        text_free(&err);
        text_free(&coord);
        text_free(&human);
        game_free(&g);
    }
}

/* Every legal action, written in either form, reads back as itself, in
 * positions of random games full of time travel. */
static void test_notation_round_trip_random(void **state)
{
    (void)state;
    static const char *const modes[] = { "vangog", "vangog-past", "vangog-future" };
    uint64_t seed = 0x51ED27A3B9C1F00DULL;
    long checked = 0;
    for (int mode = 0; mode < 3; mode++) {
        for (int game = 0; game < 4; game++) {
            Game g;
            game_start(&g, modes[mode], NULL);
            for (int ply = 0; ply < 40; ply++) {
                MoveList l;
                legal_list(&g, &l);
                Outcome o;
                assert_true(game_outcome(&g, &o));
                if (!l.count || o.result != RESULT_NONE) {
                    movelist_free(&l);
                    break;
                }
                Line line;
                line_open(&line, &g, game_current(&g));
                /* All of them at a few plies, a sample elsewhere. */
                int step = ply % 10 == 5 ? 1 : 37;
                for (int i = 0; i < l.count; i += step) {
                    Text coord = TEXT_INIT, human = TEXT_INIT, err = TEXT_INIT;
                    Move m = l.moves[i], back;
                    assert_true(g.variant->format_coord(&line, m, &coord) && g.variant->format_human(&line, m, &human));
                    if (!g.variant->parse(&line, text_str(&coord), &back, &err) || !move_equal(back, m))
                        fail_msg("%s: %s does not read back (%s)", modes[mode], text_str(&coord), text_str(&err));
                    if (!g.variant->parse(&line, text_str(&human), &back, &err) || !move_equal(back, m))
                        fail_msg("%s: %s does not read back (%s)", modes[mode], text_str(&human), text_str(&err));
                    checked++;
                    text_free(&coord);
                    text_free(&human);
                    text_free(&err);
                }
                line_close(&line);
                assert_true(game_push(&g, pick_action(&l, &seed, true)));
                movelist_free(&l);
            }
            game_free(&g);
        }
    }
    print_message("vangog notation: %ld actions read back\n", checked);
    assert_true(checked > 5000);
}

/* Refusals name the rule (the mode's own included). */
static void test_refusals_name_the_rule(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog-past", NULL);
    assert_string_equal(refused(&g, "Qh5^"), "vangog-past has no departures to the future (only arrivals from it)");
    assert_string_equal(refused(&g, "d1d2^"), "vangog-past has no departures to the future (only arrivals from it)");
    assert_string_equal(refused(&g, "Qh5^^"), "vangog-past has no travellers to the future, so nothing reappears");
    assert_string_equal(refused(&g, "Qd1d4***"),
                        "cannot read 'Qd1d4***': one * marks an arrival, ** a departure to the past, ^ (\xE2\x80\xA0) a "
                        "departure to the future, ^^ (\xE2\x80\xA0\xE2\x80\xA0) a reappearance");
    assert_string_equal(refused(&g, "Qd4*"),
                        "an arrival names the piece, where it comes from and where it lands: e.g. Qd1-d4* (or Qd1d4*)");
    assert_string_equal(refused(&g, "Qd1d1*"), "an arriving piece comes from another square than the one it lands on");
    game_free(&g);
    game_start(&g, "vangog-future", NULL);
    assert_string_equal(refused(&g, "Qd1-d4*"),
                        "vangog-future has no arrivals from the future (only departures to the future and reappearances)");
    assert_string_equal(refused(&g, "d1d4**"), "vangog-future has no departures to the past (only to the future)");
    assert_string_equal(refused(&g, "Qe4^"), "the queen on d1 cannot move to e4");
    assert_string_equal(refused(&g, "Nd3^"), "no white knight can move to d3");
    assert_string_equal(refused(&g, "Bf1-d3^"), "the bishop on f1 cannot move to d3");
    assert_string_equal(refused(&g, "Nf1-e3^"), "the piece on f1 is a bishop, not a knight");
    assert_string_equal(refused(&g, "e3e4^"), "there is no white piece on e3");
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* FEN                                                                 */
/* ------------------------------------------------------------------ */

/* Picks a time-travel action of a kind picked first, half the time, so
 * that the rare kinds (departures to the past) are played too. */
static Move pick_by_kind(const MoveList *l, uint64_t *seed)
{
    int kinds[MOVE_KINDS] = { 0 }, offered = 0;
    for (int i = 0; i < l->count; i++)
        if (is_travel(l->moves[i])) offered += kinds[l->moves[i].kind]++ == 0;
    if (offered && test_random(seed) % 2) {
        int k = (int)(test_random(seed) % (uint64_t)offered), kind = 0;
        for (; kind < MOVE_KINDS && (!kinds[kind] || k-- > 0); kind++) continue;
        int pick = (int)(test_random(seed) % (uint64_t)kinds[kind]);
        for (int i = 0; i < l->count; i++)
            if (l->moves[i].kind == kind && is_travel(l->moves[i]) && pick-- == 0) return l->moves[i];
    }
    return l->moves[test_random(seed) % (uint64_t)l->count];
}

/* Every position of random games read back from its own FEN is the same
 * state (links and all) and offers the same actions. */
static void test_fen_round_trip_random(void **state)
{
    (void)state;
    static const char *const modes[] = { "vangog", "vangog-past", "vangog-future" };
    uint64_t seed = 0x0123456789ABCDEFULL;
    long positions = 0, obligations = 0, links = 0;
    for (int mode = 0; mode < 3; mode++) {
        const Variant *v = variant_find(modes[mode]);
        for (int game = 0; game < 6; game++) {
            Game g;
            game_start(&g, modes[mode], NULL);
            for (int ply = 0; ply < 80; ply++) {
                const State *s = game_state(&g);
                Text fen = TEXT_INIT, err = TEXT_INIT;
                v->to_fen(&g.options, s, &fen);
                State *back = v->from_fen(&g.options, text_str(&fen), &err);
                if (!back) fail_msg("%s: own FEN %s refused: %s", v->name, text_str(&fen), text_str(&err));
                if (state_bytes(back) != state_bytes(s) || memcmp(&back->board, &s->board, sizeof s->board) ||
                    back->ext_key != s->ext_key || memcmp(back->ext, s->ext, s->ext_size))
                    fail_msg("%s: %s reads back as another state", v->name, text_str(&fen));
                /* The same actions from the FEN. */
                Game h;
                game_start(&h, modes[mode], text_str(&fen));
                MoveList a, b;
                legal_list(&g, &a);
                legal_list(&h, &b);
                assert_int_equal(a.count, b.count);
                for (int i = 0; i < a.count; i++) assert_true(move_equal(a.moves[i], b.moves[i]));
                const char *line = text_str(&fen);
                obligations += strchr(line, ':') != NULL;
                links += strchr(line, '=') != NULL;
                positions++;
                Outcome o;
                assert_true(game_outcome(&g, &o));
                bool over = o.result != RESULT_NONE || !a.count;
                if (!over) assert_true(game_push(&g, pick_by_kind(&a, &seed)));
                movelist_free(&a);
                movelist_free(&b);
                game_free(&h);
                free(back);
                text_free(&fen);
                text_free(&err);
                if (over) break;
            }
            game_free(&g);
        }
    }
    print_message("vangog FEN: %ld positions, %ld with origins, %ld with links\n", positions, obligations, links);
    assert_true(positions > 1000);
    assert_true(links > 10);
}

static void test_fen_errors(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *fen, *error;
    } cases[] = {
        { "vangog", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 d4:1 - - -",
          "bad FEN: cannot read the origins item 'd4:1' (write e.g. d4:1,f3:2, or '-' for none)" },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 d1:2 1:Qd1d3 - -",
          "bad FEN: origin 2 is not the number of one arrival" },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - 2:Qd1d3 - -",
          "bad FEN: arrival numbers must run from 1 to 1 (the obligations and links), each once; 2 does not fit" },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - 2:Qd1d3,1:Qd1d4 - -", "bad FEN: obligations are listed by number" },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - 1:Qd1e3 - -",
          "bad FEN: obligation 1:Qd1e3 cannot come from an arrival (a queen cannot arrive so)" },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - 1:Pe1e2 - -",
          "bad FEN: obligation 1:Pe1e2 cannot come from an arrival (a pawn cannot arrive so)" },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - - 1=2,2=1 -", "bad FEN: the links go round in a loop" },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - - 1=1 -",
          "bad FEN: link 1=1: the origin must be 0 or the number of another arrival (1 to 1)" },
        { "vangog", "4k3/8/8/8/8/8/8/3Q4 w - - 0 1 - - - -",
          "bad FEN: white has no king, neither on the board nor travelling" },
        { "vangog", "4k3/8/8/8/8/8/8/3Q4 w - - 0 1 - - - Ke2", NULL },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 d1:1 1:nb1d2 - -",
          "bad FEN: the piece on d1 has origin 1, but arrival 1 brought a black knight" },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - - - Pe8", "bad FEN: a pawn cannot have left for e8 so" },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - - - Ke2s", "bad FEN: a king cannot have left for e2 so" },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - - - - extra",
          "bad FEN: unexpected text after the travellers ('extra')" },
        { "vangog-past", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - - - Qh5",
          "bad FEN: this game has no departures to the future, so no travellers" },
        { "vangog-future", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - 1:Qd1d3 - -",
          "bad FEN: this game has no arrivals from the future, so no obligations or links" },
        { "vangog", "4k3/8/8/8/8/8/3q4/4K3 b - - 0 1 - - - -",
          "bad FEN: white is in check, but black is to move (that position cannot arise)" },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", NULL },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 - 1:Qd1d3", NULL },
        { "vangog", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 d1:1 1:Pd2d3 - -", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Text err = TEXT_INIT;
        const Variant *v = variant_find(cases[i].variant);
        State *s = v->from_fen(NULL, cases[i].fen, &err);
        if (!cases[i].error) {
            if (!s) fail_msg("%s refused: %s", cases[i].fen, text_str(&err));
        } else {
            if (s) fail_msg("%s accepted", cases[i].fen);
            if (strcmp(text_str(&err), cases[i].error)) fail_msg("%s: '%s'", cases[i].fen, text_str(&err));
        }
        free(s);
        text_free(&err);
    }
}

/* ------------------------------------------------------------------ */
/* Records and the play screen                                         */
/* ------------------------------------------------------------------ */

static void test_pgn_round_trip(void **state)
{
    (void)state;
    static const char *const modes[] = { "vangog", "vangog-past", "vangog-future" };
    uint64_t seed = 0xC0FFEE1234567ULL;
    for (int mode = 0; mode < 3; mode++) {
        for (int game = 0; game < 5; game++) {
            Game g;
            game_start(&g, modes[mode], NULL);
            for (int ply = 0; ply < 60; ply++) {
                Outcome o;
                MoveList l;
                legal_list(&g, &l);
                assert_true(game_outcome(&g, &o));
                if (o.result != RESULT_NONE || !l.count) {
                    movelist_free(&l);
                    break;
                }
                assert_true(game_push(&g, pick_action(&l, &seed, true)));
                movelist_free(&l);
            }
            if (game % 2) assert_true(game_declare(&g, game % 4 == 1 ? agreed_draw() : white_resigns(), NULL));
            Text pgn = TEXT_INIT, sheets = TEXT_INIT, err = TEXT_INIT;
            assert_true(pgn_write(&g, NULL, &pgn));
            assert_non_null(strstr(text_str(&pgn), "[Variant \"Time Travel Chess (van Gog)\"]"));
            Game back;
            if (!pgn_read(text_str(&pgn), NULL, NULL, &back, NULL, NULL, &err))
                fail_msg("%s: %s\n%s", modes[mode], text_str(&err), text_str(&pgn));
            assert_ptr_equal(back.variant, g.variant);
            assert_int_equal(game_count(&back), game_count(&g));
            assert_string_equal(game_fen(&back), game_fen(&g));
            char status[256];
            snprintf(status, sizeof status, "%s", game_status(&g));
            assert_string_equal(game_status(&back), status);
            game_free(&back);
            assert_true(sheets_write(&g, &sheets));
            if (!sheets_read(text_str(&sheets), NULL, NULL, &back, &err))
                fail_msg("%s: %s\n%s", modes[mode], text_str(&err), text_str(&sheets));
            assert_ptr_equal(back.variant, g.variant);
            assert_string_equal(game_fen(&back), game_fen(&g));
            game_free(&back);
            text_free(&pgn);
            text_free(&sheets);
            text_free(&err);
            game_free(&g);
        }
    }
}

/* A both-lose game: [Result "0-0"], "*" in the movetext, and read back. */
static void test_pgn_both_lose(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog", NULL);
    play_all(&g, "Qd1-d4* Qd8-d5*");
    assert_true(game_declare(&g, agreed_draw(), NULL));
    Text pgn = TEXT_INIT, err = TEXT_INIT;
    assert_true(pgn_write(&g, NULL, &pgn));
    assert_non_null(strstr(text_str(&pgn), "[Result \"0-0\"]"));
    assert_non_null(strstr(text_str(&pgn), "[VariantMode \"full\"]"));
    assert_non_null(strstr(text_str(&pgn), "[Termination \"agreed draw\"]"));
    assert_non_null(strstr(text_str(&pgn), "1. Qd1-d4* Qd8-d5*\n{unmet by white: obligation 1 Qd1-d4*; unmet by "
                                           "black: obligation 2 Qd8-d5*} *"));
    Game back;
    assert_true(pgn_read(text_str(&pgn), NULL, NULL, &back, NULL, NULL, &err));
    assert_string_equal(game_status(&back), "0-0 both obligations unmet");
    game_free(&back);
    text_free(&pgn);
    text_free(&err);
    game_free(&g);
}

/* The mode travels in records; the title alone means the full game. */
static void test_records_carry_the_mode(void **state)
{
    (void)state;
    static const char *const modes[] = { "vangog", "vangog-past", "vangog-future" };
    for (int i = 0; i < 3; i++) {
        const Variant *v = variant_find(modes[i]);
        assert_ptr_equal(variant_find_label("Time Travel Chess (van Gog)", v->mode), v);
    }
    assert_ptr_equal(variant_find_label("Time Travel Chess (van Gog)", NULL), variant_find("vangog"));
    assert_null(variant_find_label("Time Travel Chess (van Gog)", "sideways"));
    Game g;
    Text err = TEXT_INIT;
    assert_false(pgn_read("[Variant \"Time Travel Chess (van Gog)\"]\n[VariantMode \"sideways\"]\n\n1. e4 *\n", NULL,
                          NULL, &g, NULL, NULL, &err));
    assert_string_equal(text_str(&err), "Time Travel Chess (van Gog) has no mode 'sideways'");
    game_free(&g);
    text_clear(&err);
    assert_true(pgn_read("[Variant \"Time Travel Chess (van Gog)\"]\n[VariantMode \"future\"]\n\n1. e4 e5 2. Qh5^ *\n",
                         NULL, NULL, &g, NULL, NULL, &err));
    assert_string_equal(g.variant->name, "vangog-future");
    game_free(&g);
    text_free(&err);
}

/* The panel: each side's obligations, numbered, with their squares; the
 * travellers with the square each waits on.  The note on the end names
 * what each side left unmet (a traveller whose square is as it left it is
 * met). */
static void test_describe_and_notes(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog", NULL);
    play_all(&g, "e4 e5 Qd1-f3* Qd8-h4† Bf1-c4*");
    Line l;
    Text t = TEXT_INIT;
    line_open(&l, &g, game_current(&g));
    assert_true(g.variant->describe(&l, &t));
    assert_string_equal(text_str(&t), "White obligations:\n"
                                      "  1. Qd1-f3*  waits on d1, f3\n"
                                      "  2. Bf1-c4*  waits on f1, c4\n"
                                      "White travellers: none\n"
                                      "Black obligations: none\n"
                                      "Black travellers:\n"
                                      "  Qh4\xE2\x80\xA0  waits on h4 empty (now: yes)\n");
    text_clear(&t);
    assert_true(g.variant->note(&l, move_none(), &t));
    assert_string_equal(text_str(&t), "unmet by white: obligation 1 Qd1-f3*, obligation 2 Bf1-c4*");
    line_close(&l);
    game_free(&g);
    text_free(&t);
    /* At the end of a game, the note says what was unmet. */
    game_start(&g, "vangog-future", NULL);
    play_all(&g, "e4 f6 Qh5† g5 Be2 Nc6 Bh5#");
    line_open(&l, &g, game_current(&g));
    assert_true(g.variant->note(&l, move_none(), &t));
    assert_string_equal(text_str(&t), "unmet by white: Qh5\xE2\x80\xA0 cannot return");
    line_close(&l);
    text_free(&t);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* Time                                                                */
/* ------------------------------------------------------------------ */

/* A flag loses unless the opponent could not win by any series of legal
 * actions.  Kings alone give no check; a bare king may call a piece from
 * the future, but with no piece of its own to send it back it can never
 * meet the obligation (the seed: "playing Qd1-d2* in a K-vs-K+Q endgame
 * and later ... fulfilling this obligation with Qd1-d2** by that very
 * same queen" is not allowed), so in every mode a bare king with no
 * obligation and no piece gone to the future cannot win. */
static void test_flag_against_a_bare_king(void **state)
{
    (void)state;
    static const char *const modes[] = { "vangog", "vangog-past", "vangog-future" };
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        Game g;
        game_start(&g, modes[i], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_string_equal(flag_line(&g, WHITE), "1/2-1/2 white lost on time, but black cannot win");
        assert_string_equal(flag_line(&g, BLACK), "1-0 black lost on time");
        game_free(&g);
    }
}

/* A piece gone to the future will come back: its side can win.  An open
 * obligation counts too, but the obligations themselves judge the end:
 * the side that cannot meet its own loses, flag or not. */
static void test_flag_with_travel_pending(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "vangog-future", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 - - - qe5");
    assert_string_equal(flag_line(&g, WHITE), "0-1 white lost on time");
    game_free(&g);
    game_start(&g, "vangog", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 - 1:qd8d5");
    assert_string_equal(flag_line(&g, WHITE), "1-0 black obligations unmet");
    game_free(&g);
    /* The bare king calls a queen and then White's time runs out. */
    game_start(&g, "vangog-past", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
    play_all(&g, "Qd8d5*");
    assert_string_equal(flag_line(&g, WHITE), "1-0 black obligations unmet");
    game_free(&g);
    /* White's own open obligation decides a flag against a bare king. */
    game_start(&g, "vangog", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 - 1:Qd1d4");
    assert_string_equal(flag_line(&g, WHITE), "0-1 white obligations unmet");
    game_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_perft_positions),
        cmocka_unit_test(test_seed_queen_arrives),
        cmocka_unit_test(test_seed_qxf7_not_mate),
        cmocka_unit_test(test_seed_capture_obligation),
        cmocka_unit_test(test_seed_departure_square_must_match),
        cmocka_unit_test(test_seed_ex_nihilo),
        cmocka_unit_test(test_ex_nihilo_through_links),
        cmocka_unit_test(test_seed_reappearance_check_mismatch),
        cmocka_unit_test(test_seed_mate_and_lose),
        cmocka_unit_test(test_seed_fools_mate),
        cmocka_unit_test(test_arrival_shapes),
        cmocka_unit_test(test_arrival_pawns),
        cmocka_unit_test(test_obligation_facts),
        cmocka_unit_test(test_departure_fulfils_oldest),
        cmocka_unit_test(test_departure_is_a_move),
        cmocka_unit_test(test_king_to_the_future),
        cmocka_unit_test(test_reappearance_matches),
        cmocka_unit_test(test_travellers_oldest_first),
        cmocka_unit_test(test_castling_rights),
        cmocka_unit_test(test_fifty_moves),
        cmocka_unit_test(test_repetition_identity),
        cmocka_unit_test(test_results),
        cmocka_unit_test(test_declared_ends_every_variant),
        cmocka_unit_test(test_notation_forms),
        cmocka_unit_test(test_notation_round_trip_random),
        cmocka_unit_test(test_refusals_name_the_rule),
        cmocka_unit_test(test_fen_round_trip_random),
        cmocka_unit_test(test_fen_errors),
        cmocka_unit_test(test_pgn_round_trip),
        cmocka_unit_test(test_pgn_both_lose),
        cmocka_unit_test(test_records_carry_the_mode),
        cmocka_unit_test(test_describe_and_notes),
        cmocka_unit_test(test_flag_against_a_bare_king),
        cmocka_unit_test(test_flag_with_travel_pending),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
