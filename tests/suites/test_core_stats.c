/* Findings (K worst per kind and region, order-independent merging, severities, JSON) and
 * error statistics (histogram, maxima with their argument, order-independent merging). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "suites.h"

#define N_RAND 300

/* The order of suites.h written out independently: score descending (NaN first, as +inf;
 * here scores are small integers so that ties happen), then x, then got ascending. */
static int brute_cmp(const void *pa, const void *pb)
{
    const struct gs_finding *a = pa, *b = pb;
    double sa = isnan(a->score) ? INFINITY : a->score, sb = isnan(b->score) ? INFINITY : b->score;
    if (sa != sb)
        return sa > sb ? -1 : 1;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return a->got < b->got ? -1 : a->got > b->got;
}

static void make(struct gs_finding *v, struct gs_rng *r)
{
    memset(v, 0, sizeof *v);
    v->kind = GS_K_ULP_EXCEEDED;
    v->region = GS_R_M1_0;
    v->has_x = v->has_got = v->has_want = 1;
    uint64_t s = gs_rng_below(r, 12);
    v->score = s == 11 ? NAN : s == 10 ? INFINITY : (double)s;
    v->x = gs_rng_below(r, 40); /* duplicates on purpose: ties down to got */
    v->got = gs_rng_below(r, 1u << 20);
    v->want = 7;
    v->ulp = v->score;
    v->abs_err = NAN;
}

static void same_bucket(const struct gs_bucket *a, const struct gs_bucket *b)
{
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->n_worst, b->n_worst);
    for (size_t i = 0; i < a->n_worst; i++) {
        assert_int_equal(a->worst[i].x, b->worst[i].x);
        assert_int_equal(a->worst[i].got, b->worst[i].got);
        assert_true(brute_cmp(&a->worst[i], &b->worst[i]) == 0);
    }
}

static void test_worst_and_merge(void **state)
{
    (void)state;
    static struct gs_finding all[N_RAND];
    struct gs_rng r;
    gs_rng_seed(&r, 7);
    for (int i = 0; i < N_RAND; i++)
        make(&all[i], &r);
    /* one set, added in order */
    struct gs_findings one, p[3], ab, abc, cba;
    gs_findings_init(&one);
    for (int i = 0; i < N_RAND; i++)
        gs_findings_add(&one, &all[i]);
    /* the brute force: sort everything, take the first K */
    static struct gs_finding sorted[N_RAND];
    memcpy(sorted, all, sizeof all);
    qsort(sorted, N_RAND, sizeof sorted[0], brute_cmp);
    const struct gs_bucket *b = one.b[GS_K_ULP_EXCEEDED][GS_R_M1_0];
    assert_non_null(b);
    assert_int_equal(b->count, N_RAND);
    assert_int_equal(b->n_worst, GS_WORST_K);
    for (int i = 0; i < GS_WORST_K; i++)
        if (brute_cmp(&b->worst[i], &sorted[i]) != 0)
            fail_msg("worst[%d]: x %llu got %llu, want x %llu got %llu", i,
                     (unsigned long long)b->worst[i].x, (unsigned long long)b->worst[i].got,
                     (unsigned long long)sorted[i].x, (unsigned long long)sorted[i].got);
    assert_true(isnan(b->worst[0].score) || isinf(b->worst[0].score));
    /* three parts (interleaved), merged as (0+1)+2 and 2+(1+0) */
    for (int k = 0; k < 3; k++)
        gs_findings_init(&p[k]);
    for (int i = 0; i < N_RAND; i++)
        gs_findings_add(&p[(i * 7) % 3], &all[i]);
    gs_findings_init(&ab);
    gs_findings_merge(&ab, &p[0]);
    gs_findings_merge(&ab, &p[1]);
    gs_findings_init(&abc);
    gs_findings_merge(&abc, &ab);
    gs_findings_merge(&abc, &p[2]);
    gs_findings_init(&cba);
    gs_findings_merge(&cba, &p[2]);
    gs_findings_merge(&p[1], &p[0]);
    gs_findings_merge(&cba, &p[1]);
    same_bucket(abc.b[GS_K_ULP_EXCEEDED][GS_R_M1_0], b);
    same_bucket(cba.b[GS_K_ULP_EXCEEDED][GS_R_M1_0], b);
    assert_int_equal(gs_findings_count(&cba, GS_K_ULP_EXCEEDED), N_RAND);
    assert_int_equal(gs_findings_count(&cba, GS_K_FTZ), 0);
    assert_null(cba.b[GS_K_FTZ][GS_R_M1_0]); /* buckets only on first use */
    gs_findings_release(&one);
    gs_findings_release(&ab);
    gs_findings_release(&abc);
    gs_findings_release(&cba);
    for (int k = 0; k < 3; k++)
        gs_findings_release(&p[k]);
}

static void all_severity(struct gs_policy_values *v, enum gs_severity s)
{
    memset(v, 0, sizeof *v);
    for (int k = 0; k < GS_N_KINDS; k++)
        v->severity[k] = s;
}

static void test_severity_and_json(void **state)
{
    (void)state;
    struct gs_findings f;
    struct gs_policy_values v;
    struct gs_finding a;
    gs_findings_init(&f);
    memset(&a, 0, sizeof a);
    a.kind = GS_K_FTZ;
    a.region = GS_R_LT_M10;
    a.has_x = a.has_got = a.has_want = 1;
    a.x = 0xc1700000u; /* -15 */
    a.got = 0x80000000u;
    a.want = 0x80000001u;
    a.score = a.ulp = 1.0;
    a.abs_err = NAN;
    strcpy(a.detail, "flushed");
    gs_findings_add(&f, &a);
    a.kind = GS_K_SIGNED_ZERO;
    a.score = a.ulp = INFINITY;
    gs_findings_add(&f, &a);
    all_severity(&v, GS_SEV_WARN);
    assert_false(gs_findings_fail(&f, &v));
    assert_int_equal(gs_findings_worst(&f, &v)->kind, GS_K_FTZ); /* a warning, kind order */
    v.severity[GS_K_SIGNED_ZERO] = GS_SEV_FAIL;
    assert_true(gs_findings_fail(&f, &v));
    assert_int_equal(gs_findings_worst(&f, &v)->kind, GS_K_SIGNED_ZERO); /* fail first */
    all_severity(&v, GS_SEV_IGNORE);
    assert_false(gs_findings_fail(&f, &v));
    assert_null(gs_findings_worst(&f, &v));
    assert_true(gs_findings_fail(&f, NULL));
    /* a crash fails whatever the policy says */
    memset(&a, 0, sizeof a);
    a.kind = GS_K_CRASH;
    a.region = GS_R_NONE;
    a.ulp = a.abs_err = NAN;
    gs_findings_add(&f, &a);
    assert_true(gs_findings_fail(&f, &v));
    assert_int_equal(gs_findings_worst(&f, &v)->kind, GS_K_CRASH);

    json_t *o = json_object();
    v.severity[GS_K_FTZ] = GS_SEV_WARN;
    gs_findings_json(o, &f, &v, GELUREF_GELU, GELUREF_F32);
    json_t *c = json_object_get(o, "finding_counts"), *l = json_object_get(o, "findings");
    assert_int_equal(json_array_size(c), 3);
    assert_int_equal(json_array_size(l), 3);
    /* kinds in enum order: ftz, signed_zero, crash */
    assert_string_equal(json_string_value(json_object_get(json_array_get(c, 0), "kind")), "ftz");
    assert_string_equal(json_string_value(json_object_get(json_array_get(c, 0), "severity")),
                        "warn");
    assert_string_equal(json_string_value(json_object_get(json_array_get(c, 1), "severity")),
                        "ignore");
    assert_string_equal(json_string_value(json_object_get(json_array_get(c, 2), "severity")),
                        "fail");
    json_t *f0 = json_array_get(l, 0), *f1 = json_array_get(l, 1), *f2 = json_array_get(l, 2);
    assert_string_equal(json_string_value(json_object_get(f0, "region")), "x<-10");
    assert_string_equal(json_string_value(json_object_get(json_object_get(f0, "x"), "bits")),
                        "0xc1700000");
    assert_string_equal(json_string_value(json_object_get(json_object_get(f0, "got"), "dec")),
                        "-0");
    assert_string_equal(json_string_value(json_object_get(f0, "command")),
                        "gelucheck ref gelu --dtype f32 0xc1700000");
    assert_null(json_object_get(f0, "abs_err")); /* NAN: omitted */
    assert_string_equal(json_string_value(json_object_get(f1, "ulp")), "inf");
    assert_null(json_object_get(f2, "x"));
    assert_null(json_object_get(f2, "command"));
    assert_string_equal(json_string_value(json_object_get(f2, "region")), "none");
    json_decref(o);
    gs_findings_release(&f);
}

static void test_real_json(void **state)
{
    (void)state;
    json_t *j = gs_real_json(-INFINITY);
    assert_string_equal(json_string_value(j), "-inf");
    json_decref(j);
    j = gs_real_json(NAN);
    assert_string_equal(json_string_value(j), "nan");
    json_decref(j);
    j = gs_real_json(0.25);
    assert_true(json_is_real(j) && json_real_value(j) == 0.25);
    json_decref(j);
    j = gs_value_json(GELUREF_F16, 0xc000);
    assert_string_equal(json_string_value(json_object_get(j, "dec")), "-2");
    assert_string_equal(json_string_value(json_object_get(j, "hex")), "-0x1p+1");
    assert_string_equal(json_string_value(json_object_get(j, "bits")), "0xc000");
    json_decref(j);
}

/* The histogram buckets at their edges (suites.h: 0, 1, 2, 3-4, 5-16, 17-256, >256, nan). */
static void test_histogram(void **state)
{
    (void)state;
    static const struct { int64_t d; int bucket; } rows[] = {
        { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 }, { 4, 3 }, { 5, 4 }, { 16, 4 }, { 17, 5 },
        { 256, 5 }, { 257, 6 }, { INT64_MAX, 6 }, { -1, 7 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct gs_errstat s;
        struct gs_meas m;
        memset(&m, 0, sizeof m);
        m.cr_distance = rows[i].d;
        m.want_class = GS_WANT_NORMAL;
        m.defect = GS_K_ULP_EXCEEDED;
        gs_errstat_init(&s);
        gs_errstat_add(&s, &m);
        if (s.hist[rows[i].bucket] != 1)
            fail_msg("row %zu: distance %lld not in bucket %s", i, (long long)rows[i].d,
                     gs_hist_label(rows[i].bucket));
    }
    assert_string_equal(gs_hist_label(5), "17-256");
}

static void rand_meas(struct gs_meas *m, struct gs_rng *r)
{
    memset(m, 0, sizeof *m);
    m->x = gs_rng_below(r, 64);
    m->got = gs_rng_below(r, 64);
    m->want = gs_rng_below(r, 64);
    m->cr_distance = (int64_t)gs_rng_below(r, 300) - 1;
    m->cr = m->cr_distance == 0;
    m->faithful = m->cr_distance <= 1 && m->cr_distance >= 0;
    m->ulp = (double)gs_rng_below(r, 8) / 2; /* ties on purpose */
    m->abs_err = (double)gs_rng_below(r, 8);
    m->rel_err = (double)gs_rng_below(r, 8);
    m->want_class = GS_WANT_NORMAL;
    m->defect = m->cr ? GS_K_NONE : GS_K_ULP_EXCEEDED;
    if (gs_rng_below(r, 10) == 0) { /* a NaN output */
        m->defect = GS_K_NAN_OUTPUT;
        m->ulp = m->abs_err = m->rel_err = INFINITY;
    }
}

static void test_errstat_merge(void **state)
{
    (void)state;
    struct gs_rng r;
    struct gs_meas m[N_RAND];
    struct gs_errstat one, p[3], x, y;
    gs_rng_seed(&r, 99);
    gs_errstat_init(&one);
    for (int k = 0; k < 3; k++)
        gs_errstat_init(&p[k]);
    double max_ulp = -1;
    uint64_t arg = UINT64_MAX, nonfinite = 0;
    for (int i = 0; i < N_RAND; i++) {
        rand_meas(&m[i], &r);
        gs_errstat_add(&one, &m[i]);
        gs_errstat_add(&p[i % 3], &m[i]);
        if (m[i].defect == GS_K_NAN_OUTPUT) {
            nonfinite++;
            continue;
        }
        if (m[i].ulp > max_ulp || (m[i].ulp == max_ulp && m[i].x < arg)) {
            max_ulp = m[i].ulp;
            arg = m[i].x;
        }
    }
    assert_true(one.max_ulp == max_ulp);
    assert_int_equal(one.max_ulp_x, arg);
    assert_int_equal(one.nonfinite, nonfinite);
    gs_errstat_init(&x);
    gs_errstat_merge(&x, &p[0]);
    gs_errstat_merge(&x, &p[1]);
    gs_errstat_merge(&x, &p[2]);
    gs_errstat_init(&y);
    gs_errstat_merge(&y, &p[2]);
    gs_errstat_merge(&y, &p[0]);
    gs_errstat_merge(&y, &p[1]);
    assert_memory_equal(&x, &one, sizeof one);
    assert_memory_equal(&y, &one, sizeof one);
    json_t *j = gs_errstat_json(&one, GELUREF_F32);
    assert_int_equal(json_integer_value(json_object_get(j, "points")), N_RAND);
    assert_true(json_real_value(json_object_get(j, "max_ulp")) == max_ulp);
    assert_non_null(json_object_get(json_object_get(j, "max_ulp_at"), "want"));
    json_decref(j);
    gs_errstat_init(&x); /* empty: nulls, never non-finite numbers */
    j = gs_errstat_json(&x, GELUREF_F32);
    assert_true(json_is_null(json_object_get(j, "max_ulp")));
    assert_true(json_is_null(json_object_get(j, "fraction_correctly_rounded")));
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worst_and_merge), cmocka_unit_test(test_severity_and_json),
        cmocka_unit_test(test_real_json),       cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_errstat_merge),
    };
    return cmocka_run_group_tests_name("suites core findings and statistics", tests, NULL, NULL);
}
