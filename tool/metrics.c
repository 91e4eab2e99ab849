// SPDX-License-Identifier: GPL-2.0
/* The Prometheus / OpenMetrics text exposition of the stacklat tool. */
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "render.h"

void metrics_decimal(char *buf, size_t len, uint64_t v, unsigned int decimals)
{
	uint64_t scale = 1;
	unsigned int i;
	int n;

	for (i = 0; i < decimals; i++)
		scale *= 10;
	n = snprintf(buf, len, "%llu", (unsigned long long)(v / scale));
	if (!decimals || v % scale == 0 || n < 0 || (size_t)n >= len)
		return;
	n = snprintf(buf + n, len - (size_t)n, ".%0*llu", (int)decimals,
		     (unsigned long long)(v % scale));
	if (n > 0) {
		char *end = buf + strlen(buf) - 1;

		while (*end == '0')	/* 0.000001000 -> 0.000001 */
			*end-- = '\0';
	}
}

/* A label value: backslash, double quote and newline escaped. */
static void label(FILE *f, const char *name, const char *v)
{
	fprintf(f, "%s=\"", name);
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

static void labels(FILE *f, const char *pipe, const char *stage)
{
	label(f, "pipeline", pipe);
	if (stage) {
		fputc(',', f);
		label(f, "stage", stage);
	}
}

static bool pipe_on(const struct pipe_list *pl, const char *name)
{
	size_t i;

	for (i = 0; i < pl->n; i++)
		if (!strcmp(pl->p[i].name, name))
			return pl->p[i].enabled;
	return false;
}

/*
 * The families of stage histograms, one per unit: a time in seconds (the
 * samples are ns: 9 decimals), a size in bytes, a number of things.
 * Their buckets are the same powers of two of the samples' unit.
 */
static const struct {
	uint32_t unit;
	const char *name;
	const char *help;
	unsigned int decimals;
} families[] = {
	{ STACKLAT_UNIT_NS, "stacklat_stage_seconds",
	  "Time objects spent in a stage of a stacklat pipeline.", 9 },
	{ STACKLAT_UNIT_BYTES, "stacklat_stage_bytes",
	  "Sizes in a value stage of a stacklat pipeline.", 0 },
	{ STACKLAT_UNIT_COUNT, "stacklat_stage_items",
	  "Numbers of things (queue depths, reads, segments) in a value stage of a stacklat pipeline.",
	  0 },
};

static void stage_metric(FILE *f, const struct hist *h, const char *name,
			 unsigned int decimals)
{
	char b[48];
	uint64_t cum = 0;
	uint32_t i = 0, k;

	for (k = METRICS_POW_MIN; k <= METRICS_POW_MAX; k++) {
		uint64_t edge = 1ULL << k;

		for (; i < STACKLAT_HIST_NBUCKETS &&
		       stacklat_hist_lower(i) + stacklat_hist_width(i) <= edge; i++)
			cum += h->buckets[i];
		fprintf(f, "%s_bucket{", name);
		labels(f, h->pipeline, h->stage);
		metrics_decimal(b, sizeof(b), edge - 1, decimals);
		fprintf(f, ",le=\"%s\"} %llu\n", b, (unsigned long long)cum);
	}
	fprintf(f, "%s_bucket{", name);
	labels(f, h->pipeline, h->stage);
	fprintf(f, ",le=\"+Inf\"} %llu\n", (unsigned long long)h->count);
	fprintf(f, "%s_sum{", name);
	labels(f, h->pipeline, h->stage);
	metrics_decimal(b, sizeof(b), h->sum, decimals);
	fprintf(f, "} %s\n", b);
	fprintf(f, "%s_count{", name);
	labels(f, h->pipeline, h->stage);
	fprintf(f, "} %llu\n", (unsigned long long)h->count);
}

/* The lock pipeline's rows summed per type (metrics.h): two counters. */
static void lock_metrics(FILE *f, const struct keyed_set *lock)
{
	const struct lk_row *r = (const struct lk_row *)lock->r;
	struct {
		const char *type;
		uint64_t waits, ns;
	} *t = calloc(lock->n + 1, sizeof(*t));
	size_t i, j, n = 0;
	char b[48];

	if (!t)
		return;
	for (i = 0; i < lock->n; i++) {
		for (j = 0; j < n && strcmp(t[j].type, r[i].type); j++)
			;
		if (j == n)
			t[n++].type = r[i].type;
		t[j].waits += r[i].count;
		t[j].ns += r[i].time_ns;
	}
	fputs("# HELP stacklat_lock_contention_waits_total Contended kernel lock waits (the lock pipeline), by lock type.\n"
	      "# TYPE stacklat_lock_contention_waits_total counter\n", f);
	for (j = 0; j < n; j++) {
		fputs("stacklat_lock_contention_waits_total{", f);
		label(f, "type", t[j].type);
		fprintf(f, "} %llu\n", (unsigned long long)t[j].waits);
	}
	fputs("# HELP stacklat_lock_contention_seconds_total Time in contended kernel lock waits (the lock pipeline), by lock type.\n"
	      "# TYPE stacklat_lock_contention_seconds_total counter\n", f);
	for (j = 0; j < n; j++) {
		fputs("stacklat_lock_contention_seconds_total{", f);
		label(f, "type", t[j].type);
		metrics_decimal(b, sizeof(b), t[j].ns, 9);
		fprintf(f, "} %s\n", b);
	}
	free(t);
}

void metrics_render(FILE *f, const struct pipe_list *pl, const struct hist_set *set,
		    const struct keyed_set *lock)
{
	size_t i, j, n;
	int a;

	for (j = 0; j < sizeof(families) / sizeof(families[0]); j++) {
		for (i = n = 0; i < set->n; i++)
			n += set->h[i].unit == families[j].unit &&
			     pipe_on(pl, set->h[i].pipeline);
		/* the time family always; the others where they have a stage */
		if (!n && families[j].unit != STACKLAT_UNIT_NS)
			continue;
		fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n", families[j].name,
			families[j].help, families[j].name);
		for (i = 0; i < set->n; i++) {
			if (set->h[i].unit != families[j].unit ||
			    !pipe_on(pl, set->h[i].pipeline))
				continue;
			stage_metric(f, &set->h[i], families[j].name,
				     families[j].decimals);
		}
	}
	for (a = 1; a <= STACKLAT_LOSS_A_MAX; a++) {
		const char *ln = stacklat_loss_name(a);

		if (!strcmp(ln, "?"))
			continue;
		fprintf(f, "# HELP stacklat_lost_%s_total Samples a stacklat pipeline lost: %s.\n"
			"# TYPE stacklat_lost_%s_total counter\n", ln, ln, ln);
		for (i = 0; i < pl->n; i++) {
			const struct pipe_info *p = &pl->p[i];

			if (!p->enabled)
				continue;
			fprintf(f, "stacklat_lost_%s_total{", ln);
			labels(f, p->name, NULL);
			fprintf(f, "} %llu\n", (unsigned long long)
				(p->loss_mask & (1U << a) ? p->loss[a] : 0));
		}
	}
	if (lock && pipe_on(pl, "lock"))
		lock_metrics(f, lock);
	fputs("# EOF\n", f);
}
