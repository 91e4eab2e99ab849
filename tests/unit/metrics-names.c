// SPDX-License-Identifier: GPL-2.0
/*
 * metrics-names: `stacklat metrics` as tool/metrics.c renders it for a
 * fixture that has every family the exporter can write - a pipeline with
 * every loss counter, a stage of each unit (time, bytes, count) and the
 * lock pipeline's rows - on stdout.  dashboard-check.py takes the metric
 * names from this output (the exporter's own, not a list kept by hand).
 */
#include <stdio.h>
#include <string.h>

#include "metrics.h"

int main(void)
{
	static struct pipe_info pi[2];
	static struct hist h[3];
	static const uint32_t units[3] = {
		STACKLAT_UNIT_NS, STACKLAT_UNIT_BYTES, STACKLAT_UNIT_COUNT
	};
	struct pipe_list pl = { pi, 2 };
	struct hist_set set = { h, 3, 3 };
	struct lk_row row;
	struct keyed_set lock = { &row, 1, 1, 1 };
	int i;

	strcpy(pi[0].name, "net_rx");
	strcpy(pi[1].name, "lock");
	for (i = 0; i < 2; i++) {
		pi[i].enabled = true;
		pi[i].loss_mask = ~0U;
	}
	for (i = 0; i < 3; i++) {
		strcpy(h[i].pipeline, "net_rx");
		snprintf(h[i].stage, sizeof(h[i].stage), "stage%d", i);
		h[i].unit = units[i];
		h[i].count = 1;
		h[i].sum = 1000;
		h[i].buckets[0] = 1;
	}
	memset(&row, 0, sizeof(row));
	strcpy(row.type, "rwsem:W");
	strcpy(row.caller, "f+0x1");
	row.count = 1;
	row.time_ns = 1000;
	metrics_render(stdout, &pl, &set, &lock);
	return 0;
}
