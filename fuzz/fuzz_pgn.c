/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PGN.  A leading digit forces the variant (as the program's --variant
 * does) and is consumed; without one the input is a game file as it is
 * and the [Variant] tag decides.  Up to eight games are read one after
 * another, as a file of several games is.
 *
 * A refusal says why, and `next` stays inside the text.  A game that is
 * accepted is written by pgn_write_notes, with the annotations it had, and
 * read back (without forcing a
 * variant: what was written must say it): the same variant and options,
 * the same actions in the same timelines, the same final position and the
 * same outcome; and writing the game read back gives the same text again.
 */
#include "fuzz.h"

#include "pgn.h"

enum { GAMES_MAX = 8 };


static void check_round_trip(const Game *g, const PgnHeader *h, const PgnNotes *notes)
{
    Text out = TEXT_INIT, again = TEXT_INIT, err = TEXT_INIT;
    FUZZ_CHECK(pgn_write_notes(g, h, notes, &out), "pgn_write failed");
    const char *text = fuzz_str(&out);

    Game back;
    PgnHeader hb;
    PgnNotes nb;
    pgn_header_init(&hb);
    pgn_notes_init(&nb);
    const char *next = NULL;
    bool ok = pgn_read_notes(text, NULL, NULL, &back, &hb, &nb, &next, &err);
    FUZZ_CHECK(ok, "%s: pgn_write's own text is refused: %s\n%s", g->variant->name, text_str(&err), text);
    FUZZ_CHECK(next && next >= text && strspn(next, " \t\r\n") == strlen(next),
               "%s: the written game does not end where it should\n%s", g->variant->name, text);
    fuzz_check_same_record(g, &back, "the PGN", text);

    FUZZ_CHECK(pgn_write_notes(&back, &hb, &nb, &again), "pgn_write failed");
    FUZZ_CHECK(!strcmp(text, fuzz_str(&again)), "%s: the PGN written again differs:\n%s---\n%s", g->variant->name, text,
               fuzz_str(&again));

    game_free(&back);
    pgn_header_free(&hb);
    pgn_notes_free(&nb);
    text_free(&out);
    text_free(&again);
    text_free(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Variant *force = fuzz_forced_variant(&data, &size);
    char *text = fuzz_string(data, size);
    const char *p = text, *end = text + strlen(text);
    for (int n = 0; n < GAMES_MAX && strspn(p, " \t\r\n") < strlen(p); n++) {
        Game g;
        PgnHeader h;
        PgnNotes notes;
        pgn_header_init(&h);
        pgn_notes_init(&notes);
        Text err = TEXT_INIT;
        const char *next = NULL;
        bool ok = pgn_read_notes(p, force, NULL, &g, &h, &notes, &next, &err);
        FUZZ_CHECK(next && next >= p && next <= end, "pgn_read set next outside the text");
        FUZZ_SAY("game %d: %s%s\n", n + 1, ok ? "accepted, " : "refused: ", ok ? g.variant->name : text_str(&err));
        if (ok) FUZZ_SAY("  %d nodes, %d timelines\n", game_count(&g), game_timelines(&g));
        if (ok) {
            FUZZ_CHECK(!force || g.variant == force, "pgn_read did not play the forced variant");
            check_round_trip(&g, &h, &notes);
        } else {
            FUZZ_CHECK(err.len > 0, "pgn_read refused a game without a reason");
        }
        game_free(&g);
        pgn_header_free(&h);
        pgn_notes_free(&notes);
        text_free(&err);
        if (!ok || next == p) break;
        p = next;
    }
    free(text);
    return 0;
}
