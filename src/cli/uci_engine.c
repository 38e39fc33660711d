/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The engine-facing side of the UCI session (uci_engine.h; uci.c reads
 * the commands): options, positions, the search in a thread of its own so
 * that "stop", "isready" and "quit" are answered while it thinks, and the
 * info and bestmove lines it writes.  One lock keeps the lines of the two
 * threads whole.
 *
 * Positions are games: "position" plays its actions on a record, so an
 * action that needs the history (a king going back, a general travel)
 * finds it, and the search reads every timeline.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <strings.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "uci_engine.h"
#include "registry.h"

void uci_say(Uci *u, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&u->out);
    vfprintf(u->stream, fmt, ap);
    fputc('\n', u->stream);
    fflush(u->stream);
    pthread_mutex_unlock(&u->out);
    va_end(ap);
}

/* Writes the actions of a line from the game's present position, each in
 * the game's coordinate form at the position where it is played. */
static void format_line(const Game *g, const Move *moves, int count, Text *out)
{
    Line l;
    line_open(&l, g, game_current(g));
    for (int i = 0; i < count; i++) {
        if (i) text_add(out, " ");
        if (!g->variant->format_coord(&l, moves[i], out) || !line_push(&l, moves[i])) break;
    }
    line_close(&l);
}

/* "wdl W D L" for UCI_ShowWDL: the expected wins, draws and losses per
 * mille for the side to move, from the score alone by a logistic model
 * (not fitted to games, docs/engine.md): a side WDL_EVEN_CP ahead wins
 * half its games, each WDL_SCALE_CP more multiplies the odds by e, and
 * the same for losing; draws are the rest.  A mate found is a win or a
 * loss for certain. */
enum { WDL_EVEN_CP = 100, WDL_SCALE_CP = 50 };

static void add_wdl(Text *out, int score)
{
    int win, loss;
    if (engine_score_is_mate(score)) {
        win = score > 0 ? 1000 : 0;
        loss = 1000 - win;
    } else {
        win = (int)lround(1000.0 / (1.0 + exp((double)(WDL_EVEN_CP - score) / WDL_SCALE_CP)));
        loss = (int)lround(1000.0 / (1.0 + exp((double)(WDL_EVEN_CP + score) / WDL_SCALE_CP)));
    }
    text_addf(out, " wdl %d %d %d", win, 1000 - win - loss, loss);
}

static void print_info(void *context, const SearchInfo *info)
{
    Uci *u = context;
    Text pv = TEXT_INIT, score = TEXT_INIT;
    format_line(&u->game, info->pv, info->pv_length, &pv);
    if (engine_score_is_mate(info->score)) text_addf(&score, "mate %d", engine_mate_moves(info->score));
    else text_addf(&score, "cp %d", info->score);
    if (u->show_wdl) add_wdl(&score, info->score);
    uci_say(u, "info depth %d seldepth %d multipv %d score %s nodes %llu nps %llu hashfull %d time %lld pv %s", info->depth,
        info->seldepth, info->multipv, text_str(&score), (unsigned long long)info->nodes, (unsigned long long)info->nps,
        info->hashfull, (long long)info->time_ms, text_str(&pv));
    text_free(&pv);
    text_free(&score);
}

static void *search_thread(void *arg)
{
    Uci *u = arg;
    SearchResult r;
    Text err = TEXT_INIT;
    if (!engine_search(u->engine, &u->game, &u->limits, print_info, u, &r, &err)) {
        uci_say(u, "info string error: %s", text_str(&err));
        r.has_move = false;
    }
    text_free(&err);
    if (!r.has_move) {
        Outcome o;
        Text line = TEXT_INIT;
        if (game_outcome(&u->game, &o) && o.result != RESULT_NONE) {
            outcome_line(o, u->game.declared_words, &line);
            uci_say(u, "info string game over: %s", text_str(&line));
        }
        text_free(&line);
        uci_say(u, "bestmove (none)");
        return NULL;
    }
    Text best = TEXT_INIT, ponder = TEXT_INIT;
    Move pv[2] = { r.best, r.ponder };
    format_line(&u->game, pv, 1, &best);
    if (r.ponder.kind != MOVE_NULL) format_line(&u->game, pv, 2, &ponder);
    const char *p = strchr(text_str(&ponder), ' ');
    if (p) uci_say(u, "bestmove %s ponder %s", text_str(&best), p + 1);
    else uci_say(u, "bestmove %s", text_str(&best));
    text_free(&best);
    text_free(&ponder);
    return NULL;
}

static void wait_search(Uci *u)
{
    if (!u->searching) return;
    pthread_join(u->thread, NULL);
    u->searching = false;
}

static void stop_search(Uci *u)
{
    if (!u->searching) return;
    atomic_store(&u->stop, true);
    wait_search(u);
}

/* Forgets the position, for a new game or a new variant. */
static void drop_position(Uci *u)
{
    if (u->have_game) game_free(&u->game);
    u->have_game = false;
    text_clear(&u->refused);
}

/* Refuses a "position": says why, and leaves no position at all (a GUI
 * that goes on with "go" is told again, rather than answered for the
 * previous game). */
static void refuse_position(Uci *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refuse_position(Uci *u, const char *fmt, ...)
{
    drop_position(u);
    va_list ap;
    va_start(ap, fmt);
    char line[1024];
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    text_add(&u->refused, line);
    uci_say(u, "info string error: %s", line);
}

static bool set_position(Uci *u, const char *fen, const char *moves)
{
    Game g;
    Text err = TEXT_INIT;
    bool ok = game_init(&g, u->variant, &u->options, fen, &err);
    if (!ok) {
        refuse_position(u, "bad position: %s", text_str(&err));
        game_free(&g);
        text_free(&err);
        return false;
    }
    char *copy = strdup(moves ? moves : "");
    int n = 0;
    for (char *save = NULL, *tok = copy ? strtok_r(copy, " \t", &save) : NULL; ok && tok; tok = strtok_r(NULL, " \t", &save)) {
        n++;
        text_clear(&err);
        if (!game_play_text(&g, tok, &err)) {
            refuse_position(u, "action %d '%s': %s (no position is set)", n, tok, text_str(&err));
            ok = false;
        }
    }
    free(copy);
    text_free(&err);
    if (!ok) {
        game_free(&g);
        return false;
    }
    drop_position(u);
    u->game = g;
    u->have_game = true;
    return true;
}

void uci_position(Uci *u, char *args)
{
    stop_search(u);
    char *moves = strstr(args, " moves ");
    if (moves) {
        *moves = 0;
        moves += 7;
    } else if (!strncmp(args, "moves ", 6)) {
        moves = args + 6;
        *args = 0;
    }
    while (*args == ' ') args++;
    if (!strncmp(args, "startpos", 8)) {
        set_position(u, NULL, moves);
    } else if (!strncmp(args, "fen ", 4)) {
        set_position(u, args + 4, moves);
    } else if (!strcmp(args, "startpos") || !*args) {
        set_position(u, NULL, moves);
    } else {
        refuse_position(u, "'position' needs 'startpos' or 'fen FEN'");
    }
}

/* The number after a word of "go": 0 when missing, a negative number
 * counts as 0 and a huge one as the most an int holds, so that no limit
 * wraps around. */
static long long next_number(char **save)
{
    char *t = strtok_r(NULL, " \t", save);
    long long v = t ? strtoll(t, NULL, 10) : 0;
    return v < 0 ? 0 : v > INT_MAX ? INT_MAX : v;
}

/* A search that only "stop" ends: "go infinite", "go ponder" (until
 * ponderhit), or "go" with no limit at all. */
static bool unlimited(const SearchLimits *l)
{
    return l->infinite || l->ponder || (!l->depth && !l->nodes && !l->movetime && !l->time[WHITE] && !l->time[BLACK] &&
                           !l->inc[WHITE] && !l->inc[BLACK] && !l->mate);
}

/* One action of "go searchmoves", read at the present position; one that
 * is not legal there is said and left out. */
static void add_searchmove(Uci *u, const char *text)
{
    Line l;
    Move m;
    Text err = TEXT_INIT;
    line_open(&l, &u->game, game_current(&u->game));
    if (line_parse_text(&l, text, &m, &err)) movelist_add(&u->searchmoves, m);
    else uci_say(u, "info string error: searchmoves '%s': %s (left out)", text, text_str(&err));
    line_close(&l);
    text_free(&err);
}

/* "go perft N": each root action in coordinate form with its count, a
 * blank line and "Nodes searched: N", as Stockfish and "ttchess perft
 * --divide" write them.  It runs in the protocol thread, as Stockfish's
 * does: the count is the answer, and nothing stops it. */
static void go_perft(Uci *u, long long depth)
{
    if (depth < 1 || depth > 20) {
        uci_say(u, "info string error: go perft takes a depth from 1 to 20");
        return;
    }
    Line l;
    MoveList list;
    Text text = TEXT_INIT;
    line_open(&l, &u->game, game_current(&u->game));
    movelist_init(&list);
    bool ok = line_generate(&l, &list);
    uint64_t total = 0;
    for (int i = 0; ok && i < list.count; i++) {
        uint64_t n = 0;
        text_clear(&text);
        ok = u->variant->format_coord(&l, list.moves[i], &text) && line_push(&l, list.moves[i]) &&
             line_perft(&l, (int)depth - 1, &n);
        if (!ok) break;
        line_pop(&l);
        uci_say(u, "%s: %llu", text_str(&text), (unsigned long long)n);
        total += n;
    }
    if (ok) uci_say(u, "\nNodes searched: %llu", (unsigned long long)total);
    else uci_say(u, "info string error: out of memory");
    text_free(&text);
    movelist_free(&list);
    line_close(&l);
}

/* Without a position, the start of the present variant's game; after a
 * refused one, none: says so (with bestmove 0000 where a move is owed)
 * and returns false. */
static bool have_position(Uci *u, bool owes_move)
{
    if (u->refused.len) {
        uci_say(u, "info string no position: %s", text_str(&u->refused));
        if (owes_move) uci_say(u, "bestmove 0000");
        return false;
    }
    return u->have_game || set_position(u, NULL, NULL);
}

void uci_go(Uci *u, char *args)
{
    stop_search(u);
    char *first_save = NULL;
    char *rest = args + strspn(args, " \t");
    if (!strncmp(rest, "perft", 5) && (rest[5] == ' ' || rest[5] == '\t' || !rest[5])) {
        strtok_r(rest, " \t", &first_save);
        long long depth = next_number(&first_save);
        if (have_position(u, false)) go_perft(u, depth);
        return;
    }
    if (!have_position(u, true)) return;
    SearchLimits lim = { 0 };
    lim.multipv = u->multipv;
    u->searchmoves.count = 0;
    bool listing = false;   /* after "searchmoves", until the next word of go */
    char *save = NULL;
    for (char *t = strtok_r(args, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        bool word = true;
        if (!strcmp(t, "depth")) lim.depth = (int)next_number(&save);
        else if (!strcmp(t, "nodes")) lim.nodes = (uint64_t)next_number(&save);
        else if (!strcmp(t, "movetime")) lim.movetime = next_number(&save);
        else if (!strcmp(t, "wtime")) lim.time[WHITE] = next_number(&save);
        else if (!strcmp(t, "btime")) lim.time[BLACK] = next_number(&save);
        else if (!strcmp(t, "winc")) lim.inc[WHITE] = next_number(&save);
        else if (!strcmp(t, "binc")) lim.inc[BLACK] = next_number(&save);
        else if (!strcmp(t, "movestogo")) lim.movestogo = (int)next_number(&save);
        else if (!strcmp(t, "mate")) lim.mate = (int)next_number(&save);
        else if (!strcmp(t, "infinite")) lim.infinite = true;
        else if (!strcmp(t, "ponder")) lim.ponder = &u->ponder;
        else if (!strcmp(t, "searchmoves")) listing = true;
        else word = false;
        if (word) {
            listing = listing && !strcmp(t, "searchmoves");
            continue;
        }
        if (listing) add_searchmove(u, t);
        else uci_say(u, "info string ignoring '%s' in go", t);
    }
    lim.searchmoves = u->searchmoves.moves;
    lim.searchmoves_count = u->searchmoves.count;
    /* A search among some actions with no limit at all is a question
     * about them, not analysis to run until "stop": it gets a second. */
    if (lim.searchmoves_count && unlimited(&lim) && !lim.infinite) lim.movetime = UCI_SEARCHMOVES_MS;
    /* Cleared here, before the thread starts, so that a "stop" that comes
     * before the search has begun still ends it. */
    atomic_store(&u->stop, false);
    atomic_store(&u->ponder, lim.ponder != NULL);
    lim.stop = &u->stop;
    lim.move_overhead_given = true;
    lim.move_overhead = u->move_overhead;
    u->limits = lim;
    if (pthread_create(&u->thread, NULL, search_thread, u) != 0) {
        uci_say(u, "info string error: cannot start the search thread");
        uci_say(u, "bestmove (none)");
        return;
    }
    u->searching = true;
}

void uci_print_options(Uci *u)
{
    Text vars = TEXT_INIT;
    for (int i = 0; VARIANTS[i]; i++) text_addf(&vars, " var %s", VARIANTS[i]->name);
    uci_say(u, "option name UCI_Variant type combo default chess%s", text_str(&vars));
    text_free(&vars);
    uci_say(u, "option name VariantOptions type string default <empty>");
    uci_say(u, "option name Hash type spin default %d min 1 max %d", ENGINE_HASH_DEFAULT_MB, ENGINE_HASH_MAX_MB);
    uci_say(u, "option name Threads type spin default 1 min 1 max %d", ENGINE_MAX_THREADS);
    uci_say(u, "option name MultiPV type spin default 1 min 1 max %d", ENGINE_MAX_MULTIPV);
    uci_say(u, "option name Skill Level type spin default %d min 0 max %d", ENGINE_SKILL_MAX, ENGINE_SKILL_MAX);
    uci_say(u, "option name UCI_LimitStrength type check default false");
    uci_say(u, "option name UCI_Elo type spin default %d min %d max %d", ENGINE_ELO_MIN, ENGINE_ELO_MIN, ENGINE_ELO_MAX);
    uci_say(u, "option name UCI_ShowWDL type check default false");
    uci_say(u, "option name Clear Hash type button");
    uci_say(u, "option name Ponder type check default false");
    uci_say(u, "option name Move Overhead type spin default %d min 0 max %d", UCI_MOVE_OVERHEAD_DEFAULT,
            UCI_MOVE_OVERHEAD_MAX);
    uci_say(u, "option name UCI_Chess960 type check default false");
}

/* A spin option's value: a whole number from min to max, else an error
 * line that says so (the option keeps its value). */
static bool spin_value(Uci *u, const char *name, const char *value, long min, long max, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end || v < min || v > max) {
        uci_say(u, "info string error: %s takes a whole number from %ld to %ld, not '%s'", name, min, max, value);
        return false;
    }
    *out = (int)v;
    return true;
}

/* A check option's value, true or false, else an error line that says so
 * (the option keeps its value). */
static bool check_value(Uci *u, const char *name, const char *value, bool *out)
{
    if (strcasecmp(value, "true") && strcasecmp(value, "false")) {
        uci_say(u, "info string error: %s takes true or false, not '%s'", name, value);
        return false;
    }
    *out = !strcasecmp(value, "true");
    return true;
}

/* The engine plays at "Skill Level", or, with "UCI_LimitStrength", at the
 * skill calibrated for "UCI_Elo". */
static void apply_strength(Uci *u)
{
    engine_set_skill(u->engine, u->limit_strength ? engine_skill_of_elo(u->elo) : u->skill_level);
}

/* Names other programs give one of our games, accepted for UCI_Variant
 * only where they mean the very same game: xboard's and polyglot's
 * "normal" and the "standard" of other GUIs are chess.  Fairy-Stockfish's
 * "chessgi" is NOT our chessgi (it is our chessgi-classic, without time
 * travel), and no other engine plays our time-travel games, so there are
 * no other aliases (docs/engine.md). */
static const struct { const char *alias, *name; } VARIANT_ALIASES[] = {
    { "normal", "chess" },
    { "standard", "chess" },
};

/* The game played: chess becomes Chess960 while UCI_Chess960 is on. */
static const Variant *played_variant(const Variant *v, bool chess960)
{
    if (v == &VARIANT_CHESS960) v = &VARIANT_CHESS;
    return chess960 && v == &VARIANT_CHESS ? &VARIANT_CHESS960 : v;
}

static const Variant *find_variant(const char *name)
{
    for (size_t i = 0; i < sizeof VARIANT_ALIASES / sizeof VARIANT_ALIASES[0]; i++)
        if (!strcmp(name, VARIANT_ALIASES[i].alias)) return variant_find(VARIANT_ALIASES[i].name);
    return variant_find(name);
}

/* "setoption name NAME [value VALUE]": names may hold spaces. */
void uci_setoption(Uci *u, char *args)
{
    stop_search(u);
    char *name = strstr(args, "name ");
    if (!name) {
        uci_say(u, "info string error: setoption needs 'name'");
        return;
    }
    name += 5;
    char *value = strstr(name, " value ");
    if (value) {
        *value = 0;
        value += 7;
    } else {
        value = "";
    }
    while (*name == ' ') name++;
    for (char *end = name + strlen(name); end > name && end[-1] == ' ';) *--end = 0;
    if (!strcasecmp(name, "UCI_Variant")) {
        const Variant *v = find_variant(value);
        if (!v) {
            Text names = TEXT_INIT;
            variant_names(&names);
            uci_say(u, "info string error: unknown variant '%s' (one of: %s)", value, text_str(&names));
            text_free(&names);
            return;
        }
        u->variant = played_variant(v, u->chess960);
        options_default(v, &u->options);
        drop_position(u);
    } else if (!strcasecmp(name, "UCI_Chess960")) {
        if (strcasecmp(value, "true") && strcasecmp(value, "false")) {
            uci_say(u, "info string error: UCI_Chess960 takes true or false, not '%s'", value);
            return;
        }
        u->chess960 = !strcasecmp(value, "true");
        u->variant = played_variant(u->variant, u->chess960);
        drop_position(u);
    } else if (!strcasecmp(name, "VariantOptions")) {
        Options o;
        Text err = TEXT_INIT;
        options_default(u->variant, &o);
        if (strcmp(value, "<empty>") && !options_parse(u->variant, &o, value, &err))
            uci_say(u, "info string error: %s", text_str(&err));
        else u->options = o;
        text_free(&err);
    } else if (!strcasecmp(name, "Hash")) {
        int mb;
        if (spin_value(u, "Hash", value, 1, ENGINE_HASH_MAX_MB, &mb) && !engine_set_hash(u->engine, mb))
            uci_say(u, "info string error: out of memory for a hash of %d MB (the hash is unchanged)", mb);
    } else if (!strcasecmp(name, "Threads")) {
        int n;
        if (spin_value(u, "Threads", value, 1, ENGINE_MAX_THREADS, &n)) engine_set_threads(u->engine, n);
    } else if (!strcasecmp(name, "MultiPV")) {
        spin_value(u, "MultiPV", value, 1, ENGINE_MAX_MULTIPV, &u->multipv);
    } else if (!strcasecmp(name, "Skill Level")) {
        spin_value(u, "Skill Level", value, 0, ENGINE_SKILL_MAX, &u->skill_level);
        apply_strength(u);
    } else if (!strcasecmp(name, "UCI_LimitStrength")) {
        check_value(u, "UCI_LimitStrength", value, &u->limit_strength);
        apply_strength(u);
    } else if (!strcasecmp(name, "UCI_Elo")) {
        spin_value(u, "UCI_Elo", value, ENGINE_ELO_MIN, ENGINE_ELO_MAX, &u->elo);
        apply_strength(u);
    } else if (!strcasecmp(name, "UCI_ShowWDL")) {
        check_value(u, "UCI_ShowWDL", value, &u->show_wdl);
    } else if (!strcasecmp(name, "Move Overhead")) {
        spin_value(u, "Move Overhead", value, 0, UCI_MOVE_OVERHEAD_MAX, &u->move_overhead);
    } else if (!strcasecmp(name, "Ponder")) {
        /* Only tells the engine that the GUI may send "go ponder"; it
         * ponders whenever asked, so there is nothing to keep. */
        bool ignored;
        check_value(u, "Ponder", value, &ignored);
    } else if (!strcasecmp(name, "Clear Hash")) {
        engine_new_game(u->engine);
    } else {
        uci_say(u, "info string error: no option named '%s'", name);
    }
}

void uci_print_fen(Uci *u)
{
    if (!have_position(u, false)) return;
    Text fen = TEXT_INIT;
    u->variant->to_fen(&u->game.options, game_state(&u->game), &fen);
    uci_say(u, "info string variant %s fen %s", u->variant->name, text_str(&fen));
    text_free(&fen);
}


void uci_stop(Uci *u) { stop_search(u); }

void uci_ponderhit(Uci *u) { atomic_store(&u->ponder, false); }

/* Weakened play ("Skill Level" below the maximum) picks among its best
 * lines by chance; seeded from the clock at each new game, as Stockfish
 * does, so that it varies from game to game rather than repeating one
 * game forever.  (bench and analyze keep the engine's fixed seed.) */
static void seed_from_clock(Uci *u)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    uint64_t seed = (uint64_t)t.tv_sec * 1000000007ULL ^ (uint64_t)t.tv_nsec * 0x9e3779b97f4a7c15ULL;
    engine_set_seed(u->engine, seed);
}

void uci_new_game(Uci *u)
{
    stop_search(u);
    engine_new_game(u->engine);
    seed_from_clock(u);
    drop_position(u);
}

bool uci_open(Uci *u, FILE *out)
{
    memset(u, 0, sizeof *u);
    u->engine = engine_new();
    if (!u->engine) return false;
    u->stream = out;
    u->variant = &VARIANT_CHESS;
    options_default(u->variant, &u->options);
    u->multipv = 1;
    u->move_overhead = UCI_MOVE_OVERHEAD_DEFAULT;
    u->skill_level = ENGINE_SKILL_MAX;
    u->elo = ENGINE_ELO_MIN;
    seed_from_clock(u);
    movelist_init(&u->searchmoves);
    pthread_mutex_init(&u->out, NULL);
    return true;
}

void uci_close(Uci *u, bool quitting)
{
    /* At the end of the input (a script piping "go depth 10" in), a search
     * with a limit is allowed to finish and answer; one without a limit
     * would never end, so it is stopped, as it is by "quit". */
    if (!quitting && u->searching && !unlimited(&u->limits)) wait_search(u);
    stop_search(u);
    drop_position(u);
    text_free(&u->refused);
    movelist_free(&u->searchmoves);
    engine_free(u->engine);
    pthread_mutex_destroy(&u->out);
}
