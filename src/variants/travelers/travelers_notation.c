/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time Traveler's Chess notation: reading and writing explosions (Nf6/e8,
 * pawns d4/e5, e7/e8=Q), annihilations (b8//c6, Nb8//c6) and chess moves
 * (e2e4, Nf3, O-O), with figurines for letters and the seed's ++ for mate,
 * and saying in words which rule forbids an action that is refused.
 */
#include <string.h>

#include "rules.h"
#include "travelers.h"
#include "movegen.h"
#include "notation.h"

/* Actions are short: anything longer than this is refused as no action. */
enum { ACTION_MAX = 48 };

/* What every refusal of an unreadable text points to. */
static const char FORMS[] = "write e2e4, Nf6/e8 (an explosion), b8//c6 (an annihilation) or SAN such as Nf3";

/* ---- Writing ------------------------------------------------------------ */

static void add_square(Text *out, Square s)
{
    char name[3];
    square_name(s, name);
    text_add(out, name);
}

/* The piece letter of an explosion or annihilation: none for a pawn, as
 * the seed writes its pawn explosion "H3/H4" and annihilation "D2//D4". */
static void add_letter(Text *out, PieceType t)
{
    if (t != PAWN && t != NO_TYPE) text_add_char(out, piece_letter(t));
}

/* Explosions and annihilations are written alike in both forms but for
 * the promotion: e7/e8q in the coordinate form, e7/e8=Q in the human one. */
static void add_own_action(const Board *b, Move m, bool human, Text *out)
{
    if (m.kind == MOVE_EXPLOSION) {
        add_letter(out, m.piece);
        add_square(out, m.from);
        text_add_char(out, '/');
        add_square(out, m.to);
        if (m.promo != NO_TYPE && human) text_addf(out, "=%c", piece_letter(m.promo));
        else if (m.promo != NO_TYPE) text_add_char(out, (char)(piece_letter(m.promo) - 'A' + 'a'));
        return;
    }
    /* The coordinate form never names the piece: b8//c6 says all there is. */
    if (human && m.from < 64) add_letter(out, piece_type(b->squares[m.from]));
    add_square(out, m.from);
    text_add(out, "//");
    add_square(out, m.to);
}

static bool is_own_action(Move m) { return m.kind == MOVE_EXPLOSION || m.kind == MOVE_ANNIHILATION; }

bool travelers_format_coord(const Line *l, Move m, Text *out)
{
    if (is_own_action(m)) add_own_action(line_board(l), m, false, out);
    else move_to_coord(m, out);
    return !out->failed;
}

/* Chess moves are SAN as in chess: san_format disambiguates only among
 * normal moves of pieces of one type, so the explosions and annihilations
 * in the legal list never make it name a square it need not.  An explosion
 * never writes x, even when it captures (the seed's Bb5/e8+ takes a king):
 * the slash already says the piece came from elsewhere. */
bool travelers_format_human(const Line *l, Move m, Text *out)
{
    if (!is_own_action(m)) return san_in_line(l, m, out);
    char mark = 0;
    if (!line_check_mark(l, m, &mark)) return false;
    add_own_action(line_board(l), m, true, out);
    if (mark) text_add_char(out, mark);
    return !out->failed;
}

/* ---- Reading ------------------------------------------------------------ */

/* The figurines (white ♔ to ♙, then black ♚ to ♟) as letters. */
static const char FIGURINE_LETTERS[] = "KQRBNPKQRBNP";

/* The text in plain ASCII without spaces and annotations: figurines
 * become letters, dashes '-' and the multiplication sign x; check and
 * mate marks (the seed's ++ too), !?, footnote stars, trailing dots and a
 * final "e.p." go.  False if nothing is left or it is too long. */
static bool canonical(const char *text, char *buf, size_t len)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        char c = (char)p[0];
        size_t skip = 1;
        if (p[0] == 0xE2 && p[1] == 0x99 && p[2] >= 0x94 && p[2] <= 0x9F) {
            c = FIGURINE_LETTERS[p[2] - 0x94];
            skip = 3;
        } else if (p[0] == 0xE2 && p[1] == 0x80 && p[2] >= 0x90 && p[2] <= 0x95) {
            c = '-';
            skip = 3;
        } else if (p[0] == 0xC3 && p[1] == 0x97) {
            c = 'x';
            skip = 2;
        } else if (strchr(" \t\r\n\f\v+#!?*", p[0])) {
            c = 0;
        }
        p += skip;
        if (!c) continue;
        if (n + 2 > len) return false;
        buf[n++] = c;
    }
    while (n > 0 && buf[n - 1] == '.') n--;
    if (n > 3 && !memcmp(buf + n - 3, "e.p", 3)) n -= 3;
    buf[n] = 0;
    return n > 0;
}

/* Each read_* below returns 0 if the text is not of its form, 1 with the
 * action it names in *m (legal or not), or -1 when the text is of its
 * form but badly written (err says how to write it). */

/* An annihilation: [X]f//t.  The letter is not part of the action (the
 * piece on f is what annihilates), so it comes back in *named. */
static int read_annihilation(const char *s, Move *m, PieceType *named, Text *err)
{
    const char *slashes = strstr(s, "//"), *p = s;
    Square f, t;
    if (!slashes) return 0;
    *named = notation_read_piece(&p);
    if (!notation_read_square(&p, &f) || p != slashes || (p += 2, !notation_read_square(&p, &t)) || *p) {
        text_fail(err, "cannot read '%s' as an annihilation: write b8//c6 (or Nb8//c6), the piece's square, "
                  "two slashes and its traveling twin's square", s);
        return -1;
    }
    *m = move_make(f, t, MOVE_ANNIHILATION, NO_TYPE, 0);
    return 1;
}

/* A promotion after an explosion's square: =Q, Q, q or (Q). */
static int read_promotion(const char **p, PieceType *promo, Text *err)
{
    const char *q = *p;
    bool paren = *q == '(';
    if (*q == '=' || paren) q++;
    if (!*q) return 0;
    *promo = piece_type_from_letter(*q++);
    if (paren && *q++ != ')') return 0;
    if (*promo == NO_TYPE) return 0;
    if (*promo == PAWN || *promo == KING) {
        text_fail(err, "a pawn promotes to a queen, rook, bishop or knight (e7/e8=Q)");
        return -1;
    }
    *p = q;
    return 1;
}

/* An explosion: [X]e/[x]t[promotion].  A slash followed by a lone
 * letter at the end is no explosion: e8/Q is SAN for e8=Q. */
static int read_explosion(const char *s, Move *m, Text *err)
{
    const char *slash = strchr(s, '/'), *p = s;
    if (!slash || slash[1] == '/' || (slash[1] && !slash[2])) return 0;
    const char *after = slash + 1 + (slash[1] == 'x');
    PieceType x = notation_read_piece(&p), promo = NO_TYPE;
    Square e, t;
    if (x == NO_TYPE) x = PAWN;
    int r = 1;
    if (!notation_read_square(&p, &e) || p != slash || (p = after, !notation_read_square(&p, &t)) ||
        (*p && (r = read_promotion(&p, &promo, err)) <= 0) || *p) {
        if (r >= 0)
            text_fail(err, "cannot read '%s' as an explosion: write the piece, the explosion square, a slash and where "
                      "the traveled piece goes: Nf6/e8, or for a pawn d4/e5 and e7/e8=Q", s);
        return -1;
    }
    if (promo != NO_TYPE && x != PAWN) {
        text_fail(err, "only an exploding pawn promotes: write %c%c%c/%c%c without a promotion", piece_letter(x),
                  s[1], s[2], after[0], after[1]);
        return -1;
    }
    *m = move_make(e, t, MOVE_EXPLOSION, x, 0);
    m->promo = promo;
    return 1;
}

/* The legal action m, or why it is refused.  A pawn explosion that would
 * be legal with a promotion gets the chess player's reminder rather than
 * the rules' account. */
static bool accept_own(const Line *l, const MoveList *legal, Move m, Move *out, Text *err)
{
    if (movelist_contains(legal, m)) {
        *out = m;
        return true;
    }
    Move promoted = m;
    promoted.promo = QUEEN;
    if (m.kind == MOVE_EXPLOSION && m.piece == PAWN && m.promo == NO_TYPE && movelist_contains(legal, promoted)) {
        char es[3], ts[3];
        square_name(m.from, es);
        square_name(m.to, ts);
        return text_fail(err, "a pawn reaching %s must promote: add =Q, =R, =B or =N (%s/%s=Q)", ts, es, ts);
    }
    return travelers_refusal(l, m, err);
}

/* An annihilation whose letter names another piece than the one on f. */
static bool wrong_letter(const Board *b, Move m, PieceType named, Text *err)
{
    Piece p = b->squares[m.from];
    if (named == NO_TYPE || p == NO_PIECE || piece_color(p) != b->side || piece_type(p) == named) return false;
    char fs[3];
    square_name(m.from, fs);
    text_fail(err, "the piece on %s is a %s, not a %s", fs, piece_type_name(piece_type(p)), piece_type_name(named));
    return true;
}

/* Copies the chess moves of a list; with movers_only, only those of
 * pieces that may move (traveling pieces never move), for reading a
 * text against the board's pseudo-legal moves. */
static bool chess_only(const MoveList *from, const State *s, bool movers_only, MoveList *out)
{
    movelist_init(out);
    for (int i = 0; i < from->count; i++) {
        Move m = from->moves[i];
        if (!move_is_chess(m)) continue;
        if (movers_only && m.from < 64 && travelers_piece_state(s, m.from) == TRAVELING) continue;
        movelist_add(out, m);
    }
    return !out->failed;
}

/* Does chess_parse_move's message say that the text has the form of no
 * chess move ("'TEXT' is not a move...")?  Then it is no action at all. */
static bool no_chess_form(const Text *why, const char *s)
{
    size_t n = strlen(s);
    const char *w = text_str(why);
    return w[0] == '\'' && !strncmp(w + 1, s, n) && !strncmp(w + 1 + n, "' is not a move", 15);
}

/* Says so and returns true if the move m would move a traveling piece. */
static bool traveling_mover(const Line *l, Move m, Text *err)
{
    char fs[3];
    if (m.from >= 64 || travelers_piece_state(line_state(l), m.from) != TRAVELING) return false;
    square_name(m.from, fs);
    text_fail(err, "the traveling %s on %s cannot move: traveling pieces never move",
              piece_type_name(piece_type(line_board(l)->squares[m.from])), fs);
    return true;
}

/* A chess move onto a friendly traveling piece is no chess move, but the
 * player may have meant the annihilation that lands there (Nf3 for
 * Ng1//f3): says so and returns true if a legal one fits the text's
 * piece letter and last square. */
static bool annihilation_hint(const Line *l, const MoveList *legal, const char *s, Text *err)
{
    const Board *b = line_board(l);
    size_t n = strlen(s);
    Square t = n >= 2 ? square_parse(s + n - 2) : SQ_NONE;
    /* The coordinate form names the square the piece leaves (g1f3),
     * SAN the piece's letter (Nf3; none for a pawn). */
    Square f = n == 4 ? square_parse(s) : SQ_NONE;
    PieceType named = s[0] && strchr("NBRQK", s[0]) ? piece_type_from_letter(s[0]) : PAWN;
    for (int i = 0; i < legal->count && t != SQ_NONE; i++) {
        Move m = legal->moves[i];
        if (m.kind != MOVE_ANNIHILATION || m.to != t) continue;
        PieceType x = piece_type(b->squares[m.from]);
        if (f != SQ_NONE ? m.from != f : x != named) continue;
        Text form = TEXT_INIT;
        add_own_action(b, m, true, &form);
        text_fail(err, "a move onto your own traveling %s is an annihilation: write %s", piece_type_name(x),
                  text_str(&form));
        text_free(&form);
        return true;
    }
    return false;
}

/*
 * Why a chess move the text names is refused.  chess_parse_move knows
 * only the chess rules (its checks are not this game's), so the text is
 * read again against the pseudo-legal moves: first those of pieces that
 * may move, whose refusal the rules of this game explain; then all of
 * them, which adds the moves of traveling pieces; else the text names no
 * move at all: it may be meant as an annihilation, or what chess says
 * about it (no knight can reach f6, ambiguous, must promote) stands, or
 * it is no action.
 */
static bool refuse_chess(const Line *l, const MoveList *legal, const char *s, Move *out, Text *err)
{
    const Board *b = line_board(l);
    MoveList pseudo, movers;
    Text why = TEXT_INIT;
    Move m = move_none();
    bool ok = false;
    movelist_init(&pseudo);
    movelist_init(&movers);
    if (!gen_pseudo(b, &pseudo) || !chess_only(&pseudo, line_state(l), true, &movers)) {
        text_fail(err, "out of memory");
    } else if (chess_parse_move(b, &movers, s, &m, &why)) {
        /* m is legal only if the game allows a chess move that gen_pseudo
         * does not make; then it is played. */
        if ((ok = movelist_contains(legal, m))) *out = m;
        else travelers_refusal(l, m, err);
    } else {
        /* Read against every pseudo-legal move, the text names a move
         * only if it is a traveling piece's. */
        text_clear(&why);
        if (chess_parse_move(b, &pseudo, s, &m, &why)) {
            if (!traveling_mover(l, m, err)) travelers_refusal(l, m, err);
        } else if (why.failed) {
            text_fail(err, "out of memory");
        } else if (annihilation_hint(l, legal, s, err)) {
            /* Said. */
        } else if (no_chess_form(&why, s)) {
            text_fail(err, "cannot read '%s' as an action: %s", s, FORMS);
        } else {
            text_fail(err, "%s", text_str(&why));
        }
    }
    text_free(&why);
    movelist_free(&pseudo);
    movelist_free(&movers);
    return ok;
}

/* A chess move in coordinate form or SAN, read against the legal chess
 * moves only, so that an explosion or annihilation never matches it. */
static bool parse_chess(const Line *l, const MoveList *legal, const char *s, Move *out, Text *err)
{
    MoveList chess;
    if (!chess_only(legal, line_state(l), false, &chess)) {
        movelist_free(&chess);
        return text_fail(err, "out of memory");
    }
    Text why = TEXT_INIT;
    bool ok = chess_parse_move(line_board(l), &chess, s, out, &why);
    movelist_free(&chess);
    if (!ok && why.failed) ok = text_fail(err, "out of memory");
    else if (!ok) ok = refuse_chess(l, legal, s, out, err);
    text_free(&why);
    return ok;
}

bool travelers_parse(const Line *l, const char *text, Move *out, Text *err)
{
    char buf[ACTION_MAX];
    /* A text too long to be an action is shown only in part. */
    if (!canonical(text, buf, sizeof buf))
        return text_fail(err, "cannot read '%.24s%s' as an action: %s", text, strlen(text) > 24 ? "..." : "", FORMS);
    MoveList legal;
    if (!legal_actions(l, &legal, err)) return false;
    Move m = move_none();
    PieceType named = NO_TYPE;
    bool ok = false;
    int r = read_annihilation(buf, &m, &named, err);
    if (r == 0) r = read_explosion(buf, &m, err);
    if (r > 0) ok = !wrong_letter(line_board(l), m, named, err) && accept_own(l, &legal, m, out, err);
    else if (r == 0) ok = parse_chess(l, &legal, buf, out, err);
    movelist_free(&legal);
    return ok;
}
