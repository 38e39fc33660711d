/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The WebAssembly build's exports: the functions web/src/rules.ts calls.
 * Strings cross as NUL-terminated UTF-8 in the module's memory: the page
 * writes its own into blocks from wasm_alloc, and each function that
 * answers text returns a block of its own, which the page reads and gives
 * back to wasm_free.  A function that fails returns 0 (NULL), and
 * wasm_error() then says why, in the library's words.
 */
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "wasm.h"

/* The native build compiles this file too, for check-layers and every
 * compiler's warnings: there the WebAssembly attributes are left out. */
#ifdef __wasm__
#define EXPORT(name) __attribute__((export_name(#name)))
#define IMPORT(module, name) __attribute__((import_module(module), import_name(name)))
#else
#define EXPORT(name)
#define IMPORT(module, name)
#endif

/* The page's function that receives each line the search reports, as
 * JSON (rules.ts gives it when it instantiates the module). */
IMPORT("ttchess", "report") void page_report(const char *json, size_t length);

/* Why the last call failed. */
static Text last_error = TEXT_INIT;

EXPORT(wasm_alloc) void *wasm_alloc(size_t size) { return malloc(size ? size : 1); }

EXPORT(wasm_free) void wasm_free(void *block) { free(block); }

EXPORT(wasm_error) const char *wasm_error(void) { return last_error.failed ? "out of memory" : text_str(&last_error); }

/* The text as a block for the page, or NULL (and "out of memory"). */
static char *answer(Text *t)
{
    char *s = t->len ? text_take(t) : strdup("");
    text_free(t);
    if (!s) text_fail(&last_error, "out of memory");
    return s;
}

/* Every variant: [{"name", "title", "options", "start_fen"}], the options
 * all written with their defaults (as GET /api/variants writes them). */
EXPORT(wasm_variants) char *wasm_variants(void)
{
    Text out = TEXT_INIT, opts = TEXT_INIT;
    text_add_char(&out, '[');
    for (int i = 0; VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        Options o;
        options_default(v, &o);
        text_clear(&opts);
        options_format(v, &o, true, &opts);
        text_add(&out, i ? ",{\"name\":" : "{\"name\":");
        json_add_string(&out, v->name);
        text_add(&out, ",\"title\":");
        json_add_string(&out, v->title);
        text_add(&out, ",\"options\":");
        json_add_string(&out, text_str(&opts));
        text_add(&out, ",\"start_fen\":");
        json_add_string(&out, v->start_fen);
        text_add_char(&out, '}');
    }
    text_add_char(&out, ']');
    text_free(&opts);
    return answer(&out);
}

/* The parts of the variant's FEN beyond chess's, for the board editor
 * (variant.h, FenPart): [{"name", "label", "words", "example", "place":
 * "field"|"marks"|"pockets", "field", "per_side", "empty", "values"}],
 * [] for chess; NULL for an unknown variant. */
EXPORT(wasm_fen_parts) char *wasm_fen_parts(const char *variant)
{
    static const char *const PLACES[] = { [FEN_FIELD] = "field", [FEN_MARKS] = "marks", [FEN_POCKETS] = "pockets" };
    const Variant *v = variant_find(variant ? variant : "");
    if (!v) {
        text_fail(&last_error, "unknown variant '%s'", variant ? variant : "");
        return NULL;
    }
    Text out = TEXT_INIT;
    text_add_char(&out, '[');
    for (const FenPart *p = variant_fen_parts(v); p->name; p++) {
        text_add(&out, p == variant_fen_parts(v) ? "{\"name\":" : ",{\"name\":");
        json_add_string(&out, p->name);
        text_add(&out, ",\"label\":");
        json_add_string(&out, p->label);
        text_add(&out, ",\"words\":");
        json_add_string(&out, p->words);
        text_add(&out, ",\"example\":");
        json_add_string(&out, p->example);
        text_addf(&out, ",\"place\":\"%s\",\"field\":%d,\"per_side\":%s,\"empty\":", PLACES[p->place], p->field,
                  p->per_side ? "true" : "false");
        json_add_string(&out, p->empty);
        text_add(&out, ",\"values\":");
        json_add_string(&out, p->values ? p->values : "");
        text_add_char(&out, '}');
    }
    text_add_char(&out, ']');
    return answer(&out);
}

/* ---- Games -------------------------------------------------------------- */

/* A game of `variant` (NULL or "": chess) with `options` ("forward=8
 * back=3"; NULL or "": the defaults) from `fen` (NULL or "": the start),
 * refused in the words the CLI uses. */
EXPORT(wasm_game_new) WasmGame *wasm_game_new(const char *variant, const char *options, const char *fen)
{
    const char *name = variant && *variant ? variant : "chess";
    const Variant *v = variant_find(name);
    if (!v) {
        Text names = TEXT_INIT;
        variant_names(&names);
        text_fail(&last_error, "unknown variant '%s' (known: %s)", name, text_str(&names));
        text_free(&names);
        return NULL;
    }
    Options o;
    options_default(v, &o);
    text_clear(&last_error);
    if (options && *options && !options_parse(v, &o, options, &last_error)) return NULL;
    WasmGame *w = calloc(1, sizeof *w);
    if (!w) {
        text_fail(&last_error, "out of memory");
        return NULL;
    }
    if (!game_init(&w->game, v, &o, fen && *fen ? fen : NULL, &last_error)) {
        game_free(&w->game);
        free(w);
        return NULL;
    }
    return w;
}

EXPORT(wasm_game_free) void wasm_game_free(WasmGame *w)
{
    if (!w) return;
    if (w->engine) engine_free(w->engine);
    game_free(&w->game);
    free(w);
}

/* A copy with the same start and the same actions (no engine: its hash
 * is the original's). */
EXPORT(wasm_game_clone) WasmGame *wasm_game_clone(const WasmGame *w)
{
    const Game *g = &w->game;
    Text fen = TEXT_INIT;
    g->variant->to_fen(&g->options, game_node(g, 0)->state, &fen);
    WasmGame *copy = calloc(1, sizeof *copy);
    bool ok = copy && !fen.failed && game_init(&copy->game, g->variant, &g->options, text_str(&fen), &last_error);
    for (int i = 1; ok && i < game_count(g); i++) ok = game_push(&copy->game, game_node(g, i)->move);
    text_free(&fen);
    if (ok) return copy;
    if (copy) game_free(&copy->game);
    free(copy);
    text_fail(&last_error, "out of memory");
    return NULL;
}

/* Plays an action in any notation the variant reads (game_play_text, as
 * the CLI's --moves and the server's POST .../actions read it); answers
 * it as played (with its ply), written at the position it was played in. */
EXPORT(wasm_game_play) char *wasm_game_play(WasmGame *w, const char *text)
{
    Game *g = &w->game;
    text_clear(&last_error);
    if (!game_play_text(g, text, &last_error)) {
        if (!last_error.len) text_add(&last_error, "out of memory");
        return NULL;
    }
    Line l;
    Text out = TEXT_INIT;
    line_open(&l, g, game_current(g) - 1);
    json_add_action(&out, &l, game_node(g, game_current(g))->move, game_current(g));
    line_close(&l);
    return answer(&out);
}

EXPORT(wasm_game_legal) char *wasm_game_legal(const WasmGame *w)
{
    Text out = TEXT_INIT;
    json_add_legal(&out, &w->game);
    return answer(&out);
}

EXPORT(wasm_game_state) char *wasm_game_state(const WasmGame *w)
{
    Text out = TEXT_INIT;
    json_add_state(&out, &w->game);
    return answer(&out);
}

EXPORT(wasm_game_fen) char *wasm_game_fen(const WasmGame *w)
{
    const Game *g = &w->game;
    Text out = TEXT_INIT;
    g->variant->to_fen(&g->options, game_state(g), &out);
    return answer(&out);
}

/* perft from the present position, as `ttchess perft`; -1 when out of
 * memory.  A double holds every count a page can wait for (2^53). */
EXPORT(wasm_game_perft) double wasm_game_perft(const WasmGame *w, int depth)
{
    uint64_t nodes = 0;
    if (!game_perft(&w->game, depth, &nodes)) return -1;
    return (double)nodes;
}

/* `ttchess perft --divide`'s lines: each legal action in coordinate form
 * with its count ("e2e4: 20\n"), in the order the CLI prints them. */
EXPORT(wasm_game_divide) char *wasm_game_divide(const WasmGame *w, int depth)
{
    const Game *g = &w->game;
    Line l;
    MoveList list;
    Text out = TEXT_INIT;
    line_open(&l, g, game_current(g));
    movelist_init(&list);
    bool ok = line_generate(&l, &list);
    for (int i = 0; ok && i < list.count; i++) {
        uint64_t n = 0;
        ok = g->variant->format_coord(&l, list.moves[i], &out) && line_push(&l, list.moves[i]);
        if (!ok) break;
        ok = line_perft(&l, depth - 1, &n);
        line_pop(&l);
        text_addf(&out, ": %llu\n", (unsigned long long)n);
    }
    movelist_free(&list);
    line_close(&l);
    if (!ok) out.failed = true;
    return answer(&out);
}

/* ---- The engine --------------------------------------------------------- */

/* Each completed iteration, to the page as one JSON line: {"multipv",
 * "depth", "seldepth", "nodes", "nps", "time_ms", "score", "pv"}, the pv's
 * actions each written at its own position. */
static void report_line(void *context, const SearchInfo *info)
{
    const Game *g = context;
    Text out = TEXT_INIT;
    text_addf(&out, "{\"multipv\":%d,\"depth\":%d,\"seldepth\":%d,\"nodes\":%llu,\"nps\":%llu,\"time_ms\":%lld,\"score\":",
              info->multipv, info->depth, info->seldepth, (unsigned long long)info->nodes,
              (unsigned long long)info->nps, (long long)info->time_ms);
    json_add_score(&out, info->score);
    text_add(&out, ",\"pv\":[");
    Line l;
    line_open(&l, g, game_current(g));
    for (int i = 0; i < info->pv_length; i++) {
        if (i) text_add_char(&out, ',');
        json_add_action(&out, &l, info->pv[i], 0);
        if (!line_push(&l, info->pv[i])) out.failed = true;
        if (out.failed) break;
    }
    line_close(&l);
    text_add(&out, "]}");
    if (!out.failed) page_report(text_str(&out), out.len);
    text_free(&out);
}

/* Searches the present position to `depth` plies or for `movetime` ms
 * (neither: a second), with `multipv` lines, on this build's one thread;
 * reports each iteration through the page's report function and answers
 * {"best": action or null, "score"}.  The engine, made at the first
 * search, keeps its hash for the next. */
EXPORT(wasm_game_search) char *wasm_game_search(WasmGame *w, int depth, double movetime, int multipv)
{
    if (!w->engine && !(w->engine = engine_new())) {
        text_fail(&last_error, "out of memory");
        return NULL;
    }
    SearchLimits limits = { .depth = depth > 0 ? depth : 0, .movetime = movetime > 0 ? (int64_t)movetime : 0,
                            .multipv = multipv > 0 ? multipv : 1 };
    if (!limits.depth && !limits.movetime) limits.movetime = 1000;
    SearchResult result;
    text_clear(&last_error);
    if (!engine_search(w->engine, &w->game, &limits, report_line, &w->game, &result, &last_error)) return NULL;
    Text out = TEXT_INIT;
    text_add(&out, "{\"best\":");
    if (result.has_move) {
        Line l;
        line_open(&l, &w->game, game_current(&w->game));
        json_add_action(&out, &l, result.best, 0);
        line_close(&l);
    } else {
        text_add(&out, "null");
    }
    text_add(&out, ",\"score\":");
    json_add_score(&out, result.has_move ? result.score : 0);
    text_add_char(&out, '}');
    return answer(&out);
}
