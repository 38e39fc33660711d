/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * gifford-ref: a second implementation of Gifford's Time Travel Chess,
 * written from shared/rules/gifford.md alone, for cross-checking the
 * library (tests/rules-compare.sh).  It shares no code with the library,
 * not even its headers, and is deliberately plain: a mailbox board,
 * attacks found by walking rays, legality by making the action on a copy,
 * the current timeline as an array of positions, one a ply.  Slow, but
 * simple enough to read against the rules file line by line.
 *
 * Usage:
 *   gifford-ref perft DEPTH [ACTION...]
 *   gifford-ref divide DEPTH [ACTION...]
 *   gifford-ref check            (games on standard input, one a line)
 * "check" prints, for each game, every position's result line and legal
 * actions in coordinate form, sorted byte by byte, as rules-dump does.
 * The limits are the rules file's: forward 10 moves, back 5 moves, two
 * backward travels a side.
 *
 * Readings of the rules file where it is silent: an arrival lost in time is
 * not an action, so it leaves the fifty-move count alone (the action played
 * at that turn counts as usual); the lost arrival stays in the schedule of
 * the position at which it is due, and is dropped by the action played
 * there; a scheduled bishop's remembered colour is part of "the piece" in a
 * position's identity; the en passant square is part of that identity only
 * when an en passant capture is a legal action (as in FIDE chess).
 */
#define _POSIX_C_SOURCE 200809L /* getline */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EMPTY = 0, PAWN = 1, KNIGHT, BISHOP, ROOK, QUEEN, KING };
enum { WHITE = 0, BLACK = 1 };
enum { FORWARD = 10, BACK = 5, BACK_TRAVELS = 2, MAX_SCHEDULE = 16 };

/* A square holds 0, or the type (1..6) plus 8 for Black. */
#define TYPE(x) ((x) & 7)
#define COLOR(x) ((x) >> 3)
#define PIECE(c, t) ((c) * 8 + (t))

/* One scheduled arrival: at full move `due`, a piece of `type`; a bishop
 * also remembers the colour of the square it left (1 light, 0 dark). */
typedef struct {
    int due, type, light;
} Arrival;

typedef struct {
    unsigned char sq[64];
    int side, castle, ep, half, full; /* castle: 1 K, 2 Q, 4 k, 8 q; ep: square or -1 */
    int nsched[2];
    Arrival sched[2][MAX_SCHEDULE];
    int backs[2];                     /* backward travels made, over all timelines */
} Pos;

enum { A_MOVE, A_SEND, A_ARRIVE, A_BACK };

typedef struct {
    int kind, from, to, promo; /* A_MOVE: from, to, promo; A_ARRIVE: to */
    int type;                  /* A_ARRIVE: the arriving piece */
    int move;                  /* A_SEND: the arrival move; A_BACK: the move t gone back to */
} Act;

/* The current timeline: timeline[i] is the position before its ply i, so
 * (the game starting at move 1 with White) it is White's turn at move
 * i / 2 + 1 when i is even, Black's when it is odd. */
static Pos *timeline;
static int plies, cap_plies; /* timeline[plies] is the present */

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "gifford-ref: out of memory\n");
        exit(2);
    }
    return q;
}

typedef struct {
    Act *a;
    int n, cap;
} Acts;

static void add(Acts *l, Act a)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->a = xrealloc(l->a, (size_t)l->cap * sizeof *l->a);
    }
    l->a[l->n++] = a;
}

/* ---- Board and attacks --------------------------------------------------- */

static int file_of(int s) { return s % 8; }
static int rank_of(int s) { return s / 8; }
static bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

/* a1 is dark. */
static int light(int s) { return (file_of(s) + rank_of(s)) % 2; }

static const int KN[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 }, { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
static const int KG[8][2] = { { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 }, { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };

/* Is square s attacked by colour c (normal chess attacks)? */
static bool attacked(const Pos *p, int s, int c)
{
    int f = file_of(s), r = rank_of(s);
    /* A pawn of c attacking s stands one rank behind s, seen from c. */
    int dr = c == WHITE ? -1 : 1;
    for (int df = -1; df <= 1; df += 2)
        if (on_board(f + df, r + dr) && p->sq[(r + dr) * 8 + f + df] == PIECE(c, PAWN)) return true;
    for (int i = 0; i < 8; i++) {
        int nf = f + KN[i][0], nr = r + KN[i][1];
        if (on_board(nf, nr) && p->sq[nr * 8 + nf] == PIECE(c, KNIGHT)) return true;
        nf = f + KG[i][0], nr = r + KG[i][1];
        if (on_board(nf, nr) && p->sq[nr * 8 + nf] == PIECE(c, KING)) return true;
    }
    for (int i = 0; i < 8; i++) {
        bool diagonal = KG[i][0] && KG[i][1];
        for (int nf = f + KG[i][0], nr = r + KG[i][1]; on_board(nf, nr); nf += KG[i][0], nr += KG[i][1]) {
            int x = p->sq[nr * 8 + nf];
            if (!x) continue;
            if (COLOR(x) == c && (TYPE(x) == QUEEN || TYPE(x) == (diagonal ? BISHOP : ROOK))) return true;
            break;
        }
    }
    return false;
}

/* Is any king of colour c on the board attacked?  With none, never. */
static bool in_check(const Pos *p, int c)
{
    for (int s = 0; s < 64; s++)
        if (p->sq[s] == PIECE(c, KING) && attacked(p, s, !c)) return true;
    return false;
}

/* Has colour c a non-king piece or pawn on the board? */
static bool has_man(const Pos *p, int c)
{
    for (int s = 0; s < 64; s++)
        if (p->sq[s] && COLOR(p->sq[s]) == c && TYPE(p->sq[s]) != KING) return true;
    return false;
}

/* Is square s next to (8-neighbourhood) a king of colour c? */
static bool next_to_king(const Pos *p, int s, int c)
{
    for (int i = 0; i < 8; i++) {
        int nf = file_of(s) + KG[i][0], nr = rank_of(s) + KG[i][1];
        if (on_board(nf, nr) && p->sq[nr * 8 + nf] == PIECE(c, KING)) return true;
    }
    return false;
}

/* ---- Schedules ------------------------------------------------------------ */

static int arrival_at(const Pos *p, int c, int due)
{
    for (int i = 0; i < p->nsched[c]; i++)
        if (p->sched[c][i].due == due) return i;
    return -1;
}

static void drop_arrival(Pos *p, int c, int i)
{
    for (int k = i; k + 1 < p->nsched[c]; k++) p->sched[c][k] = p->sched[c][k + 1];
    p->nsched[c]--;
}

/* The mover's arrival due now, or -1. */
static int due_now(const Pos *p) { return arrival_at(p, p->side, p->full); }

/* ---- Making actions (on a copy) ------------------------------------------ */

static void end_turn(Pos *p)
{
    if (p->side == BLACK) p->full++;
    p->side = !p->side;
}

/* A king or rook leaving (or taken on) its home square loses the castling
 * right that goes with it. */
static void touch_castling(Pos *p, int s)
{
    if (s == 4) p->castle &= ~3;
    if (s == 60) p->castle &= ~12;
    if (s == 7) p->castle &= ~1;
    if (s == 0) p->castle &= ~2;
    if (s == 63) p->castle &= ~4;
    if (s == 56) p->castle &= ~8;
}

/* Plays a normal move, a send or an arrival (a king back is made by
 * back_position).  Whatever arrival is due now lands with this action or,
 * having no legal placement, is lost in time with it. */
static void make(Pos *p, Act a)
{
    int us = p->side;
    int d = due_now(p);
    if (d >= 0) drop_arrival(p, us, d);
    p->ep = -1;
    if (a.kind == A_ARRIVE) {
        p->sq[a.to] = (unsigned char)PIECE(us, a.type);
        p->half = 0;
    } else if (a.kind == A_SEND) {
        Arrival x = { a.move, TYPE(p->sq[a.from]), light(a.from) };
        p->sched[us][p->nsched[us]++] = x;
        p->sq[a.from] = EMPTY;
        touch_castling(p, a.from);
        p->half = 0;
    } else {
        int moving = p->sq[a.from], taken = p->sq[a.to];
        bool pawn = TYPE(moving) == PAWN;
        if (pawn && file_of(a.from) != file_of(a.to) && !taken) {
            /* En passant: the pawn taken stands beside. */
            int victim = a.to + (us == WHITE ? -8 : 8);
            taken = p->sq[victim];
            p->sq[victim] = EMPTY;
        }
        p->sq[a.to] = (unsigned char)(a.promo ? PIECE(us, a.promo) : moving);
        p->sq[a.from] = EMPTY;
        if (TYPE(moving) == KING && abs(a.to - a.from) == 2) {
            int rook_from = a.to > a.from ? a.from + 3 : a.from - 4, rook_to = (a.from + a.to) / 2;
            p->sq[rook_to] = p->sq[rook_from];
            p->sq[rook_from] = EMPTY;
        }
        touch_castling(p, a.from);
        touch_castling(p, a.to);
        if (pawn && abs(a.to - a.from) == 16) p->ep = (a.from + a.to) / 2;
        p->half = (pawn || taken) ? 0 : p->half + 1;
    }
    end_turn(p);
}

/* The position a king back from the present to move `a.move` makes:
 * T (the timeline's position before the mover's action at that move) plus
 * the king, T's schedules, both sides' backward-travel counts from the
 * present with the mover's one more. */
static Pos back_position(const Pos *now, Act a)
{
    int index = 2 * (a.move - 1) + now->side;
    Pos p = timeline[index];
    p.sq[a.to] = (unsigned char)PIECE(now->side, KING);
    p.backs[0] = now->backs[0];
    p.backs[1] = now->backs[1];
    p.backs[now->side]++;
    p.ep = -1;
    p.half = 0;
    end_turn(&p);
    return p;
}

static Pos after(const Pos *p, Act a)
{
    if (a.kind == A_BACK) return back_position(p, a);
    Pos q = *p;
    make(&q, a);
    return q;
}

static bool legal_after(const Pos *p, Act a)
{
    Pos q = after(p, a);
    return !in_check(&q, p->side);
}

/* ---- Generating actions ---------------------------------------------------- */

static Act act(int kind, int from, int to)
{
    Act a = { kind, from, to, 0, 0, 0 };
    return a;
}

static void try_add(const Pos *p, Acts *out, Act a)
{
    if (legal_after(p, a)) add(out, a);
}

static void pawn_moves(const Pos *p, int s, Acts *out)
{
    int us = p->side, up = us == WHITE ? 8 : -8, r = rank_of(s);
    int last = us == WHITE ? 7 : 0, second = us == WHITE ? 1 : 6;
    int targets[4], n = 0;
    int one = s + up;
    if (one >= 0 && one < 64 && !p->sq[one]) {
        targets[n++] = one;
        if (r == second && !p->sq[one + up]) targets[n++] = one + up;
    }
    for (int df = -1; df <= 1; df += 2) {
        int f = file_of(s) + df, to = s + up + df;
        if (f < 0 || f > 7 || to < 0 || to > 63) continue;
        if ((p->sq[to] && COLOR(p->sq[to]) != us) || to == p->ep) targets[n++] = to;
    }
    for (int i = 0; i < n; i++) {
        Act a = act(A_MOVE, s, targets[i]);
        if (rank_of(targets[i]) == last) {
            for (int t = KNIGHT; t <= QUEEN; t++) {
                a.promo = t;
                try_add(p, out, a);
            }
        } else {
            try_add(p, out, a);
        }
    }
}

static void piece_moves(const Pos *p, int s, Acts *out)
{
    int us = p->side, t = TYPE(p->sq[s]), f = file_of(s), r = rank_of(s);
    if (t == KNIGHT || t == KING) {
        const int (*d)[2] = t == KNIGHT ? KN : KG;
        for (int i = 0; i < 8; i++) {
            int nf = f + d[i][0], nr = r + d[i][1];
            if (!on_board(nf, nr)) continue;
            int x = p->sq[nr * 8 + nf];
            if (!x || COLOR(x) != us) try_add(p, out, act(A_MOVE, s, nr * 8 + nf));
        }
        return;
    }
    for (int i = 0; i < 8; i++) {
        bool diagonal = KG[i][0] && KG[i][1];
        if (t != QUEEN && diagonal != (t == BISHOP)) continue;
        for (int nf = f + KG[i][0], nr = r + KG[i][1]; on_board(nf, nr); nf += KG[i][0], nr += KG[i][1]) {
            int x = p->sq[nr * 8 + nf];
            if (x && COLOR(x) == us) break;
            try_add(p, out, act(A_MOVE, s, nr * 8 + nf));
            if (x) break;
        }
    }
}

/* The castling king's start, crossed and landing squares unattacked; the
 * other kings of the side are the general rule's (try_add). */
static void castlings(const Pos *p, Acts *out)
{
    int us = p->side, base = us == WHITE ? 0 : 56;
    int king_bit = us == WHITE ? 1 : 4, queen_bit = us == WHITE ? 2 : 8;
    if (p->sq[base + 4] != PIECE(us, KING)) return;
    if ((p->castle & king_bit) && p->sq[base + 7] == PIECE(us, ROOK) && !p->sq[base + 5] && !p->sq[base + 6] &&
        !attacked(p, base + 4, !us) && !attacked(p, base + 5, !us) && !attacked(p, base + 6, !us))
        try_add(p, out, act(A_MOVE, base + 4, base + 6));
    if ((p->castle & queen_bit) && p->sq[base] == PIECE(us, ROOK) && !p->sq[base + 1] && !p->sq[base + 2] &&
        !p->sq[base + 3] && !attacked(p, base + 4, !us) && !attacked(p, base + 3, !us) && !attacked(p, base + 2, !us))
        try_add(p, out, act(A_MOVE, base + 4, base + 2));
}

static void normal_moves(const Pos *p, Acts *out)
{
    for (int s = 0; s < 64; s++) {
        if (!p->sq[s] || COLOR(p->sq[s]) != p->side) continue;
        if (TYPE(p->sq[s]) == PAWN) pawn_moves(p, s, out);
        else piece_moves(p, s, out);
    }
    castlings(p, out);
}

/* The legal placements of an arrival of `x` (rule 4). */
static void placements(const Pos *p, Arrival x, Acts *out)
{
    for (int s = 0; s < 64; s++) {
        if (p->sq[s]) continue;
        if (x.type == PAWN && (rank_of(s) == 0 || rank_of(s) == 7)) continue;
        if (x.type == BISHOP && light(s) != x.light) continue;
        Act a = act(A_ARRIVE, -1, s);
        a.type = x.type;
        try_add(p, out, a);
    }
}

/* Rules 2 and 3: a piece next to a king, or a king, to a later move. */
static void sends(const Pos *p, Acts *out)
{
    int us = p->side;
    bool man = has_man(p, us);
    for (int s = 0; s < 64; s++) {
        if (!p->sq[s] || COLOR(p->sq[s]) != us) continue;
        if (TYPE(p->sq[s]) == KING ? !man : !next_to_king(p, s, us)) continue;
        for (int m = p->full + 1; m <= p->full + FORWARD; m++) {
            if (arrival_at(p, us, m) >= 0) continue;
            Act a = act(A_SEND, s, -1);
            a.move = m;
            try_add(p, out, a);
        }
    }
}

/* Rule 5: a king back to move t = n - j on an empty square of T. */
static void king_backs(const Pos *p, Acts *out)
{
    int us = p->side;
    if (p->backs[us] >= BACK_TRAVELS || !has_man(p, us)) return;
    for (int s = 0; s < 64; s++) {
        if (p->sq[s] != PIECE(us, KING)) continue;
        for (int j = 1; j <= BACK; j++) {
            int t = p->full - j;
            if (t < 1) continue;
            const Pos *T = &timeline[2 * (t - 1) + us];
            if (arrival_at(T, us, t) >= 0) continue;
            for (int q = 0; q < 64; q++) {
                if (T->sq[q]) continue;
                Act a = act(A_BACK, s, q);
                a.move = t;
                try_add(p, out, a);
            }
        }
    }
}

/* The legal actions at the present, timeline[plies]. */
static void legal_actions(Acts *out)
{
    const Pos *p = &timeline[plies];
    out->n = 0;
    int d = due_now(p);
    if (d >= 0) {
        placements(p, p->sched[p->side][d], out);
        /* Placed if it can be; a king that cannot be is lost, and so is
         * the game. */
        if (out->n > 0 || p->sched[p->side][d].type == KING) return;
    }
    normal_moves(p, out);
    if (in_check(p, p->side)) return;
    sends(p, out);
    king_backs(p, out);
}

/* ---- The timeline ---------------------------------------------------------- */

static void push(Act a)
{
    const Pos now = timeline[plies];
    /* A king back ends the timeline: the new one goes on from T. */
    if (a.kind == A_BACK) plies = 2 * (a.move - 1) + now.side;
    if (plies + 2 > cap_plies) {
        cap_plies = cap_plies ? cap_plies * 2 : 256;
        timeline = xrealloc(timeline, (size_t)cap_plies * sizeof *timeline);
    }
    timeline[plies + 1] = after(&now, a);
    plies++;
}

static void start(void)
{
    static const char back[] = { ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK };
    plies = 0;
    if (!cap_plies) {
        cap_plies = 256;
        timeline = xrealloc(timeline, (size_t)cap_plies * sizeof *timeline);
    }
    Pos *p = &timeline[0];
    memset(p, 0, sizeof *p);
    for (int f = 0; f < 8; f++) {
        p->sq[f] = (unsigned char)PIECE(WHITE, back[f]);
        p->sq[8 + f] = PIECE(WHITE, PAWN);
        p->sq[48 + f] = PIECE(BLACK, PAWN);
        p->sq[56 + f] = (unsigned char)PIECE(BLACK, back[f]);
    }
    p->castle = 15;
    p->ep = -1;
    p->full = 1;
}

/* ---- Notation -------------------------------------------------------------- */

static const char LETTERS[] = " PNBRQK";

static void square_text(int s, char *buf)
{
    buf[0] = (char)('a' + file_of(s));
    buf[1] = (char)('1' + rank_of(s));
    buf[2] = 0;
}

static void action_text(Act a, char *buf, size_t len)
{
    char from[3] = "", to[3] = "";
    if (a.from >= 0) square_text(a.from, from);
    if (a.to >= 0) square_text(a.to, to);
    switch (a.kind) {
    case A_ARRIVE:
        snprintf(buf, len, "%c@%s", LETTERS[a.type], to);
        break;
    case A_SEND:
        snprintf(buf, len, "%s>%d", from, a.move);
        break;
    case A_BACK:
        snprintf(buf, len, "%s<%d@%s", from, a.move, to);
        break;
    default:
        snprintf(buf, len, "%s%s%s", from, to, a.promo ? (const char[]){ (char)(LETTERS[a.promo] + 32), 0 } : "");
        break;
    }
}

/* ---- Results ----------------------------------------------------------------- */

/* Is an en passant capture a legal action at p?  Not while an arrival due
 * now can be placed (the placements are then the only actions), nor when
 * a king due now cannot be (there are none). */
static bool ep_capture(const Pos *p)
{
    if (p->ep < 0) return false;
    int d = due_now(p);
    if (d >= 0) {
        Acts l = { 0 };
        placements(p, p->sched[p->side][d], &l);
        bool placed = l.n > 0 || p->sched[p->side][d].type == KING;
        free(l.a);
        if (placed) return false;
    }
    Acts l = { 0 };
    normal_moves(p, &l);
    bool yes = false;
    for (int i = 0; i < l.n && !yes; i++)
        yes = l.a[i].to == p->ep && TYPE(p->sq[l.a[i].from]) == PAWN;
    free(l.a);
    return yes;
}

/* Do colour c's schedules at a and b hold the same (m - n, piece) pairs? */
static bool same_schedule(const Pos *a, const Pos *b, int c)
{
    if (a->nsched[c] != b->nsched[c]) return false;
    for (int i = 0; i < a->nsched[c]; i++) {
        const Arrival *x = &a->sched[c][i];
        bool found = false;
        for (int k = 0; k < b->nsched[c] && !found; k++) {
            const Arrival *y = &b->sched[c][k];
            found = x->due - a->full == y->due - b->full && x->type == y->type &&
                    (x->type != BISHOP || x->light == y->light);
        }
        if (!found) return false;
    }
    return true;
}

/* A position's identity for repetition: board, side to move, castling,
 * en passant, both schedules, both backward-travel counts. */
static bool same_position(const Pos *a, const Pos *b)
{
    if (memcmp(a->sq, b->sq, 64) || a->side != b->side || a->castle != b->castle) return false;
    if (a->backs[0] != b->backs[0] || a->backs[1] != b->backs[1]) return false;
    if (!same_schedule(a, b, WHITE) || !same_schedule(a, b, BLACK)) return false;
    int ea = ep_capture(a) ? a->ep : -1, eb = ep_capture(b) ? b->ep : -1;
    return ea == eb;
}

/* No non-king piece or pawn on the board or scheduled, for either side. */
static bool dead_position(const Pos *p)
{
    for (int c = WHITE; c <= BLACK; c++) {
        if (has_man(p, c)) return false;
        for (int i = 0; i < p->nsched[c]; i++)
            if (p->sched[c][i].type != KING) return false;
    }
    return true;
}

static const char *status(int count)
{
    const Pos *p = &timeline[plies];
    if (count == 0) {
        int d = due_now(p);
        if (d >= 0 && p->sched[p->side][d].type == KING)
            return p->side == WHITE ? "0-1 white king lost in time" : "1-0 black king lost in time";
        if (in_check(p, p->side)) return p->side == WHITE ? "0-1 checkmate" : "1-0 checkmate";
        return "1/2-1/2 stalemate";
    }
    if (dead_position(p)) return "1/2-1/2 insufficient material";
    if (p->half >= 100) return "1/2-1/2 fifty-move rule";
    int seen = 0;
    for (int i = 0; i < plies; i++) seen += same_position(&timeline[i], p);
    if (seen >= 2) return "1/2-1/2 threefold repetition";
    return "ongoing";
}

/* ---- Commands ---------------------------------------------------------------- */

static int compare_texts(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Plays the action written `text` at the present; false if it is not a
 * legal action. */
static bool play_text(const char *text)
{
    Acts l = { 0 };
    legal_actions(&l);
    bool found = false;
    for (int i = 0; i < l.n && !found; i++) {
        char buf[64];
        action_text(l.a[i], buf, sizeof buf);
        if (!strcmp(buf, text)) {
            push(l.a[i]);
            found = true;
        }
    }
    free(l.a);
    return found;
}

static void dump(int ply)
{
    Acts l = { 0 };
    legal_actions(&l);
    char **texts = xrealloc(NULL, ((size_t)l.n + 1) * sizeof *texts);
    for (int i = 0; i < l.n; i++) {
        texts[i] = xrealloc(NULL, 64);
        action_text(l.a[i], texts[i], 64);
    }
    qsort(texts, (size_t)l.n, sizeof *texts, compare_texts);
    printf("%d %s:", ply, status(l.n));
    for (int i = 0; i < l.n; i++) {
        printf(" %s", texts[i]);
        free(texts[i]);
    }
    printf("\n");
    free(texts);
    free(l.a);
}

static int cmd_check(void)
{
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) >= 0) {
        start();
        int ply = 0;
        for (char *t = strtok(line, " \t\r\n");; t = strtok(NULL, " \t\r\n")) {
            dump(ply);
            if (!t) break;
            if (!play_text(t)) {
                printf("%d illegal %s\n", ply, t);
                break;
            }
            ply++;
        }
        printf("end\n");
    }
    free(line);
    return 0;
}

/* Counts the leaves; a king back rewrites the timeline, so each child
 * works on a copy of it and the present's is restored after. */
static unsigned long long perft(int depth)
{
    Acts l = { 0 };
    legal_actions(&l);
    unsigned long long n = 0;
    if (depth == 1) n = (unsigned long long)l.n;
    for (int i = 0; depth > 1 && i < l.n; i++) {
        int saved_plies = plies;
        Pos *saved = xrealloc(NULL, ((size_t)plies + 1) * sizeof *saved);
        memcpy(saved, timeline, ((size_t)plies + 1) * sizeof *saved);
        push(l.a[i]);
        n += perft(depth - 1);
        plies = saved_plies;
        memcpy(timeline, saved, ((size_t)plies + 1) * sizeof *saved);
        free(saved);
    }
    free(l.a);
    return n;
}

static int cmd_perft(int argc, char **argv, bool divide)
{
    int depth = atoi(argv[2]);
    start();
    for (int i = 3; i < argc; i++)
        if (!play_text(argv[i])) {
            fprintf(stderr, "gifford-ref: illegal action %s\n", argv[i]);
            return 1;
        }
    if (depth < 1) {
        printf("1\n");
        return 0;
    }
    if (!divide) {
        printf("%llu\n", perft(depth));
        return 0;
    }
    Acts l = { 0 };
    legal_actions(&l);
    unsigned long long total = 0;
    for (int i = 0; i < l.n; i++) {
        char buf[64];
        action_text(l.a[i], buf, sizeof buf);
        int saved_plies = plies;
        Pos *saved = xrealloc(NULL, ((size_t)plies + 1) * sizeof *saved);
        memcpy(saved, timeline, ((size_t)plies + 1) * sizeof *saved);
        push(l.a[i]);
        unsigned long long n = depth > 1 ? perft(depth - 1) : 1;
        plies = saved_plies;
        memcpy(timeline, saved, ((size_t)plies + 1) * sizeof *saved);
        free(saved);
        printf("%s: %llu\n", buf, n);
        total += n;
    }
    printf("total %llu\n", total);
    free(l.a);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "check")) return cmd_check();
    if (argc >= 3 && !strcmp(argv[1], "perft")) return cmd_perft(argc, argv, false);
    if (argc >= 3 && !strcmp(argv[1], "divide")) return cmd_perft(argc, argv, true);
    fprintf(stderr, "usage: gifford-ref perft DEPTH [ACTION...] | divide DEPTH [ACTION...] | check\n");
    return 2;
}
