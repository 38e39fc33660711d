/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Passwords, tokens and the login rate limit (docs/api.md, "Security").
 *
 * Passwords are kept as libsodium's Argon2id strings (crypto_pwhash_str),
 * which carry their own salt and cost.  Session and invitation tokens are
 * SERVER_TOKEN_BYTES random bytes (128 bits) from randombytes_buf; the
 * database keeps only a session token's BLAKE2b hash, so that a copy of
 * the database does not open anyone's session.
 *
 * The rate limit counts failed logins per name in memory: after
 * SERVER_LOGIN_FAILURES failures within SERVER_LOGIN_WINDOW_S seconds, the
 * name is refused until the window has passed.  Counting by name (not by
 * address) protects an account from guessing spread over many addresses;
 * the table is small and forgets a name once its window is over.
 */
#include "server.h"

#include <sodium.h>
#include <string.h>
#include <strings.h>

bool auth_init(void) { return sodium_init() >= 0; }

bool auth_hash_password(const char *password, char out[128])
{
#ifdef TTCHESS_FUZZ
    /* Only the API fuzzer (fuzz/fuzz_api.c) is built with TTCHESS_FUZZ,
     * never the server: it registers accounts by the thousand, and at the
     * interactive cost each would take 64 MiB and a good part of a second,
     * so the fuzzer would crawl through a few inputs a second and its
     * memory would be the hashes'.  libsodium's least cost hashes in
     * microseconds; checking a password reads the cost from its hash. */
    return crypto_pwhash_str(out, password, strlen(password), crypto_pwhash_OPSLIMIT_MIN,
                             crypto_pwhash_MEMLIMIT_MIN) == 0;
#else
    /* INTERACTIVE limits: about 64 MiB and a fraction of a second, the
     * cost libsodium recommends for logins. */
    return crypto_pwhash_str(out, password, strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                             crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0;
#endif
}

bool auth_check_password(const char *hash, const char *password)
{
    return crypto_pwhash_str_verify(hash, password, strlen(password)) == 0;
}

void auth_new_token(char out[2 * SERVER_TOKEN_BYTES + 1])
{
    unsigned char bytes[SERVER_TOKEN_BYTES];
    randombytes_buf(bytes, sizeof bytes);
    sodium_bin2hex(out, 2 * SERVER_TOKEN_BYTES + 1, bytes, sizeof bytes);
}

bool auth_coin(void) { return randombytes_uniform(2) == 1; }

void auth_token_hash(const char *token, char out[65])
{
    unsigned char digest[32];
    crypto_generichash(digest, sizeof digest, (const unsigned char *)token, strlen(token), NULL, 0);
    sodium_bin2hex(out, 65, digest, sizeof digest);
}

/* ---- The login rate limit ------------------------------------------------ */

enum { LIMIT_SLOTS = 256 };

typedef struct LoginFailures {
    char name[SERVER_MAX_NAME * 4 + 1];  /* as typed; empty: a free slot */
    int count;
    int64_t since_ms;                    /* the first failure of the window */
} LoginFailures;

static LoginFailures failures[LIMIT_SLOTS];
static pthread_mutex_t failures_lock = PTHREAD_MUTEX_INITIALIZER;

/* The slot of `name`, or (create) a free or expired one, else the one
 * whose window began first: with every slot taken, counting goes on for
 * the names tried last rather than stopping for all. */
static LoginFailures *slot_of(const char *name, int64_t now_ms, bool create)
{
    LoginFailures *free_slot = NULL, *oldest = &failures[0];
    for (int i = 0; i < LIMIT_SLOTS; i++) {
        LoginFailures *f = &failures[i];
        bool expired = f->name[0] && now_ms - f->since_ms > SERVER_LOGIN_WINDOW_S * 1000LL;
        if (f->name[0] && !expired && !strcasecmp(f->name, name)) return f;
        if (!free_slot && (!f->name[0] || expired)) free_slot = f;
        if (f->since_ms < oldest->since_ms) oldest = f;
    }
    if (!create) return NULL;
    if (!free_slot) free_slot = oldest;
    memset(free_slot, 0, sizeof *free_slot);
    snprintf(free_slot->name, sizeof free_slot->name, "%s", name);
    free_slot->since_ms = now_ms;
    return free_slot;
}

bool auth_login_allowed(const char *name, int64_t now_ms)
{
    pthread_mutex_lock(&failures_lock);
    LoginFailures *f = slot_of(name, now_ms, false);
    bool allowed = !f || f->count < SERVER_LOGIN_FAILURES;
    pthread_mutex_unlock(&failures_lock);
    return allowed;
}

void auth_login_failed(const char *name, int64_t now_ms)
{
    pthread_mutex_lock(&failures_lock);
    LoginFailures *f = slot_of(name, now_ms, true);
    if (f) f->count++;
    pthread_mutex_unlock(&failures_lock);
}

void auth_login_succeeded(const char *name)
{
    pthread_mutex_lock(&failures_lock);
    for (int i = 0; i < LIMIT_SLOTS; i++)
        if (failures[i].name[0] && !strcasecmp(failures[i].name, name)) failures[i].name[0] = '\0';
    pthread_mutex_unlock(&failures_lock);
}
