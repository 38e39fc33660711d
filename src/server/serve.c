/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ttchess serve: parses the command line, opens the database, starts the
 * daemon and runs until SIGINT or SIGTERM.
 */
#include "server.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char HELP_SERVE[] =
    "usage: ttchess serve [--host ADDRESS] [--port N] [--db FILE] [--static DIR] [--origin URL]\n"
    "\n"
    "Runs the web server: people register, create games of every variant, play\n"
    "each other live or by correspondence, or play the engine, in the browser\n"
    "(docs/api.md describes the HTTP API).\n"
    "\n"
    "  --host ADDRESS  the IPv4 address to listen on (default 127.0.0.1)\n"
    "  --port N        the port (default 8080)\n"
    "  --db FILE       the SQLite database, created when missing (default\n"
    "                  data/ttchess.db; its folder is created too)\n"
    "  --static DIR    the browser client's built files (default web/dist)\n"
    "  --origin URL    an extra Origin accepted on state-changing requests, for\n"
    "                  a server behind a proxy (http://127.0.0.1:PORT and\n"
    "                  http://localhost:PORT are always accepted)\n";

int64_t server_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
    (void)sig;
    stopping = 1;
}

/* Creates the folder of the database file when it is missing. */
static void make_parent(const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return;
    *slash = '\0';
    mkdir(dir, 0755);
}

static bool number(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

int cmd_serve(int argc, char **argv)
{
    ServerConfig cfg = { .host = "127.0.0.1", .port = 8080, .db_path = "data/ttchess.db", .static_dir = "web/dist" };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(HELP_SERVE, stdout);
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "error: %s needs a value (see ttchess serve --help)\n", a);
            return 2;
        }
        const char *v = argv[++i];
        long n;
        if (!strcmp(a, "--host")) cfg.host = v;
        else if (!strcmp(a, "--port") && number(v, 1, 65535, &n)) cfg.port = (int)n;
        else if (!strcmp(a, "--db")) cfg.db_path = v;
        else if (!strcmp(a, "--static")) cfg.static_dir = v;
        else if (!strcmp(a, "--origin")) cfg.origin = v;
        else {
            fprintf(stderr, "error: %s '%s' is not an option of serve, or not a valid value (see ttchess serve --help)\n",
                    a, v);
            return 2;
        }
    }
    if (!auth_init()) {
        fprintf(stderr, "error: libsodium could not start\n");
        return 1;
    }
    Store store;
    Text err = TEXT_INIT;
    make_parent(cfg.db_path);
    if (!store_open(&store, cfg.db_path, &err)) {
        fprintf(stderr, "error: %s\n", text_str(&err));
        text_free(&err);
        return 1;
    }
    struct Server *srv = server_start(&cfg, &store, &err);
    if (!srv) {
        fprintf(stderr, "error: %s\n", text_str(&err));
        text_free(&err);
        store_close(&store);
        return 1;
    }
    struct Opponent *engine = opponent_start(&store, &err);
    if (!engine) {
        fprintf(stderr, "error: %s\n", text_str(&err));
        text_free(&err);
        server_stop(srv);
        store_close(&store);
        return 1;
    }
    struct sigaction sa = { .sa_handler = on_signal };
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    printf("ttchess serve: http://%s:%d/ (database %s; Ctrl-C stops)\n", cfg.host, cfg.port, cfg.db_path);
    fflush(stdout);
    while (!stopping) pause();
    printf("ttchess serve: stopping\n");
    opponent_stop(engine, &store);
    server_stop(srv);
    store_close(&store);
    text_free(&err);
    return 0;
}
