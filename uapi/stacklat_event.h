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
 */
static inline int stacklat_event_unpack(struct stacklat_event *ev, const void *buf,
					unsigned int len)
{
	const unsigned char *b = (const unsigned char *)buf;

	__builtin_memset(ev, 0, sizeof(*ev));
	if (len < STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN)
		return -1;
	__builtin_memcpy(ev, b, STACKLAT_EVENT_HEAD_LEN);
	if (ev->nstages > STACKLAT_EVENT_STAGES || len != stacklat_event_compact_len(ev))
		return -1;
	__builtin_memcpy((unsigned char *)ev + STACKLAT_EVENT_OBJ_OFF, b + STACKLAT_EVENT_HEAD_LEN,
			 STACKLAT_EVENT_OBJ_LEN);
	__builtin_memcpy(ev->stages, b + STACKLAT_EVENT_HEAD_LEN + STACKLAT_EVENT_OBJ_LEN,
			 len - STACKLAT_EVENT_HEAD_LEN - STACKLAT_EVENT_OBJ_LEN);
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

/*
 * " if=NAME sport=N dport=N dev=MAJ:MIN op=NAME sector=N bytes=N", the
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
#undef STACKLAT_EV_ADD
	return n;
}

#endif /* _UAPI_STACKLAT_EVENT_H */
