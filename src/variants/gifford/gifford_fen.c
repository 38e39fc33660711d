/* SPDX-License-Identifier: GPL-3.0-or-later
 * Gifford's Time Travel Chess: its FEN, the six fields of chess and the
 * arrivals and backward travels (gifford.c has the rules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "gifford.h"
#include "rules.h"

/* ---- FEN ---------------------------------------------------------------- */

/*
 * Gifford FEN: the six fields of FEN, then the arrivals and the backward
 * travels used, e.g. "... w KQkq - 0 2 P5,P8/Bb5 0/1": White has pawns
 * arriving at moves 5 and 8, Black a dark-squared bishop at move 5; White
 * has made no backward travel, Black one.  "-" stands for no arrivals.
 * Both fields may be left out (none, 0/0).
 */
static bool parse_arrivals(State *s, int forward, Color c, const char *text, size_t len, Text *err)
{
    GiffordState *gs = gifford_state(s);
    size_t i = 0;
    if (len == 1 && text[0] == '-') return true;
    while (i < len) {
        PieceType t = piece_type_from_letter(text[i]);
        if (t == NO_TYPE || text[i] != piece_letter(t))
            return text_fail(err, "bad FEN: arrivals are written like P5,Bw8,K12 (piece letter, move number)");
        i++;
        uint8_t code = t;
        if (t == BISHOP) {
            if (i < len && (text[i] == 'b' || text[i] == 'w')) {
                if (text[i] == 'b') code |= ARRIVAL_DARK;
                i++;
            } else {
                return text_fail(err, "bad FEN: an arriving bishop is written Bw (light squares) or Bb (dark)");
            }
        }
        long m = 0;
        int digits = 0;
        while (i < len && text[i] >= '0' && text[i] <= '9' && digits < 6) m = m * 10 + (text[i++] - '0'), digits++;
        if (!digits) return text_fail(err, "bad FEN: an arrival needs its move number (e.g. P5)");
        int first = gifford_first_pending(&s->board, c), last = gifford_last_pending(&s->board, c, forward);
        if (m < first || m > last)
            return text_fail(err, "bad FEN: %s's arrival at move %ld is not between move %d and move %d", color_name(c),
                             m, first, last);
        if (gs->arrival[c][m % ARRIVAL_SLOTS])
            return text_fail(err, "bad FEN: %s has two arrivals at move %ld", color_name(c), m);
        gs->arrival[c][m % ARRIVAL_SLOTS] = code;
        if (i < len && text[i] == ',') i++;
        else if (i < len) return text_fail(err, "bad FEN: arrivals are separated by commas (P5,Bw8)");
    }
    return true;
}

/* Reads "W/B" backward travel counts, each 0 to the option's limit. */
static bool parse_backs(State *s, int limit, const char *field, size_t len, Text *err)
{
    long count[2] = { 0, 0 };
    size_t i = 0;
    for (int c = 0; c < 2; c++) {
        int digits = 0;
        while (i < len && field[i] >= '0' && field[i] <= '9' && digits < 4) count[c] = count[c] * 10 + (field[i++] - '0'), digits++;
        bool sep_ok = c == 0 ? (i < len && field[i] == '/') : i == len;
        if (!digits || !sep_ok || count[c] > limit)
            return text_fail(err, "bad FEN: backward travels used are WHITE/BLACK, each 0 to %d (e.g. 0/1)", limit);
        i++;
    }
    gifford_state(s)->backs_used[WHITE] = (uint8_t)count[WHITE];
    gifford_state(s)->backs_used[BLACK] = (uint8_t)count[BLACK];
    return true;
}

static bool parse_extra_fields(State *s, const Options *o, const char *rest, Text *err)
{
    const char *f1, *f2, *f3;
    size_t n1 = fen_next_field(&rest, &f1), n2 = fen_next_field(&rest, &f2), n3 = fen_next_field(&rest, &f3);
    if (n3) return text_fail(err, "bad FEN: unexpected text after the backward travels ('%.*s')", (int)n3, f3);
    if (n1) {
        const char *slash = memchr(f1, '/', n1);
        if (!slash || memchr(slash + 1, '/', n1 - (size_t)(slash + 1 - f1)))
            return text_fail(err, "bad FEN: the arrivals field is WHITE/BLACK, e.g. P5,Bw8/- ('-' for none)");
        int forward = o->value[GIFFORD_FORWARD];
        if (!parse_arrivals(s, forward, WHITE, f1, (size_t)(slash - f1), err) ||
            !parse_arrivals(s, forward, BLACK, slash + 1, n1 - (size_t)(slash + 1 - f1), err))
            return false;
    }
    return !n2 || parse_backs(s, o->value[GIFFORD_BACK_TRAVELS], f2, n2, err);
}

/* Each side needs a king, on the board or arriving; any number is allowed
 * (kings going back add kings). */
static bool kings_somewhere(const State *s, int forward, Text *err)
{
    for (Color c = WHITE; c <= BLACK; c++) {
        if (board_kings(&s->board, c)) continue;
        bool arriving = false;
        for (int m = gifford_first_pending(&s->board, c); m <= gifford_last_pending(&s->board, c, forward); m++)
            arriving |= arrival_type(gifford_arrival_at(s, forward, c, m)) == KING;
        if (!arriving) return text_fail(err, "bad FEN: %s has no king, neither on the board nor arriving", color_name(c));
    }
    return true;
}

State *gifford_from_fen(const Options *o, const char *fen, Text *err)
{
    const char *rest;
    State *s = state_new(sizeof(GiffordState), err);
    if (s && board_from_fen(&s->board, fen, &rest, err) && parse_extra_fields(s, o, rest, err) &&
        kings_somewhere(s, o->value[GIFFORD_FORWARD], err) && fen_side_not_to_move_safe(&s->board, err)) {
        s->ext_key = gifford_ext_key(o, s);
        return s;
    }
    free(s);
    return NULL;
}

static void write_arrivals(const State *s, int forward, Color c, Text *out)
{
    bool any = false;
    for (int m = gifford_first_pending(&s->board, c); m <= gifford_last_pending(&s->board, c, forward); m++) {
        uint8_t a = gifford_arrival_at(s, forward, c, m);
        if (!a) continue;
        char label[4];
        arrival_label(a, label);
        text_addf(out, "%s%s%d", any ? "," : "", label, m);
        any = true;
    }
    if (!any) text_add(out, "-");
}

void gifford_to_fen(const Options *o, const State *s, Text *out)
{
    int forward = o->value[GIFFORD_FORWARD];
    board_to_fen(&s->board, out);
    text_add(out, " ");
    write_arrivals(s, forward, WHITE, out);
    text_add(out, "/");
    write_arrivals(s, forward, BLACK, out);
    text_addf(out, " %u/%u", gifford_cstate(s)->backs_used[WHITE], gifford_cstate(s)->backs_used[BLACK]);
}

/* ---- The parts of the FEN, for an editor -------------------------------- */

/* The two fields after chess's six, as gifford_from_fen reads them. */
const FenPart GIFFORD_FEN_PARTS[] = {
    { "arrivals", "Arrivals pending",
      "pieces arriving from the future: the piece letter (for a bishop, then w or b: the colour of its "
      "squares) and the move it arrives at, joined by commas; - for none",
      "P5,Bb8", FEN_FIELD, 7, true, "-", NULL },
    { "back-travels", "Backward travels made", "how many times the side's king has travelled back", "1",
      FEN_FIELD, 8, true, "0", NULL },
    { NULL, NULL, NULL, NULL, 0, 0, false, NULL, NULL },
};
