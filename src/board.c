/* SPDX-License-Identifier: GPL-3.0-or-later
 * The board: placement, attack queries and FEN. */
#include "ttchess/board.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"

void board_clear(Board *b)
{
    attacks_init();
    memset(b, 0, sizeof *b);
    b->ep = SQ_NONE;
    b->fullmove = 1;
}

void board_put(Board *b, Square s, Piece p)
{
    Bitboard bit = BB(s);
    b->squares[s] = p;
    b->by_type[0] |= bit;
    b->by_type[piece_type(p)] |= bit;
    b->by_color[piece_color(p)] |= bit;
}

void board_remove(Board *b, Square s)
{
    Piece p = b->squares[s];
    if (p == NO_PIECE) return;
    Bitboard bit = BB(s);
    b->squares[s] = NO_PIECE;
    b->by_type[0] &= ~bit;
    b->by_type[piece_type(p)] &= ~bit;
    b->by_color[piece_color(p)] &= ~bit;
}

Bitboard board_attackers(const Board *b, Square s, Color by, Bitboard occ)
{
    Bitboard them = b->by_color[by];
    Bitboard diag = b->by_type[BISHOP] | b->by_type[QUEEN];
    Bitboard orth = b->by_type[ROOK] | b->by_type[QUEEN];
    return ((pawn_attacks((Color)!by, s) & b->by_type[PAWN]) |
            (knight_attacks(s) & b->by_type[KNIGHT]) |
            (king_attacks(s) & b->by_type[KING]) |
            (bishop_attacks(s, occ) & diag) |
            (rook_attacks(s, occ) & orth)) & them;
}

bool board_square_attacked(const Board *b, Square s, Color by)
{
    return board_attackers(b, s, by, board_occupied(b)) != 0;
}

Bitboard board_attacked_squares(const Board *b, Color by)
{
    Bitboard occ = board_occupied(b), att = 0;
    Bitboard pawns = board_pieces(b, by, PAWN);
    att |= by == WHITE ? ((pawns & ~FILE_A) << 7) | ((pawns & ~FILE_H) << 9)
                       : ((pawns & ~FILE_A) >> 9) | ((pawns & ~FILE_H) >> 7);
    Bitboard pieces = b->by_color[by] & ~b->by_type[PAWN];
    while (pieces) {
        Square s = bb_pop(&pieces);
        att |= piece_attacks(piece_type(b->squares[s]), s, occ);
    }
    return att;
}

bool board_in_check(const Board *b, Color c)
{
    Bitboard kings = board_kings(b, c);
    while (kings) {
        if (board_square_attacked(b, bb_pop(&kings), (Color)!c)) return true;
    }
    return false;
}

Bitboard board_checkers(const Board *b, Color c)
{
    Bitboard kings = board_kings(b, c);
    if (!kings) return 0;
    return board_attackers(b, bb_first(kings), (Color)!c, board_occupied(b));
}

Square square_parse(const char *s)
{
    if (!s || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return SQ_NONE;
    return make_square(s[0] - 'a', s[1] - '1');
}

void square_name(Square s, char buf[3])
{
    if (s >= 64) {
        buf[0] = '-';
        buf[1] = 0;
        return;
    }
    buf[0] = (char)('a' + square_file(s));
    buf[1] = (char)('1' + square_rank(s));
    buf[2] = 0;
}

char piece_letter(PieceType t) { return " PNBRQK"[t < 7 ? t : 0]; }

PieceType piece_type_from_letter(char c)
{
    switch (toupper((unsigned char)c)) {
    case 'P': return PAWN;
    case 'N': return KNIGHT;
    case 'B': return BISHOP;
    case 'R': return ROOK;
    case 'Q': return QUEEN;
    case 'K': return KING;
    default: return NO_TYPE;
    }
}

const char *piece_type_name(PieceType t)
{
    static const char *const names[] = { "piece", "pawn", "knight", "bishop", "rook", "queen", "king" };
    return names[t < 7 ? t : 0];
}

const char *color_name(Color c) { return c == WHITE ? "white" : "black"; }

static void set_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

/* Copies the next space-separated field of *p into buf; false if none. */
static bool next_field(const char **p, char *buf, size_t len)
{
    const char *s = *p;
    while (*s && strchr(" \t\r\n", *s)) s++;
    if (!*s) return false;
    size_t n = 0;
    while (*s && !strchr(" \t\r\n", *s)) {
        if (n + 1 < len) buf[n++] = *s;
        s++;
    }
    buf[n] = 0;
    *p = s;
    return true;
}

static bool parse_placement(Board *b, const char *f, char *err, size_t errlen)
{
    int rank = 7, file = 0;
    for (; *f; f++) {
        if (*f == '/') {
            if (file != 8) {
                char msg[96];
                snprintf(msg, sizeof msg, "bad FEN: rank %d has %d squares, not 8", rank + 1, file);
                set_err(err, errlen, msg);
                return false;
            }
            if (--rank < 0) {
                set_err(err, errlen, "bad FEN: more than 8 ranks");
                return false;
            }
            file = 0;
        } else if (*f >= '1' && *f <= '8') {
            file += *f - '0';
        } else {
            PieceType t = piece_type_from_letter(*f);
            if (t == NO_TYPE) {
                char msg[96];
                snprintf(msg, sizeof msg, "bad FEN: '%c' is not a piece letter", *f);
                set_err(err, errlen, msg);
                return false;
            }
            if (file >= 8) {
                file = 9;
            } else {
                board_put(b, make_square(file, rank), make_piece(isupper((unsigned char)*f) ? WHITE : BLACK, t));
                file++;
            }
        }
        if (file > 8) {
            char msg[96];
            snprintf(msg, sizeof msg, "bad FEN: rank %d has more than 8 squares", rank + 1);
            set_err(err, errlen, msg);
            return false;
        }
    }
    if (rank != 0 || file != 8) {
        set_err(err, errlen, "bad FEN: the board needs 8 ranks of 8 squares");
        return false;
    }
    return true;
}

/* Castling rights are kept only where the king and rook still stand on
 * their original squares, so that a right never refers to a missing piece. */
static uint8_t sane_castling(const Board *b, uint8_t rights)
{
    Piece wk = make_piece(WHITE, KING), bk = make_piece(BLACK, KING);
    Piece wr = make_piece(WHITE, ROOK), br = make_piece(BLACK, ROOK);
    if (b->squares[4] != wk) rights &= (uint8_t)~(CASTLE_WK | CASTLE_WQ);
    if (b->squares[60] != bk) rights &= (uint8_t)~(CASTLE_BK | CASTLE_BQ);
    if (b->squares[7] != wr) rights &= (uint8_t)~CASTLE_WK;
    if (b->squares[0] != wr) rights &= (uint8_t)~CASTLE_WQ;
    if (b->squares[63] != br) rights &= (uint8_t)~CASTLE_BK;
    if (b->squares[56] != br) rights &= (uint8_t)~CASTLE_BQ;
    return rights;
}

static bool parse_number(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (!*s) return false;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

bool board_from_fen(Board *b, const char *fen, const char **rest, char *err, size_t errlen)
{
    char field[128];
    const char *p = fen ? fen : "";
    board_clear(b);
    if (!next_field(&p, field, sizeof field)) {
        set_err(err, errlen, "bad FEN: it is empty");
        return false;
    }
    if (!parse_placement(b, field, err, errlen)) return false;

    if (!next_field(&p, field, sizeof field)) strcpy(field, "w");
    if (strcmp(field, "w") && strcmp(field, "b")) {
        set_err(err, errlen, "bad FEN: the side to move must be 'w' or 'b'");
        return false;
    }
    b->side = field[0] == 'w' ? WHITE : BLACK;

    if (!next_field(&p, field, sizeof field)) strcpy(field, "-");
    uint8_t rights = 0;
    if (strcmp(field, "-")) {
        for (const char *c = field; *c; c++) {
            const char *letters = "KQkq";
            const char *at = strchr(letters, *c);
            if (!at) {
                set_err(err, errlen, "bad FEN: castling rights must be '-' or letters from 'KQkq'");
                return false;
            }
            rights |= (uint8_t)(1u << (at - letters));
        }
    }
    b->castling = sane_castling(b, rights);

    if (!next_field(&p, field, sizeof field)) strcpy(field, "-");
    if (strcmp(field, "-")) {
        Square s = square_parse(field);
        if (s == SQ_NONE || field[2] || (square_rank(s) != (b->side == WHITE ? 5 : 2))) {
            set_err(err, errlen, "bad FEN: the en passant square must be '-' or a square on the 3rd or 6th rank");
            return false;
        }
        b->ep = s;
    }

    long v;
    const char *save = p;
    if (next_field(&p, field, sizeof field)) {
        if (!parse_number(field, 0, 10000, &v)) {
            /* A variant's own fields may follow four FEN fields, but a
             * field that starts like a number, or any field of plain FEN,
             * is a bad half-move clock. */
            if (!rest || (field[0] >= '0' && field[0] <= '9')) {
                set_err(err, errlen, "bad FEN: the half-move clock must be a whole number from 0 to 10000");
                return false;
            }
            /* Not a number: a variant field follows a four-field FEN. */
            p = save;
            goto done;
        }
        b->halfmove = (uint16_t)v;
        save = p;
        if (next_field(&p, field, sizeof field)) {
            if (!parse_number(field, 1, 60000, &v)) {
                set_err(err, errlen, "bad FEN: the move number must be a whole number from 1");
                return false;
            }
            b->fullmove = (uint16_t)v;
        }
    }
done:
    if (bb_count(b->by_type[PAWN] & (RANK_1 | RANK_8))) {
        set_err(err, errlen, "bad FEN: a pawn stands on the first or last rank");
        return false;
    }
    if (rest) {
        while (*p == ' ' || *p == '\t') p++;
        *rest = p;
    } else {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        if (*p) {
            set_err(err, errlen, "bad FEN: unexpected text after the move number");
            return false;
        }
    }
    return true;
}

void board_to_fen(const Board *b, char *buf, size_t len)
{
    char out[128];
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            Piece p = b->squares[make_square(file, rank)];
            if (p == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty) out[n++] = (char)('0' + empty);
            empty = 0;
            char c = piece_letter(piece_type(p));
            out[n++] = piece_color(p) == WHITE ? c : (char)tolower((unsigned char)c);
        }
        if (empty) out[n++] = (char)('0' + empty);
        if (rank) out[n++] = '/';
    }
    out[n] = 0;
    char castle[5] = "";
    int k = 0;
    for (int i = 0; i < 4; i++)
        if (b->castling & (1 << i)) castle[k++] = "KQkq"[i];
    castle[k] = 0;
    char ep[3];
    square_name(b->ep, ep);
    snprintf(buf, len, "%s %c %s %s %u %u", out, b->side == WHITE ? 'w' : 'b', k ? castle : "-", ep,
             (unsigned)b->halfmove, (unsigned)b->fullmove);
}

bool board_equal(const Board *a, const Board *b)
{
    return memcmp(a->squares, b->squares, sizeof a->squares) == 0 && a->side == b->side &&
           a->castling == b->castling && a->ep == b->ep;
}
