/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels stacklat supports lives here, behind
 * a wrapper named for what it does.  The rest of the module never tests a
 * kernel version.  This header is force-included into every object by Kbuild.
 *
 * Only major.minor are compared: LINUX_VERSION_CODE clamps the sublevel at
 * 255, and no API used here changed inside a stable series.
 */
#ifndef _STACKLAT_COMPAT_H
#define _STACKLAT_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "stacklat supports Linux 5.10 and later"
#endif

#ifndef __ASSEMBLY__
#include <linux/kprobes.h>
#include <net/netlink.h>

/* ri->rp became get_kretprobe(ri) in 5.11, when kretprobes moved to rethook. */
static inline struct kretprobe *sl_compat_kretprobe(struct kretprobe_instance *ri)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0)
	return ri->rp;
#else
	return get_kretprobe(ri);
#endif
}

/* nla_strlcpy() was renamed nla_strscpy() in 5.11 (and returns -E2BIG). */
static inline ssize_t sl_compat_nla_strscpy(char *dst, const struct nlattr *nla,
					    size_t size)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0)
	size_t n = nla_strlcpy(dst, nla, size);

	return n >= size ? -E2BIG : (ssize_t)n;
#else
	return nla_strscpy(dst, nla, size);
#endif
}

/*
 * An extack message naming @name (NUL-terminated), @attr the attribute at
 * fault.  Messages formatted at run time (extack->_msg_buf) came in 6.2;
 * before, only the fixed text @msg is sent, with @attr pointing at the name.
 * Also since 6.2 the start callback of a dump sees the request's extack:
 * before, cb->extack is NULL there and only the errno reaches user space.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define sl_compat_err_msg_name(extack, attr, msg, name)		\
	NL_SET_ERR_MSG_ATTR(extack, attr, msg)
#else
#define sl_compat_err_msg_name(extack, attr, msg, name) do {	\
	NL_SET_ERR_MSG_FMT(extack, msg " '%s'", name);		\
	NL_SET_BAD_ATTR(extack, attr);				\
} while (0)
#endif

/* ---- storage (pipelines/storage.c) --------------------------------------------
 *
 * Checked against the headers of Debian's 5.10, 6.1, 6.1-rt and 6.12.  Each
 * tracepoint probe in pipelines/storage.c is also type-checked at build time against
 * the kernel's own register_trace_*() declaration, so a prototype that
 * drifts is a build error, never a crash.
 *
 * The bio tracepoints (block_bio_queue, block_bio_backmerge/frontmerge,
 * block_split) lost their request_queue argument in 5.11; the request ones
 * (block_rq_insert/issue/requeue/merge) had already lost theirs in 5.10 and
 * take only the request on every kernel supported here.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0)
#define SL_COMPAT_BIO_TP_ARGS(bio)	struct request_queue *q, struct bio *bio
#define SL_COMPAT_MERGE_TP_ARGS(bio)	struct request_queue *q, \
					struct request *rq, struct bio *bio
#define SL_COMPAT_SPLIT_TP_ARGS(bio)	struct request_queue *q, \
					struct bio *bio, unsigned int new_sector
#else
#define SL_COMPAT_BIO_TP_ARGS(bio)	struct bio *bio
#define SL_COMPAT_MERGE_TP_ARGS(bio)	struct bio *bio
#define SL_COMPAT_SPLIT_TP_ARGS(bio)	struct bio *bio, unsigned int new_sector
#endif

/* block_rq_complete's error became a blk_status_t in 5.16. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 16, 0)
#define SL_COMPAT_RQ_COMPLETE_ERR	int
#else
#define SL_COMPAT_RQ_COMPLETE_ERR	blk_status_t
#endif

/* The gendisk of a bio: bio->bi_disk became bio->bi_bdev->bd_disk in 5.12. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 12, 0)
#define sl_compat_bio_disk(bio)	((bio)->bi_disk)
#else
#define sl_compat_bio_disk(bio)	((bio)->bi_bdev->bd_disk)
#endif

/* The gendisk of a request: rq->rq_disk went away in 6.0 for rq->q->disk. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 0, 0)
#define sl_compat_rq_disk(rq)	((rq)->rq_disk)
#else
#define sl_compat_rq_disk(rq)	((rq)->q->disk)
#endif

/*
 * The dev_t of the block device at @path (filter "dev=vda"): lookup_bdev()
 * returned a referenced block_device until 5.11, a dev_t since.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0)
#define sl_compat_lookup_bdev(path, devp) ({				\
	struct block_device *__b = lookup_bdev(path);			\
	int __r = PTR_ERR_OR_ZERO(__b);					\
									\
	if (!__r) {							\
		*(devp) = __b->bd_dev;					\
		bdput(__b);						\
	}								\
	__r;								\
})
#else
#define sl_compat_lookup_bdev(path, devp)	lookup_bdev(path, devp)
#endif

/* ---- end of storage ---------------------------------------------------- */

/* ---- network (pipelines/net.c) -------------------------------------------------
 *
 * Checked against include/trace/events/{skb,net,sock}.h of Debian's 5.10,
 * 6.1, 6.1-rt and 6.12.  pipelines/net.c type-checks every tracepoint probe against
 * the kernel's own register_trace_*() declaration at build time, so a
 * prototype that drifts is a build error, never a crash.  The net_dev_*,
 * netif_receive_skb, skb_copy_datagram_iovec and inet_sock_set_state
 * prototypes are the same on every supported kernel.
 */

/* kfree_skb's tracepoint grew a drop reason in 5.17 and an sk in 6.11. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 17, 0)
#define SL_COMPAT_KFREE_SKB_ARGS	struct sk_buff *skb, void *location
#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 11, 0)
#define SL_COMPAT_KFREE_SKB_ARGS	struct sk_buff *skb, void *location, \
					enum skb_drop_reason reason
#else
#define SL_COMPAT_KFREE_SKB_ARGS	struct sk_buff *skb, void *location, \
					enum skb_drop_reason reason, \
					struct sock *rx_sk
#endif

/* consume_skb's tracepoint grew a location argument in 6.3. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
#define SL_COMPAT_CONSUME_SKB_ARGS	struct sk_buff *skb
#else
#define SL_COMPAT_CONSUME_SKB_ARGS	struct sk_buff *skb, void *location
#endif

/* ---- end of network ---------------------------------------------------- */

#endif /* __ASSEMBLY__ */
#endif /* _STACKLAT_COMPAT_H */
