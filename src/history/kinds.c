/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The kinds of action the library's games make (types.h, MoveKind),
 * described for clients (variant.h, ActionKind): their names in the API,
 * their words, and how a player makes them.  A server or a web page reads
 * these instead of a list of its own, so that a game's new kind of action
 * reaches them as data: a game with kinds of its own describes them in its
 * Variant.kinds, which is read first.
 */
#include "variant.h"

#include <stddef.h>

static const ActionKind LIBRARY_KINDS[] = {
    { MOVE_NORMAL, "normal", "move", true, KIND_NO_TRAVEL, NULL, NULL, false, NULL, "moves", 0 },
    { MOVE_DOUBLE_PUSH, "double-push", "double step", true, KIND_NO_TRAVEL, NULL, NULL, false, NULL, "moves", 0 },
    { MOVE_EN_PASSANT, "en-passant", "en passant", true, KIND_NO_TRAVEL, NULL, NULL, false, NULL, "moves", 0 },
    { MOVE_CASTLE, "castle", "castling", true, KIND_NO_TRAVEL, NULL, NULL, false, NULL, "moves", 0 },
    { MOVE_PROMOTION, "promotion", "promotion", true, KIND_NO_TRAVEL, NULL, NULL, false, NULL, "moves", 0 },
    { MOVE_SEND_FORWARD, "send-forward", "sent forward in time", false, KIND_FORWARD, NULL, NULL, false, "arrives at move", "sends to the future", 5 },
    { MOVE_ARRIVAL, "arrival", "arrival", false, KIND_NO_TRAVEL, "arriving", "Arriving", false, NULL, "arrivals from the future", 1 },
    { MOVE_KING_BACK, "king-back", "king back in time", true, KIND_BACK, NULL, NULL, false, "to move", "kings back in time", 6 },
    { MOVE_DROP, "drop", "drop", false, KIND_NO_TRAVEL, "pocket", "Drop from the pocket", false, NULL, "drops", 7 },
    { MOVE_DEPART_PAST, "depart-past", "departure to the past", true, KIND_DEPART, NULL, NULL, false, NULL, "departures to the past", 2 },
    { MOVE_DEPART_FUTURE, "depart-future", "departure to the future", true, KIND_DEPART, NULL, NULL, false, NULL, "departures to the future", 3 },
    { MOVE_REAPPEAR, "reappear", "reappearance", false, KIND_NO_TRAVEL, "arriving", "Arriving", false, NULL, "reappearances", 4 },
    { MOVE_EXPLOSION, "explosion", "explosion", false, KIND_NO_TRAVEL, "explosion", "Explosions", true, NULL, "explosions", 8 },
    { MOVE_ANNIHILATION, "annihilation", "annihilation", true, KIND_NO_TRAVEL, NULL, NULL, false, NULL, "annihilations", 9 },
    { MOVE_NULL, "none", "no action", false, KIND_NO_TRAVEL, NULL, NULL, false, NULL, NULL, 0 },
};

const ActionKind *variant_action_kind(const Variant *v, uint8_t kind)
{
    for (const ActionKind *k = v->kinds; k && k->name; k++)
        if (k->kind == kind) return k;
    for (size_t i = 0; i < sizeof LIBRARY_KINDS / sizeof LIBRARY_KINDS[0]; i++)
        if (LIBRARY_KINDS[i].kind == kind) return &LIBRARY_KINDS[i];
    return &LIBRARY_KINDS[sizeof LIBRARY_KINDS / sizeof LIBRARY_KINDS[0] - 1];
}
