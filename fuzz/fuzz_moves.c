/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Actions as text.  The first byte picks the variant, the second a start
 * (its digit, modulo the number of starts the variant has below: the
 * start position, FENs, and games with some history); the rest is split
 * at line ends into action texts, played one by one with game_play_text.
 *
 * An accepted action must be one of the legal actions of the position it
 * was played in, must add exactly one node, and must read back from each
 * form the variant writes it in (coordinate, human, score sheet; a travel
 * back from its two sheet halves), formatted through a line at that
 * position.  Every position reached writes a FEN that reads back the
 * same, and keeps its keys right.  A refused action says why and leaves
 * the game as it was; none is accepted once the game is over, which it is
 * when there is no legal action.  At the end the whole game must survive
 * PGN and score sheets: written and read back, the same actions, the same
 * final position, the same outcome.
 */
#include "fuzz.h"

#include "movegen.h"
#include "pgn.h"
#include "sheets.h"

typedef struct Start {
    const char *fen;      /* NULL: the variant's start position */
    const char *moves;    /* actions played first, separated by spaces; or NULL */
    const char *options;  /* "name=value ..." on top of the defaults; or NULL */
} Start;

static const Start CHESS_STARTS[] = {
    { NULL, NULL, NULL },
    { "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", NULL, NULL },
    { "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", NULL, NULL },
    { "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", NULL, NULL },
    { "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", NULL, NULL },
    { "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", NULL, NULL },
    /* Black to move at the root: both sides promote. */
    { "4k3/P7/8/8/8/8/6p1/4K3 b - - 0 1", NULL, NULL },
    { NULL, "e4 e5 Nf3 Nc6 Ng1 Nb8 Nf3", NULL },
    { "6k1/8/8/8/8/8/8/R3K2R w KQ - 98 60", NULL, NULL },
    /* Qc7 stalemates. */
    { "k7/8/1Q6/8/8/8/8/7K w - - 0 1", NULL, NULL },
};

static const Start GIFFORD_STARTS[] = {
    { NULL, NULL, NULL },
    /* History: a king can go back to moves 1 to 3. */
    { NULL, "e4 e5 Nf3 Nc6 Bc4 Bc5", NULL },
    /* Pawns sent to move 3 by both sides: White's arrives now. */
    { NULL, "d2>3 d7>3 e4 e5", NULL },
    /* Pending arrivals from a FEN: White's pawn now and at 8, Black's dark bishop at 5. */
    { "rnbqkbnr/pppppppp/8/8/8/8/PPP2PPP/RNBQKBNR w KQkq - 0 3 P3,P8/Bb5 0/0", NULL, NULL },
    /* White's only king arrives now. */
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 3 K3/- 0/0", NULL, NULL },
    /* A pawn due while White is in a knight's check: it cannot land usefully. */
    { "4k3/8/8/8/8/3n4/8/4K3 w - - 0 5 P5/- 0/0", NULL, NULL },
    /* Two white kings, one travel back already made by White. */
    { "r3k2r/pppq1ppp/8/8/8/8/PPP2PPP/R3K1KR w kq - 0 10 -/N12 1/0", NULL, NULL },
    /* The sample game's first timeline, up to its king going back (Black to move). */
    { NULL, "d2>8 Bf8>5 e2>5 f7>3 Bc4 P@e6 Nh3 d5 P@f7+ Kxf7 Bd3", NULL },
    /* The sample game into its third timeline. */
    { NULL, "d2>8 Bf8>5 e2>5 f7>3 Bc4 P@e6 Nh3 d5 P@f7+ Kxf7 Bd3 Kf7<2@f8 Bc4 Nf6 Nh3 e6 P@g5 B@a5+ b4 Bxb4+ "
            "c3 Bxc3+ P@d2 Bxa1 Ke1<4@f1 a6 P@e2 B@a5+ c3 h6", NULL },
    /* Black to move at the root, short travels forward, no travel back. */
    { "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 P3/N1 0/0", NULL, "forward=3 back-travels=0" },
};

/* van Gog, by mode: open obligations, links and travellers, from a FEN
 * and from play. */
static const Start VANGOG_STARTS[] = {
    { NULL, NULL, NULL },
    { NULL, "e4 e5 Qd1h5* d8h4^ b1c3 Qh4^^ h5h4 b8c6", NULL },
    { "rnb1kbnr/pppp1ppp/8/4p3/3Q4/3P4/PPP1PPPP/RNBQKBNR w KQkq - 0 3 d4:1,e5:2 1:Qd1d4,2:pe7e5 - qe7s", NULL, NULL },
    /* The queen of origin 1 descends from arrival 2 through a link. */
    { "4k3/8/8/8/8/8/8/3QK3 w - - 0 30 d1:1 2:Qd1d3 1=2 Qa3,rh2", NULL, NULL },
};
static const Start VANGOG_PAST_STARTS[] = {
    { NULL, NULL, NULL },
    { NULL, "d4 a6 Qd1-d3* a5 Qd1d2 a4 Qd2g5 b6 Qd3d1 b5", NULL },
    { "4k3/8/8/8/8/8/8/3QK3 w - - 0 30 - 1:Qd1d3,2:Qd1d3 - -", NULL, NULL },
};
static const Start VANGOG_FUTURE_STARTS[] = {
    { NULL, NULL, NULL },
    { NULL, "e4 f6 d1h5^ g5", NULL },
    /* The only white king is away; it returns only where it is safe. */
    { "4k3/8/8/8/8/8/P6r/8 w - - 0 20 - - - Ke2,Qa3+", NULL, NULL },
};

/* Time Traveler's Chess: traveling and traveled pieces of both sides,
 * an annihilation to answer, a kingless side in check, a pawn that can
 * explode onto its last rank. */
static const Start TRAVELERS_STARTS[] = {
    { NULL, NULL, NULL },
    /* The seed's game 4 before 5.Qd6: explosions and annihilations made by both. */
    { NULL, "e4 e5 Nf3/e5 Nc6/e5 d4/e5 Nb8//c6 d2//d4 Bb4/e1", NULL },
    /* The seed's game 2 after 2.Bb5/e8+: Black kingless and in check. */
    { NULL, "e4 d6 Bb5/e8+", NULL },
    /* After 3.b4/c5: two white traveling pawns that Black attacks. */
    { NULL, "e4 e5 d4/e5 c5 b4/c5", NULL },
    { "k7/8/8/4P3/8/8/1p6/4K3 w - - 0 1", NULL, NULL },
};

static const Start CHESSGI_CLASSIC_STARTS[] = {
    { NULL, NULL, NULL },
    /* Full pockets on both sides, Black to move (Fairy-Stockfish's perft position). */
    { "5Rp1/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnpp] b - - 1 48", NULL, NULL },
    /* Pawns on their own first ranks; White in check from a knight. */
    { "4k2p/8/8/8/8/3n4/8/P3K3[Nn] w - - 0 20", NULL, NULL },
};

static const Start CHESSGI_STARTS[] = {
    { NULL, NULL, NULL },
    /* A knight sent to move 5 and a pawn in White's pocket: general travels to moves 1 to 3. */
    { NULL, "g1>5 e7e5 e2e4 d7d5 e4d5 b8c6", NULL },
    /* After a general travel: two timelines, the cooldown running. */
    { NULL, "g1>5 e7e5 e2e4 d7d5 e4d5 b8c6 <1.2>P@e6", NULL },
    /* White's king due now, Black's knight at move 12, pockets on both sides. */
    { "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR[Pp] w kq - 0 3 K3/N12 0", NULL, NULL },
    /* A small cooldown and pocket, from the start. */
    { NULL, "e2e4 d7d5 e4d5 d8d5", "cooldown=1 capacity=2" },
};

static const Start DEFAULT_STARTS[] = { { NULL, NULL, NULL } };

static const Start *starts_of(const Variant *v, int *n)
{
#define STARTS(a) (*n = (int)(sizeof a / sizeof a[0]), a)
    if (!strcmp(v->name, "chess")) return STARTS(CHESS_STARTS);
    if (!strcmp(v->name, "gifford")) return STARTS(GIFFORD_STARTS);
    if (!strcmp(v->name, "vangog")) return STARTS(VANGOG_STARTS);
    if (!strcmp(v->name, "vangog-past")) return STARTS(VANGOG_PAST_STARTS);
    if (!strcmp(v->name, "vangog-future")) return STARTS(VANGOG_FUTURE_STARTS);
    if (!strcmp(v->name, "travelers")) return STARTS(TRAVELERS_STARTS);
    if (!strcmp(v->name, "chessgi-classic")) return STARTS(CHESSGI_CLASSIC_STARTS);
    if (!strcmp(v->name, "chessgi")) return STARTS(CHESSGI_STARTS);
    return STARTS(DEFAULT_STARTS);
#undef STARTS
}

static void setup(Game *g, const Variant *v, const Start *s)
{
    Text err = TEXT_INIT;
    Options o;
    options_default(v, &o);
    bool ok = options_parse(v, &o, s->options, &err);
    FUZZ_CHECK(ok, "%s: the built-in options '%s' are refused: %s", v->name, s->options, text_str(&err));
    ok = game_init(g, v, &o, s->fen, &err);
    FUZZ_CHECK(ok, "%s: the built-in start '%s' is refused: %s", v->name, s->fen ? s->fen : "(start)", text_str(&err));
    fuzz_play_builtin(g, s->moves);
    text_free(&err);
}

/* The node just played (the last) after its action: legal, one node, and
 * written in every form it reads back. */
static void check_played(const Game *g, const MoveList *legal, int before)
{
    const Variant *v = g->variant;
    int i = game_current(g);
    char a[96];
    FUZZ_CHECK(i == before + 1, "%s: an accepted action added %d nodes", v->name, i - before);
    const Node *node = game_node(g, i);
    FUZZ_CHECK(movelist_contains(legal, node->move), "%s: accepted action %s is not among the %d legal ones", v->name,
               fuzz_move_desc(node->move, a), legal->count);
    FUZZ_CHECK(node->parent >= 0 && node->parent <= before, "%s: node %d follows node %d", v->name, i, node->parent);
    FUZZ_CHECK(node->parent == before || node->move.kind == MOVE_KING_BACK || node->move.flags,
               "%s: %s started a timeline", v->name, fuzz_move_desc(node->move, a));
    FUZZ_CHECK(node->key == (board_position_key(&node->state->board) ^ node->state->ext_key),
               "%s: the node's key is not its position's", v->name);
    fuzz_check_state_keys(v, &g->options, node->state);
    fuzz_check_fen_round_trip(v, &g->options, node->state);

    Line at, landing;
    line_open(&at, g, before);
    line_open(&landing, g, node->parent);
    fuzz_check_notation(&at, node->move, &landing);
    line_close(&at);
    line_close(&landing);
}


static void check_records(const Game *g)
{
    Text out = TEXT_INIT, err = TEXT_INIT;
    Game back;

    FUZZ_CHECK(pgn_write(g, NULL, &out), "%s: pgn_write failed", g->variant->name);
    bool ok = pgn_read(fuzz_str(&out), NULL, NULL, &back, NULL, NULL, &err);
    FUZZ_CHECK(ok, "%s: its own PGN is refused: %s\n%s", g->variant->name, text_str(&err), fuzz_str(&out));
    fuzz_check_same_record(g, &back, "the PGN", fuzz_str(&out));
    game_free(&back);

    text_clear(&out);
    FUZZ_CHECK(sheets_write(g, &out), "%s: sheets_write failed", g->variant->name);
    ok = sheets_read(fuzz_str(&out), g->variant, NULL, &back, &err);
    FUZZ_CHECK(ok, "%s: its own score sheets are refused: %s\n%s", g->variant->name, text_str(&err), fuzz_str(&out));
    fuzz_check_same_record(g, &back, "the score sheets", fuzz_str(&out));
    game_free(&back);

    text_free(&out);
    text_free(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    const Variant *v = fuzz_variant(data[0]);
    int count;
    const Start *starts = starts_of(v, &count);
    Game g;
    setup(&g, v, &starts[(uint8_t)(data[1] - '0') % count]);

    char *text = fuzz_string(data + 2, size - 2);
    Text err = TEXT_INIT;
    for (char *p = text, *nl; p; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl) *nl = 0;
        if (!*p) continue;
        MoveList legal;
        movelist_init(&legal);
        FUZZ_CHECK(game_generate(&g, &legal), "%s: generate failed", v->name);
        int before = game_current(&g);
        Outcome o;
        FUZZ_CHECK(game_outcome(&g, &o), "%s: outcome failed", v->name);
        FUZZ_CHECK(legal.count > 0 || o.result != RESULT_NONE, "%s: no legal action, yet the game goes on", v->name);
        text_clear(&err);
        if (game_play_text(&g, p, &err)) {
            FUZZ_SAY("'%s': played\n", p);
            FUZZ_CHECK(o.result == RESULT_NONE, "%s: '%s' was played after the game ended", v->name, p);
            check_played(&g, &legal, before);
        } else {
            FUZZ_SAY("'%s': refused: %s\n", p, text_str(&err));
            FUZZ_CHECK(err.len > 0, "%s: action '%s' refused without a reason", v->name, p);
            FUZZ_CHECK(game_current(&g) == before, "%s: refused action '%s' changed the game", v->name, p);
        }
        movelist_free(&legal);
    }
    Outcome o;
    FUZZ_CHECK(game_outcome(&g, &o), "%s: outcome failed", v->name);
    FUZZ_SAY("%d nodes, %d timelines, outcome %d/%d/%d\n", game_count(&g), game_timelines(&g), o.result, o.reason, o.side);
    check_records(&g);
    text_free(&err);
    free(text);
    game_free(&g);
    return 0;
}
