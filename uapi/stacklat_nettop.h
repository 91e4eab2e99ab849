/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The nettop pipeline's rows (issue 29, "top net"): GET_KEYED of "nettop",
 * one STACKLAT_A_KEYED nest per row, enum stacklat_nt_attr.  Two kinds of
 * rows: a process's traffic of one protocol (KIND 0: every call of the
 * process is in one of these), and - the breakdown, bounded by the table -
 * a process's traffic of one protocol, local port and remote address and
 * port (KIND 1).  Included by stacklat.h.
 */
#ifndef _UAPI_STACKLAT_NETTOP_H
#define _UAPI_STACKLAT_NETTOP_H

/* STACKLAT_NT_A_PROTO */
enum stacklat_nt_proto {
	STACKLAT_NT_TCP4,
	STACKLAT_NT_TCP6,
	STACKLAT_NT_UDP4,
	STACKLAT_NT_UDP6,
	__STACKLAT_NT_NPROTO
};

/* STACKLAT_NT_A_KIND */
enum stacklat_nt_kind {
	STACKLAT_NT_KIND_PROTO,		/* (process, protocol) */
	STACKLAT_NT_KIND_PEER,		/* (process, protocol, lport, raddr:rport) */
};

enum stacklat_nt_attr {
	STACKLAT_NT_A_UNSPEC,
	STACKLAT_NT_A_TGID,		/* u32, the process */
	STACKLAT_NT_A_COMM,		/* NUL string, its name (group leader's) */
	STACKLAT_NT_A_KIND,		/* u32, enum stacklat_nt_kind */
	STACKLAT_NT_A_PROTO,		/* u32, enum stacklat_nt_proto */
	STACKLAT_NT_A_LPORT,		/* u32, local port (KIND_PEER; 0: none) */
	STACKLAT_NT_A_RPORT,		/* u32, remote port (KIND_PEER; 0: none) */
	/*
	 * binary, 16 bytes, the remote address (KIND_PEER): IPv6, or an IPv4
	 * address as ::ffff:a.b.c.d; all zero: none (an unconnected socket
	 * that named no peer)
	 */
	STACKLAT_NT_A_RADDR,
	STACKLAT_NT_A_SENDS,		/* u64, send calls that returned */
	STACKLAT_NT_A_SEND_ERRORS,	/* u64, of them returning an error */
	STACKLAT_NT_A_SEND_BYTES,	/* u64, bytes they returned */
	STACKLAT_NT_A_RECVS,		/* u64, receive calls, likewise */
	STACKLAT_NT_A_RECV_ERRORS,
	STACKLAT_NT_A_RECV_BYTES,
	/* u64, updates of another peer of the process that share the row */
	STACKLAT_NT_A_ALIAS,
	STACKLAT_NT_A_PAD,
	/* u64, the cgroup v2 id of the process at its last call counted */
	STACKLAT_NT_A_CGROUP_ID,
	__STACKLAT_NT_A_LAST
};
#define STACKLAT_NT_A_MAX (__STACKLAT_NT_A_LAST - 1)

#endif /* _UAPI_STACKLAT_NETTOP_H */
