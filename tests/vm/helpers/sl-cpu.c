// SPDX-License-Identifier: GPL-2.0
/*
 * sl-cpu: a thread that burns a known CPU time, in user space or in
 * system calls, for the cpu pipeline's test (tests/vm/scenarios/96-cpu.sh).
 *
 *   sl-cpu user|sys MS QUITFILE
 *
 * A worker thread burns MS ms of its own CPU time (CLOCK_THREAD_CPUTIME_ID):
 * "user" in an arithmetic loop, "sys" reading 64 KiB of /dev/zero at a
 * time (the kernel clears the buffer: system time).  It then tells the
 * main thread and blocks in read(2) on a pipe, and the main thread, once
 * the worker is off its CPU (its state 'S' and its schedstat unchanged
 * over 50 ms), prints the worker's own accounting by the kernel:
 *   ready pid=P tid=T
 *   done sum_exec_ns=X pcount=C nvcsw=V nivcsw=I utime=U stime=S burnt_ns=B
 * (/proc/self/task/T/schedstat's time on CPU and runs, /proc/.../status's
 * voluntary and involuntary switches, /proc/.../stat's utime and stime in
 * clock ticks, the worker's own CPU-time clock), keeps the worker blocked
 * until QUITFILE exists, then lets it end.  Exit 0, or 1.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int sys_mode;
static unsigned long long want_ns, burnt_ns;
static int done_pipe[2], go_pipe[2];
static volatile pid_t worker_tid;

static unsigned long long thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void *worker(void *arg)
{
	static char buf[65536];
	volatile unsigned long x = 1;
	unsigned long i;
	int fd = -1;
	char c = 0;

	(void)arg;
	worker_tid = (pid_t)syscall(SYS_gettid);
	if (sys_mode) {
		fd = open("/dev/zero", O_RDONLY);
		if (fd < 0) {
			perror("sl-cpu: /dev/zero");
			exit(1);
		}
	}
	while ((burnt_ns = thread_ns()) < want_ns) {
		if (sys_mode) {
			if (read(fd, buf, sizeof(buf)) != sizeof(buf)) {
				perror("sl-cpu: read");
				exit(1);
			}
		} else {
			for (i = 0; i < 200000; i++)
				x = x * 2862933555777941757UL + 3037000493UL;
		}
	}
	if (write(done_pipe[1], &c, 1) != 1 || read(go_pipe[0], &c, 1) != 1)
		exit(1);
	return NULL;
}

static int slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static void task_file(char *path, size_t len, const char *name)
{
	snprintf(path, len, "/proc/self/task/%d/%s", (int)worker_tid, name);
}

/*
 * The worker's state letter, and its schedstat line.  The letter comes from
 * .../status, not .../stat: every read of stat runs the kernel's
 * cputime_adjust(), which keeps the utime and stime it reports from going
 * down (prev_cputime), so a read while the worker still ran latched a
 * utime the final read could not fall back from - 61 ticks where the
 * final samples scaled said 60 (96-cpu on 6.12, a fresh clone's run).
 * Only the final read (main) reads stat.
 */
static int probe(char *state, char *sched, size_t len)
{
	char path[128], buf[2048], *p;

	task_file(path, sizeof(path), "status");
	if (slurp(path, buf, sizeof(buf)))
		return -1;
	p = strstr(buf, "\nState:");
	if (!p)
		return -1;
	p += strlen("\nState:");
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return -1;
	*state = *p;
	task_file(path, sizeof(path), "schedstat");
	return slurp(path, sched, len);
}

static unsigned long long status_field(const char *text, const char *name)
{
	const char *p = strstr(text, name);

	return p ? strtoull(p + strlen(name), NULL, 10) : ~0ULL;
}

int main(int argc, char **argv)
{
	unsigned long long sum, pcount, utime, stime;
	char path[128], buf[4096], s1[256], s2[256], st, *p;
	struct timespec ms50 = { 0, 50000000 };
	pthread_t th;
	struct stat sb;
	int i, f;
	char c = 0;

	if (argc != 4 || (strcmp(argv[1], "user") && strcmp(argv[1], "sys"))) {
		fprintf(stderr, "usage: sl-cpu user|sys MS QUITFILE\n");
		return 1;
	}
	sys_mode = !strcmp(argv[1], "sys");
	want_ns = strtoull(argv[2], NULL, 10) * 1000000ULL;
	if (pipe(done_pipe) || pipe(go_pipe) ||
	    pthread_create(&th, NULL, worker, NULL))
		return 1;
	if (read(done_pipe[0], &c, 1) != 1)
		return 1;
	printf("ready pid=%d tid=%d\n", (int)getpid(), (int)worker_tid);
	fflush(stdout);
	/* off its CPU: sleeping, and no run of it in 50 ms */
	for (i = 0; i < 200; i++) {
		if (probe(&st, s1, sizeof(s1)))
			return 1;
		nanosleep(&ms50, NULL);
		if (probe(&st, s2, sizeof(s2)))
			return 1;
		if (st == 'S' && !strcmp(s1, s2))
			break;
	}
	if (i == 200) {
		fprintf(stderr, "sl-cpu: the worker does not sleep\n");
		return 1;
	}
	if (sscanf(s2, "%llu %*u %llu", &sum, &pcount) != 2)
		return 1;
	task_file(path, sizeof(path), "stat");
	if (slurp(path, buf, sizeof(buf)))
		return 1;
	/* after the comm: state ppid pgrp session tty tpgid flags minflt
	 * cminflt majflt cmajflt utime stime (fields 3 to 15)
	 */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &utime, &stime) != 2)
		return 1;
	task_file(path, sizeof(path), "status");
	if (slurp(path, buf, sizeof(buf)))
		return 1;
	printf("done sum_exec_ns=%llu pcount=%llu nvcsw=%llu nivcsw=%llu utime=%llu stime=%llu burnt_ns=%llu\n",
	       sum, pcount, status_field(buf, "\nvoluntary_ctxt_switches:"),
	       status_field(buf, "\nnonvoluntary_ctxt_switches:"), utime, stime,
	       burnt_ns);
	fflush(stdout);
	for (f = 0; f < 6000 && stat(argv[3], &sb); f++)
		nanosleep(&ms50, NULL);
	if (write(go_pipe[1], &c, 1) != 1 || pthread_join(th, NULL))
		return 1;
	return 0;
}
