// SPDX-License-Identifier: GPL-2.0
/*
 * GET_KEYED: the rows of the keyed pipelines (syscalls, disktop, sched,
 * offcpu, cpu, futex, lock) into a keyed_set, a row type each (model.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/genl.h>

#include "nl.h"
#include "nl_priv.h"

/* ---- GET_KEYED -------------------------------------------------------------- */

/* A log2 histogram as syscalls' rows send it, into @hist; -EINVAL if it does not fit. */
static int fill_sc_hist(uint64_t *hist, struct nlattr *first_a, struct nlattr *h)
{
	uint32_t first;
	size_t nb, i;

	if (!h)
		return 0;
	first = get_u32(first_a);
	nb = (size_t)nla_len(h) / sizeof(uint64_t);
	if (first >= STACKLAT_SC_NBUCKETS || nb > STACKLAT_SC_NBUCKETS - first)
		return -EINVAL;
	for (i = 0; i < nb; i++)
		memcpy(&hist[first + i], (const char *)nla_data(h) + i * 8, 8);
	return 0;
}

/* The row's attributes from @nest into @row (zeroed); 0 or a negative errno. */
static int fill_sc_row(void *row, struct nlattr *nest)
{
	struct nlattr *t[STACKLAT_SC_A_MAX + 1], *et[STACKLAT_SC_ERRNO_A_MAX + 1], *a;
	struct sc_row *r = row;
	int rem;

	if (nla_parse_nested(t, STACKLAT_SC_A_MAX, nest, NULL) ||
	    !t[STACKLAT_SC_A_TGID] || !t[STACKLAT_SC_A_NR])
		return -EINVAL;
	r->tgid = get_u32(t[STACKLAT_SC_A_TGID]);
	r->abi = get_u32(t[STACKLAT_SC_A_ABI]);
	r->nr = get_u32(t[STACKLAT_SC_A_NR]);
	copy_str(r->comm, sizeof(r->comm), t[STACKLAT_SC_A_COMM]);
	r->count = get_u64(t[STACKLAT_SC_A_COUNT]);
	r->errors = get_u64(t[STACKLAT_SC_A_ERRORS]);
	r->time_ns = get_u64(t[STACKLAT_SC_A_TIME_NS]);
	r->untimed = get_u64(t[STACKLAT_SC_A_UNTIMED]);
	r->max_ns = get_u64(t[STACKLAT_SC_A_MAX_NS]);
	r->errno_other = get_u64(t[STACKLAT_SC_A_ERRNO_OTHER]);
	r->cgroup_id = get_u64(t[STACKLAT_SC_A_CGROUP_ID]);
	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) != STACKLAT_SC_A_ERRNO)
			continue;
		if (nla_parse_nested(et, STACKLAT_SC_ERRNO_A_MAX, a, NULL))
			return -EINVAL;
		if (r->nerr < STACKLAT_SC_ERRNOS) {
			r->errs[r->nerr].err = get_u32(et[STACKLAT_SC_ERRNO_A_ERRNO]);
			r->errs[r->nerr++].count = get_u64(et[STACKLAT_SC_ERRNO_A_COUNT]);
		} else {
			r->errno_other += get_u64(et[STACKLAT_SC_ERRNO_A_COUNT]);
		}
	}
	return fill_sc_hist(r->hist, t[STACKLAT_SC_A_HIST_FIRST], t[STACKLAT_SC_A_HIST]);
}

static int fill_dk_row(void *row, struct nlattr *nest)
{
	struct nlattr *t[STACKLAT_DK_A_MAX + 1];
	struct dk_row *r = row;

	if (nla_parse_nested(t, STACKLAT_DK_A_MAX, nest, NULL) ||
	    !t[STACKLAT_DK_A_TGID] || !t[STACKLAT_DK_A_DEV])
		return -EINVAL;
	r->tgid = get_u32(t[STACKLAT_DK_A_TGID]);
	r->dev = get_u32(t[STACKLAT_DK_A_DEV]);
	copy_str(r->comm, sizeof(r->comm), t[STACKLAT_DK_A_COMM]);
	r->ops = get_u64(t[STACKLAT_DK_A_OPS]);
	r->read_bytes = get_u64(t[STACKLAT_DK_A_READ_BYTES]);
	r->read_ops = get_u64(t[STACKLAT_DK_A_READ_OPS]);
	r->write_bytes = get_u64(t[STACKLAT_DK_A_WRITE_BYTES]);
	r->write_ops = get_u64(t[STACKLAT_DK_A_WRITE_OPS]);
	r->discard_bytes = get_u64(t[STACKLAT_DK_A_DISCARD_BYTES]);
	r->discard_ops = get_u64(t[STACKLAT_DK_A_DISCARD_OPS]);
	r->flush_ops = get_u64(t[STACKLAT_DK_A_FLUSH_OPS]);
	r->other_ops = get_u64(t[STACKLAT_DK_A_OTHER_OPS]);
	r->cgroup_id = get_u64(t[STACKLAT_DK_A_CGROUP_ID]);
	return 0;
}

static int fill_sd_row(void *row, struct nlattr *nest)
{
	struct nlattr *t[STACKLAT_SD_A_MAX + 1];
	struct sd_row *r = row;

	if (nla_parse_nested(t, STACKLAT_SD_A_MAX, nest, NULL) ||
	    !t[STACKLAT_SD_A_TGID] || !t[STACKLAT_SD_A_TID])
		return -EINVAL;
	r->tgid = get_u32(t[STACKLAT_SD_A_TGID]);
	r->tid = get_u32(t[STACKLAT_SD_A_TID]);
	copy_str(r->comm, sizeof(r->comm), t[STACKLAT_SD_A_COMM]);
	copy_str(r->tcomm, sizeof(r->tcomm), t[STACKLAT_SD_A_THREAD_COMM]);
	r->count = get_u64(t[STACKLAT_SD_A_COUNT]);
	r->time_ns = get_u64(t[STACKLAT_SD_A_TIME_NS]);
	r->max_ns = get_u64(t[STACKLAT_SD_A_MAX_NS]);
	r->preempted = get_u64(t[STACKLAT_SD_A_PREEMPTED]);
	r->user_tick_ns = get_u64(t[STACKLAT_SD_A_USER_TICK_NS]);
	r->sys_tick_ns = get_u64(t[STACKLAT_SD_A_SYS_TICK_NS]);
	return fill_sc_hist(r->hist, t[STACKLAT_SD_A_HIST_FIRST], t[STACKLAT_SD_A_HIST]);
}

static int fill_oc_row(void *row, struct nlattr *nest)
{
	struct nlattr *t[STACKLAT_OC_A_MAX + 1];
	struct oc_row *r = row;

	if (nla_parse_nested(t, STACKLAT_OC_A_MAX, nest, NULL) ||
	    !t[STACKLAT_OC_A_TGID] || !t[STACKLAT_OC_A_STACK_ID])
		return -EINVAL;
	r->tgid = get_u32(t[STACKLAT_OC_A_TGID]);
	r->stack = get_u32(t[STACKLAT_OC_A_STACK_ID]);
	copy_str(r->comm, sizeof(r->comm), t[STACKLAT_OC_A_COMM]);
	copy_str(r->reason, sizeof(r->reason), t[STACKLAT_OC_A_REASON]);
	if (!r->reason[0])
		strcpy(r->reason, "?");
	r->count = get_u64(t[STACKLAT_OC_A_COUNT]);
	r->time_ns = get_u64(t[STACKLAT_OC_A_TIME_NS]);
	r->max_ns = get_u64(t[STACKLAT_OC_A_MAX_NS]);
	return fill_sc_hist(r->hist, t[STACKLAT_OC_A_HIST_FIRST], t[STACKLAT_OC_A_HIST]);
}

/* A keyed pipeline's rows: their type, and the set they go to. */
struct keyed_dump {
	size_t size;				/* of a row */
	int (*fill)(void *row, struct nlattr *nest);
	struct keyed_set *s;
};

/* One GET_KEYED row, appended to the dump's set. */
static int parse_keyed_row(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[STACKLAT_A_MAX + 1];
	struct keyed_dump *d = arg;
	struct keyed_set *s = d->s;
	void *row;
	int err;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, STACKLAT_A_MAX, NULL) ||
	    !tb[STACKLAT_A_KEYED])
		return -EINVAL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		void *nr = realloc(s->r, cap * d->size);

		if (!nr)
			return -ENOMEM;
		s->r = nr;
		s->cap = cap;
	}
	row = (char *)s->r + s->n * d->size;
	memset(row, 0, d->size);
	err = d->fill(row, tb[STACKLAT_A_KEYED]);
	if (err)
		return err;
	s->n++;
	s->generation = get_u64(tb[STACKLAT_A_GENERATION]);
	return 0;
}

void keyed_set_free(struct keyed_set *s)
{
	free(s->r);
	memset(s, 0, sizeof(*s));
}

static void clear_keyed(void *arg)
{
	struct keyed_set *s = ((struct keyed_dump *)arg)->s;

	s->n = 0;
	s->generation = 0;
}

static void get_keyed(const char *pipe, size_t size,
		      int (*fill)(void *row, struct nlattr *nest), struct keyed_set *s)
{
	struct keyed_dump d = { .size = size, .fill = fill, .s = s };

	dump_retry(STACKLAT_CMD_GET_KEYED, pipe, pipe, parse_keyed_row, &d, clear_keyed);
}

void sl_nl_get_syscalls(struct keyed_set *s)
{
	get_keyed("syscalls", sizeof(struct sc_row), fill_sc_row, s);
}

void sl_nl_get_disktop(struct keyed_set *s)
{
	get_keyed("disktop", sizeof(struct dk_row), fill_dk_row, s);
}

void sl_nl_get_sched(struct keyed_set *s)
{
	get_keyed("sched", sizeof(struct sd_row), fill_sd_row, s);
}

static int fill_fx_row(void *row, struct nlattr *nest)
{
	struct nlattr *t[STACKLAT_FX_A_MAX + 1];
	struct fx_row *r = row;

	if (nla_parse_nested(t, STACKLAT_FX_A_MAX, nest, NULL) ||
	    !t[STACKLAT_FX_A_TGID] || !t[STACKLAT_FX_A_UADDR])
		return -EINVAL;
	r->tgid = get_u32(t[STACKLAT_FX_A_TGID]);
	copy_str(r->comm, sizeof(r->comm), t[STACKLAT_FX_A_COMM]);
	r->uaddr = get_u64(t[STACKLAT_FX_A_UADDR]);
	r->count = get_u64(t[STACKLAT_FX_A_WAITS]);
	r->eagain = get_u64(t[STACKLAT_FX_A_EAGAIN]);
	r->time_ns = get_u64(t[STACKLAT_FX_A_TIME_NS]);
	r->max_ns = get_u64(t[STACKLAT_FX_A_MAX_NS]);
	r->waker = get_u32(t[STACKLAT_FX_A_WAKER]);
	r->alias = get_u64(t[STACKLAT_FX_A_ALIAS]);
	return fill_sc_hist(r->hist, t[STACKLAT_FX_A_HIST_FIRST], t[STACKLAT_FX_A_HIST]);
}

void sl_nl_get_futex(struct keyed_set *s)
{
	get_keyed("futex", sizeof(struct fx_row), fill_fx_row, s);
}

static int fill_fl_row(void *row, struct nlattr *nest)
{
	struct nlattr *t[STACKLAT_FL_A_MAX + 1], *et[STACKLAT_SC_ERRNO_A_MAX + 1], *a;
	struct fl_row *r = row;
	int rem;

	if (nla_parse_nested(t, STACKLAT_FL_A_MAX, nest, NULL) ||
	    !t[STACKLAT_FL_A_TGID] || !t[STACKLAT_FL_A_DEV])
		return -EINVAL;
	r->tgid = get_u32(t[STACKLAT_FL_A_TGID]);
	copy_str(r->comm, sizeof(r->comm), t[STACKLAT_FL_A_COMM]);
	r->dev = get_u32(t[STACKLAT_FL_A_DEV]);
	r->ino = get_u64(t[STACKLAT_FL_A_INO]);
	copy_str(r->name, sizeof(r->name), t[STACKLAT_FL_A_NAME]);
	copy_str(r->fstype, sizeof(r->fstype), t[STACKLAT_FL_A_FSTYPE]);
	r->opens = get_u64(t[STACKLAT_FL_A_OPENS]);
	r->open_fails = get_u64(t[STACKLAT_FL_A_OPEN_FAILS]);
	r->errno_other = get_u64(t[STACKLAT_FL_A_ERRNO_OTHER]);
	r->reads = get_u64(t[STACKLAT_FL_A_READS]);
	r->read_errors = get_u64(t[STACKLAT_FL_A_READ_ERRORS]);
	r->read_bytes = get_u64(t[STACKLAT_FL_A_READ_BYTES]);
	r->writes = get_u64(t[STACKLAT_FL_A_WRITES]);
	r->write_errors = get_u64(t[STACKLAT_FL_A_WRITE_ERRORS]);
	r->write_bytes = get_u64(t[STACKLAT_FL_A_WRITE_BYTES]);
	r->alias = get_u64(t[STACKLAT_FL_A_ALIAS]);
	r->cgroup_id = get_u64(t[STACKLAT_FL_A_CGROUP_ID]);
	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) != STACKLAT_FL_A_ERRNO)
			continue;
		if (nla_parse_nested(et, STACKLAT_SC_ERRNO_A_MAX, a, NULL))
			return -EINVAL;
		if (r->nerr < FL_ERRNOS) {
			r->errs[r->nerr].err = get_u32(et[STACKLAT_SC_ERRNO_A_ERRNO]);
			r->errs[r->nerr++].count = get_u64(et[STACKLAT_SC_ERRNO_A_COUNT]);
		} else {
			r->errno_other += get_u64(et[STACKLAT_SC_ERRNO_A_COUNT]);
		}
	}
	return 0;
}

void sl_nl_get_files(struct keyed_set *s)
{
	get_keyed("files", sizeof(struct fl_row), fill_fl_row, s);
}

static int fill_nt_row(void *row, struct nlattr *nest)
{
	struct nlattr *t[STACKLAT_NT_A_MAX + 1];
	struct nt_row *r = row;

	if (nla_parse_nested(t, STACKLAT_NT_A_MAX, nest, NULL) ||
	    !t[STACKLAT_NT_A_TGID] || !t[STACKLAT_NT_A_PROTO])
		return -EINVAL;
	r->tgid = get_u32(t[STACKLAT_NT_A_TGID]);
	copy_str(r->comm, sizeof(r->comm), t[STACKLAT_NT_A_COMM]);
	r->kind = get_u32(t[STACKLAT_NT_A_KIND]);
	r->proto = get_u32(t[STACKLAT_NT_A_PROTO]);
	r->lport = get_u32(t[STACKLAT_NT_A_LPORT]);
	r->rport = get_u32(t[STACKLAT_NT_A_RPORT]);
	if (t[STACKLAT_NT_A_RADDR] && nla_len(t[STACKLAT_NT_A_RADDR]) == 16)
		memcpy(r->raddr, nla_data(t[STACKLAT_NT_A_RADDR]), 16);
	r->sends = get_u64(t[STACKLAT_NT_A_SENDS]);
	r->send_errors = get_u64(t[STACKLAT_NT_A_SEND_ERRORS]);
	r->send_bytes = get_u64(t[STACKLAT_NT_A_SEND_BYTES]);
	r->recvs = get_u64(t[STACKLAT_NT_A_RECVS]);
	r->recv_errors = get_u64(t[STACKLAT_NT_A_RECV_ERRORS]);
	r->recv_bytes = get_u64(t[STACKLAT_NT_A_RECV_BYTES]);
	r->alias = get_u64(t[STACKLAT_NT_A_ALIAS]);
	r->cgroup_id = get_u64(t[STACKLAT_NT_A_CGROUP_ID]);
	return 0;
}

void sl_nl_get_nettop(struct keyed_set *s)
{
	get_keyed("nettop", sizeof(struct nt_row), fill_nt_row, s);
}

static int fill_lk_row(void *row, struct nlattr *nest)
{
	struct nlattr *t[STACKLAT_LK_A_MAX + 1];
	struct lk_row *r = row;

	if (nla_parse_nested(t, STACKLAT_LK_A_MAX, nest, NULL) ||
	    !t[STACKLAT_LK_A_FLAGS] || !t[STACKLAT_LK_A_CALLER])
		return -EINVAL;
	r->flags = get_u32(t[STACKLAT_LK_A_FLAGS]);
	copy_str(r->type, sizeof(r->type), t[STACKLAT_LK_A_TYPE]);
	copy_str(r->caller, sizeof(r->caller), t[STACKLAT_LK_A_CALLER]);
	r->count = get_u64(t[STACKLAT_LK_A_WAITS]);
	r->failed = get_u64(t[STACKLAT_LK_A_FAILED]);
	r->time_ns = get_u64(t[STACKLAT_LK_A_TIME_NS]);
	r->max_ns = get_u64(t[STACKLAT_LK_A_MAX_NS]);
	r->nested = get_u64(t[STACKLAT_LK_A_NESTED]);
	r->stack_id = get_u32(t[STACKLAT_LK_A_STACK_ID]);
	r->alias = get_u64(t[STACKLAT_LK_A_ALIAS]);
	return fill_sc_hist(r->hist, t[STACKLAT_LK_A_HIST_FIRST], t[STACKLAT_LK_A_HIST]);
}

void sl_nl_get_lock(struct keyed_set *s)
{
	get_keyed("lock", sizeof(struct lk_row), fill_lk_row, s);
}

void sl_nl_get_offcpu(struct keyed_set *s)
{
	get_keyed("offcpu", sizeof(struct oc_row), fill_oc_row, s);
}

void sl_nl_get_cpu(struct keyed_set *s)
{
	get_keyed("cpu", sizeof(struct sd_row), fill_sd_row, s);
}
