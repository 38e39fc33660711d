/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Gifford notation: reading every form the game's players write (the
 * coordinate form, SAN with the time-travel additions, and Gifford's own
 * score-sheet notation, the two halves of a king going back included),
 * writing each of them, and saying in words which rule forbids an action
 * that is refused.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "gifford.h"
#include "rules.h"
#include "movegen.h"
#include "notation.h"

/* Actions are short: anything longer than this is refused as no action. */
enum { ACTION_MAX = 48 };

/* ---- Reading ------------------------------------------------------------ */

/* The text without spaces and annotations, Gifford's "Back" lower-cased;
 * false if nothing is left. */
static bool canonical(const char *text, char *buf, size_t len)
{
    if (!notation_strip(text, buf, len)) return false;
    for (char *p = buf; *p; p++)
        if (!strncmp(p, "Back", 4) || !strncmp(p, "BACK", 4)) memcpy(p, "back", 4);
    return true;
}

/* "[X]" or "X@" with X a piece letter and, for a bishop, w or b.  *dark is
 * -1 when no colour was given.  Returns NO_TYPE if the text is not one. */
static PieceType read_arrival_label(const char **p, int *dark, bool *bracketed)
{
    const char *s = *p;
    *bracketed = *s == '[';
    if (*bracketed) s++;
    PieceType t = notation_read_piece(&s);
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
static bool accept(const Line *l, Move m, Move *out, Text *err)
{
    return accept_if_legal(l, m, gifford_explain, out, err);
}

static bool parse_send(const Line *l, const char *s, Move *out, Text *err, bool *matched)
{
    const char *p = s;
    PieceType named = notation_read_piece(&p);
    bool paren = *p == '(';
    if (paren) p++;
    Square from;
    if (!notation_read_square(&p, &from)) return false;
    if (paren && *p++ != ')') return false;
    if (*p == '>') p++;
    else if (!strncmp(p, "//to", 4)) p += 4;
    else return false;
    int m;
    if (!notation_read_number(&p, &m) || *p) return false;
    *matched = true;
    Piece there = line_board(l)->squares[from];
    char sq[3];
    square_name(from, sq);
    if (named != NO_TYPE && there != NO_PIECE && piece_type(there) != named)
        return text_fail(err, "the piece on %s is a %s, not a %s", sq, piece_type_name(piece_type(there)),
                         piece_type_name(named));
    return accept(l, move_make(from, SQ_NONE, MOVE_SEND_FORWARD, NO_TYPE, (uint32_t)m), out, err);
}

static bool parse_king_back(const Line *l, const char *s, Move *out, Text *err, bool *matched)
{
    const char *p = s;
    PieceType named = notation_read_piece(&p);
    Square from, to;
    int t;
    if (!notation_read_square(&p, &from) || *p++ != '<' || !notation_read_number(&p, &t) || *p++ != '@' || !notation_read_square(&p, &to) || *p)
        return false;
    *matched = true;
    if (named != NO_TYPE && named != KING) return text_fail(err, "only a king travels back in time");
    return accept(l, move_make(from, to, MOVE_KING_BACK, KING, (uint32_t)t), out, err);
}

/* "K// Back to 2": only half of the action, the rest is on the next sheet.
 * "K// to 17" without a square sends the side's only king forward. */
static bool parse_king_without_square(const Line *l, const char *s, Move *out, Text *err, bool *matched)
{
    const char *p = s;
    if (*p++ != 'K') return false;
    if (*p == '(' && square_parse(p + 1) != SQ_NONE && p[3] == ')') p += 4;
    bool back = !strncmp(p, "//backto", 8);
    if (back) p += 8;
    else if (!strncmp(p, "//to", 4)) p += 4;
    else return false;
    int m;
    if (!notation_read_number(&p, &m) || *p) return false;
    *matched = true;
    const Board *b = line_board(l);
    if (back || m < b->fullmove)
        return text_fail(err, "a king going back must also say where it lands: write e.g. Ke8<%d@f8 (king on e8 "
                         "back to move %d, placed on f8)", m, m);
    Bitboard kings = board_kings(b, b->side);
    if (!kings) return text_fail(err, "%s has no king on the board", color_name(b->side));
    if (bb_many(kings))
        return text_fail(err, "%s has several kings: say which one travels, e.g. K(e1)// to %d", color_name(b->side), m);
    return accept(l, move_make(bb_first(kings), SQ_NONE, MOVE_SEND_FORWARD, NO_TYPE, (uint32_t)m), out, err);
}

static bool parse_arrival(const Line *l, const char *s, Move *out, Text *err, bool *matched)
{
    const State *st = line_state(l);
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
    /* "[X]" before another action notes an arrival lost in time.  When the
     * arrival due now has no square at all, what follows is that other
     * action even if it begins with a square: "[Bw] c3" is then the pawn
     * move c3, not the bishop landing there. */
    if (bracketed && !ftf && *p && due && arrival_type(due) == t &&
        gifford_first_placement(&st->board, due) == SQ_NONE && arrival_type(due) != KING)
        return gifford_parse(l, p, out, err);
    if (!notation_read_square(&p, &q) || *p) {
        /* "[X]" alone, or "[X]" before another action: the arrival was lost. */
        if (!bracketed || ftf) {
            if (ftf && !*p) return text_fail(err, "a king from the future needs its square, e.g. K [FTF] f8");
            if (!*p) return text_fail(err, "the arriving piece needs its square, e.g. %c@c4", piece_letter(t));
            *matched = false;
            return false;
        }
        if (!due || arrival_type(due) != t)
            return text_fail(err, "%s has no %s arriving at move %d", who, piece_type_name(t), st->board.fullmove);
        Square q0 = gifford_first_placement(&st->board, due);
        if (q0 != SQ_NONE)
            return text_fail(err, "the arriving %s can be placed, so it must be: name its square, e.g. %c@%c%c",
                             piece_type_name(t), piece_letter(t), 'a' + square_file(q0), '1' + square_rank(q0));
        if (!*p)
            return text_fail(err, "the arriving %s has no legal square and is lost in time; now play another action",
                             piece_type_name(t));
        return gifford_parse(l, p, out, err);
    }
    if (ftf && (!due || arrival_type(due) != KING))
        return text_fail(err, "a king from the future lands only as part of its travel back: write e.g. Ke8<2@%c%c",
                         'a' + square_file(q), '1' + square_rank(q));
    if (due && dark >= 0 && arrival_type(due) == BISHOP && ((due & ARRIVAL_DARK) != 0) != (dark == 1))
        return text_fail(err, "the bishop arriving now travels on %s squares, not %s ones",
                         (due & ARRIVAL_DARK) ? "dark" : "light", dark ? "dark" : "light");
    return accept(l, move_make(SQ_NONE, q, MOVE_ARRIVAL, t, 0), out, err);
}

/* If an arrival due now rules out every other action, says so (the
 * arrival must be placed, or it is a king lost in time) and returns true. */
static bool arrival_blocks(const State *st, Text *err)
{
    uint8_t due = gifford_due_now(st);
    if (!due) return false;
    const char *who = color_name(st->board.side);
    Square q = gifford_first_placement(&st->board, due);
    if (q != SQ_NONE)
        text_fail(err, "%s must place the arriving %s this turn (e.g. %c@%c%c)", who, piece_type_name(arrival_type(due)),
                  piece_letter(arrival_type(due)), 'a' + square_file(q), '1' + square_rank(q));
    else if (arrival_type(due) == KING)
        text_fail(err, "move %d is reserved for the %s king arriving from the past, which has no legal square: "
                  "it is lost in time and %s has lost", st->board.fullmove, who, who);
    else
        return false;
    return true;
}

/* A chess move, unless an arrival due now rules it out. */
static bool parse_chess(const Line *l, const char *text, Move *out, Text *err)
{
    if (arrival_blocks(line_state(l), err)) return false;
    MoveList list;
    if (!legal_actions(l, &list, err)) return false;
    bool ok = chess_parse_move(line_board(l), &list, text, out, err);
    movelist_free(&list);
    return ok;
}

bool gifford_parse(const Line *l, const char *text, Move *out, Text *err)
{
    char s[ACTION_MAX + 1];
    if (strlen(text) > ACTION_MAX) return text_fail(err, "'%.20s...' is too long to be an action", text);
    if (!canonical(text, s, sizeof s)) return text_fail(err, "'%s' is not an action", text);
    bool matched = false;
    bool ok = parse_king_back(l, s, out, err, &matched);
    if (!matched) ok = parse_send(l, s, out, err, &matched);
    if (!matched) ok = parse_king_without_square(l, s, out, err, &matched);
    if (!matched) ok = parse_arrival(l, s, out, err, &matched);
    if (matched) return ok;
    return parse_chess(l, text, out, err);
}

/* ---- Score-sheet halves of a king going back ---------------------------- */

/* The cell without white space, in lower case. */
static void squeeze_lower(const char *text, char *buf, size_t len)
{
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < len; p++)
        if (!isspace((unsigned char)*p)) buf[n++] = (char)tolower((unsigned char)*p);
    buf[n] = 0;
}

/* "K// Back to 2" or "K(e8)// Back to 2": the king's square (SQ_NONE if
 * not given) and the move; false if the cell is not one. */
static bool read_departure(const char *cell, Square *king, int *move)
{
    char s[ACTION_MAX + 1];
    if (strlen(cell) > ACTION_MAX) return false;
    squeeze_lower(cell, s, sizeof s);
    const char *p = s;
    if (*p++ != 'k') return false;
    *king = SQ_NONE;
    if (*p == '(') {
        *king = square_parse(p + 1);
        if (*king == SQ_NONE || p[3] != ')') return false;
        p += 4;
    }
    if (strncmp(p, "//backto", 8)) return false;
    p += 8;
    if (!notation_read_number(&p, move)) return false;
    /* Footnote marks and annotations may follow. */
    return strspn(p, "*!?") == strlen(p);
}

bool gifford_sheet_departure(const char *cell, int *move)
{
    Square king;
    return read_departure(cell, &king, move);
}

bool gifford_sheet_join(const Line *l, const char *departure, const char *arrival, Move *out, Text *err)
{
    Square king, to;
    int m;
    char s[ACTION_MAX + 1];
    if (!read_departure(departure, &king, &m)) return text_fail(err, "expected e.g. K// Back to 4");
    /* The other half is the king from the future landing: "K [FTF] f8". */
    bool landing = strlen(arrival) <= ACTION_MAX && canonical(arrival, s, sizeof s) && !strncmp(s, "K[FTF]", 6) &&
                   (to = square_parse(s + 6)) != SQ_NONE && !s[8];
    if (!landing)
        return text_fail(err, "at move %d the next sheet must go on with this king landing from the future, e.g. "
                         "K [FTF] f8", m);
    const Board *b = line_board(l);
    if (king == SQ_NONE) {
        Bitboard k = board_kings(b, b->side);
        if (!k) return text_fail(err, "there is no king to travel back");
        if (bb_many(k)) return text_fail(err, "several kings could travel: write K(e8)// Back to %d", m);
        king = bb_first(k);
    }
    return accept(l, move_make(king, to, MOVE_KING_BACK, KING, (uint32_t)m), out, err);
}

/* ---- Explaining refusals ------------------------------------------------ */

/* The conditions every time travel shares; false after writing which one
 * fails. */
static bool explain_common(const State *st, Text *err)
{
    const Board *b = &st->board;
    if (arrival_blocks(st, err)) return false;
    if (board_in_check(b, b->side)) return text_fail(err, "no time travel while a %s king is in check", color_name(b->side));
    return true;
}

static void explain_send(const Line *l, Move m, Text *err)
{
    const State *st = line_state(l);
    const Board *b = &st->board;
    const char *who = color_name(b->side);
    char sq[3];
    square_name(m.from, sq);
    Piece p = b->squares[m.from];
    int n = b->fullmove, mv = (int)m.arg, lim = line_option(l, GIFFORD_FORWARD);
    if (p == NO_PIECE) text_fail(err, "there is no piece on %s to send forward", sq);
    else if (piece_color(p) != b->side) text_fail(err, "the %s on %s is not %s's", piece_type_name(piece_type(p)), sq, who);
    else if (!explain_common(st, err)) return;
    else if (mv <= n) text_fail(err, "a piece travels forward to a later move: choose a move from %d to %d", n + 1, n + lim);
    else if (mv > n + lim)
        text_fail(err, "a piece travels at most %d moves forward: choose a move from %d to %d", lim, n + 1, n + lim);
    else if (gifford_arrival_at(st, lim, b->side, mv)) text_fail(err, "%s already has an arrival at move %d", who, mv);
    else if (piece_type(p) == KING && !(b->by_color[b->side] & ~b->by_type[KING]))
        text_fail(err, "a king travels in time only while %s has a pawn or piece on the board", who);
    else if (piece_type(p) != KING) {
        Bitboard near = 0, k = board_kings(b, b->side);
        while (k) near |= king_attacks(bb_pop(&k));
        if (!(near & BB(m.from))) text_fail(err, "%s is not next to a %s king", sq, who);
        else text_fail(err, "sending the %s on %s away would leave the %s king in check", piece_type_name(piece_type(p)), sq, who);
    } else {
        text_fail(err, "sending this king away would leave another %s king in check", who);
    }
}

static void explain_arrival(const Line *l, Move m, Text *err)
{
    const State *st = line_state(l);
    const Board *b = &st->board;
    const char *who = color_name(b->side);
    uint8_t due = gifford_due_now(st);
    char sq[3];
    square_name(m.to, sq);
    if (!due) text_fail(err, "%s has no piece arriving at move %d", who, b->fullmove);
    else if (arrival_type(due) != m.piece)
        text_fail(err, "the piece arriving now is a %s, not a %s", piece_type_name(arrival_type(due)), piece_type_name(m.piece));
    else if (b->squares[m.to] != NO_PIECE) text_fail(err, "%s is not empty: an arriving piece lands on an empty square", sq);
    else if (m.piece == PAWN && (square_rank(m.to) == 0 || square_rank(m.to) == 7))
        text_fail(err, "a pawn cannot arrive on the first or last rank");
    else if (m.piece == BISHOP && square_is_dark(m.to) != ((due & ARRIVAL_DARK) != 0))
        text_fail(err, "the bishop must land on a %s square", (due & ARRIVAL_DARK) ? "dark" : "light");
    else text_fail(err, "a %s on %s would leave the %s king in check", piece_type_name(m.piece), sq, who);
}

static void explain_king_back(const Line *l, Move m, Text *err)
{
    const State *st = line_state(l);
    const Board *b = &st->board;
    const char *who = color_name(b->side);
    char from[3], to[3];
    square_name(m.from, from);
    square_name(m.to, to);
    int t = (int)m.arg, n = b->fullmove, lim = line_option(l, GIFFORD_BACK);
    int earliest = n - lim > 1 ? n - lim : 1;
    if (b->squares[m.from] != make_piece(b->side, KING)) {
        text_fail(err, "there is no %s king on %s", who, from);
        return;
    }
    if (!explain_common(st, err)) return;
    int travels = line_option(l, GIFFORD_BACK_TRAVELS);
    if (travels == 0)
        text_fail(err, "backward travels are not allowed in this game (back-travels=0)");
    else if (gifford_cstate(st)->backs_used[b->side] >= travels)
        text_fail(err, "%s has used %s backward travel%s", who, travels == 1 ? "its" : travels == 2 ? "both" : "all its",
                  travels == 1 ? "" : "s");
    else if (!(b->by_color[b->side] & ~b->by_type[KING]))
        text_fail(err, "a king travels in time only while %s has a pawn or piece on the board", who);
    else if (t >= n) text_fail(err, "a king travels back to an earlier move: choose a move from %d to %d", earliest, n - 1);
    else if (n - t > lim)
        text_fail(err, "a king travels at most %d moves back: choose a move from %d to %d", lim, earliest, n - 1);
    else {
        int node = gifford_back_target(l, t);
        if (node < 0) {
            text_fail(err, "move %d is not in this game's record", t);
            return;
        }
        const State *T = line_node(l, node)->state;
        if (gifford_due_now(T))
            text_fail(err, "%s has an arrival at move %d: that move is reserved for it, so no king can land there", who, t);
        else if (T->board.squares[m.to] != NO_PIECE) text_fail(err, "%s is not empty at move %d", to, t);
        else text_fail(err, "a king on %s at move %d would be in check", to, t);
    }
}

void gifford_explain(const Line *l, Move m, Text *err)
{
    switch (m.kind) {
    case MOVE_SEND_FORWARD: explain_send(l, m, err); break;
    case MOVE_ARRIVAL: explain_arrival(l, m, err); break;
    case MOVE_KING_BACK: explain_king_back(l, m, err); break;
    default: text_fail(err, "that action is not legal now"); break;
    }
}

/* ---- Writing ------------------------------------------------------------ */

bool gifford_format_coord(const Line *l, Move m, Text *out)
{
    (void)l;
    char a[3], b[3];
    square_name(m.from, a);
    square_name(m.to, b);
    switch (m.kind) {
    case MOVE_SEND_FORWARD: text_addf(out, "%s>%u", a, (unsigned)m.arg); break;
    case MOVE_ARRIVAL: text_addf(out, "%c@%s", piece_letter(m.piece), b); break;
    case MOVE_KING_BACK: text_addf(out, "%s<%u@%s", a, (unsigned)m.arg, b); break;
    default: move_to_coord(m, out); break;
    }
    return !out->failed;
}

/* "Bf1" for a piece, "d2" for a pawn: what stands on the square. */
static void piece_on(const Board *b, Square s, Text *out)
{
    char sq[3];
    square_name(s, sq);
    PieceType t = piece_type(b->squares[s]);
    if (t == PAWN) text_add(out, sq);
    else text_addf(out, "%c%s", piece_letter(t), sq);
}

bool gifford_format_human(const Line *l, Move m, Text *out)
{
    char t[3], mark = 0;
    square_name(m.to, t);
    switch (m.kind) {
    case MOVE_SEND_FORWARD:
        piece_on(line_board(l), m.from, out);
        text_addf(out, ">%u", (unsigned)m.arg);
        break;
    case MOVE_ARRIVAL:
        if (!line_check_mark(l, m, &mark)) return false;
        text_addf(out, "%c@%s", piece_letter(m.piece), t);
        if (mark) text_add_char(out, mark);
        break;
    case MOVE_KING_BACK: {
        char a[3];
        square_name(m.from, a);
        text_addf(out, "K%s<%u@%s", a, (unsigned)m.arg, t);
        break;
    }
    default: return san_in_line(l, m, out);
    }
    return !out->failed;
}

bool gifford_format_sheet(const Line *l, Move m, int part, Text *out)
{
    const State *st = line_state(l);
    const Board *b = &st->board;
    char a[3], t[3], label[4], mark = 0;
    square_name(m.from, a);
    square_name(m.to, t);
    uint8_t due = gifford_due_now(st);
    if (m.kind == MOVE_NULL) {
        /* No action: the sheet shows an arrival that could not be made. */
        if (due) {
            arrival_label(due, label);
            text_addf(out, "[%s]", label);
        }
        return !out->failed;
    }
    if (m.kind == MOVE_KING_BACK) {
        if (part == SHEET_ARRIVAL) text_addf(out, "K [FTF] %s", t);
        else if (bb_many(board_kings(b, b->side))) text_addf(out, "K(%s)// Back to %u", a, (unsigned)m.arg);
        else text_addf(out, "K// Back to %u", (unsigned)m.arg);
        return !out->failed;
    }
    /* An arrival that is due but cannot be placed is noted before the
     * action played instead: "[Bb] Kxf7". */
    if (due && m.kind != MOVE_ARRIVAL) {
        arrival_label(due, label);
        text_addf(out, "[%s] ", label);
    }
    switch (m.kind) {
    case MOVE_SEND_FORWARD:
        if (piece_type(b->squares[m.from]) == PAWN) text_addf(out, "%s// to %u", a, (unsigned)m.arg);
        else text_addf(out, "%c(%s)// to %u", piece_letter(piece_type(b->squares[m.from])), a, (unsigned)m.arg);
        break;
    case MOVE_ARRIVAL:
        if (!line_check_mark(l, m, &mark)) return false;
        arrival_label(due, label);
        text_addf(out, "[%s] %s", label, t);
        if (mark) text_add_char(out, mark);
        break;
    case MOVE_CASTLE:
        if (!line_check_mark(l, m, &mark)) return false;
        text_add(out, m.to > m.from ? "o-o" : "o-o-o");
        if (mark) text_add_char(out, mark);
        break;
    default: return san_in_line(l, m, out);
    }
    return !out->failed;
}
