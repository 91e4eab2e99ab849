// SPDX-License-Identifier: GPL-2.0
/*
 * stacklat - read and drive the stacklat kernel module over generic netlink.
 *
 * Exit codes: 0 ok, 1 runtime error (module absent, kernel refused), 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "format.h"
#include "histo.h"
#include "nl.h"
#include "parse.h"
#include "render.h"
#include "stacklat_filter.h"

#ifndef STACKLAT_TOOL_VERSION
#define STACKLAT_TOOL_VERSION "unknown"
#endif

#define EXIT_USAGE 2

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *desc;
	const char *help;
};

static const struct subcommand *current;

static void __attribute__((noreturn, format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("stacklat: ", stderr);
	if (current)
		fprintf(stderr, "%s: ", current->name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	if (current)
		fprintf(stderr, "usage: stacklat %s %s\n", current->name, current->usage);
	exit(EXIT_USAGE);
}

static void __attribute__((noreturn, format(printf, 1, 2))) runtime_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("stacklat: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static bool want_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

static void print_cmd_help(FILE *f, const struct subcommand *c)
{
	fprintf(f, "usage: stacklat %s%s%s\n\n%s\n", c->name, c->usage[0] ? " " : "",
		c->usage, c->desc);
	if (c->help)
		fprintf(f, "\n%s", c->help);
}

static bool use_color(void)
{
	return color_decide(getenv("STACKLAT_COLOR"), getenv("NO_COLOR"),
			    isatty(STDOUT_FILENO));
}

/* ---- status -------------------------------------------------------------- */

static int cmd_status(int argc, char **argv)
{
	struct status_info st;
	struct pipe_list pl = { 0 };

	(void)argv;
	if (argc > 1)
		usage_error("unexpected '%s'", argv[1]);
	sl_nl_open();
	sl_nl_get_status(&st);
	sl_nl_get_pipelines(NULL, &pl);
	render_status(stdout, &st, &pl, use_color());
	pipe_list_free(&pl);
	sl_nl_close();
	return 0;
}

/* ---- show ------------------------------------------------------------------ */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static const struct pipe_info *find_pipe(const struct pipe_list *pl, const char *name)
{
	size_t i;

	for (i = 0; i < pl->n; i++)
		if (!strcmp(pl->p[i].name, name))
			return &pl->p[i];
	return NULL;
}

/* The stages of @pipe in @set: a run in dump order. */
static const struct hist *pipe_hists(const struct hist_set *set, const char *pipe,
				     size_t *n)
{
	size_t i, j;

	for (i = 0; i < set->n && strcmp(set->h[i].pipeline, pipe); i++)
		;
	for (j = i; j < set->n && !strcmp(set->h[j].pipeline, pipe); j++)
		;
	*n = j - i;
	return i < set->n ? &set->h[i] : NULL;
}

/* Print one sample: every selected pipeline of @set. */
static void print_sample(const struct show_args *a, const char **names, size_t nnames,
			 const struct pipe_list *pl, const struct hist_set *set,
			 bool interval)
{
	const struct hist *hs;
	size_t i, n;

	for (i = 0; i < nnames; i++) {
		const struct pipe_info *pi = interval ? NULL : find_pipe(pl, names[i]);

		hs = pipe_hists(set, names[i], &n);
		if (a->json) {
			if (i)
				fputc(',', stdout);
			render_show_json(stdout, names[i], pi, hs, n, interval);
		} else {
			if (i)
				fputc('\n', stdout);
			render_show_table(stdout, names[i], pi, hs, n);
		}
	}
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int cmd_show(int argc, char **argv)
{
	struct hist_set cur = { 0 }, prev = { 0 }, delta = { 0 }, tmp;
	struct pipe_list pl = { 0 };
	struct show_args a;
	const char *names[SHOW_MAX_PIPES + 64];
	size_t nnames = 0, i;
	const char *one;
	char err[160];
	uint64_t k, t_prev, t_cur, deadline;
	struct sigaction sa;

	if (parse_show_args(argc, argv, &a, err, sizeof(err)))
		usage_error("%s", err);
	sl_nl_open();
	one = a.npipes == 1 ? a.pipes[0] : NULL;
	sl_nl_get_pipelines(one, &pl);
	if (a.npipes) {
		for (i = 0; i < (size_t)a.npipes; i++) {
			if (!find_pipe(&pl, a.pipes[i]))
				runtime_error("show: no such pipeline '%s'", a.pipes[i]);
			names[nnames++] = a.pipes[i];
		}
	} else {
		for (i = 0; i < pl.n && nnames < sizeof(names) / sizeof(names[0]); i++)
			names[nnames++] = pl.p[i].name;
	}
	sl_nl_get_hists(one, &cur);
	if (!a.interval_ns) {
		if (a.json)
			fputc('[', stdout);
		print_sample(&a, names, nnames, &pl, &cur, false);
		if (a.json)
			fputs("]\n", stdout);
		goto out;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: wake the sleep */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	t_prev = now_ns(CLOCK_MONOTONIC);
	deadline = t_prev;
	for (k = 0; !stop && (!a.count || k < a.count); k++) {
		struct timespec ts;

		deadline += a.interval_ns;
		ts.tv_sec = (time_t)(deadline / 1000000000ULL);
		ts.tv_nsec = (long)(deadline % 1000000000ULL);
		while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		if (stop)
			break;
		tmp = prev;
		prev = cur;
		cur = tmp;
		sl_nl_get_hists(one, &cur);
		t_cur = now_ns(CLOCK_MONOTONIC);
		if (hist_set_delta(&cur, &prev, &delta))
			runtime_error("out of memory");
		if (a.json) {
			printf("{\"timestamp_ns\":%llu,\"elapsed_ns\":%llu,\"pipelines\":[",
			       (unsigned long long)now_ns(CLOCK_REALTIME),
			       (unsigned long long)(t_cur - t_prev));
			print_sample(&a, names, nnames, &pl, &delta, true);
			fputs("]}\n", stdout);
		} else {
			char tb[32], el[FMT_NS_LEN];
			time_t wall = time(NULL);

			strftime(tb, sizeof(tb), "%H:%M:%S", localtime(&wall));
			fmt_ns(el, sizeof(el), t_cur - t_prev);
			printf("%s--- %s, the last %s\n", k ? "\n" : "", tb, el);
			print_sample(&a, names, nnames, &pl, &delta, true);
		}
		fflush(stdout);
		t_prev = t_cur;
		/* fell behind (a slow dump, a stopped process): no burst */
		if (t_cur > deadline + a.interval_ns)
			deadline = t_cur;
	}
out:
	hist_set_free(&cur);
	hist_set_free(&prev);
	hist_set_free(&delta);
	pipe_list_free(&pl);
	sl_nl_close();
	return 0;
}

/* ---- hist ------------------------------------------------------------------ */

static int cmd_hist(int argc, char **argv)
{
	struct hist_set set = { 0 };
	struct hist_stats st;
	struct hist_args a;
	char err[160], b[4][FMT_NS_LEN];
	size_t i, shown = 0;

	if (parse_hist_args(argc, argv, &a, err, sizeof(err)))
		usage_error("%s", err);
	sl_nl_open();
	sl_nl_get_hists(a.pipe, &set);
	for (i = 0; i < set.n; i++) {
		const struct hist *h = &set.h[i];

		if (a.stage && strcmp(a.stage, h->stage))
			continue;
		hist_stats(h, &st);
		if (shown++)
			fputc('\n', stdout);
		printf("%s %s: %llu sample%s", h->pipeline, h->stage,
		       (unsigned long long)st.count, st.count == 1 ? "" : "s");
		if (st.count) {
			fmt_ns(b[0], sizeof(b[0]), st.min);
			fmt_ns(b[1], sizeof(b[1]), st.avg);
			fmt_ns(b[2], sizeof(b[2]), st.pct[0]);
			fmt_ns(b[3], sizeof(b[3]), st.max);
			printf(", min %s, avg %s, p50 %s, max %s", b[0], b[1], b[2], b[3]);
		}
		fputc('\n', stdout);
		hist_bars(stdout, h, a.fine);
	}
	if (!shown) {
		if (a.stage) {
			fprintf(stderr, "stacklat: hist: pipeline %s has no stage '%s'", a.pipe, a.stage);
			for (i = 0; i < set.n; i++)
				fprintf(stderr, "%s%s", i ? " " : "; its stages: ", set.h[i].stage);
			fputc('\n', stderr);
			exit(1);
		}
		printf("%s: no stages\n", a.pipe);
	}
	hist_set_free(&set);
	sl_nl_close();
	return 0;
}

/* ---- changes ------------------------------------------------------------------ */

static void check_pipe_name(const char *s)
{
	if (!valid_name(s))
		usage_error("'%s' is not a pipeline name", s);
}

static int cmd_enable(int argc, char **argv)
{
	if (argc != 2)
		usage_error(argc < 2 ? "which pipeline?" : "unexpected '%s'", argv[argc < 2 ? 0 : 2]);
	check_pipe_name(argv[1]);
	sl_nl_open();
	sl_nl_enable(argv[1], !strcmp(argv[0], "enable"));
	sl_nl_close();
	return 0;
}

static int cmd_reset(int argc, char **argv)
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

static int cmd_filter(int argc, char **argv)
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

static int cmd_func(int argc, char **argv)
{
	bool add;

	if (argc != 3)
		usage_error("%s", argc < 3 ? "add or del, and a SYMBOL" : "one SYMBOL at a time");
	if (!strcmp(argv[1], "add"))
		add = true;
	else if (!strcmp(argv[1], "del"))
		add = false;
	else
		usage_error("'%s' is neither add nor del", argv[1]);
	if (!argv[2][0] || strlen(argv[2]) >= STACKLAT_SYM_MAX)
		usage_error("a kernel symbol has 1 to %d characters", STACKLAT_SYM_MAX - 1);
	if (!stacklat_valid_symbol(argv[2]))
		usage_error("'%s' is not a kernel symbol ([A-Za-z_][A-Za-z0-9_.]*, optionally MODULE:)",
			    argv[2]);
	sl_nl_open();
	sl_nl_func(add, argv[2]);
	sl_nl_close();
	return 0;
}

static int cmd_help(int argc, char **argv);

static const struct subcommand subcommands[] = {
	{ "status", cmd_status, "",
	  "Module version, kernel, clock, in-flight table; per pipeline its state,\n"
	  "key, filter, losses and every hook point (armed, disarmed, not available,\n"
	  "failed (why) or skipped) with its kind, target, hits and nmissed.", NULL },
	{ "show", cmd_show, "[-j|--json] [PIPELINE...] [INTERVAL [COUNT]]",
	  "Per stage: count, avg, p50, p90, p99, p99.9 and max (all pipelines, or\n"
	  "those named).",
	  "With INTERVAL (seconds, may be fractional) it prints what happened in\n"
	  "each interval, COUNT times or until interrupted; kernel state is never\n"
	  "reset.  Interval percentiles come from the bucket deltas; min and max are\n"
	  "exact when the interval set a new cumulative min or max, otherwise they\n"
	  "are bucket bounds (at most 1/16 off): such a max is printed as ~VALUE and\n"
	  "has \"max_exact\":false in JSON.  If someone reset a pipeline during the\n"
	  "interval, the counts since that reset are printed, with a note.\n"
	  "\n"
	  "-j, --json  one JSON array of pipeline objects; with INTERVAL one line\n"
	  "            per sample: {\"timestamp_ns\",\"elapsed_ns\",\"pipelines\":[...]}.\n"
	  "            A pipeline object: {\"pipeline\",\"generation\",[\"enabled\"],\n"
	  "            [\"reset\"],\"stages\":[{\"name\",\"index\",\"count\",\"sum_ns\",\n"
	  "            \"min_ns\",\"max_ns\",\"avg_ns\",\"p50_ns\",\"p90_ns\",\"p99_ns\",\n"
	  "            \"p999_ns\",\"overflow\",\"min_exact\",\"max_exact\"}]}\n" },
	{ "hist", cmd_hist, "[--fine] PIPELINE [STAGE]",
	  "The histogram of a stage (or of every stage of the pipeline) as text bars.",
	  "One row per power of two; --fine: one row per bucket (16 per power of\n"
	  "two, at most 1/16 wide), skipped empty ones shown as '...'.\n" },
	{ "enable", cmd_enable, "PIPELINE", "Arm the pipeline's hooks (CAP_SYS_ADMIN or CAP_PERFMON).", NULL },
	{ "disable", cmd_enable, "PIPELINE", "Disarm the pipeline's hooks (CAP_SYS_ADMIN or CAP_PERFMON).", NULL },
	{ "reset", cmd_reset, "[PIPELINE]",
	  "Zero the histograms and loss counters of one or all pipelines and bump\n"
	  "their generation (CAP_SYS_ADMIN or CAP_PERFMON).", NULL },
	{ "filter", cmd_filter, "PIPELINE clear | KEY=VALUE...",
	  "Replace the pipeline's filter (CAP_SYS_ADMIN or CAP_PERFMON); 'clear' removes it.",
	  "Keys (each at most once; a pipeline refuses keys it cannot honour):\n"
	  "  tgid=N tid=N          process / thread id\n"
	  "  lport=N rport=N       local / remote port\n"
	  "  proto=tcp|udp\n"
	  "  ifindex=N iface=NAME  network interface\n"
	  "  dev=MAJ:MIN|NAME      block device (NAME: /dev/NAME or a path)\n"
	  "  op=read|write|open|fsync\n"
	  "  fs=ext4|xfs|btrfs|bdev|0xMAGIC\n" },
	{ "func", cmd_func, "add|del SYMBOL",
	  "Time a kernel function from entry to return in the \"func\" pipeline\n"
	  "(CAP_SYS_ADMIN or CAP_PERFMON).", NULL },
	{ "help", cmd_help, "[COMMAND]", "This text, or one command's.", NULL },
};

#define NSUB (sizeof(subcommands) / sizeof(subcommands[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: stacklat COMMAND [ARGS]\n"
		"       stacklat --help | --version\n\n"
		"Per-layer latency inside the kernel, from the stacklat module.\n\n");
	for (i = 0; i < NSUB; i++)
		fprintf(f, "  %s%*s%s\n", subcommands[i].name,
			subcommands[i].usage[0] ? 9 - (int)strlen(subcommands[i].name) : 0, "",
			subcommands[i].usage);
	fprintf(f, "\n'stacklat help COMMAND' tells more.  Exit status: 0 ok, 1 error,\n"
		"2 bad usage.  STACKLAT_COLOR=always|never|auto (NO_COLOR is honoured).\n");
}

static int cmd_help(int argc, char **argv)
{
	size_t i;

	if (argc == 1) {
		usage(stdout);
		return 0;
	}
	if (argc > 2)
		usage_error("one COMMAND at a time");
	for (i = 0; i < NSUB; i++)
		if (!strcmp(argv[1], subcommands[i].name)) {
			print_cmd_help(stdout, &subcommands[i]);
			return 0;
		}
	usage_error("no command '%s'", argv[1]);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(1, argv + 1);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("stacklat %s (generic netlink family \"%s\" version %d)\n",
		       STACKLAT_TOOL_VERSION, STACKLAT_GENL_NAME, STACKLAT_GENL_VERSION);
		return 0;
	}
	for (i = 0; i < NSUB; i++) {
		if (strcmp(argv[1], subcommands[i].name))
			continue;
		current = &subcommands[i];
		if (subcommands[i].fn != cmd_help && want_help(argc - 1, argv + 1)) {
			print_cmd_help(stdout, current);
			return 0;
		}
		return subcommands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "stacklat: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
