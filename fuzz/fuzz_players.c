/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Players' pages (docs/api.md, "Players and the archive"): GET requests
 * to api_handle on the database of fuzz/api_fixture.h (its base games:
 * alice against bob, $7 over: alice resigned), put back before each
 * input.
 *
 * The first byte picks the request (counted from 'a', modulo 4), the
 * second the player (counted from '0', modulo 4: alice, BOB, nobody, a
 * name no player can have):
 *
 *     a GET /api/users/NAME/games      b GET /api/users/NAME/games.pgn
 *     c GET /api/users/NAME/current    d GET /api/users/NAME/stats
 *
 * The rest, up to a NUL, CR or LF, is the query string, split and
 * %-decoded as libmicrohttpd does (api_fixture.c).  Every reply passes
 * fixture_check_common (a streamed PGN read to its end).  Then: an
 * unknown player is 404; the listing's status is the one worked out here
 * from the filters (400 for the first of variant, result, max, until and
 * opponent whose value is not one of those allowed: a variant's name, won
 * drawn or lost, a whole number of 1..500, of 1..15 digits, another
 * player's name), else 200; a 200 is NDJSON: at most max lines (100 by
 * default), each a JSON object of the player's finished games, newest
 * first, of the variant and with the result asked for.
 */
#include "api_fixture.h"

#include <string.h>
#include <strings.h>

#include "registry.h"

static const char *const NAMES[] = { "alice", "BOB", "nobody", "a%20b" };

/* A whole number of 1..15 digits in lo..hi. */
static bool number_in(const char *v, long long lo, long long hi, long long *out)
{
    size_t n = strlen(v);
    if (n == 0 || n > 15 || strspn(v, "0123456789") != n) return false;
    *out = atoll(v);
    return *out >= lo && *out <= hi;
}

/* The status the listing must answer, from the arguments as http.c
 * would look them up; *max the lines it may hold. */
static int expected_status(FixtureQuery *q, const char *player, long long *max, const char **variant,
                           const char **result)
{
    const char *v = fixture_query_value(q, "variant"), *r = fixture_query_value(q, "result");
    const char *m = fixture_query_value(q, "max"), *u = fixture_query_value(q, "until");
    const char *o = fixture_query_value(q, "opponent");
    long long number;
    *max = 100;
    *variant = v && *v ? v : NULL;
    *result = r && *r ? r : NULL;
    if (*variant && !variant_find(v)) return 400;
    if (*result && strcmp(r, "won") && strcmp(r, "drawn") && strcmp(r, "lost")) return 400;
    if (m && !number_in(m, 1, 500, max)) return 400;
    if (u && !number_in(u, 1, 999999999999999LL, &number)) return 400;
    if (o && *o && (!strcasecmp(o, player) || (strcasecmp(o, "alice") && strcasecmp(o, "bob")))) return 400;
    return 200;
}

/* A 200 listing: NDJSON of finished games, newest first, as filtered. */
static void check_listing(const char *text, long long max, const char *variant, const char *result, bool alice)
{
    int lines = 0;
    long long last = -1;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        FUZZ_CHECK(end, "a line of the listing does not end with a line feed: %s", p);
        json_error_t e;
        json_t *o = json_loadb(p, (size_t)(end - p), 0, &e);
        FUZZ_CHECK(json_is_object(o), "a line is not a JSON object: %.*s", (int)(end - p), p);
        long long created = json_integer_value(json_object_get(o, "created"));
        FUZZ_CHECK(last < 0 || created <= last, "the listing is not newest first");
        last = created;
        FUZZ_CHECK(!strcmp(json_string_value(json_object_get(o, "status")), "over"), "a game not over is listed");
        if (variant) {
            const Variant *v = variant_find(variant);
            FUZZ_CHECK(!strcmp(json_string_value(json_object_get(o, "variant")), v->name), "a game of another variant");
        }
        if (result) {
            const char *res = json_string_value(json_object_get(o, "result"));
            const char *mine = alice ? "0-1" : "1-0";   /* $7: alice resigned as White */
            bool won = !strcmp(res, alice ? "1-0" : "0-1"), lost = !strcmp(res, mine);
            bool drawn = !strcmp(res, "1/2-1/2");
            FUZZ_CHECK(!strcmp(result, "won") ? won : !strcmp(result, "lost") ? lost : drawn,
                       "a game of another result than %s: %s", result, res);
        }
        json_decref(o);
        lines++;
        p = end + 1;
    }
    FUZZ_CHECK(lines <= max, "%d lines, more than max %lld", lines, max);
}

const FixtureNeed fixture_need = FIXTURE_BASE;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fixture_setup(false);
    if (size < 2) return 0;
    int what = (uint8_t)(data[0] - 'a') % 4, who = (uint8_t)(data[1] - '0') % 4;
    size_t n = 0;
    while (2 + n < size && data[2 + n] && data[2 + n] != '\r' && data[2 + n] != '\n') n++;
    char *query = fuzz_string(data + 2, n);
    fixture_restore();
    FixtureQuery q;
    fixture_query_parse(&q, query);
    static const char *const PATHS[] = { "/api/users/%s/games", "/api/users/%s/games.pgn", "/api/users/%s/current",
                                         "/api/users/%s/stats" };
    char path[128];
    snprintf(path, sizeof path, PATHS[what], NAMES[who]);
    ApiReply r;
    fixture_request(NULL, "GET", path, "", 0, &q, &r);
    FUZZ_SAY("GET %s?%s -> %d\n", path, query, r.status);
    bool sent[FIXTURE_SECRETS] = { false };
    for (int i = 0; i < q.count; i++) {
        fixture_note_sent(q.args[i].key, strlen(q.args[i].key), sent);
        if (q.args[i].value) fixture_note_sent(q.args[i].value, strlen(q.args[i].value), sent);
    }
    fixture_check_common("GET", path, &r, sent);
    if (who >= 2) {
        FUZZ_CHECK(r.status == 404, "GET %s: %d for no player", path, r.status);
    } else if (what == 0) {
        long long max;
        const char *variant, *result;
        int expected = expected_status(&q, who == 0 ? "alice" : "bob", &max, &variant, &result);
        FUZZ_CHECK(r.status == expected, "GET %s?%s: %d, expected %d", path, query, r.status, expected);
        if (r.status == 200) check_listing(r.text, max, variant, result, who == 0);
    } else {
        FUZZ_CHECK(r.status == 200, "GET %s: %d", path, r.status);
    }
    api_reply_free(&r);
    fixture_query_free(&q);
    free(query);
    return 0;
}
