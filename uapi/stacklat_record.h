/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * A slow event as the kernel's rings hold it and GET_EVENTS sends it
 * (STACKLAT_A_EVENT): struct stacklat_event, its flags, the rings' size
 * and the thresholds (uapi/stacklat.h includes it; stacklat_event.h packs
 * and words it).
 */
#ifndef _UAPI_STACKLAT_RECORD_H
#define _UAPI_STACKLAT_RECORD_H

#include <linux/types.h>

/*
 * Records in each CPU's ring: the module's event_records= (status says),
 * STACKLAT_EVENTS_RING_DEFAULT unless set; before 0.7 always 4096.  Since
 * 0.8 a ring can start smaller (event_records_start=) and grow (x4) to
 * that when it is found more than half full.
 */
#define STACKLAT_EVENTS_RING		4096
#define STACKLAT_EVENTS_RING_DEFAULT	512
#define STACKLAT_EVENTS_RING_MIN	16
#define STACKLAT_EVENTS_RING_MAX	65536
#define STACKLAT_EVENT_STAGES	16	/* stages an event carries */
#define STACKLAT_THRESHOLD_MAX_NS	3600000000000ULL
/*
 * The threshold of "every object" (control "threshold PIPELINE all", the
 * tool's events --all): 1 ns; the pipelines that write identity lines
 * (tcpretrans: one per retransmission) write them whatever their time,
 * 0 (unknown) too.  At most event_rate= events a second per pipeline and
 * CPU are written; the rest are counted in its losses, "suppressed".
 */
#define STACKLAT_THRESHOLD_ALL	1ULL

/* One slow object: fixed size, host byte order. */
struct stacklat_event {
	__u64 time_ns;		/* its last point, CLOCK_MONOTONIC */
	__u64 total_ns;		/* last point minus first point */
	__u64 seq;		/* per CPU, from 0: a gap is an overrun */
	__u32 tgid;		/* of the task at the end point */
	__u32 tid;
	__u32 cpu;
	__u16 pipeline;		/* index in GET_PIPELINES order */
	__u16 nstages;		/* valid entries of stages[] */
	char comm[16];
	struct {
		__u32 index;	/* the stage (GET_PIPELINES' STAGE_A_INDEX) */
		__u32 pad;
		__u64 ns;
	} stages[STACKLAT_EVENT_STAGES];
	/*
	 * What the object was, where its pipeline knows it; flags says which
	 * fields are set.  Appended in 0.2: a record of a 0.1 module ends
	 * before flags, and a reader takes these as unset.
	 */
	__u32 flags;		/* STACKLAT_EVENT_F_* */
	/* _F_DEV: the disk, the kernel's dev_t: major << 20 | minor */
	__u32 dev;
	/* _F_PORTS: the packet's source and destination ports, host order */
	__u16 sport;
	__u16 dport;
	__u32 op;		/* _F_OP: enum stacklat_blk_op */
	/* _F_IO: the request's first sector (512 bytes) and size */
	__u64 sector;
	__u32 bytes;
	__u32 pad2;
	/* _F_IF: the interface, as the per-interface stages name it */
	char ifname[16];
	/*
	 * Appended in 0.4 (identity lines): a record of an older module ends
	 * before family, and a reader takes these as unset.
	 * _F_ADDR: the socket's addresses, local then remote (with _F_PORTS:
	 * sport local, dport remote), network order; family AF_INET (the
	 * address in the first 4 bytes) or AF_INET6.
	 */
	__u16 family;
	__u8 tcp_state;		/* _F_TCP: the kernel's TCP_* state (1 ESTABLISHED) */
	__u8 pad3;
	__u8 saddr[16];
	__u8 daddr[16];
	/* _F_TCP: the socket's figures at that moment */
	__u32 rto_us;		/* its retransmission timeout */
	__u32 srtt_us;		/* smoothed RTT */
	__u32 cwnd;		/* congestion window, segments */
	__u32 retrans;		/* its retransmissions, this one included (tcpi_total_retrans) */
	/* _F_RESULT: a connect's result, 0 or its errno (positive); was padding */
	__s32 result;
	/*
	 * Appended in 0.5 (tcpaccept lines): a record of an older module ends
	 * before qlen, and a reader takes these as unset.
	 * _F_QUEUE: the listener's accept queue at that moment, its length
	 * (sk_ack_backlog) and limit (sk_max_ack_backlog).
	 */
	__u32 qlen;
	__u32 qmax;
	/*
	 * Appended in 0.6 (netdrop lines): a record of an older module ends
	 * before proto, and a reader takes these as unset.
	 * _F_PROTO: the packet's IP protocol (IPPROTO_*: 6 TCP, 17 UDP...).
	 * _F_WHERE: where it happened, "function+0xOFF" (with "[module]"
	 * appended for a module's code), named from the kernel's symbols when
	 * the event is read: the module never hands out the address.
	 */
	__u32 proto;
	/*
	 * _F_STACK (0.7; padding before): the kernel stack the event happened
	 * under, as its id in the pipeline's stack table (GET_STACKS of the
	 * pipeline, the debugfs file "stacks"), valid until the pipeline is
	 * reset.  debugfs "events" writes its frames in the line; with it the
	 * pipeline may set where[] to what the stack says (offcpu: the reason
	 * the thread blocked).
	 */
	__u32 stack_id;
	char where[64];
	/*
	 * Appended in 0.8: a record of an older module ends before cgroup,
	 * and a reader takes it as 0.  The cgroup v2 id (its directory's
	 * inode number under the cgroup2 mount) of the task the event was
	 * recorded for, taken with its tgid, tid and comm; 0: the event has
	 * no task (tgid 0, comm "-") or the kernel has no cgroup v2 (a
	 * task still in the root cgroup has the root's id, never 0).
	 */
	__u64 cgroup;
};

#define STACKLAT_EVENT_F_IF	0x1
#define STACKLAT_EVENT_F_PORTS	0x2
#define STACKLAT_EVENT_F_DEV	0x4
#define STACKLAT_EVENT_F_OP	0x8
#define STACKLAT_EVENT_F_IO	0x10
#define STACKLAT_EVENT_F_ADDR	0x20
#define STACKLAT_EVENT_F_TCP	0x40
#define STACKLAT_EVENT_F_RESULT	0x80
#define STACKLAT_EVENT_F_QUEUE	0x100
#define STACKLAT_EVENT_F_PROTO	0x200
#define STACKLAT_EVENT_F_WHERE	0x400
#define STACKLAT_EVENT_F_STACK	0x800

/* the operation of a block request (the kernel's REQ_OP_*, by name) */
enum stacklat_blk_op {
	STACKLAT_BLK_OP_UNKNOWN,
	STACKLAT_BLK_OP_READ,
	STACKLAT_BLK_OP_WRITE,
	STACKLAT_BLK_OP_FLUSH,
	STACKLAT_BLK_OP_DISCARD,
	STACKLAT_BLK_OP_OTHER,
};

#endif /* _UAPI_STACKLAT_RECORD_H */
