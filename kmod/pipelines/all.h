/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every pipeline (all.c has the list), for main.c to hand to the engine.
 * A new pipeline: its file, its word in Kbuild, its line here and its
 * line at the end of all.c's list.
 */
#ifndef _STACKLAT_ALL_H
#define _STACKLAT_ALL_H

struct sl_pipeline;

extern struct sl_pipeline sl_pipe_func;
extern struct sl_pipeline sl_pipe_net_rx;
extern struct sl_pipeline sl_pipe_net_tx;
extern struct sl_pipeline sl_pipe_storage;
extern struct sl_pipeline sl_pipe_block;
extern struct sl_pipeline sl_pipe_tcpconnect;
extern struct sl_pipeline sl_pipe_tcpaccept;
extern struct sl_pipeline sl_pipe_tcpretrans;
extern struct sl_pipeline sl_pipe_netsize;
extern struct sl_pipeline sl_pipe_netdrop;
extern struct sl_pipeline sl_pipe_reqresp;
extern struct sl_pipeline sl_pipe_irq;
extern struct sl_pipeline sl_pipe_syscalls;
extern struct sl_pipeline sl_pipe_disktop;
extern struct sl_pipeline sl_pipe_sched;
extern struct sl_pipeline sl_pipe_stacks;
extern struct sl_pipeline sl_pipe_offcpu;
extern struct sl_pipeline sl_pipe_cpu;
extern struct sl_pipeline sl_pipe_futex;
extern struct sl_pipeline sl_pipe_lock;
extern struct sl_pipeline sl_pipe_files;
extern struct sl_pipeline sl_pipe_nettop;
extern struct sl_pipeline sl_pipe_span;

extern struct sl_pipeline *const sl_all_pipelines[];
extern const unsigned int sl_all_npipelines;

#endif /* _STACKLAT_ALL_H */
