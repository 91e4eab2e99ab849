// SPDX-License-Identifier: GPL-2.0
/* Text views of status and histograms (no libnl; JSON: json.c). */
#include <string.h>

#include "format.h"
#include "histo.h"
#include "parse.h"
#include "render.h"
#include "stacklat_event.h"

#define C_RESET	"\033[0m"
#define C_BOLD	"\033[1m"
#define C_RED	"\033[31m"
#define C_GREEN	"\033[32m"
#define C_YELLOW "\033[33m"
#define C_DIM	"\033[2m"

static const char * const state_colors[] = {
	[STACKLAT_HOOK_DISARMED] = C_DIM,
	[STACKLAT_HOOK_ARMED] = C_GREEN,
	[STACKLAT_HOOK_UNAVAILABLE] = C_YELLOW,
	[STACKLAT_HOOK_FAILED] = C_RED,
	[STACKLAT_HOOK_SKIPPED] = C_DIM,
};

static unsigned long long ull(uint64_t v)
{
	return (unsigned long long)v;
}

/*
 * A per-cgroup stage's label: "cg<ID>.total" (the kernel names it by the
 * id) as "cg:PATH.total", the cgroup's path under the cgroup2 mount, when
 * a directory has that id; any other name as it is.
 */
static const char *stage_label(const char *name, char *buf, size_t len)
{
	const char *p = name + 2, *path;
	char idb[24];
	uint64_t id;

	if (strncmp(name, "cg", 2) || *p < '1' || *p > '9')
		return name;
	while (*p >= '0' && *p <= '9')
		p++;
	if (strcmp(p, ".total") || (size_t)(p - name - 2) >= sizeof(idb))
		return name;
	memcpy(idb, name + 2, (size_t)(p - name - 2));
	idb[p - name - 2] = '\0';
	if (parse_u64_range(idb, 1, UINT64_MAX, &id))
		return name;
	path = cgroup_path_of(id, idb, sizeof(idb));
	if (path == idb)	/* no such directory: the id */
		return name;
	snprintf(buf, len, "cg:%s.total", path);
	return buf;
}

void render_show_table(FILE *f, const char *pipe, const struct pipe_info *pi,
		       const struct hist *hs, size_t n)
{
	char label[300];
	struct hist_stats st;
	char b[FMT_NS_LEN + 1];
	bool reset = false, added = false;
	size_t i, w = 5;
	int j;

	for (i = 0; i < n; i++) {
		const char *l = stage_label(hs[i].stage, label, sizeof(label));

		if (strlen(l) > w)
			w = strlen(l);
		reset |= hs[i].kind == HIST_BASELINE_RESET;
		added |= hs[i].kind == HIST_BASELINE_NEW;
	}
	fprintf(f, "%s", pipe);
	if (pi)
		fprintf(f, " (%s)", pi->enabled ? "enabled" : "disabled");
	if (reset)
		fprintf(f, ": reset during the interval, these are the counts since the reset");
	else if (added)
		fprintf(f, ": new stages, counted since they appeared");
	fputc('\n', f);
	if (!n) {
		fprintf(f, "  (no stages)\n");
		return;
	}
	fprintf(f, "%-*s %10s %9s", (int)w, "stage", "count", "avg");
	for (j = 0; j < NPCTS; j++)
		fprintf(f, " %9s", show_pct_names[j]);
	fprintf(f, " %9s\n", "max");
	for (i = 0; i < n; i++) {
		hist_stats(&hs[i], &st);
		fprintf(f, "%-*s %10llu", (int)w, stage_label(hs[i].stage, label, sizeof(label)),
			ull(st.count));
		if (!st.count) {
			for (j = 0; j < NPCTS + 2; j++)
				fprintf(f, " %9s", "-");
			fputc('\n', f);
			continue;
		}
		fmt_val(b, sizeof(b), hs[i].unit, st.avg);
		fprintf(f, " %9s", b);
		for (j = 0; j < NPCTS; j++) {
			fmt_val(b, sizeof(b), hs[i].unit, st.pct[j]);
			fprintf(f, " %9s", b);
		}
		b[0] = '~';
		fmt_val(b + 1, sizeof(b) - 1, hs[i].unit, st.max);
		fprintf(f, " %9s\n", st.max_exact ? b + 1 : b);
	}
}

static const char *stage_name(const struct pipe_info *pi, uint32_t index)
{
	size_t i;

	for (i = 0; pi && i < pi->nstages; i++)
		if (pi->stages[i].index == index)
			return pi->stages[i].name;
	return NULL;
}

void render_event(char *buf, size_t len, const struct stacklat_event *ev,
		  const struct pipe_list *pl)
{
	const struct pipe_info *pi = pl && ev->pipeline < pl->n ? &pl->p[ev->pipeline] : NULL;
	char comm[sizeof(ev->comm) + 1], d[FMT_NS_LEN];
	size_t n, i;
	int r;

	memcpy(comm, ev->comm, sizeof(ev->comm));
	comm[sizeof(ev->comm)] = '\0';
	for (i = 0; comm[i]; i++)	/* one word of printable ASCII */
		if ((unsigned char)comm[i] <= ' ' || (unsigned char)comm[i] >= 0x7f)
			comm[i] = '?';
	fmt_ns(d, sizeof(d), ev->total_ns);
	r = snprintf(buf, len, "%llu.%06llu %s %u/%u %s total=%s",
		     ull(ev->time_ns / 1000000000ULL), ull(ev->time_ns % 1000000000ULL / 1000),
		     comm[0] ? comm : "?", ev->tgid, ev->tid, pi ? pi->name : "?", d);
	n = r < 0 ? 0 : (size_t)r < len ? (size_t)r : len - 1;
	for (i = 0; i < ev->nstages && i < STACKLAT_EVENT_STAGES && n < len - 1; i++) {
		const char *name = stage_name(pi, ev->stages[i].index);

		fmt_ns(d, sizeof(d), ev->stages[i].ns);
		if (name)
			r = snprintf(buf + n, len - n, " %s=%s", name, d);
		else
			r = snprintf(buf + n, len - n, " stage%u=%s", ev->stages[i].index, d);
		n = r < 0 ? n : n + (size_t)r < len ? n + (size_t)r : len - 1;
	}
	if (n < len - 1)
		n += stacklat_event_obj_fmt(buf + n, (unsigned int)(len - n), ev);
	if (n < len - 1) {
		char cg[24];

		snprintf(buf + n, len - n, " cgroup=%s", cgroup_path_of(ev->cgroup, cg, sizeof(cg)));
	}
}

void render_pipe_status(FILE *f, const struct pipe_info *p, bool color)
{
	char filt[256], err[128], num[2][24];
	size_t i, wn = 4, wt = 6, wh = 4, wm = 7;
	int a;

	fprintf(f, "%spipeline %s%s: %s%s%s, follows %s, generation %llu, %zu stage%s\n",
		color ? C_BOLD : "", p->name, color ? C_RESET : "",
		color ? (p->enabled ? C_GREEN : C_DIM) : "",
		p->enabled ? "enabled" : "disabled", color ? C_RESET : "",
		stacklat_key_name(p->key), ull(p->generation), p->nstages,
		p->nstages == 1 ? "" : "s");
	if (p->desc[0])
		fprintf(f, "  %s\n", p->desc);
	if (p->has_filter) {
		filter_format(&p->filter, filt, sizeof(filt));
		fprintf(f, "  filter:%s\n", filt);
	}
	if (p->threshold_ns) {
		fmt_ns(err, sizeof(err), p->threshold_ns);
		fprintf(f, "  slow events above %s\n", err);
	}
	if (p->has_sample && p->sample_auto)
		fprintf(f, "  sample: auto, budget %u objects/s a CPU (the busiest: %llu/s): 1 in %u now, %llu objects at the first point, %llu followed\n",
			p->sample_auto, ull(p->sample_peak), p->sample, ull(p->sample_seen),
			ull(p->sample_followed));
	else if (p->has_sample && p->sample > 1)
		fprintf(f, "  sample: 1 in %u, %llu objects at the first point, %llu followed\n",
			p->sample, ull(p->sample_seen), ull(p->sample_followed));
	if (p->has_cgtotals && p->cgtotals)
		fprintf(f, "  totals per cgroup: on\n");
	if (p->loss_mask) {
		fprintf(f, "  lost:");
		for (a = 1; a <= STACKLAT_LOSS_A_MAX; a++)
			if (p->loss_mask & (1U << a) && strcmp(stacklat_loss_name(a), "?"))
				fprintf(f, " %s=%llu", stacklat_loss_name(a), ull(p->loss[a]));
		fputc('\n', f);
	}
	if (p->has_keyed) {
		const struct keyed_info *k = &p->keyed;

		fprintf(f, "  keyed rows: %u/%u used, %u B a row folded; %u rows a CPU buffer (grows to %u), 2 buffers x %u CPUs, %u B a row there; %llu KiB in all\n",
			k->rows, k->max_rows, k->row_bytes, k->cpu_rows_now,
			k->cpu_rows, k->cpus, k->row_bytes_cpu,
			ull(k->bytes >> 10));
		fprintf(f, "  keyed: folds=%llu full=%llu busy=%llu dropped=%llu dropped_rows=%llu aged=%llu aged_rows=%llu retire_lost=%llu linger=%llums grows=%llu spilled=%llu spill_rows=%u\n",
			ull(k->folds), ull(k->full), ull(k->busy), ull(k->dropped),
			ull(k->dropped_rows), ull(k->aged), ull(k->aged_rows),
			ull(k->retire_lost), ull(k->linger_ns / 1000000),
			ull(k->grows), ull(k->spilled), k->spill_rows);
	}
	if (p->has_fprobe)
		fprintf(f, "  fprobe (the return points): nmissed=%llu\n",
			ull(p->fprobe_nmissed));
	if (p->has_mem && p->mem_bytes)
		fprintf(f, "  memory: %llu KiB (histograms, keyed and stack tables), %llu KiB of it each online CPU's\n",
			ull((p->mem_bytes + 1023) >> 10),
			ull((p->mem_cpu_bytes + 1023) >> 10));
	if (!p->nhooks)
		return;
	for (i = 0; i < p->nhooks; i++) {
		const struct hook_info *h = &p->hooks[i];

		if (strlen(h->name) > wn)
			wn = strlen(h->name);
		if (strlen(h->target) > wt)
			wt = strlen(h->target);
		if ((size_t)snprintf(num[0], sizeof(num[0]), "%llu", ull(h->hits)) > wh)
			wh = strlen(num[0]);
		if ((size_t)snprintf(num[1], sizeof(num[1]), "%llu", ull(h->nmissed)) > wm)
			wm = strlen(num[1]);
	}
	fprintf(f, "  %-*s  %-10s  %-*s  %*s  %*s  %s\n", (int)wn, "hook", "kind",
		(int)wt, "target", (int)wh, "hits", (int)wm, "nmissed", "state");
	for (i = 0; i < p->nhooks; i++) {
		const struct hook_info *h = &p->hooks[i];
		bool known = h->state < __STACKLAT_HOOK_STATE_MAX;

		fprintf(f, "  %-*s  %-10s  %-*s  %*llu  %*llu  %s%s%s", (int)wn,
			h->name, stacklat_hook_kind_name(h->kind), (int)wt,
			h->target[0] ? h->target : "-", (int)wh, ull(h->hits),
			(int)wm, ull(h->nmissed),
			color && known ? state_colors[h->state] : "",
			stacklat_hook_state_name(h->state), color && known ? C_RESET : "");
		if (h->error && h->state != STACKLAT_HOOK_ARMED &&
		    h->state != STACKLAT_HOOK_DISARMED)
			fprintf(f, " (%s)", errno_text((int)h->error, err, sizeof(err)));
		fputc('\n', f);
	}
}

void render_status(FILE *f, const struct status_info *st,
		   const struct pipe_list *pl, bool color)
{
	char age[FMT_NS_LEN];
	size_t i;

	fprintf(f, "stacklat module %s on Linux %s, clock %s, %u pipeline%s\n",
		st->version[0] ? st->version : "?",
		st->release[0] ? st->release : "?",
		st->clock[0] ? st->clock : "?", st->nr_pipelines,
		st->nr_pipelines == 1 ? "" : "s");
	if (st->has_flight) {
		fmt_ns(age, sizeof(age), st->flight_max_age_ns);
		fprintf(f, "in-flight table: %u of %u slots used, stale after %s; inserts=%llu full=%llu stale=%llu\n",
			st->flight_used, st->flight_size, age,
			ull(st->flight_inserts), ull(st->flight_full),
			ull(st->flight_stale));
	}
	if (st->has_events) {
		uint64_t over = 0;

		for (i = 0; i < st->ncpus; i++)
			over += st->overruns[i];
		fprintf(f, "slow events: ring %u per CPU on %u CPUs (%llu KiB; from %u, largest now %u), written %llu, read %llu, overruns %llu",
			st->events_ring, st->events_rings, ull(st->events_bytes >> 10),
			st->events_ring_start, st->events_ring_now,
			ull(st->events_written), ull(st->events_read), ull(over));
		for (i = 0; over && i < st->ncpus; i++)
			fprintf(f, "%scpu%zu=%llu", i ? " " : " (", i, ull(st->overruns[i]));
		fprintf(f, "%s\n", over ? ")" : "");
	}
	for (i = 0; i < pl->n; i++) {
		fputc('\n', f);
		render_pipe_status(f, &pl->p[i], color);
	}
	if (pl->n != st->nr_pipelines)
		fprintf(f, "\nwarning: the module has %u pipeline%s, its dump listed %zu\n",
			st->nr_pipelines, st->nr_pipelines == 1 ? "" : "s", pl->n);
}
