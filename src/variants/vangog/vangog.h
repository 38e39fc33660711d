/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * van Gog's Time Travel Chess: the variant's own state and the pieces of
 * its rules that its notation needs.  The rules are in vangog.c, the
 * notation in vangog_notation.c; docs/rules/vangog.md states each rule
 * with the seed text it rests on.  One implementation serves the three
 * modes (vangog-past, vangog-future, vangog), told apart by VanGogRules.
 */
#ifndef TTCHESS_VANGOG_H
#define TTCHESS_VANGOG_H

#include "game.h"
#include "tags.h"

/* Which kinds of travel a mode allows (Variant.params). */
typedef struct VanGogRules {
    bool from_future;   /* arrivals from the future, departures to the past */
    bool to_future;     /* departures to the future, reappearances          */
} VanGogRules;

/* What a time-travel action did to the square it ended on: the matching
 * principle pairs captures with captures and self-captures with
 * self-captures. */
enum Capture { CAPTURE_NONE = 0, CAPTURE_ENEMY = 1, CAPTURE_SELF = 2 };

/* The most arrivals a game can have: origins are 16-bit tags. */
enum { VANGOG_MAX_ARRIVALS = 65535 };

/* An open obligation: arrival `number` brought a `type` of `color` to
 * `to` "from" `from`; a departure to the past with the same five facts
 * must still match it. */
typedef struct Obligation {
    uint16_t number;
    uint8_t color, type, from, to;
    uint8_t capture;   /* enum Capture */
    uint8_t check;     /* 1 if the arrival gave check */
} Obligation;

/* A piece gone to the future, waiting to reappear on `to`. */
typedef struct VanGogTraveller {
    uint16_t origin;
    uint8_t color, type, to;
    uint8_t capture;   /* enum Capture of its departure */
    uint8_t check;     /* 1 if its departure gave check */
    uint8_t zero;      /* 0; keeps two equal travellers equal byte for byte */
} VanGogTraveller;

/* A fulfilled arrival: arrival `number` was matched by the departure of
 * the piece of origin `origin` (link(number) = origin in the rules). */
typedef struct Link {
    uint16_t number, origin;
} Link;

/*
 * The state in State.ext: each piece's origin (0 for the pieces of the
 * start position, k for the piece arrival k brought), then three lists
 * that grow with the game, one after the other: the open obligations by
 * number, the travellers in the order they left, the links.  An action
 * adds at most one entry of eight bytes (ext_room).  Every arrival is
 * either an open obligation or a link, so the arrivals made so far are
 * obligations + links, and the next one's number is one more.
 */
typedef struct VanGogState {
    PieceTags origin;
    uint16_t obligations, travellers, links, zero;
} VanGogState;

static inline const VanGogState *vangog_cstate(const State *s) { return (const VanGogState *)s->ext; }
static inline VanGogState *vangog_state(State *s) { return (VanGogState *)s->ext; }
static inline const Obligation *vangog_obligations(const State *s)
{
    return (const Obligation *)(s->ext + sizeof(VanGogState));
}
static inline const VanGogTraveller *vangog_travellers(const State *s)
{
    return (const VanGogTraveller *)(vangog_obligations(s) + vangog_cstate(s)->obligations);
}
static inline const Link *vangog_links(const State *s)
{
    return (const Link *)(vangog_travellers(s) + vangog_cstate(s)->travellers);
}
static inline int vangog_arrivals(const State *s) { return vangog_cstate(s)->obligations + vangog_cstate(s)->links; }

static inline const VanGogRules *vangog_rules(const Line *l) { return line_variant(l)->params; }

/* What an action whose piece ends on (or leaves from) t does there, for
 * a piece of colour c: CAPTURE_NONE on an empty square. */
int vangog_capture_at(const Board *b, Color c, Square t);
/* Would the obligation be met by a departure with these facts? */
bool obligation_matches(const Obligation *o, Color c, PieceType x, Square f, Square t, int capture, bool check);
/* Does the piece of origin `o` owe its existence to arrival k (o = k, or
 * the chain o, link(o), ... reaches k)?  Such a piece cannot fulfil k. */
bool vangog_descends_from(const State *s, int o, int k);
/* Could a piece of colour c and type x arrive on t from f, with this
 * capture on t (the shape of an arrival, whatever the board)? */
bool vangog_arrival_shape(Color c, PieceType x, Square f, Square t, int capture);
/* Is the move of the piece on f to t a departure's shape (the geometry
 * of a chess move, self-captures included; a king not onto an attacked
 * square), and is it legal (none of the mover's kings attacked once the
 * piece and whatever stood on t are gone)? */
bool vangog_departure_shape(const Board *b, Square f, Square t);
bool vangog_departure_legal(const Board *b, Square f, Square t);
/* The oldest obligation a departure with these facts fulfils, given the
 * departing piece's origin; NULL if none.  *banned tells whether matching
 * obligations exist that the ex-nihilo ban rules out. */
const Obligation *vangog_fulfils(const State *s, int origin, Color c, PieceType x, Square f, Square t, int capture,
                                 bool check, bool *banned);
/* The board after a departure from f to t (the piece and whatever stood
 * on t are gone), or after a piece of colour c and type x lands on t. */
void vangog_board_after_departure(const Board *b, Square f, Square t, Board *out);
void vangog_board_after_landing(const Board *b, Color c, PieceType x, Square t, Board *out);
/* The oldest traveller of the side to move that can reappear as x on t
 * now, the conditions of its departure met; NULL if none. */
const VanGogTraveller *vangog_traveller_for(const Board *b, const State *s, PieceType x, Square t);
/* Has colour c anything unmet if the game ends here (an open obligation, a
 * traveller whose square fails the vacancy principle)? */
bool vangog_unmet(const State *s, Color c);
bool vangog_vacancy_ok(const Board *b, const VanGogTraveller *t);

/* Writes an obligation or a traveller in the seed's notation: Qd1-f3*,
 * Rd8xd4*, Qd1-h5+*; Qh5†. */
void obligation_text(const Obligation *o, Text *out);
void traveller_text(const VanGogTraveller *t, Text *out);

/* The notation (vangog_notation.c). */
bool vangog_parse(const Line *l, const char *text, Move *out, Text *err);
bool vangog_format_coord(const Line *l, Move m, Text *out);
bool vangog_format_human(const Line *l, Move m, Text *out);

/* The engine's evaluators of the three modes (vangog_eval.c). */
extern const struct Evaluator EVAL_VANGOG, EVAL_VANGOG_PAST, EVAL_VANGOG_FUTURE;

/* The FEN (vangog_fen.c), by the rules of a mode. */
State *vangog_from_fen_rules(const VanGogRules *r, const char *fen, Text *err);
void vangog_to_fen(const Options *o, const State *s, Text *out);
/* The FEN's parts beyond chess's in each mode, for an editor
 * (vangog_fen.c): the past mode has no travellers, the future mode no
 * obligations or links. */
extern const FenPart VANGOG_FEN_PARTS[], VANGOG_PAST_FEN_PARTS[], VANGOG_FUTURE_FEN_PARTS[];

/* The key of ext computed from nothing (vangog.c). */
uint64_t vangog_ext_key(const Options *o, const State *s);

#endif
