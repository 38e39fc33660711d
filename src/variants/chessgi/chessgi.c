/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time Travel Chessgi (seed 004; rules as decided in docs/rules/chessgi.md)
 * and its base game, Chessgi.  Chessgi is crazyhouse in which a captured
 * piece keeps its type in the captor's pocket and a pawn may be dropped on
 * its own first rank.  The time-travel game adds two kinds of travel, each
 * allowed only when nobody has travelled for a few plies: a piece sent
 * into the pocket to return at a chosen later move (a king must return
 * then), and a travel of the whole board to any earlier position of the
 * game, in any timeline, the mover keeping its pocket, which starts a new
 * timeline there.  The FEN is chessgi_fen.c, the notation
 * chessgi_notation.c, the evaluation chessgi_eval.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "chessgi.h"
#include "rules.h"
#include "movegen.h"
#include "zobrist.h"

enum { ZOBRIST_DOMAIN = 4 };

/* The largest forward limit the options allow. */
enum { CHESSGI_REACH_MAX = 1000 };

static const OptionSpec CHESSGI_OPTIONS[CHESSGI_OPTION_COUNT] = {
    [CHESSGI_COOLDOWN] = { "cooldown", "plies after any time travel before the next one may be played", 4, 0, 100 },
    [CHESSGI_FORWARD] = { "forward", "a piece travels at most this many moves forward", 10, 1, CHESSGI_REACH_MAX },
    [CHESSGI_KING_FORWARD] = { "king-forward", "a king travels at most this many moves forward", 5, 1, CHESSGI_REACH_MAX },
    [CHESSGI_CAPACITY] = { "capacity", "a special travel needs fewer pieces than this in the pocket, travellers "
                                       "included",
                           16, 1, CHESSGI_CAPACITY_MAX },
};

static const ChessgiParams CLASSIC_PARAMS = { false }, TRAVEL_PARAMS = { true };

/* ---- Pockets and travellers --------------------------------------------- */

int chessgi_pocket_total(const State *s, Color c)
{
    const ChessgiState *gs = chessgi_cstate(s);
    int total = gs->travellers[c];
    for (PieceType t = PAWN; t < KING; t++) total += gs->pocket[c][t];
    return total;
}

int chessgi_traveller_at(const State *s, Color c, int due)
{
    const ChessgiState *gs = chessgi_cstate(s);
    for (int i = 0; i < gs->travellers[c]; i++)
        if (gs->traveller[c][i].due == due) return i;
    return -1;
}

const ChessgiTraveller *chessgi_due_now(const State *s)
{
    Color us = s->board.side;
    int i = chessgi_traveller_at(s, us, s->board.fullmove);
    return i < 0 ? NULL : &chessgi_cstate(s)->traveller[us][i];
}

static bool king_due_now(const State *s)
{
    const ChessgiTraveller *t = chessgi_due_now(s);
    return t && t->type == KING;
}

/* Adds a traveller, keeping the list sorted by due move. */
void chessgi_add_traveller(ChessgiState *gs, Color c, int due, PieceType type)
{
    int i = gs->travellers[c]++;
    while (i > 0 && gs->traveller[c][i - 1].due > due) {
        gs->traveller[c][i] = gs->traveller[c][i - 1];
        i--;
    }
    gs->traveller[c][i] = (ChessgiTraveller){ (uint16_t)due, type, 0 };
}

static void remove_traveller(ChessgiState *gs, Color c, int i)
{
    int n = --gs->travellers[c];
    memmove(&gs->traveller[c][i], &gs->traveller[c][i + 1], (size_t)(n - i) * sizeof gs->traveller[c][i]);
    memset(&gs->traveller[c][n], 0, sizeof gs->traveller[c][n]);
}

/* ---- Where a piece may be dropped --------------------------------------- */

/* The empty squares a piece of this type may be dropped on: a pawn never
 * on the last rank, where it could not move (seed: drops as in Chessgi). */
static Bitboard drop_squares(const Board *b, Color c, PieceType t)
{
    Bitboard sq = ~board_occupied(b);
    if (t == PAWN) sq &= c == WHITE ? ~RANK_8 : ~RANK_1;
    return sq;
}

static bool drop_is_safe(const Board *b, PieceType t, Square q)
{
    Board copy = *b;
    board_put(&copy, q, make_piece(b->side, t));
    return !board_in_check(&copy, b->side);
}

/* The squares where a piece of type t may be dropped legally.  A dropped
 * piece that is not a king only blocks lines, so out of check every square
 * its type allows is legal; in check with one king only the squares
 * between the king and a lone slider that checks it are. */
static Bitboard legal_drop_squares(const Board *b, PieceType t)
{
    Color us = b->side;
    Bitboard sq = drop_squares(b, us, t);
    if (t == KING) {
        if (!board_in_check(b, us)) return sq & ~board_attacked_squares(b, (Color)!us);
    } else {
        if (!board_in_check(b, us)) return sq;
        Bitboard kings = board_kings(b, us);
        if (!bb_many(kings)) {
            Bitboard checkers = board_checkers(b, us);
            if (bb_many(checkers)) return 0;
            return sq & between_bb(bb_first(kings), bb_first(checkers));
        }
    }
    Bitboard ok = 0;
    while (sq) {
        Square q = bb_pop(&sq);
        if (drop_is_safe(b, t, q)) ok |= BB(q);
    }
    return ok;
}

static void add_drops(const Board *b, PieceType t, uint8_t kind, MoveList *out)
{
    Bitboard sq = legal_drop_squares(b, t);
    while (sq) movelist_add(out, move_make(SQ_NONE, bb_pop(&sq), kind, t, 0));
}

/* ---- Generation --------------------------------------------------------- */

bool chessgi_generate_base(const State *s, MoveList *out)
{
    const Board *b = &s->board;
    const ChessgiState *gs = chessgi_cstate(s);
    Color us = b->side;
    const ChessgiTraveller *due = chessgi_due_now(s);
    /* A king due now must land if it can: that is then the only action. */
    if (due && due->type == KING) {
        add_drops(b, KING, MOVE_ARRIVAL, out);
        return !out->failed;
    }
    if (due) add_drops(b, due->type, MOVE_ARRIVAL, out);
    if (!gen_legal(b, out)) return false;
    for (PieceType t = PAWN; t < KING; t++)
        if (gs->pocket[us][t]) add_drops(b, t, MOVE_DROP, out);
    return !out->failed;
}

const char *chessgi_travel_barred(const Line *l, char *buf, size_t len)
{
    const State *s = line_state(l);
    const Board *b = &s->board;
    if (!chessgi_travel_on(l)) return "there is no time travel in Chessgi (play --variant chessgi for Time Travel Chessgi)";
    const ChessgiTraveller *due = chessgi_due_now(s);
    if (due && due->type == KING) {
        snprintf(buf, len, "the king sent to move %d must be dropped now", due->due);
        return buf;
    }
    if (board_in_check(b, b->side)) return "you cannot time travel while in check";
    int wait = chessgi_cstate(s)->wait;
    if (wait) {
        int cooldown = line_option(l, CHESSGI_COOLDOWN), ago = cooldown - wait + 1;
        snprintf(buf, len, "no time travel for %d more pl%s (the last one was %d pl%s ago; the cooldown is %d)", wait,
                 wait == 1 ? "y" : "ies", ago, ago == 1 ? "y" : "ies", cooldown);
        return buf;
    }
    return NULL;
}

/* Are the mover's kings safe once its piece on s has left the board?
 * Only the occupancy changes: the piece attacked none of them. */
static bool safe_without(const Board *b, Square s)
{
    Bitboard occ = board_occupied(b) & ~BB(s), kings = board_kings(b, b->side) & ~BB(s);
    while (kings)
        if (board_attackers(b, bb_pop(&kings), (Color)!b->side, occ)) return false;
    return true;
}

static void gen_special_travels(const Line *l, MoveList *out)
{
    const State *s = line_state(l);
    const Board *b = &s->board;
    Color us = b->side;
    if (chessgi_pocket_total(s, us) >= line_option(l, CHESSGI_CAPACITY)) return;
    int n = b->fullmove, forward = line_option(l, CHESSGI_FORWARD), king_forward = line_option(l, CHESSGI_KING_FORWARD);
    int reach = forward > king_forward ? forward : king_forward;
    /* The free due moves, nearest first; a king may take the first
     * king_forward of them, any other piece the first `forward`. */
    int free_moves[CHESSGI_REACH_MAX], nfree = 0;
    for (int m = n + 1; m <= n + reach && m <= UINT16_MAX; m++)
        if (chessgi_traveller_at(s, us, m) < 0) free_moves[nfree++] = m;
    if (!nfree) return;
    Bitboard kings = board_kings(b, us);
    Bitboard men = b->by_color[us];
    while (men) {
        Square from = bb_pop(&men);
        /* Only a piece on a line to one of the kings can expose it. */
        bool may_expose = false;
        for (Bitboard k = kings & ~BB(from); k && !may_expose;) may_expose = line_bb(from, bb_pop(&k)) != 0;
        if (may_expose && !safe_without(b, from)) continue;
        int limit = n + (piece_type(b->squares[from]) == KING ? king_forward : forward);
        for (int i = 0; i < nfree && free_moves[i] <= limit; i++)
            movelist_add(out, move_make(from, SQ_NONE, MOVE_SEND_FORWARD, NO_TYPE, (uint32_t)free_moves[i]));
    }
}

void chessgi_travel_state(const Line *l, int target, State *out)
{
    const State *now = line_state(l), *at = line_node(l, target)->state;
    Color us = now->board.side;
    memcpy(out, at, state_bytes(at));
    ChessgiState *gs = chessgi_state(out);
    const ChessgiState *mine = chessgi_cstate(now);
    memcpy(gs->pocket[us], mine->pocket[us], sizeof gs->pocket[us]);
    gs->travellers[us] = mine->travellers[us];
    memcpy(gs->traveller[us], mine->traveller[us], sizeof gs->traveller[us]);
    /* The traveller due now is lost by any other action, unless the
     * position travelled to is at the same move, where it is due too. */
    int due_now = chessgi_traveller_at(now, us, now->board.fullmove);
    if (due_now >= 0 && at->board.fullmove != now->board.fullmove) remove_traveller(gs, us, due_now);
}

bool chessgi_travel_keeps_king(const State *landing, Color mover)
{
    if (board_kings(&landing->board, mover)) return true;
    const ChessgiState *gs = chessgi_cstate(landing);
    for (int i = 0; i < gs->travellers[mover]; i++)
        if (gs->traveller[mover][i].type == KING) return true;
    return false;
}

static bool gen_general_travels(const Line *l, MoveList *out)
{
    const State *s = line_state(l);
    Color us = s->board.side;
    if (chessgi_pocket_total(s, us) == 0) return true;
    ChessgiStateBuffer buf;
    MoveList here;
    movelist_init(&here);
    bool ok = true;
    for (int i = 0; i < line_current(l) && ok; i++) {
        if (line_node(l, i)->state->board.side != us) continue;
        chessgi_travel_state(l, i, &buf.state);
        if (!chessgi_travel_keeps_king(&buf.state, us)) continue;
        here.count = 0;
        ok = chessgi_generate_base(&buf.state, &here) && movelist_reserve(out, here.count);
        for (int k = 0; ok && k < here.count; k++) {
            Move m = here.moves[k];
            m.flags = MOVE_AT_NODE;
            m.arg = (uint32_t)i;
            out->moves[out->count++] = m;
        }
    }
    movelist_free(&here);
    return ok;
}

/* May the side to move time travel now?  (chessgi_travel_barred says why
 * not, in words; this is the generator's quick answer.) */
static bool travel_allowed(const Line *l)
{
    const State *s = line_state(l);
    return chessgi_travel_on(l) && !chessgi_cstate(s)->wait && !king_due_now(s) &&
           !board_in_check(&s->board, s->board.side);
}

static bool chessgi_generate(const Line *l, MoveList *out)
{
    const State *s = line_state(l);
    if (!chessgi_generate_base(s, out)) return false;
    if (!travel_allowed(l)) return !out->failed;
    gen_special_travels(l, out);
    return gen_general_travels(l, out) && !out->failed;
}

/* ---- Applying an action ------------------------------------------------- */

/* Plays an action of the base game or a traveller's drop on s. */
static void apply_base(State *s, Move m)
{
    Board *b = &s->board;
    ChessgiState *gs = chessgi_state(s);
    Color us = b->side;
    /* The traveller due now lands with this action or is lost. */
    int due = chessgi_traveller_at(s, us, b->fullmove);
    if (due >= 0) remove_traveller(gs, us, due);
    switch (m.kind) {
    case MOVE_ARRIVAL:
    case MOVE_DROP:
        if (m.kind == MOVE_DROP) gs->pocket[us][m.piece]--;
        board_put(b, m.to, make_piece(us, m.piece));
        board_end_turn(b, m.piece == PAWN);
        break;
    case MOVE_SEND_FORWARD:
        chessgi_add_traveller(gs, us, (int)m.arg, piece_type(b->squares[m.from]));
        board_remove(b, m.from);
        board_set_castling(b, castling_after_touch(b->castling, m.from));
        board_end_turn(b, true);
        break;
    default: {
        /* A captured piece changes colour and goes to the captor's pocket
         * with the type it had on the board. */
        Piece taken = m.kind == MOVE_EN_PASSANT ? make_piece((Color)!us, PAWN) : b->squares[m.to];
        if (taken) gs->pocket[us][piece_type(taken)]++;
        board_make(b, m);
        break;
    }
    }
}


static int chessgi_apply(const Line *l, Move m, State *next)
{
    const State *now = line_state(l);
    int parent = line_current(l);
    int wait = chessgi_cstate(now)->wait;
    if (m.flags & MOVE_AT_NODE) {
        parent = (int)m.arg;
        chessgi_travel_state(l, parent, next);
        m.flags = 0;
        apply_base(next, m);
        next->board.halfmove = 0;
        wait = line_option(l, CHESSGI_COOLDOWN);
    } else {
        memcpy(next, now, state_bytes(now));
        apply_base(next, m);
        wait = m.kind == MOVE_SEND_FORWARD ? line_option(l, CHESSGI_COOLDOWN) : wait > 0 ? wait - 1 : 0;
    }
    chessgi_state(next)->wait = (uint8_t)wait;
    next->ext_key = chessgi_ext_key(line_options(l), next);
    return parent;
}

/* ---- Check, outcome, repetition ----------------------------------------- */

static bool chessgi_in_check(const Line *l)
{
    const Board *b = line_board(l);
    return board_in_check(b, b->side);
}

static bool chessgi_outcome(const Line *l, Outcome *out)
{
    int count;
    if (!legal_count(l, &count)) return false;
    const State *s = line_state(l);
    if (count == 0 && king_due_now(s)) {
        Color side = s->board.side;
        *out = outcome_make(result_loss_for(side), REASON_KING_LOST_IN_TIME, side);
        return true;
    }
    /* Pieces in the pockets can always mate again: no dead positions. */
    *out = standard_outcome(l, count, false);
    return true;
}

/* ---- Time --------------------------------------------------------------- */

/* Has colour c a man besides its kings anywhere: on the board, in its
 * pocket, or travelling? */
static bool material_anywhere(const State *s, Color c)
{
    const ChessgiState *gs = chessgi_cstate(s);
    if (has_men_besides_kings(&s->board, c)) return true;
    for (PieceType t = PAWN; t < KING; t++)
        if (gs->pocket[c][t]) return true;
    for (int i = 0; i < gs->travellers[c]; i++)
        if (gs->traveller[c][i].type != KING) return true;
    return false;
}

/* How many kings colour c has, on the board and travelling. */
static int kings_of(const State *s, Color c)
{
    const ChessgiState *gs = chessgi_cstate(s);
    int n = bb_count(board_kings(&s->board, c));
    for (int i = 0; i < gs->travellers[c]; i++) n += gs->traveller[c][i].type == KING;
    return n;
}

/* A capture puts the piece in the captor's pocket, to be dropped: a bare
 * king can win as soon as anything of the opponent's is left to take
 * (docs/rules/chessgi.md, "Time").  With kings alone on both sides and
 * empty pockets nobody can travel back to a richer position (a general
 * travel needs a piece in the pocket), nor give check; kings could lose
 * an arriving king in time only by covering every square, which takes
 * seven of them. */
static bool chessgi_can_win(const Line *l, Color side)
{
    const State *s = line_state(l);
    Color other = (Color)!side;
    return material_anywhere(s, side) || material_anywhere(s, other) ||
           9 * kings_of(s, side) + kings_of(s, other) >= 64;
}

/* Can the side to move capture en passant?  Not while a king due now must
 * land instead. */
static bool ep_capturable(const State *s)
{
    return board_ep_capture_legal(&s->board) && !king_due_now(s);
}

/* The key of the pockets, the travellers as (move - present move, piece)
 * and the plies left before a time travel: what makes two positions the
 * same besides the board (docs/rules/chessgi.md, repetition).  Computed
 * afresh after every action, since the relative moves change whenever the
 * move number does. */
uint64_t chessgi_ext_key(const Options *o, const State *s)
{
    (void)o;
    const ChessgiState *gs = chessgi_cstate(s);
    int n = s->board.fullmove;
    uint64_t key = 0;
    if (s->board.ep != SQ_NONE && board_ep_capture_legal(&s->board) && !ep_capturable(s))
        key ^= ZOBRIST_EP_FILE[square_file(s->board.ep)];
    for (Color c = WHITE; c <= BLACK; c++) {
        for (PieceType t = PAWN; t < KING; t++)
            if (gs->pocket[c][t])
                key ^= zobrist_feature(ZOBRIST_DOMAIN, (1ULL << 40) | ((uint64_t)c << 32) | ((uint64_t)t << 24) | gs->pocket[c][t]);
        for (int i = 0; i < gs->travellers[c]; i++) {
            uint64_t rel = (uint64_t)(uint32_t)(gs->traveller[c][i].due - n);
            key ^= zobrist_feature(ZOBRIST_DOMAIN, (2ULL << 40) | ((uint64_t)c << 36) | (rel << 4) | gs->traveller[c][i].type);
        }
    }
    if (gs->wait) key ^= zobrist_feature(ZOBRIST_DOMAIN, (3ULL << 40) | gs->wait);
    return key;
}

static bool chessgi_same_position(const State *a, const State *b)
{
    if (!same_pieces_side_castling(&a->board, &b->board)) return false;
    Square ea = ep_capturable(a) ? a->board.ep : SQ_NONE, eb = ep_capturable(b) ? b->board.ep : SQ_NONE;
    if (ea != eb) return false;
    const ChessgiState *ga = chessgi_cstate(a), *gb = chessgi_cstate(b);
    if (memcmp(ga->pocket, gb->pocket, sizeof ga->pocket) || ga->wait != gb->wait) return false;
    int na = a->board.fullmove, nb = b->board.fullmove;
    for (Color c = WHITE; c <= BLACK; c++) {
        if (ga->travellers[c] != gb->travellers[c]) return false;
        for (int i = 0; i < ga->travellers[c]; i++)
            if (ga->traveller[c][i].due - na != gb->traveller[c][i].due - nb ||
                ga->traveller[c][i].type != gb->traveller[c][i].type)
                return false;
    }
    return true;
}

/* ---- Timelines ---------------------------------------------------------- */

void chessgi_node_name(const Line *l, int node, int *timeline, int *ply)
{
    *timeline = line_node(l, node)->timeline;
    int depth = 0;
    for (int i = line_node(l, node)->parent; i >= 0; i = line_node(l, i)->parent) depth++;
    *ply = depth;
}

int chessgi_node_named(const Line *l, int timeline, int ply)
{
    /* Nodes are in the order played, so the last one of the timeline is
     * its tip; the timeline's positions are the tip and its ancestors. */
    int tip = -1;
    for (int i = line_current(l); i >= 0 && tip < 0; i--)
        if (line_node(l, i)->timeline == timeline) tip = i;
    if (tip < 0 || ply < 0) return -1;
    int depth, t;
    chessgi_node_name(l, tip, &t, &depth);
    if (ply > depth) return -1;
    int n = tip;
    for (; depth > ply; depth--) n = line_node(l, n)->parent;
    return n;
}

/* ---- Notes and the play screen ------------------------------------------ */

static bool chessgi_note(const Line *l, Move m, Text *out)
{
    const State *s = line_state(l);
    const ChessgiTraveller *due = chessgi_due_now(s);
    if (!due || m.kind == MOVE_ARRIVAL) return true;
    /* Anything but its drop loses it, a general travel included (one to a
     * position at the same move too, unless the move made there drops it,
     * which is an arrival and so returned above). */
    text_addf(out, "the %s %s sent to move %d is lost in time", color_name(s->board.side), piece_type_name(due->type),
              due->due);
    return !out->failed;
}

static void describe_side(const Line *l, Color c, Text *out)
{
    const State *s = line_state(l);
    const ChessgiState *gs = chessgi_cstate(s);
    text_addf(out, "%s pocket:", c == WHITE ? "White" : "Black");
    bool any = false;
    for (size_t k = 0; k < sizeof CHESSGI_POCKET_ORDER; k++) {
        int count = gs->pocket[c][(int)CHESSGI_POCKET_ORDER[k]];
        char letter = piece_letter((PieceType)CHESSGI_POCKET_ORDER[k]);
        if (count > 1) text_addf(out, " %d%c", count, letter);
        else if (count) text_addf(out, " %c", letter);
        any |= count > 0;
    }
    if (!any) text_add(out, " empty");
    text_add_char(out, '\n');
    if (!chessgi_travel_on(l)) return;
    text_addf(out, "%s travellers:", c == WHITE ? "White" : "Black");
    for (int i = 0; i < gs->travellers[c]; i++)
        text_addf(out, "%s %c at move %u", i ? "," : "", piece_letter(gs->traveller[c][i].type), gs->traveller[c][i].due);
    if (!gs->travellers[c]) text_add(out, " none");
    text_add_char(out, '\n');
}

static bool chessgi_describe(const Line *l, Text *out)
{
    describe_side(l, WHITE, out);
    describe_side(l, BLACK, out);
    if (!chessgi_travel_on(l)) return !out->failed;
    const State *s = line_state(l);
    Color us = s->board.side;
    int wait = chessgi_cstate(s)->wait;
    if (king_due_now(s)) text_add(out, "Time travel: not until the king lands\n");
    else if (board_in_check(&s->board, us)) text_add(out, "Time travel: not while in check\n");
    else if (wait) text_addf(out, "Time travel: not for %d more pl%s\n", wait, wait == 1 ? "y" : "ies");
    else if (!chessgi_pocket_total(s, us)) text_add(out, "Time travel: to the future; to earlier\npositions needs a piece in the pocket\n");
    else text_add(out, "Time travel: allowed ('travel' lists\nthe earlier positions)\n");
    const Node *now = line_node(l, line_current(l));
    text_addf(out, "Timeline %d of %d\n", now->timeline, now->timelines);
    const ChessgiTraveller *due = chessgi_due_now(s);
    if (!due) return !out->failed;
    /* Short lines, to stand beside the board. */
    Bitboard sq = legal_drop_squares(&s->board, due->type);
    const char *what = piece_type_name(due->type);
    if (!sq) {
        text_addf(out, "Due now: %s, no square: lost%s\n", what, due->type == KING ? " in time" : "");
    } else {
        char name[3];
        square_name(bb_first(sq), name);
        text_addf(out, "Due now: %s, %s ([%c]@%s)\n", what, due->type == KING ? "must land" : "lands or is lost",
                  piece_letter(due->type), name);
    }
    return !out->failed;
}

#define CHESSGI_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"

/* What both games share: the rules (the params tell them apart) and the
 * notation. */
#define CHESSGI_SHARED                                                                                           \
    .ext_size = sizeof(ChessgiState), .generate = chessgi_generate, .apply = chessgi_apply,                      \
    .in_check = chessgi_in_check, .outcome = chessgi_outcome, .can_win = chessgi_can_win,                        \
    .ext_key = chessgi_ext_key,                                                                                  \
    .same_position = chessgi_same_position, .parse = chessgi_parse, .format_coord = chessgi_format_coord,        \
    .format_human = chessgi_format_human, .describe = chessgi_describe

/* Positions worth trying (Variant.samples): the bench's, with their
 * depths, then starts for the fuzz harnesses. */
static const SamplePosition CHESSGI_CLASSIC_SAMPLES[] = {
    { NULL, NULL, NULL, 10 },
    { NULL, "b1c3 c7c5 e2e4 g7g5 g2g3 d8b6 d2d4 h7h6 g3g4 a7a6 f1b5 e7e6", NULL, 10 },
    /* Full pockets on both sides, Black to move (Fairy-Stockfish's perft position). */
    { "5Rp1/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnpp] b - - 1 48", NULL, NULL, 0 },
    /* Pawns on their own first ranks; White in check from a knight. */
    { "4k2p/8/8/8/8/3n4/8/P3K3[Nn] w - - 0 20", NULL, NULL, 0 },
};

const Variant VARIANT_CHESSGI_CLASSIC = {
    .name = "chessgi-classic",
    .title = "Chessgi",
    .params = &CLASSIC_PARAMS,
    .evaluator = &EVAL_CHESSGI_CLASSIC,
    .start_fen = CHESSGI_START,
    .notation_help = "Drops: N@d5 puts a knight from your pocket on d5 (P@a1: pawns may land on your first rank).\n",
    .from_fen = chessgi_classic_from_fen,
    .to_fen = chessgi_classic_to_fen,
    CHESSGI_SHARED,
    .samples = CHESSGI_CLASSIC_SAMPLES,
    .sample_count = sizeof CHESSGI_CLASSIC_SAMPLES / sizeof CHESSGI_CLASSIC_SAMPLES[0],
    .fen_parts = CHESSGI_CLASSIC_FEN_PARTS,
};

static const SamplePosition CHESSGI_SAMPLES[] = {
    { NULL, NULL, NULL, 9 },
    { NULL, "a2>2 c7c5 [P]@e5 e7e6 a1a7 h8>5 g1h3 f8d6 P@e7 f7f6 c2>9 d6e7", NULL, 9 },
    /* A knight sent to move 5 and a pawn in White's pocket: general travels to moves 1 to 3. */
    { NULL, "g1>5 e7e5 e2e4 d7d5 e4d5 b8c6", NULL, 0 },
    /* After a general travel: two timelines, the cooldown running. */
    { NULL, "g1>5 e7e5 e2e4 d7d5 e4d5 b8c6 <1.2>P@e6", NULL, 0 },
    /* White's king due now, Black's knight at move 12, pockets on both sides. */
    { "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR[Pp] w kq - 0 3 K3/N12 0", NULL, NULL, 0 },
    /* White's knight due now. */
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R[N] w KQkq - 0 3 N3/- 0", NULL, NULL, 0 },
    /* A small cooldown and pocket, from the start. */
    { NULL, "e2e4 d7d5 e4d5 d8d5", "cooldown=1 capacity=2", 0 },
};

const Variant VARIANT_CHESSGI = {
    .name = "chessgi",
    .title = "Time Travel Chessgi",
    .params = &TRAVEL_PARAMS,
    .evaluator = &EVAL_CHESSGI,
    .start_fen = CHESSGI_START " -/- 0",
    .notation_help =
        "Drops and time travel (human form / coordinate form):\n"
        "  N@d5      / N@d5       drop a knight from your pocket on d5\n"
        "  Nf3>12    / f3>12      send the knight on f3 into your pocket, due at move 12\n"
        "  [N]@e5    / [N]@e5     drop the knight due now on e5 (a king due must land)\n"
        "  <1.4>Nf3  / <1.4>g1f3  travel to position 4 of timeline 1, keeping your\n"
        "                         pocket, and play Nf3 there (a new timeline); the\n"
        "                         play command 'travel' lists the positions\n",
    .options = CHESSGI_OPTIONS,
    .option_count = CHESSGI_OPTION_COUNT,
    .from_fen = chessgi_travel_from_fen,
    .to_fen = chessgi_travel_to_fen,
    CHESSGI_SHARED,
    .format_sheet = chessgi_format_sheet,
    .note = chessgi_note,
    .sheet_departure = chessgi_sheet_departure,
    .sheet_join = chessgi_sheet_join,
    .samples = CHESSGI_SAMPLES,
    .sample_count = sizeof CHESSGI_SAMPLES / sizeof CHESSGI_SAMPLES[0],
    .fen_parts = CHESSGI_FEN_PARTS,
};
