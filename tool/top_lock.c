// SPDX-License-Identifier: GPL-2.0
/*
 * "stacklat top lock": the lock pipeline's rows - the contended waits of
 * one kernel lock type at one caller, kernel-wide (perf lock contention's
 * view, in tracepoint mode) - sorted, the top N shown.  Pure logic (see
 * top.h).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "top.h"

/* a row's key: the type's flags, then the caller's name (the kernel's key) */
static int lk_cmp_key(const void *x, const void *y)
{
	const struct lk_row *a = x, *b = y;

	if (a->flags != b->flags)
		return a->flags < b->flags ? -1 : 1;
	return strcmp(a->caller, b->caller);
}

/* @c minus @p; false when @p is not a past of @c (a reset) */
static bool lk_row_minus(void *cv, const void *pv)
{
	struct lk_row *c = cv;
	const struct lk_row *p = pv;

	if (c->count < p->count || c->failed < p->failed ||
	    c->time_ns < p->time_ns || c->nested < p->nested ||
	    c->alias < p->alias || !top_hist_minus(c->hist, p->hist))
		return false;
	c->count -= p->count;
	c->failed -= p->failed;
	c->time_ns -= p->time_ns;
	c->nested -= p->nested;
	c->alias -= p->alias;
	c->max_ns = 0;		/* not known for an interval */
	return true;
}

static bool lk_row_active(const void *rv)
{
	const struct lk_row *r = rv;

	return r->count;
}

int lk_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out)
{
	static const struct keyed_ops ops = {
		sizeof(struct lk_row), lk_cmp_key, lk_row_minus, lk_row_active
	};

	return keyed_delta(&ops, cur, prev, out);
}

void lk_table_free(struct lk_table *t)
{
	free(t->r);
	memset(t, 0, sizeof(*t));
}

static enum top_sort lk_sort;

static uint64_t lk_sort_key(const struct lk_shown *r)
{
	return top_sort_key(lk_sort, r->count, r->time_ns, r->max_ns,
			    r->p99_ns);
}

static int lk_cmp_rows(const void *x, const void *y)
{
	const struct lk_shown *a = x, *b = y;
	uint64_t ka = lk_sort_key(a), kb = lk_sort_key(b);

	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (a->time_ns != b->time_ns)
		return a->time_ns > b->time_ns ? -1 : 1;
	return lk_cmp_key(a->row, b->row);
}

int lk_build(const struct keyed_set *s, const struct top_args *a, bool max,
	     struct lk_table *t)
{
	struct lk_shown *r;
	unsigned int b;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->r = calloc(s->n + 1, sizeof(*t->r));
	if (!t->r)
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct lk_row *x = (const struct lk_row *)s->r + i;

		r = &t->r[t->n++];
		r->row = x;
		r->count = x->count;
		r->failed = x->failed;
		r->time_ns = x->time_ns;
		r->max_ns = max ? x->max_ns : 0;
		r->nested = x->nested;
		r->alias = x->alias;
		r->p99_ns = sd_quantile(x->hist, x->count, r->max_ns, 0.99);
		t->count += x->count;
		t->failed += x->failed;
		t->time_ns += x->time_ns;
		if (x->max_ns > t->max_ns)
			t->max_ns = x->max_ns;
		for (b = 0; b < STACKLAT_SC_NBUCKETS; b++)
			t->hist[b] += x->hist[b];
	}
	if (!max)
		t->max_ns = 0;
	t->p99_ns = sd_quantile(t->hist, t->count, t->max_ns, 0.99);
	lk_sort = a->sort;
	qsort(t->r, t->n, sizeof(*t->r), lk_cmp_rows);
	t->total = t->n;
	if (a->top && t->n > a->top)
		t->n = a->top;
	return 0;
}

void lk_render(FILE *f, const struct lk_table *t, bool max)
{
	char tot[FMT_NS_LEN], avg[FMT_NS_LEN], mx[FMT_NS_LEN], p99[FMT_NS_LEN];
	size_t i;

	fprintf(f, "%-15s %-40s %8s %6s %10s %10s %10s %10s %7s\n", "TYPE",
		"CALLER", "WAITS", "FAILED", "TOTAL", "AVG", "P99", "MAX",
		"NESTED");
	for (i = 0; i < t->n; i++) {
		const struct lk_shown *r = &t->r[i];

		fmt_ns(tot, sizeof(tot), r->time_ns);
		fmt_ns(avg, sizeof(avg), r->count ? r->time_ns / r->count : 0);
		fmt_ns(p99, sizeof(p99), r->p99_ns);
		if (max)
			fmt_ns(mx, sizeof(mx), r->max_ns);
		else
			snprintf(mx, sizeof(mx), "-");
		fprintf(f, "%-15s %-40s %8llu %6llu %10s %10s %10s %10s %7llu\n",
			r->row->type[0] ? r->row->type : "?",
			r->row->caller[0] ? r->row->caller : "?",
			(unsigned long long)r->count,
			(unsigned long long)r->failed, tot, avg, p99, mx,
			(unsigned long long)r->nested);
	}
	if (t->total > t->n)
		fprintf(f, "(%zu more not shown: -n 0 shows all)\n",
			t->total - t->n);
}

void lk_json(struct json_object *env, const struct lk_table *t,
	     const struct top_args *a, bool max)
{
	struct json_object *rows = json_object_new_array(), *o;
	size_t i;

	json_object_object_add(env, "what", top_jstr("lock"));
	json_object_object_add(env, "sort", top_jstr(top_sort_name(a->sort)));
	top_jadd_u64(env, "waits", t->count);
	top_jadd_u64(env, "failed", t->failed);
	top_jadd_u64(env, "time_ns", t->time_ns);
	json_object_object_add(env, "max_ns", max ? json_object_new_uint64(t->max_ns) : NULL);
	top_jadd_u64(env, "p99_ns", t->p99_ns);
	top_jadd_u64(env, "total", t->total);
	json_object_object_add(env, "hist", top_hist_json(t->hist));
	for (i = 0; i < t->n; i++) {
		const struct lk_shown *r = &t->r[i];

		o = json_object_new_object();
		json_object_object_add(o, "type", top_jstr(r->row->type));
		top_jadd_u64(o, "flags", r->row->flags);
		json_object_object_add(o, "caller", top_jstr(r->row->caller));
		top_jadd_u64(o, "waits", r->count);
		top_jadd_u64(o, "failed", r->failed);
		top_jadd_u64(o, "time_ns", r->time_ns);
		top_jadd_u64(o, "avg_ns", r->count ? r->time_ns / r->count : 0);
		json_object_object_add(o, "max_ns", max ? json_object_new_uint64(r->max_ns) : NULL);
		top_jadd_u64(o, "p99_ns", r->p99_ns);
		top_jadd_u64(o, "nested", r->nested);
		top_jadd_u64(o, "alias", r->alias);
		top_jadd_u64(o, "stack_id", r->row->stack_id);
		json_object_object_add(o, "hist", top_hist_json(r->row->hist));
		json_object_array_add(rows, o);
	}
	json_object_object_add(env, "rows", rows);
}
