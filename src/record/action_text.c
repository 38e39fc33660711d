/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An action as a player types it, in any notation ttchess reads (see
 * ttchess/game.h, game_play_text).  The record knows no notation but the
 * variant's own (line_parse); Game Courier's is a record format's, so the
 * reader that tells the two apart lives here, with the formats.
 */
#include "game.h"
#include "gc.h"

bool line_parse_text(const Line *l, const char *text, Move *out, Text *err)
{
    /* Game Courier's notation, in a shape no other notation here has
     * ("P e2-e4", "e5-", "P e7-e8; Q-e8"), is read by its effect on the
     * board; everything else by the game's own reader, as before. */
    if (gc_is_notation(text)) return gc_parse(l, text, out, err);
    return line_parse(l, text, out, err);
}

bool game_play_text(Game *g, const char *text, Text *err) { return game_play_read(g, text, line_parse_text, err); }
