// SPDX-License-Identifier: GPL-2.0
/*
 * stacklat enable, disable, reset, filter, func and stacks: the commands
 * that change what the module does (stacks show reads its stacks too;
 * cmd.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "format.h"
#include "nl.h"
#include "parse.h"
#include "stacklat_filter.h"
#include "stacks.h"
#include "ufunc.h"

/* ---- changes ------------------------------------------------------------------ */

static void check_pipe_name(const char *s)
{
	if (!valid_name(s))
		usage_error("'%s' is not a pipeline name", s);
}

int cmd_enable(int argc, char **argv)
{
	if (argc != 2)
		usage_error(argc < 2 ? "which pipeline?" : "unexpected '%s'", argv[argc < 2 ? 0 : 2]);
	check_pipe_name(argv[1]);
	sl_nl_open();
	sl_nl_enable(argv[1], !strcmp(argv[0], "enable"));
	sl_nl_close();
	return 0;
}

int cmd_reset(int argc, char **argv)
{
	if (argc > 2)
		usage_error("unexpected '%s'", argv[2]);
	if (argc == 2)
		check_pipe_name(argv[1]);
	sl_nl_open();
	sl_nl_reset(argc == 2 ? argv[1] : NULL);
	sl_nl_close();
	return 0;
}

int cmd_filter(int argc, char **argv)
{
	struct filter_spec f;
	char err[256];

	if (argc < 2)
		usage_error("which pipeline?");
	check_pipe_name(argv[1]);
	if (parse_filter(argc - 2, argv + 2, &f, err, sizeof(err)))
		usage_error("%s", err);
	sl_nl_open();
	sl_nl_set_filter(argv[1], &f);
	sl_nl_close();
	return 0;
}

/* a number lo..hi in @s, else -1 */
static long sample_num(const char *s, unsigned long lo, unsigned long hi)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] < '0' || s[0] > '9' || n < lo || n > hi)
		return -1;
	return (long)n;
}

/* sample PIPELINE N | sample PIPELINE auto OBJECTS */
int cmd_sample(int argc, char **argv)
{
	long n;

	if (argc == 4 && !strcmp(argv[2], "auto")) {
		check_pipe_name(argv[1]);
		n = sample_num(argv[3], 1, STACKLAT_SAMPLE_AUTO_MAX);
		if (n < 0)
			usage_error("'%s': OBJECTS is 1..%d (a second, on the busiest CPU)",
				    argv[3], STACKLAT_SAMPLE_AUTO_MAX);
		sl_nl_open();
		sl_nl_set_sample(argv[1], (uint32_t)n, true);
		sl_nl_close();
		return 0;
	}
	if (argc != 3)
		usage_error("sample PIPELINE N, or sample PIPELINE auto OBJECTS");
	check_pipe_name(argv[1]);
	n = sample_num(argv[2], 1, STACKLAT_SAMPLE_MAX);
	if (n < 0)
		usage_error("'%s': N is 1..%d (1: every object)", argv[2], STACKLAT_SAMPLE_MAX);
	sl_nl_open();
	sl_nl_set_sample(argv[1], (uint32_t)n, false);
	sl_nl_close();
	return 0;
}

/* cgtotals PIPELINE on|off */
int cmd_cgtotals(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[2], "on") && strcmp(argv[2], "off")))
		usage_error("cgtotals PIPELINE on|off");
	check_pipe_name(argv[1]);
	sl_nl_open();
	sl_nl_set_cgtotals(argv[1], argv[2][1] == 'n');
	sl_nl_close();
	return 0;
}

/* func add -p: the func pipeline's filter before it (sl_nl_on_fail()) */
static struct filter_spec func_old_filter;

static void func_filter_undo(void *arg)
{
	sl_nl_set_filter("func", arg);
}

/*
 * func add|del [-p PID] SPEC: a kernel function (SYMBOL, MODULE:SYMBOL) or
 * a user-space one (PATH:SYMBOL, LIB:SYMBOL: ufunc.c resolves it to the
 * file offset the module takes).  -p sets the pipeline's tgid= filter.
 */
int cmd_func(int argc, char **argv)
{
	char upoint[STACKLAT_SYM_MAX], err[PATH_MAX + 256];
	const char *spec;
	struct filter_spec f;
	char *pid = NULL;
	bool add;
	int r;

	if (argc == 5 && !strcmp(argv[2], "-p")) {
		pid = argv[3];
		argv[2] = argv[4];
		argc = 3;
	}
	if (argc != 3)
		usage_error("%s", argc < 3 ? "add or del, and a SYMBOL" : "one SYMBOL at a time");
	if (!strcmp(argv[1], "add"))
		add = true;
	else if (!strcmp(argv[1], "del"))
		add = false;
	else
		usage_error("'%s' is neither add nor del", argv[1]);
	if (pid) {
		char tgid[64];
		char *fa[1] = { tgid };

		snprintf(tgid, sizeof(tgid), "tgid=%s", pid);
		if (!add || parse_filter(1, fa, &f, err, sizeof(err)))
			usage_error("-p: '%s' %s", pid,
				    add ? "is not a process id" : "goes with add");
	}
	spec = argv[2];
	r = ufunc_resolve(spec, upoint, sizeof(upoint), err, sizeof(err));
	if (r < 0)
		fatal("func %s: %s", argv[1], err);
	if (!r) {
		spec = upoint;
	} else {
		if (!spec[0] || strlen(spec) >= STACKLAT_SYM_MAX)
			usage_error("a kernel symbol has 1 to %d characters", STACKLAT_SYM_MAX - 1);
		if (!stacklat_valid_symbol(spec))
			usage_error("'%s' is neither a kernel symbol ([A-Za-z_][A-Za-z0-9_.]*, optionally MODULE:) nor PATH:SYMBOL or LIB:SYMBOL",
				    spec);
	}
	sl_nl_open();
	if (pid) {
		/*
		 * The filter first: a point armed before it would count every
		 * process's calls meanwhile (this tool's own, if it calls the
		 * function: c:sendmsg).  If the add is refused, the filter the
		 * pipeline had is put back.
		 */
		struct pipe_list pl = { 0 };

		sl_nl_get_pipelines("func", &pl);
		if (pl.n == 1) {
			func_old_filter = pl.p[0].has_filter ? pl.p[0].filter :
							       (struct filter_spec){ 0 };
			sl_nl_on_fail(func_filter_undo, &func_old_filter);
		}
		pipe_list_free(&pl);
		sl_nl_set_filter("func", &f);
	}
	sl_nl_func(add, spec);
	sl_nl_close();
	return 0;
}

/* ---- spans (issue 27) ---- */

/*
 * A span's point @spec into @out: a user function (PATH:SYMBOL,
 * LIB:SYMBOL) resolved as func add does, else a kernel function, either
 * with %return for its return; a tracepoint (tp:[SYSTEM:]NAME) as it is,
 * for the module to find.
 */
static void span_point(const char *spec, char *out, size_t len)
{
	char err[PATH_MAX + 256], sym[STACKLAT_SYM_MAX];
	const char *pct = strchr(spec, '%');
	size_t n;
	int r;

	if (strlen(spec) >= STACKLAT_SYM_MAX)
		usage_error("'%s': a point has at most %d characters", spec, STACKLAT_SYM_MAX - 1);
	if (!strncmp(spec, "tp:", 3)) {
		snprintf(out, len, "%s", spec);
		return;
	}
	snprintf(sym, sizeof(sym), "%.*s", pct ? (int)(pct - spec) : (int)strlen(spec), spec);
	r = ufunc_resolve(sym, out, len, err, sizeof(err));
	if (r < 0)
		fatal("span add: %s", err);
	if (!r) {
		if (pct && strcmp(pct, "%return"))
			usage_error("'%s': only %%return follows a function", spec);
		n = strlen(out);
		if (pct && snprintf(out + n, len - n, "%s", pct) >= (int)(len - n))
			usage_error("'%s': too long once resolved (%s%s)", spec, out, pct);
		return;
	}
	if (!stacklat_valid_symbol(sym) || (pct && strcmp(pct, "%return")))
		usage_error("'%s' is neither a kernel function (SYMBOL, MODULE:SYMBOL, SYMBOL%%return) nor PATH:SYMBOL or LIB:SYMBOL",
			    spec);
	snprintf(out, len, "%s", spec);
}

/* span add NAME FROM TO [KEY] | span del NAME | span list */
int cmd_span(int argc, char **argv)
{
	char from[STACKLAT_SYM_MAX], to[STACKLAT_SYM_MAX], line[4 * STACKLAT_SYM_MAX];
	int n;

	if (argc < 2)
		usage_error("add, del or list");
	if (!strcmp(argv[1], "list")) {
		char *av[] = { argv[0], "span", NULL };

		if (argc != 2)
			usage_error("list takes nothing");
		return cmd_show(2, av);
	}
	if (!strcmp(argv[1], "del")) {
		if (argc != 3 || !valid_name(argv[2]))
			usage_error("del NAME");
		sl_nl_open();
		sl_nl_point("span", false, argv[2]);
		sl_nl_close();
		return 0;
	}
	if (strcmp(argv[1], "add"))
		usage_error("'%s' is none of add, del, list", argv[1]);
	if (argc < 5 || argc > 6)
		usage_error("add NAME FROM TO [thread|argN|argN,argM]");
	if (!valid_name(argv[2]))
		usage_error("'%s' is not a span's name ([A-Za-z0-9_.-])", argv[2]);
	span_point(argv[3], from, sizeof(from));
	span_point(argv[4], to, sizeof(to));
	n = snprintf(line, sizeof(line), "%s %s %s %s", argv[2], from, to,
		     argc == 6 ? argv[5] : "thread");
	if (n < 0 || n >= STACKLAT_SYM_MAX)
		usage_error("NAME FROM TO KEY: at most %d characters in all (the module's limit); a shorter PATH may do",
			    STACKLAT_SYM_MAX - 1);
	sl_nl_open();
	sl_nl_point("span", true, line);
	sl_nl_close();
	return 0;
}

/* ---- kernel stacks (issue 28) ---- */

static void check_symbol(const char *sym)
{
	if (!sym[0] || strlen(sym) >= STACKLAT_SYM_MAX)
		usage_error("a kernel symbol has 1 to %d characters", STACKLAT_SYM_MAX - 1);
	if (!stacklat_valid_symbol(sym))
		usage_error("'%s' is not a kernel symbol ([A-Za-z_][A-Za-z0-9_.]*, optionally MODULE:)",
			    sym);
}

int cmd_stacks(int argc, char **argv)
{
	struct stack_set s = { 0 };
	bool json = false;
	long n = 0;
	char *end;
	int i;

	if (argc < 2)
		usage_error("add, del, on, off or show");
	if (!strcmp(argv[1], "on") || !strcmp(argv[1], "off")) {
		if (argc != 3 || !valid_name(argv[2]))
			usage_error("%s PIPELINE (netdrop or tcpretrans)", argv[1]);
		sl_nl_open();
		sl_nl_set_stacks(argv[2], argv[1][1] == 'n');
		sl_nl_close();
		return 0;
	}
	if (!strcmp(argv[1], "add") || !strcmp(argv[1], "del")) {
		if (argc != 3)
			usage_error("%s", argc < 3 ? "a SYMBOL" : "one SYMBOL at a time");
		check_symbol(argv[2]);
		sl_nl_open();
		sl_nl_point("stacks", argv[1][0] == 'a', argv[2]);
		sl_nl_close();
		return 0;
	}
	if (strcmp(argv[1], "show"))
		usage_error("'%s' is none of add, del, on, off, show", argv[1]);
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			errno = 0;
			n = strtol(argv[++i], &end, 10);
			if (errno || *end || end == argv[i] || n < 1 || n > 1000000)
				usage_error("-n: '%s' is not 1..1000000", argv[i]);
		} else {
			usage_error("unexpected '%s'", argv[i]);
		}
	}
	sl_nl_open();
	sl_nl_get_stacks(NULL, &s);
	sl_nl_close();
	stacks_sort(&s);
	stacks_print(stdout, &s, (size_t)n, json, now_ns(CLOCK_REALTIME));
	stack_set_free(&s);
	return 0;
}
