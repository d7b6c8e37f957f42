/* The SVG plots (reports/svg.c, svg_fig.c, plots*.c, slug.c): scales and ticks, number
 * formatting and escaping, and the flush marker of a fixture kernel placed at the
 * pixel its x maps to.
 *
 * For the end-to-end check of plots_check.cmake instead: `test_plots write DIR RESULT.json`
 * writes the plots of every kernel of a result into DIR (rp_plots_write), `test_plots compare
 * OUT.svg RESULT.json...` the combined plot of several results (rp_plot_compare_write). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plots.h"
#include "reports.h"
#include "svg.h"

/* binary32: the smallest subnormal and the largest finite value */
#define F32_TINY 0x1p-149
#define F32_MAX 0x1.fffffep+127

static void symlog_scale(void **state)
{
    (void)state;
    struct svg_scale s = { .kind = SVG_SYMLOG, .lo = -F32_MAX, .hi = F32_MAX, .tiny = F32_TINY,
                           .p0 = 0, .p1 = 1000 };
    assert_true(svg_scale_t(&s, 0) == 0);
    assert_true(svg_scale_t(&s, F32_TINY) == 1);
    assert_true(svg_scale_t(&s, -F32_TINY) == -1);
    /* every binade one unit wide: 1 is 149 binades above tiny */
    assert_true(svg_scale_t(&s, 1) == 150);
    assert_true(svg_scale_t(&s, -2) == -151);
    /* increasing through every sign and scale, 0 in the middle of the axis */
    static const double v[] = { -F32_MAX, -1e30, -5.5, -1, -1e-30, -F32_TINY, -F32_TINY / 2,
                                0, F32_TINY / 2, F32_TINY, 1e-30, 1, 5.5, 1e30, F32_MAX };
    for (size_t i = 1; i < sizeof v / sizeof v[0]; i++)
        assert_true(svg_scale_t(&s, v[i - 1]) < svg_scale_t(&s, v[i]));
    assert_true(fabs(svg_scale_px(&s, 0) - 500) < 1e-9);
    assert_true(svg_scale_px(&s, -F32_MAX) == 0);
    assert_true(svg_scale_px(&s, F32_MAX) == 1000);
    /* binary64: max / tiny overflows, t does not (2^1024 is 2098 binades above 2^-1074) */
    struct svg_scale d = { .kind = SVG_SYMLOG, .lo = -DBL_MAX, .hi = DBL_MAX,
                           .tiny = 0x1p-1074 };
    assert_true(fabs(svg_scale_t(&d, DBL_MAX) - 2099) < 1e-9);
    assert_true(svg_scale_t(&d, -DBL_MAX) == -svg_scale_t(&d, DBL_MAX));
    /* outside the domain: clamped 5% beyond the ends */
    assert_true(svg_scale_px(&s, -HUGE_VAL) == -50);
    assert_true(svg_scale_px(&s, NAN) == 0);
}

static void log_scale(void **state)
{
    (void)state;
    struct svg_scale s = { .kind = SVG_LOG, .lo = 1e-3, .hi = 1e5, .p0 = 400, .p1 = 0 };
    assert_true(fabs(svg_scale_t(&s, 1000) - 3) < 1e-12);
    assert_true(fabs(svg_scale_px(&s, 1) - 250) < 1e-9);    /* 3 of 8 decades up */
    assert_true(fabs(svg_scale_px(&s, 0) - 420) < 1e-9);    /* log 0: the bottom clamp */
    assert_true(svg_scale_px(&s, 10) < svg_scale_px(&s, 1)); /* up the page */
}

static void ticks(void **state)
{
    (void)state;
    double t[32];
    char lab[48];
    struct svg_scale lin = { .kind = SVG_LINEAR, .lo = -6, .hi = 6 };
    size_t n = svg_scale_ticks(&lin, t, 32);
    assert_int_equal(n, 7); /* step 2 */
    assert_true(t[0] == -6 && t[3] == 0 && !signbit(t[3]) && t[6] == 6);
    svg_tick_label(&lin, -0.0004, lab, sizeof lab);
    assert_string_equal(lab, "-0.0004");

    struct svg_scale lg = { .kind = SVG_LOG, .lo = 1e-3, .hi = 1e8 };
    n = svg_scale_ticks(&lg, t, 32);
    assert_int_equal(n, 6); /* 12 decades: every second one */
    assert_true(t[0] == 1e-2 && t[5] == 1e8);
    svg_tick_label(&lg, 1e-3, lab, sizeof lab);
    assert_string_equal(lab, "0.001");
    svg_tick_label(&lg, 1e8, lab, sizeof lab);
    assert_string_equal(lab, "1e8");

    struct svg_scale sl = { .kind = SVG_SYMLOG, .lo = -F32_MAX, .hi = F32_MAX,
                            .tiny = F32_TINY };
    n = svg_scale_ticks(&sl, t, 32);
    assert_int_equal(n, 9); /* +-1e-40, +-1e-20, +-1, +-1e20 every 20 decades, and 0 */
    for (size_t i = 0; i < n; i++) {
        assert_true(t[i] == -t[n - 1 - i]);
        assert_true(i == 0 || t[i - 1] < t[i]);
    }
    assert_true(t[4] == 0 && t[5] == 1e-40 && t[7] == 1);
    svg_tick_label(&sl, -1e20, lab, sizeof lab);
    assert_string_equal(lab, "-1e20");
    /* degenerate axes: no ticks rather than a loop without end */
    struct svg_scale bad[] = { { .kind = SVG_LOG, .lo = 0, .hi = 1 },
                               { .kind = SVG_LINEAR, .lo = 1, .hi = 1 },
                               { .kind = SVG_LINEAR, .lo = 0, .hi = HUGE_VAL },
                               { .kind = SVG_SYMLOG, .lo = -1, .hi = 1, .tiny = 0 } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(svg_scale_ticks(&bad[i], t, 32), 0);
    /* f64 subnormals down to 2^-1074: 1e-323 is the lowest decade */
    struct svg_scale deep = { .kind = SVG_LOG, .lo = 0x1p-1074, .hi = 1 };
    n = svg_scale_ticks(&deep, t, 32);
    assert_true(n >= 2 && n <= 8 && t[n - 1] == 1);
}

static void formatting(void **state)
{
    (void)state;
    char b[64];
    svg_fmt_px(b, sizeof b, 123.456);
    assert_string_equal(b, "123.46");
    svg_fmt_px(b, sizeof b, -0.5);
    assert_string_equal(b, "-0.50");
    svg_fmt_px(b, sizeof b, 3);
    assert_string_equal(b, "3");
    svg_fmt_num(b, sizeof b, 0.1 + 0.2, 17);
    assert_string_equal(b, "0.30000000000000004");
    svg_fmt_num(b, sizeof b, -HUGE_VAL, 6);
    assert_string_equal(b, "-inf");
    struct svg_buf s = { 0 };
    svg_escaped(&s, "a&b<c>\"d'\t\x01\xff\xc3\xa9"); /* a control byte, a stray byte, e-acute */
    assert_string_equal(s.p, "a&amp;b&lt;c&gt;&quot;d&apos;&#9;\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9");
    free(s.p);
}

/* The pixel x1 of the <line> in the element with id `id`, NaN when not found. */
static double marker_x(const char *svg, const char *id)
{
    char key[64];
    snprintf(key, sizeof key, "id=\"%s\"", id);
    const char *p = strstr(svg, key);
    p = p ? strstr(p, "x1=\"") : NULL;
    return p ? strtod(p + 4, NULL) : NAN;
}

/* A kernel of the libm erf1p.f32 kind: two binades, a flush point and the last non-zero, and
 * a tail curve with a correct output, a flushed one and a correct zero. */
static json_t *fixture_kernel(void)
{
    static const char text[] =
        "{\"adapter\": \"libm\", \"kernel\": \"erf1p.f32\", \"func\": \"gelu\","
        " \"dtype\": \"f32\", \"suites\": ["
        "{\"name\": \"ulp\", \"metrics\": {\"binades\": ["
        "  {\"sign\": \"-\", \"exponent\": 2, \"lo\": {\"bits\": \"0xc0ffffff\"},"
        "   \"hi\": {\"bits\": \"0xc0800000\"}, \"max_ulp\": 1.5, \"nonfinite\": 0},"
        "  {\"sign\": \"+\", \"exponent\": 0, \"lo\": {\"bits\": \"0x3f800000\"},"
        "   \"hi\": {\"bits\": \"0x3fffffff\"}, \"max_ulp\": null, \"nonfinite\": 3}]}},"
        "{\"name\": \"tail\", \"metrics\": {"
        "  \"flush_point\": {\"dec\": \"-5.5425944\", \"bits\": \"0xc0b15cef\"},"
        "  \"last_nonzero\": {\"dec\": \"-14.356068\", \"bits\": \"0xc165b274\"},"
        "  \"curve\": [[-1.0, -0.15, -0.15], [-6.0, 0.0, -1e-9], [-16.0, 0.0, -0.0]]}}]}";
    return json_loads(text, 0, NULL);
}

static void flush_marker_placed(void **state)
{
    (void)state;
    json_t *k = fixture_kernel();
    assert_non_null(k);
    char *svg = NULL;
    assert_int_equal(pl_ulp_svg(k, &svg), 0);
    assert_non_null(svg);
    /* the figure's plot area, as svg_fig_init sets it */
    struct svg_scale x, y = { .kind = SVG_LOG, .lo = 1, .hi = 10 };
    pl_ulp_xscale(F32_TINY, F32_MAX, &x);
    struct svg_fig f;
    svg_fig_init(&f, "t", &x, &y);
    double left = f.left, right = f.right;
    svg_fig_release(&f);
    /* by hand: the axis spans t = -+(log2(max / tiny) + 1); the flush point -0x1.62b9dep+2 */
    double fp = -0x1.62b9dep+2, t0 = log2(F32_MAX / F32_TINY) + 1;
    double want = left + (-(log2(-fp / F32_TINY) + 1) + t0) / (2 * t0) * (right - left);
    print_message("flush marker at %.2f px, want %.2f\n", marker_x(svg, "flush_point"), want);
    assert_true(fabs(marker_x(svg, "flush_point") - want) < 0.006);
    double lnz = -0x1.cb64e8p+3;
    want = left + (-(log2(-lnz / F32_TINY) + 1) + t0) / (2 * t0) * (right - left);
    assert_true(fabs(marker_x(svg, "last_nonzero") - want) < 0.006);
    assert_non_null(strstr(svg, "id=\"flush_region\""));
    assert_non_null(strstr(svg, "NaN or infinite")); /* the binade with nonfinite 3 */
    free(svg);

    /* the tail plot: x linear from -16 to 0 */
    assert_int_equal(pl_tail_svg(k, &svg), 0);
    assert_non_null(svg);
    want = left + (fp + 16) / 16 * (right - left);
    assert_true(fabs(marker_x(svg, "flush_point") - want) < 0.006);
    assert_non_null(strstr(svg, "where RN(f(x)) is not")); /* x = -6 */
    assert_non_null(strstr(svg, "output 0 = RN(f(x))"));   /* x = -16 */
    free(svg);
    /* no vs_exact: no approx plot */
    assert_int_equal(pl_approx_svg(k, &svg), 0);
    assert_null(svg);
    json_decref(k);
}

/* The linear view: x from -10 to 10, the flush point at its pixel, the last non-zero x
 * (-14.36) left out and the flush region cut at -10. */
static void linear_view(void **state)
{
    (void)state;
    json_t *k = fixture_kernel();
    char *svg = NULL;
    assert_int_equal(pl_ulp_linear_svg(k, &svg), 0);
    assert_non_null(svg);
    struct svg_scale x = { .kind = SVG_LINEAR, .lo = -10, .hi = 10 };
    struct svg_scale y = { .kind = SVG_LOG, .lo = 1, .hi = 10 };
    struct svg_fig f;
    svg_fig_init(&f, "t", &x, &y);
    double left = f.left, right = f.right;
    svg_fig_release(&f);
    double want = left + (-0x1.62b9dep+2 + 10) / 20 * (right - left);
    assert_true(fabs(marker_x(svg, "flush_point") - want) < 0.006);
    assert_true(isnan(marker_x(svg, "last_nonzero")));
    const char *span = strstr(svg, "id=\"flush_region\"");
    assert_non_null(span);
    assert_true(fabs(strtod(strstr(span, " x=\"") + 4, NULL) - left) < 0.006);
    assert_non_null(strstr(svg, "-10 &lt;= x &lt;= 10"));
    free(svg);
    json_decref(k);
}

/* `test_plots write DIR RESULT.json`: rp_plots_write for every kernel of the result. */
static int write_main(char **argv)
{
    char msg[512];
    size_t i;
    json_t *k, *doc = json_load_file(argv[3], 0, NULL);
    if (!doc) {
        fprintf(stderr, "test_plots: cannot read '%s'\n", argv[3]);
        return 1;
    }
    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        unsigned which = 0;
        if (rp_plots_write(k, argv[2], &which, msg, sizeof msg) != 0) {
            fprintf(stderr, "test_plots: %s\n", msg);
            json_decref(doc);
            return 1;
        }
        printf("%s %s: plots %#x\n", json_string_value(json_object_get(k, "adapter")),
               json_string_value(json_object_get(k, "kernel")), which);
    }
    json_decref(doc);
    return 0;
}

/* rp_plots_write: the files and the mask of what was written, without and with vs_exact. */
static void plots_written(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_plots.XXXXXX", path[128], msg[256];
    assert_non_null(mkdtemp(dir));
    json_t *k = fixture_kernel();
    unsigned which = 0;
    assert_int_equal(rp_plots_write(k, dir, &which, msg, sizeof msg), 0);
    assert_int_equal(which, RP_PLOT_ULP | RP_PLOT_ULP_LINEAR | RP_PLOT_TAIL);
    json_object_set_new(k, "vs_exact", json_loads("{\"func\": \"gelu\", \"curve\": "
                                                  "[[-1, -0.16, -0.15], [1, 0.84, 0.85]]}",
                                                  0, NULL));
    assert_int_equal(rp_plots_write(k, dir, &which, msg, sizeof msg), 0);
    assert_int_equal(which, RP_PLOT_ULP | RP_PLOT_ULP_LINEAR | RP_PLOT_TAIL | RP_PLOT_APPROX);
    static const char *const kinds[] = { "ulp", "ulp_linear", "tail", "approx" };
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/libm-erf1p.f32-%s.svg", dir, kinds[i]);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        if (f) {
            fclose(f);
            remove(path);
        }
    }
    /* a folder that does not exist: an error naming the file */
    snprintf(path, sizeof path, "%s/missing", dir);
    assert_int_not_equal(rp_plots_write(k, path, &which, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "missing/libm-erf1p.f32-ulp.svg"));
    remove(dir);
    json_decref(k);
}

static int compare_main(int argc, char **argv)
{
    json_t *docs[16] = { NULL };
    char msg[512];
    int n = 0, rc = 0;
    for (int i = 3; i < argc && n < 16; i++) {
        if (!(docs[n] = json_load_file(argv[i], 0, NULL))) {
            fprintf(stderr, "test_plots: cannot read '%s'\n", argv[i]);
            rc = 1;
            break;
        }
        n++;
    }
    if (rc == 0 && rp_plot_compare_write(docs, (size_t)n, argv[2], msg, sizeof msg) != 0) {
        fprintf(stderr, "test_plots: %s\n", msg);
        rc = 1;
    }
    for (int i = 0; i < n; i++)
        json_decref(docs[i]);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "compare") == 0)
        return compare_main(argc, argv);
    if (argc == 4 && strcmp(argv[1], "write") == 0)
        return write_main(argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(symlog_scale), cmocka_unit_test(log_scale),
        cmocka_unit_test(ticks),        cmocka_unit_test(formatting),
        cmocka_unit_test(flush_marker_placed), cmocka_unit_test(linear_view),
        cmocka_unit_test(plots_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
