// SPDX-License-Identifier: GPL-2.0
/*
 * sl-spin: a deterministic event source for stacklat tests and the bench.
 *
 *   sl-spin [-n N] [-t THREADS] [-r RATE] [-f CONTROL] [-p PIPELINE] [-q]
 *
 * Runs THREADS threads (each pinned to CPU i % ncpus) that each call
 * getppid(2) exactly N times, so a func pipeline on __x64_sys_getppid must
 * count exactly N * THREADS calls.  -t 0: the calls are made N times by the
 * main thread itself (pinned to CPU 0), so that its tid is its pid (what a
 * tracer filtering on the pid of the process it started sees).  With -f it first writes
 * "filter PIPELINE tgid=<own pid>" into CONTROL, so the count is exact even
 * when other processes make the same call.  Prints one line:
 *   calls=<N*THREADS> ns_per_call=<wall time per call per thread>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static unsigned long n_calls = 1000, rate;
static pthread_barrier_t start;

static void *spin(void *arg)
{
	long cpu = (long)arg;
	cpu_set_t set;
	unsigned long i;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	pthread_barrier_wait(&start);
	if (rate) {
		unsigned long batch = rate / 1000 ? rate / 1000 : 1, j;
		struct timespec next;

		clock_gettime(CLOCK_MONOTONIC, &next);
		for (i = 0; i < n_calls; ) {
			for (j = 0; j < batch && i < n_calls; j++, i++)
				syscall(SYS_getppid);
			next.tv_nsec += 1000000L * batch * 1000 / rate;
			while (next.tv_nsec >= 1000000000L) {
				next.tv_nsec -= 1000000000L;
				next.tv_sec++;
			}
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		}
		return NULL;
	}
	for (i = 0; i < n_calls; i++)
		syscall(SYS_getppid);
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *control = NULL, *pipe = "func";
	long threads = 1, i, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t tid[256];
	double t0, t1;
	int c;

	while ((c = getopt(argc, argv, "n:t:r:f:p:")) != -1) {
		switch (c) {
		case 'n':
			n_calls = strtoul(optarg, NULL, 0);
			break;
		case 't':
			threads = strtol(optarg, NULL, 0);
			break;
		case 'r':
			rate = strtoul(optarg, NULL, 0);
			break;
		case 'f':
			control = optarg;
			break;
		case 'p':
			pipe = optarg;
			break;
		default:
			fprintf(stderr, "usage: sl-spin [-n N] [-t THREADS] [-r RATE] [-f CONTROL] [-p PIPELINE]\n");
			return 2;
		}
	}
	if (threads < 0 || threads > 256 || ncpu < 1)
		return 2;
	if (control) {
		FILE *f = fopen(control, "w");

		if (!f || fprintf(f, "filter %s tgid=%d\n", pipe, getpid()) < 0 ||
		    fclose(f)) {
			fprintf(stderr, "sl-spin: %s: %s\n", control, strerror(errno));
			return 1;
		}
	}
	if (!threads) {
		pthread_barrier_init(&start, NULL, 1);
		t0 = now();
		spin((void *)0);
		t1 = now();
		printf("calls=%lu ns_per_call=%.1f\n", n_calls,
		       (t1 - t0) / (double)n_calls);
		return 0;
	}
	pthread_barrier_init(&start, NULL, threads + 1);
	for (i = 0; i < threads; i++)
		pthread_create(&tid[i], NULL, spin, (void *)(i % ncpu));
	pthread_barrier_wait(&start);
	t0 = now();
	for (i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	t1 = now();
	printf("calls=%lu ns_per_call=%.1f\n", n_calls * threads,
	       (t1 - t0) / (double)n_calls);
	return 0;
}
