// SPDX-License-Identifier: GPL-2.0
/*
 * "stacklat top files": the files pipeline's rows (a process's opens,
 * reads and writes of one file, or its failed opens of one name) - bcc's
 * filetop, SystemTap's iostats.stp - one row per (process, file), or with
 * -P summed per process.  Pure logic (see top.h).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "top.h"

static const struct {
	const char *word;
	enum top_sort sort;
} fl_sorts[] = {
	{ "bytes", TOP_SORT_BYTES },
	{ "reads", TOP_SORT_READS },
	{ "writes", TOP_SORT_WRITES },
	{ "rbytes", TOP_SORT_RBYTES },
	{ "wbytes", TOP_SORT_WBYTES },
	{ "opens", TOP_SORT_OPENS },
};

int fl_sort_parse(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof(fl_sorts) / sizeof(fl_sorts[0]); i++)
		if (!strcmp(word, fl_sorts[i].word))
			return (int)fl_sorts[i].sort;
	return -1;
}

static const char *fl_sort_name(enum top_sort s)
{
	size_t i;

	for (i = 0; i < sizeof(fl_sorts) / sizeof(fl_sorts[0]); i++)
		if (fl_sorts[i].sort == s)
			return fl_sorts[i].word;
	return "count";
}

int fl_check_args(const struct top_args *a, bool sorted, char *err,
		  size_t errlen)
{
	(void)sorted;
	if (a->errors || a->stacks) {
		snprintf(err, errlen, "%s: not for files (a row per process and file; -P: per process)",
			 a->errors ? "-x" : "--stacks");
		return -1;
	}
	if (a->sort == TOP_SORT_TIME || a->sort == TOP_SORT_MAX ||
	    a->sort == TOP_SORT_P99) {
		snprintf(err, errlen, "-s: files sorts by 'bytes', 'reads', 'writes', 'rbytes', 'wbytes', 'opens' or 'count' (all calls)");
		return -1;
	}
	if (a->by_process && a->pid) {
		snprintf(err, errlen, "-P and -p: one process has one row");
		return -1;
	}
	return 0;
}

static int fl_cmp_key(const void *x, const void *y)
{
	const struct fl_row *a = x, *b = y;

	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	/* a failed name's row: dev and ino 0, told apart by the name */
	return strcmp(a->name, b->name);
}

/* @c minus @p; false when @p is not a past of @c (a reset) */
static bool fl_row_minus(void *cv, const void *pv)
{
	struct fl_row *c = cv;
	const struct fl_row *p = pv;
	uint32_t i, j;

	if (c->opens < p->opens || c->open_fails < p->open_fails ||
	    c->reads < p->reads || c->writes < p->writes ||
	    c->read_bytes < p->read_bytes || c->write_bytes < p->write_bytes ||
	    c->read_errors < p->read_errors ||
	    c->write_errors < p->write_errors || c->alias < p->alias ||
	    c->errno_other < p->errno_other)
		return false;
	for (i = 0; i < p->nerr; i++) {
		for (j = 0; j < c->nerr; j++)
			if (c->errs[j].err == p->errs[i].err)
				break;
		if (j == c->nerr || c->errs[j].count < p->errs[i].count)
			return false;
	}
	for (i = 0; i < p->nerr; i++)
		for (j = 0; j < c->nerr; j++)
			if (c->errs[j].err == p->errs[i].err)
				c->errs[j].count -= p->errs[i].count;
	c->opens -= p->opens;
	c->open_fails -= p->open_fails;
	c->errno_other -= p->errno_other;
	c->reads -= p->reads;
	c->read_errors -= p->read_errors;
	c->read_bytes -= p->read_bytes;
	c->writes -= p->writes;
	c->write_errors -= p->write_errors;
	c->write_bytes -= p->write_bytes;
	c->alias -= p->alias;
	return true;
}

static bool fl_row_active(const void *rv)
{
	const struct fl_row *r = rv;

	return r->opens || r->open_fails || r->reads || r->writes;
}

int fl_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out)
{
	static const struct keyed_ops ops = {
		sizeof(struct fl_row), fl_cmp_key, fl_row_minus, fl_row_active
	};

	return keyed_delta(&ops, cur, prev, out);
}

void fl_table_free(struct fl_table *t)
{
	free(t->r);
	memset(t, 0, sizeof(*t));
}

static enum top_sort fl_sort;

static uint64_t fl_sort_key(const struct fl_shown *r)
{
	switch (fl_sort) {
	case TOP_SORT_READS:
		return r->reads;
	case TOP_SORT_WRITES:
		return r->writes;
	case TOP_SORT_RBYTES:
		return r->read_bytes;
	case TOP_SORT_WBYTES:
		return r->write_bytes;
	case TOP_SORT_OPENS:
		return r->opens + r->open_fails;
	case TOP_SORT_COUNT:
		return r->opens + r->open_fails + r->reads + r->writes;
	default:
		return r->read_bytes + r->write_bytes;
	}
}

static int fl_cmp_rows(const void *x, const void *y)
{
	const struct fl_shown *a = x, *b = y;
	uint64_t ka = fl_sort_key(a), kb = fl_sort_key(b);
	uint64_t ca = a->opens + a->open_fails + a->reads + a->writes;
	uint64_t cb = b->opens + b->open_fails + b->reads + b->writes;

	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (ca != cb)
		return ca > cb ? -1 : 1;
	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	if (a->row && b->row)
		return fl_cmp_key(a->row, b->row);
	return 0;
}

int fl_build(const struct keyed_set *s, const struct top_args *a,
	     struct fl_table *t)
{
	struct fl_shown *r;
	size_t i, j;

	memset(t, 0, sizeof(*t));
	t->r = calloc(s->n + 1, sizeof(*t->r));
	if (!t->r)
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct fl_row *x = (const struct fl_row *)s->r + i;

		if (a->pid && x->tgid != a->pid)
			continue;
		j = t->n;
		if (a->by_process) {
			/* a linear search: a few hundred processes at most */
			for (j = 0; j < t->n; j++)
				if (t->r[j].tgid == x->tgid)
					break;
		}
		r = &t->r[j];
		if (j == t->n) {
			t->n++;
			r->tgid = x->tgid;
			r->row = a->by_process ? NULL : x;
			memcpy(r->comm, x->comm, sizeof(r->comm));
		}
		r->files++;
		r->opens += x->opens;
		r->open_fails += x->open_fails;
		r->reads += x->reads;
		r->read_errors += x->read_errors;
		r->read_bytes += x->read_bytes;
		r->writes += x->writes;
		r->write_errors += x->write_errors;
		r->write_bytes += x->write_bytes;
		t->opens += x->opens;
		t->open_fails += x->open_fails;
		t->reads += x->reads;
		t->read_bytes += x->read_bytes;
		t->writes += x->writes;
		t->write_bytes += x->write_bytes;
	}
	fl_sort = a->sort;
	qsort(t->r, t->n, sizeof(*t->r), fl_cmp_rows);
	t->total = t->n;
	if (a->top && t->n > a->top)
		t->n = a->top;
	return 0;
}

/* A failed name's errnos as "ENOENT:5,EACCES:1" into @buf. */
static const char *fl_errnos(const struct fl_row *r, char *buf, size_t len)
{
	char eb[32];
	size_t o = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < r->nerr && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s:%" PRIu64,
				      i ? "," : "",
				      errno_name((int)r->errs[i].err, eb, sizeof(eb)),
				      r->errs[i].count);
	if (r->errno_other && o < len)
		snprintf(buf + o, len - o, "%sother:%" PRIu64, o ? "," : "",
			 r->errno_other);
	return buf;
}

void fl_render(FILE *f, const struct fl_table *t, const struct top_args *a)
{
	char errs[160];
	size_t i;

	fprintf(f, "%-8s %-16s %6s %6s %8s %10s %8s %10s %-8s %s\n", "PID",
		"COMM", "OPENS", "FAILS", "READS", "R_KB", "WRITES", "W_KB",
		a->by_process ? "FILES" : "FSTYPE", a->by_process ? "" : "FILE");
	for (i = 0; i < t->n; i++) {
		const struct fl_shown *r = &t->r[i];

		fprintf(f, "%-8u %-16s %6" PRIu64 " %6" PRIu64 " %8" PRIu64 " %10" PRIu64 " %8" PRIu64 " %10" PRIu64,
			r->tgid, r->comm[0] ? r->comm : "-", r->opens,
			r->open_fails, r->reads, r->read_bytes / 1024,
			r->writes, r->write_bytes / 1024);
		if (!r->row) {
			fprintf(f, " %-8u\n", r->files);
			continue;
		}
		fprintf(f, " %-8s %s", r->row->fstype[0] ? r->row->fstype : "-",
			r->row->name[0] ? r->row->name : "-");
		if (r->open_fails)
			fprintf(f, " (%s)", fl_errnos(r->row, errs, sizeof(errs)));
		fprintf(f, "\n");
	}
	if (t->total > t->n)
		fprintf(f, "(%zu more not shown: -n 0 shows all)\n",
			t->total - t->n);
}

void fl_json(struct json_object *env, const struct fl_table *t,
	     const struct top_args *a)
{
	struct json_object *rows = json_object_new_array(), *o, *e, *x;
	char eb[32];
	size_t i;
	uint32_t k;

	json_object_object_add(env, "what", top_jstr("files"));
	json_object_object_add(env, "by", top_jstr(a->by_process ? "process" : "file"));
	json_object_object_add(env, "pid", a->pid ? json_object_new_uint64(a->pid) : NULL);
	json_object_object_add(env, "sort", top_jstr(fl_sort_name(a->sort)));
	top_jadd_u64(env, "opens", t->opens);
	top_jadd_u64(env, "open_fails", t->open_fails);
	top_jadd_u64(env, "reads", t->reads);
	top_jadd_u64(env, "read_bytes", t->read_bytes);
	top_jadd_u64(env, "writes", t->writes);
	top_jadd_u64(env, "write_bytes", t->write_bytes);
	top_jadd_u64(env, "total", t->total);
	for (i = 0; i < t->n; i++) {
		const struct fl_shown *r = &t->r[i];

		o = json_object_new_object();
		top_jadd_u64(o, "tgid", r->tgid);
		json_object_object_add(o, "comm", top_jstr(r->comm));
		if (r->row) {
			json_object_object_add(o, "name", top_jstr(r->row->name));
			json_object_object_add(o, "fstype", top_jstr(r->row->fstype));
			top_jadd_u64(o, "dev", r->row->dev);
			top_jadd_u64(o, "major", r->row->dev >> 20);
			top_jadd_u64(o, "minor", r->row->dev & 0xfffff);
			top_jadd_u64(o, "ino", r->row->ino);
			e = json_object_new_array();
			for (k = 0; k < r->row->nerr; k++) {
				x = json_object_new_object();
				top_jadd_u64(x, "errno", r->row->errs[k].err);
				json_object_object_add(x, "name",
						       top_jstr(errno_name((int)r->row->errs[k].err,
									   eb, sizeof(eb))));
				top_jadd_u64(x, "count", r->row->errs[k].count);
				json_object_array_add(e, x);
			}
			json_object_object_add(o, "errnos", e);
			top_jadd_u64(o, "errno_other", r->row->errno_other);
			top_jadd_u64(o, "alias", r->row->alias);
			cg_jadd(o, r->row->cgroup_id);
		} else {
			top_jadd_u64(o, "files", r->files);
		}
		top_jadd_u64(o, "opens", r->opens);
		top_jadd_u64(o, "open_fails", r->open_fails);
		top_jadd_u64(o, "reads", r->reads);
		top_jadd_u64(o, "read_errors", r->read_errors);
		top_jadd_u64(o, "read_bytes", r->read_bytes);
		top_jadd_u64(o, "writes", r->writes);
		top_jadd_u64(o, "write_errors", r->write_errors);
		top_jadd_u64(o, "write_bytes", r->write_bytes);
		json_object_array_add(rows, o);
	}
	json_object_object_add(env, "rows", rows);
}
