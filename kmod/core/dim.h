/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Breakdown dimensions (dim.c): a pipeline's stages kept per interface or
 * per disk, in a fixed number of slots recycled as keys come and go.
 */
#ifndef _STACKLAT_DIM_H
#define _STACKLAT_DIM_H

#ifndef SL_USERSPACE
#include <linux/mutex.h>
#include "types.h"

extern struct mutex sl_lock;		/* pipeline.c's */
extern u32 sl_dump_seq;			/* dim.c's; pipeline.h says what it is */
#endif
/* (its userspace build, tests/unit/dim_shim.h, gives struct sl_stage) */

#define SL_DIM_SLOTS	8			/* named slots per dimension */
#define SL_DIM_OTHER	SL_DIM_SLOTS		/* the tag of "other" */
#define SL_DIM_NONE	0xffffffffU		/* sl_dim_find(): no slot */
#define SL_DIM_DYING	U64_MAX			/* a slot's key being released */

struct sl_dim {
	u64 key[SL_DIM_SLOTS];			/* 0: free */
	u32 gen[SL_DIM_SLOTS];			/* bumped on release */
	struct sl_stage *stages;		/* (SLOTS + 1) x nper */
	const char * const *suffix;		/* per stage of a slot */
	unsigned int first;			/* pipeline stage of slot 0 */
	unsigned int nper;
	unsigned int name_max;
};

void sl_dim_init(struct sl_dim *d, struct sl_stage *stages, unsigned int first,
		 unsigned int nper, const char * const *suffix,
		 const char * const *from, const char * const *to);
u32 sl_dim_find(const struct sl_dim *d, u64 key);
u32 sl_dim_tag(struct sl_dim *d, u64 key, const char *name);
void sl_dim_label(const struct sl_dim *d, u32 tag, char *buf, size_t len);
unsigned int sl_dim_stage(const struct sl_dim *d, u32 tag);
void sl_dim_release(struct sl_pipeline *p, struct sl_dim *d, u64 key);

#endif /* _STACKLAT_DIM_H */
