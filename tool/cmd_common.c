// SPDX-License-Identifier: GPL-2.0
/*
 * What the subcommands share (cmd.h): the usage error of the command
 * running, -j, the clock, a pipeline by name, the stop on a signal.
 * Below the commands and main(): it calls none of them.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "format.h"

const struct subcommand *cmd_current;

void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("stacklat: ", stderr);
	if (cmd_current)
		fprintf(stderr, "%s: ", cmd_current->name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	if (cmd_current)
		fprintf(stderr, "usage: stacklat %s %s\n", cmd_current->name,
			cmd_current->usage);
	exit(EXIT_USAGE);
}

bool use_color(void)
{
	return color_decide(getenv("STACKLAT_COLOR"), getenv("NO_COLOR"),
			    isatty(STDOUT_FILENO));
}

volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

void catch_stop(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: wake the sleep */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

bool is_json_opt(const char *s)
{
	return !strcmp(s, "-j") || !strcmp(s, "--json");
}

uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

const struct pipe_info *find_pipe(const struct pipe_list *pl, const char *name)
{
	size_t i;

	for (i = 0; i < pl->n; i++)
		if (!strcmp(pl->p[i].name, name))
			return &pl->p[i];
	return NULL;
}
