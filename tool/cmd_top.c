// SPDX-License-Identifier: GPL-2.0
/*
 * stacklat top: syscalls, disk, sched, offcpu, cpu, futex and lock, a
 * sample of a keyed pipeline's rows at a time (cmd.h; the tables are
 * top.c's and top_*.c's).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "format.h"
#include "json.h"
#include "nl.h"
#include "parse.h"
#include "top.h"

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
	const struct cg_view *cg;	/* its --by cgroup fold, if it has one */
};

/* --by cgroup: the hierarchy's names, walked once a run (top_cgroup.c) */
static struct cg_names cg_names;

static void cg_show(const struct top_args *a, const struct cg_view *w,
		    const struct keyed_set *s, struct json_object *env)
{
	struct cg_table t;

	if (cg_build(w, s, a, &cg_names, &t))
		fatal("out of memory");
	if (env) {
		cg_json(env, w, &t, a);
	} else {
		printf(", by cgroup: %zu cgroups\n", t.total);
		cg_render(stdout, w, &t);
	}
	cg_table_free(&t);
}

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

static void nt_show(const struct top_args *a, const struct keyed_set *s, bool max,
		    struct json_object *env)
{
	struct nt_table t;

	(void)max;	/* net keeps no maximum */
	if (nt_build(s, a, &t))
		fatal("out of memory");
	if (env) {
		nt_json(env, &t, a);
	} else {
		printf(": %llu KiB sent in %llu calls, %llu KiB received in %llu calls\n",
		       (unsigned long long)(t.send_bytes / 1024),
		       (unsigned long long)t.sends,
		       (unsigned long long)(t.recv_bytes / 1024),
		       (unsigned long long)t.recvs);
		nt_render(stdout, &t, a);
	}
	nt_table_free(&t);
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

		if (a->by_cgroup)
			cg_show(a, k->cg, s, env);
		else
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
		if (a->by_cgroup)
			cg_show(a, k->cg, s, NULL);
		else
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

	sl_nl_get_pipelines(NULL, &pl);
	if (!find_pipe(&pl, pipe))
		fatal("top: the module has no %s pipeline (an older module?)", pipe);
	catch_stop();
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

	if (a->by_cgroup &&
	    !cgroup2_mount(cg_names.root, sizeof(cg_names.root)))
		fatal("top --by cgroup: not available: no cgroup v2 hierarchy is mounted (a cgroup v1-only host)");
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
	cg_names_free(&cg_names);
}

int cmd_top(int argc, char **argv)
{
	static const struct top_kind kinds[] = {
		[TOP_SYSCALLS] = { "syscalls", "syscalls", "calls", sl_nl_get_syscalls,
				   sc_delta, sc_show, &cg_syscalls },
		[TOP_DISK] = { "disktop", "disk I/O", "bios", sl_nl_get_disktop,
			       dk_delta, dk_show, &cg_disk },
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
				fl_delta, fl_show, &cg_files },
		[TOP_NET] = { "nettop", "network traffic", "calls", sl_nl_get_nettop,
			      nt_delta, nt_show, &cg_net },
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
