// SPDX-License-Identifier: GPL-2.0
/*
 * stacklat events: the slow objects the kernel's rings hold, a line each,
 * their kernel stacks named (cmd.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "format.h"
#include "json.h"
#include "nl.h"
#include "parse.h"
#include "render.h"
#include "stacks.h"

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

int cmd_events(int argc, char **argv)
{
	static char obuf[1 << 16];
	struct status_info st0, st1;
	struct pipe_list pl = { 0 };
	struct ev_ctx c = { .pl = &pl };
	uint64_t thresh = 0, dur_ns = 0, pid = 0, got = 0, prev[SHOW_MAX_PIPES + 64];
	const char *names[SHOW_MAX_PIPES];
	size_t nnames = 0, i, k;
	bool set_t = false;
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
	catch_stop();
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
