/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The parts of each game's FEN as the library describes them to a board
 * editor (variant.h, FenPart): every part says what it is in words, the
 * fields stand where the game's FEN reads them, and a FEN an editor makes
 * from the parts' empty values is the game's start.
 */
#include "support.h"

/* The six fields of chess in a FEN, then nothing: "... w KQkq - 0 1". */
static void chess_fields(const char *fen, Text *out)
{
    int spaces = 0;
    for (const char *p = fen; *p && !(*p == ' ' && ++spaces == 6); p++) text_add_char(out, *p);
}

static void test_parts_described(void **state)
{
    (void)state;
    for (int i = 0; VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        int last_field = 6;
        bool in_placement = true;
        for (const FenPart *p = variant_fen_parts(v); p->name; p++) {
            assert_true(p->name[0] && p->label[0] && p->words[0] && p->example[0]);
            for (const FenPart *q = variant_fen_parts(v); q != p; q++)
                if (!strcmp(p->name, q->name)) fail_msg("%s: two parts called %s", v->name, p->name);
            if (p->place == FEN_FIELD) {
                /* In the order a FEN writes them: the placement's parts first, then the fields. */
                if (p->field <= last_field) fail_msg("%s: field %s out of order", v->name, p->name);
                assert_non_null(p->empty);
                assert_null(p->values);
                last_field = p->field;
                in_placement = false;
            } else {
                if (!in_placement) fail_msg("%s: %s comes after a field", v->name, p->name);
                assert_true(p->place == FEN_MARKS || p->place == FEN_POCKETS);
                assert_true(p->values && p->values[0]);
            }
        }
    }
}

/* Chess has no parts; each game lists the ones docs/notation.md gives it. */
static void test_games_parts(void **state)
{
    (void)state;
    assert_null(variant_fen_parts(&VARIANT_CHESS)->name);
    static const struct { const char *variant, *names; } GAMES[] = {
        { "gifford", "arrivals back-travels" },
        { "vangog", "origins obligations links travellers" },
        { "vangog-past", "origins obligations links" },
        { "vangog-future", "travellers" },
        { "travelers", "marks identities explosions flags" },
        { "chessgi-classic", "pockets" },
        { "chessgi", "pockets travellers wait" },
    };
    for (size_t g = 0; g < sizeof GAMES / sizeof GAMES[0]; g++) {
        Text names;
        text_init(&names);
        for (const FenPart *p = variant_fen_parts(variant_find(GAMES[g].variant)); p->name; p++)
            text_addf(&names, "%s%s", names.len ? " " : "", p->name);
        assert_string_equal(text_str(&names), GAMES[g].names);
        text_free(&names);
    }
}

/* The start's six fields of chess (its pockets included), then each field
 * up to the last part's with its empty value (per side: both sides') or
 * "-" where no part stands: the FEN is read, and is the start. */
static void test_empty_parts_are_the_start(void **state)
{
    (void)state;
    for (int i = 0; VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        Options o;
        options_default(v, &o);
        Text fen, err, made, start;
        text_init(&fen), text_init(&err), text_init(&made), text_init(&start);
        chess_fields(v->start_fen, &fen);
        int field = 6;
        for (const FenPart *p = variant_fen_parts(v); p->name; p++) {
            if (p->place != FEN_FIELD) continue;
            while (++field < p->field) text_add(&fen, " -");
            text_addf(&fen, " %s", p->empty);
            if (p->per_side) text_addf(&fen, "/%s", p->empty);
        }
        State *s = v->from_fen(&o, text_str(&fen), &err);
        if (!s) fail_msg("%s: %s refused: %s", v->name, text_str(&fen), text_str(&err));
        State *s0 = v->from_fen(&o, v->start_fen, &err);
        assert_non_null(s0);
        v->to_fen(&o, s, &made);
        v->to_fen(&o, s0, &start);
        assert_string_equal(text_str(&made), text_str(&start));
        free(s), free(s0);
        text_free(&fen), text_free(&err), text_free(&made), text_free(&start);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts_described),
        cmocka_unit_test(test_games_parts),
        cmocka_unit_test(test_empty_parts_are_the_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
