// SPDX-License-Identifier: GPL-2.0
/*
 * "stacklat top sched": the sched pipeline's rows (one per thread: its
 * run-queue waits) summed per process, or a process's threads - bcc's
 * runqlat -P / -L with the worst first.  "stacklat top cpu": the cpu
 * pipeline's rows, of the same shape (a thread's on-CPU slices) with the
 * user/system split - SystemTap's thread-times.stp, bcc's cpudist.  Pure
 * logic (see top.h).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "top.h"

static int sd_cmp_key(const void *x, const void *y)
{
	const struct sd_row *a = x, *b = y;

	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

bool top_hist_minus(uint64_t *c, const uint64_t *p)
{
	unsigned int i;

	for (i = 0; i < STACKLAT_SC_NBUCKETS; i++)
		if (c[i] < p[i])
			return false;
	for (i = 0; i < STACKLAT_SC_NBUCKETS; i++)
		c[i] -= p[i];
	return true;
}

uint64_t top_sort_key(enum top_sort s, uint64_t count, uint64_t time_ns,
		      uint64_t max_ns, uint64_t p99_ns)
{
	switch (s) {
	case TOP_SORT_COUNT:
		return count;
	case TOP_SORT_MAX:
		return max_ns ? max_ns : p99_ns;
	case TOP_SORT_P99:
		return p99_ns;
	default:
		return time_ns;
	}
}

const char *top_sort_name(enum top_sort s)
{
	static const char * const names[] = {
		[TOP_SORT_COUNT] = "count", [TOP_SORT_TIME] = "total",
		[TOP_SORT_MAX] = "max", [TOP_SORT_P99] = "p99",
	};

	return (unsigned int)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

/* @c minus @p; false when @p is not a past of @c (a reset) */
static bool sd_row_minus(void *cv, const void *pv)
{
	struct sd_row *c = cv;
	const struct sd_row *p = pv;

	if (c->count < p->count || c->time_ns < p->time_ns ||
	    c->preempted < p->preempted || c->user_tick_ns < p->user_tick_ns ||
	    c->sys_tick_ns < p->sys_tick_ns || !top_hist_minus(c->hist, p->hist))
		return false;
	c->count -= p->count;
	c->time_ns -= p->time_ns;
	c->preempted -= p->preempted;
	c->user_tick_ns -= p->user_tick_ns;
	c->sys_tick_ns -= p->sys_tick_ns;
	c->max_ns = 0;		/* not known for an interval */
	return true;
}

static bool sd_row_active(const void *rv)
{
	return ((const struct sd_row *)rv)->count != 0;
}

int sd_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out)
{
	static const struct keyed_ops ops = {
		sizeof(struct sd_row), sd_cmp_key, sd_row_minus, sd_row_active
	};

	return keyed_delta(&ops, cur, prev, out);
}

uint64_t sd_quantile(const uint64_t *hist, uint64_t count, uint64_t max,
		     double q)
{
	uint64_t seen = 0, want, up;
	unsigned int i;

	if (!count)
		return 0;
	want = (uint64_t)(q * (double)count + 0.999999);
	if (want < 1)
		want = 1;
	for (i = 0; i < STACKLAT_SC_NBUCKETS; i++) {
		seen += hist[i];
		if (seen >= want)
			break;
	}
	/* the last bucket has no upper bound: its lower one, or the max */
	up = i + 1 < STACKLAT_SC_NBUCKETS ? stacklat_sc_lower(i + 1) :
	     stacklat_sc_lower(STACKLAT_SC_NBUCKETS - 1);
	if (max && (up > max || i + 1 >= STACKLAT_SC_NBUCKETS))
		up = max;
	return up;
}

void sd_table_free(struct sd_table *t)
{
	free(t->r);
	memset(t, 0, sizeof(*t));
}

static enum top_sort sd_sort;

static uint64_t sd_sort_key(const struct sd_shown *r)
{
	return top_sort_key(sd_sort, r->count, r->time_ns, r->max_ns,
			    r->p99_ns);
}

static int sd_cmp_rows(const void *x, const void *y)
{
	const struct sd_shown *a = x, *b = y;
	uint64_t ka = sd_sort_key(a), kb = sd_sort_key(b);

	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (a->time_ns != b->time_ns)
		return a->time_ns > b->time_ns ? -1 : 1;
	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static void sd_add(struct sd_shown *r, const struct sd_row *x)
{
	unsigned int i;

	r->count += x->count;
	r->time_ns += x->time_ns;
	r->preempted += x->preempted;
	r->user_tick_ns += x->user_tick_ns;
	r->sys_tick_ns += x->sys_tick_ns;
	if (x->max_ns > r->max_ns)
		r->max_ns = x->max_ns;
	for (i = 0; i < STACKLAT_SC_NBUCKETS; i++)
		r->hist[i] += x->hist[i];
}

int sd_build(const struct keyed_set *s, const struct top_args *a, bool max,
	     struct sd_table *t)
{
	struct sd_shown *r;
	size_t i, j;
	unsigned int b;

	memset(t, 0, sizeof(*t));
	t->r = calloc(s->n + 1, sizeof(*t->r));
	if (!t->r)
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct sd_row *x = (const struct sd_row *)s->r + i;

		if (a->pid && x->tgid != a->pid)
			continue;
		if (a->pid) {
			j = t->n;	/* a row per thread */
		} else {
			/* a linear search: a few hundred processes at most */
			for (j = 0; j < t->n; j++)
				if (t->r[j].tgid == x->tgid)
					break;
		}
		r = &t->r[j];
		if (j == t->n) {
			t->n++;
			r->tgid = x->tgid;
			r->tid = a->pid ? x->tid : 0;
			memcpy(r->comm, a->pid ? x->tcomm : x->comm,
			       sizeof(r->comm));
			r->comm_waits = x->count;
		}
		/* a process's name: that of its thread with the most waits */
		if (!a->pid && (x->count > r->comm_waits || !r->comm[0])) {
			memcpy(r->comm, x->comm, sizeof(r->comm));
			r->comm_waits = x->count;
		}
		r->threads++;
		sd_add(r, x);
		t->count += x->count;
		t->time_ns += x->time_ns;
		t->preempted += x->preempted;
		t->user_tick_ns += x->user_tick_ns;
		t->sys_tick_ns += x->sys_tick_ns;
		if (x->max_ns > t->max_ns)
			t->max_ns = x->max_ns;
		for (b = 0; b < STACKLAT_SC_NBUCKETS; b++)
			t->hist[b] += x->hist[b];
	}
	for (i = 0; i < t->n; i++) {
		r = &t->r[i];
		if (!max)
			r->max_ns = 0;
		r->p99_ns = sd_quantile(r->hist, r->count, r->max_ns, 0.99);
	}
	if (!max)
		t->max_ns = 0;
	t->p99_ns = sd_quantile(t->hist, t->count, t->max_ns, 0.99);
	sd_sort = a->sort;
	qsort(t->r, t->n, sizeof(*t->r), sd_cmp_rows);
	t->total = t->n;
	if (a->top && t->n > a->top)
		t->n = a->top;
	return 0;
}

/* top sched's table, or with @cpu top cpu's (ONCPU USER SYS, SLICES) */
static void sdc_render(FILE *f, const struct sd_table *t,
		       const struct top_args *a, bool max, bool cpu)
{
	char tot[FMT_NS_LEN], avg[FMT_NS_LEN], mx[FMT_NS_LEN], p99[FMT_NS_LEN];
	char us[FMT_NS_LEN], sy[FMT_NS_LEN];
	uint64_t u, y;
	size_t i;

	fprintf(f, "%-8s %-16s %7s ", a->pid ? "TID" : "PID", "COMM",
		a->pid ? "" : "THREADS");
	if (cpu)
		fprintf(f, "%10s %10s %10s %10s", "ONCPU", "USER", "SYS",
			"SLICES");
	else
		fprintf(f, "%10s %10s", "WAITS", "TOTAL");
	fprintf(f, " %10s %10s %10s %8s\n", "AVG", "P99", "MAX", "PREEMPT");
	for (i = 0; i < t->n; i++) {
		const struct sd_shown *r = &t->r[i];
		char thr[16] = "";

		fmt_ns(tot, sizeof(tot), r->time_ns);
		fmt_ns(avg, sizeof(avg), r->count ? r->time_ns / r->count : 0);
		fmt_ns(p99, sizeof(p99), r->p99_ns);
		if (max)
			fmt_ns(mx, sizeof(mx), r->max_ns);
		else
			snprintf(mx, sizeof(mx), "-");
		if (!a->pid)
			snprintf(thr, sizeof(thr), "%u", r->threads);
		fprintf(f, "%-8u %-16s %7s ", a->pid ? r->tid : r->tgid,
			r->comm[0] ? r->comm : "-", thr);
		if (cpu) {
			cpu_split(r->time_ns, r->user_tick_ns, r->sys_tick_ns,
				  &u, &y);
			fmt_ns(us, sizeof(us), u);
			fmt_ns(sy, sizeof(sy), y);
			fprintf(f, "%10s %10s %10s %10llu", tot, us, sy,
				(unsigned long long)r->count);
		} else {
			fprintf(f, "%10llu %10s", (unsigned long long)r->count,
				tot);
		}
		fprintf(f, " %10s %10s %10s %8llu\n", avg, p99, mx,
			(unsigned long long)r->preempted);
	}
	if (t->total > t->n)
		fprintf(f, "(%zu more not shown: -n 0 shows all)\n",
			t->total - t->n);
}

void sd_render(FILE *f, const struct sd_table *t, const struct top_args *a,
	       bool max)
{
	sdc_render(f, t, a, max, false);
}

void top_jadd_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

struct json_object *top_jstr(const char *s)
{
	char *c = utf8_clean(s);
	struct json_object *o = c ? json_object_new_string(c) : NULL;

	free(c);
	return o;
}

struct json_object *top_hist_json(const uint64_t *hist)
{
	struct json_object *h = json_object_new_array(), *b;
	unsigned int i;

	for (i = 0; i < STACKLAT_SC_NBUCKETS; i++) {
		if (!hist[i])
			continue;
		b = json_object_new_array();
		json_object_array_add(b, json_object_new_uint64(stacklat_sc_lower(i)));
		json_object_array_add(b, i + 1 < STACKLAT_SC_NBUCKETS ?
				      json_object_new_uint64(stacklat_sc_lower(i + 1)) : NULL);
		json_object_array_add(b, json_object_new_uint64(hist[i]));
		json_object_array_add(h, b);
	}
	return h;
}

static void cpu_json_times(struct json_object *o, uint64_t rtime,
			   uint64_t utick, uint64_t stick)
{
	uint64_t u, s;

	cpu_split(rtime, utick, stick, &u, &s);
	top_jadd_u64(o, "user_ns", u);
	top_jadd_u64(o, "sys_ns", s);
	top_jadd_u64(o, "user_tick_ns", utick);
	top_jadd_u64(o, "sys_tick_ns", stick);
}

/* top sched's JSON, or with @cpu top cpu's: slices, user and system */
static void sdc_json(struct json_object *env, const struct sd_table *t,
		     const struct top_args *a, bool max, bool cpu)
{
	const char *count = cpu ? "slices" : "waits";
	struct json_object *rows = json_object_new_array(), *o;
	size_t i;

	json_object_object_add(env, "what", top_jstr(cpu ? "cpu" : "sched"));
	json_object_object_add(env, "by", top_jstr(a->pid ? "thread" : "process"));
	json_object_object_add(env, "pid", a->pid ? json_object_new_uint64(a->pid) : NULL);
	json_object_object_add(env, "sort", top_jstr(top_sort_name(a->sort)));
	top_jadd_u64(env, count, t->count);
	top_jadd_u64(env, "time_ns", t->time_ns);
	if (cpu)
		cpu_json_times(env, t->time_ns, t->user_tick_ns, t->sys_tick_ns);
	json_object_object_add(env, "max_ns", max ? json_object_new_uint64(t->max_ns) : NULL);
	top_jadd_u64(env, "p99_ns", t->p99_ns);
	top_jadd_u64(env, "preempted", t->preempted);
	top_jadd_u64(env, "total", t->total);
	json_object_object_add(env, "hist", top_hist_json(t->hist));
	for (i = 0; i < t->n; i++) {
		const struct sd_shown *r = &t->r[i];

		o = json_object_new_object();
		top_jadd_u64(o, "tgid", r->tgid);
		if (a->pid)
			top_jadd_u64(o, "tid", r->tid);
		json_object_object_add(o, "comm", top_jstr(r->comm));
		if (!a->pid)
			top_jadd_u64(o, "threads", r->threads);
		top_jadd_u64(o, count, r->count);
		top_jadd_u64(o, "time_ns", r->time_ns);
		if (cpu)
			cpu_json_times(o, r->time_ns, r->user_tick_ns,
				       r->sys_tick_ns);
		top_jadd_u64(o, "avg_ns", r->count ? r->time_ns / r->count : 0);
		json_object_object_add(o, "max_ns", max ? json_object_new_uint64(r->max_ns) : NULL);
		top_jadd_u64(o, "p99_ns", r->p99_ns);
		top_jadd_u64(o, "preempted", r->preempted);
		json_object_object_add(o, "hist", top_hist_json(r->hist));
		json_object_array_add(rows, o);
	}
	json_object_object_add(env, "rows", rows);
}

void sd_json(struct json_object *env, const struct sd_table *t,
	     const struct top_args *a, bool max)
{
	sdc_json(env, t, a, max, false);
}

/* ---- top cpu ------------------------------------------------------------ */

void cpu_split(uint64_t rtime, uint64_t utick, uint64_t stick, uint64_t *user,
	       uint64_t *sys)
{
	/* cputime_adjust(): no system sample, all user; no user, all system */
	if (!stick) {
		*sys = 0;
	} else if (!utick) {
		*sys = rtime;
	} else {
		*sys = (uint64_t)((unsigned __int128)rtime * stick /
				  ((unsigned __int128)utick + stick));
	}
	*user = rtime - *sys;
}

void cpu_render(FILE *f, const struct sd_table *t, const struct top_args *a,
		bool max)
{
	sdc_render(f, t, a, max, true);
}

void cpu_json(struct json_object *env, const struct sd_table *t,
	      const struct top_args *a, bool max)
{
	sdc_json(env, t, a, max, true);
}
