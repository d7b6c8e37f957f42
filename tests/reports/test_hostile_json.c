/* Hostile results (issue 8): every member of a real result, one at a time, replaced by a value
 * of another type or an absurd number (only the first two elements of each array: the rest
 * have the same shape).  Each mutant either fails rp_result_check with one line naming the
 * file, or goes through every reader of `gelucheck report`, compare, merge and --baseline
 * (Markdown, HTML, JUnit, the plots, the compare table and plot, rp_merge, rp_baseline_apply
 * in both directions) without a crash; in the asan build without a read out of bounds,
 * undefined behaviour or an absurd allocation either.
 * Usage: test_hostile_json RESULT.json [STRIDE]  (every STRIDE-th member, default 1) */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "reports.h"

static const char *fixture;
static json_t *valid;      /* the fixture as read; mutated in place, one member at a time */
static json_t *pristine;   /* a deep copy, never mutated: the other side of compare, baseline */
static char plots[64];     /* a scratch folder (tmpfs when there is one: the writes fsync) */
static size_t failures;    /* every mutant is tried; the test fails at the end */
static size_t stride = 1;  /* every stride-th member only (sanitizer builds are slow) */

#define FAIL(...) (print_error(__VA_ARGS__), print_error("\n"), failures++)

/* Where a member lives: its parent and its key (object) or index (array). */
struct slot {
    json_t *parent;
    const char *key;
    size_t index;
    char path[160];
};

static struct slot *slots;
static size_t n_slots, cap_slots;

static void add_slot(const struct slot *s)
{
    if (n_slots == cap_slots) {
        cap_slots = cap_slots ? 2 * cap_slots : 1024;
        slots = realloc(slots, cap_slots * sizeof *slots);
        assert_non_null(slots);
    }
    slots[n_slots++] = *s;
}

static void collect(json_t *j, const char *path)
{
    const char *key;
    json_t *v;
    struct slot s;
    if (json_is_object(j)) {
        json_object_foreach(j, key, v) {
            s = (struct slot){ j, key, 0, "" };
            snprintf(s.path, sizeof s.path, "%s.%s", path, key);
            add_slot(&s);
            collect(v, s.path);
        }
    }
    for (size_t i = 0; json_is_array(j) && i < json_array_size(j) && i < 2; i++) {
        s = (struct slot){ j, NULL, i, "" };
        snprintf(s.path, sizeof s.path, "%s[%zu]", path, i);
        add_slot(&s);
        collect(json_array_get(j, i), s.path);
    }
}

static json_t *get(const struct slot *s)
{
    return s->key ? json_object_get(s->parent, s->key) : json_array_get(s->parent, s->index);
}

static void put(const struct slot *s, json_t *v)
{
    int rc = s->key ? json_object_set(s->parent, s->key, v)
                    : json_array_set(s->parent, s->index, v);
    assert_int_equal(rc, 0);
}

/* A copy that rp_baseline_apply may write into (it sets members of the document, of each
 * kernel and adapter and of "totals") without touching the shared deeper members. */
static json_t *detach(const json_t *doc)
{
    static const char *const arrays[] = { "kernels", "adapters" };
    json_t *d = json_copy((json_t *)doc);
    for (size_t i = 0; i < 2; i++) {
        json_t *a = json_object_get(d, arrays[i]), *v;
        size_t j;
        if (!json_is_array(a))
            continue;
        json_t *c = json_array();
        json_array_foreach(a, j, v)
            json_array_append_new(c, json_is_object(v) ? json_copy(v) : json_incref(v));
        json_object_set_new(d, arrays[i], c);
    }
    if (json_is_object(json_object_get(d, "totals")))
        json_object_set_new(d, "totals", json_copy(json_object_get(d, "totals")));
    return d;
}

/* One line naming the file, or a failure naming the mutant. */
static void one_line(const char *msg, const char *what, const char *mutant)
{
    if (!strstr(msg, fixture) || strchr(msg, '\n'))
        FAIL("%s: %s: message \"%s\" is not one line naming %s", mutant, what, msg, fixture);
}

/* Every reader on doc (which passed rp_result_check). */
static void read_all(json_t *doc, const char *mutant)
{
    char msg[4200], path[128];
    json_t *docs[2] = { doc, pristine };
    const char *names[2] = { fixture, "pristine.json" };
    size_t i;
    json_t *k;

    char *md = rp_markdown(doc, NULL), *html = md ? rp_markdown_html(md, "t") : NULL;
    char *xml = rp_junit(doc), *cmp = rp_compare_markdown(docs, names, 2);
    if (!md || !html || !xml || !cmp)
        FAIL("%s: a renderer returned NULL", mutant);
    free(md);
    free(html);
    free(xml);
    free(cmp);
    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        unsigned which;
        if (rp_plots_write(k, plots, &which, msg, sizeof msg))
            FAIL("%s: plots of kernels[%zu]: %s", mutant, i, msg);
    }
    snprintf(path, sizeof path, "%s/compare.svg", plots);
    if (rp_plot_compare_write(docs, 2, path, msg, sizeof msg))
        FAIL("%s: compare plot: %s", mutant, msg);
    json_t *m = rp_merge(docs, names, 1, msg, sizeof msg);
    if (!m)
        one_line(msg, "merge", mutant);
    json_decref(m);
    json_t *d = detach(doc), *p = detach(pristine);
    rp_baseline_apply(d, pristine, NULL); /* the mutant against a sound baseline */
    rp_baseline_apply(p, doc, NULL);     /* a sound result against the mutant as its baseline */
    json_decref(d);
    json_decref(p);
}

static void mutate_all(void **state)
{
    (void)state;
    /* a wrong type for every member; numbers a reader could index, size or negate with */
    json_t *bad[] = { json_null(),          json_integer(-1),
                      json_integer(INT64_MAX), json_integer(INT64_MIN),
                      json_real(1e308),      json_string("nan"),
                      json_array(),          json_object() };
    size_t n_bad = sizeof bad / sizeof bad[0], tried = 0, rejected = 0;
    char msg[4200], mutant[300];

    collect(valid, "");
    for (size_t i = 0; i < n_slots; i += stride) {
        json_t *orig = json_incref(get(&slots[i]));
        for (size_t b = 0; b < n_bad; b++) {
            if (json_equal(orig, bad[b]))
                continue;
            char *text = json_dumps(bad[b], JSON_ENCODE_ANY);
            snprintf(mutant, sizeof mutant, "%s = %s", slots[i].path, text ? text : "?");
            free(text);
            put(&slots[i], bad[b]);
            tried++;
            if (rp_result_check(valid, fixture, msg, sizeof msg)) {
                one_line(msg, "check", mutant);
                rejected++;
            } else {
                read_all(valid, mutant);
            }
            put(&slots[i], orig);
        }
        json_decref(orig);
    }
    printf("# %zu members, %zu mutants, %zu rejected by rp_result_check\n", n_slots, tried,
           rejected);
    for (size_t b = 0; b < n_bad; b++)
        json_decref(bad[b]);
    free(slots);
    if (failures)
        fail_msg("%zu mutants went wrong", failures);
}

int main(int argc, char **argv)
{
    char msg[4200];
    if (argc == 3)
        stride = strtoul(argv[2], NULL, 10) ? strtoul(argv[2], NULL, 10) : 1;
    if (argc < 2 || argc > 3 || !(valid = rp_result_load(argv[1], msg, sizeof msg))) {
        fprintf(stderr, "usage: test_hostile_json RESULT.json (%s)\n", argc >= 2 ? msg : "");
        return 2;
    }
    fixture = argv[1];
    pristine = json_deep_copy(valid);
    strcpy(plots, access("/dev/shm", W_OK) == 0 ? "/dev/shm/gchostile.XXXXXX"
                                                 : "/tmp/gchostile.XXXXXX");
    if (!mkdtemp(plots)) {
        perror("mkdtemp");
        return 2;
    }
    const struct CMUnitTest tests[] = { cmocka_unit_test(mutate_all) };
    int rc = cmocka_run_group_tests_name("reports_hostile_json", tests, NULL, NULL);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", plots);
    if (system(cmd) != 0)
        rc = 1;
    json_decref(valid);
    json_decref(pristine);
    return rc;
}
