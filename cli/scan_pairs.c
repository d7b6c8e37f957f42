/* gelucheck run --torch-module: each ONNX site paired with a PyTorch activation (the scan's
 * "torch") measured against that activation's own kernel (the torch-module:FILE.pt adapter,
 * the torch adapter's --pairs) on the same inputs, per computation ORT runs at the site
 * (docs/model-audit.md, "The diff per pair").  For each pair and each kernel of the site:
 * how many outputs differ in their bits, the largest distance between them in ulp, in which
 * regions, which side is nearer the correctly rounded value of PyTorch's function where they
 * differ, each side's own accuracy as its suites measured it, and a verdict.  Written into
 * the scan under the site's "torch" as "diff" (gelucheck-scan/1, an extension). */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <geluref.h>
#include <suites.h>

#include "cli.h"
#include "resread.h"

#define PAIR_GRID_STEP 1024 /* f32: every multiple of 2^-10 in [-16, 16] */
#define PAIR_CHUNK 4096

/* The inputs of a pair of dtype dt: f16, bf16 every pattern; f32 the grid of [-16, 16] by
 * 2^-10, +-2^-k for k = 1..149 and the specials; f64 the same grid and specials.  *what says
 * which; NULL on no memory. */
static uint64_t *pair_inputs(enum geluref_dtype dt, size_t *n, const char **what)
{
    if (dt == GELUREF_F16 || dt == GELUREF_BF16) {
        uint64_t *x = malloc(65536 * sizeof *x);
        for (size_t i = 0; x && i < 65536; i++)
            x[i] = i;
        *n = 65536;
        *what = "every 16-bit pattern";
        return x;
    }
    static const double specials[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 3.4028234663852886e38,
                                       -3.4028234663852886e38, 1e30, -1e30, 1e10, -1e10, 100,
                                       -20, -40, -100, -1e4 };
    size_t grid = 32 * PAIR_GRID_STEP + 1, ns = sizeof specials / sizeof specials[0];
    uint64_t *x = malloc((grid + 2 * 149 + ns) * sizeof *x);
    size_t k = 0;
    if (!x)
        return NULL;
    for (size_t i = 0; i < grid; i++) {
        double v = -16.0 + (double)i / PAIR_GRID_STEP;
        x[k++] = gs_from_double(dt, v);
    }
    for (int e = 1; e <= 149; e++) {
        for (int s = 0; s < 2; s++) {
            x[k++] = gs_from_double(dt, ldexp(s ? -1.0 : 1.0, -e));
        }
    }
    for (size_t i = 0; i < ns; i++) {
        x[k++] = gs_from_double(dt, specials[i]);
    }
    *n = k;
    *what = dt == GELUREF_F32 ? "every multiple of 2^-10 in [-16, 16], +-2^-k for k = 1..149 "
                                "and 16 specials (+-0, +-inf, NaN, +-FLT_MAX, ...)"
                              : "every multiple of 2^-10 in [-16, 16], +-2^-k for k = 1..149 "
                                "and 16 specials";
    return x;
}

/* ulp between two outputs: INFINITY when one is NaN and the other is not. */
static double apart(enum geluref_dtype dt, uint64_t a, uint64_t b)
{
    int na = gs_is_nan(dt, a), nb = gs_is_nan(dt, b);
    if (na || nb)
        return na && nb ? 0 : INFINITY;
    int64_t d = gs_pos(dt, a) - gs_pos(dt, b);
    return (double)(d < 0 ? -d : d);
}

/* Each side's own accuracy, from its kernel's suites in the result; null when not measured. */
static json_t *accuracy(const json_t *doc, const char *spec, const char *name)
{
    size_t i;
    json_t *k, *found = NULL;
    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        if (strcmp(rr_str(k, "adapter"), spec) == 0 && strcmp(rr_str(k, "kernel"), name) == 0)
            found = k;
    }
    return cli_kernel_accuracy(found);
}

json_t *cli_kernel_accuracy(const json_t *found)
{
    size_t i;
    if (!found || !json_array_size(json_object_get(found, "suites")))
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "verdict", json_string(rr_str(found, "verdict")));
    static const char *const near[] = { "[-1,0)", "[0,1)", "x>=1" };
    const json_t *regions = json_object_get(json_object_get(rr_suite(found, "ulp"), "metrics"),
                                            "regions");
    double worst = -1, v;
    for (size_t r = 0; r < 3; r++) {
        if (rr_real(json_object_get(json_object_get(regions, near[r]), "max_ulp"), &v) == 0 &&
            (v > worst || v != v))
            worst = v != v ? INFINITY : v;
    }
    json_object_set_new(o, "max_ulp_near", worst >= 0 && isfinite(worst) ? json_real(worst)
                                                                           : json_null());
    const json_t *tail = rr_suite(found, "tail"), *fp = NULL;
    if (tail && strcmp(rr_str(tail, "verdict"), "error") != 0)
        fp = json_object_get(json_object_get(tail, "metrics"), "flush_point");
    json_object_set_new(o, "flush_point", json_is_object(fp) && rr_str(fp, "dec")[0]
                        ? json_real(strtod(rr_str(fp, "dec"), NULL)) : json_null());
    const json_t *row, *sp = rr_suite(found, "special"), *minf = NULL;
    json_array_foreach(json_object_get(json_object_get(sp, "metrics"), "table"), i, row) {
        if (strcmp(rr_str(row, "input"), "-inf") == 0)
            minf = json_object_get(row, "got");
    }
    json_object_set_new(o, "f_minus_inf", json_is_object(minf) ? json_string(rr_str(minf, "dec"))
                                          : json_null());
    long long wrong = 0;
    const json_t *s;
    json_array_foreach(json_object_get(found, "suites"), i, s)
        wrong = rr_count_add(wrong, rr_suite_kind_count(s, "wrong_sign"));
    json_object_set_new(o, "wrong_signs", json_integer(wrong));
    json_object_set_new(o, "suites", json_integer((json_int_t)json_array_size(
                                                     json_object_get(found, "suites"))));
    return o;
}

static void append(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    if (len < size)
        vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

/* The aspects where the ONNX side is worse (worse = 1) or better (worse = 0) than PyTorch's. */
static void aspects(char *buf, size_t size, const json_t *ta, const json_t *oa, int worse)
{
    double t, o;
    const char *sep = "";
    if (!json_is_object(ta) || !json_is_object(oa))
        return;
    if (rr_real(json_object_get(oa, "max_ulp_near"), &o) == 0 &&
        rr_real(json_object_get(ta, "max_ulp_near"), &t) == 0 &&
        (worse ? o > t + 0.25 : t > o + 0.25)) {
        append(buf, size, "%smax ulp for x >= -1 %.3g instead of %.3g", sep, o, t);
        sep = "; ";
    }
    const json_t *of = json_object_get(oa, "flush_point"), *tf = json_object_get(ta, "flush_point");
    if (rr_real(of, &o) == 0 && rr_real(tf, &t) == 0 && (worse ? o > t : t > o) &&
        fabs(o - t) > 1e-3 * fabs(t)) { /* a flush point 0.1% apart or more */
        append(buf, size, "%sflush from %.8g instead of %.8g", sep, o, t);
        sep = "; ";
    } /* null: no flush found, or no tail suite run: not compared */
    long long ow = json_integer_value(json_object_get(oa, "wrong_signs")),
              tw = json_integer_value(json_object_get(ta, "wrong_signs"));
    if (worse ? ow > tw : tw > ow) {
        append(buf, size, "%s%lld wrong signs instead of %lld", sep, ow, tw);
        sep = "; ";
    }
    const char *os = rr_str(oa, "f_minus_inf"), *ts = rr_str(ta, "f_minus_inf");
    double om = strtod(os, NULL), tm = strtod(ts, NULL);
    if (os[0] && ts[0] && (om != om) != (tm != tm) && (worse ? om != om : tm != tm))
        append(buf, size, "%sf(-inf) %s instead of %s", sep, os, ts);
}

/* The verdict of one pair at one kernel of the site. */
static void verdict(json_t *d, const char *site, const char *levels, int changed,
                    const char *tfunc, const char *ofunc)
{
    char v[1024] = "", worse[512] = "", better[512] = "";
    long long differ = json_integer_value(json_object_get(d, "differ")),
              of = json_integer_value(json_object_get(d, "onnx_farther")),
              tf = json_integer_value(json_object_get(d, "torch_farther"));
    const json_t *ta = json_object_get(d, "torch_accuracy"),
                 *oa = json_object_get(d, "onnx_accuracy");
    if (differ == 0) {
        json_object_set_new(d, "verdict", json_string("same bits"));
        json_object_set_new(d, "worse_side", json_null());
        return;
    }
    const char *side;
    int widen = json_object_get(d, "torch_rounded") != NULL;
    if (!changed && !widen) { /* the suites measured both against one function, one dtype */
        aspects(worse, sizeof worse, ta, oa, 1);
        aspects(better, sizeof better, ta, oa, 0);
    }
    if (changed)
        append(v, sizeof v, "the conversion changed the formula (%s in PyTorch, %s in ONNX); ",
               tfunc, ofunc);
    if (worse[0] && !better[0]) {
        side = "onnx";
        append(v, sizeof v, "the conversion made it worse at %s (%s): %s", site, levels, worse);
    } else if (better[0] && !worse[0]) {
        side = "pytorch";
        append(v, sizeof v, "the ONNX side is more accurate at %s (%s): %s", site, levels,
               better);
    } else if (worse[0]) {
        side = "mixed";
        append(v, sizeof v, "mixed at %s (%s): ONNX worse in %s; better in %s", site, levels,
               worse, better);
    } else if (of > tf) {
        side = "onnx";
        append(v, sizeof v, "the conversion made it worse at %s (%s): ONNX is the farther "
               "from the correctly rounded %s at %lld of the %lld differing outputs, PyTorch "
               "at %lld", site, levels, tfunc, of, differ, tf);
    } else if (tf > of) {
        side = "pytorch";
        append(v, sizeof v, "the ONNX side is more accurate at %s (%s): PyTorch is the "
               "farther from the correctly rounded %s at %lld of the %lld differing outputs, "
               "ONNX at %lld", site, levels, tfunc, tf, differ, of);
    } else {
        side = "neither";
        append(v, sizeof v, "%lld outputs differ at %s (%s); neither side is the worse", differ,
               site, levels);
    }
    json_object_set_new(d, "verdict", json_string(v));
    /* which side is the worse, in a word, for the table of every runtime (markdown_sites.c):
     * onnx, pytorch, mixed, neither; null for the same bits */
    json_object_set_new(d, "worse_side", json_string(side));
}

static const struct gc_kernel *kernel_named(const struct gc_adapter *a, const char *name,
                                            size_t len)
{
    for (size_t i = 0; a && i < a->n_kernels; i++) {
        if (strlen(a->kernels[i].name) >= len && strncmp(a->kernels[i].name, name, len) == 0 &&
            (a->kernels[i].name[len] == '\0' || a->kernels[i].name[len] == '.'))
            return &a->kernels[i];
    }
    return NULL;
}

/* Evaluates both kernels on x and fills d with the comparison; -1 with d's "reason" set when
 * one of them fails. */
static int compare(json_t *d, const struct gc_kernel *tk, const struct gc_kernel *ok,
                   const uint64_t *x, size_t n, enum geluref_func ref)
{
    enum geluref_dtype dt = ok->dtype;
    size_t sz = ok->elem_size;
    /* an f16 site beside an f32 activation: PyTorch's f32 output at the f16 input, rounded
     * to f16 (what the float module gives, stored in the model's type) */
    int widen = tk->dtype == GELUREF_F32 && dt == GELUREF_F16;
    unsigned char *xb = malloc(PAIR_CHUNK * sz), *ty = malloc(PAIR_CHUNK * 4),
                  *oy = malloc(PAIR_CHUNK * sz), *xw = widen ? malloc(PAIR_CHUNK * 4) : NULL;
    long long differ = 0, nan_mismatch = 0, onnx_farther = 0, torch_farther = 0;
    long long region[GS_N_REGIONS + 1] = { 0 };
    double worst = 0;
    uint64_t wx = 0, wt = 0, wo = 0;
    char msg[512];
    int rc = 0;
    if (!xb || !ty || !oy || (widen && !xw)) {
        json_object_set_new(d, "reason", json_string("out of memory"));
        rc = -1;
        goto out;
    }
    for (size_t at = 0; at < n; at += PAIR_CHUNK) {
        size_t m = n - at < PAIR_CHUNK ? n - at : PAIR_CHUNK;
        for (size_t i = 0; i < m; i++)
            memcpy(xb + i * sz, &x[at + i], sz);
        if (widen) {
            for (size_t i = 0; i < m; i++) {
                float f = (float)gs_to_double(dt, x[at + i]);
                memcpy(xw + i * 4, &f, 4);
            }
        }
        if (gc_kernel_eval(tk, widen ? xw : xb, ty, m, msg, sizeof msg) != GC_OK ||
            gc_kernel_eval(ok, xb, oy, m, msg + 1, sizeof msg - 1) != GC_OK) {
            char why[700];
            snprintf(why, sizeof why, "cannot evaluate the pair: %s", msg[0] ? msg : msg + 1);
            json_object_set_new(d, "reason", json_string(why));
            rc = -1;
            goto out;
        }
        for (size_t i = 0; widen && i < m; i++) { /* round PyTorch's f32 to f16, RN */
            float f;
            memcpy(&f, ty + i * 4, 4);
            _Float16 h = (_Float16)f;
            memcpy(ty + i * 2, &h, 2);
        }
        for (size_t i = 0; i < m; i++) {
            uint64_t a = gs_load(dt, ty, i), b = gs_load(dt, oy, i);
            if (a == b || (gs_is_nan(dt, a) && gs_is_nan(dt, b)))
                continue;
            differ++;
            double u = apart(dt, a, b);
            nan_mismatch += u == INFINITY;
            if (u > worst || differ == 1) {
                worst = u > worst ? u : worst;
                wx = x[at + i];
                wt = a;
                wo = b;
            }
            region[gs_region_of(dt, x[at + i])]++;
            uint64_t r;
            if (geluref_eval(ref, dt, x[at + i], MPFR_RNDN, &r, NULL, NULL) == GELUREF_OK) {
                double ua = apart(dt, a, r), ub = apart(dt, b, r);
                onnx_farther += ub > ua;
                torch_farther += ua > ub;
            }
        }
    }
    json_object_set_new(d, "inputs", json_integer((json_int_t)n));
    json_object_set_new(d, "differ", json_integer(differ));
    json_object_set_new(d, "max_ulp_apart", differ == 0 ? json_integer(0)
                        : worst == INFINITY ? json_null() : json_real(worst));
    json_object_set_new(d, "nan_mismatch", json_integer(nan_mismatch));
    json_t *where = json_object();
    for (int r = 0; r < GS_N_REGIONS; r++) {
        if (region[r])
            json_object_set_new(where, gs_region_name((enum gs_region)r),
                                json_integer(region[r]));
    }
    json_object_set_new(d, "regions", where);
    json_object_set_new(d, "onnx_farther", json_integer(onnx_farther));
    json_object_set_new(d, "torch_farther", json_integer(torch_farther));
    if (differ) {
        char b[64];
        json_t *w = json_object();
        snprintf(b, sizeof b, "%.9g", gs_to_double(dt, wx));
        json_object_set_new(w, "x", json_string(b));
        snprintf(b, sizeof b, "%.9g", gs_to_double(dt, wt));
        json_object_set_new(w, "torch", json_string(b));
        snprintf(b, sizeof b, "%.9g", gs_to_double(dt, wo));
        json_object_set_new(w, "onnx", json_string(b));
        json_object_set_new(d, "widest", w);
    }
out:
    free(xw);
    free(xb);
    free(ty);
    free(oy);
    return rc;
}

void cli_pair_diffs(json_t *doc, struct gc_adapter *const *ads, const char *const *specs,
                    size_t n)
{
    size_t t = n;
    for (size_t s = 0; s < n; s++) {
        if (ads[s] && strncmp(specs[s], "torch-module:", 13) == 0)
            t = s;
    }
    if (t == n)
        return;
    for (size_t s = 0; s < n; s++) {
        json_t *scan = json_object_get(json_array_get(json_object_get(doc, "adapters"), s),
                                       "scan"), *site;
        size_t i;
        if (!ads[s] || !json_is_object(json_object_get(scan, "torch")))
            continue;
        json_object_set_new(json_object_get(scan, "torch"), "measured_by",
                            json_string(specs[t]));
        json_array_foreach(json_object_get(scan, "sites"), i, site) {
            json_t *p = json_object_get(site, "torch");
            if (!json_is_object(p))
                continue;
            char tname[64];
            snprintf(tname, sizeof tname, "a%lld",
                     (long long)json_integer_value(json_object_get(p, "activation")));
            const struct gc_kernel *tk = kernel_named(ads[t], tname, strlen(tname));
            json_t *diffs = json_array();
            const json_t *levels = json_object_get(scan, "levels");
            size_t nl = json_array_size(levels);
            for (size_t l = 0; l < nl; l++) {
                const char *lv = json_string_value(json_array_get(levels, l));
                const char *kn = rr_str(json_object_get(json_object_get(site, "levels"), lv),
                                        "kernel");
                if (!kn[0])
                    continue;
                json_t *d = NULL, *e;
                size_t j;
                json_array_foreach(diffs, j, e) {
                    if (strcmp(rr_str(e, "kernel"), kn) == 0)
                        d = e;
                }
                if (d) {
                    json_array_append_new(json_object_get(d, "levels"), json_string(lv));
                    continue;
                }
                d = json_object();
                json_object_set_new(d, "kernel", json_string(kn));
                json_object_set_new(d, "levels", json_pack("[s]", lv));
                json_array_append_new(diffs, d);
            }
            json_t *d;
            size_t j;
            json_array_foreach(diffs, j, d) {
                const char *kn = rr_str(d, "kernel");
                const struct gc_kernel *ok = kernel_named(ads[s], kn, strlen(kn));
                json_object_set_new(d, "torch_kernel", tk ? json_string(tk->name) : json_null());
                int widen = tk && ok && tk->dtype == GELUREF_F32 && ok->dtype == GELUREF_F16;
                if (!tk || !ok || (tk->dtype != ok->dtype && !widen)) {
                    char why[256];
                    snprintf(why, sizeof why, !tk ? "the torch module's adapter has no kernel "
                             "for this activation (its note says why)" : !ok ? "this kernel is "
                             "not in the scan: adapter" : "PyTorch computes it in %s, the site "
                             "in %s: not compared", tk ? geluref_dtype_name(tk->dtype) : "",
                             ok ? geluref_dtype_name(ok->dtype) : "");
                    json_object_set_new(d, "compared", json_false());
                    json_object_set_new(d, "reason", json_string(why));
                    continue;
                }
                size_t nx;
                const char *what;
                uint64_t *x = pair_inputs(ok->dtype, &nx, &what);
                if (!x || compare(d, tk, ok, x, nx, tk->func) != 0) {
                    json_object_set_new(d, "compared", json_false());
                    if (!json_object_get(d, "reason"))
                        json_object_set_new(d, "reason", json_string("out of memory"));
                    free(x);
                    continue;
                }
                free(x);
                json_object_set_new(d, "compared", json_true());
                json_object_set_new(d, "input_set", json_string(what));
                if (widen)
                    json_object_set_new(d, "torch_rounded", json_string(
                        "PyTorch's float32 output at each f16 input, rounded to f16 (RN)"));
                json_object_set_new(d, "torch_accuracy", accuracy(doc, specs[t], tk->name));
                json_object_set_new(d, "onnx_accuracy", accuracy(doc, specs[s], kn));
                char lvs[128] = "";
                const json_t *lj;
                size_t q;
                json_array_foreach(json_object_get(d, "levels"), q, lj)
                    append(lvs, sizeof lvs, "%s%s", q ? ", " : "", json_string_value(lj));
                verdict(d, rr_str(site, "site"), lvs,
                        json_is_true(json_object_get(p, "formula_changed")),
                        geluref_func_name(tk->func), geluref_func_name(ok->func));
            }
            json_object_set_new(p, "diff", diffs);
        }
    }
}
