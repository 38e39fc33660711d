/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * E-mail addresses as PUT /api/account/email takes them (mail.c's
 * mail_address_valid): the input, up to a NUL, is the address.  The
 * answer must be the one of a second reading written here from
 * docs/api.md's rule, byte by byte and without the first's structure: at
 * most 254 bytes; exactly one '@' with 1 to 64 bytes before it; before
 * it printable ASCII other than space and "(),:;<>[\] with no dot first,
 * last or twice in a row; after it two or more labels of 1 to 63
 * letters, digits or '-', joined by single dots, a label neither
 * starting nor ending with '-'.  And an accepted address can never
 * break out of a mail's header line: it holds no CR, LF, space or '<'
 * or '>'.
 */
#include "fuzz.h"

#include "api_fixture.h"
#include "server.h"

/* No database: the address is read alone. */
const FixtureNeed fixture_need = FIXTURE_NONE;

/* The second reading. */
static bool reference(const char *a, size_t n)
{
    if (n > 254) return false;
    size_t at = n, ats = 0;
    for (size_t i = 0; i < n; i++)
        if (a[i] == '@') ats++, at = i;
    if (ats != 1 || at == 0 || at > 64) return false;
    for (size_t i = 0; i < at; i++) {
        unsigned char c = (unsigned char)a[i];
        if (c < 0x21 || c > 0x7e || memchr("\"(),:;<>[\\]", c, 11)) return false;
        if (c == '.' && (i == 0 || i == at - 1 || a[i + 1] == '.')) return false;
    }
    int labels = 0;
    size_t start = at + 1;
    for (size_t i = at + 1; i <= n; i++) {
        if (i < n && a[i] != '.') {
            unsigned char c = (unsigned char)a[i];
            bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
            if (!ok) return false;
            continue;
        }
        size_t len = i - start;
        if (len == 0 || len > 63 || a[start] == '-' || a[i - 1] == '-') return false;
        labels++;
        start = i + 1;
    }
    return labels >= 2;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char address[400];
    size_t n = 0;
    while (n < size && n < sizeof address - 1 && data[n]) {
        address[n] = (char)data[n];
        n++;
    }
    address[n] = '\0';
    bool valid = mail_address_valid(address);
    FUZZ_CHECK(valid == reference(address, n), "'%s': mail_address_valid says %d", address, valid);
    if (valid) FUZZ_CHECK(!strpbrk(address, "\r\n <>"), "'%s' accepted with a byte that breaks a header", address);
    return 0;
}
