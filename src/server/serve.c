/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ttchess serve: parses the command line, opens the database, starts the
 * daemon and runs until SIGINT or SIGTERM.
 */
#include "server.h"

#include <pthread.h>
#include <signal.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char HELP_SERVE[] =
    "usage: ttchess serve [--host ADDRESS] [--port N] [--db FILE|URL] [--static DIR] [--origin URL]\n"
    "                     [--max-connections-per-address N] [--trust-proxy]\n"
    "                     [--registrations-per-hour N] [--engine-workers N]\n"
    "                     [--arena-minute-ms N]\n"
    "                     [--smtp URL --mail-from ADDRESS [--smtp-user U --smtp-password-file F]]\n"
    "                     [--public-url URL]\n"
    "\n"
    "Runs the web server: people register, create games of every variant, play\n"
    "each other live or by correspondence, or play the engine, in the browser\n"
    "(docs/api.md describes the HTTP API).\n"
    "\n"
    "  --host ADDRESS  the IPv4 address to listen on (default 127.0.0.1)\n"
    "  --port N        the port (default 8080)\n"
    "  --db FILE       the SQLite database, created when missing (default\n"
    "                  data/ttchess.db; its folder is created too)\n"
    "  --db postgresql://USER@HOST:PORT/DATABASE\n"
    "                  a PostgreSQL database instead (libpq's URL, with any of\n"
    "                  its parameters): several servers on one database share\n"
    "                  their games and live updates\n"
    "  --static DIR    the browser client's built files (default web/dist)\n"
    "  --origin URL    an extra Origin accepted on state-changing requests, for\n"
    "                  a server behind a proxy (http://127.0.0.1:PORT and\n"
    "                  http://localhost:PORT are always accepted); an https://\n"
    "                  one makes the session cookie Secure\n"
    "  --max-connections-per-address N\n"
    "                  connections one client address may hold at once, 1 to\n"
    "                  1024 (default 32); more are answered 429\n"
    "  --trust-proxy   the server is behind a reverse proxy: a client's address\n"
    "                  is the last one of the X-Forwarded-For header (without\n"
    "                  this option the header is ignored: anyone could write it)\n"
    "  --registrations-per-hour N\n"
    "                  accounts one client address may create in an hour, 1 to\n"
    "                  100000 (default 5)\n"
    "  --engine-workers N\n"
    "                  engine games thinking at once, 1 to 64 (default: one a\n"
    "                  core); each worker searches with one thread and an 8 MB\n"
    "                  table\n"
    "  --arena-minute-ms N\n"
    "                  how long a minute of an arena tournament lasts, 100 to\n"
    "                  60000 ms (default 60000): short arenas for tests\n"
    "  --smtp smtp://HOST:PORT\n"
    "                  send the correspondence mails (an address confirmed, an\n"
    "                  opponent's move, a reminder) through this SMTP server,\n"
    "                  with STARTTLS when it offers it (smtps:// for TLS from\n"
    "                  the start); without it the e-mail options are hidden\n"
    "  --mail-from ADDRESS   the mails' sender (needed with --smtp)\n"
    "  --smtp-user U, --smtp-password-file F\n"
    "                  log in to the SMTP server (the password is the file's\n"
    "                  first line, kept off the command line)\n"
    "  --public-url URL  the site's address in the mails' links (default: the\n"
    "                  address the request came to, or --origin)\n"
    "  --mail-lease-seconds N, --mail-scan-seconds N\n"
    "                  a mail claimed by a server that died is sent after N\n"
    "                  seconds (default 300); the reminders are looked for every\n"
    "                  N seconds (default 60)\n";

int64_t server_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
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

/* A database URL as it may be shown: a password in it is left out. */
static const char *without_password(const char *target, char *out, size_t size)
{
    const char *scheme = strstr(target, "://");
    const char *at = scheme ? strchr(scheme + 3, '@') : NULL;
    const char *colon = at ? memchr(scheme + 3, ':', (size_t)(at - scheme - 3)) : NULL;
    if (!colon) snprintf(out, size, "%s", target);
    else snprintf(out, size, "%.*s:***%s", (int)(colon - target), target, at);
    return out;
}

/* Each connection is a file descriptor, held by the gate while its
 * request comes and by a thread while it is served: the soft limit
 * (often 1024) is raised to the hard one, and a server that still could
 * not hold its limits says so. */
static void raise_file_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    /* The connections waiting and served, those refused and lingering,
     * and a margin for the database and the rest. */
    rlim_t needed = 2 * SERVER_MAX_PENDING + SERVER_MAX_CONNECTIONS + 64;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < needed)
        fprintf(stderr,
                "warning: this process may open %llu files; with fewer than %llu, connections beyond that wait "
                "in the kernel's queue (ulimit -n raises the limit)\n",
                (unsigned long long)rl.rlim_cur, (unsigned long long)needed);
}

static bool number(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* The command line into cfg: -1 to go on, or the exit code (0 after
 * --help, 2 after a bad option). */
static int read_options(int argc, char **argv, ServerConfig *cfg)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(HELP_SERVE, stdout);
            return 0;
        }
        if (!strcmp(a, "--trust-proxy")) {
            cfg->trust_proxy = true;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "error: %s needs a value (see ttchess serve --help)\n", a);
            return 2;
        }
        const char *v = argv[++i];
        long n;
        if (!strcmp(a, "--host")) cfg->host = v;
        else if (!strcmp(a, "--port") && number(v, 1, 65535, &n)) cfg->port = (int)n;
        else if (!strcmp(a, "--db")) cfg->db_path = v;
        else if (!strcmp(a, "--static")) cfg->static_dir = v;
        else if (!strcmp(a, "--origin")) cfg->origin = v;
        else if (!strcmp(a, "--max-connections-per-address") && number(v, 1, SERVER_MAX_CONNECTIONS, &n))
            cfg->max_per_address = (int)n;
        else if (!strcmp(a, "--registrations-per-hour") && number(v, 1, 100000, &n))
            cfg->registrations_per_hour = (int)n;
        else if (!strcmp(a, "--smtp") && (!strncmp(v, "smtp://", 7) || !strncmp(v, "smtps://", 8))) cfg->smtp = v;
        else if (!strcmp(a, "--smtp-user")) cfg->smtp_user = v;
        else if (!strcmp(a, "--smtp-password-file")) cfg->smtp_password_file = v;
        else if (!strcmp(a, "--mail-from")) cfg->mail_from = v;
        else if (!strcmp(a, "--public-url")) cfg->public_url = v;
        else if (!strcmp(a, "--mail-lease-seconds") && number(v, 1, 86400, &n)) cfg->mail_lease_s = (int)n;
        else if (!strcmp(a, "--mail-scan-seconds") && number(v, 1, 86400, &n)) cfg->mail_scan_s = (int)n;
        else if (!strcmp(a, "--engine-workers") && number(v, 1, SERVER_MAX_ENGINE_WORKERS, &n))
            cfg->engine_workers = (int)n;
        else if (!strcmp(a, "--arena-minute-ms") && number(v, 100, 60000, &n))
            tournaments_set_minute_ms((int)n);
        else {
            fprintf(stderr, "error: %s '%s' is not an option of serve, or not a valid value (see ttchess serve --help)\n",
                    a, v);
            return 2;
        }
    }
    return -1;
}

/* How the process keeps its memory while it serves. */
static void keep_memory(void)
{
#ifdef __GLIBC__
    /* Requests allocate and free the positions of their games by the
     * thousand; left to itself, glibc gives the freed memory back to the
     * system after each and maps it again for the next (page faults were
     * a third of a request's time).  The server keeps it instead. */
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_TOP_PAD, 4 << 20);
    mallopt(M_MMAP_THRESHOLD, 16 << 20);
#endif
}

/* The running parts of the server, in the order they start. */
typedef struct Running {
    Store store;
    struct Server *srv;
    struct Opponent *engine;
    struct Clocks *clocks;
    struct TournamentTimer *tournaments;
    struct Mailer *mailer;   /* NULL without --smtp                      */
} Running;

/* Opens the database and starts the daemon, the engine and the clocks;
 * false with the reason in err, and what had started stopped again. */
static bool start_all(const ServerConfig *cfg, Running *run, Text *err)
{
    bool postgres = !strncmp(cfg->db_path, "postgresql://", 13) || !strncmp(cfg->db_path, "postgres://", 11);
    if (!postgres) make_parent(cfg->db_path);
    if (!store_open(&run->store, cfg->db_path, err) || !store_listen(&run->store, events_notify, err)) return false;
    run->store.cache = cache_new(SERVER_CACHED_GAMES);
    run->srv = server_start(cfg, &run->store, err);
    if (!run->srv) {
        store_close(&run->store);
        return false;
    }
    run->engine = opponent_start(&run->store, cfg->engine_workers, err);
    if (!run->engine) {
        server_stop(run->srv);
        store_close(&run->store);
        return false;
    }
    run->clocks = clocks_start(&run->store, err);
    run->tournaments = run->clocks ? tournaments_start(&run->store, err) : NULL;
    run->mailer = run->tournaments ? mail_start(&run->store, cfg, err) : NULL;
    if (run->tournaments && cfg->smtp && !run->mailer) {
        tournaments_stop(run->tournaments);
        run->tournaments = NULL;
    }
    if (!run->tournaments) {
        clocks_stop(run->clocks, &run->store);
        opponent_stop(run->engine, &run->store);
        server_stop(run->srv);
        store_close(&run->store);
        return false;
    }
    return true;
}

/*
 * SIGINT and SIGTERM stop the server.  They are blocked in every thread
 * (the threads started later inherit the mask) and taken by the main
 * thread alone with sigwait: a handler that set a flag for the main
 * thread's pause() lost the signal whenever another thread took it, or
 * when it came between the test of the flag and pause(), and the server
 * then ran on until a second signal.
 */
static void block_stop_signals(sigset_t *stop)
{
    sigemptyset(stop);
    sigaddset(stop, SIGINT);
    sigaddset(stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* A write past a file-size limit then fails with EFBIG, which the
     * database reports and the server answers 503, instead of the signal
     * killing the process. */
    signal(SIGXFSZ, SIG_IGN);
}

static void wait_for_stop(const sigset_t *stop)
{
    int sig;
    while (sigwait(stop, &sig) != 0) continue;
}

int cmd_serve(int argc, char **argv)
{
    ServerConfig cfg = { .host = "127.0.0.1", .port = 8080, .db_path = "data/ttchess.db", .static_dir = "web/dist",
                         .max_per_address = SERVER_MAX_PER_ADDRESS,
                         .registrations_per_hour = SERVER_REGISTER_BURST };
    int done = read_options(argc, argv, &cfg);
    if (done >= 0) return done;
    if (!auth_init()) {
        fprintf(stderr, "error: libsodium could not start\n");
        return 1;
    }
    auth_set_register_limit(cfg.registrations_per_hour);
    raise_file_limit();
    keep_memory();
    sigset_t stop;
    block_stop_signals(&stop);
    Running run;
    Text err = TEXT_INIT;
    if (!start_all(&cfg, &run, &err)) {
        fprintf(stderr, "error: %s\n", text_str(&err));
        text_free(&err);
        return 1;
    }
    char shown[512];
    printf("ttchess serve: http://%s:%d/ (%s database %s; Ctrl-C stops)\n", cfg.host, cfg.port,
           store_kind(&run.store), without_password(cfg.db_path, shown, sizeof shown));
    fflush(stdout);
    wait_for_stop(&stop);
    printf("ttchess serve: stopping\n");
    mail_stop(run.mailer);
    tournaments_stop(run.tournaments);
    clocks_stop(run.clocks, &run.store);
    opponent_stop(run.engine, &run.store);
    server_stop(run.srv);
    cache_free(run.store.cache);
    store_close(&run.store);
    text_free(&err);
    return 0;
}
