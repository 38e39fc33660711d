/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Games kept replayed between requests.  The database is the one truth
 * (server.h), and a game is rebuilt from its stored actions; but replaying
 * a long game of a time-travel variant for every request is most of the
 * server's work.  So a request that is done with a game leaves it here,
 * under its id and the version of its row (store.c raises the version with
 * every write of a game, here or on another server), and the next request
 * that reads the same version takes it instead of replaying.  An entry
 * whose row has moved on is used only when play_restore can bring it up
 * to date, else freed: an entry can be old, never wrong.
 *
 * A game taken is out of the cache until it is put back, so two requests
 * never share one; the second simply replays.  The least recently used
 * entry makes room for a new one.
 */
#include "server.h"

#include <stdlib.h>
#include <string.h>

typedef struct CacheEntry {
    char id[64];
    int64_t version;
    uint64_t used;       /* the cache's clock when last put back; 0: empty */
    Game game;
} CacheEntry;

struct GameCache {
    pthread_mutex_t lock;
    int capacity;
    uint64_t clock;
    CacheEntry *entries;
};

GameCache *cache_new(int capacity)
{
    GameCache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->entries = calloc((size_t)capacity, sizeof *c->entries);
    if (!c->entries) {
        free(c);
        return NULL;
    }
    c->capacity = capacity;
    pthread_mutex_init(&c->lock, NULL);
    return c;
}

void cache_free(GameCache *c)
{
    if (!c) return;
    for (int i = 0; i < c->capacity; i++)
        if (c->entries[i].used) game_free(&c->entries[i].game);
    pthread_mutex_destroy(&c->lock);
    free(c->entries);
    free(c);
}

bool cache_take_any(GameCache *c, const char *id, int64_t *version, Game *out)
{
    if (!c) return false;
    bool found = false;
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->capacity && !found; i++) {
        CacheEntry *e = &c->entries[i];
        if (e->used && !strcmp(e->id, id)) {
            *out = e->game;
            *version = e->version;
            e->used = 0;
            found = true;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return found;
}

void cache_put(GameCache *c, const char *id, int64_t version, Game *g)
{
    if (!c || strlen(id) >= sizeof c->entries[0].id) {
        game_free(g);
        return;
    }
    Game evicted = { 0 };
    bool evict = false;
    pthread_mutex_lock(&c->lock);
    /* The slot: this game's older entry, else an empty one, else the least
     * recently used. */
    int slot = -1;
    for (int i = 0; i < c->capacity; i++) {
        CacheEntry *e = &c->entries[i];
        if (e->used && !strcmp(e->id, id)) {
            slot = i;
            break;
        }
        if (slot < 0 || (c->entries[slot].used && (!e->used || e->used < c->entries[slot].used))) slot = i;
    }
    CacheEntry *e = &c->entries[slot];
    if (e->used) {
        evicted = e->game;
        evict = true;
    }
    snprintf(e->id, sizeof e->id, "%s", id);
    e->version = version;
    e->game = *g;
    e->used = ++c->clock;
    pthread_mutex_unlock(&c->lock);
    /* Freeing a game takes a while: outside the lock. */
    if (evict) game_free(&evicted);
    memset(g, 0, sizeof *g);
}
