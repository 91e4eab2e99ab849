// SPDX-License-Identifier: GPL-2.0
/*
 * stacklat - read and drive the stacklat kernel module over generic netlink.
 *
 * Exit codes: 0 ok, 1 runtime error (module absent, kernel refused), 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "format.h"
#include "histo.h"
#include "json.h"
#include "metrics.h"
#include "nl.h"
#include "ufunc.h"
#include "parse.h"
#include "render.h"
#include "stacklat_filter.h"
#include "top.h"
#include "stacks.h"

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

static uint64_t now_ns(clockid_t clk);

static bool is_json_opt(const char *s)
{
	return !strcmp(s, "-j") || !strcmp(s, "--json");
}

static int cmd_status(int argc, char **argv)
{
	struct status_info st;
	struct pipe_list pl = { 0 };
	bool json = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!is_json_opt(argv[i]) || json)
			usage_error("unexpected '%s'", argv[i]);
		json = true;
	}
	sl_nl_open();
	sl_nl_get_status(&st);
	sl_nl_get_pipelines(NULL, &pl);
	if (json) {
		struct json_object *env = json_envelope("status", now_ns(CLOCK_REALTIME), 0);

		json_status(env, &st, &pl);
		json_emit(stdout, env);
	} else {
		render_status(stdout, &st, &pl, use_color());
	}
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

/*
 * Print one sample: every selected pipeline of @set; as JSON one line,
 * the "show" envelope (@elapsed 0: cumulative).
 */
static void print_sample(const struct show_args *a, const char **names, size_t nnames,
			 const struct pipe_list *pl, const struct hist_set *set,
			 bool interval, uint64_t elapsed)
{
	struct json_object *env = NULL, *arr = NULL;
	const struct hist *hs;
	size_t i, n;

	if (a->json) {
		env = json_envelope("show", now_ns(CLOCK_REALTIME), elapsed);
		arr = json_object_new_array();
		json_object_object_add(env, "pipelines", arr);
	}
	for (i = 0; i < nnames; i++) {
		const struct pipe_info *pi = interval ? NULL : find_pipe(pl, names[i]);

		hs = pipe_hists(set, names[i], &n);
		if (a->json) {
			json_object_array_add(arr, json_pipe_hists(names[i], pi, hs, n, false));
		} else {
			if (i)
				fputc('\n', stdout);
			render_show_table(stdout, names[i], pi, hs, n);
		}
	}
	if (env)
		json_emit(stdout, env);
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
				fatal("show: no such pipeline '%s'", a.pipes[i]);
			names[nnames++] = a.pipes[i];
		}
	} else {
		for (i = 0; i < pl.n && nnames < sizeof(names) / sizeof(names[0]); i++)
			names[nnames++] = pl.p[i].name;
	}
	sl_nl_get_hists(one, &cur);
	if (!a.interval_ns) {
		print_sample(&a, names, nnames, &pl, &cur, false, 0);
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
			fatal("out of memory");
		if (a.json) {
			print_sample(&a, names, nnames, &pl, &delta, true, t_cur - t_prev);
		} else {
			char tb[32], el[FMT_NS_LEN];
			time_t wall = time(NULL);

			strftime(tb, sizeof(tb), "%H:%M:%S", localtime(&wall));
			fmt_ns(el, sizeof(el), t_cur - t_prev);
			printf("%s--- %s, the last %s\n", k ? "\n" : "", tb, el);
			print_sample(&a, names, nnames, &pl, &delta, true, 0);
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
	struct json_object *env = NULL, *arr = NULL;
	struct hist_set set = { 0 };
	struct hist_stats st;
	struct hist_args a;
	char err[160], b[4][FMT_NS_LEN];
	size_t i, shown = 0;

	if (parse_hist_args(argc, argv, &a, err, sizeof(err)))
		usage_error("%s", err);
	sl_nl_open();
	sl_nl_get_hists(a.pipe, &set);
	if (a.json) {
		env = json_envelope("hist", now_ns(CLOCK_REALTIME), 0);
		arr = json_object_new_array();
	}
	for (i = 0; i < set.n; i++) {
		const struct hist *h = &set.h[i];

		if (a.stage && strcmp(a.stage, h->stage))
			continue;
		if (a.json) {
			json_object_array_add(arr, json_stage(h, true));
			shown++;
			continue;
		}
		hist_stats(h, &st);
		if (shown++)
			fputc('\n', stdout);
		printf("%s %s: %llu sample%s", h->pipeline, h->stage,
		       (unsigned long long)st.count, st.count == 1 ? "" : "s");
		if (st.count) {
			fmt_val(b[0], sizeof(b[0]), h->unit, st.min);
			fmt_val(b[1], sizeof(b[1]), h->unit, st.avg);
			fmt_val(b[2], sizeof(b[2]), h->unit, st.pct[0]);
			fmt_val(b[3], sizeof(b[3]), h->unit, st.max);
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
		if (!a.json)
			printf("%s: no stages\n", a.pipe);
	}
	if (a.json) {
		struct json_object *p = json_object_new_object(), *pa = json_object_new_array();

		json_object_object_add(p, "pipeline", json_str(a.pipe));
		json_object_object_add(p, "generation",
				       json_object_new_uint64(set.n ? set.h[0].generation : 0));
		json_object_object_add(p, "reset", json_object_new_boolean(false));
		json_object_object_add(p, "stages", arr);
		json_object_array_add(pa, p);
		json_object_object_add(env, "pipelines", pa);
		json_emit(stdout, env);
	}
	hist_set_free(&set);
	sl_nl_close();
	return 0;
}

/* ---- inflight ---------------------------------------------------------------- */

static int cmd_inflight(int argc, char **argv)
{
	struct inflight_list l = { 0 };
	const char *pipe = NULL;
	char age[FMT_NS_LEN], off[FMT_NS_LEN];
	bool json = false;
	size_t i, j;

	for (i = 1; i < (size_t)argc; i++) {
		if (is_json_opt(argv[i]))
			json = true;
		else if (!pipe && valid_name(argv[i]))
			pipe = argv[i];
		else
			usage_error("unexpected '%s'", argv[i]);
	}
	sl_nl_open();
	sl_nl_get_inflight(pipe, &l);
	if (json) {
		struct json_object *env = json_envelope("inflight", now_ns(CLOCK_REALTIME), 0);

		json_inflight(env, &l);
		json_emit(stdout, env);
	} else {
		printf("%-10s %9s %10s  %s\n", "pipeline", "age", "thread", "points passed");
		for (i = 0; i < l.n; i++) {
			const struct inflight_ent *e = &l.e[i];
			char tid[16] = "-";

			if (e->has_tid)
				snprintf(tid, sizeof(tid), "%u", e->tid);
			fmt_ns(age, sizeof(age), e->age_ns);
			printf("%-10s %9s %10s ", e->pipeline, age, tid);
			if (e->desc[0]) {
				printf(" %s", e->desc);
			} else {
				for (j = 0; j < e->npts; j++) {
					fmt_ns(off, sizeof(off), e->pts[j].offset_ns);
					printf(" %s@+%s", e->pts[j].name, off);
				}
			}
			putchar('\n');
		}
		printf("%zu in flight\n", l.n);
	}
	free(l.e);
	sl_nl_close();
	return 0;
}

/* ---- events ------------------------------------------------------------------ */

struct ev_ctx {
	const struct pipe_list *pl;
	bool want[SHOW_MAX_PIPES + 64];
	uint32_t pid;
	bool json;
	struct json_event_writer *jw;
	uint64_t shown, limit;
	/* a dump's events, shown once it is done (their stacks read then) */
	struct stacklat_event *pend;
	size_t npend, cap;
	struct stack_set ss;	/* the stacks of the events shown so far */
};

static void on_event(const struct stacklat_event *ev, void *arg)
{
	struct ev_ctx *c = arg;

	if (c->limit && c->shown >= c->limit)
		return;
	if (ev->pipeline >= c->pl->n || !c->want[ev->pipeline])
		return;
	if (c->pid && ev->tgid != c->pid && ev->tid != c->pid)
		return;
	if (c->npend == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		struct stacklat_event *p = realloc(c->pend, cap * sizeof(*p));

		if (!p)
			fatal("events: out of memory");
		c->pend = p;
		c->cap = cap;
	}
	c->pend[c->npend++] = *ev;
	c->shown++;
}

/*
 * The stack of @ev (_F_STACK): from the stacks read so far, or read again
 * once per dump (a stack is never removed but by a reset); NULL when it is
 * gone or was not kept.
 */
static const struct stack_row *ev_stack(struct ev_ctx *c, const struct stacklat_event *ev,
					bool *fetched)
{
	const char *pipe = c->pl->p[ev->pipeline].name;
	const struct stack_row *r;

	if (!ev->stack_id)
		return NULL;
	r = stacks_find(&c->ss, pipe, ev->stack_id);
	if (r || *fetched)
		return r;
	stack_set_free(&c->ss);
	sl_nl_get_stacks(NULL, &c->ss);
	*fetched = true;
	return stacks_find(&c->ss, pipe, ev->stack_id);
}

/* Show the dump's events: a line each (-j: a JSON line), stacks named. */
static void ev_flush(struct ev_ctx *c)
{
	bool fetched = false;
	char line[8192];
	size_t i;

	for (i = 0; i < c->npend; i++) {
		const struct stacklat_event *ev = &c->pend[i];
		const struct stack_row *r = NULL;

		if (ev->flags & STACKLAT_EVENT_F_STACK)
			r = ev_stack(c, ev, &fetched);
		if (c->json && !(ev->flags & STACKLAT_EVENT_F_STACK)) {
			json_event_write(c->jw, stdout, ev, now_ns(CLOCK_REALTIME));
		} else if (c->json) {
			json_event_write_stack(stdout, ev, c->pl, now_ns(CLOCK_REALTIME),
					       r ? r->frames : NULL, r ? r->nr : 0);
		} else {
			size_t n;

			render_event(line, sizeof(line), ev, c->pl);
			n = strlen(line);
			if (ev->flags & STACKLAT_EVENT_F_STACK) {
				n += (size_t)snprintf(line + n, sizeof(line) - n, " stack=%s",
						      r ? "" : ev->stack_id ? "?" : "-");
				if (r && n < sizeof(line))
					stack_fold(line + n, sizeof(line) - n, r);
			}
			puts(line);
		}
	}
	c->npend = 0;
}

static uint64_t total_overruns(const struct status_info *st)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < st->ncpus; i++)
		v += st->overruns[i];
	return v;
}

#define EV_BATCH	256	/* events per dump under which the reader pauses */

static int cmd_events(int argc, char **argv)
{
	static char obuf[1 << 16];
	struct status_info st0, st1;
	struct pipe_list pl = { 0 };
	struct ev_ctx c = { .pl = &pl };
	uint64_t thresh = 0, dur_ns = 0, pid = 0, got = 0, prev[SHOW_MAX_PIPES + 64];
	const char *names[SHOW_MAX_PIPES];
	size_t nnames = 0, i, k;
	bool set_t = false;
	struct sigaction sa;
	int a;

	for (a = 1; a < argc; a++) {
		const char *o = argv[a];

		if (is_json_opt(o)) {
			c.json = true;
		} else if (!strcmp(o, "--all")) {
			if (set_t)
				usage_error("--all and -t: one threshold");
			thresh = STACKLAT_THRESHOLD_ALL;
			set_t = true;
		} else if (!strcmp(o, "-t") || !strcmp(o, "-p") || !strcmp(o, "-n") ||
			   !strcmp(o, "-d")) {
			if (a + 1 >= argc)
				usage_error("%s needs a value", o);
			a++;
			if (o[1] == 't' && set_t)
				usage_error("--all and -t: one threshold");
			if (o[1] == 't' && parse_duration(argv[a], &thresh))
				usage_error("bad THRESHOLD '%s' (e.g. 500us, 10ms; at most 3600s)", argv[a]);
			if (o[1] == 'p' && parse_u64_range(argv[a], 1, 4194304, &pid))
				usage_error("bad PID '%s'", argv[a]);
			if (o[1] == 'n' && parse_u64_range(argv[a], 1, 1000000000, &c.limit))
				usage_error("bad COUNT '%s'", argv[a]);
			if (o[1] == 'd' && parse_interval(argv[a], &dur_ns))
				usage_error("bad SECONDS '%s'", argv[a]);
			set_t |= o[1] == 't';
		} else if (o[0] == '-' || !valid_name(o)) {
			usage_error("unexpected '%s'", o);
		} else if (nnames < SHOW_MAX_PIPES) {
			names[nnames++] = o;
		} else {
			usage_error("more than %d pipelines", SHOW_MAX_PIPES);
		}
	}
	c.pid = (uint32_t)pid;
	sl_nl_open();
	sl_nl_get_pipelines(NULL, &pl);
	if (pl.n > sizeof(prev) / sizeof(prev[0]))
		fatal("events: too many pipelines");
	for (k = 0; k < nnames; k++) {
		for (i = 0; i < pl.n && strcmp(pl.p[i].name, names[k]); i++)
			;
		if (i == pl.n)
			fatal("events: no such pipeline '%s'", names[k]);
		/* before any threshold is set: nothing to put back */
		if (set_t && thresh && pl.p[i].no_events)
			fatal("events: %s has no slow events (it counts values or instants, it follows no object from a first point to a last)",
			      names[k]);
		c.want[i] = true;
	}
	for (i = 0; i < pl.n; i++) {
		if (!nnames)
			c.want[i] = set_t ? pl.p[i].enabled && !pl.p[i].no_events : true;
		prev[i] = pl.p[i].threshold_ns;
		if (set_t && c.want[i])
			sl_nl_set_threshold(pl.p[i].name, thresh);
	}
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));	/* flushed after each dump */
	if (c.json) {
		c.jw = json_event_writer_new(&pl);
		if (!c.jw)
			fatal("events: out of memory");
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sl_nl_get_status(&st0);
	{
		uint64_t t0 = now_ns(CLOCK_MONOTONIC);

		while (!stop && (!c.limit || c.shown < c.limit) &&
		       (!dur_ns || now_ns(CLOCK_MONOTONIC) - t0 < dur_ns)) {
			size_t n = sl_nl_get_events(on_event, &c);

			ev_flush(&c);
			got += n;
			fflush(stdout);
			/*
			 * Each dump costs the kernel a 32 KiB message (zeroed on
			 * most distribution kernels) and us two system calls:
			 * unless the rings are filling fast, let events gather
			 * for 2 ms first.  A ring holds 4096 events: at less
			 * than EV_BATCH per 2 ms none can fill meanwhile.
			 */
			if (n < EV_BATCH) {
				struct timespec ts = { 0, 2000000 };	/* 2 ms */

				nanosleep(&ts, NULL);
			}
		}
	}
	sl_nl_get_status(&st1);
	for (i = 0; set_t && i < pl.n; i++)
		if (c.want[i])
			sl_nl_set_threshold(pl.p[i].name, prev[i]);
	if (c.json) {
		struct json_object *env = json_envelope("events", now_ns(CLOCK_REALTIME), 0);
		struct json_object *sum = json_object_new_object();

		json_object_object_add(sum, "read", json_object_new_uint64(got));
		json_object_object_add(sum, "shown", json_object_new_uint64(c.shown));
		json_object_object_add(sum, "overruns",
				       json_object_new_uint64(total_overruns(&st1) -
							      total_overruns(&st0)));
		json_object_object_add(env, "summary", sum);
		json_emit(stdout, env);
	} else {
		fprintf(stderr, "stacklat: %llu events read, %llu shown; kernel overruns meanwhile: %llu\n",
			(unsigned long long)got, (unsigned long long)c.shown,
			(unsigned long long)(total_overruns(&st1) - total_overruns(&st0)));
	}
	json_event_writer_free(c.jw);
	free(c.pend);
	stack_set_free(&c.ss);
	free(st0.overruns);
	free(st1.overruns);
	pipe_list_free(&pl);
	sl_nl_close();
	return 0;
}

/* ---- top ------------------------------------------------------------------- */

/* the pipeline top enabled for its run, disabled at its end */
static const char *top_enabled_here;

static void top_disable(void)
{
	const char *pipe = top_enabled_here;

	if (!pipe)
		return;
	top_enabled_here = NULL;
	sl_nl_enable(pipe, false);
}

/*
 * What a top shows, over its rows' type: get() takes a sample of the
 * pipeline's rows, delta() what happened between two samples; show()
 * prints a sample's summary and table, or adds them to the JSON envelope
 * @env (@max: the cumulative maximum is known, no interval).
 */
struct top_kind {
	const char *pipe;
	const char *title;		/* what a sample shows, in words */
	const char *what;		/* what a loss is, in words */
	void (*get)(struct keyed_set *s);
	int (*delta)(const struct keyed_set *cur, const struct keyed_set *prev,
		     struct keyed_set *out);
	void (*show)(const struct top_args *a, const struct keyed_set *s, bool max,
		     struct json_object *env);
};

static void sc_show(const struct top_args *a, const struct keyed_set *s, bool max,
		    struct json_object *env)
{
	struct top_table t;

	if (top_build(s, a, &t))
		fatal("out of memory");
	if (env) {
		top_json(env, &t, a, max);
	} else {
		printf(": %llu calls, %llu failed%s\n", (unsigned long long)t.calls,
		       (unsigned long long)t.errors, a->errors ? " (failed calls only)" : "");
		top_render(stdout, &t, a, max);
	}
	top_table_free(&t);
}

static void dk_show(const struct top_args *a, const struct keyed_set *s, bool max,
		    struct json_object *env)
{
	struct dk_table t;

	(void)max;	/* disktop keeps no maximum */
	if (dk_build(s, a, &t))
		fatal("out of memory");
	if (env) {
		dk_json(env, &t, a, NULL);
	} else {
		printf(": %llu KiB read in %llu ops, %llu KiB written in %llu ops\n",
		       (unsigned long long)(t.read_bytes / 1024),
		       (unsigned long long)t.read_ops,
		       (unsigned long long)(t.write_bytes / 1024),
		       (unsigned long long)t.write_ops);
		dk_render(stdout, &t, NULL);
	}
	dk_table_free(&t);
}

static void sd_show(const struct top_args *a, const struct keyed_set *s, bool max,
		    struct json_object *env)
{
	char tot[FMT_NS_LEN], p99[FMT_NS_LEN], mx[FMT_NS_LEN];
	struct sd_table t;

	if (sd_build(s, a, max, &t))
		fatal("out of memory");
	if (env) {
		sd_json(env, &t, a, max);
	} else {
		fmt_ns(tot, sizeof(tot), t.time_ns);
		fmt_ns(p99, sizeof(p99), t.p99_ns);
		fmt_ns(mx, sizeof(mx), t.max_ns);
		printf(": %llu run-queue waits, %s in all, p99 %s%s%s (%llu after a preemption)\n",
		       (unsigned long long)t.count, tot, p99, max ? ", max " : "",
		       max ? mx : "", (unsigned long long)t.preempted);
		sd_render(stdout, &t, a, max);
	}
	sd_table_free(&t);
}

static void oc_show(const struct top_args *a, const struct keyed_set *s, bool max,
		    struct json_object *env)
{
	char tot[FMT_NS_LEN], p99[FMT_NS_LEN], mx[FMT_NS_LEN];
	struct stack_set ss = { 0 };
	struct oc_table t;

	if (oc_build(s, a, max, &t))
		fatal("out of memory");
	/* the frames: read after the rows, so that every row's stack is there */
	if (a->stacks)
		sl_nl_get_stacks("offcpu", &ss);
	if (env) {
		oc_json(env, &t, a, max, &ss);
	} else {
		fmt_ns(tot, sizeof(tot), t.time_ns);
		fmt_ns(p99, sizeof(p99), t.p99_ns);
		fmt_ns(mx, sizeof(mx), t.max_ns);
		printf(": %llu blocks, %s off CPU in all, p99 %s%s%s\n",
		       (unsigned long long)t.count, tot, p99, max ? ", max " : "",
		       max ? mx : "");
		oc_render(stdout, &t, a, max, &ss);
	}
	stack_set_free(&ss);
	oc_table_free(&t);
}

static void fx_show(const struct top_args *a, const struct keyed_set *s, bool max,
		    struct json_object *env)
{
	char tot[FMT_NS_LEN], p99[FMT_NS_LEN], mx[FMT_NS_LEN];
	struct fx_table t;

	if (fx_build(s, a, max, &t))
		fatal("out of memory");
	if (env) {
		fx_json(env, &t, a, max);
	} else {
		fmt_ns(tot, sizeof(tot), t.time_ns);
		fmt_ns(p99, sizeof(p99), t.p99_ns);
		fmt_ns(mx, sizeof(mx), t.max_ns);
		printf(": %llu futex waits, %s in all, p99 %s%s%s (%llu returned EAGAIN at once)\n",
		       (unsigned long long)t.count, tot, p99, max ? ", max " : "",
		       max ? mx : "", (unsigned long long)t.eagain);
		fx_render(stdout, &t, a, max);
	}
	fx_table_free(&t);
}

static void lk_show(const struct top_args *a, const struct keyed_set *s, bool max,
		    struct json_object *env)
{
	char tot[FMT_NS_LEN], p99[FMT_NS_LEN], mx[FMT_NS_LEN];
	struct lk_table t;

	if (lk_build(s, a, max, &t))
		fatal("out of memory");
	if (env) {
		lk_json(env, &t, a, max);
	} else {
		fmt_ns(tot, sizeof(tot), t.time_ns);
		fmt_ns(p99, sizeof(p99), t.p99_ns);
		fmt_ns(mx, sizeof(mx), t.max_ns);
		printf(": %llu contended waits, %s in all, p99 %s%s%s (%llu failed)\n",
		       (unsigned long long)t.count, tot, p99, max ? ", max " : "",
		       max ? mx : "", (unsigned long long)t.failed);
		lk_render(stdout, &t, max);
	}
	lk_table_free(&t);
}

static void fl_show(const struct top_args *a, const struct keyed_set *s, bool max,
		    struct json_object *env)
{
	struct fl_table t;

	(void)max;	/* files keeps no maximum */
	if (fl_build(s, a, &t))
		fatal("out of memory");
	if (env) {
		fl_json(env, &t, a);
	} else {
		printf(": %llu opens (%llu failed), %llu KiB read in %llu calls, %llu KiB written in %llu calls\n",
		       (unsigned long long)t.opens, (unsigned long long)t.open_fails,
		       (unsigned long long)(t.read_bytes / 1024),
		       (unsigned long long)t.reads,
		       (unsigned long long)(t.write_bytes / 1024),
		       (unsigned long long)t.writes);
		fl_render(stdout, &t, a);
	}
	fl_table_free(&t);
}

static void cpu_show(const struct top_args *a, const struct keyed_set *s, bool max,
		     struct json_object *env)
{
	char tot[FMT_NS_LEN], us[FMT_NS_LEN], sy[FMT_NS_LEN], p99[FMT_NS_LEN];
	uint64_t u, y;
	struct sd_table t;

	if (sd_build(s, a, max, &t))
		fatal("out of memory");
	if (env) {
		cpu_json(env, &t, a, max);
	} else {
		cpu_split(t.time_ns, t.user_tick_ns, t.sys_tick_ns, &u, &y);
		fmt_ns(tot, sizeof(tot), t.time_ns);
		fmt_ns(us, sizeof(us), u);
		fmt_ns(sy, sizeof(sy), y);
		fmt_ns(p99, sizeof(p99), t.p99_ns);
		printf(": %s on CPU (user %s, system %s) in %llu slices, p99 slice %s (%llu preempted)\n",
		       tot, us, sy, (unsigned long long)t.count, p99,
		       (unsigned long long)t.preempted);
		cpu_render(stdout, &t, a, max);
	}
	sd_table_free(&t);
}

/* One sample: the cumulative one (@elapsed 0) or the last interval's. */
static void top_print(const struct top_args *a, const struct top_kind *k,
		      const struct keyed_set *s, uint64_t elapsed, bool first)
{
	if (a->json) {
		struct json_object *env = json_envelope("top", now_ns(CLOCK_REALTIME), elapsed);

		k->show(a, s, !elapsed, env);
		json_emit(stdout, env);
	} else {
		char tb[32], el[FMT_NS_LEN];
		time_t wall = time(NULL);

		strftime(tb, sizeof(tb), "%H:%M:%S", localtime(&wall));
		if (elapsed) {
			fmt_ns(el, sizeof(el), elapsed);
			printf("%s[%s] %s, the last %s", first ? "" : "\n", tb, k->title, el);
		} else {
			printf("[%s] %s since the pipeline was enabled or reset", tb, k->title);
		}
		if (a->pid)
			printf(", process %u", a->pid);
		k->show(a, s, !elapsed, NULL);
	}
	fflush(stdout);
}

/* What the kernel could not count, if anything: on stderr. */
static void top_losses(const char *pipe, const char *what)
{
	struct pipe_list pl = { 0 };
	const struct keyed_info *k;

	sl_nl_get_pipelines(pipe, &pl);
	if (pl.n && pl.p[0].has_keyed) {
		k = &pl.p[0].keyed;
		if (k->full || k->busy || k->dropped)
			fprintf(stderr, "stacklat: top: %llu %s not counted (full %llu, busy %llu, dropped %llu in %llu rows): keyed_cpu_rows=, keyed_rows= (status)\n",
				(unsigned long long)(k->full + k->busy + k->dropped), what,
				(unsigned long long)k->full, (unsigned long long)k->busy,
				(unsigned long long)k->dropped,
				(unsigned long long)k->dropped_rows);
	}
	pipe_list_free(&pl);
}

/*
 * A pipeline none of whose points exists on this kernel (lock before
 * 5.19: no lock:contention_begin/end) cannot be enabled: said in words,
 * before the kernel refuses.
 */
static void top_check_available(const struct pipe_info *p)
{
	size_t i;

	for (i = 0; i < p->nhooks; i++)
		if (p->hooks[i].state != STACKLAT_HOOK_UNAVAILABLE)
			return;
	if (p->nhooks)
		fatal("top: the %s pipeline is not available on this kernel: none of its %zu points exists (%s%s; stacklat status)",
		      p->name, p->nhooks, p->hooks[0].name, p->nhooks > 1 ? "..." : "");
}

/*
 * The pipeline @pipe exists and counts: enabled here if it was not (and
 * without an interval, counting until interrupted, as syscount does).
 */
static void top_start(const char *pipe, const struct top_args *a)
{
	struct pipe_list pl = { 0 };
	struct sigaction sa;

	sl_nl_get_pipelines(NULL, &pl);
	if (!find_pipe(&pl, pipe))
		fatal("top: the module has no %s pipeline (an older module?)", pipe);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: wake the sleep */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!find_pipe(&pl, pipe)->enabled) {
		top_check_available(find_pipe(&pl, pipe));
		sl_nl_enable(pipe, true);
		top_enabled_here = pipe;
		atexit(top_disable);
		if (!a->interval_ns) {
			fprintf(stderr, "stacklat: tracing %s (the pipeline is enabled until the end)... Ctrl-C to end.\n",
				pipe);
			while (!stop) {
				struct timespec ts = { 0, 100000000 };

				nanosleep(&ts, NULL);
			}
		}
	}
	pipe_list_free(&pl);
}

/* Sleep to *@deadline + @interval (the next deadline); false if stopped. */
static bool top_sleep(uint64_t *deadline, uint64_t interval)
{
	struct timespec ts;

	*deadline += interval;
	ts.tv_sec = (time_t)(*deadline / 1000000000ULL);
	ts.tv_nsec = (long)(*deadline % 1000000000ULL);
	while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	return !stop;
}

static void top_run(const struct top_args *a, const struct top_kind *k)
{
	struct keyed_set cur = { 0 }, prev = { 0 }, delta = { 0 }, tmp;
	uint64_t i, t_prev, t_cur, deadline;

	top_start(k->pipe, a);
	k->get(&cur);
	if (!a->interval_ns) {
		top_print(a, k, &cur, 0, true);
		goto out;
	}
	t_prev = now_ns(CLOCK_MONOTONIC);
	deadline = t_prev;
	for (i = 0; !a->count || i < a->count; i++) {
		if (!top_sleep(&deadline, a->interval_ns))
			break;
		tmp = prev;
		prev = cur;
		cur = tmp;
		k->get(&cur);
		t_cur = now_ns(CLOCK_MONOTONIC);
		if (k->delta(&cur, &prev, &delta))
			fatal("out of memory");
		top_print(a, k, &delta, t_cur - t_prev, !i);
		t_prev = t_cur;
		/* fell behind (a slow dump, a stopped process): no burst */
		if (t_cur > deadline + a->interval_ns)
			deadline = t_cur;
	}
out:
	top_losses(k->pipe, k->what);
	keyed_set_free(&cur);
	keyed_set_free(&prev);
	keyed_set_free(&delta);
}

static int cmd_top(int argc, char **argv)
{
	static const struct top_kind kinds[] = {
		[TOP_SYSCALLS] = { "syscalls", "syscalls", "calls", sl_nl_get_syscalls,
				   sc_delta, sc_show },
		[TOP_DISK] = { "disktop", "disk I/O", "bios", sl_nl_get_disktop,
			       dk_delta, dk_show },
		[TOP_SCHED] = { "sched", "run-queue latency", "waits", sl_nl_get_sched,
				sd_delta, sd_show },
		[TOP_OFFCPU] = { "offcpu", "off-CPU time", "blocks", sl_nl_get_offcpu,
				 oc_delta, oc_show },
		[TOP_CPU] = { "cpu", "CPU time", "slices", sl_nl_get_cpu,
			      sd_delta, cpu_show },
		[TOP_FUTEX] = { "futex", "futex waits", "waits", sl_nl_get_futex,
				fx_delta, fx_show },
		[TOP_LOCK] = { "lock", "kernel lock contention", "waits", sl_nl_get_lock,
			       lk_delta, lk_show },
		[TOP_FILES] = { "files", "file I/O", "calls", sl_nl_get_files,
				fl_delta, fl_show },
	};
	struct top_args a;
	char err[160];

	if (parse_top_args(argc, argv, &a, err, sizeof(err)))
		usage_error("%s", err);
	sl_nl_open();
	top_run(&a, &kinds[a.what]);
	top_disable();
	sl_nl_close();
	return 0;
}

/* ---- metrics --------------------------------------------------------------- */

/* DIR/stacklat.prom, atomically: a temporary file in DIR, then rename(2). */
static void write_textfile(const char *dir, const struct pipe_list *pl,
			   const struct hist_set *set, const struct keyed_set *lock)
{
	char tmp[4096], dst[4096];
	FILE *f;
	int fd;

	if ((size_t)snprintf(dst, sizeof(dst), "%s/stacklat.prom", dir) >= sizeof(dst) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s/.stacklat.prom.XXXXXX", dir) >= sizeof(tmp))
		usage_error("directory name too long");
	fd = mkstemp(tmp);
	if (fd < 0)
		fatal("metrics: cannot create a file in %s: %s", dir, strerror(errno));
	f = fdopen(fd, "w");
	if (!f)
		fatal("metrics: %s", strerror(errno));
	metrics_render(f, pl, set, lock);
	/* node_exporter reads files 0644; mkstemp made it 0600 */
	if (fflush(f) || fchmod(fd, 0644) || fsync(fd) || ferror(f)) {
		unlink(tmp);
		fatal("metrics: writing %s: %s", tmp, strerror(errno));
	}
	fclose(f);
	if (rename(tmp, dst)) {
		unlink(tmp);
		fatal("metrics: rename to %s: %s", dst, strerror(errno));
	}
}

static int cmd_metrics(int argc, char **argv)
{
	struct keyed_set lock = { 0 };
	struct hist_set set = { 0 };
	struct pipe_list pl = { 0 };
	const struct pipe_info *lp;
	const char *dir = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--textfile") && i + 1 < argc && !dir && argv[i + 1][0])
			dir = argv[++i];
		else
			usage_error("unexpected '%s'", argv[i]);
	}
	sl_nl_open();
	sl_nl_get_pipelines(NULL, &pl);
	sl_nl_get_hists(NULL, &set);
	/* the lock pipeline's rows, per type (metrics.h) */
	lp = find_pipe(&pl, "lock");
	if (lp && lp->enabled)
		sl_nl_get_lock(&lock);
	if (dir)
		write_textfile(dir, &pl, &set, &lock);
	else
		metrics_render(stdout, &pl, &set, &lock);
	keyed_set_free(&lock);
	hist_set_free(&set);
	pipe_list_free(&pl);
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

/*
 * func add|del [-p PID] SPEC: a kernel function (SYMBOL, MODULE:SYMBOL) or
 * a user-space one (PATH:SYMBOL, LIB:SYMBOL: ufunc.c resolves it to the
 * file offset the module takes).  -p sets the pipeline's tgid= filter.
 */
static int cmd_func(int argc, char **argv)
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
	sl_nl_func(add, spec);
	if (pid)
		sl_nl_set_filter("func", &f);
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

static int cmd_stacks(int argc, char **argv)
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

static int cmd_help(int argc, char **argv);

static const struct subcommand subcommands[] = {
	{ "status", cmd_status, "[-j|--json]",
	  "Module version, kernel, clock, in-flight table; per pipeline its state,\n"
	  "key, filter, losses and every hook point (armed, disarmed, not available,\n"
	  "failed (why) or skipped) with its kind, target, hits and nmissed.",
	  "-j, --json  one JSON line (schema: man stacklat, JSON; docs/json.md).\n" },
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
	  "-j, --json  one JSON line per sample (JSON lines with INTERVAL), the same\n"
	  "            shape either way (schema: man stacklat, JSON; docs/json.md).\n" },
	{ "hist", cmd_hist, "[--fine] [-j|--json] PIPELINE [STAGE]",
	  "The histogram of a stage (or of every stage of the pipeline) as text bars.",
	  "One row per power of two; --fine: one row per bucket (16 per power of\n"
	  "two, at most 1/16 wide), skipped empty ones shown as '...'.\n"
	  "-j, --json  show's JSON line, each stage with \"buckets\":[[lo,hi,count]...]\n"
	  "            (every non-empty kernel bucket, lo inclusive, hi exclusive).\n" },
	{ "inflight", cmd_inflight, "[-j|--json] [PIPELINE]",
	  "What is being followed right now: every live entry of the in-flight table\n"
	  "with its pipeline, age, thread (if it follows one) and the points it has\n"
	  "passed, as offsets from its start.",
	  "-j, --json  one JSON line (schema: man stacklat, JSON; docs/json.md).\n" },
	{ "events", cmd_events,
	  "[-j] [-t THRESHOLD|--all] [-p PID] [-n COUNT] [-d SECONDS] [PIPELINE...]",
	  "Slow objects, one line each: time (CLOCK_MONOTONIC s), comm, tgid/tid,\n"
	  "pipeline, total and every stage passed in wire order; identity lines\n"
	  "(tcpretrans: one per retransmission; tcpconnect: one per connect;\n"
	  "tcpaccept: one per accepted connection; netdrop: one per drop) add the\n"
	  "socket's addresses, ports, state, RTO, srtt, cwnd, retransmissions, a\n"
	  "connect's result, a listener's accept queue; a drop's reason (its\n"
	  "stage), interface, protocol, addresses, ports and where (function+offset).",
	  "-t THRESHOLD  set the pipelines' threshold (500us, 10ms...; all enabled\n"
	  "              pipelines with slow events if none is named) for the run,\n"
	  "              restored after (CAP_SYS_ADMIN or CAP_PERFMON); without it,\n"
	  "              the thresholds set (control \"threshold PIPELINE NS\") are\n"
	  "              used.  Pipelines that count values or instants (netsize,\n"
	  "              storage, disktop, stacks, sched, offcpu, cpu, futex, lock)\n"
	  "              have none; netdrop writes every drop under any threshold.\n"
	  "--all         every object, whatever its time (control \"threshold\n"
	  "              PIPELINE all\"); at most event_rate= lines a second per\n"
	  "              pipeline and CPU, the rest counted \"suppressed\".\n"
	  "-p PID        only events of this process (or thread)\n"
	  "-n COUNT      stop after COUNT events; -d SECONDS: after SECONDS\n"
	  "-j, --json    JSON lines, an event each, the last a summary\n"
	  "              (schema: man stacklat, JSON; docs/json.md).\n"
	  "Reading consumes the kernel's rings (one reader at a time; debugfs\n"
	  "\"events\" reads the same).  At the end it reports the kernel's overruns\n"
	  "(events the rings had no room for) during the run.\n" },
	{ "metrics", cmd_metrics, "[--textfile DIR]",
	  "Every enabled pipeline's histograms and loss counters in the Prometheus /\n"
	  "OpenMetrics text format; the lock pipeline's contended waits and their\n"
	  "time per lock type (no caller, no pid label).",
	  "--textfile DIR  write DIR/stacklat.prom atomically (a temporary file, then\n"
	  "                rename) for node_exporter's textfile collector.\n"
	  "Buckets: le = 2^k-1 ns (k = 1..36) in seconds, exact counts, coarser than\n"
	  "the kernel's (a quantile from them is within a factor of two).\n" },
	{ "top", cmd_top,
	  "syscalls [-p PID] [-x|--errors] [-s count|time] [-n N] [-P] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top disk [-p PID] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top sched [-p PID] [-s total|max|p99|count] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top offcpu [-p PID] [--stacks] [-s total|max|p99|count] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top cpu [-p PID] [-s total|max|p99|count] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top futex [-p PID] [-P] [-s total|max|p99|count] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top lock [-s total|max|p99|count] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top files [-p PID] [-P] [-s bytes|reads|writes|rbytes|wbytes|opens|count] [-n N] [-j] [INTERVAL [COUNT]]",
	  "The most frequent system calls, by name, with their failures by errno and\n"
	  "their time - bcc's syscount, from the syscalls pipeline (per process and\n"
	  "syscall in the kernel).  top disk: the processes reading and writing the\n"
	  "most bytes, per disk - bcc's biotop, from the disktop pipeline.  top sched:\n"
	  "run-queue latency (runnable, woken or preempted, to on a CPU) per process,\n"
	  "or per thread of -p's - bcc's runqlat -P, from the sched pipeline.  top\n"
	  "offcpu: time blocked per process and reason, or per kernel stack -\n"
	  "latencytap, bcc's offcputime - from the offcpu pipeline.  top cpu: CPU\n"
	  "time per process or thread, user and system, and its slices on a CPU -\n"
	  "SystemTap's thread-times.stp, bcc's cpudist, from the cpu pipeline.  top\n"
	  "futex: futex wait time per process and futex - SystemTap's futex\n"
	  "contention example, perf lock's futex half - from the futex pipeline.\n"
	  "top lock: kernel lock contention per lock type and caller - perf lock\n"
	  "contention, without BPF - from the lock pipeline (5.19+).  top files:\n"
	  "opens, reads and writes per process and file - bcc's filetop, SystemTap's\n"
	  "iostats.stp - from the files pipeline.",
	  "Without INTERVAL: the counts since the pipeline was enabled or reset; if it\n"
	  "is disabled, top enables it, counts until Ctrl-C, prints and disables it\n"
	  "(enabling needs CAP_SYS_ADMIN or CAP_PERFMON).  With INTERVAL (seconds, may\n"
	  "be fractional): what happened in each interval, COUNT times or until\n"
	  "interrupted (a pipeline it enabled is disabled at the end).\n"
	  "\n"
	  "-p, --pid PID     that process only\n"
	  "-x, --errors      failed calls only (returned -4095..-1), every errno\n"
	  "-s, --sort KEY    count (default; errors with -x) or time\n"
	  "-n, --top N       rows shown (default 10, 0: all)\n"
	  "-P, --process     a row per process instead of per syscall\n"
	  "-j, --json        one JSON line per sample, every counter and each row's\n"
	  "                  histogram (schema: man stacklat, JSON; docs/json.md)\n"
	  "Names: x86-64's table; an i386 call (a 32-bit process, int 0x80) is shown\n"
	  "as i386:NAME, an x32 one as x32:NAME: each ABI is counted apart.  A call\n"
	  "is counted when it returns (exit and exit_group never do).\n"
	  "\n"
	  "top disk: a row per process and disk, by bytes read and written: PID COMM\n"
	  "DISK READ_KB WRITE_KB R_OPS W_OPS; -p, -n, -j and INTERVAL as above (-x,\n"
	  "-s, -P are for syscalls).  A bio counts for the task submitting it:\n"
	  "writeback of dirty pages for the flusher (kworker), readahead for the\n"
	  "reader, fsync for its caller.  -j: also discards, flushes and other\n"
	  "operations.\n"
	  "\n"
	  "top sched: a row per process (its threads summed), or with -p PID per\n"
	  "thread: PID COMM THREADS WAITS TOTAL AVG P99 MAX PREEMPT; -s total\n"
	  "(default), max, p99 or count.  A wait runs from the thread becoming\n"
	  "runnable - woken, or switched out still runnable (preempted, yielding:\n"
	  "PREEMPT counts those) - to its switch onto a CPU.  P99 is the upper bound\n"
	  "of its log2 bucket (at most MAX); MAX is not known for an interval (\"-\").\n"
	  "\n"
	  "top offcpu: a row per process and reason - the innermost kernel function\n"
	  "of the stack a thread blocked in that is not scheduler machinery (not in\n"
	  ".sched.text: schedule, schedule_timeout, mutex_lock...), e.g. pipe_read,\n"
	  "ep_poll - with --stacks a row per process and stack with its frames\n"
	  "(function+offset): PID COMM REASON BLOCKS TOTAL AVG P99 MAX; -s as for\n"
	  "sched.  A block runs from the switch-out of a thread not runnable to its\n"
	  "next wakeup.  --stacks needs CAP_SYS_ADMIN or CAP_PERFMON (the frames).\n"
	  "\n"
	  "top cpu: a row per process or thread as top sched's: PID COMM THREADS\n"
	  "ONCPU USER SYS SLICES AVG P99 MAX PREEMPT; -s total (on CPU, default), max,\n"
	  "p99 or count (of slices).  A slice runs from the thread's switch onto a CPU\n"
	  "to its switch off it (PREEMPT: still runnable then).  USER and SYS split\n"
	  "ONCPU in the ratio of the user and system time the kernel accounted to the\n"
	  "thread during its slices (task->utime/stime: tick samples on a tick-based\n"
	  "kernel), as /proc/PID/stat does (cputime_adjust): exact to a tick or so.\n"
	  "\n"
	  "top futex: a row per process and futex (its user address in that\n"
	  "process), or with -P per process: PID COMM UADDR (-P: FUTEXES) WAITS EAGAIN\n"
	  "TOTAL AVG P99 MAX WAKER; -s as for sched.  A wait runs from the entry of a\n"
	  "futex() call that waits (FUTEX_WAIT, _WAIT_BITSET, _LOCK_PI, _LOCK_PI2,\n"
	  "_WAIT_REQUEUE_PI) to its return; EAGAIN counts those that returned at once\n"
	  "(the value had changed: contention resolved before sleeping), not in the\n"
	  "times.  WAKER: the thread that woke the last wait (irq: from an interrupt,\n"
	  "a timeout).\n"
	  "\n"
	  "top lock: a row per kernel lock type and caller, kernel-wide (no -p, -P):\n"
	  "TYPE CALLER WAITS FAILED TOTAL AVG P99 MAX NESTED; -s as for sched.  A\n"
	  "wait runs from lock:contention_begin to the contention_end of the same\n"
	  "lock in the same context; TYPE is perf lock's name (spinlock, rwsem:W,\n"
	  "mutex...), CALLER the first function outside the locking code\n"
	  "(function+offset); FAILED: waits that ended in an error (-EINTR, a\n"
	  "timeout); NESTED: contention on other locks inside the waits (a wait_lock),\n"
	  "not counted as waits of their own.  Kernels before 5.19 have no such\n"
	  "tracepoints: the pipeline is not available there.\n"
	  "\n"
	  "top files: a row per process and file, or with -P per process: PID COMM\n"
	  "OPENS FAILS READS R_KB WRITES W_KB FSTYPE FILE (-P: FILES); -s bytes\n"
	  "(read + written, default), reads, writes, rbytes, wbytes, opens (and\n"
	  "failed ones) or count (all calls).  FILE is the name of the file's dentry\n"
	  "when the process first used it (no directory: -j has its device and inode);\n"
	  "a failed open is a row of the last component of the path it tried, its\n"
	  "failures by errno after it (ENOENT:5).  Reads and writes are the read(2),\n"
	  "pread64(2), write(2) and pwrite64(2) calls (vfs_read, vfs_write) and the\n"
	  "kernel's reads and writes for the process (exec reading the program), as\n"
	  "/proc/PID/io counts them; readv, writev, sendfile, splice, io_uring and\n"
	  "mmap are not seen.\n" },
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
	{ "func", cmd_func, "add|del [-p PID] SYMBOL|PATH:SYMBOL|LIB:SYMBOL",
	  "Time a kernel function, or a user-space one (a uprobe and a uretprobe),\n"
	  "from entry to return in the \"func\" pipeline (CAP_SYS_ADMIN or\n"
	  "CAP_PERFMON).",
	  "SYMBOL          a kernel function (MODULE:SYMBOL: one of that module)\n"
	  "PATH:SYMBOL     a function of a program or library file (.symtab, else\n"
	  "                .dynsym), e.g. /usr/sbin/memcached:process_command\n"
	  "LIB:SYMBOL      of a library in the loader's cache (ldconfig -p):\n"
	  "                c:connect, libc:getaddrinfo, pthread:pthread_mutex_lock\n"
	  "                (a loaded kernel module named LIB is the kernel's)\n"
	  "-p PID          only that process's calls: the pipeline's tgid= filter\n"
	  "                (for all its functions)" },
	/* kernel stacks (issue 28) */
	{ "stacks", cmd_stacks, "add|del SYMBOL | on|off PIPELINE | show [-n N] [-j|--json]",
	  "Count the kernel stacks that reach a kernel function (the \"stacks\"\n"
	  "pipeline; add/del and show need CAP_SYS_ADMIN or CAP_PERFMON: the frames\n"
	  "say where kernel code lies).",
	  "add SYMBOL    count the stacks reaching SYMBOL's entry (enable stacks too)\n"
	  "del SYMBOL    stop; what was counted stays until reset\n"
	  "on PIPELINE   netdrop, tcpretrans: take the kernel stack of every drop or\n"
	  "              retransmitted segment at the pipeline's point, counted per\n"
	  "              stack (show) and in its event lines (stack=); off: stop\n"
	  "show          every stack, the most counted first: \"stack ID PIPELINE\n"
	  "              count=N sum=S\", then its frames, innermost (the function\n"
	  "              itself) first, as function+0xoff/0xsize [module]\n"
	  "-n N          the first N stacks only\n"
	  "-j, --json    one JSON line (schema: man stacklat, JSON; docs/json.md)\n" },
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
