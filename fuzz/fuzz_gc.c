/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Game Courier notation.  The first byte picks the variant, the second a
 * start: one of the variant's sample positions (Variant.samples), counted
 * from '0' modulo their number (fuzz_sample in fuzz.h); the rest is split at line
 * ends, and each line is read with gc_parse at the present position.  A
 * refused line is then played with game_play_text, so that an input can
 * reach any position in any notation.
 *
 * gc_parse and gc_is_notation never crash; an accepted text is one of the
 * legal actions, a refused one says why.  At every position reached, a
 * few legal actions spread over the list are written with gc_format,
 * which game_play_text must take for Game Courier's (unless it is empty:
 * an action that changes nothing on the board), and read back with
 * gc_parse_hinted, their human form as the hint, as themselves.  At the
 * end the game is written as a move log by gc_write, recognised by
 * gc_detect, read back by gc_read (the variant from the log itself) as the
 * same game, and written again as the same text.  The whole input after
 * the two digits is also read as a move log of the variant: a log that is
 * accepted makes the same round trip.
 */
#include "fuzz.h"

#include "gc.h"

enum { CHECKED_PER_POSITION = 4 };

static void setup(Game *g, const Variant *v, const SamplePosition *s)
{
    Text err = TEXT_INIT;
    Options o;
    options_default(v, &o);
    bool ok = options_parse(v, &o, s->options, &err);
    FUZZ_CHECK(ok, "%s: the sample's options '%s' are refused: %s", v->name, s->options, text_str(&err));
    ok = game_init(g, v, &o, s->fen, &err);
    FUZZ_CHECK(ok, "%s: the sample start is refused: %s", v->name, text_str(&err));
    fuzz_play_builtin(g, s->moves);
    text_free(&err);
}

/* Legal actions of the present position, written in Game Courier notation,
 * read back as themselves. */
static void check_written_forms(const Game *g)
{
    const Variant *v = g->variant;
    MoveList legal;
    movelist_init(&legal);
    FUZZ_CHECK(game_generate(g, &legal), "%s: generate failed", v->name);
    Line l;
    line_open(&l, g, game_current(g));
    Text text = TEXT_INIT, human = TEXT_INIT, err = TEXT_INIT;
    int step = legal.count > CHECKED_PER_POSITION ? legal.count / CHECKED_PER_POSITION : 1;
    for (int i = 0; i < legal.count; i += step) {
        Move m = legal.moves[i], back = move_none();
        char a[96], b[96];
        text_clear(&text);
        text_clear(&human);
        text_clear(&err);
        FUZZ_CHECK(gc_format(&l, m, &text), "%s: gc_format failed", v->name);
        FUZZ_CHECK(v->format_human(&l, m, &human), "%s: format_human failed", v->name);
        FUZZ_CHECK(!text.len || gc_is_notation(fuzz_str(&text)),
                   "%s: game_play_text would not take '%s' (%s) for Game Courier's", v->name, fuzz_str(&text),
                   fuzz_str(&human));
        bool ok = gc_parse_hinted(&l, fuzz_str(&text), fuzz_str(&human), &back, &err);
        FUZZ_CHECK(ok, "%s: '%s' (%s), written by gc_format, is refused: %s", v->name, fuzz_str(&text),
                   fuzz_str(&human), text_str(&err));
        FUZZ_CHECK(move_equal(back, m), "%s: '%s' // %s reads as %s, not %s", v->name, fuzz_str(&text),
                   fuzz_str(&human), fuzz_move_desc(back, a), fuzz_move_desc(m, b));
    }
    line_close(&l);
    text_free(&text);
    text_free(&human);
    text_free(&err);
    movelist_free(&legal);
}

/* The game as a move log, read back and written again. */
static void check_log(const Game *g)
{
    Text out = TEXT_INIT, again = TEXT_INIT, err = TEXT_INIT;
    FUZZ_CHECK(gc_write(g, &out), "%s: gc_write failed", g->variant->name);
    const char *text = fuzz_str(&out);
    FUZZ_CHECK(gc_detect(text), "%s: gc_detect does not know its own log\n%s", g->variant->name, text);
    Game back;
    bool ok = gc_read(text, NULL, NULL, &back, &err);
    FUZZ_CHECK(ok, "%s: gc_write's own log is refused: %s\n%s", g->variant->name, text_str(&err), text);
    fuzz_check_same_record(g, &back, "the Game Courier log", text);
    FUZZ_CHECK(gc_write(&back, &again), "%s: gc_write failed", g->variant->name);
    FUZZ_CHECK(!strcmp(text, fuzz_str(&again)), "%s: the log written again differs:\n%s---\n%s", g->variant->name,
               text, fuzz_str(&again));
    game_free(&back);
    text_free(&out);
    text_free(&again);
    text_free(&err);
}

/* One line: Game Courier's reader first, then every notation. */
static void play_line(Game *g, const char *p)
{
    const Variant *v = g->variant;
    MoveList legal;
    movelist_init(&legal);
    FUZZ_CHECK(game_generate(g, &legal), "%s: generate failed", v->name);
    Outcome o;
    FUZZ_CHECK(game_outcome(g, &o), "%s: outcome failed", v->name);
    int before = game_current(g);
    Text err = TEXT_INIT;
    Move m = move_none();
    char a[96];
    (void)gc_is_notation(p);
    Line l;
    line_open(&l, g, before);
    bool ok = gc_parse(&l, p, &m, &err);
    line_close(&l);
    if (ok) {
        FUZZ_CHECK(movelist_contains(&legal, m), "%s: '%s' reads as %s, which is not legal", v->name, p,
                   fuzz_move_desc(m, a));
        FUZZ_SAY("'%s': Game Courier's, played\n", p);
        if (o.result == RESULT_NONE && g->declared.result == RESULT_NONE)
            FUZZ_CHECK(game_push(g, m), "%s: out of memory", v->name);
    } else {
        FUZZ_CHECK(err.len > 0, "%s: '%s' refused without a reason", v->name, p);
        text_clear(&err);
        ok = game_play_text(g, p, &err);
        FUZZ_SAY("'%s': %s\n", p, ok ? "played" : text_str(&err));
        FUZZ_CHECK(ok || err.len > 0, "%s: '%s' refused without a reason", v->name, p);
        FUZZ_CHECK(!ok || movelist_contains(&legal, game_node(g, game_current(g))->move),
                   "%s: '%s' played an action that is not legal", v->name, p);
    }
    if (game_current(g) != before) check_written_forms(g);
    text_free(&err);
    movelist_free(&legal);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    const Variant *v = fuzz_variant(data[0]);
    Game g;
    setup(&g, v, fuzz_sample(v, data[1]));
    check_written_forms(&g);

    char *text = fuzz_string(data + 2, size - 2);
    char *lines = fuzz_string(data + 2, size - 2);
    for (char *p = lines, *nl; p; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl) *nl = 0;
        if (*p) play_line(&g, p);
    }
    check_log(&g);
    game_free(&g);

    /* The input as a log of its own. */
    Text err = TEXT_INIT;
    Game log;
    bool ok = gc_read(text, v, NULL, &log, &err);
    FUZZ_SAY("as a log: %s\n", ok ? "accepted" : text_str(&err));
    if (ok) check_log(&log);
    else FUZZ_CHECK(err.len > 0, "%s: a log refused without a reason", v->name);
    game_free(&log);
    text_free(&err);
    free(lines);
    free(text);
    return 0;
}
