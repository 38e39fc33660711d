/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Text: a string that grows as it is written.  Everything the library
 * writes (a FEN, an action in any notation, an error sentence, a whole
 * game file) goes into one, so nothing is ever cut to fit a buffer.  A
 * failed allocation sets `failed`, after which the text keeps what it had
 * and ignores further writes; the writer reports "out of memory" once, at
 * the end.
 */
#ifndef TTCHESS_TEXT_H
#define TTCHESS_TEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Text {
    char *str;      /* NUL-terminated; NULL until something is written */
    size_t len;
    size_t cap;
    bool failed;
} Text;

#define TEXT_INIT { NULL, 0, 0, false }

void text_init(Text *t);
void text_free(Text *t);
/* Empties the text (keeping its memory and clearing `failed`). */
void text_clear(Text *t);
/* The text so far ("" when empty). */
const char *text_str(const Text *t);

void text_add(Text *t, const char *s);
void text_add_n(Text *t, const char *s, size_t n);
void text_add_char(Text *t, char c);
void text_addf(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Replaces the text with the formatted one; returns false, so that a
 * check can end with "return text_fail(err, ...)". */
bool text_fail(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Takes the string out of the text (the caller frees it); NULL if the
 * text failed.  The text is left empty. */
char *text_take(Text *t);

#endif
