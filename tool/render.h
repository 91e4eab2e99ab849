/* SPDX-License-Identifier: GPL-2.0 */
/* Text views of status and histograms (no libnl; JSON: json.h). */
#ifndef STACKLAT_TOOL_RENDER_H
#define STACKLAT_TOOL_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"

/*
 * One pipeline of "stacklat show": a title line, then a header and one row
 * per stage: stage, count, avg, p50, p90, p99, p99.9, max.  Rows start with
 * the stage name.  @pi (may be NULL) adds enabled/disabled.  In interval
 * mode (any hist kind other than HIST_CUMULATIVE) a max that is not exact is
 * printed with a leading '~', and a reset or a new stage is noted.
 */
void render_show_table(FILE *f, const char *pipe, const struct pipe_info *pi,
		       const struct hist *hs, size_t n);

/* "stacklat status": module line, in-flight table, then each pipeline. */
void render_status(FILE *f, const struct status_info *st,
		   const struct pipe_list *pl, bool color);

/*
 * One slow event as a line (no newline), as debugfs "events" prints it:
 * TIME COMM TGID/TID PIPELINE total=DUR STAGE=DUR... (TIME: the end
 * point's CLOCK_MONOTONIC in seconds; stages in the pipeline's order,
 * named from @pl, which may be NULL).
 */
void render_event(char *buf, size_t len, const struct stacklat_event *ev,
		  const struct pipe_list *pl);

/* One pipeline of the status view. */
void render_pipe_status(FILE *f, const struct pipe_info *p, bool color);

#endif
