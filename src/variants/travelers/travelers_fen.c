/* SPDX-License-Identifier: GPL-3.0-or-later
 * Time Traveler's Chess: its FEN, the board with traveling (N') and traveled (N")
 * pieces marked, then the identities, the explosions' supporters and the
 * pieces lost while traveling (travelers.c has the rules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "rules.h"
#include "travelers_men.h"
#include "zobrist.h"
#include "movegen.h"

/* ---- FEN ---------------------------------------------------------------- */

/*
 * Time Traveler's Chess FEN: the placement marks a traveling piece N' and
 * a traveled one N"; then the six usual fields; then three of the game's
 * own, each "-" when empty (trailing ones may be left out):
 *   identities   b1:1,g1:2      untraveled pieces that have supported an
 *                               explosion: square, identity
 *   explosions   Nf6:1,pd3:3+4  each explosion in the order made (White's,
 *                               then Black's): the piece letter (White upper
 *                               case), the square, the identities of its
 *                               supports joined by +
 *   flags        WB             a side that has lost a traveling piece
 * An en passant square with nothing beyond it follows a double step that
 * annihilated.  docs/notation.md has the whole story.
 */
enum { FEN_MAX = 512 };

/* Splits the placement's marks off: writes the placement without them
 * to `plain` and each square's state to `states`. */
static bool read_marked_placement(const char *p, size_t len, char *plain, size_t room, uint8_t states[64],
                                  Text *err)
{
    size_t n = 0;
    int rank = 7, file = 0;
    memset(states, 0, 64);
    for (size_t i = 0; i < len; i++) {
        char ch = p[i];
        if (ch == '\'' || ch == '"') {
            if (i == 0 || !strchr("PNBRQKpnbrqk", p[i - 1]))
                return text_fail(err, "bad FEN: a mark %c must follow a piece letter (N' traveling, N\" traveled)", ch);
            if (file >= 1 && file <= 8 && rank >= 0) states[make_square(file - 1, rank)] = ch == '\'' ? TRAVELING : TRAVELED;
            continue;
        }
        if (ch == '/') {
            rank--;
            file = 0;
        } else if (ch >= '1' && ch <= '8') {
            file += ch - '0';
        } else {
            file++;
        }
        if (n + 1 >= room) return text_fail(err, "bad FEN: the placement is too long");
        plain[n++] = ch;
    }
    plain[n] = 0;
    return true;
}

/* Is the square empty in a placement (without marks)? */
static bool states_square_empty(const char *placement, Square target)
{
    int rank = 7, file = 0;
    for (const char *c = placement; *c && *c != ' '; c++) {
        if (*c == '/') {
            rank--;
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            int n = *c - '0';
            if (rank == square_rank(target) && square_file(target) >= file && square_file(target) < file + n) return true;
            file += n;
        } else {
            if (rank == square_rank(target) && file == square_file(target)) return false;
            file++;
        }
    }
    return true;
}

static bool read_id_number(const char **p, const char *end, int *id)
{
    int v = 0, digits = 0;
    while (*p < end && **p >= '0' && **p <= '9' && digits < 3) v = v * 10 + (*(*p)++ - '0'), digits++;
    *id = v;
    return digits > 0 && v >= 1 && v <= TRAVELERS_MAX_IDS;
}

static bool read_identities(State *s, const char *p, size_t len, Text *err)
{
    TravelersState *ts = tstate(s);
    const char *end = p + len;
    if (len == 1 && *p == '-') return true;
    while (p < end) {
        char name[3] = { p[0], p + 1 < end ? p[1] : 0, 0 };
        Square sq = square_parse(name);
        p += 2;
        int id;
        if (sq == SQ_NONE || p >= end || *p++ != ':' || !read_id_number(&p, end, &id) || (p < end && *p++ != ','))
            return text_fail(err, "bad FEN: identities are written b1:1,g1:2 (square:identity 1-%d)", TRAVELERS_MAX_IDS);
        Piece pc = s->board.squares[sq];
        if (pc == NO_PIECE || travelers_piece_state(s, sq) != UNTRAVELED)
            return text_fail(err, "bad FEN: an identity belongs to an untraveled piece, and %s holds none", name);
        if (ts->id.tag[sq]) return text_fail(err, "bad FEN: %s has two identities", name);
        for (int q = 0; q < 64; q++)
            if (ts->id.tag[q] == id) return text_fail(err, "bad FEN: identity %d is given twice", id);
        ts->id.tag[sq] = (uint16_t)id;
    }
    return true;
}

static bool read_explosions(State *s, const char *p, size_t len, Text *err)
{
    TravelersState *ts = tstate(s);
    const char *end = p + len;
    if (len == 1 && *p == '-') return true;
    while (p < end) {
        char letter = *p++;
        PieceType x = piece_type_from_letter(letter);
        Color c = letter >= 'a' ? BLACK : WHITE;
        char name[3] = { p < end ? p[0] : 0, p + 1 < end ? p[1] : 0, 0 };
        Square sq = square_parse(name);
        p += 2;
        if (x == NO_TYPE || sq == SQ_NONE || p >= end || *p++ != ':')
            return text_fail(err, "bad FEN: explosions are written Nf6:1,pd3:2+3 (piece, square, identities of its supports)");
        uint32_t set = 0;
        for (;;) {
            int id;
            if (!read_id_number(&p, end, &id))
                return text_fail(err, "bad FEN: an explosion's supports are identities 1-%d joined by +", TRAVELERS_MAX_IDS);
            set |= 1u << (id - 1);
            if (id > ts->ids) ts->ids = (uint8_t)id;
            if (p < end && *p == '+') {
                p++;
                continue;
            }
            break;
        }
        if (p < end && *p++ != ',') return text_fail(err, "bad FEN: explosions are separated by commas");
        if (ts->explosions[c] >= TRAVELERS_MAX_EXPLOSIONS)
            return text_fail(err, "bad FEN: %s has more than %d explosions", color_name(c), TRAVELERS_MAX_EXPLOSIONS);
        int n = ts->explosions[c]++;
        ts->sets[c][n] = set;
        ts->square[c][n] = sq;
        ts->type[c][n] = x;
    }
    return true;
}

static bool read_flags(State *s, const char *p, size_t len, Text *err)
{
    TravelersState *ts = tstate(s);
    if (len == 1 && *p == '-') return true;
    for (size_t i = 0; i < len; i++) {
        if (p[i] == 'W') ts->lost[WHITE] = 1;
        else if (p[i] == 'B') ts->lost[BLACK] = 1;
        else return text_fail(err, "bad FEN: the flags are '-', W or B (a side that has lost a traveling piece)");
    }
    return true;
}

/* What must hold of a position for the game to have reached it. */
static bool check_position(const State *s, Text *err)
{
    const TravelersState *ts = travelers_cstate(s);
    const Board *b = &s->board;
    for (Color c = WHITE; c <= BLACK; c++) {
        Bitboard untraveled = b->by_color[c] & ~(ts->traveling | ts->traveled);
        if (bb_count(untraveled) > TRAVELERS_MAX_UNTRAVELED)
            return text_fail(err, "bad FEN: %s has %d untraveled pieces, and a side starts with %d and never gains one",
                             color_name(c), bb_count(untraveled), TRAVELERS_MAX_UNTRAVELED);
        int travelers = bb_count(b->by_color[c] & ts->traveling);
        if (travelers > ts->explosions[c])
            return text_fail(err, "bad FEN: %s has %d traveling pieces but has made %d explosions", color_name(c),
                             travelers, ts->explosions[c]);
        if (!sets_matchable(ts->sets[c], ts->explosions[c]))
            return text_fail(err, "bad FEN: %s's explosions cannot each have a support of their own", color_name(c));
        uint32_t all = 0;
        for (int i = 0; i < ts->explosions[c]; i++) all |= ts->sets[c][i];
        Bitboard own = b->by_color[c];
        while (own) {
            Square sq = bb_pop(&own);
            uint16_t id = ts->id.tag[sq];
            if (id && !(all & (1u << (id - 1)))) {
                char name[3];
                square_name(sq, name);
                return text_fail(err, "bad FEN: the identity %d of %s supports none of %s's explosions", id, name,
                                 color_name(c));
            }
        }
        for (int i = 0; i < 2; i++) {
            const CastleRule *r = &CASTLE_RULES[c][i];
            if ((b->castling & r->right) && ((ts->traveling | ts->traveled) & (BB(r->king_from) | BB(r->rook_from))))
                return text_fail(err, "bad FEN: castling needs an untraveled king and rook");
        }
    }
    Color mover = b->side, other = (Color)!mover;
    if (!travelers_correct(s, other))
        return text_fail(err, "bad FEN: %s, not to move, is grammatically incorrect (that position cannot arise)",
                         color_name(other));
    Men m;
    men_from_state(s, &m);
    if (travelers_correct(s, mover) && men_threat(&m, other, NULL))
        return text_fail(err, "bad FEN: %s is in check, but %s is to move (that position cannot arise)",
                         color_name(other), color_name(mover));
    return true;
}

State *travelers_from_fen(const Options *o, const char *fen, Text *err)
{
    (void)o;
    State *s = state_new(sizeof(TravelersState), err);
    if (!s) return NULL;
    TravelersState *ts = tstate(s);
    const char *p = fen, *start;
    char plain[FEN_MAX];
    uint8_t states[64];
    size_t len = fen_next_field(&p, &start);
    if (!read_marked_placement(start, len, plain, sizeof plain, states, err)) goto fail;
    /* The board's reader wants a pawn beyond an en passant square; after
     * an annihilation there is none, so such a square is read here. */
    size_t used = strlen(plain);
    Square ep_annihilated = SQ_NONE;
    for (int field = 1; field < 6; field++) {
        size_t n = fen_next_field(&p, &start);
        if (!n) break;
        if (used + n + 2 >= sizeof plain) {
            text_fail(err, "bad FEN: too long");
            goto fail;
        }
        plain[used++] = ' ';
        if (field == 3 && n == 2) {
            Square ep = square_parse((char[3]){ start[0], start[1], 0 });
            Square beyond = ep < 64 && square_rank(ep) == 2 ? (Square)(ep + 8) : ep < 64 && square_rank(ep) == 5 ? (Square)(ep - 8) : SQ_NONE;
            if (beyond != SQ_NONE && plain[0] && states_square_empty(plain, beyond)) {
                ep_annihilated = ep;
                start = "-";
                n = 1;
            }
        }
        memcpy(plain + used, start, n);
        used += n;
        plain[used] = 0;
    }
    const char *rest;
    if (!board_from_fen(&s->board, plain, &rest, err)) goto fail;
    if (ep_annihilated != SQ_NONE) {
        Board *bd = &s->board;
        Color mover = (Color)!bd->side;
        Square from = square_behind(mover, ep_annihilated), beyond = square_ahead(mover, ep_annihilated);
        if (square_rank(ep_annihilated) != (bd->side == WHITE ? 5 : 2) ||
            (board_occupied(bd) & (BB(from) | BB(ep_annihilated) | BB(beyond)))) {
            text_fail(err, "bad FEN: the en passant square must be '-' or a square on the 3rd or 6th rank that a pawn "
                           "has just skipped");
            goto fail;
        }
        board_set_ep(bd, ep_annihilated);
    }
    for (Square sq = 0; sq < 64; sq++) {
        if (!states[sq]) continue;
        if (s->board.squares[sq] == NO_PIECE) {
            text_fail(err, "bad FEN: a state mark on an empty square");
            goto fail;
        }
        if (states[sq] == TRAVELING) ts->traveling |= BB(sq);
        else ts->traveled |= BB(sq);
    }
    size_t n = fen_next_field(&p, &start);
    if (n && !read_identities(s, start, n, err)) goto fail;
    n = fen_next_field(&p, &start);
    if (n && !read_explosions(s, start, n, err)) goto fail;
    n = fen_next_field(&p, &start);
    if (n && !read_flags(s, start, n, err)) goto fail;
    n = fen_next_field(&p, &start);
    if (n) {
        text_fail(err, "bad FEN: unexpected '%.*s' after the flags", (int)(n > 20 ? 20 : n), start);
        goto fail;
    }
    for (Square sq = 0; sq < 64; sq++)
        if (ts->id.tag[sq] > ts->ids) ts->ids = (uint8_t)ts->id.tag[sq];
    if (!check_position(s, err)) goto fail;
    s->ext_key = travelers_ext_key(o, s);
    return s;
fail:
    free(s);
    return NULL;
}

void travelers_to_fen(const Options *o, const State *s, Text *out)
{
    (void)o;
    const Board *b = &s->board;
    const TravelersState *ts = travelers_cstate(s);
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            Square sq = make_square(file, rank);
            Piece p = b->squares[sq];
            if (p == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty) text_addf(out, "%d", empty);
            empty = 0;
            char letter = piece_letter(piece_type(p));
            text_add_char(out, piece_color(p) == WHITE ? letter : (char)(letter - 'A' + 'a'));
            int state = travelers_piece_state(s, sq);
            if (state == TRAVELING) text_add_char(out, '\'');
            if (state == TRAVELED) text_add_char(out, '"');
        }
        if (empty) text_addf(out, "%d", empty);
        if (rank) text_add_char(out, '/');
    }
    /* The six fields of the board's own FEN after its placement. */
    Text board = TEXT_INIT;
    Board copy = *b;
    bool annihilated = ep_after_annihilation(b);
    if (annihilated) board_set_ep(&copy, SQ_NONE);
    board_to_fen(&copy, &board);
    const char *fields = strchr(text_str(&board), ' ');
    if (annihilated) {
        /* The board writes '-' for the square it does not know. */
        const char *f = fields;
        for (int i = 0; i < 2 && f; i++) f = strchr(f + 1, ' ');
        char name[3];
        square_name(b->ep, name);
        if (f) text_addf(out, "%.*s %s %s", (int)(f - fields), fields, name, f + 3);
    } else if (fields) {
        text_add(out, fields);
    }
    text_free(&board);
    bool any = ts->explosions[WHITE] || ts->explosions[BLACK] || ts->lost[WHITE] || ts->lost[BLACK];
    if (!any) return;
    text_add_char(out, ' ');
    int n = 0;
    for (Square sq = 0; sq < 64; sq++) {
        if (!ts->id.tag[sq]) continue;
        char name[3];
        square_name(sq, name);
        text_addf(out, "%s%s:%u", n++ ? "," : "", name, (unsigned)ts->id.tag[sq]);
    }
    if (!n) text_add_char(out, '-');
    text_add_char(out, ' ');
    n = 0;
    for (Color c = WHITE; c <= BLACK; c++)
        for (int i = 0; i < ts->explosions[c]; i++) {
            char letter = piece_letter(ts->type[c][i]), name[3];
            square_name(ts->square[c][i], name);
            text_addf(out, "%s%c%s:", n++ ? "," : "", c == WHITE ? letter : (char)(letter - 'A' + 'a'), name);
            uint32_t set = ts->sets[c][i];
            for (int k = 0; set; k++) {
                int id = __builtin_ctz(set) + 1;
                set &= set - 1;
                text_addf(out, "%s%d", k ? "+" : "", id);
            }
        }
    if (!n) text_add_char(out, '-');
    text_add_char(out, ' ');
    if (ts->lost[WHITE]) text_add_char(out, 'W');
    if (ts->lost[BLACK]) text_add_char(out, 'B');
    if (!ts->lost[WHITE] && !ts->lost[BLACK]) text_add_char(out, '-');
}

/* ---- The parts of the FEN, for an editor -------------------------------- */

/* The marks on pieces and the three fields after chess's six, as
 * travelers_from_fen reads them. */
const FenPart TRAVELERS_FEN_PARTS[] = {
    { "marks", "Piece states", "a piece's state: ' after its letter for a traveling piece, \" for a traveled one, "
      "none for an untraveled one", "N'", FEN_MARKS, 0, false, "", "'\"" },
    { "identities", "Identities",
      "square:identity for each untraveled piece that has supported an explosion, joined by commas", "b1:1,g1:2",
      FEN_FIELD, 7, false, "-", NULL },
    { "explosions", "Explosions",
      "each explosion, White's then Black's: piece, square, : and the identities of its supports joined by +",
      "Nf6:1,nc6:3+4", FEN_FIELD, 8, false, "-", NULL },
    { "flags", "Traveling pieces lost", "W if White has lost a traveling piece to a capture, B if Black has",
      "W", FEN_FIELD, 9, false, "-", NULL },
    { NULL, NULL, NULL, NULL, 0, 0, false, NULL, NULL },
};
