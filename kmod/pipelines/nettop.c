// SPDX-License-Identifier: GPL-2.0
/*
 * nettop: bytes and calls sent and received per process, by protocol
 * (TCP and UDP, IPv4 and IPv6) and, the breakdown, by local port and
 * remote address and port - bcc's tcptop, socktop, sysdig's
 * topprocs_net (issue 29, "top net") - in the engine's keyed aggregation
 * (core/keyed.c), and the bytes of each call as two value stages ("send",
 * "recv": log2 histograms of bytes).
 *
 * Points, and why these:
 *   tcp_send  tcp_sendmsg() followed to its return (kretprobe or fprobe):
 *             the socket is its first argument (saved at entry), the
 *             bytes queued its return value.  Every send(2), sendto(2),
 *             sendmsg(2), sendmmsg(2) (once a message) and write(2) on a
 *             TCP socket, IPv4 or IPv6, passes here (inet_sendmsg() and
 *             inet6_sendmsg() call sk_prot->sendmsg), with the same
 *             prototype on every kernel of the matrix (5.10 .. 7.x); the
 *             socket layer above (sock_sendmsg) is inlined or static in
 *             places and would need the protocol found again.
 *   tcp_recv  tcp_recvmsg() likewise (its arguments after the first
 *             changed in 5.19 - nonblock went - the socket is still the
 *             first): read(2), recv(2), recvfrom(2), recvmsg(2),
 *             recvmmsg(2).  A call that blocks holds a kretprobe instance
 *             while it waits; one that finds none free is missed and
 *             counted by the kernel (the hook's nmissed in status).
 *   udp_send, udp_recv   udp_sendmsg() and udp_recvmsg(), likewise.  A
 *             v4-mapped send on an IPv6 socket goes through udpv6_sendmsg()
 *             into udp_sendmsg(): it is counted once, by udp6_send (an
 *             IPv6 socket's call here is left out).
 *   udp6_send, udp6_recv   udpv6_sendmsg() and udpv6_recvmsg(): optional
 *             (a kernel without IPv6 still counts the rest).
 *   process_exit   sched_process_exit: a process's rows age out
 *             keyed_linger_ms after its end, as syscalls' do.
 * The names are the same on 5.10 .. 7.3 (the 7.3 headers declare them;
 * 89-nettop arms all six on 5.10, 6.1-rt, 6.12 and 7.3).  Not seen: sendfile(2) and splice(2) to a
 * socket on kernels that route them through sendpage (before 6.5), TCP
 * zero-copy receive (getsockopt TCP_ZEROCOPY_RECEIVE), kTLS and sockmap
 * sockets (their sk_prot is not TCP's), MPTCP, SCTP, raw and unix sockets.
 * A TCP socket of an IPv6 listener that talks to an IPv4 peer (v4-mapped)
 * is TCP6: the protocol is the socket's family.
 *
 * Rows: (tgid, protocol), a "proto row", gets every call; and (tgid,
 * protocol, local port, remote address and port), a "peer row", the same
 * call again - the breakdown top net -r shows.  The peer is the socket's
 * (connected TCP or UDP), or the address the call named (sendto(2)'s
 * destination: the kernel's copy, msg->msg_name, in the caller's frame;
 * recvfrom(2)'s source, written there by the protocol before it
 * returned).  A peer row's key is a hash of the peer, folded to 31 bits;
 * the row keeps the peer whole and counts "alias" the updates of another
 * peer that folded to the same key.  Both are bounded by the table's
 * rows: an update that finds no room is counted (full) by the engine - a
 * process talking to many peers can fill it; its proto rows are then
 * what is exact.  Each row keeps the process's cgroup (v2 id) at its last
 * call: a process moved to another cgroup keeps its rows (the key has no
 * room for a 64-bit id); the tool's --by cgroup folds rows by it.
 *
 * Context: the returns run in the calling thread (the process the traffic
 * is counted for), with preemption off (kretprobe, or fprobe under
 * ftrace's recursion lock), any process context (a kernel thread's own
 * socket calls, NFS and SUNRPC for one, are counted for it);
 * sched_process_exit in the exiting thread.  The socket's fields are read
 * once each (READ_ONCE), without its lock: a socket connecting or closing
 * at that moment may give a peer of before or after, never a fault (the
 * caller holds a reference to the socket).  Nothing here sleeps,
 * allocates or takes a lock.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/jhash.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/socket.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <trace/events/sched.h>

#include "sl.h"

/* A row's values (keyed.h: value 0 is its weight, every update). */
enum {
	LV_CALLS,
	LV_SENDS,
	LV_SERRS,
	LV_SBYTES,
	LV_RECVS,
	LV_RERRS,
	LV_RBYTES,
	LV_PROTO,
	LV_LPORT,
	LV_RPORT,
	LV_RADDR,				/* 16 bytes */
	LV_ALIAS = LV_RADDR + 2,
	LV_PCOMM,				/* 16 bytes */
	LV_CGROUP = LV_PCOMM + 2,		/* of the last call */
	LV_NVALS
};

#define NT_KEY_PEER	BIT(31)		/* a peer row */

/* Value stages: the bytes each send and receive returned. */
enum { NS_SEND, NS_RECV };

static struct sl_stage sl_nt_stages[] = {
	[NS_SEND] = SL_VALUE_STAGE("send", "send", "send", STACKLAT_UNIT_BYTES),
	[NS_RECV] = SL_VALUE_STAGE("recv", "recv", "recv", STACKLAT_UNIT_BYTES),
};

/* A call's peer: the remote address (16 bytes, v4 as ::ffff:a.b.c.d). */
struct sl_nt_peer {
	u32 addr[4];
	u16 lport, rport;			/* host order */
};

/* (tgid, fold) as a key, never 0; the tgid is its group */
static __always_inline u64 sl_nt_key(u32 tgid, u32 fold)
{
	u64 key = (u64)tgid << 32 | fold;

	return key ? key : 1;
}

static __always_inline void sl_nt_v4(struct sl_nt_peer *pe, __be32 a)
{
	pe->addr[0] = 0;
	pe->addr[1] = 0;
	pe->addr[2] = (__force u32)htonl(0xffff);
	pe->addr[3] = (__force u32)a;
}

/* The socket's own peer (connected), its local port. */
static __always_inline void sl_nt_sock_peer(const struct sock *sk, bool v6,
					    struct sl_nt_peer *pe)
{
	unsigned int i;

	pe->lport = READ_ONCE(sk->sk_num);
	pe->rport = ntohs(READ_ONCE(sk->sk_dport));
#if IS_ENABLED(CONFIG_IPV6)
	if (v6) {
		for (i = 0; i < 4; i++)
			pe->addr[i] = (__force u32)READ_ONCE(sk->sk_v6_daddr.s6_addr32[i]);
		return;
	}
#endif
	(void)i;
	sl_nt_v4(pe, READ_ONCE(sk->sk_daddr));
}

/*
 * The peer a UDP call named (msg->msg_name: the kernel's copy of
 * sendto(2)'s destination, or recvfrom(2)'s source the protocol wrote;
 * kernel memory in the caller's frame), over the socket's.
 */
static __always_inline void sl_nt_msg_peer(const struct msghdr *msg,
					   struct sl_nt_peer *pe)
{
	const struct sockaddr_in6 *s6;
	const struct sockaddr_in *s4;
	unsigned int i;
	void *name;

	if (!msg)
		return;
	name = READ_ONCE(msg->msg_name);
	if (!name)
		return;
	s4 = name;
	s6 = name;
	switch (READ_ONCE(s4->sin_family)) {
	case AF_INET:
		sl_nt_v4(pe, READ_ONCE(s4->sin_addr.s_addr));
		pe->rport = ntohs(READ_ONCE(s4->sin_port));
		break;
	case AF_INET6:
		for (i = 0; i < 4; i++)
			pe->addr[i] = (__force u32)READ_ONCE(s6->sin6_addr.s6_addr32[i]);
		pe->rport = ntohs(READ_ONCE(s6->sin6_port));
		break;
	}
}

/* One update of a row of @pe's process: @send or not, @ret the return. */
static __always_inline void sl_nt_add(u64 *v, bool fresh, unsigned int proto,
				      const struct sl_nt_peer *pe, bool send,
				      long ret, u64 cg)
{
	if (fresh) {
		sl_keyed_name((char *)&v[LV_PCOMM],
			      READ_ONCE(current->group_leader)->comm);
		v[LV_PROTO] = proto;
		if (pe) {
			v[LV_LPORT] = pe->lport;
			v[LV_RPORT] = pe->rport;
			memcpy(&v[LV_RADDR], pe->addr, 16);
		}
	} else if (pe && (v[LV_LPORT] != pe->lport ||
			  v[LV_RPORT] != pe->rport ||
			  memcmp(&v[LV_RADDR], pe->addr, 16))) {
		v[LV_ALIAS]++;
	}
	v[LV_CGROUP] = cg;
	v[LV_CALLS]++;
	if (send) {
		v[LV_SENDS]++;
		if (ret < 0)
			v[LV_SERRS]++;
		else
			v[LV_SBYTES] += ret;
	} else {
		v[LV_RECVS]++;
		if (ret < 0)
			v[LV_RERRS]++;
		else
			v[LV_RBYTES] += ret;
	}
}

/*
 * A call of the current process on socket @sk returned @ret: its proto
 * row and its peer row.  @udp: UDP (the peer the call named counts).
 */
static __always_inline void sl_nt_count(struct sl_ev *ev, bool udp,
					bool send)
{
	const struct sock *sk = sl_ev_ptr(ev, 0);
	struct sl_keyed *t = sl_pipeline_keyed(ev->p);
	long ret = (int)ev->ret;
	struct sl_nt_peer pe = { };
	struct sl_keyed_buf *b;
	unsigned int proto;
	bool v6, fresh;
	u32 tgid;
	u64 *v, cg;

	if (!t || !sk)
		return;
	v6 = READ_ONCE(sk->sk_family) == AF_INET6;
	proto = (udp ? STACKLAT_NT_UDP4 : STACKLAT_NT_TCP4) + v6;
	sl_nt_sock_peer(sk, v6, &pe);
	if (udp && ret >= 0)
		sl_nt_msg_peer(sl_ev_ptr(ev, 1), &pe);
	tgid = (u32)current->tgid;
	cg = sl_task_cgroup_id(current);
	b = sl_keyed_begin(t);
	if (!b)
		return;
	v = sl_keyed_row(t, b, sl_nt_key(tgid, proto + 1), &fresh);
	if (v)
		sl_nt_add(v, fresh, proto, NULL, send, ret, cg);
	v = sl_keyed_row(t, b, sl_nt_key(tgid, NT_KEY_PEER |
					 (jhash(&pe, sizeof(pe), proto) &
					  ~NT_KEY_PEER)), &fresh);
	if (v)
		sl_nt_add(v, fresh, proto, &pe, send, ret, cg);
	sl_keyed_end(b);
	if (ret > 0)
		sl_record_value(ev->p, send ? NS_SEND : NS_RECV, (u64)ret);
}

/* every entry: the task filter */
static int sl_nt_entry(struct sl_ev *ev)
{
	if (sl_task_ok(ev->p))
		return 0;
	sl_loss(ev->p, SL_LOSS_FILTERED);
	return -1;
}

/* tcp_sendmsg(sk, msg, size) returned */
static int sl_nt_tcp_send(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	sl_nt_count(ev, false, true);
	return SL_KEEP;
}

/* tcp_recvmsg(sk, msg, len, ...) returned */
static int sl_nt_tcp_recv(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	sl_nt_count(ev, false, false);
	return SL_KEEP;
}

/* udp_sendmsg(sk, msg, len) returned: an IPv6 socket's counts in udp6 */
static int sl_nt_udp_send(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	const struct sock *sk = sl_ev_ptr(ev, 0);

	if (sk && READ_ONCE(sk->sk_family) != AF_INET6)
		sl_nt_count(ev, true, true);
	return SL_KEEP;
}

/* udp_recvmsg(sk, msg, len, ...), udpv6_recvmsg(...) returned */
static int sl_nt_udp_recv(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	sl_nt_count(ev, true, false);
	return SL_KEEP;
}

/* udpv6_sendmsg(sk, msg, len) returned */
static int sl_nt_udp6_send(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	sl_nt_count(ev, true, true);
	return SL_KEEP;
}

/* sched_process_exit(p[, group_dead]): the last thread notes its end */
static int sl_nt_pexit(struct sl_ev *ev)
{
	sl_pipeline_keyed_pexit(ev);
	return -1;
}

SL_TP_DEFINE(sched_process_exit, (SL_COMPAT_PROCESS_EXIT_ARGS),
	     (unsigned long)p, (unsigned long)sl_compat_group_dead(p))

static const struct sl_cand sl_c_nt_tsend[] = { SL_KRPD("tcp_sendmsg", 0) };
static const struct sl_cand sl_c_nt_trecv[] = { SL_KRPD("tcp_recvmsg", 0) };
static const struct sl_cand sl_c_nt_usend[] = { SL_KRPD("udp_sendmsg", 0) };
static const struct sl_cand sl_c_nt_urecv[] = { SL_KRPD("udp_recvmsg", 0) };
static const struct sl_cand sl_c_nt_u6send[] = {
	SL_KRPD("udpv6_sendmsg", 0) };
static const struct sl_cand sl_c_nt_u6recv[] = {
	SL_KRPD("udpv6_recvmsg", 0) };
static const struct sl_cand sl_c_nt_pexit[] = { SL_TPD(sched_process_exit) };

/* Everything happens in the callbacks: no chain is ever followed. */
static struct sl_hook sl_nt_hooks[] = {
	SL_POINT("tcp_send", sl_c_nt_tsend, SL_ACT_NONE, 0, 0,
		 .pre = sl_nt_entry, .post = sl_nt_tcp_send),
	SL_POINT("tcp_recv", sl_c_nt_trecv, SL_ACT_NONE, 0, 0,
		 .pre = sl_nt_entry, .post = sl_nt_tcp_recv),
	SL_POINT("udp_send", sl_c_nt_usend, SL_ACT_NONE, 0, 0,
		 .optional = true, .pre = sl_nt_entry, .post = sl_nt_udp_send),
	SL_POINT("udp_recv", sl_c_nt_urecv, SL_ACT_NONE, 0, 0,
		 .optional = true, .pre = sl_nt_entry, .post = sl_nt_udp_recv),
	SL_POINT("udp6_send", sl_c_nt_u6send, SL_ACT_NONE, 0, 0,
		 .optional = true, .pre = sl_nt_entry, .post = sl_nt_udp6_send),
	SL_POINT("udp6_recv", sl_c_nt_u6recv, SL_ACT_NONE, 0, 0,
		 .optional = true, .pre = sl_nt_entry, .post = sl_nt_udp_recv),
	SL_POINT("process_exit", sl_c_nt_pexit, SL_ACT_NONE, 0, SL_OBJ_TASK,
		 .pre = sl_nt_pexit),
};

/* ---- folding and reading (process context) ---------------------------- */

static void sl_nt_merge(u64 *dst, const u64 *src, unsigned int nvals,
			bool fresh)
{
	unsigned int i;

	if (fresh) {
		dst[LV_PROTO] = src[LV_PROTO];
		dst[LV_LPORT] = src[LV_LPORT];
		dst[LV_RPORT] = src[LV_RPORT];
		memcpy(&dst[LV_RADDR], &src[LV_RADDR], 16);
	} else if (dst[LV_LPORT] != src[LV_LPORT] ||
		   dst[LV_RPORT] != src[LV_RPORT] ||
		   memcmp(&dst[LV_RADDR], &src[LV_RADDR], 16)) {
		dst[LV_ALIAS] += src[LV_CALLS];
	}
	for (i = LV_CALLS; i <= LV_RBYTES; i++)
		dst[i] += src[i];
	dst[LV_ALIAS] += src[LV_ALIAS];
	/* the newest name (a process that ran exec is named anew) */
	if (src[LV_PCOMM])
		memcpy(&dst[LV_PCOMM], &src[LV_PCOMM], 16);
	/* the newest cgroup: a CPU's buffer that counted a call has one */
	if (src[LV_CALLS])
		dst[LV_CGROUP] = src[LV_CGROUP];
}

static const struct sl_keyed_ops sl_nt_keyed_ops = {
	.merge = sl_nt_merge,
	.alive = sl_keyed_tgid_alive,
};

static const char *const sl_nt_protos[] = { "tcp4", "tcp6", "udp4", "udp6" };

static const char *sl_nt_proto(u64 p)
{
	return p < ARRAY_SIZE(sl_nt_protos) ? sl_nt_protos[p] : "?";
}

/* The debugfs table's rows: a peer row's peer last, as [addr]:port. */
static void sl_nt_show(struct seq_file *m, u64 key, const u64 *v)
{
	char comm[16];

	if (!v) {
		seq_printf(m, "%8s %-15s %-5s %-4s %8s %12s %5s %8s %12s %5s %5s %6s  %s %s\n",
			   "tgid", "comm", "proto", "kind", "sends",
			   "send_bytes", "serr", "recvs", "recv_bytes", "rerr",
			   "alias", "lport", "peer", "cgroup");
		return;
	}
	sl_keyed_show_comm(comm, &v[LV_PCOMM]);
	seq_printf(m, "%8u %-15s %-5s %-4s %8llu %12llu %5llu %8llu %12llu %5llu %5llu ",
		   sl_keyed_group(key), comm, sl_nt_proto(v[LV_PROTO]),
		   (key & NT_KEY_PEER) ? "peer" : "proc", v[LV_SENDS],
		   v[LV_SBYTES], v[LV_SERRS], v[LV_RECVS], v[LV_RBYTES],
		   v[LV_RERRS], v[LV_ALIAS]);
	/* the cgroup after the peer, whose width varies: the last column */
	if (!(key & NT_KEY_PEER))
		seq_printf(m, "%6s  - %llu\n", "-", v[LV_CGROUP]);
	else
		seq_printf(m, "%6llu  [%pI6c]:%llu %llu\n", v[LV_LPORT],
			   &v[LV_RADDR], v[LV_RPORT], v[LV_CGROUP]);
}

static int sl_nt_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, STACKLAT_NT_A_PAD);
}

/* One row for GET_KEYED (inside its STACKLAT_A_KEYED nest). */
static int sl_nt_put(struct sk_buff *skb, u64 key, const u64 *v)
{
	bool peer = key & NT_KEY_PEER;
	char comm[16];

	memcpy(comm, &v[LV_PCOMM], sizeof(comm));
	comm[15] = '\0';
	if (nla_put_u32(skb, STACKLAT_NT_A_TGID, sl_keyed_group(key)) ||
	    nla_put_string(skb, STACKLAT_NT_A_COMM, comm) ||
	    nla_put_u32(skb, STACKLAT_NT_A_KIND, peer ?
			STACKLAT_NT_KIND_PEER : STACKLAT_NT_KIND_PROTO) ||
	    nla_put_u32(skb, STACKLAT_NT_A_PROTO, (u32)v[LV_PROTO]) ||
	    (peer &&
	     (nla_put_u32(skb, STACKLAT_NT_A_LPORT, (u32)v[LV_LPORT]) ||
	      nla_put_u32(skb, STACKLAT_NT_A_RPORT, (u32)v[LV_RPORT]) ||
	      nla_put(skb, STACKLAT_NT_A_RADDR, 16, &v[LV_RADDR]))) ||
	    sl_nt_put_u64(skb, STACKLAT_NT_A_SENDS, v[LV_SENDS]) ||
	    sl_nt_put_u64(skb, STACKLAT_NT_A_SEND_ERRORS, v[LV_SERRS]) ||
	    sl_nt_put_u64(skb, STACKLAT_NT_A_SEND_BYTES, v[LV_SBYTES]) ||
	    sl_nt_put_u64(skb, STACKLAT_NT_A_RECVS, v[LV_RECVS]) ||
	    sl_nt_put_u64(skb, STACKLAT_NT_A_RECV_ERRORS, v[LV_RERRS]) ||
	    sl_nt_put_u64(skb, STACKLAT_NT_A_RECV_BYTES, v[LV_RBYTES]) ||
	    sl_nt_put_u64(skb, STACKLAT_NT_A_ALIAS, v[LV_ALIAS]) ||
	    sl_nt_put_u64(skb, STACKLAT_NT_A_CGROUP_ID, v[LV_CGROUP]))
		return -EMSGSIZE;
	return 0;
}

/* ---- life ---------------------------------------------------------------- */

#define SL_NT_FOLD_MS	1000

/* The rows come with the first enable; disabling folds the last. */
static int sl_nt_on_enable(struct sl_pipeline *p)
{
	return sl_pipeline_keyed_enable(p, LV_NVALS, &sl_nt_keyed_ops,
					SL_NT_FOLD_MS);
}

SL_PIPELINE(nettop) = {
	.name = "nettop",
	.desc = "bytes and calls sent and received per process: by protocol (TCP, UDP; IPv4, IPv6), by local port and remote address and port",
	.key = STACKLAT_KEY_NONE,
	.filter_caps = SL_F_TGID | SL_F_TID,
	.hooks = sl_nt_hooks,
	.nhooks = ARRAY_SIZE(sl_nt_hooks),
	.stages = sl_nt_stages,
	.nstages = ARRAY_SIZE(sl_nt_stages),
	.on_enable = sl_nt_on_enable,
	.on_disable = sl_pipeline_keyed_disable,
	.teardown = sl_pipeline_keyed_teardown,
	.keyed_show = sl_nt_show,
	.keyed_put = sl_nt_put,
};
