/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tests of the evaluations of van Gog's Time Travel Chess (its three
 * modes) and of Time Traveler's Chess (src/variants/vangog/vangog_eval.c and
 * travelers_eval.c; docs/engine-eval-timetravel.md): colour-mirror
 * symmetry, the terms that value each game's promises and dangers, the
 * end of the game by grammar that early_end must report exactly as the
 * rules do, and where a null move is allowed.
 *
 * Mirror pairs are played rather than written as FENs where the state
 * has identities (the order in which identities are given depends on the
 * squares, so a mirrored game may number them differently; the
 * evaluation never looks at the numbers).
 */
#include "support.h"

#include "eval.h"

extern const Evaluator EVAL_VANGOG, EVAL_VANGOG_PAST, EVAL_VANGOG_FUTURE, EVAL_TRAVELERS;

/* The start position with Black to move: the colour mirror of the start. */
#define START_BLACK_FIRST "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* The evaluation of the game's present position. */
static int eval_game(const Evaluator *e, const Game *g)
{
    Line l;
    line_open(&l, g, game_current(g));
    int v = e->evaluate(&l);
    line_close(&l);
    return v;
}

/* The evaluation of a position given by FEN (and actions played from it). */
static int eval_at(const Evaluator *e, const char *fen, const char *moves)
{
    Game g;
    game_start(&g, e->variant, fen);
    if (moves) play_all(&g, moves);
    int v = eval_game(e, &g);
    game_free(&g);
    return v;
}

/* What the game's own terms add to the chess evaluation of the board, for
 * comparing positions whose boards differ: the shared chess evaluation
 * (another file's, with its own tests) then cancels out. */
static int terms_at(const Evaluator *e, const char *fen, const char *moves)
{
    Game g;
    game_start(&g, e->variant, fen);
    if (moves) play_all(&g, moves);
    int v = eval_game(e, &g) - chess_eval_board(game_board(&g), NULL);
    game_free(&g);
    return v;
}

static bool null_ok_at(const Evaluator *e, const char *fen, const char *moves)
{
    Game g;
    game_start(&g, e->variant, fen);
    if (moves) play_all(&g, moves);
    Line l;
    line_open(&l, &g, game_current(&g));
    bool ok = e->null_move_ok(&l);
    line_close(&l);
    game_free(&g);
    return ok;
}

/* Plays two games action by action, one the colour mirror of the other,
 * and checks after every action that both score the same for their side
 * to move. */
static void assert_mirrored(const Evaluator *e, const char *fen, const char *moves, const char *mirror_fen,
                            const char *mirror_moves)
{
    Game g, m;
    game_start(&g, e->variant, fen);
    game_start(&m, e->variant, mirror_fen);
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s", moves);
    snprintf(b, sizeof b, "%s", mirror_moves);
    char *save_a = NULL, *save_b = NULL;
    char *ta = strtok_r(a, " ", &save_a), *tb = strtok_r(b, " ", &save_b);
    for (;;) {
        int vg = eval_game(e, &g), vm = eval_game(e, &m);
        if (vg != vm) fail_msg("%s: %d, but its mirror %s: %d", game_fen(&g), vg, game_fen(&m), vm);
        if (!ta || !tb) break;
        Text err = TEXT_INIT;
        if (!game_play_text(&g, ta, &err)) fail_msg("%s refused: %s", ta, text_str(&err));
        if (!game_play_text(&m, tb, &err)) fail_msg("%s refused: %s", tb, text_str(&err));
        text_free(&err);
        ta = strtok_r(NULL, " ", &save_a);
        tb = strtok_r(NULL, " ", &save_b);
    }
    assert_true(!ta && !tb);
    game_free(&g);
    game_free(&m);
}

/* Does early_end agree with the variant's outcome at the present
 * position: the same outcome where the grammar ends the game, and
 * nothing where it does not? */
static void assert_early_end_agrees(const Game *g)
{
    Line l;
    line_open(&l, g, game_current(g));
    Outcome rules, early = outcome_none();
    assert_true(g->variant->outcome(&l, &rules));
    bool ended = EVAL_TRAVELERS.early_end(&l, &early);
    line_close(&l);
    if (rules.reason == REASON_GRAMMATICALLY_INCORRECT) {
        if (!ended) fail_msg("%s: the rules end the game by grammar, early_end does not", game_fen(g));
        assert_int_equal(early.result, rules.result);
        assert_int_equal(early.reason, rules.reason);
        assert_int_equal(early.side, rules.side);
        assert_int_equal(early.board, rules.board);
    } else if (ended) {
        fail_msg("%s: early_end ends a game the rules do not end by grammar", game_fen(g));
    }
}

/* ------------------------------------------------------------------ */
/* van Gog                                                             */
/* ------------------------------------------------------------------ */

static void test_vangog_evaluators(void **state)
{
    (void)state;
    const Evaluator *all[3] = { &EVAL_VANGOG, &EVAL_VANGOG_PAST, &EVAL_VANGOG_FUTURE };
    const char *names[3] = { "vangog", "vangog-past", "vangog-future" };
    for (int i = 0; i < 3; i++) {
        assert_string_equal(all[i]->variant, names[i]);
        assert_non_null(variant_find(all[i]->variant));
        assert_non_null(all[i]->evaluate);
        assert_non_null(all[i]->null_move_ok);
        /* No mode ends the game before the side to move runs out of actions. */
        assert_null(all[i]->early_end);
    }
}

static void test_vangog_mirror(void **state)
{
    (void)state;
    /* An open obligation, the queen that arrived having been taken. */
    assert_int_equal(eval_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4", NULL),
                     eval_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/8/8/3QK3 b - - 0 5 - 1:qd8d5", NULL));
    /* The arrived queen alone, which cannot fulfil its own obligation. */
    assert_int_equal(eval_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 d1:1 1:Qd1d4", NULL),
                     eval_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/8/8/3QK3 b - - 0 5 d8:1 1:qd8d5", NULL));
    /* Arrivals, a departure to the past, a departure to the future, a
     * reappearance and a capturing arrival, played both ways. */
    assert_mirrored(&EVAL_VANGOG, NULL, "e2e4 e7e5 Qd1h5* Nb8c6 h5h3 Bf8c5* f1c4^ Ng8f6 d1h5** d7d6 Bc4^^ Nf6xe4*",
                    START_BLACK_FIRST,
                    "e7e5 e2e4 Qd8h4* Nb1c3 h4h6 Bf1c4* f8c5^ Ng1f3 d8h4** d2d3 Bc5^^ Nf3xe5*");
    assert_mirrored(&EVAL_VANGOG_FUTURE, NULL, "e2e4 d7d5 e4d5^ d8d5 Nb1c3 d5e5^", START_BLACK_FIRST,
                    "e7e5 d2d4 e5d4^ d1d4 Nb8c6 d4e4^");
    assert_mirrored(&EVAL_VANGOG_PAST, NULL, "Nb1c3* e7e5 c3d5 Ng8f6 Pe2e4* Nb8c6 b1c3**", START_BLACK_FIRST,
                    "Nb8c6* e2e4 c6d4 Ng1f3 Pe7e5* Nb1c3 b8c6**");
}

/* An obligation no piece on the board can ever fulfil is a far larger
 * liability than one that can be played at once. */
static void test_vangog_unmeetable_obligation(void **state)
{
    (void)state;
    /* The same board: the queen on d1 is the one of the start position,
     * ready to leave for d4; or it is the queen that arrival 1 brought,
     * which may never fulfil its own obligation (ex nihilo), and no other
     * queen or pawn exists. */
    int ready = eval_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4", NULL);
    int ex_nihilo = eval_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 d1:1 1:Qd1d4", NULL);
    assert_true(ready > ex_nihilo + 200);
    /* A pawn obligation e2-e4*: a pawn on e2 can leave at once; a pawn on
     * h2 can never reach e2. */
    int pawn_ready = terms_at(&EVAL_VANGOG_PAST, "4k3/8/8/8/4P3/8/4P3/4K3 w - - 0 5 e4:1 1:Pe2e4", NULL);
    int pawn_never = terms_at(&EVAL_VANGOG_PAST, "4k3/8/8/8/4P3/8/7P/4K3 w - - 0 5 e4:1 1:Pe2e4", NULL);
    assert_true(pawn_ready > pawn_never + 200);
    /* Seen from the other side the liability is the opponent's. */
    int their_ready = terms_at(&EVAL_VANGOG_PAST, "4k3/8/8/8/4P3/8/4P3/4K3 b - - 0 5 e4:1 1:Pe2e4", NULL);
    int their_never = terms_at(&EVAL_VANGOG_PAST, "4k3/8/8/8/4P3/8/7P/4K3 b - - 0 5 e4:1 1:Pe2e4", NULL);
    assert_true(their_never > their_ready + 200);
    /* An obligation is a debt: the same position without it is better. */
    int none = eval_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5", NULL);
    assert_true(none > ready);
}

/* A side's own new obligation costs it about a whole game even when the
 * opponent has piled up many (a random mover does): the opponent's debts
 * must not push the score to the limit where every action of the side
 * looks the same.  Black makes eight arrivals, then White one. */
static void test_vangog_own_obligation_counts_against_many(void **state)
{
    (void)state;
    const char *black_debts = "g1f3 Nb4d5* f3g1 Nb4c6* g1f3 Nb4a6* f3g1 Ne4f6* g1f3 Ne4d6* f3g1 Nf4h5* "
                              "g1f3 Nf4g6* f3g1 Nh4g6*";
    char with_white_debt[512];
    snprintf(with_white_debt, sizeof with_white_debt, "%s Nb3d4* b7b6 d4b3 b6b5", black_debts);
    char without[512];
    snprintf(without, sizeof without, "%s g1f3 b7b6 f3g1 b6b5", black_debts);
    int clean = eval_at(&EVAL_VANGOG_PAST, NULL, without);
    int owing = eval_at(&EVAL_VANGOG_PAST, NULL, with_white_debt);
    if (clean - owing < 4000) fail_msg("White's one obligation costs only %d (%d, then %d)", clean - owing, clean, owing);
    /* Both stay inside the scores kept for wins. */
    assert_true(clean < EVAL_KNOWN_WIN - 1 && owing > -(EVAL_KNOWN_WIN - 1));
}

/* Each of a side's own obligations costs more than any material an
 * arrival can win, the third as much as the second: when the cost of
 * each was part of a compressed total, the engine forced into two
 * arrivals took on a dozen more for material. */
static void test_vangog_each_own_obligation_costs(void **state)
{
    (void)state;
    const char *two = "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4,2:Qd1d5";
    const char *three = "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4,2:Qd1d5,3:Qd1d6";
    const char *four = "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4,2:Qd1d5,3:Qd1d6,4:Qd1d7";
    int second = eval_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4", NULL) -
                 eval_at(&EVAL_VANGOG_PAST, two, NULL);
    int third = eval_at(&EVAL_VANGOG_PAST, two, NULL) - eval_at(&EVAL_VANGOG_PAST, three, NULL);
    int fourth = eval_at(&EVAL_VANGOG_PAST, three, NULL) - eval_at(&EVAL_VANGOG_PAST, four, NULL);
    if (second < 1000 || third < 1000 || fourth < 1000)
        fail_msg("the 2nd, 3rd and 4th obligations cost %d, %d and %d", second, third, fourth);
    /* The first costs most of a won game: the result turns on it. */
    int first = eval_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5", NULL) -
                eval_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4", NULL);
    assert_true(first > second + 2000);
}

/* What side_view takes from `side` in a position of evaluator e's mode
 * given by its FEN, and whether it sees a shared loss ahead there. */
static int side_view_in(const Evaluator *e, const char *fen, Color side, bool *shared)
{
    Game g;
    game_start(&g, e->variant, fen);
    Line l;
    line_open(&l, &g, game_current(&g));
    int v = e->side_view(&l, side, shared);
    line_close(&l);
    game_free(&g);
    return v;
}

/* The same in mode vangog-past. */
static int side_view_at(const char *fen, Color side, bool *shared)
{
    return side_view_in(&EVAL_VANGOG_PAST, fen, side, shared);
}

/* The same, -1 if it sees no shared loss ahead. */
static int shared_loss_at(const char *fen, Color side)
{
    bool shared = false;
    int v = side_view_at(fen, side, &shared);
    return shared ? v : -1;
}

/* Both sides in debt is a loss shared, and the other side's debts are
 * worth nothing to a side with its own: side_view takes back what the
 * evaluation credited `side` for them (the search takes it away from the
 * side it plays, search.c).  One side in debt alone is no shared loss. */
static void test_vangog_shared_loss(void **state)
{
    (void)state;
    assert_int_equal(shared_loss_at("3qk3/8/8/8/8/8/8/3QK3 w - - 0 5", WHITE), -1);
    assert_int_equal(shared_loss_at("3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4", WHITE), -1);
    assert_int_equal(shared_loss_at("3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4", BLACK), -1);
    const char *both = "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4,2:qd8d5";
    const char *black_twice = "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4,2:qd8d5,3:qd8d6";
    /* Black's debt, as the evaluation counts it: what White gains when
     * Black's obligation is added to White's alone. */
    int black_debt = eval_at(&EVAL_VANGOG_PAST, both, NULL) -
                     eval_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4", NULL);
    assert_int_equal(shared_loss_at(both, WHITE), black_debt);
    assert_true(shared_loss_at(both, BLACK) > 3000);
    assert_true(shared_loss_at(black_twice, WHITE) > shared_loss_at(both, WHITE) + 1000);
}

/* A king that left capturing, its square now empty, can come back only
 * onto a piece the opponent will never put there, and loses its side the
 * game at the end as an open obligation does: with the opponent in debt,
 * that is a loss both share, and the opponent's debts are worth nothing
 * to the side (it saw itself at +13156 so in a game it lost).  A king
 * whose square holds an enemy piece can come back, and is no debt. */
static void test_vangog_stranded_king_shares_loss(void **state)
{
    (void)state;
    const char *stranded = "3k4/8/8/8/8/8/8/8 w - - 0 5 - 1:qd8d4 - Kb1x";
    const char *can_land = "3k4/8/8/8/8/8/8/1r6 w - - 0 5 - 1:qd8d4 - Kb1x";
    bool shared = false;
    int took = side_view_in(&EVAL_VANGOG, stranded, WHITE, &shared);
    assert_true(shared);
    /* Black's debt, as the evaluation credits White for it: all taken back. */
    int black_debt = terms_at(&EVAL_VANGOG, stranded, NULL) -
                     terms_at(&EVAL_VANGOG, "3k4/8/8/8/8/8/8/8 w - - 0 5 - - - Kb1x", NULL);
    assert_true(black_debt > 3000);
    assert_int_equal(took, black_debt);
    /* Black sees the same loss ahead. */
    side_view_in(&EVAL_VANGOG, stranded, BLACK, &shared);
    assert_true(shared);
    shared = true;
    assert_int_equal(side_view_in(&EVAL_VANGOG, can_land, WHITE, &shared), 0);
    assert_false(shared);
    /* Without an obligation of Black's, White's stranded king alone is no
     * shared loss. */
    shared = true;
    assert_int_equal(side_view_in(&EVAL_VANGOG, "3k4/8/8/8/8/8/8/8 w - - 0 5 - - - Kb1x", WHITE, &shared), 0);
    assert_false(shared);
}

/* What side_view takes from `side` for a number of its own obligations
 * (queens owed on the d-file and the e-file), the other side owing none. */
static int own_debt_view(int obligations, Color side)
{
    char fen[160] = "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 -";
    for (int i = 0; i < obligations; i++)
        snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%s%d:Q%c1%c%d", i ? "," : " ", i + 1, i < 6 ? 'd' : 'e',
                 i < 6 ? 'd' : 'e', 2 + i % 6);
    bool shared = true;
    int v = side_view_at(fen, side, &shared);
    assert_false(shared);
    return v;
}

/* The side the engine plays counts each of its own obligations in full,
 * however many are open: counted at the evaluation's fraction beyond the
 * fourth, a side in debt rained pieces from the future for a few
 * centipawns each.  The other side's debts stay as the evaluation counts
 * them. */
static void test_vangog_own_debts_in_full(void **state)
{
    (void)state;
    assert_int_equal(own_debt_view(2, WHITE), 0);
    int extra = 0;
    for (int n = 6; n <= 10; n++) {
        int more = own_debt_view(n, WHITE);
        if (more - extra < 1000) fail_msg("obligation %d costs the engine's side only %d more", n, more - extra);
        extra = more;
    }
    assert_int_equal(own_debt_view(10, BLACK), 0);
}

/* White's score with Black owing `obligations` queens that arrived on the
 * d-file (and the e-file past the sixth), each capturing when `capture`,
 * on a board with Black's queen on d8, or none when `queen` is false. */
static int their_debts_eval(int obligations, bool capture, bool queen)
{
    char fen[1024];
    snprintf(fen, sizeof fen, "%sk3/8/8/8/8/8/8/3QK3 w - - 0 5 -", queen ? "3q" : "4");
    for (int i = 0; i < obligations; i++)
        snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%s%d:q%c8%c%d%s", i ? "," : " ", i + 1,
                 i % 12 < 6 ? 'd' : 'e', i % 12 < 6 ? 'd' : 'e', 2 + i % 6, capture ? "x" : "");
    return eval_at(&EVAL_VANGOG_PAST, fen, NULL);
}

/* Each further obligation of the opponent costs it a real price, also
 * beyond debt_full: at 1/128 alone, an opponent owing two heavy
 * obligations paid about forty centipawns for a third, and the engine,
 * expecting a flood of arrivals from a player that repays, answered it
 * with arrivals of its own and its king sent to the future.  The price
 * stops after a few, so that a random mover's pile stays inside the
 * clamp. */
static void test_vangog_their_further_obligations_cost(void **state)
{
    (void)state;
    /* Two queens that arrived capturing, which no queen or pawn of Black
     * can repay, already fill debt_full: the third is a further arrival. */
    int two = their_debts_eval(2, true, false), three = their_debts_eval(3, true, false);
    if (three - two < 250) fail_msg("Black's third obligation costs it only %d (%d, then %d)", three - two, two, three);
    /* Light obligations (queens ready on d8): every step up to the eighth
     * (the fourth beyond debt_full) costs at least the fixed price. */
    int before = their_debts_eval(0, false, true);
    for (int n = 1; n <= 8; n++) {
        int now = their_debts_eval(n, false, true);
        if (now - before < 250) fail_msg("Black's obligation %d costs it only %d", n, now - before);
        before = now;
    }
    /* Sixty heavy ones stay inside the clamp, with room for the board and
     * White's own debts to count. */
    int sixty = their_debts_eval(60, true, false);
    if (sixty > EVAL_KNOWN_WIN - 1 - 3000) fail_msg("Black's sixty obligations come to %d", sixty);
    assert_true(sixty > their_debts_eval(59, true, false));
}

/* An obligation that must capture waits for the opponent to put a piece
 * on its square; one whose square holds an enemy piece can be met now. */
static void test_vangog_capture_obligation_awaits_enemy(void **state)
{
    (void)state;
    int waiting = terms_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d4x", NULL);
    int enemy_there = terms_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/3n4/8/8/3QK3 w - - 0 5 - 1:Qd1d4x", NULL);
    if (enemy_there - waiting < 600) fail_msg("an enemy on d4 is worth only %d", enemy_there - waiting);
}

/* What makes an obligation hard to meet, each priced against the same
 * obligation without it (the terms only: the boards differ by a piece):
 * a departure that must give check (only a discovered check can), a king
 * owed (a second king to guard, worth nothing in the material table), an
 * enemy piece on a square that must be empty (it stays as long as the
 * opponent likes), and an enemy piece on the path of the piece in place. */
static void test_vangog_hard_obligations(void **state)
{
    (void)state;
    const char *board = "3qk3/8/8/8/8/8/8/3QK3 w - - 0 5 - ";
    char fen[160];
    snprintf(fen, sizeof fen, "%s1:Qd1d4", board);
    int plain = terms_at(&EVAL_VANGOG_PAST, fen, NULL);
    snprintf(fen, sizeof fen, "%s1:Qd1d4+", board);
    int check = terms_at(&EVAL_VANGOG_PAST, fen, NULL);
    if (plain - check < 600) fail_msg("a departure that must give check costs only %d more", plain - check);
    int queen_owed = terms_at(&EVAL_VANGOG_PAST, "4k3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Qd1d2", NULL);
    int king_owed = terms_at(&EVAL_VANGOG_PAST, "4k3/8/8/8/8/8/8/3QK3 w - - 0 5 - 1:Ke1e2", NULL);
    /* The queen's value is part of its debt (borrowed_percent); the king's is 0. */
    int queen_value = eval_piece_value(QUEEN);
    if (queen_owed + queen_value - king_owed < 500)
        fail_msg("a king owed costs only %d more than a queen, her value aside", queen_owed + queen_value - king_owed);
    int own_on_t = terms_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/3N4/8/8/3QK3 w - - 0 5 - 1:Qd1d4", NULL);
    int enemy_on_t = terms_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/3n4/8/8/3QK3 w - - 0 5 - 1:Qd1d4", NULL);
    if (own_on_t - enemy_on_t < 200) fail_msg("an enemy on a square owed empty costs only %d more than one's own", own_on_t - enemy_on_t);
    int own_on_path = terms_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/3N4/8/3QK3 w - - 0 5 - 1:Qd1d4", NULL);
    int enemy_on_path = terms_at(&EVAL_VANGOG_PAST, "3qk3/8/8/8/8/3n4/8/3QK3 w - - 0 5 - 1:Qd1d4", NULL);
    if (own_on_path - enemy_on_path < 100)
        fail_msg("an enemy on the path costs only %d more than one's own", own_on_path - enemy_on_path);
}

/* The steps to a departure are priced apart by more than positional
 * trifles: repaying is worth thousands, but it lies a few plies beyond the
 * step that makes it playable, deeper than a short search sees.  The queen
 * called to d4 still standing there, or the queen that owes the departure
 * a move away from d1, each cost a step against the departure ready. */
static void test_vangog_steps_to_repay(void **state)
{
    (void)state;
    int ready = terms_at(&EVAL_VANGOG_PAST, "4k3/8/8/8/8/8/Q7/3QK3 w - - 0 5 a2:1 1:Qd1d4", NULL);
    int called_on_t = terms_at(&EVAL_VANGOG_PAST, "4k3/8/8/8/3Q4/8/8/3QK3 w - - 0 5 d4:1 1:Qd1d4", NULL);
    int a_move_away = terms_at(&EVAL_VANGOG_PAST, "4k3/8/8/8/8/8/Q1Q5/4K3 w - - 0 5 a2:1 1:Qd1d4", NULL);
    if (ready - called_on_t < 150) fail_msg("the called queen standing on d4 costs only %d", ready - called_on_t);
    if (ready - a_move_away < 150) fail_msg("the queen a move from d1 costs only %d", ready - a_move_away);
}

/* A king away in the future is a liability beyond what its square says:
 * its side cannot be checked, but may be left with nothing to move but
 * arrivals. */
static void test_vangog_king_away(void **state)
{
    (void)state;
    int king_away = terms_at(&EVAL_VANGOG, "4k3/8/8/8/8/8/8/8 w - - 0 5 - - - Kh5", NULL);
    int bishop_away = terms_at(&EVAL_VANGOG, "4k3/8/8/8/8/8/8/4K3 w - - 0 5 - - - Bh5", NULL);
    if (king_away > -800) fail_msg("a king away costs only %d", -king_away);
    assert_true(bishop_away > king_away + 500);
}

/* A traveller whose square holds what its return needs is worth more
 * than one whose square does not (the vacancy principle). */
static void test_vangog_traveller_landing(void **state)
{
    (void)state;
    /* The same board, h5 empty: a queen that left for h5 without a
     * capture can land there; one that left capturing needs an enemy
     * piece there again. */
    int can_land = eval_at(&EVAL_VANGOG_FUTURE, "4k3/8/8/8/8/8/8/4K3 w - - 0 5 - - - Qh5", NULL);
    int cannot = eval_at(&EVAL_VANGOG_FUTURE, "4k3/8/8/8/8/8/8/4K3 w - - 0 5 - - - Qh5x", NULL);
    assert_true(can_land > cannot + 100);
    /* One that left capturing waits for the opponent to put a piece on
     * h5, at its return and at the end of the game alike. */
    int enemy_there = eval_at(&EVAL_VANGOG_FUTURE, "4k3/8/8/7n/8/8/8/4K3 w - - 0 5 - - - Qh5x", NULL) +
                      eval_piece_value(KNIGHT);
    if (enemy_there - cannot < 1000) fail_msg("an enemy piece on h5 is worth only %d to a queen that left capturing",
                                              enemy_there - cannot);
    /* A traveller is a piece in reserve: worth something, less than on the board. */
    int bare = eval_at(&EVAL_VANGOG_FUTURE, "4k3/8/8/8/8/8/8/4K3 w - - 0 5", NULL);
    int on_board = eval_at(&EVAL_VANGOG_FUTURE, "4k3/8/8/8/8/8/8/Q3K3 w - - 0 5", NULL);
    assert_true(can_land > bare);
    assert_true(can_land < on_board);
}

static void test_vangog_null_move(void **state)
{
    (void)state;
    /* Chess for the moment: one king each, nothing promised. */
    assert_true(null_ok_at(&EVAL_VANGOG, NULL, NULL));
    assert_true(null_ok_at(&EVAL_VANGOG, NULL, "e2e4"));
    /* An open obligation of either side forbids it, for both sides. */
    assert_false(null_ok_at(&EVAL_VANGOG, NULL, "Qd1d4*"));
    assert_false(null_ok_at(&EVAL_VANGOG_PAST, NULL, "Qd1d4* e7e5"));
    /* So does a traveller. */
    assert_false(null_ok_at(&EVAL_VANGOG_FUTURE, NULL, "e2e4 d7d5 e4d5^"));
    assert_false(null_ok_at(&EVAL_VANGOG_FUTURE, NULL, "e2e4 d7d5 e4d5^ e7e6"));
    /* Met obligations leave nothing open: allowed again. */
    assert_true(null_ok_at(&EVAL_VANGOG_PAST, NULL, "Nb1c3* e7e5 c3d5 d7d6 b1c3**"));
    /* Two kings for the side to move forbid it; the other side's two do not. */
    assert_false(null_ok_at(&EVAL_VANGOG, "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", NULL));
    assert_true(null_ok_at(&EVAL_VANGOG, "4k3/8/8/8/8/8/8/3KK3 b - - 0 1", NULL));
    /* No king on the board (it is travelling): forbidden. */
    assert_false(null_ok_at(&EVAL_VANGOG_FUTURE, "4k3/8/8/8/8/8/8/8 w - - 0 1 - - - Ke2", NULL));
}

/* Random games of each mode: the evaluation stays inside its bounds,
 * and under the sanitizers reads nothing it should not. */
static void test_vangog_random_games(void **state)
{
    (void)state;
    const Evaluator *all[3] = { &EVAL_VANGOG, &EVAL_VANGOG_PAST, &EVAL_VANGOG_FUTURE };
    uint64_t seed = 0x5eed1234ULL;
    for (int e = 0; e < 3; e++) {
        for (int game = 0; game < 6; game++) {
            Game g;
            game_start(&g, all[e]->variant, NULL);
            for (int ply = 0; ply < 60; ply++) {
                int v = eval_game(all[e], &g);
                assert_true(v > -EVAL_KNOWN_WIN && v < EVAL_KNOWN_WIN);
                MoveList l;
                legal_list(&g, &l);
                if (!l.count) {
                    movelist_free(&l);
                    break;
                }
                assert_true(game_push(&g, pick_action(&l, &seed, true)));
                movelist_free(&l);
            }
            game_free(&g);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Time Traveler's Chess                                               */
/* ------------------------------------------------------------------ */

static void test_travelers_evaluator(void **state)
{
    (void)state;
    assert_string_equal(EVAL_TRAVELERS.variant, "travelers");
    assert_non_null(variant_find(EVAL_TRAVELERS.variant));
    assert_non_null(EVAL_TRAVELERS.evaluate);
    assert_non_null(EVAL_TRAVELERS.early_end);
    /* Passing is never sound in this game. */
    assert_null(EVAL_TRAVELERS.null_move_ok);
}

static void test_travelers_mirror(void **state)
{
    (void)state;
    /* The seed's game 2 up to the mate, and its mirror. */
    assert_mirrored(&EVAL_TRAVELERS, NULL, "e4 d6 Bb5/e8 d4/d3 Bxd3 Qe6/c4", START_BLACK_FIRST,
                    "e5 d3 Bb4/e1 d5/d6 Bxd6 Qe3/c5");
    /* The seed's game 3 up to its last move. */
    assert_mirrored(&EVAL_TRAVELERS, NULL, "e4 e5 d4/e5 c5 b4/c5 Nc6 Bb5/c6 dxc6 Qh5/f7", START_BLACK_FIRST,
                    "e5 e4 d5/e4 c4 b5/c4 Nc3 Bb4/c3 dxc3 Qh4/f2");
    /* An annihilation and a traveling piece left attacked. */
    assert_mirrored(&EVAL_TRAVELERS, NULL, "e4 e5 Nf3/e5 Nc6/e5 d4/e5 Nb8//c6 d2//d4", START_BLACK_FIRST,
                    "e5 e4 Nf6/e4 Nc3/e4 d5/e4 Nb1//c3 d7//d5");
}

/* A traveling piece the opponent attacks is in danger of the capture that
 * ends the game: it scores worse for its owner than a safe one. */
static void test_travelers_exposed(void **state)
{
    (void)state;
    /* The same men but for the black bishop: on b7 it attacks the
     * traveling knight on f3, on a6 it does not. */
    const char *attacked = "4k3/1b6/8/4N\"3/8/5N'2/8/4K1N1 %c - - 0 1 g1:1 Nf3:1 -";
    const char *safe = "4k3/8/b7/4N\"3/8/5N'2/8/4K1N1 %c - - 0 1 g1:1 Nf3:1 -";
    char a[128], s[128];
    /* The owner to move. */
    snprintf(a, sizeof a, attacked, 'w');
    snprintf(s, sizeof s, safe, 'w');
    assert_true(terms_at(&EVAL_TRAVELERS, a, NULL) < terms_at(&EVAL_TRAVELERS, s, NULL) - 100);
    /* The attacker to move: it can take the knight and win. */
    snprintf(a, sizeof a, attacked, 'b');
    snprintf(s, sizeof s, safe, 'b');
    assert_true(terms_at(&EVAL_TRAVELERS, a, NULL) > terms_at(&EVAL_TRAVELERS, s, NULL) + 100);
}

/* A traveling piece is worth less than the same piece untraveled: it
 * never moves and must be kept from every capture. */
static void test_travelers_piece_states(void **state)
{
    (void)state;
    int untraveled = eval_at(&EVAL_TRAVELERS, "4k3/8/8/8/8/5N2/8/4K1N1 w - - 0 1", NULL);
    int traveling = eval_at(&EVAL_TRAVELERS, "4k3/8/8/8/8/5N'2/8/4K1N1 w - - 0 1 g1:1 Nf3:1 -", NULL);
    int traveled = eval_at(&EVAL_TRAVELERS, "4k3/8/8/8/8/5N\"2/8/4K1N1 w - - 0 1 g1:1 Nf6:1 -", NULL);
    assert_true(traveling < traveled);
    assert_true(traveled < untraveled);
}

/* A side whose only resonator the opponent attacks is close to
 * incorrectness, and scores worse than when that resonator is safe. */
static void test_travelers_grammar_risk(void **state)
{
    (void)state;
    /* White's traveling knight on f3 has one resonator, the knight on b1
     * (no pawns).  The black bishop attacks it from a2 (on the a2-g8
     * diagonal from b1), or stands on h8 attacking nothing. */
    int safe = terms_at(&EVAL_TRAVELERS, "4k2b/8/8/8/8/5N'2/8/1N2K3 w - - 0 1 b1:1 Nf3:1 -", NULL);
    int attacked = terms_at(&EVAL_TRAVELERS, "4k3/8/8/8/8/5N'2/b7/1N2K3 w - - 0 1 b1:1 Nf3:1 -", NULL);
    assert_true(attacked < safe - 50);
}

/* The game ends by grammar at any node; early_end must say so exactly as
 * the rules do, and say nothing where they do not. */
static void test_travelers_early_end(void **state)
{
    (void)state;
    Game g;
    /* The seed's game 1: White has lost a traveling piece. */
    game_start(&g, "travelers", NULL);
    assert_early_end_agrees(&g);
    play_all(&g, "Nf6/e8");
    assert_early_end_agrees(&g);
    play_all(&g, "gxf6");
    assert_string_equal(game_status(&g), "0-1 white grammatically incorrect");
    assert_early_end_agrees(&g);
    Line l;
    Outcome out;
    line_open(&l, &g, game_current(&g));
    assert_true(EVAL_TRAVELERS.early_end(&l, &out));
    line_close(&l);
    assert_int_equal(out.result, RESULT_BLACK_WINS);
    assert_int_equal(out.side, SIDE_WHITE);
    game_free(&g);
    /* The seed's game 4: Black's traveling bishop is taken at the end. */
    game_start(&g, "travelers", NULL);
    const char *game4[] = { "e4", "e5", "Nf3/e5", "Nc6/e5", "d4/e5", "Nb8//c6", "d2//d4",
                            "Bb4/e1", "Qd6", "cxd6", "a3", "dxe5", "axb4" };
    for (size_t i = 0; i < sizeof game4 / sizeof game4[0]; i++) {
        play_all(&g, game4[i]);
        assert_early_end_agrees(&g);
    }
    assert_string_equal(game_status(&g), "1-0 black grammatically incorrect");
    game_free(&g);
    /* Incorrect without a capture: two traveling knights, one resonator. */
    game_start(&g, "travelers", "4k3/8/8/8/8/5N'2/N'7/1N2K3 w - - 0 1 b1:1 Na2:1,Nf3:2 -");
    assert_string_equal(game_status(&g), "0-1 white grammatically incorrect");
    assert_early_end_agrees(&g);
    game_free(&g);
    /* Two resonators: correct, nothing to report. */
    game_start(&g, "travelers", "4k3/8/8/8/8/5N'2/N'7/1N2KN2 w - - 0 1 b1:1,f1:2 Na2:1,Nf3:2 -");
    line_open(&l, &g, game_current(&g));
    assert_false(EVAL_TRAVELERS.early_end(&l, &out));
    line_close(&l);
    game_free(&g);
}

/* Random games full of explosions and annihilations: early_end agrees
 * with the rules at every node, and the evaluation stays in its bounds. */
static void test_travelers_random_games(void **state)
{
    (void)state;
    uint64_t seed = 0xabcdef12345ULL;
    int ended_by_grammar = 0;
    for (int game = 0; game < 12; game++) {
        Game g;
        game_start(&g, "travelers", NULL);
        for (int ply = 0; ply < 40; ply++) {
            assert_early_end_agrees(&g);
            int v = eval_game(&EVAL_TRAVELERS, &g);
            assert_true(v > -EVAL_KNOWN_WIN && v < EVAL_KNOWN_WIN);
            Outcome o;
            assert_true(game_outcome(&g, &o));
            if (o.result != RESULT_NONE) {
                ended_by_grammar += o.reason == REASON_GRAMMATICALLY_INCORRECT;
                break;
            }
            MoveList l;
            legal_list(&g, &l);
            assert_true(l.count > 0);
            assert_true(game_push(&g, pick_action(&l, &seed, true)));
            movelist_free(&l);
        }
        game_free(&g);
    }
    /* The games must reach the case the test is for. */
    assert_true(ended_by_grammar > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vangog_evaluators),
        cmocka_unit_test(test_vangog_mirror),
        cmocka_unit_test(test_vangog_unmeetable_obligation),
        cmocka_unit_test(test_vangog_own_obligation_counts_against_many),
        cmocka_unit_test(test_vangog_each_own_obligation_costs),
        cmocka_unit_test(test_vangog_capture_obligation_awaits_enemy),
        cmocka_unit_test(test_vangog_hard_obligations),
        cmocka_unit_test(test_vangog_steps_to_repay),
        cmocka_unit_test(test_vangog_shared_loss),
        cmocka_unit_test(test_vangog_own_debts_in_full),
        cmocka_unit_test(test_vangog_their_further_obligations_cost),
        cmocka_unit_test(test_vangog_stranded_king_shares_loss),
        cmocka_unit_test(test_vangog_king_away),
        cmocka_unit_test(test_vangog_traveller_landing),
        cmocka_unit_test(test_vangog_null_move),
        cmocka_unit_test(test_vangog_random_games),
        cmocka_unit_test(test_travelers_evaluator),
        cmocka_unit_test(test_travelers_mirror),
        cmocka_unit_test(test_travelers_exposed),
        cmocka_unit_test(test_travelers_piece_states),
        cmocka_unit_test(test_travelers_grammar_risk),
        cmocka_unit_test(test_travelers_early_end),
        cmocka_unit_test(test_travelers_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
