/* The host side of the adapter layer (internal to gelucheck, not installed): what the CLI and
 * the suites see of any adapter, whatever it is (built-in, dlopen plug-in, exec subprocess).
 *
 * Lifecycle: gc_adapter_open(spec) -> kernels[] -> gc_kernel_eval(...) -> gc_adapter_close().
 * Every failure comes back as a status and a one-line message in the caller's buffer that
 * names the adapter (file, command or built-in name) and what was wrong; nothing here prints
 * or exits.  Thread use: one thread per opened adapter (the suites open one per thread).
 */
#ifndef GELUCHECK_ADAPTER_H
#define GELUCHECK_ADAPTER_H

#include <stddef.h>
#include <stdint.h>

#include <geluref.h>

#include <gelucheck/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

enum gc_status {
    GC_OK = 0,
    GC_E_SPEC = 1,     /* the spec names nothing usable: unknown built-in, bad prefix */
    GC_E_LOAD = 2,     /* dlopen/dlsym failed, the subprocess could not start */
    GC_E_INVALID = 3,  /* the adapter's table or banner breaks the contract */
    GC_E_EVAL = 4,     /* eval reported failure, or the reply was wrong */
    GC_E_TIMEOUT = 5,  /* the subprocess said nothing within the time allowed */
    GC_E_DIED = 6,     /* the subprocess exited or was killed */
    GC_E_NOMEM = 7,
    GC_E_FAULT = 8     /* the kernel wrote where it must not (a guard page after or before y, or
                          the read-only x): gc_eval_extra.fault and .offset say where.  The
                          worker let the kernel finish on a scratch page: y holds its outputs
                          and the worker is still usable */
};
const char *gc_strerror(enum gc_status st);

struct gc_adapter;
struct gc_memlimit;

struct gc_kernel {
    char *name;                /* [A-Za-z0-9_.-]+, unique within the adapter */
    char *description;         /* never NULL ("" when the adapter gave none) */
    enum geluref_func func;    /* GELUREF_GELU .. GELUREF_ERFC (the plug-in ABI's numbers) */
    enum geluref_dtype dtype;
    size_t elem_size;          /* 8, 4, 2, 2 */
    struct gc_adapter *adapter;
    size_t index;              /* position in the adapter's own table */
};

/* What one eval may say beyond its status (docs/design.md section 10).  The caller zeroes it and
 * sets the inputs; the adapter sets the outputs. */
enum gc_fault_kind {
    GC_FAULT_NONE = 0,
    GC_FAULT_AFTER_Y = 1,   /* a write past y[n-1]: out_of_bounds_write */
    GC_FAULT_BEFORE_Y = 2,  /* a write before y[0]: out_of_bounds_write */
    GC_FAULT_INPUT = 3      /* a write into x (not in place): input_modified */
};
struct gc_eval_extra {
    /* in: bytes before y and after y[n-1] that belong to the caller's buffer (0: none).  An
     * isolating transport carries them to the kernel's copy of y and back, so canaries the
     * caller put there see what the kernel did to them. */
    size_t y_slack;
    /* out, GC_E_FAULT: where the kernel wrote; offset in elements from y[0] (negative before
     * it) or from x[0] */
    enum gc_fault_kind fault;
    long long offset;
    /* out, GC_E_DIED: the signal that ended the process (0: it exited, then exit_status) */
    int signal;
    int exit_status;
    /* out, GC_E_DIED: "" or, when the process ran out of memory under --memory-limit, which
     * limit: "the worker's --memory-limit of 256 MiB (RLIMIT_AS)" (memlimit.h) */
    char oom[96];
};

/* What kind of adapter it is; the kind's ops are private to its file. */
enum gc_adapter_kind { GC_ADAPTER_BUILTIN = 1, GC_ADAPTER_PLUGIN = 2, GC_ADAPTER_EXEC = 3 };

struct gc_adapter_ops {
    /* y[i] = f(x[i]); msg gets a one-line reason on failure. */
    enum gc_status (*eval)(struct gc_adapter *a, const struct gc_kernel *k, const void *x,
                           void *y, size_t n, struct gc_eval_extra *ex, char *msg, size_t size);
    /* Releases what open() took (ctx, library handle, process); not the strings. */
    void (*close)(struct gc_adapter *a);
    /* After GC_E_DIED, GC_E_TIMEOUT or GC_E_FAULT: replaces the dead process with a fresh one
     * offering the same kernels (the struct gc_kernel pointers stay valid); a process still
     * alive (the worker after GC_E_FAULT) is kept.  NULL when the kind runs nothing it could
     * restart (isolation off). */
    enum gc_status (*restart)(struct gc_adapter *a, char *msg, size_t size);
};

struct gc_adapter {
    enum gc_adapter_kind kind;
    char *name;      /* "libm", the plug-in's name, or the exec adapter's command */
    char *ident;     /* its own name, the ADAPTER of kernel identities ADAPTER/KERNEL
                        (gc_ident_derive); set by gc_adapter_open.  May be invalid only where
                        the adapter declared it so (a plug-in's name): callers check */
    char *spec;      /* as given on the command line */
    char *version;   /* the implementation's version ("" if none given) */
    size_t n_kernels;
    struct gc_kernel *kernels;
    const struct gc_adapter_ops *ops;
    void *state;     /* the kind's own */
    /* In-process kernels (built-ins, plug-ins): evals after which the kernel had left the
     * rounding mode, FTZ or DAZ changed (the host restores them after every eval), and what
     * the last such eval left.  Always 0 for exec adapters (their environment is their own). */
    uint64_t fpenv_modified;
    char fpenv_what[96];
    /* Built-ins and plug-ins: what loading it (the plug-in's constructors, its entry, its
     * open()) did to the rounding mode, FTZ or DAZ, "" when nothing: "FTZ set (MXCSR bit 15);
     * DAZ set (MXCSR bit 6) (in dlopen: a constructor)".  The environment was put back at
     * once, where the load ran (gelucheck itself with in_process, else the worker, whose
     * hello carries this); the suites report it as an fpenv_modified finding "at load". */
    char fpenv_load[192];
};

/* Options for opening an adapter. */
struct gc_open_options {
    const char *options;        /* --adapter-options, passed to a plug-in's open(); may be NULL */
    double startup_timeout_s;   /* exec: for the banner up to 'ready' (default 60) */
    double batch_timeout_s;     /* exec: per eval request (default 60) */
    const char *func;           /* onnx:MODEL: the func the model computes (--func); NULL:
                                   gelu */
    int in_process;             /* built-ins and plug-ins: 1 runs them in gelucheck's own
                                   process (--isolation none); 0 (default) in a worker process
                                   (docs/design.md section 10) */
    struct gc_memlimit *memlimit; /* --memory-limit (memlimit.h): each worker process, and
                                   under a cgroup each exec adapter's, is limited by it; NULL:
                                   no limit.  Owned by the caller, who keeps it until every
                                   adapter opened with it is closed */
    const char *runtime;        /* onnx: and scan: models: "onnxruntime" (NULL: the same) or
                                   "onnxruntime-web" (--runtime; gc_runtime_web) */
};
#define GC_OPEN_OPTIONS_INIT { NULL, 60.0, 60.0, NULL, 0, NULL, NULL }

/* 1 when runtime (--runtime) names onnxruntime-web, 0 for NULL or "onnxruntime", -1 for
 * anything else. */
int gc_runtime_web(const char *runtime);

/* Resolves spec (docs/design.md section 5): a built-in name ("libm", "mutants", "sleef", ...),
 * "plugin:PATH" or a path ending in ".so" (dlopen), "exec:COMMAND" (subprocess protocol),
 * "onnx:MODEL.onnx" (the user's model, run by the onnxruntime adapter's subprocess).  On failure *out is
 * NULL and msg names the spec and the problem. */
enum gc_status gc_adapter_open(const char *spec, const struct gc_open_options *opt,
                               struct gc_adapter **out, char *msg, size_t size);

/* The model part of an "onnx:" or "scan:" spec, MODEL.onnx[?func=F][&opt=LEVEL]
 * (onnx_spec.c): the path and the options, "" where not given.  GC_E_SPEC with a message for
 * an unknown key, a repeated or empty one, or an unknown level. */
struct gc_onnx_spec {
    char model[4096];
    char func[32];
    char opt[32];
    char runtime[32]; /* runtime=: onnxruntime or onnxruntime-web ("" when not given) */
};
enum gc_status gc_onnx_spec_parse(const char *rest, struct gc_onnx_spec *out, char *msg,
                                  size_t size);
/* 1 when level is one of ONNX Runtime's graph optimization levels as gelucheck names them:
 * disabled, basic, extended, layout, all. */
int gc_onnx_level_valid(const char *level);

/* Evaluates k on n elements (x and y arrays of k->elem_size bytes each). */
enum gc_status gc_kernel_eval(const struct gc_kernel *k, const void *x, void *y, size_t n,
                              char *msg, size_t size);
/* The same with the extras of struct gc_eval_extra (ex may be NULL: as gc_kernel_eval). */
enum gc_status gc_kernel_eval_ex(const struct gc_kernel *k, const void *x, void *y, size_t n,
                                 struct gc_eval_extra *ex, char *msg, size_t size);
/* ops->restart, or GC_E_INVALID with a message when the adapter cannot be restarted. */
enum gc_status gc_adapter_restart(struct gc_adapter *a, char *msg, size_t size);

/* Closes and frees; NULL is fine. */
void gc_adapter_close(struct gc_adapter *a);

/* The built-in adapters: name, one-line summary, and whether this build has them (with the
 * reason when not).  gc_builtin_count() entries. */
struct gc_builtin {
    const char *name;
    const char *summary;
    const struct gelucheck_plugin *(*entry)(uint32_t host_abi); /* in-process; else NULL */
    const char *skipped;        /* why it is not in this build; NULL when it is */
    const char *command;        /* a subprocess adapter: the /bin/sh command that starts it
                                   (docs/design.md 5.2), a template whose @REL@ are files that
                                   come with gelucheck (gc_builtin_command); NULL for
                                   in-process ones and skipped ones */
};
size_t gc_builtin_count(void);
const struct gc_builtin *gc_builtin_get(size_t i);
/* b->command ready for /bin/sh: each @REL@ replaced by the quoted path of REL, found relative
 * to the running program, installed or in the build tree (home.c).  *out to be freed;
 * GC_E_LOAD with a message naming the file when the install lacks it. */
enum gc_status gc_builtin_command(const struct gc_builtin *b, char **out, char *msg,
                                  size_t size);

/* The /bin/sh command that scans a model (gelucheck scan; the sites of a scan: adapter):
 * model_spec is the part after "scan:", "MODEL.onnx[?opt=LEVEL]"; the command prints the scan
 * as text on stdout, writes it as JSON (gelucheck-scan/1) to json when not NULL, and on
 * failure exits non-zero with "PROG: error: WHY" on stderr.  *out to be freed.  GC_E_SPEC for
 * a bad model spec, GC_E_LOAD when ONNX Runtime is not in this build or its files are
 * missing; msg says why. */
enum gc_status gc_scan_command(const char *model_spec, const char *json, char **out, char *msg,
                               size_t size);
/* The same, with runtime (gc_open_options.runtime) saying where the kernels it names run: on
 * onnxruntime-web the scan says so and that the optimizer's choices are the native build's;
 * torch_module (NULL: none), a TorchScript file whose activations (the torch adapter's
 * --activations) the scan pairs with its sites.  GC_E_LOAD when the torch adapter is not in
 * this build. */
enum gc_status gc_scan_command_rt(const char *model_spec, const char *json, const char *runtime,
                                  const char *torch_module, char **out, char *msg, size_t size);

/* Entry points of the other adapter folders, called by the registry (adapters/core). */
const struct gelucheck_plugin *gc_libm_entry(uint32_t host_abi);    /* adapters/libm */
const struct gelucheck_plugin *gc_mutants_entry(uint32_t host_abi); /* adapters/mutants */
const struct gelucheck_plugin *gc_sleef_entry(uint32_t host_abi);   /* adapters/sleef */
const struct gelucheck_plugin *gc_onednn_entry(uint32_t host_abi);  /* adapters/onednn */
const struct gelucheck_plugin *gc_gsl_entry(uint32_t host_abi);     /* adapters/gsl */
const struct gelucheck_plugin *gc_boost_entry(uint32_t host_abi);   /* adapters/boost */
/* adapters/exec: starts COMMAND (the part after "exec:") and reads its banner up to 'ready'. */
enum gc_status gc_exec_open(const char *command, const char *spec,
                            const struct gc_open_options *opt, struct gc_adapter **out,
                            char *msg, size_t size);

/* Helpers every kind uses (adapters/core/util.c). */
int gc_valid_kernel_name(const char *name);          /* [A-Za-z0-9_.-]+, 1..128 chars */
/* An adapter's own name (ident.c): declared (a plug-in's name, an exec banner's 'name' line)
 * when given, else derived from the spec (onnx: the model's stem, and '.FUNC' for a func
 * other than gelu; exec: the program's file name), else name (a built-in's).  Writes it to
 * buf; 0, or -1 when it is not [A-Za-z0-9_.-]+ (derived names are made so: only a declared
 * one can fail).  func: what an onnx: model computes (NULL: gelu). */
int gc_ident_derive(const char *spec, const char *name, const char *declared, const char *func,
                    char *buf, size_t size);
/* The program a shell command runs (its first word that is no interpreter, launcher, option
 * or assignment), as a file name less a script suffix, made [A-Za-z0-9_.-]+. */
void gc_ident_program(const char *command, char *out, size_t size);
/* Replaces each character outside [A-Za-z0-9_.-] by '_', and a leading '.' too. */
void gc_ident_clean(char *s);
size_t gc_dtype_size(enum geluref_dtype dt);         /* 0 when unknown */
char *gc_strdup(const char *s);                      /* NULL-safe, NULL on no memory */
/* The name a shell or kill -l gives a signal ("SIGSEGV" for 11); "signal N", written into buf,
 * for one without a name here.  Messages and crash findings name signals through this. */
const char *gc_signal_name(int sig, char *buf, size_t size);
/* Allocates an adapter with n zeroed kernels (strings NULL); NULL on no memory. */
struct gc_adapter *gc_adapter_alloc(enum gc_adapter_kind kind, const char *spec, size_t n);

#ifdef __cplusplus
}
#endif
#endif
