/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of the board: FEN reading and writing (round trips, every error
 * message), castling rights that FEN cannot keep, square names, attack
 * queries and check with zero, one, two and three kings a side.
 */
#include "support.h"

#include "bitboard.h"

/* A square by name; the test fails at once on a typo, because a silently
 * wrong square would make every later assertion meaningless. */
static Square sq(const char *name)
{
    Square s = square_parse(name);
    if (s == SQ_NONE) fail_msg("bad square name '%s' in the test", name);
    return s;
}

/* A bitboard from space-separated square names ("" is the empty set). */
static Bitboard squares(const char *names)
{
    char buf[256];
    Bitboard set = 0;
    snprintf(buf, sizeof buf, "%s", names);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) set |= 1ULL << sq(t);
    return set;
}


/* bb_count is a sum in registers where the build has no popcnt
 * instruction (bitboard.h): it must count as one bit at a time does, on
 * the empty and full boards, single bits, and many random ones. */
static void test_bb_count(void **state)
{
    (void)state;
    assert_int_equal(bb_count(0), 0);
    assert_int_equal(bb_count(~0ULL), 64);
    for (int s = 0; s < 64; s++) {
        assert_int_equal(bb_count(1ULL << s), 1);
        assert_int_equal(bb_count(~(1ULL << s)), 63);
    }
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        Bitboard b = x & (i % 3 == 0 ? x >> 5 : ~0ULL);
        int bits = 0;
        for (int s = 0; s < 64; s++) bits += (int)(b >> s & 1);
        if (bb_count(b) != bits) fail_msg("bb_count(%016llx) = %d, not %d", (unsigned long long)b, bb_count(b), bits);
    }
}

/* ------------------------------------------------------------------ */
/* Round trips                                                         */
/* ------------------------------------------------------------------ */

/* Every FEN here is already in the canonical form board_to_fen writes, so
 * reading and writing it again must give back the very same text. */
static const char *const CANONICAL_FENS[] = {
    /* The six positions of tests/data/perft-standard.txt. */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    /* Black to move, en passant squares on both ranks, partial rights. */
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 12 40",
    "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 0 1",
    /* The largest counters the parser accepts. */
    "4k3/8/8/8/8/8/8/4K3 w - - 10000 60000",
    /* No king at all, and a side without a king. */
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "8/8/8/8/8/8/8/R7 b - - 5 9",
    "4k3/8/8/8/8/8/8/8 w - - 0 1",
    /* Two and three kings a side (the time-travel games need them). */
    "k6k/8/8/8/8/8/8/K6K w - - 0 1",
    "k3k2k/8/8/8/8/8/8/K3K2K b - - 7 21",
    "r3k2r/8/3k4/8/8/3K4/8/R3K2R w KQkq - 0 1",
    "kkk5/8/8/8/8/8/8/5KKK w - - 0 1",
    /* Every kind of piece of both colours, runs of empty squares of many lengths. */
    "1n1b1r1q/p2k3P/3N4/4B3/5R2/6Q1/P6K/6r1 w - - 0 50",
};

static void test_fen_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CANONICAL_FENS / sizeof CANONICAL_FENS[0]; i++) {
        Board b, again;
        parse_ok(&b, CANONICAL_FENS[i]);
        assert_string_equal(fen_of(&b), CANONICAL_FENS[i]);
        /* Reading the written FEN must give the same board, counters included. */
        parse_ok(&again, fen_of(&b));
        assert_true(board_equal(&b, &again));
        assert_int_equal(b.halfmove, again.halfmove);
        assert_int_equal(b.fullmove, again.fullmove);
        /* The key the parser leaves is the key of what it read. */
        assert_true(b.key == board_compute_key(&b));
        assert_true(b.key == again.key);
    }
}

/* FENs the parser accepts in another form, and the canonical form it writes. */
static void test_fen_normalised(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        /* Missing trailing fields take their defaults. */
        { "4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4K3 w - - 0 1" },
        { "4k3/8/8/8/8/8/8/4K3 b", "4k3/8/8/8/8/8/8/4K3 b - - 0 1" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq -", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 7", "4k3/8/8/8/8/8/8/4K3 w - - 7 1" },
        /* Castling letters in any order (and repeated) come out as KQkq. */
        { "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1" },
        /* Extra blanks between and around fields, tabs and a final newline. */
        { "  4k3/8/8/8/8/8/8/4K3   w\t-  -  3  4 \n", "4k3/8/8/8/8/8/8/4K3 w - - 3 4" },
        /* Consecutive digits add up ("44" is eight empty squares). */
        { "44/8/8/8/8/8/8/4K2k w - - 0 1", "8/8/8/8/8/8/8/4K2k w - - 0 1" },
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        Board b;
        parse_ok(&b, pairs[i][0]);
        assert_string_equal(fen_of(&b), pairs[i][1]);
    }
}

/* The start position, field by field, so that a parser and a writer that
 * agree with each other but not with FEN would still be caught. */
static void test_fen_start_position_contents(void **state)
{
    (void)state;
    Board b;
    parse_ok(&b, STARTPOS_FEN);
    assert_int_equal(b.side, WHITE);
    assert_int_equal(b.castling, CASTLE_ALL);
    assert_int_equal(b.ep, SQ_NONE);
    assert_int_equal(b.halfmove, 0);
    assert_int_equal(b.fullmove, 1);
    assert_int_equal(b.squares[sq("a1")], make_piece(WHITE, ROOK));
    assert_int_equal(b.squares[sq("b1")], make_piece(WHITE, KNIGHT));
    assert_int_equal(b.squares[sq("c1")], make_piece(WHITE, BISHOP));
    assert_int_equal(b.squares[sq("d1")], make_piece(WHITE, QUEEN));
    assert_int_equal(b.squares[sq("e1")], make_piece(WHITE, KING));
    assert_int_equal(b.squares[sq("e2")], make_piece(WHITE, PAWN));
    assert_int_equal(b.squares[sq("e4")], NO_PIECE);
    assert_int_equal(b.squares[sq("d8")], make_piece(BLACK, QUEEN));
    assert_int_equal(b.squares[sq("e8")], make_piece(BLACK, KING));
    assert_int_equal(b.squares[sq("h7")], make_piece(BLACK, PAWN));
    assert_true(board_occupied(&b) == 0xFFFF00000000FFFFULL);
    assert_true(b.by_color[WHITE] == 0x000000000000FFFFULL);
    assert_true(b.by_color[BLACK] == 0xFFFF000000000000ULL);
    assert_true(b.by_type[PAWN] == 0x00FF00000000FF00ULL);
    assert_true(board_kings(&b, WHITE) == squares("e1"));
    assert_true(board_kings(&b, BLACK) == squares("e8"));
    assert_true(board_pieces(&b, BLACK, KNIGHT) == squares("b8 g8"));
    assert_true(board_pieces(&b, WHITE, ROOK) == squares("a1 h1"));
}

static void test_fen_fields(void **state)
{
    (void)state;
    Board b;
    parse_ok(&b, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w Kq f6 4 17");
    assert_int_equal(b.side, WHITE);
    assert_int_equal(b.castling, CASTLE_WK | CASTLE_BQ);
    assert_int_equal(b.ep, sq("f6"));
    assert_int_equal(b.halfmove, 4);
    assert_int_equal(b.fullmove, 17);
    parse_ok(&b, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b - d3 0 1");
    assert_int_equal(b.side, BLACK);
    assert_int_equal(b.castling, 0);
    assert_int_equal(b.ep, sq("d3"));
}

/* Kings of either colour may be missing or several: the counts must be
 * exactly what the FEN says. */
static void test_fen_king_counts(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int white, black;
    } cases[] = {
        { "8/8/8/8/8/8/8/8 w - - 0 1", 0, 0 },
        { "4k3/8/8/8/8/8/8/8 w - - 0 1", 0, 1 },
        { "8/8/8/8/8/8/8/4K3 b - - 0 1", 1, 0 },
        { "k6k/8/8/8/8/8/8/K6K w - - 0 1", 2, 2 },
        { "k3k2k/8/8/8/8/8/8/K3K2K w - - 0 1", 3, 3 },
        { "kkk5/8/8/8/8/8/8/K7 w - - 0 1", 1, 3 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Board b;
        parse_ok(&b, cases[i].fen);
        assert_int_equal(__builtin_popcountll(board_kings(&b, WHITE)), cases[i].white);
        assert_int_equal(__builtin_popcountll(board_kings(&b, BLACK)), cases[i].black);
    }
}

/* With `rest`, the parser stops after the sixth field and hands back the
 * text that follows (a variant's own fields); it also accepts a
 * four-field FEN followed by such text. */
static void test_fen_rest(void **state)
{
    (void)state;
    Board b;
    Text err = TEXT_INIT;
    const char *rest = NULL;
    assert_true(board_from_fen(&b, "4k3/8/8/8/8/8/8/4K3 w - - 3 9  extra fields here", &rest, &err));
    assert_string_equal(rest, "extra fields here");
    assert_int_equal(b.halfmove, 3);
    assert_int_equal(b.fullmove, 9);

    rest = NULL;
    assert_true(board_from_fen(&b, "4k3/8/8/8/8/8/8/4K3 b - - {schedule}", &rest, &err));
    assert_string_equal(rest, "{schedule}");
    assert_int_equal(b.side, BLACK);
    assert_int_equal(b.halfmove, 0);
    assert_int_equal(b.fullmove, 1);

    rest = NULL;
    assert_true(board_from_fen(&b, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", &rest, &err));
    assert_string_equal(rest, "");
    /* Nothing was written to err on success. */
    assert_string_equal(text_str(&err), "");
    text_free(&err);
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/* Each bad FEN and the exact sentence the parser must give for it. */
static const struct {
    const char *fen;
    const char *message;
} BAD_FENS[] = {
    /* Empty. */
    { "", "bad FEN: it is empty" },
    { "   \t ", "bad FEN: it is empty" },
    /* Bad piece letters (digits 0 and 9 are no run length either). */
    { "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad FEN: 'x' is not a piece letter" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNA w KQkq - 0 1", "bad FEN: 'A' is not a piece letter" },
    { "9/8/8/8/8/8/8/4K2k w - - 0 1", "bad FEN: '9' is not a piece letter" },
    { "08/8/8/8/8/8/8/4K2k w - - 0 1", "bad FEN: '0' is not a piece letter" },
    { "bad", "bad FEN: 'a' is not a piece letter" },
    /* Ranks too long. */
    { "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad FEN: rank 7 has more than 8 squares" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "bad FEN: rank 1 has more than 8 squares" },
    { "54/8/8/8/8/8/8/4K2k w - - 0 1", "bad FEN: rank 8 has more than 8 squares" },
    { "8/8/8/7pp/8/8/8/4K2k w - - 0 1", "bad FEN: rank 5 has more than 8 squares" },
    { "8/8/8/8/8/8/8/4K2k1 w - - 0 1", "bad FEN: rank 1 has more than 8 squares" },
    /* Ranks too short. */
    { "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad FEN: rank 7 has 7 squares, not 8" },
    { "/8/8/8/8/8/8/4K2k w - - 0 1", "bad FEN: rank 8 has 0 squares, not 8" },
    { "8/8/8/8/8/8/8/7 w - - 0 1", "bad FEN: the board needs 8 ranks of 8 squares" },
    /* Too many and too few ranks. */
    { "8/8/8/8/8/8/8/8/8 w - - 0 1", "bad FEN: more than 8 ranks" },
    { "8/8/8/8/8/8/8/8/ w - - 0 1", "bad FEN: more than 8 ranks" },
    { "8/8/8/8/8/8/8 w - - 0 1", "bad FEN: the board needs 8 ranks of 8 squares" },
    { "8/8/8/8/8/8/8/ w - - 0 1", "bad FEN: the board needs 8 ranks of 8 squares" },
    /* Side to move. */
    { "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "bad FEN: the side to move must be 'w' or 'b'" },
    { "4k3/8/8/8/8/8/8/4K3 W - - 0 1", "bad FEN: the side to move must be 'w' or 'b'" },
    { "4k3/8/8/8/8/8/8/4K3 white - - 0 1", "bad FEN: the side to move must be 'w' or 'b'" },
    /* Castling rights. */
    { "r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1", "bad FEN: castling rights must be '-' or letters from 'KQkq'" },
    { "r3k2r/8/8/8/8/8/8/R3K2R w KQ- - 0 1", "bad FEN: castling rights must be '-' or letters from 'KQkq'" },
    { "r3k2r/8/8/8/8/8/8/R3K2R w AHah - 0 1", "bad FEN: castling rights must be '-' or letters from 'KQkq'" },
    { "r3k2r/8/8/8/8/8/8/R3K2R w -- - 0 1", "bad FEN: castling rights must be '-' or letters from 'KQkq'" },
    /* En passant squares: not a square, too long, or on the wrong rank
     * for the side to move (White captures onto the 6th, Black the 3rd). */
    { "4k3/8/8/8/8/8/8/4K3 w - i6 0 1",
      "bad FEN: the en passant square must be '-' or a square on the 3rd or 6th rank" },
    { "4k3/8/8/8/8/8/8/4K3 w - e 0 1",
      "bad FEN: the en passant square must be '-' or a square on the 3rd or 6th rank" },
    { "4k3/8/8/8/8/8/8/4K3 w - e6x 0 1",
      "bad FEN: the en passant square must be '-' or a square on the 3rd or 6th rank" },
    { "4k3/8/8/8/8/8/8/4K3 w - e4 0 1",
      "bad FEN: the en passant square must be '-' or a square on the 3rd or 6th rank" },
    { "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
      "bad FEN: the en passant square must be '-' or a square on the 3rd or 6th rank" },
    { "4k3/8/8/8/8/8/8/4K3 b - e6 0 1",
      "bad FEN: the en passant square must be '-' or a square on the 3rd or 6th rank" },
    { "4k3/8/8/8/8/8/8/4K3 w - E6 0 1",
      "bad FEN: the en passant square must be '-' or a square on the 3rd or 6th rank" },
    /* Move numbers: the fullmove number must be 1 to 60000. */
    { "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "bad FEN: the move number must be a whole number from 1 to 60000" },
    { "4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "bad FEN: the move number must be a whole number from 1 to 60000" },
    { "4k3/8/8/8/8/8/8/4K3 w - - 0 x", "bad FEN: the move number must be a whole number from 1 to 60000" },
    { "4k3/8/8/8/8/8/8/4K3 w - - 0 1.5", "bad FEN: the move number must be a whole number from 1 to 60000" },
    { "4k3/8/8/8/8/8/8/4K3 w - - 0 60001", "bad FEN: the move number must be a whole number from 1 to 60000" },
    /* A bad half-move clock (plain FEN has no variant fields to mistake it for). */
    { "4k3/8/8/8/8/8/8/4K3 w - - x 1", "bad FEN: the half-move clock must be a whole number from 0 to 10000" },
    { "4k3/8/8/8/8/8/8/4K3 w - - -1 1", "bad FEN: the half-move clock must be a whole number from 0 to 10000" },
    { "4k3/8/8/8/8/8/8/4K3 w - - 10001 1", "bad FEN: the half-move clock must be a whole number from 0 to 10000" },
    /* Pawns on the first or last rank. */
    { "4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "bad FEN: a pawn stands on the first or last rank" },
    { "4k3/8/8/8/8/8/8/p3K3 b - - 0 1", "bad FEN: a pawn stands on the first or last rank" },
    /* Trailing junk. */
    { "4k3/8/8/8/8/8/8/4K3 w - - 0 1 junk", "bad FEN: unexpected text after the move number" },
    { "4k3/8/8/8/8/8/8/4K3 w - - 0 1 2", "bad FEN: unexpected text after the move number" },
};

static void test_fen_errors(void **state)
{
    (void)state;
    Text err = TEXT_INIT;
    for (size_t i = 0; i < sizeof BAD_FENS / sizeof BAD_FENS[0]; i++) {
        Board b;
        text_clear(&err);
        if (board_from_fen(&b, BAD_FENS[i].fen, NULL, &err)) fail_msg("bad FEN accepted: '%s'", BAD_FENS[i].fen);
        if (strcmp(text_str(&err), BAD_FENS[i].message))
            fail_msg("FEN '%s': expected \"%s\", got \"%s\"", BAD_FENS[i].fen, BAD_FENS[i].message, text_str(&err));
    }
    text_free(&err);
}

/* A NULL FEN is an empty one, and a NULL error text is allowed: the
 * parser must then only say no.  The error text grows to hold the whole
 * message, and a message replaces whatever the text held before. */
static void test_fen_error_edge_cases(void **state)
{
    (void)state;
    Board b;
    Text err = TEXT_INIT;
    assert_false(board_from_fen(&b, NULL, NULL, &err));
    assert_string_equal(text_str(&err), "bad FEN: it is empty");
    assert_false(board_from_fen(&b, "8/8/8 w - - 0 1", NULL, NULL));
    assert_false(board_from_fen(&b, "4k3/8/8/8/8/8/8/4K3 x - - 0 1", NULL, NULL));
    /* The text held a message already: the new one replaces it, whole. */
    assert_false(board_from_fen(&b, "4k3/8/8/8/8/8/8/4K3 x - - 0 1", NULL, &err));
    assert_string_equal(text_str(&err), "bad FEN: the side to move must be 'w' or 'b'");
    assert_int_equal(err.len, strlen("bad FEN: the side to move must be 'w' or 'b'"));
    assert_false(err.failed);
    text_free(&err);
}

/* ------------------------------------------------------------------ */
/* Castling rights that do not fit the board                           */
/* ------------------------------------------------------------------ */

/* A right whose king or rook is not on its original square is refused
 * with the reason, so that no later code can castle with a piece that is
 * not there and no impossible position passes as a game. */
static void test_fen_castling_checked(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        const char *message; /* NULL: accepted with every right */
    } cases[] = {
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", NULL },
        /* Several kings: the rights belong to the king on e1 / e8. */
        { "r3k2r/8/8/3k4/3K4/8/8/R3K2R w KQkq - 0 1", NULL },
        /* White king off e1. */
        { "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1", "bad FEN: the castling right 'K' needs the white king on e1 and a white rook on h1" },
        /* Black king off e8. */
        { "r2k3r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "bad FEN: the castling right 'k' needs the black king on e8 and a black rook on h8" },
        /* Each rook missing in turn. */
        { "r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", "bad FEN: the castling right 'K' needs the white king on e1 and a white rook on h1" },
        { "r3k2r/8/8/8/8/8/8/4K2R w KQkq - 0 1", "bad FEN: the castling right 'Q' needs the white king on e1 and a white rook on a1" },
        { "r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "bad FEN: the castling right 'k' needs the black king on e8 and a black rook on h8" },
        { "4k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "bad FEN: the castling right 'q' needs the black king on e8 and a black rook on a8" },
        /* A piece of the wrong kind or colour on the rook's square. */
        { "r3k2r/8/8/8/8/8/8/R3K2N w KQkq - 0 1", "bad FEN: the castling right 'K' needs the white king on e1 and a white rook on h1" },
        { "r3k2r/8/8/8/8/8/8/r3K2R w KQkq - 0 1", "bad FEN: the castling right 'Q' needs the white king on e1 and a white rook on a1" },
        /* A queen where the king should be. */
        { "r3q2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "bad FEN: the castling right 'k' needs the black king on e8 and a black rook on h8" },
        /* The ending of the issue: kings alone, every right given. */
        { "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "bad FEN: the castling right 'K' needs the white king on e1 and a white rook on h1" },
    };
    Text err = TEXT_INIT;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Board b;
        text_clear(&err);
        bool ok = board_from_fen(&b, cases[i].fen, NULL, &err);
        if (!cases[i].message && (!ok || b.castling != CASTLE_ALL)) fail_msg("%s: refused or rights cut", cases[i].fen);
        if (cases[i].message && ok) fail_msg("%s: accepted", cases[i].fen);
        if (cases[i].message && strcmp(text_str(&err), cases[i].message))
            fail_msg("%s: expected \"%s\", got \"%s\"", cases[i].fen, cases[i].message, text_str(&err));
    }
    text_free(&err);
    /* The rights that fit are kept as given. */
    Board b;
    parse_ok(&b, "r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1");
    assert_string_equal(fen_of(&b), "r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1");
}

/* ------------------------------------------------------------------ */
/* Squares, letters, names                                             */
/* ------------------------------------------------------------------ */

static void test_square_parse_and_name(void **state)
{
    (void)state;
    assert_int_equal(square_parse("a1"), 0);
    assert_int_equal(square_parse("h1"), 7);
    assert_int_equal(square_parse("a2"), 8);
    assert_int_equal(square_parse("e4"), 28);
    assert_int_equal(square_parse("a8"), 56);
    assert_int_equal(square_parse("h8"), 63);
    static const char *const bad[] = { "", "a", "i1", "a0", "a9", "A1", "11", "aa", "`1", "h:", " e4" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (square_parse(bad[i]) != SQ_NONE) fail_msg("'%s' was taken for a square", bad[i]);
    assert_int_equal(square_parse(NULL), SQ_NONE);

    /* Every square's name reads back as the same square. */
    for (int s = 0; s < 64; s++) {
        char name[3];
        square_name((Square)s, name);
        assert_int_equal(strlen(name), 2);
        assert_int_equal(name[0], 'a' + s % 8);
        assert_int_equal(name[1], '1' + s / 8);
        assert_int_equal(square_parse(name), s);
    }
    char none[3];
    square_name(SQ_NONE, none);
    assert_string_equal(none, "-");
}

static void test_piece_letters_and_names(void **state)
{
    (void)state;
    static const char letters[] = "PNBRQK";
    for (int t = PAWN; t <= KING; t++) {
        assert_int_equal(piece_letter((PieceType)t), letters[t - 1]);
        assert_int_equal(piece_type_from_letter(letters[t - 1]), t);
        assert_int_equal(piece_type_from_letter((char)(letters[t - 1] + ('a' - 'A'))), t);
    }
    assert_int_equal(piece_type_from_letter('x'), NO_TYPE);
    assert_int_equal(piece_type_from_letter('1'), NO_TYPE);
    assert_string_equal(piece_type_name(PAWN), "pawn");
    assert_string_equal(piece_type_name(KNIGHT), "knight");
    assert_string_equal(piece_type_name(BISHOP), "bishop");
    assert_string_equal(piece_type_name(ROOK), "rook");
    assert_string_equal(piece_type_name(QUEEN), "queen");
    assert_string_equal(piece_type_name(KING), "king");
    assert_string_equal(color_name(WHITE), "white");
    assert_string_equal(color_name(BLACK), "black");
}

/* ------------------------------------------------------------------ */
/* Placement and equality                                              */
/* ------------------------------------------------------------------ */

static void test_put_remove_equal(void **state)
{
    (void)state;
    Board b, c;
    board_clear(&b);
    assert_true(board_occupied(&b) == 0);
    assert_int_equal(b.ep, SQ_NONE);
    assert_int_equal(b.fullmove, 1);
    board_put(&b, sq("e1"), make_piece(WHITE, KING));
    board_put(&b, sq("d5"), make_piece(BLACK, QUEEN));
    assert_true(board_occupied(&b) == squares("e1 d5"));
    assert_true(b.by_color[BLACK] == squares("d5"));
    assert_true(b.by_type[QUEEN] == squares("d5"));
    assert_string_equal(fen_of(&b), "8/8/8/3q4/8/8/8/4K3 w - - 0 1");
    board_remove(&b, sq("d5"));
    assert_true(b.key == board_compute_key(&b));
    board_remove(&b, sq("a3")); /* empty: nothing happens */
    assert_true(board_occupied(&b) == squares("e1"));
    assert_true(b.key == board_compute_key(&b));
    assert_true(b.by_type[QUEEN] == 0 && b.by_color[BLACK] == 0);
    assert_int_equal(b.squares[sq("d5")], NO_PIECE);

    /* Equality is about the position, not the move counters. */
    parse_ok(&b, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    parse_ok(&c, "4k3/8/8/8/8/8/8/4K3 w - - 30 70");
    assert_true(board_equal(&b, &c));
    parse_ok(&c, "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_false(board_equal(&b, &c));
    parse_ok(&c, "4k3/8/8/8/8/8/8/3K4 w - - 0 1");
    assert_false(board_equal(&b, &c));
    parse_ok(&b, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    parse_ok(&c, "r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
    assert_false(board_equal(&b, &c));
    parse_ok(&b, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    parse_ok(&c, "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
    assert_false(board_equal(&b, &c));
}

/* ------------------------------------------------------------------ */
/* Attacks and check                                                   */
/* ------------------------------------------------------------------ */

/* d5 is attacked by one white piece of every kind; pieces that point the
 * wrong way or are blocked must not count. */
static void test_attackers_every_piece(void **state)
{
    (void)state;
    Board b;
    /* White attackers of d5: the pawn e4, the knight f6, the bishop a2
     * (through b3 and c4), the queen h5 (through g5, f5 and e5) and the
     * king c6.  The pawn d4 stands right below d5, which a pawn does not
     * attack; it also blocks the rook d1; the bishop h8 is stopped by the
     * knight on f6. */
    parse_ok(&b, "7B/8/2K2N2/7Q/3PP3/8/B7/3R3k w - - 0 1");
    Bitboard w = board_attackers(&b, sq("d5"), WHITE, board_occupied(&b));
    assert_true(w == squares("e4 f6 a2 h5 c6"));
    assert_true(board_attackers(&b, sq("d5"), BLACK, board_occupied(&b)) == 0);
    assert_true(board_square_attacked(&b, sq("d5"), WHITE));
    assert_false(board_square_attacked(&b, sq("d5"), BLACK));

    /* With d4 lifted from the occupancy the rook sees through it. */
    Bitboard occ = board_occupied(&b) & ~squares("d4");
    assert_true(board_attackers(&b, sq("d5"), WHITE, occ) == squares("e4 f6 a2 h5 c6 d1"));
}

/* Pawns attack diagonally forward only, each colour its own way. */
static void test_attackers_pawn_directions(void **state)
{
    (void)state;
    Board b;
    parse_ok(&b, "4k3/8/8/3p4/8/3P4/8/4K3 w - - 0 1");
    assert_true(board_attackers(&b, sq("c4"), WHITE, board_occupied(&b)) == squares("d3"));
    assert_true(board_attackers(&b, sq("e4"), WHITE, board_occupied(&b)) == squares("d3"));
    assert_true(board_attackers(&b, sq("c4"), BLACK, board_occupied(&b)) == squares("d5"));
    assert_true(board_attackers(&b, sq("e4"), BLACK, board_occupied(&b)) == squares("d5"));
    /* Straight ahead and backwards are not attacked. */
    assert_true(board_attackers(&b, sq("d4"), WHITE, board_occupied(&b)) == 0);
    assert_true(board_attackers(&b, sq("c2"), WHITE, board_occupied(&b)) == 0);
    assert_true(board_attackers(&b, sq("c6"), BLACK, board_occupied(&b)) == 0);
    /* Edge files do not wrap around the board. */
    parse_ok(&b, "4k3/8/8/8/8/8/P6P/4K3 w - - 0 1");
    assert_true(board_attackers(&b, sq("b3"), WHITE, board_occupied(&b)) == squares("a2"));
    assert_true(board_attackers(&b, sq("g3"), WHITE, board_occupied(&b)) == squares("h2"));
    /* Were the tables to wrap, h2 would "attack" a4 and a2 would "attack" h2. */
    assert_true(board_attackers(&b, sq("a4"), WHITE, board_occupied(&b)) == 0);
    assert_true(board_attackers(&b, sq("h2"), WHITE, board_occupied(&b)) == 0);
}

/* Several attackers of one square, sliders stopping at the first piece of
 * either colour, and the kings counted as attackers. */
static void test_attackers_sliders_and_kings(void **state)
{
    (void)state;
    Board b;
    /* Black: queen a8, rook h4, bishop b1, knight c2, king f2.  White:
     * king e1, pawn e3, knight b4. */
    parse_ok(&b, "q7/8/8/8/1N5r/4P3/2n2k2/1b2K3 w - - 0 1");
    /* e4: the rook along the 4th rank and the queen along the long
     * diagonal.  The knight c2 reaches a1 a3 b4 d4 e1 e3, not e4; the
     * bishop b1 is blocked by its own knight on c2; the king is two away. */
    assert_true(board_attackers(&b, sq("e4"), BLACK, board_occupied(&b)) == squares("h4 a8"));
    /* e3 and e1: the king f2 and the knight c2. */
    assert_true(board_attackers(&b, sq("e3"), BLACK, board_occupied(&b)) == squares("f2 c2"));
    assert_true(board_attackers(&b, sq("e1"), BLACK, board_occupied(&b)) == squares("f2 c2"));
    /* The white knight on b4 stops the rook short of a4; the queen still
     * reaches a4 down the a-file.  b4 itself is attacked by the rook and
     * by the knight on c2. */
    assert_true(board_attackers(&b, sq("a4"), BLACK, board_occupied(&b)) == squares("a8"));
    assert_true(board_attackers(&b, sq("b4"), BLACK, board_occupied(&b)) == squares("h4 c2"));
    /* White: the king reaches d2; the knight b4 reaches c2 (and d3). */
    assert_true(board_attackers(&b, sq("d2"), WHITE, board_occupied(&b)) == squares("e1"));
    assert_true(board_attackers(&b, sq("c2"), WHITE, board_occupied(&b)) == squares("b4"));
    assert_true(board_attackers(&b, sq("d3"), WHITE, board_occupied(&b)) == squares("b4"));
}

/* A side without a king is never in check, however attacked its pieces. */
static void test_in_check_no_king(void **state)
{
    (void)state;
    Board b;
    /* White has only a rook, attacked by the queen; the rook in turn
     * checks the black king up the open e-file. */
    parse_ok(&b, "4k3/8/8/8/8/8/3q4/4R3 w - - 0 1");
    assert_false(board_in_check(&b, WHITE));
    assert_true(board_checkers(&b, WHITE) == 0);
    assert_true(board_in_check(&b, BLACK));
    parse_ok(&b, "8/8/8/8/8/8/8/8 w - - 0 1");
    assert_false(board_in_check(&b, WHITE));
    assert_false(board_in_check(&b, BLACK));
}

static void test_in_check_one_king(void **state)
{
    (void)state;
    Board b;
    /* The black rook on e8 checks along the open e-file. */
    parse_ok(&b, "4r1k1/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_true(board_in_check(&b, WHITE));
    assert_false(board_in_check(&b, BLACK));
    assert_true(board_checkers(&b, WHITE) == squares("e8"));
    /* A piece of either colour in between blocks the check. */
    parse_ok(&b, "4r1k1/8/8/4p3/8/8/8/4K3 w - - 0 1");
    assert_false(board_in_check(&b, WHITE));
    parse_ok(&b, "4r1k1/8/8/4P3/8/8/8/4K3 w - - 0 1");
    assert_false(board_in_check(&b, WHITE));
    /* Double check: knight d3 and rook e8. */
    parse_ok(&b, "4r1k1/8/8/8/8/3n4/8/4K3 w - - 0 1");
    assert_true(board_checkers(&b, WHITE) == squares("e8 d3"));
    /* A king is attacked by a king (never legal, but the query must say so). */
    parse_ok(&b, "8/8/8/8/8/8/4k3/4K3 w - - 0 1");
    assert_true(board_in_check(&b, WHITE));
    assert_true(board_in_check(&b, BLACK));
    /* Check is asked per colour, whichever side is to move. */
    parse_ok(&b, "4k3/8/8/8/8/8/8/4K2R b - - 0 1");
    assert_false(board_in_check(&b, BLACK));
    parse_ok(&b, "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1");
    assert_true(board_in_check(&b, BLACK));
    assert_false(board_in_check(&b, WHITE));
}

/* With several kings a side is in check if any one of them is attacked. */
static void test_in_check_several_kings(void **state)
{
    (void)state;
    Board b;
    /* Two white kings; the rook on h8 attacks only the one on h1. */
    parse_ok(&b, "k6r/8/8/8/8/8/8/K6K w - - 0 1");
    assert_true(board_in_check(&b, WHITE));
    /* Two kings, neither attacked (the rook on b8 sees b7..b1 only). */
    parse_ok(&b, "kr6/8/8/8/8/8/8/K6K w - - 0 1");
    assert_false(board_in_check(&b, WHITE));
    /* Two kings, both attacked. */
    parse_ok(&b, "k7/8/8/8/8/8/8/K3r2K w - - 0 1");
    assert_true(board_in_check(&b, WHITE));
    /* Three kings: only the third (g6, by the knight on e7) is attacked. */
    parse_ok(&b, "k7/4n3/6K1/8/8/8/8/K6K w - - 0 1");
    assert_true(board_in_check(&b, WHITE));
    /* Three kings a side, none attacked: the white queen on e1 sees the
     * empty e-file and the diagonals to h4 and a5, where no king stands. */
    parse_ok(&b, "k2k3k/8/8/8/8/8/8/K2KQ2K w - - 0 1");
    assert_false(board_in_check(&b, WHITE));
    assert_false(board_in_check(&b, BLACK));
    parse_ok(&b, "k2k3k/8/8/8/8/8/8/K2K3K w - - 0 1");
    board_put(&b, sq("e5"), make_piece(WHITE, QUEEN)); /* e5-h8 diagonal */
    assert_true(board_in_check(&b, BLACK));
    assert_false(board_in_check(&b, WHITE));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bb_count),
        cmocka_unit_test(test_fen_round_trip),
        cmocka_unit_test(test_fen_normalised),
        cmocka_unit_test(test_fen_start_position_contents),
        cmocka_unit_test(test_fen_fields),
        cmocka_unit_test(test_fen_king_counts),
        cmocka_unit_test(test_fen_rest),
        cmocka_unit_test(test_fen_errors),
        cmocka_unit_test(test_fen_error_edge_cases),
        cmocka_unit_test(test_fen_castling_checked),
        cmocka_unit_test(test_square_parse_and_name),
        cmocka_unit_test(test_piece_letters_and_names),
        cmocka_unit_test(test_put_remove_equal),
        cmocka_unit_test(test_attackers_every_piece),
        cmocka_unit_test(test_attackers_pawn_directions),
        cmocka_unit_test(test_attackers_sliders_and_kings),
        cmocka_unit_test(test_in_check_no_king),
        cmocka_unit_test(test_in_check_one_king),
        cmocka_unit_test(test_in_check_several_kings),
    };
    return cmocka_run_group_tests_name("board", tests, NULL, NULL);
}
