/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The correspondence mails (docs/api.md, "E-mail"): a confirmation for a
 * new address, a mail when a correspondence opponent has moved, and a
 * reminder when a third of the time for a move is left.
 *
 * Every mail is first a row of the database's queue (store_mail.c),
 * written under a unique key: a "moved" mail in the transaction of the
 * action itself, so that a move committed has its mail and a move rolled
 * back has none; a reminder by a periodic scan of the games, which every
 * server may run, the key making one row of it.  A thread sends them:
 * it claims a row, sends it through SMTP (smtp.c) and marks it sent.
 *
 * The delivery is at least once, with duplicates bounded to one narrow
 * case.  A claim lasts --mail-lease-seconds: a server that dies after its
 * claim and before the SMTP server accepted the mail loses nothing (the
 * claim expires and the mail goes later, once).  A server that dies
 * after the SMTP server's "250" for the message and before its "sent" is
 * committed (a few milliseconds) sends it again after the lease; the
 * copy carries the same Message-ID, by which mail readers fold
 * duplicates.  The other choice, marking the row sent before sending,
 * would lose that mail instead: a lost "your move" costs a game on time,
 * a repeated one costs nothing.  A mail the SMTP server refuses is tried
 * again MAIL_ATTEMPTS times, then marked failed.
 */
#include "server.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    MAIL_ATTEMPTS = 5,            /* sends tried before a mail is marked failed     */
    MAIL_TICK_MS = 1000,          /* the sender looks at the queue at least this often */
    MAIL_DAY_MS = 24 * 3600 * 1000,
    MAIL_MAX_ADDRESS = 254,       /* RFC 5321's limit of a path                     */
};

struct Mailer {
    Store *store;
    SmtpConfig smtp;
    char *password;
    int64_t lease_ms, scan_ms;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool woken;
    atomic_bool stopping;
};

/* One sender a process; the handlers ask it whether mail is on, and the
 * base of its links. */
static atomic_bool enabled;
static const char *public_url;
static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;
static struct Mailer *running;

bool mail_enabled(void)
{
    return enabled;
}

void mail_wake(void)
{
    pthread_mutex_lock(&wake_lock);
    if (running) {
        pthread_mutex_lock(&running->lock);
        running->woken = true;
        pthread_cond_signal(&running->wake);
        pthread_mutex_unlock(&running->lock);
    }
    pthread_mutex_unlock(&wake_lock);
}

/* ---- Addresses ------------------------------------------------------------ */

/* A domain: labels of letters, digits and '-', not starting or ending
 * with '-', at least two of them. */
static bool domain_valid(const char *d)
{
    int labels = 0;
    size_t len = 0;
    for (const char *p = d;; p++) {
        if (*p == '.' || !*p) {
            if (!len || p[-1] == '-' || len > 63) return false;
            labels++;
            len = 0;
            if (!*p) break;
        } else if (isalnum((unsigned char)*p) || (*p == '-' && len)) {
            len++;
        } else {
            return false;
        }
    }
    return labels >= 2;
}

/* A local part: printable ASCII without spaces or the characters that
 * need quoting, no leading, trailing or double dot.  Quoted local parts
 * and address literals are refused: nobody needs them for a game's mail,
 * and they are where header injection and parser confusion live. */
bool mail_address_valid(const char *address)
{
    size_t n = strlen(address);
    const char *at = strchr(address, '@');
    if (n > MAIL_MAX_ADDRESS || !at || at == address || at - address > 64 || strchr(at + 1, '@')) return false;
    for (const char *p = address; p < at; p++) {
        unsigned char c = (unsigned char)*p;
        if (c <= ' ' || c >= 127 || strchr("\"(),:;<>[\\]", c)) return false;
        if (c == '.' && (p == address || p + 1 == at || p[1] == '.')) return false;
    }
    return domain_valid(at + 1);
}

/* ---- Mails ------------------------------------------------------------------ */

/* The base of the links: --public-url, else the site the request came to. */
static const char *link_base(const char *site)
{
    return public_url ? public_url : site ? site : "http://127.0.0.1:8080";
}

bool mail_confirmation(Store *s, int64_t user, const char *name, const char *address, const char *token,
                       const char *site)
{
    char ukey[96], subject[128], body[1024], hash[65];
    auth_token_hash(token, hash);
    snprintf(ukey, sizeof ukey, "confirm:%lld:%.16s", (long long)user, hash);
    snprintf(subject, sizeof subject, "Confirm your e-mail address on ttchess");
    snprintf(body, sizeof body,
             "Hello %s,\r\n\r\nSomeone, probably you, gave this address to ttchess for the mails of your\r\n"
             "correspondence games.  Follow this link within 24 hours to confirm it:\r\n\r\n"
             "%s/api/account/email/confirm?token=%s\r\n\r\nIf it was not you, ignore this mail: nothing will be sent "
             "to you.\r\n",
             name, link_base(site), token);
    MailRow m = { .ukey = ukey, .user = user, .address = (char *)address, .subject = subject, .body = body };
    return store_mail_add(s, &m, server_now_ms());
}

/* The player in the seat of colour `side`, by name. */
static const char *seat_name(const GameRow *row, int side)
{
    const char *name = side == 0 ? row->white_name : row->black_name;
    return name ? name : "your opponent";
}

bool mail_after_action(Store *s, const GameRow *row, int old_ply, const char *mover, const char *site)
{
    if (!enabled || row->days_per_move <= 0 || strcmp(row->status, "active") || row->ply <= old_ply) return true;
    int64_t to = row->to_move == 0 ? row->white : row->black;
    const char *to_name = seat_name(row, row->to_move);
    if (to <= 0 || !strcmp(to_name, mover)) return true;
    char ukey[128], subject[160], body[1024];
    snprintf(ukey, sizeof ukey, "moved:%s:%d:%lld", row->id, row->ply, (long long)to);
    snprintf(subject, sizeof subject, "%s has moved: your move in game %s", mover, row->id);
    snprintf(body, sizeof body,
             "Hello %s,\r\n\r\n%s has moved in your correspondence game (%s).  It is your move:\r\n\r\n"
             "%s/games/%s\r\n\r\nYou have %d day%s for it.  (Your account page says which mails you get.)\r\n",
             to_name, mover, row->variant, link_base(site), row->id, row->days_per_move,
             row->days_per_move == 1 ? "" : "s");
    MailRow m = { .ukey = ukey, .user = to, .subject = subject, .body = body };
    return store_mail_add_if(s, &m, false, server_now_ms());
}

/* The reminders due now, enqueued (each once: its key has the time of
 * the last action, which tells one move's time from the next). */
static void enqueue_reminders(Store *s, int64_t now)
{
    json_t *due = json_array();
    if (!due || !store_reminders_due(s, now, MAIL_DAY_MS, due)) {
        json_decref(due);
        return;
    }
    size_t i;
    json_t *e;
    json_array_foreach(due, i, e) {
        const char *game = json_string_value(json_object_get(e, "game"));
        json_int_t moved_at = json_integer_value(json_object_get(e, "moved_at"));
        json_int_t user = json_integer_value(json_object_get(e, "user"));
        json_int_t hours = (json_integer_value(json_object_get(e, "deadline")) - now) / 3600000;
        char ukey[128], subject[160], body[1024];
        snprintf(ukey, sizeof ukey, "reminder:%s:%lld:%lld", game, (long long)moved_at, (long long)user);
        snprintf(subject, sizeof subject, "Reminder: your move in game %s", game);
        snprintf(body, sizeof body,
                 "Hello,\r\n\r\nA third of your time for this move, or less, is left (about %lld hour%s):\r\n\r\n"
                 "%s/games/%s\r\n\r\nWhen the time is up the game is lost on time.\r\n",
                 (long long)hours, hours == 1 ? "" : "s", link_base(NULL), game);
        MailRow m = { .ukey = ukey, .user = user, .subject = subject, .body = body };
        store_mail_add_if(s, &m, true, now);
    }
    json_decref(due);
}

/* RFC 5322's date, in English whatever the locale. */
static void mail_date(int64_t now_ms, char out[64])
{
    static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
    static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
    time_t t = (time_t)(now_ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    snprintf(out, 64, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
             tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* The whole message: headers, a blank line, the body.  The Message-ID
 * comes from the mail's key, so that a copy sent again is known as one. */
static char *compose(const struct Mailer *m, const MailRow *row, int64_t now)
{
    char date[64], hash[65];
    mail_date(now, date);
    auth_token_hash(row->ukey, hash);
    const char *domain = strchr(m->smtp.from, '@');
    Text t = TEXT_INIT;
    text_addf(&t,
              "From: ttchess <%s>\r\nTo: <%s>\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%.32s@%s>\r\n"
              "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n"
              "Auto-Submitted: auto-generated\r\n\r\n%s",
              m->smtp.from, row->address, row->subject, date, hash, domain ? domain + 1 : "ttchess", row->body);
    if (t.failed) {
        text_free(&t);
        return NULL;
    }
    char *out = strdup(text_str(&t));
    text_free(&t);
    return out;
}

/* Waits until the stall of a test ends: the server is killed meanwhile. */
static void test_stall(struct Mailer *m)
{
    while (getenv("TTCHESS_TEST_MAIL_STALL") && !m->stopping) {
        struct timespec ts = { 0, 100 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
}

/* Claims and sends one mail; false when there was none to send. */
static bool send_one(struct Mailer *m)
{
    MailRow row;
    bool found = false;
    int64_t now = server_now_ms();
    if (!store_mail_claim(m->store, now, m->lease_ms, &row, &found) || !found) return false;
    test_stall(m);
    if (m->stopping) {
        mail_row_free(&row);
        return false;
    }
    char *message = compose(m, &row, now);
    Text err = TEXT_INIT;
    bool sent = message && smtp_send(&m->smtp, row.address, message, &err);
    if (!sent) fprintf(stderr, "ttchess serve: mail %lld to user %lld not sent: %s\n", (long long)row.id,
                       (long long)row.user, text_str(&err));
    const char *status = sent ? "sent" : row.attempts >= MAIL_ATTEMPTS ? "failed" : "queued";
    store_mail_done(m->store, row.id, status, server_now_ms());
    text_free(&err);
    free(message);
    mail_row_free(&row);
    /* A refused mail waits for the next tick rather than being tried
     * again at once. */
    return sent;
}

static void *sender_loop(void *arg)
{
    struct Mailer *m = arg;
    int64_t next_scan = 0;
    while (!m->stopping) {
        int64_t now = server_now_ms();
        if (now >= next_scan) {
            enqueue_reminders(m->store, now);
            next_scan = now + m->scan_ms;
        }
        while (!m->stopping && send_one(m)) continue;
        pthread_mutex_lock(&m->lock);
        if (!m->woken && !m->stopping) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += MAIL_TICK_MS / 1000;
            pthread_cond_timedwait(&m->wake, &m->lock, &until);
        }
        m->woken = false;
        pthread_mutex_unlock(&m->lock);
    }
    return NULL;
}

/* The password's file, its first line. */
static char *read_password(const char *path, Text *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return text_fail(err, "cannot read the SMTP password file %s", path), NULL;
    char line[512];
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    if (!got) return text_fail(err, "the SMTP password file %s is empty", path), NULL;
    line[strcspn(line, "\r\n")] = '\0';
    return strdup(line);
}

struct Mailer *mail_start(Store *s, const ServerConfig *cfg, Text *err)
{
    public_url = cfg->public_url;
    if (!cfg->smtp) return NULL;
    if (!cfg->mail_from || !mail_address_valid(cfg->mail_from))
        return text_fail(err, "--smtp needs --mail-from ADDRESS, a valid e-mail address"), NULL;
    if (!smtp_init()) return text_fail(err, "libcurl could not start"), NULL;
    struct Mailer *m = calloc(1, sizeof *m);
    if (!m) return text_fail(err, "out of memory"), NULL;
    m->store = s;
    m->smtp = (SmtpConfig){ .url = cfg->smtp, .user = cfg->smtp_user, .from = cfg->mail_from };
    if (cfg->smtp_password_file && !(m->password = read_password(cfg->smtp_password_file, err))) {
        free(m);
        return NULL;
    }
    m->smtp.password = m->password;
    m->lease_ms = (int64_t)(cfg->mail_lease_s ? cfg->mail_lease_s : 300) * 1000;
    m->scan_ms = (int64_t)(cfg->mail_scan_s ? cfg->mail_scan_s : 60) * 1000;
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->wake, NULL);
    if (pthread_create(&m->thread, NULL, sender_loop, m)) {
        free(m->password);
        free(m);
        return text_fail(err, "cannot start the mail sender"), NULL;
    }
    pthread_mutex_lock(&wake_lock);
    running = m;
    pthread_mutex_unlock(&wake_lock);
    enabled = true;
    return m;
}

void mail_stop(struct Mailer *m)
{
    if (!m) return;
    enabled = false;
    pthread_mutex_lock(&wake_lock);
    running = NULL;
    pthread_mutex_unlock(&wake_lock);
    m->stopping = true;
    pthread_mutex_lock(&m->lock);
    pthread_cond_signal(&m->wake);
    pthread_mutex_unlock(&m->lock);
    pthread_join(m->thread, NULL);
    pthread_mutex_destroy(&m->lock);
    pthread_cond_destroy(&m->wake);
    free(m->password);
    free(m);
}
