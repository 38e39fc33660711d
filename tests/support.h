/* SPDX-License-Identifier: GPL-3.0-or-later
 * What every cmocka test file includes. */
#ifndef TTCHESS_TEST_SUPPORT_H
#define TTCHESS_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "game.h"
#include "movegen.h"
#include "notation.h"
#include "variant.h"
#include "registry.h"

/* The repository's test data folder, tests/data (the Makefile runs the
 * tests from the top of the checkout; TEST_DATA may name another). */
static inline const char *data_dir(void)
{
    const char *s = getenv("TEST_DATA");
    return s && *s ? s : "tests/data";
}

/* Reads a whole file into a malloc'd string (NULL if it cannot). */
static inline char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf) buf[n] = 0;
    fclose(f);
    return buf;
}

/* Reads tests/data/NAME, or fails the test naming the file. */
static inline char *read_data(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", data_dir(), name);
    char *text = read_file(path);
    if (!text) fail_msg("cannot read %s", path);
    return text;
}

/* Parses a FEN that must be good; fails the test with the parser's reason otherwise. */
static inline void parse_ok(Board *b, const char *fen)
{
    Text err = TEXT_INIT;
    if (!board_from_fen(b, fen, NULL, &err)) fail_msg("FEN refused: %s (%s)", fen, text_str(&err));
    text_free(&err);
}

/* Formats the board as FEN into a static buffer (one at a time is enough). */
static inline const char *fen_of(const Board *b)
{
    static char buf[256];
    Text t = TEXT_INIT;
    board_to_fen(b, &t);
    snprintf(buf, sizeof buf, "%s", text_str(&t));
    text_free(&t);
    return buf;
}

/* The game's present position in its variant's FEN, in a static buffer. */
static inline const char *game_fen(const Game *g)
{
    static char buf[1024];
    Text t = TEXT_INIT;
    g->variant->to_fen(&g->options, game_state(g), &t);
    snprintf(buf, sizeof buf, "%s", text_str(&t));
    text_free(&t);
    return buf;
}

/* The game's result line ("ongoing", "1-0 checkmate", ...), in a static buffer. */
static inline const char *game_status(const Game *g)
{
    static char buf[256];
    Text t = TEXT_INIT;
    if (!game_outcome_line(g, &t)) fail_msg("out of memory");
    snprintf(buf, sizeof buf, "%s", text_str(&t));
    text_free(&t);
    return buf;
}

/* Starts a game or fails the test. */
static inline void game_start(Game *g, const char *variant, const char *fen)
{
    Text err = TEXT_INIT;
    const Variant *v = variant_find(variant);
    assert_non_null(v);
    if (!game_init(g, v, NULL, fen, &err)) fail_msg("bad FEN %s: %s", fen ? fen : "(start)", text_str(&err));
    text_free(&err);
}

/* Plays space-separated actions or fails the test naming the bad one. */
static inline void play_all(Game *g, const char *moves)
{
    char buf[8192];
    Text err = TEXT_INIT;
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        if (!game_play_text(g, t, &err)) fail_msg("move %s refused: %s", t, text_str(&err));
    }
    text_free(&err);
}

/* Plays one action expecting it refused; returns the message. */
static inline const char *refused(Game *g, const char *move)
{
    static char msg[512];
    Text err = TEXT_INIT;
    if (game_play_text(g, move, &err)) fail_msg("move %s was accepted but should be refused", move);
    snprintf(msg, sizeof msg, "%s", text_str(&err));
    text_free(&err);
    return msg;
}

/* The legal actions of the game's present position, in a list the caller frees. */
static inline void legal_list(const Game *g, MoveList *l)
{
    movelist_init(l);
    if (!game_generate(g, l)) fail_msg("out of memory");
}

/* A small random number generator, so that random games repeat. */
static inline uint64_t test_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

/* A time-travel action: anything but a chess move. */
static inline bool is_travel(Move m) { return !move_is_chess(m); }

/* Picks an action: uniformly, or (with `travel_bias`) a king going back
 * with probability 1/4 when there is one, else a time-travel action with
 * probability 1/2 when there is one, else any action uniformly. */
static inline Move pick_action(const MoveList *l, uint64_t *seed, bool travel_bias)
{
    if (travel_bias) {
        int backs = 0, travels = 0;
        for (int i = 0; i < l->count; i++) {
            backs += l->moves[i].kind == MOVE_KING_BACK;
            travels += is_travel(l->moves[i]);
        }
        bool only_backs = false;
        int pool = 0;
        if (backs && test_random(seed) % 4 == 0) only_backs = true, pool = backs;
        else if (travels && test_random(seed) % 2 == 0) pool = travels;
        if (pool) {
            int k = (int)(test_random(seed) % (uint64_t)pool);
            for (int i = 0; i < l->count; i++) {
                Move m = l->moves[i];
                bool in_pool = only_backs ? m.kind == MOVE_KING_BACK : is_travel(m);
                if (in_pool && k-- == 0) return m;
            }
        }
    }
    return l->moves[test_random(seed) % (uint64_t)l->count];
}

/* The result line if `flagged` ran out of time at the game's present
 * position, as the server's timer asks it (outcome_on_time); the game is
 * left as it was. */
static inline const char *flag_line_of(Game *g, Color flagged)
{
    static char buf[256];
    Line l;
    line_open(&l, g, game_current(g));
    Outcome o = outcome_on_time(&l, flagged);
    line_close(&l);
    assert_int_equal(o.reason, REASON_TIME);
    assert_int_equal(o.side, flagged);
    assert_true(game_declare(g, o, NULL));
    snprintf(buf, sizeof buf, "%s", game_status(g));
    assert_true(game_declare(g, outcome_none(), NULL));
    return buf;
}

#endif
