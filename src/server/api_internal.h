/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the files of the API's handlers share, private to them (api.h is
 * the server's one interface to the handlers):
 *
 *   api.c          the router (api_handle), replies, the reading of a
 *                  request, and the helpers below
 *   api_accounts.c registration, login and sessions, API tokens, blocks
 *   api_games.c    a game created, read, joined, challenged; its records
 *   api_actions.c  the action request, and the end of a game on time
 *   actions.c      the actions a player may take, as a table of handlers
 *   api_kibitz.c   the spectators' comments
 *   api_rematch.c  a finished game's rematch, offered and answered
 *   api_seeks.c    open challenges to anyone (seeks) and the lobby's lists
 *   api_users.c    players' games, counts and PGN export; account deletion
 *   api_ratings.c  players' ratings, their history, the leaderboards
 *   api_tournaments.c arenas and round-robins: created, joined, paired,
 *                  their standings
 *   api_mail.c     the player's e-mail address, mails and "your move" count
 */
#ifndef TTCHESS_SERVER_API_INTERNAL_H
#define TTCHESS_SERVER_API_INTERNAL_H

#include "api.h"

/* ---- Replies (api.c) ------------------------------------------------------ */

void reply_json(ApiReply *r, int status, json_t *body);
void reply_error(ApiReply *r, int status, const char *message);
void reply_text(ApiReply *r, int status, const char *type, char *text);

/* ---- Reading requests (api.c) --------------------------------------------- */

/* The body as a JSON object, or NULL after a 400 reply. */
json_t *body_object(const ApiRequest *req, ApiReply *r);
/* A string member, or NULL when absent or not a string. */
const char *member_string(json_t *o, const char *name);
/* The parts of a game's state the query asks for (?legal=1, ?nodes=1,
 * ?what=1): STATE_LEGAL, STATE_NODES and STATE_WHAT of play_state. */
unsigned state_parts(const ApiRequest *req);

/* ---- Games and limits (api.c) --------------------------------------------- */

/* Replaces a malloc'd string of a row with a copy of value (NULL: none). */
void set_string(char **field, const char *value);
/* Loads a game's row, or replies 404 (or 503). */
bool load_row(Store *s, const char *id, GameRow *row, ApiReply *r);
/* Loads row and game (from the cache when it holds this version), or
 * replies. */
bool load_game(Store *s, const char *id, GameRow *row, Game *g, ApiReply *r);
/* After a committed change to a game with the engine in a seat. */
void wake_engine(Store *s, const GameRow *row);
/* A player's count of something against its limit: true while under it;
 * else 429 with the sentence (whose %d is the limit), or 503 (-1). */
bool under_limit(int64_t count, int limit, const char *sentence, ApiReply *r);
/* The player's games waiting or in play against their limit. */
bool under_game_limit(Store *s, int64_t user, ApiReply *r);

/* ---- Games shared with the seeks (api_games.c, api_seeks.c) --------------- */

/* Creates a game from the request's body, or (seek) an open challenge. */
void create_game(Store *s, const ApiRequest *req, bool seek, ApiReply *r);
/* The clock of a new game ("clock" or "days_per_move") and its variant,
 * options and start position, read and checked; false after a reply.
 * Tournaments read theirs with them too (api_tournaments.c). */
bool read_clock(json_t *body, GameRow *g, ApiReply *r);
bool read_start(json_t *body, GameRow *g, ApiReply *r);
/* Seats `user` in the open seat and starts the game (event `event`). */
void take_seat(Store *s, GameRow *row, int64_t user, const char *event, ApiReply *r);
/* Ends a challenge or seek never accepted: "declined" with the reason. */
void close_challenge(Store *s, GameRow *row, const char *reason, ApiReply *r);
/* The player's open seeks against their limit (429 past it). */
bool under_seek_limit(Store *s, int64_t user, ApiReply *r);

/* ---- The end of a game (api_actions.c) ------------------------------------ */

/* Ends the game as the players declared ("0-1 white resigns"). */
bool declare_end(GameRow *row, Game *g, Outcome o, const char *words);
/* After any action: is the game over by the rules or a declared end? */
void settle_row(GameRow *row, const Game *g);
/* Charges the mover's live clock for the time since the last action. */
void charge_clock(GameRow *row, int mover, int64_t now);
/* Has the side to move run out of time by `now`? */
bool flag_due(const GameRow *row, int64_t now);
/* Ends the game on time for its side to move and fills the "time" event;
 * false only when out of memory. */
bool end_on_time(GameRow *row, Game *g, char event[2][512]);
/* Adds the clocks at `now` ("clock", as the state has it) and `now`
 * ("at") to the event's data, in a game with a live clock. */
void stamp_clock(const GameRow *row, int64_t now, char event[2][512]);

/* ---- The actions (actions.c) ---------------------------------------------- */

/* Takes the action `text` of the side `mine` in the loaded game, its ply
 * checked: writes the row (and the actions table) in the open transaction
 * and fills `event` (type and data) for the live streams; false after an
 * error reply. */
bool action_take(Store *s, GameRow *row, Game *g, int mine, const char *text, char event[2][512], ApiReply *r);

/* ---- The handlers (api_handle routes to them) ----------------------------- */

void api_register(Store *s, const ApiRequest *req, ApiReply *r);
void api_login(Store *s, const ApiRequest *req, ApiReply *r);
void api_logout(Store *s, const ApiRequest *req, ApiReply *r);
void api_token_create(Store *s, const ApiRequest *req, ApiReply *r);
void api_tokens(Store *s, const ApiRequest *req, ApiReply *r);
void api_token_revoke(Store *s, const ApiRequest *req, const char *id, ApiReply *r);
void api_blocks(Store *s, const ApiRequest *req, ApiReply *r);
void api_block(Store *s, const ApiRequest *req, ApiReply *r);
void api_unblock(Store *s, const ApiRequest *req, const char *name, ApiReply *r);

void api_my_games(Store *s, const ApiRequest *req, ApiReply *r);
void api_create_game(Store *s, const ApiRequest *req, ApiReply *r);
void api_get_game(Store *s, const ApiRequest *req, const char *id, ApiReply *r);
void api_join(Store *s, const ApiRequest *req, const char *id, ApiReply *r);
void api_answer_challenge(Store *s, const ApiRequest *req, const char *id, bool accept, ApiReply *r);
void api_record(Store *s, const char *id, bool pgn, ApiReply *r);
/* api_pgn.c: the PGN download, named ttchess-ID.pgn, with the clocks. */
void api_pgn(Store *s, const ApiRequest *req, const char *id, ApiReply *r);
void api_diagram(Store *s, const ApiRequest *req, const char *id, ApiReply *r);

void api_action(Store *s, const ApiRequest *req, const char *id, ApiReply *r);
void api_kibitz(Store *s, const ApiRequest *req, const char *id, ApiReply *r);
/* A finished game's rematch (api_rematch.c): GET reads it; POST offers it
 * (answer NULL) or answers it ("accept", "decline"). */
void api_rematch(Store *s, const ApiRequest *req, const char *id, const char *answer, ApiReply *r);

/* api_pgn.c: the game's PGN as the download gives it, added to `out`;
 * false with *status 503 (the database) or 500 (memory). */
bool game_pgn(Store *s, const char *site, const GameRow *row, const Game *g, Text *out, int *status);

/* api_users.c: players' pages, the archive, account deletion. */
void api_user_games(Store *s, const ApiRequest *req, const char *name, ApiReply *r);
void api_user_current(Store *s, const ApiRequest *req, const char *name, ApiReply *r);
void api_user_stats(Store *s, const ApiRequest *req, const char *name, ApiReply *r);
void api_user_pgn(Store *s, const ApiRequest *req, const char *name, ApiReply *r);
void api_account_delete(Store *s, const ApiRequest *req, ApiReply *r);
void api_gc(Store *s, const char *id, ApiReply *r);
/* api_ratings.c: a player's profile and ratings, a rating's history, a
 * leaderboard. */
void api_user(Store *s, const char *name, ApiReply *r);
void api_rating_history(Store *s, const ApiRequest *req, const char *name, ApiReply *r);
void api_leaderboard(Store *s, const ApiRequest *req, const char *variant, const char *speed, ApiReply *r);
/* api_mail.c: the player's e-mail address, mails and "your move" count. */
void api_email(Store *s, const ApiRequest *req, ApiReply *r);
void api_email_set(Store *s, const ApiRequest *req, ApiReply *r);
void api_email_confirm(Store *s, const ApiRequest *req, bool page, ApiReply *r);
void api_notify_set(Store *s, const ApiRequest *req, ApiReply *r);
void api_your_move(Store *s, const ApiRequest *req, ApiReply *r);

void api_lobby(Store *s, ApiReply *r);
void api_seek_create(Store *s, const ApiRequest *req, ApiReply *r);
void api_seek_accept(Store *s, const ApiRequest *req, const char *id, ApiReply *r);
void api_seek_withdraw(Store *s, const ApiRequest *req, const char *id, ApiReply *r);

/* ---- Tournaments (api_tournaments.c) -------------------------------------- */

void api_tournaments(Store *s, ApiReply *r);
void api_tournament_create(Store *s, const ApiRequest *req, ApiReply *r);
void api_tournament_get(Store *s, const ApiRequest *req, const char *id, ApiReply *r);
/* POST .../join (join true) and .../withdraw. */
void api_tournament_enter(Store *s, const ApiRequest *req, const char *id, bool join, ApiReply *r);
/* Inside the transaction that ends a game (its row says "over"): the
 * standings of its tournament, if it has one, count it.  True when there
 * is nothing to do. */
bool tournament_game_over(Store *s, const GameRow *row);

#endif
