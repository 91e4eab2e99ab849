/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands of stacklat: main() and the table in stacklat.c call
 * them, cmd_*.c implement them, with what cmd_common.c shares (below).
 * Each takes its words from its own name on (argv[0]) and returns the
 * exit code; a bad word is usage_error()'s, a failure fatal()'s.
 */
#ifndef STACKLAT_TOOL_CMD_H
#define STACKLAT_TOOL_CMD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "model.h"

#define EXIT_USAGE 2

/* cmd_read.c: read the module's state */
int cmd_status(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_hist(int argc, char **argv);
int cmd_inflight(int argc, char **argv);
int cmd_metrics(int argc, char **argv);
/* cmd_events.c */
int cmd_events(int argc, char **argv);
/* cmd_top.c */
int cmd_top(int argc, char **argv);
/* cmd_ctl.c: change it (cmd_enable disables too, by argv[0]) */
int cmd_enable(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_filter(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_cgtotals(int argc, char **argv);
int cmd_func(int argc, char **argv);
int cmd_span(int argc, char **argv);
int cmd_stacks(int argc, char **argv);

/* ---- cmd_common.c ---- */

/* A line of the command table (stacklat.c). */
struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *desc;
	const char *help;
};

/* The command running (main() sets it): usage_error() names it. */
extern const struct subcommand *cmd_current;

/* "stacklat: COMMAND: MESSAGE" and the command's usage line; exit 2. */
void __attribute__((noreturn, format(printf, 1, 2))) usage_error(const char *fmt, ...);
/* Colour on stdout (STACKLAT_COLOR, NO_COLOR, a terminal). */
bool use_color(void);
/* -j or --json */
bool is_json_opt(const char *s);
/* @clk's time in ns */
uint64_t now_ns(clockid_t clk);
/* The pipeline @name of @pl, or NULL. */
const struct pipe_info *find_pipe(const struct pipe_list *pl, const char *name);

/* Set by SIGINT and SIGTERM once catch_stop() ran: a loop's end. */
extern volatile sig_atomic_t stop;
/* Catch SIGINT and SIGTERM into stop, without SA_RESTART (a sleep wakes). */
void catch_stop(void);

#endif
