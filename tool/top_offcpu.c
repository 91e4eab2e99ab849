// SPDX-License-Identifier: GPL-2.0
/*
 * "stacklat top offcpu": the offcpu pipeline's rows (a process's blocks
 * under one kernel stack each, with the stack's reason) summed per
 * (process, reason) - SystemTap's latencytap - or, with --stacks, one per
 * (process, stack) with its frames - bcc's offcputime.  Pure logic (see
 * top.h).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "nl.h"
#include "top.h"

static int oc_cmp_key(const void *x, const void *y)
{
	const struct oc_row *a = x, *b = y;

	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	return a->stack < b->stack ? -1 : a->stack > b->stack;
}

/* @c minus @p; false when @p is not a past of @c (a reset) */
static bool oc_row_minus(void *cv, const void *pv)
{
	struct oc_row *c = cv;
	const struct oc_row *p = pv;

	if (c->count < p->count || c->time_ns < p->time_ns ||
	    !top_hist_minus(c->hist, p->hist))
		return false;
	c->count -= p->count;
	c->time_ns -= p->time_ns;
	c->max_ns = 0;		/* not known for an interval */
	return true;
}

static bool oc_row_active(const void *rv)
{
	return ((const struct oc_row *)rv)->count != 0;
}

int oc_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out)
{
	static const struct keyed_ops ops = {
		sizeof(struct oc_row), oc_cmp_key, oc_row_minus, oc_row_active
	};

	return keyed_delta(&ops, cur, prev, out);
}

void oc_table_free(struct oc_table *t)
{
	free(t->r);
	memset(t, 0, sizeof(*t));
}

static enum top_sort oc_sort;

static uint64_t oc_sort_key(const struct oc_shown *r)
{
	return top_sort_key(oc_sort, r->count, r->time_ns, r->max_ns,
			    r->p99_ns);
}

static int oc_cmp_rows(const void *x, const void *y)
{
	const struct oc_shown *a = x, *b = y;
	uint64_t ka = oc_sort_key(a), kb = oc_sort_key(b);
	int c;

	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (a->time_ns != b->time_ns)
		return a->time_ns > b->time_ns ? -1 : 1;
	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	c = strcmp(a->reason, b->reason);
	if (c)
		return c;
	return a->stack < b->stack ? -1 : a->stack > b->stack;
}

int oc_build(const struct keyed_set *s, const struct top_args *a, bool max,
	     struct oc_table *t)
{
	struct oc_shown *r;
	size_t i, j;
	unsigned int b;

	memset(t, 0, sizeof(*t));
	t->r = calloc(s->n + 1, sizeof(*t->r));
	if (!t->r)
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct oc_row *x = (const struct oc_row *)s->r + i;

		if (a->pid && x->tgid != a->pid)
			continue;
		j = t->n;
		if (!a->stacks) {
			/* a linear search: a few hundred rows at most */
			for (j = 0; j < t->n; j++)
				if (t->r[j].tgid == x->tgid &&
				    !strcmp(t->r[j].reason, x->reason))
					break;
		}
		r = &t->r[j];
		if (j == t->n) {
			t->n++;
			r->tgid = x->tgid;
			r->stack = a->stacks ? x->stack : 0;
			memcpy(r->comm, x->comm, sizeof(r->comm));
			memcpy(r->reason, x->reason, sizeof(r->reason));
		}
		r->count += x->count;
		r->time_ns += x->time_ns;
		if (x->max_ns > r->max_ns)
			r->max_ns = x->max_ns;
		t->count += x->count;
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
	oc_sort = a->sort;
	qsort(t->r, t->n, sizeof(*t->r), oc_cmp_rows);
	t->total = t->n;
	if (a->top && t->n > a->top)
		t->n = a->top;
	return 0;
}

static const struct stack_row *oc_stack(const struct stack_set *ss, uint32_t id)
{
	size_t i;

	for (i = 0; ss && id && i < ss->n; i++)
		if (ss->r[i].id == id && !strcmp(ss->r[i].pipe, "offcpu"))
			return &ss->r[i];
	return NULL;
}

/*
 * The frames worth showing: from the first that is not the capture's own
 * (the module's probe, the tracepoint's iterator) - the stack is taken in
 * the sched_switch probe, inside __schedule().
 */
static unsigned int oc_first_frame(const struct stack_row *sr)
{
	unsigned int i;

	for (i = 0; i < sr->nr; i++) {
		const char *f = sr->frames[i];
		size_t n = strlen(f);

		if ((n > 11 && !strcmp(f + n - 11, " [stacklat]")) ||
		    !strncmp(f, "__traceiter_", 12) ||
		    !strncmp(f, "__probestub_", 12))
			continue;
		return i;
	}
	return 0;
}

void oc_render(FILE *f, const struct oc_table *t, const struct top_args *a,
	       bool max, const struct stack_set *stacks)
{
	char tot[FMT_NS_LEN], avg[FMT_NS_LEN], mx[FMT_NS_LEN], p99[FMT_NS_LEN];
	const struct stack_row *sr;
	unsigned int k;
	size_t i;

	fprintf(f, "%-8s %-16s %-28s %8s %10s %10s %10s %10s\n", "PID", "COMM",
		"REASON", "BLOCKS", "TOTAL", "AVG", "P99", "MAX");
	for (i = 0; i < t->n; i++) {
		const struct oc_shown *r = &t->r[i];

		fmt_ns(tot, sizeof(tot), r->time_ns);
		fmt_ns(avg, sizeof(avg), r->count ? r->time_ns / r->count : 0);
		fmt_ns(p99, sizeof(p99), r->p99_ns);
		if (max)
			fmt_ns(mx, sizeof(mx), r->max_ns);
		else
			snprintf(mx, sizeof(mx), "-");
		fprintf(f, "%-8u %-16s %-28s %8llu %10s %10s %10s %10s\n",
			r->tgid, r->comm[0] ? r->comm : "-", r->reason,
			(unsigned long long)r->count, tot, avg, p99, mx);
		if (!a->stacks)
			continue;
		sr = oc_stack(stacks, r->stack);
		if (!sr) {
			fprintf(f, "    (stack %u: %s)\n", r->stack,
				r->stack ? "gone (a reset)" : "not kept: the stack table was full");
			continue;
		}
		for (k = oc_first_frame(sr); k < sr->nr; k++)
			fprintf(f, "    %s\n", sr->frames[k]);
		if (sr->truncated)
			fprintf(f, "    ... (deeper than stack_depth=)\n");
	}
	if (t->total > t->n)
		fprintf(f, "(%zu more not shown: -n 0 shows all)\n",
			t->total - t->n);
}

void oc_json(struct json_object *env, const struct oc_table *t,
	     const struct top_args *a, bool max, const struct stack_set *stacks)
{
	struct json_object *rows = json_object_new_array(), *o, *fr;
	const struct stack_row *sr;
	unsigned int k;
	size_t i;

	json_object_object_add(env, "what", top_jstr("offcpu"));
	json_object_object_add(env, "by", top_jstr(a->stacks ? "stack" : "reason"));
	json_object_object_add(env, "pid", a->pid ? json_object_new_uint64(a->pid) : NULL);
	json_object_object_add(env, "sort", top_jstr(top_sort_name(a->sort)));
	top_jadd_u64(env, "blocks", t->count);
	top_jadd_u64(env, "time_ns", t->time_ns);
	json_object_object_add(env, "max_ns", max ? json_object_new_uint64(t->max_ns) : NULL);
	top_jadd_u64(env, "p99_ns", t->p99_ns);
	top_jadd_u64(env, "total", t->total);
	json_object_object_add(env, "hist", top_hist_json(t->hist));
	for (i = 0; i < t->n; i++) {
		const struct oc_shown *r = &t->r[i];

		o = json_object_new_object();
		top_jadd_u64(o, "tgid", r->tgid);
		json_object_object_add(o, "comm", top_jstr(r->comm));
		json_object_object_add(o, "reason", top_jstr(r->reason));
		if (a->stacks) {
			top_jadd_u64(o, "stack", r->stack);
			fr = json_object_new_array();
			sr = oc_stack(stacks, r->stack);
			for (k = sr ? oc_first_frame(sr) : 0; sr && k < sr->nr; k++)
				json_object_array_add(fr, top_jstr(sr->frames[k]));
			json_object_object_add(o, "frames", fr);
		}
		top_jadd_u64(o, "blocks", r->count);
		top_jadd_u64(o, "time_ns", r->time_ns);
		top_jadd_u64(o, "avg_ns", r->count ? r->time_ns / r->count : 0);
		json_object_object_add(o, "max_ns", max ? json_object_new_uint64(r->max_ns) : NULL);
		top_jadd_u64(o, "p99_ns", r->p99_ns);
		json_object_object_add(o, "hist", top_hist_json(r->hist));
		json_object_array_add(rows, o);
	}
	json_object_object_add(env, "rows", rows);
}
