/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The words a slow event's object adds to its line (interface, ports,
 * disk, operation, sector, size), shared verbatim by the module (debugfs
 * "events") and the tool, so the two lines read the same.  Include it
 * after stacklat.h and the side's snprintf (linux/kernel.h or stdio.h).
 */
#ifndef _UAPI_STACKLAT_EVENT_H
#define _UAPI_STACKLAT_EVENT_H

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
