/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one JSON schema of every "stacklat ... -j" output (no libnl), built
 * with json-c.  Every output is one object on one line (a stream is one
 * such line per sample, JSON lines):
 *
 *   {"schema":1,"command":"show","time_ns":N,"interval_ns":N|null,...}
 *
 * time_ns is CLOCK_REALTIME in ns when the sample was read; interval_ns the
 * length of the interval a sample covers (null: cumulative since the
 * pipeline's last reset).  What follows depends on the command;
 * docs/json.md documents each (the one place the schema is defined).  Histogram values carry their "unit"
 * ("ns" for times): the keys count, sum, min, max, avg, p50, p90, p99 and
 * p999 are in that unit; for unit "ns" the same values are also under the
 * older names sum_ns, min_ns, ... p999_ns.
 */
#ifndef STACKLAT_TOOL_JSON_H
#define STACKLAT_TOOL_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "model.h"

#define STACKLAT_JSON_SCHEMA	1

/* A string as JSON: invalid UTF-8 replaced by U+FFFD, never raw bytes. */
struct json_object *json_str(const char *s);

/* The envelope; @interval_ns 0 gives "interval_ns":null. */
struct json_object *json_envelope(const char *command, uint64_t time_ns,
				  uint64_t interval_ns);

/* The unit of a histogram's values ("ns" for time). */
const char *hist_unit(const struct hist *h);

/*
 * One stage: {"name","index","unit","count","sum","min","max","avg","p50",
 * "p90","p99","p999","overflow","min_exact","max_exact"} (+ the _ns aliases
 * for unit ns); with @buckets, "buckets":[[lo,hi,count]...] for every
 * non-empty bucket, lo inclusive and hi exclusive, in the unit.
 */
struct json_object *json_stage(const struct hist *h, bool buckets);

/*
 * One pipeline's histograms: {"pipeline","generation","enabled"(when @pi),
 * "reset","stages":[...]}; "reset" is true when a reset happened during
 * the interval (always false for a cumulative sample).
 */
struct json_object *json_pipe_hists(const char *pipe, const struct pipe_info *pi,
				    const struct hist *hs, size_t n, bool buckets);

/* "status": {"module":{...},"flight":{...}|null,"pipelines":[...]} added to @env. */
void json_status(struct json_object *env, const struct status_info *st,
		 const struct pipe_list *pl);

/*
 * "inflight": "entries":[{"pipeline","age_ns","tid"(null: not a thread),
 * "desc"(null: none),"points":[{"name","offset_ns"}...]}...] added to @env.
 */
void json_inflight(struct json_object *env, const struct inflight_list *l);

/*
 * "events": one line per event, "event":{"mono_ns","pipeline","comm","tgid",
 * "tid","cpu","seq","total_ns","stages":[{"name","index","ns"}...]} added
 * to @env (stages in the pipeline's order, names from @pl).
 */
void json_event(struct json_object *env, const struct stacklat_event *ev,
		const struct pipe_list *pl);

/*
 * The same lines as json_envelope("events") + json_event + json_emit, made
 * faster for a stream: the objects of a line are built once per shape
 * (pipeline, stages, object fields; a few shapes kept) and only their
 * values are set for each event.  The output is byte for byte what the
 * slow path prints (tests/unit/test_json.c checks it).
 */
struct json_event_writer;
struct json_event_writer *json_event_writer_new(const struct pipe_list *pl);
void json_event_write(struct json_event_writer *w, FILE *f, const struct stacklat_event *ev,
		      uint64_t time_ns);
void json_event_writer_free(struct json_event_writer *w);
/*
 * One event with its stack (_F_STACK) as a JSON line: the event's members
 * and "stack_id", "stack" (@nr frames as GET_STACKS names them, innermost
 * first; empty when the stack is gone or was not kept).
 */
void json_event_write_stack(FILE *f, const struct stacklat_event *ev,
			    const struct pipe_list *pl, uint64_t time_ns,
			    char *const *frames, unsigned int nr);

/* Print @o on one line, newline, and drop the reference. */
void json_emit(FILE *f, struct json_object *o);

#endif
