/* gelucheck ref FUNC --dtype DT [--rounding MODE] [--scale S] X...: correctly rounded values.
 *
 * Output (stable: scripts split it on white space, e.g. scripts/audit), one line per X:
 *   FUNC DT MODE  x = DEC HEX BITS  LABEL = DEC HEX BITS
 * fields 6-8 are the input as DT holds it, 11-13 the result; LABEL is FUNC(x), or
 * gelu_scaled(x;s=DEC) for gelu_scaled.  Columns are padded to the dtype's widest text, so
 * the lines of one call align. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <geluref.h>

#include "cli.h"

struct ref_args {
    enum geluref_func func;
    enum geluref_dtype dtype;
    mpfr_rnd_t rnd;
    struct geluref_config cfg;
    int have_dtype, have_scale;
};

static const struct option long_opts[] = {
    { "dtype", required_argument, NULL, 'd' },
    { "rounding", required_argument, NULL, 'r' },
    { "scale", required_argument, NULL, 's' },
    { "prec-cap", required_argument, NULL, 'p' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};
static const char short_opts[] = "+:d:r:s:p:h";

/* "gelu, gelu_tanh, ..." into buf; a newline and indent spaces every per_line names. */
static const char *func_list(char *buf, size_t size, int per_line, int indent)
{
    buf[0] = '\0';
    for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_FUNC_LAST; f++) {
        size_t len = strlen(buf);
        int wrap = per_line > 0 && f > GELUREF_FUNC_FIRST && (f - 1) % per_line == 0;
        const char *sep = f == GELUREF_FUNC_FIRST ? "" : wrap ? ",\n" : ", ";
        snprintf(buf + len, size - len, "%s%*s%s", sep, wrap ? indent : 0, "",
                 geluref_func_name((enum geluref_func)f));
    }
    return buf;
}

static void usage(void)
{
    char funcs[256];

    printf("usage: gelucheck ref FUNC --dtype DT [--rounding MODE] [--scale S] [--prec-cap BITS] [--] X...\n"
           "\n"
           "Prints the correctly rounded value of FUNC at each X, in the dtype DT.\n"
           "\n"
           "  FUNC                  %s\n"
           "  -d, --dtype DT        f64, f32, f16 or bf16 (required)\n"
           "  -r, --rounding MODE   rn (to nearest, ties to even; the default), rz, ru, rd\n"
           "  -s, --scale S         s of gelu_scaled = x Phi(x/s): finite, > 0 (default 1)\n"
           "      --prec-cap BITS   the reference's working-precision cap, 16..1000000\n"
           "                        (default %d); reaching it is an error (exit 4)\n"
           "  -h, --help            this text\n"
           "\n"
           "X is a decimal (-5.6, 1e-3), a hex float with a 'p' exponent (-0x1.8p+1), the\n"
           "dtype's raw bits ('0x' and exactly 4 hex digits for f16 and bf16, 8 for f32, 16\n"
           "for f64: 0xc0b33333), or inf, -inf, nan (any case).  Decimals and hex floats are\n"
           "rounded to nearest-even into DT.  A negative X may follow FUNC directly (-5.6,\n"
           "-inf, -0x1p-149) or come after '--'.\n"
           "\n"
           "Output, one line per X, fields separated by white space:\n"
           "  FUNC DT MODE  x = DEC HEX BITS  FUNC(x) = DEC HEX BITS\n"
           "x is the input as DT holds it; DEC is the shortest decimal that reads back to the\n"
           "same DT value, HEX a normalised hex float, BITS the bit pattern.  For gelu_scaled\n"
           "the label is gelu_scaled(x;s=S).\n"
           "\n"
           "Example:\n"
           "  gelucheck ref gelu --dtype f32 -- -5.6 0x3f800000\n"
           "\n"
           "Exit status: 0 done, 2 usage error (nothing evaluated), 4 the reference failed.\n",
           func_list(funcs, sizeof funcs, 4, 24), GELUREF_PREC_CAP_DEFAULT);
}

/* Parses the --scale value: a finite number > 0. */
static int set_scale(struct ref_args *r, const char *text)
{
    const char *why = NULL;
    uint64_t b;
    double s;

    if (geluref_parse(text, GELUREF_F64, &b, &why) == GELUREF_OK) {
        memcpy(&s, &b, sizeof s); /* f64 bits are a double's, in the same byte order */
        if (isfinite(s) && s > 0) {
            r->cfg.scale = s;
            r->have_scale = 1;
            return 0;
        }
        why = "not finite or not > 0";
    }
    cli_error("bad scale '%s': %s", text, why);
    return -1;
}

/* Parses --prec-cap: a decimal number of bits in [16, 1000000]. */
static int set_prec_cap(struct ref_args *r, const char *text)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno == 0 && end != text && *end == '\0' && v >= 16 && v <= 1000000) {
        r->cfg.prec_cap = (mpfr_prec_t)v;
        return 0;
    }
    cli_error("bad precision cap '%s': expected a number of bits from 16 to 1000000", text);
    return -1;
}

/* One option from getopt_long; returns -1 after a message on a bad value. */
static int set_option(struct ref_args *r, int c, const char *val, char **av)
{
    switch (c) {
    case 'd':
        r->have_dtype = 1;
        if (geluref_dtype_from_name(val, &r->dtype) == 0)
            return 0;
        cli_error("unknown dtype '%s' (expected one of: f64, f32, f16, bf16)", val);
        return -1;
    case 'r':
        if (geluref_rnd_from_name(val, &r->rnd) == 0)
            return 0;
        cli_error("unknown rounding mode '%s' (expected one of: rn, rz, ru, rd)", val);
        return -1;
    case 's':
        return set_scale(r, val);
    case 'p':
        return set_prec_cap(r, val);
    default: /* ':' a missing value, '?' an unknown word */
        cli_bad_option(c, av[optind - 1]);
        return -1;
    }
}

/* Options and FUNC; on success *first is the index of the first X in av. */
static int parse_args(struct ref_args *r, int ac, char **av, int *first, int *help)
{
    char funcs[256];
    int c;

    opterr = 0;
    optind = 1;
    while ((c = getopt_long(ac, av, short_opts, long_opts, NULL)) != -1) {
        if (c == 'h')
            *help = 1;
        else if (set_option(r, c, optarg, av))
            return -1;
    }
    if (*help)
        return 0;
    if (optind >= ac) {
        cli_error("no function given (expected one of: %s)",
                  func_list(funcs, sizeof funcs, 0, 0));
        return -1;
    }
    if (geluref_func_from_name(av[optind], &r->func)) {
        cli_error("unknown function '%s' (expected one of: %s)", av[optind],
                  func_list(funcs, sizeof funcs, 0, 0));
        return -1;
    }
    if (!r->have_dtype) {
        cli_error("--dtype is required (f64, f32, f16 or bf16)");
        return -1;
    }
    if (r->have_scale && r->func != GELUREF_GELU_SCALED) {
        cli_error("--scale applies to gelu_scaled only, not to '%s'", av[optind]);
        return -1;
    }
    *first = optind + 1;
    if (*first >= ac) {
        cli_error("no input given: ref needs at least one X");
        return -1;
    }
    return 0;
}

/* Column widths per dtype: shortest decimal (sign, 17 digits, point, "e-308"; or 16 zeros
 * after 1 digit), hex float, bits. */
static void widths(enum geluref_dtype dt, int *dec, int *hex)
{
    static const int w[][2] = {
        [GELUREF_F64] = { 24, 24 }, [GELUREF_F32] = { 18, 16 },
        [GELUREF_F16] = { 12, 12 }, [GELUREF_BF16] = { 18, 12 },
    };
    *dec = w[dt][0];
    *hex = w[dt][1];
}

static void print_value(char *line, size_t size, enum geluref_dtype dt, uint64_t v)
{
    char dec[64], hex[64], bits[32];
    int wd, wh;

    widths(dt, &wd, &wh);
    geluref_format_dec(dec, sizeof dec, dt, v);
    geluref_format_hex(hex, sizeof hex, dt, v);
    geluref_format_bits(bits, sizeof bits, dt, v);
    snprintf(line, size, "%-*s %-*s %s", wd, dec, wh, hex, bits);
}

/* Evaluates and prints one line; returns an enum cli_exit. */
static int eval_one(const struct ref_args *r, const char *text, uint64_t x)
{
    int scaled = r->func == GELUREF_GELU_SCALED;
    const char *fn = geluref_func_name(r->func), *dt = geluref_dtype_name(r->dtype);
    char xs[160], ys[160], label[96], s[64];
    uint64_t y;

    enum geluref_status st = geluref_eval(r->func, r->dtype, x, r->rnd, &y, &r->cfg, NULL);
    if (st != GELUREF_OK) {
        cli_error("%s(%s) in %s %s: %s", fn, text, dt, geluref_rnd_name(r->rnd),
                  geluref_strerror(st));
        return CLI_EXIT_INTERNAL;
    }
    if (scaled) {
        uint64_t sb;
        memcpy(&sb, &r->cfg.scale, sizeof sb);
        geluref_format_dec(s, sizeof s, GELUREF_F64, sb);
        snprintf(label, sizeof label, "%s(x;s=%s)", fn, s);
    } else {
        snprintf(label, sizeof label, "%s(x)", fn);
    }
    print_value(xs, sizeof xs, r->dtype, x);
    print_value(ys, sizeof ys, r->dtype, y);
    printf("%s %s %s  x = %s  %s = %s\n", fn, dt, geluref_rnd_name(r->rnd), xs, label, ys);
    return CLI_EXIT_PASS;
}

/* Parses every X first (nothing runs on a usage error), then evaluates. */
static int run(const struct ref_args *r, int n, char **xs)
{
    uint64_t *bits = malloc((size_t)n * sizeof *bits);
    int rc = CLI_EXIT_PASS;
    const char *why;

    if (!bits) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    for (int i = 0; i < n && rc == CLI_EXIT_PASS; i++)
        if (geluref_parse(xs[i], r->dtype, &bits[i], &why) != GELUREF_OK) {
            cli_error("bad number '%s' for %s: %s", xs[i], geluref_dtype_name(r->dtype), why);
            rc = CLI_EXIT_USAGE;
        }
    for (int i = 0; i < n && rc != CLI_EXIT_USAGE; i++) {
        int e = eval_one(r, xs[i], bits[i]);
        rc = e > rc ? e : rc;
    }
    free(bits);
    return rc;
}

int cmd_ref(int argc, char **argv)
{
    struct ref_args r = { .rnd = MPFR_RNDN, .cfg = GELUREF_CONFIG_INIT };
    char **av = malloc(CLI_REORDER_SLOTS(argc) * sizeof *av);
    int first = 0, help = 0, rc;

    if (!av) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    int ac = cli_reorder(argc, argv, short_opts, long_opts, av);
    if (ac < 0 || parse_args(&r, ac, av, &first, &help)) {
        rc = CLI_EXIT_USAGE;
    } else if (help) {
        usage();
        rc = CLI_EXIT_PASS;
    } else {
        rc = run(&r, ac - first, av + first);
    }
    fflush(stdout);
    free(av);
    return rc;
}
