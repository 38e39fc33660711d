/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ttchess play: a game between two people at one keyboard, or against
 * the engine (--vs engine), in the terminal.  Everything about the rules comes through the Variant table, so
 * this file knows no particular game: it draws the board of the present
 * position, prints what the variant says about it (describe), reads one
 * line at a time and either runs a command or hands the text to the
 * variant's notation through game_play_text.
 *
 * The input may be a terminal or a file; when it is not a terminal each
 * line is echoed after the prompt so that a transcript reads like a
 * session.  No input can end the program except quit, exit and the end of
 * the input.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "engine.h"
#include "ttchess/pgn.h"
#include "ttchess/sheets.h"

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
    "               (Time Travel Chessgi); 'travel N' shows position N and its\n"
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

/* Lines longer than this are refused whole rather than cut, so that half
 * of an overlong line is never taken for an action. */
enum { LINE_LIMIT = 1000 };

/* The largest game file that load accepts; real ones are far smaller. */
enum { LOAD_LIMIT = 16 * 1024 * 1024 };

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

/* ------------------------------------------------------------------ */
/* Small helpers.                                                     */
/* ------------------------------------------------------------------ */

static void *checked_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p) cli_fail("out of memory");
    return p;
}

/* Fails the program if a library call ran out of memory. */
static void need(bool ok)
{
    if (!ok) cli_fail("out of memory");
}

static Outcome outcome_of(const Game *g)
{
    Outcome o;
    need(game_outcome(g, &o));
    return o;
}

static bool game_is_over(const Game *g) { return outcome_of(g).result != RESULT_NONE; }

static void print_outcome_line(const Game *g)
{
    Text line = TEXT_INIT;
    need(game_outcome_line(g, &line));
    printf("%s\n", text_str(&line));
    text_free(&line);
}

static Color side_to_move(const Game *g) { return game_board(g)->side; }

/* Reads a whole file into a malloc'd string.  On failure returns NULL and
 * writes why into err. */
static char *read_whole_file(const char *path, Text *err)
{
    FILE *f = fopen(path, "rb");
    if (!f && errno == ENOMEM) cli_fail("out of memory");
    if (!f) {
        text_fail(err, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = checked_malloc(cap);
    for (;;) {
        if (len + 1 >= cap) {
            if (cap >= LOAD_LIMIT) {
                text_fail(err, "%s: too large to be a game file", path);
                free(buf);
                fclose(f);
                return NULL;
            }
            cap *= 2;
            char *grown = realloc(buf, cap);
            if (!grown) cli_fail("out of memory");
            buf = grown;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0) break;
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        text_fail(err, "%s: read error", path);
        free(buf);
        return NULL;
    }
    buf[len] = 0;
    return buf;
}

/* Reads a PGN file into a fresh game.  On failure the game is freed and
 * err says why; on success the caller owns the game and the header. */
static bool load_game_file(const char *path, const Variant *force, const char *force_options, Game *g,
                           PgnHeader *h, Text *err)
{
    char *text = read_whole_file(path, err);
    if (!text) return false;
    Text why = TEXT_INIT;
    pgn_header_init(h);
    bool ok = pgn_read(text, force, force_options, g, h, NULL, &why);
    free(text);
    if (!ok) {
        game_free(g);
        pgn_header_free(h);
        text_fail(err, "%s: %s", path, why.failed ? "out of memory" : text_str(&why));
    }
    text_free(&why);
    return ok;
}

/* Formats the action that led to node n in human form, in the position
 * it was played in (node n - 1, the present one then; not its parent: an
 * action that travels back is played in one timeline and lands in
 * another). */
static void format_node_action(const Game *g, int n, Text *out)
{
    Line l;
    line_open(&l, g, n - 1);
    need(g->variant->format_human(&l, game_node(g, n)->move, out));
    line_close(&l);
}

/* "12. Nf3" or "12... Nf6": the action of node n with its move number. */
static void format_numbered_action(const Game *g, int n, Text *out)
{
    const Board *before = &game_node(g, n - 1)->state->board;
    text_addf(out, "%d%s ", before->fullmove, before->side == WHITE ? "." : "...");
    format_node_action(g, n, out);
}

/* ------------------------------------------------------------------ */
/* Drawing the board.                                                 */
/* ------------------------------------------------------------------ */

/* ANSI 256-colour backgrounds: plain squares, the squares of the last
 * action, and a king in check. */
enum {
    COLOR_LIGHT = 187,
    COLOR_DARK = 107,
    COLOR_LIGHT_LAST = 229,
    COLOR_DARK_LAST = 143,
    COLOR_CHECK = 203,
    COLOR_INK = 16,
    COLOR_TRAVELING_INK = 19,   /* dark blue: a piece travelling back    */
    COLOR_TRAVELED_INK = 88     /* dark red: a piece that has travelled  */
};

static const char *const WHITE_SYMBOLS[7] = { "", "♙", "♘", "♗", "♖", "♕", "♔" };
static const char *const BLACK_SYMBOLS[7] = { "", "♟", "♞", "♝", "♜", "♛", "♚" };

/* The text of one square's piece, one column wide. */
static void piece_text(Piece p, const Display *d, char *buf, size_t len)
{
    if (p == NO_PIECE) {
        snprintf(buf, len, "%s", d->color ? " " : d->ascii ? "." : "·");
        return;
    }
    PieceType t = piece_type(p);
    Color c = piece_color(p);
    if (d->ascii) {
        char letter = piece_letter(t);
        snprintf(buf, len, "%c", c == WHITE ? letter : (char)tolower((unsigned char)letter));
        return;
    }
    snprintf(buf, len, "%s", c == WHITE ? WHITE_SYMBOLS[t] : BLACK_SYMBOLS[t]);
}

/* Picks a square's background: a king of the side to move that is
 * attacked shows red, the two squares of the last action are lit. */
static int square_background(const Game *g, Square s, Move last)
{
    const Board *b = game_board(g);
    Piece p = b->squares[s];
    /* A game whose check is not an attack on a king (Time Traveler's
     * Chess) lights every king of the side in check. */
    bool attack_check = !g->variant->piece_mark;
    if (p != NO_PIECE && piece_type(p) == KING && piece_color(p) == b->side &&
        (attack_check ? board_square_attacked(b, s, (Color)(b->side ^ 1)) : game_in_check(g)))
        return COLOR_CHECK;
    bool light = (square_file(s) + square_rank(s)) % 2 == 1;
    bool lit = s == last.from || s == last.to;
    if (lit) return light ? COLOR_LIGHT_LAST : COLOR_DARK_LAST;
    return light ? COLOR_LIGHT : COLOR_DARK;
}

static void print_file_labels(const Display *d)
{
    fputs(d->color ? "   " : "  ", stdout);
    for (int i = 0; i < 8; i++) {
        int file = d->flip ? 7 - i : i;
        if (d->color) printf(" %c ", 'a' + file);
        else printf("%c%s", 'a' + file, i < 7 ? " " : "");
    }
}

/* A piece's state mark in games whose pieces have one (Time Traveler's
 * Chess: ' traveling, " traveled), shown in the column after it; in
 * colour the piece is also drawn in the state's ink. */
static char piece_mark(const Game *g, Square s)
{
    return g->variant->piece_mark ? g->variant->piece_mark(game_state(g), s) : 0;
}

static int mark_ink(char mark)
{
    return mark == '\'' ? COLOR_TRAVELING_INK : mark == '"' ? COLOR_TRAVELED_INK : COLOR_INK;
}

static void print_rank(const Game *g, int rank, Move last, const Display *d)
{
    const Board *b = game_board(g);
    printf("%d %s", rank + 1, d->color ? " " : "");
    for (int i = 0; i < 8; i++) {
        Square s = make_square(d->flip ? 7 - i : i, rank);
        char text[8], mark = piece_mark(g, s);
        piece_text(b->squares[s], d, text, sizeof text);
        if (d->color)
            printf("\x1b[48;5;%dm\x1b[38;5;%dm %s%c", square_background(g, s, last), mark_ink(mark), text,
                   mark ? mark : ' ');
        else
            printf("%s%c", text, mark ? mark : ' ');
    }
    if (d->color) fputs("\x1b[0m ", stdout);
    printf("%d", rank + 1);
}

/* The width in columns of a line of UTF-8 text (each character one). */
static size_t display_width(const char *s, size_t len)
{
    size_t w = 0;
    for (size_t i = 0; i < len; i++) w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

/* What the variant has to say about the position (pending arrivals,
 * obligations, travellers), as lines; the count.  *narrow tells whether
 * every line fits beside the board. */
enum { BESIDE_WIDTH = 46, BOARD_LINES = 10 };

static int description_lines(const Game *g, Text *text, const char ***lines, bool *narrow)
{
    *lines = NULL;
    *narrow = true;
    if (!g->variant->describe) return 0;
    Line l;
    line_open(&l, g, game_current(g));
    need(g->variant->describe(&l, text));
    line_close(&l);
    int n = 0;
    for (size_t i = 0; i < text->len; i++) n += text->str[i] == '\n';
    if (text->len && text->str[text->len - 1] != '\n') n++;
    *lines = checked_malloc(((size_t)n + 1) * sizeof **lines);
    char *p = text->str;
    for (int i = 0; i < n; i++) {
        char *end = strchr(p, '\n');
        if (end) *end = 0;
        (*lines)[i] = p;
        if (display_width(p, strlen(p)) > BESIDE_WIDTH) *narrow = false;
        p = end ? end + 1 : p + strlen(p);
    }
    return n;
}

/* Draws the board of the present position with files and ranks named on
 * every side, White's side at the bottom unless flipped, and what the
 * variant says about the position beside it when its lines are short
 * enough, else below. */
static void print_board(const Game *g, const Display *d)
{
    Move last = game_node(g, game_current(g))->move;
    Text text = TEXT_INIT;
    const char **lines;
    bool narrow;
    int n = description_lines(g, &text, &lines, &narrow), next = 0;
    for (int row = 0; row < BOARD_LINES; row++) {
        bool labels = row == 0 || row == BOARD_LINES - 1;
        if (labels) print_file_labels(d);
        else print_rank(g, d->flip ? row - 1 : 8 - row, last, d);
        /* The file labels are two columns shorter than a rank's line. */
        if (narrow && next < n) printf("%s   %s", labels ? "  " : "", lines[next++]);
        fputc('\n', stdout);
    }
    /* The rest below, in the same column when it stands beside. */
    int indent = narrow ? (d->color ? 29 : 19) + 3 : 0;
    for (; next < n; next++) printf("%*s%s\n", indent, "", lines[next]);
    free(lines);
    text_free(&text);
}

/* ------------------------------------------------------------------ */
/* The lines below the board.                                         */
/* ------------------------------------------------------------------ */

static void print_turn_line(const Game *g)
{
    const Board *b = game_board(g);
    printf("timeline %d", game_node(g, game_current(g))->timeline);
    if (game_timelines(g) > 1) printf(" (of %d)", game_timelines(g));
    printf(", move %d, %s to move\n", b->fullmove, color_name(b->side));
}

static void print_last_action(const Game *g)
{
    int n = game_current(g);
    if (n == 0) return;
    Text text = TEXT_INIT;
    format_numbered_action(g, n, &text);
    printf("last action: %s\n", text_str(&text));
    if (g->variant->note) {
        Line l;
        line_open(&l, g, n - 1);
        text_clear(&text);
        need(g->variant->note(&l, game_node(g, n)->move, &text));
        line_close(&l);
        if (text.len) printf("(%s)\n", text_str(&text));
    }
    text_free(&text);
}

/* What the variant says about the end (van Gog: the obligations each side
 * left unmet), if anything. */
static void print_final_note(const Game *g)
{
    if (!g->variant->note) return;
    Line l;
    Text text = TEXT_INIT;
    line_open(&l, g, game_current(g));
    need(g->variant->note(&l, move_none(), &text));
    line_close(&l);
    if (text.len) printf("(%s)\n", text_str(&text));
    text_free(&text);
}

static void print_position(Session *s)
{
    Game *g = &s->game;
    fputc('\n', stdout);
    print_board(g, &s->display);
    print_turn_line(g);
    print_last_action(g);
    if (game_is_over(g)) {
        print_outcome_line(g);
        print_final_note(g);
        return;
    }
    if (game_in_check(g)) printf("check\n");
}

static void print_prompt(const Session *s)
{
    const Game *g = &s->game;
    if (game_is_over(g)) fputs("game over> ", stdout);
    else if (s->travel_node >= 0) printf("%s: the move at %s> ", color_name(side_to_move(g)), s->travel_label);
    else printf("%s to move (move %d)> ", color_name(side_to_move(g)), game_board(g)->fullmove);
    fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* Reading input.                                                     */
/* ------------------------------------------------------------------ */

typedef enum LineStatus { LINE_OK, LINE_TOO_LONG, LINE_END } LineStatus;

/* Reads one line into buf (LINE_LIMIT + 1 bytes), byte by byte so that no
 * input can split a line or overflow the buffer.  Control characters
 * become spaces: they can mean nothing here, and echoing them could
 * drive the terminal. */
static LineStatus read_line(char *buf)
{
    size_t n = 0;
    bool any = false, too_long = false;
    int c;
    while ((c = getchar()) != EOF) {
        any = true;
        if (c == '\n') break;
        if (c < 0x20 || c == 0x7f) c = ' ';
        if (n < LINE_LIMIT) buf[n++] = (char)c;
        else too_long = true;
    }
    buf[n] = 0;
    if (!any) return LINE_END;
    return too_long ? LINE_TOO_LONG : LINE_OK;
}

/* Removes leading and trailing spaces in place; returns the start. */
static char *trim(char *s)
{
    while (*s == ' ') s++;
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == ' ') s[--n] = 0;
    return s;
}

/* Reads the answer to a question: true for y or yes in any case.  The
 * end of the input counts as no. */
static bool read_yes(bool echo)
{
    char buf[LINE_LIMIT + 1];
    LineStatus st = read_line(buf);
    if (st == LINE_END) {
        fputc('\n', stdout);
        return false;
    }
    char *answer = trim(buf);
    if (echo) printf("%s\n", st == LINE_TOO_LONG ? "(overlong line)" : answer);
    return st == LINE_OK && (!strcasecmp(answer, "y") || !strcasecmp(answer, "yes"));
}

/* ------------------------------------------------------------------ */
/* Commands.  Each returns true when the position should be drawn      */
/* again because something about it changed.                          */
/* ------------------------------------------------------------------ */

typedef struct ActionText {
    char *human;
    char *coord;
    int group;     /* enum ActionGroup */
} ActionText;

/* The kinds of action, as the moves command lists them. */
enum ActionGroup {
    GROUP_MOVES, GROUP_ARRIVALS, GROUP_DEPARTURES_PAST, GROUP_DEPARTURES_FUTURE, GROUP_REAPPEARANCES, GROUP_SENDS,
    GROUP_KINGS_BACK, GROUP_DROPS, GROUP_EXPLOSIONS, GROUP_ANNIHILATIONS, GROUP_TRAVELS, GROUP_COUNT
};

static const char *const GROUP_TITLES[GROUP_COUNT] = {
    [GROUP_MOVES] = "moves",
    [GROUP_ARRIVALS] = "arrivals from the future",
    [GROUP_DEPARTURES_PAST] = "departures to the past",
    [GROUP_DEPARTURES_FUTURE] = "departures to the future",
    [GROUP_REAPPEARANCES] = "reappearances",
    [GROUP_SENDS] = "sends to the future",
    [GROUP_KINGS_BACK] = "kings back in time",
    [GROUP_DROPS] = "drops",
    [GROUP_EXPLOSIONS] = "explosions",
    [GROUP_ANNIHILATIONS] = "annihilations",
    [GROUP_TRAVELS] = "travels to earlier positions",
};

static int action_group(Move m)
{
    if (m.flags & MOVE_AT_NODE) return GROUP_TRAVELS;
    switch (m.kind) {
    case MOVE_ARRIVAL: return GROUP_ARRIVALS;
    case MOVE_DEPART_PAST: return GROUP_DEPARTURES_PAST;
    case MOVE_DEPART_FUTURE: return GROUP_DEPARTURES_FUTURE;
    case MOVE_REAPPEAR: return GROUP_REAPPEARANCES;
    case MOVE_SEND_FORWARD: return GROUP_SENDS;
    case MOVE_KING_BACK: return GROUP_KINGS_BACK;
    case MOVE_DROP: return GROUP_DROPS;
    case MOVE_EXPLOSION: return GROUP_EXPLOSIONS;
    case MOVE_ANNIHILATION: return GROUP_ANNIHILATIONS;
    default: return GROUP_MOVES;
    }
}

/* Compares two texts with runs of digits taken as numbers, so that a
 * travel to move 2 sorts before one to move 10. */
static int compare_natural(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0') a++;
            while (*b == '0') b++;
            size_t na = strspn(a, "0123456789"), nb = strspn(b, "0123456789");
            if (na != nb) return na < nb ? -1 : 1;
            int c = strncmp(a, b, na);
            if (c) return c;
            a += na;
            b += nb;
            continue;
        }
        if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

static int compare_action_text(const void *a, const void *b)
{
    const ActionText *x = a, *y = b;
    if (x->group != y->group) return x->group - y->group;
    int c = compare_natural(x->human, y->human);
    if (!c) c = strcmp(x->human, y->human);
    return c ? c : strcmp(x->coord, y->coord);
}

static void format_action_text(const Line *l, Move m, ActionText *t)
{
    Text human = TEXT_INIT, coord = TEXT_INIT;
    need(line_variant(l)->format_human(l, m, &human) && line_variant(l)->format_coord(l, m, &coord));
    t->human = text_take(&human);
    t->coord = text_take(&coord);
    t->group = action_group(m);
    need(t->human && t->coord);
}

/* "Nf3 (g1f3)", or the one form when both are the same. */
static void action_label(const ActionText *t, Text *out)
{
    text_clear(out);
    if (!strcmp(t->human, t->coord)) text_add(out, t->human);
    else text_addf(out, "%s (%s)", t->human, t->coord);
}

/* Prints labels in columns that fit a line of 80 characters. */
static void print_columns(const ActionText *texts, int count)
{
    Text label = TEXT_INIT;
    size_t width = 0;
    for (int i = 0; i < count; i++) {
        action_label(&texts[i], &label);
        size_t w = display_width(label.str, label.len);
        if (w > width) width = w;
    }
    width += 2;
    int per_line = width >= 78 ? 1 : (int)(78 / width);
    for (int i = 0; i < count; i++) {
        action_label(&texts[i], &label);
        bool last_in_line = (i + 1) % per_line == 0 || i + 1 == count;
        printf("  %s", text_str(&label));
        if (last_in_line) printf("\n");
        else printf("%*s", (int)(width - 2 - display_width(label.str, label.len)), "");
    }
    need(!label.failed);
    text_free(&label);
}

/* A group longer than this is only counted unless asked for by name. */
enum { GROUP_LIST_MAX = 60 };

/* Does the group's title begin with the word? */
static bool group_named(int group, const char *word)
{
    return !strncasecmp(GROUP_TITLES[group], word, strlen(word));
}

/* moves: every legal action by kind; "moves arrivals" one kind in full,
 * "moves d4" only the actions that name d4 (any text they contain). */
static bool cmd_moves_list(Session *s, const char *arg)
{
    Game *g = &s->game;
    if (game_is_over(g)) {
        printf("no legal actions: the game is over\n");
        return false;
    }
    need(game_generate(g, &s->legal));
    int count = s->legal.count;
    if (count == 0) {
        printf("no legal actions\n");
        return false;
    }
    ActionText *texts = checked_malloc((size_t)count * sizeof *texts);
    Line l;
    line_open(&l, g, game_current(g));
    for (int i = 0; i < count; i++) format_action_text(&l, s->legal.moves[i], &texts[i]);
    line_close(&l);
    qsort(texts, (size_t)count, sizeof *texts, compare_action_text);
    bool by_group = false;
    for (int k = 0; k < GROUP_COUNT && *arg; k++) by_group |= group_named(k, arg);
    int shown = 0;
    for (int i = 0; i < count; i++) {
        bool keep = !*arg || (by_group ? group_named(texts[i].group, arg)
                                       : strstr(texts[i].human, arg) || strstr(texts[i].coord, arg));
        if (keep) texts[shown++] = texts[i];
        else free(texts[i].human), free(texts[i].coord);
    }
    if (!shown) printf("no legal action of %s matches '%s'\n", color_name(side_to_move(g)), arg);
    else if (*arg) printf("%d of the %d legal actions of %s:\n", shown, count, color_name(side_to_move(g)));
    else printf("%d legal action%s for %s:\n", count, count == 1 ? "" : "s", color_name(side_to_move(g)));
    for (int i = 0; i < shown;) {
        int end = i;
        while (end < shown && texts[end].group == texts[i].group) end++;
        const char *title = GROUP_TITLES[texts[i].group];
        printf("%c%s (%d):\n", toupper((unsigned char)title[0]), title + 1, end - i);
        if (end - i <= GROUP_LIST_MAX || *arg) print_columns(texts + i, end - i);
        else
            printf("  (too many to list: 'moves %.*s' lists them all, 'moves d4' only the actions that name d4)\n",
                   (int)strcspn(title, " "), title);
        i = end;
    }
    for (int i = 0; i < shown; i++) {
        free(texts[i].human);
        free(texts[i].coord);
    }
    free(texts);
    return false;
}

static bool cmd_undo(Session *s, const char *arg)
{
    (void)arg;
    Game *g = &s->game;
    if (g->declared.result != RESULT_NONE) {
        Text line = TEXT_INIT;
        outcome_line(g->declared, g->declared_words, &line);
        need(game_declare(g, outcome_none(), NULL) && !line.failed);
        printf("withdrawn: %s\n", text_str(&line));
        text_free(&line);
        return true;
    }
    if (game_current(g) == 0) {
        printf("nothing to undo\n");
        return false;
    }
    /* Against the engine an undo gives the turn back to the player: the
     * engine's answer goes too, or it would only play it again. */
    int plies = s->engine && side_to_move(g) != s->engine_side && game_current(g) >= 2 ? 2 : 1;
    for (int i = 0; i < plies; i++) {
        Text text = TEXT_INIT;
        format_numbered_action(g, game_current(g), &text);
        game_pop(g);
        printf("took back %s\n", text_str(&text));
        text_free(&text);
    }
    return true;
}

static bool cmd_flip(Session *s, const char *arg)
{
    (void)arg;
    s->display.flip = !s->display.flip;
    return true;
}

static bool cmd_history(Session *s, const char *arg)
{
    (void)arg;
    Text out = TEXT_INIT;
    need(sheets_write(&s->game, &out));
    cli_print_text(&out);
    text_free(&out);
    return false;
}

/* Fills the tags a saved game should have that the session can know. */
static void prepare_header(Session *s)
{
    if (!pgn_tag(&s->header, "Event")) need(pgn_set_tag(&s->header, "Event", "Casual game"));
    if (!pgn_tag(&s->header, "Date")) {
        time_t now = time(NULL);
        struct tm day;
        char date[16];
        if (localtime_r(&now, &day) && strftime(date, sizeof date, "%Y.%m.%d", &day))
            need(pgn_set_tag(&s->header, "Date", date));
    }
    need(pgn_set_tag(&s->header, "Result", result_string(outcome_of(&s->game).result)));
}

static bool cmd_save(Session *s, const char *arg)
{
    FILE *f = fopen(arg, "w");
    if (!f) {
        printf("cannot save to %s: %s\n", arg, strerror(errno));
        return false;
    }
    prepare_header(s);
    Text text = TEXT_INIT;
    need(pgn_write(&s->game, &s->header, &text));
    fwrite(text_str(&text), 1, text.len, f);
    text_free(&text);
    bool failed = ferror(f) != 0;
    if (fclose(f) != 0) failed = true;
    if (failed) printf("cannot save to %s: write error\n", arg);
    else printf("saved to %s\n", arg);
    return false;
}

static bool cmd_load(Session *s, const char *arg)
{
    Game fresh;
    PgnHeader header;
    Text err = TEXT_INIT;
    if (!load_game_file(arg, NULL, NULL, &fresh, &header, &err)) {
        printf("cannot load %s\n", err.failed ? "(out of memory)" : text_str(&err));
        text_free(&err);
        return false;
    }
    text_free(&err);
    game_free(&s->game);
    pgn_header_free(&s->header);
    s->game = fresh;
    s->header = header;
    printf("loaded %s (%s)\n", arg, s->game.variant->name);
    return true;
}

static bool cmd_resign(Session *s, const char *arg)
{
    (void)arg;
    Color side = side_to_move(&s->game);
    need(game_declare(&s->game, outcome_make(result_loss_for(side), REASON_RESIGNATION, side), NULL));
    return true;
}

static bool cmd_draw(Session *s, const char *arg)
{
    (void)arg;
    Color opponent = (Color)(side_to_move(&s->game) ^ 1);
    printf("%s, do you accept a draw? [y/n] ", color_name(opponent));
    fflush(stdout);
    if (!read_yes(s->echo)) {
        printf("draw declined\n");
        return false;
    }
    need(game_declare(&s->game, outcome_make(RESULT_DRAW, REASON_AGREED_DRAW, SIDE_NONE), NULL));
    return true;
}

static bool cmd_quit(Session *s, const char *arg)
{
    (void)arg;
    s->done = true;
    return false;
}

/* Picks up to `want` legal actions to show as examples: first one of each
 * kind of action and moving piece, so that a game's own kinds (travels,
 * arrivals, drops) are shown beside ordinary moves of different pieces,
 * then others spread through the list. */
static int pick_examples(const Board *b, const MoveList *l, int *picked, int want)
{
    int n = 0;
    bool seen[(MOVE_NULL + 1) * 8] = { false };
    /* The game's own kinds first: they are the ones a newcomer needs. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < l->count && n < want; i++) {
            Move m = l->moves[i];
            if ((m.kind > MOVE_PROMOTION) != (pass == 0)) continue;
            PieceType mover = m.from < 64 ? piece_type(b->squares[m.from]) : NO_TYPE;
            int key = (m.kind > MOVE_NULL ? MOVE_NULL : m.kind) * 8 + mover;
            if (seen[key]) continue;
            seen[key] = true;
            picked[n++] = i;
        }
    }
    for (int k = 0; k < want && n < want && n < l->count; k++) {
        int i = (int)((long)k * l->count / want);
        bool taken = false;
        for (int j = 0; j < n; j++) taken |= picked[j] == i;
        if (!taken) picked[n++] = i;
    }
    return n;
}

static void print_examples(Session *s)
{
    Game *g = &s->game;
    need(game_generate(g, &s->legal));
    int picked[6];
    int n = game_is_over(g) ? 0 : pick_examples(game_board(g), &s->legal, picked, 6);
    if (n == 0) {
        printf("(no legal actions now, so no examples)\n");
        return;
    }
    printf("For example, now (human form, then coordinate form):\n");
    Line l;
    line_open(&l, g, game_current(g));
    for (int i = 0; i < n; i++) {
        ActionText t;
        format_action_text(&l, s->legal.moves[picked[i]], &t);
        printf("  %-24s %s\n", t.human, t.coord);
        free(t.human);
        free(t.coord);
    }
    line_close(&l);
}

static bool cmd_help(Session *s, const char *arg)
{
    (void)arg;
    printf("Game: %s (--variant %s).  Type an action or a command.\n\n"
           "Actions: the human form (SAN for chess moves: e4, Nf3, exd5, e8=Q, O-O)\n"
           "or the coordinate form (e2e4, g1f3, e7e8q, e1g1), Game Courier's notation\n"
           "(P e2-e4, K e1-g1; R h1-f1, P e7-e8; Q-e8, e5- to remove, N-e4 to place),\n"
           "and whatever forms the game adds for its own actions; check marks are optional.\n",
           s->game.variant->title, s->game.variant->name);
    if (s->game.variant->notation_help) printf("\n%s", s->game.variant->notation_help);
    print_examples(s);
    printf("\nCommands (whole words, any case):\n"
           "  moves [WHAT] list the legal actions by kind (moves arrivals, moves d4)\n"
           "  undo         take back the last action, or a resignation or agreed draw\n"
           "  flip         turn the board round\n"
           "  history      every timeline as a score sheet\n"
           "  travel [N]   the earlier positions to travel to; N: choose one\n"
           "  save FILE    write the game as PGN\n"
           "  load FILE    replace the game with one read from a PGN file\n"
           "  resign       %s resigns\n"
           "  draw         offer a draw to the opponent\n"
           "  help         this text\n"
           "  quit, exit   leave; the game is adjourned\n",
           color_name(side_to_move(&s->game)));
    return false;
}

/* ------------------------------------------------------------------ */
/* travel: a whole-board travel to an earlier position (Chessgi's     */
/* general travel), chosen from a numbered list, then its move.       */
/* ------------------------------------------------------------------ */

/* The earlier positions the legal actions travel to, in the order they
 * were played; their count.  *nodes is malloc'd. */
static int travel_targets(Session *s, int **nodes)
{
    Game *g = &s->game;
    need(game_generate(g, &s->legal));
    *nodes = checked_malloc(((size_t)game_count(g) + 1) * sizeof **nodes);
    bool *seen = checked_malloc((size_t)game_count(g) + 1);
    memset(seen, 0, (size_t)game_count(g) + 1);
    for (int i = 0; i < s->legal.count; i++) {
        Move m = s->legal.moves[i];
        if ((m.flags & MOVE_AT_NODE) && m.arg < (uint32_t)game_count(g)) seen[m.arg] = true;
    }
    int n = 0;
    for (int i = 0; i < game_count(g); i++)
        if (seen[i]) (*nodes)[n++] = i;
    free(seen);
    return n;
}

/* The first legal action that travels to `node`. */
static Move first_action_at(const Session *s, int node)
{
    for (int i = 0; i < s->legal.count; i++)
        if ((s->legal.moves[i].flags & MOVE_AT_NODE) && s->legal.moves[i].arg == (uint32_t)node) return s->legal.moves[i];
    return move_none();
}

/* How the actions name the position: the coordinate form's prefix up to
 * its closing '>' ("<1.4>"). */
static void travel_label(Session *s, int node, char *buf, size_t len)
{
    Line l;
    line_open(&l, &s->game, game_current(&s->game));
    Text coord = TEXT_INIT;
    need(s->game.variant->format_coord(&l, first_action_at(s, node), &coord));
    line_close(&l);
    size_t n = strcspn(text_str(&coord), ">") + 1;
    snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), text_str(&coord));
    text_free(&coord);
}

/* The pocket letters of colour c in a FEN's "[...]", or "-". */
static void fen_pocket_of(const char *fen, Color c, char *buf, size_t len)
{
    const char *open = strchr(fen, '['), *close = open ? strchr(open, ']') : NULL;
    size_t n = 0;
    for (const char *p = open ? open + 1 : fen; close && p < close && n + 1 < len; p++)
        if ((isupper((unsigned char)*p) != 0) == (c == WHITE)) buf[n++] = *p;
    if (!n) buf[n++] = '-';
    buf[n] = 0;
}

/* One line on what differs at node i from now: the squares, the
 * castling rights and the opponent's pocket (the mover keeps its own). */
static void summarize_target(const Game *g, int i, Text *out)
{
    const Board *then = &game_node(g, i)->state->board, *now = game_board(g);
    int differ = 0;
    Text squares = TEXT_INIT;
    for (Square q = 0; q < 64; q++) {
        if (then->squares[q] == now->squares[q]) continue;
        char name[3];
        square_name(q, name);
        if (differ < 8) text_addf(&squares, " %s", name);
        differ++;
    }
    if (!differ) text_add(out, "the same board");
    else text_addf(out, "%d square%s differ%s:%s%s", differ, differ == 1 ? "" : "s", differ == 1 ? "s" : "",
                   text_str(&squares), differ > 8 ? " ..." : "");
    if (then->castling != now->castling) text_add(out, "; other castling rights");
    Text a = TEXT_INIT, b = TEXT_INIT;
    g->variant->to_fen(&g->options, game_node(g, i)->state, &a);
    g->variant->to_fen(&g->options, game_state(g), &b);
    char pa[64], pb[64];
    Color them = (Color)!now->side;
    fen_pocket_of(text_str(&a), them, pa, sizeof pa);
    fen_pocket_of(text_str(&b), them, pb, sizeof pb);
    if (strchr(text_str(&a), '[') && strcmp(pa, pb))
        text_addf(out, "; %s's pocket %s (now %s)", color_name(them), pa, pb);
    need(!squares.failed && !a.failed && !b.failed);
    text_free(&squares);
    text_free(&a);
    text_free(&b);
}

static void print_travel_list(Session *s, const int *nodes, int n)
{
    Game *g = &s->game;
    printf("%s can travel to %d earlier position%s (then make a move there):\n", color_name(side_to_move(g)), n,
           n == 1 ? "" : "s");
    for (int k = 0; k < n; k++) {
        const Node *node = game_node(g, nodes[k]);
        char label[32];
        travel_label(s, nodes[k], label, sizeof label);
        Text summary = TEXT_INIT;
        summarize_target(g, nodes[k], &summary);
        printf("  %2d. %-8s timeline %d, move %d, %s to move: %s\n", k + 1, label, node->timeline,
               node->state->board.fullmove, color_name(node->state->board.side), text_str(&summary));
        text_free(&summary);
    }
    printf("type 'travel N' to see position N and choose the move made there\n");
}

/* A board other than the present one (where a travel goes), plainly. */
static void print_other_board(const Board *b, const Display *d)
{
    for (int row = 0; row < 8; row++) {
        int rank = d->flip ? row : 7 - row;
        printf("  %d ", rank + 1);
        for (int i = 0; i < 8; i++) {
            char text[8];
            piece_text(b->squares[make_square(d->flip ? 7 - i : i, rank)], d, text, sizeof text);
            printf("%s ", text);
        }
        printf("\n");
    }
    printf("    ");
    for (int i = 0; i < 8; i++) printf("%c ", 'a' + (d->flip ? 7 - i : i));
    printf("\n");
}

/* The moves that can be made at the chosen position, without its label. */
static void print_moves_there(Session *s, int node, const char *label)
{
    Line l;
    line_open(&l, &s->game, game_current(&s->game));
    int count = 0;
    for (int i = 0; i < s->legal.count; i++)
        count += (s->legal.moves[i].flags & MOVE_AT_NODE) && s->legal.moves[i].arg == (uint32_t)node;
    ActionText *texts = checked_malloc((size_t)count * sizeof *texts);
    int n = 0;
    size_t skip = strlen(label);
    for (int i = 0; i < s->legal.count; i++) {
        Move m = s->legal.moves[i];
        if (!(m.flags & MOVE_AT_NODE) || m.arg != (uint32_t)node) continue;
        format_action_text(&l, m, &texts[n]);
        /* Drop the label from both forms: the player types the move only. */
        if (!strncmp(texts[n].human, label, skip)) memmove(texts[n].human, texts[n].human + skip, strlen(texts[n].human + skip) + 1);
        if (!strncmp(texts[n].coord, label, skip)) memmove(texts[n].coord, texts[n].coord + skip, strlen(texts[n].coord + skip) + 1);
        n++;
    }
    line_close(&l);
    qsort(texts, (size_t)n, sizeof *texts, compare_action_text);
    printf("%d move%s there:\n", n, n == 1 ? "" : "s");
    print_columns(texts, n);
    for (int i = 0; i < n; i++) free(texts[i].human), free(texts[i].coord);
    free(texts);
}

static bool cmd_travel(Session *s, const char *arg)
{
    int *nodes;
    int n = travel_targets(s, &nodes);
    if (!n) {
        printf("no travel to an earlier position is possible now (the lines beside the board say what the game "
               "allows)\n");
    } else if (!*arg) {
        print_travel_list(s, nodes, n);
    } else {
        char *end;
        long k = strtol(arg, &end, 10);
        if (*end || k < 1 || k > n) {
            printf("travel takes the number of a position, from 1 to %d ('travel' lists them)\n", n);
        } else {
            int node = nodes[k - 1];
            const Board *b = &game_node(&s->game, node)->state->board;
            travel_label(s, node, s->travel_label, sizeof s->travel_label);
            printf("position %s: timeline %d, move %d, %s to move; you keep your pocket\n", s->travel_label,
                   game_node(&s->game, node)->timeline, b->fullmove, color_name(b->side));
            print_other_board(b, &s->display);
            print_moves_there(s, node, s->travel_label);
            printf("type the move to make there (or 'cancel')\n");
            s->travel_node = node;
        }
    }
    free(nodes);
    return false;
}

enum CommandArgument { ARG_NONE, ARG_FILE, ARG_OPTIONAL };

typedef struct PlayCommand {
    const char *name;
    bool (*run)(Session *s, const char *arg);
    uint8_t arg;      /* enum CommandArgument                          */
    bool after_end;   /* allowed once the game is over                 */
} PlayCommand;

static const PlayCommand PLAY_COMMANDS[] = {
    { "moves", cmd_moves_list, ARG_OPTIONAL, true },
    { "undo", cmd_undo, ARG_NONE, true },
    { "flip", cmd_flip, ARG_NONE, true },
    { "history", cmd_history, ARG_NONE, true },
    { "travel", cmd_travel, ARG_OPTIONAL, false },
    { "save", cmd_save, ARG_FILE, true },
    { "load", cmd_load, ARG_FILE, true },
    { "resign", cmd_resign, ARG_NONE, false },
    { "draw", cmd_draw, ARG_NONE, false },
    { "help", cmd_help, ARG_NONE, true },
    { "quit", cmd_quit, ARG_NONE, true },
    { "exit", cmd_quit, ARG_NONE, true },
};
enum { PLAY_COMMAND_COUNT = sizeof PLAY_COMMANDS / sizeof PLAY_COMMANDS[0] };

/* Finds the command named by the first word of line and points *arg at
 * the rest (trimmed); NULL if the first word names no command. */
static const PlayCommand *find_play_command(const char *line, const char **arg)
{
    size_t n = strcspn(line, " ");
    for (int i = 0; i < PLAY_COMMAND_COUNT; i++) {
        const PlayCommand *c = &PLAY_COMMANDS[i];
        if (strlen(c->name) != n || strncasecmp(line, c->name, n)) continue;
        const char *rest = line + n;
        while (*rest == ' ') rest++;
        *arg = rest;
        return c;
    }
    return NULL;
}

static void print_game_over(const Game *g)
{
    Text line = TEXT_INIT;
    need(game_outcome_line(g, &line));
    printf("the game is over (%s); type undo, save FILE, history or quit\n", text_str(&line));
    text_free(&line);
}

static bool run_play_command(Session *s, const PlayCommand *c, const char *arg)
{
    if (c->arg == ARG_FILE && !*arg) {
        printf("%s needs a file name: %s FILE\n", c->name, c->name);
        return false;
    }
    if (c->arg == ARG_NONE && *arg) {
        printf("%s takes no argument\n", c->name);
        return false;
    }
    if (!c->after_end && game_is_over(&s->game)) {
        print_game_over(&s->game);
        return false;
    }
    return c->run(s, arg);
}

static bool play_action(Session *s, const char *text)
{
    if (game_is_over(&s->game)) {
        print_game_over(&s->game);
        return false;
    }
    Text err = TEXT_INIT;
    bool ok = game_play_text(&s->game, text, &err);
    if (!ok) printf("%s\n", err.failed ? "out of memory" : err.len ? text_str(&err) : "that action is not allowed");
    text_free(&err);
    return ok;
}

/* Runs one line of input; returns true when the position changed. */
static bool handle_line(Session *s, const char *line)
{
    const char *arg = "";
    const PlayCommand *c = find_play_command(line, &arg);
    bool changed;
    if (c) {
        changed = run_play_command(s, c, arg);
    } else if (s->travel_node >= 0 && !strcasecmp(line, "cancel")) {
        printf("no travel: you stay in the present position\n");
        s->travel_node = -1;
        return false;
    } else if (s->travel_node >= 0 && line[0] != '<') {
        /* The move at the position 'travel N' chose. */
        char action[LINE_LIMIT + 40];
        snprintf(action, sizeof action, "%s%s", s->travel_label, line);
        changed = play_action(s, action);
    } else {
        changed = play_action(s, line);
    }
    if (changed) s->travel_node = -1;
    return changed;
}

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
    if (!load_game_file(o->load, force, text_str(&o->position.options), &s->game, &s->header, &err))
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
    print_position(s);
    while (!s->done) {
        print_prompt(s);
        LineStatus st = read_line(buf);
        if (st == LINE_END) {
            fputc('\n', stdout);
            break;
        }
        if (st == LINE_TOO_LONG) {
            if (s->echo) printf("(overlong line)\n");
            printf("that line is longer than %d characters; it was ignored\n", LINE_LIMIT);
            continue;
        }
        char *line = trim(buf);
        if (s->echo) printf("%s\n", line);
        if (!*line) continue;
        if (handle_line(s, line)) {
            if (engine_to_move(s)) {
                print_position(s);
                engine_turn(s);
            }
            print_position(s);
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
