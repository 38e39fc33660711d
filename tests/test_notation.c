/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of src/core/notation.c: coordinate and SAN moves, read and written.
 * The round trips run over every legal move of the perft suite's
 * positions and of every position two plies from them, so that each kind
 * of move (castling both ways, en passant, promotions and under-
 * promotions, disambiguation by file, rank and both, checks and mates)
 * is written and read back many times.
 */
#include "support.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static Board board_of(const char *fen)
{
    Board b;
    parse_ok(&b, fen);
    return b;
}

/* The legal chess moves of the board, appended to a list the caller
 * initialised; fails the test when out of memory. */
static void legal_of(const Board *b, MoveList *l)
{
    if (!gen_legal(b, l)) fail_msg("gen_legal: out of memory");
}

/* The check mark a move earns: '#' for mate, '+' for check, 0 otherwise. */
static char check_mark(const Board *b, Move m)
{
    Board after = *b;
    board_make(&after, m);
    if (!board_in_check(&after, after.side)) return 0;
    MoveList replies;
    movelist_init(&replies);
    legal_of(&after, &replies);
    char mark = replies.count ? '+' : '#';
    movelist_free(&replies);
    return mark;
}

/* Parses `text` on the board with chess's legal moves. */
static bool parse_on(const Board *b, const char *text, Move *out, Text *err)
{
    MoveList legal;
    movelist_init(&legal);
    legal_of(b, &legal);
    bool ok = chess_parse_move(b, &legal, text, out, err);
    movelist_free(&legal);
    return ok;
}

/* Parses `text` on the position `fen`, expecting success. */
static Move parsed(const char *fen, const char *text)
{
    Board b = board_of(fen);
    Move m;
    Text err = TEXT_INIT;
    if (!parse_on(&b, text, &m, &err)) fail_msg("'%s' refused on %s: %s", text, fen, text_str(&err));
    text_free(&err);
    return m;
}

/* Parses `text` on the position `fen`, expecting a refusal whose message
 * contains `expected`. */
static void refused_with(const char *fen, const char *text, const char *expected)
{
    Board b = board_of(fen);
    Move m;
    Text err = TEXT_INIT;
    if (parse_on(&b, text, &m, &err)) fail_msg("'%s' was accepted on %s", text, fen);
    if (!strstr(text_str(&err), expected))
        fail_msg("'%s' on %s: got \"%s\", expected \"%s\"", text, fen, text_str(&err), expected);
    text_free(&err);
}

static void assert_move(Move m, const char *from, const char *to, int kind, int piece)
{
    assert_int_equal(m.from, square_parse(from));
    assert_int_equal(m.to, square_parse(to));
    assert_int_equal(m.kind, kind);
    assert_int_equal(m.piece, piece);
}

/* The first FEN field group of each line of the perft file. */
static int perft_fens(char fens[][128], int max)
{
    char *text = read_data("perft-standard.txt");
    int n = 0;
    for (char *line = strtok(text, "\n"); line && n < max; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !strchr(line, ';')) continue;
        size_t len = (size_t)(strchr(line, ';') - line);
        while (len > 0 && line[len - 1] == ' ') len--;
        if (len >= 128) continue;
        memcpy(fens[n], line, len);
        fens[n][len] = 0;
        n++;
    }
    free(text);
    return n;
}

/* ------------------------------------------------------------------ */
/* Round trips over many positions                                     */
/* ------------------------------------------------------------------ */

typedef struct RoundTripCount {
    long positions, moves, castles, en_passant, promotions, disambiguated, marks;
} RoundTripCount;

/* Writes every legal move of the position in SAN and in coordinate form
 * and reads each back, expecting the same move. */
static void round_trip_position(const Board *b, RoundTripCount *count)
{
    MoveList moves;
    MoveList *legal = &moves;
    movelist_init(legal);
    legal_of(b, legal);
    count->positions++;
    Text san_text = TEXT_INIT, coord_text = TEXT_INIT, err = TEXT_INIT;
    for (int i = 0; i < legal->count; i++) {
        Move m = legal->moves[i], back;
        char mark = check_mark(b, m);
        text_clear(&san_text);
        text_clear(&coord_text);
        san_format(b, legal, m, mark, &san_text);
        const char *san = text_str(&san_text);
        if (!chess_parse_move(b, legal, san, &back, &err))
            fail_msg("SAN %s refused on %s: %s", san, fen_of(b), text_str(&err));
        if (!move_equal(back, m)) fail_msg("SAN %s read back as another move on %s", san, fen_of(b));
        move_to_coord(m, &coord_text);
        const char *coord = text_str(&coord_text);
        if (!chess_parse_move(b, legal, coord, &back, &err))
            fail_msg("coordinate %s refused on %s: %s", coord, fen_of(b), text_str(&err));
        if (!move_equal(back, m)) fail_msg("coordinate %s read back as another move on %s", coord, fen_of(b));
        count->moves++;
        count->castles += m.kind == MOVE_CASTLE;
        count->en_passant += m.kind == MOVE_EN_PASSANT;
        count->promotions += m.kind == MOVE_PROMOTION;
        count->marks += mark != 0;
        count->disambiguated += piece_type(b->squares[m.from]) != PAWN && m.kind != MOVE_CASTLE &&
                                strlen(san) - (mark != 0) - (strchr(san, 'x') != NULL) > 3;
    }
    text_free(&san_text);
    text_free(&coord_text);
    text_free(&err);
    movelist_free(legal);
}

/* Round-trips the position and every position `depth` plies below it. */
static void round_trip_tree(const Board *b, int depth, RoundTripCount *count)
{
    round_trip_position(b, count);
    if (depth == 0) return;
    MoveList legal;
    movelist_init(&legal);
    legal_of(b, &legal);
    for (int i = 0; i < legal.count; i++) {
        Board next = *b;
        board_make(&next, legal.moves[i]);
        round_trip_tree(&next, depth - 1, count);
    }
    movelist_free(&legal);
}

static void test_round_trip_perft_positions(void **state)
{
    (void)state;
    char fens[16][128];
    int n = perft_fens(fens, 16);
    assert_int_equal(n, 6);
    RoundTripCount count = { 0 };
    for (int i = 0; i < n; i++) {
        Board b = board_of(fens[i]);
        round_trip_tree(&b, 2, &count);
    }
    /* The perft suite's first two depths: 6 + 178 + 6459 positions. */
    print_message("%ld positions, %ld moves: %ld castling, %ld en passant, %ld promotions, %ld disambiguated, "
                  "%ld with + or #\n",
                  count.positions, count.moves, count.castles, count.en_passant, count.promotions,
                  count.disambiguated, count.marks);
    assert_int_equal(count.positions, 6 + 178 + 6459);
    assert_true(count.moves > 200000);
    assert_true(count.castles > 1000);
    assert_true(count.en_passant > 10);
    assert_true(count.promotions > 1000);
    assert_true(count.disambiguated > 1000);
    assert_true(count.marks > 1000);
}

/* The chess variant's human form, read through a Line, is the SAN with
 * the check mark line_check_mark works out on a line of its own; its
 * coordinate form is move_to_coord's. */
static void test_variant_forms_are_san(void **state)
{
    (void)state;
    char fens[16][128];
    int n = perft_fens(fens, 16);
    long checked = 0;
    for (int i = 0; i < n; i++) {
        Game g;
        game_start(&g, "chess", fens[i]);
        Line l;
        line_open(&l, &g, game_current(&g));
        MoveList legal;
        legal_list(&g, &legal);
        Text human = TEXT_INIT, coord = TEXT_INIT, san = TEXT_INIT, mv = TEXT_INIT;
        for (int k = 0; k < legal.count; k++) {
            Move m = legal.moves[k];
            char mark = 'x';
            text_clear(&human);
            text_clear(&coord);
            text_clear(&san);
            text_clear(&mv);
            assert_true(g.variant->format_human(&l, m, &human));
            assert_true(g.variant->format_coord(&l, m, &coord));
            assert_true(line_check_mark(&l, m, &mark));
            assert_int_equal(mark, check_mark(game_board(&g), m));
            san_format(game_board(&g), &legal, m, mark, &san);
            move_to_coord(m, &mv);
            assert_string_equal(text_str(&human), text_str(&san));
            assert_string_equal(text_str(&coord), text_str(&mv));
            checked++;
        }
        text_free(&human);
        text_free(&coord);
        text_free(&san);
        text_free(&mv);
        movelist_free(&legal);
        line_close(&l);
        /* Formatting played nothing on the record. */
        assert_int_equal(game_count(&g), 1);
        game_free(&g);
    }
    assert_int_equal(checked, 20 + 48 + 14 + 6 + 44 + 46);
}

/* ------------------------------------------------------------------ */
/* Accepted input                                                      */
/* ------------------------------------------------------------------ */

#define CASTLING_FEN "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
#define CASTLING_FEN_BLACK "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1"

static void test_castling_spellings(void **state)
{
    (void)state;
    const char *kingside[] = { "O-O", "0-0", "o-o", "e1g1", "O-O+", "e1-g1" };
    for (size_t i = 0; i < sizeof kingside / sizeof kingside[0]; i++)
        assert_move(parsed(CASTLING_FEN, kingside[i]), "e1", "g1", MOVE_CASTLE, 0);
    const char *queenside[] = { "O-O-O", "0-0-0", "o-o-o", "e1c1" };
    for (size_t i = 0; i < sizeof queenside / sizeof queenside[0]; i++)
        assert_move(parsed(CASTLING_FEN, queenside[i]), "e1", "c1", MOVE_CASTLE, 0);
    assert_move(parsed(CASTLING_FEN_BLACK, "O-O"), "e8", "g8", MOVE_CASTLE, 0);
    assert_move(parsed(CASTLING_FEN_BLACK, "e8c8"), "e8", "c8", MOVE_CASTLE, 0);
}

#define PROMOTION_FEN "1n2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1"

static void test_promotion_spellings(void **state)
{
    (void)state;
    const char *queen[] = { "c7c8q", "c7c8Q", "c8=Q", "c8Q", "c8=q", "c8(Q)", "c8/Q", "c8=Q+" };
    for (size_t i = 0; i < sizeof queen / sizeof queen[0]; i++)
        assert_move(parsed(PROMOTION_FEN, queen[i]), "c7", "c8", MOVE_PROMOTION, QUEEN);
    assert_move(parsed(PROMOTION_FEN, "c7c8n"), "c7", "c8", MOVE_PROMOTION, KNIGHT);
    assert_move(parsed(PROMOTION_FEN, "c8=R"), "c7", "c8", MOVE_PROMOTION, ROOK);
    assert_move(parsed(PROMOTION_FEN, "c8B"), "c7", "c8", MOVE_PROMOTION, BISHOP);
    assert_move(parsed(PROMOTION_FEN, "axb8=N"), "a7", "b8", MOVE_PROMOTION, KNIGHT);
    assert_move(parsed(PROMOTION_FEN, "a7b8q"), "a7", "b8", MOVE_PROMOTION, QUEEN);
}

static void test_annotations_stripped(void **state)
{
    (void)state;
    const char *spellings[] = { "Nf3", "Nf3+", "Nf3#", "Nf3!", "Nf3?", "Nf3!?", "Nf3?!", "Nf3!!", "Nf3??",
                                "Nf3*", "Nf3.", " Nf3 ", "g1f3", "g1-f3", "Ng1f3", "Ng1-f3", "N1f3", "Ngf3" };
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++)
        assert_move(parsed(STARTPOS_FEN, spellings[i]), "g1", "f3", MOVE_NORMAL, 0);

    char buf[32];
    assert_true(notation_strip("  Qxf7#!! ", buf, sizeof buf));
    assert_string_equal(buf, "Qxf7");
    assert_true(notation_strip("e4.", buf, sizeof buf));
    assert_string_equal(buf, "e4");
    assert_false(notation_strip(" +#!? ", buf, sizeof buf));
    assert_false(notation_strip("", buf, sizeof buf));
}

static void test_pawn_moves(void **state)
{
    (void)state;
    assert_move(parsed(STARTPOS_FEN, "e4"), "e2", "e4", MOVE_DOUBLE_PUSH, 0);
    assert_move(parsed(STARTPOS_FEN, "e2e3"), "e2", "e3", MOVE_NORMAL, 0);
    const char *ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    assert_move(parsed(ep, "exd6"), "e5", "d6", MOVE_EN_PASSANT, 0);
    assert_move(parsed(ep, "exd6e.p."), "e5", "d6", MOVE_EN_PASSANT, 0);
    assert_move(parsed(ep, "exd6 e.p."), "e5", "d6", MOVE_EN_PASSANT, 0);
    assert_move(parsed(ep, "ed6"), "e5", "d6", MOVE_EN_PASSANT, 0);
    assert_move(parsed(ep, "e5d6"), "e5", "d6", MOVE_EN_PASSANT, 0);
    assert_move(parsed(ep, "e6"), "e5", "e6", MOVE_NORMAL, 0);
}

/* ------------------------------------------------------------------ */
/* Written form                                                        */
/* ------------------------------------------------------------------ */

static void assert_san(const char *fen, const char *coord, const char *expected)
{
    Board b = board_of(fen);
    Move m = parsed(fen, coord);
    MoveList legal;
    movelist_init(&legal);
    legal_of(&b, &legal);
    Text san = TEXT_INIT;
    san_format(&b, &legal, m, check_mark(&b, m), &san);
    movelist_free(&legal);
    assert_string_equal(text_str(&san), expected);
    text_free(&san);
}

static void test_san_written(void **state)
{
    (void)state;
    assert_san(STARTPOS_FEN, "g1f3", "Nf3");
    assert_san(STARTPOS_FEN, "e2e4", "e4");
    assert_san(CASTLING_FEN, "e1g1", "O-O");
    assert_san(CASTLING_FEN, "e1c1", "O-O-O");
    assert_san(PROMOTION_FEN, "a7b8n", "axb8=N");
    assert_san(PROMOTION_FEN, "c7c8q", "c8=Q+");
    assert_san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "exd6");
    /* Disambiguation by file, by rank, and by both. */
    assert_san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2");
    assert_san("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3");
    assert_san("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2", "Qa1b2");
    assert_san("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "c1b2", "Qcb2");
    assert_san("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+");
    assert_san("k7/8/1K6/8/8/8/8/7R w - - 0 1", "h1h8", "Rh8#");
}

/* ------------------------------------------------------------------ */
/* Refusals                                                            */
/* ------------------------------------------------------------------ */

static void test_refusal_unreachable(void **state)
{
    (void)state;
    refused_with(STARTPOS_FEN, "Nf6", "no knight can reach f6");
    refused_with(STARTPOS_FEN, "Nxe5", "no knight can capture on e5");
    refused_with(STARTPOS_FEN, "e5", "no pawn can reach e5");
    refused_with(STARTPOS_FEN, "Bc4", "no bishop can reach c4");
    refused_with(STARTPOS_FEN, "g1g3", "the knight on g1 cannot move to g3");
}

static void test_refusal_pinned(void **state)
{
    (void)state;
    const char *pin = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";
    refused_with(pin, "Nc3", "would leave the white king in check");
    refused_with(pin, "e2c3", "would leave the white king in check");
    refused_with(pin, "Nc3", "knight on e2");
    refused_with("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Kd1", "would leave the white king in check");
    refused_with("4k3/4p3/8/1B6/8/8/8/4K3 b - - 0 1", "d6", "no pawn can reach d6");
    refused_with("4k3/3p4/8/1B6/8/8/8/4K3 b - - 0 1", "d6", "would leave the black king in check");
}

static void test_refusal_castling(void **state)
{
    (void)state;
    refused_with("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", "O-O", "the king or that rook has already moved");
    refused_with("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", "O-O-O", "queenside: the king or that rook");
    refused_with("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O", "pass through or land on an attacked square");
    refused_with("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O", "pass through or land on an attacked square");
    refused_with("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", "pass through or land on an attacked square");
    refused_with("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O", "cannot castle while in check");
    refused_with(STARTPOS_FEN, "O-O", "there are pieces between the king and the rook");
    refused_with("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "O-O-O", "there are pieces between");
}

static void test_refusal_ambiguous(void **state)
{
    (void)state;
    refused_with("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", "ambiguous");
    refused_with("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", "from ");
    refused_with("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "Ra3", "ambiguous: more than one rook can reach a3");
    assert_move(parsed("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "R1a3"), "a1", "a3", MOVE_NORMAL, 0);
    assert_move(parsed("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "R5a3"), "a5", "a3", MOVE_NORMAL, 0);
    assert_move(parsed("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nbd2"), "b1", "d2", MOVE_NORMAL, 0);
    assert_move(parsed("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nfd2"), "f3", "d2", MOVE_NORMAL, 0);
}

static void test_refusal_promotion(void **state)
{
    (void)state;
    refused_with(PROMOTION_FEN, "c8", "must promote");
    refused_with(PROMOTION_FEN, "c7c8", "must promote");
    refused_with(PROMOTION_FEN, "c7c8k", "not a move");
    refused_with(PROMOTION_FEN, "c8=K", "not a move");
    refused_with(PROMOTION_FEN, "c8=P", "not a move");
    refused_with(STARTPOS_FEN, "e2e4q", "only a pawn reaching the last rank promotes");
}

static void test_refusal_wrong_piece(void **state)
{
    (void)state;
    refused_with(STARTPOS_FEN, "e7e5", "the pawn on e7 is not yours: white is to move");
    refused_with(STARTPOS_FEN, "e3e4", "there is no piece on e3");
    refused_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "g1f3",
                 "the knight on g1 is not yours: black is to move");
}

static void test_refusal_garbage(void **state)
{
    (void)state;
    const char *garbage[] = { "hello", "Zz9", "", "   ", "+", "e4X", "Nf3Z", "e9", "i2i4", "Nf3e4e5",
                              "N------------f3junk", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "e", "1-0" };
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++)
        refused_with(STARTPOS_FEN, garbage[i], "not a move");
}

/* Whatever the text, the parser answers without crashing: every string of
 * up to three characters from an alphabet of move characters. */
static void test_no_crash_on_short_strings(void **state)
{
    (void)state;
    const char alphabet[] = "aehNKQO0-x=18+#.()/ ";
    size_t n = sizeof alphabet - 1;
    Board b = board_of("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
    MoveList legal;
    movelist_init(&legal);
    legal_of(&b, &legal);
    long accepted = 0;
    Text err = TEXT_INIT;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (size_t k = 0; k < n; k++) {
                char text[4] = { alphabet[i], alphabet[j], alphabet[k], 0 };
                Move m;
                text_clear(&err);
                if (chess_parse_move(&b, &legal, text, &m, &err)) {
                    assert_true(m.kind != MOVE_NULL);
                    assert_true(movelist_contains(&legal, m));
                    accepted++;
                } else {
                    assert_true(text_str(&err)[0] != 0);
                }
            }
    text_free(&err);
    movelist_free(&legal);
    assert_true(accepted > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_perft_positions),
        cmocka_unit_test(test_variant_forms_are_san),
        cmocka_unit_test(test_castling_spellings),
        cmocka_unit_test(test_promotion_spellings),
        cmocka_unit_test(test_annotations_stripped),
        cmocka_unit_test(test_pawn_moves),
        cmocka_unit_test(test_san_written),
        cmocka_unit_test(test_refusal_unreachable),
        cmocka_unit_test(test_refusal_pinned),
        cmocka_unit_test(test_refusal_castling),
        cmocka_unit_test(test_refusal_ambiguous),
        cmocka_unit_test(test_refusal_promotion),
        cmocka_unit_test(test_refusal_wrong_piece),
        cmocka_unit_test(test_refusal_garbage),
        cmocka_unit_test(test_no_crash_on_short_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
