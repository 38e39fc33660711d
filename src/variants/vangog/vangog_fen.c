/* SPDX-License-Identifier: GPL-3.0-or-later
 * van Gog's Time Travel Chess: its FEN, the six fields of chess, then the
 * origins, the open obligations, the links and the travellers (vangog.c
 * has the rules). */
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "rules.h"
#include "vangog.h"

/* ---- FEN ---------------------------------------------------------------- */

/*
 * van Gog FEN: the six fields of FEN, then four of the game's own, each
 * "-" when empty (trailing ones may be left out):
 *   origins      d4:1,f3:2           pieces that arrived: square, origin
 *   obligations  1:Qd1d4,2:rd8d4x+   open obligations by number: piece (white
 *                                    upper case), from, to, then x for a
 *                                    capture or s for a self-capture, + for check
 *   links        3=0,4=1             fulfilled arrivals: number = origin of
 *                                    the piece that departed for it
 *   travellers   Qh5,nd2s+:3         in the order they left: piece, square,
 *                                    x or s, +, and :origin when not 0
 * docs/notation.md has the whole story.
 */
typedef struct FenLists {
    Obligation *obligations;
    VanGogTraveller *travellers;
    Link *links;
    int n_obligations, n_travellers, n_links;
} FenLists;

static bool read_number(const char **p, long max, long *v)
{
    long n = 0;
    int digits = 0;
    while (**p >= '0' && **p <= '9' && digits < 7) n = n * 10 + (*(*p)++ - '0'), digits++;
    *v = n;
    return digits > 0 && n <= max;
}

static bool read_fen_square(const char **p, Square *s)
{
    *s = square_parse(*p);
    if (*s == SQ_NONE) return false;
    *p += 2;
    return true;
}

/* A piece letter, upper case for White. */
static bool read_fen_piece(const char **p, Color *c, PieceType *t)
{
    char ch = **p;
    *t = piece_type_from_letter(ch);
    if (*t == NO_TYPE) return false;
    *c = (ch >= 'a' && ch <= 'z') ? BLACK : WHITE;
    (*p)++;
    return true;
}

/* "x" or "s", then "+", both optional. */
static void read_capture_check(const char **p, uint8_t *capture, uint8_t *check)
{
    *capture = **p == 'x' ? CAPTURE_ENEMY : **p == 's' ? CAPTURE_SELF : CAPTURE_NONE;
    if (*capture) (*p)++;
    *check = **p == '+';
    if (*check) (*p)++;
}

/* Calls item() for each comma-separated item of a field ("-": none). */
static bool for_each_item(const char *field, size_t len, const char *what, const char *example,
                          bool (*item)(const char **p, void *ctx), void *ctx, Text *err)
{
    if (len == 1 && field[0] == '-') return true;
    const char *p = field, *end = field + len;
    while (p < end) {
        const char *start = p;
        if (!item(&p, ctx) || (p < end && *p != ',') || p > end)
            return text_fail(err, "bad FEN: cannot read the %s item '%.*s' (write e.g. %s, or '-' for none)", what,
                             (int)strcspn(start, ", \t"), start, example);
        if (p < end) p++;
    }
    return true;
}

typedef struct OriginCtx {
    State *s;
    Bitboard seen;
} OriginCtx;

static bool read_origin(const char **p, void *ctx)
{
    OriginCtx *c = ctx;
    Square sq;
    long o;
    if (!read_fen_square(p, &sq) || *(*p)++ != ':' || !read_number(p, VANGOG_MAX_ARRIVALS, &o) || o == 0) return false;
    if (c->seen & BB(sq) || c->s->board.squares[sq] == NO_PIECE) return false;
    c->seen |= BB(sq);
    vangog_state(c->s)->origin.tag[sq] = (uint16_t)o;
    return true;
}

static bool read_obligation(const char **p, void *ctx)
{
    FenLists *f = ctx;
    Obligation o = { 0 };
    long n;
    Color c;
    PieceType t;
    Square from, to;
    if (!read_number(p, VANGOG_MAX_ARRIVALS, &n) || n == 0 || *(*p)++ != ':' || !read_fen_piece(p, &c, &t) ||
        !read_fen_square(p, &from) || !read_fen_square(p, &to))
        return false;
    read_capture_check(p, &o.capture, &o.check);
    o.number = (uint16_t)n;
    o.color = c;
    o.type = t;
    o.from = from;
    o.to = to;
    f->obligations[f->n_obligations++] = o;
    return true;
}

static bool read_link(const char **p, void *ctx)
{
    FenLists *f = ctx;
    long n, o;
    if (!read_number(p, VANGOG_MAX_ARRIVALS, &n) || n == 0 || *(*p)++ != '=' || !read_number(p, VANGOG_MAX_ARRIVALS, &o))
        return false;
    f->links[f->n_links].number = (uint16_t)n;
    f->links[f->n_links++].origin = (uint16_t)o;
    return true;
}

static bool read_traveller(const char **p, void *ctx)
{
    FenLists *f = ctx;
    VanGogTraveller t = { 0 };
    Color c;
    PieceType x;
    Square to;
    if (!read_fen_piece(p, &c, &x) || !read_fen_square(p, &to)) return false;
    read_capture_check(p, &t.capture, &t.check);
    long o = 0;
    if (**p == ':' && (++*p, !read_number(p, VANGOG_MAX_ARRIVALS, &o) || o == 0)) return false;
    t.origin = (uint16_t)o;
    t.color = c;
    t.type = x;
    t.to = to;
    f->travellers[f->n_travellers++] = t;
    return true;
}

/* Could a traveller with these facts have left by a legal departure?  A
 * pawn reaches neither its first two ranks nor its last; a king never
 * self-captures. */
static bool traveller_shape(const VanGogTraveller *t)
{
    if (t->type == KING && t->capture == CAPTURE_SELF) return false;
    int rank = t->color == WHITE ? square_rank(t->to) : 7 - square_rank(t->to);
    return t->type != PAWN || (rank >= 2 && rank <= 6);
}

static void obligation_label(const Obligation *o, Text *out);

/* The facts the lists must agree on: arrivals numbered 1..N once each,
 * origins of at most N and each on one piece, links without loops,
 * obligations of an arrival's shape, travellers of a departure's. */
static bool check_lists(const State *s, const VanGogRules *r, Text *err)
{
    const VanGogState *vs = vangog_cstate(s);
    int n = vangog_arrivals(s);
    const Obligation *ob = vangog_obligations(s);
    const Link *li = vangog_links(s);
    const VanGogTraveller *tr = vangog_travellers(s);
    if (!r->from_future && n) return text_fail(err, "bad FEN: this game has no arrivals from the future, so no obligations or links");
    if (!r->to_future && vs->travellers) return text_fail(err, "bad FEN: this game has no departures to the future, so no travellers");
    /* Each number 1..n once, among obligations and links. */
    unsigned char *seen = calloc((size_t)n + 1, 1);
    if (!seen) return text_fail(err, "out of memory");
    bool ok = true;
    for (int i = 0; i < vs->obligations && ok; i++) {
        if (ob[i].number > n || seen[ob[i].number]++)
            ok = text_fail(err, "bad FEN: arrival numbers must run from 1 to %d (the obligations and links), each once; "
                           "%d does not fit", n, ob[i].number);
        if (ok && i > 0 && ob[i].number < ob[i - 1].number)
            ok = text_fail(err, "bad FEN: obligations are listed by number");
        if (ok && !vangog_arrival_shape(ob[i].color, ob[i].type, ob[i].from, ob[i].to, ob[i].capture)) {
            Text t = TEXT_INIT;
            obligation_label(&ob[i], &t);
            ok = text_fail(err, "bad FEN: obligation %s cannot come from an arrival (a %s cannot arrive so)", text_str(&t),
                           piece_type_name(ob[i].type));
            text_free(&t);
        }
    }
    for (int i = 0; i < vs->links && ok; i++) {
        if (li[i].number > n || seen[li[i].number]++)
            ok = text_fail(err, "bad FEN: arrival numbers must run from 1 to %d (the obligations and links), each once; "
                           "%d does not fit", n, li[i].number);
        else if (li[i].origin > n || li[i].origin == li[i].number)
            ok = text_fail(err, "bad FEN: link %d=%d: the origin must be 0 or the number of another arrival (1 to %d)",
                           li[i].number, li[i].origin, n);
    }
    /* Origins: each at most n, and on one piece or traveller only. */
    memset(seen, 0, (size_t)n + 1);
    for (Square sq = 0; sq < 64 && ok; sq++) {
        uint16_t o = vs->origin.tag[sq];
        if (!o) continue;
        if (o > n || seen[o]++) ok = text_fail(err, "bad FEN: origin %d is not the number of one arrival", o);
        for (int i = 0; i < vs->obligations && ok; i++) {
            Piece p = s->board.squares[sq];
            bool promoted = ob[i].type == PAWN && piece_type(p) != KING;
            if (ob[i].number == o && (piece_color(p) != ob[i].color || (piece_type(p) != ob[i].type && !promoted)))
                ok = text_fail(err, "bad FEN: the piece on %c%c has origin %d, but arrival %d brought a %s %s",
                               'a' + square_file(sq), '1' + square_rank(sq), o, o, color_name(ob[i].color),
                               piece_type_name(ob[i].type));
        }
    }
    for (int i = 0; i < vs->travellers && ok; i++) {
        uint16_t o = tr[i].origin;
        if (o && (o > n || seen[o]++)) ok = text_fail(err, "bad FEN: origin %d is not the number of one arrival", o);
        else if (!traveller_shape(&tr[i])) ok = text_fail(err, "bad FEN: a %s cannot have left for %c%c so",
                                                          piece_type_name(tr[i].type), 'a' + square_file(tr[i].to),
                                                          '1' + square_rank(tr[i].to));
    }
    /* Links: every chain ends (no piece descends from itself).  Each
     * number is walked once: a chain that meets one already known to end
     * ends too (seen: 1 on the walk now, 2 known to end). */
    uint16_t *link_of = ok ? calloc((size_t)n + 1, sizeof *link_of) : NULL;
    if (ok && !link_of) ok = text_fail(err, "out of memory");
    memset(seen, 0, (size_t)n + 1);
    for (int i = 0; i < vs->links && ok; i++) link_of[li[i].number] = li[i].origin;
    for (int i = 0; i < vs->links && ok; i++) {
        int o = li[i].number;
        while (o && !seen[o]) {
            seen[o] = 1;
            o = link_of[o];
        }
        if (o && seen[o] == 1) ok = text_fail(err, "bad FEN: the links go round in a loop");
        for (o = li[i].number; o && seen[o] == 1; o = link_of[o]) seen[o] = 2;
    }
    free(link_of);
    free(seen);
    return ok;
}

/* Each side needs a king, on the board or travelling to the future. */
static bool kings_somewhere(const State *s, Text *err)
{
    for (Color c = WHITE; c <= BLACK; c++) {
        bool found = board_kings(&s->board, c) != 0;
        const VanGogTraveller *tr = vangog_travellers(s);
        for (int i = 0; i < vangog_cstate(s)->travellers; i++) found |= tr[i].color == c && tr[i].type == KING;
        if (!found) return text_fail(err, "bad FEN: %s has no king, neither on the board nor travelling", color_name(c));
    }
    return true;
}

static bool parse_lists(State *s, const char *rest, FenLists *f, Text *err)
{
    const char *field[5];
    size_t len[5];
    for (int i = 0; i < 5; i++) len[i] = fen_next_field(&rest, &field[i]);
    if (len[4]) return text_fail(err, "bad FEN: unexpected text after the travellers ('%.*s')", (int)len[4], field[4]);
    OriginCtx oc = { s, 0 };
    return for_each_item(field[0], len[0], "origins", "d4:1,f3:2", read_origin, &oc, err) &&
           for_each_item(field[1], len[1], "obligations", "1:Qd1d4,2:rd8d4x+", read_obligation, f, err) &&
           for_each_item(field[2], len[2], "links", "3=0,4=1", read_link, f, err) &&
           for_each_item(field[3], len[3], "travellers", "Qh5,nd2s+:3", read_traveller, f, err);
}

State *vangog_from_fen_rules(const VanGogRules *r, const char *fen, Text *err)
{
    const char *rest;
    Board board;
    if (!board_from_fen(&board, fen, &rest, err)) return NULL;
    /* Every item takes a comma or a field of its own. */
    size_t items = 4;
    for (const char *p = rest; *p; p++) items += *p == ',';
    FenLists f = { calloc(items, sizeof(Obligation)), calloc(items, sizeof(VanGogTraveller)), calloc(items, sizeof(Link)), 0, 0, 0 };
    State *s = state_new(sizeof(VanGogState) + items * (sizeof(Obligation) + sizeof(VanGogTraveller) + sizeof(Link)), err);
    bool ok = s && f.obligations && f.travellers && f.links;
    if (s && !ok) text_fail(err, "out of memory");
    if (ok) {
        s->board = board;
        ok = parse_lists(s, rest, &f, err);
    }
    if (ok) {
        VanGogState *vs = vangog_state(s);
        vs->obligations = (uint16_t)f.n_obligations;
        vs->travellers = (uint16_t)f.n_travellers;
        vs->links = (uint16_t)f.n_links;
        unsigned char *p = s->ext + sizeof(VanGogState);
        memcpy(p, f.obligations, f.n_obligations * sizeof(Obligation));
        p += f.n_obligations * sizeof(Obligation);
        memcpy(p, f.travellers, f.n_travellers * sizeof(VanGogTraveller));
        p += f.n_travellers * sizeof(VanGogTraveller);
        memcpy(p, f.links, f.n_links * sizeof(Link));
        p += f.n_links * sizeof(Link);
        s->ext_size = (uint32_t)(p - s->ext);
        ok = vangog_arrivals(s) <= VANGOG_MAX_ARRIVALS ? check_lists(s, r, err)
                                                       : text_fail(err, "bad FEN: more than %d arrivals", VANGOG_MAX_ARRIVALS);
    }
    ok = ok && kings_somewhere(s, err) && fen_side_not_to_move_safe(&s->board, err);
    free(f.obligations);
    free(f.travellers);
    free(f.links);
    if (!ok) {
        free(s);
        return NULL;
    }
    s->ext_key = vangog_ext_key(NULL, s);
    return s;
}

static void write_piece_letter(Color c, PieceType t, Text *out)
{
    char l = piece_letter(t);
    text_add_char(out, c == WHITE ? l : (char)(l - 'A' + 'a'));
}

static void write_square(Square s, Text *out)
{
    char name[3];
    square_name(s, name);
    text_add(out, name);
}

static void write_capture_check(uint8_t capture, uint8_t check, Text *out)
{
    if (capture == CAPTURE_ENEMY) text_add_char(out, 'x');
    if (capture == CAPTURE_SELF) text_add_char(out, 's');
    if (check) text_add_char(out, '+');
}

static void obligation_label(const Obligation *o, Text *out)
{
    text_addf(out, "%d:", o->number);
    write_piece_letter(o->color, o->type, out);
    write_square(o->from, out);
    write_square(o->to, out);
    write_capture_check(o->capture, o->check, out);
}

void vangog_to_fen(const Options *o, const State *s, Text *out)
{
    (void)o;
    const VanGogState *vs = vangog_cstate(s);
    board_to_fen(&s->board, out);
    text_add(out, " ");
    bool any = false;
    for (Square sq = 0; sq < 64; sq++) {
        if (!vs->origin.tag[sq]) continue;
        text_add(out, any ? "," : "");
        write_square(sq, out);
        text_addf(out, ":%d", vs->origin.tag[sq]);
        any = true;
    }
    text_add(out, any ? " " : "- ");
    const Obligation *ob = vangog_obligations(s);
    for (int i = 0; i < vs->obligations; i++) {
        text_add(out, i ? "," : "");
        obligation_label(&ob[i], out);
    }
    text_add(out, vs->obligations ? " " : "- ");
    const Link *li = vangog_links(s);
    for (int i = 0; i < vs->links; i++) text_addf(out, "%s%d=%d", i ? "," : "", li[i].number, li[i].origin);
    text_add(out, vs->links ? " " : "- ");
    const VanGogTraveller *tr = vangog_travellers(s);
    for (int i = 0; i < vs->travellers; i++) {
        text_add(out, i ? "," : "");
        write_piece_letter(tr[i].color, tr[i].type, out);
        write_square(tr[i].to, out);
        write_capture_check(tr[i].capture, tr[i].check, out);
        if (tr[i].origin) text_addf(out, ":%d", tr[i].origin);
    }
    if (!vs->travellers) text_add(out, "-");
}

/* ---- The parts of the FEN, for an editor -------------------------------- */

#define ORIGINS_PART                                                                                         \
    { "origins", "Origins",                                                                                  \
      "pieces that arrived from the future: square:number of the arrival that brought it, joined by commas", \
      "d4:1,e5:2", FEN_FIELD, 7, false, "-", NULL }
#define OBLIGATIONS_PART                                                                                     \
    { "obligations", "Open obligations",                                                                     \
      "arrivals not yet fulfilled, numbered from 1: number:piece (upper case White), from, to, then x for a "\
      "capture or s for a self-capture and + for a check",                                                   \
      "1:Qd1d4,2:pe7e5", FEN_FIELD, 8, false, "-", NULL }
#define LINKS_PART                                                                                           \
    { "links", "Fulfilled arrivals",                                                                         \
      "number=origin: the arrival, and the origin of the piece whose departure fulfilled it (0: a piece of " \
      "the start)",                                                                                          \
      "3=0", FEN_FIELD, 9, false, "-", NULL }
#define TRAVELLERS_PART                                                                                      \
    { "travellers", "Pieces in transit",                                                                     \
      "pieces gone to the future, in the order they left: piece, square, x or s, + for a check, :origin "    \
      "when not 0",                                                                                          \
      "Qh5+,nd2s:3", FEN_FIELD, 10, false, "-", NULL }
#define END_PART { NULL, NULL, NULL, NULL, 0, 0, false, NULL, NULL }

const FenPart VANGOG_FEN_PARTS[] = { ORIGINS_PART, OBLIGATIONS_PART, LINKS_PART, TRAVELLERS_PART, END_PART };
const FenPart VANGOG_PAST_FEN_PARTS[] = { ORIGINS_PART, OBLIGATIONS_PART, LINKS_PART, END_PART };
const FenPart VANGOG_FUTURE_FEN_PARTS[] = { TRAVELLERS_PART, END_PART };
