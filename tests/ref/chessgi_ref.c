/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * chessgi-ref: a second implementation of Chessgi and Time Travel Chessgi,
 * written from shared/rules/chessgi.md for cross-checking.  It shares no
 * code with the library, not even its headers, and is deliberately plain:
 * a mailbox board, attacks found by walking rays, legality by making the
 * move on a copy, the record as an array of positions with their parents.
 * Slow, but simple enough to read against the rules file line by line.
 * It was written by the same hands as the library's chessgi.c, so it
 * catches slips of implementation (bitboard shortcuts, key and state
 * bookkeeping, notation) better than a shared misreading of the rules;
 * the base game is also checked against Fairy-Stockfish, which shares
 * nothing with either (tests/fsf-compare.sh).
 *
 * Usage:
 *   chessgi-ref VARIANT perft DEPTH [ACTION...]
 *   chessgi-ref VARIANT divide DEPTH [ACTION...]
 *   chessgi-ref VARIANT check     (games on standard input, one a line)
 * VARIANT is chessgi-classic or chessgi (default options: cooldown 4,
 * forward 10, king forward 5, capacity 16).
 *
 * Readings of the rules file where it is silent (shared with the library's
 * docs/rules/chessgi.md): the fifty-move count is 0 after a general travel;
 * the cooldown after a general travel counts from the travel; a traveller
 * whose move was jumped over keeps its due move; a time travel is a legal
 * action, so a side that may travel is not stalemated.
 */
#define _POSIX_C_SOURCE 200809L /* getline */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EMPTY = 0, PAWN = 1, KNIGHT, BISHOP, ROOK, QUEEN, KING };
enum { WHITE = 0, BLACK = 1 };
enum { COOLDOWN = 4, FORWARD = 10, KING_FORWARD = 5, CAPACITY = 16, MAX_TRAVELLERS = 40 };

/* A square holds 0, or the type (1..6) plus 8 for Black. */
#define TYPE(x) ((x) & 7)
#define COLOR(x) ((x) >> 3)
#define PIECE(c, t) ((c) * 8 + (t))

typedef struct {
    int due, type;
} Traveller;

typedef struct {
    unsigned char sq[64];
    int side, castle, ep, half, full;  /* castle: 1 K, 2 Q, 4 k, 8 q; ep: square or -1 */
    int pocket[2][7];
    int ntrav[2];
    Traveller trav[2][MAX_TRAVELLERS];
    int wait;                          /* plies before anyone may travel again */
} Pos;

enum { A_MOVE, A_DROP, A_SEND, A_TDROP };

typedef struct {
    int kind, from, to, promo, piece, due;
    int node;                          /* general travel: the target, else -1 */
} Act;

typedef struct {
    Pos p;
    int parent, timeline, depth;
} Rec;

static bool travel_game;
static Rec *recs;
static int nrecs, caprecs, ntimelines;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "chessgi-ref: out of memory\n");
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

/* ---- Attacks ------------------------------------------------------------ */

static int file_of(int s) { return s % 8; }
static int rank_of(int s) { return s / 8; }

static bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

static const int KN[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 }, { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
static const int KG[8][2] = { { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 }, { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };

/* Is square s attacked by colour c? */
static bool attacked(const Pos *p, int s, int c)
{
    int f = file_of(s), r = rank_of(s);
    /* Pawns of c attack diagonally forward: look behind s from c's side. */
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

/* Is any king of colour c attacked? */
static bool in_check(const Pos *p, int c)
{
    for (int s = 0; s < 64; s++)
        if (p->sq[s] == PIECE(c, KING) && attacked(p, s, !c)) return true;
    return false;
}

/* ---- Travellers and pockets --------------------------------------------- */

static int traveller_at(const Pos *p, int c, int due)
{
    for (int i = 0; i < p->ntrav[c]; i++)
        if (p->trav[c][i].due == due) return i;
    return -1;
}

static void remove_traveller(Pos *p, int c, int i)
{
    for (int k = i; k + 1 < p->ntrav[c]; k++) p->trav[c][k] = p->trav[c][k + 1];
    p->ntrav[c]--;
}

static int pocket_total(const Pos *p, int c)
{
    int n = p->ntrav[c];
    for (int t = PAWN; t <= QUEEN; t++) n += p->pocket[c][t];
    return n;
}

/* The mover's traveller due now, or -1. */
static int due_now(const Pos *p) { return traveller_at(p, p->side, p->full); }

static bool king_due_now(const Pos *p)
{
    int i = due_now(p);
    return i >= 0 && p->trav[p->side][i].type == KING;
}

/* ---- Making actions (on a copy) ----------------------------------------- */

static void end_turn(Pos *p)
{
    if (p->side == BLACK) p->full++;
    p->side = !p->side;
}

static void touch_castling(Pos *p, int s)
{
    if (s == 4) p->castle &= ~3;
    if (s == 60) p->castle &= ~12;
    if (s == 7) p->castle &= ~1;
    if (s == 0) p->castle &= ~2;
    if (s == 63) p->castle &= ~4;
    if (s == 56) p->castle &= ~8;
}

/* Plays a base action (not a general travel); the wait is the caller's. */
static void make(Pos *p, Act a)
{
    int us = p->side;
    /* Whatever traveller is due now lands with this action or is lost. */
    int d = due_now(p);
    if (d >= 0) remove_traveller(p, us, d);
    p->ep = -1;
    if (a.kind == A_DROP || a.kind == A_TDROP) {
        if (a.kind == A_DROP) p->pocket[us][a.piece]--;
        p->sq[a.to] = (unsigned char)PIECE(us, a.piece);
        p->half = a.piece == PAWN ? 0 : p->half + 1;
    } else if (a.kind == A_SEND) {
        Traveller t = { a.due, TYPE(p->sq[a.from]) };
        p->trav[us][p->ntrav[us]++] = t;
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
        if (taken) p->pocket[us][TYPE(taken)]++;
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

static bool legal_after(const Pos *p, Act a)
{
    Pos q = *p;
    make(&q, a);
    return !in_check(&q, p->side);
}

/* ---- Generating the base game's actions --------------------------------- */

static Act act(int kind, int from, int to)
{
    Act a = { kind, from, to, 0, 0, 0, -1 };
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
            for (int t = QUEEN; t >= KNIGHT; t--) {
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

static void drops(const Pos *p, int kind, int type, Acts *out)
{
    int us = p->side;
    for (int s = 0; s < 64; s++) {
        if (p->sq[s]) continue;
        if (type == PAWN && rank_of(s) == (us == WHITE ? 7 : 0)) continue;
        Act a = act(kind, -1, s);
        a.piece = type;
        try_add(p, out, a);
    }
}

/* Everything but the two time travels. */
static void base_actions(const Pos *p, Acts *out)
{
    int us = p->side, d = due_now(p);
    if (d >= 0) {
        drops(p, A_TDROP, p->trav[us][d].type, out);
        /* A king due now must land, if it can: nothing else is legal. */
        if (p->trav[us][d].type == KING) return;
    }
    for (int s = 0; s < 64; s++) {
        if (!p->sq[s] || COLOR(p->sq[s]) != us) continue;
        if (TYPE(p->sq[s]) == PAWN) pawn_moves(p, s, out);
        else piece_moves(p, s, out);
    }
    castlings(p, out);
    for (int t = PAWN; t <= QUEEN; t++)
        if (p->pocket[us][t]) drops(p, A_DROP, t, out);
}

/* ---- Time travel -------------------------------------------------------- */

static bool travel_allowed(const Pos *p)
{
    return travel_game && p->wait == 0 && !in_check(p, p->side) && !king_due_now(p);
}

static void special_travels(const Pos *p, Acts *out)
{
    int us = p->side;
    if (pocket_total(p, us) >= CAPACITY) return;
    for (int s = 0; s < 64; s++) {
        if (!p->sq[s] || COLOR(p->sq[s]) != us) continue;
        int limit = TYPE(p->sq[s]) == KING ? KING_FORWARD : FORWARD;
        for (int r = p->full + 1; r <= p->full + limit; r++) {
            if (traveller_at(p, us, r) >= 0) continue;
            Act a = act(A_SEND, s, -1);
            a.due = r;
            try_add(p, out, a);
        }
    }
}

/* The position a general travel from `now` to record `target` lands in,
 * before its move. */
static Pos landing(const Pos *now, int target)
{
    Pos l = recs[target].p;
    int us = now->side;
    memcpy(l.pocket[us], now->pocket[us], sizeof l.pocket[us]);
    l.ntrav[us] = now->ntrav[us];
    memcpy(l.trav[us], now->trav[us], sizeof l.trav[us]);
    /* The traveller due now is lost, unless the target is at that move. */
    int d = traveller_at(now, us, now->full);
    if (d >= 0 && l.full != now->full) remove_traveller(&l, us, d);
    return l;
}

static bool has_king(const Pos *p, int c)
{
    for (int s = 0; s < 64; s++)
        if (p->sq[s] == PIECE(c, KING)) return true;
    for (int i = 0; i < p->ntrav[c]; i++)
        if (p->trav[c][i].type == KING) return true;
    return false;
}

static void general_travels(const Pos *p, int present, Acts *out)
{
    if (pocket_total(p, p->side) == 0) return;
    Acts here = { 0 };
    for (int i = 0; i < present; i++) {
        if (recs[i].p.side != p->side) continue;
        Pos l = landing(p, i);
        if (!has_king(&l, p->side)) continue;
        here.n = 0;
        base_actions(&l, &here);
        for (int k = 0; k < here.n; k++) {
            Act a = here.a[k];
            a.node = i;
            add(out, a);
        }
    }
    free(here.a);
}

static void legal_actions(int present, Acts *out)
{
    const Pos *p = &recs[present].p;
    out->n = 0;
    base_actions(p, out);
    if (!travel_allowed(p)) return;
    special_travels(p, out);
    general_travels(p, present, out);
}

/* ---- The record --------------------------------------------------------- */

static void push(int present, Act a)
{
    if (nrecs == caprecs) {
        caprecs = caprecs ? caprecs * 2 : 64;
        recs = xrealloc(recs, (size_t)caprecs * sizeof *recs);
    }
    const Pos *now = &recs[present].p;
    Rec r;
    if (a.node >= 0) {
        r.p = landing(now, a.node);
        make(&r.p, a);
        r.p.half = 0;
        r.p.wait = COOLDOWN;
        r.parent = a.node;
        r.timeline = ++ntimelines;
    } else {
        r.p = *now;
        make(&r.p, a);
        r.p.wait = a.kind == A_SEND ? COOLDOWN : (now->wait > 0 ? now->wait - 1 : 0);
        r.parent = present;
        r.timeline = recs[present].timeline;
    }
    r.depth = recs[r.parent].depth + 1;
    recs[nrecs++] = r;
}

static void pop(void)
{
    Rec *r = &recs[--nrecs];
    if (r->timeline == ntimelines && r->parent != nrecs - 1) ntimelines--;
}

static void start(void)
{
    static const char back[] = { ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK };
    nrecs = 0;
    ntimelines = 1;
    if (!caprecs) {
        caprecs = 64;
        recs = xrealloc(recs, (size_t)caprecs * sizeof *recs);
    }
    Rec *r = &recs[nrecs++];
    memset(r, 0, sizeof *r);
    for (int f = 0; f < 8; f++) {
        r->p.sq[f] = (unsigned char)PIECE(WHITE, back[f]);
        r->p.sq[8 + f] = PIECE(WHITE, PAWN);
        r->p.sq[48 + f] = PIECE(BLACK, PAWN);
        r->p.sq[56 + f] = (unsigned char)PIECE(BLACK, back[f]);
    }
    r->p.castle = 15;
    r->p.ep = -1;
    r->p.full = 1;
    r->parent = -1;
    r->timeline = 1;
}

/* ---- Notation ----------------------------------------------------------- */

static const char LETTERS[] = " PNBRQK";

static void square_text(int s, char *buf)
{
    buf[0] = (char)('a' + file_of(s));
    buf[1] = (char)('1' + rank_of(s));
    buf[2] = 0;
}

static void action_text(Act a, char *buf, size_t len)
{
    char prefix[32] = "", from[3], to[3];
    if (a.node >= 0) snprintf(prefix, sizeof prefix, "<%d.%d>", recs[a.node].timeline, recs[a.node].depth);
    switch (a.kind) {
    case A_DROP:
        square_text(a.to, to);
        snprintf(buf, len, "%s%c@%s", prefix, LETTERS[a.piece], to);
        break;
    case A_TDROP:
        square_text(a.to, to);
        snprintf(buf, len, "%s[%c]@%s", prefix, LETTERS[a.piece], to);
        break;
    case A_SEND:
        square_text(a.from, from);
        snprintf(buf, len, "%s%s>%d", prefix, from, a.due);
        break;
    default:
        square_text(a.from, from);
        square_text(a.to, to);
        snprintf(buf, len, "%s%s%s%s", prefix, from, to, a.promo ? (const char[]){ (char)(LETTERS[a.promo] + 32), 0 } : "");
        break;
    }
}

/* ---- Outcome ------------------------------------------------------------ */

/* Can the side to move capture en passant (a legal action does)? */
static bool ep_capture(int node)
{
    const Pos *p = &recs[node].p;
    if (p->ep < 0) return false;
    Acts l = { 0 };
    base_actions(p, &l);
    bool yes = false;
    for (int i = 0; i < l.n && !yes; i++)
        yes = l.a[i].kind == A_MOVE && l.a[i].to == p->ep && TYPE(p->sq[l.a[i].from]) == PAWN;
    free(l.a);
    return yes;
}

static bool same_position(int x, int y)
{
    const Pos *a = &recs[x].p, *b = &recs[y].p;
    if (memcmp(a->sq, b->sq, 64) || a->side != b->side || a->castle != b->castle || a->wait != b->wait) return false;
    if (memcmp(a->pocket, b->pocket, sizeof a->pocket)) return false;
    for (int c = 0; c < 2; c++) {
        if (a->ntrav[c] != b->ntrav[c]) return false;
        /* As sets of (due - n, piece). */
        for (int i = 0; i < a->ntrav[c]; i++) {
            bool found = false;
            for (int k = 0; k < b->ntrav[c] && !found; k++)
                found = a->trav[c][i].due - a->full == b->trav[c][k].due - b->full && a->trav[c][i].type == b->trav[c][k].type;
            if (!found) return false;
        }
    }
    int ea = ep_capture(x) ? a->ep : -1, eb = ep_capture(y) ? b->ep : -1;
    return ea == eb;
}

static const char *status(int present, int count)
{
    const Pos *p = &recs[present].p;
    if (count == 0) {
        if (king_due_now(p)) return p->side == WHITE ? "0-1 white king lost in time" : "1-0 black king lost in time";
        if (in_check(p, p->side)) return p->side == WHITE ? "0-1 checkmate" : "1-0 checkmate";
        return "1/2-1/2 stalemate";
    }
    if (p->half >= 100) return "1/2-1/2 fifty-move rule";
    int seen = 0;
    for (int i = recs[present].parent; i >= 0; i = recs[i].parent) seen += same_position(i, present);
    if (seen >= 2) return "1/2-1/2 threefold repetition";
    return "ongoing";
}

/* ---- Commands ----------------------------------------------------------- */

static int compare_texts(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Plays the action written `text` at the present position; false if it is
 * not legal. */
static bool play_text(const char *text)
{
    Acts l = { 0 };
    legal_actions(nrecs - 1, &l);
    bool found = false;
    for (int i = 0; i < l.n && !found; i++) {
        char buf[64];
        action_text(l.a[i], buf, sizeof buf);
        if (!strcmp(buf, text)) {
            push(nrecs - 1, l.a[i]);
            found = true;
        }
    }
    free(l.a);
    return found;
}

static void dump(int ply)
{
    Acts l = { 0 };
    legal_actions(nrecs - 1, &l);
    char **texts = xrealloc(NULL, ((size_t)l.n + 1) * sizeof *texts);
    for (int i = 0; i < l.n; i++) {
        texts[i] = xrealloc(NULL, 64);
        action_text(l.a[i], texts[i], 64);
    }
    qsort(texts, (size_t)l.n, sizeof *texts, compare_texts);
    printf("%d %s:", ply, status(nrecs - 1, l.n));
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

static unsigned long long perft(int depth)
{
    Acts l = { 0 };
    legal_actions(nrecs - 1, &l);
    unsigned long long n = 0;
    if (depth == 1) n = (unsigned long long)l.n;
    for (int i = 0; depth > 1 && i < l.n; i++) {
        push(nrecs - 1, l.a[i]);
        n += perft(depth - 1);
        pop();
    }
    free(l.a);
    return n;
}

static int cmd_perft(int argc, char **argv, bool divide)
{
    int depth = atoi(argv[3]);
    start();
    for (int i = 4; i < argc; i++)
        if (!play_text(argv[i])) {
            fprintf(stderr, "chessgi-ref: illegal action %s\n", argv[i]);
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
    legal_actions(nrecs - 1, &l);
    unsigned long long total = 0;
    for (int i = 0; i < l.n; i++) {
        char buf[64];
        action_text(l.a[i], buf, sizeof buf);
        push(nrecs - 1, l.a[i]);
        unsigned long long n = depth > 1 ? perft(depth - 1) : 1;
        pop();
        printf("%s: %llu\n", buf, n);
        total += n;
    }
    printf("total %llu\n", total);
    free(l.a);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && (!strcmp(argv[1], "chessgi") || !strcmp(argv[1], "chessgi-classic"))) {
        travel_game = !strcmp(argv[1], "chessgi");
        if (!strcmp(argv[2], "check") && argc == 3) return cmd_check();
        if (!strcmp(argv[2], "perft") && argc >= 4) return cmd_perft(argc, argv, false);
        if (!strcmp(argv[2], "divide") && argc >= 4) return cmd_perft(argc, argv, true);
    }
    fprintf(stderr, "usage: chessgi-ref chessgi|chessgi-classic perft DEPTH [ACTION...] | divide DEPTH [ACTION...] | check\n");
    return 2;
}
