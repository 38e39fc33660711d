/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Gifford's Time Travel Chess.  Every rule of docs/rules/gifford.md has a
 * test here, named after it; the seed's sample game is replayed note by
 * note; and the action generator is compared, position by position, with
 * a plain reading of the rules written out again below (slow loops over
 * every square, no shortcuts), so that the generator's shortcuts cannot
 * hide a mistake.
 */
#include "support.h"

#include "attacks.h"
#include "gifford.h"
#include "ttchess/sheets.h"

#define START NULL

static Game G;

static void start(const char *fen) { game_start(&G, "gifford", fen); }
static void done(void) { game_free(&G); }

static bool legal_text(const char *text)
{
    char err[256];
    Move m;
    if (!G.variant->parse_move(&G, text, &m, err, sizeof err)) return false;
    return true;
}

#define assert_fen(want) assert_string_equal(fen_now(), want)

static void assert_refused(const char *move, const char *expected)
{
    const char *got = refused(&G, move);
    if (!strstr(got, expected)) fail_msg("%s: expected a refusal with \"%s\", got \"%s\"", move, expected, got);
}

static const char *fen_now(void)
{
    static char buf[256];
    G.variant->to_fen(game_state(&G), buf, sizeof buf);
    return buf;
}

static const char *status_now(void)
{
    static char buf[128];
    Outcome o = game_outcome(&G);
    outcome_format(&o, buf, sizeof buf);
    return buf;
}

/* ---- The rules written out plainly -------------------------------------- */

static bool kings_safe(const Board *b, Color c) { return !board_in_check(b, c); }

static bool adjacent(Square a, Square b)
{
    int df = abs(square_file(a) - square_file(b)), dr = abs(square_rank(a) - square_rank(b));
    return a != b && df <= 1 && dr <= 1;
}

static bool rule_placement_ok(const Board *b, uint8_t code, Square q)
{
    PieceType t = (PieceType)(code & 7);
    if (b->squares[q] != NO_PIECE) return false;
    if (t == PAWN && (square_rank(q) == 0 || square_rank(q) == 7)) return false;
    if (t == BISHOP && ((square_file(q) + square_rank(q)) % 2 == 0) != ((code & ARRIVAL_DARK) != 0)) return false;
    Board c = *b;
    board_put(&c, q, make_piece(b->side, t));
    return kings_safe(&c, b->side);
}

static int count_men(const Board *b, Color c)
{
    int n = 0;
    for (Square s = 0; s < 64; s++)
        if (b->squares[s] && piece_color(b->squares[s]) == c && piece_type(b->squares[s]) != KING) n++;
    return n;
}

static void rule_actions(const Game *g, MoveList *out)
{
    const State *s = game_state(g);
    const Board *b = &s->board;
    Color us = b->side;
    int n = b->fullmove;
    out->count = 0;
    uint8_t due = gifford_arrival_at(s, us, n);
    if (due) {
        for (Square q = 0; q < 64; q++)
            if (rule_placement_ok(b, due, q)) movelist_add(out, move_make(SQ_NONE, q, MOVE_ARRIVAL, due & 7, 0));
        if (out->count || (due & 7) == KING) return;
    }
    MoveList pseudo;
    pseudo.count = 0;
    gen_pseudo(b, &pseudo);
    for (int i = 0; i < pseudo.count; i++)
        if (move_is_legal(b, pseudo.moves[i])) movelist_add(out, pseudo.moves[i]);
    if (!kings_safe(b, us)) return;
    for (Square sq = 0; sq < 64; sq++) {
        Piece p = b->squares[sq];
        if (!p || piece_color(p) != us) continue;
        bool is_king = piece_type(p) == KING;
        bool may = is_king ? count_men(b, us) > 0 : false;
        for (Square k = 0; k < 64 && !is_king && !may; k++)
            if (b->squares[k] == make_piece(us, KING) && adjacent(k, sq)) may = true;
        if (!may) continue;
        Board c = *b;
        board_remove(&c, sq);
        if (!kings_safe(&c, us)) continue;
        for (int m = n + 1; m <= n + 10; m++)
            if (!gifford_arrival_at(s, us, m)) movelist_add(out, move_make(sq, SQ_NONE, MOVE_SEND_FORWARD, 0, (uint32_t)m));
    }
    if (gifford_cstate(s)->backs_used[us] >= 2 || count_men(b, us) == 0) return;
    for (int j = 1; j <= 5; j++) {
        int t = n - j, node = g->current;
        for (int k = 0; k < 2 * j && node >= 0; k++) node = g->nodes[node].parent;
        if (t < 1 || node < 0) break;
        const State *T = &g->nodes[node].state;
        assert_int_equal(T->board.fullmove, t);
        assert_int_equal(T->board.side, us);
        if (gifford_arrival_at(T, us, t)) continue;
        for (Square q = 0; q < 64; q++) {
            if (T->board.squares[q]) continue;
            Board c = T->board;
            board_put(&c, q, make_piece(us, KING));
            if (!kings_safe(&c, us)) continue;
            for (Square k = 0; k < 64; k++)
                if (b->squares[k] == make_piece(us, KING))
                    movelist_add(out, move_make(k, q, MOVE_KING_BACK, KING, (uint32_t)t));
        }
    }
}

static int move_cmp(const void *a, const void *b) { return memcmp(a, b, sizeof(Move)); }

static void assert_same_actions(const Game *g)
{
    static MoveList want, got;
    rule_actions(g, &want);
    game_generate(g, &got);
    qsort(want.moves, (size_t)want.count, sizeof(Move), move_cmp);
    qsort(got.moves, (size_t)got.count, sizeof(Move), move_cmp);
    if (want.count != got.count || memcmp(want.moves, got.moves, (size_t)want.count * sizeof(Move))) {
        char fen[256];
        g->variant->to_fen(game_state(g), fen, sizeof fen);
        fail_msg("generator and rules differ at %s: %d vs %d actions", fen, got.count, want.count);
    }
}

static uint64_t rule_perft(Game *g, int depth)
{
    MoveList *l = malloc(sizeof *l);
    rule_actions(g, l);
    uint64_t n = 0;
    if (depth == 1) n = (uint64_t)l->count;
    else
        for (int i = 0; i < l->count; i++) {
            game_push(g, l->moves[i]);
            n += rule_perft(g, depth - 1);
            game_pop(g);
        }
    free(l);
    return n;
}

/* Random games biased towards time travel, checked at every position. */
static void test_generator_matches_rules(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    MoveList *l = malloc(sizeof *l);
    int checked = 0, travels = 0, branches = 0;
    for (int game = 0; game < 60; game++) {
        start(START);
        for (int ply = 0; ply < 90; ply++) {
            assert_same_actions(&G);
            checked++;
            game_generate(&G, l);
            if (!l->count || game_outcome(&G).result != RESULT_NONE) break;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            int pick = (int)((seed >> 33) % (uint64_t)l->count);
            /* Prefer ordinary moves two times in three so that games last. */
            if ((seed >> 20) % 3 && l->moves[pick].kind >= MOVE_SEND_FORWARD)
                for (int i = 0; i < l->count; i++)
                    if (l->moves[(pick + i) % l->count].kind < MOVE_SEND_FORWARD) {
                        pick = (pick + i) % l->count;
                        break;
                    }
            travels += l->moves[pick].kind >= MOVE_SEND_FORWARD;
            game_push(&G, l->moves[pick]);
            branches += G.nodes[G.current].parent != G.nodes[G.current].previous;
        }
        done();
    }
    free(l);
    assert_true(checked > 2000);
    assert_true(travels > 300);
    assert_true(branches > 20);
}

/* ---- Perft ------------------------------------------------------------- */

static void test_perft_start(void **state)
{
    (void)state;
    start(START);
    assert_int_equal(game_perft(&G, 1), 80);
    assert_int_equal(game_perft(&G, 2), 6400);
    /* Depth 3 also counted by the plain rules above. */
    assert_int_equal(game_perft(&G, 3), 529709);
    assert_int_equal(rule_perft(&G, 3), 529709);
    done();
}

/* Positions with arrivals due, travels back and lost arrivals, counted by
 * the generator and by the plain rules. */
static void test_perft_positions(void **state)
{
    (void)state;
    static const struct {
        const char *fen, *moves;
        int depth;
        uint64_t nodes;
    } cases[] = {
        { "rnbqkknr/pppppppp/8/8/8/8/PPP2PPP/RNBQKBNR w KQkq - 0 3 P5,P8/Bb5 0/1", "", 3, 535807 },
        { NULL, "e4 e5 Nf3 Nc6 Bc4 Bc5", 2, 13823 },
        { NULL, "d2>8 Bf8>5 e2>5 f7>3 Bc4 P@e6 Nh3 d5 P@f7+", 3, 45669 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        start(cases[i].fen);
        if (cases[i].moves[0]) play_all(&G, cases[i].moves);
        assert_int_equal(game_perft(&G, cases[i].depth), cases[i].nodes);
        assert_int_equal(rule_perft(&G, cases[i].depth), cases[i].nodes);
        done();
    }
}

/* ---- Sending forward ---------------------------------------------------- */

static void test_send_needs_adjacent_king(void **state)
{
    (void)state;
    start(START);
    /* "on the first move you could send ... Queen-Pawn, King-Pawn,
     * King-Bishop-Pawn, Queen, King-Bishop, or the King" */
    assert_true(legal_text("d2>5") && legal_text("e2>5") && legal_text("f2>5") && legal_text("d1>5") &&
                legal_text("f1>5") && legal_text("e1>5"));
    assert_refused("c2>5", "c2 is not next to a white king");
    assert_refused("Ng1>5", "g1 is not next to a white king");
    done();
}

static void test_send_move_limits(void **state)
{
    (void)state;
    start(START);
    assert_refused("d2>1", "forward to a later move");
    assert_refused("d2>12", "at most 10 moves forward");
    play_all(&G, "d2>11");
    play_all(&G, "e7e5");
    assert_refused("e2>11", "white already has an arrival at move 11");
    /* The king counts as an arrival too. */
    assert_refused("Ke1>11", "white already has an arrival at move 11");
    done();
}

static void test_send_not_in_check_not_pinned(void **state)
{
    (void)state;
    start("4k3/8/8/8/8/8/3PP3/r3K3 w - - 0 10");
    assert_refused("d2>12", "no time travel while a white king is in check");
    done();
    start("4k3/4r3/8/8/8/8/3PP3/4K3 w - - 0 10");
    assert_refused("e2>12", "would leave the white king in check");
    assert_true(legal_text("d2>12"));
    done();
}

static void test_send_bishop_remembers_colour(void **state)
{
    (void)state;
    start(START);
    play_all(&G, "Bf1>5 Bf8>5");
    assert_string_equal(fen_now(), "rnbqk1nr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK1NR w KQkq - 0 2 Bw5/Bb5 0/0");
    play_all(&G, "e4 e5 Nf3 Nf6 d3 d6");
    assert_refused("B@d2", "the bishop must land on a light square");
    assert_refused("[Bb]e2", "travels on light squares, not dark ones");
    play_all(&G, "B@e2");
    assert_refused("B@d7", "the bishop must land on a dark square");
    play_all(&G, "B@e7");
    done();
}

static void test_send_rook_loses_castling(void **state)
{
    (void)state;
    /* A rook is next to a king on its home square only with a second king
     * beside it. */
    start("4k3/8/8/8/8/8/8/4K1KR w K - 0 10");
    play_all(&G, "Rh1>15");
    assert_int_equal(game_board(&G)->castling, 0);
    done();
    start("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 10");
    play_all(&G, "Ke1>15");
    assert_int_equal(game_board(&G)->castling, CASTLE_BQ);
    done();
}

static void test_king_send_needs_a_man(void **state)
{
    (void)state;
    start("4k3/8/8/8/8/8/8/4K3 w - - 0 10 P15/- 0/0");
    assert_refused("e1>12", "only while white has a pawn or piece on the board");
    done();
    /* With the king away the other pieces cannot travel; nothing is in check. */
    start("4k3/8/8/8/8/8/4P3/4K3 w - - 0 10");
    play_all(&G, "e1>12 e8d8");
    assert_false(board_in_check(game_board(&G), WHITE));
    assert_refused("e2>15", "e2 is not next to a white king");
    done();
}

/* ---- Arrivals ----------------------------------------------------------- */

static void test_arrival_must_be_placed(void **state)
{
    (void)state;
    start("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 10 -/N10 0/0");
    play_all(&G, "e3");
    assert_refused("Ke7", "black must place the arriving knight this turn");
    assert_refused("N@e1", "e1 is not empty");
    assert_refused("Q@e5", "the piece arriving now is a knight, not a queen");
    MoveList l;
    game_generate(&G, &l);
    for (int i = 0; i < l.count; i++) assert_int_equal(l.moves[i].kind, MOVE_ARRIVAL);
    play_all(&G, "N@f3+");
    done();
}

static void test_arrival_pawn_ranks_and_double_step(void **state)
{
    (void)state;
    start("4k3/8/8/8/8/8/8/4K3 w - - 0 10 P10/- 0/0");
    assert_refused("P@a1", "a pawn cannot arrive on the first or last rank");
    assert_refused("P@a8", "a pawn cannot arrive on the first or last rank");
    /* DECISION: an arrived pawn on its own 2nd rank may double-step; the
     * arrival itself creates no en passant right. */
    play_all(&G, "P@a2 Kd7 a4");
    assert_int_equal(game_board(&G)->ep, make_square(0, 2));
    done();
    start("4k3/8/8/8/8/8/8/4K3 b - - 0 10 -/P10 0/0");
    play_all(&G, "P@d5");
    assert_int_equal(game_board(&G)->ep, SQ_NONE);
    done();
}

static void test_arrival_lost_in_time(void **state)
{
    (void)state;
    /* A knight due while the king is in check by a pawn cannot help: it is
     * lost in time and the player plays on. */
    start("4k3/3P4/8/8/8/8/8/4K3 b - - 0 10 -/N10 0/0");
    assert_refused("N@c6", "would leave the black king in check");
    assert_refused("[N]", "lost in time; now play another action");
    play_all(&G, "Kxd7");
    assert_string_equal(fen_now(), "8/3k4/8/8/8/8/8/4K3 w - - 0 11 -/- 0/0");
    done();
}

static void test_king_lost_in_time(void **state)
{
    (void)state;
    /* "if White had a King scheduled to show up on move 11 but Black put
     * White in check on move 10, then White would lose" */
    start("4k3/8/8/8/8/8/P7/7K w - - 0 11 K11/- 0/0");
    assert_string_equal(status_now(), "ongoing");
    done();
    start("4k3/8/8/8/8/8/P7/q6K w - - 0 11 K11/- 0/0");
    assert_string_equal(status_now(), "0-1 white king lost in time");
    done();
}

static void test_arrival_may_mate(void **state)
{
    (void)state;
    start("7k/5Q2/8/8/8/8/8/K7 w - - 0 10 R10/- 0/0");
    play_all(&G, "R@h1");
    assert_string_equal(status_now(), "1-0 checkmate");
    done();
}

static void test_arrived_king_never_castles(void **state)
{
    (void)state;
    start("4k3/8/8/8/8/8/P7/R3K2R w KQ - 0 10");
    play_all(&G, "Ke1>12 Kd8 a3 Ke8");
    assert_int_equal(game_board(&G)->castling, 0);
    play_all(&G, "K@e1 Kd8");
    assert_refused("O-O", "white cannot castle kingside: the king or that rook has already moved");
    done();
}

/* ---- King back ---------------------------------------------------------- */

static void test_king_back_limits(void **state)
{
    (void)state;
    start(START);
    play_all(&G, "e4 e5 Nf3 Nc6 Bc4 Bc5 d3 d6 Nc3 Nf6 Bg5 h6");
    assert_refused("e1<1@e3", "at most 5 moves back");
    assert_refused("e1<7@e3", "to an earlier move");
    assert_refused("e1<2@e4", "is not empty at move 2");
    assert_refused("e1<2@d4", "a king on d4 at move 2 would be in check");
    play_all(&G, "e1<2@f3");
    assert_int_equal(G.timelines, 2);
    assert_string_equal(fen_now(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5K2/PPPP1PPP/RNBQKBNR b KQkq - 0 2 -/- 1/0");
    done();
}

static void test_king_back_two_per_game(void **state)
{
    (void)state;
    start(START);
    play_all(&G, "e4 e5 e1<1@e3 d5 Ke3d3 d4 d3<1@d3 e5");
    assert_int_equal(G.timelines, 3);
    assert_refused("e1<1@f3", "white has used both backward travels");
    done();
}

static void test_king_back_counts_over_timelines(void **state)
{
    (void)state;
    start(START);
    play_all(&G, "e4 e5 Nf3 Nc6 e1<1@e3 d5 Nf3 Nc6 d3 Nf6 e3<2@f4");
    assert_string_equal(fen_now() + strlen(fen_now()) - 3, "2/0");
    play_all(&G, "Nf6 d4 e6");
    assert_refused("e3<3@f3", "white has used both backward travels");
    done();
}

static void test_king_back_needs_a_man_and_no_check(void **state)
{
    (void)state;
    start("4k3/8/8/8/8/8/8/4K3 w - - 0 10 P15/- 0/0");
    play_all(&G, "Kd1 Kd8 Ke1 Ke8");
    assert_refused("e1<10@h1", "only while white has a pawn or piece on the board");
    done();
    start("4k2r/8/8/8/8/8/3P4/3K4 w - - 0 10");
    play_all(&G, "Ke1 Kf8 Kd1 Rh1+");
    assert_refused("d1<10@a4", "no time travel while a white king is in check");
    done();
}

static void test_king_back_arrival_conflict(void **state)
{
    (void)state;
    /* DECISION: a king cannot land at a move where an arrival is due. */
    start(START);
    play_all(&G, "d2>3 e5 c3 d5");
    MoveList l;
    game_generate(&G, &l);
    assert_int_equal(l.moves[0].kind, MOVE_ARRIVAL);
    play_all(&G, "P@d2 Nc6 Qa4 Nf6");
    assert_refused("e1<3@e3", "white has an arrival at move 3");
    play_all(&G, "e1<2@e3");
    done();
}

static void test_king_back_restores_schedules(void **state)
{
    (void)state;
    /* What was scheduled after T never happened; what was scheduled before
     * T still arrives. */
    start(START);
    play_all(&G, "d2>8 Bf8>5 e2>5 f7>3 Bc4 P@e6 Nh3 d5 P@f7+ Kxf7 Bd3 Kf7<2@f8");
    assert_string_equal(fen_now(), "rnbqkknr/pppppppp/8/8/8/8/PPP2PPP/RNBQKBNR w KQkq - 0 3 P5,P8/Bb5 0/1");
    done();
}

static void test_king_back_history_only(void **state)
{
    (void)state;
    /* A game started from a FEN has no history before its start. */
    start("4k3/8/8/8/8/8/3P4/4K3 w - - 0 10");
    play_all(&G, "Kd1 Kd8");
    assert_refused("d1<9@h1", "move 9 is not in this game's record");
    done();
}

/* ---- Results ------------------------------------------------------------ */

static void test_checkmate_no_travel_out(void **state)
{
    (void)state;
    /* "No time travel can occur when a King is in check; so don't count on a
     * jump to the past or future to get out of check or checkmate." */
    start(START);
    play_all(&G, "f3 e5 g4 Qh4");
    assert_string_equal(status_now(), "0-1 checkmate");
    done();
}

static void test_stalemate(void **state)
{
    (void)state;
    start("7k/5Q2/6K1/8/8/8/8/8 b - - 0 10");
    assert_string_equal(status_now(), "1/2-1/2 stalemate");
    done();
}

static void test_repetition_counts_schedules(void **state)
{
    (void)state;
    start("4k3/8/8/8/8/8/3P4/4K3 w - - 0 10");
    play_all(&G, "Kf1 Kd8 Ke1 Ke8 Kf1 Kd8 Ke1 Ke8");
    assert_string_equal(status_now(), "1/2-1/2 threefold repetition");
    done();
    /* With an arrival pending, the "same" board at other move numbers is a
     * different position: (m - n) differs. */
    start("4k3/8/8/8/8/8/3P4/4K3 w - - 0 10 -/N20 0/0");
    play_all(&G, "Kf1 Kd8 Ke1 Ke8 Kf1 Kd8 Ke1 Ke8");
    assert_string_equal(status_now(), "ongoing");
    done();
}

static void test_fifty_moves_reset_by_travel(void **state)
{
    (void)state;
    start("4k3/8/8/8/8/8/3P4/4K3 w - - 99 60");
    play_all(&G, "d2>62");
    assert_int_equal(game_board(&G)->halfmove, 0);
    done();
    start("4k3/8/8/8/8/8/3P4/4K3 w - - 99 60");
    play_all(&G, "Kf1");
    assert_string_equal(status_now(), "1/2-1/2 fifty-move rule");
    done();
}

static void test_dead_position(void **state)
{
    (void)state;
    start("4k3/8/8/8/8/8/8/4K3 w - - 0 10");
    assert_string_equal(status_now(), "1/2-1/2 insufficient material");
    done();
    /* A piece still to arrive keeps the game alive. */
    start("4k3/8/8/8/8/8/8/4K3 w - - 0 10 P15/- 0/0");
    assert_string_equal(status_now(), "ongoing");
    done();
    /* So does a lone knight (Gifford only calls kings-only positions dead). */
    start("4k3/8/8/8/8/8/8/4KN2 w - - 0 10");
    assert_string_equal(status_now(), "ongoing");
    done();
}

static void test_castling_with_several_kings(void **state)
{
    (void)state;
    /* The castling king's squares must be safe; the other king only must not
     * be left attacked. */
    start("4k3/8/8/8/8/8/8/1K2K2R w K - 0 10");
    assert_true(legal_text("O-O"));
    done();
    start("4k3/8/8/8/8/8/8/K3K2R w K - 0 10");
    play_all(&G, "O-O");
    done();
    start("4k3/8/8/8/8/6r1/8/K3K2R w K - 0 10");
    assert_refused("O-O", "attacked square");
    done();
}

/* ---- The seed's sample game, note by note -------------------------------- */

static void test_sample_game(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/games/gifford-sample.sheets", shared_dir());
    char *text = read_file(path);
    if (!text) fail_msg("cannot read %s", path);
    char err[320] = "";
    if (!sheets_read(text, variant_find("gifford"), &G, err, sizeof err)) fail_msg("%s", err);
    free(text);
    assert_int_equal(G.timelines, 3);
    assert_string_equal(status_now(), "0-1 white king lost in time");
    /* Each sheet starts at the first position: 12, 17 and 33 actions. */
    int tip2 = game_timeline_tip(&G, 2);
    assert_int_equal(G.nodes[tip2].state.board.fullmove, 9);
    done();
}

static void test_sample_notes(void **state)
{
    (void)state;
    start(START);
    play_all(&G, "d2//to8 B(f8)//to5 e2//to5 f7//to3 Bc4 [P]e6 Nh3 d5 [P]f7+");
    /* Timeline 1, move 5: Black must answer the pawn check, so the bishop due
     * from the past has no legal square and is lost in time. */
    assert_refused("[Bb]a5", "would leave the black king in check");
    play_all(&G, "Kxf7");
    assert_null(strstr(fen_now(), "Bb5"));
    play_all(&G, "Bd3");
    /* Move 6: Black's king goes back to move 2 (timeline 2), placed on f8. */
    play_all(&G, "Kf7<2@f8");
    assert_int_equal(G.timelines, 2);
    assert_int_equal(bb_count(board_kings(game_board(&G), BLACK)), 2);
    /* Timeline 2: the pawn sent on move 2 still arrives at 5, on any square. */
    play_all(&G, "Bc4 Nf6 Nh3 e6 [P]g5 [Bb]a5+ b4 Bxb4+ c3 Bxc3+ [P]d2 Bxa1");
    /* Move 9: White's king goes back to move 4 (timeline 3). */
    play_all(&G, "Ke1<4@f1");
    assert_int_equal(G.timelines, 3);
    assert_string_equal(fen_now() + strlen(fen_now()) - 3, "1/1");
    play_all(&G, "a6 [P]e2 [Bb]a5+ c3 h6 Nf3 c6 [P]b4 Bc7 K(f1)//to17 d5 Bb3 Bg4 h3 Bxf3 exf3 Nbd7 Nbd2 "
                 "N(d7)//to17 o-o Qd7 Re1 o-o-o Nf1 Bh2+");
    /* Move 17: Kxh2, Nxh2 and Kh1 would all answer the check, but move 17
     * is reserved for the king from move 9, which has no legal square. */
    MoveList l;
    game_generate(&G, &l);
    assert_int_equal(l.count, 0);
    assert_refused("Kxh2", "lost in time");
    assert_false(legal_text("Kxh2"));
    assert_false(legal_text("Nxh2"));
    assert_false(legal_text("Kh1"));
    assert_string_equal(status_now(), "0-1 white king lost in time");
    done();
}

/* ---- FEN and notation ----------------------------------------------------- */

static void test_fen_round_trip(void **state)
{
    (void)state;
    const char *fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -/- 0/0",
        "rnbqkknr/pppppppp/8/8/8/8/PPP2PPP/RNBQKBNR w KQkq - 0 3 P5,P8/Bb5 0/1",
        "4k3/8/8/8/8/8/8/4K3 b - - 3 20 K21,Bw25,N30/Q20,R29 2/1",
        "8/8/8/8/8/8/8/8 w - - 0 5 K6/K7 1/1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        start(fens[i]);
        assert_string_equal(fen_now(), fens[i]);
        done();
    }
    /* The plain six fields mean no arrivals and no travels. */
    start("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_string_equal(fen_now(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -/- 0/0");
    done();
}

static void test_fen_errors(void **state)
{
    (void)state;
    const char *bad[][2] = {
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 10 P5/- 0/0", "not between move 10 and move 20" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 10 P21/- 0/0", "not between" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 10 P12,N12/- 0/0", "two arrivals at move 12" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 10 B12/- 0/0", "Bw (light squares) or Bb" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 10 X12/- 0/0", "written like" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 10 P12 0/0", "WHITE/BLACK" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 10 -/- 3/0", "each 0 to 2" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 10 -/- 0/0 junk", "unexpected text" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Game g;
        char err[256] = "";
        assert_false(game_init(&g, variant_find("gifford"), bad[i][0], err, sizeof err));
        if (!strstr(err, bad[i][1])) fail_msg("%s: got '%s'", bad[i][0], err);
        game_free(&g);
    }
}

static void test_notation_forms(void **state)
{
    (void)state;
    /* Every form of the seed and of the coordinate/human notations. */
    const char *same[][4] = {
        { "d2>8", "d2// to 8", "d2//to8", "P(d2)// to 8" },
        { "f1>9", "Bf1>9", "Bf1// to 9", "B (f1)// to 9" },
        { "e1>11", "Ke1>11", "K(e1)// to 11", "K// to 11" },
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        start(START);
        Move first, m;
        char err[256];
        for (int k = 0; k < 4; k++) {
            if (!G.variant->parse_move(&G, same[i][k], &m, err, sizeof err)) fail_msg("%s: %s", same[i][k], err);
            if (k == 0) first = m;
            else assert_true(move_equal(first, m));
        }
        char buf[64];
        G.variant->format_coord(&G, first, buf, sizeof buf);
        assert_string_equal(buf, same[i][0]);
        done();
    }
}

static void test_human_and_sheet_output(void **state)
{
    (void)state;
    start(START);
    play_all(&G, "d2>3 Bf8>4 Bf1>5 e5");
    Move m;
    char err[256], buf[64];
    assert_true(G.variant->parse_move(&G, "P@e6", &m, err, sizeof err));
    G.variant->format_human(&G, m, buf, sizeof buf);
    assert_string_equal(buf, "P@e6");
    G.variant->format_sheet(&G, m, SHEET_ACTION, buf, sizeof buf);
    assert_string_equal(buf, "[P] e6");
    G.variant->format_coord(&G, m, buf, sizeof buf);
    assert_string_equal(buf, "P@e6");
    done();
}

/* Every action of many positions: coordinate and human forms read back. */
static void test_notation_round_trip(void **state)
{
    (void)state;
    const char *lines[] = {
        "d2>8 Bf8>5 e2>5 f7>3 Bc4 P@e6 Nh3 d5 P@f7+ Kxf7 Bd3",
        "d2>8 Bf8>5 e2>5 Ke8<1@e6",
        "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6",
    };
    MoveList *l = malloc(sizeof *l);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        start(START);
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", lines[i]);
        for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
            char err[256];
            if (!game_play_text(&G, t, err, sizeof err)) fail_msg("%s: %s", t, err);
        }
        game_generate(&G, l);
        for (int k = 0; k < l->count; k++) {
            char text[64], err[256];
            Move back;
            G.variant->format_coord(&G, l->moves[k], text, sizeof text);
            if (!G.variant->parse_move(&G, text, &back, err, sizeof err)) fail_msg("%s: %s", text, err);
            assert_true(move_equal(back, l->moves[k]));
            G.variant->format_human(&G, l->moves[k], text, sizeof text);
            if (!G.variant->parse_move(&G, text, &back, err, sizeof err)) fail_msg("%s: %s", text, err);
            assert_true(move_equal(back, l->moves[k]));
        }
        done();
    }
    free(l);
}

static void test_sheets_round_trip(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/games/gifford-sample.sheets", shared_dir());
    char *text = read_file(path);
    if (!text) fail_msg("cannot read %s", path);
    char err[320];
    assert_true(sheets_read(text, variant_find("gifford"), &G, err, sizeof err));
    free(text);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    sheets_write(&G, f);
    fclose(f);
    Game again;
    if (!sheets_read(out, variant_find("gifford"), &again, err, sizeof err)) fail_msg("%s\n%s", err, out);
    assert_int_equal(again.count, G.count);
    for (int i = 0; i < G.count; i++) {
        assert_true(move_equal(again.nodes[i].move, G.nodes[i].move));
        assert_int_equal(again.nodes[i].parent, G.nodes[i].parent);
        assert_int_equal(again.nodes[i].timeline, G.nodes[i].timeline);
    }
    game_free(&again);
    free(out);
    done();
}

static void test_sheets_errors(void **state)
{
    (void)state;
    const char *bad[][2] = {
        { "1. e4  |  e5\n", "[Timeline 1]" },
        { "[Timeline 2]\n1. e4\n", "expected [Timeline 1]" },
        { "[Timeline 1]\n1. e4  |  e5\n2. Nf6\n", "timeline 1, move 2 (white, Nf6): no knight can reach f6" },
        { "[Timeline 1]\n1. e4  |  e5\n[Timeline 2]\n1. e4\n", "does not end with a king going back" },
        { "[Timeline 1]\n1. e4  |  e5\n2. Nf3  |  K// Back to 1\n[Timeline 2]\n1. d4  |  K [FTF] e6\n",
          "differs" },
        { "[Timeline 1]\n1. e4  |  e5\n2. Nf3  |  K// Back to 1\n", "missing" },
        { "[Timeline 1]\n3. e4\n", "out of turn" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Game g;
        char err[320] = "";
        assert_false(sheets_read(bad[i][0], variant_find("gifford"), &g, err, sizeof err));
        if (!strstr(err, bad[i][1])) fail_msg("case %zu: expected '%s', got '%s'", i, bad[i][1], err);
        game_free(&g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_generator_matches_rules),
        cmocka_unit_test(test_perft_positions),
        cmocka_unit_test(test_send_needs_adjacent_king),
        cmocka_unit_test(test_send_move_limits),
        cmocka_unit_test(test_send_not_in_check_not_pinned),
        cmocka_unit_test(test_send_bishop_remembers_colour),
        cmocka_unit_test(test_send_rook_loses_castling),
        cmocka_unit_test(test_king_send_needs_a_man),
        cmocka_unit_test(test_arrival_must_be_placed),
        cmocka_unit_test(test_arrival_pawn_ranks_and_double_step),
        cmocka_unit_test(test_arrival_lost_in_time),
        cmocka_unit_test(test_king_lost_in_time),
        cmocka_unit_test(test_arrival_may_mate),
        cmocka_unit_test(test_arrived_king_never_castles),
        cmocka_unit_test(test_king_back_limits),
        cmocka_unit_test(test_king_back_two_per_game),
        cmocka_unit_test(test_king_back_counts_over_timelines),
        cmocka_unit_test(test_king_back_needs_a_man_and_no_check),
        cmocka_unit_test(test_king_back_arrival_conflict),
        cmocka_unit_test(test_king_back_restores_schedules),
        cmocka_unit_test(test_king_back_history_only),
        cmocka_unit_test(test_checkmate_no_travel_out),
        cmocka_unit_test(test_stalemate),
        cmocka_unit_test(test_repetition_counts_schedules),
        cmocka_unit_test(test_fifty_moves_reset_by_travel),
        cmocka_unit_test(test_dead_position),
        cmocka_unit_test(test_castling_with_several_kings),
        cmocka_unit_test(test_sample_game),
        cmocka_unit_test(test_sample_notes),
        cmocka_unit_test(test_fen_round_trip),
        cmocka_unit_test(test_fen_errors),
        cmocka_unit_test(test_notation_forms),
        cmocka_unit_test(test_human_and_sheet_output),
        cmocka_unit_test(test_notation_round_trip),
        cmocka_unit_test(test_sheets_round_trip),
        cmocka_unit_test(test_sheets_errors),
    };
    return cmocka_run_group_tests_name("gifford", tests, NULL, NULL);
}
