/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Passwords, tokens and the limits on logins and registrations (docs/api.md,
 * "Security and limits").
 *
 * Passwords are kept as libsodium's Argon2id strings (crypto_pwhash_str),
 * which carry their own salt and cost.  Session, invitation and API
 * tokens are SERVER_TOKEN_BYTES random bytes (128 bits) from
 * randombytes_buf; the database keeps only a token's BLAKE2b hash, so that
 * a copy of the database does not open anyone's session.
 *
 * Hashing is the costliest thing the server does for a visitor: about
 * 64 MiB and a good part of a second of one core.  So no more hashes run
 * at once than the machine has cores less one (and at least one), a few
 * more wait their turn, and
 * beyond those a request is answered 503 at once: a flood of logins or
 * registrations then costs a bounded amount of memory and leaves the
 * other requests their share of the processors.
 *
 * A login for a name that does not exist checks the password against a
 * hash made at start-up, so that it costs the same time as a wrong
 * password for a real account: the time of a reply does not tell which
 * names exist.
 *
 * The login limit counts failed logins per name in memory: after
 * SERVER_LOGIN_FAILURES failures within SERVER_LOGIN_WINDOW_S seconds, the
 * name is refused until the window has passed.  Counting by name (not by
 * address) protects an account from guessing spread over many addresses.
 * A check in progress counts as a failure until it is over, so that
 * requests sent together cannot check more passwords than the limit.
 * Registrations are counted per client address in the same way.
 */
#include "server.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- Hashing, one per core ------------------------------------------------ */

static struct {
    pthread_mutex_t lock;
    pthread_cond_t turn;
    int slots;      /* hashes that may run at once: the cores less one */
    int running;
    int waiting;
} hashing = { .lock = PTHREAD_MUTEX_INITIALIZER, .turn = PTHREAD_COND_INITIALIZER, .slots = 1 };

/* A hash of a password nobody knows, checked for names that do not exist. */
static char decoy_hash[crypto_pwhash_STRBYTES];

/* Waits for a core to hash on; false at once when SERVER_HASH_QUEUE
 * requests wait already. */
static bool hashing_enter(void)
{
    pthread_mutex_lock(&hashing.lock);
    bool admitted = hashing.running < hashing.slots || hashing.waiting < SERVER_HASH_QUEUE;
    if (admitted) {
        hashing.waiting++;
        while (hashing.running >= hashing.slots) pthread_cond_wait(&hashing.turn, &hashing.lock);
        hashing.waiting--;
        hashing.running++;
    }
    pthread_mutex_unlock(&hashing.lock);
    return admitted;
}

static void hashing_leave(void)
{
    pthread_mutex_lock(&hashing.lock);
    hashing.running--;
    pthread_cond_signal(&hashing.turn);
    pthread_mutex_unlock(&hashing.lock);
}

#ifdef TTCHESS_FUZZ
/* Only the API fuzzers (fuzz/) are built with TTCHESS_FUZZ, never the
 * server: they register accounts by the thousand, and at the interactive
 * cost each would take 64 MiB and a good part of a second, so a fuzzer
 * would crawl through a few inputs a second and its memory would be the
 * hashes'.  libsodium's least cost hashes in microseconds; checking a
 * password reads the cost from its hash. */
#define HASH_OPS crypto_pwhash_OPSLIMIT_MIN
#define HASH_MEM crypto_pwhash_MEMLIMIT_MIN
#else
/* INTERACTIVE limits: about 64 MiB and a fraction of a second, the cost
 * libsodium recommends for logins. */
#define HASH_OPS crypto_pwhash_OPSLIMIT_INTERACTIVE
#define HASH_MEM crypto_pwhash_MEMLIMIT_INTERACTIVE
#endif

bool auth_init(void)
{
    if (sodium_init() < 0) return false;
    /* One core is kept for everything else: with every core hashing,
     * the other requests would queue behind the hashes for the
     * scheduler's attention. */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    hashing.slots = cores > 1 ? (int)cores - 1 : 1;
    char secret[2 * SERVER_TOKEN_BYTES + 1];
    auth_new_token(secret);
    return crypto_pwhash_str(decoy_hash, secret, strlen(secret), HASH_OPS, HASH_MEM) == 0;
}

AuthStatus auth_hash_password(const char *password, char out[128])
{
    if (!hashing_enter()) return AUTH_BUSY;
    int rc = crypto_pwhash_str(out, password, strlen(password), HASH_OPS, HASH_MEM);
    hashing_leave();
    return rc == 0 ? AUTH_OK : AUTH_FAILED;
}

AuthStatus auth_check_password(const char *hash, const char *password)
{
    if (!hashing_enter()) return AUTH_BUSY;
    int rc = crypto_pwhash_str_verify(hash ? hash : decoy_hash, password, strlen(password));
    hashing_leave();
    return rc == 0 && hash ? AUTH_OK : AUTH_FAILED;
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

/* ---- Counting by name or address --------------------------------------------- */

enum { LIMIT_SLOTS = 1024 };

/* One name's failed logins, or one address's registrations, within a
 * window that opens with the first. */
typedef struct Attempts {
    char key[SERVER_MAX_NAME * 4 + 1];  /* as typed; empty: a free slot  */
    int count;                          /* failures, or registrations    */
    int in_flight;                      /* checks not yet decided        */
    int64_t since_ms;                   /* the window's start            */
} Attempts;

typedef struct AttemptTable {
    Attempts slot[LIMIT_SLOTS];
    pthread_mutex_t lock;
    int window_s;
} AttemptTable;

static AttemptTable logins = { .lock = PTHREAD_MUTEX_INITIALIZER, .window_s = SERVER_LOGIN_WINDOW_S };
static AttemptTable registrations = { .lock = PTHREAD_MUTEX_INITIALIZER, .window_s = SERVER_REGISTER_WINDOW_S };
static _Atomic int register_limit = SERVER_REGISTER_BURST;

static bool expired(const AttemptTable *t, const Attempts *a, int64_t now_ms)
{
    return a->key[0] && !a->in_flight && now_ms - a->since_ms > t->window_s * 1000LL;
}

/* The slot of `key` (names ignore case), or a free or expired one, else
 * the one whose window began first: with every slot taken, counting goes
 * on for the keys tried last rather than stopping for all. */
static Attempts *attempts_of(AttemptTable *t, const char *key, int64_t now_ms)
{
    Attempts *free_slot = NULL, *oldest = &t->slot[0];
    for (int i = 0; i < LIMIT_SLOTS; i++) {
        Attempts *a = &t->slot[i];
        if (a->key[0] && !expired(t, a, now_ms) && !strcasecmp(a->key, key)) return a;
        if (!free_slot && (!a->key[0] || expired(t, a, now_ms))) free_slot = a;
        if (a->since_ms < oldest->since_ms) oldest = a;
    }
    if (!free_slot) free_slot = oldest;
    memset(free_slot, 0, sizeof *free_slot);
    snprintf(free_slot->key, sizeof free_slot->key, "%s", key);
    free_slot->since_ms = now_ms;
    return free_slot;
}

/* Takes one of `limit` attempts for `key`, atomically; false when they
 * are all spent or in flight. */
static bool attempt_take(AttemptTable *t, const char *key, int limit, int64_t now_ms)
{
    pthread_mutex_lock(&t->lock);
    Attempts *a = attempts_of(t, key, now_ms);
    bool allowed = a->count + a->in_flight < limit;
    if (allowed) a->in_flight++;
    pthread_mutex_unlock(&t->lock);
    return allowed;
}

/* Settles an attempt taken: `counts` adds it to the window's count;
 * `clear` forgets the key (a successful login). */
static void attempt_settle(AttemptTable *t, const char *key, bool counts, bool clear, int64_t now_ms)
{
    pthread_mutex_lock(&t->lock);
    Attempts *a = attempts_of(t, key, now_ms);
    if (a->in_flight > 0) a->in_flight--;
    if (counts) a->count++;
    if (clear) a->key[0] = '\0';
    pthread_mutex_unlock(&t->lock);
}

bool auth_login_begin(const char *name, int64_t now_ms)
{
    return attempt_take(&logins, name, SERVER_LOGIN_FAILURES, now_ms);
}

void auth_login_end(const char *name, AuthStatus result, int64_t now_ms)
{
    attempt_settle(&logins, name, result == AUTH_FAILED, result == AUTH_OK, now_ms);
}

void auth_login_forget(const char *name)
{
    pthread_mutex_lock(&logins.lock);
    for (int i = 0; i < LIMIT_SLOTS; i++)
        if (!strcasecmp(logins.slot[i].key, name)) logins.slot[i].key[0] = '\0';
    pthread_mutex_unlock(&logins.lock);
}

void auth_set_register_limit(int per_hour)
{
    register_limit = per_hour > 0 ? per_hour : SERVER_REGISTER_BURST;
}

int auth_register_limit(void)
{
    return register_limit;
}

bool auth_register_allowed(const char *address, int64_t now_ms)
{
    /* A request made inside the server (no address) is not a visitor's. */
    if (!address) return true;
    if (!attempt_take(&registrations, address, register_limit, now_ms)) return false;
    attempt_settle(&registrations, address, true, false, now_ms);
    return true;
}
