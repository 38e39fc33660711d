/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Chessgi and Time Travel Chessgi (docs/rules/chessgi.md): one test per
 * rule, named as the rules document names it, then round trips of FEN,
 * notation, keys and records on random games full of drops and travels.
 */
#include "support.h"

#include "pgn.h"
#include "sheets.h"

#define START_TT "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 -/- 0"

/* ---- Helpers ------------------------------------------------------------ */

/* Starts a game of `variant` with options ("name=value ...", or NULL) and
 * a FEN (NULL: the start), then plays `moves` (or NULL). */
static void start_with(Game *g, const char *variant, const char *options, const char *fen, const char *moves)
{
    const Variant *v = variant_find(variant);
    assert_non_null(v);
    Options o;
    options_default(v, &o);
    Text err = TEXT_INIT;
    if (options && !options_parse(v, &o, options, &err)) fail_msg("options %s: %s", options, text_str(&err));
    if (!game_init(g, v, &o, fen, &err)) fail_msg("bad FEN %s: %s", fen ? fen : "(start)", text_str(&err));
    text_free(&err);
    if (moves) play_all(g, moves);
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part)) fail_msg("'%s' does not contain '%s'", text, part);
}

static void assert_refused(Game *g, const char *action, const char *reason)
{
    int before = game_count(g);
    const char *why = refused(g, action);
    assert_int_equal(game_count(g), before);
    assert_contains(why, reason);
}

/* How many legal actions are of this kind (flagged or not). */
static int count_kind(const Game *g, int kind, bool at_node)
{
    MoveList l;
    legal_list(g, &l);
    int n = 0;
    for (int i = 0; i < l.count; i++)
        n += l.moves[i].kind == kind && ((l.moves[i].flags & MOVE_AT_NODE) != 0) == at_node;
    movelist_free(&l);
    return n;
}

static int count_travels(const Game *g)
{
    MoveList l;
    legal_list(g, &l);
    int n = 0;
    for (int i = 0; i < l.count; i++) n += (l.moves[i].flags & MOVE_AT_NODE) != 0;
    movelist_free(&l);
    return n;
}

/* Is the action written `text` (coordinate form) among the legal ones? */
static bool is_legal_text(const Game *g, const char *text)
{
    MoveList l;
    legal_list(g, &l);
    Line line;
    line_open(&line, g, game_current(g));
    bool found = false;
    for (int i = 0; i < l.count && !found; i++) {
        Text t = TEXT_INIT;
        g->variant->format_coord(&line, l.moves[i], &t);
        found = !strcmp(text_str(&t), text);
        text_free(&t);
    }
    line_close(&line);
    movelist_free(&l);
    return found;
}

static uint64_t perft_of(const Game *g, int depth)
{
    uint64_t n;
    assert_true(game_perft(g, depth, &n));
    return n;
}

/* ---- The base game ------------------------------------------------------ */

static void test_perft_classic(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi-classic", NULL, NULL, NULL);
    const uint64_t expected[] = { 20, 400, 8902, 197281 };
    for (int d = 1; d <= 4; d++) assert_int_equal(perft_of(&g, d), expected[d - 1]);
    game_free(&g);
    start_with(&g, "chessgi-classic", NULL, "5Rp1/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnpp] b - - 1 48", NULL);
    assert_int_equal(perft_of(&g, 2), 32816);
    game_free(&g);
}

/* 175 = 20 moves + 15 pieces x 10 moves + the king x 5. */
static void test_perft_travel(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, NULL);
    assert_int_equal(perft_of(&g, 1), 175);
    assert_int_equal(perft_of(&g, 2), 6600);
    assert_int_equal(perft_of(&g, 3), 217529);
    game_free(&g);
}

static void test_capture_to_pocket(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi-classic", NULL, NULL, "e2e4 d7d5 e4d5");
    assert_string_equal(game_fen(&g), "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[P] b KQkq - 0 2");
    play_all(&g, "d8d5");
    assert_string_equal(game_fen(&g), "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3");
    game_free(&g);
}

/* Unlike crazyhouse, a captured promoted queen stays a queen. */
static void test_promoted_piece_keeps_type(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi-classic", NULL, "7r/1P2k3/8/8/8/8/8/4K3[] w - - 0 1", "b7b8q h8b8");
    assert_string_equal(game_fen(&g), "1r6/4k3/8/8/8/8/8/4K3[q] w - - 0 2");
    game_free(&g);
}

static void test_pawn_drop_ranks(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi-classic", NULL, "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1", NULL);
    assert_refused(&g, "P@a8", "a pawn may not be dropped on the last rank");
    play_all(&g, "P@a1");
    assert_refused(&g, "p@h1", "a pawn may not be dropped on the last rank");
    play_all(&g, "p@h8");
    game_free(&g);
}

static void test_drop_in_check_blocks(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi-classic", NULL, "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", NULL);
    assert_int_equal(count_kind(&g, MOVE_DROP, false), 3);
    assert_refused(&g, "N@e3", "you are in check, and a knight on e3 does not stop it");
    play_all(&g, "N@c1");
    game_free(&g);
}

static void test_drop_mate(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi-classic", NULL, "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1", "Q@a7");
    assert_string_equal(game_status(&g), "1-0 checkmate");
    game_free(&g);
}

/* The Fairy-Stockfish reading: one step from the first rank, never two. */
static void test_first_rank_pawn_steps_once(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi-classic", NULL, "4k3/8/8/8/8/8/8/P3K3[] w - - 0 1", NULL);
    assert_true(is_legal_text(&g, "a1a2"));
    assert_false(is_legal_text(&g, "a1a3"));
    play_all(&g, "a1a2 e8d8");
    assert_true(is_legal_text(&g, "a2a4"));
    game_free(&g);
}

static void test_no_dead_position(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi-classic", NULL, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1", NULL);
    assert_string_equal(game_status(&g), "ongoing");
    game_free(&g);
}

/* ---- Who may travel, and when ------------------------------------------- */

static void test_no_travel_in_check(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "e2e4 f7f6 d1h5");
    assert_int_equal(count_kind(&g, MOVE_SEND_FORWARD, false), 0);
    assert_refused(&g, "e8>3", "you cannot time travel while in check");
    game_free(&g);
}

static void test_cooldown(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "g1>5");
    assert_refused(&g, "g8>5", "no time travel for 4 more plies (the last one was 1 ply ago; the cooldown is 4)");
    play_all(&g, "e7e5 e2e4 d7d5");
    assert_refused(&g, "b1>5", "no time travel for 1 more ply (the last one was 4 plies ago; the cooldown is 4)");
    assert_int_equal(count_kind(&g, MOVE_SEND_FORWARD, false), 0);
    play_all(&g, "e4d5 g8>9");
    game_free(&g);
}

static void test_options_cooldown(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", "cooldown=2", NULL, "g1>5 e7e5");
    assert_refused(&g, "b1>5", "no time travel for 1 more ply");
    play_all(&g, "e2e4 g8>5");
    game_free(&g);
    start_with(&g, "chessgi", "cooldown=0 forward=2 king-forward=1", NULL, "g1>3 g8>3");
    assert_refused(&g, "b1>5", "a piece travels at most 2 moves forward (to move 4 at the latest)");
    assert_refused(&g, "e1>4", "a king travels at most 1 moves forward (to move 3 at the latest)");
    game_free(&g);
}

/* ---- Special travel ----------------------------------------------------- */

static void test_send_range(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, NULL);
    assert_refused(&g, "b1>1", "a piece travels into the future: pick a move after 1");
    assert_refused(&g, "b1>12", "a piece travels at most 10 moves forward (to move 11 at the latest)");
    assert_refused(&g, "b3>5", "you have no piece on b3 to send into the future");
    assert_refused(&g, "Bb1>5", "the piece on b1 is a knight, not a bishop");
    play_all(&g, "Nb1>11");
    assert_contains(game_fen(&g), " N11/- 4");
    game_free(&g);
}

static void test_king_send_range(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, NULL);
    assert_refused(&g, "e1>7", "a king travels at most 5 moves forward (to move 6 at the latest)");
    play_all(&g, "Ke1>6");
    assert_string_equal(game_fen(&g), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR[] b kq - 0 1 K6/- 4");
    game_free(&g);
}

static void test_pocket_full(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QQQRRRRBBBBNNNN] w KQkq - 0 1 N5/- 0", NULL);
    assert_refused(&g, "g1>3", "your pocket is full (16 pieces): a special travel needs room in it");
    assert_int_equal(count_kind(&g, MOVE_SEND_FORWARD, false), 0);
    game_free(&g);
    /* Fifteen and no traveller: room for one. */
    start_with(&g, "chessgi", NULL, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QQQRRRRBBBBNNNN] w KQkq - 0 1", "g1>3");
    game_free(&g);
}

static void test_one_traveller_per_move(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "g1>5 e7e5 e2e4 d7d5 e4d5 c8g4");
    assert_refused(&g, "b1>5", "your knight already returns at move 5: one traveller per move");
    play_all(&g, "b1>6");
    assert_contains(game_fen(&g), " N5,N6/- 4");
    game_free(&g);
}

static void test_send_exposing_king(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, "4k3/4r3/8/8/8/8/4N3/4K3[] w - - 0 1", NULL);
    assert_refused(&g, "e2>5", "sending the knight on e2 away would leave your king in check");
    game_free(&g);
}

static void test_send_loses_castling(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "h1>5");
    assert_string_equal(game_fen(&g), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1[] b Qkq - 0 1 R5/- 4");
    game_free(&g);
}

/* ---- Travellers --------------------------------------------------------- */

static void test_traveller_drop(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "d2>3 e7e5 e2e4 d7d6");
    assert_true(is_legal_text(&g, "[P]@d4"));
    assert_true(is_legal_text(&g, "d1e2"));
    play_all(&g, "[P]@d4");
    assert_string_equal(game_fen(&g), "rnbqkbnr/ppp2ppp/3p4/4p3/3PP3/8/PPP2PPP/RNBQKBNR[] b KQkq - 0 3 -/- 0");
    game_free(&g);
}

static void test_traveller_lost(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "d2>3 e7e5 e2e4 d7d6");
    Line l;
    line_open(&l, &g, game_current(&g));
    MoveList list;
    legal_list(&g, &list);
    Move queen = move_make(3, 12, MOVE_NORMAL, NO_TYPE, 0);
    assert_true(movelist_contains(&list, queen));
    Text note = TEXT_INIT;
    assert_true(g.variant->note(&l, queen, &note));
    assert_string_equal(text_str(&note), "the white pawn sent to move 3 is lost in time");
    text_free(&note);
    movelist_free(&list);
    line_close(&l);
    play_all(&g, "d1e2");
    assert_contains(game_fen(&g), " -/- 0");
    game_free(&g);
}

static void test_traveller_not_before_its_move(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "g1>5 e7e5");
    assert_refused(&g, "[N]@f3", "your knight is due at move 5: a traveller cannot be dropped before its move");
    assert_refused(&g, "N@f3", "you have no knight in your pocket to drop (your knight sent to move 5 is a traveller");
    game_free(&g);
}

static void test_king_traveller_must_land(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "e2e4 e7e5 e1>3 d7d6");
    MoveList l;
    legal_list(&g, &l);
    assert_true(l.count > 0);
    for (int i = 0; i < l.count; i++) {
        assert_int_equal(l.moves[i].kind, MOVE_ARRIVAL);
        assert_int_equal(l.moves[i].piece, KING);
    }
    movelist_free(&l);
    assert_refused(&g, "d2d4", "the king sent to move 3 must be dropped now");
    assert_refused(&g, "b1>5", "the king sent to move 3 must be dropped now");
    play_all(&g, "[K]@e2");
    game_free(&g);
}

static void test_king_lost_in_time(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, "q3k3/2q5/4q3/6q1/1q6/3q4/5q2/7q[] w - - 0 3 K3/- 0", NULL);
    assert_string_equal(game_status(&g), "0-1 white king lost in time");
    game_free(&g);
}

/* A traveller makes the pocket non-empty for a general travel. */
static void test_traveller_counts_in_pocket(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "g1>5 e7e5 e2e4 d7d5 b1c3 d5e4");
    assert_contains(game_fen(&g), "[p] w");
    assert_true(count_travels(&g) > 0);
    game_free(&g);
}

/* ---- General travel ----------------------------------------------------- */

static void test_general_travel_needs_pocket(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "e2e4 e7e5");
    assert_int_equal(count_travels(&g), 0);
    assert_refused(&g, "<1.0>e2e4", "a general travel needs a piece in your pocket, and yours is empty");
    game_free(&g);
}

/* Only positions where the mover was to move, never the present one. */
static void test_general_travel_targets(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "g1>5 e7e5 e2e4 d7d5 e4d5 b8c6");
    MoveList l;
    legal_list(&g, &l);
    bool seen[8] = { false };
    for (int i = 0; i < l.count; i++)
        if (l.moves[i].flags & MOVE_AT_NODE) seen[l.moves[i].arg] = true;
    movelist_free(&l);
    assert_true(seen[0] && seen[2] && seen[4]);
    assert_false(seen[1] || seen[3] || seen[5] || seen[6]);
    assert_refused(&g, "<1.1>e2e4", "Black was to move there: you travel only to a position where you (white) were to move");
    assert_refused(&g, "<9.2>e2e4", "there is no timeline 9 (this game has 1)");
    assert_refused(&g, "<1.22>e2e4", "timeline 1 has no position 22");
    game_free(&g);
}

/* The board, rights and move number are the target's, as is the
 * opponent's pocket; the mover keeps its pocket and travellers. */
static void test_general_travel_keeps_pocket(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "g1>5 e7e5 e2e4 d7d5 e4d5 d8d5");
    assert_contains(game_fen(&g), "[Pp] w");
    play_all(&g, "<1.2>P@e6");
    assert_string_equal(game_fen(&g), "rnbqkbnr/pppp1ppp/4P3/4p3/8/8/PPPPPPPP/RNBQKB1R[] b KQkq - 0 2 N5/- 4");
    game_free(&g);
}

static void test_general_travel_en_passant_returns(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "e2e4 a7a6 e4e5 d7d5 e5d6 c7d6");
    assert_true(is_legal_text(&g, "<1.4>e5d6"));
    play_all(&g, "<1.4>e5d6");
    assert_string_equal(game_fen(&g), "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR[PP] b KQkq - 0 3 -/- 4");
    game_free(&g);
}

/* A traveller due now is lost by a travel to another move. */
static void test_general_travel_due_traveller(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", "cooldown=2", NULL, "g1>3 e7e5 e2e4 d7d5");
    assert_true(is_legal_text(&g, "[N]@f3"));
    assert_true(is_legal_text(&g, "<1.2>d2d4"));
    play_all(&g, "<1.2>d2d4");
    assert_contains(game_fen(&g), " -/- 2");
    game_free(&g);
}

/* A travel from move 4 to move 7 of the abandoned first timeline jumps
 * over the knight due at move 5: it stays in the pocket, not droppable. */
static void test_jumped_traveller_stays(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", "cooldown=0", NULL,
               "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 g1f3 g8f6 f1c4 b8c6 d2d3 c8g4 e1g1 e8c8 "
               "<1.2>d2d4 g8f6 g1>5 b8c6");
    assert_true(is_legal_text(&g, "<1.12>h2h3"));
    play_all(&g, "<1.12>h2h3");
    assert_int_equal(game_timelines(&g), 3);
    assert_contains(game_fen(&g), " N5/- 0");
    assert_int_equal(count_kind(&g, MOVE_ARRIVAL, false), 0);
    game_free(&g);
}

static void test_general_travel_keeps_a_king(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "e2e4 e7e5 e1>3 d7d5 [K]@e1 a7a6 e4d5 a6a5");
    MoveList l;
    legal_list(&g, &l);
    bool to_4 = false, to_2 = false;
    for (int i = 0; i < l.count; i++) {
        if (!(l.moves[i].flags & MOVE_AT_NODE)) continue;
        to_4 |= l.moves[i].arg == 4;
        to_2 |= l.moves[i].arg == 2;
    }
    movelist_free(&l);
    assert_false(to_4);
    assert_true(to_2);
    assert_refused(&g, "<1.4>d2d4", "a general travel may not leave you without a king");
    game_free(&g);
}

static void test_general_travel_new_timeline(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "g1>5 e7e5 e2e4 d7d5 e4d5 b8c6 <1.2>P@e6");
    assert_int_equal(game_timelines(&g), 2);
    const Node *n = game_node(&g, game_current(&g));
    assert_int_equal(n->timeline, 2);
    assert_int_equal(n->parent, 2);
    /* The first timeline stays in the record, a target like any other. */
    assert_int_equal(game_timeline_tip(&g, 1), 6);
    game_free(&g);
}

static void test_travel_into_abandoned_future(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", "cooldown=0", NULL, "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 g1f3 g8f6 <1.2>d2d4 g8f6");
    /* Move 3 now; the first timeline reached move 5. */
    assert_int_equal(game_board(&g)->fullmove, 3);
    assert_true(is_legal_text(&g, "<1.8>f1c4"));
    play_all(&g, "<1.8>f1c4");
    assert_int_equal(game_board(&g)->fullmove, 5);
    game_free(&g);
}

/* ---- The end ------------------------------------------------------------ */

static void test_checkmate(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "e4 e5 Qh5 Ke7 Qxe5");
    assert_string_equal(game_status(&g), "1-0 checkmate");
    game_free(&g);
}

static void test_stalemate(void **state)
{
    (void)state;
    Game g;
    /* Nobody may travel for 4 plies: otherwise the king could leave. */
    start_with(&g, "chessgi", NULL, "k7/8/1QK5/8/8/8/8/8[] b - - 0 1 -/- 4", NULL);
    assert_string_equal(game_status(&g), "1/2-1/2 stalemate");
    game_free(&g);
    /* A time travel is a legal action: no stalemate while one is allowed. */
    start_with(&g, "chessgi", NULL, "k7/8/1QK5/8/8/8/8/8[] b - - 0 1 -/- 0", NULL);
    assert_string_equal(game_status(&g), "ongoing");
    game_free(&g);
}

static void test_repetition_counts_pockets(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_string_equal(game_status(&g), "1/2-1/2 threefold repetition");
    game_free(&g);
    /* The same board with other pockets is another position. */
    const Variant *v = variant_find("chessgi");
    Options o;
    options_default(v, &o);
    Text err = TEXT_INIT;
    State *a = v->from_fen(&o, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", &err);
    State *b = v->from_fen(&o, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1", &err);
    State *c = v->from_fen(&o, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 -/- 2", &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_false(v->same_position(a, b));
    assert_false(v->same_position(b, c));
    assert_true(a->ext_key != b->ext_key && b->ext_key != c->ext_key);
    free(a);
    free(b);
    free(c);
    text_free(&err);
}

/* The count resets on a pawn drop and on every time travel, not on a
 * piece drop. */
static void test_fifty_moves(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, "4k3/8/8/8/8/8/8/4K3[NP] w - - 99 80", "N@c3");
    assert_string_equal(game_status(&g), "1/2-1/2 fifty-move rule");
    game_free(&g);
    start_with(&g, "chessgi", NULL, "4k3/8/8/8/8/8/8/4K3[NP] w - - 99 80", "P@c3");
    assert_string_equal(game_status(&g), "ongoing");
    game_free(&g);
    start_with(&g, "chessgi", NULL, "4k3/8/8/8/8/8/8/4K3[NP] w - - 99 80", "e1>82");
    assert_contains(game_fen(&g), " b - - 0 80 ");
    game_free(&g);
    /* A general travel to a position 4 plies after the last reset, with a
     * knight move there: the count is 0 all the same. */
    start_with(&g, "chessgi", NULL, NULL, "g1f3 g8f6 f3g1 f6g8 b1c3 d7d5 c3d5 d8d5");
    play_all(&g, "<1.4>g1f3");
    assert_contains(game_fen(&g), " b KQkq - 0 3 ");
    game_free(&g);
}

/* The cooldown counts from the travel in play order, not from the
 * position travelled to. */
static void test_cooldown_after_general_travel(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, "g1>5 e7e5 e2e4 d7d5 e4d5 b8c6");
    /* Node 2 had 3 plies left; the travel sets 4. */
    play_all(&g, "<1.2>P@e6");
    assert_contains(game_fen(&g), " N5/- 4");
    game_free(&g);
}

/* ---- Records, FEN, notation, keys --------------------------------------- */

static void test_fen_errors(void **state)
{
    (void)state;
    const Variant *v = variant_find("chessgi");
    Options o;
    options_default(v, &o);
    static const struct {
        const char *fen, *why;
    } cases[] = {
        { "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1", "a king cannot be in a pocket" },
        { "4k3/8/8/8/8/8/8/4K3[X] w - - 0 1", "'X' in the pockets is not a piece letter" },
        { "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 N5", "the travellers field is WHITE/BLACK" },
        { "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 N5,B5/-", "two travellers due at move 5" },
        { "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 Nx/-", "a traveller needs its due move" },
        { "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 -/- 5", "from 0 to 4 (the cooldown)" },
        { "4k2P/8/8/8/8/8/8/4K3[] w - - 0 1", "a pawn stands on the last rank" },
        { "8/8/8/8/8/8/8/4K3[] w - - 0 1", "black has no king, neither on the board nor travelling" },
        { "4k3/8/8/8/8/8/8/4K3[]QR w - - 0 1", "the pockets are written at the end of the board" },
        { "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 -/- 0 x", "unexpected text after the time-travel wait" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Text err = TEXT_INIT;
        State *s = v->from_fen(&o, cases[i].fen, &err);
        if (s) fail_msg("FEN accepted: %s", cases[i].fen);
        assert_contains(text_str(&err), cases[i].why);
        text_free(&err);
    }
    /* Chessgi needs one king a side and has no travellers. */
    const Variant *classic = variant_find("chessgi-classic");
    Text err = TEXT_INIT;
    assert_null(classic->from_fen(&o, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 -/- 0", &err));
    assert_contains(text_str(&err), "Chessgi has no travellers");
    text_free(&err);
    /* A white king travelling instead of standing: fine in the time-travel game. */
    State *s = v->from_fen(&o, "4k3/8/8/8/8/8/8/8[] w - - 0 1 K3/- 0", &err);
    assert_non_null(s);
    free(s);
    text_free(&err);
}

/* Plays a random game of `plies` actions, one time in three a time
 * travel, checking at every position that the FEN reads back the same
 * state, that the kept keys equal those computed afresh, and that every
 * legal action reads back from both its forms. */
static void random_game_checks(const char *variant, int plies, uint64_t seed)
{
    Game g;
    start_with(&g, variant, NULL, NULL, NULL);
    const Variant *v = g.variant;
    uint64_t rng = seed;
    for (int ply = 0; ply < plies; ply++) {
        const State *s = game_state(&g);
        assert_true(s->ext_key == v->ext_key(&g.options, s));
        assert_true(s->board.key == board_compute_key(&s->board));
        Text fen = TEXT_INIT, again = TEXT_INIT, err = TEXT_INIT;
        v->to_fen(&g.options, s, &fen);
        State *back = v->from_fen(&g.options, text_str(&fen), &err);
        if (!back) fail_msg("FEN %s refused: %s", text_str(&fen), text_str(&err));
        v->to_fen(&g.options, back, &again);
        assert_string_equal(text_str(&fen), text_str(&again));
        assert_int_equal(back->ext_size, s->ext_size);
        assert_memory_equal(back->ext, s->ext, s->ext_size);
        assert_true(board_equal(&back->board, &s->board));
        free(back);
        text_free(&fen);
        text_free(&again);
        text_free(&err);

        MoveList l;
        legal_list(&g, &l);
        if (l.count == 0) {
            movelist_free(&l);
            break;
        }
        Line line;
        line_open(&line, &g, game_current(&g));
        for (int i = 0; i < l.count; i += 1 + l.count / 40) {
            for (int form = 0; form < 2; form++) {
                Text t = TEXT_INIT, why = TEXT_INIT;
                bool ok = form ? v->format_human(&line, l.moves[i], &t) : v->format_coord(&line, l.moves[i], &t);
                assert_true(ok);
                Move m;
                if (!v->parse(&line, text_str(&t), &m, &why)) fail_msg("'%s' refused: %s", text_str(&t), text_str(&why));
                if (!move_equal(m, l.moves[i])) fail_msg("'%s' read back as another action", text_str(&t));
                text_free(&t);
                text_free(&why);
            }
        }
        line_close(&line);
        /* One time in three a time travel, when there is one. */
        int pick = (int)(test_random(&rng) % (uint64_t)l.count);
        if (test_random(&rng) % 3 == 0) {
            int travels = 0;
            for (int i = 0; i < l.count; i++) travels += !move_is_chess(l.moves[i]);
            if (travels) {
                int k = (int)(test_random(&rng) % (uint64_t)travels);
                for (int i = 0; i < l.count; i++)
                    if (!move_is_chess(l.moves[i]) && k-- == 0) pick = i;
            }
        }
        assert_true(game_push(&g, l.moves[pick]));
        movelist_free(&l);
    }
    game_free(&g);
}

static void test_fen_round_trip(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) random_game_checks("chessgi", 70, seed * 7919);
    for (uint64_t seed = 1; seed <= 3; seed++) random_game_checks("chessgi-classic", 60, seed * 104729);
}

static void test_notation_round_trip(void **state)
{
    (void)state;
    Game g;
    start_with(&g, "chessgi", NULL, NULL, NULL);
    /* Every form the rules document lists, as the player may write it. */
    play_all(&g, "Ng1>5 e5 e2e4 d7d5 exd5 Nc6 <1.2>P@e6 Qh4 a3 Qxf2+ Kxf2 fxe6 [N]@f3 @e3+ Kxe3");
    assert_string_equal(game_status(&g), "ongoing");
    game_free(&g);
    random_game_checks("chessgi", 40, 99991);
}

static char *pgn_of(const Game *g)
{
    Text out = TEXT_INIT;
    assert_true(pgn_write(g, NULL, &out));
    return text_take(&out);
}

static void assert_same_game(const Game *a, const Game *b)
{
    assert_int_equal(game_count(a), game_count(b));
    for (int i = 0; i < game_count(a); i++) {
        assert_true(move_equal(game_node(a, i)->move, game_node(b, i)->move));
        assert_int_equal(game_node(a, i)->timeline, game_node(b, i)->timeline);
        assert_int_equal(game_node(a, i)->parent, game_node(b, i)->parent);
    }
    assert_string_equal(game_fen(a), game_fen(b));
}

static void test_pgn_round_trip(void **state)
{
    (void)state;
    Game g, back;
    start_with(&g, "chessgi", NULL, NULL, "g1>5 e7e5 e2e4 d7d5 e4d5 b8c6 <1.2>P@e6 d8h4 a2a3 h4f2 e1f2 f7e6 [N]@f3 P@e3 f2e3");
    char *pgn = pgn_of(&g);
    assert_contains(pgn, "[Variant \"Time Travel Chessgi\"]");
    assert_contains(pgn, "4. <1.2>P@e6 {Timeline 2} 2... Qh4");
    PgnHeader h;
    pgn_header_init(&h);
    Text err = TEXT_INIT;
    const char *next;
    if (!pgn_read(pgn, NULL, NULL, &back, &h, &next, &err)) fail_msg("PGN refused: %s", text_str(&err));
    assert_string_equal(back.variant->name, "chessgi");
    assert_same_game(&g, &back);
    game_free(&back);
    pgn_header_free(&h);
    /* And as score sheets, one per timeline. */
    Text sheets = TEXT_INIT;
    assert_true(sheets_write(&g, &sheets));
    assert_contains(text_str(&sheets), "4. <1.2> (move 2)\n[Timeline 2]\n");
    if (!sheets_read(text_str(&sheets), NULL, NULL, &back, &err)) fail_msg("sheets refused: %s", text_str(&err));
    assert_same_game(&g, &back);
    game_free(&back);
    text_free(&sheets);
    free(pgn);
    game_free(&g);

    /* The title "Chessgi" is the base game, the name "chessgi" the other. */
    assert_string_equal(variant_find_label("Chessgi", NULL)->name, "chessgi-classic");
    assert_string_equal(variant_find_label("chessgi", NULL)->name, "chessgi");
    assert_string_equal(variant_find_label("time travel chessgi", NULL)->name, "chessgi");
    assert_string_equal(variant_find_label("CHESSGI-CLASSIC", NULL)->name, "chessgi-classic");
    start_with(&g, "chessgi-classic", NULL, NULL, "e2e4 d7d5 e4d5 d8d5 P@e4");
    pgn = pgn_of(&g);
    pgn_header_init(&h);
    assert_contains(pgn, "[Variant \"Chessgi\"]");
    assert_true(pgn_read(pgn, NULL, NULL, &back, &h, &next, &err));
    assert_string_equal(back.variant->name, "chessgi-classic");
    assert_same_game(&g, &back);
    game_free(&back);
    pgn_header_free(&h);
    free(pgn);
    game_free(&g);
    text_free(&err);
}

static void test_options_round_trip(void **state)
{
    (void)state;
    Game g, back;
    start_with(&g, "chessgi", "cooldown=2 capacity=8", NULL, "g1>5 e7e5 e2e4 b8>6");
    char *pgn = pgn_of(&g);
    assert_contains(pgn, "[Options \"cooldown=2 capacity=8\"]");
    PgnHeader h;
    pgn_header_init(&h);
    Text err = TEXT_INIT;
    const char *next;
    assert_true(pgn_read(pgn, NULL, NULL, &back, &h, &next, &err));
    assert_int_equal(game_option(&back, 0), 2);
    assert_int_equal(game_option(&back, 3), 8);
    assert_same_game(&g, &back);
    game_free(&back);
    pgn_header_free(&h);
    free(pgn);
    text_free(&err);
    game_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_classic),
        cmocka_unit_test(test_perft_travel),
        cmocka_unit_test(test_capture_to_pocket),
        cmocka_unit_test(test_promoted_piece_keeps_type),
        cmocka_unit_test(test_pawn_drop_ranks),
        cmocka_unit_test(test_drop_in_check_blocks),
        cmocka_unit_test(test_drop_mate),
        cmocka_unit_test(test_first_rank_pawn_steps_once),
        cmocka_unit_test(test_no_dead_position),
        cmocka_unit_test(test_no_travel_in_check),
        cmocka_unit_test(test_cooldown),
        cmocka_unit_test(test_options_cooldown),
        cmocka_unit_test(test_send_range),
        cmocka_unit_test(test_king_send_range),
        cmocka_unit_test(test_pocket_full),
        cmocka_unit_test(test_one_traveller_per_move),
        cmocka_unit_test(test_send_exposing_king),
        cmocka_unit_test(test_send_loses_castling),
        cmocka_unit_test(test_traveller_drop),
        cmocka_unit_test(test_traveller_lost),
        cmocka_unit_test(test_traveller_not_before_its_move),
        cmocka_unit_test(test_king_traveller_must_land),
        cmocka_unit_test(test_king_lost_in_time),
        cmocka_unit_test(test_traveller_counts_in_pocket),
        cmocka_unit_test(test_general_travel_needs_pocket),
        cmocka_unit_test(test_general_travel_targets),
        cmocka_unit_test(test_general_travel_keeps_pocket),
        cmocka_unit_test(test_general_travel_en_passant_returns),
        cmocka_unit_test(test_general_travel_due_traveller),
        cmocka_unit_test(test_jumped_traveller_stays),
        cmocka_unit_test(test_general_travel_keeps_a_king),
        cmocka_unit_test(test_general_travel_new_timeline),
        cmocka_unit_test(test_travel_into_abandoned_future),
        cmocka_unit_test(test_checkmate),
        cmocka_unit_test(test_stalemate),
        cmocka_unit_test(test_repetition_counts_pockets),
        cmocka_unit_test(test_fifty_moves),
        cmocka_unit_test(test_cooldown_after_general_travel),
        cmocka_unit_test(test_fen_errors),
        cmocka_unit_test(test_fen_round_trip),
        cmocka_unit_test(test_notation_round_trip),
        cmocka_unit_test(test_pgn_round_trip),
        cmocka_unit_test(test_options_round_trip),
    };
    return cmocka_run_group_tests_name("chessgi", tests, NULL, NULL);
}
