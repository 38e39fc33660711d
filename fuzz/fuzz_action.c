/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The text of an action, in every variant, as the server receives it:
 * POST /api/games/ID/actions with {"action": TEXT, "ply": N}, by the
 * player to move, through api_handle (src/server/, linked in with
 * TTCHESS_FUZZ) on the database of fuzz/api_fixture.h, put back before
 * each input.
 *
 * The first byte picks the variant ('0' chess, '1' gifford, ... as in
 * every harness), the second one of the starts api_fixture.c sets up for
 * it (counted from '0', modulo their number): games created from a FEN
 * and options and/or played into through the API (pending arrivals,
 * kings that went back, several timelines, van Gog obligations and links,
 * Time Traveler's Chess travellers, Chessgi pockets and general travels).
 * The rest, every byte of it, is the action's text.  N is the game's ply.
 *
 * The body is written by jansson (json_stringn: a NUL goes as \u0000)
 * when the text is UTF-8, else by hand with the bytes as they are
 * ('"', '\' and control characters escaped): jansson on the server must
 * refuse it.
 *
 * After fixture_check_common (status 200..599, one body, errors JSON
 * with a string "error", never 500 or 503, no transaction left open, the
 * lock free, no secret in a reply unless the text carried it: a refusal
 * may quote the text):
 *
 *   - a text that is not UTF-8, that holds a NUL, or that is longer than
 *     200 bytes gets 400;
 *   - resign gets 200 and the game is over; offer-draw 200 with the
 *     offer the mover's; offer-takeback 200 (409 at ply 0); accept-draw,
 *     accept-takeback and decline 409 (no offer is open); all at the same
 *     ply;
 *   - any other text is played in a library Game replayed from the
 *     start's FEN, options and actions (game_play_text, which must reach
 *     the FEN and ply the server had; replayed once, and each input's
 *     action taken back with game_pop): the server answers 200 exactly
 *     when the library accepts the text, else 422;
 *   - a 200 has ply N + 1 and the library's FEN and side to move; the
 *     action it lists for ply N + 1 is, by its coordinate form and by its
 *     human form, read at the position before (game_play_text) as the
 *     very action the library played, which is among line_generate's
 *     legal actions there and reaches the same FEN; and a GET then shows
 *     the game at that ply and FEN, replayed from what was stored;
 *   - a 422 has a sentence, and every refusal leaves the game where it
 *     was: a GET shows the same ply and FEN (or, when nothing at all was
 *     written to the database since it was put back, which
 *     fixture_written tells, every game is as it was by construction and
 *     the GET, the dearest request of all, is left out).
 */
#include "api_fixture.h"

#include "movegen.h"

/* Is s (n bytes) UTF-8 as jansson checks it (no overlong forms, no
 * surrogates, nothing over U+10FFFF)? */
static bool is_utf8(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint8_t c = s[i];
        size_t len;
        uint32_t cp;
        if (c < 0x80) len = 1, cp = c;
        else if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F;
        else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F;
        else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07;
        else return false;
        if (i + len > n) return false;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}

/* The request's body: by jansson when the text is UTF-8, else by hand. */
static char *action_body(const uint8_t *text, size_t n, bool utf8, int ply)
{
    if (utf8) {
        json_t *s = json_stringn((const char *)text, n);
        FUZZ_CHECK(s, "jansson refuses a text that is UTF-8");
        json_t *o = json_pack("{s:o, s:i}", "action", s, "ply", ply);
        char *body = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        FUZZ_CHECK(body, "out of memory");
        return body;
    }
    Text t = TEXT_INIT;
    text_add(&t, "{\"action\": \"");
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '"' || text[i] == '\\') text_addf(&t, "\\%c", text[i]);
        else if (text[i] < 0x20) text_addf(&t, "\\u%04x", text[i]);
        else text_add_n(&t, (const char *)text + i, 1);
    }
    text_addf(&t, "\", \"ply\": %d}", ply);
    FUZZ_CHECK(!t.failed, "out of memory");
    return text_take(&t);
}

/* The library's game at each start, replayed once from its FEN, options
 * and actions (its FEN must be the server's), with its legal actions;
 * an input plays on it and takes its action back. */
typedef struct Replica {
    bool ready;
    Game game;
    MoveList legal;
} Replica;

static Replica replicas[FIXTURE_MAX_GAMES];

static Replica *replica(const FixtureGame *g)
{
    Replica *r = &replicas[g - fixture_games];
    if (r->ready) return r;
    const Variant *v = g->variant;
    Options o;
    Text err = TEXT_INIT, fen = TEXT_INIT;
    options_default(v, &o);
    FUZZ_CHECK(options_parse(v, &o, g->options, &err), "%s: the start's options are refused: %s", v->name,
               text_str(&err));
    FUZZ_CHECK(game_init(&r->game, v, &o, g->fen, &err), "%s: the start's FEN is refused: %s", v->name,
               text_str(&err));
    fuzz_play_builtin(&r->game, g->moves);
    v->to_fen(&r->game.options, game_state(&r->game), &fen);
    FUZZ_CHECK(!strcmp(fuzz_str(&fen), g->fen_now), "%s: the library reaches %s, the server %s", v->name,
               fuzz_str(&fen), g->fen_now);
    FUZZ_CHECK(game_current(&r->game) == g->ply, "%s: the library is at ply %d, the server at %d", v->name,
               game_current(&r->game), g->ply);
    movelist_init(&r->legal);
    Line l;
    line_open(&l, &r->game, game_current(&r->game));
    FUZZ_CHECK(line_generate(&l, &r->legal), "out of memory");
    line_close(&l);
    text_free(&fen);
    text_free(&err);
    r->ready = true;
    return r;
}

static char *fen_of(const Game *g)
{
    Text t = TEXT_INIT;
    g->variant->to_fen(&g->options, game_state(g), &t);
    FUZZ_CHECK(!t.failed, "out of memory");
    return text_take(&t);
}

static const char *member_string(json_t *o, const char *name)
{
    json_t *v = json_object_get(o, name);
    return json_is_string(v) ? json_string_value(v) : "";
}

/* The form `form` of the action the server listed reads, at the position
 * before it, as the action m the library played, and reaches `fen`. */
static void check_reads_back(Game *lib, const char *form, const char *text, Move m, const char *fen, const char *what)
{
    Text err = TEXT_INIT;
    char a[96], b[96];
    bool ok = game_play_text(lib, text, &err);
    FUZZ_CHECK(ok, "%s: the %s form '%s' the server lists is refused: %s", what, form, text, text_str(&err));
    Move back = game_node(lib, game_current(lib))->move;
    FUZZ_CHECK(move_equal(back, m), "%s: the %s form '%s' reads as %s, not %s", what, form, text,
               fuzz_move_desc(back, a), fuzz_move_desc(m, b));
    char *again = fen_of(lib);
    FUZZ_CHECK(!strcmp(again, fen), "%s: the %s form '%s' reaches %s, not %s", what, form, text, again, fen);
    free(again);
    game_pop(lib);
    text_free(&err);
}

const FixtureNeed fixture_need = FIXTURE_STARTS;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fixture_setup(fixture_need == FIXTURE_STARTS);
    if (size < 2) return 0;
    const Variant *v = fuzz_variant(data[0]);
    int count;
    FixtureGame *starts = fixture_starts_of(v, &count);
    if (!count) return 0;
    const FixtureGame *g = &starts[(uint8_t)(data[1] - '0') % count];
    const uint8_t *text = data + 2;
    size_t n = size - 2;
    char *str = fuzz_string(text, n);   /* up to a NUL, if any */
    bool utf8 = is_utf8(text, n), nul = strlen(str) != n;
    char *body = action_body(text, n, utf8, g->ply);
    char path[128], what[256];
    snprintf(path, sizeof path, "/api/games/%s/actions", g->id);
    snprintf(what, sizeof what, "%s start %d (ply %d) '%.120s'", v->name, (int)(g - starts), g->ply, str);
    fixture_restore();

    ApiReply r;
    fixture_request(fixture_mover(g), "POST", path, body, strlen(body), NULL, &r);
    char *reply = fixture_reply_text(&r);
    FUZZ_SAY("%s -> %d %s\n", what, r.status, r.status == 200 ? "" : reply);
    bool sent[FIXTURE_SECRETS] = { false };
    fixture_note_sent(body, strlen(body), sent);
    fixture_check_common("POST", path, &r, sent);
    int want = 0;   /* 0: the library decides */
    if (!utf8 || nul || n > SERVER_MAX_ACTION) want = 400;
    else if (!strcmp(str, "resign") || !strcmp(str, "offer-draw")) want = 200;
    else if (!strcmp(str, "offer-takeback")) want = g->ply ? 200 : 409;
    else if (!strcmp(str, "accept-draw") || !strcmp(str, "accept-takeback") || !strcmp(str, "decline")) want = 409;
    /* A refusal that wrote nothing left every game as it was; else a GET
     * must show the game as it was, or as the reply says. */
    bool look = r.status == 200 || fixture_written();
    json_t *st = look ? fixture_state(fixture_alice, g->id) : NULL;
    json_int_t ply_now = look ? json_integer_value(json_object_get(st, "ply")) : g->ply;
    const char *fen_now = look ? member_string(st, "fen") : g->fen_now;

    if (want) {
        FUZZ_CHECK(r.status == want, "%s: %d, not %d: %s", what, r.status, want, reply);
        FUZZ_CHECK(ply_now == g->ply && (!strcmp(fen_now, g->fen_now) || !strcmp(str, "resign")),
                   "%s: after %d the game is at ply %lld, %s", what, r.status, (long long)ply_now, fen_now);
        if (want == 200 && !strcmp(str, "resign"))
            FUZZ_CHECK(!strcmp(member_string(st, "status"), "over"), "%s: the game is %s", what,
                       member_string(st, "status"));
        if (want == 200 && !strcmp(str, "offer-draw"))
            FUZZ_CHECK(!strcmp(member_string(st, "draw_offer"), g->to_move == WHITE ? "white" : "black"),
                       "%s: the draw offer is %s's", what, member_string(st, "draw_offer"));
    } else {
        Replica *rep = replica(g);
        Game *lib = &rep->game;
        Text err = TEXT_INIT;
        bool ok = game_play_text(lib, str, &err);
        FUZZ_CHECK(r.status == (ok ? 200 : 422), "%s: %d, but the library %s it%s%s: %s", what, r.status,
                   ok ? "plays" : "refuses", ok ? "" : ": ", ok ? "" : text_str(&err), reply);
        if (ok) {
            char *fen = fen_of(lib), a[96];
            Move m = game_node(lib, game_current(lib))->move;
            const char *side = game_board(lib)->side == WHITE ? "white" : "black";
            game_pop(lib);
            FUZZ_CHECK(movelist_contains(&rep->legal, m), "%s: the library played %s, not among the %d legal actions",
                       what, fuzz_move_desc(m, a), rep->legal.count);
            json_int_t ply = json_integer_value(json_object_get(r.json, "ply"));
            FUZZ_CHECK(ply == g->ply + 1, "%s: the reply is at ply %lld", what, (long long)ply);
            FUZZ_CHECK(!strcmp(member_string(r.json, "fen"), fen), "%s: the reply's FEN is %s, the library's %s", what,
                       member_string(r.json, "fen"), fen);
            FUZZ_CHECK(!strcmp(member_string(r.json, "to_move"), side), "%s: %s to move, not %s", what,
                       member_string(r.json, "to_move"), side);
            json_t *act = json_array_get(json_object_get(r.json, "actions"), (size_t)g->ply);
            FUZZ_CHECK(json_integer_value(json_object_get(act, "ply")) == g->ply + 1, "%s: no action listed at ply %d",
                       what, g->ply + 1);
            check_reads_back(lib, "coordinate", member_string(act, "coord"), m, fen, what);
            check_reads_back(lib, "human", member_string(act, "human"), m, fen, what);
            FUZZ_CHECK(ply_now == ply && !strcmp(fen_now, fen), "%s: the game reads back at ply %lld, %s", what,
                       (long long)ply_now, fen_now);
            free(fen);
        } else {
            FUZZ_CHECK(*json_string_value(json_object_get(r.json, "error")), "%s: a refusal without a sentence", what);
        }
        FUZZ_CHECK(game_current(lib) == g->ply, "%s: the library's game was not put back", what);
        text_free(&err);
    }
    if (r.status != 200)
        FUZZ_CHECK(ply_now == g->ply && !strcmp(fen_now, g->fen_now), "%s: after %d the game is at ply %lld, %s, not %s",
                   what, r.status, (long long)ply_now, fen_now, g->fen_now);
    json_decref(st);
    api_reply_free(&r);
    free(reply);
    free(body);
    free(str);
    return 0;
}
