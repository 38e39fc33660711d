/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * FEN: the first byte picks the variant, the rest is a FEN.  A FEN given
 * to chess is also read as Chess960's (X-FEN or Shredder-FEN castling),
 * the game the UCI engine plays under UCI_Chess960.
 *
 * For the variant's FEN, under the default options and under every
 * option at its least and at its most: a refusal says why; a FEN that is
 * accepted writes back (to_fen) as a FEN that is accepted too and writes
 * the same text, with the same position and keys; a game started from it
 * agrees, and every legal action there reads back from each form the
 * variant writes.  For board_from_fen, with and without variant fields
 * allowed: the same round trip, and what plain FEN accepts is accepted
 * the same with fields allowed.  For board_from_fen_chess960: the same
 * round trip, the castling rooks included.
 */
#include "fuzz.h"

#include "movegen.h"

/* The option sets a FEN is read under: the defaults, every option at its
 * least, every option at its most. */
static int option_sets(const Variant *v, Options sets[3])
{
    options_default(v, &sets[0]);
    if (!v->option_count) return 1;
    sets[1] = sets[0];
    sets[2] = sets[0];
    for (int i = 0; i < v->option_count; i++) {
        sets[1].value[i] = v->options[i].min;
        sets[2].value[i] = v->options[i].max;
    }
    return 3;
}

/* At most this many legal actions of a position are written and read
 * back (a time-travel position may have hundreds). */
enum { NOTATION_CHECKS = 48 };

static void check_game(const Variant *v, const Options *o, const char *fen)
{
    Game g;
    Text err = TEXT_INIT;
    bool ok = game_init(&g, v, o, fen, &err);
    FUZZ_CHECK(ok, "%s: from_fen accepts '%s' but game_init refuses it: %s", v->name, fen, text_str(&err));
    MoveList list;
    movelist_init(&list);
    FUZZ_CHECK(game_generate(&g, &list), "%s: generate failed", v->name);
    Outcome out;
    FUZZ_CHECK(game_outcome(&g, &out), "%s: outcome failed", v->name);
    FUZZ_CHECK(list.count > 0 || out.result != RESULT_NONE, "%s: '%s' has no legal action but the game goes on",
               v->name, fen);
    Line l;
    line_open(&l, &g, game_current(&g));
    Text t = TEXT_INIT;
    if (v->describe) FUZZ_CHECK(v->describe(&l, &t), "%s: describe failed", v->name);
    if (v->note && out.result != RESULT_NONE)
        FUZZ_CHECK(v->note(&l, move_none(), &t), "%s: note failed", v->name);
    text_free(&t);
    int step = list.count > NOTATION_CHECKS ? list.count / NOTATION_CHECKS + 1 : 1;
    for (int i = 0; i < list.count; i += step) {
        char a[96];
        for (int k = 0; k < i; k++)
            FUZZ_CHECK(!move_equal(list.moves[k], list.moves[i]), "%s: '%s' lists %s twice", v->name, fen,
                       fuzz_move_desc(list.moves[i], a));
        fuzz_check_notation(&l, list.moves[i], NULL);
    }
    line_close(&l);
    movelist_free(&list);
    game_free(&g);
    text_free(&err);
}

static void check_variant_fen(const Variant *v, const Options *o, const char *fen, bool deep)
{
    Text err = TEXT_INIT;
    State *s = v->from_fen(o, fen, &err);
    FUZZ_SAY("%s (%s): %s%s\n", v->name, deep ? "default options" : "other options", s ? "accepted" : "refused: ",
             s ? "" : text_str(&err));
    if (!s) {
        FUZZ_CHECK(err.len > 0, "%s: FEN '%s' refused without a reason", v->name, fen);
        Game g;
        Text why = TEXT_INIT;
        FUZZ_CHECK(!game_init(&g, v, o, fen, &why), "%s: from_fen refuses '%s' but game_init accepts it", v->name, fen);
        game_free(&g);
        text_free(&why);
        text_free(&err);
        return;
    }
    FUZZ_CHECK(v->ext_room || s->ext_size == v->ext_size, "%s: from_fen gave %u bytes of ext, not %zu", v->name,
               (unsigned)s->ext_size, v->ext_size);
    fuzz_check_state_keys(v, o, s);
    fuzz_check_fen_round_trip(v, o, s);
    free(s);
    text_free(&err);
    if (deep) check_game(v, o, fen);
}

static void check_board(const Board *b, const char *fen)
{
    Text out = TEXT_INIT, again = TEXT_INIT, err = TEXT_INIT;
    FUZZ_CHECK(b->key == board_compute_key(b), "board_from_fen('%s') left a stale key", fen);
    board_to_fen(b, &out);
    Board c;
    bool ok = board_from_fen(&c, fuzz_str(&out), NULL, &err);
    FUZZ_CHECK(ok, "board FEN '%s' (from '%s') is refused: %s", fuzz_str(&out), fen, text_str(&err));
    board_to_fen(&c, &again);
    FUZZ_CHECK(!strcmp(fuzz_str(&out), fuzz_str(&again)), "board FEN '%s' reads back as '%s'", fuzz_str(&out),
               fuzz_str(&again));
    FUZZ_CHECK(board_equal(b, &c) && b->key == c.key && b->halfmove == c.halfmove && b->fullmove == c.fullmove,
               "board FEN '%s' reads back as another board", fuzz_str(&out));
    text_free(&out);
    text_free(&again);
    text_free(&err);
}

static void check_board_fen(const char *fen)
{
    Board plain, extended;
    Text err = TEXT_INIT;
    const char *rest = NULL;
    bool plain_ok = board_from_fen(&plain, fen, NULL, &err);
    if (plain_ok) check_board(&plain, fen);
    else FUZZ_CHECK(err.len > 0, "board FEN '%s' refused without a reason", fen);
    text_clear(&err);
    FUZZ_SAY("board_from_fen, plain: %s\n", plain_ok ? "accepted" : "refused");
    bool extended_ok = board_from_fen(&extended, fen, &rest, &err);
    FUZZ_SAY("board_from_fen, with variant fields: %s\n", extended_ok ? "accepted" : "refused");
    if (extended_ok) {
        FUZZ_CHECK(rest && rest >= fen && rest <= fen + strlen(fen), "board_from_fen('%s') set rest outside the text",
                   fen);
        check_board(&extended, fen);
    } else {
        FUZZ_CHECK(err.len > 0, "board FEN '%s' refused without a reason", fen);
    }
    if (plain_ok) {
        FUZZ_CHECK(extended_ok && !*rest, "board FEN '%s' is accepted plain but not with variant fields allowed", fen);
        FUZZ_CHECK(board_equal(&plain, &extended) && plain.halfmove == extended.halfmove &&
                       plain.fullmove == extended.fullmove,
                   "board FEN '%s' reads differently with variant fields allowed", fen);
    }
    text_free(&err);
}

/* Chess960's board FEN: written back in X-FEN, it reads back as the
 * same board with the same castling rooks. */
static void check_board960_fen(const char *fen)
{
    Board b, c;
    Text err = TEXT_INIT, out = TEXT_INIT, again = TEXT_INIT;
    bool ok = board_from_fen_chess960(&b, fen, NULL, &err);
    FUZZ_SAY("board_from_fen_chess960: %s\n", ok ? "accepted" : "refused");
    if (!ok) {
        FUZZ_CHECK(err.len > 0, "Chess960 FEN '%s' refused without a reason", fen);
    } else {
        FUZZ_CHECK(b.key == board_compute_key(&b), "board_from_fen_chess960('%s') left a stale key", fen);
        board_to_fen(&b, &out);
        ok = board_from_fen_chess960(&c, fuzz_str(&out), NULL, &err);
        FUZZ_CHECK(ok, "Chess960 FEN '%s' (from '%s') is refused: %s", fuzz_str(&out), fen, text_str(&err));
        board_to_fen(&c, &again);
        FUZZ_CHECK(!strcmp(fuzz_str(&out), fuzz_str(&again)), "Chess960 FEN '%s' reads back as '%s'", fuzz_str(&out),
                   fuzz_str(&again));
        FUZZ_CHECK(board_equal(&b, &c) && b.key == c.key && c.chess960, "Chess960 FEN '%s' reads back as another board",
                   fuzz_str(&out));
        for (int i = 0; i < 4; i++)
            FUZZ_CHECK(!(b.castling & (1 << i)) || b.castle_rook[i] == c.castle_rook[i],
                       "Chess960 FEN '%s' reads back with another castling rook", fuzz_str(&out));
    }
    text_free(&err);
    text_free(&out);
    text_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const Variant *v = fuzz_variant(data[0]);
    char *fen = fuzz_string(data + 1, size - 1);
    Options sets[3];
    int n = option_sets(v, sets);
    for (int i = 0; i < n; i++) check_variant_fen(v, &sets[i], fen, i == 0);
    if (v == &VARIANT_CHESS) check_variant_fen(&VARIANT_CHESS960, &sets[0], fen, true);
    check_board_fen(fen);
    check_board960_fen(fen);
    free(fen);
    return 0;
}
