/* gelucheck list [--adapter SPEC]... [--adapter-options STR] [--json]: adapters and kernels.
 *
 * Without --adapter: every built-in adapter of this build and its kernels, and the built-ins
 * this build skipped, with the reason.  With --adapter: those adapters' kernels.  An adapter
 * that cannot be loaded is one error line on stderr; the others are still listed; exit 3.
 * --json writes one document (jansson):
 *   {"adapters":[{"name","id","spec","version","kind","kernels":[{"name","func","dtype",
 *    "description"}]}], "skipped":[{"name","reason"}], "errors":[{"spec","message"}]} */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <adapter.h>

#include "cli.h"

struct list_args {
    const char **specs; /* --adapter values, in order */
    size_t n_specs;
    const char *options; /* --adapter-options */
    const char *func;    /* --func, for onnx: (NULL: gelu) */
    int in_process;      /* --isolation none */
    int json, help;
};

static const struct option long_opts[] = {
    { "adapter", required_argument, NULL, 'a' },
    { "adapter-options", required_argument, NULL, 'o' },
    { "func", required_argument, NULL, 'F' },
    { "json", no_argument, NULL, 'j' },
    { "isolation", required_argument, NULL, 'I' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};
static const char short_opts[] = "+:h";

static void usage(void)
{
    char names[256] = "";
    for (size_t i = 0, len = 0; i < gc_builtin_count() && len < sizeof names; i++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "",
                                gc_builtin_get(i)->name);
    printf("usage: gelucheck list [--adapter SPEC]... [--adapter-options STR] [--func F]\n"
           "                      [--isolation process|none] [--json]\n"
           "\n"
           "Lists adapters and their kernels: name, func, dtype and description.  Without\n"
           "--adapter: every built-in adapter of this build, and the built-ins it skipped\n"
           "with the reason.\n"
           "\n"
           "      --adapter SPEC          list this adapter (repeatable).  SPEC is a built-in\n"
           "                              name (%s), plugin:PATH or a PATH\n"
           "                              ending in .so (a plug-in), exec:COMMAND (a\n"
           "                              subprocess), or onnx:MODEL.onnx (run by ONNX Runtime)\n"
           "      --adapter-options STR   passed to each plug-in's open()\n"
           "      --func F                what onnx: models compute (default: gelu)\n"
           "      --isolation MODE        process: built-in and plug-in kernels are loaded in a\n"
           "                              worker process (as 'gelucheck run' runs them);\n"
           "                              none: in gelucheck's own process (default: process)\n"
           "      --json                  one JSON document on stdout (below)\n"
           "  -h, --help                  this text\n"
           "\n"
           "JSON: {\"adapters\": [{\"name\", \"spec\", \"version\", \"kind\" (builtin, plugin,\n"
           "exec), \"kernels\": [{\"name\", \"func\", \"dtype\", \"description\"}]}], \"skipped\":\n"
           "[{\"name\", \"reason\"}], \"errors\": [{\"spec\", \"message\"}]}\n"
           "\n"
           "Example:\n"
           "  gelucheck list --adapter ./libexample.so\n"
           "\n"
           "Exit status: 0 listed, 2 usage error, 3 an adapter could not be loaded (the\n"
           "others are still listed).\n",
           names);
}

static int parse_args(struct list_args *r, int ac, char **av)
{
    int c;

    opterr = 0;
    optind = 1;
    while ((c = getopt_long(ac, av, short_opts, long_opts, NULL)) != -1) {
        switch (c) {
        case 'a':
            if (!*optarg) {
                cli_error("--adapter needs a spec: a built-in name, plugin:PATH, PATH.so or "
                          "exec:COMMAND");
                return -1;
            }
            r->specs[r->n_specs++] = optarg;
            break;
        case 'o':
            r->options = optarg;
            break;
        case 'F':
            r->func = optarg;
            break;
        case 'j':
            r->json = 1;
            break;
        case 'I':
            if (cli_parse_isolation(optarg, &r->in_process))
                return -1;
            break;
        case 'h':
            r->help = 1;
            break;
        default: /* ':' a missing value, '?' an unknown word */
            cli_bad_option(c, av[optind - 1]);
            return -1;
        }
    }
    if (!r->help && optind < ac) {
        cli_error("list takes no operands: '%s' (use --adapter SPEC)", av[optind]);
        return -1;
    }
    return 0;
}

static const char *kind_name(enum gc_adapter_kind k)
{
    return k == GC_ADAPTER_BUILTIN ? "builtin" : k == GC_ADAPTER_PLUGIN ? "plugin" : "exec";
}

/* Outside text on one line: control characters as spaces. */
static void put_text(const char *s)
{
    for (; *s; s++)
        putchar((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
}

static void print_adapter(const struct gc_adapter *a)
{
    int wn = (int)strlen("kernel"), wf = (int)strlen("func");

    fputs("adapter ", stdout);
    put_text(a->ident ? a->ident : a->name); /* its name: the ADAPTER of ADAPTER/KERNEL */
    fputs(" (", stdout);
    if (a->version[0]) {
        fputs("version ", stdout);
        put_text(a->version);
        fputs("; ", stdout);
    }
    if (a->kind == GC_ADAPTER_PLUGIN) {
        fputs("plug-in ", stdout);
        put_text(a->spec);
    } else if (a->kind == GC_ADAPTER_EXEC && a->ident && strcmp(a->ident, a->name) != 0) {
        fputs("exec ", stdout);
        put_text(a->name);
    } else {
        fputs(a->kind == GC_ADAPTER_BUILTIN ? "built-in" : "exec", stdout);
    }
    puts(")");
    for (size_t i = 0; i < a->n_kernels; i++) {
        int n = (int)strlen(a->kernels[i].name);
        int f = (int)strlen(geluref_func_name(a->kernels[i].func));
        wn = n > wn ? n : wn;
        wf = f > wf ? f : wf;
    }
    printf("  %-*s  %-*s  %-5s  %s\n", wn, "kernel", wf, "func", "dtype", "description");
    for (size_t i = 0; i < a->n_kernels; i++) {
        const struct gc_kernel *k = &a->kernels[i];
        printf("  %-*s  %-*s  %-*s", wn, k->name, wf, geluref_func_name(k->func),
               k->description[0] ? 5 : 0, geluref_dtype_name(k->dtype));
        if (k->description[0])
            fputs("  ", stdout);
        put_text(k->description);
        putchar('\n');
    }
}

/* A JSON string of outside text: jansson wants UTF-8; anything else goes in as '?'. */
static json_t *jstr(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    char *t = malloc(strlen(s) + 1);
    size_t n = 0;
    for (; t && s[n]; n++)
        t[n] = (unsigned char)s[n] < 0x80 ? s[n] : '?';
    if (t)
        t[n] = '\0';
    j = t ? json_string(t) : NULL;
    free(t);
    return j;
}

static json_t *json_adapter(const struct gc_adapter *a)
{
    json_t *ks = json_array();
    for (size_t i = 0; ks && i < a->n_kernels; i++) {
        const struct gc_kernel *k = &a->kernels[i];
        json_array_append_new(ks, json_pack("{s:o, s:s, s:s, s:o}", "name", jstr(k->name),
                                            "func", geluref_func_name(k->func), "dtype",
                                            geluref_dtype_name(k->dtype), "description",
                                            jstr(k->description)));
    }
    return json_pack("{s:o, s:o, s:o, s:o, s:s, s:o}", "name", jstr(a->name), "id",
                     jstr(a->ident ? a->ident : a->name), "spec", jstr(a->spec), "version",
                     jstr(a->version), "kind", kind_name(a->kind), "kernels", ks);
}

/* Opens one spec and lists it (text now, after a blank line if *shown, or into doc);
 * returns an enum cli_exit. */
static int list_one(const char *spec, const struct gc_open_options *opt, json_t *doc, int *shown)
{
    struct gc_adapter *a;
    char msg[1024];

    enum gc_status st = gc_adapter_open(spec, opt, &a, msg, sizeof msg);
    if (st != GC_OK) {
        cli_error("cannot load adapter '%s': %s", spec, msg);
        if (doc)
            json_array_append_new(json_object_get(doc, "errors"), json_pack("{s:o, s:o}", "spec",
                                  jstr(spec), "message", jstr(msg)));
        return st == GC_E_NOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_LOAD;
    }
    int rc = CLI_EXIT_PASS;
    if (doc) {
        if (json_array_append_new(json_object_get(doc, "adapters"), json_adapter(a)))
            rc = CLI_EXIT_INTERNAL;
    } else {
        if ((*shown)++)
            putchar('\n');
        print_adapter(a);
    }
    gc_adapter_close(a);
    return rc;
}

static int list(const struct list_args *r)
{
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    json_t *doc = NULL;
    int rc = CLI_EXIT_PASS, shown = 0, skipped = 0;

    opt.options = r->options;
    opt.func = r->func;
    opt.in_process = r->in_process;
    if (r->json && !(doc = json_pack("{s:[], s:[], s:[]}", "adapters", "skipped", "errors"))) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    for (size_t i = 0; i < gc_builtin_count() && r->n_specs == 0; i++) {
        const struct gc_builtin *b = gc_builtin_get(i);
        if (b->skipped) {
            skipped++;
            continue;
        }
        int e = list_one(b->name, &opt, doc, &shown);
        rc = e > rc ? e : rc;
    }
    for (size_t i = 0; i < r->n_specs; i++) {
        int e = list_one(r->specs[i], &opt, doc, &shown);
        rc = e > rc ? e : rc;
    }
    if (!doc && skipped)
        printf("%sskipped built-in adapters (not in this build):\n", shown ? "\n" : "");
    for (size_t i = 0; i < gc_builtin_count() && skipped; i++) {
        const struct gc_builtin *b = gc_builtin_get(i);
        if (!b->skipped)
            continue;
        if (doc)
            json_array_append_new(json_object_get(doc, "skipped"),
                                  json_pack("{s:s, s:s}", "name", b->name, "reason",
                                            b->skipped ? b->skipped : "skipped"));
        else
            printf("  %s: %s\n", b->name, b->skipped ? b->skipped : "skipped");
    }
    if (doc) {
        if (json_dumpf(doc, stdout, JSON_INDENT(2)) || putchar('\n') == EOF) {
            cli_error("cannot write the JSON document");
            rc = CLI_EXIT_INTERNAL;
        }
        json_decref(doc);
    }
    return rc;
}

int cmd_list(int argc, char **argv)
{
    struct list_args r = { 0 };
    char **av = malloc(CLI_REORDER_SLOTS(argc) * sizeof *av);
    int rc = CLI_EXIT_PASS;

    r.specs = malloc((size_t)argc * sizeof *r.specs);
    if (!av || !r.specs) {
        cli_error("out of memory");
        rc = CLI_EXIT_INTERNAL;
    } else {
        int ac = cli_reorder(argc, argv, short_opts, long_opts, av);
        if (ac < 0 || parse_args(&r, ac, av))
            rc = CLI_EXIT_USAGE;
        else if (r.help)
            usage();
        else
            rc = list(&r);
    }
    fflush(stdout);
    free(r.specs);
    free(av);
    return rc;
}
