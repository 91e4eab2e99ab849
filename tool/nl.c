// SPDX-License-Identifier: GPL-2.0
/*
 * The stacklat generic netlink family through libnl-genl-3: the socket,
 * a request and its replies, what the other nl_*.c share (nl_priv.h), and
 * GET_STATUS, GET_PIPELINES, GET_HIST and GET_INFLIGHT.  GET_KEYED's rows
 * are nl_keyed.c's, GET_EVENTS and GET_STACKS nl_events.c's, the changes
 * nl_ctl.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "format.h"
#include "histo.h"
#include "nl.h"
#include "nl_priv.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

static struct nl_sock *sk;
static int family = -1;

/* What one request/reply exchange came to. */
struct xfer {
	bool done;		/* ACK, DONE or error seen */
	bool intr;		/* a reply had NLM_F_DUMP_INTR */
	int kerr;		/* negative errno from the kernel, or 0 */
	char kmsg[256];		/* the kernel's extack message, if any */
	int (*parse)(struct nl_msg *msg, void *arg);
	void *arg;
	int perr;		/* the parse callback failed */
};

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct xfer *x = arg;

	if (nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP_INTR)
		x->intr = true;
	if (x->parse && !x->perr)
		x->perr = x->parse(msg, x->arg);
	return NL_OK;
}

static int on_intr(struct nl_msg *msg, void *arg)
{
	(void)msg;
	((struct xfer *)arg)->intr = true;
	return NL_OK;
}

/*
 * The end of a dump, or an ACK.  A dump the kernel had to stop (EMSGSIZE:
 * an item larger than a message) ends with NLMSG_DONE carrying the
 * negative errno: that is an error, not an empty result.
 */
static int on_done(struct nl_msg *msg, void *arg)
{
	const struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct xfer *x = arg;
	int err;

	x->done = true;
	if (nlh->nlmsg_type == NLMSG_DONE &&
	    nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(err)) {
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
		if (err < 0 && !x->kerr)
			x->kerr = err;
	}
	return NL_STOP;
}

/* Kernel errors, with the extack message (NLMSGERR_ATTR_MSG) if any. */
static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)e - 1;
	struct xfer *x = arg;
	const struct nlattr *a;
	size_t off, end;

	(void)nla;
	x->done = true;
	x->kerr = e->error;
	x->kmsg[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e))
		return NL_STOP;
	end = nlh->nlmsg_len - NLMSG_HDRLEN;
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	off = NLMSG_ALIGN(off);
	while (off + NLA_HDRLEN <= end) {
		a = (const struct nlattr *)((const char *)e + off);
		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > end)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG &&
		    a->nla_len > NLA_HDRLEN)
			snprintf(x->kmsg, sizeof(x->kmsg), "%.*s",
				 (int)(a->nla_len - NLA_HDRLEN),
				 (const char *)a + NLA_HDRLEN);
		off += NLA_ALIGN(a->nla_len);
	}
	return NL_STOP;
}

void sl_nl_open(void)
{
	int one = 1, err;

	sk = nl_socket_alloc();
	if (!sk)
		fatal("out of memory");
	err = genl_connect(sk);
	if (err)
		fatal("cannot open a generic netlink socket: %s", nl_geterror(err));
	/* best effort: older kernels lack these, errors then stay plain */
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	nl_socket_set_buffer_size(sk, 1 << 20, 0);
	nl_socket_enable_msg_peek(sk);
	family = genl_ctrl_resolve(sk, STACKLAT_GENL_NAME);
	if (family < 0) {
		if (family == -NLE_OBJ_NOTFOUND)
			fatal("kernel module not loaded: modprobe stacklat");
		fatal("kernel module not loaded: modprobe stacklat (resolving the '%s' family: %s)",
		      STACKLAT_GENL_NAME, nl_geterror(family));
	}
}

void sl_nl_close(void)
{
	if (sk)
		nl_socket_free(sk);
	sk = NULL;
}

struct nl_msg *new_msg(uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				 flags, cmd, STACKLAT_GENL_VERSION))
		fatal("out of memory");
	return msg;
}

void put_name(struct nl_msg *msg, int attr, const char *s)
{
	if (nla_put_string(msg, attr, s))
		fatal("out of memory");
}

/* @enoent: what ENOENT means when the kernel says no more (dump starts) */
/* What a refused change undoes of the ones before it (sl_nl_on_fail()). */
static void (*nl_undo)(void *arg);
static void *nl_undo_arg;

void sl_nl_on_fail(void (*undo)(void *arg), void *arg)
{
	nl_undo = undo;
	nl_undo_arg = arg;
}

static void kernel_fail(const char *what, const struct xfer *x, const char *enoent)
{
	void (*undo)(void *arg) = nl_undo;
	char e[128];
	int err = -x->kerr;

	nl_undo = NULL;		/* once: the undoing may fail too */
	if (undo)
		undo(nl_undo_arg);

	if (err == EPERM || err == EACCES)
		fatal("%s: permission denied: %s", what, x->kmsg[0] ? x->kmsg :
		      "changes need CAP_SYS_ADMIN or CAP_PERFMON, reads CAP_NET_ADMIN or CAP_PERFMON");
	if (x->kmsg[0])
		fatal("%s: %s (%s)", what, x->kmsg, errno_text(err, e, sizeof(e)));
	/* the family itself may be gone: the module unloaded meanwhile */
	if ((err == ENOENT || err == EOPNOTSUPP) &&
	    genl_ctrl_resolve(sk, STACKLAT_GENL_NAME) != family)
		fatal("%s: kernel module not loaded (any more): modprobe stacklat", what);
	if (err == ENOENT && enoent)
		fatal("%s: %s", what, enoent);
	fatal("%s: %s", what, strerror(err));
}

/*
 * Send @msg (freed) and read every reply until the ACK, the end of the dump
 * or an error; @parse (may be NULL) sees each data message.  Returns true
 * if the dump was interrupted (NLM_F_DUMP_INTR) and should be retried.
 */
bool transact(struct nl_msg *msg, const char *what,
	      int (*parse)(struct nl_msg *, void *), void *arg,
	      const char *enoent)
{
	struct xfer x = { .parse = parse, .arg = arg };
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int ret;

	if (!cb)
		fatal("out of memory");
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &x);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, on_intr, &x);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_done, &x);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_done, &x);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &x);
	ret = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (ret < 0)
		fatal("%s: cannot send to the kernel: %s", what, nl_geterror(ret));
	while (!x.done) {
		ret = nl_recvmsgs(sk, cb);
		if (x.kerr)
			break;
		if (ret == -NLE_DUMP_INTR) {
			x.intr = true;
			continue;
		}
		if (ret < 0) {
			nl_cb_put(cb);
			fatal("%s: reading the kernel's reply: %s", what, nl_geterror(ret));
		}
	}
	nl_cb_put(cb);
	if (x.kerr)
		kernel_fail(what, &x, enoent);
	if (x.perr)
		fatal("%s: %s", what, x.perr == -ENOMEM ? "out of memory" :
		      "malformed reply from the module (tool and module from different versions?)");
	return x.intr;
}

/*
 * The change requests (NLM_F_ACK): @cmd, about @pipe (NULL: none), for
 * its attributes; change() sends it.
 */
struct nl_msg *change_msg(uint8_t cmd, const char *pipe)
{
	struct nl_msg *msg = new_msg(cmd, NLM_F_ACK);

	if (pipe)
		put_name(msg, STACKLAT_A_PIPELINE_NAME, pipe);
	return msg;
}

/* Send @msg (freed) and wait for the ACK; a refusal names @fmt's words. */
void change(struct nl_msg *msg, const char *fmt, ...)
{
	char what[STACKLAT_SYM_MAX + STACKLAT_NAME_MAX + 16];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	transact(msg, what, NULL, NULL, NULL);
}

/* ---- attributes and dumps, shared with nl_*.c (nl_priv.h) ------------------- */

void copy_str(char *dst, size_t len, struct nlattr *a)
{
	if (a)
		snprintf(dst, len, "%.*s", nla_len(a), (const char *)nla_data(a));
}

uint32_t get_u32(struct nlattr *a)
{
	return a && nla_len(a) >= 4 ? nla_get_u32(a) : 0;
}

uint64_t get_u64(struct nlattr *a)
{
	return a && nla_len(a) >= 8 ? nla_get_u64(a) : 0;
}

int count_nested(struct nlattr *nest, int type)
{
	struct nlattr *a;
	int rem, n = 0;

	nla_for_each_nested(a, nest, rem)
		if (nla_type(a) == type)
			n++;
	return n;
}

/*
 * Dump @cmd for @pipe (NULL: all) into @arg through @parse, from scratch
 * (@clear) each time the dump comes back interrupted.
 */
void dump_retry(uint8_t cmd, const char *pipe, const char *what,
		int (*parse)(struct nl_msg *, void *), void *arg,
		void (*clear)(void *))
{
	struct nl_msg *msg;
	int tries;

	for (tries = 0; tries < SL_NL_DUMP_TRIES; tries++) {
		clear(arg);
		msg = new_msg(cmd, NLM_F_DUMP);
		if (pipe)
			put_name(msg, STACKLAT_A_PIPELINE_NAME, pipe);
		if (!transact(msg, pipe ? pipe : what, parse, arg, "no such pipeline"))
			return;
	}
	fatal("%s: the module's state kept changing during %d dumps", what, tries);
}

/* Does the module know attribute @attr (its family's maxattr)?  Once. */
bool module_knows(int attr)
{
	static int maxattr = -1;
	struct nl_cache *cache;
	struct genl_family *fam;

	if (maxattr < 0) {
		maxattr = 0;
		if (!genl_ctrl_alloc_cache(sk, &cache)) {
			fam = genl_ctrl_search_by_name(cache, STACKLAT_GENL_NAME);
			if (fam) {
				maxattr = (int)genl_family_get_maxattr(fam);
				genl_family_put(fam);
			}
			nl_cache_free(cache);
		}
	}
	return attr <= maxattr;
}

/* ---- GET_STATUS ---------------------------------------------------------- */

static int parse_status(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[STACKLAT_A_MAX + 1], *ft[STACKLAT_FLIGHT_A_MAX + 1];
	struct nlattr *et[STACKLAT_EVENTS_A_MAX + 1];
	struct status_info *st = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, STACKLAT_A_MAX, NULL))
		return -EINVAL;
	copy_str(st->version, sizeof(st->version), tb[STACKLAT_A_MODULE_VERSION]);
	copy_str(st->release, sizeof(st->release), tb[STACKLAT_A_KERNEL_RELEASE]);
	copy_str(st->clock, sizeof(st->clock), tb[STACKLAT_A_CLOCK]);
	st->nr_pipelines = get_u32(tb[STACKLAT_A_NR_PIPELINES]);
	if (tb[STACKLAT_A_FLIGHT] &&
	    !nla_parse_nested(ft, STACKLAT_FLIGHT_A_MAX, tb[STACKLAT_A_FLIGHT], NULL)) {
		st->has_flight = true;
		st->flight_size = get_u32(ft[STACKLAT_FLIGHT_A_SIZE]);
		st->flight_used = get_u32(ft[STACKLAT_FLIGHT_A_USED]);
		st->flight_max_age_ns = get_u64(ft[STACKLAT_FLIGHT_A_MAX_AGE_NS]);
		st->flight_inserts = get_u64(ft[STACKLAT_FLIGHT_A_INSERTS]);
		st->flight_full = get_u64(ft[STACKLAT_FLIGHT_A_FULL]);
		st->flight_stale = get_u64(ft[STACKLAT_FLIGHT_A_STALE]);
	}
	if (tb[STACKLAT_A_EVENTS] &&
	    !nla_parse_nested(et, STACKLAT_EVENTS_A_MAX, tb[STACKLAT_A_EVENTS], NULL)) {
		struct nlattr *o = et[STACKLAT_EVENTS_A_OVERRUNS];

		st->has_events = true;
		st->events_ring = get_u32(et[STACKLAT_EVENTS_A_RING]);
		st->events_rings = get_u32(et[STACKLAT_EVENTS_A_RINGS]);
		st->events_ring_start = get_u32(et[STACKLAT_EVENTS_A_RING_START]);
		st->events_ring_now = get_u32(et[STACKLAT_EVENTS_A_RING_NOW]);
		st->events_bytes = get_u64(et[STACKLAT_EVENTS_A_BYTES]);
		st->events_written = get_u64(et[STACKLAT_EVENTS_A_WRITTEN]);
		st->events_read = get_u64(et[STACKLAT_EVENTS_A_READ]);
		st->cpus = get_u32(et[STACKLAT_EVENTS_A_CPUS]);
		if (o && nla_len(o) >= 8 && !st->cpus) {
			st->ncpus = (size_t)nla_len(o) / 8;
			free(st->overruns);
			st->overruns = malloc(st->ncpus * 8);
			if (!st->overruns)
				return -ENOMEM;
			memcpy(st->overruns, nla_data(o), st->ncpus * 8);
		}
	}
	return 0;
}

/* A message of GET_CPU_STATUS: the overruns of a run of CPUs. */
static int parse_cpu_status(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[STACKLAT_A_MAX + 1], *et[STACKLAT_EVENTS_A_MAX + 1];
	struct status_info *st = arg;
	uint32_t first;
	size_t n;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, STACKLAT_A_MAX, NULL) ||
	    !tb[STACKLAT_A_EVENTS] ||
	    nla_parse_nested(et, STACKLAT_EVENTS_A_MAX, tb[STACKLAT_A_EVENTS], NULL) ||
	    !et[STACKLAT_EVENTS_A_CPU_FIRST] || !et[STACKLAT_EVENTS_A_OVERRUNS])
		return -EINVAL;
	first = get_u32(et[STACKLAT_EVENTS_A_CPU_FIRST]);
	n = (size_t)nla_len(et[STACKLAT_EVENTS_A_OVERRUNS]) / 8;
	if (first > st->ncpus || n > st->ncpus - first)
		return -EINVAL;
	memcpy(st->overruns + first, nla_data(et[STACKLAT_EVENTS_A_OVERRUNS]), n * 8);
	return 0;
}

static void clear_overruns(void *arg)
{
	struct status_info *st = arg;

	memset(st->overruns, 0, st->ncpus * 8);
}

/*
 * The module's status; every CPU's overruns come from GET_CPU_STATUS (in
 * parts: one message has no room for those of hundreds of CPUs) where the
 * module has it, in GET_STATUS's own reply from an older one.
 */
void sl_nl_get_status(struct status_info *st)
{
	memset(st, 0, sizeof(*st));
	transact(new_msg(STACKLAT_CMD_GET_STATUS, 0), "status", parse_status, st, NULL);
	if (!st->has_events || !st->cpus)
		return;
	free(st->overruns);
	st->ncpus = st->cpus;
	st->overruns = calloc(st->ncpus, 8);
	if (!st->overruns)
		fatal("out of memory");
	dump_retry(STACKLAT_CMD_GET_CPU_STATUS, NULL, "status", parse_cpu_status, st,
		   clear_overruns);
}

/* ---- GET_PIPELINES --------------------------------------------------------- */

static void parse_filter_nest(struct nlattr *nest, struct filter_spec *f)
{
	struct nlattr *t[STACKLAT_FILTER_A_MAX + 1];
	int i;

	memset(f, 0, sizeof(*f));
	if (nla_parse_nested(t, STACKLAT_FILTER_A_MAX, nest, NULL))
		return;
	for (i = 1; i <= STACKLAT_FILTER_A_MAX; i++)
		if (t[i])
			f->mask |= FILTER_BIT(i);
	if (t[STACKLAT_FILTER_A_TGID])
		f->tgid = get_u32(t[STACKLAT_FILTER_A_TGID]);
	if (t[STACKLAT_FILTER_A_TID])
		f->tid = get_u32(t[STACKLAT_FILTER_A_TID]);
	if (t[STACKLAT_FILTER_A_LPORT] && nla_len(t[STACKLAT_FILTER_A_LPORT]) >= 2)
		f->lport = nla_get_u16(t[STACKLAT_FILTER_A_LPORT]);
	if (t[STACKLAT_FILTER_A_RPORT] && nla_len(t[STACKLAT_FILTER_A_RPORT]) >= 2)
		f->rport = nla_get_u16(t[STACKLAT_FILTER_A_RPORT]);
	if (t[STACKLAT_FILTER_A_PROTO] && nla_len(t[STACKLAT_FILTER_A_PROTO]) >= 1)
		f->proto = nla_get_u8(t[STACKLAT_FILTER_A_PROTO]);
	if (t[STACKLAT_FILTER_A_IFINDEX])
		f->ifindex = get_u32(t[STACKLAT_FILTER_A_IFINDEX]);
	if (t[STACKLAT_FILTER_A_DEV])
		f->dev = get_u32(t[STACKLAT_FILTER_A_DEV]);
	if (t[STACKLAT_FILTER_A_OP])
		f->op = get_u32(t[STACKLAT_FILTER_A_OP]);
	if (t[STACKLAT_FILTER_A_FS])
		f->fs = get_u32(t[STACKLAT_FILTER_A_FS]);
	if (t[STACKLAT_FILTER_A_CGROUP])
		f->cgroup = get_u64(t[STACKLAT_FILTER_A_CGROUP]);
}

static void parse_keyed_stats(struct nlattr *nest, struct pipe_info *pi)
{
	struct nlattr *t[STACKLAT_KEYED_A_MAX + 1];
	struct keyed_info *k = &pi->keyed;

	if (nla_parse_nested(t, STACKLAT_KEYED_A_MAX, nest, NULL))
		return;
	pi->has_keyed = true;
	k->rows = get_u32(t[STACKLAT_KEYED_A_ROWS]);
	k->max_rows = get_u32(t[STACKLAT_KEYED_A_MAX_ROWS]);
	k->cpu_rows = get_u32(t[STACKLAT_KEYED_A_CPU_ROWS]);
	k->cpu_rows_now = get_u32(t[STACKLAT_KEYED_A_CPU_ROWS_NOW]);
	k->grows = get_u64(t[STACKLAT_KEYED_A_GROWS]);
	k->spilled = get_u64(t[STACKLAT_KEYED_A_SPILLED]);
	k->spill_rows = get_u32(t[STACKLAT_KEYED_A_SPILL_ROWS]);
	k->cpus = get_u32(t[STACKLAT_KEYED_A_CPUS]);
	k->row_bytes = get_u32(t[STACKLAT_KEYED_A_ROW_BYTES]);
	k->row_bytes_cpu = get_u32(t[STACKLAT_KEYED_A_ROW_BYTES_CPU]);
	k->bytes = get_u64(t[STACKLAT_KEYED_A_BYTES]);
	k->linger_ns = get_u64(t[STACKLAT_KEYED_A_LINGER_NS]);
	k->folds = get_u64(t[STACKLAT_KEYED_A_FOLDS]);
	k->full = get_u64(t[STACKLAT_KEYED_A_FULL]);
	k->busy = get_u64(t[STACKLAT_KEYED_A_BUSY]);
	k->dropped = get_u64(t[STACKLAT_KEYED_A_DROPPED]);
	k->dropped_rows = get_u64(t[STACKLAT_KEYED_A_DROPPED_ROWS]);
	k->aged = get_u64(t[STACKLAT_KEYED_A_AGED]);
	k->aged_rows = get_u64(t[STACKLAT_KEYED_A_AGED_ROWS]);
	k->retire_lost = get_u64(t[STACKLAT_KEYED_A_RETIRE_LOST]);
}

static int parse_pipeline(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[STACKLAT_A_MAX + 1], *p[STACKLAT_PIPE_A_MAX + 1];
	struct nlattr *t[STACKLAT_HOOK_A_MAX + 1], *l[STACKLAT_LOSS_A_MAX + 1];
	struct pipe_list *pl = arg;
	struct pipe_info *pi;
	struct nlattr *a;
	int rem, i, n;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, STACKLAT_A_MAX, NULL) ||
	    !tb[STACKLAT_A_PIPELINE] ||
	    nla_parse_nested(p, STACKLAT_PIPE_A_MAX, tb[STACKLAT_A_PIPELINE], NULL) ||
	    !p[STACKLAT_PIPE_A_NAME])
		return -EINVAL;
	pi = realloc(pl->p, (pl->n + 1) * sizeof(*pl->p));
	if (!pi)
		return -ENOMEM;
	pl->p = pi;
	pi = &pl->p[pl->n++];
	memset(pi, 0, sizeof(*pi));
	copy_str(pi->name, sizeof(pi->name), p[STACKLAT_PIPE_A_NAME]);
	copy_str(pi->desc, sizeof(pi->desc), p[STACKLAT_PIPE_A_DESC]);
	pi->key = get_u32(p[STACKLAT_PIPE_A_KEY]);
	pi->enabled = p[STACKLAT_PIPE_A_ENABLED] && nla_len(p[STACKLAT_PIPE_A_ENABLED]) >= 1 &&
		      nla_get_u8(p[STACKLAT_PIPE_A_ENABLED]);
	pi->generation = get_u64(p[STACKLAT_PIPE_A_GENERATION]);
	pi->threshold_ns = get_u64(p[STACKLAT_PIPE_A_THRESHOLD_NS]);
	if (p[STACKLAT_PIPE_A_SAMPLE]) {
		pi->has_sample = true;
		pi->sample = get_u32(p[STACKLAT_PIPE_A_SAMPLE]);
		pi->sample_seen = get_u64(p[STACKLAT_PIPE_A_SAMPLE_SEEN]);
		pi->sample_followed = get_u64(p[STACKLAT_PIPE_A_SAMPLE_FOLLOWED]);
		pi->sample_auto = get_u32(p[STACKLAT_PIPE_A_SAMPLE_AUTO]);
		pi->sample_peak = get_u64(p[STACKLAT_PIPE_A_SAMPLE_PEAK]);
	}
	if (p[STACKLAT_PIPE_A_CGTOTALS] && nla_len(p[STACKLAT_PIPE_A_CGTOTALS]) >= 1) {
		pi->has_cgtotals = true;
		pi->cgtotals = nla_get_u8(p[STACKLAT_PIPE_A_CGTOTALS]);
	}
	if (p[STACKLAT_PIPE_A_STAGES]) {
		n = count_nested(p[STACKLAT_PIPE_A_STAGES], STACKLAT_PIPE_A_STAGE);
		pi->stages = calloc((size_t)n + 1, sizeof(*pi->stages));
		if (!pi->stages)
			return -ENOMEM;
		nla_for_each_nested(a, p[STACKLAT_PIPE_A_STAGES], rem) {
			struct nlattr *s[STACKLAT_STAGE_A_MAX + 1];
			struct stage_info *si;

			if (nla_type(a) != STACKLAT_PIPE_A_STAGE ||
			    nla_parse_nested(s, STACKLAT_STAGE_A_MAX, a, NULL) ||
			    (int)pi->nstages >= n)
				continue;
			si = &pi->stages[pi->nstages++];
			si->index = get_u32(s[STACKLAT_STAGE_A_INDEX]);
			copy_str(si->name, sizeof(si->name), s[STACKLAT_STAGE_A_NAME]);
			copy_str(si->from, sizeof(si->from), s[STACKLAT_STAGE_A_FROM]);
			copy_str(si->to, sizeof(si->to), s[STACKLAT_STAGE_A_TO]);
			si->unit = s[STACKLAT_STAGE_A_UNIT] ?
				   get_u32(s[STACKLAT_STAGE_A_UNIT]) : STACKLAT_UNIT_NS;
		}
	}
	if (p[STACKLAT_PIPE_A_HOOKS]) {
		n = count_nested(p[STACKLAT_PIPE_A_HOOKS], STACKLAT_PIPE_A_HOOK);
		pi->hooks = calloc((size_t)n + 1, sizeof(*pi->hooks));
		if (!pi->hooks)
			return -ENOMEM;
		nla_for_each_nested(a, p[STACKLAT_PIPE_A_HOOKS], rem) {
			struct hook_info *h;

			if (nla_type(a) != STACKLAT_PIPE_A_HOOK ||
			    nla_parse_nested(t, STACKLAT_HOOK_A_MAX, a, NULL) ||
			    (int)pi->nhooks >= n)
				continue;
			h = &pi->hooks[pi->nhooks++];
			copy_str(h->name, sizeof(h->name), t[STACKLAT_HOOK_A_NAME]);
			copy_str(h->target, sizeof(h->target), t[STACKLAT_HOOK_A_TARGET]);
			h->state = get_u32(t[STACKLAT_HOOK_A_STATE]);
			h->kind = get_u32(t[STACKLAT_HOOK_A_KIND]);
			h->error = get_u32(t[STACKLAT_HOOK_A_ERROR]);
			h->hits = get_u64(t[STACKLAT_HOOK_A_HITS]);
			h->nmissed = get_u64(t[STACKLAT_HOOK_A_NMISSED]);
		}
	}
	if (p[STACKLAT_PIPE_A_LOSS] &&
	    !nla_parse_nested(l, STACKLAT_LOSS_A_MAX, p[STACKLAT_PIPE_A_LOSS], NULL)) {
		for (i = 1; i <= STACKLAT_LOSS_A_MAX; i++) {
			if (!l[i] || i == STACKLAT_LOSS_A_PAD)
				continue;
			pi->loss[i] = get_u64(l[i]);
			pi->loss_mask |= 1U << i;
		}
	}
	if (p[STACKLAT_PIPE_A_FILTER]) {
		pi->has_filter = true;
		parse_filter_nest(p[STACKLAT_PIPE_A_FILTER], &pi->filter);
	}
	if (p[STACKLAT_PIPE_A_KEYED])
		parse_keyed_stats(p[STACKLAT_PIPE_A_KEYED], pi);
	if (p[STACKLAT_PIPE_A_FPROBE_NMISSED]) {
		pi->has_fprobe = true;
		pi->fprobe_nmissed = get_u64(p[STACKLAT_PIPE_A_FPROBE_NMISSED]);
	}
	if (p[STACKLAT_PIPE_A_MEM]) {
		pi->has_mem = true;
		pi->mem_bytes = get_u64(p[STACKLAT_PIPE_A_MEM]);
		pi->mem_cpu_bytes = get_u64(p[STACKLAT_PIPE_A_MEM_CPU]);
	}
	pi->no_events = p[STACKLAT_PIPE_A_EVENTS] && nla_len(p[STACKLAT_PIPE_A_EVENTS]) >= 1 &&
			!nla_get_u8(p[STACKLAT_PIPE_A_EVENTS]);
	return 0;
}

void pipe_list_free(struct pipe_list *pl)
{
	size_t i;

	for (i = 0; i < pl->n; i++) {
		free(pl->p[i].stages);
		free(pl->p[i].hooks);
	}
	free(pl->p);
	pl->p = NULL;
	pl->n = 0;
}

static void clear_pipe_list(void *arg)
{
	pipe_list_free(arg);
}

void sl_nl_get_pipelines(const char *pipe, struct pipe_list *pl)
{
	dump_retry(STACKLAT_CMD_GET_PIPELINES, pipe, "pipelines", parse_pipeline, pl,
		   clear_pipe_list);
}

/* ---- GET_HIST -------------------------------------------------------------- */

static int parse_hist(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[STACKLAT_A_MAX + 1], *t[STACKLAT_HIST_A_MAX + 1];
	struct hist_set *set = arg;
	struct hist *h;
	char err[160];

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, STACKLAT_A_MAX, NULL) ||
	    !tb[STACKLAT_A_PIPELINE_NAME] || !tb[STACKLAT_A_STAGE_NAME] ||
	    !tb[STACKLAT_A_HIST] ||
	    nla_parse_nested(t, STACKLAT_HIST_A_MAX, tb[STACKLAT_A_HIST], NULL))
		return -EINVAL;
	h = hist_set_append(set);
	if (!h)
		return -ENOMEM;
	copy_str(h->pipeline, sizeof(h->pipeline), tb[STACKLAT_A_PIPELINE_NAME]);
	copy_str(h->stage, sizeof(h->stage), tb[STACKLAT_A_STAGE_NAME]);
	h->index = get_u32(tb[STACKLAT_A_STAGE_INDEX]);
	h->generation = get_u64(tb[STACKLAT_A_GENERATION]);
	h->count = get_u64(t[STACKLAT_HIST_A_COUNT]);
	h->sum = get_u64(t[STACKLAT_HIST_A_SUM]);
	h->min = get_u64(t[STACKLAT_HIST_A_MIN]);
	h->max = get_u64(t[STACKLAT_HIST_A_MAX_VALUE]);
	/* a module of 0.1 sent the maximum as type 9 (uapi) */
	if (!t[STACKLAT_HIST_A_MAX_VALUE] && t[STACKLAT_HIST_A_PAD] &&
	    nla_len(t[STACKLAT_HIST_A_PAD]) == sizeof(uint64_t))
		h->max = get_u64(t[STACKLAT_HIST_A_PAD]);
	h->overflow = get_u64(t[STACKLAT_HIST_A_OVERFLOW]);
	h->unit = tb[STACKLAT_A_STAGE_UNIT] ? get_u32(tb[STACKLAT_A_STAGE_UNIT]) :
		  STACKLAT_UNIT_NS;
	h->min_exact = h->max_exact = true;
	h->kind = HIST_CUMULATIVE;
	if (hist_load_buckets(h, t[STACKLAT_HIST_A_NBUCKETS] ?
			      get_u32(t[STACKLAT_HIST_A_NBUCKETS]) : STACKLAT_HIST_NBUCKETS,
			      get_u32(t[STACKLAT_HIST_A_FIRST]),
			      t[STACKLAT_HIST_A_BUCKETS] ? nla_data(t[STACKLAT_HIST_A_BUCKETS]) : NULL,
			      t[STACKLAT_HIST_A_BUCKETS] ? (size_t)nla_len(t[STACKLAT_HIST_A_BUCKETS]) : 0,
			      err, sizeof(err)))
		fatal("%s", err);
	return 0;
}

static void clear_hist_set(void *arg)
{
	((struct hist_set *)arg)->n = 0;
}

void sl_nl_get_hists(const char *pipe, struct hist_set *set)
{
	dump_retry(STACKLAT_CMD_GET_HIST, pipe, "histograms", parse_hist, set,
		   clear_hist_set);
}

/* ---- GET_INFLIGHT ---------------------------------------------------------- */

static int parse_inflight(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[STACKLAT_A_MAX + 1], *t[STACKLAT_INFLIGHT_A_MAX + 1];
	struct nlattr *pt[STACKLAT_INFLIGHT_POINT_A_MAX + 1], *a;
	struct inflight_list *l = arg;
	struct inflight_ent *e;
	int rem;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, STACKLAT_A_MAX, NULL) ||
	    !tb[STACKLAT_A_PIPELINE_NAME] || !tb[STACKLAT_A_INFLIGHT] ||
	    nla_parse_nested(t, STACKLAT_INFLIGHT_A_MAX, tb[STACKLAT_A_INFLIGHT], NULL))
		return -EINVAL;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct inflight_ent *ne = realloc(l->e, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		l->e = ne;
		l->cap = cap;
	}
	e = &l->e[l->n++];
	memset(e, 0, sizeof(*e));
	copy_str(e->pipeline, sizeof(e->pipeline), tb[STACKLAT_A_PIPELINE_NAME]);
	e->age_ns = get_u64(t[STACKLAT_INFLIGHT_A_AGE_NS]);
	if (t[STACKLAT_INFLIGHT_A_TID]) {
		e->has_tid = true;
		e->tid = get_u32(t[STACKLAT_INFLIGHT_A_TID]);
	}
	if (t[STACKLAT_INFLIGHT_A_DESC])
		copy_str(e->desc, sizeof(e->desc), t[STACKLAT_INFLIGHT_A_DESC]);
	nla_for_each_nested(a, tb[STACKLAT_A_INFLIGHT], rem) {
		if (nla_type(a) != STACKLAT_INFLIGHT_A_POINT || e->npts >= INFLIGHT_MAX_POINTS)
			continue;
		if (nla_parse_nested(pt, STACKLAT_INFLIGHT_POINT_A_MAX, a, NULL) ||
		    !pt[STACKLAT_INFLIGHT_POINT_A_NAME])
			return -EINVAL;
		copy_str(e->pts[e->npts].name, sizeof(e->pts[0].name),
			 pt[STACKLAT_INFLIGHT_POINT_A_NAME]);
		e->pts[e->npts++].offset_ns = get_u64(pt[STACKLAT_INFLIGHT_POINT_A_OFFSET_NS]);
	}
	return 0;
}

static void clear_inflight(void *arg)
{
	((struct inflight_list *)arg)->n = 0;
}

void sl_nl_get_inflight(const char *pipe, struct inflight_list *l)
{
	dump_retry(STACKLAT_CMD_GET_INFLIGHT, pipe, "in-flight table", parse_inflight, l,
		   clear_inflight);
}
