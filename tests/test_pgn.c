/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of src/record/pgn.c: reading and writing game files.  The central
 * check is the round trip: a game written by pgn_write and read by
 * pgn_read is the same game, node for node (action, parent, timeline),
 * ending in the same position with the same outcome.  Timelines are
 * tested with a toy time-travel variant defined here, so that these tests
 * depend on no particular variant's rules.  Score sheets of a game that
 * starts from a FEN are checked here too (standard chess); the Gifford
 * files are tested in test_gifford.c.
 */
#include <ctype.h>

#include "support.h"
#include "pgn.h"
#include "sheets.h"

/* ------------------------------------------------------------------ */
/* A toy time-travel variant                                           */
/* ------------------------------------------------------------------ */

/* Chess plus one action, "back": the side to move returns the game to the
 * position before the opponent's last action, so that the opponent moves
 * again from there, in a new timeline.  It is allowed only where the
 * present position follows its parent by an ordinary action (so sides
 * keep alternating).  The action borrows a shared kind no chess move
 * uses. */

static Move toy_back_move(void) { return move_make(SQ_NONE, SQ_NONE, MOVE_DEPART_PAST, NO_TYPE, 1); }

static bool toy_is_back(Move m) { return m.kind == MOVE_DEPART_PAST; }

static bool toy_back_allowed(const Line *l)
{
    int parent = line_node(l, line_current(l))->parent;
    return parent >= 0 && line_node(l, parent)->state->board.side != line_board(l)->side;
}

static bool toy_generate(const Line *l, MoveList *out)
{
    if (!gen_legal(line_board(l), out)) return false;
    if (toy_back_allowed(l)) movelist_add(out, toy_back_move());
    return !out->failed;
}

static int toy_apply(const Line *l, Move m, State *next)
{
    if (toy_is_back(m)) {
        int parent = line_node(l, line_current(l))->parent;
        next->board = line_node(l, parent)->state->board;
        return parent;
    }
    next->board = *line_board(l);
    board_make(&next->board, m);
    return line_current(l);
}

/* The toy's legal actions in a new list (freed by the caller). */
static bool toy_legal(const Line *l, MoveList *list, Text *err)
{
    movelist_init(list);
    if (line_generate(l, list)) return true;
    movelist_free(list);
    return err ? text_fail(err, "out of memory") : false;
}

static bool toy_parse(const Line *l, const char *text, Move *out, Text *err)
{
    if (!strcmp(text, "back")) {
        *out = toy_back_move();
        return toy_back_allowed(l) || text_fail(err, "there is nothing to go back to");
    }
    MoveList legal;
    if (!toy_legal(l, &legal, err)) return false;
    bool ok = chess_parse_move(line_board(l), &legal, text, out, err);
    movelist_free(&legal);
    return ok;
}

static bool toy_coord(const Line *l, Move m, Text *out)
{
    (void)l;
    if (toy_is_back(m)) text_add(out, "back");
    else move_to_coord(m, out);
    return !out->failed;
}

static bool toy_human(const Line *l, Move m, Text *out)
{
    if (toy_is_back(m)) {
        text_add(out, "back");
        return !out->failed;
    }
    MoveList legal;
    char mark;
    if (!toy_legal(l, &legal, NULL)) return false;
    bool ok = line_check_mark(l, m, &mark);
    if (ok) san_format(line_board(l), &legal, m, mark, out);
    movelist_free(&legal);
    return ok && !out->failed;
}

static const Variant TOY = {
    .name = "toy",
    .title = "Toy Time Travel",
    .start_fen = STARTPOS_FEN,
    .ext_size = 0,
    .ext_room = NULL,
    .generate = toy_generate,
    .apply = toy_apply,
    .parse = toy_parse,
    .format_coord = toy_coord,
    .format_human = toy_human,
};

/* The parts borrowed from chess are filled in at run time (a static
 * initializer cannot read another object's members).  Chess's outcome
 * asks the line's variant for the legal actions, so the toy's "back"
 * counts among them. */
static Variant toy_variant(void)
{
    Variant v = TOY;
    v.from_fen = VARIANT_CHESS.from_fen;
    v.to_fen = VARIANT_CHESS.to_fen;
    v.in_check = VARIANT_CHESS.in_check;
    v.outcome = VARIANT_CHESS.outcome;
    v.ext_key = VARIANT_CHESS.ext_key;
    v.same_position = VARIANT_CHESS.same_position;
    return v;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* The game written as PGN, in a malloc'd string. */
static char *written(const Game *g, const PgnHeader *h)
{
    Text t = TEXT_INIT;
    assert_true(pgn_write(g, h, &t));
    char *text = text_take(&t);
    assert_non_null(text);
    return text;
}

/* Reads `text`, failing the test with the reader's message on error.  `h`
 * (may be NULL) is initialised here; the caller frees it. */
static void read_ok(const char *text, const Variant *force, Game *g, PgnHeader *h)
{
    Text err = TEXT_INIT;
    if (h) pgn_header_init(h);
    if (!pgn_read(text, force, NULL, g, h, NULL, &err)) fail_msg("PGN refused: %s\n%s", text_str(&err), text);
    text_free(&err);
}

/* Reads `text` expecting failure; returns the message (static). */
static const char *read_error(const char *text, const Variant *force)
{
    static char msg[1024];
    Game g;
    PgnHeader h;
    Text err = TEXT_INIT;
    pgn_header_init(&h);
    bool accepted = pgn_read(text, force, NULL, &g, &h, NULL, &err);
    game_free(&g);
    pgn_header_free(&h);
    snprintf(msg, sizeof msg, "%s", text_str(&err));
    text_free(&err);
    if (accepted) fail_msg("PGN was accepted:\n%s", text);
    assert_true(msg[0] != 0);
    return msg;
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part)) fail_msg("\"%s\" does not contain \"%s\"", text, part);
}

/* The game's present position in its variant's FEN (malloc'd). */
static char *fen_copy(const Game *g)
{
    Text t = TEXT_INIT;
    g->variant->to_fen(&g->options, game_state(g), &t);
    char *s = text_take(&t);
    assert_non_null(s);
    return s;
}

/* The game's result line (malloc'd). */
static char *status_copy(const Game *g)
{
    Text t = TEXT_INIT;
    assert_true(game_outcome_line(g, &t));
    char *s = text_take(&t);
    assert_non_null(s);
    return s;
}

static Outcome outcome_of(const Game *g)
{
    Outcome o;
    assert_true(game_outcome(g, &o));
    return o;
}

/* The two games are the same: same variant and options, same nodes
 * (action, parent, timeline) in the same order, same present position,
 * same outcome (reason, side and recorded words included). */
static void assert_same_game(const Game *a, const Game *b)
{
    assert_ptr_equal(a->variant, b->variant);
    assert_memory_equal(&a->options, &b->options, sizeof a->options);
    assert_int_equal(game_count(a), game_count(b));
    assert_int_equal(game_current(a), game_current(b));
    assert_int_equal(game_timelines(a), game_timelines(b));
    for (int i = 0; i < game_count(a); i++) {
        const Node *na = game_node(a, i), *nb = game_node(b, i);
        if (!move_equal(na->move, nb->move)) fail_msg("node %d: the actions differ", i);
        assert_int_equal(na->parent, nb->parent);
        assert_int_equal(na->timeline, nb->timeline);
        assert_int_equal(na->timelines, nb->timelines);
    }
    char *fa = fen_copy(a), *fb = fen_copy(b);
    assert_string_equal(fa, fb);
    free(fa);
    free(fb);
    Outcome oa = outcome_of(a), ob = outcome_of(b);
    assert_int_equal(oa.result, ob.result);
    assert_int_equal(oa.reason, ob.reason);
    assert_int_equal(oa.side, ob.side);
    char *sa = status_copy(a), *sb = status_copy(b);
    assert_string_equal(sa, sb);
    free(sa);
    free(sb);
}

/* Writes the game, reads it back, and checks that nothing changed; also
 * that writing the copy gives the same text.  Returns the text. */
static char *round_trip(const Game *g, const PgnHeader *h)
{
    char *text = written(g, h);
    Game copy;
    PgnHeader h2;
    /* A variant that is not registered (the toy) must be forced. */
    const Variant *force = variant_find(g->variant->name) == g->variant ? NULL : g->variant;
    read_ok(text, force, &copy, &h2);
    assert_same_game(g, &copy);
    char *again = written(&copy, &h2);
    assert_string_equal(text, again);
    free(again);
    game_free(&copy);
    pgn_header_free(&h2);
    return text;
}

/* Every line of the text is at most 80 columns wide. */
static void assert_lines_fit(const char *text)
{
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > 80) fail_msg("a line of %zu columns: %.*s", len, (int)len, line);
        if (!end) break;
        line = end + 1;
    }
}

/* ------------------------------------------------------------------ */
/* Round trips                                                         */
/* ------------------------------------------------------------------ */

/* Morphy's Opera game: queenside castling, a mate. */
#define OPERA_GAME                                                                                   \
    "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 " \
    "O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#"

static void test_round_trip_opera_game(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "chess", NULL);
    play_all(&g, OPERA_GAME);
    assert_int_equal(outcome_of(&g).result, RESULT_WHITE_WINS);
    char *text = round_trip(&g, NULL);
    assert_contains(text, "[Result \"1-0\"]");
    assert_contains(text, "1. e4 e5 2. Nf3 d6");
    assert_contains(text, "O-O-O");
    assert_contains(text, "17. Rd8# 1-0");
    assert_lines_fit(text);
    free(text);
    game_free(&g);
}

/* A site's download: [Variant] for chess too, and a comment after each
 * action that has one (the clocks), which a reader skips. */
static void test_annotated(void **state)
{
    (void)state;
    Game g, back;
    game_start(&g, "chess", NULL);
    play_all(&g, "e4 e5 Nf3");
    const char *comments[4] = { NULL, "[%clk 0:05:00]", "", "[%clk 0:04:58]" };
    Text t = TEXT_INIT;
    assert_true(pgn_write_annotated(&g, NULL, comments, &t));
    char *text = text_take(&t);
    assert_contains(text, "[Variant \"Standard\"]");
    assert_contains(text, "1. e4 {[%clk 0:05:00]} 1... e5 2. Nf3 {[%clk 0:04:58]} *");
    read_ok(text, NULL, &back, NULL);
    assert_int_equal(game_count(&back), 4);
    game_free(&back);
    free(text);
    game_free(&g);
}

static void test_round_trip_special_moves(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "chess", NULL);
    /* En passant both ways, promotion to a knight and to a queen,
     * castling both ways. */
    play_all(&g, "e4 d5 e5 f5 exf6 Nc6 fxg7 Nf6 gxh8=N Bg4 Nf3 e6 Be2 Qd7 O-O O-O-O d3 d4 c4 dxc3 a3 cxb2 "
                 "a4 bxa1=Q");
    char *text = round_trip(&g, NULL);
    assert_contains(text, "3. exf6 Nc6 4. fxg7 Nf6 5. gxh8=N Bg4");
    assert_contains(text, "8. O-O O-O-O 9. d3 d4 10. c4 dxc3");
    assert_contains(text, "12. a4 bxa1=Q *");
    assert_contains(text, "[Result \"*\"]");
    free(text);
    game_free(&g);
}

static void test_round_trip_from_fen(void **state)
{
    (void)state;
    Game g;
    const char *fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 12";
    game_start(&g, "chess", fen);
    play_all(&g, "bxa3 O-O O-O-O bxa3");
    char *text = round_trip(&g, NULL);
    assert_contains(text, "[SetUp \"1\"]\n[FEN \"");
    assert_contains(text, fen);
    assert_contains(text, "12... bxa3 13. O-O O-O-O 14. bxa3 *");
    free(text);
    game_free(&g);

    /* No [FEN] for the start position, even when given as a FEN. */
    game_start(&g, "chess", STARTPOS_FEN);
    text = written(&g, NULL);
    assert_null(strstr(text, "FEN"));
    assert_null(strstr(text, "SetUp"));
    free(text);
    game_free(&g);
}

/* A game that starts from a FEN goes through score sheets as well: the
 * sheets carry the position in a [FEN] line and read back to the same
 * record, Black's first move included. */
static void test_fen_start_round_trip_pgn_and_sheets(void **state)
{
    (void)state;
    const char *fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 12";
    Game g;
    game_start(&g, "chess", fen);
    play_all(&g, "bxa3 O-O O-O-O bxa3 Kb8 Qxh3");
    char *text = round_trip(&g, NULL);
    free(text);

    Text sheets = TEXT_INIT;
    assert_true(sheets_write(&g, &sheets));
    const char *s = text_str(&sheets);
    assert_true(sheets_detect(s));
    char want[256];
    snprintf(want, sizeof want, "[FEN \"%s\"]\n[Timeline 1]\n12. ...  |  bxa3\n", fen);
    if (strncmp(s, want, strlen(want))) fail_msg("the sheets begin\n%s\nnot\n%s", s, want);
    Game back;
    Text err = TEXT_INIT;
    if (!sheets_read(s, NULL, NULL, &back, &err)) fail_msg("%s\n%s", text_str(&err), s);
    assert_same_game(&g, &back);
    /* Written again, the copy gives the same sheets. */
    Text again = TEXT_INIT;
    assert_true(sheets_write(&back, &again));
    assert_string_equal(s, text_str(&again));
    text_free(&again);
    text_free(&err);
    text_free(&sheets);
    game_free(&back);
    game_free(&g);
}

/* A deterministic pseudo-random sequence (a linear congruential one). */
static uint32_t next_random(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(*seed >> 33);
}

/* Plays random legal actions until the game ends or `plies` are played. */
static void play_random(Game *g, int plies, uint64_t *seed)
{
    MoveList legal;
    movelist_init(&legal);
    for (int i = 0; i < plies && outcome_of(g).result == RESULT_NONE; i++) {
        assert_true(game_generate(g, &legal));
        if (legal.count == 0) break;
        assert_true(game_push(g, legal.moves[next_random(seed) % (uint32_t)legal.count]));
    }
    movelist_free(&legal);
}

static void test_round_trip_random_games(void **state)
{
    (void)state;
    const char *starts[] = { NULL, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                             "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                             "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                             "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8" };
    uint64_t seed = 20260101;
    int ended = 0;
    for (int round = 0; round < 8; round++) {
        for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
            Game g;
            game_start(&g, "chess", starts[i]);
            play_random(&g, 300, &seed);
            ended += outcome_of(&g).result != RESULT_NONE;
            char *text = round_trip(&g, NULL);
            assert_lines_fit(text);
            free(text);
            game_free(&g);
        }
    }
    assert_true(ended > 0);
}

/* ------------------------------------------------------------------ */
/* Timelines                                                           */
/* ------------------------------------------------------------------ */

static void toy_start(Game *g, const Variant *toy)
{
    Text err = TEXT_INIT;
    if (!game_init(g, toy, NULL, NULL, &err)) fail_msg("toy: %s", text_str(&err));
    text_free(&err);
}

static void test_round_trip_timelines(void **state)
{
    (void)state;
    Variant toy = toy_variant();
    Game g;
    toy_start(&g, &toy);
    play_all(&g, "e4 e5 Nf3 back Bc4 Nc6 Nc3 Nf6 back d6 Nf3 Nf6 Ng5 back h3");
    assert_int_equal(game_timelines(&g), 4);
    char *text = round_trip(&g, NULL);
    assert_contains(text, "[Variant \"Toy Time Travel\"]");
    /* The travel back is written where it was played, then the comment;
     * the move numbers go down after it, and Black's number is repeated
     * after the comment. */
    assert_contains(text, "1. e4 e5 2. Nf3 back {Timeline 2} 2. Bc4 Nc6 3. Nc3 Nf6 4. back {Timeline 3}\n"
                          "3... d6 4. Nf3 Nf6 5. Ng5 back {Timeline 4} 5. h3 *\n");
    free(text);

    /* Random play with the toy's travel in it. */
    uint64_t seed = 7;
    int branched = 0;
    for (int round = 0; round < 10; round++) {
        Game r;
        toy_start(&r, &toy);
        play_random(&r, 120, &seed);
        branched += game_timelines(&r) > 1;
        text = round_trip(&r, NULL);
        assert_lines_fit(text);
        free(text);
        game_free(&r);
    }
    assert_true(branched > 0);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* Tags                                                                */
/* ------------------------------------------------------------------ */

static void test_tags_kept(void **state)
{
    (void)state;
    PgnHeader h;
    pgn_header_init(&h);
    assert_true(pgn_set_tag(&h, "White", "Anderssen, \"the\" Adolf"));
    assert_true(pgn_set_tag(&h, "Event", "Back\\slash Open"));
    assert_true(pgn_set_tag(&h, "Annotator", "nobody"));
    assert_true(pgn_set_tag(&h, "Result", "0-1")); /* recomputed from the game */
    assert_true(pgn_set_tag(&h, "Annotator", "someone"));
    assert_int_equal(h.count, 4);
    assert_string_equal(pgn_tag(&h, "Annotator"), "someone");
    assert_null(pgn_tag(&h, "Black"));

    Game g;
    game_start(&g, "chess", NULL);
    play_all(&g, "d4 d5");
    char *text = round_trip(&g, &h);
    assert_contains(text, "[Event \"Back\\\\slash Open\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                          "[White \"Anderssen, \\\"the\\\" Adolf\"]\n[Black \"?\"]\n[Result \"*\"]\n"
                          "[Annotator \"someone\"]\n\n1. d4 d5 *\n");
    assert_null(strstr(text, "Variant"));

    Game back;
    PgnHeader h2;
    read_ok(text, NULL, &back, &h2);
    assert_string_equal(pgn_tag(&h2, "White"), "Anderssen, \"the\" Adolf");
    assert_string_equal(pgn_tag(&h2, "Event"), "Back\\slash Open");
    assert_string_equal(pgn_tag(&h2, "Annotator"), "someone");
    assert_string_equal(pgn_tag(&h2, "Date"), "????.??.??");
    free(text);
    game_free(&back);
    pgn_header_free(&h2);
    game_free(&g);
    pgn_header_free(&h);

    /* Tags in any order, several on a line, spaces inside the brackets. */
    read_ok("[Black \"B\"] [ White   \"W\" ]\n[Event \"\"]\n\n1. e4 *", NULL, &back, &h2);
    assert_int_equal(h2.count, 3);
    assert_string_equal(pgn_tag(&h2, "White"), "W");
    assert_string_equal(pgn_tag(&h2, "Event"), "");
    game_free(&back);
    pgn_header_free(&h2);
}

static void test_variant_by_name_or_title(void **state)
{
    (void)state;
    Text all = TEXT_INIT;
    variant_names(&all);
    char *names = text_take(&all);
    assert_non_null(names);
    int seen = 0;
    char *save = NULL;
    for (char *name = strtok_r(names, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
        const Variant *v = variant_find(name);
        assert_non_null(v);
        char label[128], text[512];
        for (int form = 0; form < 3; form++) {
            snprintf(label, sizeof label, "%s", form == 0 ? v->name : v->title);
            if (form == 2)
                for (char *c = label; *c; c++) *c = (char)(islower((unsigned char)*c) ? toupper(*c) : tolower(*c));
            /* A title that is another variant's name but for case
             * ("Chessgi", "chessgi") is that one's in any other case. */
            const Variant *other = variant_find(v->title);
            if (form == 2 && !other) {
                char lower[128];
                snprintf(lower, sizeof lower, "%s", v->title);
                for (char *c = lower; *c; c++) *c = (char)tolower((unsigned char)*c);
                other = variant_find(lower);
            }
            if (form == 2 && other && other != v) continue;
            /* A title several modes share needs the mode beside it. */
            if (v->mode && form > 0)
                snprintf(text, sizeof text, "[Variant \"%s\"]\n[VariantMode \"%s\"]\n\n*", label, v->mode);
            else
                snprintf(text, sizeof text, "[Variant \"%s\"]\n\n*", label);
            Game g;
            read_ok(text, NULL, &g, NULL);
            assert_ptr_equal(g.variant, v);
            game_free(&g);
        }
        seen++;
    }
    free(names);
    assert_true(seen >= 2);

    Game g;
    read_ok("[Event \"x\"]\n1. e4 *", NULL, &g, NULL);
    assert_ptr_equal(g.variant, &VARIANT_CHESS);
    game_free(&g);
    /* `force` wins over the tag, even an unknown one. */
    read_ok("[Variant \"No Such Game\"]\n1. e4 *", &VARIANT_CHESS, &g, NULL);
    assert_ptr_equal(g.variant, &VARIANT_CHESS);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* What import skips                                                   */
/* ------------------------------------------------------------------ */

static void test_comments_nags_variations_skipped(void **state)
{
    (void)state;
    const char *text =
        "% an escape line, ignored\n"
        "[Event \"skips\"]\n"
        "\n"
        "{A comment before the first move (with a parenthesis} 1. e4 $1 e5 ; a comment to the end of the line 2. Nf4\n"
        "2.Nf3 !? (2. Nc3 Nf6 (2... Nc6 {nested; ) comment} 3. f4 (3. Bc4) exf4) 3. f4) 2...Nc6\n"
        "3. Bb5 {Ruy\nLopez} a6 $14 4. Ba4 ( ) 4... Nf6 5. O-O 1/2-1/2\n";
    Game g, expected;
    PgnHeader h;
    read_ok(text, NULL, &g, &h);
    game_start(&expected, "chess", NULL);
    play_all(&expected, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O");
    assert_true(game_declare(&expected, outcome_make(RESULT_DRAW, REASON_RECORDED, SIDE_NONE), NULL));
    assert_same_game(&g, &expected);
    assert_string_equal(pgn_tag(&h, "Event"), "skips");
    game_free(&g);
    game_free(&expected);
    pgn_header_free(&h);
}

/* Nesting far deeper than any stack could recurse is skipped all the
 * same. */
static void test_deep_variations(void **state)
{
    (void)state;
    size_t depth = 200000;
    char *text = malloc(2 * depth + 64);
    assert_non_null(text);
    strcpy(text, "1. e4 ");
    size_t n = strlen(text);
    for (size_t i = 0; i < depth; i++) text[n++] = '(';
    for (size_t i = 0; i < depth; i++) text[n++] = ')';
    strcpy(text + n, " e5 *");
    Game g;
    read_ok(text, NULL, &g, NULL);
    assert_int_equal(game_count(&g), 3);
    game_free(&g);
    text[n] = 0;
    text[n - 1] = ' ';
    assert_contains(read_error(text, NULL), "unterminated variation");
    free(text);
}

static void test_several_games(void **state)
{
    (void)state;
    const char *text = "[Event \"one\"]\n\n1. e4 e5 1-0\n\n[Event \"two\"]\n\n1. d4 *\n\n"
                       "[Event \"three\"]\n1. c4\n[Event \"four\"]\n1. Nf3 0-1\n";
    const char *p = text;
    const char *events[] = { "one", "two", "three", "four" };
    int plies[] = { 2, 1, 1, 1 };
    for (int i = 0; i < 4; i++) {
        Game g;
        PgnHeader h;
        Text err = TEXT_INIT;
        pgn_header_init(&h);
        if (!pgn_read(p, NULL, NULL, &g, &h, &p, &err)) fail_msg("game %d: %s", i + 1, text_str(&err));
        assert_string_equal(pgn_tag(&h, "Event"), events[i]);
        assert_int_equal(game_count(&g) - 1, plies[i]);
        game_free(&g);
        pgn_header_free(&h);
        text_free(&err);
    }
    while (*p == '\n') p++;
    assert_int_equal(*p, 0);
    assert_contains(read_error(p, NULL), "no game found");
}

/* ------------------------------------------------------------------ */
/* Results                                                             */
/* ------------------------------------------------------------------ */

static void test_declared_results(void **state)
{
    (void)state;
    Game g;
    PgnHeader h;
    read_ok("[Result \"1-0\"]\n[Termination \"black resigns\"]\n\n1. e4 e5 2. Qh5 1-0", NULL, &g, &h);
    Outcome o = outcome_of(&g);
    assert_int_equal(o.result, RESULT_WHITE_WINS);
    /* The words the program writes for a resignation are read as its code. */
    assert_int_equal(o.reason, REASON_RESIGNATION);
    assert_int_equal(o.side, SIDE_BLACK);
    assert_string_equal(game_status(&g), "1-0 black resigns");
    assert_int_equal(g.declared.result, RESULT_WHITE_WINS);
    char *text = round_trip(&g, &h);
    assert_contains(text, "[Result \"1-0\"]");
    assert_contains(text, "[Termination \"black resigns\"]");
    assert_contains(text, "2. Qh5 1-0");
    free(text);
    game_free(&g);
    pgn_header_free(&h);

    /* Without [Termination], a reason that says where the result is from. */
    read_ok("1. d4 d5 1/2-1/2", NULL, &g, NULL);
    o = outcome_of(&g);
    assert_int_equal(o.result, RESULT_DRAW);
    assert_int_equal(o.reason, REASON_RECORDED);
    assert_string_equal(game_status(&g), "1/2-1/2 result recorded in the game file");
    game_free(&g);

    /* A result given in the tag alone counts the same. */
    read_ok("[Result \"0-1\"]\n1. d4 d5", NULL, &g, NULL);
    assert_int_equal(outcome_of(&g).result, RESULT_BLACK_WINS);
    game_free(&g);
    read_ok("[Result \"0-1\"]\n1. d4 d5 *", NULL, &g, NULL);
    assert_int_equal(outcome_of(&g).result, RESULT_BLACK_WINS);
    game_free(&g);

    /* A result the rules reach is the rules' own, with their reason. */
    read_ok("[Termination \"normal\"]\n1. f3 e5 2. g4 Qh4# 0-1", NULL, &g, NULL);
    o = outcome_of(&g);
    assert_int_equal(o.result, RESULT_BLACK_WINS);
    assert_int_equal(o.reason, REASON_CHECKMATE);
    assert_string_equal(game_status(&g), "0-1 checkmate");
    assert_int_equal(g.declared.result, RESULT_NONE);
    game_free(&g);

    /* A declared game that checks on its last move: the writer must not
     * take the check for mate, nor lose the declared end. */
    game_start(&g, "chess", NULL);
    play_all(&g, "e4 f5 Qh5+");
    assert_true(game_declare(&g, outcome_make(RESULT_WHITE_WINS, REASON_RESIGNATION, SIDE_BLACK), NULL));
    text = round_trip(&g, NULL);
    assert_contains(text, "2. Qh5+ 1-0");
    assert_int_equal(g.declared.result, RESULT_WHITE_WINS);
    free(text);
    game_free(&g);
}

/* Resignations of either side and agreed draws go through a file as their
 * reason codes, with the side that resigned. */
static void test_resigned_and_agreed_round_trip(void **state)
{
    (void)state;
    static const struct {
        uint8_t result, reason, side;
        const char *termination, *status;
    } cases[] = {
        { RESULT_WHITE_WINS, REASON_RESIGNATION, SIDE_BLACK, "black resigns", "1-0 black resigns" },
        { RESULT_BLACK_WINS, REASON_RESIGNATION, SIDE_WHITE, "white resigns", "0-1 white resigns" },
        { RESULT_DRAW, REASON_AGREED_DRAW, SIDE_NONE, "agreed draw", "1/2-1/2 agreed draw" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game g;
        game_start(&g, "chess", NULL);
        play_all(&g, "e4 c5 Nf3 d6");
        assert_true(game_declare(&g, outcome_make(cases[i].result, cases[i].reason, cases[i].side), NULL));
        assert_string_equal(game_status(&g), cases[i].status);
        char *text = round_trip(&g, NULL);
        char tag[128];
        snprintf(tag, sizeof tag, "[Termination \"%s\"]", cases[i].termination);
        assert_contains(text, tag);
        assert_contains(text, result_string(cases[i].result));

        Game back;
        read_ok(text, NULL, &back, NULL);
        Outcome o = outcome_of(&back);
        assert_int_equal(o.result, cases[i].result);
        assert_int_equal(o.reason, cases[i].reason);
        assert_int_equal(o.side, cases[i].side);
        assert_null(back.declared_words);
        free(text);
        game_free(&back);
        game_free(&g);
    }
}

/* Only the words the program writes for a declared end (a resignation, an
 * agreed draw) are read back as reason codes, and only where they fit the
 * result: other words, and words that contradict the result, are the
 * file's own (REASON_RECORDED, kept whole) or refused.  Never a declared
 * "checkmate" the rules do not see, nor "1-0 agreed draw". */
static void test_termination_words_fit_the_result(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        { "1/2-1/2", "checkmate" },     { "1-0", "stalemate" },     { "0-1", "fifty-move rule" },
        { "1-0", "agreed draw" },       { "1-0", "white resigns" }, { "0-1", "black resigns" },
        { "1/2-1/2", "white resigns" }, { "1-0", "white king lost in time" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "[Result \"%s\"]\n[Termination \"%s\"]\n\n1. e4 e5 %s\n", cases[i][0], cases[i][1],
                 cases[i][0]);
        Game g;
        Text err = TEXT_INIT;
        bool ok = pgn_read(text, NULL, NULL, &g, NULL, NULL, &err);
        Outcome o = outcome_none();
        if (ok) assert_true(game_outcome(&g, &o));
        game_free(&g);
        text_free(&err);
        if (ok && o.reason != REASON_RECORDED)
            fail_msg("[Result \"%s\"] [Termination \"%s\"] read as reason code %d (side %d) of a game the rules "
                     "have not ended",
                     cases[i][0], cases[i][1], o.reason, o.side);
    }
}

/* [Termination] words of the file's own are kept whole, however long. */
static void test_long_termination_round_trip(void **state)
{
    (void)state;
    Text words = TEXT_INIT;
    for (int i = 0; text_str(&words)[0] == 0 || words.len < 320; i++)
        text_addf(&words, "%sthe arbiter stopped the clock (%d)", i ? ", and " : "", i);
    assert_true(words.len >= 300);

    Game g;
    game_start(&g, "chess", NULL);
    play_all(&g, "d4 Nf6 c4 e6");
    assert_true(game_declare(&g, outcome_make(RESULT_BLACK_WINS, REASON_RECORDED, SIDE_NONE), text_str(&words)));
    char *text = round_trip(&g, NULL);
    Text tag = TEXT_INIT;
    text_addf(&tag, "[Termination \"%s\"]\n", text_str(&words));
    assert_contains(text, text_str(&tag));

    Game back;
    PgnHeader h;
    read_ok(text, NULL, &back, &h);
    assert_string_equal(pgn_tag(&h, "Termination"), text_str(&words));
    Outcome o = outcome_of(&back);
    assert_int_equal(o.result, RESULT_BLACK_WINS);
    assert_int_equal(o.reason, REASON_RECORDED);
    assert_non_null(back.declared_words);
    assert_string_equal(back.declared_words, text_str(&words));
    Text line = TEXT_INIT;
    text_addf(&line, "0-1 %s", text_str(&words));
    Text full = TEXT_INIT;
    assert_true(game_outcome_line(&back, &full));
    assert_string_equal(text_str(&full), text_str(&line));
    text_free(&full);
    text_free(&line);
    free(text);
    text_free(&tag);
    text_free(&words);
    game_free(&back);
    pgn_header_free(&h);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

static void test_error_bad_tags(void **state)
{
    (void)state;
    assert_string_equal(read_error("[Event \"x\"\n1. e4 *", NULL), "line 1: bad tag: expected ']' after the value");
    assert_string_equal(read_error("[Site \"x\"]\n[Event \"x]\n1. e4 *", NULL),
                        "line 2: bad tag: the value has no closing double quote");
    assert_contains(read_error("[Event x]\n1. e4 *", NULL), "expected a value in double quotes");
    assert_contains(read_error("[Event]\n1. e4 *", NULL), "expected a value in double quotes");
    assert_contains(read_error("[ \"x\"]\n1. e4 *", NULL), "expected a tag name");
    assert_contains(read_error("[Event \"x\"", NULL), "bad tag");

    /* Tags have no length limits now: a long name and a long value are
     * kept whole (the values were cut at 255 characters before). */
    char long_name[80];
    memset(long_name, 'A', 60);
    long_name[60] = 0;
    char value[400];
    memset(value, 'v', 300);
    value[300] = 0;
    char big[512];
    Game g;
    PgnHeader h;
    snprintf(big, sizeof big, "[%s \"x\"]\n[Annotator \"%s\"]\n*", long_name, value);
    read_ok(big, NULL, &g, &h);
    assert_string_equal(pgn_tag(&h, long_name), "x");
    assert_int_equal(strlen(pgn_tag(&h, "Annotator")), 300);
    assert_string_equal(pgn_tag(&h, "Annotator"), value);
    game_free(&g);
    pgn_header_free(&h);
    /* A long position is read whole too, and refused for what it says. */
    snprintf(big, sizeof big, "[FEN \"%s\"]\n*", value);
    const char *err = read_error(big, NULL);
    assert_contains(err, "bad [FEN] \"");
    assert_contains(err, value);
}

static void test_error_illegal_move(void **state)
{
    (void)state;
    Game g;
    PgnHeader h;
    Text err = TEXT_INIT;
    pgn_header_init(&h);
    const char *text = "[Event \"e\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 {c} a6 4. Nf6 Nf6 *";
    assert_false(pgn_read(text, NULL, NULL, &g, &h, NULL, &err));
    assert_string_equal(text_str(&err), "move 7 (Nf6): no knight can reach f6");
    /* The game holds what was read before the error. */
    assert_int_equal(game_count(&g), 7);
    assert_string_equal(pgn_tag(&h, "Event"), "e");
    game_free(&g);
    pgn_header_free(&h);
    text_free(&err);

    assert_string_equal(read_error("1. e4 e5 2. Ke3", NULL), "move 3 (Ke3): no king can reach e3");
    assert_contains(read_error("1. e4 e5 2. hello", NULL), "move 3 (hello): 'hello' is not a move");
    assert_string_equal(read_error("1. f3 e5 2. g4 Qh4# 3. Nf3", NULL),
                        "move 5 (Nf3): the game is over (0-1 checkmate)");
    char longer[300];
    memset(longer, 'x', 200);
    longer[200] = 0;
    assert_contains(read_error(longer, NULL), "too long");
}

static void test_error_unknown_variant(void **state)
{
    (void)state;
    assert_string_equal(read_error("[Variant \"Shatranj\"]\n1. e4 *", NULL), "unknown variant 'Shatranj'");
}

static void test_error_bad_fen(void **state)
{
    (void)state;
    assert_contains(read_error("[SetUp \"1\"]\n[FEN \"nonsense\"]\n1. e4 *", NULL), "bad [FEN] \"nonsense\"");
}

static void test_error_unterminated(void **state)
{
    (void)state;
    assert_string_equal(read_error("1. e4 e5\n2. Nf3 {a comment\n that never ends", NULL),
                        "line 2: unterminated comment: the '{' is never closed");
    assert_string_equal(read_error("1. e4\n\ne5 (1... c5 (1... e6 2. d4) *", NULL),
                        "line 3: unterminated variation: the '(' is never closed");
    assert_contains(read_error("1. e4 (1. d4 {never closed) *", NULL), "unterminated comment");
    assert_string_equal(read_error("1. e4 e5 ) *", NULL), "line 1: ')' without a matching '('");
    assert_string_equal(read_error("1. e4 e5 } *", NULL), "line 1: '}' without a matching '{'");
}

static void test_error_contradicting_result(void **state)
{
    (void)state;
    assert_string_equal(read_error("1. f3 e5 2. g4 Qh4# 1-0", NULL),
                        "the result 1-0 contradicts the end of the game by the rules (0-1 checkmate)");
    assert_contains(read_error("1. f3 e5 2. g4 Qh4# 1/2-1/2", NULL), "contradicts");
    assert_contains(read_error("[Result \"1-0\"]\n1. f3 e5 2. g4 Qh4#", NULL), "contradicts");
    assert_string_equal(read_error("[Result \"1-0\"]\n1. e4 0-1", NULL),
                        "the movetext ends with 0-1 but the [Result] tag says 1-0");
    /* An unfinished mark ("*") after a mate is no contradiction. */
    Game g;
    read_ok("1. f3 e5 2. g4 Qh4# *", NULL, &g, NULL);
    assert_int_equal(outcome_of(&g).result, RESULT_BLACK_WINS);
    game_free(&g);
}

static void test_error_empty(void **state)
{
    (void)state;
    assert_contains(read_error("", NULL), "no game found");
    assert_contains(read_error("  \n {just a comment} \n", NULL), "no game found");
}

/* Every prefix of a valid file, and the file with each byte replaced,
 * reads without crashing (the sanitizer build checks the memory). */
static void test_no_crash_on_damaged_text(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "chess", NULL);
    play_all(&g, OPERA_GAME);
    PgnHeader h;
    pgn_header_init(&h);
    assert_true(pgn_set_tag(&h, "Event", "Paris \"opera\""));
    char *text = written(&g, &h);
    pgn_header_free(&h);
    game_free(&g);
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    assert_non_null(copy);
    const char replacements[] = "[]{}()\";%$.0 x\\";
    for (size_t cut = 0; cut <= len; cut++) {
        memcpy(copy, text, cut);
        copy[cut] = 0;
        Game r;
        Text err = TEXT_INIT;
        const char *next = NULL;
        pgn_read(copy, NULL, NULL, &r, NULL, &next, &err);
        assert_true(next >= copy && next <= copy + cut);
        game_free(&r);
        text_free(&err);
    }
    for (size_t at = 0; at < len; at += 3) {
        for (size_t k = 0; k < sizeof replacements - 1; k++) {
            memcpy(copy, text, len + 1);
            copy[at] = replacements[k];
            Game r;
            PgnHeader rh;
            Text err = TEXT_INIT;
            pgn_header_init(&rh);
            pgn_read(copy, NULL, NULL, &r, &rh, NULL, &err);
            game_free(&r);
            pgn_header_free(&rh);
            text_free(&err);
        }
    }
    free(copy);
    free(text);
}

/* ------------------------------------------------------------------ */
/* Records as other programs write them                                */
/* ------------------------------------------------------------------ */

/* Comments (clocks and evaluations among them), ';' comments and NAGs are
 * kept by pgn_read_notes after the node they follow, and written back by
 * pgn_write_notes once each, beside the writer's own comments. */
static void test_notes_kept(void **state)
{
    (void)state;
    const char *text = "{start} 1. e4 {[%clk 0:05:00]} $1 e5 {[%clk 0:04:58] [%eval 0.3]} 2. Nf3 ; line\nNc6 $2 (2... d6) *\n";
    Game g;
    PgnHeader h;
    PgnNotes notes;
    Text err = TEXT_INIT, out = TEXT_INIT, again = TEXT_INIT;
    pgn_header_init(&h);
    pgn_notes_init(&notes);
    if (!pgn_read_notes(text, NULL, NULL, &g, &h, &notes, NULL, &err)) fail_msg("refused: %s", text_str(&err));
    static const struct {
        int node;
        const char *token;
    } want[] = { { 0, "{start}" }, { 1, "{[%clk 0:05:00]}" }, { 1, "$1" },
                 { 2, "{[%clk 0:04:58] [%eval 0.3]}" }, { 3, "{ line}" }, { 4, "$2" } };
    assert_int_equal(notes.count, sizeof want / sizeof want[0]);
    for (int i = 0; i < notes.count; i++) {
        assert_int_equal(notes.notes[i].node, want[i].node);
        assert_string_equal(notes.notes[i].token, want[i].token);
    }
    assert_true(pgn_write_notes(&g, &h, &notes, &out));
    assert_contains(text_str(&out), "{start} 1. e4 {[%clk 0:05:00]} $1 e5 {[%clk 0:04:58] [%eval 0.3]} 2. Nf3 { line}\n2... Nc6 $2 *\n");
    /* Read back and written again: the same text. */
    Game back;
    PgnHeader hb;
    PgnNotes nb;
    pgn_header_init(&hb);
    pgn_notes_init(&nb);
    assert_true(pgn_read_notes(text_str(&out), NULL, NULL, &back, &hb, &nb, NULL, &err));
    assert_true(pgn_write_notes(&back, &hb, &nb, &again));
    assert_string_equal(text_str(&out), text_str(&again));
    game_free(&g);
    game_free(&back);
    pgn_header_free(&h);
    pgn_header_free(&hb);
    pgn_notes_free(&notes);
    pgn_notes_free(&nb);
    text_free(&err);
    text_free(&out);
    text_free(&again);
}

/* A van Gog draw agreed with White's obligation open is judged by the
 * game's rules, as 'end --how draw' judges it in play. */
static void test_vangog_agreed_draw_judged(void **state)
{
    (void)state;
    Game g;
    read_ok("[Variant \"Time Travel Chess (van Gog)\"]\n[Result \"1/2-1/2\"]\n[Termination \"agreed draw\"]\n\n"
            "1. Qd1-d4* e5 2. e4 Nf6 1/2-1/2\n",
            NULL, &g, NULL);
    char *line = status_copy(&g);
    assert_string_equal(line, "0-1 white obligations unmet");
    free(line);
    game_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_opera_game),
        cmocka_unit_test(test_annotated),
        cmocka_unit_test(test_round_trip_special_moves),
        cmocka_unit_test(test_round_trip_from_fen),
        cmocka_unit_test(test_fen_start_round_trip_pgn_and_sheets),
        cmocka_unit_test(test_round_trip_random_games),
        cmocka_unit_test(test_round_trip_timelines),
        cmocka_unit_test(test_tags_kept),
        cmocka_unit_test(test_variant_by_name_or_title),
        cmocka_unit_test(test_comments_nags_variations_skipped),
        cmocka_unit_test(test_deep_variations),
        cmocka_unit_test(test_several_games),
        cmocka_unit_test(test_declared_results),
        cmocka_unit_test(test_resigned_and_agreed_round_trip),
        cmocka_unit_test(test_long_termination_round_trip),
        cmocka_unit_test(test_termination_words_fit_the_result),
        cmocka_unit_test(test_error_bad_tags),
        cmocka_unit_test(test_error_illegal_move),
        cmocka_unit_test(test_error_unknown_variant),
        cmocka_unit_test(test_error_bad_fen),
        cmocka_unit_test(test_error_unterminated),
        cmocka_unit_test(test_error_contradicting_result),
        cmocka_unit_test(test_error_empty),
        cmocka_unit_test(test_no_crash_on_damaged_text),
        cmocka_unit_test(test_notes_kept),
        cmocka_unit_test(test_vangog_agreed_draw_judged),
    };
    return cmocka_run_group_tests_name("pgn", tests, NULL, NULL);
}
