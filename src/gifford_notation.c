/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Gifford notation: reading every form the game's players write (the
 * coordinate form, SAN with the time-travel additions, and Gifford's own
 * score-sheet notation), writing each of them, and saying in words which
 * rule forbids an action that is refused.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "gifford.h"
#include "ttchess/movegen.h"
#include "ttchess/notation.h"
#include "ttchess/sheets.h"

/* Writes the reason for a refusal; returns false so that a parser can
 * "return fail(...)". */
__attribute__((format(printf, 3, 4))) static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

/* ---- Reading ------------------------------------------------------------ */

/* The text without spaces and annotations, Gifford's "Back" lower-cased. */
static void canonical(const char *text, char *buf, size_t len)
{
    notation_strip(text, buf, len);
    for (char *p = buf; *p; p++)
        if (!strncmp(p, "Back", 4) || !strncmp(p, "BACK", 4)) memcpy(p, "back", 4);
}

static bool read_square(const char **p, Square *s)
{
    *s = square_parse(*p);
    if (*s == SQ_NONE) return false;
    *p += 2;
    return true;
}

static bool read_number(const char **p, int *n)
{
    int v = 0, digits = 0;
    while (isdigit((unsigned char)**p) && digits < 6) v = v * 10 + (*(*p)++ - '0'), digits++;
    *n = v;
    return digits > 0;
}

/* An optional piece letter; returns NO_TYPE if none. */
static PieceType read_piece(const char **p)
{
    if (**p && strchr("PNBRQK", **p)) return piece_type_from_letter(*(*p)++);
    return NO_TYPE;
}

/* "[X]" or "X@" with X a piece letter and, for a bishop, w or b.  *dark is
 * -1 when no colour was given.  Returns NO_TYPE if the text is not one. */
static PieceType read_arrival_label(const char **p, int *dark, bool *bracketed)
{
    const char *s = *p;
    *bracketed = *s == '[';
    if (*bracketed) s++;
    PieceType t = read_piece(&s);
    if (t == NO_TYPE) return NO_TYPE;
    *dark = -1;
    if (t == BISHOP && (*s == 'w' || *s == 'b') && (*bracketed ? s[1] == ']' : s[1] == '@')) *dark = *s++ == 'b';
    if (*bracketed) {
        if (*s != ']') return NO_TYPE;
        s++;
        if (*s == '@') s++;
    } else {
        if (*s != '@') return NO_TYPE;
        s++;
    }
    *p = s;
    return t;
}

/* Checks a parsed action against the legal ones; explains a refusal. */
static bool accept(Game *g, Move m, Move *out, char *err, size_t errlen)
{
    if (game_is_legal(g, m)) {
        *out = m;
        return true;
    }
    gifford_explain(g, m, err, errlen);
    return false;
}

static bool parse_send(Game *g, const char *s, Move *out, char *err, size_t errlen, bool *matched)
{
    const char *p = s;
    PieceType named = read_piece(&p);
    bool paren = *p == '(';
    if (paren) p++;
    Square from;
    if (!read_square(&p, &from)) return false;
    if (paren && *p++ != ')') return false;
    if (*p == '>') p++;
    else if (!strncmp(p, "//to", 4)) p += 4;
    else return false;
    int m;
    if (!read_number(&p, &m) || *p) return false;
    *matched = true;
    const Board *b = game_board(g);
    Piece there = b->squares[from];
    char sq[3];
    square_name(from, sq);
    if (named != NO_TYPE && there != NO_PIECE && piece_type(there) != named)
        return fail(err, errlen, "the piece on %s is a %s, not a %s", sq, piece_type_name(piece_type(there)), piece_type_name(named));
    return accept(g, move_make(from, SQ_NONE, MOVE_SEND_FORWARD, 0, (uint32_t)m), out, err, errlen);
}

static bool parse_king_back(Game *g, const char *s, Move *out, char *err, size_t errlen, bool *matched)
{
    const char *p = s;
    PieceType named = read_piece(&p);
    Square from, to;
    int t;
    if (!read_square(&p, &from) || *p++ != '<' || !read_number(&p, &t) || *p++ != '@' || !read_square(&p, &to) || *p)
        return false;
    *matched = true;
    if (named != NO_TYPE && named != KING) return fail(err, errlen, "only a king travels back in time");
    return accept(g, move_make(from, to, MOVE_KING_BACK, KING, (uint32_t)t), out, err, errlen);
}

/* "K// Back to 2": only half of the action, the rest is on the next sheet.
 * "K// to 17" without a square sends the side's only king forward. */
static bool parse_king_without_square(Game *g, const char *s, Move *out, char *err, size_t errlen, bool *matched)
{
    const char *p = s;
    if (*p++ != 'K') return false;
    if (*p == '(' && square_parse(p + 1) != SQ_NONE && p[3] == ')') p += 4;
    bool back = !strncmp(p, "//backto", 8);
    if (back) p += 8;
    else if (!strncmp(p, "//to", 4)) p += 4;
    else return false;
    int m;
    if (!read_number(&p, &m) || *p) return false;
    *matched = true;
    const Board *b = game_board(g);
    if (back || m < b->fullmove)
        return fail(err, errlen, "a king going back must also say where it lands: write e.g. Ke8<%d@f8 (king on e8 "
                    "back to move %d, placed on f8)", m, m);
    Bitboard kings = board_kings(b, b->side);
    if (!kings) return fail(err, errlen, "%s has no king on the board", color_name(b->side));
    if (bb_many(kings)) return fail(err, errlen, "%s has several kings: say which one travels, e.g. K(e1)// to %d",
                                    color_name(b->side), m);
    return accept(g, move_make(bb_first(kings), SQ_NONE, MOVE_SEND_FORWARD, 0, (uint32_t)m), out, err, errlen);
}

static bool parse_arrival(Game *g, const char *s, Move *out, char *err, size_t errlen, bool *matched)
{
    const State *st = game_state(g);
    const char *p = s;
    int dark;
    bool bracketed;
    bool ftf = !strncmp(s, "K[FTF]", 6);
    PieceType t;
    if (ftf) {
        p += 6;
        t = KING;
        dark = -1;
        bracketed = true;
    } else {
        t = read_arrival_label(&p, &dark, &bracketed);
        if (t == NO_TYPE) return false;
    }
    *matched = true;
    uint8_t due = gifford_due_now(st);
    Square q;
    const char *who = color_name(st->board.side);
    if (!read_square(&p, &q) || *p) {
        /* "[X]" alone, or "[X]" before another action: the arrival was lost. */
        if (!bracketed || ftf) {
            if (ftf && !*p) return fail(err, errlen, "a king from the future needs its square, e.g. K [FTF] f8");
            if (!*p) return fail(err, errlen, "the arriving piece needs its square, e.g. %c@c4", piece_letter(t));
            return false;
        }
        if (!due || arrival_type(due) != t)
            return fail(err, errlen, "%s has no %s arriving at move %d", who, piece_type_name(t), st->board.fullmove);
        Square q0 = gifford_first_placement(&st->board, due);
        if (q0 != SQ_NONE)
            return fail(err, errlen, "the arriving %s can be placed, so it must be: name its square, e.g. %c@%c%c",
                        piece_type_name(t), piece_letter(t), 'a' + square_file(q0), '1' + square_rank(q0));
        if (!*p)
            return fail(err, errlen, "the arriving %s has no legal square and is lost in time; now play another action",
                       piece_type_name(t));
        return gifford_parse(g, p, out, err, errlen);
    }
    if (ftf && (!due || arrival_type(due) != KING))
        return fail(err, errlen, "a king from the future lands only as part of its travel back: write e.g. Ke8<2@%c%c",
                   'a' + square_file(q), '1' + square_rank(q));
    if (due && dark >= 0 && arrival_type(due) == BISHOP && ((due & ARRIVAL_DARK) != 0) != (dark == 1))
        return fail(err, errlen, "the bishop arriving now travels on %s squares, not %s ones", (due & ARRIVAL_DARK) ? "dark" : "light",
                   dark ? "dark" : "light");
    return accept(g, move_make(SQ_NONE, q, MOVE_ARRIVAL, t, 0), out, err, errlen);
}

/* If an arrival due now rules out every other action, says so (the
 * arrival must be placed, or it is a king lost in time) and returns true. */
static bool arrival_blocks(const State *st, char *err, size_t errlen)
{
    uint8_t due = gifford_due_now(st);
    if (!due) return false;
    const char *who = color_name(st->board.side);
    Square q = gifford_first_placement(&st->board, due);
    if (q != SQ_NONE)
        fail(err, errlen, "%s must place the arriving %s this turn (e.g. %c@%c%c)", who,
             piece_type_name(arrival_type(due)), piece_letter(arrival_type(due)), 'a' + square_file(q),
             '1' + square_rank(q));
    else if (arrival_type(due) == KING)
        fail(err, errlen, "move %d is reserved for the %s king arriving from the past, which has no legal square: "
             "it is lost in time and %s has lost", st->board.fullmove, who, who);
    else
        return false;
    return true;
}

/* A chess move, unless an arrival due now rules it out. */
static bool parse_chess(Game *g, const char *text, Move *out, char *err, size_t errlen)
{
    const State *st = game_state(g);
    if (arrival_blocks(st, err, errlen)) return false;
    MoveList *l = malloc(sizeof *l);
    if (!l) return fail(err, errlen, "out of memory");
    game_generate(g, l);
    bool ok = chess_parse_move(&st->board, l, text, out, err, errlen);
    free(l);
    return ok;
}

bool gifford_parse(Game *g, const char *text, Move *out, char *err, size_t errlen)
{
    char s[64];
    if (strlen(text) > 48) return fail(err, errlen, "'%.20s...' is too long to be an action", text);
    canonical(text, s, sizeof s);
    if (!s[0]) return fail(err, errlen, "'%s' is not an action", text);
    bool matched = false;
    bool ok = parse_king_back(g, s, out, err, errlen, &matched);
    if (!matched) ok = parse_send(g, s, out, err, errlen, &matched);
    if (!matched) ok = parse_king_without_square(g, s, out, err, errlen, &matched);
    if (!matched) ok = parse_arrival(g, s, out, err, errlen, &matched);
    if (matched) return ok;
    return parse_chess(g, text, out, err, errlen);
}

/* ---- Explaining refusals ------------------------------------------------ */

/* The conditions every time travel shares; false after writing which one
 * fails. */
static bool explain_common(const State *st, const char *what, char *err, size_t errlen)
{
    const Board *b = &st->board;
    if (arrival_blocks(st, err, errlen)) return false;
    if (board_in_check(b, b->side)) return fail(err, errlen, "no %s while a %s king is in check", what, color_name(b->side));
    return true;
}

static void explain_send(const Game *g, Move m, char *err, size_t errlen)
{
    const State *st = game_state(g);
    const Board *b = &st->board;
    const char *who = color_name(b->side);
    char sq[3];
    square_name(m.from, sq);
    Piece p = b->squares[m.from];
    int n = b->fullmove, mv = (int)m.arg, lim = GIFFORD_OPTIONS.forward_limit;
    if (p == NO_PIECE) fail(err, errlen, "there is no piece on %s to send forward", sq);
    else if (piece_color(p) != b->side) fail(err, errlen, "the %s on %s is not %s's", piece_type_name(piece_type(p)), sq, who);
    else if (!explain_common(st, "time travel", err, errlen)) return;
    else if (mv <= n) fail(err, errlen, "a piece travels forward to a later move: choose a move from %d to %d", n + 1, n + lim);
    else if (mv > n + lim) fail(err, errlen, "a piece travels at most %d moves forward: choose a move from %d to %d", lim, n + 1, n + lim);
    else if (gifford_arrival_at(st, b->side, mv)) fail(err, errlen, "%s already has an arrival at move %d", who, mv);
    else if (piece_type(p) == KING && !(b->by_color[b->side] & ~b->by_type[KING]))
        fail(err, errlen, "a king travels in time only while %s has a pawn or piece on the board", who);
    else if (piece_type(p) != KING) {
        Bitboard near = 0, k = board_kings(b, b->side);
        while (k) near |= king_attacks(bb_pop(&k));
        if (!(near & BB(m.from))) fail(err, errlen, "%s is not next to a %s king", sq, who);
        else fail(err, errlen, "sending the %s on %s away would leave the %s king in check", piece_type_name(piece_type(p)), sq, who);
    } else {
        fail(err, errlen, "sending this king away would leave another %s king in check", who);
    }
}

static void explain_arrival(const Game *g, Move m, char *err, size_t errlen)
{
    const State *st = game_state(g);
    const Board *b = &st->board;
    const char *who = color_name(b->side);
    uint8_t due = gifford_due_now(st);
    char sq[3];
    square_name(m.to, sq);
    if (!due) {
        fail(err, errlen, "%s has no piece arriving at move %d", who, b->fullmove);
    } else if (arrival_type(due) != m.piece) {
        fail(err, errlen, "the piece arriving now is a %s, not a %s", piece_type_name(arrival_type(due)), piece_type_name(m.piece));
    } else if (b->squares[m.to] != NO_PIECE) {
        fail(err, errlen, "%s is not empty: an arriving piece lands on an empty square", sq);
    } else if (m.piece == PAWN && (square_rank(m.to) == 0 || square_rank(m.to) == 7)) {
        fail(err, errlen, "a pawn cannot arrive on the first or last rank");
    } else if (m.piece == BISHOP && square_is_dark(m.to) != ((due & ARRIVAL_DARK) != 0)) {
        fail(err, errlen, "the bishop must land on a %s square", (due & ARRIVAL_DARK) ? "dark" : "light");
    } else {
        fail(err, errlen, "a %s on %s would leave the %s king in check", piece_type_name(m.piece), sq, who);
    }
}

static void explain_king_back(const Game *g, Move m, char *err, size_t errlen)
{
    const State *st = game_state(g);
    const Board *b = &st->board;
    const char *who = color_name(b->side);
    char from[3], to[3];
    square_name(m.from, from);
    square_name(m.to, to);
    int t = (int)m.arg, n = b->fullmove, lim = GIFFORD_OPTIONS.back_limit;
    if (b->squares[m.from] != make_piece(b->side, KING)) {
        fail(err, errlen, "there is no %s king on %s", who, from);
        return;
    }
    if (!explain_common(st, "time travel", err, errlen)) return;
    if (gifford_cstate(st)->backs_used[b->side] >= GIFFORD_OPTIONS.back_travels)
        fail(err, errlen, "%s has used both backward travels", who);
    else if (!(b->by_color[b->side] & ~b->by_type[KING]))
        fail(err, errlen, "a king travels in time only while %s has a pawn or piece on the board", who);
    else if (t >= n)
        fail(err, errlen, "a king travels back to an earlier move: choose a move from %d to %d", n - lim > 1 ? n - lim : 1, n - 1);
    else if (n - t > lim)
        fail(err, errlen, "a king travels at most %d moves back: choose a move from %d to %d", lim, n - lim > 1 ? n - lim : 1, n - 1);
    else {
        int node = gifford_back_target(g, t);
        if (node < 0) {
            fail(err, errlen, "move %d is not in this game's record", t);
            return;
        }
        const State *T = &g->nodes[node].state;
        if (gifford_due_now(T))
            fail(err, errlen, "%s has an arrival at move %d: that move is reserved for it, so no king can land there", who, t);
        else if (T->board.squares[m.to] != NO_PIECE)
            fail(err, errlen, "%s is not empty at move %d", to, t);
        else
            fail(err, errlen, "a king on %s at move %d would be in check", to, t);
    }
}

void gifford_explain(const Game *g, Move m, char *err, size_t errlen)
{
    switch (m.kind) {
    case MOVE_SEND_FORWARD: explain_send(g, m, err, errlen); break;
    case MOVE_ARRIVAL: explain_arrival(g, m, err, errlen); break;
    case MOVE_KING_BACK: explain_king_back(g, m, err, errlen); break;
    default: fail(err, errlen, "that action is not legal now"); break;
    }
}

/* ---- Writing ------------------------------------------------------------ */

void gifford_format_coord(const Game *g, Move m, char *buf, size_t len)
{
    (void)g;
    char a[3], b[3];
    square_name(m.from, a);
    square_name(m.to, b);
    switch (m.kind) {
    case MOVE_SEND_FORWARD: snprintf(buf, len, "%s>%u", a, (unsigned)m.arg); break;
    case MOVE_ARRIVAL: snprintf(buf, len, "%c@%s", piece_letter(m.piece), b); break;
    case MOVE_KING_BACK: snprintf(buf, len, "%s<%u@%s", a, (unsigned)m.arg, b); break;
    default: move_to_coord(m, buf, len); break;
    }
}

static void san_in_game(Game *g, Move m, char *buf, size_t len)
{
    MoveList *l = malloc(sizeof *l);
    if (!l) {
        move_to_coord(m, buf, len);
        return;
    }
    game_generate(g, l);
    san_format(game_board(g), l, m, game_check_suffix(g, m), buf, len);
    free(l);
}

void gifford_format_human(Game *g, Move m, char *buf, size_t len)
{
    const Board *b = game_board(g);
    char a[3], t[3], suffix[2] = { 0, 0 };
    square_name(m.from, a);
    square_name(m.to, t);
    switch (m.kind) {
    case MOVE_SEND_FORWARD: {
        PieceType pt = piece_type(b->squares[m.from]);
        if (pt == PAWN) snprintf(buf, len, "%s>%u", a, (unsigned)m.arg);
        else snprintf(buf, len, "%c%s>%u", piece_letter(pt), a, (unsigned)m.arg);
        break;
    }
    case MOVE_ARRIVAL:
        suffix[0] = game_check_suffix(g, m);
        snprintf(buf, len, "%c@%s%s", piece_letter(m.piece), t, suffix);
        break;
    case MOVE_KING_BACK: snprintf(buf, len, "K%s<%u@%s", a, (unsigned)m.arg, t); break;
    default: san_in_game(g, m, buf, len); break;
    }
}

void gifford_format_sheet(Game *g, Move m, int part, char *buf, size_t len)
{
    const State *st = game_state(g);
    const Board *b = &st->board;
    char a[3], t[3], label[4], suffix[2] = { 0, 0 };
    square_name(m.from, a);
    square_name(m.to, t);
    if (m.kind == MOVE_NULL) {
        /* No action: the sheet shows an arrival that could not be made. */
        uint8_t due = gifford_due_now(st);
        if (due) arrival_label(due, label);
        snprintf(buf, len, due ? "[%s]" : "", label);
        return;
    }
    if (m.kind == MOVE_KING_BACK) {
        if (part == SHEET_ARRIVAL) snprintf(buf, len, "K [FTF] %s", t);
        else if (bb_many(board_kings(b, b->side))) snprintf(buf, len, "K(%s)// Back to %u", a, (unsigned)m.arg);
        else snprintf(buf, len, "K// Back to %u", (unsigned)m.arg);
        return;
    }
    /* An arrival that is due but cannot be placed is noted before the
     * action played instead: "[Bb] Kxf7". */
    char lost[8] = "";
    uint8_t due = gifford_due_now(st);
    if (due && m.kind != MOVE_ARRIVAL) {
        arrival_label(due, label);
        snprintf(lost, sizeof lost, "[%s] ", label);
    }
    char body[48];
    switch (m.kind) {
    case MOVE_SEND_FORWARD: {
        PieceType pt = piece_type(b->squares[m.from]);
        if (pt == PAWN) snprintf(body, sizeof body, "%s// to %u", a, (unsigned)m.arg);
        else snprintf(body, sizeof body, "%c(%s)// to %u", piece_letter(pt), a, (unsigned)m.arg);
        break;
    }
    case MOVE_ARRIVAL:
        arrival_label(gifford_due_now(st), label);
        suffix[0] = game_check_suffix(g, m);
        snprintf(body, sizeof body, "[%s] %s%s", label, t, suffix);
        break;
    case MOVE_CASTLE:
        suffix[0] = game_check_suffix(g, m);
        snprintf(body, sizeof body, "%s%s", m.to > m.from ? "o-o" : "o-o-o", suffix);
        break;
    default: san_in_game(g, m, body, sizeof body); break;
    }
    snprintf(buf, len, "%s%s", lost, body);
}
