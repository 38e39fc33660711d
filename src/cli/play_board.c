/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ttchess play: drawing the board of the present position, what the
 * variant says about it beside it, and the lines below it (the turn, the
 * last action, the outcome, the prompt).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "play_session.h"

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
void play_format_numbered_action(const Game *g, int n, Text *out)
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

/* Picks a square's background: a king the game shows in check (in
 * `checked`) shows red, the two squares of the last action are lit. */
static int square_background(Square s, Move last, Bitboard checked)
{
    if (checked & (1ULL << s)) return COLOR_CHECK;
    bool light = (square_file(s) + square_rank(s)) % 2 == 1;
    bool lit = s == last.from || s == last.to;
    if (lit) return light ? COLOR_LIGHT_LAST : COLOR_DARK_LAST;
    return light ? COLOR_LIGHT : COLOR_DARK;
}

/* The kings the game shows in check: by default those attacked, or what
 * the game's own sense of check says (variant_checked_kings). */
static Bitboard checked_kings(const Game *g)
{
    Line l;
    line_open(&l, g, game_current(g));
    Bitboard checked = variant_checked_kings(g->variant, &l);
    line_close(&l);
    return checked;
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

/* A piece's state mark in games whose pieces have one (' traveling, "
 * traveled, as such a game's FEN marks them), shown in the column after it; in
 * colour the piece is also drawn in the state's ink. */
static char piece_mark(const Game *g, Square s)
{
    return variant_piece_mark(g->variant, game_state(g), s);
}

static int mark_ink(char mark)
{
    return mark == '\'' ? COLOR_TRAVELING_INK : mark == '"' ? COLOR_TRAVELED_INK : COLOR_INK;
}

static void print_rank(const Game *g, int rank, Move last, const Display *d)
{
    const Board *b = game_board(g);
    printf("%d %s", rank + 1, d->color ? " " : "");
    Bitboard checked = d->color ? checked_kings(g) : 0;
    for (int i = 0; i < 8; i++) {
        Square s = make_square(d->flip ? 7 - i : i, rank);
        char text[8], mark = piece_mark(g, s);
        piece_text(b->squares[s], d, text, sizeof text);
        if (d->color)
            printf("\x1b[48;5;%dm\x1b[38;5;%dm %s%c", square_background(s, last, checked), mark_ink(mark), text,
                   mark ? mark : ' ');
        else
            printf("%s%c", text, mark ? mark : ' ');
    }
    if (d->color) fputs("\x1b[0m ", stdout);
    printf("%d", rank + 1);
}

/* The width in columns of a line of UTF-8 text (each character one). */
size_t play_display_width(const char *s, size_t len)
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
    Line l;
    line_open(&l, g, game_current(g));
    need(variant_describe(g->variant, &l, text));
    line_close(&l);
    if (!text->len) return 0;
    int n = 0;
    for (size_t i = 0; i < text->len; i++) n += text->str[i] == '\n';
    if (text->len && text->str[text->len - 1] != '\n') n++;
    *lines = checked_malloc(((size_t)n + 1) * sizeof **lines);
    char *p = text->str;
    for (int i = 0; i < n; i++) {
        char *end = strchr(p, '\n');
        if (end) *end = 0;
        (*lines)[i] = p;
        if (play_display_width(p, strlen(p)) > BESIDE_WIDTH) *narrow = false;
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
    play_format_numbered_action(g, n, &text);
    printf("last action: %s\n", text_str(&text));
    Line l;
    line_open(&l, g, n - 1);
    text_clear(&text);
    need(variant_note(g->variant, &l, game_node(g, n)->move, &text));
    line_close(&l);
    if (text.len) printf("(%s)\n", text_str(&text));
    text_free(&text);
}

/* What the variant says about the end (the obligations each side left
 * unmet, in a game of obligations), if anything. */
static void print_final_note(const Game *g)
{
    Line l;
    Text text = TEXT_INIT;
    line_open(&l, g, game_current(g));
    need(variant_note(g->variant, &l, move_none(), &text));
    line_close(&l);
    if (text.len) printf("(%s)\n", text_str(&text));
    text_free(&text);
}

void play_print_position(Session *s)
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

void play_print_prompt(const Session *s)
{
    const Game *g = &s->game;
    if (game_is_over(g)) fputs("game over> ", stdout);
    else if (s->travel_node >= 0) printf("%s: the move at %s> ", color_name(side_to_move(g)), s->travel_label);
    else printf("%s to move (move %d)> ", color_name(side_to_move(g)), game_board(g)->fullmove);
    fflush(stdout);
}


/* A board other than the present one (where a travel goes), plainly. */
void play_print_other_board(const Board *b, const Display *d)
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

