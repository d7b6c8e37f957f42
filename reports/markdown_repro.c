/* report.md, per kernel (markdown.h): the commands that reproduce its findings: the run
 * restricted to this kernel, and `gelucheck ref` at each finding's input. */
#include <string.h>

#include "markdown.h"
#include "runopts.h"

void md_shell_word(struct md *m, const char *s)
{
    /* bytes a POSIX shell takes literally outside quotes */
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                "0123456789_./:=,+-@%";
    if (s[0] && strspn(s, plain) == strlen(s)) {
        md_puts(m, s);
        return;
    }
    md_puts(m, "'");
    for (; *s; s++) {
        if (*s == '\'')
            md_puts(m, "'\\''");
        else
            md_printf(m, "%c", (unsigned char)*s < 0x20 ? ' ' : *s);
    }
    md_puts(m, "'");
}

/* The value of the --adapter-name that names the --adapter whose value is word i of cmd (the
 * last before the next --adapter), or NULL. */
static const char *adapter_name_after(const json_t *cmd, size_t i)
{
    const char *name = NULL;
    for (i++; i < json_array_size(cmd); i++) {
        const char *w = json_string_value(json_array_get(cmd, i)), *nm;
        int has_value;
        if (!w || !rp_run_option(w, &nm, &has_value))
            continue;
        if (strcmp(nm, "adapter") == 0)
            break;
        const char *val = !has_value ? NULL : strchr(w, '=') ? strchr(w, '=') + 1
                                                             : json_string_value(
                                                                   json_array_get(cmd, ++i));
        if (strcmp(nm, "adapter-name") == 0)
            name = val;
    }
    return name;
}

void md_run_command(struct md *m, const json_t *doc, const json_t *k)
{
    const json_t *cmd = json_object_get(doc, "command");
    const char *spec = md_str(k, "adapter");
    size_t n = json_array_size(cmd);

    md_puts(m, "gelucheck run");
    /* the recorded words after "gelucheck run", less the other adapters (and the
     * --adapter-name of each), the kernel choice, the outputs (json, report, junit, resume)
     * and the baseline's options (baseline, site-map, baseline-tolerance,
     * baseline-allow-missing: without --baseline the last two are refused) */
    int kept = 0; /* whether the last --adapter was kept */
    for (size_t i = 2; i < n; i++) {
        const char *w = json_string_value(json_array_get(cmd, i)), *nm = NULL;
        int has_value = 0;
        if (!w)
            continue;
        const char *val = NULL;
        if (rp_run_option(w, &nm, &has_value) && has_value)
            val = strchr(w, '=') ? strchr(w, '=') + 1
                                 : json_string_value(json_array_get(cmd, ++i));
        if (nm) {
            if (strcmp(nm, "adapter") == 0) {
                /* this kernel's adapter: its spec, and its name when --adapter-name gave one
                   (two adapters of one spec under two names: the kernel's id says which) */
                const char *an = adapter_name_after(cmd, i), *id = md_str(k, "id");
                size_t len = an ? strlen(an) : 0;
                kept = val && strcmp(val, spec) == 0 &&
                       (!an || (id && strncmp(id, an, len) == 0 && id[len] == '/'));
            }
            if (strcmp(nm, "kernel") == 0 || strcmp(nm, "json") == 0 ||
                strcmp(nm, "report") == 0 || strcmp(nm, "junit") == 0 ||
                strcmp(nm, "baseline") == 0 || strcmp(nm, "site-map") == 0 ||
                strcmp(nm, "baseline-tolerance") == 0 ||
                strcmp(nm, "baseline-allow-missing") == 0 || strcmp(nm, "resume") == 0 ||
                ((strcmp(nm, "adapter") == 0 || strcmp(nm, "adapter-name") == 0) && !kept))
                continue;
            md_printf(m, " --%s", nm);
            if (val) {
                md_puts(m, " ");
                md_shell_word(m, val);
            }
            continue;
        }
        md_puts(m, " ");
        md_shell_word(m, w);
    }
    md_puts(m, " --kernel ");
    md_shell_word(m, md_str(k, "kernel"));
}

/* Whether command c is already among the ref lines written (a linear scan: a few dozen). */
static int seen(const char **done, size_t n, const char *c)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(done[i], c) == 0)
            return 1;
    return 0;
}

void md_reproduce(struct md *m, const json_t *doc, const json_t *k)
{
    /* at most this many ref lines per kernel: one per (suite, kind, region) group is a few
     * dozen at most (6 suites, 18 kinds, 7 regions in principle; far fewer in practice) */
    enum { MAX_REF = 64 };
    const char *done[MAX_REF];
    size_t n_done = 0, i, j;
    json_t *s, *f;

    md_puts(m, "\n### Reproduce\n\nThis kernel alone, then the correctly rounded value at the "
               "worst input of each kind and region (every finding kept is in result.json, "
               "with its command):\n\n```sh\n");
    md_run_command(m, doc, k);
    md_puts(m, "\n");
    json_array_foreach(json_object_get(k, "suites"), i, s) {
        const char *prev_kind = "", *prev_region = "";
        json_array_foreach(json_object_get(s, "findings"), j, f) {
            const char *c = md_str(f, "command"), *kind = md_str(f, "kind");
            const char *region = md_str(f, "region");
            /* findings come grouped by (kind, region), the worst first */
            int first = strcmp(kind, prev_kind) != 0 || strcmp(region, prev_region) != 0;
            prev_kind = kind;
            prev_region = region;
            if (!first || !c[0] || seen(done, n_done, c) || n_done == MAX_REF)
                continue;
            done[n_done++] = c;
            md_puts(m, c);
            md_printf(m, "  # %s: %s in %s", md_str(s, "name"), kind, region);
            if (md_str(json_object_get(f, "x"), "dec")[0])
                md_printf(m, ", x = %s", md_str(json_object_get(f, "x"), "dec"));
            md_puts(m, "\n");
        }
    }
    md_puts(m, "```\n");
}
