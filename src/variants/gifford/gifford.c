/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Gifford's Time Travel Chess (seed 000; rules as decided in
 * docs/rules/gifford.md).  Besides chess moves a player may send a piece
 * next to one of his kings up to ten moves into the future, send a king
 * there, or send a king up to five moves back, which restarts the game
 * from that earlier position in a new timeline.  Arrivals from the future
 * must be placed at their move; a king that cannot be placed is lost in
 * time and its side loses.  The FEN is gifford_fen.c, the notation
 * gifford_notation.c, the evaluation gifford_eval.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "gifford.h"
#include "rules.h"
#include "movegen.h"
#include "zobrist.h"

static const OptionSpec GIFFORD_OPTIONS[GIFFORD_OPTION_COUNT] = {
    [GIFFORD_FORWARD] = { "forward", "a piece or king travels at most this many moves forward", 10, 1,
                          ARRIVAL_SLOTS - 1 },
    [GIFFORD_BACK] = { "back", "a king travels at most this many moves back", 5, 1, 100 },
    [GIFFORD_BACK_TRAVELS] = { "back-travels", "backward travels each player may make in a game", 2, 0, 100 },
};

/* ---- Schedules ---------------------------------------------------------- */

int gifford_first_pending(const Board *b, Color c)
{
    /* White has already acted at move n when Black is to move. */
    return (c == WHITE && b->side == BLACK) ? b->fullmove + 1 : b->fullmove;
}

uint8_t gifford_arrival_at(const State *s, int forward, Color c, int m)
{
    if (m < gifford_first_pending(&s->board, c) || m > gifford_last_pending(&s->board, c, forward)) return 0;
    return gifford_cstate(s)->arrival[c][m % ARRIVAL_SLOTS];
}

uint8_t gifford_due_now(const State *s)
{
    return gifford_cstate(s)->arrival[s->board.side][s->board.fullmove % ARRIVAL_SLOTS];
}

void arrival_label(uint8_t code, char buf[4])
{
    PieceType t = arrival_type(code);
    buf[0] = piece_letter(t);
    buf[1] = t == BISHOP ? ((code & ARRIVAL_DARK) ? 'b' : 'w') : 0;
    buf[2] = 0;
}

static uint8_t arrival_code(PieceType t, Square from)
{
    return (uint8_t)(t | ((t == BISHOP && square_is_dark(from)) ? ARRIVAL_DARK : 0));
}

static Bitboard placement_squares(const Board *b, uint8_t code);

/* Can the side to move capture en passant?  Not while an arrival due now
 * rules out every other action (it can be placed, or it is a king). */
static bool gifford_ep_capturable(const State *s)
{
    if (!board_ep_capture_legal(&s->board)) return false;
    uint8_t due = gifford_due_now(s);
    return !due || (arrival_type(due) != KING && !placement_squares(&s->board, due));
}

/* The key of the schedules as (move - present move, piece) pairs and the
 * backward travels used: what makes two positions the same besides the
 * board (docs/rules/gifford.md, repetition).  The board's part counts the
 * en passant file whenever the board allows the capture; where an arrival
 * rules it out, this key takes the file out again.   Computed afresh after every
 * action, since the relative moves change whenever the move number does;
 * it walks the slots, which are empty but for the pending arrivals. */
uint64_t gifford_ext_key(const Options *o, const State *s)
{
    enum { DOMAIN = 1 };
    (void)o;
    const GiffordState *gs = gifford_cstate(s);
    int n = s->board.fullmove;
    uint64_t key = 0;
    if (s->board.ep != SQ_NONE && board_ep_capture_legal(&s->board) && !gifford_ep_capturable(s))
        key ^= ZOBRIST_EP_FILE[square_file(s->board.ep)];
    for (Color c = WHITE; c <= BLACK; c++) {
        int first = gifford_first_pending(&s->board, c);
        for (int slot = 0; slot < ARRIVAL_SLOTS; slot++) {
            /* Eight empty slots at a time are passed over at once. */
            uint64_t eight;
            if (slot % 8 == 0) {
                memcpy(&eight, &gs->arrival[c][slot], sizeof eight);
                if (!eight) {
                    slot += 7;
                    continue;
                }
            }
            uint8_t a = gs->arrival[c][slot];
            if (!a) continue;
            int m = first + ((slot - first) % ARRIVAL_SLOTS + ARRIVAL_SLOTS) % ARRIVAL_SLOTS;
            key ^= zobrist_feature(DOMAIN, ((uint64_t)c << 16) | ((uint64_t)(m - n) << 8) | a);
        }
        key ^= zobrist_feature(DOMAIN, (1ULL << 32) | ((uint64_t)c << 16) | gs->backs_used[c]);
    }
    return key;
}

/* ---- Legality helpers --------------------------------------------------- */

static int own_men(const Board *b, Color c)
{
    return bb_count(b->by_color[c] & ~b->by_type[KING]);
}

/* Squares next to any king of colour c. */
static Bitboard next_to_kings(const Board *b, Color c)
{
    Bitboard near = 0, kings = board_kings(b, c);
    while (kings) near |= king_attacks(bb_pop(&kings));
    return near;
}

/* Are the mover's other kings safe once the mover's piece on s has left
 * the board?  Only the occupancy changes: the piece attacked none of them. */
static bool safe_without(const Board *b, Square s)
{
    Bitboard occ = board_occupied(b) & ~BB(s), kings = board_kings(b, b->side) & ~BB(s);
    while (kings)
        if (board_attackers(b, bb_pop(&kings), (Color)!b->side, occ)) return false;
    return true;
}

/* Where an arrival may land by its kind alone: empty squares, pawns not on
 * the first or last rank, bishops on the colour they left. */
static Bitboard arrival_squares(const Board *b, uint8_t code)
{
    Bitboard sq = ~board_occupied(b);
    if (arrival_type(code) == PAWN) sq &= ~(RANK_1 | RANK_8);
    if (arrival_type(code) == BISHOP) sq &= (code & ARRIVAL_DARK) ? DARK_SQUARES : ~DARK_SQUARES;
    return sq;
}

bool gifford_placement_legal(const Board *b, uint8_t code, Square q)
{
    if (!(arrival_squares(b, code) & BB(q))) return false;
    Board copy = *b;
    board_put(&copy, q, make_piece(b->side, arrival_type(code)));
    return !board_in_check(&copy, b->side);
}

/* The squares where a king may be added for the side to move: a king
 * added on q is attacked iff q is, and adding a piece can only shield the
 * side's other kings, so when none of them is in check the legal squares
 * are the empty squares the enemy does not attack. */
static Bitboard king_landing_squares(const Board *b)
{
    Bitboard empty = ~board_occupied(b);
    if (!board_in_check(b, b->side)) return empty & ~board_attacked_squares(b, (Color)!b->side);
    Bitboard ok = 0;
    while (empty) {
        Square q = bb_pop(&empty);
        if (gifford_placement_legal(b, KING, q)) ok |= BB(q);
    }
    return ok;
}

/* The squares where the arrival may legally land. */
static Bitboard placement_squares(const Board *b, uint8_t code)
{
    if (arrival_type(code) == KING) return king_landing_squares(b);
    Bitboard sq = arrival_squares(b, code);
    /* A piece that is not a king only blocks lines: when no king is in
     * check every square its kind allows is legal. */
    if (!board_in_check(b, b->side)) return sq;
    Bitboard ok = 0;
    while (sq) {
        Square q = bb_pop(&sq);
        if (gifford_placement_legal(b, code, q)) ok |= BB(q);
    }
    return ok;
}

Square gifford_first_placement(const Board *b, uint8_t code)
{
    Bitboard sq = placement_squares(b, code);
    return sq ? bb_first(sq) : SQ_NONE;
}

static void gen_placements(const Board *b, uint8_t code, MoveList *out)
{
    Bitboard sq = placement_squares(b, code);
    while (sq) movelist_add(out, move_make(SQ_NONE, bb_pop(&sq), MOVE_ARRIVAL, arrival_type(code), 0));
}

int gifford_back_target(const Line *l, int t)
{
    const Board *now = line_board(l);
    int j = now->fullmove - t;
    if (t < 1 || j < 1 || j > line_option(l, GIFFORD_BACK)) return -1;
    int n = line_ancestor(l, 2 * j);
    if (n < 0) return -1;
    const Board *T = &line_node(l, n)->state->board;
    return (T->fullmove == t && T->side == now->side) ? n : -1;
}

/* ---- Action generation -------------------------------------------------- */

static void gen_sends(const Line *l, MoveList *out)
{
    const State *s = line_state(l);
    const Board *b = &s->board;
    Color us = b->side;
    int n = b->fullmove, forward = line_option(l, GIFFORD_FORWARD);
    int free_moves[ARRIVAL_SLOTS], nfree = 0;
    for (int m = n + 1; m <= n + forward; m++)
        if (!gifford_arrival_at(s, forward, us, m)) free_moves[nfree++] = m;
    if (!nfree) return;

    Bitboard men = b->by_color[us] & ~b->by_type[KING] & next_to_kings(b, us);
    Bitboard kings = own_men(b, us) ? board_kings(b, us) : 0;
    Bitboard travellers = men | kings;
    bool many_kings = bb_many(board_kings(b, us));
    while (travellers) {
        Square from = bb_pop(&travellers);
        /* With one king, only a piece on a line to it can expose it. */
        bool may_expose = many_kings || (line_bb(from, bb_first(board_kings(b, us))) != 0);
        if (may_expose && !safe_without(b, from)) continue;
        for (int i = 0; i < nfree; i++)
            movelist_add(out, move_make(from, SQ_NONE, MOVE_SEND_FORWARD, NO_TYPE, (uint32_t)free_moves[i]));
    }
}

static void gen_king_backs(const Line *l, MoveList *out)
{
    const State *s = line_state(l);
    const Board *b = &s->board;
    Color us = b->side;
    if (gifford_cstate(s)->backs_used[us] >= line_option(l, GIFFORD_BACK_TRAVELS) || !own_men(b, us)) return;
    Bitboard kings = board_kings(b, us);
    if (!kings) return;
    for (int j = 1; j <= line_option(l, GIFFORD_BACK); j++) {
        int t = b->fullmove - j;
        int node = gifford_back_target(l, t);
        if (node < 0) break;
        const State *T = line_node(l, node)->state;
        /* The move t of T is reserved for that arrival: no king lands there. */
        if (gifford_due_now(T)) continue;
        Bitboard landing = king_landing_squares(&T->board);
        while (landing) {
            Square q = bb_pop(&landing);
            Bitboard k = kings;
            while (k) movelist_add(out, move_make(bb_pop(&k), q, MOVE_KING_BACK, KING, (uint32_t)t));
        }
    }
}

static bool gifford_generate(const Line *l, MoveList *out)
{
    const State *s = line_state(l);
    const Board *b = &s->board;
    uint8_t due = gifford_due_now(s);
    if (due) {
        int before = out->count;
        gen_placements(b, due, out);
        /* A placeable arrival must be placed; an unplaceable king is lost
         * in time and ends the game; any other unplaceable piece is lost
         * and the player acts as usual. */
        if (out->count > before || arrival_type(due) == KING) return !out->failed;
    }
    if (!gen_legal(b, out)) return false;
    if (board_in_check(b, b->side)) return !out->failed;
    gen_sends(l, out);
    gen_king_backs(l, out);
    return !out->failed;
}

/* ---- Applying an action ------------------------------------------------- */

static int gifford_apply(const Line *l, Move m, State *next)
{
    const State *now = line_state(l);
    int parent = line_current(l);
    Color us = now->board.side;

    if (m.kind == MOVE_KING_BACK) {
        /* The position T the king lands in, with both sides' counts of
         * travels back carried over from the present. */
        parent = gifford_back_target(l, (int)m.arg);
        const State *T = line_node(l, parent)->state;
        memcpy(next, T, state_bytes(T));
        memcpy(gifford_state(next)->backs_used, gifford_cstate(now)->backs_used, sizeof gifford_state(next)->backs_used);
        gifford_state(next)->backs_used[us]++;
        board_put(&next->board, m.to, make_piece(us, KING));
        board_end_turn(&next->board, true);
    } else {
        memcpy(next, now, state_bytes(now));
        Board *b = &next->board;
        GiffordState *gs = gifford_state(next);
        /* Whatever was due now and is not placed by this action is lost. */
        gs->arrival[us][b->fullmove % ARRIVAL_SLOTS] = 0;
        switch (m.kind) {
        case MOVE_SEND_FORWARD:
            gs->arrival[us][m.arg % ARRIVAL_SLOTS] = arrival_code(piece_type(b->squares[m.from]), m.from);
            board_remove(b, m.from);
            board_set_castling(b, castling_after_touch(b->castling, m.from));
            board_end_turn(b, true);
            break;
        case MOVE_ARRIVAL:
            board_put(b, m.to, make_piece(us, m.piece));
            board_end_turn(b, true);
            break;
        default:
            board_make(b, m);
            break;
        }
    }
    next->ext_key = gifford_ext_key(line_options(l), next);
    return parent;
}

/* ---- Check, outcome, repetition ----------------------------------------- */

static bool gifford_in_check(const Line *l)
{
    const Board *b = line_board(l);
    return board_in_check(b, b->side);
}

/* A non-king piece or pawn of colour c on the board or arriving. */
static bool side_has_material(const State *s, int forward, Color c)
{
    if (own_men(&s->board, c)) return true;
    for (int m = gifford_first_pending(&s->board, c); m <= gifford_last_pending(&s->board, c, forward); m++) {
        uint8_t a = gifford_arrival_at(s, forward, c, m);
        if (a && arrival_type(a) != KING) return true;
    }
    return false;
}

/* ---- Time --------------------------------------------------------------- */

/* How many pieces of type KING (kings == true) or of other types colour c
 * has scheduled to arrive. */
static int arrivals_of(const State *s, int forward, Color c, bool kings)
{
    int n = 0;
    for (int m = gifford_first_pending(&s->board, c); m <= gifford_last_pending(&s->board, c, forward); m++) {
        uint8_t a = gifford_arrival_at(s, forward, c, m);
        n += a && (arrival_type(a) == KING) == kings;
    }
    return n;
}

/* Could the kings of `side` alone leave an arriving king of the opponent
 * no square, so that it is lost in time?  Each king takes its square and
 * the eight next to it; the opponent's own men (16 at most, its kings
 * now, arriving and one more for each backward travel it has left) fill
 * others.  Only then can kings win, and only with options or a FEN far
 * from the game's. */
static bool kings_could_shut_out(const Line *l, Color side)
{
    const State *s = line_state(l);
    int forward = line_option(l, GIFFORD_FORWARD);
    Color other = (Color)!side;
    if (!arrivals_of(s, forward, other, true)) return false;
    int covered = 9 * (bb_count(board_kings(&s->board, side)) + arrivals_of(s, forward, side, true));
    int men = own_men(&s->board, other) + arrivals_of(s, forward, other, false);
    int kings = bb_count(board_kings(&s->board, other)) + arrivals_of(s, forward, other, true) +
                line_option(l, GIFFORD_BACK_TRAVELS) - gifford_cstate(s)->backs_used[other];
    return covered + (men > 16 ? men : 16) + kings >= 64;
}

/* Could a king of the opponent of `side` going back (later, or now) bring
 * back a position in which `side` had a man on the board or arriving?
 * With r backward travels left it reaches at most r * `back` moves before
 * the present, along the present timeline. */
static bool material_back_in_reach(const Line *l, Color side)
{
    const State *s = line_state(l);
    Color other = (Color)!side;
    int left = line_option(l, GIFFORD_BACK_TRAVELS) - gifford_cstate(s)->backs_used[other];
    if (left <= 0) return false;
    int earliest = s->board.fullmove - left * line_option(l, GIFFORD_BACK);
    int forward = line_option(l, GIFFORD_FORWARD);
    for (int n = line_node(l, line_current(l))->parent; n >= 0; n = line_node(l, n)->parent) {
        const State *t = line_node(l, n)->state;
        if (t->board.fullmove < earliest) break;
        if (side_has_material(t, forward, side)) return true;
    }
    return false;
}

/* Kings alone never attack an enemy king (a king next to one is attacked
 * itself), and a king needs a man of its side on the board to travel:
 * `side` can win only with a man on the board or arriving, or one that a
 * king going back would bring back (docs/rules/gifford.md, "Time"). */
static bool gifford_can_win(const Line *l, Color side)
{
    return side_has_material(line_state(l), line_option(l, GIFFORD_FORWARD), side) ||
           material_back_in_reach(l, side) || kings_could_shut_out(l, side);
}

static bool gifford_outcome(const Line *l, Outcome *out)
{
    const State *s = line_state(l);
    int count;
    if (!legal_count(l, &count)) return false;
    uint8_t due = gifford_due_now(s);
    if (count == 0 && due && arrival_type(due) == KING) {
        Color side = s->board.side;
        *out = outcome_make(result_loss_for(side), REASON_KING_LOST_IN_TIME, side);
        return true;
    }
    int forward = line_option(l, GIFFORD_FORWARD);
    bool dead = !side_has_material(s, forward, WHITE) && !side_has_material(s, forward, BLACK);
    *out = standard_outcome(l, count, dead);
    return true;
}

static bool gifford_same_position(const State *a, const State *b)
{
    /* The schedules count relative to the present move: slot (n + d) of
     * one against slot (n' + d) of the other.  Slots outside a side's
     * pending moves are always empty, so every slot can be compared. */
    if (!same_pieces_side_castling(&a->board, &b->board)) return false;
    Square ea = gifford_ep_capturable(a) ? a->board.ep : SQ_NONE, eb = gifford_ep_capturable(b) ? b->board.ep : SQ_NONE;
    if (ea != eb) return false;
    const GiffordState *ga = gifford_cstate(a), *gb = gifford_cstate(b);
    if (memcmp(ga->backs_used, gb->backs_used, sizeof ga->backs_used)) return false;
    int da = a->board.fullmove, db = b->board.fullmove;
    for (Color c = WHITE; c <= BLACK; c++)
        for (int d = 0; d < ARRIVAL_SLOTS; d++)
            if (ga->arrival[c][(da + d) % ARRIVAL_SLOTS] != gb->arrival[c][(db + d) % ARRIVAL_SLOTS]) return false;
    return true;
}

/* ---- Notes and the play screen ------------------------------------------ */

static bool gifford_note(const Line *l, Move m, Text *out)
{
    const State *s = line_state(l);
    uint8_t due = gifford_due_now(s);
    if (!due || m.kind == MOVE_ARRIVAL) return true;
    char label[4];
    arrival_label(due, label);
    text_addf(out, "the %s %s [%s] due at move %d is lost in time", color_name(s->board.side),
              piece_type_name(arrival_type(due)), label, s->board.fullmove);
    return !out->failed;
}

static void describe_schedules(const Line *l, Text *out)
{
    const State *s = line_state(l);
    int forward = line_option(l, GIFFORD_FORWARD);
    for (Color c = WHITE; c <= BLACK; c++) {
        text_addf(out, "%s arrivals:", c == WHITE ? "White" : "Black");
        bool any = false;
        for (int m = gifford_first_pending(&s->board, c); m <= gifford_last_pending(&s->board, c, forward); m++) {
            uint8_t a = gifford_arrival_at(s, forward, c, m);
            if (!a) continue;
            char label[4];
            arrival_label(a, label);
            text_addf(out, "%s [%s] at move %d", any ? "," : "", label, m);
            any = true;
        }
        if (!any) text_add(out, " none");
        text_addf(out, "; backward travels left: %d\n",
                  line_option(l, GIFFORD_BACK_TRAVELS) - gifford_cstate(s)->backs_used[c]);
    }
}

static bool gifford_describe(const Line *l, Text *out)
{
    describe_schedules(l, out);
    const State *s = line_state(l);
    uint8_t due = gifford_due_now(s);
    if (!due) return !out->failed;
    char label[4];
    arrival_label(due, label);
    const char *who = color_name(s->board.side);
    const char *what = piece_type_name(arrival_type(due));
    Bitboard squares = placement_squares(&s->board, due);
    if (squares) {
        text_addf(out, "The %s %s [%s] arrives now and must be placed on one of:", who, what, label);
        char first[3];
        square_name(bb_first(squares), first);
        while (squares) {
            char sq[3];
            square_name(bb_pop(&squares), sq);
            text_addf(out, " %s", sq);
        }
        text_addf(out, "  (type e.g. %c@%s)\n", piece_letter(arrival_type(due)), first);
    } else if (arrival_type(due) == KING) {
        text_addf(out, "The %s king arriving now has no legal square: it is lost in time.\n", who);
    } else {
        text_addf(out, "The %s %s [%s] arriving now has no legal square: it is lost in time; play another action.\n",
                  who, what, label);
    }
    return !out->failed;
}

/* Positions worth trying (Variant.samples): the bench's, with their
 * depths, then starts for the fuzz harnesses. */
static const SamplePosition GIFFORD_SAMPLES[] = {
    { NULL, NULL, NULL, 9 },
    { NULL, "c2c4 e8>3 f2>7 e7e6 f1>10 K@e7 e1>13 f7>11 b2b3 e7<4@a5 h2h3 a5>15", NULL, 9 },
    /* History: a king can go back to moves 1 to 3. */
    { NULL, "e4 e5 Nf3 Nc6 Bc4 Bc5", NULL, 0 },
    /* Pawns sent to move 3 by both sides: White's arrives now. */
    { NULL, "d2>3 d7>3 e4 e5", NULL, 0 },
    /* Pending arrivals from a FEN: White's pawn now and at 8, Black's dark bishop at 5. */
    { "rnbqkbnr/pppppppp/8/8/8/8/PPP2PPP/RNBQKBNR w KQkq - 0 3 P3,P8/Bb5 0/0", NULL, NULL, 0 },
    /* White's only king arrives now. */
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 3 K3/- 0/0", NULL, NULL, 0 },
    /* Two white kings, one travel back already made by White. */
    { "r3k2r/pppq1ppp/8/8/8/8/PPP2PPP/R3K1KR w kq - 0 10 -/N12 1/0", NULL, NULL, 0 },
    /* The sample game's first timeline, up to its king going back (Black to move). */
    { NULL, "d2>8 Bf8>5 e2>5 f7>3 Bc4 P@e6 Nh3 d5 P@f7+ Kxf7 Bd3", NULL, 0 },
    /* The sample game into its third timeline. */
    { NULL,
      "d2>8 Bf8>5 e2>5 f7>3 Bc4 P@e6 Nh3 d5 P@f7+ Kxf7 Bd3 Kf7<2@f8 Bc4 Nf6 Nh3 e6 P@g5 B@a5+ b4 Bxb4+ "
      "c3 Bxc3+ P@d2 Bxa1 Ke1<4@f1 a6 P@e2 B@a5+ c3 h6",
      NULL, 0 },
    /* Black to move at the root, short travels forward, no travel back. */
    { "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 P3/N1 0/0", NULL, "forward=3 back-travels=0", 0 },
    /* Bishops sent to move 3 by both sides: White's arrives now. */
    { NULL, "e4 e5 Bf1>3 Bf8>3", NULL, 0 },
    /* A pawn due while White is in a knight's check: it cannot land usefully. */
    { "4k3/8/8/8/8/3n4/8/4K3 w - - 0 5 P5/- 0/0", NULL, NULL, 0 },
    /* The sample game's first timeline with its king gone back: two timelines. */
    { NULL, "d2>8 Bf8>5 e2>5 f7>3 Bc4 P@e6 Nh3 d5 P@f7+ Kxf7 Bd3 Kf7<2@f8", NULL, 0 },
};

const Variant VARIANT_GIFFORD = {
    .name = "gifford",
    .title = "Time Travel Chess (Gifford)",
    .evaluator = &EVAL_GIFFORD,
    .start_fen = STARTPOS_FEN " -/- 0/0",
    .notation_help =
        "Time travel (human form / coordinate form / Gifford's own):\n"
        "  Bf1>9  / f1>9  / Bf1// to 9     send the piece on f1 (next to your king) to move 9\n"
        "  Ke1>12 / e1>12 / K(e1)// to 12  send a king forward to move 12\n"
        "  B@c4   / B@c4  / [Bw] c4        place the piece arriving now (it must be placed)\n"
        "  Ke8<2@f8 / e8<2@f8              king on e8 back to move 2, placed on f8 (new timeline)\n"
        "On the command line write Gifford's own forms without spaces (d2//to8, [P]e6).\n",
    .options = GIFFORD_OPTIONS,
    .option_count = GIFFORD_OPTION_COUNT,
    .ext_size = sizeof(GiffordState),
    .from_fen = gifford_from_fen,
    .to_fen = gifford_to_fen,
    .generate = gifford_generate,
    .apply = gifford_apply,
    .in_check = gifford_in_check,
    .outcome = gifford_outcome,
    .can_win = gifford_can_win,
    .ext_key = gifford_ext_key,
    .same_position = gifford_same_position,
    .parse = gifford_parse,
    .format_coord = gifford_format_coord,
    .format_human = gifford_format_human,
    .format_sheet = gifford_format_sheet,
    .note = gifford_note,
    .describe = gifford_describe,
    .sheet_departure = gifford_sheet_departure,
    .sheet_join = gifford_sheet_join,
    .samples = GIFFORD_SAMPLES,
    .sample_count = sizeof GIFFORD_SAMPLES / sizeof GIFFORD_SAMPLES[0],
    .fen_parts = GIFFORD_FEN_PARTS,
};
