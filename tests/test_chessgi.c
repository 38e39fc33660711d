/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Chessgi (`chessgi-classic`) and Time Travel Chessgi (`chessgi`), checked
 * rule by rule against the rules as decided (docs/rules/chessgi.md): one
 * small test per rule, each saying which rule it checks, then round trips
 * (FEN, notation, keys, PGN) over random games full of drops and travels.
 * Positions are counted in plies from the game's first position (node i
 * of a game played in one timeline is ply i).
 */
#include "support.h"

#include "chessgi.h"
#include "pgn.h"

#define START_CLASSIC NULL
#define START_TRAVEL NULL

static Game G;

/* ---- Helpers ------------------------------------------------------------ */

/* Starts G: `variant` with options ("name=value ...", NULL: the defaults)
 * from `fen` (NULL: the start position). */
static void start_opts(const char *variant, const char *options, const char *fen)
{
    const Variant *v = variant_find(variant);
    assert_non_null(v);
    Options o;
    Text err = TEXT_INIT;
    options_default(v, &o);
    if (options && !options_parse(v, &o, options, &err)) fail_msg("options %s: %s", options, text_str(&err));
    if (!game_init(&G, v, &o, fen, &err)) fail_msg("bad FEN %s: %s", fen ? fen : "(start)", text_str(&err));
    text_free(&err);
}

static void classic(const char *fen) { start_opts("chessgi-classic", NULL, fen); }
static void travel(const char *fen) { start_opts("chessgi", NULL, fen); }
static void done(void) { game_free(&G); }
static void play(const char *moves) { play_all(&G, moves); }
static const char *fen_now(void) { return game_fen(&G); }
static const char *status_now(void) { return game_status(&G); }

static void assert_has(const char *text, const char *part)
{
    if (!strstr(text, part)) fail_msg("'%s' does not contain '%s'", text, part);
}

/* `action` is refused with a message containing `why`, and nothing is played. */
static void refuse(const char *action, const char *why)
{
    int before = game_count(&G);
    const char *msg = refused(&G, action);
    assert_int_equal(game_count(&G), before);
    assert_has(msg, why);
}

/* The action `text` as the variant reads it now (it must be legal). */
static Move parsed(const char *text)
{
    Line l;
    Text err = TEXT_INIT;
    Move m;
    line_open(&l, &G, game_current(&G));
    if (!G.variant->parse(&l, text, &m, &err)) fail_msg("%s refused: %s", text, text_str(&err));
    line_close(&l);
    text_free(&err);
    return m;
}

/* The coordinate form of m at the present position, in a static buffer. */
static const char *coord_of(Move m)
{
    static char buf[64];
    Line l;
    Text t = TEXT_INIT;
    line_open(&l, &G, game_current(&G));
    assert_true(G.variant->format_coord(&l, m, &t));
    snprintf(buf, sizeof buf, "%s", text_str(&t));
    text_free(&t);
    line_close(&l);
    return buf;
}

/* The human form of m at the present position, in a static buffer. */
static const char *human_of(Move m)
{
    static char buf[64];
    Line l;
    Text t = TEXT_INIT;
    line_open(&l, &G, game_current(&G));
    assert_true(G.variant->format_human(&l, m, &t));
    snprintf(buf, sizeof buf, "%s", text_str(&t));
    text_free(&t);
    line_close(&l);
    return buf;
}

/* Is the action written `coord` (coordinate form) among the legal ones? */
static bool offered(const char *coord)
{
    MoveList l;
    legal_list(&G, &l);
    bool found = false;
    for (int i = 0; i < l.count && !found; i++) found = !strcmp(coord_of(l.moves[i]), coord);
    movelist_free(&l);
    return found;
}

enum Filter { ANY, CHESS_MOVES, DROPS, SENDS, ARRIVALS, GENERAL };

static bool passes(Move m, enum Filter f)
{
    bool general = (m.flags & MOVE_AT_NODE) != 0;
    switch (f) {
    case ANY: return true;
    case CHESS_MOVES: return move_is_chess(m);
    case DROPS: return !general && m.kind == MOVE_DROP;
    case SENDS: return !general && m.kind == MOVE_SEND_FORWARD;
    case ARRIVALS: return !general && m.kind == MOVE_ARRIVAL;
    case GENERAL: return general;
    }
    return false;
}

/* How many legal actions now pass the filter. */
static int count_legal(enum Filter f)
{
    MoveList l;
    legal_list(&G, &l);
    int n = 0;
    for (int i = 0; i < l.count; i++) n += passes(l.moves[i], f);
    movelist_free(&l);
    return n;
}

/* The variant's note on the action `text` at the present position. */
static const char *note_on(const char *text)
{
    static char buf[256];
    Move m = parsed(text);
    Line l;
    Text t = TEXT_INIT;
    line_open(&l, &G, game_current(&G));
    assert_true(G.variant->note(&l, m, &t));
    snprintf(buf, sizeof buf, "%s", text_str(&t));
    text_free(&t);
    line_close(&l);
    return buf;
}

/* The FEN fields after the move number: "TRAVELLERS WAIT". */
static const char *travel_fields(void)
{
    const char *f = fen_now();
    for (int spaces = 0; *f && spaces < 6; f++) spaces += *f == ' ';
    return f;
}

static uint64_t perft(int depth)
{
    uint64_t n = 0;
    assert_true(game_perft(&G, depth, &n));
    return n;
}

/* ---- 1. Perft ----------------------------------------------------------- */

/* Chessgi is Fairy-Stockfish's `chessgi`: its counts from the start. */
static void test_perft_classic_start(void **state)
{
    (void)state;
    classic(START_CLASSIC);
    assert_int_equal(perft(1), 20);
    assert_int_equal(perft(2), 400);
    assert_int_equal(perft(3), 8902);
    assert_int_equal(perft(4), 197281);
    done();
}

/* A middle game full of pockets, as Fairy-Stockfish counts it. */
static void test_perft_classic_pockets(void **state)
{
    (void)state;
    classic("5Rp1/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnpp] b - - 1 48");
    assert_int_equal(perft(2), 32816);
    done();
}

/* Time Travel Chessgi from the start: 20 moves + 15 pieces x 10 due moves
 * + the king x 5 = 175. */
static void test_perft_travel_start(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    assert_int_equal(perft(1), 175);
    assert_int_equal(perft(2), 6600);
    assert_int_equal(perft(3), 217529);
    done();
}

/* ---- 2. The base game --------------------------------------------------- */

/* A captured piece goes to the captor's pocket with its colour changed. */
static void test_capture_goes_to_captor_pocket(void **state)
{
    (void)state;
    classic(START_CLASSIC);
    play("e2e4 d7d5 e4d5 d8d5 b1c3 d5a2");
    assert_string_equal(fen_now(), "rnb1kbnr/ppp1pppp/8/8/8/2N5/qPPP1PPP/R1BQKBNR[Ppp] w KQkq - 0 4");
    play("a1a2");
    assert_string_equal(fen_now(), "rnb1kbnr/ppp1pppp/8/8/8/2N5/RPPP1PPP/2BQKBNR[QPpp] b Kkq - 0 4");
    /* Each side drops what it took, in its own colour. */
    play("p@e4 Q@d5");
    assert_string_equal(fen_now(), "rnb1kbnr/ppp1pppp/8/3Q4/4p3/2N5/RPPP1PPP/2BQKBNR[Pp] b Kkq - 1 5");
    done();
}

/* Unlike crazyhouse: a captured promoted piece keeps its promoted type. */
static void test_captured_promoted_piece_keeps_type(void **state)
{
    (void)state;
    classic("2r1k3/1P6/8/8/8/8/8/4K3[] w - - 0 1");
    play("b7b8q c8b8");
    assert_string_equal(fen_now(), "1r2k3/8/8/8/8/8/8/4K3[q] w - - 0 2");
    play("e1f1 q@e2");
    assert_string_equal(fen_now(), "1r2k3/8/8/8/8/8/4q3/5K2[] w - - 2 3");
    done();
}

/* Pawns may be dropped on their own first rank, never on the last. */
static void test_pawn_drop_first_rank_not_last(void **state)
{
    (void)state;
    classic("4k3/8/8/8/8/8/8/4K3[PPpp] w - - 0 1");
    refuse("P@a8", "a pawn may not be dropped on the last rank");
    play("P@a1");
    refuse("p@h1", "a pawn may not be dropped on the last rank");
    play("p@h8");
    assert_string_equal(fen_now(), "4k2p/8/8/8/8/8/8/P3K3[Pp] w - - 0 2");
    /* No pawn drop on the last rank is ever offered. */
    MoveList l;
    legal_list(&G, &l);
    for (int i = 0; i < l.count; i++)
        if (l.moves[i].kind == MOVE_DROP && l.moves[i].piece == PAWN) assert_true(square_rank(l.moves[i].to) != 7);
    movelist_free(&l);
    done();
}

/* A pawn on its own first rank steps one square, never two (the
 * Fairy-Stockfish reading); from its second rank it may double-step. */
static void test_first_rank_pawn_steps_once(void **state)
{
    (void)state;
    classic("4k2p/8/8/8/8/8/8/1P2K3[] w - - 0 1");
    assert_true(offered("b1b2"));
    assert_false(offered("b1b3"));
    play("b1b2");
    assert_true(offered("h8h7"));
    assert_false(offered("h8h6"));
    play("h8h7");
    assert_true(offered("b2b4"));
    done();
}

/* In check, a drop may only block the line of a single sliding checker. */
static void test_drop_in_check_only_blocks(void **state)
{
    (void)state;
    classic("4r1k1/8/8/8/8/8/8/4K3[NP] w - - 0 1");
    /* e2..e7: 6 squares, for the knight and for the pawn. */
    assert_int_equal(count_legal(DROPS), 12);
    refuse("N@a3", "you are in check, and a knight on a3 does not stop it");
    refuse("P@d2", "you are in check, and a pawn on d2 does not stop it");
    play("P@e2");
    done();
    /* A knight's check cannot be blocked: no drop at all. */
    classic("6k1/8/8/8/8/3n4/8/4K3[QRBNP] w - - 0 1");
    assert_int_equal(count_legal(DROPS), 0);
    refuse("Q@e2", "does not stop it");
    done();
}

/* A drop can mate. */
static void test_drop_mate(void **state)
{
    (void)state;
    classic("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1");
    play("R@d8");
    assert_string_equal(status_now(), "1-0 checkmate");
    done();
    /* In the time-travel game too (no travel while in check). */
    travel("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1 -/- 0");
    play("R@d8");
    assert_string_equal(status_now(), "1-0 checkmate");
    done();
}

/* ---- 3. Special travel -------------------------------------------------- */

/* s>r needs n < r <= n+10 for a piece and n < r <= n+5 for a king. */
static void test_special_travel_range(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    refuse("b1>1", "a piece travels into the future");
    refuse("b1>12", "a piece travels at most 10 moves forward (to move 11 at the latest)");
    refuse("e1>7", "a king travels at most 5 moves forward (to move 6 at the latest)");
    assert_true(offered("b1>11") && offered("b1>2") && offered("e1>6") && offered("e1>2"));
    assert_false(offered("e1>7") || offered("b1>12"));
    done();
    /* At move 7: 8..17 for a piece, 8..12 for a king. */
    travel("4k3/8/8/8/8/8/8/R3K3[] w - - 0 7 -/- 0");
    assert_int_equal(count_legal(SENDS), 15);
    assert_true(offered("a1>17") && offered("e1>12"));
    refuse("a1>7", "a piece travels into the future: pick a move after 7");
    refuse("a1>18", "a piece travels at most 10 moves forward (to move 17 at the latest)");
    refuse("e1>13", "a king travels at most 5 moves forward (to move 12 at the latest)");
    play("Ra1>17");
    assert_string_equal(travel_fields(), "R17/- 4");
    done();
}

/* DECISION: at most one traveller per side per due move (the other side
 * may have one due at the same move). */
static void test_one_traveller_per_side_per_move(void **state)
{
    (void)state;
    travel("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 N5/N5 0");
    refuse("b1>5", "your knight already returns at move 5: one traveller per move");
    refuse("e1>5", "already returns at move 5");
    assert_false(offered("b1>5"));
    assert_true(offered("b1>6") && offered("b1>4"));
    /* Nine due moves left for a piece, four for the king. */
    assert_int_equal(count_legal(SENDS), 15 * 9 + 4);
    play("b1>6");
    assert_string_equal(travel_fields(), "N5,N6/N5 4");
    done();
}

/* The pocket's capacity (16, travellers included) forbids a special
 * travel; captures still enter a full pocket. */
static void test_pocket_capacity(void **state)
{
    (void)state;
    /* 15 pieces and one traveller: full. */
    travel("r3k3/8/8/8/8/8/8/R3K3[QQQRRRRBBBBNNNN] w - - 0 1 P9/- 0");
    refuse("a1>3", "your pocket is full (16 pieces)");
    assert_int_equal(count_legal(SENDS), 0);
    /* A capture still enters it. */
    play("a1a8");
    assert_string_equal(fen_now(), "R3k3/8/8/8/8/8/8/4K3[QQQRRRRRBBBBNNNN] b - - 0 1 P9/- 0");
    done();
    /* 15 pieces and no traveller: room for one. */
    travel("r3k3/8/8/8/8/8/8/R3K3[QQQRRRRBBBBNNNN] w - - 0 1 -/- 0");
    play("a1>3");
    assert_string_equal(travel_fields(), "R3/- 4");
    done();
    /* The capacity is an option. */
    start_opts("chessgi", "capacity=2", "r3k3/8/8/8/8/8/8/R3K3[Q] w - - 0 1 P9/- 0");
    refuse("a1>3", "your pocket is full (2 pieces)");
    done();
}

/* Nobody may time travel while in check. */
static void test_no_special_travel_in_check(void **state)
{
    (void)state;
    travel("4k3/8/8/8/8/8/8/r3K2R[] w K - 0 1 -/- 0");
    refuse("h1>3", "you cannot time travel while in check");
    refuse("e1>3", "you cannot time travel while in check");
    assert_int_equal(count_legal(SENDS), 0);
    done();
}

/* A special travel is legal iff none of the mover's kings is then attacked. */
static void test_special_travel_exposing_king(void **state)
{
    (void)state;
    travel("4r1k1/8/8/8/1b6/8/3NB3/R3K3[] w Q - 0 1 -/- 0");
    refuse("d2>5", "sending the knight on d2 away would leave your king in check");
    refuse("e2>5", "sending the bishop on e2 away would leave your king in check");
    assert_false(offered("d2>5") || offered("e2>5"));
    /* The rook and the king may go: 10 + 5 due moves. */
    assert_int_equal(count_legal(SENDS), 15);
    play("a1>5");
    done();
}

/* Castling rights are lost when the king or a rook is sent away, and the
 * king's return does not bring them back. */
static void test_special_travel_loses_castling(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    play("a1>5");
    assert_has(fen_now(), " b Kkq - 0 1 R5/- 4");
    done();
    travel(START_TRAVEL);
    play("e1>2 e7e5");
    assert_has(fen_now(), " w kq e6 0 2 K2/- 3");
    play("[K]@e1");
    assert_string_equal(fen_now(), "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR[] b kq - 1 2 -/- 2");
    done();
}

/* ---- 4. Cooldown -------------------------------------------------------- */

/* After any time travel, by either side, none for the next 4 plies; the
 * 5th may travel.  The refusal counts the plies left, this one included. */
static void test_cooldown_four_plies(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    play("g1>5");
    refuse("g8>5", "no time travel for 4 more plies");
    play("e7e5");
    refuse("b1>5", "no time travel for 3 more plies");
    assert_int_equal(count_legal(SENDS), 0);
    play("e2e4");
    refuse("b8>5", "no time travel for 2 more plies");
    play("d7d5");
    refuse("b1>5", "no time travel for 1 more ply");
    play("e4d5");
    /* The 5th ply after the travel: Black may travel. */
    assert_true(count_legal(SENDS) > 0);
    play("g8>6");
    /* And then White may not, for 4 plies, general travels included. */
    assert_int_equal(count_legal(SENDS) + count_legal(GENERAL), 0);
    refuse("<1.2>d2d4", "no time travel for 4 more plies");
    done();
}

/* Dropping a traveller is not a time travel: it does not restart the
 * cooldown. */
static void test_traveller_drop_is_not_a_travel(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    play("g1>3 e7e5 e2e4 d7d5");
    assert_has(fen_now(), " N3/- 1");
    play("[N]@f3");
    assert_has(fen_now(), " -/- 0");
    assert_true(count_legal(SENDS) > 0);
    done();
}

/* The cooldown is an option: with cooldown=2 only two plies wait. */
static void test_cooldown_option(void **state)
{
    (void)state;
    start_opts("chessgi", "cooldown=2", START_TRAVEL);
    play("g1>5");
    refuse("g8>5", "no time travel for 2 more plies (the last one was 1 ply ago; the cooldown is 2)");
    play("e7e5");
    refuse("b1>5", "no time travel for 1 more ply");
    play("e2e4");
    play("g8>5");
    assert_has(fen_now(), " N5/N5 2");
    done();
    /* cooldown=0: travels on consecutive plies. */
    start_opts("chessgi", "cooldown=0", START_TRAVEL);
    play("g1>5 g8>5 b1>6 b8>6");
    assert_has(fen_now(), " N5,N6/N5,N6 0");
    done();
}

/* ---- 5. Travellers ------------------------------------------------------ */

/* A traveller may be dropped at its move, not before. */
static void test_traveller_not_before_its_move(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    play("g1>3 e7e5");
    refuse("[N]@f3", "your knight is due at move 3: a traveller cannot be dropped before its move");
    refuse("N@f3", "you have no knight in your pocket");
    assert_int_equal(count_legal(ARRIVALS), 0);
    play("e2e4 d7d5");
    /* Move 3: on every empty square (33). */
    assert_int_equal(count_legal(ARRIVALS), 33);
    play("[N]@f3");
    done();
}

/* A traveller follows the drop rules: a pawn never on its last rank. */
static void test_traveller_drop_rules(void **state)
{
    (void)state;
    travel("4k3/8/8/8/8/8/8/4K3[] w - - 0 4 P4/- 0");
    refuse("[P]@d8", "a pawn may not be dropped on the last rank");
    play("[P]@d1");
    assert_string_equal(fen_now(), "4k3/8/8/8/8/8/8/3PK3[] b - - 0 4 -/- 0");
    done();
}

/* A non-king traveller not dropped at its move is lost; the note says so. */
static void test_traveller_lost_when_not_dropped(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    play("g1>3 e7e5 e2e4 d7d5");
    assert_string_equal(note_on("e4d5"), "the white knight sent to move 3 is lost in time");
    assert_string_equal(note_on("[N]@f3"), "");
    play("e4d5");
    assert_string_equal(fen_now(), "rnbqkbnr/ppp2ppp/8/3Pp3/8/8/PPPP1PPP/RNBQKB1R[P] b KQkq - 0 3 -/- 0");
    done();
}

/* A king traveller must be dropped: the king drops are then the only
 * legal actions. */
static void test_king_traveller_must_land(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    play("e2e4 e7e5 e1>3 d7d6");
    MoveList l;
    legal_list(&G, &l);
    assert_true(l.count > 0);
    for (int i = 0; i < l.count; i++) {
        assert_int_equal(l.moves[i].kind, MOVE_ARRIVAL);
        assert_int_equal(l.moves[i].piece, KING);
        assert_int_equal(l.moves[i].flags, 0);
    }
    /* 33 empty squares, 17 of them attacked: a6 b6 c6 (pawns, knight),
     * c5 d4 f4 e6 f6 g6 h6 (pawns, knight), d7 e7 (king, queen, ...),
     * f5 g4 h3 (bishop), g5 h4 (queen). */
    assert_int_equal(l.count, 16);
    movelist_free(&l);
    refuse("d2d4", "the king sent to move 3 must be dropped now");
    refuse("b1>5", "the king sent to move 3 must be dropped now");
    refuse("<1.0>d2d4", "the king sent to move 3 must be dropped now");
    refuse("[K]@g4", "a king on g4 would be in check");
    play("[K]@e2");
    assert_has(fen_now(), "[] b kq - 1 3 -/- 2");
    done();
}

/* A king due now with no safe empty square is lost in time: its side loses. */
static void test_king_lost_in_time(void **state)
{
    (void)state;
    /* Every empty square is on a file one of the black rooks sweeps. */
    travel("1r1r1r1r/8/8/8/8/8/8/r1r1r1rk[QN] w - - 0 7 K7/- 0");
    assert_int_equal(count_legal(ANY), 0);
    assert_string_equal(status_now(), "0-1 white king lost in time");
    done();
    /* With one safe square, that drop is the only action, pocket or not. */
    travel("1r1r1r2/8/8/8/8/8/8/r1r1r1rk[QN] w - - 0 7 K7/- 0");
    MoveList l;
    legal_list(&G, &l);
    assert_true(l.count > 0);
    for (int i = 0; i < l.count; i++) assert_int_equal(l.moves[i].kind, MOVE_ARRIVAL);
    movelist_free(&l);
    assert_string_equal(status_now(), "ongoing");
    done();
}

/* ---- 6. General travel -------------------------------------------------- */

/* A general travel needs a piece in the mover's pocket. */
static void test_general_travel_needs_pocket(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    play("e2e4 e7e5 g1f3 b8c6");
    assert_int_equal(count_legal(GENERAL), 0);
    refuse("<1.2>d2d4", "a general travel needs a piece in your pocket, and yours is empty");
    done();
}

/* Targets: every earlier position where the mover was to move, never the
 * present one nor one where the opponent was to move. */
static void test_general_travel_targets(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    play("e2e4 d7d5 e4d5 g8f6 b1c3 c7c6");
    MoveList l;
    legal_list(&G, &l);
    bool target[7] = { false };
    for (int i = 0; i < l.count; i++)
        if (l.moves[i].flags & MOVE_AT_NODE) {
            assert_true(l.moves[i].arg < 6);
            target[l.moves[i].arg] = true;
        }
    movelist_free(&l);
    assert_true(target[0] && target[2] && target[4]);
    assert_false(target[1] || target[3] || target[5] || target[6]);
    refuse("<1.3>b1c3", "Black was to move there: you travel only to a position where you (white) were to move");
    refuse("<1.6>a2a3", "that is the present position");
    done();
}

/* The board, castling, en passant and move number become the target's,
 * as do the opponent's pocket and travellers; the mover keeps its own;
 * the halfmove clock is 0; a new timeline starts at the target. */
static void test_general_travel_state(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    play("e2e4 d7d5 e4d5 g8>8 b1c3 d8d5 c3d5 c7c6 f1>10 c6d5 g1f3 b8c6 a2a3 a7a6");
    assert_string_equal(fen_now(), "r1b1kb1r/1p2pppp/p1n5/3p4/8/P4N2/1PPP1PPP/R1BQK2R[QPnp] w KQkq - 0 8 B10/N8 0");
    /* Back to ply 2 (move 2, before Black sent its knight), taking d5. */
    play("<1.2>e4d5");
    assert_string_equal(fen_now(), "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[QPP] b KQkq - 0 2 B10/- 4");
    const Node *n = game_node(&G, game_current(&G));
    assert_int_equal(n->parent, 2);
    assert_int_equal(n->timeline, 2);
    assert_int_equal(game_timelines(&G), 2);
    assert_int_equal(game_timeline_tip(&G, 1), 14);
    assert_int_equal(game_timeline_start(&G, 2), 15);
    done();
}

/* The en passant right of the target returns with it; the halfmove clock
 * is 0 even after a knight move there. */
static void test_general_travel_en_passant_and_clock(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    play("d2d4 h7h6 d4d5 e7e5 d5e6 f7e6");
    assert_true(offered("<1.4>d5e6"));
    play("<1.4>d5e6");
    assert_string_equal(fen_now(), "rnbqkbnr/pppp1pp1/4P2p/8/8/8/PPP1PPPP/RNBQKBNR[PP] b KQkq - 0 3 -/- 4");
    done();
    travel(START_TRAVEL);
    play("g1f3 g8f6 f3g1 f6g8 b1c3 d7d5 c3d5 d8d5");
    /* Ply 4: four knight moves on the clock. */
    assert_int_equal(game_node(&G, 4)->state->board.halfmove, 4);
    play("<1.4>g1f3");
    assert_string_equal(fen_now(), "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R[P] b KQkq - 0 3 -/- 4");
    done();
}

/* Positions of abandoned timelines are targets too: travel "into the future". */
static void test_general_travel_into_abandoned_future(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    play("e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 g1f3 g8f6 f1c4 c8g4 d2d3 b8c6");
    play("<1.4>d2d4");
    assert_int_equal(game_board(&G)->fullmove, 3);
    play("g8f6 g1f3 b8c6 c1f4 c8f5");
    /* Move 6 now; the first timeline reached move 7 (ply 12). */
    assert_int_equal(game_board(&G)->fullmove, 6);
    assert_true(offered("<1.12>e1g1"));
    play("<1.12>e1g1");
    assert_int_equal(game_board(&G)->fullmove, 7);
    assert_int_equal(game_timelines(&G), 3);
    assert_int_equal(game_node(&G, game_current(&G))->parent, 12);
    assert_has(fen_now(), "[Pp] b kq - 0 7 -/- 4");
    done();
}

/* A traveller due now is lost by a travel to another move; a travel to
 * the same move keeps it due there (and may drop it there); a travel past
 * its move leaves it in the pocket, never to be dropped. */
static void test_general_travel_and_due_travellers(void **state)
{
    (void)state;
    /* cooldown=0: travels may follow each other (not the rule tested). */
    start_opts("chessgi", "cooldown=0", START_TRAVEL);
    play("e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 g1f3 g8f6 f1c4 c8g4"); /* ply 8: move 5; ply 10: move 6 */
    play("<1.2>d2d4 g8f6 g1>5 b8c6");
    /* Move 4, the knight due at move 5. */
    assert_int_equal(game_board(&G)->fullmove, 4);
    assert_has(fen_now(), " N5/- 0");
    /* To move 5 of the first timeline: the knight is due there. */
    assert_true(offered("<1.8>[N]@h3"));
    /* To move 6: its move is jumped over, it stays in the pocket. */
    play("<1.10>h2h3");
    assert_has(fen_now(), " N5/- 0");
    assert_int_equal(game_board(&G)->fullmove, 6);
    play("a7a6");
    assert_int_equal(count_legal(ARRIVALS), 0);
    refuse("[N]@e5", "your knight was due at move 5, which this timeline has passed: it stays in your pocket");
    game_pop(&G);
    game_pop(&G);
    play("b1c3 c8f5");
    /* Move 5: due now. */
    assert_true(offered("[N]@e5"));
    /* Another move: lost. */
    assert_string_equal(note_on("<1.2>c2c4"), "the white knight sent to move 5 is lost in time");
    play("<1.2>c2c4");
    assert_has(fen_now(), "[P] b KQkq c3 0 2 -/- 0");
    game_pop(&G);
    /* The same move: dropped as the move made there. */
    assert_string_equal(note_on("<1.8>[N]@h3"), "");
    play("<1.8>[N]@h3");
    assert_string_equal(fen_now(), "rnb1kb1r/ppp1pppp/5n2/q7/8/2N2N1N/PPPP1PPP/R1BQKB1R[Pp] b KQkq - 0 5 -/- 0");
    done();
}

/* A travel to the same move whose move is not the traveller's drop loses
 * the traveller (it was due at the move made there and was not dropped),
 * and the note says so. */
static void test_note_on_traveller_lost_at_same_move(void **state)
{
    (void)state;
    start_opts("chessgi", "cooldown=0", START_TRAVEL);
    play("e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 g1f3 g8f6 f1c4 c8g4");
    play("<1.2>d2d4 g8f6 g1>5 b8c6 b1c3 c8f5");
    play("<1.8>a2a3");
    /* The rules: lost (it is not dropped as the move made there). */
    assert_has(fen_now(), "[Pp] b KQkq - 0 5 -/- 0");
    game_pop(&G);
    char note[256];
    snprintf(note, sizeof note, "%s", note_on("<1.8>a2a3"));
    done();
    assert_string_equal(note, "the white knight sent to move 5 is lost in time");
}

/* DECISION: a general travel may not leave the mover without a king on
 * the board or travelling. */
static void test_general_travel_keeps_a_king(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    /* White's king travels at ply 2 (due at move 3) and lands at ply 4. */
    play("e2e4 e7e5 e1>3 d7d5 [K]@e2 d5e4 b1c3 a7a6 c3e4 a6a5");
    /* Ply 4: the king was travelling, none stood on the board. */
    refuse("<1.4>d2d4", "a general travel may not leave you without a king");
    MoveList l;
    legal_list(&G, &l);
    bool to4 = false, to2 = false, to8 = false;
    for (int i = 0; i < l.count; i++) {
        if (!(l.moves[i].flags & MOVE_AT_NODE)) continue;
        to4 |= l.moves[i].arg == 4;
        to2 |= l.moves[i].arg == 2;
        to8 |= l.moves[i].arg == 8;
    }
    movelist_free(&l);
    assert_false(to4);
    assert_true(to2 && to8);
    play("<1.2>d2d4");
    done();
}

/* ---- 7. The end --------------------------------------------------------- */

/* Checkmate loses, in both games. */
static void test_checkmate(void **state)
{
    (void)state;
    classic(START_CLASSIC);
    play("f2f3 e7e5 g2g4 d8h4");
    assert_string_equal(status_now(), "0-1 checkmate");
    done();
    travel(START_TRAVEL);
    play("f2f3 e7e5 g2g4 d8h4");
    assert_string_equal(status_now(), "0-1 checkmate");
    done();
}

/* Stalemate draws; a drop or a time travel is a legal action. */
static void test_stalemate(void **state)
{
    (void)state;
    classic("k7/8/1Q6/8/8/8/8/7K[] b - - 0 1");
    assert_string_equal(status_now(), "1/2-1/2 stalemate");
    done();
    classic("k7/8/1Q6/8/8/8/8/7K[n] b - - 0 1");
    assert_string_equal(status_now(), "ongoing");
    done();
    travel("k7/8/1Q6/8/8/8/8/7K[] b - - 0 1 -/- 2");
    assert_string_equal(status_now(), "1/2-1/2 stalemate");
    done();
    travel("k7/8/1Q6/8/8/8/8/7K[] b - - 0 1 -/- 0");
    assert_string_equal(status_now(), "ongoing");
    assert_int_equal(count_legal(ANY), 5);
    done();
}

/* Threefold repetition (over the current timeline) counts the pockets:
 * the same boards with another pocket are not a repetition. */
static void test_repetition_counts_pockets(void **state)
{
    (void)state;
    classic(START_CLASSIC);
    play("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert_string_equal(status_now(), "ongoing");
    play("f6g8");
    assert_string_equal(status_now(), "1/2-1/2 threefold repetition");
    done();
    /* Same pockets: the travel back and the knights' dance repeat the
     * start a third time (the abandoned plies do not count). */
    start_opts("chessgi", "cooldown=0", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[NN] w KQkq - 0 1 -/- 0");
    play("g1f3 g8f6 f3g1 f6g8 b1c3 g8f6 <1.4>g1f3 g8f6 f3g1");
    assert_string_equal(status_now(), "ongoing");
    play("f6g8");
    assert_string_equal(status_now(), "1/2-1/2 threefold repetition");
    done();
    /* White dropped a knight before travelling: its pocket is [N], not
     * [NN], so the same boards are other positions. */
    start_opts("chessgi", "cooldown=0", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[NN] w KQkq - 0 1 -/- 0");
    play("g1f3 g8f6 f3g1 f6g8 N@h3 g8f6 <1.4>g1f3 g8f6 f3g1 f6g8");
    assert_string_equal(status_now(), "ongoing");
    done();
}

/* A traveller counts as (due - n, piece): as the moves go by it comes
 * nearer, so the same boards are other positions; so are positions whose
 * cooldown differs. */
static void test_repetition_counts_travellers_and_cooldown(void **state)
{
    (void)state;
    travel("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 N30/- 0");
    play("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_string_equal(status_now(), "ongoing");
    assert_int_equal(game_repetitions(&G), 0);
    done();
    /* Without the traveller: a repetition. */
    travel("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 -/- 0");
    play("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_string_equal(status_now(), "1/2-1/2 threefold repetition");
    done();
    /* The cooldown: 4, 2, 0 plies left at the three boards. */
    travel("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 -/- 4");
    play("g1f3 g8f6 f3g1 f6g8");
    assert_int_equal(game_repetitions(&G), 0);
    play("g1f3 g8f6 f3g1 f6g8");
    assert_int_equal(game_repetitions(&G), 1);
    assert_string_equal(status_now(), "ongoing");
    done();
}

/* The fifty-move count resets on a pawn drop, not on a piece drop nor on a
 * knight traveller's drop; and on every time travel. */
static void test_fifty_move_rule(void **state)
{
    (void)state;
    classic("4k3/8/8/8/8/8/8/4K3[NP] w - - 99 60");
    play("N@c3");
    assert_string_equal(status_now(), "1/2-1/2 fifty-move rule");
    done();
    classic("4k3/8/8/8/8/8/8/4K3[NP] w - - 99 60");
    play("P@c3");
    assert_string_equal(status_now(), "ongoing");
    assert_has(fen_now(), " b - - 0 60");
    done();
    travel("4k3/8/8/8/8/8/8/4K3[] w - - 99 60 N60/- 0");
    play("[N]@c3");
    assert_string_equal(status_now(), "1/2-1/2 fifty-move rule");
    done();
    travel("4k3/8/8/8/8/8/8/4K3[] w - - 99 60 P60/- 0");
    play("[P]@c3");
    assert_has(fen_now(), " b - - 0 60 ");
    done();
    travel("4k3/8/8/8/8/8/8/R3K3[] w - - 99 60 -/- 0");
    play("a1>62");
    assert_string_equal(status_now(), "ongoing");
    assert_has(fen_now(), " b - - 0 60 ");
    done();
}

/* ---- 8. FEN ------------------------------------------------------------- */

/* Sorts a list without general travels, for comparing two lists. */
static int move_cmp(const void *a, const void *b)
{
    const Move *x = a, *y = b;
    long kx[] = { x->kind, x->from, x->to, x->piece, x->promo, x->flags, (long)x->arg };
    long ky[] = { y->kind, y->from, y->to, y->piece, y->promo, y->flags, (long)y->arg };
    for (int i = 0; i < 7; i++)
        if (kx[i] != ky[i]) return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

static void plain_actions(const Game *g, MoveList *out)
{
    MoveList all;
    legal_list(g, &all);
    movelist_init(out);
    for (int i = 0; i < all.count; i++)
        if (!(all.moves[i].flags & MOVE_AT_NODE)) movelist_add(out, all.moves[i]);
    movelist_free(&all);
    if (out->count) qsort(out->moves, (size_t)out->count, sizeof(Move), move_cmp);
}

/* Plays a random game of `variant`, calling check() at every position. */
static void random_game(const char *variant, const char *options, uint64_t seed, int plies, void (*check)(void))
{
    start_opts(variant, options, NULL);
    uint64_t rng = seed;
    for (int ply = 0; ply < plies; ply++) {
        check();
        Outcome o;
        assert_true(game_outcome(&G, &o));
        if (o.result != RESULT_NONE) break;
        MoveList l;
        legal_list(&G, &l);
        assert_true(l.count > 0);
        Move m = pick_action(&l, &rng, true);
        movelist_free(&l);
        assert_true(game_push(&G, m));
    }
    done();
}

static int general_travels_seen, timelines_seen;

/* FEN -> state -> FEN gives the same text and state; a game started from
 * the FEN has the same actions, less the general travels (they need the
 * record). */
static void check_fen(void)
{
    const Variant *v = G.variant;
    const State *s = game_state(&G);
    Text fen = TEXT_INIT, again = TEXT_INIT, err = TEXT_INIT;
    v->to_fen(&G.options, s, &fen);
    State *back = v->from_fen(&G.options, text_str(&fen), &err);
    if (!back) fail_msg("FEN %s refused: %s", text_str(&fen), text_str(&err));
    v->to_fen(&G.options, back, &again);
    assert_string_equal(text_str(&fen), text_str(&again));
    assert_true(board_equal(&back->board, &s->board));
    assert_int_equal(back->board.halfmove, s->board.halfmove);
    assert_int_equal(back->board.fullmove, s->board.fullmove);
    assert_int_equal(back->ext_size, s->ext_size);
    assert_memory_equal(back->ext, s->ext, s->ext_size);
    assert_true(back->ext_key == s->ext_key);
    free(back);

    Game copy;
    if (!game_init(&copy, v, &G.options, text_str(&fen), &err)) fail_msg("%s: %s", text_str(&fen), text_str(&err));
    MoveList a, b;
    plain_actions(&G, &a);
    plain_actions(&copy, &b);
    if (a.count != b.count) fail_msg("%s: %d actions in the game, %d from its FEN", text_str(&fen), a.count, b.count);
    for (int i = 0; i < a.count; i++)
        if (!move_equal(a.moves[i], b.moves[i])) fail_msg("%s: the game and its FEN differ at action %d", text_str(&fen), i);
    MoveList all;
    legal_list(&G, &all);
    general_travels_seen += all.count - a.count;
    movelist_free(&all);
    if (game_timelines(&G) > timelines_seen) timelines_seen = game_timelines(&G);
    movelist_free(&a);
    movelist_free(&b);
    game_free(&copy);
    text_free(&fen);
    text_free(&again);
    text_free(&err);
}

static void test_fen_round_trip_random_games(void **state)
{
    (void)state;
    general_travels_seen = timelines_seen = 0;
    for (uint64_t seed = 1; seed <= 5; seed++) random_game("chessgi", NULL, seed * 0x9E3779B97F4A7C15ULL, 60, check_fen);
    random_game("chessgi", "cooldown=1 forward=3 king-forward=2 capacity=4", 77, 60, check_fen);
    for (uint64_t seed = 1; seed <= 3; seed++) random_game("chessgi-classic", NULL, seed * 1000003, 80, check_fen);
    /* The games did travel. */
    assert_true(general_travels_seen > 0);
    assert_true(timelines_seen > 2);
}

/* Reads a FEN that must be refused with a message containing `why`. */
static void fen_refused(const char *variant, const char *fen, const char *why)
{
    const Variant *v = variant_find(variant);
    Options o;
    options_default(v, &o);
    Text err = TEXT_INIT;
    State *s = v->from_fen(&o, fen, &err);
    if (s) fail_msg("FEN accepted: %s", fen);
    assert_has(text_str(&err), why);
    text_free(&err);
}

static void test_fen_errors(void **state)
{
    (void)state;
    fen_refused("chessgi", "4k3/8/8/8/8/8/8/4K3[Kp] w - - 0 1 -/- 0", "a king cannot be in a pocket");
    fen_refused("chessgi-classic", "4k3/8/8/8/8/8/8/4K3[k] w - - 0 1", "a king cannot be in a pocket");
    fen_refused("chessgi", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 N12 0", "the travellers field is WHITE/BLACK");
    fen_refused("chessgi", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 X12/- 0", "travellers are written like N12,K6");
    fen_refused("chessgi", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 N/- 0", "a traveller needs its due move");
    fen_refused("chessgi", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 n12/- 0", "travellers are written like N12,K6");
    fen_refused("chessgi", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 N12;B3/- 0", "travellers are separated by commas");
    fen_refused("chessgi", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 -/- 5", "from 0 to 4 (the cooldown)");
    fen_refused("chessgi", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 -/- x", "from 0 to 4 (the cooldown)");
    fen_refused("chessgi", "4k2P/8/8/8/8/8/8/4K3[] w - - 0 1 -/- 0", "last rank");
    fen_refused("chessgi-classic", "4k3/8/8/8/8/8/8/p3K3[] w - - 0 1", "last rank");
    fen_refused("chessgi", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 -/N5,B5 0", "black has two travellers due at move 5");
    fen_refused("chessgi", "8/8/8/8/8/8/8/4K3[] w - - 0 1 -/N5 0", "black has no king");
    fen_refused("chessgi-classic", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 -/- 0", "Chessgi has no travellers");
    /* The wait is checked against the game's cooldown option. */
    const Variant *v = variant_find("chessgi");
    Options o;
    options_default(v, &o);
    Text err = TEXT_INIT;
    assert_true(options_parse(v, &o, "cooldown=2", &err));
    assert_null(v->from_fen(&o, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 -/- 3", &err));
    assert_has(text_str(&err), "from 0 to 2 (the cooldown)");
    text_free(&err);
    /* Travellers out of order are read and written sorted. */
    State *s = v->from_fen(&o, "4k3/8/8/8/8/8/8/8[] w - - 0 1 N12,K6/- 0", &err);
    assert_non_null(s);
    Text t = TEXT_INIT;
    v->to_fen(&o, s, &t);
    assert_string_equal(text_str(&t), "4k3/8/8/8/8/8/8/8[] w - - 0 1 K6,N12/- 0");
    text_free(&t);
    free(s);
    text_free(&err);
}

/* ---- 9. Notation -------------------------------------------------------- */

/* Every legal action's two forms read back as that action. */
static void check_notation(void)
{
    MoveList l;
    legal_list(&G, &l);
    Line line;
    line_open(&line, &G, game_current(&G));
    const Variant *v = G.variant;
    for (int i = 0; i < l.count; i++) {
        for (int form = 0; form < 2; form++) {
            Text t = TEXT_INIT, why = TEXT_INIT;
            assert_true(form ? v->format_human(&line, l.moves[i], &t) : v->format_coord(&line, l.moves[i], &t));
            Move m;
            if (!v->parse(&line, text_str(&t), &m, &why)) fail_msg("'%s' refused: %s", text_str(&t), text_str(&why));
            if (!move_equal(m, l.moves[i])) fail_msg("'%s' read back as another action", text_str(&t));
            text_free(&t);
            text_free(&why);
        }
        general_travels_seen += (l.moves[i].flags & MOVE_AT_NODE) != 0;
    }
    line_close(&line);
    movelist_free(&l);
}

static void test_notation_round_trip_random_games(void **state)
{
    (void)state;
    general_travels_seen = 0;
    for (uint64_t seed = 11; seed <= 13; seed++) random_game("chessgi", NULL, seed * 0x2545F4914F6CDD1DULL, 24, check_notation);
    random_game("chessgi", "cooldown=0", 5, 14, check_notation);
    random_game("chessgi-classic", NULL, 3, 40, check_notation);
    assert_true(general_travels_seen > 0);
}

/* The forms the rules list, written and read. */
static void test_notation_forms(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    Move m;
    refuse("g1>12", "a piece travels at most 10 moves forward");
    m = parsed("g1>11");
    assert_string_equal(coord_of(m), "g1>11");
    assert_string_equal(human_of(m), "Ng1>11");
    assert_true(move_equal(parsed("Ng1>11"), m));
    assert_string_equal(human_of(parsed("e2>3")), "e2>3");
    play("Ng1>4 e5 e4 d5 exd5");
    assert_string_equal(human_of(parsed("Qxd5")), "Qxd5");
    play("Qxd5");
    m = parsed("[N]@e2");
    assert_string_equal(coord_of(m), "[N]@e2");
    assert_string_equal(human_of(m), "[N]@e2");
    m = parsed("P@d7");
    assert_string_equal(coord_of(m), "P@d7");
    assert_string_equal(human_of(m), "P@d7+");
    m = parsed("<1.2>P@e6");
    assert_string_equal(coord_of(m), "<1.2>P@e6");
    m = parsed("<1.4>e4d5");
    assert_string_equal(human_of(m), "<1.4>exd5");
    assert_true(move_equal(parsed("<1.4>exd5"), m));
    refuse("<9.2>e2e4", "there is no timeline 9 (this game has 1)");
    refuse("<1.40>e2e4", "timeline 1 has no position 40");
    refuse("<1.2>g1>5", "not another time travel");
    play("<1.2>P@e6");
    refuse("<3.0>e2e4", "there is no timeline 3 (this game has 2)");
    done();
}

/* Writes G as PGN and reads it back: the same nodes, timelines and end. */
static void pgn_round_trip(const char *must_contain)
{
    Text out = TEXT_INIT, err = TEXT_INIT;
    assert_true(pgn_write(&G, NULL, &out));
    assert_has(text_str(&out), must_contain);
    Game back;
    if (!pgn_read(text_str(&out), NULL, NULL, &back, NULL, NULL, &err))
        fail_msg("PGN refused: %s\n%s", text_str(&err), text_str(&out));
    assert_ptr_equal(back.variant, G.variant);
    assert_memory_equal(&back.options, &G.options, sizeof G.options);
    assert_int_equal(game_count(&back), game_count(&G));
    for (int i = 0; i < game_count(&G); i++) {
        const Node *a = game_node(&G, i), *b = game_node(&back, i);
        assert_true(move_equal(a->move, b->move));
        assert_int_equal(a->timeline, b->timeline);
        assert_int_equal(a->parent, b->parent);
        assert_true(a->key == b->key);
    }
    assert_string_equal(game_fen(&back), fen_now());
    game_free(&back);
    text_free(&out);
    text_free(&err);
}

static void test_pgn_round_trip(void **state)
{
    (void)state;
    travel(START_TRAVEL);
    play("e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 <1.4>P@d6 c7d6 g1f3 g8f6 f1e2 b8>9 e1g1");
    assert_int_equal(game_timelines(&G), 2);
    pgn_round_trip("[Variant \"Time Travel Chessgi\"]");
    done();
    classic(START_CLASSIC);
    play("e2e4 d7d5 e4d5 d8d5 P@e4 d5e4");
    pgn_round_trip("[Variant \"Chessgi\"]");
    done();
    /* A random game full of travels. */
    travel(START_TRAVEL);
    uint64_t rng = 2024;
    for (int ply = 0; ply < 40; ply++) {
        Outcome o;
        assert_true(game_outcome(&G, &o));
        if (o.result != RESULT_NONE) break;
        MoveList l;
        legal_list(&G, &l);
        assert_true(game_push(&G, pick_action(&l, &rng, true)));
        movelist_free(&l);
    }
    assert_true(game_timelines(&G) > 1);
    pgn_round_trip("{Timeline 2}");
    done();
}

/* [Variant "Time Travel Chessgi"] and [Variant "Chessgi"] pick the two games. */
static void test_pgn_variant_tags(void **state)
{
    (void)state;
    Game g;
    Text err = TEXT_INIT;
    const char *tt = "[Variant \"Time Travel Chessgi\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. <1.4>P@d6 cxd6 4. Nf3 Nf6 5. Be2 Nb8>9 *\n";
    if (!pgn_read(tt, NULL, NULL, &g, NULL, NULL, &err)) fail_msg("%s", text_str(&err));
    assert_string_equal(g.variant->name, "chessgi");
    assert_int_equal(game_timelines(&g), 2);
    assert_string_equal(game_fen(&g), "r1b1kb1r/pp2pppp/3p1n2/3q4/8/5N2/PPPPBPPP/RNBQK2R[pp] w KQkq - 0 6 -/N9 4");
    game_free(&g);
    const char *cl = "[Variant \"Chessgi\"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 Qxe4+ *\n";
    if (!pgn_read(cl, NULL, NULL, &g, NULL, NULL, &err)) fail_msg("%s", text_str(&err));
    assert_string_equal(g.variant->name, "chessgi-classic");
    assert_string_equal(game_fen(&g), "rnb1kbnr/ppp1pppp/8/8/4q3/8/PPPP1PPP/RNBQKBNR[pp] w KQkq - 0 4");
    game_free(&g);
    /* The base game has no time travel. */
    const char *bad = "[Variant \"Chessgi\"]\n\n1. Ng1>5 *\n";
    assert_false(pgn_read(bad, NULL, NULL, &g, NULL, NULL, &err));
    assert_has(text_str(&err), "there is no time travel in Chessgi");
    game_free(&g);
    text_free(&err);
}

/* Options other than the defaults are written [Options "..."] and read back. */
static void test_pgn_options(void **state)
{
    (void)state;
    start_opts("chessgi", "cooldown=2", START_TRAVEL);
    play("g1>5 e7e5 e2e4 g8>6");
    pgn_round_trip("[Options \"cooldown=2\"]");
    done();
    travel(START_TRAVEL);
    Text out = TEXT_INIT;
    assert_true(pgn_write(&G, NULL, &out));
    assert_null(strstr(text_str(&out), "[Options"));
    text_free(&out);
    done();
    /* A game that needs its options: read with them, refused without. */
    Game g;
    Text err = TEXT_INIT;
    const char *with = "[Variant \"Time Travel Chessgi\"]\n[Options \"cooldown=2\"]\n\n1. Ng1>5 e5 2. e4 Ng8>6 *\n";
    if (!pgn_read(with, NULL, NULL, &g, NULL, NULL, &err)) fail_msg("%s", text_str(&err));
    assert_int_equal(game_option(&g, 0), 2);
    game_free(&g);
    const char *without = "[Variant \"Time Travel Chessgi\"]\n\n1. Ng1>5 e5 2. e4 Ng8>6 *\n";
    assert_false(pgn_read(without, NULL, NULL, &g, NULL, NULL, &err));
    assert_has(text_str(&err), "no time travel for 2 more plies");
    game_free(&g);
    text_free(&err);
}

/* ---- The rules, read plainly ------------------------------------------- */

/* Are all of `us`'s kings on b safe?  (Square by square, no shortcuts.) */
static bool kings_safe(const Board *b, Color us)
{
    for (Square q = 0; q < 64; q++)
        if (b->squares[q] == make_piece(us, KING) && board_square_attacked(b, q, (Color)!us)) return false;
    return true;
}

static void plain_drops(const Board *b, PieceType t, uint8_t kind, MoveList *out)
{
    Color us = b->side;
    for (Square q = 0; q < 64; q++) {
        if (b->squares[q] != NO_PIECE) continue;
        if (t == PAWN && square_rank(q) == (us == WHITE ? 7 : 0)) continue;
        Board c = *b;
        board_put(&c, q, make_piece(us, t));
        if (kings_safe(&c, us)) movelist_add(out, move_make(SQ_NONE, q, kind, t, 0));
    }
}

/* Every action the rules allow now besides chess moves and general
 * travels, worked out from the rules file alone: drops, the due
 * traveller's drops (only the king's when a king is due), special travels. */
static void plain_actions_now(MoveList *out)
{
    const State *s = game_state(&G);
    const Board *b = &s->board;
    const ChessgiState *gs = chessgi_cstate(s);
    Color us = b->side;
    int n = b->fullmove;
    movelist_init(out);
    const ChessgiTraveller *due = NULL;
    for (int i = 0; i < gs->travellers[us]; i++)
        if (gs->traveller[us][i].due == n) due = &gs->traveller[us][i];
    if (due && due->type == KING) {
        plain_drops(b, KING, MOVE_ARRIVAL, out);
        return;
    }
    if (due) plain_drops(b, due->type, MOVE_ARRIVAL, out);
    for (PieceType t = PAWN; t < KING; t++)
        if (gs->pocket[us][t]) plain_drops(b, t, MOVE_DROP, out);
    if (!chessgi_travel_on(&(Line){ .game = &G, .base = game_current(&G) })) return;
    int total = gs->travellers[us];
    for (PieceType t = PAWN; t < KING; t++) total += gs->pocket[us][t];
    if (gs->wait || !kings_safe(b, us) || total >= game_option(&G, CHESSGI_CAPACITY)) return;
    for (Square q = 0; q < 64; q++) {
        Piece p = b->squares[q];
        if (p == NO_PIECE || piece_color(p) != us) continue;
        Board c = *b;
        board_remove(&c, q);
        if (!kings_safe(&c, us)) continue;
        int limit = piece_type(p) == KING ? game_option(&G, CHESSGI_KING_FORWARD) : game_option(&G, CHESSGI_FORWARD);
        for (int r = n + 1; r <= n + limit; r++) {
            bool taken = false;
            for (int i = 0; i < gs->travellers[us]; i++) taken |= gs->traveller[us][i].due == r;
            if (!taken) movelist_add(out, move_make(q, SQ_NONE, MOVE_SEND_FORWARD, NO_TYPE, (uint32_t)r));
        }
    }
}

/* The generator agrees with the plain reading: the same drops, traveller
 * drops and special travels; chess moves that leave every king of the
 * mover safe (none while a king is due); general travels exactly to the
 * earlier positions where the mover was to move and keeps a king, and
 * only when a time travel is allowed. */
static void check_plain_rules(void)
{
    const State *s = game_state(&G);
    const Board *b = &s->board;
    const ChessgiState *gs = chessgi_cstate(s);
    Color us = b->side;
    MoveList all, mine, theirs;
    legal_list(&G, &all);
    movelist_init(&theirs);
    bool king_due = false;
    for (int i = 0; i < gs->travellers[us]; i++)
        if (gs->traveller[us][i].due == b->fullmove) king_due = gs->traveller[us][i].type == KING;
    int total = gs->travellers[us];
    for (PieceType t = PAWN; t < KING; t++) total += gs->pocket[us][t];
    bool travel_ok = G.variant == variant_find("chessgi") && !gs->wait && kings_safe(b, us) && !king_due;
    bool target[512] = { false };
    for (int i = 0; i < all.count; i++) {
        Move m = all.moves[i];
        if (m.flags & MOVE_AT_NODE) {
            assert_true(travel_ok && total > 0);
            assert_true(m.arg < (uint32_t)game_current(&G));
            target[m.arg] = true;
        } else if (move_is_chess(m)) {
            assert_false(king_due);
            Board c = *b;
            board_make(&c, m);
            assert_true(kings_safe(&c, us));
        } else {
            movelist_add(&theirs, m);
        }
    }
    plain_actions_now(&mine);
    if (mine.count) qsort(mine.moves, (size_t)mine.count, sizeof(Move), move_cmp);
    if (theirs.count) qsort(theirs.moves, (size_t)theirs.count, sizeof(Move), move_cmp);
    if (mine.count != theirs.count) fail_msg("%s: %d drops and travels by the rules, %d generated", fen_now(), mine.count, theirs.count);
    for (int i = 0; i < mine.count; i++)
        if (!move_equal(mine.moves[i], theirs.moves[i])) fail_msg("%s: action %d differs", fen_now(), i);
    /* The targets of general travels. */
    for (int i = 0; i < game_current(&G) && i < 512; i++) {
        const State *at = game_node(&G, i)->state;
        bool king = board_kings(&at->board, us) != 0;
        for (int k = 0; k < gs->travellers[us]; k++) {
            const ChessgiTraveller *t = &gs->traveller[us][k];
            /* A traveller due now is lost unless the target is at its move. */
            if (t->type == KING && !(t->due == b->fullmove && at->board.fullmove != b->fullmove)) king = true;
        }
        bool expected = travel_ok && total > 0 && at->board.side == us && king;
        if (expected != target[i]) fail_msg("%s: ply %d as a target: expected %d", fen_now(), i, expected);
    }
    movelist_free(&all);
    movelist_free(&mine);
    movelist_free(&theirs);
}

/* The position a general travel to `target` lands in, by the rules file:
 * the target's board, rights, move number and opponent's pocket and
 * travellers; the mover's pocket and travellers of now, less one due now
 * unless the target is at that same move.  As FEN. */
static void landing_fen(int target, Text *out)
{
    const State *now = game_state(&G), *at = game_node(&G, target)->state;
    Color us = now->board.side;
    ChessgiStateBuffer buf;
    assert_true(state_bytes(at) <= sizeof buf);
    memcpy(&buf, at, state_bytes(at));
    ChessgiState *gs = chessgi_state(&buf.state);
    const ChessgiState *mine = chessgi_cstate(now);
    for (PieceType t = PAWN; t < KING; t++) gs->pocket[us][t] = mine->pocket[us][t];
    gs->travellers[us] = 0;
    memset(gs->traveller[us], 0, sizeof gs->traveller[us]);
    for (int i = 0; i < mine->travellers[us]; i++) {
        ChessgiTraveller t = mine->traveller[us][i];
        if (t.due == now->board.fullmove && at->board.fullmove != now->board.fullmove) continue;
        gs->traveller[us][gs->travellers[us]++] = t;
    }
    G.variant->to_fen(&G.options, &buf.state, out);
}

/* Every general travel to a target is a move legal in the landing position
 * (a game started from its FEN), and every such move is offered; played,
 * it gives that game's position with the clock at 0 and the cooldown
 * restarted. */
static void check_general_travels(void)
{
    MoveList all;
    legal_list(&G, &all);
    int cooldown = game_option(&G, CHESSGI_COOLDOWN);
    for (int target = 0; target < game_current(&G); target++) {
        MoveList offered_there, expected;
        movelist_init(&offered_there);
        for (int i = 0; i < all.count; i++)
            if ((all.moves[i].flags & MOVE_AT_NODE) && all.moves[i].arg == (uint32_t)target) {
                Move m = all.moves[i];
                m.flags = 0;
                m.arg = 0;
                movelist_add(&offered_there, m);
            }
        if (!offered_there.count) {
            movelist_free(&offered_there);
            continue;
        }
        Text fen = TEXT_INIT, err = TEXT_INIT;
        landing_fen(target, &fen);
        Game land;
        if (!game_init(&land, G.variant, &G.options, text_str(&fen), &err)) fail_msg("%s: %s", text_str(&fen), text_str(&err));
        MoveList there;
        legal_list(&land, &there);
        movelist_init(&expected);
        for (int i = 0; i < there.count; i++)
            if (there.moves[i].kind != MOVE_SEND_FORWARD && !(there.moves[i].flags & MOVE_AT_NODE)) movelist_add(&expected, there.moves[i]);
        qsort(offered_there.moves, (size_t)offered_there.count, sizeof(Move), move_cmp);
        if (expected.count) qsort(expected.moves, (size_t)expected.count, sizeof(Move), move_cmp);
        if (expected.count != offered_there.count)
            fail_msg("%s: travel to ply %d offers %d moves, the landing %s has %d", fen_now(), target, offered_there.count,
                     text_str(&fen), expected.count);
        for (int i = 0; i < expected.count; i++) assert_true(move_equal(expected.moves[i], offered_there.moves[i]));
        /* Play one of them both ways. */
        Move m = expected.moves[(size_t)target % (size_t)expected.count];
        assert_true(game_push(&land, m));
        m.flags = MOVE_AT_NODE;
        m.arg = (uint32_t)target;
        assert_true(game_push(&G, m));
        const State *a = game_state(&G), *b = game_state(&land);
        assert_true(board_equal(&a->board, &b->board));
        assert_int_equal(a->board.fullmove, b->board.fullmove);
        assert_int_equal(a->board.halfmove, 0);
        const ChessgiState *ga = chessgi_cstate(a), *gb = chessgi_cstate(b);
        assert_memory_equal(ga->pocket, gb->pocket, sizeof ga->pocket);
        assert_memory_equal(ga->travellers, gb->travellers, sizeof ga->travellers);
        assert_memory_equal(ga->traveller, gb->traveller, sizeof ga->traveller);
        assert_int_equal(ga->wait, cooldown);
        assert_int_equal(game_node(&G, game_current(&G))->parent, target);
        assert_int_equal(game_node(&G, game_current(&G))->timeline, game_timelines(&G));
        game_pop(&G);
        general_travels_seen++;
        movelist_free(&there);
        movelist_free(&expected);
        movelist_free(&offered_there);
        game_free(&land);
        text_free(&fen);
        text_free(&err);
    }
    movelist_free(&all);
}

static void test_general_travels_land_by_the_rules(void **state)
{
    (void)state;
    general_travels_seen = 0;
    for (uint64_t seed = 51; seed <= 56; seed++) random_game("chessgi", NULL, seed * 0xD6E8FEB86659FD93ULL, 60, check_general_travels);
    random_game("chessgi", "cooldown=0 capacity=6", 57, 40, check_general_travels);
    assert_true(general_travels_seen > 100);
}

/* A king sent forward, then a general travel to a position where its old
 * self still stands: the traveller is kept and lands beside it (the
 * mover then has two kings; a piece's old self may stand beside it). */
static void test_king_lands_beside_its_old_self(void **state)
{
    (void)state;
    /* cooldown=0: travels may follow each other (not the rule tested). */
    start_opts("chessgi", "cooldown=0", START_TRAVEL);
    play("e2e4 d7d5 e4d5 g8f6 e1>5 a7a6 <1.2>d2d4");
    assert_has(fen_now(), "[P] b KQkq d3 0 2 K5/- 0");
    play("a7a6 b1c3 a6a5 g1f3 b7b6");
    check_plain_rules();
    refuse("d4d5", "the king sent to move 5 must be dropped now");
    play("[K]@e2");
    assert_string_equal(fen_now(), "rnbqkbnr/2p1pppp/1p6/p2p4/3PP3/2N2N2/PPP1KPPP/R1BQKB1R[P] b KQkq - 1 5 -/- 0");
    check_plain_rules();
    done();
}

/* Every king of the mover must be safe: moving one king does not answer a
 * check to the other, and neither may travel while one is in check. */
static void test_two_kings_both_must_be_safe(void **state)
{
    (void)state;
    travel("4k3/8/8/8/8/8/4r3/K3K3[N] w - - 0 10 -/- 0");
    refuse("a1>12", "you cannot time travel while in check");
    assert_false(offered("a1a2") || offered("a1b1") || offered("e1d2"));
    assert_true(offered("e1e2") && offered("e1d1") && offered("e1f1"));
    assert_int_equal(count_legal(ANY), 3);
    check_plain_rules();
    done();
    /* One king mated, the other free: checkmate all the same. */
    travel("4k3/8/8/8/3n4/8/4q3/K3K3[] w - - 0 10 -/- 0");
    assert_string_equal(status_now(), "0-1 checkmate");
    done();
    /* Chessgi itself has one king a side. */
    fen_refused("chessgi-classic", "4k3/8/8/8/8/8/8/K3K3[] w - - 0 1", "Chessgi needs exactly one king a side");
}

static void test_actions_follow_plain_rules(void **state)
{
    (void)state;
    for (uint64_t seed = 41; seed <= 48; seed++) random_game("chessgi", NULL, seed * 0x94D049BB133111EBULL, 80, check_plain_rules);
    random_game("chessgi", "cooldown=0 forward=3 king-forward=2 capacity=3", 7, 80, check_plain_rules);
    random_game("chessgi", "cooldown=1", 8, 80, check_plain_rules);
    for (uint64_t seed = 1; seed <= 3; seed++) random_game("chessgi-classic", NULL, seed * 7777, 100, check_plain_rules);
}

/* ---- 10. Keys ----------------------------------------------------------- */

/* The key the rules keep equals the one computed afresh, everywhere. */
static void check_keys(void)
{
    const State *s = game_state(&G);
    assert_true(s->ext_key == G.variant->ext_key(&G.options, s));
    assert_true(s->board.key == board_compute_key(&s->board));
}

static void test_keys_random_games(void **state)
{
    (void)state;
    for (uint64_t seed = 21; seed <= 28; seed++) random_game("chessgi", NULL, seed * 0xBF58476D1CE4E5B9ULL, 80, check_keys);
    random_game("chessgi", "cooldown=0", 99, 60, check_keys);
    for (uint64_t seed = 1; seed <= 3; seed++) random_game("chessgi-classic", NULL, seed * 31337, 100, check_keys);
}

/* ---- Time --------------------------------------------------------------- */

/* The result line if `flagged` ran out of time at G's present position;
 * G is left as it was. */
static const char *flag_line(Color flagged) { return flag_line_of(&G, flagged); }

/* A flag loses unless the opponent could not win by any series of legal
 * actions.  A capture goes to the captor's pocket, to be dropped: a bare
 * king can win as long as anything of its opponent's is left to take, on
 * the board, in the pocket or travelling.  Only kings against kings, with
 * empty pockets, is a draw on time. */
static void test_flag_against_a_bare_king(void **state)
{
    (void)state;
    classic("4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    assert_string_equal(flag_line(WHITE), "1/2-1/2 white lost on time, but black cannot win");
    done();
    classic("4k3/8/8/8/8/8/4P3/4K3[] w - - 0 1");
    assert_string_equal(flag_line(WHITE), "0-1 white lost on time");
    done();
    classic("4k3/8/8/8/8/8/8/4K3[n] w - - 0 1");
    assert_string_equal(flag_line(WHITE), "0-1 white lost on time");
    assert_string_equal(flag_line(BLACK), "1-0 black lost on time");
    done();
    /* Pieces travelling count as pocket pieces; a king travelling does not. */
    travel("4k3/8/8/8/8/8/8/4K3[] w - - 0 1 -/N5 0");
    assert_string_equal(flag_line(WHITE), "0-1 white lost on time");
    done();
    travel("8/8/8/8/8/8/8/4K3[] w - - 0 1 -/K5 0");
    assert_string_equal(flag_line(WHITE), "1/2-1/2 white lost on time, but black cannot win");
    done();
    travel("4k3/8/8/8/8/8/8/4K3[] w - - 0 1 N3/- 0");
    assert_string_equal(flag_line(WHITE), "0-1 white lost on time");
    done();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_classic_start),
        cmocka_unit_test(test_perft_classic_pockets),
        cmocka_unit_test(test_perft_travel_start),
        cmocka_unit_test(test_capture_goes_to_captor_pocket),
        cmocka_unit_test(test_captured_promoted_piece_keeps_type),
        cmocka_unit_test(test_pawn_drop_first_rank_not_last),
        cmocka_unit_test(test_first_rank_pawn_steps_once),
        cmocka_unit_test(test_drop_in_check_only_blocks),
        cmocka_unit_test(test_drop_mate),
        cmocka_unit_test(test_special_travel_range),
        cmocka_unit_test(test_one_traveller_per_side_per_move),
        cmocka_unit_test(test_pocket_capacity),
        cmocka_unit_test(test_no_special_travel_in_check),
        cmocka_unit_test(test_special_travel_exposing_king),
        cmocka_unit_test(test_special_travel_loses_castling),
        cmocka_unit_test(test_cooldown_four_plies),
        cmocka_unit_test(test_traveller_drop_is_not_a_travel),
        cmocka_unit_test(test_cooldown_option),
        cmocka_unit_test(test_traveller_not_before_its_move),
        cmocka_unit_test(test_traveller_drop_rules),
        cmocka_unit_test(test_traveller_lost_when_not_dropped),
        cmocka_unit_test(test_king_traveller_must_land),
        cmocka_unit_test(test_king_lost_in_time),
        cmocka_unit_test(test_general_travel_needs_pocket),
        cmocka_unit_test(test_general_travel_targets),
        cmocka_unit_test(test_general_travel_state),
        cmocka_unit_test(test_general_travel_en_passant_and_clock),
        cmocka_unit_test(test_general_travel_into_abandoned_future),
        cmocka_unit_test(test_general_travel_and_due_travellers),
        cmocka_unit_test(test_note_on_traveller_lost_at_same_move),
        cmocka_unit_test(test_general_travel_keeps_a_king),
        cmocka_unit_test(test_checkmate),
        cmocka_unit_test(test_stalemate),
        cmocka_unit_test(test_repetition_counts_pockets),
        cmocka_unit_test(test_repetition_counts_travellers_and_cooldown),
        cmocka_unit_test(test_fifty_move_rule),
        cmocka_unit_test(test_fen_round_trip_random_games),
        cmocka_unit_test(test_fen_errors),
        cmocka_unit_test(test_notation_round_trip_random_games),
        cmocka_unit_test(test_notation_forms),
        cmocka_unit_test(test_pgn_round_trip),
        cmocka_unit_test(test_pgn_variant_tags),
        cmocka_unit_test(test_pgn_options),
        cmocka_unit_test(test_keys_random_games),
        cmocka_unit_test(test_actions_follow_plain_rules),
        cmocka_unit_test(test_general_travels_land_by_the_rules),
        cmocka_unit_test(test_king_lands_beside_its_old_self),
        cmocka_unit_test(test_two_kings_both_must_be_safe),
        cmocka_unit_test(test_flag_against_a_bare_king),
    };
    return cmocka_run_group_tests_name("chessgi", tests, NULL, NULL);
}
