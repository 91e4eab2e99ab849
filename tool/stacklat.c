// SPDX-License-Identifier: GPL-2.0
/*
 * stacklat - read and drive the stacklat kernel module over generic netlink.
 *
 * Exit codes: 0 ok, 1 runtime error (module absent, kernel refused), 2 usage.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "histo.h"
#include "stacklat.h"

#define MAX_HISTS 256

static struct nl_sock *sk;
static int family;
static char kerr_msg[256];
static int kerr;

static const char *const state_names[] = {
	[STACKLAT_HOOK_DISARMED] = "disarmed",
	[STACKLAT_HOOK_ARMED] = "armed",
	[STACKLAT_HOOK_UNAVAILABLE] = "not available",
	[STACKLAT_HOOK_FAILED] = "failed",
	[STACKLAT_HOOK_SKIPPED] = "skipped",
};

static const char *const kind_names[] = {
	[STACKLAT_HOOK_KIND_NONE] = "-",
	[STACKLAT_HOOK_KIND_TRACEPOINT] = "tracepoint",
	[STACKLAT_HOOK_KIND_KPROBE] = "kprobe",
	[STACKLAT_HOOK_KIND_KRETPROBE] = "kretprobe",
};

static const char *const key_names[] = {
	[STACKLAT_KEY_NONE] = "call", [STACKLAT_KEY_SKB] = "skb",
	[STACKLAT_KEY_SOCK] = "socket", [STACKLAT_KEY_REQUEST] = "request",
	[STACKLAT_KEY_TASK] = "task",
};

static void die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("stacklat: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(code);
}

/* Kernel errors, with the extack message when the kernel gave one. */
static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)e - 1;
	int len = (int)nlh->nlmsg_len - (int)NLMSG_HDRLEN;
	struct nlattr *a;
	int off;

	(void)nla;
	(void)arg;
	kerr = e->error;
	kerr_msg[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += (int)e->msg.nlmsg_len - (int)NLMSG_HDRLEN;
	for (a = (struct nlattr *)((char *)e + off);
	     (char *)a + NLA_HDRLEN <= (char *)e + len && a->nla_len >= NLA_HDRLEN;
	     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len))) {
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG)
			snprintf(kerr_msg, sizeof(kerr_msg), "%.*s",
				 (int)(a->nla_len - NLA_HDRLEN),
				 (char *)a + NLA_HDRLEN);
	}
	return NL_STOP;
}

static void nl_open(void)
{
	int one = 1;

	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk))
		die(1, "cannot open a generic netlink socket");
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	nl_socket_set_buffer_size(sk, 1 << 20, 0);
	nl_socket_enable_msg_peek(sk);
	family = genl_ctrl_resolve(sk, STACKLAT_GENL_NAME);
	if (family < 0)
		die(1, "kernel module not loaded: modprobe stacklat");
}

static void fail_kernel(const char *what)
{
	int e = -kerr;

	if (e == EPERM)
		die(1, "%s: permission denied: this needs CAP_NET_ADMIN", what);
	die(1, "%s: %s%s%s", what, strerror(e), kerr_msg[0] ? ": " : "", kerr_msg);
}

/* Send @msg and run @fn on every reply.  Returns 1 if a dump was interrupted. */
static int transact(struct nl_msg *msg, nl_recvmsg_msg_cb_t fn, void *arg,
		    const int *intrp, const char *what)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int ret, intr = 0;

	kerr = 0;
	if (fn)
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, fn, arg);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, NULL);
	if (nl_send_auto(sk, msg) < 0)
		die(1, "%s: cannot send to the kernel", what);
	do {
		ret = nl_recvmsgs(sk, cb);
	} while (ret > 0);
	if (intrp)
		intr = *intrp;
	nl_cb_put(cb);
	nlmsg_free(msg);
	if (kerr)
		fail_kernel(what);
	if (ret < 0 && ret != -NLE_DUMP_INTR)
		die(1, "%s: %s", what, nl_geterror(ret));
	return ret == -NLE_DUMP_INTR || intr;
}

static struct nl_msg *new_msg(uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				 flags, cmd, STACKLAT_GENL_VERSION))
		die(1, "out of memory");
	return msg;
}

static bool intr_flag(struct nl_msg *msg)
{
	return nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP_INTR;
}

/* ---- status ------------------------------------------------------------ */

static int status_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[STACKLAT_A_MAX + 1], *ft[STACKLAT_FLIGHT_A_MAX + 1];

	(void)arg;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, STACKLAT_A_MAX, NULL))
		return NL_SKIP;
	printf("stacklat %s on Linux %s, clock %s, %u pipelines\n",
	       tb[STACKLAT_A_MODULE_VERSION] ? nla_get_string(tb[STACKLAT_A_MODULE_VERSION]) : "?",
	       tb[STACKLAT_A_KERNEL_RELEASE] ? nla_get_string(tb[STACKLAT_A_KERNEL_RELEASE]) : "?",
	       tb[STACKLAT_A_CLOCK] ? nla_get_string(tb[STACKLAT_A_CLOCK]) : "?",
	       tb[STACKLAT_A_NR_PIPELINES] ? nla_get_u32(tb[STACKLAT_A_NR_PIPELINES]) : 0);
	if (tb[STACKLAT_A_FLIGHT] &&
	    !nla_parse_nested(ft, STACKLAT_FLIGHT_A_MAX, tb[STACKLAT_A_FLIGHT], NULL)) {
#define F32(x) (ft[x] ? nla_get_u32(ft[x]) : 0)
#define F64(x) (ft[x] ? (unsigned long long)nla_get_u64(ft[x]) : 0ULL)
		printf("in-flight table: %u/%u used, stale after %llums, inserts %llu, full %llu, stale %llu\n",
		       F32(STACKLAT_FLIGHT_A_USED), F32(STACKLAT_FLIGHT_A_SIZE),
		       F64(STACKLAT_FLIGHT_A_MAX_AGE_NS) / 1000000,
		       F64(STACKLAT_FLIGHT_A_INSERTS), F64(STACKLAT_FLIGHT_A_FULL),
		       F64(STACKLAT_FLIGHT_A_STALE));
	}
	return NL_OK;
}

static void print_filter(struct nlattr *nest)
{
	struct nlattr *t[STACKLAT_FILTER_A_MAX + 1];
	static const char *const ops[] = { "any", "read", "write", "open", "fsync" };
	bool any = false;

	printf("  filter:");
	if (nest && !nla_parse_nested(t, STACKLAT_FILTER_A_MAX, nest, NULL)) {
		if (t[STACKLAT_FILTER_A_TGID])
			any = printf(" tgid=%u", nla_get_u32(t[STACKLAT_FILTER_A_TGID]));
		if (t[STACKLAT_FILTER_A_TID])
			any = printf(" tid=%u", nla_get_u32(t[STACKLAT_FILTER_A_TID]));
		if (t[STACKLAT_FILTER_A_LPORT])
			any = printf(" lport=%u", nla_get_u16(t[STACKLAT_FILTER_A_LPORT]));
		if (t[STACKLAT_FILTER_A_RPORT])
			any = printf(" rport=%u", nla_get_u16(t[STACKLAT_FILTER_A_RPORT]));
		if (t[STACKLAT_FILTER_A_PROTO])
			any = printf(" proto=%s", nla_get_u8(t[STACKLAT_FILTER_A_PROTO]) == 6 ? "tcp" : "udp");
		if (t[STACKLAT_FILTER_A_IFINDEX])
			any = printf(" ifindex=%u", nla_get_u32(t[STACKLAT_FILTER_A_IFINDEX]));
		if (t[STACKLAT_FILTER_A_DEV]) {
			uint32_t d = nla_get_u32(t[STACKLAT_FILTER_A_DEV]);

			any = printf(" dev=%u:%u", d >> 20, d & 0xfffff);
		}
		if (t[STACKLAT_FILTER_A_OP] && nla_get_u32(t[STACKLAT_FILTER_A_OP]) < 5)
			any = printf(" op=%s", ops[nla_get_u32(t[STACKLAT_FILTER_A_OP])]);
	}
	printf("%s\n", any ? "" : " none");
}

static int pipelines_cb(struct nl_msg *msg, void *arg)
{
	static const char *const loss[] = {
		[STACKLAT_LOSS_A_NMISSED] = "nmissed",
		[STACKLAT_LOSS_A_TABLE_FULL] = "table_full",
		[STACKLAT_LOSS_A_STALE] = "stale",
		[STACKLAT_LOSS_A_BAD_DELTA] = "bad_delta",
		[STACKLAT_LOSS_A_UNMATCHED] = "unmatched",
		[STACKLAT_LOSS_A_FILTERED] = "filtered",
		[STACKLAT_LOSS_A_DROPPED] = "dropped",
	};
	struct nlattr *tb[STACKLAT_A_MAX + 1], *p[STACKLAT_PIPE_A_MAX + 1];
	struct nlattr *h[STACKLAT_HOOK_A_MAX + 1], *l[STACKLAT_LOSS_A_MAX + 1];
	struct nlattr *a;
	int rem, i;
	uint32_t st, kind, key;

	if (intr_flag(msg))
		*(int *)arg = 1;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, STACKLAT_A_MAX, NULL) ||
	    !tb[STACKLAT_A_PIPELINE] ||
	    nla_parse_nested(p, STACKLAT_PIPE_A_MAX, tb[STACKLAT_A_PIPELINE], NULL) ||
	    !p[STACKLAT_PIPE_A_NAME])
		return NL_SKIP;
	key = p[STACKLAT_PIPE_A_KEY] ? nla_get_u32(p[STACKLAT_PIPE_A_KEY]) : 0;
	printf("\npipeline %s: %s, follows %s, generation %llu\n",
	       nla_get_string(p[STACKLAT_PIPE_A_NAME]),
	       p[STACKLAT_PIPE_A_ENABLED] && nla_get_u8(p[STACKLAT_PIPE_A_ENABLED]) ? "enabled" : "disabled",
	       key < __STACKLAT_KEY_MAX ? key_names[key] : "?",
	       p[STACKLAT_PIPE_A_GENERATION] ? (unsigned long long)nla_get_u64(p[STACKLAT_PIPE_A_GENERATION]) : 0ULL);
	if (p[STACKLAT_PIPE_A_DESC])
		printf("  %s\n", nla_get_string(p[STACKLAT_PIPE_A_DESC]));
	print_filter(p[STACKLAT_PIPE_A_FILTER]);
	if (p[STACKLAT_PIPE_A_LOSS] &&
	    !nla_parse_nested(l, STACKLAT_LOSS_A_MAX, p[STACKLAT_PIPE_A_LOSS], NULL)) {
		printf("  lost:");
		for (i = 1; i <= STACKLAT_LOSS_A_MAX; i++)
			if (l[i] && i < (int)(sizeof(loss) / sizeof(loss[0])) && loss[i])
				printf(" %s=%llu", loss[i], (unsigned long long)nla_get_u64(l[i]));
		printf("\n");
	}
	if (p[STACKLAT_PIPE_A_HOOKS]) {
		nla_for_each_nested(a, p[STACKLAT_PIPE_A_HOOKS], rem) {
			if (nla_parse_nested(h, STACKLAT_HOOK_A_MAX, a, NULL) || !h[STACKLAT_HOOK_A_NAME])
				continue;
			st = h[STACKLAT_HOOK_A_STATE] ? nla_get_u32(h[STACKLAT_HOOK_A_STATE]) : 0;
			kind = h[STACKLAT_HOOK_A_KIND] ? nla_get_u32(h[STACKLAT_HOOK_A_KIND]) : 0;
			printf("  hook %-20s %-13s %-10s %-28s hits=%llu nmissed=%llu",
			       nla_get_string(h[STACKLAT_HOOK_A_NAME]),
			       st < __STACKLAT_HOOK_STATE_MAX ? state_names[st] : "?",
			       kind < __STACKLAT_HOOK_KIND_MAX ? kind_names[kind] : "?",
			       h[STACKLAT_HOOK_A_TARGET] && *nla_get_string(h[STACKLAT_HOOK_A_TARGET]) ?
			       nla_get_string(h[STACKLAT_HOOK_A_TARGET]) : "-",
			       h[STACKLAT_HOOK_A_HITS] ? (unsigned long long)nla_get_u64(h[STACKLAT_HOOK_A_HITS]) : 0ULL,
			       h[STACKLAT_HOOK_A_NMISSED] ? (unsigned long long)nla_get_u64(h[STACKLAT_HOOK_A_NMISSED]) : 0ULL);
			if (h[STACKLAT_HOOK_A_ERROR] && nla_get_u32(h[STACKLAT_HOOK_A_ERROR]))
				printf(" error=%s", strerror((int)nla_get_u32(h[STACKLAT_HOOK_A_ERROR])));
			printf("\n");
		}
	}
	return NL_OK;
}

static int cmd_status(int argc, char **argv)
{
	struct nl_msg *msg;
	int intr = 0, tries;

	(void)argv;
	if (argc > 1)
		return -1;
	nl_open();
	transact(new_msg(STACKLAT_CMD_GET_STATUS, 0), status_cb, NULL, NULL, "status");
	for (tries = 0; tries < 5; tries++) {
		intr = 0;
		msg = new_msg(STACKLAT_CMD_GET_PIPELINES, NLM_F_DUMP);
		if (!transact(msg, pipelines_cb, &intr, &intr, "status"))
			break;
		printf("\n(state changed while reading; again)\n");
	}
	return 0;
}

/* ---- show / hist ---------------------------------------------------------- */

struct hist_set {
	int n;
	int intr;
	struct hist h[MAX_HISTS];
};

static int hist_cb(struct nl_msg *msg, void *arg)
{
	struct hist_set *set = arg;
	struct nlattr *tb[STACKLAT_A_MAX + 1], *t[STACKLAT_HIST_A_MAX + 1];
	struct hist *h;
	uint32_t first, n;

	if (intr_flag(msg))
		set->intr = 1;
	if (set->n >= MAX_HISTS ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, STACKLAT_A_MAX, NULL) ||
	    !tb[STACKLAT_A_PIPELINE_NAME] || !tb[STACKLAT_A_STAGE_NAME] || !tb[STACKLAT_A_HIST] ||
	    nla_parse_nested(t, STACKLAT_HIST_A_MAX, tb[STACKLAT_A_HIST], NULL))
		return NL_SKIP;
	h = &set->h[set->n++];
	memset(h, 0, sizeof(*h));
	snprintf(h->pipeline, sizeof(h->pipeline), "%s", nla_get_string(tb[STACKLAT_A_PIPELINE_NAME]));
	snprintf(h->stage, sizeof(h->stage), "%s", nla_get_string(tb[STACKLAT_A_STAGE_NAME]));
	h->index = tb[STACKLAT_A_STAGE_INDEX] ? nla_get_u32(tb[STACKLAT_A_STAGE_INDEX]) : 0;
	h->generation = tb[STACKLAT_A_GENERATION] ? nla_get_u64(tb[STACKLAT_A_GENERATION]) : 0;
	h->count = t[STACKLAT_HIST_A_COUNT] ? nla_get_u64(t[STACKLAT_HIST_A_COUNT]) : 0;
	h->sum = t[STACKLAT_HIST_A_SUM] ? nla_get_u64(t[STACKLAT_HIST_A_SUM]) : 0;
	h->min = t[STACKLAT_HIST_A_MIN] ? nla_get_u64(t[STACKLAT_HIST_A_MIN]) : 0;
	h->max = t[STACKLAT_HIST_A_MAX] ? nla_get_u64(t[STACKLAT_HIST_A_MAX]) : 0;
	h->overflow = t[STACKLAT_HIST_A_OVERFLOW] ? nla_get_u64(t[STACKLAT_HIST_A_OVERFLOW]) : 0;
	first = t[STACKLAT_HIST_A_FIRST] ? nla_get_u32(t[STACKLAT_HIST_A_FIRST]) : 0;
	if (t[STACKLAT_HIST_A_BUCKETS]) {
		n = (uint32_t)nla_len(t[STACKLAT_HIST_A_BUCKETS]) / sizeof(__u64);
		if (first < STACKLAT_HIST_NBUCKETS && n <= STACKLAT_HIST_NBUCKETS - first)
			memcpy(&h->buckets[first], nla_data(t[STACKLAT_HIST_A_BUCKETS]), n * sizeof(__u64));
	}
	return NL_OK;
}

/* One consistent snapshot of the histograms of @pipe (NULL: all). */
static void read_hists(const char *pipe, struct hist_set *set)
{
	struct nl_msg *msg;
	int tries;

	for (tries = 0; tries < 10; tries++) {
		set->n = 0;
		set->intr = 0;
		msg = new_msg(STACKLAT_CMD_GET_HIST, NLM_F_DUMP);
		if (pipe)
			nla_put_string(msg, STACKLAT_A_PIPELINE_NAME, pipe);
		if (!transact(msg, hist_cb, set, &set->intr, "show"))
			return;
	}
	die(1, "show: the kernel state kept changing during the dump");
}

static void print_table(const char *pipe, struct hist *hs, int n, bool json,
			bool *first_json, const char *note)
{
	static const char *const pn[NPCTS] = { "p50", "p90", "p99", "p99.9" };
	static const char *const pj[NPCTS] = { "p50_ns", "p90_ns", "p99_ns", "p999_ns" };
	struct hist_row r;
	char b[16];
	int i, j;
	bool first = true;

	if (json) {
		printf("%s{\"pipeline\":", *first_json ? "" : ",\n");
		*first_json = false;
		json_str(stdout, pipe);
		printf(",\"generation\":%llu,\"stages\":[",
		       n ? (unsigned long long)hs[0].generation : 0ULL);
		for (i = 0; i < n; i++) {
			hist_row(&hs[i], &r);
			printf("%s{\"name\":", first ? "" : ",");
			first = false;
			json_str(stdout, hs[i].stage);
			printf(",\"count\":%llu,\"sum_ns\":%llu,\"min_ns\":%llu,\"max_ns\":%llu,\"avg_ns\":%llu",
			       (unsigned long long)r.count, (unsigned long long)r.sum,
			       (unsigned long long)r.min, (unsigned long long)r.max,
			       (unsigned long long)r.avg);
			for (j = 0; j < NPCTS; j++)
				printf(",\"%s\":%llu", pj[j], (unsigned long long)r.pct[j]);
			printf("}");
		}
		printf("]}");
		return;
	}
	printf("%s%s\n", pipe, note ? note : "");
	printf("%-24s %10s %9s %9s %9s %9s %9s %9s\n", "stage", "count", "avg",
	       pn[0], pn[1], pn[2], pn[3], "max");
	for (i = 0; i < n; i++) {
		hist_row(&hs[i], &r);
		printf("%-24s %10llu", hs[i].stage, (unsigned long long)r.count);
		fmt_ns(b, sizeof(b), r.avg);
		printf(" %9s", b);
		for (j = 0; j < NPCTS; j++) {
			fmt_ns(b, sizeof(b), r.pct[j]);
			printf(" %9s", b);
		}
		fmt_ns(b, sizeof(b), r.max);
		printf(" %9s\n", b);
	}
}

/* Print every pipeline of @set (in dump order) that @want selects. */
static void print_set(struct hist_set *set, char **want, int nwant, bool json,
		      bool *first_json, const char *note)
{
	int i = 0, j, k;
	bool sel;

	while (i < set->n) {
		for (j = i; j < set->n && !strcmp(set->h[j].pipeline, set->h[i].pipeline); j++)
			;
		sel = !nwant;
		for (k = 0; k < nwant; k++)
			sel |= !strcmp(want[k], set->h[i].pipeline);
		if (sel) {
			print_table(set->h[i].pipeline, &set->h[i], j - i, json, first_json, note);
			if (!json)
				printf("\n");
		}
		i = j;
	}
}

static volatile sig_atomic_t stop;

static void on_sigint(int sig)
{
	(void)sig;
	stop = 1;
}

static int cmd_show(int argc, char **argv)
{
	static struct hist_set cur, prev, delta;
	char *want[32];
	int nwant = 0, i, k, count = -1, printed = 0;
	long ms = 0;
	bool json = false, first_json = true, baseline;
	struct timespec ts;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			json = true;
		else if (parse_interval_ms(argv[i]) > 0 && (argv[i][0] >= '0' && argv[i][0] <= '9'))
			break;
		else if (argv[i][0] == '-' || nwant >= 32)
			return -1;
		else
			want[nwant++] = argv[i];
	}
	if (i < argc) {
		ms = parse_interval_ms(argv[i++]);
		if (i < argc) {
			char *end;

			count = (int)strtol(argv[i++], &end, 10);
			if (*end || count < 1)
				return -1;
		}
		if (i < argc)
			return -1;
	}
	nl_open();
	read_hists(nwant == 1 ? want[0] : NULL, &cur);
	for (k = 0; k < nwant; k++) {
		bool found = false;

		for (i = 0; i < cur.n; i++)
			found |= !strcmp(cur.h[i].pipeline, want[k]);
		if (!found)
			die(1, "show: no pipeline '%s' (or it has no stages)", want[k]);
	}
	if (!ms) {
		if (json)
			printf("[");
		print_set(&cur, want, nwant, json, &first_json, NULL);
		if (json)
			printf("]\n");
		return 0;
	}
	signal(SIGINT, on_sigint);
	if (json)
		printf("[");
	while (!stop && (count < 0 || printed < count)) {
		prev = cur;
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = (ms % 1000) * 1000000;
		nanosleep(&ts, NULL);
		if (stop)
			break;
		read_hists(nwant == 1 ? want[0] : NULL, &cur);
		baseline = false;
		delta.n = cur.n;
		for (i = 0; i < cur.n; i++) {
			if (i >= prev.n || strcmp(prev.h[i].stage, cur.h[i].stage) ||
			    !hist_delta(&cur.h[i], &prev.h[i], &delta.h[i])) {
				baseline = true;
				delta.h[i] = cur.h[i];
			}
		}
		if (!json) {
			time_t now = time(NULL);
			char tb[32];

			strftime(tb, sizeof(tb), "%H:%M:%S", localtime(&now));
			printf("--- %s, last %.2fs\n", tb, ms / 1000.0);
		}
		print_set(&delta, want, nwant, json, &first_json,
			  baseline ? " (reset by someone: cumulative since the reset)" : NULL);
		fflush(stdout);
		printed++;
	}
	if (json)
		printf("]\n");
	return 0;
}

static int cmd_hist(int argc, char **argv)
{
	static struct hist_set set;
	bool fine = false, any = false;
	const char *pipe = NULL, *stage = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--fine"))
			fine = true;
		else if (!pipe)
			pipe = argv[i];
		else if (!stage)
			stage = argv[i];
		else
			return -1;
	}
	if (!pipe)
		return -1;
	nl_open();
	read_hists(pipe, &set);
	for (i = 0; i < set.n; i++) {
		if (stage && strcmp(stage, set.h[i].stage))
			continue;
		any = true;
		printf("%s: %s, %llu samples\n", set.h[i].pipeline, set.h[i].stage,
		       (unsigned long long)set.h[i].count);
		hist_bars(stdout, &set.h[i], fine);
		printf("\n");
	}
	if (!any)
		die(1, "hist: no stage %s in pipeline %s", stage ? stage : "", pipe);
	return 0;
}

/* ---- mutating commands ------------------------------------------------------ */

static int cmd_enable(int argc, char **argv)
{
	struct nl_msg *msg;

	if (argc != 2)
		return -1;
	nl_open();
	msg = new_msg(STACKLAT_CMD_SET_PIPELINE, NLM_F_ACK);
	nla_put_string(msg, STACKLAT_A_PIPELINE_NAME, argv[1]);
	nla_put_u8(msg, STACKLAT_A_ENABLE, argv[0][0] == 'e');
	transact(msg, NULL, NULL, NULL, argv[0]);
	return 0;
}

static int cmd_reset(int argc, char **argv)
{
	struct nl_msg *msg;

	if (argc > 2)
		return -1;
	nl_open();
	msg = new_msg(STACKLAT_CMD_RESET, NLM_F_ACK);
	if (argc == 2)
		nla_put_string(msg, STACKLAT_A_PIPELINE_NAME, argv[1]);
	transact(msg, NULL, NULL, NULL, "reset");
	return 0;
}

static int cmd_filter(int argc, char **argv)
{
	struct filter_args fa = { 0 };
	struct nl_msg *msg;
	struct nlattr *nest;
	char err[128];
	int i;

	if (argc < 3)
		return -1;
	for (i = 2; i < argc; i++)
		if (parse_filter_word(argv[i], &fa, err, sizeof(err)))
			die(2, "filter: %s", err);
	nl_open();
	msg = new_msg(STACKLAT_CMD_SET_PIPELINE, NLM_F_ACK);
	nla_put_string(msg, STACKLAT_A_PIPELINE_NAME, argv[1]);
	nest = nla_nest_start(msg, STACKLAT_A_FILTER | NLA_F_NESTED);
	if (fa.tgid)
		nla_put_u32(msg, STACKLAT_FILTER_A_TGID, fa.tgid);
	if (fa.tid)
		nla_put_u32(msg, STACKLAT_FILTER_A_TID, fa.tid);
	if (fa.lport)
		nla_put_u16(msg, STACKLAT_FILTER_A_LPORT, fa.lport);
	if (fa.rport)
		nla_put_u16(msg, STACKLAT_FILTER_A_RPORT, fa.rport);
	if (fa.proto)
		nla_put_u8(msg, STACKLAT_FILTER_A_PROTO, fa.proto);
	if (fa.ifindex)
		nla_put_u32(msg, STACKLAT_FILTER_A_IFINDEX, fa.ifindex);
	if (fa.dev)
		nla_put_u32(msg, STACKLAT_FILTER_A_DEV, fa.dev);
	if (fa.op)
		nla_put_u32(msg, STACKLAT_FILTER_A_OP, fa.op);
	nla_nest_end(msg, nest);
	transact(msg, NULL, NULL, NULL, "filter");
	return 0;
}

static int cmd_func(int argc, char **argv)
{
	struct nl_msg *msg;
	uint8_t cmd;

	if (argc != 3)
		return -1;
	if (!strcmp(argv[1], "add"))
		cmd = STACKLAT_CMD_FUNC_ADD;
	else if (!strcmp(argv[1], "del"))
		cmd = STACKLAT_CMD_FUNC_DEL;
	else
		return -1;
	nl_open();
	msg = new_msg(cmd, NLM_F_ACK);
	nla_put_string(msg, STACKLAT_A_FUNC_SYMBOL, argv[2]);
	transact(msg, NULL, NULL, NULL, "func");
	return 0;
}

static int cmd_help(int argc, char **argv);

static const struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *desc;
} subcommands[] = {
	{ "status", cmd_status, "", "module, pipelines, hooks (armed or not) and losses" },
	{ "show", cmd_show, "[-j|--json] [PIPELINE...] [INTERVAL [COUNT]]",
	  "stage table: count, avg, p50, p90, p99, p99.9, max; with INTERVAL (seconds) the deltas of each interval" },
	{ "hist", cmd_hist, "PIPELINE [STAGE] [--fine]", "histograms drawn as text bars" },
	{ "enable", cmd_enable, "PIPELINE", "arm a pipeline's hooks (CAP_NET_ADMIN)" },
	{ "disable", cmd_enable, "PIPELINE", "disarm a pipeline's hooks (CAP_NET_ADMIN)" },
	{ "reset", cmd_reset, "[PIPELINE]", "zero histograms, bump the generation (CAP_NET_ADMIN)" },
	{ "filter", cmd_filter, "PIPELINE clear | KEY=VALUE...",
	  "keys: tgid tid lport rport proto=tcp|udp ifindex iface=NAME dev=MAJ:MIN op=read|write|open|fsync; replaces the filter (CAP_NET_ADMIN)" },
	{ "func", cmd_func, "add|del SYMBOL", "time a kernel function, entry to return (CAP_NET_ADMIN)" },
	{ "help", cmd_help, "[COMMAND]", "this text, or one command's" },
};

#define NSUB (sizeof(subcommands) / sizeof(subcommands[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: stacklat COMMAND [ARGS]\n\nwhere inside the kernel requests spend their time\n\n");
	for (i = 0; i < NSUB; i++)
		fprintf(f, "  %-8s %s\n           %s\n", subcommands[i].name,
			subcommands[i].usage, subcommands[i].desc);
	fprintf(f, "\nstacklat --version prints the tool's version.\n");
}

static int cmd_help(int argc, char **argv)
{
	size_t i;

	if (argc == 1) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < NSUB; i++)
		if (!strcmp(argv[1], subcommands[i].name)) {
			printf("usage: stacklat %s %s\n  %s\n", subcommands[i].name,
			       subcommands[i].usage, subcommands[i].desc);
			return 0;
		}
	die(2, "help: no command '%s'", argv[1]);
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(1, argv + 1);
	if (!strcmp(argv[1], "--version")) {
		printf("stacklat %s (netlink ABI version %d)\n", STACKLAT_TOOL_VERSION,
		       STACKLAT_GENL_VERSION);
		return 0;
	}
	for (i = 0; i < NSUB; i++) {
		if (strcmp(argv[1], subcommands[i].name))
			continue;
		if (subcommands[i].fn(argc - 1, argv + 1) < 0) {
			fprintf(stderr, "usage: stacklat %s %s\n", subcommands[i].name,
				subcommands[i].usage);
			return 2;
		}
		return 0;
	}
	fprintf(stderr, "stacklat: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
