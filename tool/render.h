/* SPDX-License-Identifier: GPL-2.0 */
/* Text and JSON views of status and histograms (no libnl). */
#ifndef STACKLAT_TOOL_RENDER_H
#define STACKLAT_TOOL_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"

/* Names of the enums of uapi/stacklat.h ("?" when out of range). */
const char *hook_state_name(uint32_t state);
const char *hook_kind_name(uint32_t kind);
const char *key_name(uint32_t key);
const char *loss_name(int attr);

/*
 * One pipeline of "stacklat show": a title line, then a header and one row
 * per stage: stage, count, avg, p50, p90, p99, p99.9, max.  Rows start with
 * the stage name.  @pi (may be NULL) adds enabled/disabled.  In interval
 * mode (any hist kind other than HIST_CUMULATIVE) a max that is not exact is
 * printed with a leading '~', and a reset or a new stage is noted.
 */
void render_show_table(FILE *f, const char *pipe, const struct pipe_info *pi,
		       const struct hist *hs, size_t n);

/*
 * One pipeline as a JSON object (no newline):
 * {"pipeline":S,"generation":N,["enabled":B,]["reset":B,]"stages":[
 *   {"name":S,"index":N,"count":N,"sum_ns":N,"min_ns":N,"max_ns":N,
 *    "avg_ns":N,"p50_ns":N,"p90_ns":N,"p99_ns":N,"p999_ns":N,
 *    "overflow":N,"min_exact":B,"max_exact":B}...]}
 * "reset" is present in interval mode only.
 */
void render_show_json(FILE *f, const char *pipe, const struct pipe_info *pi,
		      const struct hist *hs, size_t n, bool interval);

/* "stacklat status": module line, in-flight table, then each pipeline. */
void render_status(FILE *f, const struct status_info *st,
		   const struct pipe_list *pl, bool color);

/* One pipeline of the status view. */
void render_pipe_status(FILE *f, const struct pipe_info *p, bool color);

#endif
