/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Actions as text.  The first byte picks the variant, the second a start:
 * one of the variant's sample positions (Variant.samples: the start
 * position, FENs, and games with some history), counted from '0' modulo
 * their number (fuzz_sample in fuzz.h); the rest is split at line ends into action
 * texts, played one by one with game_play_text.
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

static void setup(Game *g, const Variant *v, const SamplePosition *s)
{
    Text err = TEXT_INIT;
    Options o;
    options_default(v, &o);
    bool ok = options_parse(v, &o, s->options, &err);
    FUZZ_CHECK(ok, "%s: the sample's options '%s' are refused: %s", v->name, s->options, text_str(&err));
    ok = game_init(g, v, &o, s->fen, &err);
    FUZZ_CHECK(ok, "%s: the sample start '%s' is refused: %s", v->name, s->fen ? s->fen : "(start)", text_str(&err));
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
    Game g;
    setup(&g, v, fuzz_sample(v, data[1]));

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
