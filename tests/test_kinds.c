/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The kinds of action as the library describes them to clients
 * (variant.h, ActionKind; kinds.c): every kind a game can make has a
 * name of its own and words, the names the API has always used stay, and
 * a game's own kinds are read before the library's.
 */
#include "support.h"

static void test_every_kind_described_once(void **state)
{
    (void)state;
    const char *names[MOVE_KINDS] = { 0 };
    for (int k = 0; k < MOVE_KINDS; k++) {
        const ActionKind *a = variant_action_kind(&VARIANT_CHESS, (uint8_t)k);
        assert_int_equal(a->kind, k);
        assert_non_null(a->words);
        assert_true(a->words[0] != 0);
        for (int j = 0; j < k; j++)
            if (!strcmp(names[j], a->name)) fail_msg("kinds %d and %d are both called %s", j, k, a->name);
        names[k] = a->name;
    }
    assert_string_equal(variant_action_kind(&VARIANT_CHESS, MOVE_OWN)->name, "none");
}

/* The names the API and its clients read (docs/api.md). */
static void test_names_and_ways(void **state)
{
    (void)state;
    const Variant *v = &VARIANT_CHESS;
    assert_string_equal(variant_action_kind(v, MOVE_SEND_FORWARD)->name, "send-forward");
    assert_int_equal(variant_action_kind(v, MOVE_SEND_FORWARD)->travel, KIND_FORWARD);
    assert_false(variant_action_kind(v, MOVE_SEND_FORWARD)->board);
    assert_string_equal(variant_action_kind(v, MOVE_KING_BACK)->name, "king-back");
    assert_int_equal(variant_action_kind(v, MOVE_KING_BACK)->travel, KIND_BACK);
    assert_true(variant_action_kind(v, MOVE_KING_BACK)->board);
    assert_string_equal(variant_action_kind(v, MOVE_DROP)->group, "pocket");
    assert_string_equal(variant_action_kind(v, MOVE_ARRIVAL)->group, variant_action_kind(v, MOVE_REAPPEAR)->group);
    assert_true(variant_action_kind(v, MOVE_EXPLOSION)->from_first);
    assert_int_equal(variant_action_kind(v, MOVE_DEPART_PAST)->travel, KIND_DEPART);
    assert_string_equal(variant_action_kind(v, MOVE_NORMAL)->name, "normal");
    assert_true(variant_action_kind(v, MOVE_NORMAL)->board);
}

/* A game's own kind is found, and shadows none of the library's. */
static void test_own_kinds_first(void **state)
{
    (void)state;
    static const ActionKind OWN[] = {
        { MOVE_OWN, "step-back", "step back", true, KIND_NO_TRAVEL, NULL, NULL, false, NULL, "steps back", 10 },
        { 0, NULL, NULL, false, 0, NULL, NULL, false, NULL, NULL, 0 },
    };
    Variant v = VARIANT_CHESS;
    v.kinds = OWN;
    assert_string_equal(variant_action_kind(&v, MOVE_OWN)->name, "step-back");
    assert_string_equal(variant_action_kind(&v, MOVE_NORMAL)->name, "normal");
    assert_string_equal(variant_action_kind(&v, MOVE_OWN)->list_title, "steps back");
}

/* A text list (the play screen's `moves`) groups the kinds by their list
 * titles, in their order: the board's moves first, each kind of travel a
 * group of its own. */
static void test_list_groups(void **state)
{
    (void)state;
    const Variant *v = &VARIANT_CHESS;
    assert_string_equal(variant_action_kind(v, MOVE_CASTLE)->list_title, "moves");
    assert_int_equal(variant_action_kind(v, MOVE_CASTLE)->list_order, 0);
    assert_string_equal(variant_action_kind(v, MOVE_ARRIVAL)->list_title, "arrivals from the future");
    assert_true(variant_action_kind(v, MOVE_ARRIVAL)->list_order < variant_action_kind(v, MOVE_SEND_FORWARD)->list_order);
    for (int k = 0; k < MOVE_OWN; k++) {
        const ActionKind *a = variant_action_kind(v, (uint8_t)k);
        if (a->kind != k || !a->list_title || !strcmp(a->list_title, "moves")) continue;
        for (int j = 0; j < k; j++) {
            const ActionKind *b = variant_action_kind(v, (uint8_t)j);
            if (b->kind == j && b->list_title && !strcmp(a->list_title, b->list_title))
                fail_msg("%s and %s share a list title", a->name, b->name);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kind_described_once),
        cmocka_unit_test(test_names_and_ways),
        cmocka_unit_test(test_own_kinds_first),
        cmocka_unit_test(test_list_groups),
    };
    return cmocka_run_group_tests_name("kinds", tests, NULL, NULL);
}
