/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Game Courier notation (see ttchess/gc.h and docs/notation.md).
 *
 * Game Courier knows no rules, so its notation says only what happens on
 * the board.  This file therefore never reads a move by the rules of a
 * game: it describes every legal action by its effect on the board, in
 * the same parts the notation has (a piece moved, a piece removed, a piece
 * placed), and compares.  The effect is found by playing the action on a
 * line of its own and comparing the boards before and after, so every
 * game's actions, time travel included, are described the same way and
 * nothing here needs to know a rule.  Only the way an action is written
 * best ("K e1-g1; R h1-f1" rather than two anonymous moves) looks at the
 * kind of action, and what that writes is checked against the boards.
 */
#include "gc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

#include "gc_text.h"

/* ---- Parts ---------------------------------------------------------------- */

enum PartKind { PART_MOVE, PART_REMOVE, PART_PLACE };

typedef struct Part {
    uint8_t kind;   /* enum PartKind                                            */
    Piece piece;    /* the label: the piece moved, removed or placed; a typed
                       move or removal may have none (NO_PIECE)                 */
    Square from;    /* MOVE, REMOVE: the square the piece leaves               */
    Square to;      /* MOVE, PLACE: the square it reaches                      */
    bool labelled;  /* a removal written with its label ("B f1-"): the action's
                       own piece leaving the board, not a piece it takes        */
} Part;

/* Every part changes a square of its own, and a board has 64: an action
 * that changes the whole board (a travel back) still fits. */
enum { PARTS_MAX = 72 };

typedef struct Parts {
    Part at[PARTS_MAX];
    int count;
} Parts;

static bool add_part(Parts *p, uint8_t kind, Piece piece, Square from, Square to, bool labelled)
{
    if (p->count >= PARTS_MAX) return false;
    Part part = { kind, piece, from, to, labelled };
    p->at[p->count++] = part;
    return true;
}

static char label_char(Piece p)
{
    char c = piece_letter(piece_type(p));
    return piece_color(p) == BLACK ? (char)tolower((unsigned char)c) : c;
}

static void write_square(Square s, Text *out)
{
    char name[3];
    square_name(s, name);
    text_add(out, name);
}

static void write_part(const Part *p, Text *out)
{
    switch (p->kind) {
    case PART_MOVE:
        if (p->piece) text_addf(out, "%c ", label_char(p->piece));
        write_square(p->from, out);
        text_add_char(out, '-');
        write_square(p->to, out);
        break;
    case PART_REMOVE:
        if (p->labelled && p->piece) text_addf(out, "%c ", label_char(p->piece));
        write_square(p->from, out);
        text_add_char(out, '-');
        break;
    default:
        text_addf(out, "%c-", label_char(p->piece));
        write_square(p->to, out);
        break;
    }
}

static void write_parts(const Parts *p, Text *out)
{
    for (int i = 0; i < p->count; i++) {
        if (i) text_add(out, "; ");
        write_part(&p->at[i], out);
    }
}

/* What Game Courier does with the parts, on an array of squares: a move
 * carries whatever stands on its square, whatever the label says. */
static void apply_parts(const Parts *p, Piece sq[64])
{
    for (int i = 0; i < p->count; i++) {
        const Part *x = &p->at[i];
        if (x->kind == PART_MOVE) {
            sq[x->to] = sq[x->from];
            sq[x->from] = NO_PIECE;
        } else if (x->kind == PART_REMOVE) {
            sq[x->from] = NO_PIECE;
        } else {
            sq[x->to] = x->piece;
        }
    }
}

/* ---- Reading the text ------------------------------------------------------ */

/* A text as read: its parts, and what its shape says about who should
 * read it. */
typedef struct Typed {
    Parts parts;
    bool spaced;  /* a label and white space before a square ("P e2-e4")  */
    bool dashed;  /* a removal or a placement written with '-'            */
    bool joined;  /* a ';', even with one part ("P e2-e4;")               */
} Typed;

enum ReadResult { READ_OK, READ_NOT_GC, READ_BAD };

const char *gc_skip_spaces(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p)) p++;
    return p;
}

static bool square_at(const char *p, const char *end, Square *s)
{
    if (end - p < 2 || p[0] < 'a' || p[0] > 'h' || p[1] < '1' || p[1] > '8') return false;
    if (end - p > 2 && isdigit((unsigned char)p[2])) return false;
    *s = make_square(p[0] - 'a', p[1] - '1');
    return true;
}

/* A piece label: upper case for White, lower case for Black. */
static Piece label_at(char c)
{
    if (!c || !strchr("PNBRQKpnbrqk", c)) return NO_PIECE;
    return make_piece(islower((unsigned char)c) ? BLACK : WHITE, piece_type_from_letter(c));
}

/* Where the text's comment starts: "//" at its start or after white
 * space, as Game Courier's inline comments are written.  The time-travel
 * notations write "//" right after a square or a letter ("Bf1// to 9",
 * "b8//c6"), which is never a comment. */
const char *gc_comment_start(const char *text)
{
    for (const char *p = text; (p = strstr(p, "//")) != NULL; p++)
        if (p == text || isspace((unsigned char)p[-1])) return p;
    return text + strlen(text);
}

/* The text without its comment, trailing white space and check or
 * annotation marks, which Game Courier does not write but a player may. */
static const char *body_end(const char *text)
{
    const char *end = gc_comment_start(text);
    while (end > text && (isspace((unsigned char)end[-1]) || strchr("+#!?", end[-1]))) end--;
    return end;
}

/* One part, [p, end). */
static int read_part(const char *p, const char *end, Typed *t, Text *err)
{
    Square from, to;
    p = gc_skip_spaces(p, end);
    if (p < end && *p == '@') {
        /* "@-e4": the empty square's own symbol dropped on e4. */
        p = gc_skip_spaces(p + 1, end);
        if (p >= end || *p != '-') return READ_NOT_GC;
        p = gc_skip_spaces(p + 1, end);
        if (!square_at(p, end, &from) || gc_skip_spaces(p + 2, end) != end) return READ_NOT_GC;
        t->dashed = true;
        return add_part(&t->parts, PART_REMOVE, NO_PIECE, from, SQ_NONE, false) ? READ_OK : READ_BAD;
    }
    if (p < end && *p == '-') {
        p = gc_skip_spaces(p + 1, end);
        if (!square_at(p, end, &to)) return READ_NOT_GC;
        char name[3];
        square_name(to, name);
        text_fail(err, "-%s would take the square %s itself off the board in Game Courier; to remove the piece on %s "
                  "write %s- or @-%s", name, name, name, name, name);
        return READ_BAD;
    }
    Piece label = NO_PIECE;
    bool spaced = false;
    if (p < end && !square_at(p, end, &from) && (label = label_at(*p)) != NO_PIECE) {
        const char *after = gc_skip_spaces(p + 1, end);
        spaced = after > p + 1;
        p = after;
        if (p < end && (*p == '-' || *p == '@')) {
            /* "N-e4": a piece put straight onto a square. */
            t->dashed |= *p == '-';
            p = gc_skip_spaces(p + 1, end);
            if (!square_at(p, end, &to) || gc_skip_spaces(p + 2, end) != end) return READ_NOT_GC;
            return add_part(&t->parts, PART_PLACE, label, SQ_NONE, to, true) ? READ_OK : READ_BAD;
        }
    }
    if (!square_at(p, end, &from)) return READ_NOT_GC;
    p = gc_skip_spaces(p + 2, end);
    if (p >= end || !strchr("-x:", *p)) return READ_NOT_GC;
    char sep = *p;
    p = gc_skip_spaces(p + 1, end);
    t->spaced |= spaced;
    if (p == end) {
        /* "e4-": a move with no destination takes the piece off the board. */
        if (sep != '-') return READ_NOT_GC;
        t->dashed = true;
        return add_part(&t->parts, PART_REMOVE, label, from, SQ_NONE, label != NO_PIECE) ? READ_OK : READ_BAD;
    }
    if (!square_at(p, end, &to) || gc_skip_spaces(p + 2, end) != end) return READ_NOT_GC;
    return add_part(&t->parts, PART_MOVE, label, from, to, true) ? READ_OK : READ_BAD;
}

/* Reads the text's parts, joined by ';'; an empty part is skipped.  A text
 * with no part is not Game Courier's. */
static int read_text(const char *text, Typed *t, Text *err)
{
    memset(t, 0, sizeof *t);
    const char *end = body_end(text);
    for (const char *p = text; p < end;) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *stop = semi ? semi : end;
        t->joined |= semi != NULL;
        if (gc_skip_spaces(p, stop) < stop) {
            if (t->parts.count >= PARTS_MAX) {
                text_fail(err, "too many parts: a move changes at most 64 squares");
                return READ_BAD;
            }
            int r = read_part(p, stop, t, err);
            if (r != READ_OK) return r;
        }
        p = semi ? semi + 1 : end;
    }
    return t->parts.count ? READ_OK : READ_NOT_GC;
}

/* One move or one placement, which the game's own notation may read too
 * ("e2-e4", "Ng1-f3", "N@e4"; "N-e4", which SAN reads as a knight's move). */
static bool own_notation_too(const Typed *t)
{
    return t->parts.count == 1 && !t->spaced && !t->joined && t->parts.at[0].kind != PART_REMOVE;
}

bool gc_is_notation(const char *text)
{
    Typed t;
    Text err = TEXT_INIT;
    int r = read_text(text, &t, &err);
    text_free(&err);
    if (r == READ_BAD) return true;  /* Game Courier's shape; gc_parse says what is wrong */
    if (r != READ_OK) return false;
    if (t.joined || t.spaced) return true;
    /* A lone placement with '@' ("N@e4") is the games' own drop and arrival
     * form, and a lone move ("e2-e4", "Ng1-f3") their coordinate form or
     * SAN: their readers say the same and explain refusals by the rules. */
    return t.dashed;
}

/* ---- Actions as parts ------------------------------------------------------ */

/* The ways an action may be written: the one the writer uses first, then
 * the other forms that say the same, or enough of it to name the action
 * (castling by the king's move alone, as a player would type it). */
enum { FORMS_MAX = 4 };

typedef struct Forms {
    Parts form[FORMS_MAX];
    int count;
} Forms;

/* The rook's move of a castling, from the king's. */
static const CastleRule *castle_rule(Color c, Move m)
{
    for (int side = 0; side < 2; side++) {
        const CastleRule *r = &CASTLE_RULES[c][side];
        if (r->king_from == m.from && r->king_to == m.to) return r;
    }
    return NULL;
}

/* The action as a reader of its notation would write it, by its kind:
 * false for a kind whose effect has no shorter description than the
 * changed squares (a travel back to an earlier position). */
static bool written_by_kind(const Board *b, Move m, Parts *p)
{
    Color us = b->side;
    Piece mover = m.from < 64 ? b->squares[m.from] : NO_PIECE;
    bool ok = true;
    if (m.flags) return false;
    switch (m.kind) {
    case MOVE_NORMAL:
    case MOVE_DOUBLE_PUSH:
        ok = add_part(p, PART_MOVE, mover, m.from, m.to, true);
        break;
    case MOVE_EN_PASSANT: {
        Square taken = make_square(square_file(m.to), square_rank(m.from));
        /* Time Traveler's Chess can leave an en passant square with no
         * pawn behind it (an annihilation's); then nothing is taken. */
        ok = add_part(p, PART_MOVE, mover, m.from, m.to, true) &&
             (!b->squares[taken] || add_part(p, PART_REMOVE, b->squares[taken], taken, SQ_NONE, false));
        break;
    }
    case MOVE_CASTLE: {
        const CastleRule *r = castle_rule(us, m);
        if (!r) return false;
        ok = add_part(p, PART_MOVE, mover, m.from, m.to, true) &&
             add_part(p, PART_MOVE, b->squares[r->rook_from], r->rook_from, r->rook_to, true);
        break;
    }
    case MOVE_PROMOTION:
        ok = add_part(p, PART_MOVE, mover, m.from, m.to, true) &&
             add_part(p, PART_PLACE, make_piece(us, m.piece), SQ_NONE, m.to, true);
        break;
    case MOVE_SEND_FORWARD:
        ok = add_part(p, PART_REMOVE, mover, m.from, SQ_NONE, true);
        break;
    case MOVE_ARRIVAL:
    case MOVE_DROP:
    case MOVE_REAPPEAR:
        ok = add_part(p, PART_PLACE, make_piece(us, m.piece), SQ_NONE, m.to, true);
        break;
    case MOVE_DEPART_PAST:
    case MOVE_DEPART_FUTURE:
    case MOVE_ANNIHILATION:
        /* The piece goes where the action takes it and leaves from there. */
        ok = add_part(p, PART_MOVE, mover, m.from, m.to, true) &&
             add_part(p, PART_REMOVE, NO_PIECE, m.to, SQ_NONE, false);
        break;
    case MOVE_EXPLOSION:
        ok = add_part(p, PART_PLACE, make_piece(us, m.piece), SQ_NONE, m.from, true) &&
             add_part(p, PART_PLACE, make_piece(us, m.promo ? m.promo : m.piece), SQ_NONE, m.to, true);
        break;
    default:
        return false;
    }
    return ok;
}

/* Makes the parts of written_by_kind say exactly what the boards say:
 * a piece the action also takes (an exploding pawn's en passant) becomes
 * one more removal; anything else that differs means the kind's form does
 * not fit, and false. */
static bool complete_parts(const Board *before, const Board *after, Parts *p)
{
    Piece sq[64];
    memcpy(sq, before->squares, sizeof sq);
    apply_parts(p, sq);
    for (int s = 0; s < 64; s++) {
        if (sq[s] == after->squares[s]) continue;
        if (after->squares[s] != NO_PIECE || !add_part(p, PART_REMOVE, sq[s], (Square)s, SQ_NONE, false)) return false;
    }
    return true;
}

/* The changed squares as parts: a piece that left one square and reached
 * another, where nothing else of its kind did, is a move; the rest are
 * removals and placements. */
static bool parts_of_change(const Board *before, const Board *after, Parts *p)
{
    const Piece *was = before->squares, *is = after->squares;
    bool used[64] = { false };
    for (int v = 0; v < 64; v++) {
        if (!was[v] || is[v]) continue;
        int left = 0, reached = 0, w = -1;
        for (int s = 0; s < 64; s++) {
            left += was[s] == was[v] && !is[s];
            if (is[s] == was[v] && was[s] != is[s]) reached++, w = s;
        }
        if (left != 1 || reached != 1) continue;
        if (!add_part(p, PART_MOVE, was[v], (Square)v, (Square)w, true)) return false;
        used[v] = used[w] = true;
    }
    for (int s = 0; s < 64; s++)
        if (!used[s] && is[s] && is[s] != was[s] && !add_part(p, PART_PLACE, is[s], SQ_NONE, (Square)s, true)) return false;
    for (int s = 0; s < 64; s++)
        if (!used[s] && was[s] && !is[s] && !add_part(p, PART_REMOVE, was[s], (Square)s, SQ_NONE, false)) return false;
    return true;
}

/* Every form of the legal action m at the line's present position;
 * false only when out of memory. */
static bool action_forms(const Line *l, Move m, Forms *f)
{
    Line trial;
    line_extend(&trial, l);
    if (!line_push(&trial, m)) {
        line_close(&trial);
        return false;
    }
    const Board *before = line_board(l), *after = line_board(&trial);
    f->count = 0;
    f->form[0].count = 0;
    bool by_kind = written_by_kind(before, m, &f->form[0]) && complete_parts(before, after, &f->form[0]);
    if (by_kind) f->count++;
    f->form[f->count].count = 0;
    if (parts_of_change(before, after, &f->form[f->count])) f->count++;
    if (by_kind && (m.kind == MOVE_CASTLE || m.kind == MOVE_EN_PASSANT)) {
        /* The rook's jump and the pawn taken en passant follow from the
         * king's and the pawn's move, so a player may leave them out, as a
         * Game Courier preset that enforces the rules lets them. */
        Parts *alone = &f->form[f->count++];
        alone->count = 0;
        add_part(alone, PART_MOVE, f->form[0].at[0].piece, m.from, m.to, true);
    }
    if (m.kind == MOVE_KING_BACK) {
        /* The king leaves the present board and lands on an earlier one:
         * "K e8-" and "K-f8" are what a player sees of it. */
        Parts *leaves = &f->form[f->count++], *lands = &f->form[f->count++];
        leaves->count = lands->count = 0;
        add_part(leaves, PART_REMOVE, before->squares[m.from], m.from, SQ_NONE, true);
        add_part(lands, PART_PLACE, make_piece(before->side, KING), SQ_NONE, m.to, true);
    }
    line_close(&trial);
    return true;
}

/* ---- Matching -------------------------------------------------------------- */

static bool part_matches(const Part *typed, const Part *form)
{
    if (typed->kind != form->kind) return false;
    if (typed->kind != PART_PLACE && typed->from != form->from) return false;
    if (typed->kind != PART_REMOVE && typed->to != form->to) return false;
    /* Labels are compared by piece alone: only the mover's pieces move or
     * are placed, so their case (Game Courier's colour) tells nothing. */
    return !typed->piece || piece_type(typed->piece) == piece_type(form->piece);
}

/* The same parts, in any order (each changes squares of its own). */
static bool parts_match(const Parts *typed, const Parts *form)
{
    if (typed->count != form->count) return false;
    bool used[PARTS_MAX] = { false };
    for (int i = 0; i < typed->count; i++) {
        int j = 0;
        while (j < form->count && (used[j] || !part_matches(&typed->at[i], &form->at[j]))) j++;
        if (j == form->count) return false;
        used[j] = true;
    }
    return true;
}

/* Could m have a form made of the typed squares?  Every form names the
 * action's square of departure or arrival, except those of an action that
 * changes the whole board, which are always tried. */
static bool worth_trying(Move m, uint64_t squares)
{
    if (m.flags || m.kind == MOVE_KING_BACK) return true;
    return (m.from < 64 && (squares >> m.from & 1)) || (m.to < 64 && (squares >> m.to & 1));
}

static uint64_t typed_squares(const Parts *p)
{
    uint64_t s = 0;
    for (int i = 0; i < p->count; i++) {
        if (p->at[i].from < 64) s |= 1ULL << p->at[i].from;
        if (p->at[i].to < 64) s |= 1ULL << p->at[i].to;
    }
    return s;
}

/* Adds every legal action with a form that matches the typed parts to
 * `found`; `legal` receives the legal actions.  False when out of memory. */
static bool find_matches(const Line *l, const Parts *typed, MoveList *legal, MoveList *found)
{
    if (!line_generate(l, legal)) return false;
    uint64_t squares = typed_squares(typed);
    Forms *f = malloc(sizeof *f);
    if (!f) return false;
    bool ok = true;
    for (int i = 0; i < legal->count && ok; i++) {
        Move m = legal->moves[i];
        if (!worth_trying(m, squares)) continue;
        ok = action_forms(l, m, f);
        for (int k = 0; ok && k < f->count; k++) {
            if (!parts_match(typed, &f->form[k])) continue;
            movelist_add(found, m);
            break;
        }
    }
    free(f);
    return ok && !found->failed;
}

/* ---- Refusals --------------------------------------------------------------- */

enum { LIST_SHOWN = 5 };

/* "could be any of 9 actions, ...: Bf1>2, Bf1>3, ..." */
static bool explain_ambiguous(const Line *l, const char *text, const MoveList *found, Text *err)
{
    Text list = TEXT_INIT;
    bool ok = true;
    for (int i = 0; i < found->count && i < LIST_SHOWN && ok; i++) {
        if (i) text_add(&list, ", ");
        ok = line_variant(l)->format_human(l, found->moves[i], &list);
    }
    if (found->count > LIST_SHOWN) text_add(&list, ", ...");
    if (ok && !list.failed)
        text_fail(err, "'%s' could be any of %d actions, which Game Courier notation does not tell apart: %s; type the "
                  "one you mean as written here", text, found->count, text_str(&list));
    else
        text_fail(err, "out of memory");
    text_free(&list);
    return false;
}

/* Was the square changed by a part before part i?  Then the board of the
 * present position no longer tells what stands there. */
static bool touched_before(const Parts *p, int i, Square s)
{
    for (int k = 0; k < i; k++)
        if (p->at[k].from == s || p->at[k].to == s) return true;
    return false;
}

/* A move or removal that names a square with no piece, a piece its label
 * does not name, or a piece of the side not to move where it can only be
 * the mover's own (the first move; a removal alone, which can be no
 * capture). */
static bool explain_square(const Board *b, const Parts *p, Text *err)
{
    char name[3];
    for (int i = 0; i < p->count; i++) {
        const Part *x = &p->at[i];
        if (x->kind == PART_PLACE || touched_before(p, i, x->from)) continue;
        Piece there = b->squares[x->from];
        square_name(x->from, name);
        if (!there)
            return text_fail(err, "there is no piece on %s%s", name, x->kind == PART_REMOVE ? " to remove" : "");
        if (x->piece && piece_type(x->piece) != piece_type(there))
            return text_fail(err, "the piece on %s is a %s, not a %s", name, piece_type_name(piece_type(there)),
                             piece_type_name(piece_type(x->piece)));
        bool own_piece = x->kind == PART_MOVE || p->count == 1;
        if (i == 0 && own_piece && piece_color(there) != b->side)
            return text_fail(err, "the %s on %s is not yours: %s is to move", piece_type_name(piece_type(there)), name,
                             color_name(b->side));
    }
    return true;
}

/* The game's own reason for refusing the move from -> to (written in
 * coordinate form, which every game reads): its rules explain better than
 * "no action matches".  False if the game accepts that move. */
static bool explain_by_rules(const Line *l, Square from, Square to, Text *err)
{
    char coord[5];
    square_name(from, coord);
    square_name(to, coord + 2);
    Move m;
    Text why = TEXT_INIT;
    bool refused = !line_variant(l)->parse(l, coord, &m, &why);
    if (refused) text_fail(err, "%s", why.failed ? "out of memory" : text_str(&why));
    text_free(&why);
    return refused;
}

/* Why no legal action has the effect the parts describe, as far as it can
 * be told. */
static void explain_none(const Line *l, const Typed *t, const MoveList *legal, const char *text, Text *err)
{
    const Board *b = line_board(l);
    const Parts *p = &t->parts;
    const Part *first = &p->at[0];
    char from[3], to[3];
    if (!explain_square(b, p, err)) return;
    if (first->kind == PART_MOVE && p->count == 1) {
        for (int i = 0; i < legal->count; i++) {
            Move m = legal->moves[i];
            if (m.kind != MOVE_PROMOTION || m.flags || m.from != first->from || m.to != first->to) continue;
            Piece pawn = b->squares[m.from], queen = make_piece(b->side, QUEEN);
            square_name(m.from, from);
            square_name(m.to, to);
            text_fail(err, "a pawn reaching %s must promote: add the new piece as Game Courier does, %c %s-%s; %c-%s", to,
                      label_char(pawn), from, to, label_char(queen), to);
            return;
        }
    }
    /* The rules explain a move no action makes; a move some action makes
     * (a promotion's, a castling king's) was refused for its other parts. */
    bool made = false;
    for (int i = 0; i < legal->count && first->kind == PART_MOVE; i++)
        made |= legal->moves[i].from == first->from && legal->moves[i].to == first->to && !legal->moves[i].flags;
    if (first->kind == PART_MOVE && !made && explain_by_rules(l, first->from, first->to, err)) return;
    if (first->kind == PART_PLACE && p->count == 1) {
        PieceType type = piece_type(first->piece);
        square_name(first->to, to);
        text_fail(err, "no legal action puts a %s on %s (in Game Courier notation %c-%s places a piece straight onto a "
                  "square, as a drop or an arrival does)", piece_type_name(type), to, label_char(first->piece), to);
        /* SAN reads the text as a move where it can tell which; where it
         * cannot, the moves that get there are named in this notation. */
        int named = 0;
        for (int i = 0; i < legal->count; i++) {
            Move m = legal->moves[i];
            if (!move_is_chess(m) || m.to != first->to || piece_type(b->squares[m.from]) != type) continue;
            if (!named++) text_addf(err, "; to move a %s there, write", piece_type_name(type));
            else text_add(err, " or");
            square_name(m.from, from);
            text_addf(err, " %c %s-%s", label_char(b->squares[m.from]), from, to);
        }
        return;
    }
    if (first->kind == PART_REMOVE && p->count == 1) {
        square_name(first->from, from);
        text_fail(err, "no legal action takes the %s on %s off the board", piece_type_name(piece_type(b->squares[first->from])),
                  from);
        return;
    }
    text_fail(err, "no legal action does exactly this on the board: %s", text);
}

/* ---- Reading an action ------------------------------------------------------ */

/* The text to quote in a message: the part the notation reads. */
static char *quoted(const char *text)
{
    const char *end = body_end(text);
    while (*text && isspace((unsigned char)*text)) text++;
    size_t n = end > text ? (size_t)(end - text) : 0;
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, text, n);
        s[n] = 0;
    }
    return s;
}

/* The action the game's own reader finds in `text`, added to `found` if it
 * is not there; its refusal is kept in `why`. */
static void own_reading(const Line *l, const char *body, MoveList *found, Text *why)
{
    Move m;
    if (line_variant(l)->parse(l, body, &m, why) && !movelist_contains(found, m)) movelist_add(found, m);
}

/* An action the hint names, if it is one of those found. */
static bool pick_by_hint(const Line *l, const char *hint, const MoveList *found, Move *out)
{
    if (!hint || !*hint) return false;
    Text why = TEXT_INIT;
    Move m;
    bool ok = line_variant(l)->parse(l, hint, &m, &why) && movelist_contains(found, m);
    text_free(&why);
    if (ok) *out = m;
    return ok;
}

/* The typed parts' action.  An empty text is read only with a hint: the
 * writer leaves the parts empty for an action that changes nothing on the
 * board. */
static bool resolve(const Line *l, const char *text, const char *hint, Move *out, Text *err)
{
    /* Without a hint of its own, the text's comment is one: "B f1- //
     * Bf1>9" as gc_write writes it, typed or pasted. */
    const char *comment = gc_comment_start(text);
    if (!hint && *comment) {
        hint = comment + 2;
        while (isspace((unsigned char)*hint)) hint++;
    }
    Typed t;
    int r = read_text(text, &t, err);
    bool blank = body_end(text) == text || gc_skip_spaces(text, body_end(text)) == body_end(text);
    if (r == READ_BAD) return false;
    if (r == READ_NOT_GC && !(blank && hint && *hint))
        return text_fail(err, "'%s' is not a move in Game Courier notation (P e2-e4, N g1-f3, K e1-g1, P e7-e8; Q-e8, "
                         "e4- or @-e4, N-e4)", text);
    char *body = quoted(text);
    if (!body) return text_fail(err, "out of memory");
    MoveList legal, found;
    movelist_init(&legal);
    movelist_init(&found);
    Text why = TEXT_INIT;
    bool ok = find_matches(l, &t.parts, &legal, &found);
    /* Game Courier's reading comes first ("N-e4" drops a knight in
     * Chessgi); where it finds nothing, the game's own may ("N-e4" as
     * SAN's knight move in chess). */
    if (ok && !found.count && own_notation_too(&t)) own_reading(l, body, &found, &why);
    if (!ok || found.failed || why.failed) {
        ok = text_fail(err, "out of memory");
    } else if (found.count == 1) {
        *out = found.moves[0];
    } else if (found.count > 1) {
        ok = pick_by_hint(l, hint, &found, out) || explain_ambiguous(l, body, &found, err);
    } else if (!t.parts.count) {
        ok = text_fail(err, "no legal action leaves the board as it is");
    } else {
        explain_none(l, &t, &legal, body, err);
        ok = false;
    }
    text_free(&why);
    movelist_free(&legal);
    movelist_free(&found);
    free(body);
    return ok;
}

bool gc_parse_hinted(const Line *l, const char *text, const char *hint, Move *out, Text *err)
{
    return resolve(l, text, hint, out, err);
}

bool gc_parse(const Line *l, const char *text, Move *out, Text *err) { return resolve(l, text, NULL, out, err); }

/* ---- Writing an action ------------------------------------------------------ */

bool gc_format(const Line *l, Move m, Text *out)
{
    Forms *f = malloc(sizeof *f);
    if (!f) return false;
    bool ok = action_forms(l, m, f);
    if (ok && f->count) write_parts(&f->form[0], out);
    free(f);
    return ok && !out->failed;
}
