// SPDX-License-Identifier: GPL-2.0
/*
 * "stacklat top net": the nettop pipeline's rows - bcc's tcptop, socktop,
 * sysdig's topprocs_net - bytes and calls sent and received, one row per
 * (process, protocol), with -P summed per process, with -r one per
 * (process, protocol, local port, peer).  Pure logic (see top.h).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "top.h"

static const struct {
	const char *word;
	enum top_sort sort;
} nt_sorts[] = {
	{ "bytes", TOP_SORT_BYTES },
	{ "sent", TOP_SORT_SENT },
	{ "recv", TOP_SORT_RECV },
};

static const char *const nt_protos[] = { "tcp4", "tcp6", "udp4", "udp6" };

int nt_sort_parse(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof(nt_sorts) / sizeof(nt_sorts[0]); i++)
		if (!strcmp(word, nt_sorts[i].word))
			return (int)nt_sorts[i].sort;
	return -1;
}

static const char *nt_sort_name(enum top_sort s)
{
	size_t i;

	for (i = 0; i < sizeof(nt_sorts) / sizeof(nt_sorts[0]); i++)
		if (nt_sorts[i].sort == s)
			return nt_sorts[i].word;
	return "count";
}

static const char *nt_proto(uint32_t p)
{
	return p < sizeof(nt_protos) / sizeof(nt_protos[0]) ? nt_protos[p] : "?";
}

int nt_check_args(const struct top_args *a, char *err, size_t errlen)
{
	if (a->errors || a->stacks) {
		snprintf(err, errlen, "%s: not for net (a row per process and protocol; -P: per process; -r: per peer)",
			 a->errors ? "-x" : "--stacks");
		return -1;
	}
	if (a->sort != TOP_SORT_COUNT && a->sort != TOP_SORT_BYTES &&
	    a->sort != TOP_SORT_SENT && a->sort != TOP_SORT_RECV) {
		snprintf(err, errlen, "-s: net sorts by 'bytes', 'sent', 'recv' or 'count' (all calls)");
		return -1;
	}
	if (a->by_process && a->peers) {
		snprintf(err, errlen, "-P and -r: a row per process, or per peer");
		return -1;
	}
	return 0;
}

static int nt_cmp_key(const void *x, const void *y)
{
	const struct nt_row *a = x, *b = y;

	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->proto != b->proto)
		return a->proto < b->proto ? -1 : 1;
	if (a->lport != b->lport)
		return a->lport < b->lport ? -1 : 1;
	if (a->rport != b->rport)
		return a->rport < b->rport ? -1 : 1;
	return memcmp(a->raddr, b->raddr, sizeof(a->raddr));
}

/* @c minus @p; false when @p is not a past of @c (a reset) */
static bool nt_row_minus(void *cv, const void *pv)
{
	struct nt_row *c = cv;
	const struct nt_row *p = pv;

	if (c->sends < p->sends || c->send_errors < p->send_errors ||
	    c->send_bytes < p->send_bytes || c->recvs < p->recvs ||
	    c->recv_errors < p->recv_errors ||
	    c->recv_bytes < p->recv_bytes || c->alias < p->alias)
		return false;
	c->sends -= p->sends;
	c->send_errors -= p->send_errors;
	c->send_bytes -= p->send_bytes;
	c->recvs -= p->recvs;
	c->recv_errors -= p->recv_errors;
	c->recv_bytes -= p->recv_bytes;
	c->alias -= p->alias;
	return true;
}

static bool nt_row_active(const void *rv)
{
	const struct nt_row *r = rv;

	return r->sends || r->recvs;
}

int nt_delta(const struct keyed_set *cur, const struct keyed_set *prev,
	     struct keyed_set *out)
{
	static const struct keyed_ops ops = {
		sizeof(struct nt_row), nt_cmp_key, nt_row_minus, nt_row_active
	};

	return keyed_delta(&ops, cur, prev, out);
}

void nt_table_free(struct nt_table *t)
{
	free(t->r);
	memset(t, 0, sizeof(*t));
}

static enum top_sort nt_sort;

static uint64_t nt_sort_key(const struct nt_shown *r)
{
	switch (nt_sort) {
	case TOP_SORT_SENT:
		return r->send_bytes;
	case TOP_SORT_RECV:
		return r->recv_bytes;
	case TOP_SORT_COUNT:
		return r->sends + r->recvs;
	default:
		return r->send_bytes + r->recv_bytes;
	}
}

static int nt_cmp_rows(const void *x, const void *y)
{
	const struct nt_shown *a = x, *b = y;
	uint64_t ka = nt_sort_key(a), kb = nt_sort_key(b);
	uint64_t ca = a->sends + a->recvs, cb = b->sends + b->recvs;

	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (ca != cb)
		return ca > cb ? -1 : 1;
	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	if (a->row && b->row)
		return nt_cmp_key(a->row, b->row);
	return 0;
}

int nt_build(const struct keyed_set *s, const struct top_args *a,
	     struct nt_table *t)
{
	uint32_t kind = a->peers ? STACKLAT_NT_KIND_PEER : STACKLAT_NT_KIND_PROTO;
	struct nt_shown *r;
	size_t i, j;

	memset(t, 0, sizeof(*t));
	t->r = calloc(s->n + 1, sizeof(*t->r));
	if (!t->r)
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct nt_row *x = (const struct nt_row *)s->r + i;

		if (x->kind != kind || (a->pid && x->tgid != a->pid))
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
		r->sends += x->sends;
		r->send_errors += x->send_errors;
		r->send_bytes += x->send_bytes;
		r->recvs += x->recvs;
		r->recv_errors += x->recv_errors;
		r->recv_bytes += x->recv_bytes;
		t->sends += x->sends;
		t->send_bytes += x->send_bytes;
		t->recvs += x->recvs;
		t->recv_bytes += x->recv_bytes;
		t->alias += x->alias;
	}
	nt_sort = a->sort;
	qsort(t->r, t->n, sizeof(*t->r), nt_cmp_rows);
	t->total = t->n;
	if (a->top && t->n > a->top)
		t->n = a->top;
	return 0;
}

const char *nt_addr(const uint8_t *a, char *buf, size_t len)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };
	static const uint8_t none[16];

	if (!memcmp(a, none, 16) ||
	    (!memcmp(a, mapped, 12) && !memcmp(a + 12, none, 4)))
		snprintf(buf, len, "*");
	else if (!memcmp(a, mapped, 12))
		inet_ntop(AF_INET, a + 12, buf, (socklen_t)len);
	else
		inet_ntop(AF_INET6, a, buf, (socklen_t)len);
	return buf;
}

/* "[::1]:80", "1.2.3.4:80", "*:0" */
static const char *nt_peer(const struct nt_row *r, char *buf, size_t len)
{
	char ab[INET6_ADDRSTRLEN];
	bool v6 = r->proto == STACKLAT_NT_TCP6 || r->proto == STACKLAT_NT_UDP6;

	nt_addr(r->raddr, ab, sizeof(ab));
	snprintf(buf, len, v6 && strchr(ab, ':') ? "[%s]:%u" : "%s:%u", ab,
		 r->rport);
	return buf;
}

void nt_render(FILE *f, const struct nt_table *t, const struct top_args *a)
{
	char peer[INET6_ADDRSTRLEN + 16];
	size_t i;

	fprintf(f, "%-8s %-16s ", "PID", "COMM");
	if (!a->by_process)
		fprintf(f, "%-5s ", "PROTO");
	fprintf(f, "%8s %10s %8s %10s", "SENDS", "TX_KB", "RECVS", "RX_KB");
	if (a->peers)
		fprintf(f, " %6s %s", "LPORT", "PEER");
	fprintf(f, "\n");
	for (i = 0; i < t->n; i++) {
		const struct nt_shown *r = &t->r[i];

		fprintf(f, "%-8u %-16s ", r->tgid, r->comm[0] ? r->comm : "-");
		if (r->row)
			fprintf(f, "%-5s ", nt_proto(r->row->proto));
		fprintf(f, "%8" PRIu64 " %10" PRIu64 " %8" PRIu64 " %10" PRIu64,
			r->sends, r->send_bytes / 1024, r->recvs,
			r->recv_bytes / 1024);
		if (a->peers && r->row)
			fprintf(f, " %6u %s", r->row->lport,
				nt_peer(r->row, peer, sizeof(peer)));
		fprintf(f, "\n");
	}
	if (t->total > t->n)
		fprintf(f, "(%zu more not shown: -n 0 shows all)\n",
			t->total - t->n);
}

void nt_json(struct json_object *env, const struct nt_table *t,
	     const struct top_args *a)
{
	struct json_object *rows = json_object_new_array(), *o;
	char ab[INET6_ADDRSTRLEN];
	size_t i;

	json_object_object_add(env, "what", top_jstr("net"));
	json_object_object_add(env, "by", top_jstr(a->by_process ? "process" :
						   a->peers ? "peer" : "proto"));
	json_object_object_add(env, "pid", a->pid ? json_object_new_uint64(a->pid) : NULL);
	json_object_object_add(env, "sort", top_jstr(nt_sort_name(a->sort)));
	top_jadd_u64(env, "sends", t->sends);
	top_jadd_u64(env, "send_bytes", t->send_bytes);
	top_jadd_u64(env, "recvs", t->recvs);
	top_jadd_u64(env, "recv_bytes", t->recv_bytes);
	top_jadd_u64(env, "total", t->total);
	for (i = 0; i < t->n; i++) {
		const struct nt_shown *r = &t->r[i];

		o = json_object_new_object();
		top_jadd_u64(o, "tgid", r->tgid);
		json_object_object_add(o, "comm", top_jstr(r->comm));
		if (r->row)
			json_object_object_add(o, "proto", top_jstr(nt_proto(r->row->proto)));
		if (r->row && a->peers) {
			top_jadd_u64(o, "lport", r->row->lport);
			json_object_object_add(o, "raddr",
					       top_jstr(nt_addr(r->row->raddr, ab, sizeof(ab))));
			top_jadd_u64(o, "rport", r->row->rport);
			top_jadd_u64(o, "alias", r->row->alias);
		}
		top_jadd_u64(o, "sends", r->sends);
		top_jadd_u64(o, "send_errors", r->send_errors);
		top_jadd_u64(o, "send_bytes", r->send_bytes);
		top_jadd_u64(o, "recvs", r->recvs);
		top_jadd_u64(o, "recv_errors", r->recv_errors);
		top_jadd_u64(o, "recv_bytes", r->recv_bytes);
		if (r->row)
			cg_jadd(o, r->row->cgroup_id);
		json_object_array_add(rows, o);
	}
	json_object_object_add(env, "rows", rows);
}
