/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Chessgi notation: drops (N@d5), special travels (f3>12, Nf3>12),
 * traveller drops ([N]@e5) and general travels (<1.4>Nf3, the position
 * named by timeline and ply, then the move made there), besides chess
 * moves in coordinate form and SAN; writing each, and saying in words
 * which rule forbids an action that is refused.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "chessgi.h"
#include "rules.h"
#include "movegen.h"
#include "notation.h"

/* Actions are short: anything longer than this is refused as no action. */
enum { ACTION_MAX = 64 };

/* ---- Writing ------------------------------------------------------------ */

static void base_coord(Move m, Text *out)
{
    char sq[3];
    switch (m.kind) {
    case MOVE_DROP:
        square_name(m.to, sq);
        text_addf(out, "%c@%s", piece_letter(m.piece), sq);
        break;
    case MOVE_ARRIVAL:
        square_name(m.to, sq);
        text_addf(out, "[%c]@%s", piece_letter(m.piece), sq);
        break;
    case MOVE_SEND_FORWARD:
        square_name(m.from, sq);
        text_addf(out, "%s>%u", sq, (unsigned)m.arg);
        break;
    default:
        move_to_coord(m, out);
        break;
    }
}

static void node_prefix(const Line *l, int node, Text *out)
{
    int t, ply;
    chessgi_node_name(l, node, &t, &ply);
    text_addf(out, "<%d.%d>", t, ply);
}

/* The move a general travel makes, as an action of the position it lands in. */
static Move landing_move(Move m)
{
    m.flags = 0;
    m.arg = 0;
    return m;
}

bool chessgi_format_coord(const Line *l, Move m, Text *out)
{
    if (m.flags & MOVE_AT_NODE) {
        node_prefix(l, (int)m.arg, out);
        m = landing_move(m);
    }
    base_coord(m, out);
    return !out->failed;
}

/* The human form of an action of the base game, a special travel or a
 * traveller's drop at position s; `legal` disambiguates SAN. */
static void base_human(const State *s, const MoveList *legal, Move m, char mark, Text *out)
{
    const Board *b = &s->board;
    char sq[3];
    if (m.kind == MOVE_SEND_FORWARD) {
        PieceType t = piece_type(b->squares[m.from]);
        square_name(m.from, sq);
        if (t != PAWN) text_add_char(out, piece_letter(t));
        text_addf(out, "%s>%u", sq, (unsigned)m.arg);
        if (mark) text_add_char(out, mark);
    } else if (m.kind == MOVE_DROP || m.kind == MOVE_ARRIVAL) {
        base_coord(m, out);
        if (mark) text_add_char(out, mark);
    } else {
        san_format(b, legal, m, mark, out);
    }
}

bool chessgi_format_human(const Line *l, Move m, Text *out)
{
    char mark;
    if (!line_check_mark(l, m, &mark)) return false;
    MoveList legal;
    movelist_init(&legal);
    bool ok;
    if (m.flags & MOVE_AT_NODE) {
        ChessgiStateBuffer landing;
        chessgi_travel_state(l, (int)m.arg, &landing.state);
        ok = chessgi_generate_base(&landing.state, &legal);
        node_prefix(l, (int)m.arg, out);
        if (ok) base_human(&landing.state, &legal, landing_move(m), mark, out);
    } else {
        ok = line_generate(l, &legal);
        if (ok) base_human(line_state(l), &legal, m, mark, out);
    }
    movelist_free(&legal);
    return ok && !out->failed;
}

/*
 * Score sheets, one per timeline.  A general travel ends the sheet it
 * leaves with "<1.4> (move 3)": the position it goes to and that
 * position's move; the sheet of the new timeline repeats the moves up to
 * that position and goes on with the move made there.
 */
bool chessgi_format_sheet(const Line *l, Move m, int part, Text *out)
{
    if (m.kind == MOVE_NULL) return true;
    if (part == SHEET_DEPARTURE) {
        node_prefix(l, (int)m.arg, out);
        text_addf(out, " (move %u)", (unsigned)line_node(l, (int)m.arg)->state->board.fullmove);
        return !out->failed;
    }
    if (part == SHEET_ARRIVAL) {
        /* The line stands at the position travelled to; its board is the
         * board the move is made on, and its chess moves tell SAN apart. */
        MoveList legal;
        movelist_init(&legal);
        bool ok = gen_legal(line_board(l), &legal);
        if (ok) base_human(line_state(l), &legal, landing_move(m), 0, out);
        movelist_free(&legal);
        return ok && !out->failed;
    }
    return chessgi_format_human(l, m, out);
}

/* ---- Reading ------------------------------------------------------------ */

/* "<T.P>": the node it names, or -1 (with the reason) if the text starts
 * with '<' but names none; -2 if the text does not start with '<'. */
static int read_node(const Line *l, const char **p, Text *err)
{
    const char *s = *p;
    if (*s != '<') return -2;
    s++;
    int t, ply;
    if (!notation_read_number(&s, &t) || *s++ != '.' || !notation_read_number(&s, &ply) || *s++ != '>') {
        text_fail(err, "a general travel is written <T.P> then the move, e.g. <1.4>Nf3 (timeline 1, ply 4)");
        return -1;
    }
    int node = chessgi_node_named(l, t, ply);
    if (node < 0) {
        int last = 0;
        for (int i = 0; i <= line_current(l); i++) last = line_node(l, i)->timelines > last ? line_node(l, i)->timelines : last;
        if (t < 1 || t > last) text_fail(err, "there is no timeline %d (this game has %d)", t, last);
        else text_fail(err, "timeline %d has no position %d (its positions are numbered from 0, the start)", t, ply);
        return -1;
    }
    *p = s;
    return node;
}

/* Reads a drop, a traveller's drop or a special travel; MOVE_NULL in
 * out->kind if the text is none of them. */
static bool read_special(const char *s, Move *out)
{
    const char *p = s;
    out->kind = MOVE_NULL;
    bool bracket = *p == '[';
    if (bracket) p++;
    char letter = *p;
    PieceType t = NO_TYPE;
    if (letter && strchr("PNBRQKpnbrqk", letter) && (bracket ? p[1] == ']' : p[1] == '@')) {
        t = piece_type_from_letter(letter);
        p++;
        if (bracket) p++;
    }
    if (*p == '@') {
        /* "@d5" alone is a pawn drop, as crazyhouse players write it. */
        Square to = square_parse(p + 1);
        if (to == SQ_NONE || p[3]) return false;
        if (t == NO_TYPE && bracket) return false;
        *out = move_make(SQ_NONE, to, bracket ? MOVE_ARRIVAL : MOVE_DROP, t == NO_TYPE ? PAWN : t, 0);
        return true;
    }
    /* A special travel: "f3>12", "Nf3>12". */
    p = s;
    notation_read_piece(&p);
    Square from = square_parse(p);
    if (from == SQ_NONE || p[2] != '>') return false;
    p += 3;
    int due;
    if (!notation_read_number(&p, &due) || *p) return false;
    *out = move_make(from, SQ_NONE, MOVE_SEND_FORWARD, NO_TYPE, (uint32_t)due);
    return true;
}

/* The piece letter a special travel names, if any, must be the piece's. */
static bool named_piece_ok(const Board *b, const char *s, Move m, Text *err)
{
    PieceType named = piece_type_from_letter(*s);
    if (m.kind != MOVE_SEND_FORWARD || !isupper((unsigned char)*s) || named == NO_TYPE) return true;
    Piece there = b->squares[m.from];
    if (there == NO_PIECE || piece_type(there) == named) return true;
    char sq[3];
    square_name(m.from, sq);
    return text_fail(err, "the piece on %s is a %s, not a %s", sq, piece_type_name(piece_type(there)),
                     piece_type_name(named));
}

/* Reads an action of the base game or a traveller's drop at position s
 * (never a time travel) from the moves `legal` allows there; on failure
 * explains. */
static bool parse_landing(const State *s, const MoveList *legal, const char *text, Move *out, Text *err);

static bool accept(const Line *l, Move m, Move *out, Text *err)
{
    return accept_if_legal(l, m, chessgi_explain, out, err);
}

static bool parse_general_travel(const Line *l, int node, const char *rest, Move *out, Text *err)
{
    /* The rules of the travel itself first, then the move made there. */
    Move probe = move_make(SQ_NONE, SQ_NONE, MOVE_NULL, NO_TYPE, (uint32_t)node);
    probe.flags = MOVE_AT_NODE;
    Text why = TEXT_INIT;
    chessgi_explain(l, probe, &why);
    if (why.len) {
        text_fail(err, "%s", text_str(&why));
        text_free(&why);
        return false;
    }
    text_free(&why);
    ChessgiStateBuffer landing;
    chessgi_travel_state(l, node, &landing.state);
    MoveList legal;
    if (!*rest) return text_fail(err, "a general travel needs the move made there, e.g. <1.4>Nf3");
    movelist_init(&legal);
    if (!chessgi_generate_base(&landing.state, &legal)) {
        movelist_free(&legal);
        return text_fail(err, "out of memory");
    }
    Move m;
    bool ok = parse_landing(&landing.state, &legal, rest, &m, err);
    movelist_free(&legal);
    if (!ok) return false;
    m.flags = MOVE_AT_NODE;
    m.arg = (uint32_t)node;
    return accept(l, m, out, err);
}

bool chessgi_parse(const Line *l, const char *text, Move *out, Text *err)
{
    char s[ACTION_MAX];
    if (strlen(text) >= ACTION_MAX || !notation_strip(text, s, sizeof s)) return text_fail(err, "'%s' is not an action", text);
    const char *p = s;
    int node = read_node(l, &p, err);
    if (node == -1) return false;
    if (node >= 0) return parse_general_travel(l, node, p, out, err);
    Move m;
    if (read_special(s, &m) && m.kind != MOVE_NULL) {
        if (!named_piece_ok(line_board(l), s, m, err)) return false;
        return accept(l, m, out, err);
    }
    MoveList legal;
    if (!legal_actions(l, &legal, err)) return false;
    const ChessgiTraveller *due = chessgi_due_now(line_state(l));
    bool ok;
    if (due && due->type == KING && legal.count) {
        ok = text_fail(err, "the king sent to move %d must be dropped now (e.g. [K]@%c%c)", due->due,
                       'a' + square_file(legal.moves[0].to), '1' + square_rank(legal.moves[0].to));
    } else {
        ok = chess_parse_move(line_board(l), &legal, s, out, err);
    }
    movelist_free(&legal);
    return ok;
}

static bool parse_landing(const State *s, const MoveList *legal, const char *text, Move *out, Text *err)
{
    Move m;
    if (read_special(text, &m) && m.kind != MOVE_NULL) {
        if (m.kind == MOVE_SEND_FORWARD)
            return text_fail(err, "a general travel lands with a move, a drop or a traveller's drop, not another "
                                  "time travel");
        if (movelist_contains(legal, m)) {
            *out = m;
            return true;
        }
        Text why = TEXT_INIT;
        chessgi_explain_landing(s, m, &why);
        text_fail(err, "%s", why.len ? text_str(&why) : "that action is not legal there");
        text_free(&why);
        return false;
    }
    const ChessgiTraveller *due = chessgi_due_now(s);
    if (due && due->type == KING)
        return text_fail(err, "the king sent to move %d is due there and must be dropped as the move made there",
                         due->due);
    return chess_parse_move(&s->board, legal, text, out, err);
}

/* ---- Saying why --------------------------------------------------------- */

static void explain_drop(const State *s, Move m, Text *err)
{
    const Board *b = &s->board;
    const ChessgiState *gs = chessgi_cstate(s);
    Color us = b->side;
    const ChessgiTraveller *due = chessgi_due_now(s);
    const char *what = piece_type_name(m.piece);
    char sq[3];
    square_name(m.to, sq);
    if (due && due->type == KING && !(m.kind == MOVE_ARRIVAL && m.piece == KING)) {
        text_fail(err, "the king sent to move %d must be dropped now", due->due);
        return;
    }
    if (m.kind == MOVE_DROP && (m.piece == KING || !gs->pocket[us][m.piece])) {
        for (int i = 0; i < gs->travellers[us]; i++)
            if (gs->traveller[us][i].type == m.piece) {
                text_fail(err, "you have no %s in your pocket to drop (your %s sent to move %u is a traveller: it is "
                               "dropped at its move, as [%c]@%s)",
                          what, what, gs->traveller[us][i].due, piece_letter(m.piece), sq);
                return;
            }
        text_fail(err, "you have no %s in your pocket", what);
        return;
    }
    if (m.kind == MOVE_ARRIVAL && (!due || due->type != m.piece)) {
        for (int i = 0; i < gs->travellers[us]; i++) {
            const ChessgiTraveller *t = &gs->traveller[us][i];
            if (t->type != m.piece) continue;
            if (t->due > b->fullmove)
                text_fail(err, "your %s is due at move %u: a traveller cannot be dropped before its move", what, t->due);
            else
                text_fail(err, "your %s was due at move %u, which this timeline has passed: it stays in your pocket",
                          what, t->due);
            return;
        }
        if (due) text_fail(err, "the traveller due now is your %s, not a %s", piece_type_name(due->type), what);
        else text_fail(err, "you have no %s travelling in time", what);
        return;
    }
    if (b->squares[m.to] != NO_PIECE) {
        text_fail(err, "%s is not empty: a piece is dropped on an empty square", sq);
        return;
    }
    if (m.piece == PAWN && (BB(m.to) & (us == WHITE ? RANK_8 : RANK_1))) {
        text_fail(err, "a pawn may not be dropped on the last rank");
        return;
    }
    if (board_in_check(b, us)) text_fail(err, "you are in check, and a %s on %s does not stop it", what, sq);
    else text_fail(err, "a %s on %s would be in check", what, sq);
}

void chessgi_explain_landing(const State *s, Move m, Text *err)
{
    if (m.kind == MOVE_DROP || m.kind == MOVE_ARRIVAL) explain_drop(s, m, err);
}

static void explain_send(const Line *l, Move m, Text *err)
{
    const State *s = line_state(l);
    const Board *b = &s->board;
    Color us = b->side;
    int n = b->fullmove;
    char sq[3];
    square_name(m.from, sq);
    Piece p = b->squares[m.from];
    if (p == NO_PIECE || piece_color(p) != us) {
        text_fail(err, "you have no piece on %s to send into the future", sq);
        return;
    }
    PieceType t = piece_type(p);
    int capacity = line_option(l, CHESSGI_CAPACITY);
    int limit = t == KING ? line_option(l, CHESSGI_KING_FORWARD) : line_option(l, CHESSGI_FORWARD);
    int clash = chessgi_traveller_at(s, us, (int)m.arg);
    if (chessgi_pocket_total(s, us) >= capacity)
        text_fail(err, "your pocket is full (%d pieces): a special travel needs room in it", capacity);
    else if ((int)m.arg <= n)
        text_fail(err, "a piece travels into the future: pick a move after %d", n);
    else if ((int)m.arg > n + limit)
        text_fail(err, "a %s travels at most %d moves forward (to move %d at the latest)", t == KING ? "king" : "piece",
                  limit, n + limit);
    else if (clash >= 0)
        text_fail(err, "your %s already returns at move %u: one traveller per move",
                  piece_type_name(chessgi_cstate(s)->traveller[us][clash].type), m.arg);
    else
        text_fail(err, "sending the %s on %s away would leave your king in check", piece_type_name(t), sq);
}

static void explain_general(const Line *l, Move m, Text *err)
{
    const State *s = line_state(l);
    Color us = s->board.side;
    int node = (int)m.arg;
    if (chessgi_pocket_total(s, us) == 0) {
        text_fail(err, "a general travel needs a piece in your pocket, and yours is empty");
        return;
    }
    if (node == line_current(l)) {
        text_fail(err, "that is the present position: a general travel goes to another one");
        return;
    }
    const Board *there = &line_node(l, node)->state->board;
    if (there->side != us) {
        text_fail(err, "%s was to move there: you travel only to a position where you (%s) were to move",
                  there->side == WHITE ? "White" : "Black", color_name(us));
        return;
    }
    ChessgiStateBuffer landing;
    chessgi_travel_state(l, node, &landing.state);
    if (!chessgi_travel_keeps_king(&landing.state, us)) {
        text_fail(err, "a general travel may not leave you without a king (none stands there, and none of yours is "
                       "travelling)");
        return;
    }
    /* A probe (no move yet) stops here: the travel itself is allowed. */
    if (m.kind == MOVE_NULL) return;
    chessgi_explain_landing(&landing.state, landing_move(m), err);
    if (!err->len) text_fail(err, "that move is not legal in the position travelled to");
}

void chessgi_explain(const Line *l, Move m, Text *err)
{
    const State *s = line_state(l);
    bool travel = (m.flags & MOVE_AT_NODE) || m.kind == MOVE_SEND_FORWARD;
    char buf[160];
    const char *barred = travel ? chessgi_travel_barred(l, buf, sizeof buf) : NULL;
    if (barred) {
        text_fail(err, "%s", barred);
        return;
    }
    if (m.flags & MOVE_AT_NODE) {
        explain_general(l, m, err);
        return;
    }
    if (m.kind == MOVE_SEND_FORWARD) {
        explain_send(l, m, err);
        return;
    }
    if (m.kind == MOVE_DROP || m.kind == MOVE_ARRIVAL) {
        explain_drop(s, m, err);
        return;
    }
    text_fail(err, "that action is not legal here");
}

/* ---- Score sheets ------------------------------------------------------- */

/* "<1.4> (move 3)": the departure of a general travel. */
bool chessgi_sheet_departure(const char *cell, int *move)
{
    const char *p = cell;
    int t, ply;
    if (*p++ != '<' || !notation_read_number(&p, &t) || *p++ != '.' || !notation_read_number(&p, &ply) || *p++ != '>') return false;
    while (*p == ' ') p++;
    if (strncmp(p, "(move", 5)) return false;
    p += 5;
    while (*p == ' ') p++;
    if (!notation_read_number(&p, move) || *p++ != ')') return false;
    while (*p == ' ') p++;
    return !*p;
}

bool chessgi_sheet_join(const Line *l, const char *departure, const char *arrival, Move *out, Text *err)
{
    size_t prefix = strcspn(departure, ">") + 1;
    char text[ACTION_MAX];
    if (prefix + strlen(arrival) >= sizeof text) return text_fail(err, "'%s' is not an action", arrival);
    snprintf(text, sizeof text, "%.*s%s", (int)prefix, departure, arrival);
    return chessgi_parse(l, text, out, err);
}
