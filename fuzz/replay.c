/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A main() for a fuzz harness built without libFuzzer: every file named
 * on the command line, and every file in every directory named there (in
 * name order), is passed to LLVMFuzzerTestOneInput once.  "make test"
 * replays the seed corpora this way, plain and under ASan+UBSan; a crash
 * file is reproduced the same way (build/fuzz/fuzz_fen fuzz/crashes/X).
 *
 * Prints how many inputs it ran; exits non-zero when an argument cannot
 * be read or a directory holds no file (a broken property aborts).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        cap *= 2;
        char *grown = realloc(buf, cap);
        if (!grown) free(buf);
        buf = grown;
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

/* Runs one file; false if it cannot be read. */
static bool run_file(const char *path)
{
    size_t size = 0;
    char *data = read_file(path, &size);
    if (!data) {
        fprintf(stderr, "replay: cannot read '%s': %s\n", path, strerror(errno));
        return false;
    }
    /* An exact copy, so that ASan sees any read past the input's end. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) abort();
    memcpy(copy, data, size);
    free(data);
    LLVMFuzzerTestOneInput(copy, size);
    free(copy);
    return true;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Runs every regular file in the directory; adds to *count; false if the
 * directory cannot be read or holds none. */
static bool run_directory(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open directory '%s': %s\n", dir, strerror(errno));
        return false;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof *names);
            if (!names) abort();
        }
        size_t len = strlen(dir) + 1 + strlen(e->d_name) + 1;
        names[n] = malloc(len);
        if (!names[n]) abort();
        snprintf(names[n], len, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);
    bool ok = true;
    int ran = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            ok = run_file(names[i]) && ok;
            ran++;
        }
        free(names[i]);
    }
    free(names);
    if (!ran) {
        fprintf(stderr, "replay: directory '%s' holds no input\n", dir);
        return false;
    }
    *count += ran;
    return ok;
}

int main(int argc, char **argv)
{
    const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR_OR_FILE...\n(replays each file through the harness)\n", name);
        return 2;
    }
    bool ok = true;
    int count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: '%s' does not exist\n", argv[i]);
            ok = false;
        } else if (S_ISDIR(st.st_mode)) {
            ok = run_directory(argv[i], &count) && ok;
        } else {
            if (run_file(argv[i])) count++;
            else ok = false;
        }
    }
    printf("%s: ran %d input%s\n", name, count, count == 1 ? "" : "s");
    return ok ? 0 : 1;
}
