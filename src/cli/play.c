/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ttchess play: a game between two people at one keyboard, or against
 * the engine (--vs engine), in the terminal.  Everything about the rules comes through the Variant table, so
 * these files know no particular game: they draw the board of the present
 * position, print what the variant says about it (describe), read one
 * line at a time and either run a command or hand the text to the
 * variant's notation through game_play_text.  This file holds the options,
 * the loop and the engine opponent; play_session.h says where the rest is.
 *
 * The input may be a terminal or a file; when it is not a terminal each
 * line is echoed after the prompt so that a transcript reads like a
 * session.  No input can end the program except quit, exit and the end of
 * the input.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "play_session.h"

const char HELP_PLAY[] =
    "usage: ttchess play [--variant V] [--option NAME=VALUE ...] [--fen FEN] [--moves \"m1 m2 ...\"]\n"
    "                    [--load FILE] [--color auto|always|never] [--ascii] [--flip]\n"
    "                    [--vs engine [--color white|black] [--level 1-10 | --movetime MS]]\n"
    "\n"
    "Plays a game between two people at one keyboard, or against the engine\n"
    "(--vs engine: the engine's thinking shows on one status line while it\n"
    "searches, then its action; 'undo' takes back your last action and its\n"
    "answer).  Each turn shows the\n"
    "board, what the variant has to say about the position (pending arrivals,\n"
    "travels left, ...), the timeline, the move number, the last action and a\n"
    "prompt.  Type an action in any notation the variant reads (SAN such as Nf3\n"
    "or O-O, coordinate form such as g1f3, or Game Courier's full algebraic\n"
    "notation such as N g1-f3, K e1-g1, P e7-e8; Q-e8 or N-e4), or a command:\n"
    "\n"
    "  moves [WHAT] list the legal actions by kind, human form with coordinate\n"
    "               form beside; 'moves arrivals' one kind in full, 'moves d4'\n"
    "               only the actions that name d4\n"
    "  undo         take back the last action (whichever timeline it was in), or a\n"
    "               resignation or agreed draw\n"
    "  flip         turn the board round\n"
    "  history      every timeline as a score sheet\n"
    "  travel [N]   the earlier positions a whole-board travel can go to, numbered\n"
    "               (in a game that has them); 'travel N' shows position N and its\n"
    "               moves, and the next line is the move made there\n"
    "  save FILE    write the game as PGN\n"
    "  load FILE    replace the game with one read from a PGN file\n"
    "  resign       the side to move resigns\n"
    "  draw         offer a draw; the opponent answers y or n on the next line\n"
    "  help         the commands and notations, with examples\n"
    "  quit, exit   leave (the game is adjourned)\n"
    "\n"
    "Options:\n"
    "  --variant V, --option NAME=VALUE, --fen FEN, --moves \"...\"\n"
    "                 the game and the starting position, as for perft\n"
    "  --load FILE    start from a game saved as PGN (--variant and --option then\n"
    "                 override the file's; --fen and --moves are not allowed with it)\n"
    "  --color WHEN   colour the squares: auto (when standard output is a terminal\n"
    "                 and NO_COLOR is not set), always or never\n"
    "  --ascii        letters KQRBNP/kqrbnp instead of chess symbols, no colours\n"
    "  --flip         show the board from Black's side\n"
    "  --vs engine    play against the computer\n"
    "  --color white|black  with --vs engine: the side you play (default white)\n"
    "  --level N      the engine's strength, 1 (weakest) to 10 (full strength,\n"
    "                 the default); level N thinks N tenths of a second a move\n"
    "  --movetime MS  the engine thinks this many milliseconds a move instead\n"
    "\n"
    "The end of the input adjourns the game; the exit status is then 0.\n";

/* ------------------------------------------------------------------ */
/* Options and the main loop.                                         */
/* ------------------------------------------------------------------ */

typedef struct PlayOptions {
    CliPosition position;
    const char *load;
    const char *color;  /* "auto", "always" or "never" */
    bool ascii, flip;
    const char *vs;     /* "engine" or NULL              */
    const char *side;   /* "white" or "black"            */
    int level;          /* 1..10, 0: not given          */
    long movetime;      /* ms, 0: not given             */
} PlayOptions;

/* Matches "--name VALUE" and "--name=VALUE". */
static bool value_option(const char *name, int argc, char **argv, int *i, const char **value)
{
    size_t n = strlen(name);
    const char *arg = argv[*i];
    if (strncmp(arg, name, n)) return false;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return true;
    }
    if (arg[n]) return false;
    if (*i + 1 >= argc) cli_fail("%s needs a value", name);
    *value = argv[++*i];
    return true;
}

static void parse_play_options(int argc, char **argv, PlayOptions *o)
{
    for (int i = 1; i < argc; i++) {
        if (cli_position_option(&o->position, argc, argv, &i)) continue;
        if (value_option("--load", argc, argv, &i, &o->load)) continue;
        const char *value;
        if (value_option("--color", argc, argv, &i, &value)) {
            /* --color names the player's side against the engine, or how
             * to colour the squares: the words tell which. */
            if (!strcmp(value, "white") || !strcmp(value, "black")) o->side = value;
            else o->color = value;
            continue;
        }
        if (value_option("--vs", argc, argv, &i, &o->vs)) continue;
        if (value_option("--level", argc, argv, &i, &value)) {
            char *end;
            long n = strtol(value, &end, 10);
            if (*end || end == value || n < 1 || n > 10) cli_fail("bad --level '%s': give a whole number from 1 to 10", value);
            o->level = (int)n;
            continue;
        }
        if (value_option("--movetime", argc, argv, &i, &value)) {
            char *end;
            long n = strtol(value, &end, 10);
            if (*end || end == value || n < 1 || n > 3600000)
                cli_fail("bad --movetime '%s': give milliseconds from 1 to 3600000", value);
            o->movetime = n;
            continue;
        }
        if (!strcmp(argv[i], "--ascii")) o->ascii = true;
        else if (!strcmp(argv[i], "--flip")) o->flip = true;
        else if (argv[i][0] == '-') cli_fail("unknown option '%s' (see 'ttchess play --help')", argv[i]);
        else cli_fail("unexpected argument '%s' (see 'ttchess play --help')", argv[i]);
    }
    if (strcmp(o->color, "auto") && strcmp(o->color, "always") && strcmp(o->color, "never"))
        cli_fail("bad --color '%s': give auto, always or never", o->color);
    if (o->load && (o->position.fen || o->position.moves))
        cli_fail("--load cannot be combined with --fen or --moves");
    if (o->vs && strcmp(o->vs, "engine")) cli_fail("bad --vs '%s': the only opponent is 'engine'", o->vs);
    if (!o->vs && (o->side || o->level || o->movetime))
        cli_fail("--color white|black, --level and --movetime need --vs engine");
    if (o->level && o->movetime) cli_fail("give --level or --movetime, not both");
}

static bool want_color(const PlayOptions *o)
{
    if (o->ascii || !strcmp(o->color, "never")) return false;
    if (!strcmp(o->color, "always")) return true;
    const char *no_color = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

static void start_game(const PlayOptions *o, Session *s)
{
    if (!o->load) {
        cli_position_game(&o->position, &s->game);
        return;
    }
    const Variant *force = o->position.variant ? cli_variant(o->position.variant) : NULL;
    Text err = TEXT_INIT;
    if (!play_load_file(o->load, force, text_str(&o->position.options), &s->game, &s->header, &err))
        cli_fail("cannot load %s", err.failed ? "(out of memory)" : text_str(&err));
}

static void print_farewell(const Game *g)
{
    if (game_is_over(g)) print_outcome_line(g);
    else printf("game adjourned\n");
}

/* The engine's thinking on one line, rewritten as each depth completes
 * (only on a terminal: a transcript gets the action alone). */
static void print_thinking(void *context, const SearchInfo *info)
{
    const Session *s = context;
    if (!isatty(STDOUT_FILENO) || info->multipv != 1) return;
    Text line = TEXT_INIT;
    Line l;
    line_open(&l, &s->game, game_current(&s->game));
    for (int i = 0; i < info->pv_length && i < 6; i++) {
        if (i) text_add(&line, " ");
        if (!s->game.variant->format_human(&l, info->pv[i], &line) || !line_push(&l, info->pv[i])) break;
    }
    line_close(&l);
    char score[32];
    if (engine_score_is_mate(info->score)) snprintf(score, sizeof score, "#%d", engine_mate_moves(info->score));
    else snprintf(score, sizeof score, "%+.2f", info->score / 100.0);
    printf("\r\033[Kthinking: depth %d  %s  %s  (%llu nodes)", info->depth, score, text_str(&line),
           (unsigned long long)info->nodes);
    fflush(stdout);
    text_free(&line);
}

static void engine_turn(Session *s)
{
    SearchLimits lim = { .movetime = s->engine_movetime, .multipv = 1 };
    SearchResult r;
    Text err = TEXT_INIT;
    engine_set_skill(s->engine, s->engine_skill);
    engine_set_seed(s->engine, (uint64_t)time(NULL));
    if (!engine_search(s->engine, &s->game, &lim, print_thinking, s, &r, &err)) cli_fail_text(NULL, &err);
    if (isatty(STDOUT_FILENO)) printf("\r\033[K");
    if (!r.has_move) return;
    Text text = TEXT_INIT;
    Line l;
    line_open(&l, &s->game, game_current(&s->game));
    need(s->game.variant->format_human(&l, r.best, &text));
    line_close(&l);
    need(game_push(&s->game, r.best));
    printf("the engine plays %s\n", text_str(&text));
    text_free(&text);
}

static bool engine_to_move(const Session *s)
{
    return s->engine && side_to_move(&s->game) == s->engine_side && !game_is_over(&s->game) && s->travel_node < 0;
}

static void play_loop(Session *s)
{
    char buf[LINE_LIMIT + 1];
    if (engine_to_move(s)) engine_turn(s);
    play_print_position(s);
    while (!s->done) {
        play_print_prompt(s);
        LineStatus st = play_read_line(buf);
        if (st == LINE_END) {
            fputc('\n', stdout);
            break;
        }
        if (st == LINE_TOO_LONG) {
            if (s->echo) printf("(overlong line)\n");
            printf("that line is longer than %d characters; it was ignored\n", LINE_LIMIT);
            continue;
        }
        char *line = play_trim(buf);
        if (s->echo) printf("%s\n", line);
        if (!*line) continue;
        if (play_handle_line(s, line)) {
            if (engine_to_move(s)) {
                play_print_position(s);
                engine_turn(s);
            }
            play_print_position(s);
        }
    }
    print_farewell(&s->game);
}

int cmd_play(int argc, char **argv)
{
    PlayOptions o = { .color = "auto" };
    parse_play_options(argc, argv, &o);
    Session *s = checked_malloc(sizeof *s);
    memset(s, 0, sizeof *s);
    s->display.color = want_color(&o);
    s->display.ascii = o.ascii;
    s->display.flip = o.flip;
    s->echo = !isatty(STDIN_FILENO);
    s->travel_node = -1;
    pgn_header_init(&s->header);
    start_game(&o, s);
    movelist_init(&s->legal);
    if (o.vs) {
        s->engine = engine_new();
        if (!s->engine) cli_fail("out of memory");
        s->engine_side = o.side && !strcmp(o.side, "black") ? WHITE : BLACK;
        int level = o.level ? o.level : 10;
        s->engine_skill = (level - 1) * ENGINE_SKILL_MAX / 9;
        s->engine_movetime = o.movetime ? o.movetime : 100L * level;
        if (o.movetime && !o.level) s->engine_skill = ENGINE_SKILL_MAX;
        printf("You play %s against the engine (skill %d of %d, %lld ms a move).\n", color_name((Color)!s->engine_side),
               s->engine_skill, ENGINE_SKILL_MAX, (long long)s->engine_movetime);
    }
    play_loop(s);
    engine_free(s->engine);
    movelist_free(&s->legal);
    pgn_header_free(&s->header);
    game_free(&s->game);
    text_free(&o.position.options);
    free(s);
    return 0;
}
