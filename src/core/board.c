/* SPDX-License-Identifier: GPL-3.0-or-later
 * The board: placement, its Zobrist key, attack queries and FEN. */
#include "board.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "zobrist.h"

void board_clear(Board *b)
{
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
    b->key ^= ZOBRIST_PIECE[p][s];
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
    b->key ^= ZOBRIST_PIECE[p][s];
}

void board_set_castling(Board *b, uint8_t rights)
{
    b->key ^= ZOBRIST_CASTLING[b->castling] ^ ZOBRIST_CASTLING[rights];
    b->castling = rights;
}

void board_set_ep(Board *b, Square ep)
{
    if (b->ep != SQ_NONE) b->key ^= ZOBRIST_EP_FILE[square_file(b->ep)];
    if (ep != SQ_NONE) b->key ^= ZOBRIST_EP_FILE[square_file(ep)];
    b->ep = ep;
}

void board_end_turn(Board *b, bool reset_clock)
{
    board_set_ep(b, SQ_NONE);
    b->halfmove = reset_clock ? 0 : (uint16_t)(b->halfmove + 1);
    if (b->side == BLACK) b->fullmove++;
    b->side = (Color)!b->side;
    b->key ^= ZOBRIST_SIDE;
}

uint64_t board_compute_key(const Board *b)
{
    uint64_t key = ZOBRIST_CASTLING[b->castling];
    for (Square s = 0; s < 64; s++)
        if (b->squares[s] != NO_PIECE) key ^= ZOBRIST_PIECE[b->squares[s]][s];
    if (b->ep != SQ_NONE) key ^= ZOBRIST_EP_FILE[square_file(b->ep)];
    if (b->side == BLACK) key ^= ZOBRIST_SIDE;
    return key;
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

/* ---- FEN ---------------------------------------------------------------- */

/* One space-separated field of a FEN, as a span of the text. */
typedef struct Field {
    const char *at;
    size_t len;
} Field;

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Finds the next field after *p; false if there is none. */
static bool next_field(const char **p, Field *f)
{
    const char *s = *p;
    while (is_blank(*s)) s++;
    if (!*s) return false;
    f->at = s;
    while (*s && !is_blank(*s)) s++;
    f->len = (size_t)(s - f->at);
    *p = s;
    return true;
}

static bool field_is(const Field *f, const char *word) { return f->len == strlen(word) && !strncmp(f->at, word, f->len); }

static bool parse_placement(Board *b, const Field *f, Text *err)
{
    int rank = 7, file = 0;
    for (size_t i = 0; i < f->len; i++) {
        char c = f->at[i];
        if (c == '/') {
            if (file != 8) return text_fail(err, "bad FEN: rank %d has %d squares, not 8", rank + 1, file);
            if (--rank < 0) return text_fail(err, "bad FEN: more than 8 ranks");
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
        } else {
            PieceType t = piece_type_from_letter(c);
            if (t == NO_TYPE) return text_fail(err, "bad FEN: '%c' is not a piece letter", c);
            if (file < 8) board_put(b, make_square(file, rank), make_piece(isupper((unsigned char)c) ? WHITE : BLACK, t));
            file++;
        }
        if (file > 8) return text_fail(err, "bad FEN: rank %d has more than 8 squares", rank + 1);
    }
    if (rank != 0 || file != 8) return text_fail(err, "bad FEN: the board needs 8 ranks of 8 squares");
    return true;
}

/* A castling right needs its king and rook on their original squares: a
 * right that refers to a missing piece describes no position a game can
 * reach, so it is refused with the right it is, as other impossible FENs
 * are, not quietly dropped. */
static bool castling_fits(const Board *b, int right, Text *err)
{
    static const struct {
        Color side;
        Square king, rook;
    } need[4] = { { WHITE, 4, 7 }, { WHITE, 4, 0 }, { BLACK, 60, 63 }, { BLACK, 60, 56 } };
    Color c = need[right].side;
    if (b->squares[need[right].king] == make_piece(c, KING) && b->squares[need[right].rook] == make_piece(c, ROOK))
        return true;
    char king[3], rook[3];
    square_name(need[right].king, king);
    square_name(need[right].rook, rook);
    return text_fail(err, "bad FEN: the castling right '%c' needs the %s king on %s and a %s rook on %s", "KQkq"[right],
                     color_name(c), king, color_name(c), rook);
}

/* The king of colour c on its first rank, where a Chess960 castling
 * right needs it; SQ_NONE if it stands elsewhere (or there are several). */
static Square home_king(const Board *b, Color c)
{
    Bitboard k = board_kings(b, c) & (c == WHITE ? RANK_1 : RANK_8);
    return k && !bb_many(k) ? bb_first(k) : SQ_NONE;
}

/* The file of the rook that a Chess960 castling letter names, or -1: K or
 * Q (k or q) the outermost rook on that side of the king, A-H (a-h) the
 * rook on that file. */
static int castling960_file(const Board *b, char letter, Color c, Square king)
{
    char up = (char)toupper((unsigned char)letter);
    int rank = square_rank(king), kf = square_file(king);
    Piece rook = make_piece(c, ROOK);
    if (up == 'K' || up == 'Q') {
        int step = up == 'K' ? -1 : 1;
        for (int f = up == 'K' ? 7 : 0; f != kf; f += step)
            if (b->squares[make_square(f, rank)] == rook) return f;
        return -1;
    }
    int f = up - 'A';
    return f != kf && b->squares[make_square(f, rank)] == rook ? f : -1;
}

/* One letter of a Chess960 castling field: the right it is (by which
 * side of the king its rook stands) and the rook it castles with. */
static bool castling960_right(Board *b, char letter, uint8_t *rights, Text *err)
{
    char up = (char)toupper((unsigned char)letter);
    if (up != 'K' && up != 'Q' && (up < 'A' || up > 'H'))
        return text_fail(err, "bad FEN: Chess960 castling rights must be '-', letters from 'KQkq' or rook files "
                              "from 'A'-'H' and 'a'-'h'");
    Color c = isupper((unsigned char)letter) ? WHITE : BLACK;
    Square king = home_king(b, c);
    if (king == SQ_NONE)
        return text_fail(err, "bad FEN: the castling right '%c' needs the %s king on its first rank", letter,
                         color_name(c));
    int file = castling960_file(b, letter, c, king);
    if (file < 0)
        return text_fail(err, "bad FEN: the castling right '%c' needs a %s rook on the king's rank, %s", letter,
                         color_name(c), up == 'K' ? "on its h-side" : up == 'Q' ? "on its a-side" : "on that file");
    int i = (c == WHITE ? 0 : 2) + (file > square_file(king) ? 0 : 1);
    if (*rights & (1u << i))
        return text_fail(err, "bad FEN: the castling rights name two %s rooks on the same side of the king",
                         color_name(c));
    *rights |= (uint8_t)(1u << i);
    b->castle_rook[i] = make_square(file, square_rank(king));
    return true;
}

static bool parse_castling960(Board *b, const Field *f, Text *err)
{
    uint8_t rights = 0;
    if (!field_is(f, "-"))
        for (size_t i = 0; i < f->len; i++)
            if (!castling960_right(b, f->at[i], &rights, err)) return false;
    b->castling = rights;
    return true;
}

static bool parse_castling(Board *b, const Field *f, Text *err)
{
    if (b->chess960) return parse_castling960(b, f, err);
    uint8_t rights = 0;
    if (!field_is(f, "-")) {
        for (size_t i = 0; i < f->len; i++) {
            const char *letters = "KQkq";
            const char *at = strchr(letters, f->at[i]);
            if (!at || !f->at[i]) return text_fail(err, "bad FEN: castling rights must be '-' or letters from 'KQkq'");
            if (!castling_fits(b, (int)(at - letters), err)) return false;
            rights |= (uint8_t)(1u << (at - letters));
        }
    }
    b->castling = rights;
    return true;
}

/* An en passant square says a pawn has just moved two squares past it:
 * that pawn must stand in front of it, and the square it crossed and the
 * one it left must be empty. */
static bool parse_ep(Board *b, const Field *f, Text *err)
{
    if (field_is(f, "-")) return true;
    Square s = f->len == 2 ? square_parse(f->at) : SQ_NONE;
    if (s == SQ_NONE || square_rank(s) != (b->side == WHITE ? 5 : 2))
        return text_fail(err, "bad FEN: the en passant square must be '-' or a square on the 3rd or 6th rank");
    Color mover = (Color)!b->side;
    int ahead = mover == WHITE ? 8 : -8;
    Square pawn = (Square)(s + ahead), left = (Square)(s - ahead);
    if (b->squares[pawn] != make_piece(mover, PAWN) || b->squares[s] != NO_PIECE || b->squares[left] != NO_PIECE) {
        char sq[3], at[3];
        square_name(s, sq);
        square_name(pawn, at);
        return text_fail(err, "bad FEN: the en passant square %s needs the %s pawn that has just moved past it on %s",
                         sq, color_name(mover), at);
    }
    b->ep = s;
    return true;
}

/* A whole number from lo to hi, digits only. */
static bool parse_number(const Field *f, long lo, long hi, long *out)
{
    if (f->len == 0 || f->len > 6) return false;
    long v = 0;
    for (size_t i = 0; i < f->len; i++) {
        if (!isdigit((unsigned char)f->at[i])) return false;
        v = v * 10 + (f->at[i] - '0');
    }
    if (v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* The two counters, which may be missing.  A variant's own fields may
 * follow four FEN fields, but a field that starts like a number, or any
 * field of plain FEN, is a bad half-move clock. */
static bool parse_counters(Board *b, const char **p, bool variant_fields, Text *err)
{
    Field f;
    long v;
    const char *save = *p;
    if (!next_field(p, &f)) return true;
    if (!parse_number(&f, 0, 10000, &v)) {
        if (variant_fields && !isdigit((unsigned char)f.at[0])) {
            *p = save;
            return true;
        }
        return text_fail(err, "bad FEN: the half-move clock must be a whole number from 0 to 10000");
    }
    b->halfmove = (uint16_t)v;
    if (!next_field(p, &f)) return true;
    if (!parse_number(&f, 1, 60000, &v))
        return text_fail(err, "bad FEN: the move number must be a whole number from 1 to 60000");
    b->fullmove = (uint16_t)v;
    return true;
}

bool board_from_fen(Board *b, const char *fen, const char **rest, Text *err)
{
    return board_from_fen_pawns(b, fen, rest, false, err);
}

/* Where a pawn may stand: never on the rank where it would have promoted,
 * and on its own first rank only in a game that drops pawns there. */
static bool pawns_placed_ok(const Board *b, bool first_rank_pawns, Text *err)
{
    Bitboard last = (board_pieces(b, WHITE, PAWN) & RANK_8) | (board_pieces(b, BLACK, PAWN) & RANK_1);
    Bitboard first = (board_pieces(b, WHITE, PAWN) & RANK_1) | (board_pieces(b, BLACK, PAWN) & RANK_8);
    if ((first && !first_rank_pawns) || (last && !first_rank_pawns))
        return text_fail(err, "bad FEN: a pawn stands on the first or last rank");
    if (last) return text_fail(err, "bad FEN: a pawn stands on the last rank, where it would have promoted");
    return true;
}

/* Reads a FEN of standard chess, of a game that drops pawns on their
 * first rank, or of Chess960. */
static bool read_fen(Board *b, const char *fen, const char **rest, bool first_rank_pawns, bool chess960, Text *err)
{
    const char *p = fen ? fen : "";
    Field f;
    board_clear(b);
    b->chess960 = chess960;
    if (!next_field(&p, &f)) return text_fail(err, "bad FEN: it is empty");
    if (!parse_placement(b, &f, err)) return false;
    if (next_field(&p, &f)) {
        if (!field_is(&f, "w") && !field_is(&f, "b")) return text_fail(err, "bad FEN: the side to move must be 'w' or 'b'");
        b->side = f.at[0] == 'w' ? WHITE : BLACK;
        if (next_field(&p, &f)) {
            if (!parse_castling(b, &f, err)) return false;
            if (next_field(&p, &f)) {
                if (!parse_ep(b, &f, err)) return false;
                if (!parse_counters(b, &p, rest != NULL, err)) return false;
            }
        }
    }
    if (!pawns_placed_ok(b, first_rank_pawns, err)) return false;
    b->key = board_compute_key(b);
    while (is_blank(*p)) p++;
    if (rest) {
        *rest = p;
        return true;
    }
    if (*p) return text_fail(err, "bad FEN: unexpected text after the move number");
    return true;
}

bool board_from_fen_pawns(Board *b, const char *fen, const char **rest, bool first_rank_pawns, Text *err)
{
    return read_fen(b, fen, rest, first_rank_pawns, false, err);
}

bool board_from_fen_chess960(Board *b, const char *fen, const char **rest, Text *err)
{
    return read_fen(b, fen, rest, false, true, err);
}

/* A Chess960 right in X-FEN: K or Q (k or q) when its rook is the
 * outermost on that side of the king, else the rook's file, which
 * Shredder-FEN readers take too. */
static char castling960_letter(const Board *b, int i)
{
    Square rook = b->castle_rook[i];
    Color c = i < 2 ? WHITE : BLACK;
    int rank = square_rank(rook), step = (i & 1) ? -1 : 1;
    bool outermost = true;
    for (int f = square_file(rook) + step; f >= 0 && f < 8; f += step)
        if (b->squares[make_square(f, rank)] == make_piece(c, ROOK)) outermost = false;
    char letter = outermost ? "KQKQ"[i] : (char)('A' + square_file(rook));
    return c == WHITE ? letter : (char)tolower((unsigned char)letter);
}

void board_to_fen(const Board *b, Text *out)
{
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            Piece p = b->squares[make_square(file, rank)];
            if (p == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty) text_add_char(out, (char)('0' + empty));
            empty = 0;
            char c = piece_letter(piece_type(p));
            text_add_char(out, piece_color(p) == WHITE ? c : (char)tolower((unsigned char)c));
        }
        if (empty) text_add_char(out, (char)('0' + empty));
        if (rank) text_add_char(out, '/');
    }
    char castle[5] = "";
    int k = 0;
    for (int i = 0; i < 4; i++)
        if (b->castling & (1 << i)) castle[k++] = b->chess960 ? castling960_letter(b, i) : "KQkq"[i];
    castle[k] = 0;
    char ep[3];
    square_name(b->ep, ep);
    text_addf(out, " %c %s %s %u %u", b->side == WHITE ? 'w' : 'b', k ? castle : "-", ep, (unsigned)b->halfmove,
              (unsigned)b->fullmove);
}

bool board_equal(const Board *a, const Board *b)
{
    return memcmp(a->squares, b->squares, sizeof a->squares) == 0 && a->side == b->side &&
           a->castling == b->castling && a->ep == b->ep;
}
