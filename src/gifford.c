/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Gifford's Time Travel Chess (seed 000; rules as decided in
 * docs/rules/gifford.md).  Besides chess moves a player may send a piece
 * next to one of his kings up to ten moves into the future, send a king
 * there, or send a king up to five moves back, which restarts the game
 * from that earlier position in a new timeline.  Arrivals from the future
 * must be placed at their move; a king that cannot be placed is lost in
 * time and its side loses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "chess_rules.h"
#include "gifford.h"
#include "ttchess/movegen.h"

const GiffordOptions GIFFORD_OPTIONS = {
    .forward_limit = 10,
    .back_limit = 5,
    .back_travels = 2,
};

_Static_assert(sizeof(GiffordState) <= STATE_EXT_BYTES, "Gifford state must fit in State.ext");

/* ---- Schedules ---------------------------------------------------------- */

int gifford_first_pending(const Board *b, Color c)
{
    /* White has already acted at move n when Black is to move. */
    return (c == WHITE && b->side == BLACK) ? b->fullmove + 1 : b->fullmove;
}

uint8_t gifford_arrival_at(const State *s, Color c, int m)
{
    int first = gifford_first_pending(&s->board, c);
    if (m < first || m > first + GIFFORD_OPTIONS.forward_limit) return 0;
    return gifford_cstate(s)->arrival[c][m % ARRIVAL_SLOTS];
}

uint8_t gifford_due_now(const State *s)
{
    return gifford_arrival_at(s, s->board.side, s->board.fullmove);
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

/* Are the mover's kings safe once the piece on s has left the board? */
static bool safe_without(const Board *b, Square s)
{
    Board copy = *b;
    board_remove(&copy, s);
    return !board_in_check(&copy, b->side);
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

int gifford_back_target(const Game *g, int t)
{
    const Board *now = game_board(g);
    int j = now->fullmove - t;
    if (t < 1 || j < 1 || j > GIFFORD_OPTIONS.back_limit) return -1;
    int n = game_ancestor(g, 2 * j);
    if (n < 0) return -1;
    const Board *T = &g->nodes[n].state.board;
    return (T->fullmove == t && T->side == now->side) ? n : -1;
}

/* ---- Action generation -------------------------------------------------- */

static void gen_sends(const State *s, MoveList *out)
{
    const Board *b = &s->board;
    Color us = b->side;
    int n = b->fullmove;
    int free_moves[16], nfree = 0;
    for (int m = n + 1; m <= n + GIFFORD_OPTIONS.forward_limit; m++)
        if (!gifford_arrival_at(s, us, m)) free_moves[nfree++] = m;
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
            movelist_add(out, move_make(from, SQ_NONE, MOVE_SEND_FORWARD, 0, (uint32_t)free_moves[i]));
    }
}

static void gen_king_backs(const Game *g, MoveList *out)
{
    const State *s = game_state(g);
    const Board *b = &s->board;
    Color us = b->side;
    if (gifford_cstate(s)->backs_used[us] >= GIFFORD_OPTIONS.back_travels || !own_men(b, us)) return;
    Bitboard kings = board_kings(b, us);
    if (!kings) return;
    for (int j = 1; j <= GIFFORD_OPTIONS.back_limit; j++) {
        int t = b->fullmove - j;
        int node = gifford_back_target(g, t);
        if (node < 0) break;
        const State *T = &g->nodes[node].state;
        /* The move t of T is reserved for that arrival: no king lands there. */
        if (gifford_due_now(T)) continue;
        Bitboard landing = king_landing_squares(&T->board);
        while (landing) {
            Square q = bb_pop(&landing);
            Bitboard k = kings;
            while (k)
                movelist_add(out, move_make(bb_pop(&k), q, MOVE_KING_BACK, KING, (uint32_t)t));
        }
    }
}

static void gifford_generate(const Game *g, MoveList *out)
{
    const State *s = game_state(g);
    const Board *b = &s->board;
    uint8_t due = gifford_due_now(s);
    if (due) {
        int before = out->count;
        gen_placements(b, due, out);
        /* A placeable arrival must be placed; an unplaceable king is lost
         * in time and ends the game; any other unplaceable piece is lost
         * and the player acts as usual. */
        if (out->count > before || arrival_type(due) == KING) return;
    }
    gen_legal(b, out);
    if (board_in_check(b, b->side)) return;
    gen_sends(s, out);
    gen_king_backs(g, out);
}

/* ---- Applying an action ------------------------------------------------- */

static void end_turn(Board *b)
{
    b->ep = SQ_NONE;
    b->halfmove = 0;
    if (b->side == BLACK) b->fullmove++;
    b->side = (Color)!b->side;
}

static int gifford_apply(const Game *g, Move m, State *next)
{
    const State *now = game_state(g);
    memcpy(next, now, offsetof(State, ext) + sizeof(GiffordState));
    Board *b = &next->board;
    GiffordState *gs = gifford_state(next);
    Color us = b->side;
    int n = b->fullmove;

    if (m.kind == MOVE_KING_BACK) {
        int node = gifford_back_target(g, (int)m.arg);
        const State *T = &g->nodes[node].state;
        uint8_t used[2] = { gs->backs_used[0], gs->backs_used[1] };
        memcpy(next, T, offsetof(State, ext) + sizeof(GiffordState));
        gs->backs_used[0] = used[0];
        gs->backs_used[1] = used[1];
        gs->backs_used[us]++;
        board_put(b, m.to, make_piece(us, KING));
        end_turn(b);
        return node;
    }

    /* Whatever was due now and is not placed by this action is lost. */
    gs->arrival[us][n % ARRIVAL_SLOTS] = 0;

    switch (m.kind) {
    case MOVE_SEND_FORWARD: {
        PieceType t = piece_type(b->squares[m.from]);
        gs->arrival[us][m.arg % ARRIVAL_SLOTS] = arrival_code(t, m.from);
        board_remove(b, m.from);
        b->castling = castling_after_touch(b->castling, m.from);
        end_turn(b);
        break;
    }
    case MOVE_ARRIVAL:
        board_put(b, m.to, make_piece(us, m.piece));
        end_turn(b);
        break;
    default:
        board_make(b, m);
        break;
    }
    return g->current;
}

/* ---- Outcome ------------------------------------------------------------ */

static bool side_has_material(const State *s, Color c)
{
    if (own_men(&s->board, c)) return true;
    int first = gifford_first_pending(&s->board, c);
    for (int m = first; m <= first + GIFFORD_OPTIONS.forward_limit; m++) {
        uint8_t a = gifford_arrival_at(s, c, m);
        if (a && arrival_type(a) != KING) return true;
    }
    return false;
}

static Outcome gifford_outcome(const Game *g)
{
    const State *s = game_state(g);
    const Board *b = &s->board;
    MoveList *l = malloc(sizeof *l);
    if (!l) return outcome_make(RESULT_NONE, "");
    l->count = 0;
    gifford_generate(g, l);
    int count = l->count;
    free(l);
    uint8_t due = gifford_due_now(s);
    if (count == 0 && due && arrival_type(due) == KING) {
        char reason[64];
        snprintf(reason, sizeof reason, "%s king lost in time", color_name(b->side));
        return outcome_make(b->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, reason);
    }
    Outcome o = chess_board_outcome(g, count);
    if (o.result == RESULT_NONE && !side_has_material(s, WHITE) && !side_has_material(s, BLACK))
        o = outcome_make(RESULT_DRAW, "insufficient material");
    return o;
}

/* Arrivals as (move - present move, piece) pairs, for repetition. */
static void relative_schedule(const State *s, Color c, uint8_t out[11])
{
    int n = s->board.fullmove;
    for (int d = 0; d <= GIFFORD_OPTIONS.forward_limit; d++) out[d] = gifford_arrival_at(s, c, n + d);
}

static bool gifford_same_position(const State *a, const State *b)
{
    if (!chess_same_board_position(&a->board, &b->board)) return false;
    const GiffordState *ga = gifford_cstate(a), *gb = gifford_cstate(b);
    if (memcmp(ga->backs_used, gb->backs_used, sizeof ga->backs_used)) return false;
    for (Color c = WHITE; c <= BLACK; c++) {
        uint8_t ra[11], rb[11];
        relative_schedule(a, c, ra);
        relative_schedule(b, c, rb);
        if (memcmp(ra, rb, sizeof ra)) return false;
    }
    return true;
}

/* ---- FEN ---------------------------------------------------------------- */

/*
 * Gifford FEN: the six fields of FEN, then the arrivals and the backward
 * travels used, e.g. "... w KQkq - 0 2 P5,P8/Bb5 0/1": White has pawns
 * arriving at moves 5 and 8, Black a dark-squared bishop at move 5; White
 * has made no backward travel, Black one.  "-" stands for no arrivals.
 * Both fields may be left out (none, 0/0).
 */
static bool parse_arrivals(State *s, Color c, const char *text, size_t len, char *err, size_t errlen)
{
    GiffordState *gs = gifford_state(s);
    size_t i = 0;
    if (len == 1 && text[0] == '-') return true;
    while (i < len) {
        PieceType t = piece_type_from_letter(text[i]);
        if (t == NO_TYPE || text[i] != piece_letter(t)) {
            snprintf(err, errlen, "bad FEN: arrivals are written like P5,Bw8,K12 (piece letter, move number)");
            return false;
        }
        i++;
        uint8_t code = t;
        if (t == BISHOP) {
            if (i < len && (text[i] == 'b' || text[i] == 'w')) {
                if (text[i] == 'b') code |= ARRIVAL_DARK;
                i++;
            } else {
                snprintf(err, errlen, "bad FEN: an arriving bishop is written Bw (light squares) or Bb (dark)");
                return false;
            }
        }
        int m = 0, digits = 0;
        while (i < len && text[i] >= '0' && text[i] <= '9' && digits < 6) m = m * 10 + (text[i++] - '0'), digits++;
        if (!digits) {
            snprintf(err, errlen, "bad FEN: an arrival needs its move number (e.g. P5)");
            return false;
        }
        int first = gifford_first_pending(&s->board, c);
        if (m < first || m > first + GIFFORD_OPTIONS.forward_limit) {
            snprintf(err, errlen, "bad FEN: %s's arrival at move %d is not between move %d and move %d", color_name(c), m,
                     first, first + GIFFORD_OPTIONS.forward_limit);
            return false;
        }
        if (gs->arrival[c][m % ARRIVAL_SLOTS]) {
            snprintf(err, errlen, "bad FEN: %s has two arrivals at move %d", color_name(c), m);
            return false;
        }
        gs->arrival[c][m % ARRIVAL_SLOTS] = code;
        if (i < len && text[i] == ',') i++;
        else if (i < len) {
            snprintf(err, errlen, "bad FEN: arrivals are separated by commas (P5,Bw8)");
            return false;
        }
    }
    return true;
}

static bool parse_pair(const char *field, const char **slash)
{
    *slash = strchr(field, '/');
    return *slash && !strchr(*slash + 1, '/');
}

static bool gifford_from_fen(State *s, const char *fen, char *err, size_t errlen)
{
    char dummy[8];
    if (!err) err = dummy, errlen = sizeof dummy;
    const char *rest;
    memset(s, 0, sizeof *s);
    if (!board_from_fen(&s->board, fen, &rest, err, errlen)) return false;
    char f1[128] = "", f2[32] = "", f3[8] = "";
    int nf = sscanf(rest, "%127s %31s %7s", f1, f2, f3);
    if (nf == 3) {
        snprintf(err, errlen, "bad FEN: unexpected text after the backward travels ('%s')", f3);
        return false;
    }
    const char *slash;
    if (nf >= 1) {
        if (!parse_pair(f1, &slash)) {
            snprintf(err, errlen, "bad FEN: the arrivals field is WHITE/BLACK, e.g. P5,Bw8/- ('-' for none)");
            return false;
        }
        if (!parse_arrivals(s, WHITE, f1, (size_t)(slash - f1), err, errlen) ||
            !parse_arrivals(s, BLACK, slash + 1, strlen(slash + 1), err, errlen))
            return false;
    }
    if (nf >= 2) {
        int w, bl;
        char end;
        if (sscanf(f2, "%d/%d%c", &w, &bl, &end) != 2 || w < 0 || bl < 0 || w > GIFFORD_OPTIONS.back_travels ||
            bl > GIFFORD_OPTIONS.back_travels) {
            snprintf(err, errlen, "bad FEN: backward travels used are WHITE/BLACK, each 0 to %d (e.g. 0/1)",
                     GIFFORD_OPTIONS.back_travels);
            return false;
        }
        gifford_state(s)->backs_used[WHITE] = (uint8_t)w;
        gifford_state(s)->backs_used[BLACK] = (uint8_t)bl;
    }
    return true;
}

static void write_arrivals(const State *s, Color c, char *buf, size_t len)
{
    size_t n = 0;
    int first = gifford_first_pending(&s->board, c);
    buf[0] = 0;
    for (int m = first; m <= first + GIFFORD_OPTIONS.forward_limit; m++) {
        uint8_t a = gifford_arrival_at(s, c, m);
        if (!a) continue;
        char label[4];
        arrival_label(a, label);
        n += (size_t)snprintf(buf + n, len - n, "%s%s%d", n ? "," : "", label, m);
        if (n >= len) break;
    }
    if (!n) snprintf(buf, len, "-");
}

static void gifford_to_fen(const State *s, char *buf, size_t len)
{
    char board[128], w[64], b[64];
    board_to_fen(&s->board, board, sizeof board);
    write_arrivals(s, WHITE, w, sizeof w);
    write_arrivals(s, BLACK, b, sizeof b);
    snprintf(buf, len, "%s %s/%s %u/%u", board, w, b, gifford_cstate(s)->backs_used[WHITE],
             gifford_cstate(s)->backs_used[BLACK]);
}

/* ---- Notes and the play screen ------------------------------------------ */

static void gifford_note(const Game *g, Move m, char *buf, size_t len)
{
    const State *s = game_state(g);
    uint8_t due = gifford_due_now(s);
    buf[0] = 0;
    if (!due || m.kind == MOVE_ARRIVAL) return;
    char label[4];
    arrival_label(due, label);
    snprintf(buf, len, "the %s %s [%s] due at move %d is lost in time", color_name(s->board.side),
             piece_type_name(arrival_type(due)), label, s->board.fullmove);
}


static void gifford_describe(const Game *g, char *buf, size_t len)
{
    const State *s = game_state(g);
    const GiffordState *gs = gifford_cstate(s);
    size_t n = 0;
    for (Color c = WHITE; c <= BLACK; c++) {
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s arrivals:", c == WHITE ? "White" : "Black");
        int first = gifford_first_pending(&s->board, c), any = 0;
        for (int m = first; m <= first + GIFFORD_OPTIONS.forward_limit; m++) {
            uint8_t a = gifford_arrival_at(s, c, m);
            if (!a) continue;
            char label[4];
            arrival_label(a, label);
            n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s [%s] at move %d", any++ ? "," : "", label, m);
        }
        if (!any) n += (size_t)snprintf(buf + n, n < len ? len - n : 0, " none");
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "; backward travels left: %d\n",
                              GIFFORD_OPTIONS.back_travels - gs->backs_used[c]);
    }
    uint8_t due = gifford_due_now(s);
    if (due && n < len) {
        MoveList *l = malloc(sizeof *l);
        if (!l) return;
        l->count = 0;
        gen_placements(&s->board, due, l);
        char label[4];
        arrival_label(due, label);
        const char *who = color_name(s->board.side);
        const char *what = piece_type_name(arrival_type(due));
        if (l->count) {
            n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "The %s %s [%s] arrives now and must be placed on one of:",
                                  who, what, label);
            for (int i = 0; i < l->count && n < len; i++) {
                char sq[3];
                square_name(l->moves[i].to, sq);
                n += (size_t)snprintf(buf + n, len - n, " %s", sq);
            }
            char first[3];
            square_name(l->moves[0].to, first);
            n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "  (type e.g. %c@%s)\n", piece_letter(arrival_type(due)),
                                  first);
        } else if (arrival_type(due) == KING) {
            snprintf(buf + n, len - n, "The %s king arriving now has no legal square: it is lost in time.\n", who);
        } else {
            snprintf(buf + n, len - n, "The %s %s [%s] arriving now has no legal square: it is lost in time; "
                     "play another action.\n", who, what, label);
        }
        free(l);
    }
}

const Variant VARIANT_GIFFORD = {
    .name = "gifford",
    .title = "Time Travel Chess (Gifford)",
    .start_fen = STARTPOS_FEN " -/- 0/0",
    .notation_help =
        "Time travel (human form / coordinate form / Gifford's own):\n"
        "  Bf1>9  / f1>9  / Bf1// to 9     send the piece on f1 (next to your king) to move 9\n"
        "  Ke1>12 / e1>12 / K(e1)// to 12  send a king forward to move 12\n"
        "  B@c4   / B@c4  / [Bw] c4        place the piece arriving now (it must be placed)\n"
        "  Ke8<2@f8 / e8<2@f8              king on e8 back to move 2, placed on f8 (new timeline)\n",
    .ext_size = sizeof(GiffordState),
    .from_fen = gifford_from_fen,
    .to_fen = gifford_to_fen,
    .generate = gifford_generate,
    .apply = gifford_apply,
    .outcome = gifford_outcome,
    .same_position = gifford_same_position,
    .parse_move = gifford_parse,
    .format_coord = gifford_format_coord,
    .format_human = gifford_format_human,
    .format_sheet = gifford_format_sheet,
    .note = gifford_note,
    .describe = gifford_describe,
};
