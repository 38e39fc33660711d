/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time Traveler's Chess: every rule of docs/rules/travelers.md, the seed's
 * four illustrative games and its remarks, FEN, refusals.  The
 * comparison with the independent reference (tests/ref/travelers_ref.c)
 * on thousands of random positions is run by tests/rules-compare.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"
#include "travelers.h"

static uint64_t perft_of(const char *fen, const char *moves, int depth)
{
    Game g;
    game_start(&g, "travelers", fen);
    if (moves) play_all(&g, moves);
    uint64_t n;
    assert_true(game_perft(&g, depth, &n));
    game_free(&g);
    return n;
}

static const char *status_after(const char *fen, const char *moves)
{
    Game g;
    game_start(&g, "travelers", fen);
    if (moves) play_all(&g, moves);
    const char *s = game_status(&g);
    game_free(&g);
    return s;
}

static bool in_check_after(const char *moves)
{
    Game g;
    game_start(&g, "travelers", NULL);
    play_all(&g, moves);
    bool check = game_in_check(&g);
    game_free(&g);
    return check;
}

/* The squares of the supporters of an explosion of x on e, "b1 g1". */
static const char *supporters_after(const char *fen, const char *moves, PieceType x, const char *square)
{
    static char buf[128];
    Game g;
    game_start(&g, "travelers", fen);
    if (moves) play_all(&g, moves);
    Supports sp;
    travelers_supports(game_state(&g), game_board(&g)->side, &sp);
    Bitboard who = travelers_supporters(&sp, x, square_parse(square));
    buf[0] = 0;
    while (who) {
        char name[3];
        square_name((Square)__builtin_ctzll(who), name);
        who &= who - 1;
        if (buf[0]) strcat(buf, " ");
        strcat(buf, name);
    }
    game_free(&g);
    return buf;
}

/* ---- Perft -------------------------------------------------------------- */

static void test_start_perft(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "travelers", NULL);
    MoveList l;
    legal_list(&g, &l);
    int moves = 0, by_type[7] = { 0 };
    for (int i = 0; i < l.count; i++) {
        if (l.moves[i].kind == MOVE_EXPLOSION) by_type[l.moves[i].piece]++;
        else moves++;
    }
    assert_int_equal(l.count, 1078);
    assert_int_equal(moves, 20);
    assert_int_equal(by_type[PAWN], 38);
    assert_int_equal(by_type[KNIGHT], 160);
    assert_int_equal(by_type[BISHOP], 196);
    assert_int_equal(by_type[ROOK], 110);
    assert_int_equal(by_type[QUEEN], 529);
    assert_int_equal(by_type[KING], 25);
    movelist_free(&l);
    game_free(&g);
    assert_int_equal(perft_of(NULL, NULL, 2), 875545);
}

/* Counts the reference (tests/ref/travelers_ref.c) gives too. */
static void test_more_perft(void **state)
{
    (void)state;
    assert_int_equal(perft_of(NULL, "Nf6/e8", 1), 764);
    assert_int_equal(perft_of(NULL, "e4 d6 Bb5/e8 d4/d3 Bxd3", 1), 35);
    /* An annihilation by a double step, open to en passant. */
    assert_int_equal(perft_of(NULL, "e4 e5 Nf3/e5 Nc6/e5 d4/e5 Nb8//c6 d2//d4", 2), 605167);
}

/* ---- The seed's games --------------------------------------------------- */

/* Game 1: 1.Nf6/e8 gxf6 0-1.  The b1 knight is the only support; Black
 * loses its king but is never in check. */
static void test_seed_game1(void **state)
{
    (void)state;
    assert_string_equal(supporters_after(NULL, NULL, KNIGHT, "f6"), "b1");
    assert_false(in_check_after("Nf6/e8"));
    assert_string_equal(status_after(NULL, "Nf6/e8"), "ongoing");
    assert_string_equal(status_after(NULL, "Nf6/e8 gxf6"), "0-1 white grammatically incorrect");
}

/* Game 2: 1.e4 d6 2.Bb5/e8+ d4/d3 3.Bxd3+ Qe6/c4 4.Bxc4++ 1-0. */
static void test_seed_game2(void **state)
{
    (void)state;
    assert_false(in_check_after("e4 d6"));
    assert_true(in_check_after("e4 d6 Bb5/e8"));
    assert_false(in_check_after("e4 d6 Bb5/e8 d4/d3"));
    assert_true(in_check_after("e4 d6 Bb5/e8 d4/d3 Bxd3"));
    assert_false(in_check_after("e4 d6 Bb5/e8 d4/d3 Bxd3 Qe6/c4"));
    assert_string_equal(status_after(NULL, "e4 d6 Bb5/e8+ d4/d3 Bxd3+ Qe6/c4 Bxc4++"), "1-0 checkmate");
    /* The human forms write the checks the seed writes. */
    Game g;
    game_start(&g, "travelers", NULL);
    play_all(&g, "e4 d6 Bb5/e8");
    Line l;
    Text t = TEXT_INIT;
    line_open(&l, &g, game_current(&g) - 1);
    assert_true(g.variant->format_human(&l, game_node(&g, game_current(&g))->move, &t));
    assert_string_equal(text_str(&t), "Bb5/e8+");
    line_close(&l);
    play_all(&g, "d4/d3 Bxd3 Qe6/c4 Bxc4");
    text_clear(&t);
    line_open(&l, &g, game_current(&g) - 1);
    assert_true(g.variant->format_human(&l, game_node(&g, game_current(&g))->move, &t));
    assert_string_equal(text_str(&t), "Bxc4#");
    line_close(&l);
    text_free(&t);
    game_free(&g);
}

/* The quiz after 3.Bxd3+: exactly four kinds of piece can explode on c4
 * (pawn, knight, bishop, queen); the four chessmen that support them are
 * the seed's answer, "Q, QB, QN, QBP". */
static void test_seed_quiz(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "travelers", NULL);
    play_all(&g, "e4 d6 Bb5/e8 d4/d3 Bxd3");
    MoveList l;
    legal_list(&g, &l);
    bool kind[7] = { false };
    for (int i = 0; i < l.count; i++)
        if (l.moves[i].kind == MOVE_EXPLOSION && l.moves[i].from == square_parse("c4")) kind[l.moves[i].piece] = true;
    assert_true(kind[PAWN] && kind[KNIGHT] && kind[BISHOP] && kind[QUEEN]);
    assert_false(kind[ROOK] || kind[KING]);
    movelist_free(&l);
    game_free(&g);
    const char *moves = "e4 d6 Bb5/e8 d4/d3 Bxd3";
    assert_string_equal(supporters_after(NULL, moves, QUEEN, "c4"), "d8");
    assert_string_equal(supporters_after(NULL, moves, BISHOP, "c4"), "c8");
    assert_string_equal(supporters_after(NULL, moves, KNIGHT, "c4"), "b8");
    assert_string_equal(supporters_after(NULL, moves, PAWN, "c4"), "c7");
}

/* Game 3: not in check after 5.Qh5/f7, since White is not resolved; and
 * the seed's aside, 3.d2//d4 Qa5/e1 and White is in check. */
static void test_seed_game3(void **state)
{
    (void)state;
    const char *game = "e4 e5 d4/e5 c5 b4/c5 Nc6 Bb5/c6 dxc6 Qh5/f7";
    assert_false(in_check_after(game));
    assert_string_equal(status_after(NULL, "e4 e5 d4/e5 c5 b4/c5 Nc6 Bb5/c6 dxc6 Qh5/f7 Qxd4"),
                        "0-1 white grammatically incorrect");
    assert_true(in_check_after("e4 e5 d4/e5 c5 d2//d4 Qa5/e1"));
}

/* Game 4 ends 1-0 after 7.axb4: Black has lost a traveling bishop. */
static void test_seed_game4(void **state)
{
    (void)state;
    const char *game = "e4 e5 Nf3/e5 Nc6/e5 d4/e5 Nb8//c6 d2//d4 Bb4/e1 Qd6 cxd6 a3 dxe5";
    assert_string_equal(status_after(NULL, game), "ongoing");
    char all[256];
    snprintf(all, sizeof all, "%s axb4", game);
    assert_string_equal(status_after(NULL, all), "1-0 black grammatically incorrect");
}

/* ---- Supports ----------------------------------------------------------- */

static void test_support_reach(void **state)
{
    (void)state;
    /* Other pieces may clear lines: the c1 bishop reaches f6 by b3, Bb2. */
    assert_string_equal(supporters_after(NULL, NULL, BISHOP, "f6"), "c1");
    assert_string_equal(supporters_after(NULL, NULL, ROOK, "f6"), "");
    /* Promotion on the way: the b7 pawn is a queen on b8, then on h2. */
    const char *pawn = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
    assert_string_equal(supporters_after(pawn, NULL, QUEEN, "h2"), "b7");
    assert_string_equal(supporters_after(pawn, NULL, KNIGHT, "c6"), "b7");
    assert_string_equal(supporters_after(pawn, NULL, PAWN, "b6"), "");
    /* Captures on the way: the rook takes on a4 to reach a6 ... */
    const char *capture = "4k3/8/8/8/p7/1p6/1P6/R3K3 w - - 0 1";
    assert_string_equal(supporters_after(capture, NULL, ROOK, "a6"), "a1");
    /* ... and en passant only as the first move. */
    assert_string_equal(supporters_after("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "d7d5", PAWN, "d6"), "e5");
    assert_string_equal(supporters_after("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", NULL, PAWN, "d6"), "");
    /* Castling counts, with the rights: e1-g1, Kh2, Kh3. */
    assert_string_equal(supporters_after("4k3/8/8/8/8/8/5PP1/4K2R w K - 0 1", NULL, KING, "h3"), "e1");
    assert_string_equal(supporters_after("4k3/8/8/8/8/8/5PP1/4K2R w - - 0 1", NULL, KING, "h3"), "");
}

static void test_support_sets(void **state)
{
    (void)state;
    /* After Nf6/e8 the b1 knight supports that explosion; it cannot also
     * support one on a4, which only it reaches. */
    assert_string_equal(supporters_after(NULL, "Nf6/e8 h7h6", KNIGHT, "a4"), "b1");
    Game g;
    game_start(&g, "travelers", NULL);
    play_all(&g, "Nf6/e8 h7h6");
    assert_non_null(strstr(refused(&g, "Na4/b6"),
                           "every explosion needs its own support: the knight on b1 already supports the explosion on f6"));
    /* With the g1 knight as a second support, two explosions on squares
     * both reach are fine. */
    play_all(&g, "a2a3 h6h5 Nd5/c7");
    game_free(&g);
}

/* ---- Explosions, annihilations ------------------------------------------ */

static void test_explosion_capture_ban(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "travelers", NULL);
    play_all(&g, "Nf6/e8");
    /* A black knight exploding on d5 may not take the traveling knight on
     * f6, nor, exploding on d4, a white pawn: every untraveled pawn
     * resonates with the knight, as it could promote to one. */
    assert_non_null(strstr(refused(&g, "Nd5/f6"), "the traveled knight may not capture a traveling piece or a resonator"));
    assert_non_null(strstr(refused(&g, "Nd4/e2"), "the traveled knight may not capture a traveling piece or a resonator"));
    play_all(&g, "Nd4/b5");
    game_free(&g);
    /* In a normal move anything may be taken (and taking a traveling piece
     * wins). */
    assert_string_equal(status_after(NULL, "Nf6/e8 g7xf6"), "0-1 white grammatically incorrect");
}

static void test_annihilation(void **state)
{
    (void)state;
    const char *knights = "4k3/8/5N'2/8/4N3/8/8/4K3 w - - 0 1 e4:1 Nf6:1 -";
    Game g;
    game_start(&g, "travelers", knights);
    assert_false(travelers_resolved(game_state(&g), WHITE));
    play_all(&g, "e4//f6");
    assert_true(travelers_resolved(game_state(&g), WHITE));
    assert_int_equal(__builtin_popcountll(board_occupied(game_board(&g))), 2);
    game_free(&g);
    /* Pawns annihilate by a push, two squares from their first rank. */
    game_start(&g, "travelers", "4k3/8/8/8/3P'4/8/3P4/4K3 w - - 0 1 d2:1 Pd4:1 -");
    play_all(&g, "d2//d4");
    assert_string_equal(game_status(&g), "ongoing");
    game_free(&g);
    game_start(&g, "travelers", "4k3/8/8/8/3P'4/2P5/8/4K3 w - - 0 1 c3:1 Pd4:1 -");
    assert_non_null(strstr(refused(&g, "c3//d4"), "a pawn annihilates only by a push"));
    game_free(&g);
    /* The seed's notation: Nb8//c6, d2//d4. */
    assert_string_equal(status_after(NULL, "e4 e5 Nf3/e5 Nc6/e5 d4/e5 Nb8//c6 d2//d4"), "ongoing");
}

/* An en passant capture of a pawn whose double step annihilated undoes
 * the annihilation: the untraveled pawn is taken, its twin comes back. */
static void test_annihilation_undone_en_passant(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "travelers", NULL);
    play_all(&g, "e4 e5 d4/e5 c5 a3 c4 d2//d4");
    assert_int_equal(game_board(&g)->ep, square_parse("d3"));
    assert_true(strstr(game_fen(&g), " d3 0 4") != NULL);
    play_all(&g, "c4d3");
    assert_int_equal(travelers_piece_state(game_state(&g), square_parse("d4")), TRAVELING);
    assert_int_equal(game_board(&g)->squares[square_parse("d4")], make_piece(WHITE, PAWN));
    assert_string_equal(game_status(&g), "ongoing");
    game_free(&g);
}

/* ---- Grammar and check -------------------------------------------------- */

static void test_grammar(void **state)
{
    (void)state;
    /* A move that leaves the mover's traveling piece without a resonator. */
    Game g;
    game_start(&g, "travelers", "4k3/8/8/4P'3/2p5/3P4/8/4K3 w - - 0 1 d3:1 Pe5:1 -");
    assert_non_null(strstr(refused(&g, "d3c4"), "this leaves your traveling pawn on e5 with no resonator"));
    play_all(&g, "d3d4");
    game_free(&g);
    /* Two traveling knights need two resonators. */
    assert_string_equal(status_after("4k3/8/8/8/8/5N'2/N'7/1N2K3 w - - 0 1 b1:1 Na2:1,Nf3:2 -", NULL),
                        "0-1 white grammatically incorrect");
    assert_string_equal(status_after("4k3/8/8/8/8/5N'2/N'7/1N2KN2 w - - 0 1 b1:1,f1:2 Na2:1,Nf3:2 -", NULL), "ongoing");
    /* A lost traveling piece is incorrect for good, even with resonators. */
    assert_string_equal(status_after("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 b1:1 Nf6:1 W", NULL),
                        "0-1 white grammatically incorrect");
    /* A FEN whose side not to move is incorrect cannot arise. */
    Game bad;
    Text err = TEXT_INIT;
    assert_false(game_init(&bad, variant_find("travelers"), NULL, "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1 b1:1 Nf6:1 W", &err));
    assert_non_null(strstr(text_str(&err), "cannot arise"));
    game_free(&bad);
    text_free(&err);
}

static void test_check(void **state)
{
    (void)state;
    /* Kingless: no king, or an untraveled and a traveling king without a
     * traveled one.  A traveling king alone is a king. */
    const char *kings = "4k3/8/8/8/3K'4/8/8/4K3 w - - 0 1 e1:1 Kd4:1 -";
    Game g;
    game_start(&g, "travelers", kings);
    assert_true(travelers_kingless(game_state(&g), WHITE));
    game_free(&g);
    game_start(&g, "travelers", "4k3/8/8/8/3K'4/8/8/8 w - - 0 1 - Kd4:1 -");
    assert_false(travelers_kingless(game_state(&g), WHITE));
    game_free(&g);
    game_start(&g, "travelers", "4k3/8/8/8/3K'4/8/4K\"3/4K3 b - - 0 1 e1:1 Kd4:1 -");
    assert_false(travelers_kingless(game_state(&g), WHITE));
    game_free(&g);
    /* Check by an attack on the only king, the opponent resolved: the
     * fool's mate is check, but explosions can still answer it. */
    assert_true(in_check_after("f2f3 e7e5 g2g4 d8h4"));
    assert_string_equal(status_after(NULL, "f2f3 e7e5 g2g4 d8h4"), "ongoing");
    Game fool;
    game_start(&fool, "travelers", NULL);
    play_all(&fool, "f2f3 e7e5 g2g4 d8h4");
    assert_non_null(strstr(refused(&fool, "a2a3"), "you would be in check: Black could leave you kingless"));
    game_free(&fool);
}

static void test_castling(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "travelers", "5rk1/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_non_null(strstr(refused(&g, "e1g1"), "you may not castle through a square where you would be in check"));
    game_free(&g);
    game_start(&g, "travelers", "4rk2/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_non_null(strstr(refused(&g, "e1g1"), "you may not castle while in check"));
    game_free(&g);
    game_start(&g, "travelers", "6k1/8/8/8/8/8/8/4K2R w K - 0 1");
    play_all(&g, "e1g1");
    game_free(&g);
    /* Only an untraveled king and rook castle: a FEN saying otherwise is refused. */
    Text err = TEXT_INIT;
    Game bad;
    assert_false(game_init(&bad, variant_find("travelers"), NULL, "6k1/8/8/8/8/8/8/4K2R\" w K - 0 1 - Rh3:1 -", &err));
    game_free(&bad);
    text_free(&err);
}

static void test_refusals(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "travelers", NULL);
    assert_non_null(strstr(refused(&g, "Na6/b8"), "no untraveled knight can reach a6 in three moves"));
    assert_non_null(strstr(refused(&g, "Ne4/d2"), "cannot move to d2"));
    assert_non_null(strstr(refused(&g, "Ne2/g1"), "not empty"));
    game_free(&g);
    game_start(&g, "travelers", NULL);
    play_all(&g, "Nf6/e8 h7h6");
    assert_non_null(strstr(refused(&g, "f6e4"), "traveling pieces never move"));
    game_free(&g);
}

/* ---- FEN and repetition ------------------------------------------------- */

/* Every position of random games reads back from its FEN to the same
 * bytes and the same legal actions. */
static void test_fen_round_trip(void **state)
{
    (void)state;
    uint64_t seed = 7;
    for (int game = 0; game < 12; game++) {
        Game g;
        game_start(&g, "travelers", NULL);
        MoveList l;
        for (int ply = 0; ply < 40; ply++) {
            Outcome o;
            assert_true(game_outcome(&g, &o));
            legal_list(&g, &l);
            char fen[1024];
            snprintf(fen, sizeof fen, "%s", game_fen(&g));
            Game back;
            Text err = TEXT_INIT;
            if (!game_init(&back, g.variant, NULL, fen, &err)) fail_msg("%s: %s", fen, text_str(&err));
            text_free(&err);
            const State *a = game_state(&g), *b = game_state(&back);
            assert_memory_equal(a->ext, b->ext, sizeof(TravelersState));
            assert_true(board_equal(&a->board, &b->board));
            assert_string_equal(game_fen(&back), fen);
            MoveList lb;
            legal_list(&back, &lb);
            assert_int_equal(l.count, lb.count);
            movelist_free(&lb);
            game_free(&back);
            if (o.result != RESULT_NONE || !l.count) {
                movelist_free(&l);
                break;
            }
            assert_true(game_push(&g, pick_action(&l, &seed, true)));
            movelist_free(&l);
        }
        game_free(&g);
    }
}

static void test_repetition(void **state)
{
    (void)state;
    const char *shuffle = "Nf6/e8 b8c6 g1f3 c6b8 f3g1 b8c6 g1f3 c6b8 f3g1";
    assert_string_equal(status_after(NULL, shuffle), "1/2-1/2 threefold repetition");
    /* The support sets are part of a position: the same board before the
     * explosion's supporter got its identity is another position. */
    Game g;
    game_start(&g, "travelers", NULL);
    play_all(&g, "Nf6/e8 b8c6 g1f3 c6b8 f3g1");
    assert_int_equal(game_repetitions(&g), 1);
    game_free(&g);
}

static void test_fifty_moves(void **state)
{
    (void)state;
    const char *fen = "4k3/8/8/8/8/8/8/RN2K3 w - - 99 80";
    assert_string_equal(status_after(fen, "a1a2"), "1/2-1/2 fifty-move rule");
    Game g;
    game_start(&g, "travelers", fen);
    play_all(&g, "Nd2/f3");
    assert_int_equal(game_board(&g)->halfmove, 0);
    assert_string_equal(game_status(&g), "ongoing");
    game_free(&g);
}

/* The refusal of an action and the generator answer the same question:
 * every legal action is called legal, and every explosion the generator
 * leaves out is given a reason. */
static void test_refusal_agrees_with_generator(void **state)
{
    (void)state;
    uint64_t seed = 11;
    for (int game = 0; game < 4; game++) {
        Game g;
        game_start(&g, "travelers", NULL);
        MoveList l;
        for (int ply = 0; ply < 16; ply++) {
            Outcome o;
            assert_true(game_outcome(&g, &o));
            legal_list(&g, &l);
            if (o.result != RESULT_NONE || !l.count) {
                movelist_free(&l);
                break;
            }
            Line line;
            line_open(&line, &g, game_current(&g));
            for (int i = 0; i < l.count; i += 1 + (int)(test_random(&seed) % 12)) {
                Text why = TEXT_INIT;
                travelers_refusal(&line, l.moves[i], &why);
                assert_string_equal(text_str(&why), "that action is legal");
                text_free(&why);
            }
            for (int k = 0; k < 20; k++) {
                Move m = move_make((Square)(test_random(&seed) % 64), (Square)(test_random(&seed) % 64), MOVE_EXPLOSION,
                                   (uint8_t)(PAWN + test_random(&seed) % 6), 0);
                Text why = TEXT_INIT;
                travelers_refusal(&line, m, &why);
                bool legal = !strcmp(text_str(&why), "that action is legal");
                assert_int_equal(legal, movelist_contains(&l, m));
                text_free(&why);
            }
            line_close(&line);
            assert_true(game_push(&g, pick_action(&l, &seed, true)));
            movelist_free(&l);
        }
        game_free(&g);
    }
}

/* The result line if `flagged` ran out of time in the position. */
static const char *flag_line(const char *fen, Color flagged)
{
    Game g;
    game_start(&g, "travelers", fen);
    const char *line = flag_line_of(&g, flagged);
    game_free(&g);
    return line;
}

/* A flag loses unless the opponent could not win by any series of legal
 * actions ("A PLAYER WINS BY CHECKMATE OR BY FORCING HIS OPPONENT INTO
 * GRAMMATICAL INCORRECTNESS").  A lone traveled king cannot, against men
 * that are all traveled: it can neither explode nor take a traveling
 * piece, and one king gives no check.  An untraveled king can explode; an
 * untraveled man of the opponent can explode and offer its traveling half
 * to be taken; two traveled kings can mate together. */
static void test_flag_against_a_bare_king(void **state)
{
    (void)state;
    assert_string_equal(flag_line("4k\"3/8/8/8/8/8/4P\"3/4K\"3 w - - 0 1", WHITE),
                        "1/2-1/2 white lost on time, but black cannot win");
    assert_string_equal(flag_line("4k\"3/8/8/8/8/8/4P\"3/4K\"3 w - - 0 1", BLACK), "1-0 black lost on time");
    assert_string_equal(flag_line("4k3/8/8/8/8/8/4P\"3/4K\"3 w - - 0 1", WHITE), "0-1 white lost on time");
    assert_string_equal(flag_line("4k\"3/8/8/8/8/8/4P3/4K\"3 w - - 0 1", WHITE), "0-1 white lost on time");
    assert_string_equal(flag_line("4k\"3/8/8/8/8/8/4P\"3/4K3 w - - 0 1", WHITE), "0-1 white lost on time");
    assert_string_equal(flag_line("2k\"2k\"2/8/8/8/8/8/4P\"3/4K\"3 w - - 0 1", WHITE), "0-1 white lost on time");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_perft),
        cmocka_unit_test(test_more_perft),
        cmocka_unit_test(test_seed_game1),
        cmocka_unit_test(test_seed_game2),
        cmocka_unit_test(test_seed_quiz),
        cmocka_unit_test(test_seed_game3),
        cmocka_unit_test(test_seed_game4),
        cmocka_unit_test(test_support_reach),
        cmocka_unit_test(test_support_sets),
        cmocka_unit_test(test_explosion_capture_ban),
        cmocka_unit_test(test_annihilation),
        cmocka_unit_test(test_annihilation_undone_en_passant),
        cmocka_unit_test(test_grammar),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_castling),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_fen_round_trip),
        cmocka_unit_test(test_repetition),
        cmocka_unit_test(test_fifty_moves),
        cmocka_unit_test(test_refusal_agrees_with_generator),
        cmocka_unit_test(test_flag_against_a_bare_king),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
