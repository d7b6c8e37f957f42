/* Fuzz target: --resume files (docs/design.md sections 7 and 10).  The input is a previous result,
 * as `gelucheck run --resume FILE` reads it (reports/read.c), checked against the head of one
 * fixed run exactly as cli/run_exec.c checks it (reports/resume.c: head, policy, command,
 * adapters, kernels) and, when it is an interrupted result of that run, continued
 * (suites/run.c, the ulp suite's read-back of "inputs"."covered": suites/ulp_resume.c).
 *
 * The fixed run: `gelucheck run --adapter libm --kernel erfc.f16 --suite ulp,special
 * --reference mpfr --threads 1 --json result.json`, the libm adapter in process.  Its ulp
 * sweep has 16 work items of 4096 patterns; the MPFR path makes it slow enough for the seed
 * corpus to be real interrupted results (interrupt_check.py's method).  Here the continued run
 * is interrupted again by its first progress report (so at most one item is measured per
 * input: thousands of inputs a minute, not one a second).
 *
 * Checked, besides crashes, leaks and undefined behaviour: every refusal is one line naming
 * the file; a continued ulp entry counts exactly the inputs of the items it says it covers
 * (all 16 when complete), its covered ranges lie inside the sweep, increasing and apart, and
 * when the previous entry was read back (no "--resume: ... measured again" note) they include
 * the previous ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "adapter.h"
#include "fuzz.h"
#include "reports.h"
#include "suites.h"

#define T "fuzz_resume"
#define ITEMS 16u                  /* work items of an exhaustive f16 sweep (ulp.c) */
#define CHUNK (65536u / ITEMS)     /* patterns per item */
#define F16_INF_MAG 0x7c00u        /* magnitude bits of +-inf; above: NaN */

static const char *const command[] = { "gelucheck", "run", "--adapter", "libm", "--kernel",
                                       "erfc.f16", "--suite", "ulp,special", "--reference",
                                       "mpfr", "--json", "result.json" };
static struct gs_config cfg;
static struct gc_adapter *adapter;
static const struct gc_kernel *kernel;
static json_t *head, *doc;
static volatile sig_atomic_t stop; /* cfg.interrupt: set by the first progress report */

static void on_progress(void *arg, const char *k, const char *suite, uint64_t done,
                        uint64_t total)
{
    (void)arg, (void)k, (void)suite, (void)done, (void)total;
    stop = 2; /* SIGINT's number; any nonzero stops */
}

/* Inputs of item j, counted from the patterns: every f16 but NaNs, +-0 and +-inf (the special
 * suite's), as ulp.c sweeps them without --range. */
static uint64_t item_inputs(uint64_t j)
{
    uint64_t n = 0;
    for (uint64_t p = j * CHUNK; p < (j + 1) * CHUNK; p++) {
        uint64_t mag = p & 0x7fffu;
        n += mag >= 1 && mag < F16_INF_MAG;
    }
    return n;
}

static void setup(void)
{
    char msg[1024], bad[64];
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    opt.in_process = 1;
    gs_config_init(&cfg);
    cfg.policy = gs_policy_builtin("default");
    cfg.reference = GS_REF_MPFR;
    cfg.interrupt = &stop;
    cfg.progress = on_progress;
    if (!cfg.policy || gs_suite_mask_parse("ulp,special", &cfg.suites, bad, sizeof bad) ||
        gc_adapter_open("libm", &opt, &adapter, msg, sizeof msg) != GC_OK)
        fuzz_fail(T, "setup: %s", msg);
    for (size_t i = 0; i < adapter->n_kernels; i++)
        if (strcmp(adapter->kernels[i].name, "erfc.f16") == 0)
            kernel = &adapter->kernels[i];
    struct rp_meta meta = { GELUCHECK_VERSION, command, sizeof command / sizeof command[0],
                            &cfg };
    head = rp_result_new(&meta);
    doc = rp_result_new(&meta);
    if (!kernel || !head || !doc || rp_result_add_adapter(doc, "libm", adapter->ident, adapter, NULL))
        fuzz_fail(T, "setup: no erfc.f16 in libm, or no memory");
}

static void refused(const char *path, const char *msg)
{
    fuzz_check_line(T, "resume", msg);
    if (!strstr(msg, path) && strncmp(msg, "out of memory", 13) != 0)
        fuzz_fail(T, "message does not name the file: '%s'", msg);
}

/* The item ranges of a "covered" object into a bitmap (checked: inside, increasing, apart). */
static uint32_t covered_items(const json_t *cov, const char *what)
{
    uint32_t bits = 0;
    long long next = 0;
    size_t i;
    json_t *r;
    if (json_integer_value(json_object_get(cov, "items")) != ITEMS)
        fuzz_fail(T, "%s: covered.items is not %u", what, ITEMS);
    json_array_foreach(json_object_get(cov, "done"), i, r) {
        long long a = json_integer_value(json_array_get(r, 0));
        long long b = json_integer_value(json_array_get(r, 1));
        if (json_array_size(r) != 2 || a < next || b < a || b >= ITEMS)
            fuzz_fail(T, "%s: covered range %zu [%lld, %lld] out of order or outside", what, i,
                      a, b);
        for (long long j = a; j <= b; j++)
            bits |= 1u << j;
        next = b + 1;
    }
    return bits;
}

static const json_t *suite_of(const json_t *k, const char *name)
{
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        const char *n = json_string_value(json_object_get(s, "name"));
        if (n && strcmp(n, name) == 0)
            return s;
    }
    return NULL;
}

static void check_continued(const json_t *prev, const json_t *now)
{
    const json_t *ulp = suite_of(now, "ulp"), *old = suite_of(prev, "ulp");
    const json_t *ocov = json_object_get(json_object_get(old, "inputs"), "covered");
    if (!ulp || (old && !ocov))
        return; /* the ulp suite finished before and was taken as it was, or never started */
    const json_t *cov = json_object_get(json_object_get(ulp, "inputs"), "covered");
    uint32_t bits = cov ? covered_items(cov, "continued") : (1u << ITEMS) - 1;
    uint64_t want = 0;
    for (uint32_t j = 0; j < ITEMS; j++)
        want += bits >> j & 1u ? item_inputs(j) : 0;
    json_int_t points = json_integer_value(json_object_get(ulp, "points"));
    const char *verdict = json_string_value(json_object_get(ulp, "verdict"));
    if (verdict && strcmp(verdict, "error") != 0 && (uint64_t)points != want)
        fuzz_fail(T, "continued ulp entry counts %lld inputs, its covered items have %llu",
                  (long long)points, (unsigned long long)want);
    const char *note = json_string_value(json_object_get(ulp, "note"));
    if (ocov && !(note && strstr(note, "--resume:"))) {
        uint32_t before = covered_items(ocov, "read back");
        if ((before & bits) != before)
            fuzz_fail(T, "items read back are not covered after the continuation");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char msg[4200];
    if (!adapter)
        setup();
    const char *path = fuzz_temp_file("fuzz_resume", data, size);
    if (!path)
        return 0;
    json_t *prev = rp_result_load(path, msg, sizeof msg);
    if (!prev) {
        refused(path, msg);
        return 0;
    }
    size_t n_prev = json_array_size(json_object_get(prev, "kernels"));
    if (rp_resume_check(prev, head, cfg.policy, path, msg, sizeof msg) ||
        rp_resume_adapters_check(prev, doc, path, msg, sizeof msg) ||
        (n_prev && rp_resume_kernel_check(prev, 0, "libm", kernel, path, msg, sizeof msg))) {
        refused(path, msg);
        json_decref(prev);
        return 0;
    }
    /* as run_exec.c: a kernel marked complete is taken as it is; more kernels than the run
     * selects is refused there */
    const json_t *pk = json_array_get(json_object_get(prev, "kernels"), 0);
    if (n_prev <= 1 && !(pk && !json_is_false(json_object_get(pk, "complete")))) {
        const struct gc_kernel *kp[1] = { kernel };
        struct gs_target tg = { kp, 1, "libm", NULL };
        int internal = 0;
        double wall = 0;
        stop = 0;
        json_t *k = gs_run_kernel_resume(&cfg, &tg, pk, &internal, &wall);
        if (!k)
            fuzz_fail(T, "no kernel object");
        check_continued(pk, k);
        char *text = json_dumps(k, JSON_COMPACT);
        if (!text)
            fuzz_fail(T, "the continued kernel does not serialise");
        free(text);
        json_decref(k);
    }
    json_decref(prev);
    return 0;
}
