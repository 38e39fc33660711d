/* SPDX-License-Identifier: GPL-3.0-or-later
 * Shared pieces of the command-line tool. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

void cli_fail_text(const char *prefix, const Text *why)
{
    const char *words = why->failed ? "out of memory" : text_str(why);
    if (prefix && *prefix) cli_fail("%s: %s", prefix, words);
    cli_fail("%s", words);
}

void cli_print_text(const Text *t)
{
    if (t->failed) cli_fail("out of memory");
    fwrite(text_str(t), 1, t->len, stdout);
}

bool cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return true;
    return false;
}

bool cli_position_option(CliPosition *p, int argc, char **argv, int *i)
{
    static const char *const names[] = { "--variant", "--fen", "--moves", "--option" };
    const char *value = NULL;
    int k;
    for (k = 0; k < 4 && !value; k++) {
        size_t n = strlen(names[k]);
        const char *arg = argv[*i];
        if (strncmp(arg, names[k], n)) continue;
        if (arg[n] == '=') {
            value = arg + n + 1;
        } else if (!arg[n]) {
            if (*i + 1 >= argc) cli_fail("%s needs a value", names[k]);
            value = argv[++*i];
        }
        if (value) break;
    }
    if (!value) return false;
    switch (k) {
    case 0: p->variant = value; break;
    case 1: p->fen = value; break;
    case 2: p->moves = value; break;
    default:
        if (!strchr(value, '=')) cli_fail("--option needs name=value (e.g. --option forward=8)");
        text_addf(&p->options, "%s%s", p->options.len ? " " : "", value);
        break;
    }
    return true;
}

const Variant *cli_variant(const char *name)
{
    const char *vname = name ? name : "chess";
    const Variant *v = variant_find(vname);
    if (!v) {
        Text names = TEXT_INIT;
        variant_names(&names);
        cli_fail("unknown variant '%s' (known: %s)", vname, text_str(&names));
    }
    return v;
}

/* Skips a move number such as "1.", "12..." at the start of a token, also
 * when it is glued to the move that follows ("1.e4", "3...Nf6", as PGN
 * allows); returns what is left, which is empty for a bare number. */
static const char *skip_move_number(const char *tok)
{
    size_t digits = strspn(tok, "0123456789");
    if (digits == 0 || tok[digits] != '.') return tok;
    return tok + digits + strspn(tok + digits, ".");
}

/* Does the word end an action in Game Courier notation that goes on in
 * the next word: a lone piece label ("P" of "P e2-e4") or a part followed
 * by ';' ("K e1-g1;" of "K e1-g1; R h1-f1")?  No other notation has a
 * word like these, so joining them never changes another action. */
static bool continues(const char *word, const char *next)
{
    size_t n = strlen(word);
    bool label = n == 1 && strchr("PNBRQKpnbrqk", word[0]);
    return next && (label || word[n - 1] == ';' || next[0] == ';');
}

void cli_position_game(const CliPosition *p, Game *g)
{
    const Variant *v = cli_variant(p->variant);
    Text err = TEXT_INIT, action = TEXT_INIT;
    Options o;
    options_default(v, &o);
    if (!options_parse(v, &o, text_str(&p->options), &err)) cli_fail_text(NULL, &err);
    if (!game_init(g, v, &o, p->fen, &err)) cli_fail_text(NULL, &err);
    if (!p->moves) return;
    char *copy = strdup(p->moves);
    if (!copy) cli_fail("out of memory");
    int index = 0;
    char *next = NULL;
    for (char *tok = strtok(copy, " \t\n\r,"); tok; tok = next) {
        next = strtok(NULL, " \t\n\r,");
        const char *move = skip_move_number(tok);
        if (!*move) continue;
        /* Game Courier's actions have spaces inside ("P e2-e4"): their
         * words are joined again into one action. */
        text_clear(&action);
        text_add(&action, tok);
        for (const char *word = move; continues(word, next); next = strtok(NULL, " \t\n\r,")) {
            text_addf(&action, " %s", next);
            word = next;
        }
        if (action.failed) cli_fail("out of memory");
        index++;
        /* The message shows the action as given, its move number too. */
        if (!game_play_text(g, text_str(&action) + (move - tok), &err))
            cli_fail("move %d (%s): %s", index, text_str(&action), err.failed ? "out of memory" : text_str(&err));
    }
    free(copy);
    text_free(&err);
    text_free(&action);
}

void cli_print_outcome(const Game *g, const char *prefix)
{
    Text line = TEXT_INIT;
    if (!game_outcome_line(g, &line)) cli_fail("out of memory");
    printf("%s%s\n", prefix, text_str(&line));
    text_free(&line);
}
