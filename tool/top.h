/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "stacklat top syscalls": the syscalls pipeline's rows (per process and
 * syscall) summed by syscall or by process, sorted, the top N shown -
 * bcc's syscount, with names, failures by errno and times.
 * "stacklat top disk": the disktop pipeline's rows (per process and disk),
 * by bytes - bcc's biotop, stap's disktop.  Pure logic (no libnl): the
 * command line, deltas between two samples, the tables and their JSON.
 */
#ifndef STACKLAT_TOOL_TOP_H
#define STACKLAT_TOOL_TOP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "model.h"
#include "parse.h"		/* struct cg_names */

/*
 * TOP_SORT_TIME is sched's "total"; MAX and P99 are sched's only; from
 * TOP_SORT_BYTES on top files' only (fl_sort_parse()), but BYTES (net's
 * too), SENT and RECV top net's only (nt_sort_parse())
 */
enum top_sort { TOP_SORT_COUNT, TOP_SORT_TIME, TOP_SORT_MAX, TOP_SORT_P99,
		TOP_SORT_BYTES, TOP_SORT_READS, TOP_SORT_WRITES, TOP_SORT_RBYTES,
		TOP_SORT_WBYTES, TOP_SORT_OPENS, TOP_SORT_SENT, TOP_SORT_RECV };
enum top_what { TOP_SYSCALLS, TOP_DISK, TOP_SCHED, TOP_OFFCPU, TOP_CPU, TOP_FUTEX,
		TOP_LOCK, TOP_FILES, TOP_NET };

struct top_args {
	enum top_what what;
	bool json;
	bool errors;		/* -x: failed calls only, by errno */
	bool by_process;	/* -P: a row per process (syscalls, futex) */
	bool stacks;		/* --stacks (offcpu): a row per stack */
	bool peers;		/* -r (net): a row per local port and peer */
	bool by_cgroup;		/* --by cgroup: a row per cgroup (top_cgroup.c) */
	enum top_sort sort;
	uint32_t pid;		/* -p: that process only; 0 all */
	uint64_t top;		/* -n: rows shown; 0 all */
	uint64_t interval_ns;	/* 0: one cumulative sample */
	uint64_t count;		/* samples; 0: until interrupted */
};

/* What a delta needs to know of a row type. */
struct keyed_ops {
	size_t size;					/* of a row */
	int (*cmp_key)(const void *a, const void *b);	/* the order of the keys */
	bool (*minus)(void *c, const void *p);		/* c -= p; false: p is no past of c */
	bool (*active)(const void *r);			/* did something: kept */
};

/*
 * @cur minus @prev, row by row (the same key); a row new in @cur counts
 * whole, a row gone from @cur is left out, a reset (the generations
 * differ) or a row that went down counts @cur's whole; rows that did
 * nothing are left out.  0, or -1 when out of memory.
 */
int keyed_delta(const struct keyed_ops *o, const struct keyed_set *cur,
		const struct keyed_set *prev, struct keyed_set *out);

/*
 * top syscalls [-p PID] [-x|--errors] [-s count|time] [-n N] [-P] [-j]
 * [INTERVAL [COUNT]], or top disk [-p PID] [-n N] [-j] [INTERVAL [COUNT]]
 * (argv[0] is "top").  0, or -1 with a message.
 */
int parse_top_args(int argc, char **argv, struct top_args *a, char *err,
		   size_t errlen);

/*
 * The name of syscall @nr in @abi (enum stacklat_sc_abi): "getppid",
 * "i386:getppid", "x32:readv", "syscall_999" for a number no table
 * names, "(invalid)" for STACKLAT_SC_NR_INVALID.
 */
const char *sc_name(uint32_t abi, uint32_t nr, char *buf, size_t len);

/*
 * @cur minus @prev (rows of struct sc_row), row by row (the same tgid, ABI
 * and number); a row new in @cur counts whole; a row gone from @cur (aged
 * out) is left out.  When the generations differ (a reset in between) or
 * a count went down, @cur's rows count whole.  Returns 0, -1 when out of
 * memory.
 */
int sc_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out);

#define TOP_ERRNOS	16	/* errnos a shown row keeps apart */

/* A shown row: a syscall (all processes, or -p's) or a process (-P). */
struct top_row {
	uint32_t abi, nr;		/* by syscall */
	uint32_t tgid;			/* by process, or -p */
	char comm[16];			/* by process: of its busiest row */
	uint64_t comm_calls;		/* the calls of that row */
	uint64_t count, errors, time_ns, untimed, max_ns, errno_other;
	uint32_t nsys;			/* by process: syscalls it made */
	uint32_t nerr;
	struct {
		uint32_t err;
		uint64_t count;
	} errs[TOP_ERRNOS];		/* by count, highest first */
	uint64_t hist[STACKLAT_SC_NBUCKETS];
};

struct top_table {
	struct top_row *r;
	size_t n;
	size_t total;			/* rows before -n cut */
	uint64_t calls, errors;		/* of every row, before the cut */
};

/*
 * @s's rows (struct sc_row; @a: -p, -x, -P) summed, sorted (-s, or errors
 * with -x), cut (-n).
 */
int top_build(const struct keyed_set *s, const struct top_args *a,
	      struct top_table *t);
void top_table_free(struct top_table *t);

/*
 * The table as text: a header line, then a row per syscall (or process):
 * by syscall SYSCALL COUNT ERRORS TIME AVG and the most frequent errnos;
 * with -x SYSCALL ERRORS and every errno; by process PID COMM COUNT
 * ERRORS TIME SYSCALLS.  @max: the cumulative maximum is known (no
 * interval) and shown.
 */
void top_render(FILE *f, const struct top_table *t, const struct top_args *a,
		bool max);

/*
 * "rows":[...] and what frames them added to @env (json_envelope's
 * "top"): {"what":"syscalls","by":"syscall"|"process","pid","errors_only",
 * "sort","calls","errors","total" (rows before -n),"rows":[{"syscall",
 * "abi","nr" | "tgid",
 * "comm","syscalls"; "count","errors","time_ns","untimed","avg_ns",
 * "max_ns" (null in an interval),"errnos":[{"errno","name","count"}],
 * "errno_other","hist":[[lo,hi|null,count]...]}]}.
 */
void top_json(struct json_object *env, const struct top_table *t,
	      const struct top_args *a, bool max);

/* ---- top disk --------------------------------------------------------- */

/*
 * @cur minus @prev (rows of struct dk_row), row by row (the same tgid and
 * disk), as sc_delta(): a new row counts whole, a row gone is left out, a
 * reset (generations differ, a count went down) counts @cur whole; rows
 * that did nothing are left out.  0, or -1 when out of memory.
 */
int dk_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out);

/*
 * The rows shown of @s (struct dk_row): @a's -p, sorted by bytes (read +
 * written), cut (-n).
 */
struct dk_table {
	struct dk_row *r;
	size_t n;
	size_t total;			/* rows before the cut */
	uint64_t read_bytes, write_bytes, read_ops, write_ops;	/* all rows */
};

int dk_build(const struct keyed_set *s, const struct top_args *a,
	     struct dk_table *t);
void dk_table_free(struct dk_table *t);

/*
 * The disk's name from the DEVNAME= line of a uevent file's @text ("vda",
 * "nullb0", "mapper/x" stays as the kernel names it: "dm-0"); -1 if none.
 */
int dk_uevent_name(const char *text, char *name, size_t len);

/*
 * The name of disk @dev (major << 20 | minor): DEVNAME of
 * @sysfs/dev/block/MAJ:MIN/uevent, else "MAJ:MIN".  @sysfs NULL: "/sys".
 */
const char *dk_disk_name(const char *sysfs, uint32_t dev, char *buf,
			 size_t len);

/*
 * The table as text, biotop's columns: PID COMM DISK READ_KB WRITE_KB
 * R_OPS W_OPS (KiB rounded down; a process's bios of less than 1 KiB show
 * 0 KiB).  Disks named from @sysfs (NULL: "/sys").
 */
void dk_render(FILE *f, const struct dk_table *t, const char *sysfs);

/*
 * Added to @env (json_envelope's "top"): {"what":"disk","pid","sort":
 * "bytes","read_bytes","write_bytes","read_ops","write_ops","total",
 * "rows":[{"tgid","comm","dev","major","minor","disk","read_bytes",
 * "read_ops","write_bytes","write_ops","discard_bytes","discard_ops",
 * "flush_ops","other_ops","ops"}]}.
 */
void dk_json(struct json_object *env, const struct dk_table *t,
	     const struct top_args *a, const char *sysfs);

/* ---- top sched -------------------------------------------------------- */

/*
 * @cur minus @prev (rows of struct sd_row, one per thread), as sc_delta();
 * the maximum is not known for an interval (0).  0, or -1 out of memory.
 */
int sd_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out);

/*
 * The @q-th quantile (0 < q <= 1) of a log2 histogram of @count samples
 * (stacklat_sc_lower() buckets): the upper bound of the bucket it falls
 * in, no more than @max when @max is known (non-zero); 0 when empty.
 */
uint64_t sd_quantile(const uint64_t *hist, uint64_t count, uint64_t max,
		     double q);

/*
 * A shown row: a process (its threads summed), or with -p a thread of it.
 */
struct sd_shown {
	uint32_t tgid, tid;		/* tid 0: a process */
	char comm[16];			/* the process's, or the thread's */
	uint64_t comm_waits;		/* the waits of the row it came from */
	uint32_t threads;		/* a process: its threads' rows */
	uint64_t count, time_ns, max_ns, preempted, p99_ns;
	uint64_t user_tick_ns, sys_tick_ns;	/* top cpu */
	uint64_t hist[STACKLAT_SC_NBUCKETS];
};

struct sd_table {
	struct sd_shown *r;
	size_t n;
	size_t total;			/* rows before the cut */
	uint64_t count, time_ns, max_ns, preempted, p99_ns;	/* all rows */
	uint64_t user_tick_ns, sys_tick_ns;
	uint64_t hist[STACKLAT_SC_NBUCKETS];
};

/*
 * @s's rows (struct sd_row) summed per process, or with -p PID that
 * process's threads; sorted by @a's -s (total, max, p99, count), cut
 * (-n).  @max: the maxima are known (no interval); without, -s max sorts
 * by the p99.
 */
int sd_build(const struct keyed_set *s, const struct top_args *a, bool max,
	     struct sd_table *t);
void sd_table_free(struct sd_table *t);

/*
 * The table as text: PID COMM THREADS WAITS TOTAL AVG P99 MAX PREEMPT
 * (TID COMM for a process's threads), MAX "-" for an interval.
 */
void sd_render(FILE *f, const struct sd_table *t, const struct top_args *a,
	       bool max);

/*
 * Added to @env: {"what":"sched","by":"process"|"thread","pid","sort",
 * "waits","time_ns","max_ns"|null,"p99_ns","preempted","total",
 * "hist":[[lo,hi|null,count]...],"rows":[{"tgid","tid" (a thread),
 * "comm","threads" (a process),"waits","time_ns","avg_ns","max_ns"|null,
 * "p99_ns","preempted","hist"}]}.
 */
void sd_json(struct json_object *env, const struct sd_table *t,
	     const struct top_args *a, bool max);

struct stack_set;

/*
 * What the views sorted by -s total|max|p99|count share (top_sched.c):
 * a row's sort key (max: the p99 where the max is not known, an
 * interval), the key's name in JSON, and @c's histogram minus @p's -
 * false, and @c unchanged, when a bucket of @p is above @c's (a reset).
 */
uint64_t top_sort_key(enum top_sort s, uint64_t count, uint64_t time_ns,
		      uint64_t max_ns, uint64_t p99_ns);
const char *top_sort_name(enum top_sort s);
bool top_hist_minus(uint64_t *c, const uint64_t *p);

/* JSON helpers of the top views (top_sched.c) */
void top_jadd_u64(struct json_object *o, const char *k, uint64_t v);
/* a string, cleaned to UTF-8 */
struct json_object *top_jstr(const char *s);
/* a log2 histogram: [[lo, hi|null, count]...], its non-zero buckets */
struct json_object *top_hist_json(const uint64_t *hist);

/* ---- top offcpu (top_offcpu.c) ---------------------------------------- */

/* @cur minus @prev (rows of struct oc_row), as sc_delta(). */
int oc_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out);

/* A shown row: a process and reason, or with --stacks a process's stack. */
struct oc_shown {
	uint32_t tgid, stack;		/* stack 0: summed by reason */
	char comm[16];
	char reason[STACKLAT_SYM_MAX];
	uint64_t count, time_ns, max_ns, p99_ns;
	uint64_t hist[STACKLAT_SC_NBUCKETS];
};

struct oc_table {
	struct oc_shown *r;
	size_t n;
	size_t total;			/* rows before the cut */
	uint64_t count, time_ns, max_ns, p99_ns;	/* all rows */
	uint64_t hist[STACKLAT_SC_NBUCKETS];
};

/*
 * @s's rows (struct oc_row, a process's stack each) summed per (process,
 * reason), or with --stacks one per (process, stack); -p: that process;
 * sorted by -s (total, max, p99, count), cut (-n).  @max as sd_build().
 */
int oc_build(const struct keyed_set *s, const struct top_args *a, bool max,
	     struct oc_table *t);
void oc_table_free(struct oc_table *t);
/*
 * PID COMM REASON BLOCKS TOTAL AVG P99 MAX; with --stacks each row's
 * frames below it (@stacks: GET_STACKS of "offcpu", may be NULL).
 */
void oc_render(FILE *f, const struct oc_table *t, const struct top_args *a,
	       bool max, const struct stack_set *stacks);
/*
 * Added to @env: {"what":"offcpu","by":"reason"|"stack","pid","sort",
 * "blocks","time_ns","max_ns"|null,"p99_ns","total","hist","rows":[{"tgid",
 * "comm","reason","stack" and "frames" (--stacks),"blocks","time_ns",
 * "avg_ns","max_ns"|null,"p99_ns","hist"}]}.
 */
void oc_json(struct json_object *env, const struct oc_table *t,
	     const struct top_args *a, bool max, const struct stack_set *stacks);
/* ---- top futex (top_futex.c) ------------------------------------------ */

/* @cur minus @prev (rows of struct fx_row), as sc_delta(). */
int fx_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out);

/* A shown row: a process's futex, or with -P a process. */
struct fx_shown {
	uint32_t tgid, waker, futexes;	/* waker, uaddr: 0 with -P */
	char comm[16];
	uint64_t uaddr;
	uint64_t count, eagain, time_ns, max_ns, p99_ns, alias;
	uint64_t hist[STACKLAT_SC_NBUCKETS];
};

struct fx_table {
	struct fx_shown *r;
	size_t n;
	size_t total;			/* rows before the cut */
	uint64_t count, eagain, time_ns, max_ns, p99_ns;	/* all rows */
	uint64_t hist[STACKLAT_SC_NBUCKETS];
};

/*
 * @s's rows (struct fx_row), one per (process, futex) or with -P summed
 * per process; -p: that process; sorted by -s (total, max, p99, count),
 * cut (-n).  @max as sd_build().
 */
int fx_build(const struct keyed_set *s, const struct top_args *a, bool max,
	     struct fx_table *t);
void fx_table_free(struct fx_table *t);
/* PID COMM UADDR (-P: FUTEXES) WAITS EAGAIN TOTAL AVG P99 MAX WAKER */
void fx_render(FILE *f, const struct fx_table *t, const struct top_args *a,
	       bool max);
/*
 * Added to @env: {"what":"futex","by":"futex"|"process","pid","sort",
 * "waits","eagain","time_ns","max_ns"|null,"p99_ns","total","hist",
 * "rows":[{"tgid","comm","uaddr","waker","alias" (by futex) or "futexes"
 * (-P),"waits","eagain","time_ns","avg_ns","max_ns"|null,"p99_ns",
 * "hist"}]}.
 */
void fx_json(struct json_object *env, const struct fx_table *t,
	     const struct top_args *a, bool max);

/* ---- top lock (top_lock.c) ------------------------------------------- */

/*
 * @cur minus @prev (rows of struct lk_row, keyed by type flags and
 * caller name), as sc_delta().
 */
int lk_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out);

/* A shown row: one lock type at one caller. */
struct lk_shown {
	const struct lk_row *row;	/* type, caller, flags, stack id */
	uint64_t count, failed, time_ns, max_ns, p99_ns, nested, alias;
};

struct lk_table {
	struct lk_shown *r;
	size_t n;
	size_t total;			/* rows before the cut */
	uint64_t count, failed, time_ns, max_ns, p99_ns;	/* all rows */
	uint64_t hist[STACKLAT_SC_NBUCKETS];
};

/*
 * @s's rows (struct lk_row; the table points into them: @s outlives it),
 * sorted by -s (total, max, p99, count), cut (-n).  @max as sd_build().
 */
int lk_build(const struct keyed_set *s, const struct top_args *a, bool max,
	     struct lk_table *t);
void lk_table_free(struct lk_table *t);
/* TYPE CALLER WAITS FAILED TOTAL AVG P99 MAX NESTED */
void lk_render(FILE *f, const struct lk_table *t, bool max);
/*
 * Added to @env: {"what":"lock","sort","waits","failed","time_ns",
 * "max_ns"|null,"p99_ns","total","hist","rows":[{"type","flags","caller",
 * "waits","failed","time_ns","avg_ns","max_ns"|null,"p99_ns","nested",
 * "alias","stack_id","hist"}]}.
 */
void lk_json(struct json_object *env, const struct lk_table *t,
	     const struct top_args *a, bool max);

/* ---- top cpu: the cpu pipeline's rows, sd_delta() and sd_build()'s ----- */

/*
 * On-CPU time @rtime split as the kernel's cputime_adjust() does, in the
 * ratio of the user and system time it sampled (@utick, @stick): no
 * system sample gives it all to user, no user sample all to system.
 */
void cpu_split(uint64_t rtime, uint64_t utick, uint64_t stick, uint64_t *user,
	       uint64_t *sys);

/*
 * The table as text: PID COMM THREADS ONCPU USER SYS SLICES AVG P99 MAX
 * PREEMPT (TID COMM for a process's threads), MAX "-" for an interval.
 */
void cpu_render(FILE *f, const struct sd_table *t, const struct top_args *a,
		bool max);

/*
 * Added to @env: {"what":"cpu","by","pid","sort","slices","time_ns",
 * "user_ns","sys_ns","user_tick_ns","sys_tick_ns","max_ns"|null,"p99_ns",
 * "preempted","total","hist","rows":[{"tgid","tid" (a thread),"comm",
 * "threads" (a process),"slices","time_ns","user_ns","sys_ns",
 * "user_tick_ns","sys_tick_ns","avg_ns","max_ns"|null,"p99_ns",
 * "preempted","hist"}]}.
 */
void cpu_json(struct json_object *env, const struct sd_table *t,
	      const struct top_args *a, bool max);

/* ---- top files (top_files.c) ------------------------------------------ */

/*
 * The sort of -s WORD for top files: "bytes" (read + written, the
 * default), "reads", "writes", "rbytes", "wbytes", "opens" (opens and
 * failed opens); -1 for another word.
 */
int fl_sort_parse(const char *word);
/*
 * The checks of @a for top files (-x, --stacks, -s of another view);
 * 0, or -1 with a message.
 */
int fl_check_args(const struct top_args *a, bool sorted, char *err,
		  size_t errlen);

/* @cur minus @prev (rows of struct fl_row), as sc_delta(). */
int fl_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out);

/* A shown row: a process's file (or failed name), or with -P a process. */
struct fl_shown {
	const struct fl_row *row;	/* the file's (NULL with -P) */
	uint32_t tgid, files;		/* files: rows summed (-P) */
	char comm[16];
	uint64_t opens, open_fails, reads, read_errors, read_bytes;
	uint64_t writes, write_errors, write_bytes;
};

struct fl_table {
	struct fl_shown *r;
	size_t n;
	size_t total;			/* rows before the cut */
	uint64_t opens, open_fails, reads, read_bytes, writes, write_bytes;
};

/*
 * @s's rows (struct fl_row; the table points into them: @s outlives it),
 * one per (process, file) or with -P summed per process; -p: that
 * process; sorted by -s, cut (-n).
 */
int fl_build(const struct keyed_set *s, const struct top_args *a,
	     struct fl_table *t);
void fl_table_free(struct fl_table *t);
/*
 * PID COMM OPENS FAILS READS R_KB WRITES W_KB FSTYPE FILE (-P: FILES in
 * place of FSTYPE FILE); a failed name's errnos after it ("ENOENT:5").
 */
void fl_render(FILE *f, const struct fl_table *t, const struct top_args *a);
/*
 * Added to @env: {"what":"files","by":"file"|"process","pid","sort",
 * "opens","open_fails","reads","read_bytes","writes","write_bytes",
 * "total","rows":[{"tgid","comm", by file: "name","fstype","dev","major",
 * "minor","ino","errnos":[{"errno","name","count"}],"errno_other",
 * "alias", -P: "files"; "opens","open_fails","reads","read_errors",
 * "read_bytes","writes","write_errors","write_bytes"}]}.
 */
void fl_json(struct json_object *env, const struct fl_table *t,
	     const struct top_args *a);

/* ---- top net (top_net.c) --------------------------------------------- */

/*
 * The sort of -s WORD for top net: "bytes" (sent + received, the
 * default), "sent", "recv"; -1 for another word ("count", all calls, is
 * every view's).
 */
int nt_sort_parse(const char *word);
/*
 * The checks of @a for top net (-x, --stacks, -s of another view, -r
 * with -P); 0, or -1 with a message.
 */
int nt_check_args(const struct top_args *a, char *err, size_t errlen);

/* @cur minus @prev (rows of struct nt_row), as sc_delta(). */
int nt_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out);

/*
 * A shown row: a process's traffic of one protocol, or with -P of all, or
 * with -r of one protocol, local port and peer.
 */
struct nt_shown {
	const struct nt_row *row;	/* the protocol's or peer's (NULL with -P) */
	uint32_t tgid;
	char comm[16];
	uint64_t sends, send_errors, send_bytes;
	uint64_t recvs, recv_errors, recv_bytes;
};

struct nt_table {
	struct nt_shown *r;
	size_t n;
	size_t total;			/* rows before the cut */
	uint64_t sends, send_bytes, recvs, recv_bytes;
	uint64_t alias;			/* -r: updates of another peer in a row */
};

/*
 * @s's rows (struct nt_row; the table points into them: @s outlives it):
 * the protocol rows, per (process, protocol) or with -P summed per
 * process, or with -r the peer rows; -p: that process; sorted by -s, cut
 * (-n).
 */
int nt_build(const struct keyed_set *s, const struct top_args *a,
	     struct nt_table *t);
void nt_table_free(struct nt_table *t);
/* "1.2.3.4" or "::1" (an IPv4 address as ::ffff:a.b.c.d: the IPv4 form), "*" for none */
const char *nt_addr(const uint8_t *a, char *buf, size_t len);
/*
 * PID COMM PROTO SENDS TX_KB RECVS RX_KB (-P: no PROTO; -r: LPORT PEER
 * after PROTO).
 */
void nt_render(FILE *f, const struct nt_table *t, const struct top_args *a);
/*
 * Added to @env: {"what":"net","by":"proto"|"process"|"peer","pid",
 * "sort","sends","send_bytes","recvs","recv_bytes","total","rows":[
 * {"tgid","comm", by proto and peer: "proto"; by peer: "lport","raddr",
 * "rport","alias"; "sends","send_errors","send_bytes","recvs",
 * "recv_errors","recv_bytes"}]}.
 */
void nt_json(struct json_object *env, const struct nt_table *t,
	     const struct top_args *a);

/* ---- --by cgroup (top_cgroup.c) ---------------------------------------- */

#define CG_VALS	8			/* counters a view folds */

enum cg_fmt { CG_NUM, CG_KIB, CG_NS };	/* a counter in the text table */

struct cg_col {
	const char *key;		/* in JSON, the rows' and the sums' */
	const char *head;		/* in the text table */
	enum cg_fmt fmt;
};

/* What the fold needs of a view: its row and its counters. */
struct cg_view {
	const char *what;		/* JSON's "what" */
	size_t size;			/* of a row of its keyed_set */
	unsigned int ncols;
	const struct cg_col *cols;
	/*
	 * Row @r's process, cgroup id and counters (ncols); false: the row
	 * is not folded (net's peer rows: its proto rows count the calls).
	 */
	bool (*get)(const void *r, uint32_t *tgid, uint64_t *id, uint64_t *v);
	/* the sort key of a cgroup's counters under @a's -s */
	uint64_t (*key)(const uint64_t *v, const struct top_args *a);
	const char *sort;		/* its one sort's name (no -s), or NULL */
};

extern const struct cg_view cg_syscalls, cg_disk, cg_files, cg_net;

/* A shown row: a cgroup. */
struct cg_shown {
	uint64_t id;			/* 0: none (disk's bios from an interrupt) */
	char *path;			/* "/a/b", "-", "cgroup:ID (removed)" */
	bool removed;			/* no longer in the hierarchy */
	uint32_t procs;			/* processes whose rows were folded */
	uint64_t key;			/* the sort's */
	uint64_t v[CG_VALS];
};

struct cg_table {
	struct cg_shown *r;
	size_t n;
	size_t total;			/* cgroups before the cut */
	uint64_t v[CG_VALS];		/* all rows */
};

/*
 * @s's rows (of @w's type) folded per cgroup (@a's -p: that process's
 * rows only), named from @names (walked again, once, for an id it does
 * not have), sorted by @w's key of -s, cut (-n).  0, or -1 out of memory.
 */
int cg_build(const struct cg_view *w, const struct keyed_set *s,
	     const struct top_args *a, struct cg_names *names,
	     struct cg_table *t);
void cg_table_free(struct cg_table *t);
/* -s's word in JSON ("count", "time", "bytes", "sent"...) */
const char *cg_sort_name(enum top_sort s);
/* PROCS, the view's counters, CGROUP */
void cg_render(FILE *f, const struct cg_view *w, const struct cg_table *t);
/*
 * Added to @env: {"what","by":"cgroup","pid","sort", the view's sums,
 * "total","rows":[{"cgroup_id","cgroup","removed","processes", the view's
 * counters}]}.
 */
void cg_json(struct json_object *env, const struct cg_view *w,
	     const struct cg_table *t, const struct top_args *a);
/*
 * A process row's "cgroup_id" (@id) and "cgroup" (its path as in a --by
 * cgroup row; null without a cgroup2 mount) added to @o.
 */
void cg_jadd(struct json_object *o, uint64_t id);
/* --by cgroup's checks of @a (views, -P, -r, -x); 0 or -1 with a message */
int cg_check_args(const struct top_args *a, char *err, size_t errlen);

#endif
