/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Histogram logic of the stacklat tool (no libnl): loading the trimmed
 * bucket array of a GET_HIST reply, percentile rows, interval deltas and
 * text bars.
 */
#ifndef STACKLAT_TOOL_HISTO_H
#define STACKLAT_TOOL_HISTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

/* Percentiles in the show table, in STACKLAT_PCT_SCALE units. */
#define NPCTS 4
extern const uint32_t show_pcts[NPCTS];		/* 5000 9000 9900 9990 */
extern const char * const show_pct_names[NPCTS];	/* p50 ... p99.9 */
extern const char * const show_pct_keys[NPCTS];	/* p50_ns ... p999_ns */

/* One row of the show table. */
struct hist_stats {
	uint64_t count, sum, avg, min, max, overflow;
	uint64_t pct[NPCTS];
	bool min_exact, max_exact;
};

void hist_stats(const struct hist *h, struct hist_stats *st);

/*
 * Copy the BUCKETS attribute (@len bytes of host-order u64 for bucket
 * indices @first..) into @h->buckets, after checking that the module's
 * bucket layout (@nbuckets) is this tool's and that the array fits.
 * Returns 0, or -1 with a message in @err.
 */
int hist_load_buckets(struct hist *h, uint32_t nbuckets, uint32_t first,
		      const void *data, size_t len, char *err, size_t errlen);

/* A new zeroed histogram at the end of @s (NULL when out of memory). */
struct hist *hist_set_append(struct hist_set *s);
void hist_set_free(struct hist_set *s);
int hist_set_copy(struct hist_set *dst, const struct hist_set *src);
/* The histogram of (pipeline, stage index, stage name), or NULL. */
const struct hist *hist_set_find(const struct hist_set *s, const char *pipe,
				 uint32_t index, const char *stage);

/*
 * @out = @cur - @prev, the interval between two samples of one stage.
 * Counts, sums, overflow and buckets are subtracted.  min and max cannot
 * be: they are exact when the interval moved the cumulative min or max
 * (or its extreme bucket holds a single value), otherwise the bounds of the
 * lowest and highest non-empty bucket of the interval, clamped to the
 * cumulative min and max (min_exact / max_exact say which).
 * If the generation changed, or any counter went backwards, @out is @cur
 * (everything since the reset) with kind HIST_BASELINE_RESET.
 * Returns @out->kind.
 */
enum hist_kind hist_delta(const struct hist *cur, const struct hist *prev,
			  struct hist *out);

/*
 * The interval of every histogram of @cur against its match (pipeline,
 * index, name) in @prev; unmatched ones come out as HIST_BASELINE_NEW.
 * Returns 0 or -1 (out of memory).
 */
int hist_set_delta(const struct hist_set *cur, const struct hist_set *prev,
		   struct hist_set *out);

/*
 * bcc-style bars: "lo -> hi : count |****  |" (hi exclusive).  One row per
 * power of two (the 16 sub-buckets merged, empty rows between the first and
 * the last kept, as the module's debugfs hist files print them), or with
 * @fine one row per non-empty bucket, a "..." line where empty ones were
 * skipped.  Overflowed samples are the last row, "68.7s -> inf".  A
 * non-empty row always gets at least one '*'.
 */
#define BAR_WIDTH 40
void hist_bars(FILE *f, const struct hist *h, bool fine);

#endif
