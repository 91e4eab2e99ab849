// SPDX-License-Identifier: GPL-2.0
/* The JSON views of the stacklat tool, with json-c (no libnl). */
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "histo.h"
#include "json.h"
#include "stacklat_event.h"
#include "parse.h"
#include "render.h"

struct json_object *json_str(const char *s)
{
	struct json_object *o;
	char *clean = utf8_clean(s);

	if (!clean)
		return NULL;
	o = json_object_new_string(clean);
	free(clean);
	return o;
}

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static void add_u64(struct json_object *o, const char *key, uint64_t v)
{
	add(o, key, json_object_new_uint64(v));
}

static void add_bool(struct json_object *o, const char *key, bool v)
{
	add(o, key, json_object_new_boolean(v));
}

static void add_str(struct json_object *o, const char *key, const char *s)
{
	add(o, key, json_str(s));
}

struct json_object *json_envelope(const char *command, uint64_t time_ns,
				  uint64_t interval_ns)
{
	struct json_object *o = json_object_new_object();

	add(o, "schema", json_object_new_int(STACKLAT_JSON_SCHEMA));
	add_str(o, "command", command);
	add_u64(o, "time_ns", time_ns);
	add(o, "interval_ns", interval_ns ? json_object_new_uint64(interval_ns) : NULL);
	return o;
}

const char *hist_unit(const struct hist *h)
{
	return unit_name(h->unit);
}

/* @st's sum, min, max and avg under @keys, its percentiles under @pkeys */
static void add_stats(struct json_object *o, const struct hist_stats *st,
		      const char * const keys[4], const char * const pkeys[NPCTS])
{
	const uint64_t v[4] = { st->sum, st->min, st->max, st->avg };
	int j;

	for (j = 0; j < 4; j++)
		add_u64(o, keys[j], v[j]);
	for (j = 0; j < NPCTS; j++)
		add_u64(o, pkeys[j], st->pct[j]);
}

struct json_object *json_stage(const struct hist *h, bool buckets)
{
	static const char * const keys[4] = { "sum", "min", "max", "avg" };
	static const char * const pkeys[NPCTS] = { "p50", "p90", "p99", "p999" };
	static const char * const keys_ns[4] = { "sum_ns", "min_ns", "max_ns", "avg_ns" };
	struct json_object *o = json_object_new_object(), *b;
	const char *unit = hist_unit(h);
	struct hist_stats st;
	uint32_t i;

	hist_stats(h, &st);
	add_str(o, "name", h->stage);
	add_u64(o, "index", h->index);
	add_str(o, "unit", unit);
	add_u64(o, "count", st.count);
	add_stats(o, &st, keys, pkeys);
	add_u64(o, "overflow", st.overflow);
	add_bool(o, "min_exact", st.min_exact);
	add_bool(o, "max_exact", st.max_exact);
	/* the older names, kept for scripts: in a value stage they hold its unit */
	add_stats(o, &st, keys_ns, show_pct_keys);
	if (!buckets)
		return o;
	b = json_object_new_array();
	for (i = 0; i < STACKLAT_HIST_NBUCKETS; i++) {
		struct json_object *row;

		if (!h->buckets[i])
			continue;
		row = json_object_new_array();
		json_object_array_add(row, json_object_new_uint64(stacklat_hist_lower(i)));
		json_object_array_add(row, json_object_new_uint64(stacklat_hist_lower(i) +
								  stacklat_hist_width(i)));
		json_object_array_add(row, json_object_new_uint64(h->buckets[i]));
		json_object_array_add(b, row);
	}
	add(o, "buckets", b);
	return o;
}

struct json_object *json_pipe_hists(const char *pipe, const struct pipe_info *pi,
				    const struct hist *hs, size_t n, bool buckets)
{
	struct json_object *o = json_object_new_object(), *a;
	uint64_t gen = pi ? pi->generation : 0;
	bool reset = false;
	size_t i;

	for (i = 0; i < n; i++)
		reset |= hs[i].kind == HIST_BASELINE_RESET;
	if (n)
		gen = hs[0].generation;
	add_str(o, "pipeline", pipe);
	add_u64(o, "generation", gen);
	if (pi)
		add_bool(o, "enabled", pi->enabled);
	add_bool(o, "reset", reset);
	a = json_object_new_array();
	for (i = 0; i < n; i++)
		json_object_array_add(a, json_stage(&hs[i], buckets));
	add(o, "stages", a);
	return o;
}

/* The filter as the kernel prints it, word by word: numbers as numbers. */
static struct json_object *json_filter(const struct filter_spec *f)
{
	struct json_object *o = json_object_new_object();
	char buf[256], *w, *save = NULL, *eq, *end;
	unsigned long long v;

	filter_format(f, buf, sizeof(buf));
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		eq = strchr(w, '=');
		if (!eq)
			continue;
		*eq++ = '\0';
		v = strtoull(eq, &end, 10);
		if (*eq >= '0' && *eq <= '9' && !*end)
			add_u64(o, w, v);
		else
			add_str(o, w, eq);
	}
	return o;
}

static struct json_object *json_pipe_status(const struct pipe_info *p)
{
	struct json_object *o = json_object_new_object(), *a, *l;
	char err[128];
	size_t i;
	int k;

	add_str(o, "pipeline", p->name);
	add_str(o, "desc", p->desc);
	add_str(o, "key", stacklat_key_name(p->key));
	add_bool(o, "enabled", p->enabled);
	add_u64(o, "generation", p->generation);
	add(o, "filter", p->has_filter ? json_filter(&p->filter) : NULL);
	add_u64(o, "threshold_ns", p->threshold_ns);
	if (p->has_sample) {
		add_u64(o, "sample", p->sample);
		add_u64(o, "sample_seen", p->sample_seen);
		add_u64(o, "sample_followed", p->sample_followed);
		add_u64(o, "sample_auto", p->sample_auto);
		add_u64(o, "sample_peak", p->sample_peak);
	}
	if (p->has_cgtotals)
		add_bool(o, "cgroup_totals", p->cgtotals);
	l = json_object_new_object();
	for (k = 1; k <= STACKLAT_LOSS_A_MAX; k++)
		if (p->loss_mask & (1U << k) && strcmp(stacklat_loss_name(k), "?"))
			add_u64(l, stacklat_loss_name(k), p->loss[k]);
	add(o, "losses", l);
	if (p->has_keyed) {
		const struct keyed_info *k = &p->keyed;

		l = json_object_new_object();
		add_u64(l, "rows", k->rows);
		add_u64(l, "max_rows", k->max_rows);
		add_u64(l, "cpu_rows", k->cpu_rows);
		add_u64(l, "cpu_rows_now", k->cpu_rows_now);
		add_u64(l, "grows", k->grows);
		add_u64(l, "spilled", k->spilled);
		add_u64(l, "spill_rows", k->spill_rows);
		add_u64(l, "cpus", k->cpus);
		add_u64(l, "row_bytes", k->row_bytes);
		add_u64(l, "row_bytes_cpu", k->row_bytes_cpu);
		add_u64(l, "bytes", k->bytes);
		add_u64(l, "linger_ns", k->linger_ns);
		add_u64(l, "folds", k->folds);
		add_u64(l, "full", k->full);
		add_u64(l, "busy", k->busy);
		add_u64(l, "dropped", k->dropped);
		add_u64(l, "dropped_rows", k->dropped_rows);
		add_u64(l, "aged", k->aged);
		add_u64(l, "aged_rows", k->aged_rows);
		add_u64(l, "retire_lost", k->retire_lost);
		add(o, "keyed", l);
	}
	if (p->has_fprobe)
		add_u64(o, "fprobe_nmissed", p->fprobe_nmissed);
	if (p->has_mem) {
		add_u64(o, "memory_bytes", p->mem_bytes);
		add_u64(o, "memory_cpu_bytes", p->mem_cpu_bytes);
	}
	a = json_object_new_array();
	for (i = 0; i < p->nstages; i++) {
		struct json_object *s = json_object_new_object();

		add_u64(s, "index", p->stages[i].index);
		add_str(s, "name", p->stages[i].name);
		add_str(s, "from", p->stages[i].from);
		add_str(s, "to", p->stages[i].to);
		json_object_array_add(a, s);
	}
	add(o, "stages", a);
	a = json_object_new_array();
	for (i = 0; i < p->nhooks; i++) {
		const struct hook_info *h = &p->hooks[i];
		struct json_object *s = json_object_new_object();
		bool failed = h->error && h->state != STACKLAT_HOOK_ARMED &&
			      h->state != STACKLAT_HOOK_DISARMED;

		add_str(s, "name", h->name);
		add_str(s, "kind", stacklat_hook_kind_name(h->kind));
		add(s, "target", h->target[0] ? json_str(h->target) : NULL);
		add_str(s, "state", stacklat_hook_state_name(h->state));
		add(s, "error", failed ?
		    json_str(errno_text((int)h->error, err, sizeof(err))) : NULL);
		add_u64(s, "hits", h->hits);
		add_u64(s, "nmissed", h->nmissed);
		json_object_array_add(a, s);
	}
	add(o, "hooks", a);
	return o;
}

void json_status(struct json_object *env, const struct status_info *st,
		 const struct pipe_list *pl)
{
	struct json_object *m = json_object_new_object(), *fl = NULL, *a;
	size_t i;

	add_str(m, "version", st->version);
	add_str(m, "kernel", st->release);
	add_str(m, "clock", st->clock);
	add_u64(m, "nr_pipelines", st->nr_pipelines);
	add(env, "module", m);
	if (st->has_flight) {
		fl = json_object_new_object();
		add_u64(fl, "size", st->flight_size);
		add_u64(fl, "used", st->flight_used);
		add_u64(fl, "max_age_ns", st->flight_max_age_ns);
		add_u64(fl, "inserts", st->flight_inserts);
		add_u64(fl, "full", st->flight_full);
		add_u64(fl, "stale", st->flight_stale);
	}
	add(env, "flight", fl);
	if (st->has_events) {
		struct json_object *ev = json_object_new_object(), *ov = json_object_new_array();
		uint64_t over = 0;

		add_u64(ev, "ring", st->events_ring);
		add_u64(ev, "rings", st->events_rings);
		add_u64(ev, "ring_start", st->events_ring_start);
		add_u64(ev, "ring_now", st->events_ring_now);
		add_u64(ev, "bytes", st->events_bytes);
		add_u64(ev, "written", st->events_written);
		add_u64(ev, "read", st->events_read);
		for (i = 0; i < st->ncpus; i++) {
			over += st->overruns[i];
			json_object_array_add(ov, json_object_new_uint64(st->overruns[i]));
		}
		add_u64(ev, "overruns", over);
		add(ev, "overruns_per_cpu", ov);
		add(env, "events", ev);
	} else {
		add(env, "events", NULL);
	}
	a = json_object_new_array();
	for (i = 0; i < pl->n; i++)
		json_object_array_add(a, json_pipe_status(&pl->p[i]));
	add(env, "pipelines", a);
}

void json_inflight(struct json_object *env, const struct inflight_list *l)
{
	struct json_object *a = json_object_new_array();
	size_t i, j;

	for (i = 0; i < l->n; i++) {
		const struct inflight_ent *e = &l->e[i];
		struct json_object *o = json_object_new_object(), *pts;

		add_str(o, "pipeline", e->pipeline);
		add_u64(o, "age_ns", e->age_ns);
		add(o, "tid", e->has_tid ? json_object_new_uint64(e->tid) : NULL);
		add(o, "desc", e->desc[0] ? json_str(e->desc) : NULL);
		pts = json_object_new_array();
		for (j = 0; j < e->npts; j++) {
			struct json_object *p = json_object_new_object();

			add_str(p, "name", e->pts[j].name);
			add_u64(p, "offset_ns", e->pts[j].offset_ns);
			json_object_array_add(pts, p);
		}
		add(o, "points", pts);
		json_object_array_add(a, o);
	}
	add(env, "entries", a);
}

void json_event(struct json_object *env, const struct stacklat_event *ev,
		const struct pipe_list *pl)
{
	const struct pipe_info *pi = pl && ev->pipeline < pl->n ? &pl->p[ev->pipeline] : NULL;
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	char comm[sizeof(ev->comm) + 1];
	uint32_t i;
	size_t j;

	memcpy(comm, ev->comm, sizeof(ev->comm));
	comm[sizeof(ev->comm)] = '\0';
	add_u64(o, "mono_ns", ev->time_ns);
	add(o, "pipeline", pi ? json_str(pi->name) : NULL);
	add_str(o, "comm", comm);
	add_u64(o, "tgid", ev->tgid);
	add_u64(o, "tid", ev->tid);
	add_u64(o, "cpu", ev->cpu);
	add_u64(o, "seq", ev->seq);
	add_u64(o, "total_ns", ev->total_ns);
	for (i = 0; i < ev->nstages && i < STACKLAT_EVENT_STAGES; i++) {
		struct json_object *s = json_object_new_object();
		const char *name = NULL;

		for (j = 0; pi && j < pi->nstages; j++)
			if (pi->stages[j].index == ev->stages[i].index)
				name = pi->stages[j].name;
		add(s, "name", name ? json_str(name) : NULL);
		add_u64(s, "index", ev->stages[i].index);
		add_u64(s, "ns", ev->stages[i].ns);
		json_object_array_add(a, s);
	}
	add(o, "stages", a);
	if (ev->flags & STACKLAT_EVENT_F_IF) {
		char name[sizeof(ev->ifname) + 1];

		memcpy(name, ev->ifname, sizeof(ev->ifname));
		name[sizeof(ev->ifname)] = '\0';
		add_str(o, "ifname", name);
	}
	if (ev->flags & STACKLAT_EVENT_F_PORTS) {
		add_u64(o, "sport", ev->sport);
		add_u64(o, "dport", ev->dport);
	}
	if (ev->flags & STACKLAT_EVENT_F_DEV) {
		char dev[24];

		snprintf(dev, sizeof(dev), "%u:%u", ev->dev >> 20, ev->dev & 0xfffff);
		add_str(o, "dev", dev);
	}
	if (ev->flags & STACKLAT_EVENT_F_OP)
		add_str(o, "op", stacklat_blk_op_name(ev->op));
	if (ev->flags & STACKLAT_EVENT_F_IO) {
		add_u64(o, "sector", ev->sector);
		add_u64(o, "bytes", ev->bytes);
	}
	if (ev->flags & STACKLAT_EVENT_F_ADDR) {
		char a[48];

		add_u64(o, "family", ev->family == 2 ? 4 : 6);
		stacklat_addr_fmt(a, sizeof(a), ev->family, ev->saddr);
		add_str(o, "saddr", a);
		stacklat_addr_fmt(a, sizeof(a), ev->family, ev->daddr);
		add_str(o, "daddr", a);
	}
	if (ev->flags & STACKLAT_EVENT_F_TCP) {
		add_str(o, "state", stacklat_tcp_state_name(ev->tcp_state));
		if (ev->rto_us || ev->srtt_us || ev->cwnd) {
			add_u64(o, "rto_us", ev->rto_us);
			add_u64(o, "srtt_us", ev->srtt_us);
			add_u64(o, "cwnd", ev->cwnd);
		}
		add_u64(o, "retrans", ev->retrans);
	}
	if (ev->flags & STACKLAT_EVENT_F_RESULT)
		add(o, "result", json_object_new_int(ev->result));
	if (ev->flags & STACKLAT_EVENT_F_QUEUE) {
		add_u64(o, "qlen", ev->qlen);
		add_u64(o, "qmax", ev->qmax);
	}
	if (ev->flags & STACKLAT_EVENT_F_PROTO) {
		const char *pn = stacklat_ip_proto_name(ev->proto);
		char num[12];

		if (!pn) {
			snprintf(num, sizeof(num), "%u", ev->proto);
			pn = num;
		}
		add_str(o, "proto", pn);
	}
	if (ev->flags & STACKLAT_EVENT_F_WHERE) {
		char w[sizeof(ev->where) + 1];

		memcpy(w, ev->where, sizeof(ev->where));
		w[sizeof(ev->where)] = '\0';
		add_str(o, "where", w);
	}
	{
		char cg[24];

		/* the task's cgroup v2 path under the mount; null: none (id 0) */
		add(o, "cgroup", ev->cgroup ? json_str(cgroup_path_of(ev->cgroup, cg, sizeof(cg))) :
			NULL);
		add_u64(o, "cgroup_id", ev->cgroup);
	}
	add(env, "event", o);
}

/* ---- the events stream ---------------------------------------------------- */

#define JEW_SHAPES 8

/* one shape of an event line and its value objects, owned by @env */
struct jew_shape {
	bool used, has_cg;
	uint32_t pipeline, flags, nstages;
	uint32_t index[STACKLAT_EVENT_STAGES];
	struct json_object *env, *time_ns, *mono_ns, *comm, *tgid, *tid, *cpu, *seq, *total;
	struct json_object *ns[STACKLAT_EVENT_STAGES];
	struct json_object *ifname, *sport, *dport, *dev, *op, *sector, *bytes;
	struct json_object *cgroup, *cgroup_id;
};

struct json_event_writer {
	const struct pipe_list *pl;
	struct jew_shape shape[JEW_SHAPES];
	unsigned int next;		/* the slot a new shape replaces */
};

struct json_event_writer *json_event_writer_new(const struct pipe_list *pl)
{
	struct json_event_writer *w = calloc(1, sizeof(*w));

	if (w)
		w->pl = pl;
	return w;
}

void json_event_writer_free(struct json_event_writer *w)
{
	unsigned int i;

	if (!w)
		return;
	for (i = 0; i < JEW_SHAPES; i++)
		if (w->shape[i].used)
			json_object_put(w->shape[i].env);
	free(w);
}

static uint32_t ev_nstages(const struct stacklat_event *ev)
{
	return ev->nstages < STACKLAT_EVENT_STAGES ? ev->nstages : STACKLAT_EVENT_STAGES;
}

static bool shape_is(const struct jew_shape *sh, const struct stacklat_event *ev)
{
	uint32_t i, n = ev_nstages(ev);

	if (!sh->used || sh->pipeline != ev->pipeline || sh->flags != ev->flags ||
	    sh->nstages != n || sh->has_cg != !!ev->cgroup)
		return false;
	for (i = 0; i < n; i++)
		if (sh->index[i] != ev->stages[i].index)
			return false;
	return true;
}

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

/* Build @sh from @ev by the slow path: then every value is already @ev's. */
static void shape_build(struct json_event_writer *w, struct jew_shape *sh,
			const struct stacklat_event *ev, uint64_t time_ns)
{
	struct json_object *e, *a;
	uint32_t i;

	if (sh->used)
		json_object_put(sh->env);
	memset(sh, 0, sizeof(*sh));
	sh->env = json_envelope("events", time_ns, 0);
	json_event(sh->env, ev, w->pl);
	sh->used = true;
	sh->pipeline = ev->pipeline;
	sh->flags = ev->flags;
	sh->nstages = ev_nstages(ev);
	sh->time_ns = member(sh->env, "time_ns");
	e = member(sh->env, "event");
	sh->mono_ns = member(e, "mono_ns");
	sh->comm = member(e, "comm");
	sh->tgid = member(e, "tgid");
	sh->tid = member(e, "tid");
	sh->cpu = member(e, "cpu");
	sh->seq = member(e, "seq");
	sh->total = member(e, "total_ns");
	a = member(e, "stages");
	for (i = 0; i < sh->nstages; i++) {
		sh->index[i] = ev->stages[i].index;
		sh->ns[i] = member(json_object_array_get_idx(a, i), "ns");
	}
	sh->ifname = member(e, "ifname");
	sh->sport = member(e, "sport");
	sh->dport = member(e, "dport");
	sh->dev = member(e, "dev");
	sh->op = member(e, "op");
	sh->sector = member(e, "sector");
	sh->bytes = member(e, "bytes");
	sh->has_cg = !!ev->cgroup;
	sh->cgroup = member(e, "cgroup");
	sh->cgroup_id = member(e, "cgroup_id");
}

/* @s (not NUL-terminated, at most @n bytes) as json_str would set it */
static void set_text(struct json_object *o, const char *s, size_t n)
{
	char buf[64];
	size_t i, len = strnlen(s, n);

	memcpy(buf, s, len);
	buf[len] = '\0';
	for (i = 0; i < len; i++)
		if ((unsigned char)buf[i] >= 0x80)
			break;
	if (i == len) {
		json_object_set_string(o, buf);
	} else {
		char *clean = utf8_clean(buf);

		json_object_set_string(o, clean ? clean : "");
		free(clean);
	}
}

void json_event_write(struct json_event_writer *w, FILE *f, const struct stacklat_event *ev,
		      uint64_t time_ns)
{
	struct jew_shape *sh = NULL;
	unsigned int i;

	_Static_assert(sizeof(ev->comm) < 64 && sizeof(ev->ifname) < 64, "set_text's buffer");
	/* identity lines (rate-limited in the kernel): built each time */
	if (ev->flags & (STACKLAT_EVENT_F_ADDR | STACKLAT_EVENT_F_TCP |
			 STACKLAT_EVENT_F_RESULT | STACKLAT_EVENT_F_QUEUE)) {
		struct json_object *env = json_envelope("events", time_ns, 0);

		json_event(env, ev, w->pl);
		fputs(json_object_to_json_string_ext(env, JSON_C_TO_STRING_PLAIN |
						     JSON_C_TO_STRING_NOSLASHESCAPE), f);
		fputc('\n', f);
		json_object_put(env);
		return;
	}
	for (i = 0; i < JEW_SHAPES && !sh; i++)
		if (shape_is(&w->shape[i], ev))
			sh = &w->shape[i];
	if (!sh) {
		sh = &w->shape[w->next];
		w->next = (w->next + 1) % JEW_SHAPES;
		shape_build(w, sh, ev, time_ns);
	} else {
		json_object_set_uint64(sh->time_ns, time_ns);
		json_object_set_uint64(sh->mono_ns, ev->time_ns);
		set_text(sh->comm, ev->comm, sizeof(ev->comm));
		json_object_set_uint64(sh->tgid, ev->tgid);
		json_object_set_uint64(sh->tid, ev->tid);
		json_object_set_uint64(sh->cpu, ev->cpu);
		json_object_set_uint64(sh->seq, ev->seq);
		json_object_set_uint64(sh->total, ev->total_ns);
		for (i = 0; i < sh->nstages; i++)
			json_object_set_uint64(sh->ns[i], ev->stages[i].ns);
		if (sh->ifname)
			set_text(sh->ifname, ev->ifname, sizeof(ev->ifname));
		if (sh->sport)
			json_object_set_uint64(sh->sport, ev->sport);
		if (sh->dport)
			json_object_set_uint64(sh->dport, ev->dport);
		if (sh->dev) {
			char dev[24];

			snprintf(dev, sizeof(dev), "%u:%u", ev->dev >> 20, ev->dev & 0xfffff);
			json_object_set_string(sh->dev, dev);
		}
		if (sh->op)
			json_object_set_string(sh->op, stacklat_blk_op_name(ev->op));
		if (sh->sector)
			json_object_set_uint64(sh->sector, ev->sector);
		if (sh->bytes)
			json_object_set_uint64(sh->bytes, ev->bytes);
		if (sh->cgroup) {
			char cg[24];

			json_object_set_string(sh->cgroup,
					       cgroup_path_of(ev->cgroup, cg, sizeof(cg)));
		}
		json_object_set_uint64(sh->cgroup_id, ev->cgroup);
	}
	fputs(json_object_to_json_string_ext(sh->env, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
}

void json_emit(FILE *f, struct json_object *o)
{
	fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	json_object_put(o);
}

void json_event_write_stack(FILE *f, const struct stacklat_event *ev,
			    const struct pipe_list *pl, uint64_t time_ns,
			    char *const *frames, unsigned int nr)
{
	struct json_object *env = json_envelope("events", time_ns, 0), *o, *arr;
	unsigned int i;

	json_event(env, ev, pl);
	o = member(env, "event");
	if (o) {
		add_u64(o, "stack_id", ev->stack_id);
		arr = json_object_new_array();
		for (i = 0; i < nr; i++)
			json_object_array_add(arr, json_object_new_string(frames[i]));
		add(o, "stack", arr);
	}
	fputs(json_object_to_json_string_ext(env, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	json_object_put(env);
}
