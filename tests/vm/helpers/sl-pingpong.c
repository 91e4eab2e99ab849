// SPDX-License-Identifier: GPL-2.0
/*
 * sl-pingpong [-n N] [-c CPU]: the context-switch loop of the scheduler
 * benches (tests/vm/bench/59-sched-overhead.sh).  Two threads of one
 * process pass one byte back and forth over two pipes N times (default
 * 20000): the pinger writes to the first pipe and blocks reading the
 * second, the ponger reads the first and answers on the second.  One round
 * trip is two context switches, each with its sched_switch and a
 * sched_wakeup before it: whatever a tracer adds per switch, it adds
 * twice per round trip.
 *
 * Both threads are pinned to one CPU (default 0; -c -1: not pinned), so
 * that every switch is one thread handing the CPU to the other: no idle
 * entry and exit, no wake-up IPI and no migration between two vCPUs, whose
 * cost under emulation varies with what the other vCPU is doing and
 * would be counted per switch too.  What is left is the switch itself,
 * the path the tracepoints sit on.
 *
 * 100 untimed round trips first (the threads started and settled), then
 * N timed on CLOCK_MONOTONIC.  The switches are the kernel's count, both
 * threads' voluntary and involuntary ones (getrusage RUSAGE_THREAD) over
 * the timed loop, expected 2 per round trip; prints
 *   ops=N ns_per_op=X
 *   per switch: ns=Y switches=S expected=2N
 * (X per round trip, Y = X / 2).  Exit 0, or 1.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define WARMUP 100

static int ping[2], pong[2];
static unsigned long rounds = 20000;
static int cpu;
static long ponger_switches;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void pin(void)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static long switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		die("getrusage");
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

static void *ponger(void *arg)
{
	unsigned long i;
	long s0 = 0;
	char c;

	(void)arg;
	pin();
	for (i = 0; i < WARMUP + rounds; i++) {
		if (i == WARMUP)
			s0 = switches();
		if (read(ping[0], &c, 1) != 1)
			die("ponger read");
		if (write(pong[1], &c, 1) != 1)
			die("ponger write");
	}
	/* the last switch out of the ponger is its exit's, not counted */
	ponger_switches = switches() - s0;
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	unsigned long i;
	pthread_t th;
	double ns;
	long s0 = 0, s1;
	char c = 'x';
	int o;

	while ((o = getopt(argc, argv, "n:c:")) != -1) {
		switch (o) {
		case 'n':
			rounds = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			cpu = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: sl-pingpong [-n N] [-c CPU|-1]\n");
			return 1;
		}
	}
	if (!rounds || pipe(ping) || pipe(pong))
		die("pipe");
	pin();
	if (pthread_create(&th, NULL, ponger, NULL))
		die("pthread_create");
	for (i = 0; i < WARMUP + rounds; i++) {
		if (i == WARMUP) {
			s0 = switches();
			clock_gettime(CLOCK_MONOTONIC, &t0);
		}
		if (write(ping[1], &c, 1) != 1)
			die("pinger write");
		if (read(pong[0], &c, 1) != 1)
			die("pinger read");
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s1 = switches() - s0;
	if (pthread_join(th, NULL))
		die("pthread_join");
	ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
	printf("ops=%lu ns_per_op=%.1f\n", rounds, ns / rounds);
	printf("per switch: ns=%.1f switches=%ld expected=%lu\n", ns / rounds / 2,
	       s1 + ponger_switches, 2 * rounds);
	return 0;
}
