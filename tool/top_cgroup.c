// SPDX-License-Identifier: GPL-2.0
/*
 * top syscalls|disk|files|net --by cgroup: a view's per-process rows folded
 * into one row per cgroup v2 directory, every counter summed.  A row's
 * cgroup is the module's: its process's at the row's last update (a
 * process moved keeps its rows, which follow it).  The cgroup is named by
 * its directory's path under the cgroup2 mount, found by walking the mount
 * once (directory inode numbers are cgroup ids) and again, at most once a
 * sample, when an id is not found: an id still not found is a removed
 * cgroup.  One fold for the four views: each says only its columns and
 * how to read them from its row (struct cg_view).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "parse.h"
#include "top.h"

/* ---- the fold --------------------------------------------------------------- */

/* A row of the view, as the fold sees it. */
struct cg_ent {
	uint64_t id;
	uint32_t tgid;
	uint64_t v[CG_VALS];
};

static int cg_ent_cmp(const void *x, const void *y)
{
	const struct cg_ent *a = x, *b = y;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->tgid < b->tgid ? -1 : a->tgid > b->tgid;
}

/* by the sort key, highest first; ties by id */
static int cg_shown_cmp(const void *x, const void *y)
{
	const struct cg_shown *a = x, *b = y;

	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* @r's name: its path, "-" for no cgroup, "cgroup:ID (removed)" */
static int cg_name_row(struct cg_names *n, struct cg_shown *r)
{
	const char *p = NULL;
	char buf[64];

	if (!r->id) {
		p = "-";
	} else {
		p = cg_names_find(n, r->id);
		if (!p && !n->rewalked) {
			/* made since the last walk? once a sample */
			n->rewalked = true;
			/* a walk that failed leaves fewer names: "removed" */
			cg_names_load(n);
			p = cg_names_find(n, r->id);
		}
		if (!p) {
			snprintf(buf, sizeof(buf), "cgroup:%llu (removed)",
				 (unsigned long long)r->id);
			r->removed = true;
			p = buf;
		}
	}
	r->path = strdup(p);
	return r->path ? 0 : -1;
}

int cg_build(const struct cg_view *w, const struct keyed_set *s,
	     const struct top_args *a, struct cg_names *names,
	     struct cg_table *t)
{
	struct cg_ent *e = calloc(s->n + 1, sizeof(*e));
	size_t i, m = 0;
	unsigned int j;
	struct cg_shown *r = NULL;

	memset(t, 0, sizeof(*t));
	if (!e)
		return -1;
	for (i = 0; i < s->n; i++) {
		struct cg_ent *x = &e[m];

		if (!w->get((const char *)s->r + i * w->size, &x->tgid, &x->id, x->v))
			continue;
		if (a->pid && x->tgid != a->pid)
			continue;
		m++;
	}
	qsort(e, m, sizeof(*e), cg_ent_cmp);
	t->r = calloc(m + 1, sizeof(*t->r));
	if (!t->r)
		goto oom;
	names->rewalked = false;
	if (!names->loaded)
		cg_names_load(names);	/* failed: fewer names, as above */
	for (i = 0; i < m; i++) {
		if (!i || e[i].id != e[i - 1].id) {
			r = &t->r[t->n++];
			r->id = e[i].id;
			if (cg_name_row(names, r))
				goto oom;
		}
		if (!i || e[i].id != e[i - 1].id || e[i].tgid != e[i - 1].tgid)
			r->procs++;
		for (j = 0; j < w->ncols; j++) {
			r->v[j] += e[i].v[j];
			t->v[j] += e[i].v[j];
		}
	}
	for (i = 0; i < t->n; i++)
		t->r[i].key = w->key(t->r[i].v, a);
	qsort(t->r, t->n, sizeof(*t->r), cg_shown_cmp);
	t->total = t->n;
	if (a->top && t->n > a->top) {
		for (i = a->top; i < t->n; i++)
			free(t->r[i].path);
		t->n = a->top;
	}
	free(e);
	return 0;
oom:
	free(e);
	cg_table_free(t);
	return -1;
}

/*
 * The process rows' cgroup in JSON: their own names, walked when first
 * asked, again for an id not found at most once a second.
 */
static struct cg_names cg_row_names;
static bool cg_row_none;			/* no cgroup2 mount */
static time_t cg_row_walked;

void cg_jadd(struct json_object *o, uint64_t id)
{
	struct cg_names *n = &cg_row_names;
	struct timespec ts;
	const char *p = NULL;
	char buf[64];

	top_jadd_u64(o, "cgroup_id", id);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (id && !n->loaded && !cg_row_none) {
		cg_row_none = !cgroup2_mount(n->root, sizeof(n->root));
		if (!cg_row_none && !cg_names_load(n))
			cg_row_walked = ts.tv_sec;
	}
	if (!id) {
		p = "-";
	} else if (n->loaded) {
		p = cg_names_find(n, id);
		if (!p && ts.tv_sec > cg_row_walked && !cg_names_load(n)) {
			cg_row_walked = ts.tv_sec;
			p = cg_names_find(n, id);
		}
		if (!p) {
			snprintf(buf, sizeof(buf), "cgroup:%llu (removed)",
				 (unsigned long long)id);
			p = buf;
		}
	}
	json_object_object_add(o, "cgroup", p ? top_jstr(p) : NULL);
}

void cg_table_free(struct cg_table *t)
{
	size_t i;

	for (i = 0; t->r && i < t->n; i++)
		free(t->r[i].path);
	free(t->r);
	memset(t, 0, sizeof(*t));
}

const char *cg_sort_name(enum top_sort s)
{
	static const char * const names[] = {
		[TOP_SORT_COUNT] = "count", [TOP_SORT_TIME] = "time",
		[TOP_SORT_BYTES] = "bytes", [TOP_SORT_READS] = "reads",
		[TOP_SORT_WRITES] = "writes", [TOP_SORT_RBYTES] = "rbytes",
		[TOP_SORT_WBYTES] = "wbytes", [TOP_SORT_OPENS] = "opens",
		[TOP_SORT_SENT] = "sent", [TOP_SORT_RECV] = "recv",
	};
	unsigned int i = (unsigned int)s;

	return i < sizeof(names) / sizeof(names[0]) && names[i] ? names[i] : "?";
}

static void cg_cell(FILE *f, enum cg_fmt fmt, uint64_t v)
{
	char b[FMT_NS_LEN];

	switch (fmt) {
	case CG_KIB:
		fprintf(f, " %12llu", (unsigned long long)(v / 1024));
		break;
	case CG_NS:
		fmt_ns(b, sizeof(b), v);
		fprintf(f, " %12s", b);
		break;
	default:
		fprintf(f, " %12llu", (unsigned long long)v);
		break;
	}
}

void cg_render(FILE *f, const struct cg_view *w, const struct cg_table *t)
{
	unsigned int j;
	size_t i;

	fprintf(f, "%6s", "PROCS");
	for (j = 0; j < w->ncols; j++)
		fprintf(f, " %12s", w->cols[j].head);
	fprintf(f, "  CGROUP\n");
	for (i = 0; i < t->n; i++) {
		fprintf(f, "%6u", t->r[i].procs);
		for (j = 0; j < w->ncols; j++)
			cg_cell(f, w->cols[j].fmt, t->r[i].v[j]);
		fprintf(f, "  %s\n", t->r[i].path);
	}
	if (t->total > t->n)
		fprintf(f, "(%zu more cgroups: -n 0 shows them all)\n", t->total - t->n);
}

void cg_json(struct json_object *env, const struct cg_view *w,
	     const struct cg_table *t, const struct top_args *a)
{
	struct json_object *rows = json_object_new_array(), *o;
	unsigned int j;
	size_t i;

	json_object_object_add(env, "what", json_object_new_string(w->what));
	json_object_object_add(env, "by", json_object_new_string("cgroup"));
	json_object_object_add(env, "pid", a->pid ? json_object_new_uint64(a->pid) : NULL);
	json_object_object_add(env, "sort",
			       top_jstr(w->sort ? w->sort : cg_sort_name(a->sort)));
	for (j = 0; j < w->ncols; j++)
		top_jadd_u64(env, w->cols[j].key, t->v[j]);
	top_jadd_u64(env, "total", t->total);
	for (i = 0; i < t->n; i++) {
		const struct cg_shown *r = &t->r[i];

		o = json_object_new_object();
		top_jadd_u64(o, "cgroup_id", r->id);
		json_object_object_add(o, "cgroup", top_jstr(r->path));
		json_object_object_add(o, "removed", json_object_new_boolean(r->removed));
		top_jadd_u64(o, "processes", r->procs);
		for (j = 0; j < w->ncols; j++)
			top_jadd_u64(o, w->cols[j].key, r->v[j]);
		json_object_array_add(rows, o);
	}
	json_object_object_add(env, "rows", rows);
}

int cg_check_args(const struct top_args *a, char *err, size_t errlen)
{
	const char *bad = a->errors ? "-x" : a->by_process ? "-P" :
			  a->peers ? "-r" : a->stacks ? "--stacks" : NULL;

	if (a->what != TOP_SYSCALLS && a->what != TOP_DISK &&
	    a->what != TOP_FILES && a->what != TOP_NET) {
		snprintf(err, errlen, "--by cgroup: for syscalls, disk, files and net only");
		return -1;
	}
	if (bad) {
		snprintf(err, errlen, "%s and --by cgroup: a row per cgroup", bad);
		return -1;
	}
	return 0;
}

/* ---- the four views' columns ---------------------------------------------- */

static bool cg_sc_get(const void *row, uint32_t *tgid, uint64_t *id, uint64_t *v)
{
	const struct sc_row *r = row;

	*tgid = r->tgid;
	*id = r->cgroup_id;
	v[0] = r->count;
	v[1] = r->errors;
	v[2] = r->time_ns;
	return true;
}

static uint64_t cg_sc_key(const uint64_t *v, const struct top_args *a)
{
	return a->sort == TOP_SORT_TIME ? v[2] : v[0];
}

static const struct cg_col cg_sc_cols[] = {
	{ "count", "CALLS", CG_NUM }, { "errors", "ERRORS", CG_NUM },
	{ "time_ns", "TIME", CG_NS },
};

const struct cg_view cg_syscalls = {
	"syscalls", sizeof(struct sc_row), 3, cg_sc_cols, cg_sc_get, cg_sc_key, NULL
};

static bool cg_dk_get(const void *row, uint32_t *tgid, uint64_t *id, uint64_t *v)
{
	const struct dk_row *r = row;

	*tgid = r->tgid;
	*id = r->cgroup_id;
	v[0] = r->read_bytes;
	v[1] = r->read_ops;
	v[2] = r->write_bytes;
	v[3] = r->write_ops;
	return true;
}

static uint64_t cg_dk_key(const uint64_t *v, const struct top_args *a)
{
	(void)a;	/* by bytes, as top disk */
	return v[0] + v[2];
}

static const struct cg_col cg_dk_cols[] = {
	{ "read_bytes", "READ_KB", CG_KIB }, { "read_ops", "R_OPS", CG_NUM },
	{ "write_bytes", "WRITE_KB", CG_KIB }, { "write_ops", "W_OPS", CG_NUM },
};

const struct cg_view cg_disk = {
	"disk", sizeof(struct dk_row), 4, cg_dk_cols, cg_dk_get, cg_dk_key, "bytes"
};

static bool cg_fl_get(const void *row, uint32_t *tgid, uint64_t *id, uint64_t *v)
{
	const struct fl_row *r = row;

	*tgid = r->tgid;
	*id = r->cgroup_id;
	v[0] = r->opens;
	v[1] = r->open_fails;
	v[2] = r->reads;
	v[3] = r->read_bytes;
	v[4] = r->writes;
	v[5] = r->write_bytes;
	return true;
}

static uint64_t cg_fl_key(const uint64_t *v, const struct top_args *a)
{
	switch (a->sort) {
	case TOP_SORT_READS:
		return v[2];
	case TOP_SORT_WRITES:
		return v[4];
	case TOP_SORT_RBYTES:
		return v[3];
	case TOP_SORT_WBYTES:
		return v[5];
	case TOP_SORT_OPENS:
		return v[0] + v[1];
	case TOP_SORT_COUNT:
		return v[0] + v[1] + v[2] + v[4];
	default:
		return v[3] + v[5];
	}
}

static const struct cg_col cg_fl_cols[] = {
	{ "opens", "OPENS", CG_NUM }, { "open_fails", "FAILS", CG_NUM },
	{ "reads", "READS", CG_NUM }, { "read_bytes", "R_KB", CG_KIB },
	{ "writes", "WRITES", CG_NUM }, { "write_bytes", "W_KB", CG_KIB },
};

const struct cg_view cg_files = {
	"files", sizeof(struct fl_row), 6, cg_fl_cols, cg_fl_get, cg_fl_key, NULL
};

/* a process's proto rows only: its peer rows count the same calls again */
static bool cg_nt_get(const void *row, uint32_t *tgid, uint64_t *id, uint64_t *v)
{
	const struct nt_row *r = row;

	*tgid = r->tgid;
	*id = r->cgroup_id;
	v[0] = r->sends;
	v[1] = r->send_bytes;
	v[2] = r->recvs;
	v[3] = r->recv_bytes;
	return r->kind == STACKLAT_NT_KIND_PROTO;
}

static uint64_t cg_nt_key(const uint64_t *v, const struct top_args *a)
{
	switch (a->sort) {
	case TOP_SORT_SENT:
		return v[1];
	case TOP_SORT_RECV:
		return v[3];
	case TOP_SORT_COUNT:
		return v[0] + v[2];
	default:
		return v[1] + v[3];
	}
}

static const struct cg_col cg_nt_cols[] = {
	{ "sends", "SENDS", CG_NUM }, { "send_bytes", "TX_KB", CG_KIB },
	{ "recvs", "RECVS", CG_NUM }, { "recv_bytes", "RX_KB", CG_KIB },
};

const struct cg_view cg_net = {
	"net", sizeof(struct nt_row), 4, cg_nt_cols, cg_nt_get, cg_nt_key, NULL
};
