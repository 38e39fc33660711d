/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of the Zobrist keys and of piece tags: the key a board keeps
 * incrementally (and the variant's key of its own state) always equals
 * the key computed from nothing, over long random games of chess, of
 * Gifford's time travel and of van Gog's in its three modes; each node's identity key is the position key of
 * its board and its variant state; equal positions have equal keys however
 * they were reached, and positions that differ (side to move, castling, a
 * capturable en passant square, a Gifford schedule) have different keys.
 * Then tags_after_move (ttchess/tags.h) over random games.
 */
#include "support.h"

#include "tags.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* The position in the variant's FEN. */
static void state_fen(const Game *g, const State *s, Text *out)
{
    text_clear(out);
    g->variant->to_fen(&g->options, s, out);
}

/* Checks every key of node i against the keys computed from nothing. */
static void check_node_keys(const Game *g, int i)
{
    const Node *n = game_node(g, i);
    const State *s = n->state;
    const Variant *v = g->variant;
    if (s->board.key != board_compute_key(&s->board)) {
        Text fen = TEXT_INIT;
        state_fen(g, s, &fen);
        fail_msg("%s node %d (%s): board key %016llx, computed %016llx", v->name, i, text_str(&fen),
                 (unsigned long long)s->board.key, (unsigned long long)board_compute_key(&s->board));
    }
    if (v->ext_key) {
        uint64_t ext = v->ext_key(&g->options, s);
        if (s->ext_key != ext) {
            Text fen = TEXT_INIT;
            state_fen(g, s, &fen);
            fail_msg("%s node %d (%s): ext key %016llx, computed %016llx", v->name, i, text_str(&fen),
                     (unsigned long long)s->ext_key, (unsigned long long)ext);
        }
    } else {
        assert_true(s->ext_key == 0);
    }
    assert_true(n->key == (board_position_key(&s->board) ^ s->ext_key));
    /* The position key is the key of the board without its en passant
     * square exactly when no en passant capture is legal, which is when
     * the chess moves of the board include none. */
    MoveList l;
    movelist_init(&l);
    assert_true(gen_legal(&s->board, &l));
    bool ep_move = false;
    for (int k = 0; k < l.count; k++) ep_move |= l.moves[k].kind == MOVE_EN_PASSANT;
    movelist_free(&l);
    assert_int_equal(board_ep_capture_legal(&s->board), ep_move);
    Board plain = s->board;
    if (!ep_move) board_set_ep(&plain, SQ_NONE);
    assert_true(board_position_key(&s->board) == board_compute_key(&plain));
}

/* The position read back from its own FEN has the same keys, and the
 * variant takes the two for the same position. */
static void check_fen_round_trip(const Game *g, Text *fen, Text *err)
{
    const State *s = game_state(g);
    state_fen(g, s, fen);
    text_clear(err);
    State *again = g->variant->from_fen(&g->options, text_str(fen), err);
    if (!again) fail_msg("%s: own FEN %s refused: %s", g->variant->name, text_str(fen), text_str(err));
    bool same = again->board.key == s->board.key && again->ext_key == s->ext_key &&
                g->variant->same_position(again, s) && g->variant->same_position(s, again);
    free(again);
    if (!same) fail_msg("%s: %s read back as another position", g->variant->name, text_str(fen));
}

typedef struct WalkCount {
    long plies, games_ended, travels, arrivals, king_backs, timelines;
} WalkCount;

/* Random games from `start` (NULL: the variant's start position), with
 * the options `options` (NULL: the defaults), checking every key after
 * every action. */
static void random_key_walk(const char *variant, const char *options, const char *start, int games, int plies,
                            uint64_t seed, bool travel_bias, WalkCount *count)
{
    Text fen = TEXT_INIT, err = TEXT_INIT;
    const Variant *v = variant_find(variant);
    assert_non_null(v);
    Options opts;
    options_default(v, &opts);
    if (options && !options_parse(v, &opts, options, &err)) fail_msg("options %s: %s", options, text_str(&err));
    for (int game = 0; game < games; game++) {
        Game g;
        if (!game_init(&g, v, &opts, start, &err)) fail_msg("%s: %s", variant, text_str(&err));
        check_node_keys(&g, 0);
        for (int ply = 0; ply < plies; ply++) {
            Outcome o;
            assert_true(game_outcome(&g, &o));
            if (o.result != RESULT_NONE) {
                count->games_ended++;
                break;
            }
            MoveList l;
            legal_list(&g, &l);
            assert_true(l.count > 0);
            Move m = pick_action(&l, &seed, travel_bias);
            movelist_free(&l);
            assert_true(game_push(&g, m));
            check_node_keys(&g, game_current(&g));
            check_fen_round_trip(&g, &fen, &err);
            count->plies++;
            count->travels += is_travel(m);
            count->arrivals += m.kind == MOVE_ARRIVAL;
            count->king_backs += m.kind == MOVE_KING_BACK;
        }
        /* Nothing played later changed an earlier node's keys. */
        for (int i = 0; i < game_count(&g); i++) check_node_keys(&g, i);
        count->timelines += game_timelines(&g) - 1;
        game_free(&g);
    }
    text_free(&fen);
    text_free(&err);
}

/* ------------------------------------------------------------------ */
/* Incremental keys equal computed keys                                */
/* ------------------------------------------------------------------ */

static void test_keys_random_chess(void **state)
{
    (void)state;
    WalkCount count = { 0 };
    random_key_walk("chess", NULL, NULL, 40, 200, 0x9E3779B97F4A7C15ULL, false, &count);
    print_message("chess: %ld plies checked, %ld games ended\n", count.plies, count.games_ended);
    assert_true(count.plies > 4000);
    /* From the perft suite's positions too: castling, en passant and
     * promotions early. */
    char *suite = read_data("perft-standard.txt");
    int positions = 0;
    for (char *line = strtok(suite, "\n"); line; line = strtok(NULL, "\n")) {
        char *semi = strchr(line, ';');
        if (line[0] == '#' || !semi) continue;
        *semi = 0;
        WalkCount more = { 0 };
        random_key_walk("chess", NULL, line, 10, 100, 0x1F2E3D4C5B6A7988ULL + (uint64_t)positions, false, &more);
        assert_true(more.plies > 100);
        positions++;
    }
    free(suite);
    assert_int_equal(positions, 6);
}

static void test_keys_random_gifford(void **state)
{
    (void)state;
    WalkCount count = { 0 };
    random_key_walk("gifford", NULL, NULL, 40, 200, 0xD1B54A32D192ED03ULL, true, &count);
    print_message("gifford: %ld plies checked, %ld travels, %ld arrivals, %ld kings back, %ld new timelines, "
                  "%ld games ended\n",
                  count.plies, count.travels, count.arrivals, count.king_backs, count.timelines, count.games_ended);
    assert_true(count.plies > 2000);
    assert_true(count.arrivals > 20);
    assert_true(count.king_backs > 10);
    assert_true(count.timelines == count.king_backs);
    /* The limits at their extremes: the schedules use every slot. */
    static const char *const options[] = { "forward=31 back=100 back-travels=100", "forward=1 back=1 back-travels=1",
                                           "forward=5 back=3 back-travels=0" };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        WalkCount more = { 0 };
        random_key_walk("gifford", options[i], NULL, 10, 200, 0xA0761D6478BD642FULL + i, true, &more);
        print_message("gifford %s: %ld plies, %ld arrivals, %ld kings back\n", options[i], more.plies, more.arrivals,
                      more.king_backs);
        assert_true(more.plies > 300);
    }
}

static void test_keys_random_vangog(void **state)
{
    (void)state;
    static const char *const modes[] = { "vangog", "vangog-past", "vangog-future" };
    for (int i = 0; i < 3; i++) {
        WalkCount count = { 0 };
        random_key_walk(modes[i], NULL, NULL, 15, 120, 0x94D049BB133111EBULL + (uint64_t)i, true, &count);
        print_message("%s: %ld plies checked, %ld travels, %ld arrivals, %ld games ended\n", modes[i], count.plies,
                      count.travels, count.arrivals, count.games_ended);
        assert_true(count.plies > 1000);
        assert_true(count.travels > 300);
    }
}

/* The board functions that change a board keep its key right one by one
 * (board_put, board_remove, board_set_castling, board_set_ep,
 * board_end_turn, board_make), whatever was there before. */
static void test_keys_board_functions(void **state)
{
    (void)state;
    Board b;
    parse_ok(&b, "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
    assert_true(b.key == board_compute_key(&b));
    board_put(&b, square_parse("a4"), make_piece(BLACK, QUEEN));
    assert_true(b.key == board_compute_key(&b));
    board_remove(&b, square_parse("a4"));
    board_remove(&b, square_parse("a4")); /* nothing there: nothing changes */
    assert_true(b.key == board_compute_key(&b));
    board_set_castling(&b, CASTLE_WK | CASTLE_BQ);
    assert_true(b.key == board_compute_key(&b));
    board_set_castling(&b, CASTLE_WK | CASTLE_BQ);
    assert_true(b.key == board_compute_key(&b));
    board_set_ep(&b, square_parse("f6"));
    assert_true(b.key == board_compute_key(&b));
    board_set_ep(&b, SQ_NONE);
    assert_true(b.key == board_compute_key(&b));
    board_set_ep(&b, square_parse("d6"));
    board_end_turn(&b, false);
    assert_int_equal(b.side, BLACK);
    assert_int_equal(b.ep, SQ_NONE);
    assert_int_equal(b.halfmove, 1);
    assert_true(b.key == board_compute_key(&b));
    board_end_turn(&b, true);
    assert_int_equal(b.side, WHITE);
    assert_int_equal(b.halfmove, 0);
    assert_int_equal(b.fullmove, 2);
    assert_true(b.key == board_compute_key(&b));
    board_clear(&b);
    assert_true(b.key == board_compute_key(&b));

    /* Every legal move of positions with castling, en passant and
     * promotions, made on a copy. */
    static const char *const fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 0 1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        parse_ok(&b, fens[i]);
        MoveList l;
        movelist_init(&l);
        assert_true(gen_legal(&b, &l));
        for (int k = 0; k < l.count; k++) {
            Board after = b;
            board_make(&after, l.moves[k]);
            assert_true(after.key == board_compute_key(&after));
        }
        movelist_free(&l);
    }
}

/* ------------------------------------------------------------------ */
/* Equal positions, equal keys; different positions, different keys   */
/* ------------------------------------------------------------------ */

static uint64_t key_after(const char *variant, const char *fen, const char *moves)
{
    Game g;
    game_start(&g, variant, fen);
    if (moves) play_all(&g, moves);
    check_node_keys(&g, game_current(&g));
    uint64_t key = game_node(&g, game_current(&g))->key;
    game_free(&g);
    return key;
}

static uint64_t board_key_of(const char *fen)
{
    Board b;
    parse_ok(&b, fen);
    return b.key;
}

static void test_keys_transpositions(void **state)
{
    (void)state;
    /* Two move orders, one position. */
    uint64_t a = key_after("chess", NULL, "g1f3 g8f6 b1c3 b8c6");
    uint64_t b = key_after("chess", NULL, "b1c3 b8c6 g1f3 g8f6");
    assert_true(a == b);
    Game g1, g2;
    game_start(&g1, "chess", NULL);
    game_start(&g2, "chess", NULL);
    play_all(&g1, "g1f3 g8f6 b1c3 b8c6");
    play_all(&g2, "b1c3 b8c6 g1f3 g8f6");
    assert_true(game_board(&g1)->key == game_board(&g2)->key);
    assert_true(board_equal(game_board(&g1), game_board(&g2)));
    game_free(&g1);
    game_free(&g2);
    /* The same position read from FEN. */
    assert_true(a == key_after("chess", "r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 4 3", NULL));
    /* The move counters are no part of a position. */
    assert_true(a == key_after("chess", "r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 0 40", NULL));
    /* The same in Gifford's game, with empty schedules. */
    assert_true(key_after("gifford", NULL, "g1f3 g8f6 b1c3 b8c6") == key_after("gifford", NULL, "b1c3 b8c6 g1f3 g8f6"));
    /* The knights back home: the start position again. */
    assert_true(key_after("chess", NULL, "g1f3 g8f6 f3g1 f6g8") == key_after("chess", NULL, NULL));
}

static void test_keys_differences(void **state)
{
    (void)state;
    /* Side to move. */
    assert_true(board_key_of("4k3/8/8/8/8/8/8/R3K2R w - - 0 1") != board_key_of("4k3/8/8/8/8/8/8/R3K2R b - - 0 1"));
    assert_true(key_after("chess", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1", NULL) !=
                key_after("chess", "4k3/8/8/8/8/8/8/R3K2R b - - 0 1", NULL));
    /* Castling rights, each one. */
    const char *rights[] = { "KQkq", "KQk", "KQq", "Kkq", "Qkq", "-" };
    for (size_t i = 0; i < sizeof rights / sizeof rights[0]; i++)
        for (size_t j = i + 1; j < sizeof rights / sizeof rights[0]; j++) {
            char fi[96], fj[96];
            snprintf(fi, sizeof fi, "r3k2r/8/8/8/8/8/8/R3K2R w %s - 0 1", rights[i]);
            snprintf(fj, sizeof fj, "r3k2r/8/8/8/8/8/8/R3K2R w %s - 0 1", rights[j]);
            assert_true(board_key_of(fi) != board_key_of(fj));
            assert_true(key_after("chess", fi, NULL) != key_after("chess", fj, NULL));
        }
    /* A piece on another square, a piece of another kind or colour. */
    assert_true(board_key_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") != board_key_of("4k3/8/8/8/8/8/8/1R2K3 w - - 0 1"));
    assert_true(board_key_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") != board_key_of("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"));
    assert_true(board_key_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") != board_key_of("4k3/8/8/8/8/8/8/r3K3 w - - 0 1"));

    /* En passant.  After 1.e4 the square e3 is set but no black pawn can
     * take: the board's own key counts it, the position's does not. */
    const char *after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    const char *no_ep = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    Board b1, b2;
    parse_ok(&b1, after_e4);
    parse_ok(&b2, no_ep);
    assert_false(board_ep_capture_legal(&b1));
    assert_true(b1.key != b2.key);
    assert_true(board_position_key(&b1) == board_position_key(&b2));
    assert_true(board_position_key(&b2) == b2.key);
    assert_true(key_after("chess", NULL, "e2e4") == key_after("chess", no_ep, NULL));
    assert_true(key_after("chess", NULL, "e2e4") == key_after("chess", after_e4, NULL));
    /* After 1.e4 b8c6 2.e5 d5 White can take on d6: the square counts. */
    const char *capturable = "r1bqkbnr/ppp1pppp/2n5/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
    const char *not_capturable = "r1bqkbnr/ppp1pppp/2n5/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3";
    parse_ok(&b1, capturable);
    parse_ok(&b2, not_capturable);
    assert_true(board_ep_capture_legal(&b1));
    assert_true(board_position_key(&b1) == b1.key);
    assert_true(board_position_key(&b1) != board_position_key(&b2));
    assert_true(key_after("chess", NULL, "e2e4 b8c6 e4e5 d7d5") == key_after("chess", capturable, NULL));
    assert_true(key_after("chess", NULL, "e2e4 b8c6 e4e5 d7d5") != key_after("chess", not_capturable, NULL));
    /* A pinned pawn cannot take en passant: the square does not count. */
    parse_ok(&b1, "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1");
    parse_ok(&b2, "8/8/8/8/k2Pp2Q/8/8/4K3 b - - 0 1");
    assert_false(board_ep_capture_legal(&b1));
    assert_true(board_position_key(&b1) == board_position_key(&b2));

    /* Gifford: the schedules and the backward travels used are part of a
     * position; the schedules count from the present move. */
    const char *board = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 2";
    char f1[128], f2[128];
    snprintf(f1, sizeof f1, "%s -/- 0/0", board);
    snprintf(f2, sizeof f2, "%s P5/- 0/0", board);
    assert_true(key_after("gifford", f1, NULL) != key_after("gifford", f2, NULL));
    snprintf(f1, sizeof f1, "%s P6/- 0/0", board);
    assert_true(key_after("gifford", f1, NULL) != key_after("gifford", f2, NULL));
    snprintf(f1, sizeof f1, "%s -/P5 0/0", board);
    assert_true(key_after("gifford", f1, NULL) != key_after("gifford", f2, NULL));
    snprintf(f1, sizeof f1, "%s -/- 1/0", board);
    snprintf(f2, sizeof f2, "%s -/- 0/1", board);
    assert_true(key_after("gifford", f1, NULL) != key_after("gifford", f2, NULL));
    snprintf(f2, sizeof f2, "%s -/- 0/0", board);
    assert_true(key_after("gifford", f1, NULL) != key_after("gifford", f2, NULL));
    /* A pawn due three moves ahead, at move 2 and at move 7: the same. */
    assert_true(key_after("gifford", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 2 P5/- 0/0", NULL) ==
                key_after("gifford", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 7 P10/- 0/0", NULL));
    /* A light and a dark bishop arriving differ. */
    assert_true(key_after("gifford", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 2 Bw5/- 0/0", NULL) !=
                key_after("gifford", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 2 Bb5/- 0/0", NULL));
    /* Sending a piece forward and the same board without the piece and
     * without its arrival differ. */
    assert_true(key_after("gifford", "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 2 -/- 0/0", "d2>5") !=
                key_after("gifford", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 2 -/- 0/0", NULL));
    assert_true(key_after("gifford", "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 2 -/- 0/0", "d2>5") ==
                key_after("gifford", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 2 P5/- 0/0", NULL));
}

/* ------------------------------------------------------------------ */
/* Piece tags                                                          */
/* ------------------------------------------------------------------ */

typedef struct TagCount {
    long moves, captures, castles, en_passant, promotions;
} TagCount;

/* Checks one move's effect on the tags, given the tags and board before. */
static void check_tags_after(const Board *before, const PieceTags *t0, Move m, const Board *after, const PieceTags *t1,
                             const Color *colour_of_tag, TagCount *count)
{
    Square from = m.from, to = m.to;
    Square rook_from = SQ_NONE, rook_to = SQ_NONE, taken = SQ_NONE;
    if (m.kind == MOVE_CASTLE) {
        rook_from = to > from ? (Square)(from + 3) : (Square)(from - 4);
        rook_to = to > from ? (Square)(from + 1) : (Square)(from - 1);
        count->castles++;
    } else if (m.kind == MOVE_EN_PASSANT) {
        taken = before->side == WHITE ? (Square)(to - 8) : (Square)(to + 8);
        count->en_passant++;
    } else if (before->squares[to] != NO_PIECE) {
        taken = to;
    }
    if (m.kind == MOVE_PROMOTION) count->promotions++;
    if (taken != SQ_NONE) count->captures++;
    count->moves++;

    /* The mover keeps its tag (a promoted pawn too). */
    assert_int_not_equal(t0->tag[from], 0);
    assert_int_equal(t1->tag[to], t0->tag[from]);
    assert_int_equal(t1->tag[from], 0);
    /* The castling rook takes its tag along. */
    if (rook_from != SQ_NONE) {
        assert_int_not_equal(t0->tag[rook_from], 0);
        assert_int_equal(t1->tag[rook_to], t0->tag[rook_from]);
        assert_int_equal(t1->tag[rook_from], 0);
        assert_int_equal(piece_type(after->squares[rook_to]), ROOK);
    }
    /* The captured piece's tag is gone from the board. */
    uint16_t gone = taken != SQ_NONE ? t0->tag[taken] : 0;
    if (taken != SQ_NONE) assert_int_not_equal(gone, 0);
    /* Every other square keeps its tag. */
    for (Square s = 0; s < 64; s++) {
        if (s == from || s == to || s == rook_from || s == rook_to || s == taken) continue;
        assert_int_equal(t1->tag[s], t0->tag[s]);
    }
    /* Occupied squares have a tag, empty ones none; each tag stands once,
     * on a piece of the colour it started with; the captured one nowhere. */
    int seen[65] = { 0 };
    int tagged = 0;
    for (Square s = 0; s < 64; s++) {
        uint16_t tag = t1->tag[s];
        if (after->squares[s] == NO_PIECE) {
            assert_int_equal(tag, 0);
            continue;
        }
        assert_true(tag >= 1 && tag <= 64);
        assert_int_equal(seen[tag], 0);
        seen[tag] = 1;
        assert_int_equal(piece_color(after->squares[s]), colour_of_tag[tag]);
        tagged++;
        assert_int_not_equal(tag, gone);
    }
    assert_int_equal(tagged, __builtin_popcountll(board_occupied(after)));
    /* The tags on the board are those that were on it, less the captured one. */
    int before_tagged = 0;
    for (Square s = 0; s < 64; s++)
        if (t0->tag[s]) {
            before_tagged++;
            if (t0->tag[s] != gone) assert_int_equal(seen[t0->tag[s]], 1);
        }
    assert_int_equal(tagged, before_tagged - (gone != 0));
}

/* Gives every piece on the board its own tag, 1, 2, ..., and notes each
 * tag's colour. */
static void tag_every_piece(const Board *b, PieceTags *tags, Color colour_of_tag[65])
{
    memset(tags, 0, sizeof *tags);
    uint16_t next = 1;
    for (Square s = 0; s < 64; s++)
        if (b->squares[s] != NO_PIECE) {
            colour_of_tag[next] = piece_color(b->squares[s]);
            tags->tag[s] = next++;
        }
}

static void test_tags_random_games(void **state)
{
    (void)state;
    static const char *const starts[] = {
        STARTPOS_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "4k3/PPPPPPPP/8/8/8/8/pppppppp/4K3 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    };
    uint64_t seed = 0x2545F4914F6CDD1DULL;
    TagCount count = { 0 };
    MoveList l;
    movelist_init(&l);
    for (int game = 0; game < 80; game++) {
        Board b;
        parse_ok(&b, starts[game % (int)(sizeof starts / sizeof starts[0])]);
        PieceTags tags;
        Color colour_of_tag[65];
        tag_every_piece(&b, &tags, colour_of_tag);
        for (int ply = 0; ply < 200; ply++) {
            l.count = 0;
            assert_true(gen_legal(&b, &l));
            if (!l.count) break;
            /* Castling, en passant, promotions and captures are what tags
             * can get wrong: half the time, take one of the first three
             * if there is one, else a capture if there is one. */
            Move m = l.moves[test_random(&seed) % (uint64_t)l.count];
            if (test_random(&seed) % 2) {
                int rare = 0, captures = 0;
                for (int i = 0; i < l.count; i++) {
                    Move c = l.moves[i];
                    rare += c.kind == MOVE_CASTLE || c.kind == MOVE_EN_PASSANT || c.kind == MOVE_PROMOTION;
                    captures += b.squares[c.to] != NO_PIECE;
                }
                bool want_rare = rare > 0;
                int k = want_rare ? (int)(test_random(&seed) % (uint64_t)rare)
                                  : captures ? (int)(test_random(&seed) % (uint64_t)captures) : -1;
                for (int i = 0; i < l.count && k >= 0; i++) {
                    Move c = l.moves[i];
                    bool special = c.kind == MOVE_CASTLE || c.kind == MOVE_EN_PASSANT || c.kind == MOVE_PROMOTION;
                    bool in = want_rare ? special : b.squares[c.to] != NO_PIECE;
                    if (in && k-- == 0) m = c;
                }
            }
            Board before = b;
            PieceTags t0 = tags;
            tags_after_move(&tags, &before, m);
            board_make(&b, m);
            check_tags_after(&before, &t0, m, &b, &tags, colour_of_tag, &count);
        }
    }
    movelist_free(&l);
    print_message("tags: %ld moves, %ld captures, %ld castling, %ld en passant, %ld promotions\n", count.moves,
                  count.captures, count.castles, count.en_passant, count.promotions);
    assert_true(count.moves > 5000);
    assert_true(count.captures > 500);
    assert_true(count.castles > 20);
    assert_true(count.en_passant > 5);
    assert_true(count.promotions > 50);
}

/* The cases one by one. */
static void test_tags_special_moves(void **state)
{
    (void)state;
    static const struct {
        const char *fen, *move;
    } cases[] = {
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1" },
        { "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8" },
        { "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8" },
        { "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6" },
        { "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", "e4d3" },
        { "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8n" },
        { "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q" },
        { "4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1", "a2b1r" },
        { "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "d1d5" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Board b;
        parse_ok(&b, cases[i].fen);
        PieceTags tags;
        Color colour_of_tag[65];
        tag_every_piece(&b, &tags, colour_of_tag);
        MoveList l;
        movelist_init(&l);
        assert_true(gen_legal(&b, &l));
        Move m = move_none();
        Text t = TEXT_INIT;
        for (int k = 0; k < l.count; k++) {
            text_clear(&t);
            move_to_coord(l.moves[k], &t);
            if (!strcmp(text_str(&t), cases[i].move)) m = l.moves[k];
        }
        text_free(&t);
        movelist_free(&l);
        if (m.kind == MOVE_NULL) fail_msg("%s: %s not generated", cases[i].fen, cases[i].move);
        Board before = b;
        PieceTags t0 = tags;
        TagCount count = { 0 };
        tags_after_move(&tags, &before, m);
        board_make(&b, m);
        check_tags_after(&before, &t0, m, &b, &tags, colour_of_tag, &count);
    }
}

/* The root's identity key and state of a Gifford game from `fen`. */
static const Node *gifford_root(Game *g, const char *fen)
{
    game_start(g, "gifford", fen);
    return game_node(g, 0);
}

/* An en passant square counts in a position's identity only when the
 * capture is a legal action: in Gifford not while an arrival due now must
 * be placed (docs/rules/gifford.md, repetition). */
static void test_keys_gifford_ep_while_arrival_due(void **state)
{
    (void)state;
    Game with, without;
    /* White must place the pawn arriving at move 5: e5xd6 is no action. */
    const Node *a = gifford_root(&with, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 5 P5/- 0/0");
    const Node *b = gifford_root(&without, "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 5 P5/- 0/0");
    assert_true(a->key == b->key);
    assert_true(with.variant->same_position(a->state, b->state));
    game_free(&with);
    game_free(&without);
    /* Nothing due: the capture is legal, and the square counts. */
    a = gifford_root(&with, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 5 -/- 0/0");
    b = gifford_root(&without, "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 5 -/- 0/0");
    assert_true(a->key != b->key);
    assert_false(with.variant->same_position(a->state, b->state));
    game_free(&with);
    game_free(&without);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_board_functions),
        cmocka_unit_test(test_keys_random_chess),
        cmocka_unit_test(test_keys_random_gifford),
        cmocka_unit_test(test_keys_random_vangog),
        cmocka_unit_test(test_keys_transpositions),
        cmocka_unit_test(test_keys_differences),
        cmocka_unit_test(test_keys_gifford_ep_while_arrival_due),
        cmocka_unit_test(test_tags_special_moves),
        cmocka_unit_test(test_tags_random_games),
    };
    return cmocka_run_group_tests_name("keys", tests, NULL, NULL);
}
