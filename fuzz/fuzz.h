/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every fuzz harness shares.  Each harness (fuzz/fuzz_*.c) defines
 * LLVMFuzzerTestOneInput and is built two ways: with libFuzzer ("make
 * fuzz", clang) and as a plain program that replays files through
 * fuzz/replay.c ("make test", any compiler).
 *
 * The inputs are text.  A harness that needs a variant reads it from the
 * first byte: '0' is VARIANTS[0] (chess), '1' VARIANTS[1] (gifford), and
 * so on, any byte counting modulo the number of variants (see
 * fuzz/README.md for each harness's input).  A broken property prints
 * what broke and calls abort(), which libFuzzer reports as a crash and
 * which ends a replay with a failure.
 */
#ifndef TTCHESS_FUZZ_H
#define TTCHESS_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stops with a message when a property does not hold. */
#define FUZZ_CHECK(cond, ...)                                                              \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: property broken: %s\n  ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
            fflush(stderr);                                                                \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

/* With FUZZ_VERBOSE set in the environment, the harnesses say what they
 * accepted and refused (to see what a seed exercises). */
static inline bool fuzz_verbose(void)
{
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("FUZZ_VERBOSE") != NULL;
    return verbose;
}

#define FUZZ_SAY(...)                                  \
    do {                                               \
        if (fuzz_verbose()) fprintf(stderr, __VA_ARGS__); \
    } while (0)

static inline int fuzz_variant_count(void)
{
    int n = 0;
    while (VARIANTS[n]) n++;
    return n;
}

/* The variant a byte picks: '0' the first, '1' the second, ... */
static inline const Variant *fuzz_variant(uint8_t byte)
{
    return VARIANTS[(uint8_t)(byte - '0') % fuzz_variant_count()];
}

/* A variant forced by a leading digit, which is then consumed; NULL (and
 * nothing consumed) when the input does not start with a digit, so that a
 * plain game file is an input as it is. */
static inline const Variant *fuzz_forced_variant(const uint8_t **data, size_t *size)
{
    if (*size == 0 || (*data)[0] < '0' || (*data)[0] > '9') return NULL;
    const Variant *v = fuzz_variant((*data)[0]);
    (*data)++;
    (*size)--;
    return v;
}

/* The start a byte picks: the variant's sample positions (Variant.samples)
 * counted from '0', any byte modulo their number, so that a harness reaches
 * every start of every game without a list that names games; a game with
 * none starts from its start position. */
static inline const SamplePosition *fuzz_sample(const Variant *v, uint8_t byte)
{
    static const SamplePosition START = { NULL, NULL, NULL, 0 };
    if (v->sample_count <= 0) return &START;
    return &v->samples[(uint8_t)(byte - '0') % v->sample_count];
}

/* The input as a NUL-terminated string (malloc'd; the caller frees it).
 * An input with a NUL byte in it ends there. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) abort();
    if (size) memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* Plays a harness's built-in actions (space separated) on g; each must be
 * legal, or the harness itself is wrong. */
static inline void fuzz_play_builtin(Game *g, const char *moves)
{
    if (!moves) return;
    Text err = TEXT_INIT;
    char *copy = fuzz_string((const uint8_t *)moves, strlen(moves));
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
        bool ok = game_play_text(g, tok, &err);
        FUZZ_CHECK(ok, "%s: the built-in action '%s' is refused: %s", g->variant->name, tok, text_str(&err));
    }
    free(copy);
    text_free(&err);
}

static inline const char *fuzz_str(const Text *t)
{
    FUZZ_CHECK(!t->failed, "a text ran out of memory");
    return text_str(t);
}

static inline bool fuzz_same_options(const Variant *v, const Options *a, const Options *b)
{
    for (int i = 0; i < v->option_count; i++)
        if (a->value[i] != b->value[i]) return false;
    return true;
}

static inline bool fuzz_same_outcome(Outcome a, Outcome b)
{
    return a.result == b.result && a.reason == b.reason && a.side == b.side;
}

/* A record read back (`how`: "the PGN", "the score sheets") is the game
 * written: same variant and options, every node's action, parent and key,
 * the same timelines and outcome. */
static inline void fuzz_check_same_record(const Game *a, const Game *b, const char *how, const char *text)
{
    const Variant *v = a->variant;
    FUZZ_CHECK(a->variant == b->variant, "%s: %s reads back as %s\n%s", v->name, how, b->variant->name, text);
    FUZZ_CHECK(fuzz_same_options(v, &a->options, &b->options), "%s: %s reads back with other options\n%s", v->name,
               how, text);
    FUZZ_CHECK(game_count(a) == game_count(b), "%s: %s of %d nodes reads back with %d\n%s", v->name, how,
               game_count(a), game_count(b), text);
    for (int i = 0; i < game_count(a); i++)
        FUZZ_CHECK(move_equal(game_node(a, i)->move, game_node(b, i)->move) &&
                       game_node(a, i)->parent == game_node(b, i)->parent &&
                       game_node(a, i)->key == game_node(b, i)->key,
                   "%s: %s reads back with another node %d\n%s", v->name, how, i, text);
    FUZZ_CHECK(game_timelines(a) == game_timelines(b), "%s: %s reads back with other timelines\n%s", v->name, how,
               text);
    Outcome oa, ob;
    FUZZ_CHECK(game_outcome(a, &oa) && game_outcome(b, &ob), "%s: outcome failed", v->name);
    FUZZ_CHECK(fuzz_same_outcome(oa, ob), "%s: %s reads back with another outcome (%d/%d/%d, not %d/%d/%d)\n%s",
               v->name, how, ob.result, ob.reason, ob.side, oa.result, oa.reason, oa.side, text);
}

static inline const char *fuzz_kind_name(int kind)
{
    static const char *const names[MOVE_KINDS] = { "normal", "double push", "en passant", "castle", "promotion",
                                                   "send forward", "arrival", "king back", "drop", "depart past",
                                                   "depart future", "reappear", "explosion", "annihilation",
                                                   "null" };
    return kind >= 0 && kind < MOVE_KINDS && names[kind] ? names[kind] : "?";
}

/* The fields of an action, for messages. */
static inline const char *fuzz_move_desc(Move m, char buf[96])
{
    snprintf(buf, 96, "{from %u, to %u, %s, piece %u, promo %u, flags %u, arg %u}", m.from, m.to, fuzz_kind_name(m.kind),
             m.piece, m.promo, m.flags, (unsigned)m.arg);
    return buf;
}

/* The state's keys agree with keys computed from nothing. */
static inline void fuzz_check_state_keys(const Variant *v, const Options *o, const State *s)
{
    FUZZ_CHECK(s->board.key == board_compute_key(&s->board), "%s: the board key is stale", v->name);
    uint64_t ext = v->ext_key ? v->ext_key(o, s) : 0;
    FUZZ_CHECK(s->ext_key == ext, "%s: the ext key is stale", v->name);
}

/* to_fen of a position, read back by from_fen, gives the same FEN and the
 * same position.  Returns nothing: every failure stops. */
static inline void fuzz_check_fen_round_trip(const Variant *v, const Options *o, const State *s)
{
    Text fen = TEXT_INIT, again = TEXT_INIT, err = TEXT_INIT;
    v->to_fen(o, s, &fen);
    State *t = v->from_fen(o, fuzz_str(&fen), &err);
    FUZZ_CHECK(t, "%s: its own FEN '%s' is refused: %s", v->name, fuzz_str(&fen), text_str(&err));
    v->to_fen(o, t, &again);
    FUZZ_CHECK(!strcmp(fuzz_str(&fen), fuzz_str(&again)), "%s: FEN '%s' reads back as '%s'", v->name, fuzz_str(&fen),
               fuzz_str(&again));
    FUZZ_CHECK(board_equal(&s->board, &t->board) && s->board.halfmove == t->board.halfmove &&
                   s->board.fullmove == t->board.fullmove,
               "%s: FEN '%s' reads back as another board", v->name, fuzz_str(&fen));
    FUZZ_CHECK(s->board.key == t->board.key && s->ext_key == t->ext_key, "%s: FEN '%s' reads back with other keys",
               v->name, fuzz_str(&fen));
    FUZZ_CHECK(!v->same_position || v->same_position(s, t), "%s: FEN '%s' reads back as another position", v->name,
               fuzz_str(&fen));
    fuzz_check_state_keys(v, o, t);
    free(t);
    text_free(&fen);
    text_free(&again);
    text_free(&err);
}

/* Parses `text` at the line's present position: it must give m. */
static inline void fuzz_check_reads_as(const Line *l, const char *form, const char *text, Move m)
{
    const Variant *v = line_variant(l);
    Text err = TEXT_INIT;
    Move back = move_none();
    char a[96], b[96];
    bool ok = v->parse(l, text, &back, &err);
    FUZZ_CHECK(ok, "%s: the %s form '%s' of the legal action %s is refused: %s", v->name, form, text,
               fuzz_move_desc(m, a), text_str(&err));
    FUZZ_CHECK(move_equal(back, m), "%s: the %s form '%s' of %s reads as %s", v->name, form, text,
               fuzz_move_desc(m, a), fuzz_move_desc(back, b));
    text_free(&err);
}

/*
 * The legal action m at the line's present position, written in every
 * form the variant writes, reads back as m: the coordinate form, the
 * human form, and the score sheet's (for an action that travels back, its
 * two halves joined by sheet_join; `landing` is a line at the node it
 * returns to, or NULL to skip that).  The note and describe hooks run too.
 */
static inline void fuzz_check_notation(const Line *l, Move m, const Line *landing)
{
    const Variant *v = line_variant(l);
    Text t = TEXT_INIT;
    char a[96];

    FUZZ_CHECK(v->format_coord(l, m, &t), "%s: format_coord failed", v->name);
    fuzz_check_reads_as(l, "coordinate", fuzz_str(&t), m);
    text_clear(&t);
    FUZZ_CHECK(v->format_human(l, m, &t), "%s: format_human failed", v->name);
    fuzz_check_reads_as(l, "human", fuzz_str(&t), m);
    text_clear(&t);

    if (v->format_sheet) {
        bool travel_back = v->sheet_departure && m.kind == MOVE_KING_BACK;
        if (!travel_back) {
            FUZZ_CHECK(v->format_sheet(l, m, SHEET_ACTION, &t), "%s: format_sheet failed", v->name);
            int move;
            FUZZ_CHECK(!v->sheet_departure || !v->sheet_departure(fuzz_str(&t), &move),
                       "%s: the sheet cell '%s' of %s is taken for a travel back", v->name, fuzz_str(&t),
                       fuzz_move_desc(m, a));
            fuzz_check_reads_as(l, "score-sheet", fuzz_str(&t), m);
        } else if (landing) {
            Text arrival = TEXT_INIT, err = TEXT_INIT;
            int move = -1;
            FUZZ_CHECK(v->format_sheet(l, m, SHEET_DEPARTURE, &t), "%s: format_sheet failed", v->name);
            FUZZ_CHECK(v->format_sheet(landing, m, SHEET_ARRIVAL, &arrival), "%s: format_sheet failed", v->name);
            FUZZ_CHECK(v->sheet_departure(fuzz_str(&t), &move), "%s: the departure cell '%s' of %s is not one",
                       v->name, fuzz_str(&t), fuzz_move_desc(m, a));
            Move back = move_none();
            bool ok = v->sheet_join(l, fuzz_str(&t), fuzz_str(&arrival), &back, &err);
            FUZZ_CHECK(ok && move_equal(back, m), "%s: the sheet halves '%s' + '%s' of %s do not join back: %s",
                       v->name, fuzz_str(&t), fuzz_str(&arrival), fuzz_move_desc(m, a), ok ? "another action" : text_str(&err));
            text_free(&arrival);
            text_free(&err);
        }
        text_clear(&t);
    }
    if (v->note) FUZZ_CHECK(v->note(l, m, &t), "%s: note failed", v->name);
    text_clear(&t);
    if (v->describe) FUZZ_CHECK(v->describe(l, &t), "%s: describe failed", v->name);
    text_free(&t);
}

#endif
