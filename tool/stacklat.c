// SPDX-License-Identifier: GPL-2.0
/*
 * stacklat - read and drive the stacklat kernel module over generic netlink.
 *
 * Exit codes: 0 ok, 1 runtime error (module absent, kernel refused), 2 usage.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cmd.h"

#ifndef STACKLAT_TOOL_VERSION
#define STACKLAT_TOOL_VERSION "unknown"
#endif

static bool want_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

static void print_cmd_help(FILE *f, const struct subcommand *c)
{
	fprintf(f, "usage: stacklat %s%s%s\n\n%s\n", c->name, c->usage[0] ? " " : "",
		c->usage, c->desc);
	if (c->help)
		fprintf(f, "\n%s", c->help);
}

static int cmd_help(int argc, char **argv);

static const struct subcommand subcommands[] = {
	{ "status", cmd_status, "[-j|--json]",
	  "Module version, kernel, clock, in-flight table; per pipeline its state,\n"
	  "key, filter, losses and every hook point (armed, disarmed, not available,\n"
	  "failed (why) or skipped) with its kind, target, hits and nmissed.",
	  "-j, --json  one JSON line (schema: man stacklat, JSON; docs/json.md).\n" },
	{ "show", cmd_show, "[-j|--json] [PIPELINE...] [INTERVAL [COUNT]]",
	  "Per stage: count, avg, p50, p90, p99, p99.9 and max (all pipelines, or\n"
	  "those named).",
	  "With INTERVAL (seconds, may be fractional) it prints what happened in\n"
	  "each interval, COUNT times or until interrupted; kernel state is never\n"
	  "reset.  Interval percentiles come from the bucket deltas; min and max are\n"
	  "exact when the interval set a new cumulative min or max, otherwise they\n"
	  "are bucket bounds (at most 1/16 off): such a max is printed as ~VALUE and\n"
	  "has \"max_exact\":false in JSON.  If someone reset a pipeline during the\n"
	  "interval, the counts since that reset are printed, with a note.\n"
	  "\n"
	  "-j, --json  one JSON line per sample (JSON lines with INTERVAL), the same\n"
	  "            shape either way (schema: man stacklat, JSON; docs/json.md).\n" },
	{ "hist", cmd_hist, "[--fine] [-j|--json] PIPELINE [STAGE]",
	  "The histogram of a stage (or of every stage of the pipeline) as text bars.",
	  "One row per power of two; --fine: one row per bucket (16 per power of\n"
	  "two, at most 1/16 wide), skipped empty ones shown as '...'.\n"
	  "-j, --json  show's JSON line, each stage with \"buckets\":[[lo,hi,count]...]\n"
	  "            (every non-empty kernel bucket, lo inclusive, hi exclusive).\n" },
	{ "inflight", cmd_inflight, "[-j|--json] [PIPELINE]",
	  "What is being followed right now: every live entry of the in-flight table\n"
	  "with its pipeline, age, thread (if it follows one) and the points it has\n"
	  "passed, as offsets from its start.",
	  "-j, --json  one JSON line (schema: man stacklat, JSON; docs/json.md).\n" },
	{ "events", cmd_events,
	  "[-j] [-t THRESHOLD|--all] [-p PID] [-n COUNT] [-d SECONDS] [PIPELINE...]",
	  "Slow objects, one line each: time (CLOCK_MONOTONIC s), comm, tgid/tid,\n"
	  "pipeline, total and every stage passed in wire order; identity lines\n"
	  "(tcpretrans: one per retransmission; tcpconnect: one per connect;\n"
	  "tcpaccept: one per accepted connection; netdrop: one per drop) add the\n"
	  "socket's addresses, ports, state, RTO, srtt, cwnd, retransmissions, a\n"
	  "connect's result, a listener's accept queue; a drop's reason (its\n"
	  "stage), interface, protocol, addresses, ports and where (function+offset).",
	  "-t THRESHOLD  set the pipelines' threshold (500us, 10ms...; all enabled\n"
	  "              pipelines with slow events if none is named) for the run,\n"
	  "              restored after (CAP_SYS_ADMIN or CAP_PERFMON); without it,\n"
	  "              the thresholds set (control \"threshold PIPELINE NS\") are\n"
	  "              used.  Pipelines that count values or instants (netsize,\n"
	  "              storage, disktop, stacks, sched, offcpu, cpu, futex, lock)\n"
	  "              have none; netdrop writes every drop under any threshold.\n"
	  "--all         every object, whatever its time (control \"threshold\n"
	  "              PIPELINE all\"); at most event_rate= lines a second per\n"
	  "              pipeline and CPU, the rest counted \"suppressed\".\n"
	  "-p PID        only events of this process (or thread)\n"
	  "-n COUNT      stop after COUNT events; -d SECONDS: after SECONDS\n"
	  "-j, --json    JSON lines, an event each, the last a summary\n"
	  "              (schema: man stacklat, JSON; docs/json.md).\n"
	  "Reading consumes the kernel's rings (one reader at a time; debugfs\n"
	  "\"events\" reads the same).  At the end it reports the kernel's overruns\n"
	  "(events the rings had no room for) during the run.\n" },
	{ "metrics", cmd_metrics, "[--textfile DIR]",
	  "Every enabled pipeline's histograms and loss counters in the Prometheus /\n"
	  "OpenMetrics text format; the lock pipeline's contended waits and their\n"
	  "time per lock type (no caller, no pid label).",
	  "--textfile DIR  write DIR/stacklat.prom atomically (a temporary file, then\n"
	  "                rename) for node_exporter's textfile collector.\n"
	  "Buckets: le = 2^k-1 ns (k = 1..36) in seconds, exact counts, coarser than\n"
	  "the kernel's (a quantile from them is within a factor of two).\n" },
	{ "top", cmd_top,
	  "syscalls [-p PID] [-x|--errors] [-s count|time] [-n N] [-P] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top disk [-p PID] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top syscalls|disk|files|net --by cgroup [-p PID] [-s KEY] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top sched [-p PID] [-s total|max|p99|count] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top offcpu [-p PID] [--stacks] [-s total|max|p99|count] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top cpu [-p PID] [-s total|max|p99|count] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top futex [-p PID] [-P] [-s total|max|p99|count] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top lock [-s total|max|p99|count] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top files [-p PID] [-P] [-s bytes|reads|writes|rbytes|wbytes|opens|count] [-n N] [-j] [INTERVAL [COUNT]]\n"
	  "       stacklat top net [-p PID] [-P|-r] [-s bytes|sent|recv|count] [-n N] [-j] [INTERVAL [COUNT]]",
	  "The most frequent system calls, by name, with their failures by errno and\n"
	  "their time - bcc's syscount, from the syscalls pipeline (per process and\n"
	  "syscall in the kernel).  top disk: the processes reading and writing the\n"
	  "most bytes, per disk - bcc's biotop, from the disktop pipeline.  top sched:\n"
	  "run-queue latency (runnable, woken or preempted, to on a CPU) per process,\n"
	  "or per thread of -p's - bcc's runqlat -P, from the sched pipeline.  top\n"
	  "offcpu: time blocked per process and reason, or per kernel stack -\n"
	  "latencytap, bcc's offcputime - from the offcpu pipeline.  top cpu: CPU\n"
	  "time per process or thread, user and system, and its slices on a CPU -\n"
	  "SystemTap's thread-times.stp, bcc's cpudist, from the cpu pipeline.  top\n"
	  "futex: futex wait time per process and futex - SystemTap's futex\n"
	  "contention example, perf lock's futex half - from the futex pipeline.\n"
	  "top lock: kernel lock contention per lock type and caller - perf lock\n"
	  "contention, without BPF - from the lock pipeline (5.19+).  top files:\n"
	  "opens, reads and writes per process and file - bcc's filetop, SystemTap's\n"
	  "iostats.stp - from the files pipeline.  top net: bytes and calls sent and\n"
	  "received per process and protocol - bcc's tcptop, socktop - from the\n"
	  "nettop pipeline.",
	  "Without INTERVAL: the counts since the pipeline was enabled or reset; if it\n"
	  "is disabled, top enables it, counts until Ctrl-C, prints and disables it\n"
	  "(enabling needs CAP_SYS_ADMIN or CAP_PERFMON).  With INTERVAL (seconds, may\n"
	  "be fractional): what happened in each interval, COUNT times or until\n"
	  "interrupted (a pipeline it enabled is disabled at the end).\n"
	  "\n"
	  "-p, --pid PID     that process only\n"
	  "-x, --errors      failed calls only (returned -4095..-1), every errno\n"
	  "-s, --sort KEY    count (default; errors with -x) or time\n"
	  "-n, --top N       rows shown (default 10, 0: all)\n"
	  "-P, --process     a row per process instead of per syscall\n"
	  "-j, --json        one JSON line per sample, every counter and each row's\n"
	  "                  histogram (schema: man stacklat, JSON; docs/json.md)\n"
	  "Names: x86-64's table; an i386 call (a 32-bit process, int 0x80) is shown\n"
	  "as i386:NAME, an x32 one as x32:NAME: each ABI is counted apart.  A call\n"
	  "is counted when it returns (exit and exit_group never do).\n"
	  "\n"
	  "top disk: a row per process and disk, by bytes read and written: PID COMM\n"
	  "DISK READ_KB WRITE_KB R_OPS W_OPS; -p, -n, -j and INTERVAL as above (-x,\n"
	  "-s, -P are for syscalls).  A bio counts for the task submitting it:\n"
	  "writeback of dirty pages for the flusher (kworker), readahead for the\n"
	  "reader, fsync for its caller.  -j: also discards, flushes and other\n"
	  "operations.\n"
	  "\n"
	  "top sched: a row per process (its threads summed), or with -p PID per\n"
	  "thread: PID COMM THREADS WAITS TOTAL AVG P99 MAX PREEMPT; -s total\n"
	  "(default), max, p99 or count.  A wait runs from the thread becoming\n"
	  "runnable - woken, or switched out still runnable (preempted, yielding:\n"
	  "PREEMPT counts those) - to its switch onto a CPU.  P99 is the upper bound\n"
	  "of its log2 bucket (at most MAX); MAX is not known for an interval (\"-\").\n"
	  "\n"
	  "top offcpu: a row per process and reason - the innermost kernel function\n"
	  "of the stack a thread blocked in that is not scheduler machinery (not in\n"
	  ".sched.text: schedule, schedule_timeout, mutex_lock...), e.g. pipe_read,\n"
	  "ep_poll - with --stacks a row per process and stack with its frames\n"
	  "(function+offset): PID COMM REASON BLOCKS TOTAL AVG P99 MAX; -s as for\n"
	  "sched.  A block runs from the switch-out of a thread not runnable to its\n"
	  "next wakeup.  --stacks needs CAP_SYS_ADMIN or CAP_PERFMON (the frames).\n"
	  "\n"
	  "top cpu: a row per process or thread as top sched's: PID COMM THREADS\n"
	  "ONCPU USER SYS SLICES AVG P99 MAX PREEMPT; -s total (on CPU, default), max,\n"
	  "p99 or count (of slices).  A slice runs from the thread's switch onto a CPU\n"
	  "to its switch off it (PREEMPT: still runnable then).  USER and SYS split\n"
	  "ONCPU in the ratio of the user and system time the kernel accounted to the\n"
	  "thread during its slices (task->utime/stime: tick samples on a tick-based\n"
	  "kernel), as /proc/PID/stat does (cputime_adjust): exact to a tick or so.\n"
	  "\n"
	  "top futex: a row per process and futex (its user address in that\n"
	  "process), or with -P per process: PID COMM UADDR (-P: FUTEXES) WAITS EAGAIN\n"
	  "TOTAL AVG P99 MAX WAKER; -s as for sched.  A wait runs from the entry of a\n"
	  "futex() call that waits (FUTEX_WAIT, _WAIT_BITSET, _LOCK_PI, _LOCK_PI2,\n"
	  "_WAIT_REQUEUE_PI) to its return; EAGAIN counts those that returned at once\n"
	  "(the value had changed: contention resolved before sleeping), not in the\n"
	  "times.  WAKER: the thread that woke the last wait (irq: from an interrupt,\n"
	  "a timeout).\n"
	  "\n"
	  "top lock: a row per kernel lock type and caller, kernel-wide (no -p, -P):\n"
	  "TYPE CALLER WAITS FAILED TOTAL AVG P99 MAX NESTED; -s as for sched.  A\n"
	  "wait runs from lock:contention_begin to the contention_end of the same\n"
	  "lock in the same context; TYPE is perf lock's name (spinlock, rwsem:W,\n"
	  "mutex...), CALLER the first function outside the locking code\n"
	  "(function+offset); FAILED: waits that ended in an error (-EINTR, a\n"
	  "timeout); NESTED: contention on other locks inside the waits (a wait_lock),\n"
	  "not counted as waits of their own.  Kernels before 5.19 have no such\n"
	  "tracepoints: the pipeline is not available there.\n"
	  "\n"
	  "top files: a row per process and file, or with -P per process: PID COMM\n"
	  "OPENS FAILS READS R_KB WRITES W_KB FSTYPE FILE (-P: FILES); -s bytes\n"
	  "(read + written, default), reads, writes, rbytes, wbytes, opens (and\n"
	  "failed ones) or count (all calls).  FILE is the name of the file's dentry\n"
	  "when the process first used it (no directory: -j has its device and inode);\n"
	  "a failed open is a row of the last component of the path it tried, its\n"
	  "failures by errno after it (ENOENT:5).  Reads and writes are the read(2),\n"
	  "pread64(2), write(2) and pwrite64(2) calls (vfs_read, vfs_write) and the\n"
	  "kernel's reads and writes for the process (exec reading the program), as\n"
	  "/proc/PID/io counts them; readv, writev, sendfile, splice, io_uring and\n"
	  "mmap are not seen.\n"
	  "\n"
	  "top net: a row per process and protocol (tcp4, tcp6, udp4, udp6: the\n"
	  "socket's family): PID COMM PROTO SENDS TX_KB RECVS RX_KB; -P (--process)\n"
	  "per process; -r (--peers) per process, protocol, local port and peer\n"
	  "(LPORT PEER: the socket's, or the address sendto named or recvfrom\n"
	  "returned; * none).  -s bytes (sent + received, default), sent, recv or\n"
	  "count (all calls).  The calls are tcp_sendmsg, tcp_recvmsg, udp_sendmsg,\n"
	  "udp_recvmsg, udpv6_sendmsg, udpv6_recvmsg returning, for the process that\n"
	  "made them; peer rows are bounded by the table (what does not fit is\n"
	  "counted: keyed full in status).\n"
	  "\n"
	  "--by cgroup (syscalls, disk, files, net): the view's rows summed per\n"
	  "cgroup v2 directory: PROCS, the view's counters (syscalls: CALLS ERRORS\n"
	  "TIME; disk: READ_KB R_OPS WRITE_KB W_OPS; files: OPENS FAILS READS R_KB\n"
	  "WRITES W_KB; net: SENDS TX_KB RECVS RX_KB), CGROUP: its path under the\n"
	  "cgroup2 mount (\"/\" the root), \"cgroup:ID (removed)\" once the directory\n"
	  "is gone, \"-\" for none (disk: bios from an interrupt).  A row counts for\n"
	  "the cgroup its process was in at the row's last update: a process moved\n"
	  "to another cgroup takes its rows along.  -s, -n, -p, -j and INTERVAL as\n"
	  "for the view (-P, -r, -x are not).  -j: cgroup_id (the directory's inode\n"
	  "number) and cgroup on each row.  Needs cgroup v2 (not available on a\n"
	  "v1-only host).\n" },
	{ "enable", cmd_enable, "PIPELINE", "Arm the pipeline's hooks (CAP_SYS_ADMIN or CAP_PERFMON).", NULL },
	{ "disable", cmd_enable, "PIPELINE", "Disarm the pipeline's hooks (CAP_SYS_ADMIN or CAP_PERFMON).", NULL },
	{ "reset", cmd_reset, "[PIPELINE]",
	  "Zero the histograms and loss counters of one or all pipelines and bump\n"
	  "their generation (CAP_SYS_ADMIN or CAP_PERFMON).", NULL },
	{ "sample", cmd_sample, "PIPELINE N | PIPELINE auto OBJECTS",
	  "Follow one object in N (1..65536; 1: every one) in the pipeline, chosen at\n"
	  "its first point: each CPU follows one of every N objects it starts, and\n"
	  "counts them all (status: seen, followed).  The counts start over.  'auto\n"
	  "OBJECTS': each second N is the power of two at or above the busiest\n"
	  "CPU's objects a second (at the first point) over OBJECTS (1 under it).\n"
	  "func, net_rx, net_tx, syscalls, storage, block and reqresp sample\n"
	  "(reqresp: a request, chosen at its data's first segment, counted at the\n"
	  "read that returns it) (CAP_SYS_ADMIN or CAP_PERFMON).", NULL },
	{ "cgtotals", cmd_cgtotals, "PIPELINE on|off",
	  "Keep the total of every object also per cgroup v2 of the task it ends\n"
	  "in (stages cg<ID>.total, shown by path; cg-other.total beyond the\n"
	  "cgroup_slots= slots), or stop: off by default, on costs a cgroup lookup\n"
	  "and a second histogram an object.  func and storage (CAP_SYS_ADMIN or\n"
	  "CAP_PERFMON).", NULL },
	{ "filter", cmd_filter, "PIPELINE clear | KEY=VALUE...",
	  "Replace the pipeline's filter (CAP_SYS_ADMIN or CAP_PERFMON); 'clear' removes it.",
	  "Keys (each at most once; a pipeline refuses keys it cannot honour):\n"
	  "  tgid=N tid=N          process / thread id\n"
	  "  lport=N rport=N       local / remote port\n"
	  "  proto=tcp|udp\n"
	  "  ifindex=N iface=NAME  network interface\n"
	  "  dev=MAJ:MIN|NAME      block device (NAME: /dev/NAME or a path)\n"
	  "  op=read|write|open|fsync\n"
	  "  fs=ext4|xfs|btrfs|bdev|0xMAGIC\n"
	  "  cgroup=/PATH|ID       the tasks of a cgroup v2 directory (wherever tgid= is)\n" },
	{ "func", cmd_func, "add|del [-p PID] SYMBOL|PATH:SYMBOL|LIB:SYMBOL",
	  "Time a kernel function, or a user-space one (a uprobe and a uretprobe),\n"
	  "from entry to return in the \"func\" pipeline (CAP_SYS_ADMIN or\n"
	  "CAP_PERFMON).",
	  "SYMBOL          a kernel function (MODULE:SYMBOL: one of that module)\n"
	  "PATH:SYMBOL     a function of a program or library file (.symtab, else\n"
	  "                .dynsym), e.g. /usr/sbin/memcached:process_command\n"
	  "LIB:SYMBOL      of a library in the loader's cache (ldconfig -p):\n"
	  "                c:connect, libc:getaddrinfo, pthread:pthread_mutex_lock\n"
	  "                (a loaded kernel module named LIB is the kernel's)\n"
	  "-p PID          only that process's calls: the pipeline's tgid= filter\n"
	  "                (for all its functions)" },
	{ "span", cmd_span, "add NAME FROM TO [KEY] | del NAME | list",
	  "Time from one point to another, joined by a key, in the \"span\"\n"
	  "pipeline: one stage a span, NAME (CAP_SYS_ADMIN or CAP_PERFMON; at\n"
	  "most max_spans=, 8).  'list' is 'show span'.",
	  "FROM, TO        SYMBOL          a kernel function's entry\n"
	  "                SYMBOL%return   its return\n"
	  "                PATH:SYMBOL, LIB:SYMBOL  a user-space function's entry\n"
	  "                                (resolved as by func add)\n"
	  "                PATH:SYMBOL%return  its return (keyed by the thread)\n"
	  "                tp:[SYSTEM:]NAME  a tracepoint (tp:block:block_rq_issue)\n"
	  "KEY             thread          the same thread passes FROM, then TO\n"
	  "                                (the default)\n"
	  "                argN            argument N (0..3) of both points: a\n"
	  "                                request, an skb (at a %return point,\n"
	  "                                the call's argument)\n"
	  "                argN,argM       N at FROM, M at TO\n"
	  "e.g. span add rq blk_mq_start_request blk_mq_end_request arg0" },
	/* kernel stacks (issue 28) */
	{ "stacks", cmd_stacks, "add|del SYMBOL | on|off PIPELINE | show [-n N] [-j|--json]",
	  "Count the kernel stacks that reach a kernel function (the \"stacks\"\n"
	  "pipeline; add/del and show need CAP_SYS_ADMIN or CAP_PERFMON: the frames\n"
	  "say where kernel code lies).",
	  "add SYMBOL    count the stacks reaching SYMBOL's entry (enable stacks too)\n"
	  "del SYMBOL    stop; what was counted stays until reset\n"
	  "on PIPELINE   netdrop, tcpretrans: take the kernel stack of every drop or\n"
	  "              retransmitted segment at the pipeline's point, counted per\n"
	  "              stack (show) and in its event lines (stack=); off: stop\n"
	  "show          every stack, the most counted first: \"stack ID PIPELINE\n"
	  "              count=N sum=S\", then its frames, innermost (the function\n"
	  "              itself) first, as function+0xoff/0xsize [module]\n"
	  "-n N          the first N stacks only\n"
	  "-j, --json    one JSON line (schema: man stacklat, JSON; docs/json.md)\n" },
	{ "help", cmd_help, "[COMMAND]", "This text, or one command's.", NULL },
};

#define NSUB (sizeof(subcommands) / sizeof(subcommands[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: stacklat COMMAND [ARGS]\n"
		"       stacklat --help | --version\n\n"
		"Per-layer latency inside the kernel, from the stacklat module.\n\n");
	for (i = 0; i < NSUB; i++)
		fprintf(f, "  %s%*s%s\n", subcommands[i].name,
			subcommands[i].usage[0] ? 9 - (int)strlen(subcommands[i].name) : 0, "",
			subcommands[i].usage);
	fprintf(f, "\n'stacklat help COMMAND' tells more.  Exit status: 0 ok, 1 error,\n"
		"2 bad usage.  STACKLAT_COLOR=always|never|auto (NO_COLOR is honoured).\n");
}

static int cmd_help(int argc, char **argv)
{
	size_t i;

	if (argc == 1) {
		usage(stdout);
		return 0;
	}
	if (argc > 2)
		usage_error("one COMMAND at a time");
	for (i = 0; i < NSUB; i++)
		if (!strcmp(argv[1], subcommands[i].name)) {
			print_cmd_help(stdout, &subcommands[i]);
			return 0;
		}
	usage_error("no command '%s'", argv[1]);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(1, argv + 1);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("stacklat %s (generic netlink family \"%s\" version %d)\n",
		       STACKLAT_TOOL_VERSION, STACKLAT_GENL_NAME, STACKLAT_GENL_VERSION);
		return 0;
	}
	for (i = 0; i < NSUB; i++) {
		if (strcmp(argv[1], subcommands[i].name))
			continue;
		cmd_current = &subcommands[i];
		if (subcommands[i].fn != cmd_help && want_help(argc - 1, argv + 1)) {
			print_cmd_help(stdout, cmd_current);
			return 0;
		}
		return subcommands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "stacklat: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
