/* SPDX-License-Identifier: GPL-3.0-or-later
 * Coordinate and SAN notation for chess moves. */
#include "ttchess/notation.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "bitboard.h"
#include "ttchess/movegen.h"

static void put_err(char *err, size_t len, const char *fmt, const char *a, const char *b)
{
    if (err && len) snprintf(err, len, fmt, a, b);
}

bool notation_strip(const char *text, char *buf, size_t len)
{
    size_t n = 0;
    while (*text && isspace((unsigned char)*text)) text++;
    for (; *text && n + 1 < len; text++) {
        char c = *text;
        if (c == '+' || c == '#' || c == '!' || c == '?' || c == '*' || isspace((unsigned char)c)) continue;
        buf[n++] = c;
    }
    /* A trailing dot is punctuation ("Nf3."), never part of a move. */
    while (n > 0 && buf[n - 1] == '.') n--;
    buf[n] = 0;
    return n > 0;
}

void san_format(const Board *b, const MoveList *legal, Move m, char suffix, char *buf, size_t len)
{
    char out[24];
    size_t n = 0;
    char to[3], from[3];
    /* Only board moves have SAN; anything else (a drop, a travel) is the
     * variant's to write, and must not make us read off the board. */
    if (m.from >= 64 || m.to >= 64) {
        move_to_coord(m, buf, len);
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
    snprintf(buf, len, "%s", out);
}

/* Is `m` in the list?  Returns its index or -1. */
static int find_move(const MoveList *l, Move m)
{
    for (int i = 0; i < l->count; i++)
        if (move_equal(l->moves[i], m)) return i;
    return -1;
}

/* Explains why a pseudo-legal move that the game does not allow is refused. */
static void explain_refusal(const Board *b, Move m, char *err, size_t len)
{
    char sq[3];
    const char *side = color_name(b->side);
    if (m.kind == MOVE_CASTLE) {
        if (board_in_check(b, b->side)) {
            put_err(err, len, "%s cannot castle while in check", side, NULL);
            return;
        }
        if (move_is_legal(b, m) == false) {
            put_err(err, len, "%s cannot castle: the king would pass through or land on an attacked square", side,
                    NULL);
            return;
        }
    }
    if (!move_is_legal(b, m)) {
        square_name(m.from, sq);
        char what[64];
        snprintf(what, sizeof what, "moving the %s on %s", piece_type_name(piece_type(b->squares[m.from])), sq);
        if (err && len) snprintf(err, len, "%s would leave the %s king in check", what, side);
        return;
    }
    put_err(err, len, "that move is not allowed in this position", NULL, NULL);
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

static bool parse_castle(const Board *b, const MoveList *legal, const char *s, Move *out, char *err, size_t len)
{
    bool kingside;
    if (!strcmp(s, "O-O") || !strcmp(s, "0-0") || !strcmp(s, "o-o")) kingside = true;
    else if (!strcmp(s, "O-O-O") || !strcmp(s, "0-0-0") || !strcmp(s, "o-o-o")) kingside = false;
    else return false;
    if (find_castle(legal, kingside, out)) return true;
    MoveList pseudo;
    pseudo.count = 0;
    gen_pseudo(b, &pseudo);
    Move m;
    const char *wing = kingside ? "kingside" : "queenside";
    if (!find_castle(&pseudo, kingside, &m)) {
        uint8_t right = b->side == WHITE ? (kingside ? CASTLE_WK : CASTLE_WQ) : (kingside ? CASTLE_BK : CASTLE_BQ);
        if (!(b->castling & right))
            put_err(err, len, "%s cannot castle %s: the king or that rook has already moved", color_name(b->side),
                    wing);
        else
            put_err(err, len, "%s cannot castle %s: there are pieces between the king and the rook",
                    color_name(b->side), wing);
        out->kind = MOVE_NULL;
        return true;
    }
    explain_refusal(b, m, err, len);
    out->kind = MOVE_NULL;
    return true;
}

/* Coordinate form: e2e4, e7e8q, e1g1 (also e2-e4).  Returns false if the
 * text is not of this form; otherwise *out is the move (kind MOVE_NULL
 * after writing err if it is refused). */
static bool parse_coord(const Board *b, const MoveList *legal, const char *s, Move *out, char *err, size_t len)
{
    char t[8];
    size_t n = 0;
    /* An upper-case B is a bishop: "B4e6" is SAN (the bishop on the 4th
     * rank to e6), not the coordinate move b4e6. */
    if (s[0] == 'B') return false;
    for (const char *c = s; *c && n < sizeof t - 1; c++)
        if (*c != '-' && *c != 'x') t[n++] = (char)tolower((unsigned char)*c);
    t[n] = 0;
    if (n < 4 || n > 5 || strlen(s) > 7) return false;
    Square from = square_parse(t), to = square_parse(t + 2);
    if (from == SQ_NONE || to == SQ_NONE) return false;
    PieceType promo = NO_TYPE;
    if (n == 5) {
        promo = piece_type_from_letter(t[4]);
        if (promo == NO_TYPE || promo == PAWN || promo == KING) return false;
    }
    out->kind = MOVE_NULL;
    for (int i = 0; i < legal->count; i++) {
        Move m = legal->moves[i];
        if (m.from == from && m.to == to && m.kind <= MOVE_PROMOTION &&
            (m.kind == MOVE_PROMOTION ? m.piece == promo : promo == NO_TYPE)) {
            *out = m;
            return true;
        }
    }
    char fs[3], ts[3];
    square_name(from, fs);
    square_name(to, ts);
    Piece p = b->squares[from];
    if (p == NO_PIECE) {
        put_err(err, len, "there is no piece on %s", fs, NULL);
        return true;
    }
    if (piece_color(p) != b->side) {
        if (err && len) snprintf(err, len, "the %s on %s is not yours: %s is to move",
                                 piece_type_name(piece_type(p)), fs, color_name(b->side));
        return true;
    }
    MoveList pseudo;
    pseudo.count = 0;
    gen_pseudo(b, &pseudo);
    for (int i = 0; i < pseudo.count; i++) {
        Move m = pseudo.moves[i];
        if (m.from != from || m.to != to) continue;
        if (m.kind == MOVE_PROMOTION && promo == NO_TYPE) {
            if (err && len) snprintf(err, len, "a pawn reaching %s must promote: add q, r, b or n (%s%sq)", ts, fs, ts);
            return true;
        }
        if (m.kind != MOVE_PROMOTION && promo != NO_TYPE) {
            put_err(err, len, "only a pawn reaching the last rank promotes", NULL, NULL);
            return true;
        }
        explain_refusal(b, m, err, len);
        return true;
    }
    if (err && len) snprintf(err, len, "the %s on %s cannot move to %s", piece_type_name(piece_type(p)), fs, ts);
    return true;
}

/* SAN: [piece][from file][from rank][x]to[=promo]. */
static bool parse_san(const Board *b, const MoveList *legal, const char *s, Move *out, char *err, size_t len)
{
    char t[16];
    /* A longer text is no SAN; cutting it short could make it one. */
    if (strlen(s) >= sizeof t) return false;
    snprintf(t, sizeof t, "%s", s);
    size_t n = strlen(t);
    PieceType promo = NO_TYPE;
    /* Promotion: e8=Q, e8Q, e8(Q), e8/Q; after '=' or '/' the letter may
     * also be lower case (e8=q).  A letter that names no piece makes the
     * text no move at all: "e4X" must not be read as "e4". */
    bool marked = n >= 3 && (t[n - 2] == '=' || t[n - 2] == '/');
    if (n >= 3 && t[n - 1] == ')' && t[n - 3] == '(') {
        promo = piece_type_from_letter(t[n - 2]);
        if (promo == NO_TYPE) return false;
        t[n - 3] = 0;
    } else if (n >= 2 && isalpha((unsigned char)t[n - 1]) &&
               (marked || (isupper((unsigned char)t[n - 1]) && isdigit((unsigned char)t[n - 2])))) {
        promo = piece_type_from_letter(t[n - 1]);
        if (promo == NO_TYPE) return false;
        t[n - (marked ? 2 : 1)] = 0;
    }
    n = strlen(t);
    PieceType type = PAWN;
    size_t i = 0;
    if (n > 0 && strchr("NBRQK", t[0])) type = piece_type_from_letter(t[i++]);
    int from_file = -1, from_rank = -1;
    bool capture = false;
    /* The destination is the last two characters. */
    if (n < i + 2) return false;
    Square to = square_parse(t + n - 2);
    if (to == SQ_NONE) return false;
    for (size_t k = i; k < n - 2; k++) {
        char c = t[k];
        if (c >= 'a' && c <= 'h' && from_file < 0) from_file = c - 'a';
        else if (c >= '1' && c <= '8' && from_rank < 0) from_rank = c - '1';
        else if ((c == 'x' || c == ':') && !capture) capture = true;
        else if (c == '-') continue;
        else return false;
    }
    if (promo != NO_TYPE && (type != PAWN || promo == PAWN || promo == KING)) return false;

    Move found[64];
    int nfound = 0;
    for (int k = 0; k < legal->count && nfound < 64; k++) {
        Move m = legal->moves[k];
        if (m.to != to || m.kind > MOVE_PROMOTION || m.from == SQ_NONE) continue;
        if (m.kind == MOVE_CASTLE) continue;
        if (piece_type(b->squares[m.from]) != type) continue;
        if (from_file >= 0 && square_file(m.from) != from_file) continue;
        if (from_rank >= 0 && square_rank(m.from) != from_rank) continue;
        if (m.kind == MOVE_PROMOTION ? m.piece != (promo ? promo : QUEEN) : promo != NO_TYPE) continue;
        found[nfound++] = m;
    }
    char ts[3];
    square_name(to, ts);
    out->kind = MOVE_NULL;
    if (nfound == 1) {
        if (found[0].kind == MOVE_PROMOTION && promo == NO_TYPE) {
            if (err && len) snprintf(err, len, "a pawn reaching %s must promote: add =Q, =R, =B or =N", ts);
            return true;
        }
        *out = found[0];
        return true;
    }
    if (nfound > 1) {
        char a[3], c[3];
        square_name(found[0].from, a);
        square_name(found[1].from, c);
        if (err && len)
            snprintf(err, len, "ambiguous: more than one %s can reach %s (from %s and %s); name the one to move",
                     piece_type_name(type), ts, a, c);
        return true;
    }
    /* Nothing legal matches: say whether the piece could not get there at
     * all, or could but the rules forbid it. */
    MoveList pseudo;
    pseudo.count = 0;
    gen_pseudo(b, &pseudo);
    for (int k = 0; k < pseudo.count; k++) {
        Move m = pseudo.moves[k];
        if (m.to != to || m.kind == MOVE_CASTLE || piece_type(b->squares[m.from]) != type) continue;
        if (from_file >= 0 && square_file(m.from) != from_file) continue;
        if (from_rank >= 0 && square_rank(m.from) != from_rank) continue;
        if (m.kind == MOVE_PROMOTION && m.piece != (promo ? promo : QUEEN)) continue;
        explain_refusal(b, m, err, len);
        return true;
    }
    if (err && len)
        snprintf(err, len, "no %s %s %s", piece_type_name(type),
                 capture && b->squares[to] == NO_PIECE && type != PAWN ? "can capture on" : "can reach", ts);
    return true;
}

bool chess_parse_move(const Board *b, const MoveList *legal, const char *text, Move *out, char *err,
                      size_t errlen)
{
    char s[32];
    if (!notation_strip(text, s, sizeof s) || strlen(text) > 24) {
        put_err(err, errlen, "'%s' is not a move", text, NULL);
        return false;
    }
    /* "e.p." after an en passant capture is allowed and ignored
     * (notation_strip has already taken its last dot). */
    size_t n = strlen(s);
    if (n > 3 && !strcmp(s + n - 3, "e.p")) s[n - 3] = 0;
    out->kind = MOVE_NULL;
    if (parse_castle(b, legal, s, out, err, errlen) || parse_coord(b, legal, s, out, err, errlen) ||
        parse_san(b, legal, s, out, err, errlen)) {
        if (out->kind != MOVE_NULL && find_move(legal, *out) >= 0) return true;
        if (out->kind != MOVE_NULL) explain_refusal(b, *out, err, errlen);
        return false;
    }
    put_err(err, errlen, "'%s' is not a move in coordinate form (e2e4) or SAN (Nf3)", text, NULL);
    return false;
}
