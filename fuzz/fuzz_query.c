/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Query strings, as libmicrohttpd hands them to the server: GET requests
 * to api_handle (src/server/, linked in with TTCHESS_FUZZ) on the
 * database of fuzz/api_fixture.h with its starts (games of every variant
 * with history: several timelines, pending arrivals, pockets), put back
 * before each input.
 *
 * The first byte picks the request (counted from 'a', modulo 9), the
 * second the game (counted from '0', modulo one more than the games: $0
 * is '0', $10 ':', $17 'A'; the last is an id no game has):
 *
 *     a GET /api/games/ID/diagram.svg   (reads ply, orientation, set,
 *                                        colors, size, coordinates)
 *     b GET /api/games/ID               c GET /api/games/ID/pgn
 *     d GET /api/games/ID/sheets        e GET /api/games/ID/kibitz
 *     f GET /api/games (alice)          g GET /api/session (alice)
 *     h GET /api/variants
 *     i what the live stream of the game sends after ?last_event_id=
 *     j GET /api/leaderboard/chess/correspondence   (reads max)
 *     k GET /api/users/alice/rating-history         (reads variant, speed)
 *
 * The rest, up to a NUL, CR or LF (which cannot be part of a request
 * line), is the query string.  It is split and %-decoded as
 * libmicrohttpd 0.9.75 does (api_fixture.c: MHD_parse_arguments_'s
 * splitting at '&' and the first '=', '+' as a space, its own
 * MHD_http_unescape), and each argument is looked up as http.c asks for
 * it, by MHD_lookup_connection_value: the first argument of that name
 * (ASCII case ignored; a name with a %00 in it is longer than the name
 * asked for), whose value is NULL when it has no '='.
 *
 * Every reply passes fixture_check_common (status 200..599, one body,
 * errors JSON with a string "error", never 500 or 503, no transaction
 * left open, the lock free, no secret in a reply unless an argument
 * carried it).  Then:
 *
 *   - diagram.svg: the status worked out here from the arguments: 400 for
 *     the first style value given that is not one of the allowed (white
 *     or black; glyphs or letters; brown, green, blue, grey or gray; a
 *     whole number of 16..128 in at most 4 digits; on, off, yes, no,
 *     true, false, 1 or 0; names in any ASCII case), 404 for an unknown
 *     game, 400 for a ply that strtol would not read whole or that lies
 *     outside 0..the game's ply, else 200.  A 200 is an SVG document,
 *     well-formed (the small XML reader of tests/test_diagram.c, mirrored
 *     here), starting "<?xml" and ending "</svg>\n"; its title names the
 *     ply asked for (the present one by default) with that node's move
 *     number and timeline as the game's state lists them; its width is
 *     its viewBox's at the size asked for; it has the colours of the
 *     scheme, the chess glyphs exactly when the set is glyphs, the file
 *     letters exactly when coordinates are on, and a1 left of h1 exactly
 *     when White is at the bottom;
 *   - the other routes read no argument: the reply is the one the same
 *     request gets without a query string;
 *   - j: 400 when max is given and is not a whole number of 1..200 that
 *     strtol reads whole, else 200 with at most max players;
 *   - k: 400 when the variant is missing or not one of the registry's
 *     (variant_find), or the speed is not "live" or "correspondence",
 *     else 200 with a list (alice's resigned game of the fixture is rated:
 *     one line for chess by correspondence);
 *   - i: the live stream reads its start from Last-Event-ID or the query's
 *     last_event_id in serve_events, a static function of http.c, which
 *     cannot run without a connection; its three lines are copied here
 *     (strtoll, negative read as 0) and the events store_events_after
 *     then gives must be those after that id, in order, each with a type
 *     and JSON object data.
 */
#include "api_fixture.h"
#include "registry.h"

enum { WHAT_COUNT = 11 };

/* The XML reader tests/test_diagram.c checks its diagrams with. */
#include "../tests/xml_check.h"

/* ---- The style values, read here again ------------------------------------- */

/* Is name (ASCII case ignored) one of the names? Its index, or -1. */
static int one_of(const char *name, const char *const *names, int count)
{
    for (int i = 0; i < count; i++) {
        size_t n = strlen(names[i]), k = 0;
        if (strlen(name) != n) continue;
        while (k < n && (name[k] >= 'A' && name[k] <= 'Z' ? name[k] - 'A' + 'a' : name[k]) == names[i][k]) k++;
        if (k == n) return i;
    }
    return -1;
}

static const char *const ORIENTATIONS[] = { "white", "black" };
static const char *const SETS[] = { "glyphs", "letters" };
static const char *const COLORS[] = { "brown", "green", "blue", "grey", "gray" };
static const char *const SWITCHES[] = { "on", "off", "yes", "no", "true", "false", "1", "0" };
/* The light and dark squares of each scheme (gray is grey). */
static const char *const SQUARE_COLORS[][2] = {
    { "#f0d9b5", "#b58863" }, { "#eeeed2", "#769656" }, { "#dee3e6", "#8ca2ad" }, { "#e4e4e4", "#a9a9a9" },
    { "#e4e4e4", "#a9a9a9" },
};

/* A size value: its px, or -1 when it is not one. */
static int size_of(const char *v)
{
    size_t n = strlen(v);
    if (n < 1 || n > 4 || strspn(v, "0123456789") != n) return -1;
    int px = atoi(v);
    return px >= 16 && px <= 128 ? px : -1;
}

/* A ply as strtol reads it whole (spaces first, a sign, digits to the
 * end), in 0..max; -1 when it is not one. */
static long ply_of(const char *v, int max)
{
    const char *p = v;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r')) p++;
    bool minus = *p == '-';
    if (*p == '-' || *p == '+') p++;
    size_t n = strspn(p, "0123456789");
    if (n == 0 || p[n]) return -1;
    long value = 0;
    for (size_t i = 0; i < n; i++) {
        value = value * 10 + (p[i] - '0');
        if (value > max) return -1;
    }
    return minus && value ? -1 : value;
}

/* The style asked for, and whether every value given is good. */
typedef struct Asked {
    int orientation, set, colors, size, coordinates;
    long ply;
    const char *bad;   /* the first field with a bad value, or NULL */
} Asked;

static void read_style(FixtureQuery *q, Asked *a)
{
    *a = (Asked){ .orientation = 0, .set = 0, .colors = 0, .size = 48, .coordinates = 1, .ply = -1 };
    const char *v;
    if (!a->bad && (v = fixture_query_value(q, "orientation")) && (a->orientation = one_of(v, ORIENTATIONS, 2)) < 0)
        a->bad = "orientation";
    if (!a->bad && (v = fixture_query_value(q, "set")) && (a->set = one_of(v, SETS, 2)) < 0) a->bad = "set";
    if (!a->bad && (v = fixture_query_value(q, "colors")) && (a->colors = one_of(v, COLORS, 5)) < 0) a->bad = "colors";
    if (!a->bad && (v = fixture_query_value(q, "size")) && (a->size = size_of(v)) < 0) a->bad = "size";
    if (!a->bad && (v = fixture_query_value(q, "coordinates"))) {
        int i = one_of(v, SWITCHES, 8);
        if (i < 0) a->bad = "coordinates";
        else a->coordinates = i % 2 == 0;
    }
}

/* ---- The checks -------------------------------------------------------------- */

typedef struct Request {
    const char *path, *query;
    const ApiReply *reply;
} Request;

#define CHECK(rq, cond, ...)                                                                                   \
    do {                                                                                                       \
        if (!(cond)) {                                                                                         \
            char *reply_text_ = fixture_reply_text((rq)->reply);                                               \
            fprintf(stderr, "GET %s?%s: %d %.2000s\n", (rq)->path, (rq)->query, (rq)->reply->status, reply_text_); \
            free(reply_text_);                                                                                 \
            FUZZ_CHECK(cond, __VA_ARGS__);                                                                     \
        }                                                                                                      \
    } while (0)

/* The x of the n-th "<rect x=" (0: the first), or -1. */
static long rect_x(const char *svg, int n)
{
    const char *p = svg;
    for (int i = 0; p && i <= n; i++) {
        p = strstr(p, "<rect x=\"");
        if (p && i < n) p++;
    }
    return p ? strtol(p + 9, NULL, 10) : -1;
}

/* A px length written by diagram.c ("432", "43.5", "43.25") in hundredths. */
static long hundredths(const char *s)
{
    char *end;
    long whole = strtol(s, &end, 10), cents = 0;
    if (*end == '.') {
        cents = (end[1] - '0') * 10;
        if (end[2] >= '0' && end[2] <= '9') cents += end[2] - '0';
    }
    return whole * 100 + cents;
}

static void check_svg(const Request *rq, const FixtureGame *g, const Asked *a, long ply)
{
    const char *svg = rq->reply->text;
    CHECK(rq, svg && rq->reply->content_type && !strcmp(rq->reply->content_type, "image/svg+xml; charset=utf-8"),
          "a diagram that is no SVG text");
    const char *why = xml_problem(svg);
    CHECK(rq, !why, "the SVG is not well-formed: %s", why);
    size_t n = strlen(svg);
    CHECK(rq, !strncmp(svg, "<?xml ", 6) && n > 7 && !strcmp(svg + n - 7, "</svg>\n"), "the SVG's start or end");
    char caption[128];
    snprintf(caption, sizeof caption, ": ply %ld, move %d, timeline %d</title>", ply, g->node_move[ply],
             g->node_timeline[ply]);
    CHECK(rq, strstr(svg, caption), "the title does not say '%s'", caption);
    const char *w = strstr(svg, " width=\""), *vb = strstr(svg, " viewBox=\"0 0 ");
    CHECK(rq, w && vb, "no width or viewBox");
    long units = strtol(vb + 14, NULL, 10);
    CHECK(rq, hundredths(w + 8) == units * a->size, "%ld units at %d px a square are %ld hundredths of px, not %.12s",
          units, a->size, units * a->size, w + 8);
    CHECK(rq, strstr(svg, SQUARE_COLORS[a->colors][0]) && strstr(svg, SQUARE_COLORS[a->colors][1]),
          "the squares are not %s", COLORS[a->colors]);
    bool glyphs = false;
    for (const char *p = strstr(svg, "\xE2\x99"); p && !glyphs; p = strstr(p + 1, "\xE2\x99"))
        glyphs = (unsigned char)p[2] >= 0x9A && (unsigned char)p[2] <= 0x9F;
    CHECK(rq, glyphs == (a->set == 0), "the set is %s, and there are %s glyphs", SETS[a->set], glyphs ? "" : "no");
    CHECK(rq, !!strstr(svg, ">h</text>") == !!a->coordinates, "coordinates %s", a->coordinates ? "missing" : "drawn");
    long a1 = rect_x(svg, 0), h1 = rect_x(svg, 7);
    CHECK(rq, a1 >= 0 && h1 >= 0 && (a->orientation == 0 ? a1 < h1 : a1 > h1), "a1 at %ld, h1 at %ld with %s below",
          a1, h1, ORIENTATIONS[a->orientation]);
}

static void check_diagram(const Request *rq, const FixtureGame *g, FixtureQuery *q)
{
    Asked a;
    read_style(q, &a);
    const char *ply_text = fixture_query_value(q, "ply");
    long ply = g && ply_text ? ply_of(ply_text, g->ply) : g ? g->ply : -1;
    int want = a.bad ? 400 : !g ? 404 : ply < 0 ? 400 : 200;
    CHECK(rq, rq->reply->status == want, "%d, not %d (%s)", rq->reply->status, want,
          a.bad ? a.bad : !g ? "no such game" : ply < 0 ? "a bad ply" : "all good");
    if (want == 200) check_svg(rq, g, &a, ply);
}

/* A request that reads no argument answers as without the query. */
static void check_ignored(const Request *rq, const char *token, const char *path)
{
    ApiReply plain;
    fixture_request(token, "GET", path, "", 0, NULL, &plain);
    char *a = fixture_reply_text(rq->reply), *b = fixture_reply_text(&plain);
    CHECK(rq, rq->reply->status == plain.status && !strcmp(a, b), "without the query: %d %.2000s", plain.status, b);
    free(a);
    free(b);
    api_reply_free(&plain);
}

/* The leaderboard's ?max=: 1 to 200, read whole by strtol. */
static void check_leaderboard(const Request *rq, FixtureQuery *q)
{
    const char *max = fixture_query_value(q, "max");
    char *end = NULL;
    long n = max ? strtol(max, &end, 10) : 50;
    bool bad = max && (!*max || *end || n < 1 || n > 200);
    CHECK(rq, rq->reply->status == (bad ? 400 : 200), "not %d", bad ? 400 : 200);
    json_t *players = json_object_get(rq->reply->json, "players");
    CHECK(rq, bad || (json_is_array(players) && json_array_size(players) <= (size_t)n), "no list of at most %ld", n);
}

/* A rating's history: a known variant and a speed, else 400. */
static void check_history(const Request *rq, FixtureQuery *q)
{
    const char *variant = fixture_query_value(q, "variant"), *speed = fixture_query_value(q, "speed");
    bool bad = !variant || !variant_find(variant) || !speed || (strcmp(speed, "live") && strcmp(speed, "correspondence"));
    CHECK(rq, rq->reply->status == (bad ? 400 : 200), "not %d", bad ? 400 : 200);
    bool one = !bad && !strcmp(variant_find(variant)->name, "chess") && !strcmp(speed, "correspondence");
    json_t *history = json_object_get(rq->reply->json, "history");
    CHECK(rq, bad || (json_is_array(history) && json_array_size(history) == (one ? 1u : 0u)),
          "alice's history is not %d lines", one);
}

/* What serve_events (http.c) does with ?last_event_id, then the events
 * it would stream. */
static void check_events(const char *query, const FixtureGame *g, FixtureQuery *q)
{
    const char *last = fixture_query_value(q, "last_event_id");
    int64_t after = last ? strtoll(last, NULL, 10) : 0;
    if (after < 0) after = 0;
    json_t *all = json_array(), *some = json_array();
    const char *id = g ? g->id : "nosuchgame";
    FUZZ_CHECK(fixture_events_after(id, 0, all) && fixture_events_after(id, after, some),
               "?%s: the events cannot be read", query);
    size_t skip = 0;
    while (skip < json_array_size(all) &&
           json_integer_value(json_object_get(json_array_get(all, skip), "id")) <= after)
        skip++;
    FUZZ_CHECK(json_array_size(some) == json_array_size(all) - skip, "?%s: %zu events after %lld, not %zu", query,
               json_array_size(some), (long long)after, json_array_size(all) - skip);
    for (size_t i = 0; i < json_array_size(some); i++) {
        json_t *e = json_array_get(some, i);
        FUZZ_CHECK(json_equal(e, json_array_get(all, skip + i)), "?%s: event %zu differs", query, i);
        const char *type = json_string_value(json_object_get(e, "type"));
        json_t *data = json_loads(json_string_value(json_object_get(e, "data")), 0, NULL);
        FUZZ_CHECK(type && *type && json_is_object(data), "?%s: an event without a type or JSON data", query);
        json_decref(data);
    }
    json_decref(all);
    json_decref(some);
}

const FixtureNeed fixture_need = FIXTURE_STARTS;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fixture_setup(fixture_need == FIXTURE_STARTS);
    if (size < 2) return 0;
    int what = (uint8_t)(data[0] - 'a') % WHAT_COUNT;
    int pick = (uint8_t)(data[1] - '0') % (fixture_game_count + 1);
    const FixtureGame *g = pick < fixture_game_count ? &fixture_games[pick] : NULL;
    const char *id = g ? g->id : "nosuchgame";
    size_t n = 0;
    while (2 + n < size && data[2 + n] && data[2 + n] != '\r' && data[2 + n] != '\n') n++;
    char *query = fuzz_string(data + 2, n);
    fixture_restore();

    FixtureQuery q;
    fixture_query_parse(&q, query);
    char path[128];
    static const char *const PATHS[WHAT_COUNT] = { "/api/games/%s/diagram.svg", "/api/games/%s", "/api/games/%s/pgn",
                                                   "/api/games/%s/sheets", "/api/games/%s/kibitz", "/api/games",
                                                   "/api/session", "/api/variants", "/api/games/%s/events",
                                                   "/api/leaderboard/chess/correspondence",
                                                   "/api/users/alice/rating-history" };
    snprintf(path, sizeof path, PATHS[what], id);
    if (what == 8) {
        check_events(query, g, &q);
    } else {
        const char *token = what == 5 || what == 6 ? fixture_alice : NULL;
        ApiReply r;
        fixture_request(token, "GET", path, "", 0, &q, &r);
        Request rq = { .path = path, .query = query, .reply = &r };
        const char *error = json_string_value(json_object_get(r.json, "error"));
        FUZZ_SAY("GET %s?%s -> %d %s\n", path, query, r.status, error ? error : r.text ? "(text)" : "");
        /* An error may quote a value: a secret sent is no leak. */
        bool sent[FIXTURE_SECRETS] = { false };
        for (int i = 0; i < q.count; i++) {
            fixture_note_sent(q.args[i].key, strlen(q.args[i].key), sent);
            if (q.args[i].value) fixture_note_sent(q.args[i].value, strlen(q.args[i].value), sent);
        }
        fixture_check_common("GET", path, &r, sent);
        if (what == 0) check_diagram(&rq, g, &q);
        else if (what == 9) check_leaderboard(&rq, &q);
        else if (what == 10) check_history(&rq, &q);
        else check_ignored(&rq, token, path);
        api_reply_free(&r);
    }
    fixture_query_free(&q);
    free(query);
    return 0;
}
