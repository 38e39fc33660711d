/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The JSON the WebAssembly build writes: what the server's state says of
 * a position and its record (src/server/play.c), field for field, so
 * that the page reads a local game as it reads a served one.  Written by
 * hand into a Text: the build has no JSON library, and writing is all it
 * needs.
 */
#include <stdio.h>
#include <string.h>

#include "wasm.h"

void json_add_string_n(Text *out, const char *s, size_t n)
{
    text_add_char(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            text_add_char(out, '\\');
            text_add_char(out, (char)c);
        } else if (c == '\n') {
            text_add(out, "\\n");
        } else if (c < 0x20) {
            text_addf(out, "\\u%04x", c);
        } else {
            text_add_char(out, (char)c);
        }
    }
    text_add_char(out, '"');
}

void json_add_string(Text *out, const char *s) { json_add_string_n(out, s, strlen(s)); }

static void add_square(Text *out, uint8_t sq)
{
    if (sq >= 64) {
        text_add(out, "null");
        return;
    }
    char name[3];
    square_name(sq, name);
    json_add_string(out, name);
}

static void add_piece(Text *out, uint8_t type)
{
    if (type == NO_TYPE || type == 0 || type > KING) {
        text_add(out, "null");
        return;
    }
    char letter[2] = { piece_letter(type), 0 };
    json_add_string(out, letter);
}

/* The fields the server's add_move_fields writes: what an action does,
 * for a client that draws it on a board. */
static void add_move_fields(Text *out, const Variant *v, Move m)
{
    text_add(out, ",\"kind\":");
    json_add_string(out, variant_action_kind(v, m.kind)->name);
    text_add(out, ",\"from\":");
    add_square(out, m.from);
    text_add(out, ",\"to\":");
    add_square(out, m.to);
    text_add(out, ",\"piece\":");
    add_piece(out, m.piece);
    text_add(out, ",\"promo\":");
    add_piece(out, m.promo);
    text_addf(out, ",\"arg\":%d,\"at_node\":%s", (int)m.arg, m.flags & MOVE_AT_NODE ? "true" : "false");
}

void json_add_action(Text *out, const Line *l, Move m, int ply)
{
    const Variant *v = line_variant(l);
    Text form = TEXT_INIT;
    text_add_char(out, '{');
    if (ply > 0) text_addf(out, "\"ply\":%d,", ply);
    text_add(out, "\"coord\":");
    if (!v->format_coord(l, m, &form)) out->failed = true;
    json_add_string(out, text_str(&form));
    text_clear(&form);
    text_add(out, ",\"human\":");
    if (!v->format_human(l, m, &form)) out->failed = true;
    json_add_string(out, text_str(&form));
    text_free(&form);
    add_move_fields(out, v, m);
    text_add_char(out, '}');
}

/* Every played action, each written at the node before it; the kinds
 * seen are marked. */
static void add_actions(Text *out, const Game *g, bool *seen)
{
    text_add_char(out, '[');
    for (int i = 1; i < game_count(g); i++) {
        Line l;
        line_open(&l, g, i - 1);
        Move m = game_node(g, i)->move;
        seen[m.kind] = true;
        if (i > 1) text_add_char(out, ',');
        json_add_action(out, &l, m, i);
        line_close(&l);
    }
    text_add_char(out, ']');
}

static bool game_over(const Game *g)
{
    Outcome o;
    return !game_outcome(g, &o) || o.result != RESULT_NONE;
}

static void add_legal(Text *out, const Game *g, bool *seen)
{
    MoveList moves;
    movelist_init(&moves);
    Line l;
    line_open(&l, g, game_current(g));
    if (!game_over(g) && !line_generate(&l, &moves)) out->failed = true;
    text_add_char(out, '[');
    for (int i = 0; i < moves.count; i++) {
        if (seen) seen[moves.moves[i].kind] = true;
        if (i) text_add_char(out, ',');
        json_add_action(out, &l, moves.moves[i], 0);
    }
    text_add_char(out, ']');
    line_close(&l);
    movelist_free(&moves);
}

void json_add_legal(Text *out, const Game *g) { add_legal(out, g, NULL); }

/* The pieces as FEN's first field and the variant's marks on them, as
 * "board" and "marks". */
static void add_board_fields(Text *out, const Variant *v, const State *s)
{
    Text placement = TEXT_INIT;
    board_to_fen(&s->board, &placement);
    const char *all = text_str(&placement);
    const char *space = strchr(all, ' ');
    text_add(out, "\"board\":");
    json_add_string_n(out, all, space ? (size_t)(space - all) : strlen(all));
    text_free(&placement);
    text_add(out, ",\"marks\":{");
    bool first = true;
    for (int sq = 0; sq < 64; sq++) {
        char mark = s->board.squares[sq] != NO_PIECE ? variant_piece_mark(v, s, (Square)sq) : 0;
        if (!mark) continue;
        char name[3], text[2] = { mark, 0 };
        square_name((Square)sq, name);
        text_addf(out, "%s\"%s\":", first ? "" : ",", name);
        json_add_string(out, text);
        first = false;
    }
    text_add_char(out, '}');
}

static const char *side_name(int c) { return c == WHITE ? "white" : "black"; }

static void add_nodes(Text *out, const Game *g)
{
    Text fen = TEXT_INIT;
    text_add_char(out, '[');
    for (int i = 0; i < game_count(g); i++) {
        const Node *n = game_node(g, i);
        text_clear(&fen);
        g->variant->to_fen(&g->options, n->state, &fen);
        text_addf(out, "%s{\"ply\":%d,\"parent\":%d,\"timeline\":%d,\"fen\":", i ? "," : "", i, n->parent,
                  n->timeline);
        json_add_string(out, text_str(&fen));
        text_addf(out, ",\"move\":%d,\"side\":\"%s\",", n->state->board.fullmove, side_name(n->state->board.side));
        add_board_fields(out, g->variant, n->state);
        text_add_char(out, '}');
    }
    text_add_char(out, ']');
    text_free(&fen);
}

/* The variant's panels, a line each, as a JSON array of strings. */
static void add_panels(Text *out, const Game *g)
{
    Line l;
    line_open(&l, g, game_current(g));
    Text t = TEXT_INIT;
    text_add_char(out, '[');
    if (variant_describe(g->variant, &l, &t)) {
        const char *p = text_str(&t);
        bool first = true;
        while (*p) {
            const char *end = strchr(p, '\n');
            size_t n = end ? (size_t)(end - p) : strlen(p);
            if (n) {
                if (!first) text_add_char(out, ',');
                json_add_string_n(out, p, n);
                first = false;
            }
            p += n + (end != NULL);
        }
    }
    text_add_char(out, ']');
    text_free(&t);
    line_close(&l);
}

/* What the library says of one kind of action (the server's kind_json). */
static void add_kind(Text *out, const ActionKind *k)
{
    static const char *const TRAVELS[] = { [KIND_NO_TRAVEL] = NULL, [KIND_FORWARD] = "forward", [KIND_BACK] = "back",
                                           [KIND_DEPART] = "depart" };
    const char *travel = k->travel < sizeof TRAVELS / sizeof *TRAVELS ? TRAVELS[k->travel] : NULL;
    text_add(out, "{\"words\":");
    json_add_string(out, k->words);
    text_addf(out, ",\"board\":%s,\"travel\":", k->board ? "true" : "false");
    if (travel) json_add_string(out, travel);
    else text_add(out, "null");
    text_add(out, ",\"place\":");
    if (k->group) {
        text_add(out, "{\"group\":");
        json_add_string(out, k->group);
        text_add(out, ",\"label\":");
        json_add_string(out, k->group_label);
        text_addf(out, ",\"first\":\"%s\"}", k->from_first ? "from" : "to");
    } else {
        text_add(out, "null");
    }
    text_add(out, ",\"arg\":");
    if (k->arg_words) json_add_string(out, k->arg_words);
    else text_add(out, "null");
    text_add_char(out, '}');
}

static void add_kinds(Text *out, const Variant *v, const bool *seen)
{
    text_add_char(out, '{');
    bool first = true;
    for (int k = 0; k < 256; k++) {
        const ActionKind *kind = variant_action_kind(v, (uint8_t)k);
        if (kind->kind != k || !seen[k]) continue;
        text_addf(out, "%s", first ? "" : ",");
        json_add_string(out, kind->name);
        text_add_char(out, ':');
        add_kind(out, kind);
        first = false;
    }
    text_add_char(out, '}');
}

/* "result" and "reason": null while the game goes on. */
static void add_outcome(Text *out, const Game *g)
{
    Outcome o;
    if (!game_outcome(g, &o)) out->failed = true;
    if (out->failed || o.result == RESULT_NONE) {
        text_add(out, "\"result\":null,\"reason\":null");
        return;
    }
    Text reason = TEXT_INIT;
    outcome_words(o, g->declared_words, &reason);
    text_addf(out, "\"result\":\"%s\",\"reason\":", result_string(o.result));
    json_add_string(out, text_str(&reason));
    text_free(&reason);
}

void json_add_state(Text *out, const Game *g)
{
    Text fen = TEXT_INIT, opts = TEXT_INIT;
    g->variant->to_fen(&g->options, game_state(g), &fen);
    options_format(g->variant, &g->options, false, &opts);
    text_add(out, "{\"variant\":");
    json_add_string(out, g->variant->name);
    text_add(out, ",\"title\":");
    json_add_string(out, g->variant->title);
    text_add(out, ",\"options\":");
    json_add_string(out, text_str(&opts));
    text_addf(out, ",\"ply\":%d,\"to_move\":\"%s\",\"timelines\":%d,\"check\":%s,\"fen\":", game_current(g),
              side_name(game_board(g)->side), game_timelines(g), game_in_check(g) ? "true" : "false");
    json_add_string(out, text_str(&fen));
    text_add_char(out, ',');
    add_outcome(out, g);
    text_add_char(out, ',');
    add_board_fields(out, g->variant, game_state(g));
    bool seen[256] = { false };
    Text actions = TEXT_INIT, legal = TEXT_INIT;
    add_actions(&actions, g, seen);
    add_legal(&legal, g, seen);
    text_add(out, ",\"kinds\":");
    add_kinds(out, g->variant, seen);
    text_addf(out, ",\"actions\":%s,\"nodes\":", text_str(&actions));
    add_nodes(out, g);
    text_addf(out, ",\"legal\":%s,\"panels\":", text_str(&legal));
    add_panels(out, g);
    text_add_char(out, '}');
    if (fen.failed || opts.failed || actions.failed || legal.failed) out->failed = true;
    text_free(&fen);
    text_free(&opts);
    text_free(&actions);
    text_free(&legal);
}

void json_add_score(Text *out, int score)
{
    if (engine_score_is_mate(score)) text_addf(out, "{\"mate\":%d}", engine_mate_moves(score));
    else text_addf(out, "{\"cp\":%d}", score);
}
