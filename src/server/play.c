/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A stored game as the library sees it.  The database keeps a game's
 * variant, options, start position and actions in coordinate form; the
 * library replays them into a Game whenever a request needs the rules, so
 * the rules are never stored twice and a stored game always means what
 * the library says it means.
 */
#include "server.h"
#include "registry.h"

#include <stdlib.h>
#include <string.h>

/* A resignation, an agreed draw or a loss on time is stored as the result
 * and words the players' action declared ("0-1 white resigns"); the game
 * declares it again, so that its own rules still judge it (van Gog's
 * obligations decide a resignation too). */
static bool redeclare(const GameRow *row, Game *g, Text *err)
{
    if (!row->declared) return true;
    const char *space = strchr(row->declared, ' ');
    if (!space) return text_fail(err, "the stored end '%s' is not a result and words", row->declared);
    uint8_t result = RESULT_NONE;
    for (uint8_t r = RESULT_WHITE_WINS; r <= RESULT_BOTH_LOSE; r++)
        if (!strncmp(row->declared, result_string(r), (size_t)(space - row->declared)) &&
            strlen(result_string(r)) == (size_t)(space - row->declared))
            result = r;
    Outcome o = outcome_make(result, REASON_RECORDED, SIDE_NONE);
    if (outcome_from_words(g->variant, space + 1, &o)) o.result = result;
    if (result == RESULT_NONE || !game_declare(g, o, space + 1))
        return text_fail(err, "the stored end '%s' cannot be declared", row->declared);
    return true;
}

bool play_load(Store *s, const GameRow *row, Game *g, Text *err)
{
    /* A zeroed game is one game_free accepts, whatever fails below. */
    memset(g, 0, sizeof *g);
    const Variant *v = variant_find(row->variant);
    if (!v) return text_fail(err, "the game's variant '%s' is unknown to this server", row->variant);
    Options opts;
    options_default(v, &opts);
    if (row->options && *row->options && !options_parse(v, &opts, row->options, err)) return false;
    if (!game_init(g, v, &opts, row->fen, err)) return false;
    char **texts;
    int count;
    if (!store_actions(s, row->id, &texts, &count)) return text_fail(err, "the database could not be read");
    /* The row and the actions are read by two statements, and another
     * request may commit between them: actions beyond the row's ply came
     * after it and are left out (a write based on this reading then fails
     * as stale); fewer actions than the row counted (one taken back since)
     * is a reading to make again. */
    bool ok = count >= row->ply;
    if (!ok) text_fail(err, "%s", PLAY_MOVED_ON);
    for (int i = 0; i < count; i++) {
        if (ok && i < row->ply && !game_play_text(g, texts[i], err)) {
            Text why = TEXT_INIT;
            text_addf(&why, "stored action %d (%s) does not replay: %s", i + 1, texts[i], text_str(err));
            text_clear(err);
            text_add(err, text_str(&why));
            text_free(&why);
            ok = false;
        }
        free(texts[i]);
    }
    free(texts);
    return ok && redeclare(row, g, err);
}

/* Plays the stored actions after the cached game's last onto it; false
 * (the game to be freed) when the database does not hold exactly those
 * the row counts. */
static bool catch_up(Store *s, const GameRow *row, Game *g, Text *err)
{
    int have = game_count(g) - 1;
    char **texts;
    int count;
    if (!store_actions_after(s, row->id, have, &texts, &count)) return text_fail(err, "the database could not be read");
    bool ok = have + count >= row->ply;
    for (int i = 0; i < count; i++) {
        if (ok && have + i < row->ply) ok = game_play_text(g, texts[i], err);
        free(texts[i]);
    }
    free(texts);
    return ok && game_count(g) - 1 == row->ply && redeclare(row, g, err);
}

/* A cached game is brought up to date only when every write of the row
 * since its version added one action: each write raises the version by
 * one, an action also the ply by one, and every other write (a take-back,
 * an offer, a flag) raises the version without raising the ply.  So when
 * both moved on by the same count, the cached game's actions are all
 * still stored, in the same order, and the new ones follow them.  With
 * two servers, each action of a game played across them finds the other
 * server's version in the cache, one action behind: replaying the whole
 * game for it was most of a server's work (README, "The server under
 * load"). */
bool play_restore(Store *s, const GameRow *row, Game *g, Text *err)
{
    int64_t version;
    if (cache_take_any(s->cache, row->id, &version, g)) {
        if (version == row->version) return true;
        int64_t added = row->ply - (game_count(g) - 1);
        if (added > 0 && row->version - version == added) {
            Text why = TEXT_INIT;
            bool ok = catch_up(s, row, g, &why);
            text_free(&why);
            if (ok) return true;
        }
        game_free(g);
    }
    return play_load(s, row, g, err);
}

bool play_parse(const Game *g, const char *text, Move *m, Text *coord, Text *human, Text *err)
{
    Line l;
    line_open(&l, g, game_current(g));
    bool ok = line_parse_text(&l, text, m, err) && g->variant->format_coord(&l, *m, coord) &&
              g->variant->format_human(&l, *m, human);
    if (!ok && !err->len) text_add(err, "out of memory");
    line_close(&l);
    return ok;
}

bool play_outcome(const Game *g, Text *result, Text *reason)
{
    Outcome o;
    if (!game_outcome(g, &o) || o.result == RESULT_NONE) return false;
    text_add(result, result_string(o.result));
    outcome_words(o, g->declared_words, reason);
    return true;
}

/* ---- The state ---------------------------------------------------------- */

static const char *side_name(int c) { return c == WHITE ? "white" : "black"; }

static json_t *player(const char *name, int64_t id)
{
    if (id == -1) return json_pack("{s:s, s:b}", "name", "ttchess engine", "engine", 1);
    if (!name) return json_null();
    return json_pack("{s:s, s:b}", "name", name, "engine", 0);
}

/* What an action does, for a client that draws it on a board: its kind,
 * the squares it leaves and reaches, the piece it names, and its number
 * (the move a piece is sent to, the move a king goes back to, or the
 * history node of a Chessgi general travel).  The coordinate form says the
 * same, but in a grammar each game writes its own way.  The kind's name is
 * the library's (variant_action_kind), as is what the state says of it
 * (kinds_json). */

static json_t *square_json(uint8_t sq)
{
    if (sq >= 64) return json_null();
    char name[3];
    square_name(sq, name);
    return json_string(name);
}

static json_t *piece_json(uint8_t type)
{
    if (type == NO_TYPE || type == 0 || type > KING) return json_null();
    char letter[2] = { piece_letter(type), 0 };
    return json_string(letter);
}

static void add_move_fields(json_t *obj, const Variant *v, Move m)
{
    json_object_set_new(obj, "kind", json_string(variant_action_kind(v, m.kind)->name));
    json_object_set_new(obj, "from", square_json(m.from));
    json_object_set_new(obj, "to", square_json(m.to));
    json_object_set_new(obj, "piece", piece_json(m.piece));
    json_object_set_new(obj, "promo", piece_json(m.promo));
    json_object_set_new(obj, "arg", json_integer(m.arg));
    json_object_set_new(obj, "at_node", json_boolean(m.flags & MOVE_AT_NODE));
}

/* Notes the kind of an action listed, by name, for kinds_json. */
static void note_kind(json_t *seen, const Variant *v, Move m)
{
    json_object_set_new(seen, variant_action_kind(v, m.kind)->name, json_true());
}

/* Every action with its coordinate and human forms, each formatted at the
 * position where it was played (the node before it in play order), and
 * when `what` what it does (add_move_fields).  A client with the rules
 * replays the coordinates and needs no more, and the what-fields would be
 * two thirds of the list: over a long time-travel game they alone carry
 * the state past 20 KB.  Each action's kind is noted in `seen` either way. */
static json_t *actions_json(const Game *g, bool what, json_t *seen)
{
    json_t *list = json_array();
    Text coord = TEXT_INIT, human = TEXT_INIT;
    for (int i = 1; list && i < game_count(g); i++) {
        Line l;
        line_open(&l, g, i - 1);
        Move m = game_node(g, i)->move;
        text_clear(&coord);
        text_clear(&human);
        g->variant->format_coord(&l, m, &coord);
        g->variant->format_human(&l, m, &human);
        line_close(&l);
        json_t *a = json_pack("{s:i, s:s, s:s}", "ply", i, "coord", text_str(&coord), "human", text_str(&human));
        if (a && what) add_move_fields(a, g->variant, m);
        note_kind(seen, g->variant, m);
        json_array_append_new(list, a);
    }
    text_free(&coord);
    text_free(&human);
    return list;
}

/* The pieces of a board as FEN's first field, which any chess board
 * widget draws, and the variant's marks on them (Time Traveler's Chess:
 * ' traveling, " traveled) as {"e4": "'"}. */
static void add_board_fields(json_t *obj, const Variant *v, const State *s)
{
    Text placement = TEXT_INIT;
    board_to_fen(&s->board, &placement);
    const char *all = text_str(&placement);
    const char *space = strchr(all, ' ');
    json_object_set_new(obj, "board", json_stringn(all, space ? (size_t)(space - all) : strlen(all)));
    text_free(&placement);
    json_t *marks = json_object();
    for (int sq = 0; marks && sq < 64; sq++) {
        char mark = s->board.squares[sq] != NO_PIECE ? variant_piece_mark(v, s, (Square)sq) : 0;
        if (!mark) continue;
        char name[3], text[2] = { mark, 0 };
        square_name((Square)sq, name);
        json_object_set_new(marks, name, json_string(text));
    }
    json_object_set_new(obj, "marks", marks);
}

/* Every node of the record: its parent and timeline and its position, so
 * that a client can draw each timeline as a row of boards. */
static json_t *nodes_json(const Game *g)
{
    json_t *list = json_array();
    Text fen = TEXT_INIT;
    for (int i = 0; list && i < game_count(g); i++) {
        const Node *n = game_node(g, i);
        text_clear(&fen);
        g->variant->to_fen(&g->options, n->state, &fen);
        json_t *node = json_pack("{s:i, s:i, s:i, s:s, s:i, s:s}", "ply", i, "parent", n->parent, "timeline",
                                 n->timeline, "fen", text_str(&fen), "move", n->state->board.fullmove, "side",
                                 side_name(n->state->board.side));
        if (node) add_board_fields(node, g->variant, n->state);
        json_array_append_new(list, node);
    }
    text_free(&fen);
    return list;
}

/* The legal actions of the present position, each with what it does;
 * their kinds noted in `seen`. */
static json_t *legal_json(const Game *g, json_t *seen)
{
    json_t *list = json_array();
    MoveList moves;
    movelist_init(&moves);
    Line l;
    line_open(&l, g, game_current(g));
    Text coord = TEXT_INIT, human = TEXT_INIT;
    if (line_generate(&l, &moves)) {
        for (int i = 0; list && i < moves.count; i++) {
            text_clear(&coord);
            text_clear(&human);
            g->variant->format_coord(&l, moves.moves[i], &coord);
            g->variant->format_human(&l, moves.moves[i], &human);
            json_t *a = json_pack("{s:s, s:s}", "coord", text_str(&coord), "human", text_str(&human));
            if (a) add_move_fields(a, g->variant, moves.moves[i]);
            note_kind(seen, g->variant, moves.moves[i]);
            json_array_append_new(list, a);
        }
    }
    text_free(&coord);
    text_free(&human);
    line_close(&l);
    movelist_free(&moves);
    return list;
}

/* The variant's panels (pending arrivals, obligations, piece states,
 * pockets, travellers) as the play screen shows them, a line each. */
static json_t *panels_json(const Game *g)
{
    json_t *list = json_array();
    Line l;
    line_open(&l, g, game_current(g));
    Text t = TEXT_INIT;
    if (variant_describe(g->variant, &l, &t)) {
        const char *p = text_str(&t);
        while (*p) {
            const char *end = strchr(p, '\n');
            size_t n = end ? (size_t)(end - p) : strlen(p);
            if (n) json_array_append_new(list, json_stringn(p, n));
            p += n + (end != NULL);
        }
    }
    text_free(&t);
    line_close(&l);
    return list;
}

json_t *play_clock(const GameRow *row, int to_move, bool running, int64_t now)
{
    if (row->days_per_move)
        return json_pack("{s:s, s:i, s:I}", "kind", "correspondence", "days_per_move", row->days_per_move, "deadline",
                         (json_int_t)(running ? row->last_action_at + row->days_per_move * 86400000LL : 0));
    if (!row->base_ms) return json_pack("{s:s}", "kind", "none");
    int64_t white = row->white_ms, black = row->black_ms;
    if (running) {
        int64_t spent = now - row->last_action_at;
        if (to_move == WHITE) white -= spent;
        else black -= spent;
    }
    return json_pack("{s:s, s:I, s:I, s:I, s:I, s:s?}", "kind", "live", "base_ms", (json_int_t)row->base_ms, "inc_ms",
                     (json_int_t)row->inc_ms, "white_ms", (json_int_t)(white > 0 ? white : 0), "black_ms",
                     (json_int_t)(black > 0 ? black : 0), "running", running ? side_name(to_move) : NULL);
}

/* What the library says of one kind of action: how a player makes it. */
static json_t *kind_json(const ActionKind *k)
{
    static const char *const TRAVELS[] = { [KIND_NO_TRAVEL] = NULL, [KIND_FORWARD] = "forward", [KIND_BACK] = "back",
                                           [KIND_DEPART] = "depart" };
    json_t *place = k->group ? json_pack("{s:s, s:s, s:s}", "group", k->group, "label", k->group_label, "first",
                                         k->from_first ? "from" : "to")
                             : json_null();
    return json_pack("{s:s, s:b, s:s?, s:o?, s:s?}", "words", k->words, "board", k->board, "travel",
                     k->travel < sizeof TRAVELS / sizeof *TRAVELS ? TRAVELS[k->travel] : NULL, "place", place, "arg",
                     k->arg_words);
}

/* The kinds of the actions a state lists, played and (when listed) legal,
 * whose names are in `seen` (note_kind): a client learns from them how each
 * is made, and needs no list of its own (docs/api.md, "kinds"). */
static json_t *kinds_json(const Variant *v, json_t *seen)
{
    json_t *out = json_object();
    for (int k = 0; seen && out && k < 256; k++) {
        const ActionKind *kind = variant_action_kind(v, (uint8_t)k);
        if (kind->kind == k && json_object_get(seen, kind->name)) json_object_set_new(out, kind->name, kind_json(kind));
    }
    return out;
}

json_t *play_state(const GameRow *row, const Game *g, int64_t user, unsigned parts)
{
    const Board *b = game_board(g);
    bool active = !strcmp(row->status, "active");
    Text fen = TEXT_INIT, opts = TEXT_INIT;
    g->variant->to_fen(&g->options, game_state(g), &fen);
    options_format(g->variant, &g->options, false, &opts);
    const char *you = user && row->white == user ? "white" : user && row->black == user ? "black" : NULL;
    json_t *st = json_pack(
        "{s:s, s:s, s:s, s:s, s:o, s:o, s:s?, s:i, s:s, s:i, s:s, s:s, s:s?, s:s?, s:b}", "id", row->id, "variant",
        row->variant, "title", g->variant->title, "options", text_str(&opts), "white",
        player(row->white_name, row->white), "black", player(row->black_name, row->black), "you", you, "ply",
        game_current(g), "to_move", side_name(b->side), "timelines", game_timelines(g), "fen", text_str(&fen),
        "status", row->status, "result", row->result, "reason", row->reason, "check", game_in_check(g));
    text_free(&fen);
    text_free(&opts);
    if (!st) return NULL;
    add_board_fields(st, g->variant, game_state(g));
    /* The start position as the game was created with it (null: the
     * variant's own): with the variant, the options and the actions, what
     * a client with the rules replays the game from. */
    json_object_set_new(st, "start_fen", row->fen ? json_string(row->fen) : json_null());
    json_t *seen = json_object();
    json_t *actions = actions_json(g, parts & STATE_WHAT, seen);
    json_t *legal = !(parts & STATE_LEGAL) ? NULL : active ? legal_json(g, seen) : json_array();
    json_object_set_new(st, "kinds", kinds_json(g->variant, seen));
    json_decref(seen);
    json_object_set_new(st, "actions", actions);
    if (parts & STATE_NODES) json_object_set_new(st, "nodes", nodes_json(g));
    if (legal) json_object_set_new(st, "legal", legal);
    json_object_set_new(st, "panels", panels_json(g));
    json_object_set_new(st, "clock", play_clock(row, b->side, active && row->ply > 0, server_now_ms()));
    json_object_set_new(st, "draw_offer", row->draw_offer ? json_string(side_name(row->draw_offer - 1)) : json_null());
    json_object_set_new(st, "takeback_offer",
                        row->takeback_offer ? json_string(side_name(row->takeback_offer - 1)) : json_null());
    json_object_set_new(st, "kibitz_enabled", json_boolean(row->kibitz));
    json_object_set_new(st, "rated", json_boolean(row->rated != 0));
    /* The last event this state includes: a client opens the live stream
     * after it, and receives what changed since, without the history. */
    json_object_set_new(st, "event", json_integer(row->last_event));
    if (row->engine_level) json_object_set_new(st, "engine_level", json_integer(row->engine_level));
    if (row->invited_name) json_object_set_new(st, "challenged", json_string(row->invited_name));
    return st;
}
