/* The conformance suites (docs/design.md sections 4, 6, 7 and 8): measuring a kernel against the
 * correctly rounded reference, findings, policies, the six suites and the run of one kernel.
 * Module prefix gs_.  Internal to gelucheck (not installed); nothing here prints or exits.
 *
 * Data flow: the CLI opens one adapter per thread (adapters/core/adapter.h), resolves the
 * policy (gs_policy_*), and calls gs_run_kernel() per kernel.  Each suite accumulates into
 * plain structs (gs_errstat, gs_findings) per thread, merges them in an order-independent way
 * (counts, maxima with ties broken by the smallest bit pattern), and finally describes itself
 * as a jansson object (the "suites" entries of the JSON result, schema gelucheck-result/1).
 * Every consumer after that (terminal summary, JSON file, reports) reads the JSON.
 */
#ifndef GELUCHECK_SUITES_H
#define GELUCHECK_SUITES_H

#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <mpfr.h>

#include <geluref.h>

#include "adapter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- names (names.c) -------- */

/* Suites, in the order docs/design.md section 6 lists them and a run performs them. */
enum gs_suite {
    GS_SUITE_ULP = 0,
    GS_SUITE_SPECIAL,
    GS_SUITE_IDENTITY,
    GS_SUITE_TAIL,
    GS_SUITE_VECTOR,
    GS_SUITE_FINGERPRINT,
    GS_N_SUITES
};
#define GS_SUITES_ALL ((1u << GS_N_SUITES) - 1u)
const char *gs_suite_name(enum gs_suite s);               /* "ulp", ...; NULL if unknown */
int gs_suite_from_name(const char *name, enum gs_suite *s); /* 0 on success */
/* Parses "ulp,special" (comma separated, spaces around words ignored, "all" = every suite)
 * into a bit mask of (1u << enum gs_suite).  On failure returns nonzero and copies the
 * offending word (or "" for an empty list or an empty word) into bad (bad_size bytes). */
int gs_suite_mask_parse(const char *list, unsigned *mask, char *bad, size_t bad_size);

/* Finding kinds (contract: docs/design.md section 6), in its order. */
enum gs_kind {
    GS_K_ULP_EXCEEDED = 0,
    GS_K_NAN_OUTPUT,
    GS_K_INF_OUTPUT,
    GS_K_WRONG_SIGN,
    GS_K_PREMATURE_FLUSH,
    GS_K_FTZ,
    GS_K_SIGNED_ZERO,
    GS_K_SPECIAL_VALUE,
    GS_K_IDENTITY_VIOLATION,
    GS_K_BOUND_VIOLATION,
    GS_K_NON_MONOTONIC,
    GS_K_POSITION_DEPENDENT,
    GS_K_ALIGNMENT_DEPENDENT,
    GS_K_INPLACE_MISMATCH,
    GS_K_LANE_CONTAMINATION,
    GS_K_NONDETERMINISTIC,
    GS_K_OUT_OF_BOUNDS_WRITE,
    GS_K_INPUT_MODIFIED,
    GS_K_FPENV_MODIFIED,
    GS_K_DECLARED_MISMATCH,
    GS_K_CRASH,
    GS_K_TIMEOUT,
    GS_K_ADAPTER_ERROR,
    GS_N_KINDS,
    GS_K_NONE = GS_N_KINDS /* "no finding": a correctly rounded output, a passing check */
};
const char *gs_kind_name(enum gs_kind k); /* "ulp_exceeded", ...; NULL for GS_K_NONE/unknown */
int gs_kind_from_name(const char *name, enum gs_kind *k);

/* Regions of x (docs/design.md section 6): x < -10, [-10,-5), [-5,-1), [-1,0), [0,1), x >= 1.
 * -0 belongs to [-1,0), +0 to [0,1); NaN to none. */
enum gs_region {
    GS_R_LT_M10 = 0,
    GS_R_M10_M5,
    GS_R_M5_M1,
    GS_R_M1_0,
    GS_R_0_1,
    GS_R_GE_1,
    GS_N_REGIONS,
    GS_R_NONE = GS_N_REGIONS /* not tied to one input (a vector-suite finding, a NaN x) */
};
const char *gs_region_name(enum gs_region r); /* "x<-10", "[-10,-5)", "[-5,-1)", "[-1,0)",
                                                 "[0,1)", "x>=1", "none" */
int gs_region_from_name(const char *name, enum gs_region *r); /* "none" included; 0 on success */
enum gs_region gs_region_of(enum geluref_dtype dt, uint64_t xbits);

enum gs_verdict { GS_PASS = 0, GS_FAIL = 1, GS_SKIP = 2, GS_ERROR = 3 };
const char *gs_verdict_name(enum gs_verdict v); /* "pass", "fail", "skip", "error" */
int gs_verdict_from_name(const char *name, enum gs_verdict *v); /* 0 on success */
/* The more severe of two verdicts for aggregation: error > fail > pass > skip. */
enum gs_verdict gs_verdict_worse(enum gs_verdict a, enum gs_verdict b);

/* ---------------------------------------------------------------- dtype bits (bits.c) ---- */

/* Small exact helpers on bit patterns of a dtype (no rounding anywhere). */
int gs_is_nan(enum geluref_dtype dt, uint64_t b);
int gs_is_inf(enum geluref_dtype dt, uint64_t b);
int gs_is_zero(enum geluref_dtype dt, uint64_t b);
int gs_is_subnormal(enum geluref_dtype dt, uint64_t b); /* nonzero subnormal */
int gs_sign(enum geluref_dtype dt, uint64_t b);         /* 1 when the sign bit is set */
uint64_t gs_neg(enum geluref_dtype dt, uint64_t b);     /* flips the sign bit */
uint64_t gs_abs(enum geluref_dtype dt, uint64_t b);
/* Position in the ordered set of values with +0 and -0 at one position: -inf ... -0=+0 ...
 * +inf as consecutive signed integers (0 for +-0, 1 for the smallest positive subnormal,
 * -1 for its negative).  Undefined for NaN. */
int64_t gs_pos(enum geluref_dtype dt, uint64_t b);
/* The value at a position (the inverse of gs_pos, +0 for 0); positions beyond +-inf clamp. */
uint64_t gs_from_pos(enum geluref_dtype dt, int64_t pos);
/* The nearest double of a value of the dtype (exact for all dtypes: f16/bf16/f32 widen). */
double gs_to_double(enum geluref_dtype dt, uint64_t b);
/* Bits of a double rounded to the dtype (RN; used only to build probe inputs, never to round
 * reference values). */
uint64_t gs_from_double(enum geluref_dtype dt, double v);
/* Reads/writes element i of an array of the dtype in memory (8, 4, 2 or 2 bytes). */
uint64_t gs_load(enum geluref_dtype dt, const void *array, size_t i);
void gs_store(enum geluref_dtype dt, void *array, size_t i, uint64_t b);
/* "x = -5.5403614 (-0x1.629c1ep+2, 0xc0b14e0f)"-style strings: dec, hex and bits of b in one
 * buffer (at least GS_VALUE_TEXT bytes). */
#define GS_VALUE_TEXT 96
void gs_format_value(char *buf, size_t size, enum geluref_dtype dt, uint64_t b);

/* ---------------------------------------------------------------- reference (measure.c) -- */

/* A per-thread workspace for reference evaluations (MPFR variables, counters).  Not shared
 * between threads. */
struct gs_ref;
/* cfg may be NULL (defaults); the scale in cfg is used for GELUREF_GELU_SCALED. */
struct gs_ref *gs_ref_new(const struct geluref_config *cfg);
void gs_ref_free(struct gs_ref *r);
/* Forces the MPFR path of the reference (--reference mpfr) when on; the fast path (which
 * falls back to MPFR where its bound cannot decide) otherwise.  Both give the same bits. */
void gs_ref_use_mpfr(struct gs_ref *r, int on);
/* Counters of every geluref call made through r (added to, never reset). */
const struct geluref_stats *gs_ref_stats(const struct gs_ref *r);

/* What the reference says about f(x) in dt, from ONE evaluation:
 *   the exact value rounded to odd at p + 16 bits (MPFR's full exponent range): RZ at
 *   precision p + 16 with the ternary value, then the last bit set when inexact.  Rounding
 *   that value into the dtype in any mode gives the same bits as rounding the exact value
 *   (round-to-odd with at least 2 extra bits, Boldo and Melquiond 2008; subnormal targets
 *   have fewer bits, so still at least 2 extra), and its relative distance to the exact value
 *   is below 2^-(p+15): enough for the ulp error (docs/design.md section 4: p + 12 bits).
 * Tests cross-check rn/rd/ru against geluref_eval() on every f16/bf16 input and many f32/f64
 * inputs. */
struct gs_refval {
    uint64_t x;        /* input bits */
    uint64_t rn;       /* RN(f(x)) in dt: "want" */
    uint64_t rd, ru;   /* RD(f(x)), RU(f(x)): the faithful pair (equal when exact) */
    int exact;         /* f(x) is a value of the dtype (rn == rd == ru) */
    int nan;           /* f(x) is NaN (x NaN) */
};
/* Evaluates f at x.  Returns GELUREF_OK, or GELUREF_E_PREC_CAP (internal error: the caller
 * records it and the run exits 4). */
enum geluref_status gs_ref_eval(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                                uint64_t x, struct gs_refval *out);

/* The measurement of one kernel output y against the reference (policy-independent). */
struct gs_meas {
    uint64_t x, got, want;  /* input, output, RN(f(x)) */
    int cr;                 /* got == want (bit for bit; any NaN equals any NaN) */
    int faithful;           /* got is RD(f) or RU(f) (+0/-0 counted by value) */
    int exact;              /* f(x) is a value of the dtype (or NaN): RD(f) = RU(f) */
    int64_t cr_distance;    /* |gs_pos(got) - gs_pos(want)|; -1 when either is NaN */
    double ulp;             /* |got - f(x)| / ulp(f(x)) (docs/design.md section 4), from the p+16-bit
                               value; +inf when got is +-inf or NaN and f(x) is finite; 0 when
                               both are the same infinity or both NaN */
    double abs_err;         /* |got - f(x)| as a double (+inf when non-finite) */
    double rel_err;         /* abs_err / |f(x)| (+inf when f(x) = 0 and got != 0; 0 when both 0) */
    enum gs_kind defect;    /* primary kind of docs/design.md section 4, thresholds not applied:
                               nan_output, inf_output, wrong_sign, premature_flush, ftz,
                               signed_zero, ulp_exceeded (any other non-CR output), or
                               GS_K_NONE when cr */
    int want_class;         /* GS_WANT_ZERO, GS_WANT_SUBNORMAL, GS_WANT_NORMAL, GS_WANT_INF,
                               GS_WANT_NAN: of RN(f(x)) */
};
enum { GS_WANT_ZERO = 0, GS_WANT_SUBNORMAL, GS_WANT_NORMAL, GS_WANT_INF, GS_WANT_NAN };

/* Measures output y for input x (evaluates the reference once).  Status as gs_ref_eval. */
enum geluref_status gs_measure(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                               uint64_t x, uint64_t y, struct gs_meas *m);

/* ---------------------------------------------------------------- policies (policy.c) ---- */

/* What a finding of a kind does to the verdict. */
enum gs_severity { GS_SEV_FAIL = 0, GS_SEV_WARN = 1, GS_SEV_IGNORE = 2 };
/* Where the accuracy thresholds apply. */
enum gs_domain { GS_DOMAIN_ALL = 0, GS_DOMAIN_NORMAL = 1 };

/* The effective values of every policy key for one (func, dtype).  docs/policies.md publishes the
 * meaning of each key and the built-in tables; policy files use the same key names. */
struct gs_policy_values {
    double max_ulp;          /* max_ulp: ulp error allowed (INFINITY = no limit) */
    double max_cr_distance;  /* max_cr_distance: positions from RN(f(x)) allowed (INFINITY) */
    int faithful;            /* faithful: the output must be RD(f(x)) or RU(f(x)) */
    double abs_tol;          /* abs_tol: an output within this absolute error of f(x) passes
                                every accuracy check (max_ulp, max_cr_distance, faithful,
                                premature_flush, ftz); 0 = none */
    enum gs_domain accuracy_domain; /* accuracy_domain = all | normal: where max_ulp,
                                max_cr_distance and faithful apply (normal: only where
                                RN(f(x)) is a normal number) */
    int special_zero_sign;   /* special_zero_sign = exact | any: whether the special suite
                                judges the sign of a zero result (severity of signed_zero
                                findings of the special suite: any = warn) */
    int nan_at_neg_inf;      /* nan_at_neg_inf = fail | allow: NaN for x = -inf (allow: that
                                one special_value finding is tolerated, a warning; every
                                other special_value keeps the kind's severity) */
    double consistency_ulps; /* consistency_ulps: the accuracy, in ulps of each output, that
                                the identity, bound and monotonicity checks grant: 0.5 is what
                                a correctly rounded kernel produces (docs/design.md section 6);
                                q allows an identity residual up to q (ulp(y1) + ulp(y2)), an
                                output ceil(q - 1/2) positions beyond a bound, and a step of
                                ceil(2q) - 1 positions the wrong way: what two outputs each
                                within q ulps can show (INFINITY: not checked) */
    enum gs_severity severity[GS_N_KINDS]; /* one key per finding kind (its contract name):
                                fail | warn | ignore.  crash, timeout and adapter_error are
                                always fail (not settable). */
};

struct gs_policy; /* a named built-in, possibly overridden by an INI file */

/* Built-in policies: "strict", "faithful", "default", "lenient". */
const char *const *gs_policy_builtin_names(void); /* NULL-terminated */
/* A built-in by name; NULL if none (the caller then tries a file). */
struct gs_policy *gs_policy_builtin(const char *name);
/* Reads an INI policy file (inih).  Layout and keys: docs/policies.md.  On failure returns
 * NULL and msg gets one line naming the file, the line and the key ("policy.ini:7: unknown key
 * 'max_ulps' in section [gelu.f32]"). */
struct gs_policy *gs_policy_load(const char *path, char *msg, size_t size);
void gs_policy_free(struct gs_policy *p);
const char *gs_policy_name(const struct gs_policy *p); /* "default", or the file's base name */
/* The effective values for (func, dtype): the built-in's table, then the file's sections in
 * order of specificity ([all], [DTYPE], [FUNC], [FUNC.DTYPE]). */
void gs_policy_resolve(const struct gs_policy *p, enum geluref_func f, enum geluref_dtype dt,
                       struct gs_policy_values *v);
/* As gs_policy_resolve, then the file's [kernel ID] section when it has one for id, the
 * kernel's identity ADAPTER/KERNEL (id NULL: none).  Returns whether such a section applied. */
int gs_policy_resolve_kernel(const struct gs_policy *p, const char *id, enum geluref_func f,
                             enum geluref_dtype dt, struct gs_policy_values *v);
/* The [kernel ID] sections of a policy file, in file order: how many, and the i-th's ID and
 * the line of its header (for messages about a section that matches no kernel). */
size_t gs_policy_kernel_count(const struct gs_policy *p);
const char *gs_policy_kernel_id(const struct gs_policy *p, size_t i, int *line);
/* The values as a JSON object of key -> value (strings "fail"/"warn"/"ignore", numbers,
 * "inf" for INFINITY, true/false, "all"/"normal", "exact"/"any", "fail"/"allow"). */
json_t *gs_policy_values_json(const struct gs_policy_values *v);

/* The kind an accuracy measurement counts as under v, or GS_K_NONE when it passes:
 * applies abs_tol, accuracy_domain, max_ulp, max_cr_distance and faithful to m->defect's
 * ulp_exceeded; nan_output, inf_output, wrong_sign, premature_flush, ftz and signed_zero are
 * returned as is unless abs_tol excuses them (flushes and zero signs within abs_tol).
 * Severity is not applied here (the finding is recorded; its severity decides the verdict). */
enum gs_kind gs_policy_judge(const struct gs_policy_values *v, const struct gs_meas *m);

/* ---------------------------------------------------------------- findings (findings.c) -- */

#define GS_WORST_K 10 /* worst findings kept per (kind, region) */

/* One failing input or failed check.  Value kinds carry x/got/want; vector-suite kinds carry
 * the offending input and outputs where there is one, and say the rest in detail. */
struct gs_finding {
    enum gs_kind kind;
    enum gs_region region;   /* of x; GS_R_NONE when not tied to one input */
    int has_x, has_got, has_want;
    uint64_t x, got, want;   /* dtype bits */
    double score;            /* sort key, larger = worse: the ulp error for value kinds
                                (+inf for non-finite outputs), else a kind-specific measure
                                documented where the finding is made (0 if none) */
    double ulp;              /* ulp error, NAN when not applicable */
    double abs_err;          /* absolute error, NAN when not applicable */
    char detail[200];        /* one line, lower case: what was checked and what was seen */
    int tolerated;           /* a policy key excuses this one finding (nan_at_neg_inf = allow:
                                NaN for x = -inf): shown and judged as a warning where its
                                kind's severity is fail (gs_finding_severity) */
};

/* Per (kind, region): the count and the GS_WORST_K worst, ordered by score (larger first),
 * ties broken by the smaller x bits then the smaller got bits, so merging in any order gives
 * the same list. */
struct gs_bucket {
    uint64_t count;
    uint64_t tolerated;      /* how many of count are tolerated findings */
    size_t n_worst;
    struct gs_finding worst[GS_WORST_K];
};
struct gs_findings {
    struct gs_bucket *b[GS_N_KINDS][GS_N_REGIONS + 1]; /* allocated on first use */
    int nomem;                                        /* an allocation failed (counts kept) */
};
void gs_findings_init(struct gs_findings *f);
void gs_findings_release(struct gs_findings *f);
/* Whether a finding of kind k in region r with this score could enter the worst list (it is
 * counted either way): callers format a finding's detail text only then. */
int gs_findings_may_keep(const struct gs_findings *f, enum gs_kind k, enum gs_region r,
                         double score);
void gs_findings_add(struct gs_findings *f, const struct gs_finding *x);
/* gs_findings_add of an untolerated finding of kind k in region r, input x, whose score is
 * below score_hi (exact: equal to it), when it cannot enter the worst list: counted, and 1;
 * otherwise nothing done, 0. */
int gs_findings_count_unkept(struct gs_findings *f, enum gs_kind k, enum gs_region r,
                             double score_hi, int exact, uint64_t x);
/* The bound below which gs_findings_count_unkept counts a finding of kind k in region r
 * whatever its x: it counts every score_hi < the bound (not NaN) while the list is unchanged
 * (a full list's last score; -INFINITY when it would count none: no full list). */
double gs_findings_unkept_below(const struct gs_findings *f, enum gs_kind k, enum gs_region r);
/* n more untolerated findings of kind k in region r counted, none of them kept (the caller
 * knows that none could enter the worst list: gs_findings_count_unkept said so of a smaller
 * x of the same score, and the list has not changed since). */
void gs_findings_count_more(struct gs_findings *f, enum gs_kind k, enum gs_region r, uint64_t n);
void gs_findings_merge(struct gs_findings *into, const struct gs_findings *from);
uint64_t gs_findings_count(const struct gs_findings *f, enum gs_kind k); /* all regions */
/* Whether any recorded finding has severity fail under v (crash/timeout/adapter_error:
 * always; a tolerated finding never). */
int gs_findings_fail(const struct gs_findings *f, const struct gs_policy_values *v);
/* The single worst finding of severity fail or warn, by the order of severity (severity.c);
 * NULL when none. */
const struct gs_finding *gs_findings_worst(const struct gs_findings *f,
                                           const struct gs_policy_values *v);

/* ---------------------------------------------------------------- severity (severity.c) -- */

/* The order of severity (docs/findings.md): every kind has a rank, 0 the most severe (crash);
 * findings are shown by severity (fail, warn, ignore), then rank, then score.  The terminal
 * summary, report.md and JUnit all order findings by gs_rank_cmp, and nothing else. */
int gs_kind_rank(enum gs_kind k);           /* GS_N_KINDS for GS_K_NONE or unknown */
enum gs_kind gs_kind_at_rank(int rank);     /* GS_K_NONE out of range */
const char *gs_severity_name(enum gs_severity s);              /* "fail", "warn", "ignore" */
int gs_severity_from_name(const char *name, enum gs_severity *s); /* 0 on success */
/* The severity of kind k under v (crash, timeout and adapter_error: always fail; v NULL:
 * fail), and of one finding (a tolerated one: warn where its kind says fail). */
enum gs_severity gs_kind_severity(const struct gs_policy_values *v, enum gs_kind k);
enum gs_severity gs_finding_severity(const struct gs_policy_values *v,
                                     const struct gs_finding *f);
/* What the order looks at. */
struct gs_rank_key {
    int severity;      /* enum gs_severity; GS_SEV_IGNORE + 1 for an unknown one */
    enum gs_kind kind; /* GS_K_NONE for an unknown one: after every kind */
    double score;      /* larger = worse; NaN counts as +inf */
    int has_x;
    uint64_t x;        /* ties: the smaller bits first, then a finding without x */
};
void gs_rank_key_of(struct gs_rank_key *key, const struct gs_policy_values *v,
                    const struct gs_finding *f);
/* The key of a finding of the result (a "findings" entry: its "severity", "kind", "score" or,
 * without one, "ulp", and "x"). */
void gs_rank_key_of_json(struct gs_rank_key *key, const json_t *f);
/* < 0 when a is more severe than b, 0 when the order cannot tell them apart. */
int gs_rank_cmp(const struct gs_rank_key *a, const struct gs_rank_key *b);
int gs_finding_json_cmp(const json_t *a, const json_t *b);

/* ---------------------------------------------------------------- error statistics ------- */

/* cr_distance histogram buckets: 0, 1, 2, 3-4, 5-16, 17-256, > 256, not comparable (NaN). */
#define GS_HIST_N 8
const char *gs_hist_label(int i); /* "0", "1", "2", "3-4", "5-16", "17-256", ">256", "nan" */

/* x 2^k as ldexp gives it: one multiplication by an exact power of two when 2^k is a normal
 * double (correctly rounded, as ldexp is), else ldexp itself (measure.c's errors, and the ulp
 * sweep's fused measurement of the same errors, ulp_fused.h). */
static inline double gs_pow2_scale(double x, int64_t k)
{
    if (k >= -1022 && k <= 1023) {
        union {
            double d;
            uint64_t u;
        } p = { .u = (uint64_t)(k + 1023) << 52 };
        return x * p.d;
    }
    return ldexp(x, k < -100000 ? -100000 : k > 100000 ? 100000 : (int)k);
}

/* The bucket of a cr_distance d: the number of the upper ends 0, 1, 2, 4, 16 and 256 of the
 * buckets "0" to "17-256" that d exceeds (">256" above them all); a negative d (a NaN on
 * either side) "nan". */
static inline int gs_hist_index(int64_t d)
{
    if (d < 0)
        return GS_HIST_N - 1;
    return (d > 0) + (d > 1) + (d > 2) + (d > 4) + (d > 16) + (d > 256);
}

/* Mergeable accuracy statistics over a set of inputs (errstat.c).  Maxima keep their
 * argument; ties go to the smaller x bits, so merging in any order gives the same result. */
struct gs_errstat {
    uint64_t points;      /* outputs measured */
    uint64_t cr;          /* correctly rounded (RN) */
    uint64_t faithful;
    uint64_t nonfinite;   /* NaN or inf outputs where f(x) is finite (not in max_ulp) */
    uint64_t hist[GS_HIST_N];
    double max_ulp;       /* over finite outputs; -1 when none */
    uint64_t max_ulp_x, max_ulp_got, max_ulp_want;
    double max_abs, max_rel; /* over finite outputs; -1 when none */
    uint64_t max_abs_x, max_rel_x;
};
void gs_errstat_init(struct gs_errstat *s);
void gs_errstat_add(struct gs_errstat *s, const struct gs_meas *m);
void gs_errstat_merge(struct gs_errstat *into, const struct gs_errstat *from);
/* {"points", "correctly_rounded", "fraction_correctly_rounded", "faithful", "nonfinite",
 *  "max_ulp", "max_ulp_at": {x, got, want as value objects}, "max_abs_err", "max_abs_err_x",
 *  "max_rel_err", "max_rel_err_x", "cr_distance_histogram": {"0": n, ...}}; numbers never
 *  non-finite (null instead). */
json_t *gs_errstat_json(const struct gs_errstat *s, enum geluref_dtype dt);
/* The same, brief, for the thousands of per-binade entries (f64 has 4094 binades): "points",
 * "correctly_rounded", "faithful", "nonfinite", "max_ulp", "max_ulp_x" (the input's bits as a
 * string, or null), "max_abs_err", "max_rel_err". */
json_t *gs_errstat_json_brief(const struct gs_errstat *s, enum geluref_dtype dt);

/* ---------------------------------------------------------------- JSON helpers (json.c) -- */

/* {"dec": "-5.5403614", "hex": "-0x1.629c1ep+2", "bits": "0xc0b14e0f"} */
json_t *gs_value_json(enum geluref_dtype dt, uint64_t bits);
/* A double as a JSON number, or the string "inf", "-inf", "nan" when not finite. */
json_t *gs_real_json(double v);
/* The command that reproduces a value finding: "gelucheck ref FUNC --dtype DT 0x...". */
void gs_ref_command(char *buf, size_t size, enum geluref_func f, enum geluref_dtype dt,
                    uint64_t x);
/* The findings of a suite: {"counts": [{"kind", "region", "count", "severity"}...],
 *  "findings": [{"kind", "region", "severity", "x", "got", "want", "ulp", "abs_err", "score",
 *  "detail", "command"}...]} added into obj (its "finding_counts" and "findings" members),
 * kinds in enum order, regions in enum order, worst first.  "score" is the sort key of the
 * worst lists (struct gs_finding), so that shard results merge into the same lists. */
void gs_findings_json(json_t *obj, const struct gs_findings *f, const struct gs_policy_values *v,
                      enum geluref_func func, enum geluref_dtype dt);

/* ---------------------------------------------------------------- reading back (readback.c) */

/* The inverses of the writers above, for `gelucheck merge` (docs/design.md section 9): each reads
 * exactly what its writer wrote, so that writing it again gives the same bytes.  Each returns
 * 0, or -1 when j is not what the writer makes (then the output is unspecified). */
/* A gs_real_json: a number, or "inf", "-inf", "nan". */
int gs_real_from_json(const json_t *j, double *v);
/* The bits of a gs_value_json object ({"bits": "0x..."}) or of a bits string ("0x..."). */
int gs_bits_from_json(const json_t *j, uint64_t *bits);
/* A gs_errstat_json or gs_errstat_json_brief object (the brief form keeps no max_ulp_got/want
 * or argument of the absolute and relative maxima: it never shows them). */
int gs_errstat_from_json(struct gs_errstat *s, const json_t *j);
/* The "finding_counts" and "findings" of a suite entry into f (initialised and empty),
 * and the severity each kind was shown with into sev (kinds without findings left as they
 * are). */
int gs_findings_from_json(struct gs_findings *f, enum gs_severity sev[GS_N_KINDS],
                          const json_t *suite);

/* ---------------------------------------------------------------- inputs (inputs.c) ------ */

/* A small, fast, seedable generator (splitmix64): deterministic for a given seed on every
 * platform. */
struct gs_rng { uint64_t s; };
void gs_rng_seed(struct gs_rng *r, uint64_t seed);
uint64_t gs_rng_next(struct gs_rng *r);
/* Uniform in [0, n) (n > 0), without modulo bias. */
uint64_t gs_rng_below(struct gs_rng *r, uint64_t n);
/* The seed for a sub-stream (suite, chunk): independent of thread count and order. */
uint64_t gs_seed_mix(uint64_t seed, uint64_t a, uint64_t b);

/* Target inputs and thresholds of (f, dt) (targets.c), found with the reference by bisection
 * over positions and checked at their neighbours.  The "underflow side" is x < 0 for every
 * func except erfc (x > 0) and erf (none); the "saturation side" is x > 0 (gelu family: f(x)
 * = x; grads, normcdf, erf: 1), x < 0 for erfc (2) and erf also has x < 0 (-1); normpdf has
 * none.  A field is valid only when its has_ flag is set. */
struct gs_targets {
    int has_last_nonzero;   /* the underflow-side x farthest from 0 whose RN(f(x)) is not zero */
    uint64_t last_nonzero;  /*   (binary32 gelu: -14.356067657470703) */
    int has_last_normal;    /* the underflow-side x farthest from 0 whose RN(f(x)) is normal */
    uint64_t last_normal;
    int has_sat;            /* the saturation-side x nearest 0 from which on RN(f(x)) equals */
    uint64_t sat;           /*   the limit (x itself for the gelu family) */
    int has_sat_neg;        /* erf only: the same on x < 0 (-1) */
    uint64_t sat_neg;
    int has_min;            /* the x nearest the function's own minimum (gelu family: x*, */
    uint64_t min_x;         /*   gelu_grad: -sqrt2), and RN of the minimum value */
    uint64_t min_value;
    int has_zero;           /* the x nearest the function's zero away from x = 0, where |f| is */
    uint64_t zero_x;        /*   smallest (gelu_grad: x* = -0.7518, gelu_tanh_grad: -0.75246) */
    uint64_t *x;            /* every target input (sorted by bits, no duplicates):
                               +-GS_TARGET_BAND floats around each threshold above and around
                               min_x, every float within gs_target_zero_window() of zero_x,
                               the first odd subnormals and lowest-normal-binade inputs of
                               both signs (midpoint traps of x/2), +-1, +-2, +-3, the dtype's
                               extremes */
    size_t n;
};
/* Floats on each side of a threshold or minimum in the list. */
#define GS_TARGET_BAND 64
/* Floats on each side of zero_x in the list: GS_TARGET_ZERO_WINDOW (4096; targets.c argues
 * it), or 2^(p-3) when that is smaller (f16: 256, bf16: 32), which keeps the window inside
 * the binade [-1, -0.5) of the zeros. */
#define GS_TARGET_ZERO_WINDOW 4096
int64_t gs_target_zero_window(enum geluref_dtype dt);
/* The most inputs a list can hold: five threshold bands, the zero's window, 4 x 8 midpoint
 * traps, +-1, +-2, +-3, +-0, the smallest subnormal, the smallest normal and the largest
 * finite value, of both signs (the ulp suite measures them in one batch). */
#define GS_TARGETS_MAX (5 * (2 * GS_TARGET_BAND + 1) + 2 * GS_TARGET_ZERO_WINDOW + 1 + 2 * (32 + 7))
/* Finds them (about a hundred reference evaluations per threshold).  Status as
 * gs_ref_eval. */
enum geluref_status gs_targets_build(struct gs_ref *r, enum geluref_func f,
                                     enum geluref_dtype dt, struct gs_targets *t);
void gs_targets_release(struct gs_targets *t);
/* The targets as JSON: {"last_nonzero": value, "last_normal", "saturation", "saturation_neg",
 * "minimum_at", "minimum", "zero_at", "count"} (absent members for missing thresholds). */
json_t *gs_targets_json(const struct gs_targets *t, enum geluref_dtype dt);

/* ---------------------------------------------------------------- threads (parallel.c) --- */

/* Runs fn(arg, thread, item) for item = 0 .. n_items-1 on n_threads threads (thread =
 * 0 .. n_threads-1; thread 0 is the caller), items handed out in order by an atomic counter.
 * fn returns 0, or nonzero to stop handing out further items (an error it records itself).
 * Returns 0, or nonzero when a thread could not be started (then the caller's thread did all
 * the work: the result is the same). */
int gs_parallel_for(unsigned n_threads, uint64_t n_items,
                    int (*fn)(void *arg, unsigned thread, uint64_t item), void *arg);

/* ---------------------------------------------------------------- running a kernel ------- */

/* Progress callback: a suite reports how far it is (done of total inputs); may be called from
 * any thread, at most a few times per second per thread; the callee serialises. */
typedef void (*gs_progress_fn)(void *arg, const char *kernel, const char *suite,
                               uint64_t done, uint64_t total);

enum { GS_REF_FAST = 0, GS_REF_MPFR = 1 };

struct gs_config {
    unsigned suites;         /* mask of (1u << enum gs_suite) */
    const struct gs_policy *policy;
    uint64_t seed;           /* --seed (default 1) */
    uint64_t samples;        /* --samples: ulp-suite random inputs for f32/f64; 0 = default */
    int exhaustive;          /* --exhaustive: every input of the dtype in the ulp suite */
    int has_range;           /* --range LO:HI: sweeps (ulp, tail) restricted to [lo, hi] */
    double range_lo, range_hi;
    unsigned threads;        /* >= 1 */
    struct geluref_config ref; /* reference settings (prec cap) */
    int reference;           /* --reference: GS_REF_FAST (default: the fast path of
                                reference/src/fast*.c, MPFR when its bound cannot decide) or
                                GS_REF_MPFR (the proven MPFR path only) */
    unsigned shard_k, shard_n; /* --shard K/N: this run measures shard K (0-based) of N;
                                  shard_n 0 or 1 = the whole run (docs/design.md section 9) */
    unsigned long long memory_limit; /* --memory-limit as put in place, bytes per process (0:
                                  none), for the result and the crash findings' commands
                                  (the adapters are opened with it by the caller); default
                                  GC_MEM_DEFAULT */
    gs_progress_fn progress; /* may be NULL */
    void *progress_arg;
    const volatile sig_atomic_t *interrupt; /* nonzero once the run is to stop (SIGINT or
                                  SIGTERM, set by the CLI's handler): the ulp suite measures no
                                  further work item and gs_run_kernel starts no further suite;
                                  NULL = never */
};
/* Whether cfg->interrupt says stop. */
int gs_interrupted(const struct gs_config *c);
void gs_config_init(struct gs_config *c); /* all suites, default policy NULL (caller sets),
                                             seed 1, samples 0, threads 1,
                                             memory_limit GC_MEM_DEFAULT */

/* One kernel to test: the same kernel opened once per thread (k[t] belongs to an adapter
 * opened for thread t; k[0] is used by the single-threaded suites). */
struct gs_target {
    const struct gc_kernel *const *k; /* n_threads entries */
    unsigned n_threads;
    const char *adapter;             /* the adapter spec as given, for the JSON */
    const char *adapter_id;          /* its own name, the ADAPTER of the kernel's identity
                                        ADAPTER/KERNEL ("id"); NULL: the adapter's ident */
};

/* What every suite gets. */
struct gs_ctx {
    const struct gs_config *cfg;
    const struct gs_target *t;
    enum geluref_func func;          /* what the kernel declares */
    enum geluref_dtype dt;
    size_t elem;                     /* element size */
    struct gs_policy_values pv;      /* resolved for (func, dt) */
    struct gs_ref **ref;             /* one workspace per thread (n_threads) */
    struct gs_targets targets;       /* built once per kernel by gs_ctx_init */
    int internal_error;              /* set when the reference failed (cap): exit 4 */
    char internal_msg[256];
    const json_t *resume_ulp;        /* the ulp suite entry of an interrupted run to continue
                                        (its "inputs"."covered" items are not measured again:
                                        read back and merged), or NULL */
    int interrupted;                 /* set by a suite that stopped early on cfg->interrupt */
};

/* The result of one suite on one kernel. */
struct gs_suite_result {
    enum gs_suite suite;
    enum gs_verdict verdict;
    uint64_t points;                 /* inputs checked */
    struct gs_findings findings;
    struct gs_policy_values pv;      /* what the findings are judged and shown with: the
                                        caller sets c->pv; a suite may bend it for itself (the
                                        special suite: special_zero_sign, nan_at_neg_inf) */
    json_t *metrics;                 /* suite-specific metrics (owned); may be NULL */
    json_t *inputs;                  /* description of the input sets (owned); may be NULL */
    char note[256];                  /* why skipped, or the error; "" otherwise */
};

/* Prepares c for running suites on t (ctx.c): func, dtype and element size from t->k[0],
 * the policy values resolved from cfg->policy (which must be set), one reference workspace
 * per thread, and the targets (gs_targets_build).  Returns 0, or nonzero with msg set (no
 * memory, or the reference failed: then c->internal_error is set too). */
int gs_ctx_init(struct gs_ctx *c, const struct gs_config *cfg, const struct gs_target *t,
                char *msg, size_t size);
void gs_ctx_release(struct gs_ctx *c);

/* Buffers for kernel inputs and outputs (ctx.c): 64-byte aligned (so that only the vector
 * suite, which misaligns on purpose, sees misaligned pointers: a kernel whose results depend
 * on alignment must not make the other suites' results depend on malloc), with GS_BUF_SLACK
 * writable bytes before and after (a kernel that writes a little out of bounds, which the
 * vector suite reports, must not corrupt the host while another suite runs it).  Every
 * buffer handed to gs_kernel_eval comes from here or from the vector suite's own guarded
 * allocation.  gs_buf_alloc returns NULL on no memory; gs_buf_free(NULL) is fine. */
#define GS_BUF_SLACK 4096
void *gs_buf_alloc(size_t bytes);
void gs_buf_free(void *p);

/* Evaluates the kernel of thread t on n inputs (ctx.c); on failure records an adapter_error
 * or timeout finding into f (when f is not NULL) with the message, and returns the status.
 * A kernel that left the floating-point environment changed (adapter's fpenv_modified
 * counter grew) gets an fpenv_modified finding in f (the host has restored it). */
enum gc_status gs_kernel_eval(const struct gs_ctx *c, unsigned t, const void *x, void *y,
                              size_t n, struct gs_findings *f);
/* The same, with y_slack bytes before y and after y[n-1] that the caller owns (the vector
 * suite's canaries: an isolating transport carries them to the kernel and back, see struct
 * gc_eval_extra).  gs_kernel_eval is this with y_slack 0. */
enum gc_status gs_kernel_eval_ex(const struct gs_ctx *c, unsigned t, const void *x, void *y,
                                 size_t n, size_t y_slack, struct gs_findings *f);
/* The fpenv_modified finding of a kernel whose adapter changed the floating-point environment
 * while it was loaded (struct gc_adapter fpenv_load, of any thread's instance: with
 * --isolation none only the first dlopen of a library runs its constructors), detail
 * "at load: FTZ set (MXCSR bit 15); DAZ set (MXCSR bit 6) (in dlopen: a constructor);
 * restored at once" (ctx.c).  Added to f: returns 1; 0 when the load changed nothing.
 * run.c adds it once per kernel, to the first suite that is not skipped. */
int gs_fpenv_load_finding(const struct gs_ctx *c, struct gs_findings *f);

/* The six suites (ulp.c, special.c, identity.c, tail.c, vector.c, fingerprint.c).  Each fills
 * r (r->suite set, findings initialised by the caller) and never prints.  The verdict: skip
 * when the suite does not apply (fingerprint on non-gelu funcs: "n/a"), error when the kernel
 * could not be served, fail when a finding fails under c->pv, else pass. */
void gs_suite_ulp(struct gs_ctx *c, struct gs_suite_result *r);
void gs_suite_special(struct gs_ctx *c, struct gs_suite_result *r);
void gs_suite_identity(struct gs_ctx *c, struct gs_suite_result *r);
void gs_suite_tail(struct gs_ctx *c, struct gs_suite_result *r);
void gs_suite_vector(struct gs_ctx *c, struct gs_suite_result *r);
void gs_suite_fingerprint(struct gs_ctx *c, struct gs_suite_result *r);

/* ---------------------------------------------------------------- shards (shard.c) ------ */

/* --shard K/N (docs/design.md section 9).  The ulp and tail suites, whose work grows with
 * --exhaustive (2^32 inputs for f32), split their work items: shard K takes items K, K + N,
 * K + 2N, ... (interleaved, so every shard gets the same mix of cheap and costly regions of x);
 * the tail suite only where its scan takes every input (tail.c; else it runs whole in shard 0).
 * The other suites run whole in shard 0 and are skipped in the others (docs/scale-out.md says
 * why). */
int gs_sharded(const struct gs_config *c);   /* shard_n > 1 */
int gs_suite_splits(enum gs_suite s);        /* whether s may split its work across shards */
/* The note of a suite that this shard (K > 0) leaves to shard 0: "not run in shard K of N: this
 * suite runs in shard 0 only" (gelucheck merge recognises it). */
void gs_shard_skip_note(const struct gs_config *c, char *buf, size_t size);
/* Whether this shard runs suite s (at all): always unsharded; else in shard 0, or when s
 * splits. */
int gs_suite_in_shard(const struct gs_config *c, enum gs_suite s);
/* How many of the work items 0 .. n-1 are this shard's, and the global index of its j-th. */
uint64_t gs_shard_items(const struct gs_config *c, uint64_t n);
uint64_t gs_shard_item(const struct gs_config *c, uint64_t j);

/* ---------------------------------------------------------------- merging (merge.c) ------ */

/* The merged verdict of a split suite's entries s[0..n-1] (shard i's s[i]) whose findings
 * merged into f: the first shard's error (or skip) with its note (*note), else fail or pass
 * by f under pv, as a run judges them. */
enum gs_verdict gs_merge_verdict(json_t *const *s, size_t n, const struct gs_findings *f,
                                 const struct gs_policy_values *pv, const char **note);
/* 0 when every member of the metrics object m is one of known[0..n-1]; else -1 and msg
 * ("SUITE suite: 'metrics'.'KEY' is unknown to gelucheck merge": merging would lose it). */
int gs_merge_known_members(const json_t *m, const char *const *known, size_t n,
                           const char *suite, char *msg, size_t size);
/* A merged split suite's entry in run.c's member order (name, verdict, points, inputs,
 * metrics, the findings, note if not NULL); takes inputs and metrics (NULL: null and {}). */
json_t *gs_merge_entry_json(const char *name, enum gs_verdict v, uint64_t points, json_t *inputs,
                            json_t *metrics, const struct gs_findings *f,
                            const struct gs_policy_values *pv, enum geluref_func func,
                            enum geluref_dtype dt, const char *note);

/* The kernel objects of one kernel from the n shard results of one run, k[i] from shard i,
 * joined into the object the unsharded run writes: split suites merged (counts added, maxima
 * and worst lists merged by the same order as the run's threads merge them, fractions and
 * verdicts recomputed), the other suites, the fingerprint and the targets taken from shard 0,
 * the kernel's verdict recomputed as gs_run_kernel computes it.  Returns a new object, or
 * NULL with msg saying what could not be merged ("ulp suite: bad 'metrics'.'regions'") and
 * *bad the index of the shard whose object it is (n when none in particular).  memory_limit:
 * the run's gs_config.memory_limit (for the crash findings' commands). */
json_t *gs_kernel_merge(json_t *const *k, size_t n, unsigned long long memory_limit, size_t *bad,
                        char *msg, size_t size);

/* Runs the suites of cfg on one kernel and returns its JSON object (the "kernels" entry of
 * the result): adapter, kernel, description, func, dtype, verdict, fingerprint (the
 * fingerprint suite's metrics, or {"detected": "n/a"}), suites[], targets, and, copied from
 * the ulp suite's metrics, "vs_exact" for a kernel declaring gelu_tanh / gelu_sigmoid
 * (gelu_tanh_grad): its error statistics against gelu (gelu_grad) over the same inputs.  *internal is set
 * when the reference failed (exit 4).  *timing_s gets the wall time (kept apart from the
 * JSON so that results compare byte for byte). */
json_t *gs_run_kernel(const struct gs_config *cfg, const struct gs_target *t, int *internal,
                      double *timing_s);
/* The same, continuing the kernel object `partial` of an interrupted run (NULL: from the
 * start): its suites that finished are taken as they are, its ulp suite's covered work items
 * are read back and only the others measured (ulp_resume.c).  An interrupted kernel's object
 * (cfg->interrupt) ends with "complete": false and holds the suites that finished, the ulp
 * suite with what it measured ("inputs"."covered"); suites not started are left out. */
json_t *gs_run_kernel_resume(const struct gs_config *cfg, const struct gs_target *t,
                             const json_t *partial, int *internal, double *timing_s);

#ifdef __cplusplus
}
#endif
#endif
