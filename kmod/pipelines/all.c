// SPDX-License-Identifier: GPL-2.0
/*
 * Every pipeline, one line each.  A pipeline's id is its place in this
 * list (readers see it, in events and dumps): a new one goes last.
 * main.c hands the list to the engine, which names no pipeline.
 */
#include "sl.h"
#include "all.h"

struct sl_pipeline *const sl_all_pipelines[] = {
	&sl_pipe_func,
	&sl_pipe_net_rx,
	&sl_pipe_net_tx,
	&sl_pipe_storage,
	&sl_pipe_block,
	&sl_pipe_tcpconnect,
	&sl_pipe_tcpaccept,
	&sl_pipe_tcpretrans,
	&sl_pipe_netsize,
	&sl_pipe_netdrop,
	&sl_pipe_reqresp,
	&sl_pipe_irq,
	&sl_pipe_syscalls,
	&sl_pipe_disktop,
	&sl_pipe_sched,
	&sl_pipe_stacks,
	&sl_pipe_offcpu,
	&sl_pipe_cpu,
	&sl_pipe_futex,
	&sl_pipe_lock,
	&sl_pipe_files,
	&sl_pipe_nettop,
	&sl_pipe_span,
};

const unsigned int sl_all_npipelines = ARRAY_SIZE(sl_all_pipelines);

/* an id fits a key's top byte and the readers' arrays */
static_assert(ARRAY_SIZE(sl_all_pipelines) <= SL_MAX_PIPELINES);
