/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the record formats share (see record.h): a header read into a new
 * game, a recorded result kept against the rules, and the end of the game
 * written out, the same for PGN, score sheets and Game Courier's log.
 */
#include "record.h"
#include "registry.h"

#include <string.h>

/* ---- The header --------------------------------------------------------- */

/* The variant the header names, with its mode: a title several variants
 * share (van Gog's) picks one by [VariantMode], and a mode none of them
 * has is an error of its own. */
static bool header_variant(const RecordStart *h, const Variant *force, const Variant **v, Text *err)
{
    *v = force ? force : &VARIANT_CHESS;
    if (force || !h->variant || !*h->variant) return true;
    const Variant *found = variant_find_label(h->variant, h->mode);
    if (found) {
        *v = found;
        return true;
    }
    if (h->mode && *h->mode && variant_find_label(h->variant, NULL))
        return text_fail(err, "%s has no mode '%s'", h->variant, h->mode);
    return text_fail(err, "unknown variant '%s'", h->variant);
}

bool record_start_game(const RecordStart *h, const Variant *force, const char *force_options, Game *g, Text *err)
{
    const Variant *v = NULL;
    Options o;
    memset(g, 0, sizeof *g);
    if (!header_variant(h, force, &v, err)) return false;
    options_default(v, &o);
    if (!options_parse(v, &o, h->options, err) || !options_parse(v, &o, force_options, err)) return false;
    const char *fen = h->fen && *h->fen ? h->fen : NULL;
    Text why = TEXT_INIT;
    bool ok = game_init(g, v, &o, fen, &why);
    if (!ok && fen && !why.failed) text_fail(err, "bad [FEN] \"%s\": %s", fen, text_str(&why));
    else if (!ok) text_fail(err, "%s", why.failed ? "out of memory" : text_str(&why));
    text_free(&why);
    return ok;
}

/* ---- The recorded result ------------------------------------------------ */

/* The end a game file declares in the words ttchess itself writes for an
 * end the rules do not reach: a resignation or an agreed draw, with the
 * result that end gives on the board; RESULT_NONE for any other words. */
static Outcome declared_from_words(const Variant *v, const char *words)
{
    Outcome read;
    if (!words || !outcome_from_words(v, words, &read)) return outcome_none();
    if (read.reason == REASON_RESIGNATION && read.side <= BLACK)
        return outcome_make(result_loss_for(read.side), REASON_RESIGNATION, read.side);
    if (read.reason == REASON_AGREED_DRAW) return outcome_make(RESULT_DRAW, REASON_AGREED_DRAW, SIDE_NONE);
    return outcome_none();
}

bool record_settle_result(Game *g, uint8_t recorded, const char *termination, Text *err)
{
    if (recorded == RESULT_NONE) return true;
    Outcome rules;
    if (!game_outcome(g, &rules)) return text_fail(err, "out of memory");
    if (rules.result == RESULT_NONE) {
        Outcome declared = declared_from_words(g->variant, termination), settled;
        /* The file records what the players agreed (a draw, say); the
         * game's own rules judge that end (van Gog's unmet obligations
         * lose it), as `end --how draw` does in play. */
        if (declared.result != RESULT_NONE) {
            if (!game_declare(g, declared, NULL) || !game_outcome(g, &settled)) return text_fail(err, "out of memory");
            if (settled.result == recorded || declared.result == recorded) return true;
        }
        if (!game_declare(g, outcome_make(recorded, REASON_RECORDED, SIDE_NONE), termination))
            return text_fail(err, "out of memory");
        return true;
    }
    if (rules.result == recorded) return true;
    Text line = TEXT_INIT;
    outcome_line(rules, NULL, &line);
    text_fail(err, "the result %s contradicts the end of the game by the rules (%s)", result_string(recorded),
              text_str(&line));
    text_free(&line);
    return false;
}

/* ---- The end ------------------------------------------------------------ */

bool record_end(const Game *g, RecordEnd *e)
{
    e->note = e->line = e->termination = (Text)TEXT_INIT;
    if (!game_outcome(g, &e->outcome)) return false;
    bool ok = true;
    if (e->outcome.result != RESULT_NONE) {
        Line l;
        line_open(&l, g, game_current(g));
        ok = variant_note(g->variant, &l, move_none(), &e->note);
        line_close(&l);
    }
    outcome_line(e->outcome, g->declared_words, &e->line);
    if (g->declared.result != RESULT_NONE) outcome_words(g->declared, g->declared_words, &e->termination);
    return ok && !e->note.failed && !e->line.failed && !e->termination.failed;
}

void record_end_free(RecordEnd *e)
{
    text_free(&e->note);
    text_free(&e->line);
    text_free(&e->termination);
}

bool record_end_cell(const Game *g, Text *out)
{
    Line l;
    line_open(&l, g, game_current(g));
    Outcome o;
    bool ok = line_outcome(&l, &o);
    if (ok && o.result != RESULT_NONE) ok = variant_format_sheet(g->variant, &l, move_none(), SHEET_ACTION, out);
    line_close(&l);
    return ok;
}
