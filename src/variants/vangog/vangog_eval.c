/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The evaluation of van Gog's Time Travel Chess, for its three modes
 * (docs/rules/vangog.md; the state is described in vangog.h).
 *
 * A position is the board plus promises.  An open obligation is a promise
 * that a piece of a given type will one day leave by a given move; a
 * traveller is a piece off the board that may come back.  Whoever ends
 * the game with an obligation open, or with a traveller whose square is
 * not as it left it, loses whatever happened on the board (vangog_settle
 * and vangog_unmet in vangog.c).  So the evaluation is the shared chess
 * evaluation of the board, less what each side still owes, plus what each
 * side holds in reserve, each promise valued by how likely it is that it
 * can still be kept.
 *
 * Every term is a cheap proxy: it looks at a few squares and bitboards and
 * never generates actions or copies a board, because it runs at every node
 * of the search.  Where a proxy is coarser than the rules, the comment of
 * the function says how.  The three modes share all of it; a mode lacking
 * a kind of travel simply has no entries of that kind in its lists, and
 * the mode's rules (Variant.params) let the evaluation skip the empty list.
 *
 * docs/engine-eval-timetravel.md explains each term and weight.
 */
#include "attacks.h"
#include "eval.h"
#include "vangog.h"

/*
 * The weights, in centipawns (percentages where the name says so).  They
 * are hand-set from the rules, not yet tuned (docs/engine-eval-timetravel.md).
 *
 * landing[need][now] is shared by obligations and travellers, because both
 * obey the same matching principle on the square t they name: t must hold
 * what it held when the promise was made (need: empty, an enemy piece, a
 * piece of one's own), and `now` says what it holds today (empty, enemy,
 * own, a king, which no action may ever take).  The cost is how hard it
 * looks to change `now` into `need`: moving one's own piece away is easy,
 * capturing an enemy piece that stands there is harder, and waiting for
 * the opponent to put a piece on t is up to the opponent.
 */
typedef struct VanGogWeights {
    int borrowed_percent;        /* of the piece's value: what an open obligation will take off the board */
    int obligations_any;         /* once a side: the game is lost if it ends with any obligation open */
    int obligation_open;         /* each open obligation: each one must be met before the game ends */
    int obligation_ready;        /* the piece stands on its square and its path is clear            */
    int obligation_one_move;     /* a piece that may fulfil it is one move away (or its path blocked) */
    int obligation_distant;      /* such a piece (or a pawn that may promote to it) is farther away  */
    int obligation_unmeetable;   /* no piece on the board can ever fulfil it                         */
    int obligation_check;        /* the departure must give check, which only a discovered check can */
    int obligation_king;         /* the piece owed is a king                                          */
    int obligation_path_enemy;   /* an enemy piece stands between the piece in place and t            */
    int obligation_t_own;        /* t must be empty and holds a piece of one's own (the one called)   */
    int obligation_awaits_enemy; /* the departure must capture, and no enemy piece stands on t now   */
    int traveller_percent;       /* of the piece's value: a traveller held in reserve                */
    int traveller_open;          /* any traveller: the game is lost if it ends with its square wrong  */
    int traveller_landing_percent; /* of landing[][]: a wrong square weighs more on a traveller     */
    int traveller_check;         /* it may return only giving check, as it left                      */
    int traveller_king;          /* the traveller is a king                                          */
    int traveller_awaits_enemy;  /* it left capturing, and no enemy piece stands on t now             */
    int debt_full;               /* a side's obligations count in full up to this much               */
    int debt_beyond_divisor;     /* and beyond it at 1/this, so that every one still counts          */
    int debt_beyond_full;        /* plus this for each obligation that begins beyond debt_full        */
    int debt_beyond_priced;      /* for at most this many of them, so the sum stays inside the clamp  */
    int landing[3][4];           /* [enum Capture needed][what t holds now: empty, enemy, own, king] */
} VanGogWeights;

enum { HOLDS_KING = 3 };

static const VanGogWeights VANGOG_WEIGHTS = {
    /* Every obligation removes a piece of its type from the board for good
     * when it is met, so the piece that arrived is worth only what it does
     * before its twin leaves.  Counting less than the whole value would
     * make the search keep obligations open to keep the extra material, and
     * an open obligation loses the game at its end. */
    .borrowed_percent = 100,
    /* The result turns on whether a side has any obligation open at the
     * end, not on how many: matches against players who leave theirs
     * open (bench/match.sh) are won by the side that keeps none open.  So
     * a side's first obligation costs most of a won game, once. */
    .obligations_any = 3000,
    /* Each further obligation is one more departure to bring about before
     * the game ends, and must cost more than any material an arrival can
     * win (a queen captured is 900 and some position), or the engine
     * takes material by arrivals it never repays.  When this cost was
     * part of a side's compressed total, the third obligation cost only
     * a few centipawns, and the engine, once forced into two arrivals,
     * arrived freely and shared the 0-0 of "both obligations unmet". */
    .obligation_open = 1500,
    /* A small debt: the departure can be played at once.  The steps to it
     * are priced apart by hundreds: repaying is worth thousands, but it
     * is two or three plies beyond a step that makes it playable, deeper
     * than a search at 100 ms reaches among van Gog's thousands of
     * actions.  At 45 for a step, the engine left the piece it had called
     * standing on the obligation's square and answered the opponent's
     * threats instead, until the piece that owed the departure was gone. */
    .obligation_ready = 15,
    .obligation_one_move = 200,
    .obligation_distant = 500,
    /* Nearly a lost game: unmet obligations lose when the game ends.  Not
     * a certain loss, because a new arrival can bring a piece of the type
     * (at the price of a new obligation), a traveller of the type can
     * reappear, and the game may never end. */
    .obligation_unmeetable = 2000,
    /* A departure gives check only by discovering one: the king must
     * stand on a line through f or t with a piece of one's own behind,
     * which a player who knows the rules keeps clear of.  At 80 the engine
     * answered checks by arrivals that checked back, and never met them. */
    .obligation_check = 800,
    /* A king owed is a second king to keep out of check until it leaves,
     * and it leaves only by a legal king move; a king's value in the
     * material table is 0, so nothing else prices it.  Kings called from
     * the future were the last, unmet obligation of many self-play games. */
    .obligation_king = 600,
    /* The piece stands ready but an enemy piece blocks its path: only a
     * capture or the opponent clears it. */
    .obligation_path_enemy = 150,
    /* The piece an arrival called stands on t until it moves away, and
     * the departure cannot be played before: one step, priced as one.
     * It is kept out of landing[][], which travellers share: their
     * landing costs count three times over (traveller_landing_percent). */
    .obligation_t_own = 170,
    /* Only the opponent can put a piece on t, and a player who knows the
     * rules never will: an arrival that captured is the hardest to repay.
     * Against a random mover, the one obligation the engine was forced
     * into and never met was nearly always one of these (an arrival
     * capturing the checking piece, where one blocking the check could
     * have been repaid by its own move). */
    .obligation_awaits_enemy = 700,
    /* A traveller can come back at any later turn, but only when its
     * square and the check agree with its departure, and it cannot
     * defend or attack anything while it is away. */
    .traveller_percent = 60,
    /* As with obligations, a traveller whose square is wrong when the game
     * ends loses it (the vacancy principle), and the opponent may keep the
     * square wrong: matches against a random mover in mode future ended
     * 0-0 a fifth of the time, the engine holding a queen that had left
     * capturing and could only come back onto an enemy piece. */
    .traveller_open = 150,
    .traveller_landing_percent = 300,
    .traveller_check = 60,
    /* A side whose king is away cannot be checked, which the search
     * likes; but it is a side that may run out of moves other than
     * arrivals, each a new obligation.  Against a player that captures
     * a piece by arrival every move, the engine sent its king away and
     * then had only arrivals left for the rest of the game. */
    .traveller_king = 800,
    /* A piece that left capturing may return only by capturing on its
     * square, and if it never does, the game is lost unless an enemy piece
     * stands there at the end: the opponent decides both, as for an
     * obligation that must capture.  The engine answered a check from a
     * queen that had arrived next to its king by the king's capture into
     * the future, and the king never came back. */
    .traveller_awaits_enemy = 1000,
    /* A side that piles up obligations (a random mover does, one arrival
     * after another) would otherwise push the sum past the scores the
     * search keeps for wins; clamped there, every action of the other
     * side would score the same, and it would stop caring about its own
     * obligations just when they decide the game (0-0 when both fail).
     * Counting each side's debt beyond about four obligations at a
     * fraction keeps the sum inside (sixty obligations come to about
     * 13,000 with obligations_any), and each further obligation still
     * costs.  A side's first four, the ones the engine itself may be
     * forced into, count in full. */
    .debt_full = 9000,
    .debt_beyond_divisor = 128,
    /* At 1/128 alone, a side already owing two heavy obligations (two
     * queens that arrived capturing come to about 10,000) paid some forty
     * centipawns for a third, so the search expected an opponent who
     * repays (the greedy player arrives only while fewer than two are
     * open) to keep checking by arrivals, and the engine defended against
     * that imagined flood by arrivals of its own and by sending its king
     * to the future.  Each obligation that begins beyond debt_full
     * therefore costs a fixed few hundred more: a real price, well below
     * the full debt a side's own obligations carry (side_view).  Only the
     * first four beyond are priced so: a random mover's sixty obligations
     * then come to 14,000 to 16,000 (with obligations_any), and the score
     * stays some 3,000 inside the clamp, where the board still counts. */
    .debt_beyond_full = 300,
    .debt_beyond_priced = 4,
    .landing = {
        /* needs t empty:      empty, enemy, own, king.  An enemy piece on t
         * stays as long as the opponent likes (a pawn moved there to block
         * kept a queen's departure from being played for a whole game). */
        [CAPTURE_NONE] = { 0, 400, 30, 60 },
        /* needs an enemy on t: the opponent decides whether one stands there. */
        [CAPTURE_ENEMY] = { 200, 0, 150, 200 },
        /* needs one of its own on t: a piece can be brought there. */
        [CAPTURE_SELF] = { 60, 120, 0, 80 },
    },
};

/* ---- Squares and pieces ------------------------------------------------- */

/* What t holds for colour c, as an index of VanGogWeights.landing. */
static int holds(const Board *b, Color c, Square t)
{
    int k = vangog_capture_at(b, c, t);
    return k < 0 ? HOLDS_KING : k;
}

/* The pieces of colour c and type x that may fulfil arrival k: every such
 * piece but the one arrival k brought.  A piece whose origin only leads
 * to k through links is banned as well (vangog_descends_from), but
 * walking the links for every piece is too slow for every node; the
 * piece on the obligation's own square is checked exactly instead
 * (obligation_in_place), which is where the difference matters. */
static Bitboard fulfillers(const State *s, Color c, PieceType x, int k)
{
    Bitboard all = board_pieces(&s->board, c, x), out = all;
    const uint16_t *origin = vangog_cstate(s)->origin.tag;
    while (all) {
        Square sq = bb_pop(&all);
        if (origin[sq] == k) out &= ~BB(sq);
    }
    return out;
}

/* The squares from which a piece of colour c and type x could ever come
 * to f on an empty board: everywhere, but a bishop only from f's colour
 * and a pawn only from behind. */
static Bitboard ever_reaches(Color c, PieceType x, Square f)
{
    if (x == PAWN) return pawn_cone_behind(c, f);
    if (x == BISHOP) return square_is_dark(f) ? DARK_SQUARES : ~DARK_SQUARES;
    return ~0ULL;
}

/* The squares from which a piece of colour c and type x reaches f in one
 * move as the board stands: a pawn by a push (two from its second rank
 * over an empty square) or, when an enemy stands on f, by a capture. */
static Bitboard one_move_to(const Board *b, Color c, PieceType x, Square f)
{
    Bitboard occ = board_occupied(b);
    if (x != PAWN) return piece_attacks(x, f, occ);
    Bitboard from = 0;
    int rank = c == WHITE ? square_rank(f) : 7 - square_rank(f);
    Square one = (Square)(c == WHITE ? f - 8 : f + 8);
    if (rank >= 2) from |= BB(one);
    if (rank == 3 && !(occ & BB(one))) from |= BB(c == WHITE ? f - 16 : f + 16);
    if (b->by_color[!c] & BB(f)) from |= pawn_attacks((Color)!c, f);
    return from;
}

/* ---- Obligations ------------------------------------------------------- */

/* Does a piece that may fulfil obligation o stand on its square?  The
 * ex nihilo ban is checked in full here: the piece that stands ready is
 * the one the search will try to send, and an arrived piece walking back
 * to its own square is the commonest way to mistake a hopeless obligation
 * for a kept one. */
static bool obligation_in_place(const State *s, const Obligation *o)
{
    Square f = o->from;
    if (s->board.squares[f] != make_piece((Color)o->color, (PieceType)o->type)) return false;
    return !vangog_descends_from(s, vangog_cstate(s)->origin.tag[f], o->number);
}

/* How far the side is from being able to play the departure, ignoring
 * what stands on t and whether it would give check (obligation_debt adds
 * those): a piece in place with a clear path, one move away, somewhere
 * that can get there, or nowhere.  A pawn of the side counts as a future
 * piece of any type but a king (promoted pieces may fulfil). */
static int obligation_distance_cost(const VanGogWeights *w, const State *s, const Obligation *o)
{
    const Board *b = &s->board;
    Color c = (Color)o->color;
    PieceType x = (PieceType)o->type;
    if (obligation_in_place(s, o)) {
        Bitboard path = between_bb(o->from, o->to);
        if (path & b->by_color[!c]) return w->obligation_one_move + w->obligation_path_enemy;
        return (path & board_occupied(b)) ? w->obligation_one_move : w->obligation_ready;
    }
    Bitboard able = fulfillers(s, c, x, o->number);
    if (able & one_move_to(b, c, x, o->from)) return w->obligation_one_move;
    if (able & ever_reaches(c, x, o->from)) return w->obligation_distant;
    if (x != PAWN && x != KING && board_pieces(b, c, PAWN)) return w->obligation_distant;
    return w->obligation_unmeetable;
}

/* What obligation o costs its side: the piece it will take off the board,
 * how far the departure is, what t must hold, and a check it must give. */
static int obligation_debt(const VanGogWeights *w, const State *s, const Obligation *o)
{
    int debt = w->obligation_open + eval_piece_value((PieceType)o->type) * w->borrowed_percent / 100;
    debt += obligation_distance_cost(w, s, o);
    int now = holds(&s->board, (Color)o->color, o->to);
    debt += w->landing[o->capture][now];
    if (o->capture == CAPTURE_NONE && now == CAPTURE_SELF) debt += w->obligation_t_own;
    if (o->check) debt += w->obligation_check;
    if (o->type == KING) debt += w->obligation_king;
    if (o->capture == CAPTURE_ENEMY && now != CAPTURE_ENEMY) debt += w->obligation_awaits_enemy;
    return debt;
}

/* ---- Travellers -------------------------------------------------------- */

/* What traveller t is worth to its side: part of its piece's value, less
 * what keeps it from landing.  Whether it could reappear this very turn
 * (vangog_traveller_for) needs a board copy and two check tests; the
 * square's content is what the vacancy principle judges at the end
 * (vangog_vacancy_ok), so it serves as the proxy, and a traveller that
 * must give check on landing is marked down for it. */
static int traveller_value(const VanGogWeights *w, const Board *b, const VanGogTraveller *t)
{
    int now = holds(b, (Color)t->color, t->to);
    int value = eval_piece_value((PieceType)t->type) * w->traveller_percent / 100 - w->traveller_open;
    value -= w->landing[t->capture][now] * w->traveller_landing_percent / 100;
    if (t->check) value -= w->traveller_check;
    if (t->type == KING) value -= w->traveller_king;
    if (t->capture == CAPTURE_ENEMY && now != CAPTURE_ENEMY) value -= w->traveller_awaits_enemy;
    return value;
}

/* ---- The evaluation ---------------------------------------------------- */

/* A side's total debt, counted in full up to debt_full and at a fraction
 * beyond it, plus debt_beyond_full for each of the first
 * debt_beyond_priced obligations that begin beyond it (`beyond` of them). */
static int compressed_debt(const VanGogWeights *w, int debt, int beyond)
{
    if (debt <= w->debt_full) return debt;
    if (beyond > w->debt_beyond_priced) beyond = w->debt_beyond_priced;
    return w->debt_full + (debt - w->debt_full) / w->debt_beyond_divisor + beyond * w->debt_beyond_full;
}

/* What each side's open obligations cost it (0: none open): `full`
 * counts every obligation in full, `compressed` beyond debt_full at a
 * fraction and a fixed price.  An obligation begins beyond debt_full when
 * the side's earlier ones (the list is in the order of the arrivals, a
 * property of the state) already fill it: the one that crosses counts in
 * full up to debt_full, and each later one is a further arrival. */
static void debts_of(const VanGogWeights *w, const State *s, int full[2], int compressed[2])
{
    const VanGogState *vs = vangog_cstate(s);
    const Obligation *ob = vangog_obligations(s);
    int sum[2] = { 0, 0 }, beyond[2] = { 0, 0 };
    bool any[2] = { false, false };
    for (int i = 0; i < vs->obligations; i++) {
        int c = ob[i].color;
        if (sum[c] >= w->debt_full) beyond[c]++;
        sum[c] += obligation_debt(w, s, &ob[i]);
        any[c] = true;
    }
    for (int c = WHITE; c <= BLACK; c++) {
        full[c] = any[c] ? w->obligations_any + sum[c] : 0;
        compressed[c] = any[c] ? w->obligations_any + compressed_debt(w, sum[c], beyond[c]) : 0;
    }
}

/* White's promises less Black's, in White's favour. */
static int promises_for_white(const VanGogWeights *w, const Line *l)
{
    const State *s = line_state(l);
    const VanGogState *vs = vangog_cstate(s);
    const VanGogRules *r = vangog_rules(l);
    int score = 0;
    if (r->from_future) {
        int full[2], debt[2];
        debts_of(w, s, full, debt);
        score += debt[BLACK] - debt[WHITE];
    }
    if (r->to_future) {
        const VanGogTraveller *tr = vangog_travellers(s);
        for (int i = 0; i < vs->travellers; i++)
            score += (tr[i].color == WHITE ? 1 : -1) * traveller_value(w, &s->board, &tr[i]);
    }
    return score;
}

/* Many promises at once could add up past the scores the search keeps
 * for wins; the evaluation stays inside them. */
static int clamp_score(int v)
{
    int limit = EVAL_KNOWN_WIN - 1;
    return v > limit ? limit : v < -limit ? -limit : v;
}

static int vangog_evaluate(const Line *l)
{
    const Board *b = line_board(l);
    int promises = promises_for_white(&VANGOG_WEIGHTS, l);
    return clamp_score(chess_eval_board(b, NULL) + (b->side == WHITE ? promises : -promises));
}

/* A pass is sound only where the game is chess for the moment: no
 * promise of either side open (a pass could skip the turn on which a
 * departure or a landing was still possible, and the lists decide the
 * result) and a single king for the side to move (with none it cannot be
 * in check, with several the null-move reasoning about one king's safety
 * fails). */
static bool vangog_null_move_ok(const Line *l)
{
    const State *s = line_state(l);
    const VanGogState *vs = vangog_cstate(s);
    if (vs->obligations || vs->travellers) return false;
    return bb_count(board_kings(&s->board, s->board.side)) == 1;
}

/* Is traveller t a king that left capturing, and no enemy piece stands on
 * its square now?  It may return only by capturing there, and the game's
 * end judges the square the same way (vangog_vacancy_ok): only the
 * opponent can put a piece there, and one who knows the rules never will.
 * Such a king loses its side the game at the end as surely as an open
 * obligation, which the board alone cannot show.  (In a game lost to the
 * greedy player, the engine's king had left capturing and its square
 * stood empty; counting only the opponent's debts, the engine scored
 * itself at +13156 in a loss both sides shared.) */
static bool king_stranded(const Board *b, const VanGogTraveller *t)
{
    return t->type == KING && t->capture == CAPTURE_ENEMY && holds(b, (Color)t->color, t->to) != CAPTURE_ENEMY;
}

/* The evaluation is symmetric; the side the engine plays sees two things
 * otherwise (eval.h, side_view).
 *
 * Its own debts count in full, however many: the fraction beyond
 * debt_full keeps a random mover's forty obligations inside the scores
 * kept for wins, but a side that counted its own so would, once four
 * were open, take material by arrivals for a few centipawns each, and
 * rain pieces from the future on a king until its opponent, left with
 * nothing but arrivals, was in debt too (the self-play ladder of
 * bench/match.sh ended most van Gog games so).  Since full is never less
 * than compressed (each obligation beyond debt_full costs at least
 * obligation_open, more than debt_beyond_full), the fixed price beyond
 * debt_full, though the symmetric evaluation charges it to both sides,
 * reaches the search only as the price of the opponent's further arrivals.
 *
 * Both sides with an obligation open: if the game ended now, both would
 * lose it (`0-0`), and the other side's debts are worth nothing to a side
 * that has its own: it has lost either way unless it repays.  What the
 * evaluation credited it for them is taken back, so that the engine
 * neither drags the opponent into debt once in debt itself, nor answers
 * arrivals with arrivals, each side's debt cancelling the other's.  A
 * stranded king traveller (king_stranded) is a debt here as an obligation
 * is: a side whose king can only come back onto a piece the opponent will
 * never put there has lost either way as well. */
static int vangog_side_view(const Line *l, Color side, bool *shared_loss)
{
    const State *s = line_state(l);
    const VanGogState *vs = vangog_cstate(s);
    *shared_loss = false;
    int full[2] = { 0, 0 }, debt[2] = { 0, 0 };
    if (vangog_rules(l)->from_future && vs->obligations) debts_of(&VANGOG_WEIGHTS, s, full, debt);
    bool stranded[2] = { false, false };
    const VanGogTraveller *tr = vangog_travellers(s);
    for (int i = 0; i < vs->travellers; i++)
        if (king_stranded(&s->board, &tr[i])) stranded[tr[i].color] = true;
    int loses = full[side] - debt[side];
    *shared_loss = (debt[WHITE] || stranded[WHITE]) && (debt[BLACK] || stranded[BLACK]);
    if (*shared_loss) loses += debt[!side];
    return loses;
}

/* Every arrival opens an obligation (obligations_any, obligation_open:
 * thousands of centipawns), and a position offers thousands of them: off
 * the principal variation the search keeps only the first few, to this
 * depth (eval.h). */
enum { VANGOG_TRAVEL_PRUNING_DEPTH = 8 };

/* The three modes: one evaluation, three names.  No mode ends the game
 * before the side to move runs out of actions, so there is no early_end. */
const Evaluator EVAL_VANGOG = { "vangog", vangog_evaluate, vangog_null_move_ok, NULL, true,
                                VANGOG_TRAVEL_PRUNING_DEPTH, vangog_side_view, false };
const Evaluator EVAL_VANGOG_PAST = { "vangog-past", vangog_evaluate, vangog_null_move_ok, NULL, true,
                                     VANGOG_TRAVEL_PRUNING_DEPTH, vangog_side_view, false };
const Evaluator EVAL_VANGOG_FUTURE = { "vangog-future", vangog_evaluate, vangog_null_move_ok, NULL, true,
                                       VANGOG_TRAVEL_PRUNING_DEPTH, vangog_side_view, false };
