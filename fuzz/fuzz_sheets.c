/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Score sheets.  A leading digit picks the variant (as --variant does)
 * and is consumed; without one the input is a sheets file as it is and
 * its [Variant] line, else standard chess, decides.
 *
 * A refusal says why.  Sheets that are accepted are written by
 * sheets_write (which sheets_detect must recognise) and read back for the
 * same variant: the same options, the same actions in the same timelines,
 * the same final position and the same outcome; and writing the game read
 * back gives the same text again.
 */
#include "fuzz.h"

#include "sheets.h"


static void check_round_trip(const Game *g)
{
    Text out = TEXT_INIT, again = TEXT_INIT, err = TEXT_INIT;
    FUZZ_CHECK(sheets_write(g, &out), "sheets_write failed");
    const char *text = fuzz_str(&out);
    FUZZ_CHECK(sheets_detect(text), "%s: sheets_detect does not recognise written sheets\n%s", g->variant->name, text);

    Game back;
    bool ok = sheets_read(text, g->variant, NULL, &back, &err);
    FUZZ_CHECK(ok, "%s: sheets_write's own text is refused: %s\n%s", g->variant->name, text_str(&err), text);
    fuzz_check_same_record(g, &back, "the score sheets", text);
    FUZZ_CHECK(sheets_write(&back, &again), "sheets_write failed");
    FUZZ_CHECK(!strcmp(text, fuzz_str(&again)), "%s: the sheets written again differ:\n%s---\n%s", g->variant->name,
               text, fuzz_str(&again));
    game_free(&back);
    text_free(&out);
    text_free(&again);
    text_free(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Variant *force = fuzz_forced_variant(&data, &size);
    char *text = fuzz_string(data, size);
    Game g;
    Text err = TEXT_INIT;
    bool ok = sheets_read(text, force, NULL, &g, &err);
    FUZZ_SAY("%s%s\n", ok ? "accepted, " : "refused: ", ok ? g.variant->name : text_str(&err));
    if (ok) FUZZ_SAY("  %d nodes, %d timelines\n", game_count(&g), game_timelines(&g));
    if (ok) {
        FUZZ_CHECK(!force || g.variant == force, "sheets_read did not play the given variant");
        check_round_trip(&g);
    } else {
        FUZZ_CHECK(err.len > 0, "sheets_read refused sheets without a reason");
    }
    game_free(&g);
    text_free(&err);
    free(text);
    return 0;
}
