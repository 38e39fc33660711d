/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every variant shares: the table of the registry, the options, the
 * positions a FEN may give (standard chess: one king a side, the side not
 * to move not in check), the order in which the ends of a game are named
 * when several apply at once, and the words and codes of outcomes.  The
 * Gifford side of each is in test_gifford.c.
 */
#include "support.h"

/* Every game's own header, together: none may claim a name another uses
 * (both Chessgi and van Gog have travellers). */
#include "chessgi.h"
#include "eval.h"
#include "gifford.h"
#include "travelers.h"
#include "vangog.h"

/* ---- Helpers ------------------------------------------------------------ */

static const Variant *variant(const char *name)
{
    const Variant *v = variant_find(name);
    if (!v) fail_msg("no variant '%s'", name);
    return v;
}

/* game_init must refuse the FEN with a message that contains `expected`. */
static void assert_fen_refused(const char *name, const char *fen, const char *expected)
{
    Game g;
    Text err = TEXT_INIT;
    bool accepted = game_init(&g, variant(name), NULL, fen, &err);
    game_free(&g);
    char got[512];
    snprintf(got, sizeof got, "%s", text_str(&err));
    text_free(&err);
    if (accepted) fail_msg("%s: FEN accepted: %s", name, fen);
    if (!strstr(got, expected)) fail_msg("%s: expected '%s', got '%s'", fen, expected, got);
}

static Outcome outcome_of(const Game *g)
{
    Outcome o;
    assert_true(game_outcome(g, &o));
    return o;
}

/* The outcome's words as outcome_line writes them (static). */
static const char *line_of(Outcome o, const char *recorded)
{
    static char buf[512];
    Text t = TEXT_INIT;
    outcome_line(o, recorded, &t);
    snprintf(buf, sizeof buf, "%s", text_str(&t));
    text_free(&t);
    return buf;
}

/* ---- The registry ------------------------------------------------------- */

static void test_registry_tables_complete(void **state)
{
    (void)state;
    int count = 0;
    for (int i = 0; VARIANTS[i]; i++, count++) {
        const Variant *v = VARIANTS[i];
        assert_non_null(v->name);
        assert_non_null(v->title);
        assert_non_null(v->start_fen);
        assert_ptr_equal(variant_find(v->name), v);
        assert_ptr_equal(variant_find_label(v->title, v->mode), v);
        assert_non_null(v->from_fen);
        assert_non_null(v->to_fen);
        assert_non_null(v->generate);
        assert_non_null(v->apply);
        assert_non_null(v->in_check);
        assert_non_null(v->outcome);
        /* Every game judges a flag by its own means of winning. */
        assert_non_null(v->can_win);
        assert_non_null(v->same_position);
        assert_non_null(v->parse);
        assert_non_null(v->format_coord);
        assert_non_null(v->format_human);
        /* A variant with its own state keys it. */
        if (v->ext_size || v->ext_room) assert_non_null(v->ext_key);
        /* Both halves of a travel back or neither. */
        assert_true((v->sheet_departure == NULL) == (v->sheet_join == NULL));
        assert_in_range(v->option_count, 0, OPTIONS_MAX);
        for (int k = 0; k < v->option_count; k++) {
            const OptionSpec *o = &v->options[k];
            assert_non_null(o->name);
            assert_non_null(o->help);
            assert_true(o->min <= o->value && o->value <= o->max);
            for (int j = 0; j < k; j++) assert_string_not_equal(o->name, v->options[j].name);
        }
        /* The start position is one the variant reads, and the game starts
         * ongoing. */
        Game g;
        game_start(&g, v->name, NULL);
        assert_int_equal(outcome_of(&g).result, RESULT_NONE);
        assert_int_equal(game_count(&g), 1);
        assert_int_equal(game_timelines(&g), 1);
        game_free(&g);
    }
    assert_true(count >= 2);
    assert_ptr_equal(VARIANTS[0], &VARIANT_CHESS);
    assert_null(variant_find("no such game"));
    assert_null(variant_find_label("no such game", NULL));
    assert_ptr_equal(variant_find_label("STANDARD", NULL), &VARIANT_CHESS);
    Text names = TEXT_INIT;
    variant_names(&names);
    assert_int_equal(strncmp(text_str(&names), "chess, gifford", 14), 0);
    text_free(&names);
}

/* A game's sample positions read and play in the game; the games of
 * src/variants bench a start and a game under way each (ttchess bench
 * searches them, in the registry's order; a game from outside, such as
 * tests/toy_game, need have none). */
static void test_every_variant_has_bench_samples(void **state)
{
    (void)state;
    for (int i = 0; VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        int benched = 0;
        for (int k = 0; k < v->sample_count; k++) {
            const SamplePosition *p = &v->samples[k];
            benched += p->bench_depth > 0;
            Options o;
            options_default(v, &o);
            Text err = TEXT_INIT;
            if (p->options && !options_parse(v, &o, p->options, &err)) fail_msg("%s: %s", v->name, text_str(&err));
            Game g;
            if (!game_init(&g, v, &o, p->fen, &err)) fail_msg("%s sample %d: %s", v->name, k, text_str(&err));
            text_free(&err);
            if (p->moves) play_all(&g, p->moves);
            game_free(&g);
        }
        if (benched < 2 && strcmp(v->name, "toy")) fail_msg("%s has %d bench positions", v->name, benched);
    }
}

/* The command line's slots: check is an attack on a king by default
 * (the kings lit, the explanation), and a game with `supports` words its
 * help. */
static void test_check_defaults(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "chess", NULL);
    play_all(&g, "f3 e5 g4 Qh4");
    Line l;
    line_open(&l, &g, game_current(&g));
    assert_true(variant_checked_kings(g.variant, &l) == 1ULL << make_square(4, 0));
    Text out = TEXT_INIT;
    assert_true(variant_explain_check(g.variant, &l, &out));
    assert_string_equal(text_str(&out), "White is in check: a king of its is attacked.\n");
    text_clear(&out);
    assert_false(variant_explain_supports(g.variant, &l, make_square(4, 3), &out, &out));
    line_close(&l);
    text_free(&out);
    game_free(&g);
    for (int i = 0; VARIANTS[i]; i++)
        if (variant_has_supports(VARIANTS[i])) {
            assert_non_null(VARIANTS[i]->supports_summary);
            assert_non_null(VARIANTS[i]->supports_help);
        }
}

/* ---- Options ------------------------------------------------------------ */

/* Each registered variant names its evaluator in its own table: a game
 * without one is an error here, not chess's evaluation in disguise. */
static void test_every_variant_names_its_evaluator(void **state)
{
    (void)state;
    for (int i = 0; VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        const Evaluator *ev = evaluator_for(v);
        if (!ev) fail_msg("%s names no evaluator", v->name);
        assert_ptr_equal(ev, v->evaluator);
        assert_string_equal(ev->variant, v->name);
        assert_non_null(ev->evaluate);
    }
}

/* The registry lists the games in the order of games.h, which is the
 * order `ttchess variants` and help print (a build with a game from
 * outside, GAME_DIR_EXTRA, lists it after these). */
static void test_registry_order(void **state)
{
    (void)state;
    static const char games[] =
        "chess, gifford, vangog, vangog-past, vangog-future, travelers, chessgi-classic, chessgi";
    Text names = TEXT_INIT;
    variant_names(&names);
    const char *got = text_str(&names);
    if (strncmp(got, games, strlen(games)) || (got[strlen(games)] && got[strlen(games)] != ','))
        fail_msg("the variants are listed as: %s", got);
    text_free(&names);
}

/* The games' headers can be included together: their travellers are two
 * types of two names. */
static void test_game_headers_together(void **state)
{
    (void)state;
    ChessgiTraveller chessgi = { .due = 12, .type = KNIGHT };
    VanGogTraveller vangog = { .type = QUEEN, .to = make_square(7, 4) };
    assert_int_equal(chessgi.due, 12);
    assert_int_equal(vangog.to, make_square(7, 4));
    assert_true(sizeof(GiffordState) > 0 && sizeof(TravelersState) > 0);
}

static void test_chess_has_no_options(void **state)
{
    (void)state;
    Options o;
    Text err = TEXT_INIT, out = TEXT_INIT;
    options_default(&VARIANT_CHESS, &o);
    assert_true(options_parse(&VARIANT_CHESS, &o, "", &err));
    assert_true(options_parse(&VARIANT_CHESS, &o, NULL, &err));
    assert_true(options_parse(&VARIANT_CHESS, &o, " , ", &err));
    assert_false(options_parse(&VARIANT_CHESS, &o, "forward=8", &err));
    assert_string_equal(text_str(&err), "chess has no options (given 'forward=8')");
    options_format(&VARIANT_CHESS, &o, true, &out);
    assert_string_equal(text_str(&out), "");
    text_free(&out);
    text_free(&err);
}

/* ---- Standard chess FEN ------------------------------------------------- */

static void test_chess_fen_needs_one_king_a_side(void **state)
{
    (void)state;
    assert_fen_refused("chess", "8/8/8/8/8/8/8/8 w - - 0 1",
                       "bad FEN: white has 0 kings, and chess needs exactly one king a side");
    assert_fen_refused("chess", "8/8/8/8/8/8/8/4K3 w - - 0 1",
                       "bad FEN: black has 0 kings, and chess needs exactly one king a side");
    assert_fen_refused("chess", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "white has 2 kings");
    assert_fen_refused("chess", "3kk3/8/8/8/8/8/8/4K3 w - - 0 1", "black has 2 kings");
    assert_fen_refused("chess", "4k3/8/8/8/8/8/KKKKKKKK/KKKKKKKK w - - 0 1", "white has 16 kings");
    assert_fen_refused("chess", "kkkkkkkk/kkkkkkkk/8/8/8/8/8/4K3 b - - 0 1", "black has 16 kings");
}

static void test_chess_fen_side_not_to_move_in_check(void **state)
{
    (void)state;
    assert_fen_refused("chess", "4k3/4R3/8/8/8/8/8/7K w - - 0 1",
                       "bad FEN: black is in check, but white is to move (that position cannot arise)");
    assert_fen_refused("chess", "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1", "white is in check, but black is to move");
    /* The side to move may be in check, even twice. */
    Game g;
    game_start(&g, "chess", "4k3/4R3/8/8/8/8/8/7K b - - 0 1");
    assert_true(game_in_check(&g));
    game_free(&g);
    game_start(&g, "chess", "4k3/8/5N2/8/8/8/4R3/7K b - - 0 1");
    assert_true(game_in_check(&g));
    game_free(&g);
}

/* ---- The order of the ends ---------------------------------------------- */

/* Checkmate, stalemate, dead position, fifty-move rule, threefold
 * repetition: the first that applies is named. */
static void test_chess_outcome_order(void **state)
{
    (void)state;
    static const struct {
        const char *fen, *moves, *status;
        uint8_t result, reason;
    } cases[] = {
        { "4k3/8/8/8/8/8/8/4K3 w - - 100 60", "", "1/2-1/2 insufficient material", RESULT_DRAW,
          REASON_INSUFFICIENT_MATERIAL },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 60", "", "1/2-1/2 insufficient material", RESULT_DRAW,
          REASON_INSUFFICIENT_MATERIAL },
        { "4k3/8/8/8/8/8/3P4/4K3 w - - 100 60", "", "1/2-1/2 fifty-move rule", RESULT_DRAW, REASON_FIFTY_MOVES },
        { "7k/6Q1/6K1/8/8/8/8/8 b - - 100 80", "", "1-0 checkmate", RESULT_WHITE_WINS, REASON_CHECKMATE },
        { "7k/8/5K2/8/8/8/8/6Q1 w - - 99 80", "Qg7", "1-0 checkmate", RESULT_WHITE_WINS, REASON_CHECKMATE },
        /* King and knight against king, and stalemate. */
        { "k7/2K5/2N5/8/8/8/8/8 b - - 0 1", "", "1/2-1/2 stalemate", RESULT_DRAW, REASON_STALEMATE },
        { "k7/2K5/2N5/8/8/8/8/8 b - - 100 70", "", "1/2-1/2 stalemate", RESULT_DRAW, REASON_STALEMATE },
        /* The fifty-move count and a third repetition at the same ply. */
        { "4k3/8/8/8/8/8/3P4/4K3 w - - 92 60", "Kf1 Kd8 Ke1 Ke8 Kf1 Kd8 Ke1 Ke8", "1/2-1/2 fifty-move rule",
          RESULT_DRAW, REASON_FIFTY_MOVES },
        { "4k3/8/8/8/8/8/3P4/4K3 w - - 91 60", "Kf1 Kd8 Ke1 Ke8 Kf1 Kd8 Ke1 Ke8", "1/2-1/2 threefold repetition",
          RESULT_DRAW, REASON_REPETITION },
        /* A capture that leaves kings only. */
        { "4k3/8/8/8/8/8/3p4/4K3 w - - 99 60", "Kxd2", "1/2-1/2 insufficient material", RESULT_DRAW,
          REASON_INSUFFICIENT_MATERIAL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game g;
        game_start(&g, "chess", cases[i].fen);
        if (cases[i].moves[0]) play_all(&g, cases[i].moves);
        if (strcmp(game_status(&g), cases[i].status))
            fail_msg("%s %s: expected '%s', got '%s'", cases[i].fen, cases[i].moves, cases[i].status, game_status(&g));
        Outcome o = outcome_of(&g);
        assert_int_equal(o.result, cases[i].result);
        assert_int_equal(o.reason, cases[i].reason);
        assert_int_equal(o.side, SIDE_NONE);
        game_free(&g);
    }
}

/* The same order in Gifford, for the ends the two games share. */
static void test_gifford_outcome_order_as_chess(void **state)
{
    (void)state;
    static const char *const fens[][2] = {
        { "4k3/8/8/8/8/8/8/4K3 w - - 100 60", "1/2-1/2 insufficient material" },
        { "7k/6Q1/6K1/8/8/8/8/8 b - - 100 80", "1-0 checkmate" },
        { "4k3/8/8/8/8/8/3P4/4K3 w - - 100 60", "1/2-1/2 fifty-move rule" },
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        Game g;
        game_start(&g, "gifford", fens[i][0]);
        assert_string_equal(game_status(&g), fens[i][1]);
        game_free(&g);
    }
}

/* ---- Outcomes in words and codes ---------------------------------------- */

/* A game's own end (REASON_OWN) is said in its words, after the side it
 * names, and read back by them for that game only: a new end needs no
 * entry in the library's reasons. */
static void test_own_end_in_words(void **state)
{
    (void)state;
    static const char *const ENDS[] = { "pawns all home", "flag planted", NULL };
    Variant own = VARIANT_CHESS;
    own.ends = ENDS;
    assert_string_equal(line_of(outcome_own(RESULT_WHITE_WINS, ENDS[1], SIDE_WHITE), NULL), "1-0 white flag planted");
    assert_string_equal(line_of(outcome_own(RESULT_DRAW, ENDS[0], SIDE_NONE), NULL), "1/2-1/2 pawns all home");
    Outcome o = outcome_none();
    assert_true(outcome_from_words(&own, "black flag planted", &o));
    assert_int_equal(o.reason, REASON_OWN);
    assert_int_equal(o.side, SIDE_BLACK);
    assert_string_equal(o.own, "flag planted");
    assert_true(outcome_from_words(&own, "pawns all home", &o));
    assert_int_equal(o.side, SIDE_NONE);
    assert_ptr_equal(o.own, ENDS[0]);
    /* Another game does not read them; the library's own stay first. */
    assert_false(outcome_from_words(&VARIANT_CHESS, "black flag planted", &o));
    assert_true(outcome_from_words(&own, "white resigns", &o));
    assert_int_equal(o.reason, REASON_RESIGNATION);
    assert_null(o.own);
}

static void test_outcome_words_and_codes(void **state)
{
    (void)state;
    static const struct {
        Outcome o;
        const char *line;
        bool read_back;
    } cases[] = {
        { { RESULT_NONE, REASON_NONE, SIDE_NONE, REASON_NONE, NULL }, "ongoing", false },
        { { RESULT_WHITE_WINS, REASON_CHECKMATE, SIDE_NONE, REASON_CHECKMATE, NULL }, "1-0 checkmate", true },
        { { RESULT_DRAW, REASON_STALEMATE, SIDE_NONE, REASON_STALEMATE, NULL }, "1/2-1/2 stalemate", true },
        { { RESULT_DRAW, REASON_INSUFFICIENT_MATERIAL, SIDE_NONE, REASON_INSUFFICIENT_MATERIAL, NULL }, "1/2-1/2 insufficient material", true },
        { { RESULT_DRAW, REASON_FIFTY_MOVES, SIDE_NONE, REASON_FIFTY_MOVES, NULL }, "1/2-1/2 fifty-move rule", true },
        { { RESULT_DRAW, REASON_REPETITION, SIDE_NONE, REASON_REPETITION, NULL }, "1/2-1/2 threefold repetition", true },
        { { RESULT_BLACK_WINS, REASON_KING_LOST_IN_TIME, SIDE_WHITE, REASON_KING_LOST_IN_TIME, NULL }, "0-1 white king lost in time", true },
        { { RESULT_WHITE_WINS, REASON_KING_LOST_IN_TIME, SIDE_BLACK, REASON_KING_LOST_IN_TIME, NULL }, "1-0 black king lost in time", true },
        { { RESULT_BOTH_LOSE, REASON_OBLIGATIONS_UNMET, SIDE_BOTH, REASON_OBLIGATIONS_UNMET, NULL }, "0-0 both obligations unmet", true },
        { { RESULT_WHITE_WINS, REASON_RESIGNATION, SIDE_BLACK, REASON_RESIGNATION, NULL }, "1-0 black resigns", true },
        { { RESULT_BLACK_WINS, REASON_RESIGNATION, SIDE_WHITE, REASON_RESIGNATION, NULL }, "0-1 white resigns", true },
        { { RESULT_DRAW, REASON_AGREED_DRAW, SIDE_NONE, REASON_AGREED_DRAW, NULL }, "1/2-1/2 agreed draw", true },
        { { RESULT_BLACK_WINS, REASON_TIME, SIDE_WHITE, REASON_TIME, NULL }, "0-1 white lost on time", true },
        { { RESULT_WHITE_WINS, REASON_TIME, SIDE_BLACK, REASON_TIME, NULL }, "1-0 black lost on time", true },
        { { RESULT_DRAW, REASON_TIME, SIDE_WHITE, REASON_TIME, NULL }, "1/2-1/2 white lost on time, but black cannot win", true },
        { { RESULT_DRAW, REASON_TIME, SIDE_BLACK, REASON_TIME, NULL }, "1/2-1/2 black lost on time, but white cannot win", true },
        { { RESULT_DRAW, REASON_RECORDED, SIDE_NONE, REASON_RECORDED, NULL }, "1/2-1/2 result recorded in the game file", false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_string_equal(line_of(cases[i].o, NULL), cases[i].line);
        if (!cases[i].read_back) continue;
        const char *words = strchr(cases[i].line, ' ') + 1;
        Outcome o = outcome_none();
        if (!outcome_from_words(&VARIANT_CHESS, words, &o)) fail_msg("'%s' not read back", words);
        assert_int_equal(o.reason, cases[i].o.reason);
        assert_int_equal(o.side, cases[i].o.side);
    }
    assert_string_equal(line_of(outcome_make(RESULT_WHITE_WINS, REASON_RECORDED, SIDE_NONE), "time forfeit"),
                        "1-0 time forfeit");
    Outcome o = outcome_none();
    assert_false(outcome_from_words(&VARIANT_CHESS, "time forfeit", &o));
    assert_false(outcome_from_words(&VARIANT_CHESS, "", &o));
    assert_false(outcome_from_words(&VARIANT_CHESS, "both resigns", &o));
    assert_false(outcome_from_words(&VARIANT_CHESS, "white checkmate", &o));
    assert_false(outcome_from_words(&VARIANT_CHESS, "resigns", &o));
    assert_false(outcome_from_words(&VARIANT_CHESS, "both lost on time", &o));
    assert_false(outcome_from_words(&VARIANT_CHESS, "white lost on time, but white cannot win", &o));
    assert_string_equal(result_string(RESULT_BOTH_LOSE), "0-0");
    assert_string_equal(result_string(RESULT_NONE), "*");
}

/* A declared end wins over the rules and can be withdrawn; the words of a
 * recorded one are the game's own copy. */
static void test_declare_and_withdraw(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "chess", NULL);
    play_all(&g, "e4 e5");
    char words[] = "adjourned, then abandoned";
    assert_true(game_declare(&g, outcome_make(RESULT_DRAW, REASON_RECORDED, SIDE_NONE), words));
    words[0] = 'X';
    assert_string_equal(game_status(&g), "1/2-1/2 adjourned, then abandoned");
    Text err = TEXT_INIT;
    assert_false(game_play_text(&g, "Nf3", &err));
    assert_string_equal(text_str(&err), "the game is over");
    assert_true(game_declare(&g, outcome_make(RESULT_BLACK_WINS, REASON_RESIGNATION, SIDE_WHITE), NULL));
    assert_null(g.declared_words);
    assert_string_equal(game_status(&g), "0-1 white resigns");
    assert_true(game_declare(&g, outcome_none(), NULL));
    assert_string_equal(game_status(&g), "ongoing");
    assert_true(game_play_text(&g, "Nf3", &err));
    text_free(&err);
    game_free(&g);
}

/* ---- Time --------------------------------------------------------------- */

/* A flag loses, unless the opponent could not win by any series of legal
 * moves: in chess, when it has nothing but its king (docs/rules/chess.md,
 * "Time"). */
static void test_chess_flag_against_a_bare_king_draws(void **state)
{
    (void)state;
    Game g;
    game_start(&g, "chess", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_string_equal(flag_line_of(&g, WHITE), "1/2-1/2 white lost on time, but black cannot win");
    assert_string_equal(flag_line_of(&g, BLACK), "1-0 black lost on time");
    game_free(&g);
    /* A lone knight cannot force mate, but a helpmate exists: it wins on time. */
    game_start(&g, "chess", "4kn2/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_string_equal(flag_line_of(&g, WHITE), "0-1 white lost on time");
    game_free(&g);
    /* A declared end is read back from its words, as the server stores it. */
    Outcome o = outcome_none();
    assert_true(outcome_from_words(&VARIANT_CHESS, "white lost on time, but black cannot win", &o));
    assert_int_equal(o.reason, REASON_TIME);
    assert_int_equal(o.side, SIDE_WHITE);
}

/* ---- The chess moves alone ---------------------------------------------- */

/* line_generate_chess lists exactly the chess moves of line_generate's list,
 * in the same order, in every game: van Gog and Time Traveler's Chess
 * generate them apart (Variant.generate_chess), the others are filtered.
 * The positions are those of random games in which a time-travel action is
 * taken one time in three, so that arrivals, travellers and explosions are
 * on the board. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void assert_chess_list_agrees(const Game *g, const char *name, int ply)
{
    Line l;
    line_open(&l, g, game_current(g));
    MoveList all, chess;
    movelist_init(&all);
    movelist_init(&chess);
    assert_true(line_generate(&l, &all));
    assert_true(line_generate_chess(&l, &chess));
    int k = 0;
    for (int i = 0; i < all.count; i++) {
        if (!move_is_chess(all.moves[i])) continue;
        if (k >= chess.count || !move_equal(all.moves[i], chess.moves[k]))
            fail_msg("%s, ply %d: chess move %d differs", name, ply, k);
        k++;
    }
    if (k != chess.count) fail_msg("%s, ply %d: %d chess moves, generate_chess lists %d", name, ply, k, chess.count);
    movelist_free(&all);
    movelist_free(&chess);
    line_close(&l);
}

static void test_generate_chess_is_the_chess_part(void **state)
{
    (void)state;
    int positions = 0;
    for (int i = 0; VARIANTS[i]; i++) {
        for (uint64_t seed = 1; seed <= 6; seed++) {
            uint64_t rng = seed * 0x9E3779B97F4A7C15ull + (uint64_t)i;
            Game g;
            Text err = TEXT_INIT;
            assert_true(game_init(&g, VARIANTS[i], NULL, NULL, &err));
            text_free(&err);
            for (int ply = 0; ply < 40; ply++) {
                assert_chess_list_agrees(&g, VARIANTS[i]->name, ply);
                positions++;
                MoveList all;
                movelist_init(&all);
                assert_true(game_generate(&g, &all));
                Outcome o;
                if (all.count == 0 || (game_outcome(&g, &o) && o.result != RESULT_NONE)) {
                    movelist_free(&all);
                    break;
                }
                int travels = 0;
                for (int m = 0; m < all.count; m++) travels += !move_is_chess(all.moves[m]);
                int pick = (int)(next_random(&rng) % (uint64_t)all.count);
                if (travels && next_random(&rng) % 3 == 0) {
                    int t = (int)(next_random(&rng) % (uint64_t)travels);
                    for (pick = 0; move_is_chess(all.moves[pick]) || t-- > 0; pick++) continue;
                }
                assert_true(game_push(&g, all.moves[pick]));
                movelist_free(&all);
            }
            game_free(&g);
        }
    }
    /* Fewer would mean the games ended at once: nothing compared. */
    assert_true(positions >= 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_tables_complete),
        cmocka_unit_test(test_every_variant_names_its_evaluator),
        cmocka_unit_test(test_registry_order),
        cmocka_unit_test(test_every_variant_has_bench_samples),
        cmocka_unit_test(test_check_defaults),
        cmocka_unit_test(test_game_headers_together),
        cmocka_unit_test(test_chess_has_no_options),
        cmocka_unit_test(test_chess_fen_needs_one_king_a_side),
        cmocka_unit_test(test_chess_fen_side_not_to_move_in_check),
        cmocka_unit_test(test_chess_outcome_order),
        cmocka_unit_test(test_gifford_outcome_order_as_chess),
        cmocka_unit_test(test_outcome_words_and_codes),
        cmocka_unit_test(test_own_end_in_words),
        cmocka_unit_test(test_declare_and_withdraw),
        cmocka_unit_test(test_chess_flag_against_a_bare_king_draws),
        cmocka_unit_test(test_generate_chess_is_the_chess_part),
    };
    return cmocka_run_group_tests_name("variants", tests, NULL, NULL);
}
