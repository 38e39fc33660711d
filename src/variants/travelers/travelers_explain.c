/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What Time Traveler's Chess tells the command line (Variant slots):
 * which pieces support an explosion on a square (`ttchess supports`), why
 * the side to move is in check (`ttchess check`) and which kings the play
 * screen shows in check.  Support and check are hard to see on the board,
 * so the game explains them itself.
 */
#include "travelers.h"

/* One piece type's line of the supports: each supporting piece with one
 * sequence of moves by which it reaches the square as that type. */
static bool supports_of(const Line *l, const Supports *sp, PieceType x, Square e, Text *out, Text *err)
{
    const Board *b = line_board(l);
    Bitboard who = travelers_supporters(sp, x, e);
    text_addf(out, "  %-7s", piece_type_name(x));
    if (!who) {
        text_add(out, "none\n");
        return true;
    }
    bool first = true;
    Text path = TEXT_INIT;
    while (who) {
        Square s = (Square)__builtin_ctzll(who);
        who &= who - 1;
        char name[3];
        square_name(s, name);
        text_clear(&path);
        if (!travelers_support_path(line_state(l), b->side, s, x, e, &path) || path.failed) {
            text_free(&path);
            return text_fail(err, "no move sequence found for the support on %s (please report this)", name);
        }
        text_addf(out, "%s%s %s (%s)\n", first ? "" : "         ", piece_type_name(piece_type(b->squares[s])), name,
                  text_str(&path));
        first = false;
    }
    text_free(&path);
    return true;
}

/* The legal explosions on e, in coordinate form. */
static bool legal_explosions(const Line *l, Square e, Text *out)
{
    MoveList list;
    Text text = TEXT_INIT;
    movelist_init(&list);
    bool ok = line_generate(l, &list);
    int n = 0;
    for (int i = 0; ok && i < list.count; i++) {
        if (list.moves[i].kind != MOVE_EXPLOSION || list.moves[i].from != e) continue;
        text_clear(&text);
        ok = line_variant(l)->format_coord(l, list.moves[i], &text) && !text.failed;
        text_addf(out, " %s", text_str(&text));
        n++;
    }
    text_add(out, n ? "\n" : " none\n");
    text_free(&text);
    movelist_free(&list);
    return ok;
}

bool travelers_explain_supports(const Line *l, Square e, Text *out, Text *err)
{
    const Board *b = line_board(l);
    char name[3];
    square_name(e, name);
    if (board_occupied(b) & (1ULL << e))
        return text_fail(err, "%s is not empty: an explosion needs an empty square", name);
    Supports sp;
    travelers_supports(line_state(l), b->side, &sp);
    text_addf(out, "Supports of an explosion on %s (%s to move):\n", name, color_name(b->side));
    for (PieceType x = PAWN; x <= KING; x++)
        if (!supports_of(l, &sp, x, e, out, err)) return false;
    text_addf(out, "Legal explosions on %s:", name);
    if (!legal_explosions(l, e, out) || out->failed) return text_fail(err, "out of memory");
    return true;
}

bool travelers_explain_check_line(const Line *l, Text *out)
{
    return travelers_explain_check(line_state(l), out);
}

/* Every king of the side in check: check here is a threat to leave the
 * side kingless, not an attack on one king. */
Bitboard travelers_checked_kings(const Line *l)
{
    return line_in_check(l) ? board_kings(line_board(l), line_board(l)->side) : 0;
}
