/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kmod/core/dim.c takes from dim.h, types.h, hist.h and pipeline.h,
 * for its userspace build (-DSL_USERSPACE, tests/unit/test_dim.c): the
 * stage struct as types.h has it (keep in step), a pipeline that is its
 * histograms, the lock and the dump sequence; then dim.h itself.
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

/* the dimensions themselves: dim.h, as the module has it */
#include "dim.h"

#endif /* _STACKLAT_DIM_SHIM_H */
