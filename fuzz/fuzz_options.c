/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Options ("name=value" assignments).  The first byte picks the variant;
 * the rest is parsed on top of the defaults.
 *
 * A refusal says why.  Accepted values lie within each OptionSpec's range
 * and the slots past the variant's options stay 0; options_format (only
 * what differs from the defaults, and everything) parsed again on top of
 * the defaults, and on top of the other extreme, gives the same options;
 * parsing nothing changes nothing.
 */
#include "fuzz.h"

static void check_format(const Variant *v, const Options *o, bool all, const Options *base)
{
    Text text = TEXT_INIT, err = TEXT_INIT;
    options_format(v, o, all, &text);
    Options back = *base;
    bool ok = options_parse(v, &back, fuzz_str(&text), &err);
    FUZZ_CHECK(ok, "%s: options_format's '%s' is refused: %s", v->name, fuzz_str(&text), text_str(&err));
    FUZZ_CHECK(!memcmp(&back, o, sizeof back), "%s: '%s' does not read back as the options it came from", v->name,
               fuzz_str(&text));
    text_free(&text);
    text_free(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const Variant *v = fuzz_variant(data[0]);
    char *text = fuzz_string(data + 1, size - 1);
    Options defaults, o, low;
    options_default(v, &defaults);
    o = defaults;
    Text err = TEXT_INIT;
    bool ok = options_parse(v, &o, text, &err);
    FUZZ_SAY("%s: '%s' %s%s\n", v->name, text, ok ? "accepted" : "refused: ", ok ? "" : text_str(&err));
    if (ok) {
        for (int i = 0; i < OPTIONS_MAX; i++) {
            if (i < v->option_count) {
                const OptionSpec *s = &v->options[i];
                FUZZ_CHECK(o.value[i] >= s->min && o.value[i] <= s->max, "%s: '%s' sets %s=%d, outside %d..%d",
                           v->name, text, s->name, o.value[i], s->min, s->max);
            } else {
                FUZZ_CHECK(o.value[i] == 0, "%s: '%s' wrote option slot %d, past the variant's %d", v->name, text, i,
                           v->option_count);
            }
        }
        /* Every option at its least, to parse "everything" on top of. */
        low = defaults;
        for (int i = 0; i < v->option_count; i++) low.value[i] = v->options[i].min;
        check_format(v, &o, false, &defaults);
        check_format(v, &o, true, &defaults);
        check_format(v, &o, true, &low);
        Options same = o;
        FUZZ_CHECK(options_parse(v, &same, NULL, &err) && options_parse(v, &same, "", &err) &&
                       !memcmp(&same, &o, sizeof same),
                   "%s: parsing nothing changed the options", v->name);
    } else {
        FUZZ_CHECK(err.len > 0, "%s: '%s' refused without a reason", v->name, text);
    }
    text_free(&err);
    free(text);
    return 0;
}
