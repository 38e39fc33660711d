/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The library in the browser: the WebAssembly build's exports (wasm.c)
 * and the JSON they write (wasm_json.c).  A thin layer like src/cli: it
 * reads games through the library (core .. engine, record) and writes
 * what the server's state says of them (src/server/play.c), with the
 * same field names, as JSON text built in a Text (the server's jansson is
 * not in this build).  web/src/rules.ts is its one reader.
 */
#ifndef TTCHESS_WASM_H
#define TTCHESS_WASM_H

#include "engine.h"
#include "game.h"
#include "text.h"

/* A game the page holds: the record, and the engine that searches it
 * (made at the first search, so that its hash is kept between searches
 * of the same game). */
typedef struct WasmGame {
    Game game;
    Engine *engine;
} WasmGame;

/* A JSON string of `s`, quoted and escaped. */
void json_add_string(Text *out, const char *s);
void json_add_string_n(Text *out, const char *s, size_t n);
/* An action as the API writes one: {"coord", "human", "kind", "from",
 * "to", "piece", "promo", "arg", "at_node"} and "ply" when ply > 0, each
 * form written at the line's position. */
void json_add_action(Text *out, const Line *l, Move m, int ply);
/* The legal actions of the game's present position as a JSON array,
 * [] when the game is over. */
void json_add_legal(Text *out, const Game *g);
/* The state of GET /api/games/{id} of docs/api.md, its position and
 * record only (no seats, clocks or offers: a local game has none). */
void json_add_state(Text *out, const Game *g);
/* A score for the side to move: {"cp": N} or {"mate": N}. */
void json_add_score(Text *out, int score);

#endif
