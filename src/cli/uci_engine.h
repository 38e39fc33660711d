/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The UCI session behind the protocol loop (uci.c reads the commands and
 * dispatches them; uci_engine.c does the engine-facing work: options,
 * positions, go and stop, the info and bestmove lines).  Private to
 * src/cli/uci*.c.
 */
#ifndef TTCHESS_UCI_ENGINE_H
#define TTCHESS_UCI_ENGINE_H

#include <pthread.h>
#include <stdio.h>

#include "engine.h"


/* How long "go searchmoves" with no limit thinks (ms). */
enum { UCI_SEARCHMOVES_MS = 1000 };
/* "Move Overhead": the engine's own 30 ms unless the GUI says otherwise. */
enum { UCI_MOVE_OVERHEAD_DEFAULT = 30, UCI_MOVE_OVERHEAD_MAX = 5000 };

typedef struct Uci {
    Engine *engine;
    const Variant *variant;
    Options options;
    Game game;
    bool have_game;
    /* Why the last "position" was refused, or empty: a refused position
     * leaves none, so that "go" cannot answer for another game. */
    Text refused;
    int multipv;
    MoveList searchmoves;       /* the last "go searchmoves", for the search thread */
    pthread_t thread;
    bool searching;
    SearchLimits limits;
    FILE *stream;               /* where the answers go */
    _Atomic bool stop;          /* "stop" for the search thread (SearchLimits.stop) */
    _Atomic bool ponder;        /* true from "go ponder" to "ponderhit" (SearchLimits.ponder) */
    int move_overhead;          /* "Move Overhead", ms */
    /* "UCI_Chess960": chess is played as Chess960 (its FEN, castling
     * written king takes own rook); the other games are as they are. */
    bool chess960;
    /* The strength asked for: "Skill Level", or with "UCI_LimitStrength"
     * the skill of "UCI_Elo" (which then takes precedence, as in
     * Stockfish). */
    int skill_level;
    bool limit_strength;
    int elo;
    bool show_wdl;              /* "UCI_ShowWDL": info lines carry "wdl W D L" */
    pthread_mutex_t out;
} Uci;

/* Writes one whole line (the search thread writes too). */
void uci_say(Uci *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Sets up a session answering on `out`, chess from the start; false when
 * the engine cannot be made (out of memory). */
bool uci_open(Uci *u, FILE *out);
/* Ends the session at the end of its input (`quitting`: by "quit"),
 * stopping a search still running, and frees it. */
void uci_close(Uci *u, bool quitting);

/* The commands, each given the words after its name. */
void uci_print_options(Uci *u);
void uci_new_game(Uci *u);
void uci_setoption(Uci *u, char *args);
void uci_position(Uci *u, char *args);
void uci_go(Uci *u, char *args);
void uci_stop(Uci *u);
void uci_ponderhit(Uci *u);
void uci_print_fen(Uci *u);

#endif
