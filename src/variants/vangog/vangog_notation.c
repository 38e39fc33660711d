/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * van Gog notation: reading the seed's forms (Qd1-d4*, Rd8xd4*,
 * Qd1-h5+*, Qd1-d4**, Qh5†, Qh5#††, with figurines for letters and ^ for
 * a dagger) and the coordinate forms (Qd1d4*, d1d4**, d1h5^, Qh5^^),
 * writing both, and saying in words which rule forbids an action that is
 * refused.
 */
#include <stdio.h>
#include <string.h>

#include "attacks.h"
#include "rules.h"
#include "vangog.h"
#include "movegen.h"
#include "notation.h"

/* Actions are short: anything longer than this is refused as no action. */
enum { ACTION_MAX = 48 };

static const char DAGGER[] = "\xE2\x80\xA0"; /* † */

/* ---- Writing ------------------------------------------------------------ */

static void add_square(Text *out, Square s)
{
    char name[3];
    square_name(s, name);
    text_add(out, name);
}

/* The piece letter of the human form: none for a pawn. */
static void add_letter(Text *out, PieceType t)
{
    if (t != PAWN) text_add_char(out, piece_letter(t));
}

void obligation_text(const Obligation *o, Text *out)
{
    add_letter(out, o->type);
    add_square(out, o->from);
    text_add_char(out, o->capture ? 'x' : '-');
    add_square(out, o->to);
    text_add(out, o->check ? "+*" : "*");
}

/* A traveller, and a reappearance, name no square it left from: a pawn
 * keeps its letter there ("Pxd5†"), as it would read oddly without. */
void traveller_text(const VanGogTraveller *t, Text *out)
{
    text_add_char(out, piece_letter(t->type));
    if (t->capture) text_add_char(out, 'x');
    add_square(out, t->to);
    if (t->check) text_add_char(out, '+');
    text_add(out, DAGGER);
}

bool vangog_format_coord(const Line *l, Move m, Text *out)
{
    (void)l;
    switch (m.kind) {
    case MOVE_ARRIVAL:
        text_add_char(out, piece_letter(m.piece));
        add_square(out, m.from);
        add_square(out, m.to);
        text_add(out, "*");
        break;
    case MOVE_DEPART_PAST:
    case MOVE_DEPART_FUTURE:
        add_square(out, m.from);
        add_square(out, m.to);
        text_add(out, m.kind == MOVE_DEPART_PAST ? "**" : "^");
        break;
    case MOVE_REAPPEAR:
        text_add_char(out, piece_letter(m.piece));
        add_square(out, m.to);
        text_add(out, "^^");
        break;
    default: move_to_coord(m, out); break;
    }
    return !out->failed;
}

/* "Nb" or "N1" or "Nb1": what tells this departure to the future apart
 * from the others of the same kind of piece to the same square. */
static void add_future_disambiguation(const Line *l, Move m, Text *out)
{
    MoveList list;
    if (!legal_actions(l, &list, NULL)) {
        out->failed = true;
        return;
    }
    bool others = false, same_file = false, same_rank = false;
    for (int i = 0; i < list.count; i++) {
        Move o = list.moves[i];
        if (o.kind != MOVE_DEPART_FUTURE || o.to != m.to || o.from == m.from || o.piece != m.piece) continue;
        others = true;
        same_file |= square_file(o.from) == square_file(m.from);
        same_rank |= square_rank(o.from) == square_rank(m.from);
    }
    movelist_free(&list);
    char from[3];
    square_name(m.from, from);
    if (!others) return;
    if (!same_file) text_add_char(out, from[0]);
    else if (!same_rank) text_add_char(out, from[1]);
    else text_add(out, from);
}

bool vangog_format_human(const Line *l, Move m, Text *out)
{
    if (move_is_chess(m)) return san_in_line(l, m, out);
    const Board *b = line_board(l);
    char mark = 0;
    if (!line_check_mark(l, m, &mark)) return false;
    bool capture = b->squares[m.to] != NO_PIECE;
    switch (m.kind) {
    case MOVE_ARRIVAL:
    case MOVE_DEPART_PAST:
        add_letter(out, m.piece);
        add_square(out, m.from);
        text_add_char(out, capture ? 'x' : '-');
        add_square(out, m.to);
        break;
    case MOVE_DEPART_FUTURE:
        add_letter(out, m.piece);
        if (m.piece == PAWN) {
            if (capture) text_add_char(out, (char)('a' + square_file(m.from)));
        } else {
            add_future_disambiguation(l, m, out);
        }
        if (capture) text_add_char(out, 'x');
        add_square(out, m.to);
        break;
    default: /* MOVE_REAPPEAR */
        text_add_char(out, piece_letter(m.piece));
        if (capture) text_add_char(out, 'x');
        add_square(out, m.to);
        break;
    }
    if (mark) text_add_char(out, mark);
    switch (m.kind) {
    case MOVE_ARRIVAL: text_add(out, "*"); break;
    case MOVE_DEPART_PAST: text_add(out, "**"); break;
    case MOVE_DEPART_FUTURE: text_add(out, DAGGER); break;
    default: text_addf(out, "%s%s", DAGGER, DAGGER); break;
    }
    return !out->failed;
}

/* ---- Reading ------------------------------------------------------------ */

/* The figurines (white ♔ to ♙, then black ♚ to ♟) as letters. */
static const char FIGURINE_LETTERS[] = "KQRBNPKQRBNP";

/* The text in plain ASCII without spaces and annotations: figurines
 * become letters, a dagger ^ and a double dagger ^^, the multiplication
 * sign x; check and mate marks and !? go.  False if nothing is left or it
 * is too long. */
static bool canonical(const char *text, char *buf, size_t len)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        const char *add = NULL;
        char one[2] = { 0, 0 };
        size_t skip = 1;
        if (p[0] == 0xE2 && p[1] == 0x99 && p[2] >= 0x94 && p[2] <= 0x9F) {
            one[0] = FIGURINE_LETTERS[p[2] - 0x94];
            add = one;
            skip = 3;
        } else if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA0 || p[2] == 0xA1)) {
            add = p[2] == 0xA0 ? "^" : "^^";
            skip = 3;
        } else if (p[0] == 0xE2 && p[1] == 0x80 && p[2] >= 0x90 && p[2] <= 0x95) {
            add = "-"; /* hyphens and dashes */
            skip = 3;
        } else if (p[0] == 0xC3 && p[1] == 0x97) {
            add = "x";
            skip = 2;
        } else if (strchr(" \t\r\n+#!?", p[0])) {
            add = "";
        } else {
            one[0] = (char)p[0];
            add = one;
        }
        size_t k = strlen(add);
        if (n + k + 1 > len) return false;
        memcpy(buf + n, add, k);
        n += k;
        p += skip;
    }
    while (n > 0 && buf[n - 1] == '.') n--;
    buf[n] = 0;
    return n > 0;
}

/* "[X]f[-x:]t" to the end of the text. */
static bool read_long(const char *p, PieceType *x, Square *f, Square *t)
{
    *x = notation_read_piece(&p);
    if (!notation_read_square(&p, f)) return false;
    if (*p == '-' || *p == 'x' || *p == ':') p++;
    return notation_read_square(&p, t) && !*p;
}


/* Relative rank of s for colour c: 0 is c's first rank. */
static int relative_rank(Color c, Square s) { return c == WHITE ? square_rank(s) : 7 - square_rank(s); }

/* Says so and returns true if the mover's kings are attacked afterwards. */
static bool would_expose(const Board *after, Color us, Text *err)
{
    if (!board_in_check(after, us)) return false;
    text_fail(err, "that would leave the %s king in check", color_name(us));
    return true;
}

/* Why an arrival is refused, rule by rule. */
static void explain_arrival(const Line *l, PieceType x, Square f, Square t, Text *err)
{
    const Board *b = line_board(l);
    const State *s = line_state(l);
    Color us = b->side;
    char fs[3], ts[3];
    square_name(f, fs);
    square_name(t, ts);
    if (!vangog_rules(l)->from_future) {
        text_fail(err, "%s has no arrivals from the future (only departures to the future and reappearances)",
                  line_variant(l)->name);
        return;
    }
    if (vangog_arrivals(s) >= VANGOG_MAX_ARRIVALS) {
        text_fail(err, "this game has reached the most arrivals ttchess keeps (%d)", VANGOG_MAX_ARRIVALS);
        return;
    }
    if (f == t) {
        text_fail(err, "an arriving piece comes from another square than the one it lands on");
        return;
    }
    if (x == PAWN && (relative_rank(us, f) == 0 || relative_rank(us, t) == 0)) {
        text_fail(err, "a pawn cannot arrive on its first rank or from it: no %s pawn ever stands on %s",
                  color_name(us), relative_rank(us, f) == 0 ? fs : ts);
        return;
    }
    if (x == PAWN && relative_rank(us, t) == 7) {
        text_fail(err, "a pawn cannot arrive on its last rank: time travel never promotes");
        return;
    }
    int capture = vangog_capture_at(b, us, t);
    if (capture < 0) {
        text_fail(err, "kings are never captured (a king stands on %s)", ts);
        return;
    }
    if (x == KING && capture == CAPTURE_SELF) {
        text_fail(err, "kings never capture their own pieces");
        return;
    }
    if (!vangog_arrival_shape(us, x, f, t, capture)) {
        bool diagonal = square_file(f) != square_file(t);
        if (x == PAWN && vangog_arrival_shape(us, x, f, t, capture ? CAPTURE_NONE : CAPTURE_ENEMY))
            text_fail(err, diagonal ? "a pawn arriving diagonally must capture (or self-capture), and %s is empty"
                                    : "a pawn arriving straight on needs an empty square, and %s is occupied", ts);
        else if (x == PAWN)
            text_fail(err, "a pawn cannot come from %s to %s: one or two steps forward, or one diagonally forward", fs, ts);
        else
            text_fail(err, "a %s cannot move from %s to %s", piece_type_name(x), fs, ts);
        return;
    }
    Board after;
    vangog_board_after_landing(b, us, x, t, &after);
    if (x == KING && board_square_attacked(&after, t, (Color)!us)) {
        text_fail(err, "a king cannot arrive on %s: it would stand in check", ts);
        return;
    }
    if (!would_expose(&after, us, err)) text_fail(err, "that arrival is not allowed in this position");
}

/* The departure's facts, and what it would leave on the board. */
typedef struct Departure {
    PieceType x;
    int capture;
    bool check;
    Board after;
} Departure;

/* The common grounds for refusing a departure either way: no piece, the
 * wrong piece, a king on t, geometry, a king onto an attacked square.
 * False when it was refused (err says why). */
static bool departure_possible(const Line *l, Square f, Square t, PieceType named, Departure *d, Text *err)
{
    const Board *b = line_board(l);
    Color us = b->side;
    char fs[3], ts[3];
    square_name(f, fs);
    square_name(t, ts);
    Piece p = b->squares[f];
    if (p == NO_PIECE || piece_color(p) != us) return text_fail(err, "there is no %s piece on %s", color_name(us), fs);
    d->x = piece_type(p);
    if (named != NO_TYPE && named != d->x)
        return text_fail(err, "the piece on %s is a %s, not a %s", fs, piece_type_name(d->x), piece_type_name(named));
    d->capture = vangog_capture_at(b, us, t);
    if (d->capture < 0) return text_fail(err, "kings are never captured (a king stands on %s)", ts);
    if (d->x == KING && d->capture == CAPTURE_SELF) return text_fail(err, "kings never capture their own pieces");
    if (d->x == PAWN && relative_rank(us, t) == 7)
        return text_fail(err, "a pawn cannot travel in time onto its last rank: time travel never promotes");
    if (!vangog_departure_shape(b, f, t)) {
        Board stepped = *b;
        board_remove(&stepped, f);
        if (d->x == KING && (king_attacks(f) & BB(t)) && board_square_attacked(&stepped, t, (Color)!us))
            return text_fail(err, "a king may not step onto an attacked square, not even to leave");
        if (d->x == KING && square_rank(f) == square_rank(t) && (f > t ? f - t : t - f) == 2)
            return text_fail(err, "a king cannot castle into time travel");
        return text_fail(err, "the %s on %s cannot move to %s", piece_type_name(d->x), fs, ts);
    }
    vangog_board_after_departure(b, f, t, &d->after);
    d->check = board_in_check(&d->after, (Color)!us);
    return true;
}

static void explain_departure_past(const Line *l, Square f, Square t, PieceType named, Text *err)
{
    const State *s = line_state(l);
    const Board *b = &s->board;
    Color us = b->side;
    if (!vangog_rules(l)->from_future) {
        text_fail(err, "%s has no departures to the past (only to the future)", line_variant(l)->name);
        return;
    }
    Departure d;
    if (!departure_possible(l, f, t, named, &d, err)) return;
    Obligation wanted = { 0, us, d.x, f, t, (uint8_t)d.capture, d.check };
    int origin = vangog_cstate(s)->origin.tag[f];
    bool banned;
    const Obligation *fulfilled = vangog_fulfils(s, origin, us, d.x, f, t, d.capture, d.check, &banned);
    const Obligation *ob = vangog_obligations(s);
    if (!fulfilled && !banned) {
        Text want = TEXT_INIT, open = TEXT_INIT;
        obligation_text(&wanted, &want);
        for (int i = 0; i < vangog_cstate(s)->obligations; i++) {
            if (ob[i].color != us) continue;
            text_add(&open, open.len ? ", " : "");
            obligation_text(&ob[i], &open);
        }
        if (open.len)
            text_fail(err, "no open obligation %s (%s's open obligations: %s)", text_str(&want), color_name(us),
                      text_str(&open));
        else
            text_fail(err, "no open obligation %s (%s has none)", text_str(&want), color_name(us));
        text_free(&want);
        text_free(&open);
        return;
    }
    for (int i = 0; i < vangog_cstate(s)->obligations && !fulfilled; i++) {
        if (!obligation_matches(&ob[i], us, d.x, f, t, d.capture, d.check)) continue;
        Text arrival = TEXT_INIT;
        obligation_text(&ob[i], &arrival);
        if (origin == ob[i].number)
            text_fail(err, "the %s that arrived by %s cannot fulfil its own obligation", piece_type_name(d.x),
                      text_str(&arrival));
        else
            text_fail(err, "the %s on %c%c owes its existence to the arrival %s, so it cannot fulfil that "
                      "obligation (no ex nihilo loops)", piece_type_name(d.x), 'a' + square_file(f), '1' + square_rank(f),
                      text_str(&arrival));
        text_free(&arrival);
        return;
    }
    if (!would_expose(&d.after, us, err)) text_fail(err, "that departure is not allowed in this position");
}

static void explain_departure_future(const Line *l, Square f, Square t, PieceType named, Text *err)
{
    if (!vangog_rules(l)->to_future) {
        text_fail(err, "%s has no departures to the future (only arrivals from it)", line_variant(l)->name);
        return;
    }
    Departure d;
    if (!departure_possible(l, f, t, named, &d, err)) return;
    if (!would_expose(&d.after, line_board(l)->side, err)) text_fail(err, "that departure is not allowed in this position");
}

static void explain_reappearance(const Line *l, PieceType x, Square t, Text *err)
{
    const State *s = line_state(l);
    const Board *b = &s->board;
    Color us = b->side;
    char ts[3];
    square_name(t, ts);
    if (!vangog_rules(l)->to_future) {
        text_fail(err, "%s has no travellers to the future, so nothing reappears", line_variant(l)->name);
        return;
    }
    const VanGogTraveller *tr = vangog_travellers(s), *first = NULL;
    int capture = vangog_capture_at(b, us, t);
    bool kind_matches = false;
    for (int i = 0; i < vangog_cstate(s)->travellers; i++) {
        if (tr[i].color != us || tr[i].type != x || tr[i].to != t) continue;
        if (!first) first = &tr[i];
        kind_matches |= tr[i].capture == capture;
    }
    if (!first) {
        text_fail(err, "%s has no %s travelling to %s", color_name(us), piece_type_name(x), ts);
        return;
    }
    if (capture < 0) {
        text_fail(err, "kings are never captured (a king stands on %s)", ts);
        return;
    }
    if (!kind_matches) {
        if (first->capture == CAPTURE_NONE)
            text_fail(err, "the %s left for %s without capturing, so it can return only to an empty square", piece_type_name(x), ts);
        else if (first->capture == CAPTURE_ENEMY)
            text_fail(err, "the %s captured on %s when it left, so it must return by capturing an enemy piece there",
                      piece_type_name(x), ts);
        else
            text_fail(err, "the %s took a piece of its own on %s when it left, so it must return onto one of its own "
                      "pieces (no king)", piece_type_name(x), ts);
        return;
    }
    Board after;
    vangog_board_after_landing(b, us, x, t, &after);
    if (would_expose(&after, us, err)) return;
    bool check = board_in_check(&after, (Color)!us);
    text_fail(err, check ? "the %s left without giving check, so it may not return giving check"
                         : "the %s left giving check, so it must return giving check", piece_type_name(x));
}

/* Is m legal?  1: yes (and *out = m), 0: no, -1: out of memory (err
 * says so). */
static int try_action(const Line *l, Move m, Move *out, Text *err)
{
    bool legal;
    if (!line_is_legal(l, m, &legal)) {
        text_fail(err, "out of memory");
        return -1;
    }
    if (legal) *out = m;
    return legal;
}

/* A departure to the future in SAN ([X][file|rank|square][x]t): the one
 * legal departure it names, or a refusal. */
static bool parse_future_san(const Line *l, const char *body, Move *out, Text *err)
{
    static const char FORM[] = "cannot read '%s' as a departure to the future (e.g. Qh5^, Nbd2^, exd5^ or d1h5^)";
    const char *p = body;
    PieceType x = notation_read_piece(&p);
    if (x == NO_TYPE) x = PAWN;
    size_t n = strlen(p);
    Square t = n >= 2 ? square_parse(p + n - 2) : SQ_NONE;
    if (t == SQ_NONE) return text_fail(err, FORM, body);
    int file = -1, rank = -1;
    for (const char *q = p; q < p + n - 2; q++) {
        if (*q >= 'a' && *q <= 'h' && file < 0 && rank < 0) file = *q - 'a';
        else if (*q >= '1' && *q <= '8' && rank < 0) rank = *q - '1';
        else if (*q != 'x' || q != p + n - 3) return text_fail(err, FORM, body);
    }
    if (!vangog_rules(l)->to_future) {
        explain_departure_future(l, SQ_NONE, t, x, err);
        return false;
    }
    MoveList list;
    if (!legal_actions(l, &list, err)) return false;
    int found = 0;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (m.kind != MOVE_DEPART_FUTURE || m.to != t || m.piece != x) continue;
        if ((file >= 0 && square_file(m.from) != file) || (rank >= 0 && square_rank(m.from) != rank)) continue;
        *out = m;
        found++;
    }
    movelist_free(&list);
    char ts[3];
    square_name(t, ts);
    if (found == 1) return true;
    if (found > 1)
        return text_fail(err, "more than one %s can depart to %s: say which, e.g. by its square (d1h5^)", piece_type_name(x), ts);
    /* None is legal: the reason of the one piece that could be meant, the
     * first whose move is possible but exposes a king, or none. */
    const Board *b = line_board(l);
    Bitboard ours = board_pieces(b, b->side, x), meant = 0;
    while (ours) {
        Square from = bb_pop(&ours);
        if ((file >= 0 && square_file(from) != file) || (rank >= 0 && square_rank(from) != rank)) continue;
        meant |= BB(from);
        Text why = TEXT_INIT;
        Departure d;
        bool possible = departure_possible(l, from, t, x, &d, &why);
        text_free(&why);
        if (possible) {
            explain_departure_future(l, from, t, x, err);
            return false;
        }
    }
    if (meant && !bb_many(meant)) {
        explain_departure_future(l, bb_first(meant), t, x, err);
        return false;
    }
    return text_fail(err, "no %s %s can move to %s", color_name(b->side), piece_type_name(x), ts);
}

bool vangog_parse(const Line *l, const char *text, Move *out, Text *err)
{
    char buf[ACTION_MAX];
    if (!canonical(text, buf, sizeof buf)) return text_fail(err, "cannot read '%s' as an action", text);
    size_t n = strlen(buf), stars = 0, carets = 0;
    while (stars < n && buf[n - 1 - stars] == '*') stars++;
    while (!stars && carets < n && buf[n - 1 - carets] == '^') carets++;
    buf[n - stars - carets] = 0;
    const char *body = buf;
    PieceType x;
    Square f, t;
    if (stars > 2 || carets > 2 || strpbrk(body, "*^"))
        return text_fail(err, "cannot read '%s': one * marks an arrival, ** a departure to the past, ^ (†) a "
                         "departure to the future, ^^ (††) a reappearance", text);
    int r;
    if (stars == 1) {
        if (!read_long(body, &x, &f, &t))
            return text_fail(err, "an arrival names the piece, where it comes from and where it lands: e.g. Qd1-d4* "
                             "(or Qd1d4*)");
        if (x == NO_TYPE) x = PAWN;
        if ((r = try_action(l, move_make(f, t, MOVE_ARRIVAL, x, 0), out, err))) return r > 0;
        explain_arrival(l, x, f, t, err);
        return false;
    }
    if (stars == 2 || carets == 1) {
        if (!read_long(body, &x, &f, &t)) {
            if (carets) return parse_future_san(l, body, out, err);
            return text_fail(err, "a departure to the past names the squares: e.g. Qd1-d4** (or d1d4**)");
        }
        Piece p = line_board(l)->squares[f];
        Move m = move_make(f, t, stars ? MOVE_DEPART_PAST : MOVE_DEPART_FUTURE, p ? piece_type(p) : NO_TYPE, 0);
        if ((x == NO_TYPE || x == m.piece) && (r = try_action(l, m, out, err))) return r > 0;
        if (stars) explain_departure_past(l, f, t, x, err);
        else explain_departure_future(l, f, t, x, err);
        return false;
    }
    if (carets == 2) {
        const char *p = body;
        x = notation_read_piece(&p);
        if (x == NO_TYPE) x = PAWN;
        if (*p == 'x') p++;
        if (!notation_read_square(&p, &t) || *p)
            return text_fail(err, "a reappearance names the piece and its square: e.g. Qh5^^ (or Qh5††)");
        if ((r = try_action(l, move_make(SQ_NONE, t, MOVE_REAPPEAR, x, 0), out, err))) return r > 0;
        explain_reappearance(l, x, t, err);
        return false;
    }
    /* A chess move, in coordinate form or SAN. */
    MoveList all, chess;
    if (!legal_actions(l, &all, err)) return false;
    movelist_init(&chess);
    for (int i = 0; i < all.count; i++)
        if (move_is_chess(all.moves[i])) movelist_add(&chess, all.moves[i]);
    bool ok = !chess.failed ? chess_parse_move(line_board(l), &chess, buf, out, err) : text_fail(err, "out of memory");
    movelist_free(&all);
    movelist_free(&chess);
    return ok;
}
