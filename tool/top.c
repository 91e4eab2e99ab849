// SPDX-License-Identifier: GPL-2.0
/* "stacklat top syscalls" and "stacklat top disk": pure logic (see top.h). */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "parse.h"
#include "syscalls_x86_64.h"
#include "top.h"

#define N(a)	(sizeof(a) / sizeof((a)[0]))

int parse_top_args(int argc, char **argv, struct top_args *a, char *err,
		   size_t errlen)
{
	static const struct option lo[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "errors", no_argument, NULL, 'x' },
		{ "sort", required_argument, NULL, 's' },
		{ "top", required_argument, NULL, 'n' },
		{ "process", no_argument, NULL, 'P' },
		{ "json", no_argument, NULL, 'j' },
		{ "stacks", no_argument, NULL, 'S' },
		{ "peers", no_argument, NULL, 'r' },
		{ "by", required_argument, NULL, 'B' },
		{ NULL, 0, NULL, 0 },
	};
	bool sorted = false;
	uint64_t v;
	int o, i;

	memset(a, 0, sizeof(*a));
	a->top = 10;
	opterr = 0;
	optind = 0;	/* GNU: start over (the tests parse many lines) */
	while ((o = getopt_long(argc, argv, ":p:xs:n:Pjr", lo, NULL)) != -1) {
		switch (o) {
		case 'p':
			if (parse_u64_range(optarg, 1, 4194304, &v)) {
				snprintf(err, errlen, "bad PID '%s'", optarg);
				return -1;
			}
			a->pid = (uint32_t)v;
			break;
		case 'x':
			a->errors = true;
			break;
		case 's':
			sorted = true;
			if (!strcmp(optarg, "count")) {
				a->sort = TOP_SORT_COUNT;
			} else if (!strcmp(optarg, "time") || !strcmp(optarg, "total")) {
				a->sort = TOP_SORT_TIME;
			} else if (!strcmp(optarg, "max")) {
				a->sort = TOP_SORT_MAX;
			} else if (!strcmp(optarg, "p99")) {
				a->sort = TOP_SORT_P99;
			} else if (fl_sort_parse(optarg) >= 0) {
				a->sort = (enum top_sort)fl_sort_parse(optarg);
			} else if (nt_sort_parse(optarg) >= 0) {
				a->sort = (enum top_sort)nt_sort_parse(optarg);
			} else {
				snprintf(err, errlen, "-s: 'count' or 'time' (sched, offcpu, cpu, futex, lock: 'total', 'max', 'p99', 'count'; files: 'bytes', 'reads', 'writes', 'rbytes', 'wbytes', 'opens'; net: 'bytes', 'sent', 'recv'), not '%s'",
					 optarg);
				return -1;
			}
			break;
		case 'n':
			if (parse_u64_range(optarg, 0, 1000000, &a->top)) {
				snprintf(err, errlen, "bad N '%s' (0: all)", optarg);
				return -1;
			}
			break;
		case 'P':
			a->by_process = true;
			break;
		case 'j':
			a->json = true;
			break;
		case 'S':
			a->stacks = true;
			break;
		case 'r':
			a->peers = true;
			break;
		case 'B':
			if (strcmp(optarg, "cgroup")) {
				snprintf(err, errlen, "--by: 'cgroup', not '%s'", optarg);
				return -1;
			}
			a->by_cgroup = true;
			break;
		case ':':
			snprintf(err, errlen, "%s needs a value", argv[optind - 1]);
			return -1;
		default:
			snprintf(err, errlen, "unexpected '%s'", argv[optind - 1]);
			return -1;
		}
	}
	/* the words, in order (getopt moved them behind the options) */
	i = optind;
	if (i < argc && !strcmp(argv[i], "disk")) {
		a->what = TOP_DISK;
	} else if (i < argc && (!strcmp(argv[i], "sched") ||
				!strcmp(argv[i], "cpu"))) {
		a->what = argv[i][0] == 's' ? TOP_SCHED : TOP_CPU;
		if (!sorted)
			a->sort = TOP_SORT_TIME;
	} else if (i < argc && (!strcmp(argv[i], "offcpu") ||
				!strcmp(argv[i], "futex") ||
				!strcmp(argv[i], "lock"))) {
		a->what = argv[i][0] == 'o' ? TOP_OFFCPU :
			  argv[i][0] == 'f' ? TOP_FUTEX : TOP_LOCK;
		if (!sorted)
			a->sort = TOP_SORT_TIME;
	} else if (i < argc && !strcmp(argv[i], "files")) {
		a->what = TOP_FILES;
		if (!sorted)
			a->sort = TOP_SORT_BYTES;
	} else if (i < argc && !strcmp(argv[i], "net")) {
		a->what = TOP_NET;
		if (!sorted)
			a->sort = TOP_SORT_BYTES;
	} else if (i >= argc || strcmp(argv[i], "syscalls")) {
		snprintf(err, errlen, i < argc ?
			 "'%s': 'syscalls', 'disk', 'sched', 'offcpu', 'cpu', 'futex', 'lock', 'files' or 'net' can be shown" :
			 "what? (syscalls, disk, sched, offcpu, cpu, futex, lock, files or net)%s", i < argc ? argv[i] : "");
		return -1;
	}
	i++;
	if (i < argc) {
		if (parse_interval(argv[i], &a->interval_ns)) {
			snprintf(err, errlen, "bad INTERVAL '%s' (seconds, 0.001 to 86400)",
				 argv[i]);
			return -1;
		}
		i++;
	}
	if (i < argc) {
		if (parse_u64_range(argv[i], 1, UINT64_MAX, &a->count)) {
			snprintf(err, errlen, "bad COUNT '%s'", argv[i]);
			return -1;
		}
		i++;
	}
	if (i < argc) {
		snprintf(err, errlen, "unexpected '%s'", argv[i]);
		return -1;
	}
	if (a->by_cgroup && cg_check_args(a, err, errlen))
		return -1;
	if (a->what == TOP_NET)
		return nt_check_args(a, err, errlen);
	if (a->peers) {
		snprintf(err, errlen, "-r: for net only");
		return -1;
	}
	if (a->what == TOP_FILES && a->sort >= TOP_SORT_SENT) {
		snprintf(err, errlen, "-s sent, recv: for net only");
		return -1;
	}
	if (a->what == TOP_FILES)
		return fl_check_args(a, sorted, err, errlen);
	if (a->sort >= TOP_SORT_BYTES) {
		snprintf(err, errlen, "-s bytes, reads, writes, rbytes, wbytes, opens: for files only; sent, recv: for net only");
		return -1;
	}
	if (a->what == TOP_DISK && (a->errors || a->by_process || sorted)) {
		snprintf(err, errlen, "%s: for syscalls only (disk: a row per process and disk, by bytes)",
			 a->errors ? "-x" : a->by_process ? "-P" : "-s");
		return -1;
	}
	if ((a->what == TOP_SCHED || a->what == TOP_CPU) &&
	    (a->errors || a->by_process)) {
		snprintf(err, errlen, "%s: not for %s (a row per process; -p PID: per thread)",
			 a->errors ? "-x" : "-P", a->what == TOP_CPU ? "cpu" : "sched");
		return -1;
	}
	if (a->what == TOP_FUTEX && a->errors) {
		snprintf(err, errlen, "-x: not for futex (a row per process and futex; -P: per process)");
		return -1;
	}
	if (a->what == TOP_LOCK && (a->errors || a->by_process || a->pid)) {
		snprintf(err, errlen, "%s: not for lock (a row per lock type and caller, kernel-wide)",
			 a->errors ? "-x" : a->by_process ? "-P" : "-p");
		return -1;
	}
	if (a->what == TOP_OFFCPU && (a->errors || a->by_process)) {
		snprintf(err, errlen, "%s: not for offcpu (a row per process and reason; --stacks: per stack)",
			 a->errors ? "-x" : "-P");
		return -1;
	}
	if (a->stacks && a->what != TOP_OFFCPU) {
		snprintf(err, errlen, "--stacks: for offcpu only");
		return -1;
	}
	if (a->what == TOP_SYSCALLS && a->sort > TOP_SORT_TIME) {
		snprintf(err, errlen, "-s max, p99: for sched, offcpu, cpu, futex and lock only");
		return -1;
	}
	if (a->by_process && a->pid) {
		snprintf(err, errlen, "-P and -p: one process has one row");
		return -1;
	}
	return 0;
}

const char *sc_name(uint32_t abi, uint32_t nr, char *buf, size_t len)
{
	const char *n = NULL, *pfx = "";

	if (nr == STACKLAT_SC_NR_INVALID)
		return "(invalid)";
	switch (abi) {
	case STACKLAT_SC_ABI_NATIVE:
		n = nr < N(sl_syscalls_64) ? sl_syscalls_64[nr] : NULL;
		break;
	case STACKLAT_SC_ABI_X32:
		pfx = "x32:";
		n = nr < N(sl_syscalls_x32) ? sl_syscalls_x32[nr] : NULL;
		if (!n && nr < N(sl_syscalls_64))
			n = sl_syscalls_64[nr];
		break;
	case STACKLAT_SC_ABI_COMPAT:
		pfx = "i386:";
		n = nr < N(sl_syscalls_32) ? sl_syscalls_32[nr] : NULL;
		break;
	default:
		snprintf(buf, len, "abi?:syscall_%u", nr);
		return buf;
	}
	/* the numbers from 424 on are every ABI's */
	if (!n && nr < N(sl_syscalls_common))
		n = sl_syscalls_common[nr];
	if (n)
		snprintf(buf, len, "%s%s", pfx, n);
	else
		snprintf(buf, len, "%ssyscall_%u", pfx, nr);
	return buf;
}

/* ---- deltas ------------------------------------------------------------ */

int keyed_delta(const struct keyed_ops *o, const struct keyed_set *cur,
		       const struct keyed_set *prev, struct keyed_set *out)
{
	bool reset = !prev || prev->generation != cur->generation;
	char *ps = NULL;
	const void *p;
	size_t i;

	out->n = 0;
	out->generation = cur->generation;
	if (out->cap < cur->n) {
		void *r = realloc(out->r, (cur->n + 1) * o->size);

		if (!r)
			return -1;
		out->r = r;
		out->cap = cur->n + 1;
	}
	if (!reset && prev->n) {
		ps = malloc(prev->n * o->size);
		if (!ps)
			return -1;
		memcpy(ps, prev->r, prev->n * o->size);
		qsort(ps, prev->n, o->size, o->cmp_key);
	}
	for (i = 0; i < cur->n; i++) {
		const char *c = (const char *)cur->r + i * o->size;
		char *d = (char *)out->r + out->n * o->size;

		memcpy(d, c, o->size);
		if (ps) {
			p = bsearch(d, ps, prev->n, o->size, o->cmp_key);
			if (p && !o->minus(d, p))
				memcpy(d, c, o->size);	/* went down: counted anew */
		}
		if (o->active(d))
			out->n++;
	}
	free(ps);
	return 0;
}

static int cmp_key(const void *x, const void *y)
{
	const struct sc_row *a = x, *b = y;

	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	if (a->abi != b->abi)
		return a->abi < b->abi ? -1 : 1;
	return a->nr < b->nr ? -1 : a->nr > b->nr;
}

/* @c minus @p, one row; false when @p is not a past of @c (a reset) */
static bool row_minus(void *cv, const void *pv)
{
	struct sc_row *c = cv;
	const struct sc_row *p = pv;
	uint32_t i, j;

	if (c->count < p->count || c->errors < p->errors ||
	    c->time_ns < p->time_ns || c->untimed < p->untimed ||
	    c->errno_other < p->errno_other)
		return false;
	for (i = 0; i < STACKLAT_SC_NBUCKETS; i++)
		if (c->hist[i] < p->hist[i])
			return false;
	c->count -= p->count;
	c->errors -= p->errors;
	c->time_ns -= p->time_ns;
	c->untimed -= p->untimed;
	c->errno_other -= p->errno_other;
	c->max_ns = 0;		/* not known for an interval */
	for (i = 0; i < STACKLAT_SC_NBUCKETS; i++)
		c->hist[i] -= p->hist[i];
	for (j = 0; j < p->nerr; j++)
		for (i = 0; i < c->nerr; i++)
			if (c->errs[i].err == p->errs[j].err) {
				c->errs[i].count -= c->errs[i].count >= p->errs[j].count ?
						    p->errs[j].count : c->errs[i].count;
				break;
			}
	return true;
}

static bool row_active(const void *rv)
{
	const struct sc_row *r = rv;

	return r->count || r->errors;
}

int sc_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out)
{
	static const struct keyed_ops ops = {
		sizeof(struct sc_row), cmp_key, row_minus, row_active
	};

	return keyed_delta(&ops, cur, prev, out);
}

/* ---- the table ----------------------------------------------------------- */

void top_table_free(struct top_table *t)
{
	free(t->r);
	memset(t, 0, sizeof(*t));
}

static void add_errno(struct top_row *r, uint32_t err, uint64_t n)
{
	uint32_t i;

	if (!n)
		return;
	for (i = 0; i < r->nerr; i++)
		if (r->errs[i].err == err) {
			r->errs[i].count += n;
			return;
		}
	if (r->nerr < TOP_ERRNOS) {
		r->errs[r->nerr].err = err;
		r->errs[r->nerr++].count = n;
	} else {
		r->errno_other += n;
	}
}

static void add_row(struct top_row *t, const struct sc_row *s)
{
	uint32_t i;

	t->count += s->count;
	t->errors += s->errors;
	t->time_ns += s->time_ns;
	t->untimed += s->untimed;
	if (s->max_ns > t->max_ns)
		t->max_ns = s->max_ns;
	t->errno_other += s->errno_other;
	for (i = 0; i < s->nerr; i++)
		add_errno(t, s->errs[i].err, s->errs[i].count);
	for (i = 0; i < STACKLAT_SC_NBUCKETS; i++)
		t->hist[i] += s->hist[i];
}

static const struct top_args *sort_args;

static int cmp_errs(const void *x, const void *y)
{
	const uint64_t a = *(const uint64_t *)((const char *)x + 8);
	const uint64_t b = *(const uint64_t *)((const char *)y + 8);

	return a > b ? -1 : a < b;
}

static int cmp_rows(const void *x, const void *y)
{
	const struct top_row *a = x, *b = y;
	uint64_t ka, kb;

	if (sort_args->sort == TOP_SORT_TIME) {
		ka = a->time_ns;
		kb = b->time_ns;
	} else if (sort_args->errors) {
		ka = a->errors;
		kb = b->errors;
	} else {
		ka = a->count;
		kb = b->count;
	}
	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	if (a->abi != b->abi)
		return a->abi < b->abi ? -1 : 1;
	return a->nr < b->nr ? -1 : a->nr > b->nr;
}

int top_build(const struct keyed_set *s, const struct top_args *a,
	      struct top_table *t)
{
	struct top_row *r;
	size_t i, j;

	memset(t, 0, sizeof(*t));
	t->r = calloc(s->n + 1, sizeof(*t->r));
	if (!t->r)
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct sc_row *x = (const struct sc_row *)s->r + i;

		if (a->pid && x->tgid != a->pid)
			continue;
		if (a->errors && !x->errors)
			continue;
		/* a linear search: a few hundred rows at most once summed */
		for (j = 0; j < t->n; j++) {
			r = &t->r[j];
			if (a->by_process ? r->tgid == x->tgid :
			    r->abi == x->abi && r->nr == x->nr)
				break;
		}
		r = &t->r[j];
		if (j == t->n) {
			t->n++;
			r->abi = x->abi;
			r->nr = x->nr;
			r->tgid = a->by_process || a->pid ? x->tgid : 0;
		}
		/*
		 * A process's rows can carry several names: the calls its
		 * child made before exec are the shell's.  Its name is the
		 * one on the most calls.
		 */
		if ((a->by_process || a->pid) &&
		    (!r->comm[0] || x->count > r->comm_calls)) {
			memcpy(r->comm, x->comm, sizeof(r->comm));
			r->comm_calls = x->count;
		}
		r->nsys++;
		add_row(r, x);
		t->calls += x->count;
		t->errors += x->errors;
	}
	for (i = 0; i < t->n; i++)
		qsort(t->r[i].errs, t->r[i].nerr, sizeof(t->r[i].errs[0]), cmp_errs);
	sort_args = a;
	qsort(t->r, t->n, sizeof(*t->r), cmp_rows);
	t->total = t->n;
	if (a->top && t->n > a->top)
		t->n = a->top;
	return 0;
}

/* "ENOENT:300 EACCES:2" (@max errnos, then "+N more") */
static void errnos_text(char *buf, size_t len, const struct top_row *r,
			uint32_t max)
{
	char eb[24];
	size_t n = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < r->nerr && i < max && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s:%llu", i ? " " : "",
				      errno_name((int)r->errs[i].err, eb, sizeof(eb)),
				      (unsigned long long)r->errs[i].count);
	if (r->nerr > max && n < len)
		n += (size_t)snprintf(buf + n, len - n, " +%u more", r->nerr - max);
	if (r->errno_other && n < len)
		snprintf(buf + n, len - n, "%sother:%llu", n ? " " : "",
			 (unsigned long long)r->errno_other);
}

static uint64_t avg_ns(const struct top_row *r)
{
	uint64_t timed = r->count - r->untimed;

	return timed ? r->time_ns / timed : 0;
}

void top_render(FILE *f, const struct top_table *t, const struct top_args *a,
		bool max)
{
	char name[48], tot[FMT_NS_LEN], avg[FMT_NS_LEN], mx[FMT_NS_LEN];
	char errs[256];
	uint64_t untimed = 0;
	size_t i;

	if (a->by_process)
		fprintf(f, "%-8s %-16s %10s %8s %10s %10s %8s\n", "PID", "COMM",
			"COUNT", "ERRORS", "TIME", "AVG", "SYSCALLS");
	else if (a->errors)
		fprintf(f, "%-24s %8s  %s\n", "SYSCALL", "ERRORS", "ERRNO");
	else if (max)
		fprintf(f, "%-24s %10s %8s %10s %10s %10s  %s\n", "SYSCALL",
			"COUNT", "ERRORS", "TIME", "AVG", "MAX", "ERRNO");
	else
		fprintf(f, "%-24s %10s %8s %10s %10s  %s\n", "SYSCALL", "COUNT",
			"ERRORS", "TIME", "AVG", "ERRNO");
	for (i = 0; i < t->n; i++) {
		const struct top_row *r = &t->r[i];

		untimed += r->untimed;
		fmt_ns(tot, sizeof(tot), r->time_ns);
		fmt_ns(avg, sizeof(avg), avg_ns(r));
		fmt_ns(mx, sizeof(mx), r->max_ns);
		if (a->by_process) {
			fprintf(f, "%-8u %-16s %10llu %8llu %10s %10s %8u\n",
				r->tgid, r->comm, (unsigned long long)r->count,
				(unsigned long long)r->errors, tot, avg, r->nsys);
			continue;
		}
		sc_name(r->abi, r->nr, name, sizeof(name));
		if (a->errors) {
			errnos_text(errs, sizeof(errs), r, TOP_ERRNOS);
			fprintf(f, "%-24s %8llu  %s\n", name,
				(unsigned long long)r->errors, errs);
			continue;
		}
		errnos_text(errs, sizeof(errs), r, 2);
		if (max)
			fprintf(f, "%-24s %10llu %8llu %10s %10s %10s  %s\n", name,
				(unsigned long long)r->count,
				(unsigned long long)r->errors, tot, avg, mx, errs);
		else
			fprintf(f, "%-24s %10llu %8llu %10s %10s  %s\n", name,
				(unsigned long long)r->count,
				(unsigned long long)r->errors, tot, avg, errs);
	}
	if (t->total > t->n)
		fprintf(f, "(%zu more not shown: -n 0 shows all)\n", t->total - t->n);
	if (untimed && !a->errors)
		fprintf(f, "(%llu calls counted without a time: not followed while sampling, under way when the pipeline was enabled, or longer than stale_ms)\n",
			(unsigned long long)untimed);
}

static void jadd_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static struct json_object *jstr(const char *s)
{
	char *c = utf8_clean(s);
	struct json_object *o = c ? json_object_new_string(c) : NULL;

	free(c);
	return o;
}

static struct json_object *top_row_json(const struct top_row *r,
					const struct top_args *a, bool max)
{
	static const char * const abis[] = { "64", "i386", "x32" };
	struct json_object *o = json_object_new_object(), *e, *h;
	char name[48], eb[24];
	uint32_t i;

	if (a->by_process || a->pid) {
		jadd_u64(o, "tgid", r->tgid);
		json_object_object_add(o, "comm", jstr(r->comm));
	}
	if (a->by_process) {
		jadd_u64(o, "syscalls", r->nsys);
	} else {
		json_object_object_add(o, "syscall",
				       jstr(sc_name(r->abi, r->nr, name, sizeof(name))));
		json_object_object_add(o, "abi", jstr(r->abi < N(abis) ? abis[r->abi] : "?"));
		jadd_u64(o, "nr", r->nr);
	}
	jadd_u64(o, "count", r->count);
	jadd_u64(o, "errors", r->errors);
	jadd_u64(o, "time_ns", r->time_ns);
	jadd_u64(o, "untimed", r->untimed);
	jadd_u64(o, "avg_ns", avg_ns(r));
	json_object_object_add(o, "max_ns", max ? json_object_new_uint64(r->max_ns) : NULL);
	e = json_object_new_array();
	for (i = 0; i < r->nerr; i++) {
		struct json_object *x = json_object_new_object();

		jadd_u64(x, "errno", r->errs[i].err);
		json_object_object_add(x, "name",
				       jstr(errno_name((int)r->errs[i].err, eb, sizeof(eb))));
		jadd_u64(x, "count", r->errs[i].count);
		json_object_array_add(e, x);
	}
	json_object_object_add(o, "errnos", e);
	jadd_u64(o, "errno_other", r->errno_other);
	h = json_object_new_array();
	for (i = 0; i < STACKLAT_SC_NBUCKETS; i++) {
		struct json_object *b;

		if (!r->hist[i])
			continue;
		b = json_object_new_array();
		json_object_array_add(b, json_object_new_uint64(stacklat_sc_lower(i)));
		json_object_array_add(b, i + 1 < STACKLAT_SC_NBUCKETS ?
				      json_object_new_uint64(stacklat_sc_lower(i + 1)) : NULL);
		json_object_array_add(b, json_object_new_uint64(r->hist[i]));
		json_object_array_add(h, b);
	}
	json_object_object_add(o, "hist", h);
	return o;
}

void top_json(struct json_object *env, const struct top_table *t,
	      const struct top_args *a, bool max)
{
	struct json_object *rows = json_object_new_array();
	size_t i;

	json_object_object_add(env, "what", jstr("syscalls"));
	json_object_object_add(env, "by", jstr(a->by_process ? "process" : "syscall"));
	json_object_object_add(env, "pid", a->pid ? json_object_new_uint64(a->pid) : NULL);
	json_object_object_add(env, "errors_only", json_object_new_boolean(a->errors));
	json_object_object_add(env, "sort",
			       jstr(a->sort == TOP_SORT_TIME ? "time" :
				    a->errors ? "errors" : "count"));
	jadd_u64(env, "calls", t->calls);
	jadd_u64(env, "errors", t->errors);
	jadd_u64(env, "total", t->total);
	for (i = 0; i < t->n; i++)
		json_object_array_add(rows, top_row_json(&t->r[i], a, max));
	json_object_object_add(env, "rows", rows);
}

/* ---- top disk --------------------------------------------------------------- */

/* the kernel's dev_t (MINORBITS 20) */
#define DK_MAJOR(d)	((d) >> 20)
#define DK_MINOR(d)	((d) & 0xfffff)

static int dk_cmp_key(const void *x, const void *y)
{
	const struct dk_row *a = x, *b = y;

	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	return a->dev < b->dev ? -1 : a->dev > b->dev;
}

/* @c minus @p; false when @p is not a past of @c (a reset) */
static bool dk_row_minus(void *cv, const void *pv)
{
	struct dk_row *c = cv;
	const struct dk_row *p = pv;

	if (c->ops < p->ops || c->read_bytes < p->read_bytes ||
	    c->read_ops < p->read_ops || c->write_bytes < p->write_bytes ||
	    c->write_ops < p->write_ops || c->discard_bytes < p->discard_bytes ||
	    c->discard_ops < p->discard_ops || c->flush_ops < p->flush_ops ||
	    c->other_ops < p->other_ops)
		return false;
	c->ops -= p->ops;
	c->read_bytes -= p->read_bytes;
	c->read_ops -= p->read_ops;
	c->write_bytes -= p->write_bytes;
	c->write_ops -= p->write_ops;
	c->discard_bytes -= p->discard_bytes;
	c->discard_ops -= p->discard_ops;
	c->flush_ops -= p->flush_ops;
	c->other_ops -= p->other_ops;
	return true;
}

static bool dk_row_active(const void *rv)
{
	const struct dk_row *r = rv;

	return r->ops;
}

int dk_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out)
{
	static const struct keyed_ops ops = {
		sizeof(struct dk_row), dk_cmp_key, dk_row_minus, dk_row_active
	};

	return keyed_delta(&ops, cur, prev, out);
}

void dk_table_free(struct dk_table *t)
{
	free(t->r);
	memset(t, 0, sizeof(*t));
}

/* by bytes (read + written), then operations, then tgid and disk */
static int dk_cmp_rows(const void *x, const void *y)
{
	const struct dk_row *a = x, *b = y;
	uint64_t ka = a->read_bytes + a->write_bytes;
	uint64_t kb = b->read_bytes + b->write_bytes;

	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (a->ops != b->ops)
		return a->ops > b->ops ? -1 : 1;
	return dk_cmp_key(a, b);
}

int dk_build(const struct keyed_set *s, const struct top_args *a,
	     struct dk_table *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->r = calloc(s->n + 1, sizeof(*t->r));
	if (!t->r)
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct dk_row *x = (const struct dk_row *)s->r + i;

		if (a->pid && x->tgid != a->pid)
			continue;
		t->r[t->n++] = *x;
		t->read_bytes += x->read_bytes;
		t->write_bytes += x->write_bytes;
		t->read_ops += x->read_ops;
		t->write_ops += x->write_ops;
	}
	qsort(t->r, t->n, sizeof(*t->r), dk_cmp_rows);
	t->total = t->n;
	if (a->top && t->n > a->top)
		t->n = a->top;
	return 0;
}

int dk_uevent_name(const char *text, char *name, size_t len)
{
	const char *l = text, *e;
	size_t n;

	while (l && *l) {
		e = strchr(l, '\n');
		n = e ? (size_t)(e - l) : strlen(l);
		if (n > 8 && !strncmp(l, "DEVNAME=", 8)) {
			n -= 8;
			if (n >= len)
				return -1;
			memcpy(name, l + 8, n);
			name[n] = '\0';
			return 0;
		}
		l = e ? e + 1 : NULL;
	}
	return -1;
}

const char *dk_disk_name(const char *sysfs, uint32_t dev, char *buf,
			 size_t len)
{
	char path[256], text[1024];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/uevent",
		 sysfs ? sysfs : "/sys", DK_MAJOR(dev), DK_MINOR(dev));
	f = fopen(path, "r");
	if (f) {
		n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
	}
	text[n] = '\0';
	if (!f || dk_uevent_name(text, buf, len))
		snprintf(buf, len, "%u:%u", DK_MAJOR(dev), DK_MINOR(dev));
	return buf;
}

void dk_render(FILE *f, const struct dk_table *t, const char *sysfs)
{
	char disk[64];
	size_t i;

	fprintf(f, "%-8s %-16s %-10s %10s %10s %8s %8s\n", "PID", "COMM",
		"DISK", "READ_KB", "WRITE_KB", "R_OPS", "W_OPS");
	for (i = 0; i < t->n; i++) {
		const struct dk_row *r = &t->r[i];

		fprintf(f, "%-8u %-16s %-10s %10" PRIu64 " %10" PRIu64 " %8" PRIu64 " %8" PRIu64 "\n",
			r->tgid, r->comm[0] ? r->comm : "-",
			dk_disk_name(sysfs, r->dev, disk, sizeof(disk)),
			r->read_bytes / 1024, r->write_bytes / 1024,
			r->read_ops, r->write_ops);
	}
	if (t->total > t->n)
		fprintf(f, "(%zu more not shown: -n 0 shows all)\n", t->total - t->n);
}

void dk_json(struct json_object *env, const struct dk_table *t,
	     const struct top_args *a, const char *sysfs)
{
	struct json_object *rows = json_object_new_array();
	char disk[64];
	size_t i;

	json_object_object_add(env, "what", jstr("disk"));
	json_object_object_add(env, "pid", a->pid ? json_object_new_uint64(a->pid) : NULL);
	json_object_object_add(env, "sort", jstr("bytes"));
	jadd_u64(env, "read_bytes", t->read_bytes);
	jadd_u64(env, "write_bytes", t->write_bytes);
	jadd_u64(env, "read_ops", t->read_ops);
	jadd_u64(env, "write_ops", t->write_ops);
	jadd_u64(env, "total", t->total);
	for (i = 0; i < t->n; i++) {
		const struct dk_row *r = &t->r[i];
		struct json_object *o = json_object_new_object();

		jadd_u64(o, "tgid", r->tgid);
		json_object_object_add(o, "comm", jstr(r->comm));
		jadd_u64(o, "dev", r->dev);
		jadd_u64(o, "major", DK_MAJOR(r->dev));
		jadd_u64(o, "minor", DK_MINOR(r->dev));
		json_object_object_add(o, "disk",
				       jstr(dk_disk_name(sysfs, r->dev, disk, sizeof(disk))));
		jadd_u64(o, "read_bytes", r->read_bytes);
		jadd_u64(o, "read_ops", r->read_ops);
		jadd_u64(o, "write_bytes", r->write_bytes);
		jadd_u64(o, "write_ops", r->write_ops);
		jadd_u64(o, "discard_bytes", r->discard_bytes);
		jadd_u64(o, "discard_ops", r->discard_ops);
		jadd_u64(o, "flush_ops", r->flush_ops);
		jadd_u64(o, "other_ops", r->other_ops);
		jadd_u64(o, "ops", r->ops);
		cg_jadd(o, r->cgroup_id);
		json_object_array_add(rows, o);
	}
	json_object_object_add(env, "rows", rows);
}
