/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of the tournaments' rules (src/server/tournament.c), pure
 * functions:
 *
 *   - an arena's points: 2 a win, 1 a draw, 0 a loss; after two wins in a
 *     row every game counts double until one that is not a win;
 *   - an arena's pairing: by score, no immediate rematch, White to the one
 *     who had it less, an odd player left waiting;
 *   - a round-robin: every pair twice, once with each colour; its
 *     standings and Sonneborn-Berger tie-break, worked by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "tournament.h"

static void test_letters(void **state)
{
    (void)state;
    assert_int_equal(tournament_letter("1-0", true), 'W');
    assert_int_equal(tournament_letter("1-0", false), 'L');
    assert_int_equal(tournament_letter("0-1", false), 'W');
    assert_int_equal(tournament_letter("1/2-1/2", true), 'D');
    assert_int_equal(tournament_letter("*", true), 0);
    assert_int_equal(tournament_letter(NULL, true), 0);
}

static void test_arena_points(void **state)
{
    (void)state;
    int streak = -1;
    assert_int_equal(arena_points("", &streak), 0);
    assert_int_equal(streak, 0);
    assert_int_equal(arena_points("W", &streak), 2);
    assert_int_equal(arena_points("WW", &streak), 4);
    assert_int_equal(streak, 2);
    /* On fire: the third win is 4, a fourth 4 again. */
    assert_int_equal(arena_points("WWW", &streak), 8);
    assert_int_equal(arena_points("WWWW", &streak), 12);
    assert_int_equal(streak, 4);
    /* A draw on fire counts 2 and puts the fire out; a loss is 0. */
    assert_int_equal(arena_points("WWWD", &streak), 10);
    assert_int_equal(streak, 0);
    assert_int_equal(arena_points("WWWDW", &streak), 12);
    assert_int_equal(arena_points("WWLW", &streak), 6);
    assert_int_equal(arena_points("DDLD", &streak), 3);
    assert_int_equal(arena_points("WDWW", NULL), 7);
    assert_int_equal(robin_half_points("WDLW"), 5);
}

static void test_arena_pairing(void **state)
{
    (void)state;
    /* Scores 6, 4, 4, 2, 0: 1 meets 2 (the nearest), but 3 and 4 have just
     * played each other, so 3 meets 5 and 4 waits. */
    ArenaWaiting w[5] = {
        { .id = 5, .score = 0 },
        { .id = 1, .score = 6, .whites = 2 },
        { .id = 4, .score = 2, .last_opponent = 3 },
        { .id = 2, .score = 4, .blacks = 1 },
        { .id = 3, .score = 4, .last_opponent = 4 },
    };
    ArenaPair p[2];
    assert_int_equal(arena_pair(w, 5, p), 2);
    /* 2 has had Black more often than 1: 2 takes White. */
    assert_int_equal(p[0].white, 2);
    assert_int_equal(p[0].black, 1);
    assert_true((p[1].white == 3 && p[1].black == 5) || (p[1].white == 5 && p[1].black == 3));
    /* Two players who have just met wait for others. */
    ArenaWaiting two[2] = { { .id = 1, .last_opponent = 2 }, { .id = 2, .last_opponent = 1 } };
    assert_int_equal(arena_pair(two, 2, p), 0);
    assert_int_equal(arena_pair(two, 0, p), 0);
}

static void test_robin_schedule(void **state)
{
    (void)state;
    RobinGame g[12];
    assert_int_equal(robin_schedule(4, g), 12);
    int met[4][4] = { { 0 } };
    for (int i = 0; i < 12; i++) met[g[i].white][g[i].black]++;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) assert_int_equal(met[a][b], a == b ? 0 : 1);
}

/* Three players, six games: A beats B twice, A and C draw twice, C beats
 * B once and loses to B once.  Scores: A 3, C 2, B 1.  SB: A = 2 x B's 1
 * + 2 x half of C's 2 = 4; C = 2 x half of A's 3 + B's 1 = 4; B = C's
 * 2 = 2.  In quarter points: 16, 8 and 16. */
static void test_robin_standings(void **state)
{
    (void)state;
    enum { A, B, C };
    RobinGame g[6] = {
        { A, B, 'W' }, { B, A, 'B' }, { A, C, 'D' }, { C, A, 'D' }, { B, C, 'B' }, { C, B, 'B' },
    };
    int half[3], sb[3];
    robin_standings(3, g, 6, half, sb);
    assert_int_equal(half[A], 6);
    assert_int_equal(half[B], 2);
    assert_int_equal(half[C], 4);
    assert_int_equal(sb[A], 16);
    assert_int_equal(sb[B], 8);
    assert_int_equal(sb[C], 16);
    /* Games not over count for nothing. */
    g[0].result = 0;
    robin_standings(3, g, 6, half, sb);
    assert_int_equal(half[A], 4);
    assert_int_equal(half[B], 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_letters),       cmocka_unit_test(test_arena_points),
        cmocka_unit_test(test_arena_pairing), cmocka_unit_test(test_robin_schedule),
        cmocka_unit_test(test_robin_standings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
