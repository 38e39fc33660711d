/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The actions a player may send in a game (docs/api.md, "Actions"), as a
 * table: each named action with what the server knows of it (the event
 * the live streams receive, whether only the side to move may take it,
 * which offer it makes) and the handler that takes it.  Any other text is
 * a move in the game's own notation, which the library reads.
 *
 * Every action runs in the transaction api_actions.c opened, on a game
 * loaded at the ply the player saw: a side out of time loses before it
 * acts, and the game is judged over or not after every action.
 */
#include "api_internal.h"

#include <stdlib.h>
#include <string.h>

/* The offer an action makes, in the row's slot for it. */
typedef enum Offer { OFFER_NONE, OFFER_DRAW, OFFER_TAKEBACK } Offer;

typedef struct ApiAction ApiAction;

/* One action's try, and what its handler may need of it. */
typedef struct ActionTry {
    Store *s;
    GameRow *row;
    Game *g;
    int mine, theirs;           /* the colours of the player and the opponent */
    const char *text;           /* as the player sent it                       */
    int64_t now;
    const ApiAction *kind;
    char (*event)[512];         /* the event's type and data                   */
    ApiReply *r;
} ActionTry;

/* Takes the action; false after an error reply. */
typedef bool ActionHandler(ActionTry *t);

struct ApiAction {
    const char *name;           /* the action's text; NULL: any other, a move  */
    const char *event;          /* the type of the event it writes             */
    bool on_turn;               /* only the side to move may take it           */
    Offer offer;                /* the offer it makes                          */
    ActionHandler *take;
};

static bool out_of_memory(ApiReply *r)
{
    reply_error(r, 500, "out of memory");
    return false;
}

static bool take_resign(ActionTry *t)
{
    char words[32];
    snprintf(words, sizeof words, "%s resigns", t->mine == WHITE ? "white" : "black");
    Outcome o = outcome_make(result_loss_for((Color)t->mine), REASON_RESIGNATION, (uint8_t)t->mine);
    return declare_end(t->row, t->g, o, words) || out_of_memory(t->r);
}

/* A draw or a take-back offered: the opponent may accept or decline it. */
static bool take_offer(ActionTry *t)
{
    bool draw = t->kind->offer == OFFER_DRAW;
    if (!draw && t->row->ply == 0) return reply_error(t->r, 409, "there is no action to take back"), false;
    *(draw ? &t->row->draw_offer : &t->row->takeback_offer) = t->mine + 1;
    return true;
}

static bool take_accept_draw(ActionTry *t)
{
    if (t->row->draw_offer != t->theirs + 1)
        return reply_error(t->r, 409, "your opponent has not offered a draw"), false;
    return declare_end(t->row, t->g, outcome_make(RESULT_DRAW, REASON_AGREED_DRAW, SIDE_NONE), "agreed draw") ||
           out_of_memory(t->r);
}

static bool take_accept_takeback(ActionTry *t)
{
    GameRow *row = t->row;
    if (row->takeback_offer != t->theirs + 1)
        return reply_error(t->r, 409, "your opponent has not offered to take an action back"), false;
    /* One action is taken back: the last one, whoever made it.  Against
     * the engine, which answers at once, that would only give it its
     * move again; there the take-back goes back to the turn of the
     * player who asked. */
    bool against_engine = row->white == -1 || row->black == -1;
    do {
        if (!store_action_remove_last(t->s, row->id, row->ply))
            return reply_error(t->r, 503, "the database cannot be written now"), false;
        game_pop(t->g);
        row->ply--;
    } while (against_engine && row->ply > 0 && game_board(t->g)->side != t->theirs);
    row->takeback_offer = row->draw_offer = 0;
    row->to_move = game_board(t->g)->side;
    return true;
}

static bool take_decline(ActionTry *t)
{
    if (t->row->draw_offer != t->theirs + 1 && t->row->takeback_offer != t->theirs + 1)
        return reply_error(t->r, 409, "there is no offer of your opponent's to decline"), false;
    t->row->draw_offer = t->row->takeback_offer = 0;
    return true;
}

/* The move, read and stored; the event's data is its two forms. */
static bool store_move(ActionTry *t, Move m, const Text *coord, const Text *human)
{
    GameRow *row = t->row;
    bool stale;
    if (!store_action_add(t->s, row->id, row->ply + 1, text_str(coord), text_str(human), t->now, &stale)) {
        reply_error(t->r, stale ? 409 : 503, stale ? "that ply has been played already" : "the database cannot be written now");
        return false;
    }
    if (!game_push(t->g, m)) return out_of_memory(t->r);
    row->ply++;
    row->last_action_at = t->now;
    row->draw_offer = row->takeback_offer = 0;
    row->to_move = game_board(t->g)->side;
    json_t *d = json_pack("{s:s, s:s}", "coord", text_str(coord), "human", text_str(human));
    char *dump = d ? json_dumps(d, JSON_COMPACT) : NULL;
    snprintf(t->event[1], 512, "%s", dump ? dump : "{}");
    free(dump);
    json_decref(d);
    return true;
}

static bool take_move(ActionTry *t)
{
    charge_clock(t->row, t->mine, t->now);
    Move m;
    Text coord = TEXT_INIT, human = TEXT_INIT, err = TEXT_INIT;
    bool ok = play_parse(t->g, t->text, &m, &coord, &human, &err);
    if (!ok) reply_error(t->r, 422, text_str(&err));
    else ok = store_move(t, m, &coord, &human);
    text_free(&coord);
    text_free(&human);
    text_free(&err);
    return ok;
}

/* The actions by name; the last, unnamed, is every other text: a move. */
static const ApiAction ACTIONS[] = {
    { .name = "resign", .event = "resign", .take = take_resign },
    { .name = "offer-draw", .event = "offer-draw", .offer = OFFER_DRAW, .take = take_offer },
    { .name = "offer-takeback", .event = "offer-takeback", .offer = OFFER_TAKEBACK, .take = take_offer },
    { .name = "accept-draw", .event = "accept-draw", .take = take_accept_draw },
    { .name = "accept-takeback", .event = "takeback", .take = take_accept_takeback },
    { .name = "decline", .event = "decline", .take = take_decline },
    { .name = NULL, .event = "action", .on_turn = true, .take = take_move },
};

static const ApiAction *api_action_named(const char *text)
{
    const ApiAction *k = ACTIONS;
    while (k->name && strcmp(k->name, text)) k++;
    return k;
}

bool action_take(Store *s, GameRow *row, Game *g, int mine, const char *text, char event[2][512], ApiReply *r)
{
    ActionTry t = { .s = s, .row = row, .g = g, .mine = mine, .theirs = !mine, .text = text,
                    .now = server_now_ms(), .kind = api_action_named(text), .event = event, .r = r };
    /* A side out of time has lost, whatever it sends. */
    if (flag_due(row, t.now)) {
        if (!end_on_time(row, g, event)) return out_of_memory(r);
        stamp_clock(row, t.now, event);
        return true;
    }
    if (t.kind->on_turn && game_board(g)->side != mine) return reply_error(r, 403, "it is not your turn"), false;
    if (!t.kind->take(&t)) return false;
    snprintf(event[0], 512, "%s", t.kind->event);
    settle_row(row, g);
    stamp_clock(row, t.now, event);
    return true;
}
