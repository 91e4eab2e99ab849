/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kmod/core/dim.c takes from dim.h, types.h, hist.h and pipeline.h,
 * for its userspace build (-DSL_USERSPACE, tests/unit/test_dim.c): the
 * breakdown dimension and stage structs and constants as dim.h and
 * types.h have them, a pipeline that is its histograms, the lock and the
 * dump sequence.  Keep in step with those headers.
 */
#ifndef _STACKLAT_DIM_SHIM_H
#define _STACKLAT_DIM_SHIM_H

#include <stdio.h>

#include "kshim.h"
#include "stacklat.h"
#include "hist.h"

#define U64_MAX			UINT64_MAX
#define SL_FLIGHT_NTS		12
#define lockdep_assert_held(l)	((void)(l))

struct sl_stage {
	char name[STACKLAT_NAME_MAX];
	const char *from;		/* hook point names, for the reader */
	const char *to;
	u8 from_pt;			/* point (timestamp slot) indices */
	u8 to_pt;
	u8 unit;			/* enum stacklat_unit, 0: ns */
};

/* dim.h's breakdown dimensions */
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

/* a pipeline, as far as dim.c looks into one (types.h: the engine's own) */
struct sl_pipe_priv {
	struct sl_hist *hists;
};

struct sl_pipeline {
	struct sl_pipe_priv priv;
};

extern struct mutex sl_lock;
extern u32 sl_dump_seq;
void sl_hist_reset(struct sl_hist *h);

void sl_dim_init(struct sl_dim *d, struct sl_stage *stages, unsigned int first,
		 unsigned int nper, const char * const *suffix,
		 const char * const *from, const char * const *to);
u32 sl_dim_find(const struct sl_dim *d, u64 key);
u32 sl_dim_tag(struct sl_dim *d, u64 key, const char *name);
void sl_dim_label(const struct sl_dim *d, u32 tag, char *buf, size_t len);
unsigned int sl_dim_stage(const struct sl_dim *d, u32 tag);
void sl_dim_release(struct sl_pipeline *p, struct sl_dim *d, u64 key);

#endif /* _STACKLAT_DIM_SHIM_H */
