/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of src/record/gc.c: Game Courier's full algebraic notation, read
 * in every game ("P e2-e4", "K e1-g1; R h1-f1", "P e7-e8; Q-e8",
 * "P d5-e6; e5-", removals "e4-" and "@-e4", placements "N-e4"), the
 * refusals a player sees (no such action, a label that is not the
 * piece's, an ambiguous removal or placement with the forms to type
 * instead), the way game_play_text tells it from the other notations, and
 * the move log written by gc_write and read back by gc_read.
 */
#include "support.h"

#include "gc.h"
#include "pgn.h"
#include "sheets.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* A game of `variant` from `fen` (NULL: the start) with `options`
 * (NULL: the defaults) after the space-separated actions `moves`. */
static void start(Game *g, const char *variant, const char *options, const char *fen, const char *moves)
{
    Text err = TEXT_INIT;
    const Variant *v = variant_find(variant);
    assert_non_null(v);
    Options o;
    options_default(v, &o);
    if (!options_parse(v, &o, options, &err)) fail_msg("options %s: %s", options, text_str(&err));
    if (!game_init(g, v, &o, fen, &err)) fail_msg("bad FEN %s: %s", fen ? fen : "(start)", text_str(&err));
    text_free(&err);
    if (moves) play_all(g, moves);
}

/* The action the Game Courier text names at the game's present position;
 * fails the test if it is refused. */
static Move gc_read_ok(const Game *g, const char *text)
{
    Line l;
    line_open(&l, g, game_current(g));
    Text err = TEXT_INIT;
    Move m = move_none();
    if (!gc_parse(&l, text, &m, &err)) fail_msg("'%s' refused: %s", text, text_str(&err));
    line_close(&l);
    text_free(&err);
    return m;
}

/* The refusal of a Game Courier text, in a static buffer. */
static const char *gc_refusal(const Game *g, const char *text)
{
    static char msg[1024];
    Line l;
    line_open(&l, g, game_current(g));
    Text err = TEXT_INIT;
    Move m;
    if (gc_parse(&l, text, &m, &err)) fail_msg("'%s' was accepted but should be refused", text);
    snprintf(msg, sizeof msg, "%s", text_str(&err));
    assert_true(msg[0] != 0);
    line_close(&l);
    text_free(&err);
    return msg;
}

/* The action the game's own notation names (to compare with). */
static Move own(const Game *g, const char *text)
{
    Line l;
    line_open(&l, g, game_current(g));
    Text err = TEXT_INIT;
    Move m = move_none();
    if (!g->variant->parse(&l, text, &m, &err)) fail_msg("own notation '%s' refused: %s", text, text_str(&err));
    line_close(&l);
    text_free(&err);
    return m;
}

/* The Game Courier text reads as the action `expected` names in the game's
 * own notation. */
static void reads_as(const Game *g, const char *text, const char *expected)
{
    Move a = gc_read_ok(g, text), b = own(g, expected);
    if (!move_equal(a, b)) fail_msg("'%s' is not %s", text, expected);
}

static void contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle)) fail_msg("\"%s\" does not contain \"%s\"", haystack, needle);
}

/* gc_format of the action the game's own notation names. */
static const char *written(const Game *g, const char *action)
{
    static char buf[1024];
    Move m = own(g, action);
    Line l;
    line_open(&l, g, game_current(g));
    Text t = TEXT_INIT;
    assert_true(gc_format(&l, m, &t));
    snprintf(buf, sizeof buf, "%s", text_str(&t));
    line_close(&l);
    text_free(&t);
    return buf;
}

/* Two records are the same game: variant, options, actions, timelines,
 * final position and outcome. */
static void same_record(const Game *a, const Game *b)
{
    assert_ptr_equal(a->variant, b->variant);
    assert_int_equal(game_count(a), game_count(b));
    for (int i = 0; i < game_count(a); i++) {
        assert_true(move_equal(game_node(a, i)->move, game_node(b, i)->move));
        assert_int_equal(game_node(a, i)->parent, game_node(b, i)->parent);
        assert_true(game_node(a, i)->key == game_node(b, i)->key);
    }
    assert_int_equal(game_timelines(a), game_timelines(b));
    char sa[256];
    snprintf(sa, sizeof sa, "%s", game_status(a));
    assert_string_equal(sa, game_status(b));
}

/* The game written by gc_write reads back by gc_read as the same game, and
 * writes the same log again; the log is returned (malloc'd). */
static char *log_round_trip(const Game *g)
{
    Text out = TEXT_INIT, again = TEXT_INIT, err = TEXT_INIT;
    assert_true(gc_write(g, &out));
    assert_true(gc_detect(text_str(&out)));
    assert_false(sheets_detect(text_str(&out)));
    Game back;
    if (!gc_read(text_str(&out), NULL, NULL, &back, &err))
        fail_msg("its own log is refused: %s\n%s", text_str(&err), text_str(&out));
    same_record(g, &back);
    assert_true(gc_write(&back, &again));
    assert_string_equal(text_str(&out), text_str(&again));
    game_free(&back);
    text_free(&again);
    text_free(&err);
    return text_take(&out);
}

/* ------------------------------------------------------------------ */
/* Chess                                                               */
/* ------------------------------------------------------------------ */

static void test_chess_moves(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", NULL, NULL, NULL);
    reads_as(&g, "P e2-e4", "e2e4");
    reads_as(&g, "N g1-f3", "g1f3");
    reads_as(&g, "e2-e4", "e2e4");         /* the label is not mandatory */
    reads_as(&g, "Pe2-e4", "e2e4");
    reads_as(&g, "  P  e2 - e4  ", "e2e4");
    reads_as(&g, "p e2-e4", "e2e4");       /* either case: only White's pieces move now */
    reads_as(&g, "N g1-f3 // the usual", "g1f3");
    reads_as(&g, "N g1-f3+", "g1f3");
    play_all(&g, "e4 d5");
    reads_as(&g, "P e4-d5", "e4d5");       /* captures are written the same way */
    reads_as(&g, "P e4xd5", "e4d5");
    reads_as(&g, "P e4:d5", "e4d5");
    play_all(&g, "Nf3");
    reads_as(&g, "p d5-e4", "d5e4");
    reads_as(&g, "q d8-d6", "d8d6");
    game_free(&g);
}

static void test_chess_castling(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", NULL, "r3k2r/pppq1ppp/2n2n2/2bpp3/2BPP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1", NULL);
    reads_as(&g, "K e1-g1", "O-O");
    reads_as(&g, "K e1-g1; R h1-f1", "O-O");
    reads_as(&g, "R h1-f1; K e1-g1", "O-O");
    reads_as(&g, "K e1-c1; R a1-d1", "O-O-O");
    reads_as(&g, "K e1-c1", "O-O-O");
    assert_string_equal(written(&g, "O-O"), "K e1-g1; R h1-f1");
    assert_string_equal(written(&g, "O-O-O"), "K e1-c1; R a1-d1");
    contains(gc_refusal(&g, "K e1-g1; R h1-g1"), "no legal action does exactly this on the board");
    play_all(&g, "a3");
    reads_as(&g, "k e8-g8; r h8-f8", "O-O");
    assert_string_equal(written(&g, "O-O-O"), "k e8-c8; r a8-d8");
    game_free(&g);
    /* The king has moved: the game's own reason. */
    start(&g, "chess", NULL, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Kf1 Kd8 Ke1 Ke8");
    contains(gc_refusal(&g, "K e1-g1"), "the king on e1 cannot move to g1");
    contains(gc_refusal(&g, "K e1-g1; R h1-f1"), "the king on e1 cannot move to g1");
    game_free(&g);
}

static void test_chess_promotion(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", NULL, "1n2k3/P7/8/8/8/8/1p6/4K3 w - - 0 1", NULL);
    reads_as(&g, "P a7-a8; Q-a8", "a8=Q");
    reads_as(&g, "P a7-a8; N-a8", "a8=N");
    reads_as(&g, "P a7-b8; R-b8", "axb8=R");
    reads_as(&g, "a7-a8; B-a8", "a8=B");
    reads_as(&g, "Q-a8; P a7-a8", "a8=Q");
    assert_string_equal(written(&g, "axb8=Q"), "P a7-b8; Q-b8");
    const char *why = gc_refusal(&g, "P a7-a8");
    contains(why, "a pawn reaching a8 must promote");
    contains(why, "P a7-a8; Q-a8");
    contains(gc_refusal(&g, "P a7-a8; K-a8"), "no legal action does exactly this");
    play_all(&g, "a8=Q");
    reads_as(&g, "p b2-b1; q-b1", "b1=Q");
    assert_string_equal(written(&g, "b1=N"), "p b2-b1; n-b1");
    game_free(&g);
}

static void test_chess_en_passant(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", NULL, NULL, "e4 a6 e5 d5");
    reads_as(&g, "P e5-d6; d5-", "exd6");
    reads_as(&g, "P e5-d6; @-d5", "exd6");
    reads_as(&g, "e5-d6; d5-", "exd6");
    reads_as(&g, "P e5-d6", "exd6");   /* the pawn taken follows from the move */
    assert_string_equal(written(&g, "exd6"), "P e5-d6; d5-");
    contains(gc_refusal(&g, "P e5-d6; e5-"), "no legal action does exactly this");
    game_free(&g);
}

static void test_chess_refusals(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", NULL, NULL, NULL);
    assert_string_equal(gc_refusal(&g, "B g1-f3"), "the piece on g1 is a knight, not a bishop");
    assert_string_equal(gc_refusal(&g, "N e3-f5"), "there is no piece on e3");
    assert_string_equal(gc_refusal(&g, "p e7-e5"), "the pawn on e7 is not yours: white is to move");
    assert_string_equal(gc_refusal(&g, "P e2-e5"), "the pawn on e2 cannot move to e5");
    assert_string_equal(gc_refusal(&g, "e4-"), "there is no piece on e4 to remove");
    assert_string_equal(gc_refusal(&g, "@-e4"), "there is no piece on e4 to remove");
    assert_string_equal(gc_refusal(&g, "P e2-"), "no legal action takes the pawn on e2 off the board");
    assert_string_equal(gc_refusal(&g, "-e4"),
                        "-e4 would take the square e4 itself off the board in Game Courier; to remove the piece on e4 "
                        "write e4- or @-e4");
    const char *why = gc_refusal(&g, "Q-d4");
    contains(why, "no legal action puts a queen on d4");
    contains(why, "places a piece straight onto a square");
    why = gc_refusal(&g, "N-d4; n-d5");
    contains(why, "no legal action does exactly this");
    contains(gc_refusal(&g, "hello"), "is not a move in Game Courier notation");
    contains(gc_refusal(&g, ""), "is not a move in Game Courier notation");
    /* "B-b5" is SAN's bishop move where no bishop can be put there ... */
    play_all(&g, "e4 e5 Nf3 Nc6 d3 d6");
    reads_as(&g, "B-g5", "Bg5");
    /* ... and where SAN cannot tell the knights apart, a piece that can
     * get there is named with the form to use. */
    why = gc_refusal(&g, "N-d2");
    contains(why, "no legal action puts a knight on d2");
    contains(why, "; to move a knight there, write N b1-d2 or N f3-d2");
    game_free(&g);
}

/* Text that is Game Courier's goes to its reader; the other notations'
 * forms stay with theirs. */
static void test_shape(void **state)
{
    (void)state;
    static const char *const gc[] = { "P e2-e4", "N g1-f3", "p e7-e5", "e4-", "@-e4", "N-e4", "n - e4", "B f1-",
                                      "K e1-g1; R h1-f1", "P e7-e8; Q-e8", "P d5-e6; e5-", "-e4", "e2-e4;",
                                      "P e2-e4 // comment", "N b8-c6; c6-" };
    static const char *const other[] = { "e2e4", "e2-e4", "Ng1-f3", "Nf3", "O-O", "0-0", "o-o", "N@e4", "e7e8q",
                                         "Bf1// to 9", "B (f1)// to 9", "b8//c6", "Nb8//c6", "K [FTF] f8", "[B] c4",
                                         "Qd1-d4*", "Qd1-d4**", "Qh5†", "Qh5^^", "[N]@e5", "<1.4>Nf3", "d2>8",
                                         "e8<2@f8", "Nf6/e8", "K// Back to 2", "", "   ", "//", "e8=Q", "exd6 e.p." };
    for (size_t i = 0; i < sizeof gc / sizeof gc[0]; i++)
        if (!gc_is_notation(gc[i])) fail_msg("'%s' is not taken for Game Courier's", gc[i]);
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        if (gc_is_notation(other[i])) fail_msg("'%s' is taken for Game Courier's", other[i]);

    /* Through game_play_text, as ttchess play and --moves read them. */
    Game g;
    start(&g, "chess", NULL, NULL, NULL);
    play_all(&g, "e4 e7e5 Ng1-f3");
    Text err = TEXT_INIT;
    assert_true(game_play_text(&g, "n b8-c6", &err));
    assert_true(game_play_text(&g, "B f1-c4", &err));
    assert_true(game_play_text(&g, "N-c6", &err) == false);  /* a knight cannot be put on c6 by anything */
    assert_true(game_play_text(&g, "Nf6", &err));
    assert_true(game_play_text(&g, "K e1-g1; R h1-f1", &err));
    assert_true(game_board(&g)->squares[make_square(6, 0)] == make_piece(WHITE, KING));
    /* line_parse_text, the same reader for a program holding a line. */
    Line l;
    line_open(&l, &g, game_current(&g));
    Move m;
    assert_true(line_parse_text(&l, "p d7-d6", &m, &err));
    assert_true(move_equal(m, own(&g, "d6")));
    assert_true(line_parse_text(&l, "d7d6", &m, &err));
    assert_true(move_equal(m, own(&g, "d6")));
    assert_false(line_parse_text(&l, "B f8-", &m, &err));
    line_close(&l);
    /* "N-e4" reads as SAN's knight move where no piece can be put there. */
    assert_true(game_play_text(&g, "N-e4", &err));
    assert_true(game_board(&g)->squares[make_square(4, 3)] == make_piece(BLACK, KNIGHT));
    text_free(&err);
    game_free(&g);
}

/* Whatever the text, the reader answers with a legal action or a reason. */
static void test_garbage(void **state)
{
    (void)state;
    static const char *const texts[] = { ";", ";;;", "@", "@-", "@-z9", "-", "--e4", "P", "P ", "P e2", "P e2-",
                                         "P e2-e9", "P e2-e44", "P e2--e4", "x", "e2x", "e2:", "Q-", "Q@", "QQ-e4",
                                         "P e2-e4; ; ;", "P e2-e4;;N g1-f3", "\t\n", "e4-; e4-", "K e1-g1; K e1-g1",
                                         "// only a comment", "P e2-e4 //", "\xff\xfe", "P\302\240e2-e4",
                                         "P e2-e4 // a // b", "a1-; b1-; c1-; d1-; e1-; f1-; g1-; h1-" };
    Game g;
    start(&g, "gifford", NULL, NULL, "e4 e5");
    Line l;
    line_open(&l, &g, game_current(&g));
    Text err = TEXT_INIT;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        Move m;
        text_clear(&err);
        (void)gc_is_notation(texts[i]);
        if (gc_parse(&l, texts[i], &m, &err)) {
            bool legal = false;
            assert_true(line_is_legal(&l, m, &legal));
            assert_true(legal);
        } else {
            assert_true(err.len > 0);
        }
    }
    /* Random bytes from Game Courier's alphabet. */
    static const char alphabet[] = "PNBRQKpnbrqkabcdefgh12345678-@x:; /";
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    char buf[24];
    for (int n = 0; n < 3000; n++) {
        size_t len = (size_t)(test_random(&seed) % (sizeof buf - 1));
        for (size_t i = 0; i < len; i++) buf[i] = alphabet[test_random(&seed) % (sizeof alphabet - 1)];
        buf[len] = 0;
        Move m;
        text_clear(&err);
        (void)gc_is_notation(buf);
        if (gc_parse(&l, buf, &m, &err)) {
            bool legal = false;
            assert_true(line_is_legal(&l, m, &legal));
            assert_true(legal);
        } else {
            assert_true(err.len > 0);
        }
    }
    /* Too many parts. */
    Text many = TEXT_INIT;
    for (int i = 0; i < 100; i++) text_add(&many, "e4-; ");
    text_clear(&err);
    Move m;
    assert_false(gc_parse(&l, text_str(&many), &m, &err));
    contains(text_str(&err), "too many parts");
    text_free(&many);
    text_free(&err);
    line_close(&l);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* Gifford                                                             */
/* ------------------------------------------------------------------ */

static void test_gifford(void **state)
{
    (void)state;
    Game g;
    start(&g, "gifford", NULL, NULL, "e4 e5");
    /* A piece sent forward leaves the board: which move it goes to, the
     * board does not say. */
    const char *why = gc_refusal(&g, "B f1-");
    contains(why, "'B f1-' could be any of 10 actions, which Game Courier notation does not tell apart: Bf1>3, Bf1>4, "
                  "Bf1>5, Bf1>6, Bf1>7, ...; type the one you mean as written here");
    contains(gc_refusal(&g, "f1-"), "Bf1>3");
    contains(gc_refusal(&g, "@-f1"), "Bf1>3");
    assert_string_equal(gc_refusal(&g, "N f1-"), "the piece on f1 is a bishop, not a knight");
    assert_string_equal(written(&g, "Bf1>9"), "B f1-");
    reads_as(&g, "N g1-f3", "Nf3");
    game_free(&g);

    /* With one move forward allowed, the removal names one action. */
    start(&g, "gifford", "forward=1", NULL, "e4 e5");
    reads_as(&g, "B f1-", "Bf1>3");
    reads_as(&g, "@-f1", "Bf1>3");
    game_free(&g);

    /* An arrival is a piece placed on the board. */
    start(&g, "gifford", NULL, NULL, "e4 e5 Bf1>3 Bf8>3");
    reads_as(&g, "B-c4", "B@c4");
    reads_as(&g, "b-c4", "B@c4");
    reads_as(&g, "B@c4", "B@c4");
    assert_string_equal(written(&g, "B@c4"), "B-c4");
    /* The arriving bishop must land, and on its own colour. */
    contains(gc_refusal(&g, "P d2-d4"), "must place the arriving bishop");
    contains(gc_refusal(&g, "B-c5"), "no legal action puts a bishop on c5");
    play_all(&g, "B@c4");
    reads_as(&g, "b-c5", "B@c5");
    assert_string_equal(written(&g, "B@c5"), "b-c5");
    game_free(&g);

    /* A king going back: the king leaves the board, or lands on an
     * earlier one; either way several actions, listed. */
    start(&g, "gifford", NULL, NULL, "e4 e5 Nf3 Nc6 Bc4 Bc5");
    why = gc_refusal(&g, "K e1-");
    contains(why, "could be any of");
    contains(why, "Ke1>");
    why = gc_refusal(&g, "K-e2");
    contains(why, "Ke1<");
    game_free(&g);
}

/* The seed's sample game, three timelines, two kings going back: the log
 * writes each travel as every square it changes, with the game's own
 * notation after //, and reads back as the same game. */
static void test_gifford_log(void **state)
{
    (void)state;
    char *sheets = read_data("gifford-sample.sheets");
    Game g;
    Text err = TEXT_INIT;
    if (!sheets_read(sheets, variant_find("gifford"), NULL, &g, &err)) fail_msg("%s", text_str(&err));
    char *log = log_round_trip(&g);
    contains(log, "// [Variant \"gifford\"]\n");
    contains(log, "1. P d2- // d2>8\n1... b f8- // Bf8>5\n");
    contains(log, "3... p-e6 // P@e6\n");
    contains(log, "// the black bishop [Bb] due at move 5 is lost in time\n");
    contains(log, "6... B d3-f1; N h3-g1; p-d7; p-f7; k-e8; k-f8; d5-; e6- // Kf7<2@f8\n// Timeline 2 begins");
    contains(log, "// Result: 0-1 white king lost in time\n");
    free(log);
    free(sheets);
    text_free(&err);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* van Gog                                                             */
/* ------------------------------------------------------------------ */

static void test_vangog(void **state)
{
    (void)state;
    Game g;
    start(&g, "vangog", NULL, NULL, NULL);
    /* An arrival from the future puts a piece on the board; where it will
     * leave from later, the board does not say. */
    const char *why = gc_refusal(&g, "Q-d4");
    contains(why, "'Q-d4' could be any of");
    contains(why, "Qd1-d4*");
    contains(why, ", ...; type the one you mean as written here");
    assert_string_equal(written(&g, "Qd1-d4*"), "Q-d4");
    reads_as(&g, "P e2-e4", "e4");
    play_all(&g, "e4 e5");
    /* A departure: the piece goes to its square and leaves from there. */
    reads_as(&g, "Q d1-h5; h5-", "Qh5†");
    assert_string_equal(written(&g, "Qh5†"), "Q d1-h5; h5-");
    contains(gc_refusal(&g, "Q d1-"), "Qh5†");
    game_free(&g);

    start(&g, "vangog-future", NULL, NULL, "e4 e5 d1h5^ a6");
    reads_as(&g, "Q-h5", "Qh5††");
    assert_string_equal(written(&g, "Qh5††"), "Q-h5");
    game_free(&g);

    /* A game with arrivals and departures writes and reads back. */
    start(&g, "vangog", NULL, NULL, "e4 e5 Qd1h5* d8h4^ b1c3 Qh4^^ h5h4 b8c6");
    char *log = log_round_trip(&g);
    contains(log, "2. Q-h5 // Qd1-h5*\n");
    free(log);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* Time Traveler's Chess                                               */
/* ------------------------------------------------------------------ */

static void test_travelers(void **state)
{
    (void)state;
    Game g;
    start(&g, "travelers", NULL, NULL, "e4 e5");
    /* An explosion puts two pieces on the board. */
    reads_as(&g, "N-f3; N-e5", "Nf3/e5");
    assert_string_equal(written(&g, "Nf3/e5"), "N-f3; N-e5");
    play_all(&g, "Nf3/e5 Nc6/e5 d4/e5");
    /* An annihilation: the piece meets its traveling twin and both vanish. */
    reads_as(&g, "n b8-c6; c6-", "Nb8//c6");
    assert_string_equal(written(&g, "Nb8//c6"), "n b8-c6; c6-");
    game_free(&g);

    start(&g, "travelers", NULL, NULL, "e4 e5 Nf3/e5 Nc6/e5 d4/e5 Nb8//c6 d2//d4 Bb4/e1");
    char *log = log_round_trip(&g);
    contains(log, "4. P d2-d4; d4- // d2//d4\n");
    free(log);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* Chessgi                                                             */
/* ------------------------------------------------------------------ */

static void test_chessgi(void **state)
{
    (void)state;
    Game g;
    /* A knight in the pocket, and one on b1 that can move to c3: Game
     * Courier's "N-c3" puts a knight on c3, which is the drop. */
    start(&g, "chessgi-classic", NULL, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R[Nn] w KQkq - 0 1", NULL);
    reads_as(&g, "N-c3", "N@c3");
    reads_as(&g, "N@c3", "N@c3");
    reads_as(&g, "N b1-c3", "Nc3");
    assert_string_equal(written(&g, "N@e4"), "N-e4");
    play_all(&g, "N@e4");
    reads_as(&g, "n-d4", "N@d4");
    assert_string_equal(written(&g, "N@d4"), "n-d4");
    game_free(&g);

    /* Time Travel Chessgi: a piece sent into the pocket leaves the board
     * for a move the board does not show. */
    start(&g, "chessgi", NULL, NULL, NULL);
    const char *why = gc_refusal(&g, "N g1-");
    contains(why, "could be any of");
    contains(why, "Ng1>2");
    game_free(&g);

    /* A pocket knight and a travelling one both can land on e5. */
    start(&g, "chessgi", NULL, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R[N] w KQkq - 0 3 N3/- 0", NULL);
    why = gc_refusal(&g, "N-e5");
    contains(why, "could be any of 2 actions");
    contains(why, "N@e5");
    contains(why, "[N]@e5");
    game_free(&g);
}

/* Chessgi games with drops write and read back, the travels among them. */
static void test_chessgi_log(void **state)
{
    (void)state;
    Game g;
    start(&g, "chessgi-classic", NULL, NULL, "e4 d5 exd5 Qxd5 Nc3 Qa5 Nf3 Qxc3 dxc3 N@e4 Q@d4 Ngf6 P@e5");
    char *log = log_round_trip(&g);
    contains(log, "5... n-e4\n6. Q-d4\n");
    assert_true(strstr(log, "//  ") == NULL);
    free(log);
    game_free(&g);

    char *pgn = read_data("chessgi-game.pgn");
    Text err = TEXT_INIT;
    if (!pgn_read(pgn, NULL, NULL, &g, NULL, NULL, &err)) fail_msg("%s", text_str(&err));
    log = log_round_trip(&g);
    contains(log, "1. N g1- // Ng1>5\n");
    contains(log, " // <1.2>P@e6\n// Timeline 2 begins");
    contains(log, "5. N-f3 // [N]@f3\n");
    free(log);
    free(pgn);
    text_free(&err);
    game_free(&g);
}

/* ------------------------------------------------------------------ */
/* The move log                                                        */
/* ------------------------------------------------------------------ */

static void test_log_chess(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", NULL, NULL, "e4 Nf6 e5 d5 exd6 e6 dxc7 Qd6 cxb8=Q Rxb8 Nf3 Bd7 Bc4 Nd5 O-O");
    char *log = log_round_trip(&g);
    assert_string_equal(log,
                        "// Game Courier move log written by ttchess: one move a line, as typed into Game Courier\n"
                        "// [Variant \"chess\"]\n"
                        "1. P e2-e4\n1... n g8-f6\n2. P e4-e5\n2... p d7-d5\n3. P e5-d6; d5-\n3... p e7-e6\n"
                        "4. P d6-c7\n4... q d8-d6\n5. P c7-b8; Q-b8\n5... r a8-b8\n6. N g1-f3\n6... b c8-d7\n"
                        "7. B f1-c4\n7... n f6-d5\n8. K e1-g1; R h1-f1\n// Result: ongoing\n");
    free(log);
    game_free(&g);

    /* A start of its own, options, a mate. */
    start(&g, "chess", NULL, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 30", "Ra8#");
    log = log_round_trip(&g);
    contains(log, "// [FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 30\"]\n30. R a1-a8\n// Result: 1-0 checkmate\n");
    free(log);
    game_free(&g);

    /* A resignation reads back as one. */
    start(&g, "chess", NULL, NULL, "e4 e5");
    assert_true(game_declare(&g, outcome_make(RESULT_WHITE_WINS, REASON_RESIGNATION, BLACK), NULL));
    log = log_round_trip(&g);
    contains(log, "// Result: 1-0 black resigns\n// Termination: black resigns\n");
    free(log);
    game_free(&g);

    start(&g, "gifford", "forward=8 back=3", NULL, "e4 e5");
    log = log_round_trip(&g);
    contains(log, "// [Options \"forward=8 back=3\"]\n");
    free(log);
    game_free(&g);
}

/* The header of a move log is read as PGN's and the score sheets' are
 * (one reader, src/record/record.c): [VariantMode] picks which of the
 * variants of one title the game is, and a mode that title does not have
 * is refused, as in the other formats. */
static void test_log_variant_mode(void **state)
{
    (void)state;
    Game g;
    Text err = TEXT_INIT;
    const char *title = variant_find("vangog-past")->title;
    char log[256];
    snprintf(log, sizeof log, "// [Variant \"%s\"]\n// [VariantMode \"past\"]\n1. P e2-e4\n", title);
    assert_true(gc_read(log, NULL, NULL, &g, &err));
    assert_string_equal(g.variant->name, "vangog-past");
    game_free(&g);
    snprintf(log, sizeof log, "// [Variant \"%s\"]\n// [VariantMode \"future\"]\n", title);
    assert_true(gc_read(log, NULL, NULL, &g, &err));
    assert_string_equal(g.variant->name, "vangog-future");
    game_free(&g);
    snprintf(log, sizeof log, "// [Variant \"%s\"]\n// [VariantMode \"sideways\"]\n", title);
    assert_false(gc_read(log, NULL, NULL, &g, &err));
    assert_string_equal(text_str(&err), "Time Travel Chess (van Gog) has no mode 'sideways'");
    game_free(&g);
    /* PGN and the score sheets read the same header the same way. */
    snprintf(log, sizeof log, "[Variant \"%s\"]\n[VariantMode \"past\"]\n\n*\n", title);
    assert_true(pgn_read(log, NULL, NULL, &g, NULL, NULL, &err));
    assert_string_equal(g.variant->name, "vangog-past");
    game_free(&g);
    snprintf(log, sizeof log, "[Variant \"%s\"]\n[VariantMode \"past\"]\n[Timeline 1]\n", title);
    assert_true(sheets_read(log, NULL, NULL, &g, &err));
    assert_string_equal(g.variant->name, "vangog-past");
    game_free(&g);
    text_free(&err);
}

static void test_log_reading(void **state)
{
    (void)state;
    Game g;
    Text err = TEXT_INIT;
    /* Numbers optional, comments anywhere, blank lines, CR LF. */
    assert_true(gc_read("P e2-e4\r\n\r\n1... p e7-e5 // a reply\n// a comment\n2. N g1-f3\n", NULL, NULL, &g, &err));
    assert_int_equal(game_count(&g), 4);
    game_free(&g);
    /* The variant and options a header names, or those forced. */
    assert_true(gc_read("// [Variant \"Time Travel Chess (Gifford)\"]\n// [Options \"forward=1\"]\n1. P e2-e4\n"
                        "1... p e7-e5\n2. B f1-\n",
                        NULL, NULL, &g, &err));
    assert_string_equal(g.variant->name, "gifford");
    game_free(&g);
    assert_true(gc_read("1. P e2-e4\n1... p e7-e5\n2. B f1-\n", variant_find("gifford"), "forward=1", &g, &err));
    game_free(&g);
    /* Errors name the line. */
    assert_false(gc_read("// header\n1. P e2-e4\n1... p e7-e5\n2. N g1-f4\n", NULL, NULL, &g, &err));
    assert_string_equal(text_str(&err), "line 4 (N g1-f4): the knight on g1 cannot move to f4");
    game_free(&g);
    assert_false(gc_read("1. P e2-e4\n1... p e7-e5\n2. B f1-\n", variant_find("gifford"), NULL, &g, &err));
    contains(text_str(&err), "line 3 (B f1-): 'B f1-' could be any of 10 actions");
    game_free(&g);
    /* A comment in the game's own notation picks among them. */
    assert_true(gc_read("1. P e2-e4\n1... p e7-e5\n2. B f1- // Bf1>9\n", variant_find("gifford"), NULL, &g, &err));
    assert_int_equal(game_node(&g, 3)->move.arg, 9);
    game_free(&g);
    assert_false(gc_read("// [Variant \"nonesuch\"]\n1. P e2-e4\n", NULL, NULL, &g, &err));
    assert_string_equal(text_str(&err), "unknown variant 'nonesuch'");
    game_free(&g);
    assert_false(gc_read("1. P f2-f3\n1... p e7-e5\n2. P g2-g4\n2... q d8-h4\n3. P a2-a3\n", NULL, NULL, &g, &err));
    assert_string_equal(text_str(&err), "line 5 (P a2-a3): the game is over (0-1 checkmate)");
    game_free(&g);
    assert_false(gc_read("1. P e2-e4\n// Result: 1-0 checkmate\n", NULL, NULL, &g, &err) == false);
    game_free(&g);
    text_free(&err);

    assert_true(gc_detect("// Game Courier\n1. P e2-e4\n"));
    assert_true(gc_detect("\n1. P e2-e4\n1... p e7-e5\n"));
    assert_false(gc_detect("1. e4 e5 2. Nf3\n"));
    assert_false(gc_detect("[Event \"x\"]\n\n1. e4 *\n"));
    assert_false(gc_detect("[Timeline 1]\n1. e4  |  e5\n"));
    assert_false(gc_detect("# a sheet\n[Timeline 1]\n"));
    assert_false(gc_detect(""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chess_moves),
        cmocka_unit_test(test_chess_castling),
        cmocka_unit_test(test_chess_promotion),
        cmocka_unit_test(test_chess_en_passant),
        cmocka_unit_test(test_chess_refusals),
        cmocka_unit_test(test_shape),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_gifford),
        cmocka_unit_test(test_gifford_log),
        cmocka_unit_test(test_vangog),
        cmocka_unit_test(test_travelers),
        cmocka_unit_test(test_chessgi),
        cmocka_unit_test(test_chessgi_log),
        cmocka_unit_test(test_log_chess),
        cmocka_unit_test(test_log_variant_mode),
        cmocka_unit_test(test_log_reading),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
