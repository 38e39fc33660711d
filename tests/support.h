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

#include "ttchess/board.h"
#include "ttchess/game.h"
#include "ttchess/movegen.h"
#include "ttchess/notation.h"
#include "ttchess/variant.h"

/* The shared test data folder (../shared beside the checkout); the
 * Makefile passes it in $SHARED. */
static inline const char *shared_dir(void)
{
    const char *s = getenv("SHARED");
    return s && *s ? s : "../shared";
}

/* Reads a whole file into a malloc'd string (NULL if it cannot). */
static inline char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf) buf[n] = 0;
    fclose(f);
    return buf;
}

/* Parses a FEN that must be good; fails the test with the parser's reason otherwise. */
static inline void parse_ok(Board *b, const char *fen)
{
    char err[256] = "";
    if (!board_from_fen(b, fen, NULL, err, sizeof err)) fail_msg("FEN refused: %s (%s)", fen, err);
}

/* Formats the board as FEN into a static buffer (one at a time is enough). */
static inline const char *fen_of(const Board *b)
{
    static char buf[256];
    board_to_fen(b, buf, sizeof buf);
    return buf;
}

/* Starts a game or fails the test. */
static inline void game_start(Game *g, const char *variant, const char *fen)
{
    char err[256] = "";
    const Variant *v = variant_find(variant);
    assert_non_null(v);
    if (!game_init(g, v, fen, err, sizeof err)) fail_msg("bad FEN %s: %s", fen ? fen : "(start)", err);
}

/* Plays space-separated actions or fails the test naming the bad one. */
static inline void play_all(Game *g, const char *moves)
{
    char buf[4096], err[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        if (!game_play_text(g, t, err, sizeof err)) fail_msg("move %s refused: %s", t, err);
    }
}

/* Plays one action expecting it refused; returns the message. */
static inline const char *refused(Game *g, const char *move)
{
    static char err[256];
    err[0] = 0;
    if (game_play_text(g, move, err, sizeof err)) fail_msg("move %s was accepted but should be refused", move);
    return err;
}

#endif
