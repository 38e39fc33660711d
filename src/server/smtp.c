/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One mail sent through an SMTP server, with libcurl's SMTP client rather
 * than one of our own: its replies' parsing, AUTH, STARTTLS and the
 * escaping of a body's leading dots are libcurl's.  STARTTLS is used
 * when the server offers it (CURLUSESSL_TRY); an smtps:// URL speaks TLS
 * from the start.
 */
#include "server.h"

#include <curl/curl.h>
#include <string.h>

enum {
    SMTP_CONNECT_TIMEOUT_S = 10,
    SMTP_TIMEOUT_S = 60,             /* the whole exchange; under the claim's lease */
};

/* The message as libcurl reads the upload. */
typedef struct Upload {
    const char *data;
    size_t left;
} Upload;

static size_t read_message(char *buf, size_t size, size_t count, void *ctx)
{
    Upload *u = ctx;
    size_t n = size * count < u->left ? size * count : u->left;
    memcpy(buf, u->data, n);
    u->data += n;
    u->left -= n;
    return n;
}

/* libcurl's global start, once, before the sender's thread uses it. */
bool smtp_init(void)
{
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
}

bool smtp_send(const SmtpConfig *c, const char *to, const char *message, Text *err)
{
    CURL *curl = curl_easy_init();
    if (!curl) return text_fail(err, "libcurl could not start"), false;
    char from[300], rcpt_to[300];
    snprintf(from, sizeof from, "<%s>", c->from);
    snprintf(rcpt_to, sizeof rcpt_to, "<%s>", to);
    struct curl_slist *rcpt = curl_slist_append(NULL, rcpt_to);
    Upload u = { message, strlen(message) };
    char why[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(curl, CURLOPT_URL, c->url);
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from);
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_message);
    curl_easy_setopt(curl, CURLOPT_READDATA, &u);
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, (long)SMTP_CONNECT_TIMEOUT_S);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, (long)SMTP_TIMEOUT_S);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, why);
    if (c->user) curl_easy_setopt(curl, CURLOPT_USERNAME, c->user);
    if (c->password) curl_easy_setopt(curl, CURLOPT_PASSWORD, c->password);
    CURLcode res = rcpt ? curl_easy_perform(curl) : CURLE_OUT_OF_MEMORY;
    if (res != CURLE_OK) text_fail(err, "%s", why[0] ? why : curl_easy_strerror(res));
    curl_slist_free_all(rcpt);
    curl_easy_cleanup(curl);
    return res == CURLE_OK;
}
