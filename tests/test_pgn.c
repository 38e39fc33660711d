/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of src/pgn.c: reading and writing game files.  The central check
 * is the round trip: a game written by pgn_write and read by pgn_read is
 * the same game, node for node (action, parent, timeline), ending in the
 * same position with the same outcome.  Timelines are tested with a toy
 * time-travel variant defined here, so that these tests depend on no
 * particular variant's rules.
 */
#include <ctype.h>

#include "support.h"
#include "ttchess/pgn.h"

/* ------------------------------------------------------------------ */
/* A toy time-travel variant                                           */
/* ------------------------------------------------------------------ */

/* Chess plus one action, "back": the side to move returns the game to the
 * position before the opponent's last action, so that the opponent moves
 * again from there, in a new timeline.  It is allowed only where the
 * present position follows its parent by an ordinary action (so sides
 * keep alternating). */

static Move toy_back_move(void) { return move_make(SQ_NONE, SQ_NONE, MOVE_VARIANT, 0, 1); }

static bool toy_back_allowed(const Game *g)
{
    int parent = g->nodes[g->current].parent;
    return parent >= 0 && g->nodes[parent].state.board.side != game_board(g)->side;
}

static void toy_generate(const Game *g, MoveList *out)
{
    gen_legal(game_board(g), out);
    if (toy_back_allowed(g)) movelist_add(out, toy_back_move());
}

static int toy_apply(const Game *g, Move m, State *next)
{
    if (m.kind == MOVE_VARIANT) {
        int parent = g->nodes[g->current].parent;
        next->board = g->nodes[parent].state.board;
        return parent;
    }
    next->board = *game_board(g);
    board_make(&next->board, m);
    return g->current;
}

static bool toy_parse(Game *g, const char *text, Move *out, char *err, size_t errlen)
{
    MoveList *legal = malloc(sizeof *legal);
    assert_non_null(legal);
    legal->count = 0;
    toy_generate(g, legal);
    bool ok;
    if (!strcmp(text, "back")) {
        ok = toy_back_allowed(g);
        *out = toy_back_move();
        if (!ok) snprintf(err, errlen, "there is nothing to go back to");
    } else {
        ok = chess_parse_move(game_board(g), legal, text, out, err, errlen);
    }
    free(legal);
    return ok;
}

static void toy_human(Game *g, Move m, char *buf, size_t len)
{
    if (m.kind == MOVE_VARIANT) {
        snprintf(buf, len, "back");
        return;
    }
    MoveList *legal = malloc(sizeof *legal);
    assert_non_null(legal);
    legal->count = 0;
    toy_generate(g, legal);
    san_format(game_board(g), legal, m, game_check_suffix(g, m), buf, len);
    free(legal);
}

static const Variant TOY = {
    .name = "toy",
    .title = "Toy Time Travel",
    .start_fen = STARTPOS_FEN,
    .ext_size = 0,
    .generate = toy_generate,
    .apply = toy_apply,
    .parse_move = toy_parse,
    .format_human = toy_human,
};

/* The parts borrowed from chess are filled in at run time (a static
 * initializer cannot read another object's members). */
static Variant toy_variant(void)
{
    Variant v = TOY;
    v.from_fen = VARIANT_CHESS.from_fen;
    v.to_fen = VARIANT_CHESS.to_fen;
    v.outcome = VARIANT_CHESS.outcome;
    v.same_position = VARIANT_CHESS.same_position;
    v.format_coord = VARIANT_CHESS.format_coord;
    return v;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* The game written as PGN, in a malloc'd string. */
static char *written(Game *g, const PgnHeader *h)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    pgn_write(g, h, out);
    fclose(out);
    assert_non_null(text);
    return text;
}

/* Reads `text`, failing the test with the reader's message on error. */
static void read_ok(const char *text, const Variant *force, Game *g, PgnHeader *h)
{
    char err[256] = "";
    if (!pgn_read(text, force, g, h, NULL, err, sizeof err)) fail_msg("PGN refused: %s\n%s", err, text);
}

/* Reads `text` expecting failure; returns the message (static). */
static const char *read_error(const char *text, const Variant *force)
{
    static char err[256];
    Game g;
    PgnHeader h;
    err[0] = 0;
    if (pgn_read(text, force, &g, &h, NULL, err, sizeof err)) fail_msg("PGN was accepted:\n%s", text);
    game_free(&g);
    assert_true(err[0] != 0);
    return err;
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part)) fail_msg("\"%s\" does not contain \"%s\"", text, part);
}

static void game_fen(const Game *g, char *buf, size_t len)
{
    g->variant->to_fen(game_state(g), buf, len);
}

/* The two games are the same: same nodes (action, parent, previous,
 * timeline), same present position, same outcome. */
static void assert_same_game(const Game *a, const Game *b)
{
    assert_ptr_equal(a->variant, b->variant);
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->current, b->current);
    assert_int_equal(a->timelines, b->timelines);
    for (int i = 0; i < a->count; i++) {
        if (!move_equal(a->nodes[i].move, b->nodes[i].move)) fail_msg("node %d: the actions differ", i);
        assert_int_equal(a->nodes[i].parent, b->nodes[i].parent);
        assert_int_equal(a->nodes[i].previous, b->nodes[i].previous);
        assert_int_equal(a->nodes[i].timeline, b->nodes[i].timeline);
    }
    char fa[1024], fb[1024];
    game_fen(a, fa, sizeof fa);
    game_fen(b, fb, sizeof fb);
    assert_string_equal(fa, fb);
    Outcome oa = game_outcome(a), ob = game_outcome(b);
    assert_int_equal(oa.result, ob.result);
    assert_string_equal(oa.reason, ob.reason);
}

/* Writes the game, reads it back, and checks that nothing changed; also
 * that writing the copy gives the same text.  Returns the text. */
static char *round_trip(Game *g, const PgnHeader *h)
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
    assert_int_equal(game_outcome(&g).result, RESULT_WHITE_WINS);
    char *text = round_trip(&g, NULL);
    assert_contains(text, "[Result \"1-0\"]");
    assert_contains(text, "1. e4 e5 2. Nf3 d6");
    assert_contains(text, "O-O-O");
    assert_contains(text, "17. Rd8# 1-0");
    assert_lines_fit(text);
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

/* A deterministic pseudo-random sequence (a linear congruential one). */
static uint32_t next_random(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(*seed >> 33);
}

/* Plays random legal actions until the game ends or `plies` are played. */
static void play_random(Game *g, int plies, uint64_t *seed)
{
    MoveList *legal = malloc(sizeof *legal);
    assert_non_null(legal);
    for (int i = 0; i < plies && game_outcome(g).result == RESULT_NONE; i++) {
        game_generate(g, legal);
        if (legal->count == 0) break;
        game_push(g, legal->moves[next_random(seed) % (uint32_t)legal->count]);
    }
    free(legal);
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
            ended += game_outcome(&g).result != RESULT_NONE;
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

static void test_round_trip_timelines(void **state)
{
    (void)state;
    Variant toy = toy_variant();
    Game g;
    char err[256];
    assert_true(game_init(&g, &toy, NULL, err, sizeof err));
    play_all(&g, "e4 e5 Nf3 back Bc4 Nc6 Nc3 Nf6 back d6 Nf3 Nf6 Ng5 back h3");
    assert_int_equal(g.timelines, 4);
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
    for (int round = 0; round < 10; round++) {
        Game r;
        assert_true(game_init(&r, &toy, NULL, err, sizeof err));
        play_random(&r, 120, &seed);
        text = round_trip(&r, NULL);
        assert_lines_fit(text);
        free(text);
        game_free(&r);
    }
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* Tags                                                                */
/* ------------------------------------------------------------------ */

static void test_tags_kept(void **state)
{
    (void)state;
    PgnHeader h;
    memset(&h, 0, sizeof h);
    pgn_set_tag(&h, "White", "Anderssen, \"the\" Adolf");
    pgn_set_tag(&h, "Event", "Back\\slash Open");
    pgn_set_tag(&h, "Annotator", "nobody");
    pgn_set_tag(&h, "Result", "0-1");     /* recomputed from the game */
    pgn_set_tag(&h, "Annotator", "someone");
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
    game_free(&g);

    /* Tags in any order, several on a line, spaces inside the brackets. */
    read_ok("[Black \"B\"] [ White   \"W\" ]\n[Event \"\"]\n\n1. e4 *", NULL, &back, &h2);
    assert_int_equal(h2.count, 3);
    assert_string_equal(pgn_tag(&h2, "White"), "W");
    assert_string_equal(pgn_tag(&h2, "Event"), "");
    game_free(&back);
}

static void test_variant_by_name_or_title(void **state)
{
    (void)state;
    char names[256];
    snprintf(names, sizeof names, "%s", variant_names());
    int seen = 0;
    for (char *name = strtok(names, ", "); name; name = strtok(NULL, ", ")) {
        const Variant *v = variant_find(name);
        assert_non_null(v);
        char label[128], text[512];
        for (int form = 0; form < 3; form++) {
            snprintf(label, sizeof label, "%s", form == 0 ? v->name : v->title);
            if (form == 2)
                for (char *c = label; *c; c++) *c = (char)(islower((unsigned char)*c) ? toupper(*c) : tolower(*c));
            snprintf(text, sizeof text, "[Variant \"%s\"]\n\n*", label);
            Game g;
            read_ok(text, NULL, &g, NULL);
            assert_ptr_equal(g.variant, v);
            game_free(&g);
        }
        seen++;
    }
    assert_true(seen >= 1);

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
    game_declare(&expected, RESULT_DRAW, "result recorded in the game file");
    assert_same_game(&g, &expected);
    assert_string_equal(pgn_tag(&h, "Event"), "skips");
    game_free(&g);
    game_free(&expected);
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
    assert_int_equal(g.count, 3);
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
        char err[256];
        if (!pgn_read(p, NULL, &g, &h, &p, err, sizeof err)) fail_msg("game %d: %s", i + 1, err);
        assert_string_equal(pgn_tag(&h, "Event"), events[i]);
        assert_int_equal(g.count - 1, plies[i]);
        game_free(&g);
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
    Outcome o = game_outcome(&g);
    assert_int_equal(o.result, RESULT_WHITE_WINS);
    assert_string_equal(o.reason, "black resigns");
    assert_int_equal(g.declared.result, RESULT_WHITE_WINS);
    char *text = round_trip(&g, &h);
    assert_contains(text, "[Result \"1-0\"]");
    assert_contains(text, "[Termination \"black resigns\"]");
    assert_contains(text, "2. Qh5 1-0");
    free(text);
    game_free(&g);

    /* Without [Termination], a reason that says where the result is from. */
    read_ok("1. d4 d5 1/2-1/2", NULL, &g, NULL);
    o = game_outcome(&g);
    assert_int_equal(o.result, RESULT_DRAW);
    assert_string_equal(o.reason, "result recorded in the game file");
    game_free(&g);

    /* A result given in the tag alone counts the same. */
    read_ok("[Result \"0-1\"]\n1. d4 d5", NULL, &g, NULL);
    assert_int_equal(game_outcome(&g).result, RESULT_BLACK_WINS);
    game_free(&g);
    read_ok("[Result \"0-1\"]\n1. d4 d5 *", NULL, &g, NULL);
    assert_int_equal(game_outcome(&g).result, RESULT_BLACK_WINS);
    game_free(&g);

    /* A result the rules reach is the rules' own, with their reason. */
    read_ok("[Termination \"normal\"]\n1. f3 e5 2. g4 Qh4# 0-1", NULL, &g, NULL);
    o = game_outcome(&g);
    assert_int_equal(o.result, RESULT_BLACK_WINS);
    assert_string_equal(o.reason, "checkmate");
    assert_int_equal(g.declared.result, RESULT_NONE);
    game_free(&g);

    /* A declared game that checks on its last move: the writer must not
     * take the check for mate, nor lose the declared end. */
    game_start(&g, "chess", NULL);
    play_all(&g, "e4 f5 Qh5+");
    game_declare(&g, RESULT_WHITE_WINS, "black resigns");
    text = round_trip(&g, NULL);
    assert_contains(text, "2. Qh5+ 1-0");
    assert_int_equal(g.declared.result, RESULT_WHITE_WINS);
    free(text);
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
    char long_name[80];
    memset(long_name, 'A', 60);
    snprintf(long_name + 60, 20, " \"x\"]");
    char text[128];
    snprintf(text, sizeof text, "[%s", long_name);
    assert_contains(read_error(text, NULL), "the tag name is too long");

    /* A long value is cut, except a position's. */
    char value[400];
    memset(value, 'v', 300);
    value[300] = 0;
    char big[512];
    Game g;
    PgnHeader h;
    snprintf(big, sizeof big, "[Annotator \"%s\"]\n*", value);
    read_ok(big, NULL, &g, &h);
    assert_int_equal(strlen(pgn_tag(&h, "Annotator")), 255);
    game_free(&g);
    snprintf(big, sizeof big, "[FEN \"%s\"]\n*", value);
    assert_contains(read_error(big, NULL), "the [FEN] value is longer than 255 characters");
}

static void test_error_illegal_move(void **state)
{
    (void)state;
    Game g;
    PgnHeader h;
    char err[256];
    const char *text = "[Event \"e\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 {c} a6 4. Nf6 Nf6 *";
    assert_false(pgn_read(text, NULL, &g, &h, NULL, err, sizeof err));
    assert_string_equal(err, "move 7 (Nf6): no knight can reach f6");
    /* The game holds what was read before the error. */
    assert_int_equal(g.count, 7);
    assert_string_equal(pgn_tag(&h, "Event"), "e");
    game_free(&g);

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
    assert_int_equal(game_outcome(&g).result, RESULT_BLACK_WINS);
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
    memset(&h, 0, sizeof h);
    pgn_set_tag(&h, "Event", "Paris \"opera\"");
    char *text = written(&g, &h);
    game_free(&g);
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    assert_non_null(copy);
    const char replacements[] = "[]{}()\";%$.0 x\\";
    for (size_t cut = 0; cut <= len; cut++) {
        memcpy(copy, text, cut);
        copy[cut] = 0;
        Game r;
        char err[256];
        const char *next = NULL;
        pgn_read(copy, NULL, &r, NULL, &next, err, sizeof err);
        assert_true(next >= copy && next <= copy + cut);
        game_free(&r);
    }
    for (size_t at = 0; at < len; at += 3) {
        for (size_t k = 0; k < sizeof replacements - 1; k++) {
            memcpy(copy, text, len + 1);
            copy[at] = replacements[k];
            Game r;
            char err[256];
            pgn_read(copy, NULL, &r, NULL, NULL, err, sizeof err);
            game_free(&r);
        }
    }
    free(copy);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_opera_game),
        cmocka_unit_test(test_round_trip_special_moves),
        cmocka_unit_test(test_round_trip_from_fen),
        cmocka_unit_test(test_round_trip_random_games),
        cmocka_unit_test(test_round_trip_timelines),
        cmocka_unit_test(test_tags_kept),
        cmocka_unit_test(test_variant_by_name_or_title),
        cmocka_unit_test(test_comments_nags_variations_skipped),
        cmocka_unit_test(test_deep_variations),
        cmocka_unit_test(test_several_games),
        cmocka_unit_test(test_declared_results),
        cmocka_unit_test(test_error_bad_tags),
        cmocka_unit_test(test_error_illegal_move),
        cmocka_unit_test(test_error_unknown_variant),
        cmocka_unit_test(test_error_bad_fen),
        cmocka_unit_test(test_error_unterminated),
        cmocka_unit_test(test_error_contradicting_result),
        cmocka_unit_test(test_error_empty),
        cmocka_unit_test(test_no_crash_on_damaged_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
