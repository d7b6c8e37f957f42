/* The ulp suite's read-back of an interrupted entry (suites/ulp_resume.c, docs/design.md sections 7
 * and 10), as a library: a sweep stopped after its first work item and continued gives the
 * uninterrupted entry; an entry whose "inputs"."covered" does not fit the run, or whose
 * "points" are not the inputs of its covered items, is not read back but measured again, with
 * a note saying why, and the result is again the uninterrupted one.  libm's erfc.f16: an
 * exhaustive f16 sweep of 16 work items (4096 patterns each). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reports.h"

static volatile sig_atomic_t stop; /* cfg.interrupt */
static int stop_at_first_report;

static void on_progress(void *arg, const char *k, const char *suite, uint64_t done,
                        uint64_t total)
{
    (void)arg, (void)k, (void)suite, (void)done, (void)total;
    if (stop_at_first_report)
        stop = 2;
}

/* The ulp suite of erfc.f16, continuing prev (a kernel object, or NULL); interrupted after the
 * first work item when cut.  Returns the kernel object. */
static json_t *run(const json_t *prev, int cut)
{
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct gc_adapter *a = NULL;
    struct gs_config cfg;
    char msg[512], bad[64];
    int internal = 0;
    double wall;

    opt.in_process = 1;
    assert_int_equal(gc_adapter_open("libm", &opt, &a, msg, sizeof msg), GC_OK);
    const struct gc_kernel *k = NULL;
    for (size_t i = 0; i < a->n_kernels; i++)
        if (strcmp(a->kernels[i].name, "erfc.f16") == 0)
            k = &a->kernels[i];
    assert_non_null(k);
    gs_config_init(&cfg);
    assert_int_equal(gs_suite_mask_parse("ulp", &cfg.suites, bad, sizeof bad), 0);
    cfg.policy = gs_policy_builtin("default");
    cfg.interrupt = &stop;
    cfg.progress = on_progress;
    stop = 0;
    stop_at_first_report = cut;
    const struct gc_kernel *ks[1] = { k };
    struct gs_target t = { ks, 1, "libm", NULL };
    json_t *o = gs_run_kernel_resume(&cfg, &t, prev, &internal, &wall);
    assert_non_null(o);
    assert_int_equal(internal, 0);
    gc_adapter_close(a);
    return o;
}

static json_t *ulp_of(const json_t *k) { return json_array_get(json_object_get(k, "suites"), 0); }

static json_t *covered_of(const json_t *k)
{
    return json_object_get(json_object_get(ulp_of(k), "inputs"), "covered");
}

static json_t *whole, *cut;

static int setup(void **state)
{
    (void)state;
    whole = run(NULL, 0);
    cut = run(NULL, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    json_decref(whole);
    json_decref(cut);
    return 0;
}

static void test_cut_then_continued(void **state)
{
    (void)state;
    assert_null(json_object_get(whole, "complete"));
    assert_true(json_is_false(json_object_get(cut, "complete")));
    /* one thread, stopped by the report after the first item: exactly item 0 is covered */
    char *done = json_dumps(json_object_get(covered_of(cut), "done"), JSON_COMPACT);
    assert_string_equal(done, "[[0,0]]");
    free(done);
    json_int_t p = json_integer_value(json_object_get(ulp_of(cut), "points"));
    assert_true(p > 0 && p < json_integer_value(json_object_get(ulp_of(whole), "points")));
    json_t *res = run(cut, 0);
    assert_true(json_equal(ulp_of(res), ulp_of(whole)));
    assert_true(json_equal(res, whole));
    json_decref(res);
}

/* A tampered interrupted entry: measured again, the note says why, the result is whole's. */
struct tamper {
    const char *why;
    const char *done;      /* "inputs"."covered"."done" as JSON, or NULL: unchanged */
    json_int_t items;      /* "inputs"."covered"."items", or 0: unchanged */
    json_int_t add_points; /* added to "points" */
    const char *note;      /* what the note must say */
};

static const struct tamper tampers[] = {
    /* item 0: the patterns 0x0001 .. 0x0fff (+0 is the special suite's) */
    { "points one more than the covered item's inputs", NULL, 0, 1,
      "--resume: ulp suite: 'points' 4096 is not the 4095 inputs of the covered work items: "
      "measured again" },
    { "an item claimed whose inputs the statistics lack", "[[0,1]]", 0, 0,
      "--resume: ulp suite: 'points' 4095 is not the 8191 inputs of the covered work items: "
      "measured again" },
    { "ranges overlapping", "[[0,0],[0,0]]", 0, 0,
      "--resume: ulp suite: bad 'inputs'.'covered'.'done' (want [[first, last]...] of item "
      "indexes below 16, in increasing order, apart): measured again" },
    { "ranges out of order", "[[3,3],[0,0]]", 0, 0, "--resume: ulp suite: bad 'inputs'" },
    { "a range past the last item", "[[0,16]]", 0, 0, "--resume: ulp suite: bad 'inputs'" },
    { "a range ending before it starts", "[[1,0]]", 0, 0, "--resume: ulp suite: bad 'inputs'" },
    { "a negative item", "[[-1,0]]", 0, 0, "--resume: ulp suite: bad 'inputs'" },
    { "a range of three numbers", "[[0,0,0]]", 0, 0, "--resume: ulp suite: bad 'inputs'" },
    { "another sweep's number of items", NULL, 17, 0,
      "--resume: ulp suite: 'inputs'.'covered'.'items' is not this run's 16 work items: "
      "measured again" },
};

static void test_tampered_measured_again(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof tampers / sizeof tampers[0]; i++) {
        const struct tamper *t = &tampers[i];
        json_t *prev = json_deep_copy(cut), *ulp = ulp_of(prev), *cov = covered_of(prev);
        if (t->done)
            json_object_set_new(cov, "done", json_loads(t->done, 0, NULL));
        if (t->items)
            json_object_set_new(cov, "items", json_integer(t->items));
        json_object_set_new(ulp, "points",
                            json_integer(json_integer_value(json_object_get(ulp, "points")) +
                                         t->add_points));
        json_t *res = run(prev, 0), *got = json_deep_copy(ulp_of(res));
        const char *note = json_string_value(json_object_get(got, "note"));
        if (!note || strncmp(note, t->note, strlen(t->note)) != 0)
            fail_msg("%s: note '%s', want '%s...'", t->why, note ? note : "(none)", t->note);
        json_object_del(got, "note");
        if (!json_equal(got, ulp_of(whole)))
            fail_msg("%s: the entry measured again is not the uninterrupted one", t->why);
        json_decref(got);
        json_decref(res);
        json_decref(prev);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cut_then_continued),
        cmocka_unit_test(test_tampered_measured_again),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
