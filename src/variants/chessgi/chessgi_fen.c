/* SPDX-License-Identifier: GPL-3.0-or-later
 * Chessgi and Time Travel Chessgi: their FEN, the board with both pockets
 * ("[Nn]"), then for the time-travel game the travellers and the plies to
 * wait (chessgi.c has the rules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "chessgi.h"
#include "rules.h"

/* ---- FEN ---------------------------------------------------------------- */

/*
 * Chessgi FEN: the pockets between brackets after the board, as
 * Fairy-Stockfish writes them ("...RNBQKBNR[QRpp] w KQkq - 0 1"), then
 * for the time-travel game two fields: the travellers, WHITE/BLACK, each
 * a list like N12,K6 (piece letter, due move) or '-', and the plies before
 * anyone may time travel again.  Both may be left out (none, 0).
 */
const char CHESSGI_POCKET_ORDER[CHESSGI_POCKET_KINDS] = { QUEEN, ROOK, BISHOP, KNIGHT, PAWN };

static bool parse_pocket(State *s, const char *text, size_t len, Text *err)
{
    ChessgiState *gs = chessgi_state(s);
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        PieceType t = piece_type_from_letter(c);
        if (t == NO_TYPE) return text_fail(err, "bad FEN: '%c' in the pockets is not a piece letter", c);
        if (t == KING)
            return text_fail(err, "bad FEN: a king cannot be in a pocket (a travelling king is written in the "
                                  "travellers field, e.g. K6)");
        Color owner = (c >= 'A' && c <= 'Z') ? WHITE : BLACK;
        if (gs->pocket[owner][t] >= 999) return text_fail(err, "bad FEN: more than 999 of one piece in a pocket");
        gs->pocket[owner][t]++;
    }
    return true;
}

/* Splits the pockets off the board field into *pocket; writes the FEN
 * without them (and without Fairy-Stockfish's '~' marks of promoted pieces,
 * which Chessgi does not need) to `board`. */
static bool split_pockets(const char *fen, char *board, size_t room, const char **pocket, size_t *pocket_len, Text *err)
{
    size_t n = strlen(fen);
    if (n + 1 > room) return text_fail(err, "bad FEN: it is too long");
    const char *start = fen;
    while (*start == ' ' || *start == '\t') start++;
    size_t field = strcspn(start, " \t\r\n");
    const char *open = memchr(start, '[', field);
    *pocket = NULL;
    *pocket_len = 0;
    size_t out = 0;
    for (const char *p = start; p < start + field; p++) {
        if (p == open) {
            const char *close = memchr(open, ']', field - (size_t)(open - start));
            if (!close || close != start + field - 1)
                return text_fail(err, "bad FEN: the pockets are written at the end of the board, like "
                                      "RNBQKBNR[QRpp]");
            *pocket = open + 1;
            *pocket_len = (size_t)(close - open - 1);
            break;
        }
        if (*p != '~') board[out++] = *p;
    }
    size_t rest = strlen(start + field);
    memcpy(board + out, start + field, rest + 1);
    return true;
}

static bool parse_travellers(State *s, int capacity, Color c, const char *text, size_t len, Text *err)
{
    ChessgiState *gs = chessgi_state(s);
    if (len == 1 && text[0] == '-') return true;
    size_t i = 0;
    while (i < len) {
        PieceType t = piece_type_from_letter(text[i]);
        if (t == NO_TYPE || text[i] != piece_letter(t))
            return text_fail(err, "bad FEN: travellers are written like N12,K6 (piece letter, due move)");
        i++;
        long m = 0;
        int digits = 0;
        while (i < len && text[i] >= '0' && text[i] <= '9' && digits < 6) m = m * 10 + (text[i++] - '0'), digits++;
        if (!digits || m < 1 || m > UINT16_MAX)
            return text_fail(err, "bad FEN: a traveller needs its due move, from 1 to %d (e.g. N12)", UINT16_MAX);
        if (chessgi_traveller_at(s, c, (int)m) >= 0)
            return text_fail(err, "bad FEN: %s has two travellers due at move %ld (one per move)", color_name(c), m);
        if (gs->travellers[c] >= capacity)
            return text_fail(err, "bad FEN: %s has more travellers than the pocket capacity (%d)", color_name(c),
                             capacity);
        chessgi_add_traveller(gs, c, (int)m, t);
        if (i < len && text[i] == ',') i++;
        else if (i < len) return text_fail(err, "bad FEN: travellers are separated by commas (N12,K6)");
    }
    return true;
}

static bool parse_wait(State *s, int cooldown, const char *f, size_t len, Text *err)
{
    long v = 0;
    size_t i = 0;
    while (i < len && i < 4 && f[i] >= '0' && f[i] <= '9') v = v * 10 + (f[i++] - '0');
    if (!len || i != len || v > cooldown)
        return text_fail(err, "bad FEN: the plies before the next time travel are a whole number from 0 to %d "
                              "(the cooldown)", cooldown);
    chessgi_state(s)->wait = (uint8_t)v;
    return true;
}

static bool parse_extra_fields(State *s, const Options *o, bool travel, const char *rest, Text *err)
{
    const char *f1, *f2, *f3;
    size_t n1 = fen_next_field(&rest, &f1), n2 = fen_next_field(&rest, &f2), n3 = fen_next_field(&rest, &f3);
    if (!travel && n1)
        return text_fail(err, "bad FEN: unexpected text after the move number ('%.*s'); Chessgi has no travellers",
                         (int)n1, f1);
    if (n3) return text_fail(err, "bad FEN: unexpected text after the time-travel wait ('%.*s')", (int)n3, f3);
    if (n1) {
        const char *slash = memchr(f1, '/', n1);
        if (!slash || memchr(slash + 1, '/', n1 - (size_t)(slash + 1 - f1)))
            return text_fail(err, "bad FEN: the travellers field is WHITE/BLACK, e.g. N12,K6/- ('-' for none)");
        int capacity = o->value[CHESSGI_CAPACITY];
        if (!parse_travellers(s, capacity, WHITE, f1, (size_t)(slash - f1), err) ||
            !parse_travellers(s, capacity, BLACK, slash + 1, n1 - (size_t)(slash + 1 - f1), err))
            return false;
    }
    return !n2 || parse_wait(s, o->value[CHESSGI_COOLDOWN], f2, n2, err);
}

/* Chessgi needs one king a side; the time-travel game a king a side on
 * the board or travelling, any number of them (a general travel can bring
 * a king back beside its old self). */
static bool kings_ok(const State *s, bool travel, Text *err)
{
    for (Color c = WHITE; c <= BLACK; c++) {
        int kings = bb_count(board_kings(&s->board, c));
        if (!travel && kings != 1)
            return text_fail(err, "bad FEN: %s has %d kings, and Chessgi needs exactly one king a side", color_name(c),
                             kings);
        if (travel && !chessgi_travel_keeps_king(s, c))
            return text_fail(err, "bad FEN: %s has no king, neither on the board nor travelling", color_name(c));
    }
    return true;
}

static State *from_fen(const Options *o, const char *fen, bool travel, Text *err)
{
    const char *text = fen ? fen : "";
    size_t room = strlen(text) + 1;
    char *board = malloc(room);
    State *s = state_new(sizeof(ChessgiState), err);
    const char *pocket, *rest;
    size_t pocket_len;
    bool ok = s && board;
    if (!board && s) text_fail(err, "out of memory");
    ok = ok && split_pockets(text, board, room, &pocket, &pocket_len, err) &&
         board_from_fen_pawns(&s->board, board, &rest, true, err) && parse_pocket(s, pocket, pocket_len, err) &&
         parse_extra_fields(s, o, travel, rest, err) && kings_ok(s, travel, err) &&
         fen_side_not_to_move_safe(&s->board, err);
    free(board);
    if (!ok) {
        free(s);
        return NULL;
    }
    s->ext_key = chessgi_ext_key(o, s);
    return s;
}

State *chessgi_classic_from_fen(const Options *o, const char *fen, Text *err) { return from_fen(o, fen, false, err); }
State *chessgi_travel_from_fen(const Options *o, const char *fen, Text *err) { return from_fen(o, fen, true, err); }

static void write_pockets(const State *s, Text *out)
{
    const ChessgiState *gs = chessgi_cstate(s);
    text_add_char(out, '[');
    for (Color c = WHITE; c <= BLACK; c++)
        for (size_t k = 0; k < sizeof CHESSGI_POCKET_ORDER; k++)
            for (int i = 0; i < gs->pocket[c][(int)CHESSGI_POCKET_ORDER[k]]; i++) {
                char letter = piece_letter((PieceType)CHESSGI_POCKET_ORDER[k]);
                text_add_char(out, c == WHITE ? letter : (char)(letter + ('a' - 'A')));
            }
    text_add_char(out, ']');
}

static void write_board_and_pockets(const State *s, Text *out)
{
    Text plain = TEXT_INIT;
    board_to_fen(&s->board, &plain);
    const char *fen = text_str(&plain);
    size_t field = strcspn(fen, " ");
    text_addf(out, "%.*s", (int)field, fen);
    write_pockets(s, out);
    text_add(out, fen + field);
    if (plain.failed) out->failed = true;
    text_free(&plain);
}

void chessgi_classic_to_fen(const Options *o, const State *s, Text *out)
{
    (void)o;
    write_board_and_pockets(s, out);
}

static void write_travellers(const State *s, Color c, Text *out)
{
    const ChessgiState *gs = chessgi_cstate(s);
    for (int i = 0; i < gs->travellers[c]; i++)
        text_addf(out, "%s%c%u", i ? "," : "", piece_letter(gs->traveller[c][i].type), gs->traveller[c][i].due);
    if (!gs->travellers[c]) text_add(out, "-");
}

void chessgi_travel_to_fen(const Options *o, const State *s, Text *out)
{
    (void)o;
    write_board_and_pockets(s, out);
    text_add(out, " ");
    write_travellers(s, WHITE, out);
    text_add(out, "/");
    write_travellers(s, BLACK, out);
    text_addf(out, " %u", chessgi_cstate(s)->wait);
}

/* ---- The parts of the FEN, for an editor -------------------------------- */

#define POCKETS_PART                                                                                        \
    { "pockets", "Pockets", "pieces in hand, between brackets after the board: White's in upper case, then " \
      "Black's in lower case", "[QNp]", FEN_POCKETS, 0, true, "", "QRBNP" }

const FenPart CHESSGI_CLASSIC_FEN_PARTS[] = {
    POCKETS_PART,
    { NULL, NULL, NULL, NULL, 0, 0, false, NULL, NULL },
};
const FenPart CHESSGI_FEN_PARTS[] = {
    POCKETS_PART,
    { "travellers", "Travellers",
      "pieces sent into the future: the piece letter (upper case for both sides) and the move it is due at, "
      "joined by commas in order of their moves; - for none", "N12,K6", FEN_FIELD, 7, true, "-", NULL },
    { "wait", "Plies before a time travel", "plies before anyone may time travel again, 0 to the cooldown", "1",
      FEN_FIELD, 8, false, "0", NULL },
    { NULL, NULL, NULL, NULL, 0, 0, false, NULL, NULL },
};
