/* SPDX-License-Identifier: GPL-3.0-or-later
 * Coordinate and SAN notation for chess moves. */
#include "notation.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "bitboard.h"
#include "movegen.h"

PieceType notation_read_piece(const char **p)
{
    if (**p && strchr("PNBRQK", **p)) return piece_type_from_letter(*(*p)++);
    return NO_TYPE;
}

bool notation_read_square(const char **p, Square *s)
{
    *s = square_parse(*p);
    if (*s == SQ_NONE) return false;
    *p += 2;
    return true;
}

bool notation_read_number(const char **p, int *n)
{
    const char *s = *p;
    int v = 0, digits = 0;
    while (isdigit((unsigned char)*s) && digits < 6) v = v * 10 + (*s++ - '0'), digits++;
    if (!digits || isdigit((unsigned char)*s)) return false;
    *n = v;
    *p = s;
    return true;
}

bool notation_strip(const char *text, char *buf, size_t len)
{
    size_t n = 0;
    while (*text && isspace((unsigned char)*text)) text++;
    for (; *text; text++) {
        char c = *text;
        if (c == '+' || c == '#' || c == '!' || c == '?' || c == '*' || isspace((unsigned char)c)) continue;
        if (n + 1 >= len) {
            buf[0] = 0;
            return false;
        }
        buf[n++] = c;
    }
    /* A trailing dot is punctuation ("Nf3."), never part of a move. */
    while (n > 0 && buf[n - 1] == '.') n--;
    buf[n] = 0;
    return n > 0;
}

void san_format(const Board *b, const MoveList *legal, Move m, char suffix, Text *text)
{
    char out[24];
    size_t n = 0;
    char to[3], from[3];
    /* Only board moves have SAN; anything else (a drop, a travel) is the
     * variant's to write, and must not make us read off the board. */
    if (m.from >= 64 || m.to >= 64) {
        move_to_coord(m, text);
        return;
    }
    square_name(m.to, to);
    square_name(m.from, from);
    PieceType t = piece_type(b->squares[m.from]);
    bool capture = b->squares[m.to] != NO_PIECE || m.kind == MOVE_EN_PASSANT;

    if (m.kind == MOVE_CASTLE) {
        n = (size_t)snprintf(out, sizeof out, "%s", m.to > m.from ? "O-O" : "O-O-O");
    } else if (t == PAWN) {
        if (capture) out[n++] = from[0], out[n++] = 'x';
        out[n++] = to[0];
        out[n++] = to[1];
        if (m.kind == MOVE_PROMOTION) out[n++] = '=', out[n++] = piece_letter(m.piece);
    } else {
        out[n++] = piece_letter(t);
        /* Disambiguate by file if that is enough, else by rank, else both. */
        bool others = false, same_file = false, same_rank = false;
        for (int i = 0; i < legal->count; i++) {
            Move o = legal->moves[i];
            if (o.to != m.to || o.from == m.from || o.kind == MOVE_CASTLE) continue;
            if (o.kind != MOVE_NORMAL || o.from >= 64 || piece_type(b->squares[o.from]) != t) continue;
            others = true;
            if (square_file(o.from) == square_file(m.from)) same_file = true;
            if (square_rank(o.from) == square_rank(m.from)) same_rank = true;
        }
        if (others) {
            if (!same_file) out[n++] = from[0];
            else if (!same_rank) out[n++] = from[1];
            else out[n++] = from[0], out[n++] = from[1];
        }
        if (capture) out[n++] = 'x';
        out[n++] = to[0];
        out[n++] = to[1];
    }
    if (suffix) out[n++] = suffix;
    out[n] = 0;
    text_add(text, out);
}

/* What the parser has at hand: the position, the moves the game allows,
 * and every pseudo-legal chess move, for saying why a move is refused. */
typedef struct Parse {
    const Board *b;
    const MoveList *legal;
    const MoveList *pseudo;
    Text *err;
} Parse;

/* Explains why a pseudo-legal move that the game does not allow is refused. */
static void explain_refusal(const Parse *p, Move m)
{
    const Board *b = p->b;
    const char *side = color_name(b->side);
    if (m.kind == MOVE_CASTLE) {
        if (board_in_check(b, b->side)) {
            text_fail(p->err, "%s cannot castle while in check", side);
            return;
        }
        if (!move_is_legal(b, m)) {
            text_fail(p->err, "%s cannot castle: the king would pass through or land on an attacked square", side);
            return;
        }
    }
    if (!move_is_legal(b, m)) {
        char sq[3];
        square_name(m.from, sq);
        text_fail(p->err, "moving the %s on %s would leave the %s king in check",
                  piece_type_name(piece_type(b->squares[m.from])), sq, side);
        return;
    }
    text_fail(p->err, "that move is not allowed in this position");
}

/* Finds the castling move of the side to move, legal or not, in `l`. */
static bool find_castle(const MoveList *l, bool kingside, Move *out)
{
    for (int i = 0; i < l->count; i++) {
        Move m = l->moves[i];
        if (m.kind == MOVE_CASTLE && (m.to > m.from) == kingside) {
            *out = m;
            return true;
        }
    }
    return false;
}

/* Each parse_* below returns false if the text is not of its form;
 * otherwise *out is the move, or has kind MOVE_NULL after the reason for
 * refusing it was written. */

static bool parse_castle(const Parse *p, const char *s, Move *out)
{
    const Board *b = p->b;
    bool kingside;
    if (!strcmp(s, "O-O") || !strcmp(s, "0-0") || !strcmp(s, "o-o")) kingside = true;
    else if (!strcmp(s, "O-O-O") || !strcmp(s, "0-0-0") || !strcmp(s, "o-o-o")) kingside = false;
    else return false;
    if (find_castle(p->legal, kingside, out)) return true;
    Move m;
    const char *wing = kingside ? "kingside" : "queenside";
    out->kind = MOVE_NULL;
    if (!find_castle(p->pseudo, kingside, &m)) {
        uint8_t right = b->side == WHITE ? (kingside ? CASTLE_WK : CASTLE_WQ) : (kingside ? CASTLE_BK : CASTLE_BQ);
        if (!(b->castling & right))
            text_fail(p->err, "%s cannot castle %s: the king or that rook has already moved", color_name(b->side), wing);
        else
            text_fail(p->err, "%s cannot castle %s: there are pieces between the king and the rook",
                      color_name(b->side), wing);
        return true;
    }
    explain_refusal(p, m);
    return true;
}

/* Chess960 writes castling king takes own rook: a king onto its own
 * rook that is no castling the position offers says why, rather than
 * that a king cannot move there. */
static bool explain_castle960(const Parse *p, Square from, Square to)
{
    const Board *b = p->b;
    Color us = b->side;
    if (!b->chess960 || b->squares[from] != make_piece(us, KING) || b->squares[to] != make_piece(us, ROOK))
        return false;
    int right = us * 2 + (to > from ? 0 : 1);
    char rook[3];
    square_name(to, rook);
    if (!(b->castling & (1 << right)) || b->castle_rook[right] != to)
        text_fail(p->err, "%s cannot castle with the rook on %s: the king or that rook has already moved",
                  color_name(us), rook);
    else
        text_fail(p->err, "%s cannot castle %s: a square the king or the rook crosses or lands on is taken",
                  color_name(us), to > from ? "kingside" : "queenside");
    return true;
}

/* Coordinate form: e2e4, e7e8q, e1g1 (also e2-e4). */
static bool parse_coord(const Parse *p, const char *s, Move *out)
{
    const Board *b = p->b;
    char t[8];
    size_t n = 0;
    /* An upper-case B is a bishop: "B4e6" is SAN (the bishop on the 4th
     * rank to e6), not the coordinate move b4e6. */
    if (s[0] == 'B' || strlen(s) > 7) return false;
    for (const char *c = s; *c; c++)
        if (*c != '-' && *c != 'x') t[n++] = (char)tolower((unsigned char)*c);
    t[n] = 0;
    if (n < 4 || n > 5) return false;
    Square from = square_parse(t), to = square_parse(t + 2);
    if (from == SQ_NONE || to == SQ_NONE) return false;
    PieceType promo = NO_TYPE;
    if (n == 5) {
        promo = piece_type_from_letter(t[4]);
        if (promo == NO_TYPE || promo == PAWN || promo == KING) return false;
    }
    out->kind = MOVE_NULL;
    for (int i = 0; i < p->legal->count; i++) {
        Move m = p->legal->moves[i];
        if (m.from == from && m.to == to && move_is_chess(m) &&
            (m.kind == MOVE_PROMOTION ? m.piece == promo : promo == NO_TYPE)) {
            *out = m;
            return true;
        }
    }
    char fs[3], ts[3];
    square_name(from, fs);
    square_name(to, ts);
    Piece piece = b->squares[from];
    if (piece == NO_PIECE) {
        text_fail(p->err, "there is no piece on %s", fs);
        return true;
    }
    if (piece_color(piece) != b->side) {
        text_fail(p->err, "the %s on %s is not yours: %s is to move", piece_type_name(piece_type(piece)), fs,
                  color_name(b->side));
        return true;
    }
    for (int i = 0; i < p->pseudo->count; i++) {
        Move m = p->pseudo->moves[i];
        if (m.from != from || m.to != to) continue;
        if (m.kind == MOVE_PROMOTION && promo == NO_TYPE) {
            text_fail(p->err, "a pawn reaching %s must promote: add q, r, b or n (%s%sq)", ts, fs, ts);
            return true;
        }
        if (m.kind != MOVE_PROMOTION && promo != NO_TYPE) {
            text_fail(p->err, "only a pawn reaching the last rank promotes");
            return true;
        }
        explain_refusal(p, m);
        return true;
    }
    if (explain_castle960(p, from, to)) return true;
    text_fail(p->err, "the %s on %s cannot move to %s", piece_type_name(piece_type(piece)), fs, ts);
    return true;
}

/* Does a chess move of the list match what a SAN text names? */
typedef struct SanPattern {
    PieceType type, promo;
    Square to;
    int from_file, from_rank;
    bool capture;
} SanPattern;

static bool san_matches(const Board *b, const SanPattern *want, Move m)
{
    if (m.to != want->to || !move_is_chess(m) || m.kind == MOVE_CASTLE || m.from == SQ_NONE) return false;
    if (piece_type(b->squares[m.from]) != want->type) return false;
    if (want->from_file >= 0 && square_file(m.from) != want->from_file) return false;
    if (want->from_rank >= 0 && square_rank(m.from) != want->from_rank) return false;
    return true;
}

/* Reads a SAN text, [piece][from file][from rank][x]to[=promo], into the
 * pattern the legal moves are matched against; false when it is no SAN. */
static bool read_san(const char *s, SanPattern *pattern)
{
    char t[16];
    /* A longer text is no SAN; cutting it short could make it one. */
    size_t n = strlen(s);
    if (n >= sizeof t) return false;
    memcpy(t, s, n + 1);
    SanPattern want = { PAWN, NO_TYPE, SQ_NONE, -1, -1, false };
    /* Promotion: e8=Q, e8Q, e8(Q), e8/Q; after '=' or '/' the letter may
     * also be lower case (e8=q).  A letter that names no piece makes the
     * text no move at all: "e4X" must not be read as "e4". */
    bool marked = n >= 3 && (t[n - 2] == '=' || t[n - 2] == '/');
    if (n >= 3 && t[n - 1] == ')' && t[n - 3] == '(') {
        want.promo = piece_type_from_letter(t[n - 2]);
        if (want.promo == NO_TYPE) return false;
        t[n - 3] = 0;
    } else if (n >= 2 && isalpha((unsigned char)t[n - 1]) &&
               (marked || (isupper((unsigned char)t[n - 1]) && isdigit((unsigned char)t[n - 2])))) {
        want.promo = piece_type_from_letter(t[n - 1]);
        if (want.promo == NO_TYPE) return false;
        t[n - (marked ? 2 : 1)] = 0;
    }
    n = strlen(t);
    size_t i = 0;
    if (n > 0 && strchr("NBRQK", t[0])) want.type = piece_type_from_letter(t[i++]);
    /* The destination is the last two characters. */
    if (n < i + 2) return false;
    want.to = square_parse(t + n - 2);
    if (want.to == SQ_NONE) return false;
    for (size_t k = i; k < n - 2; k++) {
        char c = t[k];
        if (c >= 'a' && c <= 'h' && want.from_file < 0) want.from_file = c - 'a';
        else if (c >= '1' && c <= '8' && want.from_rank < 0) want.from_rank = c - '1';
        else if ((c == 'x' || c == ':') && !want.capture) want.capture = true;
        else if (c == '-') continue;
        else return false;
    }
    if (want.promo != NO_TYPE && (want.type != PAWN || want.promo == PAWN || want.promo == KING)) return false;
    *pattern = want;
    return true;
}

/* SAN: [piece][from file][from rank][x]to[=promo]. */
static bool parse_san(const Parse *p, const char *s, Move *out)
{
    const Board *b = p->b;
    SanPattern want;
    if (!read_san(s, &want)) return false;
    PieceType promo_or_queen = want.promo ? want.promo : QUEEN;

    int nfound = 0;
    Move found[2];
    for (int k = 0; k < p->legal->count; k++) {
        Move m = p->legal->moves[k];
        if (!san_matches(b, &want, m)) continue;
        if (m.kind == MOVE_PROMOTION ? m.piece != promo_or_queen : want.promo != NO_TYPE) continue;
        if (nfound < 2) found[nfound] = m;
        nfound++;
    }
    char ts[3];
    square_name(want.to, ts);
    out->kind = MOVE_NULL;
    if (nfound == 1) {
        if (found[0].kind == MOVE_PROMOTION && want.promo == NO_TYPE) {
            text_fail(p->err, "a pawn reaching %s must promote: add =Q, =R, =B or =N", ts);
            return true;
        }
        *out = found[0];
        return true;
    }
    if (nfound > 1) {
        char a[3], c[3];
        square_name(found[0].from, a);
        square_name(found[1].from, c);
        text_fail(p->err, "ambiguous: more than one %s can reach %s (from %s and %s); name the one to move",
                  piece_type_name(want.type), ts, a, c);
        return true;
    }
    /* Nothing legal matches: say whether the piece could not get there at
     * all, or could but the rules forbid it. */
    for (int k = 0; k < p->pseudo->count; k++) {
        Move m = p->pseudo->moves[k];
        if (!san_matches(b, &want, m)) continue;
        if (m.kind == MOVE_PROMOTION && m.piece != promo_or_queen) continue;
        explain_refusal(p, m);
        return true;
    }
    text_fail(p->err, "no %s %s %s", piece_type_name(want.type),
              want.capture && b->squares[want.to] == NO_PIECE && want.type != PAWN ? "can capture on" : "can reach", ts);
    return true;
}

bool chess_parse_move(const Board *b, const MoveList *legal, const char *text, Move *out, Text *err)
{
    char s[32];
    if (strlen(text) > 24 || !notation_strip(text, s, sizeof s))
        return text_fail(err, "'%s' is not a move", text);
    /* "e.p." after an en passant capture is allowed and ignored
     * (notation_strip has already taken its last dot). */
    size_t n = strlen(s);
    if (n > 3 && !strcmp(s + n - 3, "e.p")) s[n - 3] = 0;
    MoveList pseudo;
    movelist_init(&pseudo);
    if (!gen_pseudo(b, &pseudo)) {
        movelist_free(&pseudo);
        return text_fail(err, "out of memory");
    }
    Parse p = { b, legal, &pseudo, err };
    out->kind = MOVE_NULL;
    bool ok = false;
    if (parse_castle(&p, s, out) || parse_coord(&p, s, out) || parse_san(&p, s, out)) {
        if (out->kind != MOVE_NULL && movelist_contains(legal, *out)) ok = true;
        else if (out->kind != MOVE_NULL) explain_refusal(&p, *out);
    } else {
        text_fail(err, "'%s' is not a move in coordinate form (e2e4) or SAN (Nf3)", text);
    }
    movelist_free(&pseudo);
    return ok;
}
