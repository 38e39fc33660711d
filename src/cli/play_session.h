/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the files of "ttchess play" share: the session (the game, how it
 * is shown, the engine opponent) and the pieces one file draws or reads
 * for another.  play.c: the options, the loop and the engine opponent;
 * play_board.c: the board and the lines around it; play_input.c: lines
 * and game files read; play_commands.c: the commands typed at the prompt.
 */
#ifndef TTCHESS_PLAY_SESSION_H
#define TTCHESS_PLAY_SESSION_H

#include <stdlib.h>

#include "cli.h"
#include "engine.h"
#include "pgn.h"

/* Lines longer than this are refused whole rather than cut, so that half
 * of an overlong line is never taken for an action. */
enum { LINE_LIMIT = 1000 };

typedef struct Display {
    bool color;  /* ANSI 256-colour squares                       */
    bool ascii;  /* letters instead of chess symbols              */
    bool flip;   /* Black's side at the bottom                    */
} Display;

typedef struct Session {
    Game game;
    PgnHeader header;  /* tags of a loaded game, kept for save     */
    MoveList legal;    /* scratch list, reused                     */
    Display display;
    bool echo;         /* echo input lines (input is not a terminal) */
    bool done;         /* quit or exit was typed                   */
    int travel_node;   /* the earlier position 'travel N' chose, whose
                          move the next line gives; -1 when none   */
    char travel_label[32]; /* how actions name that position ("<1.4>") */
    Engine *engine;    /* the opponent with --vs engine, else NULL  */
    Color engine_side;
    int engine_skill;
    int64_t engine_movetime;
} Session;

typedef enum LineStatus { LINE_OK, LINE_TOO_LONG, LINE_END } LineStatus;

/* ---- Small helpers ------------------------------------------------------ */

static inline void *checked_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p) cli_fail("out of memory");
    return p;
}

/* Fails the program if a library call ran out of memory. */
static inline void need(bool ok)
{
    if (!ok) cli_fail("out of memory");
}

static inline Outcome outcome_of(const Game *g)
{
    Outcome o;
    need(game_outcome(g, &o));
    return o;
}

static inline bool game_is_over(const Game *g) { return outcome_of(g).result != RESULT_NONE; }

static inline void print_outcome_line(const Game *g)
{
    Text line = TEXT_INIT;
    need(game_outcome_line(g, &line));
    printf("%s\n", text_str(&line));
    text_free(&line);
}

static inline Color side_to_move(const Game *g) { return game_board(g)->side; }

/* ---- play_board.c ------------------------------------------------------ */

/* The board, what the variant says about the position, the turn, the
 * last action and the outcome or check. */
void play_print_position(Session *s);
void play_print_prompt(const Session *s);
/* A board other than the present one (where a travel goes), plainly. */
void play_print_other_board(const Board *b, const Display *d);
/* "12. Nf3" or "12... Nf6": the action of node n with its move number. */
void play_format_numbered_action(const Game *g, int n, Text *out);
/* The width in columns of a line of UTF-8 text (each character one). */
size_t play_display_width(const char *s, size_t len);

/* ---- play_input.c ------------------------------------------------------ */

/* One line of input into buf (LINE_LIMIT + 1 bytes). */
LineStatus play_read_line(char *buf);
/* Removes leading and trailing spaces in place; returns the start. */
char *play_trim(char *s);
/* The answer to a question: true for y or yes in any case. */
bool play_read_yes(bool echo);
/* A PGN file read into a fresh game; on failure err says why. */
bool play_load_file(const char *path, const Variant *force, const char *force_options, Game *g, PgnHeader *h,
                    Text *err);

/* ---- play_commands.c --------------------------------------------------- */

/* Runs one line of input (a command or an action); returns true when the
 * position changed. */
bool play_handle_line(Session *s, const char *line);

#endif
