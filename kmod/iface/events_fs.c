// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs "events" (root only, 0400): the slow events as text lines,
 *
 *   TIME COMM TGID/TID PIPELINE total=DUR STAGE=DUR... [OBJECT...]
 *   cgroup=ID|- [stack=...]
 *
 * TIME the end point's CLOCK_MONOTONIC in seconds; the stages the object
 * passed, in the pipeline's order; cgroup= the cgroup v2 id of the task
 * ("-": none, stacklat_record.h).  read() blocks until an event arrives
 * (O_NONBLOCK: EAGAIN), poll() says when one is there.  Reading consumes
 * (one reader position, shared with netlink's GET_EVENTS), so opening the
 * file asks what a change does: CAP_SYS_ADMIN or CAP_PERFMON in the
 * initial user namespace, as GET_EVENTS and the control file do (root's
 * file mode alone is not enough).  A line that does not fit the reader's
 * buffer waits for the next read.
 */
#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/poll.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "pipeline.h"
#include "events.h"
#include "stack.h"
#include "fmt.h"
#include "stacklat_event.h"
#include "iface.h"

/* a line with a whole stack: stack_depth= frames of up to ~80 bytes */
#define SL_EVLINE_MAX	8192

struct sl_evfile {
	char line[SL_EVLINE_MAX];
	size_t len, off;
	struct stacklat_event ev;
};

/*
 * " stack=F1;F2;..." - the frames of stack @id of @p's table, innermost
 * first, each function+0xOFF (and [module]; never an address); "stack=-" when the
 * stack was not kept (its table full), "stack=?" when it is gone (reset).
 */
static size_t sl_ev_fmt_stack(char *buf, size_t len, struct sl_pipeline *p,
			      u32 id)
{
	struct sl_stacks *t = sl_pipeline_stacks(p);
	char frame[KSYM_SYMBOL_LEN];
	struct sl_stack_info si;
	size_t n;
	u32 i;

	if (!id)
		return scnprintf(buf, len, " stack=-");
	if (!t || !sl_stacks_get(t, id, &si) || !si.nr)
		return scnprintf(buf, len, " stack=?");
	n = scnprintf(buf, len, " stack=");
	for (i = 0; i < si.nr; i++) {
		sl_stack_frame(frame, sizeof(frame), si.ip[i]);
		sl_fmt_sym_word(frame);
		n += scnprintf(buf + n, len - n, "%s%s", i ? ";" : "", frame);
	}
	return n;
}

static void sl_ev_format(struct sl_evfile *f)
{
	const struct stacklat_event *ev = &f->ev;
	struct sl_pipeline *p = NULL;
	char d[16];
	size_t n;
	u32 i;

	mutex_lock(&sl_lock);
	if (ev->pipeline < sl_nr_pipelines)
		p = sl_pipelines[ev->pipeline];
	sl_fmt_ns(d, sizeof(d), ev->total_ns);
	n = scnprintf(f->line, sizeof(f->line), "%llu.%06llu %s %u/%u %s total=%s",
		      ev->time_ns / NSEC_PER_SEC,
		      ev->time_ns % NSEC_PER_SEC / NSEC_PER_USEC, ev->comm,
		      ev->tgid, ev->tid, p ? p->name : "?", d);
	for (i = 0; i < ev->nstages && i < STACKLAT_EVENT_STAGES; i++) {
		u32 s = ev->stages[i].index;

		sl_fmt_ns(d, sizeof(d), ev->stages[i].ns);
		if (p && s < p->nstages && p->stages[s].name[0])
			n += scnprintf(f->line + n, sizeof(f->line) - n, " %s=%s",
				       p->stages[s].name, d);
		else
			n += scnprintf(f->line + n, sizeof(f->line) - n,
				       " stage%u=%s", s, d);
	}
	mutex_unlock(&sl_lock);
	n += stacklat_event_obj_fmt(f->line + n, sizeof(f->line) - n, ev);
	/* the id: the tool names it by its path */
	if (ev->cgroup)
		n += scnprintf(f->line + n, sizeof(f->line) - n, " cgroup=%llu",
			       ev->cgroup);
	else
		n += scnprintf(f->line + n, sizeof(f->line) - n, " cgroup=-");
	if (p && (ev->flags & STACKLAT_EVENT_F_STACK))
		n += sl_ev_fmt_stack(f->line + n, sizeof(f->line) - n, p,
				     ev->stack_id);
	n += scnprintf(f->line + n, sizeof(f->line) - n, "\n");
	f->len = n;
	f->off = 0;
}

static int sl_evfile_open(struct inode *inode, struct file *file)
{
	struct sl_evfile *f;

	/* the opener's credentials: the control file's rule */
	if (!file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN) &&
	    !file_ns_capable(file, &init_user_ns, CAP_PERFMON)) {
		sl_err("events: reading consumes them: it needs CAP_SYS_ADMIN or CAP_PERFMON\n");
		return -EPERM;
	}
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	file->private_data = f;
	sl_events_reader_get();
	return nonseekable_open(inode, file);
}

static int sl_evfile_release(struct inode *inode, struct file *file)
{
	sl_events_reader_put();
	kfree(file->private_data);
	return 0;
}

static ssize_t sl_evfile_read(struct file *file, char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	struct sl_evfile *f = file->private_data;
	size_t done = 0, n;
	unsigned int got;
	int ret;

	while (done < len) {
		if (f->off < f->len) {
			n = min(f->len - f->off, len - done);
			/* a whole line, or nothing of it, unless it is the first */
			if (done && n < f->len - f->off)
				break;
			if (copy_to_user(ubuf + done, f->line + f->off, n))
				return done ? done : -EFAULT;
			f->off += n;
			done += n;
			continue;
		}
		ret = sl_events_lock_interruptible();
		if (ret)
			return done ? done : ret;
		got = sl_events_take(&f->ev, 1);
		sl_events_unlock();
		if (got)
			sl_pipeline_ev_name(&f->ev);
		if (got) {
			sl_ev_format(f);
			continue;
		}
		if (done)
			break;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(*sl_events_wq(), sl_events_avail());
		if (ret)
			return ret;
	}
	return done;
}

static __poll_t sl_evfile_poll(struct file *file, poll_table *wait)
{
	struct sl_evfile *f = file->private_data;

	poll_wait(file, sl_events_wq(), wait);
	if (f->off < f->len || sl_events_avail())
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

const struct file_operations sl_events_fops = {
	.owner = THIS_MODULE,
	.open = sl_evfile_open,
	.release = sl_evfile_release,
	.read = sl_evfile_read,
	.poll = sl_evfile_poll,
};

/* The status file's line: ring size, written, read, overruns per CPU. */
void sl_events_status(struct seq_file *m)
{
	struct sl_events_stats st;
	unsigned int cpu;

	sl_events_stats(&st);
	seq_printf(m, "events: ring %u/CPU on %u CPUs (from %u, largest now %u), ",
		   st.ring, st.rings, st.ring_start, st.ring_now);
	if (sl_events_rate)
		seq_printf(m, "at most %u/s a pipeline and CPU, ",
			   sl_events_rate);
	else
		seq_puts(m, "no rate limit, ");
	seq_printf(m, "%llu KiB of rings, written %llu, read %llu, overruns %llu (",
		   st.bytes >> 10, st.written, st.read, st.overruns_total);
	for_each_possible_cpu(cpu)
		seq_printf(m, "%scpu%u=%llu", cpu ? " " : "", cpu,
			   sl_events_overruns(cpu));
	seq_puts(m, ")\n");
}
