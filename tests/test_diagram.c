/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of src/record/diagram.c: SVG board diagrams.  Every document is
 * checked to be well-formed by a small XML reader here (tags nested and
 * closed, attributes quoted, every '&' an entity, no raw '>' in text);
 * then the start position (64 squares, 32 glyphs, a1 where the
 * orientation puts it, the size at each scale), the letter set, the
 * colour schemes, Time Traveler's Chess marks, Chessgi pockets, the
 * caption's escaping, every variant's start position in every style, and
 * the refusals of bad style names.
 */
#include "support.h"

#include "diagram.h"

#include "xml_check.h"


static void assert_well_formed(const char *svg)
{
    const char *why = xml_problem(svg);
    if (why) fail_msg("not well-formed: %s\n%s", why, svg);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* The chess glyphs U+2654..U+265F in the text. */
static int glyphs(const char *svg)
{
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)svg; *p; p++)
        n += p[0] == 0xE2 && p[1] == 0x99 && p[2] >= 0x94 && p[2] <= 0x9F;
    return n;
}

/* The diagram of a position of a variant as a malloc'd string. */
static char *diagram_of(const char *variant, const char *fen, const DiagramStyle *st, const char *caption)
{
    const Variant *v = variant_find(variant);
    assert_non_null(v);
    Options o;
    options_default(v, &o);
    Text err = TEXT_INIT, out = TEXT_INIT;
    State *s = v->from_fen(&o, fen ? fen : v->start_fen, &err);
    if (!s) fail_msg("bad FEN %s: %s", fen, text_str(&err));
    assert_true(diagram_svg(v, &o, s, st, caption, &out));
    free(s);
    text_free(&err);
    char *svg = text_take(&out);
    assert_non_null(svg);
    assert_well_formed(svg);
    return svg;
}

/* The x and y attributes of the first element of the text starting with
 * `start` (e.g. "<rect x="), in document order after `from`. */
static const char *element_xy(const char *from, const char *start, int *x, int *y)
{
    const char *p = strstr(from, start);
    if (!p) return NULL;
    const char *ax = strstr(p, " x=\""), *ay = strstr(p, " y=\"");
    assert_non_null(ax);
    assert_non_null(ay);
    *x = atoi(ax + 4);
    *y = atoi(ay + 4);
    return p;
}

/* The <text> element whose x is the centre of the square at (sx, sy) and
 * whose baseline lies in it: the piece drawn there; NULL if none. */
static const char *piece_in_square(const char *svg, int sx, int sy)
{
    int x, y;
    for (const char *p = svg; (p = element_xy(p, "<text x=", &x, &y)) != NULL; p++)
        if (x == sx + DIAGRAM_UNIT / 2 && y > sy && y < sy + DIAGRAM_UNIT) return p;
    return NULL;
}

/* Does the element at p, up to its end, contain `what`? */
static bool element_has(const char *p, const char *what)
{
    const char *end = strstr(p, "</text>");
    const char *hit = strstr(p, what);
    return end && hit && hit < end;
}

static const char GLYPH_ROOK[] = "\xE2\x99\x9C";
static const char GLYPH_QUEEN[] = "\xE2\x99\x9B";

/* ------------------------------------------------------------------ */
/* The start position                                                  */
/* ------------------------------------------------------------------ */

static void test_start_position(void **state)
{
    (void)state;
    DiagramStyle st;
    diagram_style_default(&st);
    assert_int_equal(st.orientation, WHITE);
    assert_int_equal(st.square_px, 48);
    char *svg = diagram_of("chess", NULL, &st, NULL);
    assert_int_equal(glyphs(svg), 32);
    assert_int_equal(count_of(svg, "<rect x="), 64);
    assert_int_equal(count_of(svg, "<script"), 0);
    assert_int_equal(count_of(svg, "href"), 0);
    /* 900 x 860 units: 10 + 40 (rank labels) + 800 + 40 (side to move) + 10
     * across; 10 + 800 + 40 (file labels) + 10 down. */
    assert_non_null(strstr(svg, "width=\"432\" height=\"412.8\" viewBox=\"0 0 900 860\""));
    assert_non_null(strstr(svg, "<title>White to move</title>"));

    /* a1, the first square written, is at the bottom left. */
    int bx = diagram_board_x(&st), by = diagram_board_y(&VARIANT_CHESS, &st), x, y;
    assert_int_equal(bx, 50);
    assert_int_equal(by, 10);
    assert_non_null(element_xy(svg, "<rect x=", &x, &y));
    assert_int_equal(x, bx);
    assert_int_equal(y, by + 7 * DIAGRAM_UNIT);
    const char *piece = piece_in_square(svg, bx, by + 7 * DIAGRAM_UNIT);
    assert_non_null(piece);
    assert_true(element_has(piece, GLYPH_ROOK) && element_has(piece, "fill=\"#fff\""));
    /* h8 at the top right: a black rook. */
    piece = piece_in_square(svg, bx + 7 * DIAGRAM_UNIT, by);
    assert_true(piece && element_has(piece, GLYPH_ROOK) && !element_has(piece, "fill=\"#fff\""));
    /* The a-file's label under the left column, rank 1's beside the bottom row. */
    assert_non_null(strstr(svg, "<text x=\"100\" y=\"841\">a</text>"));
    assert_non_null(strstr(svg, "<text x=\"30\" y=\"771\">1</text>"));
    free(svg);

    /* From Black's side a1 is at the top right, h8 at the bottom left. */
    st.orientation = BLACK;
    svg = diagram_of("chess", NULL, &st, NULL);
    assert_int_equal(glyphs(svg), 32);
    assert_non_null(element_xy(svg, "<rect x=", &x, &y));
    assert_int_equal(x, bx + 7 * DIAGRAM_UNIT);
    assert_int_equal(y, by);
    piece = piece_in_square(svg, bx, by + 7 * DIAGRAM_UNIT);
    assert_true(piece && element_has(piece, GLYPH_ROOK) && !element_has(piece, "fill=\"#fff\""));
    piece = piece_in_square(svg, bx + 7 * DIAGRAM_UNIT, by);
    assert_true(piece && element_has(piece, GLYPH_ROOK) && element_has(piece, "fill=\"#fff\""));
    assert_non_null(strstr(svg, "<text x=\"100\" y=\"841\">h</text>"));
    assert_non_null(strstr(svg, "<text x=\"30\" y=\"771\">8</text>"));
    free(svg);

    /* Without coordinates: no labels, and the board moves left. */
    st.orientation = WHITE;
    st.coordinates = false;
    svg = diagram_of("chess", NULL, &st, NULL);
    assert_int_equal(diagram_board_x(&st), 10);
    assert_null(strstr(svg, ">a</text>"));
    assert_non_null(strstr(svg, "viewBox=\"0 0 860 820\""));
    assert_non_null(element_xy(svg, "<rect x=", &x, &y));
    assert_int_equal(x, 10);
    assert_int_equal(y, 710);
    free(svg);
}

/* The scale sets only the size in px; values out of range are clamped. */
static void test_scale(void **state)
{
    (void)state;
    static const struct {
        int px;
        const char *size;
    } cases[] = {
        { 48, "width=\"432\" height=\"412.8\"" },   { 16, "width=\"144\" height=\"137.6\"" },
        { 17, "width=\"153\" height=\"146.2\"" },   { 128, "width=\"1152\" height=\"1100.8\"" },
        { 5, "width=\"144\" height=\"137.6\"" },    { 1000, "width=\"1152\" height=\"1100.8\"" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        DiagramStyle st;
        diagram_style_default(&st);
        st.square_px = cases[i].px;
        char *svg = diagram_of("chess", NULL, &st, NULL);
        if (!strstr(svg, cases[i].size)) fail_msg("%d px: no %s in\n%.300s", cases[i].px, cases[i].size, svg);
        assert_non_null(strstr(svg, "viewBox=\"0 0 900 860\""));
        free(svg);
    }
}

/* ------------------------------------------------------------------ */
/* Piece sets and colours                                              */
/* ------------------------------------------------------------------ */

static void test_letters(void **state)
{
    (void)state;
    DiagramStyle st;
    diagram_style_default(&st);
    st.piece_set = DIAGRAM_SET_LETTERS;
    char *svg = diagram_of("chess", NULL, &st, NULL);
    assert_int_equal(glyphs(svg), 0);
    assert_int_equal(count_of(svg, "r=\"38\""), 32);
    assert_int_equal(count_of(svg, ">K</text>"), 2);
    assert_int_equal(count_of(svg, ">Q</text>"), 2);
    assert_int_equal(count_of(svg, ">R</text>"), 4);
    assert_int_equal(count_of(svg, ">B</text>"), 4);
    assert_int_equal(count_of(svg, ">N</text>"), 4);
    assert_int_equal(count_of(svg, ">P</text>"), 16);
    /* White's discs are light with dark letters, Black's the other way round. */
    assert_int_equal(count_of(svg, "r=\"38\" fill=\"#fff\""), 16);
    assert_int_equal(count_of(svg, "r=\"38\" fill=\"#111\""), 16);
    assert_int_equal(count_of(svg, "fill=\"#111\">K</text>"), 1);
    assert_int_equal(count_of(svg, "fill=\"#fff\">K</text>"), 1);
    free(svg);
}

/* The page's default pieces: a drawing of 45 units per piece, stretched
 * over its square, White's filled white, Black's black. */
static void test_cburnett(void **state)
{
    (void)state;
    DiagramStyle st;
    diagram_style_default(&st);
    st.piece_set = DIAGRAM_SET_CBURNETT;
    char *svg = diagram_of("chess", NULL, &st, NULL);
    assert_int_equal(glyphs(svg), 0);
    assert_int_equal(count_of(svg, "viewBox=\"0 0 45 45\""), 32);
    assert_int_equal(count_of(svg, "width=\"100\" height=\"100\" viewBox=\"0 0 45 45\""), 32);
    /* The white king stands on e1: its drawing starts at e1's corner. */
    int x, y;
    assert_non_null(element_xy(svg, "<svg x=\"450\"", &x, &y));
    free(svg);
    int n = -1;
    Text err = TEXT_INIT;
    assert_true(diagram_parse_set("cburnett", &n, &err) && n == DIAGRAM_SET_CBURNETT);
    text_free(&err);
    /* With a Chessgi pocket too. */
    svg = diagram_of("chessgi", NULL, &st, "pocket");
    assert_true(count_of(svg, "viewBox=\"0 0 45 45\"") >= 32);
    free(svg);
}

static void test_colors(void **state)
{
    (void)state;
    static const struct {
        int colors;
        const char *light, *dark;
    } table[] = {
        { DIAGRAM_COLORS_BROWN, "#f0d9b5", "#b58863" },
        { DIAGRAM_COLORS_GREEN, "#eeeed2", "#769656" },
        { DIAGRAM_COLORS_BLUE, "#dee3e6", "#8ca2ad" },
        { DIAGRAM_COLORS_GREY, "#e4e4e4", "#a9a9a9" },
    };
    for (size_t i = 0; i < 4; i++) {
        DiagramStyle st;
        diagram_style_default(&st);
        st.colors = table[i].colors;
        char *svg = diagram_of("chess", NULL, &st, NULL);
        char light[64], dark[64];
        snprintf(light, sizeof light, "height=\"100\" fill=\"%s\"/>", table[i].light);
        snprintf(dark, sizeof dark, "height=\"100\" fill=\"%s\"/>", table[i].dark);
        assert_int_equal(count_of(svg, light), 32);
        assert_int_equal(count_of(svg, dark), 32);
        /* a1 (written first) is dark, b1 light. */
        const char *a1 = strstr(svg, "<rect x=");
        assert_true(a1 && strstr(a1, dark) == strstr(a1, "height=\"100\""));
        const char *b1 = strstr(a1 + 1, "<rect x=");
        assert_true(b1 && strstr(b1, light) == strstr(b1, "height=\"100\""));
        free(svg);
    }
    /* A value out of range draws the default. */
    DiagramStyle st;
    diagram_style_default(&st);
    st.colors = 99;
    st.piece_set = -1;
    char *svg = diagram_of("chess", NULL, &st, NULL);
    assert_int_equal(count_of(svg, "fill=\"#b58863\""), 32);
    assert_int_equal(glyphs(svg), 32);
    free(svg);
}

/* ------------------------------------------------------------------ */
/* What a game keeps beside the board                                  */
/* ------------------------------------------------------------------ */

/* The mark drawn as `entity` (in the badge's red) lies in square sq: its
 * badge, the disc written just before it, in the square's top right corner. */
static void assert_mark_in(const char *svg, const char *entity_text, Square sq, Color orientation)
{
    char needle[64];
    snprintf(needle, sizeof needle, "fill=\"#c00\">%s</text>", entity_text);
    const char *hit = strstr(svg, needle);
    if (!hit) fail_msg("no mark %s", entity_text);
    const char *badge = hit;
    while (badge > svg && strncmp(badge, "<circle", 7)) badge--;
    const char *cx = strstr(badge, " cx=\""), *cy = strstr(badge, " cy=\"");
    assert_true(cx && cy && cy < hit);
    int x = atoi(cx + 5), y = atoi(cy + 5);
    DiagramStyle st;
    diagram_style_default(&st);
    int col = orientation == WHITE ? square_file(sq) : 7 - square_file(sq);
    int row = orientation == WHITE ? 7 - square_rank(sq) : square_rank(sq);
    int sx = diagram_board_x(&st) + col * DIAGRAM_UNIT;
    int sy = diagram_board_y(variant_find("travelers"), &st) + row * DIAGRAM_UNIT;
    if (x <= sx + DIAGRAM_UNIT / 2 || x >= sx + DIAGRAM_UNIT || y <= sy || y >= sy + DIAGRAM_UNIT / 2)
        fail_msg("mark %s at (%d, %d), not in the top right of the square at (%d, %d)", entity_text, x, y, sx, sy);
}

static void test_travelers_marks(void **state)
{
    (void)state;
    DiagramStyle st;
    diagram_style_default(&st);
    /* A traveling king on d4 (K'), a traveled one on e2 (K"), an untraveled one on e1. */
    const char *fen = "4k3/8/8/8/3K'4/8/4K\"3/4K3 b - - 0 1 e1:1 Kd4:1 -";
    for (Color c = WHITE; c <= BLACK; c++) {
        st.orientation = c;
        char *svg = diagram_of("travelers", fen, &st, NULL);
        assert_int_equal(glyphs(svg), 4);
        assert_int_equal(count_of(svg, "fill=\"#c00\">"), 2);
        assert_mark_in(svg, "&apos;", make_square(3, 3), c);
        assert_mark_in(svg, "&quot;", make_square(4, 1), c);
        /* The title names the game, its apostrophe escaped. */
        assert_non_null(strstr(svg, "<title>Time Traveler&apos;s Chess</title>"));
        assert_non_null(strstr(svg, "<title>Black to move</title>"));
        free(svg);
    }
    /* At the start nothing has traveled: no marks. */
    st.orientation = WHITE;
    char *svg = diagram_of("travelers", NULL, &st, NULL);
    assert_int_equal(count_of(svg, "#c00"), 0);
    free(svg);
}

static void test_chessgi_pockets(void **state)
{
    (void)state;
    DiagramStyle st;
    diagram_style_default(&st);
    /* 19 pieces on the board; White's pocket Q B N PPPP, Black's rrr n pp. */
    const char *fen = "5Rp1/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnpp] b - - 1 48";
    char *svg = diagram_of("chessgi-classic", fen, &st, "Move 48");
    assert_int_equal(glyphs(svg), 19 + 7);
    assert_int_equal(count_of(svg, "rx=\"8\""), 2);
    assert_int_equal(count_of(svg, "\xC3\x97" "4<"), 1);
    assert_int_equal(count_of(svg, "\xC3\x97" "3<"), 1);
    assert_int_equal(count_of(svg, "\xC3\x97" "2<"), 1);
    assert_int_equal(count_of(svg, "\xC3\x97" "1<"), 4);
    /* The pockets above and below the board: 10 + 110 + 800 + 40 + 110 + 50 (caption) + 10. */
    assert_non_null(strstr(svg, "viewBox=\"0 0 900 1130\""));
    int by = diagram_board_y(variant_find("chessgi-classic"), &st);
    assert_int_equal(by, 120);
    /* White's pocket is under the board when White is at the bottom: its
     * queen is drawn below the file labels, Black's rooks above the board. */
    int x, y;
    const char *p = svg;
    bool white_queen = false, black_rook = false;
    while ((p = element_xy(p, "<text x=", &x, &y)) != NULL) {
        if (element_has(p, GLYPH_QUEEN) && element_has(p, "fill=\"#fff\"") && y > by + 8 * DIAGRAM_UNIT + 40) white_queen = true;
        if (element_has(p, GLYPH_ROOK) && !element_has(p, "fill=\"#fff\"") && y < by) black_rook = true;
        p++;
    }
    assert_true(white_queen && black_rook);
    /* Black to move: the disc beside the top row. */
    assert_non_null(strstr(svg, "fill=\"#111\" stroke=\"#111\" stroke-width=\"3\"><title>Black to move</title>"));
    char marker[64];
    snprintf(marker, sizeof marker, "cy=\"%d\" r=\"14\"", by + DIAGRAM_UNIT / 2);
    assert_non_null(strstr(svg, marker));
    free(svg);

    /* The start: empty trays, no counts; the same room, so that the
     * board does not move when the first piece is taken. */
    svg = diagram_of("chessgi", NULL, &st, NULL);
    assert_int_equal(glyphs(svg), 32);
    assert_int_equal(count_of(svg, "rx=\"8\""), 2);
    assert_int_equal(count_of(svg, "\xC3\x97"), 0);
    assert_non_null(strstr(svg, "viewBox=\"0 0 900 1080\""));
    free(svg);

    /* Letters in the pockets too. */
    st.piece_set = DIAGRAM_SET_LETTERS;
    svg = diagram_of("chessgi", "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1 -/- 0", &st, NULL);
    assert_int_equal(count_of(svg, ">P</text>"), 2);
    assert_int_equal(count_of(svg, "\xC3\x97" "1<"), 2);
    free(svg);
}

/* ------------------------------------------------------------------ */
/* The caption                                                         */
/* ------------------------------------------------------------------ */

static void test_caption(void **state)
{
    (void)state;
    DiagramStyle st;
    diagram_style_default(&st);
    char *svg = diagram_of("chess", NULL, &st, "Move 12, timeline 2 <&> \"x\" 'y'");
    assert_non_null(strstr(svg, ">Move 12, timeline 2 &lt;&amp;&gt; &quot;x&quot; &apos;y&apos;</text>"));
    assert_non_null(strstr(svg, "<title>Standard: Move 12, timeline 2 &lt;&amp;&gt;"));
    assert_null(strstr(svg, "<&>"));
    assert_non_null(strstr(svg, "viewBox=\"0 0 900 910\""));
    free(svg);
    /* Control characters become spaces, bytes that are not UTF-8 '?';
     * UTF-8 stays as it is. */
    svg = diagram_of("chess", NULL, &st, "a\x01" "b\xff" "c\xc3\xa9" "d\xe2\x99" "e\xed\xa0\x80" "f\xef\xbf\xbf");
    assert_non_null(strstr(svg, ">a b?c\xc3\xa9" "d?" "?e?" "??f?" "?" "?<" "/text>"));
    free(svg);
    /* An empty caption is none. */
    svg = diagram_of("chess", NULL, &st, "");
    assert_non_null(strstr(svg, "viewBox=\"0 0 900 860\""));
    free(svg);
}

/* ------------------------------------------------------------------ */
/* Every variant, every style                                          */
/* ------------------------------------------------------------------ */

static void test_every_variant(void **state)
{
    (void)state;
    for (int i = 0; VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        for (int k = 0; k < 2 * 2 * DIAGRAM_SETS * DIAGRAM_COLORS_COUNT; k++) {
            DiagramStyle st;
            diagram_style_default(&st);
            st.orientation = (Color)(k % 2);
            st.coordinates = k / 2 % 2;
            st.piece_set = k / 4 % DIAGRAM_SETS;
            st.colors = k / (4 * DIAGRAM_SETS);
            st.square_px = 16 + 7 * k;
            char *svg = diagram_of(v->name, NULL, &st, k % 3 ? NULL : v->name);
            int pieces = st.piece_set == DIAGRAM_SET_GLYPHS     ? glyphs(svg)
                         : st.piece_set == DIAGRAM_SET_CBURNETT ? count_of(svg, "viewBox=\"0 0 45 45\"")
                                                                : count_of(svg, "r=\"38\"");
            if (pieces != 32) fail_msg("%s, style %d: %d pieces", v->name, k, pieces);
            /* The squares, and each cburnett piece's own drawing. */
            assert_int_equal(count_of(svg, "width=\"100\" height=\"100\""),
                             64 + (st.piece_set == DIAGRAM_SET_CBURNETT ? 32 : 0));
            free(svg);
        }
    }
}

/* Random games of every variant, with travels favoured: every position's
 * diagram is well-formed, draws each piece on the board once, one count
 * for each kind of piece in a pocket, and one badge for each marked piece. */
static void test_random_games(void **state)
{
    (void)state;
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        Game g;
        Text err = TEXT_INIT, out = TEXT_INIT;
        if (!game_init(&g, v, NULL, NULL, &err)) fail_msg("%s: %s", v->name, text_str(&err));
        int marks = 0, counts = 0;
        for (int ply = 0; ply < 80; ply++) {
            Outcome o;
            assert_true(game_outcome(&g, &o));
            MoveList l;
            legal_list(&g, &l);
            if (o.result != RESULT_NONE || l.count == 0) {
                movelist_free(&l);
                break;
            }
            Move m = pick_action(&l, &seed, true);
            movelist_free(&l);
            assert_true(game_push(&g, m));
            DiagramStyle st;
            diagram_style_default(&st);
            st.orientation = (Color)(ply % 2);
            st.coordinates = ply % 3 != 0;
            const State *s = game_state(&g);
            text_clear(&out);
            assert_true(diagram_svg(v, &g.options, s, &st, "Ply <n>", &out));
            const char *svg = text_str(&out);
            assert_well_formed(svg);
            int on_board = __builtin_popcountll(board_occupied(&s->board));
            int pocket_kinds = count_of(svg, "\xC3\x97");
            if (glyphs(svg) != on_board + pocket_kinds)
                fail_msg("%s, ply %d: %d glyphs for %d pieces and %d in pockets", v->name, ply, glyphs(svg), on_board,
                         pocket_kinds);
            int marked = 0;
            for (int sq = 0; v->piece_mark && sq < 64; sq++)
                marked += s->board.squares[sq] != NO_PIECE && v->piece_mark(s, (Square)sq) != 0;
            assert_int_equal(count_of(svg, "fill=\"#c00\">"), marked);
            marks += marked;
            counts += pocket_kinds;
        }
        /* The games reach what they should show. */
        if (v->piece_mark) assert_true(marks > 0);
        if (strchr(v->start_fen, '[')) assert_true(counts > 0);
        text_free(&out);
        text_free(&err);
        game_free(&g);
    }
}

/* A text that has already failed (out of memory) fails the diagram. */
static void test_out_of_memory(void **state)
{
    (void)state;
    DiagramStyle st;
    diagram_style_default(&st);
    const Variant *v = &VARIANT_CHESS;
    Options o;
    options_default(v, &o);
    State *s = v->from_fen(&o, v->start_fen, NULL);
    assert_non_null(s);
    Text out = TEXT_INIT;
    out.failed = true;
    assert_false(diagram_svg(v, &o, s, &st, "x", &out));
    free(s);
    text_free(&out);
}

/* ------------------------------------------------------------------ */
/* Style names                                                         */
/* ------------------------------------------------------------------ */

static void test_parse_style(void **state)
{
    (void)state;
    Text err = TEXT_INIT;
    Color c = WHITE;
    int n = -1;
    bool b = false;
    assert_true(diagram_parse_orientation("black", &c, &err) && c == BLACK);
    assert_true(diagram_parse_orientation("White", &c, &err) && c == WHITE);
    assert_true(diagram_parse_set("letters", &n, &err) && n == DIAGRAM_SET_LETTERS);
    assert_true(diagram_parse_set("GLYPHS", &n, &err) && n == DIAGRAM_SET_GLYPHS);
    assert_true(diagram_parse_colors("green", &n, &err) && n == DIAGRAM_COLORS_GREEN);
    assert_true(diagram_parse_colors("blue", &n, &err) && n == DIAGRAM_COLORS_BLUE);
    assert_true(diagram_parse_colors("grey", &n, &err) && n == DIAGRAM_COLORS_GREY);
    assert_true(diagram_parse_colors("Gray", &n, &err) && n == DIAGRAM_COLORS_GREY);
    assert_true(diagram_parse_colors("brown", &n, &err) && n == DIAGRAM_COLORS_BROWN);
    assert_true(diagram_parse_size("16", &n, &err) && n == 16);
    assert_true(diagram_parse_size("128", &n, &err) && n == 128);
    assert_true(diagram_parse_coordinates("off", &b, &err) && !b);
    assert_true(diagram_parse_coordinates("1", &b, &err) && b);
    assert_true(diagram_parse_coordinates("no", &b, &err) && !b);

    c = WHITE;
    assert_false(diagram_parse_orientation("up", &c, &err));
    assert_string_equal(text_str(&err), "bad orientation 'up': use white or black");
    assert_int_equal(c, WHITE);
    assert_false(diagram_parse_orientation(NULL, &c, &err));
    assert_string_equal(text_str(&err), "bad orientation: use white or black");
    assert_false(diagram_parse_set("pictures", &n, &err));
    assert_string_equal(text_str(&err), "bad piece set 'pictures': use glyphs, letters or cburnett");
    n = DIAGRAM_COLORS_BLUE;
    assert_false(diagram_parse_colors("pink", &n, &err));
    assert_string_equal(text_str(&err), "bad colors 'pink': use brown, green, blue or grey");
    assert_int_equal(n, DIAGRAM_COLORS_BLUE);
    /* A value that is not short plain ASCII is not repeated. */
    assert_false(diagram_parse_colors("p\xc3\xabnk", &n, &err));
    assert_string_equal(text_str(&err), "bad colors: use brown, green, blue or grey");
    assert_false(diagram_parse_size("15", &n, &err));
    assert_string_equal(text_str(&err), "bad size '15': use a whole number of px a square from 16 to 128");
    assert_false(diagram_parse_size("129", &n, &err));
    assert_false(diagram_parse_size("4x", &n, &err));
    assert_false(diagram_parse_size("", &n, &err));
    assert_false(diagram_parse_size("00048000", &n, &err));
    assert_false(diagram_parse_coordinates("maybe", &b, &err));
    assert_string_equal(text_str(&err), "bad coordinates 'maybe': use on or off (or yes/no, true/false, 1/0)");

    /* By the query's field names; a bad one changes nothing. */
    DiagramStyle st, before;
    diagram_style_default(&st);
    assert_true(diagram_style_set(&st, "orientation", "black", &err));
    assert_true(diagram_style_set(&st, "set", "letters", &err));
    assert_true(diagram_style_set(&st, "colors", "grey", &err));
    assert_true(diagram_style_set(&st, "size", "64", &err));
    assert_true(diagram_style_set(&st, "coordinates", "off", &err));
    assert_int_equal(st.orientation, BLACK);
    assert_int_equal(st.piece_set, DIAGRAM_SET_LETTERS);
    assert_int_equal(st.colors, DIAGRAM_COLORS_GREY);
    assert_int_equal(st.square_px, 64);
    assert_false(st.coordinates);
    before = st;
    assert_false(diagram_style_set(&st, "shape", "round", &err));
    assert_string_equal(text_str(&err), "bad diagram option 'shape': use orientation, set, colors, size or coordinates");
    assert_false(diagram_style_set(&st, "size", "1000", &err));
    assert_memory_equal(&st, &before, sizeof st);
    text_free(&err);
}

/* The reader above refuses what it should (so that its passes mean something). */
static void test_xml_checker(void **state)
{
    (void)state;
    assert_null(xml_problem("<?xml version=\"1.0\"?>\n<svg a=\"1\"><g><rect/></g><text>&amp;&#215;</text></svg>\n"));
    assert_non_null(xml_problem("<svg><g></svg>"));
    assert_non_null(xml_problem("<svg><text>a & b</text></svg>"));
    assert_non_null(xml_problem("<svg><text>a > b</text></svg>"));
    assert_non_null(xml_problem("<svg a=1></svg>"));
    assert_non_null(xml_problem("<svg a=\"<\"></svg>"));
    assert_non_null(xml_problem("<svg></svg><svg></svg>"));
    assert_non_null(xml_problem("<svg><text>x</g></svg>"));
    assert_non_null(xml_problem("<svg>"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xml_checker),
        cmocka_unit_test(test_start_position),
        cmocka_unit_test(test_scale),
        cmocka_unit_test(test_letters),
        cmocka_unit_test(test_cburnett),
        cmocka_unit_test(test_colors),
        cmocka_unit_test(test_travelers_marks),
        cmocka_unit_test(test_chessgi_pockets),
        cmocka_unit_test(test_caption),
        cmocka_unit_test(test_every_variant),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_parse_style),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
