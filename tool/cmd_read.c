// SPDX-License-Identifier: GPL-2.0
/*
 * stacklat status, show, hist, inflight and metrics: the commands that
 * only read the module's state (cmd.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "format.h"
#include "histo.h"
#include "json.h"
#include "metrics.h"
#include "nl.h"
#include "parse.h"
#include "render.h"

/* ---- status -------------------------------------------------------------- */

int cmd_status(int argc, char **argv)
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

int cmd_show(int argc, char **argv)
{
	struct hist_set cur = { 0 }, prev = { 0 }, delta = { 0 }, tmp;
	struct pipe_list pl = { 0 };
	struct show_args a;
	const char *names[SHOW_MAX_PIPES + 64];
	size_t nnames = 0, i;
	const char *one;
	char err[160];
	uint64_t k, t_prev, t_cur, deadline;

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

	catch_stop();
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

int cmd_hist(int argc, char **argv)
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

int cmd_inflight(int argc, char **argv)
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

int cmd_metrics(int argc, char **argv)
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
