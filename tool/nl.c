// SPDX-License-Identifier: GPL-2.0
/* The stacklat generic netlink family through libnl-genl-3. */
#include <errno.h>
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
#include "stacklat_event.h"

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

static struct nl_msg *new_msg(uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				 flags, cmd, STACKLAT_GENL_VERSION))
		fatal("out of memory");
	return msg;
}

static void put_name(struct nl_msg *msg, int attr, const char *s)
{
	if (nla_put_string(msg, attr, s))
		fatal("out of memory");
}

/* @enoent: what ENOENT means when the kernel says no more (dump starts) */
static void kernel_fail(const char *what, const struct xfer *x, const char *enoent)
{
	char e[128];
	int err = -x->kerr;

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
static bool transact(struct nl_msg *msg, const char *what,
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

/* ---- GET_STATUS ---------------------------------------------------------- */

static void copy_str(char *dst, size_t len, struct nlattr *a)
{
	if (a)
		snprintf(dst, len, "%.*s", nla_len(a), (const char *)nla_data(a));
}

static uint32_t get_u32(struct nlattr *a)
{
	return a && nla_len(a) >= 4 ? nla_get_u32(a) : 0;
}

static uint64_t get_u64(struct nlattr *a)
{
	return a && nla_len(a) >= 8 ? nla_get_u64(a) : 0;
}

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

static void dump_retry(uint8_t cmd, const char *pipe, const char *what,
		       int (*parse)(struct nl_msg *, void *), void *arg,
		       void (*clear)(void *));

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
}

static int count_nested(struct nlattr *nest, int type)
{
	struct nlattr *a;
	int rem, n = 0;

	nla_for_each_nested(a, nest, rem)
		if (nla_type(a) == type)
			n++;
	return n;
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

/*
 * Dump @cmd for @pipe (NULL: all) into @arg through @parse, from scratch
 * (@clear) each time the dump comes back interrupted.
 */
static void dump_retry(uint8_t cmd, const char *pipe, const char *what,
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

/* ---- changes ----------------------------------------------------------------- */

void sl_nl_set_threshold(const char *pipe, uint64_t ns)
{
	struct nl_msg *msg = new_msg(STACKLAT_CMD_SET_PIPELINE, NLM_F_ACK);
	char what[64];

	put_name(msg, STACKLAT_A_PIPELINE_NAME, pipe);
	if (nla_put_u64(msg, STACKLAT_A_THRESHOLD_NS, ns))
		fatal("out of memory");
	snprintf(what, sizeof(what), "threshold %s", pipe);
	transact(msg, what, NULL, NULL, NULL);
}

/* ---- GET_EVENTS -------------------------------------------------------------- */

struct ev_cb {
	void (*fn)(const struct stacklat_event *ev, void *arg);
	void *arg;
	size_t n;
};

static int parse_events(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct ev_cb *c = arg;
	struct stacklat_event ev;
	struct nlattr *a;
	int rem;

	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		size_t n;

		if (nla_type(a) == STACKLAT_A_EVENT_COMPACT) {
			if (stacklat_event_unpack(&ev, nla_data(a), (unsigned int)nla_len(a)))
				return -EINVAL;	/* "malformed reply" */
		} else if (nla_type(a) == STACKLAT_A_EVENT &&
			   nla_len(a) >= (int)offsetof(struct stacklat_event, flags)) {
			/* a 0.1 module's record ends before flags: the rest unset */
			n = (size_t)nla_len(a) < sizeof(ev) ? (size_t)nla_len(a) : sizeof(ev);
			memset(&ev, 0, sizeof(ev));
			memcpy(&ev, nla_data(a), n);
		} else {
			continue;
		}
		c->fn(&ev, c->arg);
		c->n++;
	}
	return 0;
}

/* Does the module know attribute @attr (its family's maxattr)?  Once. */
static bool module_knows(int attr)
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

size_t sl_nl_get_events(void (*fn)(const struct stacklat_event *ev, void *arg), void *arg)
{
	struct nl_msg *msg = new_msg(STACKLAT_CMD_GET_EVENTS, NLM_F_DUMP);
	struct ev_cb c = { .fn = fn, .arg = arg };

	/* compact records: a third of the bytes for the module to copy */
	if (module_knows(STACKLAT_A_EVENT_COMPACT) &&
	    nla_put_flag(msg, STACKLAT_A_EVENT_COMPACT))
		fatal("out of memory");
	transact(msg, "events", parse_events, &c, NULL);
	return c.n;
}

void sl_nl_enable(const char *pipe, bool on)
{
	struct nl_msg *msg = new_msg(STACKLAT_CMD_SET_PIPELINE, NLM_F_ACK);
	char what[64];

	put_name(msg, STACKLAT_A_PIPELINE_NAME, pipe);
	if (nla_put_u8(msg, STACKLAT_A_ENABLE, on))
		fatal("out of memory");
	snprintf(what, sizeof(what), "%s %s", on ? "enable" : "disable", pipe);
	transact(msg, what, NULL, NULL, NULL);
}

void sl_nl_set_stacks(const char *pipe, bool on)
{
	struct nl_msg *msg = new_msg(STACKLAT_CMD_SET_PIPELINE, NLM_F_ACK);
	char what[64];

	if (!module_knows(STACKLAT_A_STACKS))
		fatal("stacks %s %s: the module is older than this tool (no stacks at a pipeline's points)",
		      on ? "on" : "off", pipe);
	put_name(msg, STACKLAT_A_PIPELINE_NAME, pipe);
	if (nla_put_u8(msg, STACKLAT_A_STACKS, on))
		fatal("out of memory");
	snprintf(what, sizeof(what), "stacks %s %s", on ? "on" : "off", pipe);
	transact(msg, what, NULL, NULL, NULL);
}

void sl_nl_set_filter(const char *pipe, const struct filter_spec *f)
{
	struct nl_msg *msg = new_msg(STACKLAT_CMD_SET_PIPELINE, NLM_F_ACK);
	struct nlattr *nest;
	char what[64];
	int bad = 0;

	put_name(msg, STACKLAT_A_PIPELINE_NAME, pipe);
	/* libnl < 3.10 does not set NLA_F_NESTED; the kernel's strict
	 * validation requires it */
	nest = nla_nest_start(msg, STACKLAT_A_FILTER | NLA_F_NESTED);
	if (!nest)
		fatal("out of memory");
#define PUT(attr, type, v) \
	if (f->mask & FILTER_BIT(attr)) \
		bad |= nla_put_##type(msg, attr, v)
	PUT(STACKLAT_FILTER_A_TGID, u32, f->tgid);
	PUT(STACKLAT_FILTER_A_TID, u32, f->tid);
	PUT(STACKLAT_FILTER_A_LPORT, u16, f->lport);
	PUT(STACKLAT_FILTER_A_RPORT, u16, f->rport);
	PUT(STACKLAT_FILTER_A_PROTO, u8, f->proto);
	PUT(STACKLAT_FILTER_A_IFINDEX, u32, f->ifindex);
	PUT(STACKLAT_FILTER_A_DEV, u32, f->dev);
	PUT(STACKLAT_FILTER_A_OP, u32, f->op);
	PUT(STACKLAT_FILTER_A_FS, u32, f->fs);
#undef PUT
	if (bad)
		fatal("out of memory");
	/* an empty nest clears the filter: keep it (nla_nest_end drops it) */
	if (nla_nest_end_keep_empty(msg, nest))
		fatal("out of memory");
	snprintf(what, sizeof(what), "filter %s", pipe);
	transact(msg, what, NULL, NULL, NULL);
}

void sl_nl_reset(const char *pipe)
{
	struct nl_msg *msg = new_msg(STACKLAT_CMD_RESET, NLM_F_ACK);
	char what[64];

	if (pipe)
		put_name(msg, STACKLAT_A_PIPELINE_NAME, pipe);
	snprintf(what, sizeof(what), "reset%s%s", pipe ? " " : "", pipe ? pipe : "");
	transact(msg, what, NULL, NULL, NULL);
}

void sl_nl_func(bool add, const char *symbol)
{
	struct nl_msg *msg = new_msg(add ? STACKLAT_CMD_FUNC_ADD : STACKLAT_CMD_FUNC_DEL,
				     NLM_F_ACK);
	char what[STACKLAT_SYM_MAX + 16];

	put_name(msg, STACKLAT_A_FUNC_SYMBOL, symbol);
	snprintf(what, sizeof(what), "func %s %s", add ? "add" : "del", symbol);
	transact(msg, what, NULL, NULL, NULL);
}

/* ---- kernel stacks (issue 28) ----------------------------------------------- */

void sl_nl_point(const char *pipe, bool add, const char *symbol)
{
	struct nl_msg *msg = new_msg(add ? STACKLAT_CMD_FUNC_ADD : STACKLAT_CMD_FUNC_DEL,
				     NLM_F_ACK);
	char what[STACKLAT_SYM_MAX + STACKLAT_NAME_MAX + 8];

	put_name(msg, STACKLAT_A_PIPELINE_NAME, pipe);
	put_name(msg, STACKLAT_A_FUNC_SYMBOL, symbol);
	snprintf(what, sizeof(what), "%s %s %s", pipe, add ? "add" : "del", symbol);
	transact(msg, what, NULL, NULL, NULL);
}

static void stack_row_free(struct stack_row *r)
{
	unsigned int i;

	for (i = 0; i < r->nr; i++)
		free(r->frames[i]);
	free(r->frames);
}

void stack_set_free(struct stack_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		stack_row_free(&s->r[i]);
	free(s->r);
	memset(s, 0, sizeof(*s));
}

static void clear_stacks(void *arg)
{
	struct stack_set *s = arg;
	size_t i;

	for (i = 0; i < s->n; i++)
		stack_row_free(&s->r[i]);
	s->n = 0;
}

static int parse_stack(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[STACKLAT_A_MAX + 1], *st[STACKLAT_STACK_A_MAX + 1], *a;
	struct stack_set *s = arg;
	struct stack_row *r;
	int rem, nr;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, STACKLAT_A_MAX, NULL) ||
	    !tb[STACKLAT_A_STACK] ||
	    nla_parse_nested(st, STACKLAT_STACK_A_MAX, tb[STACKLAT_A_STACK], NULL))
		return -EINVAL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		void *nr_ = realloc(s->r, cap * sizeof(*s->r));

		if (!nr_)
			return -ENOMEM;
		s->r = nr_;
		s->cap = cap;
	}
	r = &s->r[s->n];
	memset(r, 0, sizeof(*r));
	copy_str(r->pipe, sizeof(r->pipe), tb[STACKLAT_A_PIPELINE_NAME]);
	r->id = get_u32(st[STACKLAT_STACK_A_ID]);
	r->count = get_u64(st[STACKLAT_STACK_A_COUNT]);
	r->sum = get_u64(st[STACKLAT_STACK_A_SUM]);
	r->truncated = st[STACKLAT_STACK_A_TRUNCATED] &&
		       nla_get_u8(st[STACKLAT_STACK_A_TRUNCATED]);
	nr = count_nested(tb[STACKLAT_A_STACK], STACKLAT_STACK_A_FRAME);
	r->frames = calloc(nr ? nr : 1, sizeof(*r->frames));
	if (!r->frames)
		return -ENOMEM;
	s->n++;		/* freed with the set from here on */
	nla_for_each_nested(a, tb[STACKLAT_A_STACK], rem) {
		if (nla_type(a) != STACKLAT_STACK_A_FRAME)
			continue;
		r->frames[r->nr] = strndup(nla_data(a), nla_len(a));
		if (!r->frames[r->nr])
			return -ENOMEM;
		r->nr++;
	}
	return 0;
}

void sl_nl_get_stacks(const char *pipe, struct stack_set *s)
{
	dump_retry(STACKLAT_CMD_GET_STACKS, pipe, "stacks", parse_stack, s, clear_stacks);
}
