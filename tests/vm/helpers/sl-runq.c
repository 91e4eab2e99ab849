// SPDX-License-Identifier: GPL-2.0
/*
 * sl-runq: a thread kept waiting on a run queue for a known time, for the
 * sched pipeline's test (tests/vm/scenarios/93-sched-runq.sh).
 *
 *   sl-runq -n N -s SPIN_MS [-c CPU] [-N] [-q QUITFILE]
 *
 * Two threads pinned to CPU: a waiter (SCHED_OTHER) that blocks N times
 * in read(2) on a pipe and answers each byte on another, and a writer
 * that, N times, sleeps 20 ms (the waiter is back in read()), writes one
 * byte to the pipe (waking the waiter), spins SPIN_MS on the clock and
 * blocks until the waiter's answer.  The writer is SCHED_FIFO (priority
 * 50): the waiter, woken on the same CPU, cannot run before the spin
 * ends, so each of N of its waits is SPIN_MS and a little more, and the
 * answer keeps two rounds from ever falling into one wait (a vCPU stalled
 * through the writer's sleep would let it write again first).  -N: no hog
 * - the writer is SCHED_OTHER and does not spin.
 *
 * After the N rounds it prints the waiter's own scheduler accounting,
 * /proc/self/task/TID/schedstat (time on CPU, time waiting on a run queue,
 * times run), and keeps the waiter blocked until QUITFILE exists, so that
 * the test reads the pipeline's row with no wait of the waiter in between:
 *   ready pid=P waiter=TID writer=TID
 *   done pcount=C run_delay_ns=D spin_min_ns=S
 * (spin_min_ns: the shortest spin the writer measured).  Exit 0, or 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static unsigned long rounds = 10, spin_ms = 50;
static int cpu, nohog;
static int fds[2], ack[2];
static volatile pid_t waiter_tid, writer_tid;
static unsigned long long spin_min = ~0ULL;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "sl-runq: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* N + 1 reads: the last one is the release at the end */
static void *waiter(void *arg)
{
	unsigned long i;
	char c;

	(void)arg;
	pin();
	waiter_tid = (pid_t)syscall(SYS_gettid);
	for (i = 0; i <= rounds; i++) {
		if (read(fds[0], &c, 1) != 1)
			die("read");
		if (i < rounds && write(ack[1], "a", 1) != 1)
			die("write");
	}
	return NULL;
}

static void *writer(void *arg)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec gap = { 0, 20000000 };
	unsigned long long t0, t;
	unsigned long i;
	char c;

	(void)arg;
	pin();
	writer_tid = (pid_t)syscall(SYS_gettid);
	if (!nohog && sched_setscheduler(0, SCHED_FIFO, &sp))
		die("sched_setscheduler(SCHED_FIFO)");
	for (i = 0; i < rounds; i++) {
		nanosleep(&gap, NULL);	/* the waiter blocks in read() */
		if (write(fds[1], "x", 1) != 1)
			die("write");
		if (!nohog) {
			t0 = now_ns();
			do
				t = now_ns();
			while (t - t0 < spin_ms * 1000000ULL);
			if (t - t0 < spin_min)
				spin_min = t - t0;
		}
		if (read(ack[0], &c, 1) != 1)
			die("read");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *quit = NULL;
	unsigned long long a = 0, b = 0, c = 0;
	pthread_t w, h;
	char path[64];
	struct stat st;
	FILE *f;
	int o;

	while ((o = getopt(argc, argv, "n:s:c:Nq:")) != -1) {
		switch (o) {
		case 'n':
			rounds = strtoul(optarg, NULL, 0);
			break;
		case 's':
			spin_ms = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'N':
			nohog = 1;
			break;
		case 'q':
			quit = optarg;
			break;
		default:
			fprintf(stderr, "usage: sl-runq -n N -s SPIN_MS [-c CPU] [-N] [-q QUITFILE]\n");
			return 1;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	pin();
	if (pipe(fds) || pipe(ack))
		die("pipe");
	if (pthread_create(&w, NULL, waiter, NULL))
		die("pthread_create");
	while (!waiter_tid)
		usleep(1000);
	if (pthread_create(&h, NULL, writer, NULL))
		die("pthread_create");
	while (!writer_tid)
		usleep(1000);
	printf("ready pid=%d waiter=%d writer=%d\n", getpid(), waiter_tid, writer_tid);
	pthread_join(h, NULL);
	/* the waiter's last round: it is back in read() within this */
	usleep(100000);
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", waiter_tid);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%llu %llu %llu", &a, &b, &c) != 3)
		die(path);
	fclose(f);
	printf("done pcount=%llu run_delay_ns=%llu spin_min_ns=%llu\n", c, b,
	       nohog ? 0ULL : spin_min);
	while (quit && stat(quit, &st))
		usleep(50000);
	if (write(fds[1], "q", 1) != 1)
		die("write");
	pthread_join(w, NULL);
	return 0;
}
