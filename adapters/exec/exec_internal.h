/* Internals of adapters/exec, the client of the subprocess protocol (docs/design.md section 5.2).
 * The public side is gc_exec_open() in adapters/core/adapter.h.
 *
 * Files: exec.c (open), exec_banner.c (up to 'ready'), exec_eval.c (eval, close), exec_io.c
 * (lines, payloads and writes under a deadline), exec_proc.c (spawn, stderr, kill, reap),
 * exec_msg.c (messages that quote what the adapter said).
 */
#ifndef GC_EXEC_INTERNAL_H
#define GC_EXEC_INTERNAL_H

#include <stddef.h>
#include <sys/types.h>

#include "adapter.h"
#include "memlimit.h"

#define EXEC_LINE_MAX 4096    /* protocol: a line's bytes before its "\n" (and "\r") */
#define EXEC_BATCH_MAX 65536u /* protocol: the most elements in one request */
#define EXEC_MAX_KERNELS 4096 /* past this the banner is runaway output, not a kernel list */
#define EXEC_ERR_KEEP 4096    /* bytes of stderr kept at each end */
#define EXEC_GRACE_S 2.0      /* how long close waits for a voluntary exit (at most) */

/* The child and the host's ends of its pipes (-1 when closed). */
struct exec_proc {
    pid_t pid;    /* /bin/sh, leader of its own process group */
    int reaped;   /* waitpid done: pid may be reused, never signal it again */
    int status;   /* waitpid status once reaped */
    int in_fd;    /* its stdin (we write) */
    int out_fd;   /* its stdout (we read) */
    int err_fd;   /* its stderr (drained whenever we wait) */
    unsigned char buf[2 * EXEC_LINE_MAX + 16]; /* stdout read ahead: buf[pos, len) unread */
    size_t pos, len;
    char err_head[EXEC_ERR_KEEP]; /* the first bytes of stderr */
    char err_tail[EXEC_ERR_KEEP]; /* a ring of the last bytes: err_total % EXEC_ERR_KEEP next */
    size_t err_head_len;
    unsigned long long err_total;
};

/* The adapter's private state (gc_adapter.state). */
struct exec_state {
    struct exec_proc p;
    char *command;           /* for messages */
    char *label;             /* a built-in or onnx: spec: the adapter's name, and messages
                                name it instead of the command ("adapter 'torch': ...");
                                NULL for exec: specs */
    double startup_s, batch_s, grace_s;
    enum gc_status dead;     /* GC_OK while usable.  GC_E_DIED or GC_E_TIMEOUT (it died,
                                stalled or was killed): every eval fails at once until
                                ops->restart.  GC_E_EVAL (its reply broke the protocol, so it
                                was killed): the next eval restarts it first.  GC_E_LOAD (a
                                restart failed): every eval fails at once */
    char dead_msg[1024];     /* why it stopped */
    unsigned char *scratch;  /* big-endian hosts: the byte-swapped request */
    struct gc_memlimit *mem; /* --memory-limit, or NULL: only GC_MEM_CGROUP limits an exec
                                adapter (memlimit.h) */
    struct gc_mem_cage cage; /* its cgroup then */
};

/* A banner as read (exec_banner.c). */
struct exec_kdef {
    char *name, *desc;
    enum geluref_func func;
    enum geluref_dtype dtype;
};
struct exec_banner {
    char *version; /* NULL until a 'version' line */
    char *name;    /* NULL until a 'name' line: the adapter's own name */
    struct exec_kdef *k;
    size_t n, cap;
};

/* ---- exec_banner.c ---- */
/* Reads the banner up to 'ready' within s->startup_s; on failure msg says why. */
enum gc_status exec_read_banner(struct exec_state *s, struct exec_banner *b, char *msg,
                                size_t size);
void exec_banner_free(struct exec_banner *b);

/* ---- exec_proc.c ---- */
/* Starts "/bin/sh -c command" in its own process group with pipes on 0, 1 and 2; with
 * cgroup_procs (not NULL) the shell first joins that cgroup (writes "0" to its cgroup.procs:
 * --memory-limit) and exits with status 125 when it cannot.  Returns 0, or an errno value. */
int exec_spawn(struct exec_proc *p, const char *command, const char *cgroup_procs);
/* Reads what stderr has now into head and tail; closes err_fd at its end. */
void exec_drain_stderr(struct exec_proc *p);
/* Ends the process: closes stdin (and stdout), waits until deadline for the leader to exit by
 * itself, then SIGKILLs the whole group and reaps the leader.  Returns 1 when it had exited
 * by itself.  Idempotent. */
int exec_end(struct exec_proc *p, double deadline);
/* How the reaped process ended: "exited with status 3", "was killed by SIGSEGV (Segmentation
 * fault)"; an exit status 128 + N of a shell whose command was killed by signal N says so. */
void exec_exit_text(const struct exec_proc *p, char *buf, size_t size);
/* Forgets the read-ahead and the kept stderr (before a restart spawns afresh). */
void exec_proc_reset(struct exec_proc *p);
/* Closes every host-side fd still open. */
void exec_close_fds(struct exec_proc *p);

/* ---- exec_io.c ---- */
enum exec_read {
    EXEC_R_OK = 0,
    EXEC_R_EOF,     /* end of output (line: possibly with a partial line in text) */
    EXEC_R_TIMEOUT, /* the deadline passed */
    EXEC_R_LONG,    /* no "\n" within EXEC_LINE_MAX bytes (text: its start) */
    EXEC_R_NUL,     /* a NUL byte in the line */
    EXEC_R_IO       /* a read or poll error (errno) */
};
struct exec_line {
    char text[EXEC_LINE_MAX + 2]; /* without "\n" and a trailing "\r"; NUL-terminated */
    size_t len;
};
double exec_now(void); /* monotonic seconds */
enum exec_read exec_read_line(struct exec_proc *p, struct exec_line *l, double deadline);
/* Reads exactly n bytes into dst; *got says how many arrived. */
enum exec_read exec_read_bytes(struct exec_proc *p, void *dst, size_t n, size_t *got,
                               double deadline);
/* Writes n bytes to stdin.  EXEC_R_OK, EXEC_R_EOF (the adapter closed its stdin: EPIPE),
 * EXEC_R_TIMEOUT or EXEC_R_IO.  Never raises SIGPIPE. */
enum exec_read exec_write(struct exec_proc *p, const void *src, size_t n, double deadline);
/* Output the adapter sent unasked, without waiting: 0 none, 1 bytes (copied to l), -1 end of
 * output. */
int exec_unasked(struct exec_proc *p, struct exec_line *l);

/* ---- exec_msg.c ---- */
/* s[0, n) for a message: control bytes as \xNN, at most max bytes, then "...". */
void exec_quote(char *buf, size_t size, const char *s, size_t n, size_t max);
/* "exec adapter 'COMMAND': " + fmt, and "; stderr: '...'" (its last line or so) when
 * with_stderr and there was any. */
void exec_msg(const struct exec_state *s, int with_stderr, char *msg, size_t size,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- exec.c ---- */
/* ops->restart: kills the process group if it is alive, starts the command again and reads
 * its banner, which must offer the same kernels (name, func, dtype, in order: the struct
 * gc_kernel pointers stay valid).  On failure the adapter stays dead (GC_E_LOAD). */
enum gc_status exec_restart(struct gc_adapter *a, char *msg, size_t size);

/* ---- exec_eval.c ---- */
extern const struct gc_adapter_ops exec_ops;
/* Frees the state, ending the process first: with its grace period when graceful, else
 * killed at once. */
void exec_state_free(struct exec_state *s, int graceful);

#endif
