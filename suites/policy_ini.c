/* policy_ini.c: policy files (docs/policies.md), read with inih.
 *
 * inih does the key = value splitting and the comments; our own line reader in front of it
 * (ini_parse_stream) counts lines, so every message names FILE:LINE, and rejects what inih
 * would silently misread: a line longer than inih's buffer (inih would parse its head and
 * then its tail as a further line), a NUL byte (inih would stop the line there).  It also
 * drops leading blanks, so inih's continuation lines (an indented line continues the previous
 * value) never happen and indentation is free, and it checks section headers as they come
 * (inih hands the handler only keys, so an empty unknown section would pass unseen).
 * Storage is fixed (one struct per possible section, GS_PS_N) but for the [kernel ID] sections,
 * at most GS_PS_KERNELS_MAX of them (a header naming one already seen adds to it), so a
 * hostile file with a million section headers costs time linear in its size and bounded
 * memory. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "policy_priv.h"

enum { CUR_NONE = -2, CUR_POLICY = -1, CUR_KERNEL = GS_PS_N };

struct ini_state {
    FILE *fp;
    const char *path;
    struct gs_policy *p;
    int line;          /* lines handed to inih so far: the one it is parsing */
    int read_errno;    /* getc failed (EISDIR for a directory): errno, else 0 */
    int other_seen;    /* a section other than [policy] was seen */
    /* the section the keys that follow belong to, as the reader saw its header (inih hands
       the handler a section name cut at its own buffer's 50 bytes, too short for a
       [kernel ADAPTER/KERNEL] header): cur_sec GS_PS_* index, CUR_POLICY, or CUR_KERNEL +
       the kernel section's index; CUR_NONE before the first header */
    int cur_sec;
    char cur_name[300];
    int base_line;     /* line of [policy] base, 0 if none */
    int err_line;      /* line of our first error, 0 if none */
    char msg[512];
};

static void fail(struct ini_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct ini_state *st, const char *fmt, ...)
{
    if (st->err_line != 0)
        return;
    st->err_line = st->line;
    int n = snprintf(st->msg, sizeof st->msg, "%s:%d: ", st->path, st->line);
    if (n < 0 || (size_t)n >= sizeof st->msg)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->msg + n, sizeof st->msg - (size_t)n, fmt, ap);
    va_end(ap);
}

#define QUOTE_MAX 60 /* bytes of a name or value a message quotes */
#define QUOTE_SIZE (4 * QUOTE_MAX + 1)

/* s cut at QUOTE_MAX bytes, control bytes written \xNN, so that a message quoting it stays
 * one line (a stray '\r' would otherwise rewrite the terminal line).  Returns buf. */
static const char *quote(char buf[QUOTE_SIZE], const char *s)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (size_t i = 0; i < QUOTE_MAX && s[i] != '\0'; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            buf[o++] = '\\';
            buf[o++] = 'x';
            buf[o++] = hex[c >> 4];
            c = (unsigned char)hex[c & 15];
        }
        buf[o++] = (char)c;
    }
    buf[o] = '\0';
    return buf;
}

/* Index of an override section by name (GS_PS_*), -1 if none. */
static int section_index(const char *s)
{
    enum geluref_dtype dt;
    enum geluref_func f;
    char fn[32];
    if (strcmp(s, "all") == 0)
        return GS_PS_ALL;
    if (geluref_dtype_from_name(s, &dt) == 0)
        return GS_PS_DTYPE + (dt - 1);
    const char *dot = strchr(s, '.');
    size_t len = dot != NULL ? (size_t)(dot - s) : strlen(s);
    if (len >= sizeof fn)
        return -1;
    memcpy(fn, s, len);
    fn[len] = '\0';
    if (geluref_func_from_name(fn, &f) != 0 || f < GELUREF_GELU || f > GELUREF_ERFC)
        return -1;
    if (dot == NULL)
        return GS_PS_FUNC + (f - 1);
    if (geluref_dtype_from_name(dot + 1, &dt) != 0)
        return -1;
    return GS_PS_FUNC_DTYPE + (f - 1) * GS_PS_DTYPES + (dt - 1);
}

/* The [kernel ID] section named by a header's text "kernel ID" (ID = ADAPTER/KERNEL, each
 * part 1 to 128 of [A-Za-z0-9_.-], blanks between "kernel" and ID): *id points at ID.
 * 1 when name is such a header, 0 when it does not start with the word kernel, -1 when it
 * does but ID is malformed. */
static int kernel_header(const char *name, const char **id)
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_.-";
    if (strncmp(name, "kernel", 6) != 0 || (name[6] != '\0' && name[6] != ' ' &&
                                            name[6] != '\t'))
        return 0;
    const char *s = name + 6 + strspn(name + 6, " \t");
    size_t a = strspn(s, chars);
    size_t k = s[a] == '/' ? strspn(s + a + 1, chars) : 0;
    *id = s;
    return a >= 1 && a <= 128 && k >= 1 && k <= 128 && s[a + 1 + k] == '\0' ? 1 : -1;
}

/* The kernel section of id, added when not there yet, made the current section; NULL when
 * it cannot be added (st has the error then). */
static struct gs_policy_section *kernel_section(struct ini_state *st, const char *id)
{
    struct gs_policy *p = st->p;
    for (size_t i = 0; i < p->n_kern; i++)
        if (strcmp(p->kern[i].id, id) == 0) {
            st->cur_sec = CUR_KERNEL + (int)i;
            return &p->kern[i].s;
        }
    if (p->n_kern == GS_PS_KERNELS_MAX) {
        fail(st, "more than %d [kernel ADAPTER/KERNEL] sections", GS_PS_KERNELS_MAX);
        return NULL;
    }
    struct gs_policy_kernel *k = realloc(p->kern, (p->n_kern + 1) * sizeof *k);
    if (k == NULL) {
        fail(st, "out of memory");
        return NULL;
    }
    p->kern = k;
    k += p->n_kern++;
    memset(k, 0, sizeof *k);
    snprintf(k->id, sizeof k->id, "%s", id); /* fits: 128 + 1 + 128 bytes */
    k->line = st->line;
    st->cur_sec = CUR_KERNEL + (int)(p->n_kern - 1);
    return &k->s;
}

/* A section header line "[name]" (blanks and a ; or # comment may follow). */
static void check_section(struct ini_state *st, char *line)
{
    char q[QUOTE_SIZE];
    const char *id;
    int kh;
    char *end = strchr(line, ']');
    if (end == NULL)
        return; /* inih reports it: a syntax error */
    const char *rest = end + 1 + strspn(end + 1, " \t\r\f\v");
    if (*rest != '\0' && *rest != ';' && *rest != '#') {
        fail(st, "unexpected text after ']'");
        return;
    }
    *end = '\0';
    const char *name = line + 1;
    snprintf(st->cur_name, sizeof st->cur_name, "%s", name);
    st->cur_sec = CUR_NONE;
    if (strcmp(name, "policy") == 0) {
        st->cur_sec = CUR_POLICY;
        if (st->other_seen)
            fail(st, "[policy] must be the first section");
    } else if ((kh = kernel_header(name, &id)) < 0) {
        fail(st, "bad section [%s]: expected [kernel ADAPTER/KERNEL], a kernel's identity "
                 "as in a result's \"id\" (each part 1 to 128 of [A-Za-z0-9_.-])",
             quote(q, name));
    } else if (kh > 0) {
        st->other_seen = 1;
        kernel_section(st, id); /* sets cur_sec */
    } else if (section_index(name) < 0) {
        const char *slash = strchr(name, '/');
        fail(st, "unknown section [%s] (expected [policy], [all], [DTYPE], [FUNC], "
                 "[FUNC.DTYPE] or [kernel ADAPTER/KERNEL]%s%s%s)", quote(q, name),
             slash ? "; for one kernel: [kernel " : "", slash ? quote(q, name) : "",
             slash ? "]" : "");
    } else {
        st->other_seen = 1;
        st->cur_sec = section_index(name);
    }
    *end = ']';
}

/* The fgets-like reader inih calls: one line, without leading blanks and without its
 * newline, in str (num bytes); NULL at the end of the file or after an error. */
static char *read_line(char *str, int num, void *stream)
{
    struct ini_state *st = stream;
    if (st->err_line != 0 || num < 2)
        return NULL;
    int c = getc(st->fp);
    if (c == EOF) {
        if (ferror(st->fp))
            st->read_errno = errno != 0 ? errno : EIO;
        return NULL;
    }
    st->line++;
    size_t n = 0, max = (size_t)num - 1; /* inih's buffer: INI_MAX_LINE (200) in Debian */
    int at_start = 1;
    for (; c != EOF && c != '\n'; c = getc(st->fp)) {
        if (c == '\0') {
            fail(st, "nul byte in line");
            return NULL;
        }
        if (at_start && (c == ' ' || c == '\t'))
            continue;
        at_start = 0;
        if (n == max) {
            fail(st, "line longer than %zu characters", max);
            return NULL;
        }
        str[n++] = (char)c;
    }
    if (c == EOF && ferror(st->fp)) {
        st->read_errno = errno != 0 ? errno : EIO;
        return NULL;
    }
    str[n] = '\0';
    /* a UTF-8 byte order mark opening the file: dropped with the blanks after it */
    if (st->line == 1 && n >= 3 && memcmp(str, "\xef\xbb\xbf", 3) == 0) {
        size_t skip = 3 + strspn(str + 3, " \t");
        memmove(str, str + skip, n + 1 - skip);
    }
    if (str[0] == '[')
        check_section(st, str);
    return st->err_line != 0 ? NULL : str;
}

/* "inf", or a whole strtod number that is finite and >= 0. */
static int parse_limit(const char *s, double *v)
{
    if (strcmp(s, "inf") == 0) {
        *v = INFINITY;
        return 0;
    }
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(d) || d < 0)
        return -1;
    *v = d + 0.0; /* -0 becomes +0 */
    return 0;
}

/* "inf", or decimal digits up to 2^53 (beyond, a double would not hold every count). */
static int parse_count(const char *s, double *v)
{
    const unsigned long long max = 1ull << 53;
    if (strcmp(s, "inf") == 0) {
        *v = INFINITY;
        return 0;
    }
    size_t n = strspn(s, "0123456789");
    if (n == 0 || s[n] != '\0' || n > 16) /* 16 digits: below 2^64, no overflow */
        return -1;
    unsigned long long c = strtoull(s, NULL, 10);
    if (c > max)
        return -1;
    *v = (double)c; /* exact: c <= 2^53 */
    return 0;
}

/* One of the words of a NULL-terminated list: its index, or -1. */
static int parse_word(const char *s, const char *const *words)
{
    for (int i = 0; words[i] != NULL; i++)
        if (strcmp(s, words[i]) == 0)
            return i;
    return -1;
}

/* Parses value into s->v for key; returns 0, or -1 with *expect set to what it wants. */
static int parse_value(struct gs_policy_section *s, int key, const char *value,
                       const char **expect)
{
    static const char *const bools[] = { "false", "true", "no", "yes", NULL };
    static const char *const domains[] = { "all", "normal", NULL };  /* enum gs_domain */
    static const char *const signs[] = { "any", "exact", NULL };     /* 0 any, 1 exact */
    static const char *const nans[] = { "fail", "allow", NULL };     /* 0 fail, 1 allow */
    static const char *const sevs[] = { "fail", "warn", "ignore", NULL }; /* gs_severity */
    int w;
    switch (key) {
    case GS_PK_MAX_ULP:
    case GS_PK_ABS_TOL:
        *expect = "a number >= 0 or inf";
        return parse_limit(value, key == GS_PK_MAX_ULP ? &s->v.max_ulp : &s->v.abs_tol);
    case GS_PK_CONSISTENCY_ULPS:
        *expect = "a number >= 0.5 or inf";
        return parse_limit(value, &s->v.consistency_ulps) || s->v.consistency_ulps < 0.5 ? -1
                                                                                          : 0;
    case GS_PK_MAX_CR_DISTANCE:
        *expect = "an integer from 0 to 2^53 or inf";
        return parse_count(value, &s->v.max_cr_distance);
    case GS_PK_FAITHFUL:
        *expect = "true or false (or yes, no)";
        if ((w = parse_word(value, bools)) < 0)
            return -1;
        s->v.faithful = w & 1;
        return 0;
    case GS_PK_ACCURACY_DOMAIN:
        *expect = "all or normal";
        if ((w = parse_word(value, domains)) < 0)
            return -1;
        s->v.accuracy_domain = (enum gs_domain)w;
        return 0;
    case GS_PK_SPECIAL_ZERO_SIGN:
        *expect = "exact or any";
        if ((w = parse_word(value, signs)) < 0)
            return -1;
        s->v.special_zero_sign = w;
        return 0;
    case GS_PK_NAN_AT_NEG_INF:
        *expect = "fail or allow";
        if ((w = parse_word(value, nans)) < 0)
            return -1;
        s->v.nan_at_neg_inf = w;
        return 0;
    default:
        *expect = "fail, warn or ignore";
        if ((w = parse_word(value, sevs)) < 0)
            return -1;
        s->v.severity[key - GS_PK_SEVERITY] = (enum gs_severity)w;
        return 0;
    }
}

static int policy_key(struct ini_state *st, const char *name, const char *value)
{
    char q[QUOTE_SIZE];
    if (strcmp(name, "base") != 0) {
        fail(st, "unknown key '%s' in [policy] (expected base)", quote(q, name));
        return 0;
    }
    if (st->base_line != 0) {
        fail(st, "duplicate key 'base' in [policy] (first set on line %d)", st->base_line);
        return 0;
    }
    int b = gs_policy_base_index(value);
    if (b < 0) {
        fail(st, "bad value '%s' for 'base' in [policy]: expected strict, faithful, "
                 "default or lenient", quote(q, value));
        return 0;
    }
    st->p->base = b;
    st->base_line = st->line;
    return 1;
}

/* Levenshtein distance of a and b, at most 64 bytes each (longer: a large number). */
static int edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    int row[65];

    if (n > 64 || m > 64)
        return 1000;
    for (size_t j = 0; j <= m; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            best = best < up + 1 ? best : up + 1;
            best = best < row[j - 1] + 1 ? best : row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[m];
}

/* The key nearest to a misspelt one (at most 3 edits, and fewer than half its length), or
 * NULL: a suggestion, not a guess at random. */
static const char *nearest_key(const char *name)
{
    const char *best = NULL;
    int best_d = 4;
    for (int k = 0; k < GS_PK_N; k++) {
        int d = edit_distance(name, gs_pkey_name(k));
        if (d < best_d && 2 * d < (int)strlen(gs_pkey_name(k))) {
            best_d = d;
            best = gs_pkey_name(k);
        }
    }
    return best;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    char q[QUOTE_SIZE];
    struct ini_state *st = user;
    if (st->err_line != 0)
        return 0;
    if (st->cur_sec == CUR_NONE) {
        fail(st, "key '%s' outside any section", quote(q, name));
        return 0;
    }
    /* not inih's section, cut at 50 bytes: the one the reader saw the header of */
    (void)section;
    const char *sec_name = st->cur_name;
    if (st->cur_sec == CUR_POLICY)
        return policy_key(st, name, value);
    struct gs_policy_section *s = st->cur_sec >= CUR_KERNEL
                                      ? &st->p->kern[st->cur_sec - CUR_KERNEL].s
                                  : st->cur_sec >= 0 ? &st->p->sec[st->cur_sec] : NULL;
    if (s == NULL) { /* not expected: the reader checked every header */
        fail(st, "unknown section [%s]", quote(q, sec_name));
        return 0;
    }
    int key = -1;
    for (int k = 0; k < GS_PK_N && key < 0; k++)
        if (strcmp(name, gs_pkey_name(k)) == 0)
            key = k;
    if (key < 0) {
        const char *near = nearest_key(name);
        fail(st, "unknown key '%s' in [%s]%s%s%s", quote(q, name), sec_name,
             near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
        return 0;
    }
    if (!gs_pkey_settable(key)) {
        fail(st, "key '%s' in [%s] cannot be set: crash, timeout and adapter_error always "
                 "fail", name, sec_name);
        return 0;
    }
    if (s->set[key]) {
        fail(st, "duplicate key '%s' in [%s] (first set on line %d)", name, sec_name,
             s->line[key]);
        return 0;
    }
    const char *expect = "";
    if (parse_value(s, key, value, &expect) != 0) {
        fail(st, "bad value '%s' for '%s' in [%s]: expected %s", quote(q, value), name,
             sec_name, expect);
        return 0;
    }
    s->set[key] = 1;
    s->line[key] = st->line;
    return 1;
}

static struct gs_policy *load_error(struct gs_policy *p, char *msg, size_t size,
                                    const char *text)
{
    if (msg != NULL && size > 0)
        snprintf(msg, size, "%s", text);
    gs_policy_free(p);
    return NULL;
}

struct gs_policy *gs_policy_load(const char *path, char *msg, size_t size)
{
    char text[600];
    FILE *fp = path != NULL ? fopen(path, "r") : NULL;
    if (fp == NULL) {
        snprintf(text, sizeof text, "cannot read policy file '%s': %s",
                 path != NULL ? path : "", path != NULL ? strerror(errno) : "no path");
        return load_error(NULL, msg, size, text);
    }
    struct gs_policy *p = calloc(1, sizeof *p);
    const char *slash = strrchr(path, '/');
    const char *base = slash != NULL && slash[1] != '\0' ? slash + 1 : path;
    size_t base_len = strlen(base);
    if (p == NULL || (p->sec = calloc(GS_PS_N, sizeof *p->sec)) == NULL ||
        (p->name_buf = malloc(base_len + 1)) == NULL) {
        fclose(fp);
        return load_error(p, msg, size, "out of memory reading a policy file");
    }
    memcpy(p->name_buf, base, base_len + 1);
    p->base = GS_PB_DEFAULT;
    p->name = p->name_buf;
    struct ini_state *st = calloc(1, sizeof *st);
    if (st == NULL) {
        fclose(fp);
        return load_error(p, msg, size, "out of memory reading a policy file");
    }
    st->fp = fp;
    st->path = path;
    st->cur_sec = CUR_NONE;
    st->p = p;
    int ret = ini_parse_stream(read_line, st, handler, st);
    fclose(fp);
    text[0] = '\0';
    if (st->read_errno != 0)
        snprintf(text, sizeof text, "cannot read policy file '%s': %s", path,
                 strerror(st->read_errno));
    else if (ret == -2)
        snprintf(text, sizeof text, "out of memory reading a policy file");
    else if (ret > 0 && (st->err_line == 0 || ret < st->err_line))
        snprintf(text, sizeof text, "%s:%d: syntax error: expected [section] or key = value",
                 path, ret);
    else if (st->err_line != 0)
        snprintf(text, sizeof text, "%s", st->msg);
    free(st);
    if (text[0] != '\0')
        return load_error(p, msg, size, text);
    return p;
}
