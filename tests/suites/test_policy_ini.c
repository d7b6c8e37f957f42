/* Policy files (docs/policies.md): the fixtures in tests/suites/policies/ (argv[1]),
 * resolution order, the accepted forms, every error message (FILE:LINE and the subject), and
 * hostile input.  Error cases are written to a temporary directory as p.ini. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, chdir, mkdir */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "suites.h"

static const char *fixtures = ".";
static char tmpdir[] = "/tmp/gc_policy_XXXXXX";

static void write_file(const char *name, const char *text, size_t len)
{
    FILE *f = fopen(name, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static struct gs_policy *load_fixture(const char *name)
{
    char path[1024], msg[512] = "";
    snprintf(path, sizeof path, "%s/%s", fixtures, name);
    struct gs_policy *p = gs_policy_load(path, msg, sizeof msg);
    if (p == NULL)
        fail_msg("%s: %s", name, msg);
    return p;
}

/* precedence.ini sets max_ulp at every level, written most specific first. */
static void test_precedence(void **state)
{
    (void)state;
    struct gs_policy *p = load_fixture("precedence.ini");
    struct gs_policy_values v;
    assert_string_equal(gs_policy_name(p), "precedence.ini");
    gs_policy_resolve(p, GELUREF_GELU, GELUREF_F32, &v);
    assert_true(v.max_ulp == 5);    /* [gelu.f32] over [gelu], [f32], [all] */
    assert_true(v.abs_tol == 0.25); /* [gelu] over [all] */
    assert_int_equal(v.faithful, 1);                 /* [f32], yes */
    assert_int_equal(v.severity[GS_K_FTZ], GS_SEV_IGNORE); /* [all] */
    assert_true(v.max_cr_distance == INFINITY);      /* not set: default's f32 value */
    gs_policy_resolve(p, GELUREF_GELU, GELUREF_F64, &v);
    assert_true(v.max_ulp == 3);    /* [gelu] over [all] */
    assert_int_equal(v.faithful, 0); /* default's */
    gs_policy_resolve(p, GELUREF_ERF, GELUREF_F32, &v);
    assert_true(v.max_ulp == 2);    /* [f32] over [all] */
    assert_true(v.abs_tol == 0.5);  /* [all] */
    gs_policy_resolve(p, GELUREF_ERF, GELUREF_F16, &v);
    assert_true(v.max_ulp == 1);    /* [all] */
    assert_true(v.max_cr_distance == 1); /* default's f16 value */
    assert_int_equal(v.severity[GS_K_SIGNED_ZERO], GS_SEV_FAIL);
    gs_policy_resolve(p, GELUREF_GELU_GRAD2, GELUREF_F32, &v); /* no [FUNC] for it */
    assert_true(v.max_ulp == 2);
    gs_policy_free(p);
}

/* example.ini is the example of the README. */
static void test_example(void **state)
{
    (void)state;
    struct gs_policy *p = load_fixture("example.ini");
    struct gs_policy_values v;
    assert_string_equal(gs_policy_name(p), "example.ini");
    gs_policy_resolve(p, GELUREF_GELU, GELUREF_F32, &v);
    assert_true(v.max_ulp == 8 && v.abs_tol == 1e-7);
    assert_int_equal(v.severity[GS_K_NON_MONOTONIC], GS_SEV_WARN);
    assert_int_equal(v.severity[GS_K_CRASH], GS_SEV_FAIL);
    gs_policy_resolve(p, GELUREF_GELU_GRAD, GELUREF_F32, &v);
    assert_true(v.max_ulp == 8 && v.abs_tol == 1e-6); /* [gelu_grad] over [f32] */
    gs_policy_resolve(p, GELUREF_ERFC, GELUREF_F32, &v);
    assert_true(v.max_ulp == INFINITY);
    gs_policy_resolve(p, GELUREF_ERFC, GELUREF_F64, &v);
    assert_true(v.max_ulp == 4 && v.abs_tol == 0); /* default's f64 */
    gs_policy_free(p);
}

/* The accepted forms: a base, BOM, CRLF, indentation, comments, key: value, yes/no, hex
 * floats, inf, the largest count, a line of exactly inih's 199 characters. */
static void test_forms(void **state)
{
    (void)state;
    char text[1024];
    int n = snprintf(text, sizeof text,
                     "\xef\xbb\xbf[policy]\r\n"
                     "  base = lenient ; a comment\r\n"
                     "# a comment\n"
                     "\n"
                     "[all]\n"
                     "\tfaithful: yes\n"
                     "max_ulp = 0x1p3\n"
                     "max_cr_distance = 9007199254740992\n"
                     "abs_tol = -0\n"
                     "[bf16]\n"
                     "max_ulp = inf\n"
                     "special_zero_sign = exact\n"
                     "nan_at_neg_inf = fail\n"
                     "accuracy_domain = all\n"
                     "signed_zero = ignore\n"
                     "[erf.bf16]\n"
                     "faithful = no\n");
    /* then a comment line of exactly 199 characters (inih's buffer: 200 with the NUL) */
    assert_true(n > 0 && (size_t)n + 201 < sizeof text);
    memset(text + n, 'z', 199);
    text[n] = ';';
    strcpy(text + n + 199, "\n");
    write_file("p.ini", text, strlen(text));
    char msg[512] = "";
    struct gs_policy *p = gs_policy_load("p.ini", msg, sizeof msg);
    if (p == NULL)
        fail_msg("%s", msg);
    struct gs_policy_values v;
    gs_policy_resolve(p, GELUREF_GELU, GELUREF_F32, &v);
    assert_true(v.max_ulp == 8);
    assert_true(v.max_cr_distance == 9007199254740992.0);
    assert_true(v.abs_tol == 0 && !signbit(v.abs_tol));
    assert_int_equal(v.faithful, 1);
    assert_int_equal(v.nan_at_neg_inf, 1); /* lenient's allow */
    gs_policy_resolve(p, GELUREF_ERF, GELUREF_BF16, &v);
    assert_true(v.max_ulp == INFINITY);
    assert_int_equal(v.faithful, 0);
    assert_int_equal(v.special_zero_sign, 1);
    assert_int_equal(v.nan_at_neg_inf, 0);
    assert_int_equal(v.accuracy_domain, GS_DOMAIN_ALL);
    assert_int_equal(v.severity[GS_K_SIGNED_ZERO], GS_SEV_IGNORE);
    assert_true(v.abs_tol == 0); /* [all] -0 over lenient's 1e-3 */
    gs_policy_free(p);
    /* an empty file: default, unchanged */
    write_file("p.ini", "", 0);
    p = gs_policy_load("p.ini", msg, sizeof msg);
    assert_non_null(p);
    gs_policy_resolve(p, GELUREF_GELU, GELUREF_F32, &v);
    assert_true(v.max_ulp == 4);
    gs_policy_free(p);
    /* the name is the base name */
    assert_int_equal(mkdir("sub", 0700), 0);
    write_file("sub/mine.ini", "[all]\n", 6);
    p = gs_policy_load("sub/mine.ini", msg, sizeof msg);
    assert_non_null(p);
    assert_string_equal(gs_policy_name(p), "mine.ini");
    gs_policy_free(p);
}

/* [kernel ADAPTER/KERNEL] sections: applied after every other section to that identity
 * alone, matched whole (not by prefix), a repeated header adding to its section, headers
 * longer than inih's 50-byte section buffer read whole, and their number bounded. */
static void test_kernel_sections(void **state)
{
    (void)state;
    char msg[512] = "";
    static const char long_id[] = "an_adapter_name_longer_than_fifty_bytes_0123456789/"
                                  "gelu_tanh.f32";
    char text[2048];
    snprintf(text, sizeof text,
             "[policy]\nbase = default\n"                     /* 1-2 */
             "[all]\nabs_tol = 1e-9\n"                        /* 3-4 */
             "[gelu.f32]\nmax_ulp = 8\n"                      /* 5-6 */
             "[kernel libm/erfc.f32]\nmax_ulp = 1\nftz = warn\n" /* 7-9 */
             "[kernel %s]\nmax_ulp = 0.5\n"                   /* 10-11 */
             "[f32]\n"                                         /* 12 */
             "[kernel libm/erfc.f32]\nfaithful = true\n"       /* 13-14 */
             "[kernel libm/erfc.f32x]\nmax_ulp = 3\n",         /* 15-16 */
             long_id);
    write_file("p.ini", text, strlen(text));
    struct gs_policy *p = gs_policy_load("p.ini", msg, sizeof msg);
    if (p == NULL)
        fail_msg("%s", msg);
    struct gs_policy_values v;
    assert_int_equal(gs_policy_resolve_kernel(p, "libm/erfc.f32", GELUREF_GELU, GELUREF_F32,
                                              &v), 1);
    assert_true(v.max_ulp == 1); /* the kernel section over [gelu.f32] */
    assert_int_equal(v.severity[GS_K_FTZ], GS_SEV_WARN);
    assert_int_equal(v.faithful, 1); /* from the repeated header */
    assert_true(v.abs_tol == 1e-9);  /* not set there: [all]'s */
    /* another kernel of that adapter, and no identity: the general values */
    assert_int_equal(gs_policy_resolve_kernel(p, "libm/erf1p.f32", GELUREF_GELU, GELUREF_F32,
                                              &v), 0);
    assert_true(v.max_ulp == 8);
    assert_int_equal(v.severity[GS_K_FTZ], GS_SEV_FAIL);
    assert_int_equal(gs_policy_resolve_kernel(p, NULL, GELUREF_GELU, GELUREF_F32, &v), 0);
    assert_true(v.max_ulp == 8);
    assert_int_equal(gs_policy_resolve_kernel(p, "libm/erfc.f3", GELUREF_GELU, GELUREF_F32,
                                              &v), 0);
    /* the long header: whole, and not its first 50 bytes */
    assert_int_equal(gs_policy_resolve_kernel(p, long_id, GELUREF_GELU_TANH, GELUREF_F32, &v),
                     1);
    assert_true(v.max_ulp == 0.5);
    char cut[64];
    snprintf(cut, sizeof cut, "%.50s", long_id);
    assert_int_equal(gs_policy_resolve_kernel(p, cut, GELUREF_GELU_TANH, GELUREF_F32, &v), 0);
    /* listed in file order, once each, with the line of the first header */
    int line = 0;
    assert_int_equal(gs_policy_kernel_count(p), 3);
    assert_string_equal(gs_policy_kernel_id(p, 0, &line), "libm/erfc.f32");
    assert_int_equal(line, 7);
    assert_string_equal(gs_policy_kernel_id(p, 1, &line), long_id);
    assert_int_equal(line, 10);
    assert_string_equal(gs_policy_kernel_id(p, 2, &line), "libm/erfc.f32x");
    assert_int_equal(line, 15);
    assert_null(gs_policy_kernel_id(p, 3, &line));
    gs_policy_free(p);
    /* a built-in has none */
    assert_int_equal(gs_policy_kernel_count(gs_policy_builtin("strict")), 0);
    assert_int_equal(gs_policy_resolve_kernel(gs_policy_builtin("strict"), "libm/erfc.f32",
                                              GELUREF_GELU, GELUREF_F32, &v), 0);
    /* 1024 sections load, 1025 do not; a repeated header is not a new one */
    size_t cap = 1100 * 32, n = 0;
    char *big = malloc(cap);
    assert_non_null(big);
    for (int i = 0; i < 1024; i++)
        n += (size_t)snprintf(big + n, cap - n, "[kernel a/k%d]\n", i);
    n += (size_t)snprintf(big + n, cap - n, "[kernel a/k0]\nmax_ulp = 2\n");
    write_file("p.ini", big, n);
    p = gs_policy_load("p.ini", msg, sizeof msg);
    if (p == NULL)
        fail_msg("%s", msg);
    assert_int_equal(gs_policy_kernel_count(p), 1024);
    gs_policy_free(p);
    n += (size_t)snprintf(big + n, cap - n, "[kernel a/one_more]\n");
    write_file("p.ini", big, n);
    assert_null(gs_policy_load("p.ini", msg, sizeof msg));
    assert_string_equal(msg, "p.ini:1027: more than 1024 [kernel ADAPTER/KERNEL] sections");
    free(big);
}

struct bad {
    const char *text;
    size_t len;        /* 0: strlen(text) */
    const char *msg;   /* the whole message, for p.ini */
};

static const struct bad bads[] = {
    { "[gelu.f32]\nmax_ulps = 4\n", 0,
      "p.ini:2: unknown key 'max_ulps' in [gelu.f32] (did you mean 'max_ulp'?)" },
    { "[all]\nnan_at_neginf = allow\n", 0,
      "p.ini:2: unknown key 'nan_at_neginf' in [all] (did you mean 'nan_at_neg_inf'?)" },
    { "[all]\nfoo = 1\n", 0, "p.ini:2: unknown key 'foo' in [all]" },
    { "[all]\nmax_ulp = 1\n[gelu.f8]\n", 0, "p.ini:3: unknown section [gelu.f8] (expected "
      "[policy], [all], [DTYPE], [FUNC], [FUNC.DTYPE] or [kernel ADAPTER/KERNEL])" },
    { "[gelu_grad2]\n", 0, "p.ini:1: unknown section [gelu_grad2] (expected [policy], [all], "
      "[DTYPE], [FUNC], [FUNC.DTYPE] or [kernel ADAPTER/KERNEL])" },
    /* a byte order mark does not hide the first header from the check */
    { "\xef\xbb\xbf[bogus]\n", 0, "p.ini:1: unknown section [bogus] (expected [policy], "
      "[all], [DTYPE], [FUNC], [FUNC.DTYPE] or [kernel ADAPTER/KERNEL])" },
    { "[F32]\n", 0, "p.ini:1: unknown section [F32] (expected [policy], [all], [DTYPE], "
      "[FUNC], [FUNC.DTYPE] or [kernel ADAPTER/KERNEL])" },
    /* [kernel ADAPTER/KERNEL] */
    { "[libm/erfc.f32]\n", 0, "p.ini:1: unknown section [libm/erfc.f32] (expected [policy], "
      "[all], [DTYPE], [FUNC], [FUNC.DTYPE] or [kernel ADAPTER/KERNEL]; for one kernel: "
      "[kernel libm/erfc.f32])" },
    { "[kernel erfc.f32]\n", 0, "p.ini:1: bad section [kernel erfc.f32]: expected [kernel "
      "ADAPTER/KERNEL], a kernel's identity as in a result's \"id\" (each part 1 to 128 of "
      "[A-Za-z0-9_.-])" },
    { "[kernel]\n", 0, "p.ini:1: bad section [kernel]: expected [kernel ADAPTER/KERNEL], a "
      "kernel's identity as in a result's \"id\" (each part 1 to 128 of [A-Za-z0-9_.-])" },
    { "[kernel libm/erfc f32]\n", 0, "p.ini:1: bad section [kernel libm/erfc f32]: expected "
      "[kernel ADAPTER/KERNEL], a kernel's identity as in a result's \"id\" (each part 1 to "
      "128 of [A-Za-z0-9_.-])" },
    { "[kernel a/b/c]\n", 0, "p.ini:1: bad section [kernel a/b/c]: expected [kernel "
      "ADAPTER/KERNEL], a kernel's identity as in a result's \"id\" (each part 1 to 128 of "
      "[A-Za-z0-9_.-])" },
    { "[kernel libm/erfc.f32]\nmax_ulp = 1\n[all]\n[kernel libm/erfc.f32]\nmax_ulp = 2\n", 0,
      "p.ini:5: duplicate key 'max_ulp' in [kernel libm/erfc.f32] (first set on line 2)" },
    { "[kernel libm/erfc.f32]\nmax_ulps = 1\n", 0, "p.ini:2: unknown key 'max_ulps' in "
      "[kernel libm/erfc.f32] (did you mean 'max_ulp'?)" },
    { "[kernel libm/erfc.f32]\ncrash = warn\n", 0, "p.ini:2: key 'crash' in [kernel "
      "libm/erfc.f32] cannot be set: crash, timeout and adapter_error always fail" },
    { "[kernel a/b]\n[policy]\nbase = strict\n", 0,
      "p.ini:2: [policy] must be the first section" },
    { "[all]\nmax_ulp = 4x\n", 0,
      "p.ini:2: bad value '4x' for 'max_ulp' in [all]: expected a number >= 0 or inf" },
    { "[f32]\nabs_tol = -1e-6\n", 0,
      "p.ini:2: bad value '-1e-6' for 'abs_tol' in [f32]: expected a number >= 0 or inf" },
    { "[all]\nmax_ulp = nan\n", 0,
      "p.ini:2: bad value 'nan' for 'max_ulp' in [all]: expected a number >= 0 or inf" },
    { "[all]\nmax_ulp = 1e999\n", 0,
      "p.ini:2: bad value '1e999' for 'max_ulp' in [all]: expected a number >= 0 or inf" },
    { "[all]\nmax_ulp =\n", 0,
      "p.ini:2: bad value '' for 'max_ulp' in [all]: expected a number >= 0 or inf" },
    /* below 1/2 even a correctly rounded kernel would fail the identity suite */
    { "[all]\nconsistency_ulps = 0.25\n", 0,
      "p.ini:2: bad value '0.25' for 'consistency_ulps' in [all]: expected a number >= 0.5 or "
      "inf" },
    { "[all]\nmax_cr_distance = 1.5\n", 0, "p.ini:2: bad value '1.5' for 'max_cr_distance' "
      "in [all]: expected an integer from 0 to 2^53 or inf" },
    { "[all]\nmax_cr_distance = 9007199254740993\n", 0, "p.ini:2: bad value "
      "'9007199254740993' for 'max_cr_distance' in [all]: expected an integer from 0 to 2^53 "
      "or inf" },
    { "[all]\nmax_cr_distance = 99999999999999999999999\n", 0, "p.ini:2: bad value "
      "'99999999999999999999999' for 'max_cr_distance' in [all]: expected an integer from 0 "
      "to 2^53 or inf" },
    { "[gelu]\nfaithful = maybe\n", 0, "p.ini:2: bad value 'maybe' for 'faithful' in [gelu]: "
      "expected true or false (or yes, no)" },
    { "[all]\nftz = error\n", 0,
      "p.ini:2: bad value 'error' for 'ftz' in [all]: expected fail, warn or ignore" },
    { "[all]\naccuracy_domain = subnormal\n", 0, "p.ini:2: bad value 'subnormal' for "
      "'accuracy_domain' in [all]: expected all or normal" },
    { "[all]\nspecial_zero_sign = yes\n", 0, "p.ini:2: bad value 'yes' for "
      "'special_zero_sign' in [all]: expected exact or any" },
    { "[all]\nnan_at_neg_inf = warn\n", 0, "p.ini:2: bad value 'warn' for 'nan_at_neg_inf' "
      "in [all]: expected fail or allow" },
    { "[all]\ncrash = warn\n", 0, "p.ini:2: key 'crash' in [all] cannot be set: crash, "
      "timeout and adapter_error always fail" },
    { "[f16]\ntimeout = fail\n", 0, "p.ini:2: key 'timeout' in [f16] cannot be set: crash, "
      "timeout and adapter_error always fail" },
    { "[all]\nftz = warn\n[policy]\nbase = strict\n", 0,
      "p.ini:3: [policy] must be the first section" },
    { "[policy]\nbase = loose\n", 0, "p.ini:2: bad value 'loose' for 'base' in [policy]: "
      "expected strict, faithful, default or lenient" },
    { "[policy]\nmax_ulp = 4\n", 0,
      "p.ini:2: unknown key 'max_ulp' in [policy] (expected base)" },
    { "[policy]\nbase = strict\nbase = lenient\n", 0,
      "p.ini:3: duplicate key 'base' in [policy] (first set on line 2)" },
    { "; no section yet\nmax_ulp = 4\n", 0, "p.ini:2: key 'max_ulp' outside any section" },
    { "[all]\nmax_ulp = 1\n\n[f32]\n[all]\nmax_ulp = 2\n", 0,
      "p.ini:6: duplicate key 'max_ulp' in [all] (first set on line 2)" },
    { "[all]\nmax_ulp 4\n", 0, "p.ini:2: syntax error: expected [section] or key = value" },
    { "[all\nmax_ulp = 4\n", 0, "p.ini:1: syntax error: expected [section] or key = value" },
    { "[all] x\n", 0, "p.ini:1: unexpected text after ']'" },
    /* an indented line is a line of its own, not a continuation of the value above */
    { "[all]\nmax_ulp = 1\n   2\n", 0,
      "p.ini:3: syntax error: expected [section] or key = value" },
    /* the first error wins: the syntax error before the unknown key */
    { "[all]\njunk\nmax_ulps = 1\n", 0,
      "p.ini:2: syntax error: expected [section] or key = value" },
    { "[all]\nmax_ulp = 4\nftz\0 = warn\n", 26, "p.ini:3: nul byte in line" },
    /* control bytes quoted as \xNN: the message stays one line (found by fuzz_policy) */
    { "[a\rb]\nmax_ulp = 1\n", 0, "p.ini:1: unknown section [a\\x0db] (expected "
      "[policy], [all], [DTYPE], [FUNC], [FUNC.DTYPE] or [kernel ADAPTER/KERNEL])" },
    { "[all]\nmax\rulp = 1\n", 0, "p.ini:2: unknown key 'max\\x0dulp' in [all] (did you mean 'max_ulp'?)" },
    { "[all]\nmax_ulp = 1\x1b[2J\n", 0, "p.ini:2: bad value '1\\x1b[2J' for 'max_ulp' in "
      "[all]: expected a number >= 0 or inf" },
};

static void test_errors(void **state)
{
    (void)state;
    char msg[512];
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        const struct bad *b = &bads[i];
        write_file("p.ini", b->text, b->len ? b->len : strlen(b->text));
        strcpy(msg, "untouched");
        struct gs_policy *p = gs_policy_load("p.ini", msg, sizeof msg);
        if (p != NULL)
            fail_msg("case %zu (%s): loaded", i, b->msg);
        if (strcmp(msg, b->msg) != 0)
            fail_msg("case %zu:\n got  %s\n want %s", i, msg, b->msg);
    }
    struct gs_policy *p = gs_policy_load("nosuch.ini", msg, sizeof msg);
    assert_null(p);
    assert_string_equal(msg, "cannot read policy file 'nosuch.ini': No such file or directory");
    assert_int_equal(mkdir("d.ini", 0700), 0);
    assert_null(gs_policy_load("d.ini", msg, sizeof msg));
    assert_string_equal(msg, "cannot read policy file 'd.ini': Is a directory");
    assert_null(gs_policy_load("nosuch.ini", NULL, 0)); /* no message buffer: still NULL */
}

/* Over-long lines (inih's 199 characters, anywhere), a million sections, random bytes. */
static void test_hostile(void **state)
{
    (void)state;
    char msg[512];
    size_t big = 10u << 20; /* 10 MiB */
    char *text = malloc(big + 64);
    assert_non_null(text);
    /* 200 characters: one past the limit, on line 2 (a comment: still a line) */
    strcpy(text, "[all]\n;");
    memset(text + 7, 'x', 199);
    strcpy(text + 206, "\nmax_ulp = 1\n");
    write_file("p.ini", text, strlen(text));
    assert_null(gs_policy_load("p.ini", msg, sizeof msg));
    assert_string_equal(msg, "p.ini:2: line longer than 199 characters");
    /* a 10 MiB line: the same, at once */
    memset(text, 'y', big);
    write_file("p.ini", text, big);
    assert_null(gs_policy_load("p.ini", msg, sizeof msg));
    assert_string_equal(msg, "p.ini:1: line longer than 199 characters");
    /* a million section headers: accepted, fixed memory */
    size_t n = 0;
    for (int i = 0; i < 1000000; i++) {
        memcpy(text + n, i % 2 ? "[gelu.bf16]\n" : "[all]\n", i % 2 ? 12 : 6);
        n += i % 2 ? 12 : 6;
    }
    n += (size_t)sprintf(text + n, "ftz = warn\n");
    write_file("p.ini", text, n);
    struct gs_policy *p = gs_policy_load("p.ini", msg, sizeof msg);
    if (p == NULL)
        fail_msg("%s", msg);
    struct gs_policy_values v;
    gs_policy_resolve(p, GELUREF_GELU, GELUREF_BF16, &v);
    assert_int_equal(v.severity[GS_K_FTZ], GS_SEV_WARN);
    gs_policy_free(p);
    /* random bytes (splitmix-like LCG, fixed seeds): never crash; a NUL or a bad line ends
     * it with a message naming p.ini */
    uint64_t s = 1;
    for (int round = 0; round < 200; round++) {
        size_t len = 1 + (size_t)(round * 97 % 4000);
        for (size_t i = 0; i < len; i++) {
            s = s * 6364136223846793005u + 1442695040888963407u; /* Knuth's MMIX LCG */
            unsigned c = (unsigned)(s >> 56);
            /* half the rounds: printable text with newlines, brackets and '=' */
            text[i] = round % 2 ? (char)c : "[]=\n a.l1f32gelu"[c % 16];
        }
        write_file("p.ini", text, len);
        msg[0] = '\0';
        p = gs_policy_load("p.ini", msg, sizeof msg);
        if (p == NULL && strncmp(msg, "p.ini:", 6) != 0)
            fail_msg("round %d: %s", round, msg);
        gs_policy_free(p);
    }
    free(text);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(tmpdir) != NULL && chdir(tmpdir) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    /* what the tests wrote (best effort: a failed test may have stopped early) */
    remove("p.ini");
    remove("sub/mine.ini");
    remove("sub");
    remove("d.ini");
    if (chdir("/") != 0)
        return -1;
    remove(tmpdir);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        fixtures = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_example),
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_kernel_sections),
        cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests_name("suites_policy_ini", tests, setup, teardown);
}
