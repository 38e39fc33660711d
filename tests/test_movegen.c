/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of chess move generation and of the chess variant's rules:
 * perft against the shared reference counts, the fast one-king generator
 * against the general (try every move) path, positions with zero, two and
 * three kings a side, the special moves, what board_make changes, and the
 * ends of a game (checkmate, stalemate, repetition, fifty moves,
 * insufficient material) together with undo.
 */
#include "support.h"

/* Perft counts up to this size run here; the larger ones are left to
 * tests/perft-long.sh, which uses the same limit. */
#define FAST_PERFT_LIMIT 5000000ULL

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */


/* A new, empty move list on the heap (the generators append to it);
 * free_list gives back both the list and its moves. */
static MoveList *new_list(void)
{
    MoveList *l = malloc(sizeof *l);
    assert_non_null(l);
    movelist_init(l);
    return l;
}

static void free_list(MoveList *l)
{
    movelist_free(l);
    free(l);
}

/* Generates or fails the test: false from a generator means out of memory. */
static void legal_of(const Board *b, MoveList *l)
{
    if (!gen_legal(b, l)) fail_msg("gen_legal: out of memory");
}

static void pseudo_of(const Board *b, MoveList *l)
{
    if (!gen_pseudo(b, l)) fail_msg("gen_pseudo: out of memory");
}

/* The move in coordinate form (e2e4, e7e8q) in buf. */
static void coord_of(Move m, char buf[16])
{
    Text t = TEXT_INIT;
    move_to_coord(m, &t);
    snprintf(buf, 16, "%s", text_str(&t));
    text_free(&t);
}

static int compare_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

enum { COORDS_TEXT = 16384 }; /* room for any chess position's moves (at most 218) */

/* The moves in coordinate form, sorted and joined by spaces, so that a
 * whole move list can be compared with one hand-written string whatever
 * order the generator uses. */

static const char *sorted_coords(const MoveList *l)
{
    static char out[COORDS_TEXT];
    char(*names)[16] = malloc((size_t)(l->count ? l->count : 1) * sizeof *names);
    assert_non_null(names);
    for (int i = 0; i < l->count; i++) coord_of(l->moves[i], names[i]);
    qsort(names, (size_t)l->count, sizeof names[0], compare_text);
    out[0] = 0;
    size_t n = 0;
    for (int i = 0; i < l->count && n < sizeof out; i++)
        n += (size_t)snprintf(out + n, sizeof out - n, "%s%s", i ? " " : "", names[i]);
    free(names);
    return out;
}

/* Asserts the exact set of legal moves of a position. */
static void expect_legal(const char *fen, const char *expected)
{
    Board b;
    parse_ok(&b, fen);
    MoveList *l = new_list();
    legal_of(&b, l);
    const char *got = sorted_coords(l);
    if (strcmp(got, expected)) fail_msg("%s\n  expected: %s\n  got:      %s", fen, expected, got);
    free_list(l);
}

/* The generated move with this coordinate text, or the test fails. */
static Move find_coord(const MoveList *l, const char *text)
{
    char buf[16];
    for (int i = 0; i < l->count; i++) {
        coord_of(l->moves[i], buf);
        if (!strcmp(buf, text)) return l->moves[i];
    }
    fail_msg("move %s not generated", text);
    return move_none();
}

static bool has_coord(const MoveList *l, const char *text)
{
    char buf[16];
    for (int i = 0; i < l->count; i++) {
        coord_of(l->moves[i], buf);
        if (!strcmp(buf, text)) return true;
    }
    return false;
}

/* Plays a legal move given in coordinates on a bare board. */
static void make_coord(Board *b, const char *text)
{
    MoveList *l = new_list();
    legal_of(b, l);
    board_make(b, find_coord(l, text));
    free_list(l);
}

/* The outcome of a game of `variant` from `fen` after `moves`, as the
 * status line the CLI prints (game_status). */
static void expect_variant_outcome(const char *variant, const char *fen, const char *moves, const char *expected)
{
    Game g;
    game_start(&g, variant, fen);
    if (moves) play_all(&g, moves);
    const char *got = game_status(&g);
    if (strcmp(got, expected))
        fail_msg("%s %s + [%s]: expected '%s', got '%s'", variant, fen ? fen : "start", moves ? moves : "", expected,
                 got);
    game_free(&g);
}

static void expect_outcome(const char *fen, const char *moves, const char *expected)
{
    expect_variant_outcome("chess", fen, moves, expected);
}

/* A game of chess refuses this FEN with this message. */
static void expect_chess_refuses(const char *fen, const char *message)
{
    Game g;
    Text err = TEXT_INIT;
    if (game_init(&g, &VARIANT_CHESS, NULL, fen, &err)) fail_msg("chess accepted %s", fen);
    if (strcmp(text_str(&err), message)) fail_msg("%s: expected \"%s\", got \"%s\"", fen, message, text_str(&err));
    text_free(&err);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* The perft suite of tests/data/perft-standard.txt                    */
/* ------------------------------------------------------------------ */

enum { MAX_SUITE = 32, MAX_DEPTH = 16 };

typedef struct SuiteLine {
    char fen[128];
    int depths;
    unsigned long long counts[MAX_DEPTH + 1]; /* counts[d] for d = 1..depths */
} SuiteLine;

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n')) s[--n] = 0;
    return s;
}

/* Reads "FEN ;d1 ;d2 ..." lines, skipping comments and blank lines.  The
 * file is read at run time so that the counts live in one place. */
static int load_suite(SuiteLine *out, int max)
{
    const char *path = "perft-standard.txt";
    char *text = read_data(path);
    int n = 0;
    for (char *line = strtok(text, "\n"); line && n < max; line = strtok(NULL, "\n")) {
        char *l = trim(line);
        if (!*l || *l == '#') continue;
        SuiteLine *s = &out[n];
        memset(s, 0, sizeof *s);
        char *semi = strchr(l, ';');
        if (!semi) fail_msg("bad line in %s: %s", path, l);
        *semi = 0;
        snprintf(s->fen, sizeof s->fen, "%s", trim(l));
        for (char *c = semi + 1; *c && s->depths < MAX_DEPTH;) {
            char *end;
            s->counts[++s->depths] = strtoull(c, &end, 10);
            if (end == c) fail_msg("bad count in %s: %s", path, c);
            c = end;
            while (*c == ' ' || *c == ';') c++;
        }
        n++;
    }
    free(text);
    return n;
}

static void test_perft_standard_fast(void **state)
{
    (void)state;
    static SuiteLine suite[MAX_SUITE];
    int n = load_suite(suite, MAX_SUITE);
    /* The file holds (at least) the six classic positions. */
    assert_true(n >= 6);
    assert_string_equal(suite[0].fen, STARTPOS_FEN);
    int checks = 0;
    for (int i = 0; i < n; i++) {
        for (int d = 1; d <= suite[i].depths && suite[i].counts[d] <= FAST_PERFT_LIMIT; d++) {
            Game g;
            game_start(&g, "chess", suite[i].fen);
            uint64_t got = 0;
            if (!game_perft(&g, d, &got)) fail_msg("perft %d of %s: out of memory", d, suite[i].fen);
            if (got != suite[i].counts[d])
                fail_msg("perft %d of %s: expected %llu, got %llu", d, suite[i].fen, suite[i].counts[d],
                         (unsigned long long)got);
            /* perft leaves the game as it found it. */
            assert_int_equal(game_count(&g), 1);
            game_free(&g);
            checks++;
        }
    }
    /* Six positions, each with its shallow depths: 5+4+5+4+4+4 counts of
     * the standard file are at most five million. */
    assert_true(checks >= 26);
    print_message("perft: %d counts checked from %d positions\n", checks, n);
}

static void test_perft_depth_zero(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "chess", NULL);
    uint64_t nodes = 0;
    assert_true(game_perft(&g, 0, &nodes));
    assert_int_equal(nodes, 1);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* The fast one-king generator against the general path                */
/* ------------------------------------------------------------------ */

static int compare_moves(const void *pa, const void *pb)
{
    const Move *a = pa, *b = pb;
    if (a->from != b->from) return a->from - b->from;
    if (a->to != b->to) return a->to - b->to;
    if (a->kind != b->kind) return a->kind - b->kind;
    return a->piece - b->piece;
}

/* The general path, written out here from the public pieces: every
 * pseudo-legal move that leaves no king of the mover attacked. */
static void legal_by_trial(const Board *b, MoveList *out)
{
    MoveList *pseudo = new_list();
    pseudo_of(b, pseudo);
    out->count = 0;
    for (int i = 0; i < pseudo->count; i++)
        if (move_is_legal(b, pseudo->moves[i])) movelist_add(out, pseudo->moves[i]);
    assert_false(out->failed);
    free_list(pseudo);
}

/* Fails unless both lists hold the same moves, each once. */
static void expect_same_set(const Board *b, MoveList *fast, MoveList *slow)
{
    qsort(fast->moves, (size_t)fast->count, sizeof(Move), compare_moves);
    qsort(slow->moves, (size_t)slow->count, sizeof(Move), compare_moves);
    bool same = fast->count == slow->count;
    for (int i = 0; same && i < fast->count; i++) same = move_equal(fast->moves[i], slow->moves[i]);
    for (int i = 1; same && i < fast->count; i++) same = !move_equal(fast->moves[i - 1], fast->moves[i]);
    if (!same) {
        char fast_text[COORDS_TEXT];
        snprintf(fast_text, sizeof fast_text, "%s", sorted_coords(fast));
        fail_msg("%s\n  gen_legal: %s\n  by trial:  %s", fen_of(b), fast_text, sorted_coords(slow));
    }
}

typedef struct WalkLists {
    MoveList fast, slow;
} WalkLists;

/* Compares both generators on the position and on every position below it
 * down to `depth` plies; returns how many positions were compared. */
static long compare_tree(const Board *b, int depth, WalkLists *lists)
{
    WalkLists *here = &lists[0];
    here->fast.count = 0;
    legal_of(b, &here->fast);
    legal_by_trial(b, &here->slow);
    expect_same_set(b, &here->fast, &here->slow);
    long positions = 1;
    if (depth == 0) return positions;
    for (int i = 0; i < here->fast.count; i++) {
        Board next = *b;
        board_make(&next, here->fast.moves[i]);
        positions += compare_tree(&next, depth - 1, lists + 1);
    }
    return positions;
}

/* Every position within three plies of each suite position: the number of
 * positions compared must be exactly 1 + perft(1) + perft(2) + perft(3). */
static void test_fast_path_equals_trial_tree(void **state)
{
    (void)state;
    static SuiteLine suite[MAX_SUITE];
    int n = load_suite(suite, MAX_SUITE);
    WalkLists *lists = malloc(4 * sizeof *lists);
    assert_non_null(lists);
    for (int i = 0; i < 4; i++) movelist_init(&lists[i].fast), movelist_init(&lists[i].slow);
    long total = 0;
    for (int i = 0; i < n; i++) {
        assert_true(suite[i].depths >= 3);
        Board b;
        parse_ok(&b, suite[i].fen);
        long positions = compare_tree(&b, 3, lists);
        long expected = 1 + (long)(suite[i].counts[1] + suite[i].counts[2] + suite[i].counts[3]);
        assert_int_equal(positions, expected);
        total += positions;
    }
    for (int i = 0; i < 4; i++) movelist_free(&lists[i].fast), movelist_free(&lists[i].slow);
    free(lists);
    print_message("fast path = trial path on %ld positions\n", total);
}

/* A fixed pseudo-random generator, so that a failure can be reproduced. */
static uint64_t next_random(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* Long random games reach what a three-ply tree does not: promotions,
 * bare kings, late castling.  Each step compares both generators. */
static void test_fast_path_equals_trial_random_walk(void **state)
{
    (void)state;
    static SuiteLine suite[MAX_SUITE];
    int n = load_suite(suite, MAX_SUITE);
    WalkLists *lists = malloc(sizeof *lists);
    assert_non_null(lists);
    movelist_init(&lists->fast);
    movelist_init(&lists->slow);
    uint64_t seed = 20260101;
    long positions = 0;
    for (int game = 0; positions < 6000; game++) {
        Board b;
        parse_ok(&b, suite[game % n].fen);
        for (int ply = 0; ply < 300; ply++) {
            lists->fast.count = 0;
            legal_of(&b, &lists->fast);
            legal_by_trial(&b, &lists->slow);
            expect_same_set(&b, &lists->fast, &lists->slow);
            positions++;
            if (!lists->fast.count) break;
            board_make(&b, lists->fast.moves[next_random(&seed) % (uint64_t)lists->fast.count]);
        }
    }
    movelist_free(&lists->fast);
    movelist_free(&lists->slow);
    free(lists);
    assert_true(positions >= 6000);
}

/* Every move gen_legal gives is also pseudo-legal and passes move_is_legal,
 * and board_ep_capture_legal agrees with the list. */
static void test_legal_moves_are_pseudo_legal(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    };
    static const bool ep_legal[] = { false, false, true, true };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        Board b;
        parse_ok(&b, fens[i]);
        MoveList *legal = new_list(), *pseudo = new_list();
        legal_of(&b, legal);
        pseudo_of(&b, pseudo);
        bool any_ep = false;
        for (int k = 0; k < legal->count; k++) {
            Move m = legal->moves[k];
            bool found = false;
            for (int j = 0; j < pseudo->count && !found; j++) found = move_equal(pseudo->moves[j], m);
            assert_true(found);
            assert_true(move_is_legal(&b, m));
            if (m.kind == MOVE_EN_PASSANT) any_ep = true;
        }
        assert_int_equal(any_ep, ep_legal[i]);
        assert_int_equal(board_ep_capture_legal(&b), ep_legal[i]);
        free_list(legal);
        free_list(pseudo);
    }
}

/* ------------------------------------------------------------------ */
/* Several kings, and none                                             */
/* ------------------------------------------------------------------ */

/* Two white kings, e1 and h1, on the first rank with a black rook on a1.
 * The rook checks e1 along b1 c1 d1.  Every move of the h1 king leaves e1
 * in check; every step of the e1 king either stays on the first rank (d1,
 * f1: still attacked, f1 through the square e1 has just left) or leaves
 * it (d2 e2 f2) and uncovers the rook's line to h1.  No move keeps both
 * kings safe, and White is in check: checkmate with two kings.  With the
 * h1 king removed, the e1 king simply steps off the rank.
 *
 * Standard chess refuses a position with two kings a side, so the mate is
 * checked on the bare board (no moves, in check) and as the outcome of a
 * game of Gifford's, which allows any number of kings and ends a game
 * without moves by the standard rules. */
static void test_two_kings_mated_by_one_rook(void **state)
{
    (void)state;
    Board b;
    const char *two = "4k3/8/8/8/8/8/8/r3K2K w - - 0 1";
    expect_legal(two, "");
    parse_ok(&b, two);
    assert_true(board_in_check(&b, WHITE));
    expect_variant_outcome("gifford", two, NULL, "0-1 checkmate");
    expect_chess_refuses(two, "bad FEN: white has 2 kings, and chess needs exactly one king a side");
    expect_legal("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "e1d2 e1e2 e1f2");
    /* The same with colours swapped: Black's kings e8 and h8, a white rook
     * on a8. */
    const char *black = "R3k2k/8/8/8/8/8/8/4K3 b - - 0 1";
    expect_legal(black, "");
    parse_ok(&b, black);
    assert_true(board_in_check(&b, BLACK));
    expect_variant_outcome("gifford", black, NULL, "1-0 checkmate");
    expect_chess_refuses(black, "bad FEN: black has 2 kings, and chess needs exactly one king a side");
}

/* As above, plus a white rook on b2.  Only Rb1 shields both kings at once:
 * it blocks the rook's line on b1, and no other move of the rook (along
 * the b-file or the 2nd rank) reaches b1, c1 or d1. */
static void test_two_kings_one_saving_move(void **state)
{
    (void)state;
    expect_legal("4k3/8/8/8/8/8/1R6/r3K2K w - - 0 1", "b2b1");
}

/* Three white kings a1, d1, h1 and a black king far away: every king step
 * is legal, 3 + 5 + 3 = 11.  A black rook on a8 then checks the a1 king
 * down the a-file: that king must leave the file (b1 or b2; a2 stays on
 * it) and no move of the two other kings helps. */
static void test_three_kings(void **state)
{
    (void)state;
    expect_legal("4k3/8/8/8/8/8/8/K2K3K w - - 0 1",
                 "a1a2 a1b1 a1b2 d1c1 d1c2 d1d2 d1e1 d1e2 h1g1 h1g2 h1h2");
    expect_legal("r3k3/8/8/8/8/8/8/K2K3K w - - 0 1", "a1b1 a1b2");
}

/* A piece pinned to one of two kings may not move, though the other king
 * does not care.  Black bishop d4 pins the white knight b2 to the king on
 * a1 and attacks g1 (through e3 and f2).  Legal: Ka1-a2, Ka1-b1, Kh1-g2,
 * Kh1-h2; not Kh1-g1, not any knight move.  Putting a third king on h8
 * (in check from the same bishop along e5 f6 g7) leaves only that king's
 * escapes g8 and h7: g7 stays on the diagonal, and the pinned knight can
 * reach neither e5, f6 nor g7 to block. */
static void test_pin_against_one_of_several_kings(void **state)
{
    (void)state;
    expect_legal("k7/8/8/8/3b4/8/1N6/K6K w - - 0 1", "a1a2 a1b1 h1g2 h1h2");
    expect_legal("4k2K/8/8/8/3b4/8/1N6/K6K w - - 0 1", "h8g8 h8h7");
}

/* A side with no king: every pseudo-legal move is legal, it is never in
 * check, it cannot castle, and without moves it is stalemated, not mated. */
static void test_side_without_king(void **state)
{
    (void)state;
    /* A lone rook on a1: seven squares up, seven along; a black queen
     * attacking it changes nothing but the one capture on a2. */
    expect_legal("4k3/8/8/8/8/8/8/R7 w - - 0 1",
                 "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1c1 a1d1 a1e1 a1f1 a1g1 a1h1");
    expect_legal("4k3/8/8/8/8/8/q7/R7 w - - 0 1", "a1a2 a1b1 a1c1 a1d1 a1e1 a1f1 a1g1 a1h1");

    /* Pseudo-legal and legal lists agree exactly, even where the pieces
     * stand in the line of fire. */
    Board b;
    parse_ok(&b, "4k3/8/8/1b6/8/3N4/1q2R3/8 w - - 0 1");
    assert_false(board_in_check(&b, WHITE));
    MoveList *legal = new_list(), *pseudo = new_list();
    legal_of(&b, legal);
    pseudo_of(&b, pseudo);
    char legal_text[COORDS_TEXT];
    snprintf(legal_text, sizeof legal_text, "%s", sorted_coords(legal));
    assert_string_equal(legal_text, sorted_coords(pseudo));
    /* Knight d3: b2 (the queen) b4 c1 c5 e1 e5 f2 f4 = 8.  Rook e2: e1
     * and e3 to e8 = 7 (e8 takes the black king: legality here is only
     * about the mover's kings), b2 (the queen) c2 d2 f2 g2 h2 = 6.  The
     * bishop b5 and the queen b2 attack d3 and e2, which does not matter
     * to a side without a king.  21 in all. */
    assert_int_equal(legal->count, 21);
    free_list(legal);
    free_list(pseudo);

    /* Castling rights on a board without a king give no castling. */
    board_clear(&b);
    board_put(&b, square_parse("a1"), make_piece(WHITE, ROOK));
    board_put(&b, square_parse("h1"), make_piece(WHITE, ROOK));
    board_put(&b, square_parse("e8"), make_piece(BLACK, KING));
    board_set_castling(&b, CASTLE_WK | CASTLE_WQ);
    assert_true(b.key == board_compute_key(&b));
    legal = new_list();
    legal_of(&b, legal);
    /* Each rook: seven squares up the file, six along the first rank. */
    assert_int_equal(legal->count, 26);
    for (int i = 0; i < legal->count; i++) assert_int_not_equal(legal->moves[i].kind, MOVE_CASTLE);
    legal->count = 0;
    pseudo_of(&b, legal);
    for (int i = 0; i < legal->count; i++) assert_int_not_equal(legal->moves[i].kind, MOVE_CASTLE);
    free_list(legal);

    /* No moves and no king: a white pawn blocked on a2 by a black pawn.
     * Not in check, so a stalemate, not a mate.  Standard chess refuses a
     * side without a king; Gifford's game allows one whose king is still
     * to arrive (here at move 5), and ends it by the standard rules. */
    const char *blocked = "4k3/8/8/8/8/p7/P7/8 w - - 0 1";
    expect_legal(blocked, "");
    parse_ok(&b, blocked);
    assert_false(board_in_check(&b, WHITE));
    expect_chess_refuses(blocked, "bad FEN: white has 0 kings, and chess needs exactly one king a side");
    expect_variant_outcome("gifford", "4k3/8/8/8/8/p7/P7/8 w - - 0 1 K5/- 0/0", NULL, "1/2-1/2 stalemate");
}

/* A game of standard chess starts only from a position that can arise:
 * one king a side, and the side not to move not in check.  The board
 * itself reads any of these (the tests above play on such boards). */
static void test_chess_refuses_impossible_positions(void **state)
{
    (void)state;
    static const struct {
        const char *fen, *message;
    } cases[] = {
        { "8/8/8/8/8/8/8/8 w - - 0 1", "bad FEN: white has 0 kings, and chess needs exactly one king a side" },
        { "4k3/8/8/8/8/8/8/8 w - - 0 1", "bad FEN: white has 0 kings, and chess needs exactly one king a side" },
        { "8/8/8/8/8/8/8/4K3 b - - 0 1", "bad FEN: black has 0 kings, and chess needs exactly one king a side" },
        { "k6k/8/8/8/8/8/8/K6K w - - 0 1", "bad FEN: white has 2 kings, and chess needs exactly one king a side" },
        { "k3k2k/8/8/8/8/8/8/4K3 w - - 0 1", "bad FEN: black has 3 kings, and chess needs exactly one king a side" },
        { "4k3/8/8/8/8/8/8/K2K3K w - - 0 1", "bad FEN: white has 3 kings, and chess needs exactly one king a side" },
        /* White to move while Black stands in check: White could take the king. */
        { "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
          "bad FEN: black is in check, but white is to move (that position cannot arise)" },
        { "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1",
          "bad FEN: white is in check, but black is to move (that position cannot arise)" },
        /* Kings side by side: each checks the other. */
        { "8/8/8/8/8/8/4k3/4K3 w - - 0 1",
          "bad FEN: black is in check, but white is to move (that position cannot arise)" },
        /* What the board refuses, the game refuses with the board's words. */
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "bad FEN: the move number must be a whole number from 1 to 60000" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expect_chess_refuses(cases[i].fen, cases[i].message);
        Board b;
        if (strstr(cases[i].message, "kings") || strstr(cases[i].message, "in check")) parse_ok(&b, cases[i].fen);
    }
    /* The side to move may be in check, of course. */
    expect_outcome("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", NULL, "ongoing");
    expect_outcome("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", NULL, "ongoing");
}

/* Castling with several kings: the castling king's start, crossed and
 * landing squares must be unattacked; every other king only needs to be
 * safe after the move. */
static void test_castling_several_kings(void **state)
{
    (void)state;
    /* Kings e1 and h4, nothing attacked: Ra1 10 moves (a2..a8, b1 c1 d1),
     * Rh1 4 (h2 h3, g1 f1), Ke1 7 (d1 d2 e2 f2 f1 and both castlings),
     * Kh4 5 (g3 g4 g5 h3 h5): 26. */
    Board b;
    MoveList *l = new_list();
    parse_ok(&b, "4k3/8/8/8/7K/8/8/R3K2R w KQ - 0 1");
    legal_of(&b, l);
    assert_int_equal(l->count, 26);
    assert_int_equal(find_coord(l, "e1g1").kind, MOVE_CASTLE);
    assert_int_equal(find_coord(l, "e1c1").kind, MOVE_CASTLE);
    free_list(l);

    /* The other king (h4) is in check from the bishop d8: castling does not
     * help it, so neither castling is legal.  Only the h4 king's steps out
     * of the diagonal are (g5 stays on it; no piece can block e7 f6 g5). */
    expect_legal("3bk3/8/8/8/7K/8/8/R3K2R w KQ - 0 1", "h4g3 h4g4 h4h3 h4h5");

    /* The castling king would cross an attacked square (f1, by the rook
     * f2): no O-O; O-O-O is fine. */
    l = new_list();
    parse_ok(&b, "4k3/8/8/8/7K/8/5r2/R3K2R w KQ - 0 1");
    legal_of(&b, l);
    assert_false(has_coord(l, "e1g1"));
    assert_true(has_coord(l, "e1c1"));
    /* It would land on an attacked square (g1, by the rook g2). */
    l->count = 0;
    parse_ok(&b, "4k3/8/8/8/7K/8/6r1/R3K2R w KQ - 0 1");
    legal_of(&b, l);
    assert_false(has_coord(l, "e1g1"));
    assert_true(has_coord(l, "e1c1"));
    /* The castling king is in check (rook e5): neither, though the other
     * king is safe. */
    l->count = 0;
    parse_ok(&b, "4k3/8/8/4r3/7K/8/8/R3K2R w KQ - 0 1");
    legal_of(&b, l);
    assert_false(has_coord(l, "e1g1"));
    assert_false(has_coord(l, "e1c1"));
    /* Only the rook crosses b1: its being attacked does not matter. */
    l->count = 0;
    parse_ok(&b, "4k3/8/8/8/7K/8/1r6/R3K2R w KQ - 0 1");
    legal_of(&b, l);
    assert_true(has_coord(l, "e1g1"));
    assert_true(has_coord(l, "e1c1"));
    /* Three kings, nothing attacked: both castlings. */
    l->count = 0;
    parse_ok(&b, "4k3/8/8/8/7K/K7/8/R3K2R w KQ - 0 1");
    legal_of(&b, l);
    assert_true(has_coord(l, "e1g1"));
    assert_true(has_coord(l, "e1c1"));
    /* Black with two kings (e8 and h1); the white bishop a5 attacks d8,
     * which the king crosses on the queen's side. */
    l->count = 0;
    parse_ok(&b, "r3k2r/8/8/B7/8/8/8/4K2k b kq - 0 1");
    legal_of(&b, l);
    assert_true(has_coord(l, "e8g8"));
    assert_false(has_coord(l, "e8c8"));

    /* Castling with two kings moves the right king and rook. */
    parse_ok(&b, "4k3/8/8/8/7K/8/8/R3K2R w KQ - 0 1");
    make_coord(&b, "e1c1");
    assert_string_equal(fen_of(&b), "4k3/8/8/8/7K/8/8/2KR3R b - - 1 1");
    free_list(l);
}

/* ------------------------------------------------------------------ */
/* Standard rules                                                      */
/* ------------------------------------------------------------------ */

static void test_en_passant(void **state)
{
    (void)state;
    /* Plain en passant: e5xd6 besides e6 and the king's five steps. */
    const char *fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    expect_legal(fen, "e1d1 e1d2 e1e2 e1f1 e1f2 e5d6 e5e6");
    Board b;
    MoveList *l = new_list();
    parse_ok(&b, fen);
    legal_of(&b, l);
    Move ep = find_coord(l, "e5d6");
    assert_int_equal(ep.kind, MOVE_EN_PASSANT);
    board_make(&b, ep);
    assert_string_equal(fen_of(&b), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1");
    free_list(l);

    /* Without the en passant square the capture is gone. */
    expect_legal("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "e1d1 e1d2 e1e2 e1f1 e1f2 e5e6");

    /* The horizontal pin: b5xc6 would lift both pawns off the 5th rank and
     * expose the a5 king to the rook h5.  The king may go to a4, a6 and
     * b6 (b4 is attacked by the c5 pawn); the pawn may push to b6. */
    expect_legal("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "a5a4 a5a6 a5b6 b5b6");
    Game g;
    game_start(&g, "chess", "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1");
    uint64_t nodes = 0;
    assert_true(game_perft(&g, 1, &nodes));
    assert_int_equal(nodes, 4);
    game_free(&g);

    /* En passant as the answer to a check by the pawn that just moved: the
     * d4 pawn checks c5; exd3 removes it.  The king has eight escapes
     * (b4 b5 b6 c4 c6 d4 d5 d6); e3 does not answer the check. */
    expect_legal("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "c5b4 c5b5 c5b6 c5c4 c5c6 c5d4 c5d5 c5d6 e4d3");

    /* Through a game, both colours. */
    game_start(&g, "chess", NULL);
    play_all(&g, "e2e4 a7a6 e4e5 d7d5 e5d6");
    assert_string_equal(fen_of(game_board(&g)), "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    game_free(&g);
    game_start(&g, "chess", NULL);
    play_all(&g, "a2a3 e7e5 a3a4 e5e4 d2d4 e4d3");
    assert_string_equal(fen_of(game_board(&g)), "rnbqkbnr/pppp1ppp/8/8/P7/3p4/1PP1PPPP/RNBQKBNR w KQkq - 0 4");
    game_free(&g);
}

static void test_promotion(void **state)
{
    (void)state;
    /* a8 and b8 (capturing the knight), four pieces each, and five king
     * steps. */
    const char *fen = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    expect_legal(fen, "a7a8b a7a8n a7a8q a7a8r a7b8b a7b8n a7b8q a7b8r e1d1 e1d2 e1e2 e1f1 e1f2");
    Board b;
    MoveList *l = new_list();
    parse_ok(&b, fen);
    legal_of(&b, l);
    Move m = find_coord(l, "a7b8n");
    assert_int_equal(m.kind, MOVE_PROMOTION);
    assert_int_equal(m.piece, KNIGHT);
    board_make(&b, m);
    assert_string_equal(fen_of(&b), "1N2k3/8/8/8/8/8/8/4K3 b - - 0 1");
    free_list(l);
    /* Black promotes on the first rank. */
    expect_legal("4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "a2a1b a2a1n a2a1q a2a1r e8d7 e8d8 e8e7 e8f7 e8f8");
    parse_ok(&b, "4k3/8/8/8/8/8/p7/4K3 b - - 0 1");
    make_coord(&b, "a2a1r");
    assert_string_equal(fen_of(&b), "4k3/8/8/8/8/8/8/r3K3 w - - 0 2");
    /* A blocked pawn on the 7th has no promotion. */
    expect_legal("n3k3/P7/8/8/8/8/8/4K3 w - - 0 1", "e1d1 e1d2 e1e2 e1f1 e1f2");
}

static void test_castling_rules(void **state)
{
    (void)state;
    Board b;
    MoveList *l = new_list();
    /* Both sides free: both castlings, with kind MOVE_CASTLE. */
    parse_ok(&b, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    legal_of(&b, l);
    assert_int_equal(find_coord(l, "e1g1").kind, MOVE_CASTLE);
    assert_int_equal(find_coord(l, "e1c1").kind, MOVE_CASTLE);
    assert_int_equal(l->count, 26);

    static const struct {
        const char *fen;
        bool kingside, queenside;
    } cases[] = {
        /* Through check: f1 attacked by the rook f8 (O-O), d1 by the
         * rook d8 (O-O-O). */
        { "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", false, true },
        { "3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1", true, false },
        /* Into check: g1 by the bishop c5? c5-d4-e3-f2-g1. */
        { "4k3/8/8/2b5/8/8/8/R3K2R w KQ - 0 1", false, true },
        /* c1 by the knight b3. */
        { "4k3/8/8/8/8/1n6/8/R3K2R w KQ - 0 1", true, false },
        /* In check from the rook e5. */
        { "4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1", false, false },
        /* b1 attacked (rook b8) only concerns the rook: both allowed. */
        { "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", true, true },
        /* A piece in the way: the knight b1 blocks O-O-O only. */
        { "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", true, false },
        /* No right. */
        { "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", false, true },
        { "4k3/8/8/8/8/8/8/R3K2R w - - 0 1", false, false },
        /* Black, through check on f8 from the rook f1. */
        { "r3k2r/8/8/8/8/8/8/4KR2 b kq - 0 1", false, true },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        l->count = 0;
        parse_ok(&b, cases[i].fen);
        legal_of(&b, l);
        const char *ks = b.side == WHITE ? "e1g1" : "e8g8";
        const char *qs = b.side == WHITE ? "e1c1" : "e8c8";
        if (has_coord(l, ks) != cases[i].kingside || has_coord(l, qs) != cases[i].queenside)
            fail_msg("%s: castling %d/%d, expected %d/%d", cases[i].fen, has_coord(l, ks), has_coord(l, qs),
                     cases[i].kingside, cases[i].queenside);
    }
    free_list(l);

    /* The refusals say why. */
    Game g;
    game_start(&g, "chess", "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_string_equal(refused(&g, "O-O"),
                        "white cannot castle: the king would pass through or land on an attacked square");
    game_free(&g);
    game_start(&g, "chess", "4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1");
    assert_string_equal(refused(&g, "O-O-O"), "white cannot castle while in check");
    assert_string_equal(refused(&g, "e1g1"), "white cannot castle while in check");
    game_free(&g);
}

/* What board_make changes beyond the pieces: castling rights, the clocks,
 * the en passant square. */
static void test_board_make_bookkeeping(void **state)
{
    (void)state;
    static const struct {
        const char *fen, *moves, *after;
    } cases[] = {
        /* A rook captured on its corner takes the opponent's right with
         * it; the capturing rook's own right goes too. */
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 10", "h1h8", "r3k2R/8/8/8/8/8/8/R3K3 b Qq - 0 10" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 10", "a1a8", "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 10" },
        /* A bishop captures the rook on h1: only that right goes. */
        { "r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1", "g2h1", "r3k2r/8/8/8/8/8/8/R3K2b w Qkq - 0 2" },
        /* The king's step takes both its rights; a quiet move counts. */
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 10", "e1e2", "r3k2r/8/8/8/8/8/4K3/R6R b kq - 4 10" },
        /* A rook's move takes its own right; after Black the move number
         * grows. */
        { "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 7", "a8b8", "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 1 8" },
        /* Castling: the rook jumps, the rights go, the clock runs on. */
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 10", "e1g1", "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 6 10" },
        { "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 6 10", "e8c8", "2kr3r/8/8/8/8/8/8/R4RK1 w - - 7 11" },
        /* A double push sets the en passant square even when no pawn can
         * take; the next move clears it; pawn moves zero the clock. */
        { STARTPOS_FEN, "e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" },
        { "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "g8f6",
          "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2" },
        { "4k3/8/8/8/8/8/4P3/4K3 w - - 42 60", "e2e3", "4k3/8/8/8/8/4P3/8/4K3 b - - 0 60" },
        { "4k3/8/8/8/8/8/4p3/4K3 b - - 42 60", "e8d7", "8/3k4/8/8/8/8/4p3/4K3 w - - 43 61" },
        /* A capture zeroes the clock. */
        { "4k3/8/8/8/8/8/4q3/4K3 w - - 42 60", "e1e2", "4k3/8/8/8/8/8/4K3/8 b - - 0 60" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Board b;
        parse_ok(&b, cases[i].fen);
        make_coord(&b, cases[i].moves);
        if (strcmp(fen_of(&b), cases[i].after))
            fail_msg("%s + %s:\n  expected %s\n  got      %s", cases[i].fen, cases[i].moves, cases[i].after,
                     fen_of(&b));
    }
}

/* ------------------------------------------------------------------ */
/* The end of the game                                                 */
/* ------------------------------------------------------------------ */

static void test_checkmate(void **state)
{
    (void)state;
    /* Fool's mate: Black mates. */
    expect_outcome(NULL, "f2f3 e7e5 g2g4 d8h4", "0-1 checkmate");
    /* Scholar's mate: White mates. */
    expect_outcome(NULL, "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7", "1-0 checkmate");
    /* One move earlier the game is on. */
    expect_outcome(NULL, "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6", "ongoing");
    /* The result's fields. */
    Game g;
    game_start(&g, "chess", NULL);
    play_all(&g, "f2f3 e7e5 g2g4 d8h4");
    Outcome o;
    assert_true(game_outcome(&g, &o));
    assert_int_equal(o.result, RESULT_BLACK_WINS);
    assert_int_equal(o.reason, REASON_CHECKMATE);
    Text words = TEXT_INIT;
    outcome_words(o, NULL, &words);
    assert_string_equal(text_str(&words), "checkmate");
    text_free(&words);
    MoveList l;
    legal_list(&g, &l);
    assert_int_equal(l.count, 0);
    movelist_free(&l);
    /* No move is accepted after the end. */
    assert_string_equal(refused(&g, "e2e4"), "the game is over (0-1 checkmate)");
    game_free(&g);
}

static void test_stalemate(void **state)
{
    (void)state;
    /* Black king a8, white queen b6: a7 b7 b8 covered, a8 not attacked. */
    expect_outcome("k7/8/1Q6/8/8/8/8/7K b - - 0 1", NULL, "1/2-1/2 stalemate");
    /* White king h1, black queen f2: g1 g2 h2 covered. */
    expect_outcome("7k/8/8/8/8/8/5q2/7K w - - 0 1", NULL, "1/2-1/2 stalemate");
    /* The queen on e2 instead leaves g1 free: the game goes on. */
    expect_outcome("7k/8/8/8/8/8/4q3/7K w - - 0 1", NULL, "ongoing");
    /* Reached in play: Qb5-b6 covers a7 b7 b8 without attacking a8. */
    expect_outcome("k7/8/8/1Q6/8/8/8/7K w - - 0 1", "b5b6", "1/2-1/2 stalemate");
}

static void test_threefold_repetition(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "chess", NULL);
    /* The start position comes back after four plies and after eight. */
    play_all(&g, "g1f3 g8f6 f3g1 f6g8");
    assert_int_equal(game_repetitions(&g), 1);
    assert_string_equal(game_status(&g), "ongoing");
    play_all(&g, "g1f3 g8f6 f3g1");
    assert_int_equal(game_repetitions(&g), 1); /* the position after 2.Ng1, seen twice before */
    assert_string_equal(game_status(&g), "ongoing");
    play_all(&g, "f6g8");
    assert_int_equal(game_repetitions(&g), 2);
    assert_string_equal(game_status(&g), "1/2-1/2 threefold repetition");
    /* Undo takes the draw back. */
    game_pop(&g);
    assert_int_equal(game_repetitions(&g), 1);
    assert_string_equal(game_status(&g), "ongoing");
    game_free(&g);
}

/* An en passant square is part of a position only when a capture en
 * passant is legal. */
static void test_repetition_and_en_passant(void **state)
{
    (void)state;
    Game g;
    /* After 1.e4 the square e3 is set, but no black pawn can take: the
     * position counts as the one after 3.Ng1 and 5.Ng1. */
    game_start(&g, "chess", NULL);
    play_all(&g, "e2e4 g8f6 g1f3 f6g8 f3g1");
    assert_int_equal(game_repetitions(&g), 1);
    play_all(&g, "g8f6 g1f3 f6g8 f3g1");
    assert_int_equal(game_repetitions(&g), 2);
    assert_string_equal(game_status(&g), "1/2-1/2 threefold repetition");
    game_free(&g);

    /* After 2...d5 White can take en passant on d6: that position differs
     * from the same placement later, without the right to take.  The
     * placement comes back after plies 8 and 12: only two occurrences
     * count, so the game goes on; it ends at ply 13, when the position
     * after 3.Nf3 is seen for the third time (plies 5, 9, 13). */
    game_start(&g, "chess", NULL);
    play_all(&g, "e2e4 b8c6 e4e5 d7d5 g1f3 c6b8 f3g1 b8c6");
    assert_int_equal(game_repetitions(&g), 0);
    play_all(&g, "g1f3 c6b8 f3g1 b8c6");
    assert_int_equal(game_repetitions(&g), 1);
    assert_string_equal(game_status(&g), "ongoing");
    play_all(&g, "g1f3");
    assert_int_equal(game_repetitions(&g), 2);
    assert_string_equal(game_status(&g), "1/2-1/2 threefold repetition");
    game_free(&g);

    /* Here exd3 e.p. is pseudo-legal but illegal (it would open the 4th
     * rank between the a4 king and the queen h4): the start position with
     * its d3 square is the same as the later ones without it. */
    game_start(&g, "chess", "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1");
    play_all(&g, "a4b5 e1f1 b5a4 f1e1");
    assert_int_equal(game_repetitions(&g), 1);
    play_all(&g, "a4b5 e1f1 b5a4 f1e1");
    assert_int_equal(game_repetitions(&g), 2);
    assert_string_equal(game_status(&g), "1/2-1/2 threefold repetition");
    game_free(&g);
}

static void test_fifty_move_rule(void **state)
{
    (void)state;
    /* 99 plies without capture or pawn move; one more quiet move draws. */
    const char *fen = "4k3/8/8/8/8/8/4P3/4K2R w - - 99 80";
    expect_outcome(fen, NULL, "ongoing");
    expect_outcome(fen, "h1h2", "1/2-1/2 fifty-move rule");
    /* A pawn move instead resets the clock. */
    expect_outcome(fen, "e2e4", "ongoing");
    /* A FEN that starts at 100 is already drawn. */
    expect_outcome("4k3/8/8/8/8/8/4P3/4K2R w - - 100 80", NULL, "1/2-1/2 fifty-move rule");
    expect_outcome("4k3/8/8/8/8/8/4P3/4K2R w - - 150 80", NULL, "1/2-1/2 fifty-move rule");
    /* A mate on the hundredth ply is a mate: Ra8# with the king g6 covering
     * g7 and h7. */
    expect_outcome("7k/8/6K1/8/8/8/8/R7 w - - 99 80", "a1a8", "1-0 checkmate");
}

/* chess_insufficient_material (src/chess.c): no pawns, rooks or queens,
 * and either at most one knight or bishop in all, or only bishops, all on
 * squares of one colour.  K+N+N v K and minor v minor of other kinds are
 * not drawn: a mate can still happen, however unlikely. */
static void test_insufficient_material(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        bool drawn;
    } cases[] = {
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 1", true },       /* K v K */
        { "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", true },     /* K+N v K */
        { "4k3/8/8/8/8/8/8/2B1K3 b - - 0 1", true },     /* K+B v K */
        { "2b1k3/8/8/8/8/8/8/4K3 w - - 0 1", true },     /* K v K+B */
        { "1n2k3/8/8/8/8/8/8/4K3 w - - 0 1", true },     /* K v K+N */
        { "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true },    /* c1 and f8: both dark */
        { "4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1", true },   /* two bishops, c1 e3, both dark */
        { "2b1k3/8/8/8/8/8/8/3BK3 w - - 0 1", true },    /* d1 and c8: both light */
        { "3bk3/8/8/8/8/8/8/3BK3 w - - 0 1", false },    /* d1 light, d8 dark */
        { "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false },  /* c1 dark, c8 light */
        { "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false },   /* c1 dark, f1 light */
        { "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", false },   /* K+N+N v K */
        { "1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1", false },  /* K+N v K+N */
        { "2b1k3/8/8/8/8/8/8/1N2K3 w - - 0 1", false },  /* K+N v K+B */
        { "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false },    /* a pawn */
        { "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false },     /* a rook */
        { "3qk3/8/8/8/8/8/8/4K3 w - - 0 1", false },     /* a queen */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_outcome(cases[i].fen, NULL, cases[i].drawn ? "1/2-1/2 insufficient material" : "ongoing");
    /* Reached by a capture. */
    expect_outcome("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", "e1e2", "1/2-1/2 insufficient material");
    /* A stalemate is reported as such, though the material (K+N v K) is
     * insufficient too: the knight c6 covers a7 and b8, the king c7 b7
     * and b8, and a8 is not attacked. */
    expect_outcome("k7/2K5/2N5/8/8/8/8/8 b - - 0 1", NULL, "1/2-1/2 stalemate");
}

/* When several ends apply at once the result names the first of:
 * checkmate, stalemate, insufficient material, fifty-move rule,
 * threefold repetition. */
static void test_end_order(void **state)
{
    (void)state;
    /* Insufficient material before the fifty-move rule. */
    expect_outcome("4k3/8/8/8/8/8/8/4K3 w - - 100 80", NULL, "1/2-1/2 insufficient material");
    expect_outcome("4k3/8/8/8/8/8/8/1N2K3 w - - 120 80", NULL, "1/2-1/2 insufficient material");
    /* The fifty-move rule before repetition: the start position comes back
     * a third time on the eighth ply, with the clock at 92 + 8 = 100. */
    const char *shuffle = "h1h2 e8d8 h2h1 d8e8 h1h2 e8d8 h2h1 d8e8";
    expect_outcome("4k3/8/8/8/8/8/4P3/4K2R w - - 92 80", shuffle, "1/2-1/2 fifty-move rule");
    /* One ply less on the clock: only the repetition applies. */
    expect_outcome("4k3/8/8/8/8/8/4P3/4K2R w - - 91 80", shuffle, "1/2-1/2 threefold repetition");
    Game g;
    game_start(&g, "chess", "4k3/8/8/8/8/8/4P3/4K2R w - - 92 80");
    play_all(&g, shuffle);
    assert_int_equal(game_repetitions(&g), 2);
    assert_int_equal(game_board(&g)->halfmove, 100);
    Outcome o;
    assert_true(game_outcome(&g, &o));
    assert_int_equal(o.result, RESULT_DRAW);
    assert_int_equal(o.reason, REASON_FIFTY_MOVES);
    game_free(&g);
    /* Stalemate before the fifty-move rule: Qb5-b6 on the hundredth ply. */
    expect_outcome("k7/8/8/1Q6/8/8/8/7K w - - 99 80", "b5b6", "1/2-1/2 stalemate");
}

static void test_undo(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "chess", NULL);
    char before[256];
    play_all(&g, "e2e4 d7d5");
    snprintf(before, sizeof before, "%s", fen_of(game_board(&g)));
    play_all(&g, "e4d5");
    assert_int_equal(game_count(&g), 4);
    assert_string_equal(fen_of(game_board(&g)), "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
    /* Undo restores the captured pawn and the clocks. */
    game_pop(&g);
    assert_int_equal(game_count(&g), 3);
    assert_string_equal(fen_of(game_board(&g)), before);
    assert_string_equal(before, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
    game_pop(&g);
    game_pop(&g);
    assert_int_equal(game_count(&g), 1);
    assert_string_equal(fen_of(game_board(&g)), STARTPOS_FEN);
    /* Popping the root does nothing. */
    game_pop(&g);
    assert_int_equal(game_count(&g), 1);
    assert_int_equal(game_current(&g), 0);
    assert_string_equal(fen_of(game_board(&g)), STARTPOS_FEN);
    /* The game goes on normally after undoing. */
    play_all(&g, "d2d4");
    assert_string_equal(fen_of(game_board(&g)), "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1");
    /* Undoing a mate ends the end. */
    game_pop(&g);
    play_all(&g, "f2f3 e7e5 g2g4 d8h4");
    assert_string_equal(game_status(&g), "0-1 checkmate");
    game_pop(&g);
    assert_string_equal(game_status(&g), "ongoing");
    game_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_standard_fast),
        cmocka_unit_test(test_perft_depth_zero),
        cmocka_unit_test(test_fast_path_equals_trial_tree),
        cmocka_unit_test(test_fast_path_equals_trial_random_walk),
        cmocka_unit_test(test_legal_moves_are_pseudo_legal),
        cmocka_unit_test(test_two_kings_mated_by_one_rook),
        cmocka_unit_test(test_two_kings_one_saving_move),
        cmocka_unit_test(test_three_kings),
        cmocka_unit_test(test_pin_against_one_of_several_kings),
        cmocka_unit_test(test_side_without_king),
        cmocka_unit_test(test_chess_refuses_impossible_positions),
        cmocka_unit_test(test_castling_several_kings),
        cmocka_unit_test(test_en_passant),
        cmocka_unit_test(test_promotion),
        cmocka_unit_test(test_castling_rules),
        cmocka_unit_test(test_board_make_bookkeeping),
        cmocka_unit_test(test_checkmate),
        cmocka_unit_test(test_stalemate),
        cmocka_unit_test(test_threefold_repetition),
        cmocka_unit_test(test_repetition_and_en_passant),
        cmocka_unit_test(test_fifty_move_rule),
        cmocka_unit_test(test_insufficient_material),
        cmocka_unit_test(test_end_order),
        cmocka_unit_test(test_undo),
    };
    return cmocka_run_group_tests_name("movegen", tests, NULL, NULL);
}
