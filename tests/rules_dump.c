/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * rules-dump: prints, for games read from standard input, every position's
 * result line and legal actions, in the form the independent reference
 * implementations in tests/ref/ print, so that tests/rules-compare.sh can
 * compare the two action list by action list.
 *
 * Usage: rules-dump VARIANT
 * Each input line is a game: coordinate actions separated by spaces, from
 * the variant's start position.  For each position from the start through
 * the last action, one line "PLY STATUS: A1 A2 ..." with every legal action
 * in coordinate form, sorted byte by byte; an action that is not among them
 * gives "PLY illegal ACTION" and ends that game; each game ends with "end".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "registry.h"

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void fail(const char *what)
{
    fprintf(stderr, "rules-dump: %s\n", what);
    exit(2);
}

/* Prints the position's line; returns the legal action written `want`, or
 * a null action if none is. */
static Move dump_position(const Game *g, int ply, const char *want, bool *found)
{
    MoveList list;
    movelist_init(&list);
    Text status = TEXT_INIT;
    if (!game_generate(g, &list) || !game_outcome_line(g, &status)) fail("out of memory");
    char **texts = malloc(((size_t)list.count + 1) * sizeof *texts);
    if (!texts) fail("out of memory");
    Line l;
    line_open(&l, g, game_current(g));
    Move chosen = move_none();
    *found = false;
    for (int i = 0; i < list.count; i++) {
        Text t = TEXT_INIT;
        if (!g->variant->format_coord(&l, list.moves[i], &t) || !(texts[i] = text_take(&t))) fail("out of memory");
        if (want && !strcmp(texts[i], want)) {
            chosen = list.moves[i];
            *found = true;
        }
    }
    line_close(&l);
    qsort(texts, (size_t)list.count, sizeof *texts, compare_strings);
    printf("%d %s:", ply, text_str(&status));
    for (int i = 0; i < list.count; i++) {
        printf(" %s", texts[i]);
        free(texts[i]);
    }
    printf("\n");
    free(texts);
    text_free(&status);
    movelist_free(&list);
    return chosen;
}

static void dump_game(const Variant *v, char *line)
{
    Game g;
    Text err = TEXT_INIT;
    if (!game_init(&g, v, NULL, NULL, &err)) fail(text_str(&err));
    text_free(&err);
    int ply = 0;
    for (char *action = strtok(line, " \t\r\n");; action = strtok(NULL, " \t\r\n")) {
        bool found;
        Move m = dump_position(&g, ply, action, &found);
        if (!action) break;
        if (!found) {
            printf("%d illegal %s\n", ply, action);
            break;
        }
        if (!game_push(&g, m)) fail("out of memory");
        ply++;
    }
    printf("end\n");
    game_free(&g);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: rules-dump VARIANT < games\n");
        return 2;
    }
    const Variant *v = variant_find(argv[1]);
    if (!v) fail("unknown variant");
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) >= 0) dump_game(v, line);
    free(line);
    return 0;
}
