/* The fuzz targets (tests/fuzz/README.md): each fuzz_NAME.c defines the libFuzzer entry point
 * below.  Built twice: with clang's -fsanitize=fuzzer (preset fuzz) as a fuzzer, and with any
 * compiler beside replay.c as fuzz_NAME_replay, which runs the committed corpus as a test.
 *
 * Each target checks more than "does not crash": where a parser has a contract that can be
 * checked cheaply (every message one line, a parsed number formats and reads back to the same
 * bits), a broken contract is reported with fuzz_fail(), which aborts like a crash. */
#ifndef GELUCHECK_FUZZ_H
#define GELUCHECK_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "fuzz: TARGET: " + fmt on stderr, then abort(). */
void fuzz_fail(const char *target, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
/* Fails unless msg is one non-empty line (no '\n', no '\r'). */
void fuzz_check_line(const char *target, const char *what, const char *msg);
/* A file holding exactly data[0, size), rewritten on each call (a memory file, else one in
 * $TMPDIR, removed at exit); the path stays the same for the whole process.  NULL when it
 * cannot be written. */
const char *fuzz_temp_file(const char *stem, const uint8_t *data, size_t size);

#endif
