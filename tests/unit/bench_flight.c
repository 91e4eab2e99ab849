// SPDX-License-Identifier: GPL-2.0
/*
 * Native microbenchmark of the in-flight table (kmod/core/flight.c built
 * in userspace, linked as its own object as in the module), and of the
 * old table's lookup miss and 7-point chain (flight_old.h) for comparison.  Not run by
 * `make run`; `make bench`.
 *
 * For each table size and load: the table is filled to the load with
 * pointer-like keys, then each thread (1, then 2 on separate keys, pinned
 * to CPUs 0 and 1) repeats over its own key set: put+unlock (a start),
 * get+unlock (a mark), has() of absent keys (a miss), get+unlock_remove
 * (an end); then the histogram update alone (kmod/core/hist.h's
 * sl_hist_add, on per-"CPU" histograms: per thread here), and a whole
 * chain of 7 points as the dispatcher runs it: a start (put), 5 marks
 * (get, stamp, unlock), an end (get, stamp, 7 samples recorded - the 6
 * stages and the total - and unlock_remove).  Reported: ns per operation,
 * the median over rounds of m = slots / 64 operations (robust to the
 * preemption of a shared host), then the mean over threads; for the chain
 * also per point (/ 7).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "flight.h"
#include "flight_old.h"
#include "hist.h"

#define PTR(i)		(0xffff888000000000UL + (unsigned long)(i) * 64)
#define OPS		3000000UL	/* per phase and thread */
/* a miss: a fresh absent key each time, so its lines are cold (as for the
 * consume_skb() of an skb that was never followed) */
#define MISS(r, x)	((u64)PTR((r) << 40 | (x)) ^ (2ULL << 56))

#define CHAIN_PTS	7

enum { PUT, GET, MISS, END, HIST, CHAIN, NPH };
static const char *const phname[NPH] = {
	"put+unlock", "get+unlock", "has miss", "get+unlock_remove",
	"hist add", "7-point chain",
};

/* the stages' histograms, shared by the threads as by CPUs */
static struct sl_hist hists[CHAIN_PTS];

struct run {
	struct sl_flight *t;
	int cpu;
	unsigned long base;	/* ident index of this thread's keys */
	unsigned int m;		/* keys per round */
	pthread_barrier_t *bar;
	double ns[NPH];
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

static double median(double *v, unsigned long n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return v[n / 2];
}

/* one object through 7 points, as sl_dispatch() does it */
static void chain(struct sl_flight *t, u64 key, u64 now)
{
	struct sl_flight_ent *e;
	unsigned int j;
	int how;

	e = sl_flight_put(t, key, now, SL_FL_RESTART, &how);
	if (!e)
		return;
	e->ts[0] = now;
	sl_flight_unlock(e);
	for (j = 1; j < CHAIN_PTS; j++) {
		e = sl_flight_get(t, key);
		if (!e)
			return;
		if (!e->ts[j])
			e->ts[j] = now + j * 1000 + (now & 511);
		if (j < CHAIN_PTS - 1)
			sl_flight_unlock(e);
	}
	for (j = 1; j < CHAIN_PTS; j++)
		sl_hist_add(&hists[j - 1], e->ts[j] - e->ts[j - 1]);
	sl_hist_add(&hists[CHAIN_PTS - 1], e->ts[CHAIN_PTS - 1] - e->ts[0]);
	sl_flight_unlock_remove(t, e);
}

static void *worker(void *arg)
{
	struct run *r = arg;
	unsigned long rounds = OPS / r->m, n;
	double t0, *d[NPH];
	struct sl_flight_ent *e;
	u64 *keys;
	unsigned int i;
	int how;

	pin(r->cpu);
	for (i = 0; i < NPH; i++)
		d[i] = malloc(rounds * sizeof(double));
	keys = malloc(r->m * sizeof(*keys));
	for (i = 0; i < r->m; i++) {
		keys[i] = sl_flight_key(1, PTR(r->base + i));
	}
	if (r->bar)
		pthread_barrier_wait(r->bar);
	for (n = 0; n < rounds; n++) {
		t0 = now_ns();
		for (i = 0; i < r->m; i++) {
			e = sl_flight_put(r->t, keys[i], n, SL_FL_KEEP, &how);
			if (e) {
				e->ts[0] = n;
				sl_flight_unlock(e);
			}
		}
		d[PUT][n] = now_ns() - t0;
		t0 = now_ns();
		for (i = 0; i < r->m; i++) {
			e = sl_flight_get(r->t, keys[i]);
			if (e) {
				e->ts[1] = n;
				sl_flight_unlock(e);
			}
		}
		d[GET][n] = now_ns() - t0;
		t0 = now_ns();
		for (i = 0; i < r->m; i++)
			if (sl_flight_has(r->t, MISS(r->cpu + 1UL, n * r->m + i)))
				abort();
		d[MISS][n] = now_ns() - t0;
		t0 = now_ns();
		for (i = 0; i < r->m; i++) {
			e = sl_flight_get(r->t, keys[i]);
			if (e)
				sl_flight_unlock_remove(r->t, e);
		}
		d[END][n] = now_ns() - t0;
		t0 = now_ns();
		for (i = 0; i < r->m; i++)
			sl_hist_add(&hists[i % CHAIN_PTS], 1000 + n + i * 37);
		d[HIST][n] = now_ns() - t0;
		t0 = now_ns();
		for (i = 0; i < r->m; i++)
			chain(r->t, keys[i], n * 100000 + i);
		d[CHAIN][n] = now_ns() - t0;
	}
	for (i = 0; i < NPH; i++) {
		r->ns[i] = median(d[i], rounds) / r->m;
		free(d[i]);
	}
	free(keys);
	return NULL;
}

static double old_miss(unsigned int size, unsigned int load)
{
	struct old_tab *o = old_create(size, 1ULL << 62);
	unsigned long n, fill = (unsigned long)size * load / 100, rounds;
	unsigned int m = size / 64, i;
	double t0, *d, res;
	bool st;

	pin(0);
	/* the old table after churn: offered 2x the load, half ended */
	for (n = 0; n < 2 * fill; n++)
		old_insert(o, sl_flight_key(1, PTR(n)), 0, &st);
	for (n = 0; n < 2 * fill; n += 2) {
		struct old_ent *e = old_lookup(o, sl_flight_key(1, PTR(n)));

		if (e)
			old_remove(e, e->key);
	}
	rounds = OPS / m;
	d = malloc(rounds * sizeof(*d));
	for (n = 0; n < rounds; n++) {
		t0 = now_ns();
		for (i = 0; i < m; i++)
			if (old_lookup(o, MISS(1UL, n * m + i)))
				abort();
		d[n] = now_ns() - t0;
	}
	res = median(d, rounds) / m;
	free(d);
	old_destroy(o);
	return res;
}

/* the 7-point chain of chain() on the old table, one thread */
static void old_chain1(struct old_tab *o, u64 key, u64 now)
{
	struct old_ent *e;
	unsigned int j;
	bool st;

	e = old_insert(o, key, now, &st);
	if (!e)
		return;
	e->ts[0] = now;
	for (j = 1; j < CHAIN_PTS; j++) {
		e = old_lookup(o, key);
		if (!e)
			return;
		if (!e->ts[j])
			e->ts[j] = now + j * 1000 + (now & 511);
	}
	for (j = 1; j < CHAIN_PTS; j++)
		sl_hist_add(&hists[j - 1], e->ts[j] - e->ts[j - 1]);
	sl_hist_add(&hists[CHAIN_PTS - 1], e->ts[CHAIN_PTS - 1] - e->ts[0]);
	old_remove(e, key);
}

static double old_chain(unsigned int size, unsigned int load)
{
	struct old_tab *o = old_create(size, 1ULL << 62);
	unsigned long n, fill = (unsigned long)size * load / 100, rounds;
	unsigned int m = size / 64, i;
	double t0, *d, res;
	bool st;

	pin(0);
	for (n = 0; n < fill; n++)
		old_insert(o, sl_flight_key(1, PTR(n)), 0, &st);
	rounds = OPS / m;
	d = malloc(rounds * sizeof(*d));
	for (n = 0; n < rounds; n++) {
		t0 = now_ns();
		for (i = 0; i < m; i++)
			old_chain1(o, sl_flight_key(1, PTR((1UL << 30) + i)),
				   n * 100000 + i);
		d[n] = now_ns() - t0;
	}
	res = median(d, rounds) / m;
	free(d);
	old_destroy(o);
	return res;
}

static void bench(unsigned int size, unsigned int load, int nthreads,
		  double *ns)
{
	struct sl_flight *t = sl_flight_create(size, 1ULL << 62);
	unsigned long n, fill = (unsigned long)size * load / 100;
	struct sl_flight_stats st;
	pthread_barrier_t bar;
	struct run r[2];
	pthread_t th[2];
	int i, p, how;

	for (n = 0; n < fill; n++) {
		struct sl_flight_ent *e = sl_flight_put(t, sl_flight_key(1, PTR(n)),
							0, SL_FL_KEEP, &how);
		if (e)
			sl_flight_unlock(e);
	}
	pthread_barrier_init(&bar, NULL, nthreads);
	for (i = 0; i < nthreads; i++) {
		r[i] = (struct run){ .t = t, .cpu = i, .m = size / 64,
				     .base = (1UL << 30) + ((unsigned long)i << 24),
				     .bar = &bar };
		pthread_create(&th[i], NULL, worker, &r[i]);
	}
	for (p = 0; p < NPH; p++)
		ns[p] = 0;
	for (i = 0; i < nthreads; i++) {
		pthread_join(th[i], NULL);
		for (p = 0; p < NPH; p++)
			ns[p] += r[i].ns[p] / nthreads;
	}
	sl_flight_stats(t, &st);
	if (st.used != fill || st.full || st.busy)
		printf("  (used %u of %lu, full %llu, busy %llu)\n", st.used,
		       fill, (unsigned long long)st.full,
		       (unsigned long long)st.busy);
	pthread_barrier_destroy(&bar);
	sl_flight_destroy(t);
}

int main(void)
{
	static const unsigned int sizes[] = { 16384, 131072 };
	static const unsigned int loads[] = { 25, 50 };
	double ns1[NPH], ns2[NPH];
	unsigned int s, l;
	int p;

	for (p = 0; p < CHAIN_PTS; p++) {
		if (sl_hist_init(&hists[p]))
			return 1;
	}

	printf("ns per operation (median round); 2 threads: mean of the two, separate keys\n");
	printf("%-7s %-4s %-18s %8s %8s %6s\n", "slots", "load", "operation",
	       "1 thr", "2 thr", "2/1");
	for (s = 0; s < 2; s++)
		for (l = 0; l < 2; l++) {
			bench(sizes[s], loads[l], 1, ns1);
			bench(sizes[s], loads[l], 2, ns2);
			for (p = 0; p < NPH; p++)
				printf("%-7u %3u%% %-18s %8.1f %8.1f %6.2f\n",
				       sizes[s], loads[l], phname[p], ns1[p],
				       ns2[p], ns2[p] / ns1[p]);
			printf("%-7u %3u%% %-18s %8.1f %8.1f\n", sizes[s],
			       loads[l], "  per point", ns1[CHAIN] / CHAIN_PTS,
			       ns2[CHAIN] / CHAIN_PTS);
			printf("%-7u %3u%% %-18s %8.1f\n", sizes[s], loads[l],
			       "old lookup miss", old_miss(sizes[s], loads[l]));
			printf("%-7u %3u%% %-18s %8.1f\n", sizes[s], loads[l],
			       "old 7-point chain", old_chain(sizes[s], loads[l]));
		}
	return 0;
}
