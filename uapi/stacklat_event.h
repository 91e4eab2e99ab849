/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The words a slow event's object adds to its line (interface, ports,
 * disk, operation, sector, size), shared verbatim by the module (debugfs
 * "events") and the tool, so the two lines read the same.  Include it
 * after stacklat.h and the side's snprintf (linux/kernel.h or stdio.h).
 */
#ifndef _UAPI_STACKLAT_EVENT_H
#define _UAPI_STACKLAT_EVENT_H

/*
 * GET_EVENTS' compact record (STACKLAT_A_EVENT_COMPACT): the head of
 * struct stacklat_event (up to stages[]), its object fields (flags to the
 * end), then its nstages stages.
 */
#define STACKLAT_EVENT_HEAD_LEN	__builtin_offsetof(struct stacklat_event, stages)
#define STACKLAT_EVENT_OBJ_OFF	__builtin_offsetof(struct stacklat_event, flags)
#define STACKLAT_EVENT_OBJ_LEN	(sizeof(struct stacklat_event) - STACKLAT_EVENT_OBJ_OFF)
#define STACKLAT_EVENT_STAGE_LEN	sizeof(((struct stacklat_event *)0)->stages[0])
/* the object fields of a 0.2 or 0.3 module's record: up to family */
#define STACKLAT_EVENT_OBJ_LEN_0_2	(__builtin_offsetof(struct stacklat_event, family) - \
					 STACKLAT_EVENT_OBJ_OFF)
/* the object fields of a 0.4 module's record: up to qlen */
#define STACKLAT_EVENT_OBJ_LEN_0_4	(__builtin_offsetof(struct stacklat_event, qlen) - \
					 STACKLAT_EVENT_OBJ_OFF)
/* the object fields of a 0.6 or 0.7 module's record: up to cgroup */
#define STACKLAT_EVENT_OBJ_LEN_0_6	(__builtin_offsetof(struct stacklat_event, cgroup) - \
					 STACKLAT_EVENT_OBJ_OFF)
/* the object fields of a 0.5 module's record: up to proto */
#define STACKLAT_EVENT_OBJ_LEN_0_5	(__builtin_offsetof(struct stacklat_event, proto) - \
					 STACKLAT_EVENT_OBJ_OFF)

static inline unsigned int stacklat_event_compact_len(const struct stacklat_event *ev)
{
	unsigned int n = ev->nstages < STACKLAT_EVENT_STAGES ? ev->nstages :
			 STACKLAT_EVENT_STAGES;

	return STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN + n * STACKLAT_EVENT_STAGE_LEN;
}

/* Pack @ev into @buf (stacklat_event_compact_len(@ev) bytes). */
static inline void stacklat_event_pack(void *buf, const struct stacklat_event *ev)
{
	unsigned char *b = (unsigned char *)buf;
	unsigned int len = stacklat_event_compact_len(ev);

	__builtin_memcpy(b, ev, STACKLAT_EVENT_HEAD_LEN);
	__builtin_memcpy(b + STACKLAT_EVENT_HEAD_LEN,
			 (const unsigned char *)ev + STACKLAT_EVENT_OBJ_OFF, STACKLAT_EVENT_OBJ_LEN);
	__builtin_memcpy(b + STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN, ev->stages,
			 len - STACKLAT_EVENT_HEAD_LEN - STACKLAT_EVENT_OBJ_LEN);
}

/*
 * Unpack @len bytes of a compact record into @ev (zeroed first); 0, or -1
 * when @len does not match the nstages it gives (the record is not one).
 * A 0.2 or 0.3 module's record has the shorter object
 * (STACKLAT_EVENT_OBJ_LEN_0_2), a 0.4 module's STACKLAT_EVENT_OBJ_LEN_0_4,
 * a 0.5 module's STACKLAT_EVENT_OBJ_LEN_0_5, a 0.6 or 0.7 module's
 * STACKLAT_EVENT_OBJ_LEN_0_6 (no cgroup): the fields after it stay unset.
 */
static inline int stacklat_event_unpack(struct stacklat_event *ev, const void *buf,
					unsigned int len)
{
	const unsigned char *b = (const unsigned char *)buf;
	unsigned int n, obj;

	__builtin_memset(ev, 0, sizeof(*ev));
	if (len < STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN_0_2)
		return -1;
	__builtin_memcpy(ev, b, STACKLAT_EVENT_HEAD_LEN);
	if (ev->nstages > STACKLAT_EVENT_STAGES)
		return -1;
	n = ev->nstages * STACKLAT_EVENT_STAGE_LEN;
	if (len == STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN + n)
		obj = STACKLAT_EVENT_OBJ_LEN;
	else if (len == STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN_0_6 + n)
		obj = STACKLAT_EVENT_OBJ_LEN_0_6;
	else if (len == STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN_0_5 + n)
		obj = STACKLAT_EVENT_OBJ_LEN_0_5;
	else if (len == STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN_0_4 + n)
		obj = STACKLAT_EVENT_OBJ_LEN_0_4;
	else if (len == STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN_0_2 + n)
		obj = STACKLAT_EVENT_OBJ_LEN_0_2;
	else
		return -1;
	__builtin_memcpy((unsigned char *)ev + STACKLAT_EVENT_OBJ_OFF, b + STACKLAT_EVENT_HEAD_LEN,
			 obj);
	__builtin_memcpy(ev->stages, b + STACKLAT_EVENT_HEAD_LEN + obj, n);
	return 0;
}

/* The name of block operation @op (enum stacklat_blk_op). */
static inline const char *stacklat_blk_op_name(__u32 op)
{
	switch (op) {
	case STACKLAT_BLK_OP_READ: return "read";
	case STACKLAT_BLK_OP_WRITE: return "write";
	case STACKLAT_BLK_OP_FLUSH: return "flush";
	case STACKLAT_BLK_OP_DISCARD: return "discard";
	case STACKLAT_BLK_OP_OTHER: return "other";
	}
	return "?";
}

/* The name of IP protocol @p (IPPROTO_*), or NULL. */
static inline const char *stacklat_ip_proto_name(__u32 p)
{
	switch (p) {
	case 1: return "icmp";
	case 2: return "igmp";
	case 6: return "tcp";
	case 17: return "udp";
	case 41: return "ipv6";
	case 47: return "gre";
	case 50: return "esp";
	case 58: return "icmpv6";
	case 132: return "sctp";
	case 136: return "udplite";
	}
	return (const char *)0;
}

/* The name of TCP state @st (the kernel's TCP_* numbering, as ss names them). */
static inline const char *stacklat_tcp_state_name(unsigned int st)
{
	switch (st) {
	case 1: return "ESTAB";
	case 2: return "SYN-SENT";
	case 3: return "SYN-RECV";
	case 4: return "FIN-WAIT-1";
	case 5: return "FIN-WAIT-2";
	case 6: return "TIME-WAIT";
	case 7: return "CLOSE";
	case 8: return "CLOSE-WAIT";
	case 9: return "LAST-ACK";
	case 10: return "LISTEN";
	case 11: return "CLOSING";
	case 12: return "NEW-SYN-RECV";
	case 13: return "BOUND-INACTIVE";
	}
	return "?";
}

/*
 * Address @a of @family (2 AF_INET: its first 4 bytes; else 16 bytes of
 * IPv6) into @buf (@len > 0, always terminated): dotted quad, or the RFC
 * 5952 text (lower-case hex, the longest run of two or more zero groups,
 * the first of equal ones, as "::") - the same on both sides, so that
 * debugfs and the tool print the same line.
 */
static inline void stacklat_addr_fmt(char *buf, unsigned int len, unsigned int family,
				     const unsigned char *a)
{
	unsigned int g[8], i, n = 0, best = 0, bestlen = 0, run = 0;
	int r;

	if (family == 2) {
		snprintf(buf, len, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
		return;
	}
	for (i = 0; i < 8; i++) {
		g[i] = (unsigned int)a[2 * i] << 8 | a[2 * i + 1];
		run = g[i] ? 0 : run + 1;
		if (run > bestlen) {
			bestlen = run;
			best = i + 1 - run;
		}
	}
	if (bestlen < 2)
		bestlen = 0;
	buf[0] = '\0';
	for (i = 0; i < 8 && n < len - 1; i++) {
		if (bestlen && i == best) {
			r = snprintf(buf + n, len - n, "::");
			i += bestlen - 1;
		} else {
			r = snprintf(buf + n, len - n, "%s%x",
				     i && !(bestlen && i == best + bestlen) ? ":" : "", g[i]);
		}
		if (r > 0)
			n = n + (unsigned int)r < len ? n + (unsigned int)r : len - 1;
	}
}

/*
 * " if=NAME sport=N dport=N dev=MAJ:MIN op=NAME sector=N bytes=N
 * saddr=A daddr=A state=S rto_us=N srtt_us=N cwnd=N retrans=N result=N
 * qlen=N qmax=N", the
 * words whose flag is set, into @buf (@len > 0, always terminated); the
 * length written.  The interface name is cut at its first byte that is
 * not printable or is a blank.
 */
static inline unsigned int stacklat_event_obj_fmt(char *buf, unsigned int len,
						  const struct stacklat_event *ev)
{
	unsigned int n = 0, i;
	int r;

#define STACKLAT_EV_ADD(...)						\
	do {								\
		r = snprintf(buf + n, len - n, __VA_ARGS__);		\
		if (r > 0)						\
			n = n + (unsigned int)r < len ? n + (unsigned int)r : len - 1; \
	} while (0)
	buf[0] = '\0';
	if (ev->flags & STACKLAT_EVENT_F_IF) {
		char name[sizeof(ev->ifname)];

		for (i = 0; i < sizeof(name) - 1; i++) {
			unsigned char c = (unsigned char)ev->ifname[i];

			if (c <= ' ' || c >= 0x7f)
				break;
			name[i] = (char)c;
		}
		name[i] = '\0';
		STACKLAT_EV_ADD(" if=%s", name);
	}
	if (ev->flags & STACKLAT_EVENT_F_PORTS)
		STACKLAT_EV_ADD(" sport=%u dport=%u", ev->sport, ev->dport);
	if (ev->flags & STACKLAT_EVENT_F_DEV)
		STACKLAT_EV_ADD(" dev=%u:%u", ev->dev >> 20, ev->dev & 0xfffff);
	if (ev->flags & STACKLAT_EVENT_F_OP)
		STACKLAT_EV_ADD(" op=%s", stacklat_blk_op_name(ev->op));
	if (ev->flags & STACKLAT_EVENT_F_IO)
		STACKLAT_EV_ADD(" sector=%llu bytes=%u",
				(unsigned long long)ev->sector, ev->bytes);
	if (ev->flags & STACKLAT_EVENT_F_ADDR) {
		char sa[48], da[48];

		stacklat_addr_fmt(sa, sizeof(sa), ev->family, ev->saddr);
		stacklat_addr_fmt(da, sizeof(da), ev->family, ev->daddr);
		STACKLAT_EV_ADD(" saddr=%s daddr=%s", sa, da);
	}
	if (ev->flags & STACKLAT_EVENT_F_TCP) {
		STACKLAT_EV_ADD(" state=%s", stacklat_tcp_state_name(ev->tcp_state));
		if (ev->rto_us || ev->srtt_us || ev->cwnd)
			STACKLAT_EV_ADD(" rto_us=%u srtt_us=%u cwnd=%u", ev->rto_us,
					ev->srtt_us, ev->cwnd);
		STACKLAT_EV_ADD(" retrans=%u", ev->retrans);
	}
	if (ev->flags & STACKLAT_EVENT_F_RESULT)
		STACKLAT_EV_ADD(" result=%d", ev->result);
	if (ev->flags & STACKLAT_EVENT_F_QUEUE)
		STACKLAT_EV_ADD(" qlen=%u qmax=%u", ev->qlen, ev->qmax);
	if (ev->flags & STACKLAT_EVENT_F_PROTO) {
		const char *pn = stacklat_ip_proto_name(ev->proto);

		if (pn)
			STACKLAT_EV_ADD(" proto=%s", pn);
		else
			STACKLAT_EV_ADD(" proto=%u", ev->proto);
	}
	if (ev->flags & STACKLAT_EVENT_F_WHERE) {
		char w[sizeof(ev->where)];

		for (i = 0; i < sizeof(w) - 1; i++) {
			unsigned char c = (unsigned char)ev->where[i];

			if (c <= ' ' || c >= 0x7f)
				break;
			w[i] = (char)c;
		}
		w[i] = '\0';
		STACKLAT_EV_ADD(" where=%s", w);
	}
#undef STACKLAT_EV_ADD
	return n;
}

#endif /* _UAPI_STACKLAT_EVENT_H */
