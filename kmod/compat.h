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
 * block_bio_queue lost its request_queue argument in 5.11 (the block_rq_*
 * tracepoints had already lost theirs by 5.10), and block_rq_complete's
 * error became a blk_status_t.  Probe prototypes are spelled through these.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0)
#define SL_COMPAT_BIO_TP_ARGS(bio)	struct request_queue *q, struct bio *bio
#define SL_COMPAT_RQ_COMPLETE_ERR	int
#else
#define SL_COMPAT_BIO_TP_ARGS(bio)	struct bio *bio
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

#endif /* __ASSEMBLY__ */
#endif /* _STACKLAT_COMPAT_H */
