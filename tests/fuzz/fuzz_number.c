/* Fuzz target: the number parser of `gelucheck ref` and --scale (geluref_parse, docs/design.md
 * section 11: decimal, hex float with a 'p' exponent, raw bits, inf, nan).  The input, cut at
 * its first NUL, is parsed as each dtype.  Checked: no crash or undefined behaviour; a failure
 * says why in one line; a value parsed formats as decimal, hex float and bits, and each of
 * those reads back to the same bits (to a NaN for a NaN: payloads are not kept by dec and
 * hex). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <geluref.h>

#include "fuzz.h"

#define T "fuzz_number"
#define FUZZ_NUMBER_MAX 4096 /* a command-line word; longer ones only cost time */

static int is_nan(enum geluref_dtype dt, uint64_t b)
{
    switch (dt) {
    case GELUREF_F64:
        return (b & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000) &&
               (b & UINT64_C(0x000fffffffffffff)) != 0;
    case GELUREF_F32:
        return (b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu) != 0;
    case GELUREF_F16:
        return (b & 0x7c00u) == 0x7c00u && (b & 0x03ffu) != 0;
    default:
        return (b & 0x7f80u) == 0x7f80u && (b & 0x007fu) != 0;
    }
}

/* text, produced by a formatter from bits, must read back to bits. */
static void read_back(enum geluref_dtype dt, uint64_t bits, const char *form, const char *text,
                      const char *input)
{
    const char *why = NULL;
    uint64_t again = 0;

    if (geluref_parse(text, dt, &again, &why) != GELUREF_OK)
        fuzz_fail(T, "%s: %s text '%s' of '%s' does not parse: %s", geluref_dtype_name(dt),
                  form, text, input, why ? why : "(no reason)");
    int same = is_nan(dt, bits) && strcmp(form, "bits") != 0 ? is_nan(dt, again) : again == bits;
    if (!same)
        fuzz_fail(T, "%s: '%s' parsed to 0x%llx, its %s text '%s' to 0x%llx",
                  geluref_dtype_name(dt), input, (unsigned long long)bits, form, text,
                  (unsigned long long)again);
}

static void one_dtype(enum geluref_dtype dt, const char *text)
{
    const char *why = NULL;
    uint64_t bits = 0;
    char buf[128];

    if (geluref_parse(text, dt, &bits, &why) != GELUREF_OK) {
        fuzz_check_line(T, "parse", why);
        return;
    }
    if (dt != GELUREF_F64 && bits >> (dt == GELUREF_F32 ? 32 : 16) != 0)
        fuzz_fail(T, "%s: '%s' gave 0x%llx, wider than the dtype", geluref_dtype_name(dt),
                  text, (unsigned long long)bits);
    if (geluref_format_dec(buf, sizeof buf, dt, bits) >= sizeof buf)
        fuzz_fail(T, "decimal text of 0x%llx too long", (unsigned long long)bits);
    read_back(dt, bits, "decimal", buf, text);
    if (geluref_format_hex(buf, sizeof buf, dt, bits) >= sizeof buf)
        fuzz_fail(T, "hex text of 0x%llx too long", (unsigned long long)bits);
    read_back(dt, bits, "hex", buf, text);
    if (geluref_format_bits(buf, sizeof buf, dt, bits) >= sizeof buf)
        fuzz_fail(T, "bits text of 0x%llx too long", (unsigned long long)bits);
    read_back(dt, bits, "bits", buf, text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_NUMBER_MAX)
        return 0;
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    for (int dt = GELUREF_F64; dt <= GELUREF_BF16; dt++)
        one_dtype((enum geluref_dtype)dt, text);
    free(text);
    return 0;
}
