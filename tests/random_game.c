/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * random-game: prints a random legal game of a variant, one action a line
 * in coordinate form, for the tests that need long games (hundreds of
 * actions with time travel) played through the command-line tool.  The
 * same arguments always give the same game.  Time-travel actions are
 * picked more often than their share, so that long games travel a lot.
 *
 * Usage: random-game [--by-kind] [--upto] [--fen] VARIANT PLIES [SEED]
 * The game is the first one, from SEED on, that lasts PLIES actions
 * without ending; the seed used goes to standard error.  With --upto it is
 * the game of SEED, cut at PLIES actions or where it ends.  With --by-kind a
 * time-travel action is picked by first picking one of the kinds of
 * travel on offer, so that rare kinds (van Gog's departures, offered a few
 * at a time beside thousands of arrivals) are played often too; a travel
 * to an earlier position (Chessgi's general travel) is a kind of its own.
 * With --fen the final position's FEN is printed instead of the actions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "registry.h"

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

static bool by_kind, upto, fen;

/* The kind by which --by-kind picks: a general travel (an action made at
 * an earlier node) is a kind of its own, whatever the move made there. */
enum { KIND_AT_NODE = MOVE_KINDS, PICK_KINDS };

static int pick_kind(Move m) { return (m.flags & MOVE_AT_NODE) ? KIND_AT_NODE : m.kind; }

/* Picks an action: one time of three a time-travel one when there is one. */
static Move pick(const MoveList *l, uint64_t *rng)
{
    int travel = 0, kinds[PICK_KINDS] = { 0 }, kinds_offered = 0;
    for (int i = 0; i < l->count; i++) {
        Move m = l->moves[i];
        if (move_is_chess(m)) continue;
        travel++;
        kinds_offered += kinds[pick_kind(m)]++ == 0;
    }
    if (travel && next_random(rng) % 3 == 0) {
        int kind = -1;
        if (by_kind) {
            int k = (int)(next_random(rng) % (uint64_t)kinds_offered);
            for (kind = 0; kind < PICK_KINDS && (kinds[kind] == 0 || k-- > 0); kind++) continue;
            travel = kinds[kind];
        }
        int k = (int)(next_random(rng) % (uint64_t)travel);
        for (int i = 0; i < l->count; i++)
            if (!move_is_chess(l->moves[i]) && (kind < 0 || pick_kind(l->moves[i]) == kind) && k-- == 0) return l->moves[i];
    }
    return l->moves[next_random(rng) % (uint64_t)l->count];
}

/* Plays a picked action.  A game that must last (no --upto) tries a few
 * picks for one after which it goes on: in Time Traveler's Chess nearly
 * every random game would otherwise end within a few moves, by a capture
 * of a traveling piece, long before the positions worth comparing. */
static bool push_going_on(Game *g, const MoveList *l, uint64_t *rng)
{
    enum { TRIES = 8 };
    for (int i = 0;; i++) {
        Outcome o;
        if (!game_push(g, pick(l, rng))) return false;
        if (upto || i == TRIES - 1) return true;
        if (!game_outcome(g, &o)) return false;
        if (o.result == RESULT_NONE) return true;
        game_pop(g);
    }
}

/* Plays a game of `plies` actions from `seed`; false if it ended sooner
 * (unless --upto) or memory ran out. */
static bool play(Game *g, int plies, uint64_t seed)
{
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    MoveList l;
    movelist_init(&l);
    bool ok = true, over = false;
    for (int ply = 0; ply < plies && ok && !over; ply++) {
        Outcome o;
        ok = game_outcome(g, &o) && game_generate(g, &l);
        over = ok && (o.result != RESULT_NONE || l.count == 0);
        if (ok && !over) ok = push_going_on(g, &l, &rng);
    }
    movelist_free(&l);
    return ok && (!over || upto);
}

int main(int argc, char **argv)
{
    for (; argc > 1 && argv[1][0] == '-'; argc--, argv++) {
        if (!strcmp(argv[1], "--by-kind")) by_kind = true;
        else if (!strcmp(argv[1], "--upto")) upto = true;
        else if (!strcmp(argv[1], "--fen")) fen = true;
        else break;
    }
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: random-game [--by-kind] [--upto] [--fen] VARIANT PLIES [SEED]\n");
        return 2;
    }
    const Variant *v = variant_find(argv[1]);
    int plies = atoi(argv[2]);
    uint64_t seed = argc == 4 ? strtoull(argv[3], NULL, 10) : 1;
    if (!v || plies < 1) {
        fprintf(stderr, "error: unknown variant or bad ply count\n");
        return 2;
    }
    for (int tries = 0; tries < 1000; tries++, seed++) {
        Game g;
        Text err = TEXT_INIT;
        if (!game_init(&g, v, NULL, NULL, &err)) {
            fprintf(stderr, "error: %s\n", text_str(&err));
            return 2;
        }
        text_free(&err);
        if (!play(&g, plies, seed)) {
            game_free(&g);
            continue;
        }
        Text out = TEXT_INIT;
        if (fen) {
            v->to_fen(&g.options, game_state(&g), &out);
            text_add_char(&out, '\n');
        }
        for (int i = 1; i < game_count(&g) && !fen; i++) {
            Line l;
            line_open(&l, &g, i - 1);
            v->format_coord(&l, game_node(&g, i)->move, &out);
            text_add_char(&out, '\n');
            line_close(&l);
        }
        fputs(text_str(&out), stdout);
        fprintf(stderr, "random-game: %s, %d actions, %d timelines, seed %llu\n", v->name, plies,
                game_timelines(&g), (unsigned long long)seed);
        text_free(&out);
        game_free(&g);
        return 0;
    }
    fprintf(stderr, "error: no game of %d actions found\n", plies);
    return 1;
}
