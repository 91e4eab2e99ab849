// SPDX-License-Identifier: GPL-2.0
/*
 * Native microbenchmark of the keyed aggregation (kmod/core/keyed.c built
 * in userspace, linked as its own object as in the module).  `make run`
 * runs it short (--quick), `make bench` longer.
 *
 * An update is what the syscalls pipeline does per syscall: begin, find or
 * claim the row of (process, syscall) in this CPU's buffer, add to its
 * count, time and one log2 latency bucket of a 36-value row, end.  Keys:
 * 200 (processes x syscalls) drawn from a fixed sequence, the table sized
 * as the module's defaults (512 keys a CPU buffer).  Threads, pinned to
 * CPUs 0 and 1, each on its own buffer as CPUs are, while the main thread
 * folds every 10 ms (the module folds once a second).  Reported: ns per
 * update, the median over rounds of 4096 updates (robust to the
 * preemption of a shared host), the mean over threads; and the time of a
 * fold (its grace period included).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "keyed.h"

#define NVALS		36
#define NKEYS		200
#define ROUND		4096
#define KEY(i)		((u64)((i) % 40 + 1000) << 32 | 0x80000000U | ((i) * 7 % 331))

static unsigned long rounds = 2000;
static int finished;

struct run {
	struct sl_keyed *t;
	int cpu;
	pthread_barrier_t *bar;
	double ns;
	unsigned long lost;
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	pthread_setaffinity_np(pthread_self(), sizeof(s), &s);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the syscalls pipeline's update */
static __attribute__((__noinline__)) bool update(struct sl_keyed *t, u64 key,
					     u64 ns, bool err)
{
	struct sl_keyed_buf *b = sl_keyed_begin(t);
	unsigned int bk;
	bool fresh;
	u64 *v;

	if (!b)
		return false;
	v = sl_keyed_row(t, b, key, &fresh);
	if (v) {
		v[0]++;
		if (err)
			v[1]++;
		v[2] += ns;
		if (ns > v[4])
			v[4] = ns;
		bk = ns < 256 ? 0 : ilog2(ns) - 7;
		v[12 + (bk > 23 ? 23 : bk)]++;
	}
	sl_keyed_end(b);
	return v != NULL;
}

static void *worker(void *arg)
{
	struct run *r = arg;
	double *d = malloc(rounds * sizeof(double)), t0;
	u64 keys[NKEYS];
	unsigned long n, i;

	pin(r->cpu);
	for (i = 0; i < NKEYS; i++)
		keys[i] = KEY(i + r->cpu * 13);
	pthread_barrier_wait(r->bar);
	for (n = 0; n < rounds; n++) {
		t0 = now_ns();
		for (i = 0; i < ROUND; i++)
			r->lost += !update(r->t, keys[(i * 31 + n) % NKEYS],
					   100 + (i & 1023), !(i & 15));
		d[n] = (now_ns() - t0) / ROUND;
	}
	qsort(d, rounds, sizeof(*d), cmp_d);
	r->ns = d[rounds / 2];
	free(d);
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

static double bench(int nthreads, double *fold_ms)
{
	struct sl_keyed *t = sl_keyed_create(NVALS, 8192, 512, 512, 0, 0, NULL);
	struct sl_keyed_stats st;
	pthread_barrier_t bar;
	struct run r[2];
	pthread_t th[2];
	double ns = 0, f0, fsum = 0;
	unsigned long folds = 0, lost = 0;
	int i;

	if (!t) {
		fprintf(stderr, "bench_keyed: cannot create the table\n");
		exit(1);
	}
	pthread_barrier_init(&bar, NULL, nthreads + 1);
	for (i = 0; i < nthreads; i++) {
		r[i] = (struct run){ .t = t, .cpu = i, .bar = &bar };
		pthread_create(&th[i], NULL, worker, &r[i]);
	}
	finished = 0;
	pthread_barrier_wait(&bar);
	while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) < nthreads) {
		struct timespec ts = { 0, 10000000 };

		nanosleep(&ts, NULL);
		f0 = now_ns();
		sl_keyed_fold(t, 0);
		fsum += now_ns() - f0;
		folds++;
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(th[i], NULL);
		ns += r[i].ns / nthreads;
		lost += r[i].lost;
	}
	sl_keyed_fold(t, 0);
	sl_keyed_stats(t, &st);
	if (lost || st.full || st.busy) {
		fprintf(stderr, "bench_keyed: %lu updates lost\n", lost);
		exit(1);
	}
	*fold_ms = folds ? fsum / folds / 1e6 : 0;
	pthread_barrier_destroy(&bar);
	sl_keyed_destroy(t);
	return ns;
}

int main(int argc, char **argv)
{
	struct sl_keyed *t = sl_keyed_create(NVALS, 8192, 512, 512, 0, 0, NULL);
	struct sl_keyed_stats st;
	double ns1, ns2, f1, f2;

	if (argc > 1 && !strcmp(argv[1], "--quick"))
		rounds = 300;
	if (!t)
		return 1;
	sl_keyed_stats(t, &st);
	sl_keyed_destroy(t);
	ns1 = bench(1, &f1);
	ns2 = bench(2, &f2);
	printf("keyed: %d-value rows, %u bytes a row in a CPU buffer (2 per CPU), %u folded\n",
	       NVALS, st.row_bytes_cpu, st.row_bytes);
	printf("keyed: ns per update (median round): 1 thread %.1f, 2 threads %.1f (ratio %.2f); fold %.2f ms\n",
	       ns1, ns2, ns2 / ns1, (f1 + f2) / 2);
	return 0;
}
