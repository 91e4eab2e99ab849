// SPDX-License-Identifier: GPL-2.0
/*
 * The "span" pipeline (issue 27): the time between any two points the
 * operator names at run time, joined by a key.
 *
 *   span add NAME FROM TO [KEY]      span del NAME
 *
 * FROM and TO: a kernel function's entry (SYMBOL, MODULE:SYMBOL), its
 * return (SYMBOL%return, perf's and kprobe_events' word), a user-space
 * function's entry or return (/PATH:0xOFFSET[:NAME][%return], which the
 * tool makes of PATH:SYMBOL or LIB:SYMBOL as for "func add"), or a
 * tracepoint of the kernel's own (tp:[SYSTEM:]NAME; SYSTEM is the
 * operator's, the kernel's tracepoints are named without it).  KEY:
 * "thread" (the default: the same thread passes FROM then TO), "argN"
 * (argument N of both points, 0..3: a request, an skb), or "argN,argM"
 * (N at FROM, M at TO).  At a kernel function's return point the
 * arguments are those of the call's entry; a user function's return has
 * none (the thread is its key); a tracepoint's are its TP_PROTO's, read
 * as machine words (dispatch.h, sl_tp_any()).
 *
 * A span is a pair of rows and one stage on the engine, as func's
 * functions are one row and a stage: span slot i owns rows 2i (FROM, a
 * START at timestamp slot i) and 2i+1 (TO), and stage i, from slot i to
 * the shared slot SL_SPAN_TO_PT.  Every span's chains live in the one
 * in-flight table under this pipeline, each span's keys apart: the key
 * read at a point is xor'ed with the span's tag (bits 48..55: its slot
 * and a generation that moves on with every "span add", so a chain left
 * by a deleted span is never ended by the next span in its slot - it ages
 * out, counted stale).  A chain holds one span's FROM stamp only, so the
 * engine's recording (every stage whose two points were passed) records
 * that span's stage and no other.
 *
 * FROM again before TO (same key) starts the chain over: the latest FROM
 * counts.  TO with no chain is counted unmatched ("no entry for an end").
 * The pipeline's tgid/tid filter applies at FROM (counted filtered), and
 * at TO only for a thread-keyed span (another task's TO cannot end the
 * chain); an argument-keyed span's TO may run anywhere (an interrupt).
 * Losses of the table (table_full, busy, stale) are counted under the
 * pipeline.
 *
 * A tracepoint point's probe is not typed by the tracepoint's prototype
 * (the name is given at run time): on a kernel whose control-flow
 * integrity checks that type (kCFI), tracepoints are refused.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/moduleparam.h>
#include <linux/ctype.h>
#include <linux/slab.h>

#include "sl.h"
#include "stacklat_filter.h"
#include "points.h"

#define SL_SPAN_MAX	8
#define SL_SPAN_TO_PT	(SL_FLIGHT_NTS - 1)	/* every span's TO stamp */
#define SL_SPAN_ARGS	4			/* argN: 0..3 */

static_assert(SL_SPAN_MAX < SL_SPAN_TO_PT);

static unsigned int max_spans = SL_SPAN_MAX;
module_param(max_spans, uint, 0444);
MODULE_PARM_DESC(max_spans, "spans at most (span add), 0..8");

struct sl_span_slot {
	char name[STACKLAT_NAME_MAX];
	char pt[2][STACKLAT_SYM_MAX];	/* FROM's and TO's row names */
	char sym[2][STACKLAT_SYM_MAX];	/* their functions, for the hooks */
	struct sl_cand cand[2];
	bool thread;			/* keyed by the thread */
	u8 gen;				/* READ_ONCE in probes */
};

static struct sl_span_slot sl_span_slots[SL_SPAN_MAX];
static struct sl_hook sl_span_hooks[2 * SL_SPAN_MAX];
static struct sl_stage sl_span_stages[SL_SPAN_MAX];

/* The span row @hk belongs to, and its tag (above). */
static __always_inline unsigned int sl_span_of(const struct sl_hook *hk)
{
	return (unsigned int)(hk - sl_span_hooks) / 2;
}

static __always_inline unsigned long sl_span_tag(unsigned int i)
{
	unsigned long g = READ_ONCE(sl_span_slots[i].gen) & 0xf;

	return (0x80UL | g << 3 | i) << 48;
}

/*
 * FROM's pre callback, probe context (a kprobe or ftrace entry,
 * preemption off; a kretprobe's entry; a uprobe's or uretprobe's, or a
 * tracepoint's, preemption disabled by the backend where the kernel does
 * not): the filter, and the span's own key.
 */
static int sl_span_from(struct sl_ev *ev)
{
	if (!sl_task_ok(ev->p)) {
		sl_loss(ev->p, SL_LOSS_FILTERED);
		return -1;
	}
	ev->ident ^= sl_span_tag(sl_span_of(ev->hk));
	return 0;
}

/*
 * TO's post callback (a NONE row: no pre, so a kprobe or tracepoint-free
 * entry runs it straight from the probe; at a return point, from the
 * return handler), probe context as above: the chain's end.
 */
static int sl_span_to(struct sl_ev *ev, struct sl_flight_ent *unused)
{
	unsigned int i = sl_span_of(ev->hk);
	struct sl_pipeline *p = ev->p;
	struct sl_flight_ent *e;

	if (READ_ONCE(sl_span_slots[i].thread) && !sl_task_ok(p))
		return SL_DONE;
	e = sl_chain_get(p, ev->ident ^ sl_span_tag(i));
	if (!e) {
		sl_loss(p, SL_LOSS_UNMATCHED);
		return SL_DONE;
	}
	e->ts[SL_SPAN_TO_PT] = sl_ev_now(ev);
	sl_chain_finish(p, e);
	return SL_DONE;
}

static int sl_span_find(const char *name)
{
	int i;

	for (i = 0; i < SL_SPAN_MAX; i++)
		if (sl_span_hooks[2 * i].ncands &&
		    !strcmp(sl_span_slots[i].name, name))
			return i;
	return -1;
}

static bool sl_span_name_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n >= STACKLAT_NAME_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum(s[i]) && s[i] != '_' && s[i] != '-' &&
		    s[i] != '.')
			return false;
	return true;
}

/* "argN": N (0..3), else -1 */
static int sl_span_argn(const char *s)
{
	if (strncmp(s, "arg", 3) || s[3] < '0' ||
	    s[3] >= '0' + SL_SPAN_ARGS || s[4])
		return -1;
	return s[3] - '0';
}

/* KEY into @obj[2]; false if it is not a key */
static bool sl_span_key(char *key, u8 *obj)
{
	char *comma;

	if (!key || !strcmp(key, "thread")) {
		obj[0] = SL_OBJ_TASK;
		obj[1] = SL_OBJ_TASK;
		return true;
	}
	comma = strchr(key, ',');
	if (comma)
		*comma++ = '\0';
	if (sl_span_argn(key) < 0 || (comma && sl_span_argn(comma) < 0))
		return false;
	obj[0] = sl_span_argn(key);
	obj[1] = comma ? sl_span_argn(comma) : obj[0];
	return true;
}

/*
 * User point @spec ("/PATH:0xOFFSET[:NAME][%return]") of span slot @s:
 * its target (the file and offset) in @s->sym[@w], its row name (the
 * target, and "%return" for a return) in @s->pt[@w], its candidate.
 */
static int sl_span_upoint(struct sl_span_slot *s, int w, const char *spec,
			  struct netlink_ext_ack *extack)
{
	char up[STACKLAT_SYM_MAX], stage[STACKLAT_NAME_MAX];
	char *ret;

	strscpy(up, spec, sizeof(up));
	ret = strstr(up, "%return");
	if (ret && !ret[7])
		*ret = '\0';
	else
		ret = NULL;
	if (!stacklat_valid_upoint(up)) {
		NL_SET_ERR_MSG(extack, "a user point is /PATH:0xOFFSET[:NAME][%return]");
		sl_err("span add: '%s' is not /PATH:0xOFFSET[:NAME][%%return]\n",
		       spec);
		return -EINVAL;
	}
	sl_points_user_names(up, s->sym[w], stage);
	strscpy(up, s->sym[w], sizeof(up));
	if (snprintf(s->pt[w], STACKLAT_SYM_MAX, "%s%s", up,
		     ret ? "%return" : "") >= STACKLAT_SYM_MAX) {
		NL_SET_ERR_MSG(extack, "the point's name is too long");
		sl_err("span add: '%s': too long with %%return\n", spec);
		return -EINVAL;
	}
	s->cand[w] = (struct sl_cand){
		.kind = ret ? STACKLAT_HOOK_KIND_URETPROBE :
			      STACKLAT_HOOK_KIND_UPROBE,
		.target = s->sym[w] };
	return sl_points_user_check("span add", s->sym[w], extack);
}

/* Tracepoint @spec ("tp:[SYSTEM:]NAME") of span slot @s (as above). */
static int sl_span_tpoint(struct sl_span_slot *s, int w, const char *spec,
			  struct netlink_ext_ack *extack)
{
	const char *name = strrchr(spec, ':') + 1;

	if (!SL_TP_UNTYPED_OK) {
		NL_SET_ERR_MSG(extack, "tracepoints are not span points on a kCFI kernel");
		sl_err("span add: %s: not on this kernel: its control-flow integrity (kCFI) checks a tracepoint probe's type, and a span's probe cannot have it\n",
		       spec);
		return -EOPNOTSUPP;
	}
	if (name - spec > 3 + STACKLAT_NAME_MAX ||
	    !stacklat_valid_symbol(name) || strchr(name, '.')) {
		NL_SET_ERR_MSG(extack, "a tracepoint is tp:[SYSTEM:]NAME");
		sl_err("span add: '%s' is not tp:[SYSTEM:]NAME\n", spec);
		return -EINVAL;
	}
	strscpy(s->pt[w], spec, STACKLAT_SYM_MAX);
	strscpy(s->sym[w], name, STACKLAT_SYM_MAX);
	s->cand[w] = (struct sl_cand)SL_TPANY(s->sym[w]);
	return 0;
}

/*
 * Point @spec (FROM or TO) of span slot @s into its row name @s->pt[@w]
 * and candidate (whose kind says what it is).  0, or the error, said.
 */
static int sl_span_point(struct sl_span_slot *s, int w, const char *spec,
			 struct netlink_ext_ack *extack)
{
	char *ret;

	if (spec[0] == '/')
		return sl_span_upoint(s, w, spec, extack);
	if (!strncmp(spec, "tp:", 3))
		return sl_span_tpoint(s, w, spec, extack);
	strscpy(s->pt[w], spec, STACKLAT_SYM_MAX);
	strscpy(s->sym[w], spec, STACKLAT_SYM_MAX);
	ret = strchr(s->sym[w], '%');
	if (ret) {
		if (strcmp(ret, "%return")) {
			NL_SET_ERR_MSG(extack, "only %return follows a function's name");
			sl_err("span add: %s: only %%return follows a function's name\n",
			       spec);
			return -EINVAL;
		}
		*ret = '\0';
	}
	if (!stacklat_valid_symbol(s->sym[w])) {
		NL_SET_ERR_MSG(extack, "not a kernel symbol name");
		sl_err("span add: '%s' is not a kernel symbol name\n", spec);
		return -EINVAL;
	}
	/* the row is named by the point, "%return" and all (status) */
	s->cand[w] = ret ? (struct sl_cand)SL_KRPD(s->sym[w], 0) :
			   (struct sl_cand)SL_KPD(s->sym[w], 0);
	return 0;
}

/* Arm row @w of slot @i; on failure say why */
static int sl_span_arm(struct sl_pipeline *p, int i, int w,
		       struct netlink_ext_ack *extack)
{
	struct sl_span_slot *s = &sl_span_slots[i];
	struct sl_hook *hk = &sl_span_hooks[2 * i + w];
	int ret;

	ret = sl_point_add(p, hk, &s->cand[w], 1, i);
	if (!ret)
		return 0;
	if (s->cand[w].kind == STACKLAT_HOOK_KIND_TRACEPOINT &&
	    ret == -ENOENT) {
		NL_SET_ERR_MSG(extack, "no such tracepoint");
		sl_err("span add: %s: no such tracepoint (of the kernel's own: a module's tracepoints are not span points)\n",
		       s->pt[w]);
		return ret;
	}
	if (s->cand[w].kind == STACKLAT_HOOK_KIND_TRACEPOINT) {
		NL_SET_ERR_MSG(extack, "the tracepoint probe was refused");
		sl_err("span add: %s: the tracepoint probe was refused (%d)\n",
		       s->pt[w], ret);
		return ret;
	}
	if (sl_cand_user(&s->cand[w])) {
		NL_SET_ERR_MSG(extack, "the uprobe was refused");
		sl_err("span add: %s: the uprobe was refused (%d)\n", s->pt[w],
		       ret);
		return ret;
	}
	return sl_points_why("span add", s->sym[w], ret, extack);
}

/* span add "NAME FROM TO [KEY]" (point_add) */
static int sl_span_add(struct sl_pipeline *p, const char *arg,
		       struct netlink_ext_ack *extack)
{
	char *buf, *rest, *name, *from, *to, *key;
	struct sl_span_slot *s;
	unsigned int used = 0;
	int i, free = -1, ret;
	u8 obj[2];

	lockdep_assert_held(&sl_lock);
	buf = kstrdup(arg, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	rest = buf;
	name = strsep(&rest, " \t");
	from = rest ? strsep(&rest, " \t") : NULL;
	to = rest ? strsep(&rest, " \t") : NULL;
	key = rest ? strsep(&rest, " \t") : NULL;
	ret = -EINVAL;
	if (!to || !*to || (rest && *rest) || (key && !*key)) {
		NL_SET_ERR_MSG(extack, "span add NAME FROM TO [KEY]");
		sl_err("span add: usage: span add NAME FROM TO [thread|argN|argN,argM]\n");
		goto out;
	}
	if (!sl_span_name_ok(name)) {
		NL_SET_ERR_MSG(extack, "a span's name is [A-Za-z0-9_.-], 1..31");
		sl_err("span add: '%s' is not a name ([A-Za-z0-9_.-], 1 to %d)\n",
		       name, STACKLAT_NAME_MAX - 1);
		goto out;
	}
	if (!sl_span_key(key, obj)) {
		NL_SET_ERR_MSG(extack, "KEY is thread, argN or argN,argM (N 0..3)");
		sl_err("span add: %s: the key is thread, argN or argN,argM (N 0..3)\n",
		       name);
		goto out;
	}
	if (sl_span_find(name) >= 0) {
		NL_SET_ERR_MSG(extack, "a span of that name exists");
		sl_err("span add: %s exists\n", name);
		ret = -EEXIST;
		goto out;
	}
	for (i = 0; i < SL_SPAN_MAX; i++) {
		if (sl_span_hooks[2 * i].ncands)
			used++;
		else if (free < 0)
			free = i;
	}
	if (used >= min_t(unsigned int, max_spans, SL_SPAN_MAX) || free < 0) {
		NL_SET_ERR_MSG(extack, "too many spans (max_spans)");
		sl_err("span add: %s: all %u spans are in use (max_spans)\n",
		       name, min_t(unsigned int, max_spans, SL_SPAN_MAX));
		ret = -ENOSPC;
		goto out;
	}
	s = &sl_span_slots[free];
	ret = sl_span_point(s, 0, from, extack);
	if (!ret)
		ret = sl_span_point(s, 1, to, extack);
	if (ret)
		goto out;
	for (i = 0; i < 2; i++) {
		if (s->cand[i].kind != STACKLAT_HOOK_KIND_URETPROBE ||
		    obj[i] == SL_OBJ_TASK)
			continue;
		NL_SET_ERR_MSG(extack, "a user function's return is keyed by the thread");
		sl_err("span add: %s: a user function's return point has no arguments: the key is the thread\n",
		       name);
		ret = -EINVAL;
		goto out;
	}
	sl_span_hooks[2 * free].obj = obj[0];
	sl_span_hooks[2 * free + 1].obj = obj[1];
	WRITE_ONCE(s->thread, obj[0] == SL_OBJ_TASK);
	WRITE_ONCE(s->gen, s->gen + 1);
	ret = sl_span_arm(p, free, 0, extack);
	if (ret)
		goto out;
	ret = sl_span_arm(p, free, 1, extack);
	if (ret) {
		sl_point_del(p, &sl_span_hooks[2 * free]);
		goto out;
	}
	strscpy(s->name, name, sizeof(s->name));
	strscpy(sl_span_stages[free].name, name,
		sizeof(sl_span_stages[free].name));
out:
	kfree(buf);
	return ret;
}

/* span del NAME (point_del) */
static int sl_span_del(struct sl_pipeline *p, const char *name,
		       struct netlink_ext_ack *extack)
{
	int i;

	lockdep_assert_held(&sl_lock);
	i = sl_span_find(name);
	if (i < 0) {
		NL_SET_ERR_MSG(extack, "no such span");
		sl_err("span del: no span %s\n", name);
		return -ENOENT;
	}
	sl_span_stages[i].name[0] = '\0';
	sl_span_slots[i].name[0] = '\0';
	sl_point_del(p, &sl_span_hooks[2 * i + 1]);
	sl_point_del(p, &sl_span_hooks[2 * i]);
	return 0;
}

static int sl_span_setup(struct sl_pipeline *p)
{
	int i;

	for (i = 0; i < SL_SPAN_MAX; i++) {
		struct sl_hook *from = &sl_span_hooks[2 * i];
		struct sl_hook *to = &sl_span_hooks[2 * i + 1];
		struct sl_stage *st = &sl_span_stages[i];

		from->name = sl_span_slots[i].pt[0];
		from->ncands = 0;
		from->act = SL_ACT_START;
		from->pt = i;
		from->obj = SL_OBJ_TASK;
		from->pre = sl_span_from;
		to->name = sl_span_slots[i].pt[1];
		to->ncands = 0;
		to->act = SL_ACT_NONE;
		to->pt = SL_SPAN_TO_PT;
		to->obj = SL_OBJ_TASK;
		to->post = sl_span_to;
		st->from = from->name;
		st->to = to->name;
		st->from_pt = i;
		st->to_pt = SL_SPAN_TO_PT;
	}
	return 0;
}

SL_PIPELINE(span) = {
	.name = "span",
	.desc = "time between two points named by 'span add', joined by a thread or an argument",
	.key = STACKLAT_KEY_TASK,
	.filter_caps = SL_F_TGID | SL_F_TID,
	.hooks = sl_span_hooks,
	.nhooks = 2 * SL_SPAN_MAX,
	.stages = sl_span_stages,
	.nstages = SL_SPAN_MAX,
	.own_events = true,
	.setup = sl_span_setup,
	.point_add = sl_span_add,
	.point_del = sl_span_del,
};
