/* SPDX-License-Identifier: GPL-2.0 */
/* Pure logic of the stacklat tool: no netlink, unit-tested directly. */
#ifndef STACKLAT_TOOL_HISTO_H
#define STACKLAT_TOOL_HISTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include "stacklat_hist.h"

/* One stage's histogram as read from the kernel (buckets expanded). */
struct hist {
	char pipeline[32];
	char stage[32];
	uint32_t index;
	uint64_t generation;
	uint64_t count, sum, min, max, overflow;
	__u64 buckets[STACKLAT_HIST_NBUCKETS];
};

/* Percentiles reported by show, in STACKLAT_PCT_SCALE units. */
#define NPCTS 4
extern const uint32_t show_pcts[NPCTS];

struct hist_row {
	uint64_t count, sum, avg, min, max;
	uint64_t pct[NPCTS];
};

void hist_row(const struct hist *h, struct hist_row *r);
/* d = cur - prev (interval).  Returns false (and d = cur) on a reset. */
bool hist_delta(const struct hist *cur, const struct hist *prev, struct hist *d);

void fmt_ns(char *buf, size_t len, uint64_t ns);
void json_str(FILE *f, const char *s);
/* bcc-style bars: one row per power of two, or per bucket when fine */
void hist_bars(FILE *f, const struct hist *h, bool fine);

/* The filter keys of "stacklat filter" (0 = unset). */
struct filter_args {
	bool clear;
	uint32_t tgid, tid, ifindex, dev, op;
	uint16_t lport, rport;
	uint8_t proto;
};

/* Parse one key=value word into @fa; returns 0 or -1 with @err set. */
int parse_filter_word(const char *word, struct filter_args *fa, char *err,
		      size_t errlen);
/* Parse a duration in seconds ("1", "0.5"); returns ms or -1. */
long parse_interval_ms(const char *s);

#endif
