// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/stacklat/: status, control, one table per pipeline and
 * hist/<pipeline> with every stage's histogram drawn as text bars.  All
 * files are root-only; none prints a kernel pointer.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#include <linux/kernel.h>
#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>

#include "pipeline.h"
#include "sample.h"
#include "hook.h"
#include "chain.h"
#include "events.h"
#include "filter.h"
#include "cgdim.h"
#include "keyed.h"
#include "stack.h"
#include "clock.h"
#include "fmt.h"
#include "stacklat_filter.h"
#include "iface.h"

static struct dentry *sl_dir;

static const char * const sl_loss_names[SL_LOSS_NR] = {
	[SL_LOSS_TABLE_FULL] = "table_full",
	[SL_LOSS_STALE] = "stale",
	[SL_LOSS_BAD_DELTA] = "bad_delta",
	[SL_LOSS_UNMATCHED] = "unmatched",
	[SL_LOSS_FILTERED] = "filtered",
	[SL_LOSS_DROPPED] = "dropped",
	[SL_LOSS_BUSY] = "busy",
	[SL_LOSS_ORPHANED] = "orphaned",
	[SL_LOSS_STACK_FULL] = "stack_full",
	[SL_LOSS_STACK_TRUNC] = "stack_truncated",
	[SL_LOSS_STACK_BUSY] = "stack_busy",
	[SL_LOSS_SUPPRESSED] = "suppressed",
	[SL_LOSS_NOBUF] = "nobuf",
};

static const char * const sl_unit_names[__STACKLAT_UNIT_MAX] = {
	[STACKLAT_UNIT_NS] = "ns",
	[STACKLAT_UNIT_BYTES] = "bytes",
	[STACKLAT_UNIT_COUNT] = "count",
};

static const char *sl_unit_name(u32 unit)
{
	return unit < __STACKLAT_UNIT_MAX ? sl_unit_names[unit] : "?";
}

/*
 * A keyed table: its rows and bounds, the memory a row takes (in each of a
 * CPU's two buffers, and folded) and in all, and what it lost or aged.
 */
static void sl_keyed_status(struct seq_file *m, struct sl_keyed *t)
{
	struct sl_keyed_stats st;

	sl_keyed_stats(t, &st);
	seq_printf(m, "  keyed rows: %u/%u used, %u B a row folded; %u rows a CPU buffer (grows to %u), 2 buffers x %u CPUs, %u B a row there; %llu KiB in all\n",
		   st.rows, st.max_rows, st.row_bytes, st.cpu_rows_now,
		   st.cpu_rows, st.cpus, st.row_bytes_cpu, st.bytes >> 10);
	seq_printf(m, "  keyed: folds=%llu full=%llu busy=%llu dropped=%llu dropped_rows=%llu aged=%llu aged_rows=%llu retire_lost=%llu linger=%llums grows=%llu spilled=%llu spill_rows=%u\n",
		   st.folds, st.full, st.busy, st.dropped, st.dropped_rows,
		   st.aged, st.aged_rows, st.retire_lost,
		   st.linger_ns / NSEC_PER_MSEC, st.grows, st.spilled,
		   st.spill_rows_now);
}

static int sl_status_show(struct seq_file *m, void *v)
{
	struct sl_flight_stats fs;
	struct sl_losses loss;
	char filt[160];
	unsigned int i, j, nfp;
	u64 fpm;

	sl_flight_stats(sl_ft, &fs);
	seq_printf(m, "stacklat %s on Linux %s\n", SL_VERSION,
		   init_utsname()->release);
	seq_printf(m, "clock: %s\n", SL_CLOCK_NAME);
	seq_printf(m, "entry points: %s\n", sl_entry_backend());
	seq_printf(m, "return points: %s\n", sl_return_backend());
	seq_printf(m, "in-flight table: %u/%u used, max age %llums, inserts %llu, full %llu, stale %llu, busy %llu, %llu KiB\n",
		   fs.used, fs.size, fs.max_age_ns / NSEC_PER_MSEC, fs.inserts,
		   fs.full, fs.stale, fs.busy, fs.bytes >> 10);
	sl_events_status(m);
	mutex_lock(&sl_lock);
	for (i = 0; i < sl_nr_pipelines; i++) {
		struct sl_pipeline *p = sl_pipelines[i];

		sl_filter_fmt(&p->priv.filter, filt, sizeof(filt));
		sl_pipeline_losses(p, &loss);
		seq_printf(m, "\npipeline %s: %s, follows %s, generation %llu\n",
			   p->name, p->priv.enabled ? "enabled" : "disabled",
			   stacklat_key_name(p->key), p->priv.generation);
		seq_printf(m, "  %s\n", p->desc);
		seq_printf(m, "  filter:%s\n", filt);
		if (READ_ONCE(p->priv.ev_thresh))
			seq_printf(m, "  slow events above %llu ns\n",
				   READ_ONCE(p->priv.ev_thresh));
		seq_puts(m, "  lost:");
		for (j = 0; j < SL_LOSS_NR; j++)
			seq_printf(m, " %s=%llu", sl_loss_names[j], loss.v[j]);
		seq_puts(m, "\n");
		seq_printf(m, "  memory: %llu KiB of histograms (%u stages, %u copies on CPUs)\n",
			   sl_pipeline_mem(p) >> 10, p->max_stages,
			   sl_pipeline_hist_copies(p));
		if (sl_fprobe_stats(p, &nfp, &fpm))
			seq_printf(m, "  fprobe: %u return points, nmissed=%llu\n",
				   nfp, fpm);
		if (p->sampling)
			sl_sample_status(m, p);
		if (p->priv.keyed)
			sl_keyed_status(m, p->priv.keyed);
		if (p->priv.cg)
			seq_printf(m, "  cgroup totals: %s, %u slots, %s\n",
				   READ_ONCE(p->priv.cg_live) ? "on" :
				   "off (control: cgtotals PIPELINE on)",
				   min_t(unsigned int, sl_cgdim_slots, SL_DIM_SLOTS),
				   sl_cgdim_recycles() ?
				   "a removed cgroup's released when read" :
				   "not recycled (no cgroup_get_from_id() in this kernel)");
		if (p->priv.stacks)
			seq_printf(m, "  stacks: %u/%u ids used, %u frames at most%s\n",
				   atomic_read(&p->priv.stacks->used),
				   p->priv.stacks->slots, p->priv.stacks->depth,
				   !p->stack_points ? "" :
				   READ_ONCE(p->priv.stacks_on) ?
				   ", taken at its points" : ", not taken now");
		else if (p->stack_points)
			seq_puts(m, "  stacks: not taken (control: stacks PIPELINE on)\n");
		for (j = 0; j < p->nhooks; j++) {
			struct sl_hook *hk = &p->hooks[j];

			if (!hk->ncands)
				continue;
			seq_printf(m, "  hook %-20s %-13s %-10s %-28s hits=%llu nmissed=%llu",
				   hk->name,
				   stacklat_hook_state_name(hk->priv.state),
				   stacklat_hook_kind_name(sl_hook_kind(hk)),
				   hk->priv.cand >= 0 ?
				   sl_hook_target(hk) : "-",
				   sl_hook_hits(hk), sl_hook_nmissed(hk));
			if (hk->priv.err)
				seq_printf(m, " error=%d", -hk->priv.err);
			seq_puts(m, "\n");
		}
	}
	mutex_unlock(&sl_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sl_status);

static void sl_pct_col(struct seq_file *m, u32 unit, u64 v)
{
	char b[24];

	sl_fmt_val(b, sizeof(b), unit, v);
	seq_printf(m, " %9s", b);
}

/*
 * Show every named stage of the file's pipeline through @row, with its
 * histogram summed over all CPUs.
 */
static int sl_show_stages(struct seq_file *m,
			  void (*row)(struct seq_file *m,
				      const struct sl_pipeline *p,
				      const struct sl_stage *st,
				      const struct sl_hist_sum *s))
{
	struct sl_pipeline *p = m->private;
	struct sl_hist_sum *s;
	unsigned int i;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	mutex_lock(&sl_lock);
	if (p->refresh)
		p->refresh(p);
	sl_cgdim_sweep(p);
	for (i = 0; i < sl_stage_end(p); i++) {
		const struct sl_stage *st = sl_stage_at(p, i);

		if (!st || !st->name[0])
			continue;
		sl_hist_read(&p->priv.hists[i], s);
		row(m, p, st, s);
	}
	mutex_unlock(&sl_lock);
	kfree(s);
	return 0;
}

static void sl_table_row(struct seq_file *m, const struct sl_pipeline *p,
			 const struct sl_stage *st, const struct sl_hist_sum *s)
{
	static const u32 pcts[] = { 5000, 9000, 9900, 9990 };
	unsigned int j;

	seq_printf(m, "%-24s %10llu", st->name, s->count);
	sl_pct_col(m, st->unit, s->count ? s->sum / s->count : 0);
	for (j = 0; j < ARRAY_SIZE(pcts); j++)
		sl_pct_col(m, st->unit, sl_hist_pct(s, pcts[j]));
	sl_pct_col(m, st->unit, s->max);
	seq_puts(m, "\n");
}

/*
 * The pipeline's keyed rows, folded first so that they are complete up to
 * now, after a blank line: a header line, then one line a row.
 */
static int sl_keyed_show_rows(struct seq_file *m, struct sl_pipeline *p)
{
	unsigned int pos = 0;
	u64 key, *v;

	v = kmalloc_array(SL_KEYED_MAX_VALS, sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	mutex_lock(&sl_lock);
	if (p->priv.keyed && p->keyed_show) {
		sl_keyed_fold(p->priv.keyed, sl_now());
		seq_puts(m, "\n");
		p->keyed_show(m, 0, NULL);
		sl_keyed_lock(p->priv.keyed);
		while (sl_keyed_next(p->priv.keyed, &pos, &key, v))
			p->keyed_show(m, key, v);
		sl_keyed_unlock(p->priv.keyed);
	}
	mutex_unlock(&sl_lock);
	kfree(v);
	return 0;
}

/*
 * The pipeline's stacks (issue 28), the most counted first, after a blank
 * line: "stack ID count=N sum=S", then its frames, innermost first, one a
 * line, symbolised (never an address).  They say where kernel code lies:
 * shown only to an opener with CAP_SYS_ADMIN or CAP_PERFMON, as netlink's
 * GET_STACKS.
 */
static int sl_stacks_show_rows(struct seq_file *m, struct sl_pipeline *p)
{
	char frame[KSYM_SYMBOL_LEN];
	struct sl_stack_info si;
	unsigned int i, j, n;
	struct sl_stacks *t;
	u32 *ids;

	if (!READ_ONCE(p->priv.stacks))
		return 0;
	if (!file_ns_capable(m->file, &init_user_ns, CAP_SYS_ADMIN) &&
	    !file_ns_capable(m->file, &init_user_ns, CAP_PERFMON)) {
		seq_puts(m, "\nstacks: not shown: they need CAP_SYS_ADMIN or CAP_PERFMON\n");
		return 0;
	}
	mutex_lock(&sl_lock);
	t = p->priv.stacks;
	ids = kvmalloc_array(t->slots, sizeof(*ids), GFP_KERNEL);
	if (!ids) {
		mutex_unlock(&sl_lock);
		return -ENOMEM;
	}
	n = sl_stacks_ids(t, ids, t->slots);
	seq_printf(m, "\nstacks: %u distinct (%u slots of %u frames)\n", n,
		   t->slots, t->depth);
	for (i = 0; i < n; i++) {
		if (!sl_stacks_get(t, ids[i], &si))
			continue;
		seq_printf(m, "stack %u count=%llu sum=%llu%s\n", ids[i],
			   si.count, si.sum, si.truncated ? " truncated" : "");
		for (j = 0; j < si.nr; j++) {
			sl_stack_frame(frame, sizeof(frame), si.ip[j]);
			seq_printf(m, "  %s\n", frame);
		}
	}
	mutex_unlock(&sl_lock);
	kvfree(ids);
	return 0;
}

static int sl_table_show(struct seq_file *m, void *v)
{
	int ret;

	seq_printf(m, "%-24s %10s %9s %9s %9s %9s %9s %9s\n", "stage",
		   "count", "avg", "p50", "p90", "p99", "p99.9", "max");
	ret = sl_show_stages(m, sl_table_row);
	if (ret)
		return ret;
	ret = sl_keyed_show_rows(m, m->private);
	if (ret)
		return ret;
	return sl_stacks_show_rows(m, m->private);
}
DEFINE_SHOW_ATTRIBUTE(sl_table);

/* One row per power of two (its 16 sub-buckets merged), bcc style. */
static void sl_hist_bars(struct seq_file *m, const struct sl_hist_sum *s,
			 u32 unit)
{
	u64 rows[STACKLAT_HIST_NBUCKETS / STACKLAT_HIST_SUB + 1] = { 0 };
	unsigned int nrows = STACKLAT_HIST_NBUCKETS / STACKLAT_HIST_SUB;
	unsigned int i, first = nrows, last = 0, w;
	u64 peak = 0;
	char lo[24], hi[24];

	for (i = 0; i < STACKLAT_HIST_NBUCKETS; i++)
		rows[i / STACKLAT_HIST_SUB] += s->buckets[i];
	rows[nrows] = s->overflow;
	for (i = 0; i <= nrows; i++) {
		if (!rows[i])
			continue;
		first = min(first, i);
		last = i;
		peak = max(peak, rows[i]);
	}
	if (!peak) {
		seq_puts(m, "  (no samples)\n");
		return;
	}
	/* as wide as a row's "%9s -> %-9s", so the colons line up */
	seq_printf(m, "  %22s : %-10s %s\n", "range", "count", "distribution");
	for (i = first; i <= last; i++) {
		if (i == nrows) {
			sl_fmt_val(lo, sizeof(lo), unit, STACKLAT_HIST_MAX_NS);
			snprintf(hi, sizeof(hi), "inf");
		} else {
			sl_fmt_val(lo, sizeof(lo), unit,
				   stacklat_hist_lower(i * STACKLAT_HIST_SUB));
			sl_fmt_val(hi, sizeof(hi), unit,
				   i + 1 < nrows ?
				   stacklat_hist_lower((i + 1) * STACKLAT_HIST_SUB) :
				   STACKLAT_HIST_MAX_NS);
		}
		w = (unsigned int)div64_u64(rows[i] * 40, peak);
		seq_printf(m, "  %9s -> %-9s : %-10llu |%.*s%*s|\n", lo, hi,
			   rows[i], w,
			   "****************************************", 40 - w,
			   "");
	}
}

static void sl_hist_row(struct seq_file *m, const struct sl_pipeline *p,
			const struct sl_stage *st, const struct sl_hist_sum *s)
{
	seq_printf(m, "%s: %s (%s -> %s), %llu samples", p->name, st->name,
		   st->from, st->to, s->count);
	if (st->unit != STACKLAT_UNIT_NS)
		seq_printf(m, ", in %s", sl_unit_name(st->unit));
	seq_puts(m, "\n");
	sl_hist_bars(m, s, st->unit);
	seq_puts(m, "\n");
}

static int sl_hist_show(struct seq_file *m, void *v)
{
	return sl_show_stages(m, sl_hist_row);
}
DEFINE_SHOW_ATTRIBUTE(sl_hist);

/* ---- inflight --------------------------------------------------------- */

#define SL_INFLIGHT_SHOW	1000

/* Default description: each point passed, as an offset from the start. */
static void sl_flight_fmt_points(const struct sl_pipeline *p,
				 const struct sl_flight_ent *e, char *buf,
				 size_t len)
{
	const char *name;
	unsigned int pt;
	size_t n = 0;
	char d[16];

	buf[0] = '\0';
	for (pt = 0; pt < SL_FLIGHT_NTS && n < len; pt++) {
		if (!e->ts[pt])
			continue;
		if ((s64)(e->ts[pt] - e->born) >= 0)
			sl_fmt_ns(d, sizeof(d), e->ts[pt] - e->born);
		else
			strscpy(d, "?", sizeof(d));
		name = sl_pt_name(p, pt);
		if (name)
			n += scnprintf(buf + n, len - n, " %s@+%s", name, d);
		else
			n += scnprintf(buf + n, len - n, " point%u@+%s", pt, d);
	}
}

/*
 * Every live entry of the in-flight table: its pipeline, its age, the
 * thread it follows (if it follows a thread, never a pointer) and where it
 * has been.  Objects legitimately wait here (datagrams nobody reads yet, a
 * request on a slow disk); one older than the stale bound is lost.
 */
static int sl_inflight_show(struct seq_file *m, void *v)
{
	u64 now = sl_now(), oldest[SL_MAX_PIPELINES] = { 0 };
	unsigned int count[SL_MAX_PIPELINES] = { 0 };
	unsigned int pos = 0, shown = 0, total = 0, i;
	struct sl_flight_ent e;
	struct sl_pipeline *p;
	char age[16], tid[24];
	unsigned int id;
	u64 key, ident;
	char *desc;

	desc = kmalloc(512, GFP_KERNEL);
	if (!desc)
		return -ENOMEM;
	seq_printf(m, "%-10s %9s %10s  %s\n", "pipeline", "age", "thread",
		   "points passed");
	mutex_lock(&sl_lock);
	while (sl_flight_next(sl_ft, &pos, &e, &key)) {
		id = sl_flight_key_owner(key);
		/* a small ident is a thread id; a pointer is never shown */
		ident = key ^ sl_flight_key(id, 0);
		total++;
		if (id >= sl_nr_pipelines)
			continue;
		p = sl_pipelines[id];
		count[id]++;
		if ((s64)(now - e.born) > 0)
			oldest[id] = max(oldest[id], now - e.born);
		if (shown >= SL_INFLIGHT_SHOW)
			continue;
		shown++;
		sl_fmt_ns(age, sizeof(age),
			  (s64)(now - e.born) > 0 ? now - e.born : 0);
		if (!(ident >> 56))
			snprintf(tid, sizeof(tid), "%llu", ident);
		else
			strscpy(tid, "-", sizeof(tid));
		if (p->flight_fmt)
			p->flight_fmt(p, &e, now, desc, 512);
		else
			sl_flight_fmt_points(p, &e, desc, 512);
		seq_printf(m, "%-10s %9s %10s %s\n", p->name, age, tid, desc);
	}
	if (shown < total)
		seq_printf(m, "(%u more not shown)\n", total - shown);
	seq_puts(m, "\n");
	for (i = 0; i < sl_nr_pipelines; i++) {
		sl_fmt_ns(age, sizeof(age), oldest[i]);
		seq_printf(m, "%s: %u in flight, oldest %s\n",
			   sl_pipelines[i]->name, count[i],
			   count[i] ? age : "-");
	}
	mutex_unlock(&sl_lock);
	kfree(desc);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sl_inflight);

/* ---- control ---------------------------------------------------------- */

/*
 * What a user wrote, for dmesg: cut to STACKLAT_QUOTE_MAX characters and
 * with anything not printable escaped (%pE), never the raw bytes.
 */
static int sl_uq(const char *s)
{
	return (int)min_t(size_t, strlen(s), STACKLAT_QUOTE_MAX);
}

static struct sl_pipeline *sl_ctl_pipe(const char *name,
				       struct netlink_ext_ack *extack)
{
	struct sl_pipeline *p = name ? sl_pipeline_find(name) : NULL;

	if (!p) {
		NL_SET_ERR_MSG(extack, "no such pipeline");
		sl_err("control: '%*pE' is not a pipeline\n", sl_uq(name ?: ""), name ?: "");
	}
	return p;
}

/*
 * Parse one control line and, with @apply, run it.  Without @apply nothing
 * changes: every syntax and name is checked, so that a write is validated
 * whole before any of its lines is applied.  Caller holds sl_lock.
 */
static int sl_control_line(char *line, struct netlink_ext_ack *extack,
			   bool apply)
{
	char *cmd, *arg, *rest = line;
	struct sl_pipeline *p;
	struct sl_filter f;
	unsigned int i;
	int ret;

	lockdep_assert_held(&sl_lock);
	rest = skip_spaces(strim(rest));
	if (!*rest || *rest == '#')	/* empty lines and comments */
		return 0;
	cmd = strsep(&rest, " \t");
	rest = rest ? skip_spaces(rest) : NULL;
	if (!strcmp(cmd, "enable") || !strcmp(cmd, "disable")) {
		p = sl_ctl_pipe(rest, extack);
		if (!p)
			return -EINVAL;
		return apply ? sl_pipeline_enable(p, cmd[0] == 'e') : 0;
	}
	if (!strcmp(cmd, "reset")) {
		if (!rest || !*rest) {
			for (i = 0; apply && i < sl_nr_pipelines; i++)
				sl_pipeline_reset(sl_pipelines[i]);
			return 0;
		}
		p = sl_ctl_pipe(rest, extack);
		if (!p)
			return -EINVAL;
		if (apply)
			sl_pipeline_reset(p);
		return 0;
	}
	if (!strcmp(cmd, "filter")) {
		arg = rest ? strsep(&rest, " \t") : NULL;
		p = sl_ctl_pipe(arg, extack);
		if (!p)
			return -EINVAL;
		if (!rest || !*rest) {
			sl_err("control: filter %s: nothing to set\n", p->name);
			return -EINVAL;
		}
		ret = sl_filter_parse(p, rest, &f);
		if (ret)
			return ret;
		if (apply)
			sl_pipeline_set_filter(p, &f);
		return 0;
	}
	if (!strcmp(cmd, "func")) {
		arg = rest ? strsep(&rest, " \t") : NULL;
		rest = rest ? strim(rest) : NULL;
		if (arg && rest && *rest &&
		    (!strcmp(arg, "add") || !strcmp(arg, "del"))) {
			/* a kernel symbol, or a user function (issue 27) */
			if (!stacklat_valid_symbol(rest) &&
			    !stacklat_valid_upoint(rest)) {
				sl_err("control: func %s: '%*pE' is neither a kernel symbol nor /PATH:0xOFFSET[:NAME]\n",
				       arg, sl_uq(rest), rest);
				return -EINVAL;
			}
			if (!apply)
				return 0;
			return sl_pipeline_point(sl_pipeline_find("func"),
						 arg[0] == 'a', rest, extack);
		}
		sl_err("control: usage: func add|del SYMBOL|/PATH:0xOFFSET[:NAME]\n");
		return -EINVAL;
	}
	/* spans (issue 27): "span add NAME FROM TO [KEY]", "span del NAME" */
	if (!strcmp(cmd, "span")) {
		arg = rest ? strsep(&rest, " \t") : NULL;
		rest = rest ? strim(rest) : NULL;
		if (arg && rest && *rest &&
		    (!strcmp(arg, "add") || !strcmp(arg, "del"))) {
			/* span.c parses and checks it, and changes nothing if bad */
			if (!apply)
				return 0;
			return sl_pipeline_point(sl_pipeline_find("span"),
						 arg[0] == 'a', rest, extack);
		}
		sl_err("control: usage: span add NAME FROM TO [thread|argN|argN,argM], or span del NAME\n");
		return -EINVAL;
	}
	/* kernel stacks (issue 28): the "stacks" pipeline's points */
	if (!strcmp(cmd, "stacks")) {
		arg = rest ? strsep(&rest, " \t") : NULL;
		rest = rest ? strim(rest) : NULL;
		if (arg && rest && *rest &&
		    (!strcmp(arg, "add") || !strcmp(arg, "del"))) {
			if (!stacklat_valid_symbol(rest)) {
				sl_err("control: stacks %s: '%*pE' is not a kernel symbol\n",
				       arg, sl_uq(rest), rest);
				return -EINVAL;
			}
			if (!apply)
				return 0;
			return sl_pipeline_point(sl_pipeline_find("stacks"),
						 arg[0] == 'a', rest, extack);
		}
		/* "stacks PIPELINE on|off": stacks at the pipeline's points */
		if (arg && rest && (!strcmp(rest, "on") || !strcmp(rest, "off"))) {
			p = sl_ctl_pipe(arg, extack);
			if (!p)
				return -EINVAL;
			if (!apply)
				return sl_pipeline_stacks_check(p, extack);
			return sl_pipeline_stacks_set(p, rest[1] == 'n', extack);
		}
		sl_err("control: usage: stacks add|del SYMBOL, or stacks PIPELINE on|off\n");
		return -EINVAL;
	}
	if (!strcmp(cmd, "threshold")) {
		u64 ns;

		arg = rest ? strsep(&rest, " \t") : NULL;
		p = sl_ctl_pipe(arg, extack);
		if (!p)
			return -EINVAL;
		rest = rest ? strim(rest) : NULL;
		if (rest && !strcmp(rest, "all"))
			ns = STACKLAT_THRESHOLD_ALL;
		else if (!rest || !*rest || !isdigit(*rest) ||
			 kstrtou64(rest, 10, &ns) ||
			 ns > STACKLAT_THRESHOLD_MAX_NS) {
			sl_err("control: threshold %s: '%*pE' is not 0..%llu (ns) or all\n",
			       p->name, sl_uq(rest ?: ""), rest ?: "",
			       STACKLAT_THRESHOLD_MAX_NS);
			return -EINVAL;
		}
		if (!apply)	/* a pipeline without slow events: refused */
			return sl_events_check_threshold(p, ns, extack);
		return sl_pipeline_set_threshold(p, ns, extack);
	}
	if (!strcmp(cmd, "sample")) {
		u32 n = 0, budget = 0;
		char *v;

		arg = rest ? strsep(&rest, " \t") : NULL;
		p = sl_ctl_pipe(arg, extack);
		if (!p)
			return -EINVAL;
		rest = rest ? strim(rest) : NULL;
		v = rest;
		if (v && !strncmp(v, "auto", 4) && isspace(v[4]))
			v = strim(v + 5);
		if (!v || !*v || !isdigit(*v) ||
		    kstrtou32(v, 10, v == rest ? &n : &budget) ||
		    (v != rest && !budget)) {
			sl_err("control: sample %s: '%*pE' is not N (1..%u) or auto OBJECTS (1..100000000 a second a CPU)\n",
			       p->name, sl_uq(rest ?: ""), rest ?: "",
			       STACKLAT_SAMPLE_MAX);
			return -EINVAL;
		}
		if (!apply)
			return sl_sample_check(p, n, budget, extack);
		return sl_pipeline_set_sample(p, n, budget, extack);
	}
	/* "cgtotals PIPELINE on|off": per-cgroup totals (cgdim.h) */
	if (!strcmp(cmd, "cgtotals")) {
		arg = rest ? strsep(&rest, " \t") : NULL;
		p = sl_ctl_pipe(arg, extack);
		if (!p)
			return -EINVAL;
		rest = rest ? strim(rest) : NULL;
		if (!rest || (strcmp(rest, "on") && strcmp(rest, "off"))) {
			sl_err("control: cgtotals %s: '%*pE' is not on or off\n",
			       p->name, sl_uq(rest ?: ""), rest ?: "");
			return -EINVAL;
		}
		if (!apply)
			return sl_cgdim_check(p, extack);
		return sl_cgdim_set(p, rest[1] == 'n', extack);
	}
	sl_err("control: unknown command '%*pE'\n", sl_uq(cmd), cmd);
	return -EINVAL;
}

/*
 * Mutations need CAP_SYS_ADMIN or CAP_PERFMON in the initial user
 * namespace, checked against whoever opened the file (as netlink checks
 * the opener of its socket): root without those capabilities is refused.
 */
static bool sl_control_may_write(struct file *file)
{
	return file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN) ||
	       file_ns_capable(file, &init_user_ns, CAP_PERFMON);
}

/*
 * A write is one or more lines.  It is refused whole, with nothing
 * applied, if any line does not parse (unknown command or pipeline, bad
 * filter, bad symbol) or the write holds a NUL byte; then the lines are
 * applied in order, and one failing as it is applied (a function that
 * cannot be probed, a pipeline none of whose hooks arms) ends the write
 * with its error, the lines before it staying applied.
 */
static ssize_t sl_control_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	char *buf, *copy, *line, *rest;
	int ret = 0;

	if (!sl_control_may_write(file)) {
		sl_err("control: writes need CAP_SYS_ADMIN or CAP_PERFMON\n");
		return -EPERM;
	}
	if (len >= PAGE_SIZE) {
		sl_err("control: command too long\n");
		return -EINVAL;
	}
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (strlen(buf) != len) {
		sl_err("control: NUL byte in a command\n");
		kfree(buf);
		return -EINVAL;
	}
	copy = kmemdup(buf, len + 1, GFP_KERNEL);
	if (!copy) {
		kfree(buf);
		return -ENOMEM;
	}
	mutex_lock(&sl_lock);
	rest = copy;
	while (!ret && (line = strsep(&rest, "\n")) != NULL)
		ret = sl_control_line(line, NULL, false);
	rest = buf;
	while (!ret && (line = strsep(&rest, "\n")) != NULL)
		ret = sl_control_line(line, NULL, true);
	mutex_unlock(&sl_lock);
	kfree(copy);
	kfree(buf);
	return ret ? ret : len;
}

static int sl_control_show(struct seq_file *m, void *v)
{
	seq_puts(m, "enable PIPELINE\ndisable PIPELINE\nreset [PIPELINE]\n"
		 "filter PIPELINE [clear] [tgid=N] [tid=N] [lport=N] [rport=N] [proto=tcp|udp] [ifindex=N] [dev=MAJ:MIN|DISK] [op=read|write|open|fsync] [fs=ext4|xfs|btrfs|bdev|0xMAGIC]\n"
		 "func add SYMBOL\nfunc del SYMBOL\n"
		 "span add NAME FROM TO [thread|argN|argN,argM]\nspan del NAME\n"
		 "stacks add SYMBOL\nstacks del SYMBOL\nstacks PIPELINE on|off\n"
		 "threshold PIPELINE NS   (slow events above NS ns, 0..3600000000000; 0: off)\n"
		 "sample PIPELINE N       (follow one object in N, 1..65536; 1: every one)\n"
		 "sample PIPELINE auto OBJECTS (N each second from the busiest CPU's objects)\n"
		 "cgtotals PIPELINE on|off (totals per cgroup: func, storage)\n"
		 "# a comment\n");
	return 0;
}

static int sl_control_open(struct inode *inode, struct file *file)
{
	return single_open(file, sl_control_show, inode->i_private);
}

static const struct file_operations sl_control_fops = {
	.owner = THIS_MODULE,
	.open = sl_control_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = sl_control_write,
};

int sl_debugfs_init(void)
{
	struct dentry *hist;
	unsigned int i;

	sl_dir = debugfs_create_dir("stacklat", NULL);
	if (IS_ERR_OR_NULL(sl_dir)) {
		sl_err("cannot create debugfs directory\n");
		return sl_dir ? PTR_ERR(sl_dir) : -ENOMEM;
	}
	debugfs_create_file("status", 0400, sl_dir, NULL, &sl_status_fops);
	debugfs_create_file("control", 0600, sl_dir, NULL, &sl_control_fops);
	debugfs_create_file("inflight", 0400, sl_dir, NULL, &sl_inflight_fops);
	debugfs_create_file("events", 0400, sl_dir, NULL, &sl_events_fops);
	hist = debugfs_create_dir("hist", sl_dir);
	for (i = 0; i < sl_nr_pipelines; i++) {
		struct sl_pipeline *p = sl_pipelines[i];

		debugfs_create_file(p->name, 0400, sl_dir, p, &sl_table_fops);
		debugfs_create_file(p->name, 0400, hist, p, &sl_hist_fops);
	}
	return 0;
}

void sl_debugfs_exit(void)
{
	debugfs_remove_recursive(sl_dir);
	sl_dir = NULL;
}
