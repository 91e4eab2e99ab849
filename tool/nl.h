/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stacklat generic netlink family, through libnl-genl-3.  Every
 * function either succeeds or prints why not on stderr and exits 1.
 */
#ifndef STACKLAT_TOOL_NL_H
#define STACKLAT_TOOL_NL_H

#include <stdbool.h>

#include "model.h"

/* Connect and resolve the family ("kernel module not loaded" if absent). */
void sl_nl_open(void);
void sl_nl_close(void);

void sl_nl_get_status(struct status_info *st);
/* GET_PIPELINES dump (@pipe NULL: all); interrupted dumps are retried. */
void sl_nl_get_pipelines(const char *pipe, struct pipe_list *pl);
void pipe_list_free(struct pipe_list *pl);
/* GET_HIST dump (@pipe NULL: all) into @set; interrupted dumps retried. */
void sl_nl_get_hists(const char *pipe, struct hist_set *set);

/*
 * The rows of the syscalls pipeline (struct sc_row), of disktop (struct
 * dk_row) or of sched (struct sd_row) by GET_KEYED, retried if interrupted.
 */
void sl_nl_get_syscalls(struct keyed_set *s);
void sl_nl_get_disktop(struct keyed_set *s);
void sl_nl_get_sched(struct keyed_set *s);
void sl_nl_get_offcpu(struct keyed_set *s);
void sl_nl_get_cpu(struct keyed_set *s);
void sl_nl_get_futex(struct keyed_set *s);
void sl_nl_get_lock(struct keyed_set *s);
void sl_nl_get_files(struct keyed_set *s);
void sl_nl_get_nettop(struct keyed_set *s);
void keyed_set_free(struct keyed_set *s);

/* Every live entry of the in-flight table (of @pipe, or all). */
void sl_nl_get_inflight(const char *pipe, struct inflight_list *l);

void sl_nl_enable(const char *pipe, bool on);
/* Slow events above @ns (0: off) on @pipe. */
void sl_nl_set_threshold(const char *pipe, uint64_t ns);
/* a fixed rate @n, or with @autom the automatic one, a budget of @n hits/s */
void sl_nl_set_sample(const char *pipe, uint32_t n, bool autom);
/* Take the events waiting in the kernel's rings, @fn for each; how many. */
size_t sl_nl_get_events(void (*fn)(const struct stacklat_event *ev, void *arg), void *arg);
void sl_nl_set_filter(const char *pipe, const struct filter_spec *f);
/*
 * @undo(@arg) runs when the kernel refuses a change from now on, before
 * the tool says why and exits (a change that took effect before it is
 * taken back); NULL: nothing.
 */
void sl_nl_on_fail(void (*undo)(void *arg), void *arg);
void sl_nl_reset(const char *pipe);
void sl_nl_func(bool add, const char *symbol);

/* ---- kernel stacks (issue 28) ---- */

/* One stack of GET_STACKS: its frames symbolised by the module. */
struct stack_row {
	char pipe[STACKLAT_NAME_MAX];
	uint32_t id;
	uint64_t count, sum;
	bool truncated;
	unsigned int nr;
	char **frames;
};

struct stack_set {
	struct stack_row *r;
	size_t n, cap;
};

/* FUNC_ADD/DEL on the pipeline @pipe ("stacks"). */
void sl_nl_point(const char *pipe, bool add, const char *symbol);
/* Stacks at @pipe's points (netdrop, tcpretrans) on or off. */
void sl_nl_set_stacks(const char *pipe, bool on);
void sl_nl_set_cgtotals(const char *pipe, bool on);
/* The stacks of @pipe (NULL: all), retried if interrupted. */
void sl_nl_get_stacks(const char *pipe, struct stack_set *s);
void stack_set_free(struct stack_set *s);

/* Attempts of a dump that keeps coming back NLM_F_DUMP_INTR. */
#define SL_NL_DUMP_TRIES 5

#endif
