// SPDX-License-Identifier: GPL-2.0
/*
 * "stacklat top futex": the futex pipeline's rows (a process's waits on
 * one futex) - the futex-contention example of SystemTap's beginners'
 * guide, perf lock's futex half - one row per (process, futex), or with
 * -P summed per process.  Pure logic (see top.h).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "top.h"

static int fx_cmp_key(const void *x, const void *y)
{
	const struct fx_row *a = x, *b = y;

	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	return a->uaddr < b->uaddr ? -1 : a->uaddr > b->uaddr;
}

/* @c minus @p; false when @p is not a past of @c (a reset) */
static bool fx_row_minus(void *cv, const void *pv)
{
	struct fx_row *c = cv;
	const struct fx_row *p = pv;

	if (c->count < p->count || c->eagain < p->eagain ||
	    c->time_ns < p->time_ns || c->alias < p->alias ||
	    !top_hist_minus(c->hist, p->hist))
		return false;
	c->count -= p->count;
	c->eagain -= p->eagain;
	c->time_ns -= p->time_ns;
	c->alias -= p->alias;
	c->max_ns = 0;		/* not known for an interval */
	return true;
}

static bool fx_row_active(const void *rv)
{
	const struct fx_row *r = rv;

	return r->count || r->eagain;
}

int fx_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out)
{
	static const struct keyed_ops ops = {
		sizeof(struct fx_row), fx_cmp_key, fx_row_minus, fx_row_active
	};

	return keyed_delta(&ops, cur, prev, out);
}

void fx_table_free(struct fx_table *t)
{
	free(t->r);
	memset(t, 0, sizeof(*t));
}

static enum top_sort fx_sort;

static uint64_t fx_sort_key(const struct fx_shown *r)
{
	return top_sort_key(fx_sort, r->count, r->time_ns, r->max_ns,
			    r->p99_ns);
}

static int fx_cmp_rows(const void *x, const void *y)
{
	const struct fx_shown *a = x, *b = y;
	uint64_t ka = fx_sort_key(a), kb = fx_sort_key(b);

	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (a->time_ns != b->time_ns)
		return a->time_ns > b->time_ns ? -1 : 1;
	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	return a->uaddr < b->uaddr ? -1 : a->uaddr > b->uaddr;
}

int fx_build(const struct keyed_set *s, const struct top_args *a, bool max,
	     struct fx_table *t)
{
	struct fx_shown *r;
	unsigned int b;
	size_t i, j;

	memset(t, 0, sizeof(*t));
	t->r = calloc(s->n + 1, sizeof(*t->r));
	if (!t->r)
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct fx_row *x = (const struct fx_row *)s->r + i;

		if (a->pid && x->tgid != a->pid)
			continue;
		j = t->n;
		if (a->by_process) {
			/* a linear search: a few hundred rows at most */
			for (j = 0; j < t->n; j++)
				if (t->r[j].tgid == x->tgid)
					break;
		}
		r = &t->r[j];
		if (j == t->n) {
			t->n++;
			r->tgid = x->tgid;
			r->uaddr = a->by_process ? 0 : x->uaddr;
			r->waker = a->by_process ? 0 : x->waker;
			memcpy(r->comm, x->comm, sizeof(r->comm));
		}
		r->futexes++;
		r->count += x->count;
		r->eagain += x->eagain;
		r->time_ns += x->time_ns;
		r->alias += x->alias;
		if (x->max_ns > r->max_ns)
			r->max_ns = x->max_ns;
		t->count += x->count;
		t->eagain += x->eagain;
		t->time_ns += x->time_ns;
		if (x->max_ns > t->max_ns)
			t->max_ns = x->max_ns;
		for (b = 0; b < STACKLAT_SC_NBUCKETS; b++) {
			r->hist[b] += x->hist[b];
			t->hist[b] += x->hist[b];
		}
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
	fx_sort = a->sort;
	qsort(t->r, t->n, sizeof(*t->r), fx_cmp_rows);
	t->total = t->n;
	if (a->top && t->n > a->top)
		t->n = a->top;
	return 0;
}

void fx_render(FILE *f, const struct fx_table *t, const struct top_args *a,
	       bool max)
{
	char tot[FMT_NS_LEN], avg[FMT_NS_LEN], mx[FMT_NS_LEN], p99[FMT_NS_LEN];
	char what[24];
	size_t i;

	fprintf(f, "%-8s %-16s %-18s %8s %8s %10s %10s %10s %10s %8s\n", "PID",
		"COMM", a->by_process ? "FUTEXES" : "UADDR", "WAITS", "EAGAIN",
		"TOTAL", "AVG", "P99", "MAX", a->by_process ? "" : "WAKER");
	for (i = 0; i < t->n; i++) {
		const struct fx_shown *r = &t->r[i];

		fmt_ns(tot, sizeof(tot), r->time_ns);
		fmt_ns(avg, sizeof(avg), r->count ? r->time_ns / r->count : 0);
		fmt_ns(p99, sizeof(p99), r->p99_ns);
		if (max)
			fmt_ns(mx, sizeof(mx), r->max_ns);
		else
			snprintf(mx, sizeof(mx), "-");
		if (a->by_process)
			snprintf(what, sizeof(what), "%u", r->futexes);
		else
			snprintf(what, sizeof(what), "%#llx",
				 (unsigned long long)r->uaddr);
		fprintf(f, "%-8u %-16s %-18s %8llu %8llu %10s %10s %10s %10s",
			r->tgid, r->comm[0] ? r->comm : "-", what,
			(unsigned long long)r->count,
			(unsigned long long)r->eagain, tot, avg, p99, mx);
		if (a->by_process)
			fprintf(f, "\n");
		else if (r->waker)
			fprintf(f, " %8u\n", r->waker);
		else
			fprintf(f, " %8s\n", r->count ? "irq" : "-");
	}
	if (t->total > t->n)
		fprintf(f, "(%zu more not shown: -n 0 shows all)\n",
			t->total - t->n);
}

void fx_json(struct json_object *env, const struct fx_table *t,
	     const struct top_args *a, bool max)
{
	struct json_object *rows = json_object_new_array(), *o;
	size_t i;

	json_object_object_add(env, "what", top_jstr("futex"));
	json_object_object_add(env, "by", top_jstr(a->by_process ? "process" : "futex"));
	json_object_object_add(env, "pid", a->pid ? json_object_new_uint64(a->pid) : NULL);
	json_object_object_add(env, "sort", top_jstr(top_sort_name(a->sort)));
	top_jadd_u64(env, "waits", t->count);
	top_jadd_u64(env, "eagain", t->eagain);
	top_jadd_u64(env, "time_ns", t->time_ns);
	json_object_object_add(env, "max_ns", max ? json_object_new_uint64(t->max_ns) : NULL);
	top_jadd_u64(env, "p99_ns", t->p99_ns);
	top_jadd_u64(env, "total", t->total);
	json_object_object_add(env, "hist", top_hist_json(t->hist));
	for (i = 0; i < t->n; i++) {
		const struct fx_shown *r = &t->r[i];

		o = json_object_new_object();
		top_jadd_u64(o, "tgid", r->tgid);
		json_object_object_add(o, "comm", top_jstr(r->comm));
		if (a->by_process) {
			top_jadd_u64(o, "futexes", r->futexes);
		} else {
			top_jadd_u64(o, "uaddr", r->uaddr);
			top_jadd_u64(o, "waker", r->waker);
			top_jadd_u64(o, "alias", r->alias);
		}
		top_jadd_u64(o, "waits", r->count);
		top_jadd_u64(o, "eagain", r->eagain);
		top_jadd_u64(o, "time_ns", r->time_ns);
		top_jadd_u64(o, "avg_ns", r->count ? r->time_ns / r->count : 0);
		json_object_object_add(o, "max_ns", max ? json_object_new_uint64(r->max_ns) : NULL);
		top_jadd_u64(o, "p99_ns", r->p99_ns);
		json_object_object_add(o, "hist", top_hist_json(r->hist));
		json_object_array_add(rows, o);
	}
	json_object_object_add(env, "rows", rows);
}
