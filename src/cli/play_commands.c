/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ttchess play: the commands typed at the prompt (moves, undo, travel,
 * save, ...), found by the table at the end, and the actions handed to
 * the variant's notation when a line names no command.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "play_session.h"
#include "sheets.h"

/* ------------------------------------------------------------------ */
/* Commands.  Each returns true when the position should be drawn      */
/* again because something about it changed.                          */
/* ------------------------------------------------------------------ */

typedef struct ActionText {
    char *human;
    char *coord;
    /* The group the moves command lists it in: its kind's list title and
     * order, as the library describes the kind (variant_action_kind). */
    const char *group;
    int order;
} ActionText;

/* An action at an earlier position (a whole-board travel, MOVE_AT_NODE)
 * is listed apart from its kind, after every kind. */
static const char TRAVELS_TITLE[] = "travels to earlier positions";
enum { TRAVELS_ORDER = 256 };

/* The group title of a kind: its own, or the moves'. */
static const char *kind_title(const ActionKind *k) { return k->list_title ? k->list_title : "moves"; }

static void action_group(const Variant *v, Move m, ActionText *t)
{
    if (m.flags & MOVE_AT_NODE) {
        t->group = TRAVELS_TITLE;
        t->order = TRAVELS_ORDER;
        return;
    }
    const ActionKind *k = variant_action_kind(v, m.kind);
    t->group = kind_title(k);
    t->order = k->list_title ? k->list_order : 0;
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
    if (x->order != y->order) return x->order - y->order;
    int g = strcmp(x->group, y->group);
    if (g) return g;
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
    action_group(line_variant(l), m, t);
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
        size_t w = play_display_width(label.str, label.len);
        if (w > width) width = w;
    }
    width += 2;
    int per_line = width >= 78 ? 1 : (int)(78 / width);
    for (int i = 0; i < count; i++) {
        action_label(&texts[i], &label);
        bool last_in_line = (i + 1) % per_line == 0 || i + 1 == count;
        printf("  %s", text_str(&label));
        if (last_in_line) printf("\n");
        else printf("%*s", (int)(width - 2 - play_display_width(label.str, label.len)), "");
    }
    need(!label.failed);
    text_free(&label);
}

/* A group longer than this is only counted unless asked for by name. */
enum { GROUP_LIST_MAX = 60 };

/* Does the group's title begin with the word? */
static bool group_named(const char *title, const char *word)
{
    return !strncasecmp(title, word, strlen(word));
}

/* Does the word begin the title of any group the game can list, whether
 * or not the position has actions of it?  Every kind the game knows (its
 * own, then the library's) and the travels to earlier positions. */
static bool names_a_group(const Variant *v, const char *word)
{
    if (group_named(TRAVELS_TITLE, word)) return true;
    for (int kind = 0; kind < 256; kind++) {
        const ActionKind *k = variant_action_kind(v, (uint8_t)kind);
        if (k->kind == kind && group_named(kind_title(k), word)) return true;
    }
    return false;
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
    bool by_group = *arg && names_a_group(g->variant, arg);
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
        while (end < shown && !strcmp(texts[end].group, texts[i].group)) end++;
        const char *title = texts[i].group;
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
        play_format_numbered_action(g, game_current(g), &text);
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
    if (!play_load_file(arg, NULL, NULL, &fresh, &header, &err)) {
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
    if (!play_read_yes(s->echo)) {
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
/* travel: a whole-board travel to an earlier position (a game's      */
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
            play_print_other_board(b, &s->display);
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
bool play_handle_line(Session *s, const char *line)
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
