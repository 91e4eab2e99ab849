// SPDX-License-Identifier: GPL-2.0
/*
 * sl-offcpu [-n N] [-s MS] [-q QUITFILE]: a reader thread blocked in
 * read() on an empty pipe N times (default 20), each time until the main
 * thread, after sleeping MS ms (default 50), writes it one byte - the
 * ground truth of the offcpu pipeline's test (95-offcpu).  The main thread
 * starts each sleep only once the reader is asleep in its next read() (its
 * reads done, its state S in /proc), so that every block lasts at least
 * MS ms: timed from the previous write instead, a reader that waited on a
 * run queue after its wakeup blocked that much less (6.1-rt in CI: one of
 * 20 blocks under a 40 ms threshold).  The reader
 * measures each read() on CLOCK_MONOTONIC (the clock stacklat stamps on,
 * and both of its stamps of a block lie inside the call) and reads its
 * own /proc/self/task/TID/schedstat (time on CPU, time waiting on a run
 * queue) before the first read and after the last; then it waits until
 * QUITFILE exists, blocked in nothing the test looks at (usleep):
 *   ready pid=P reader=TID
 *   done reads=N read_ns=SUM cpu_ns=C run_delay_ns=D
 * (C and D: what the schedstat counters grew by over the reads).  Exit 0,
 * or 1.
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

static int fds[2], n = 20;
static pid_t reader_tid;
static volatile int reader_up, reads_done;
static unsigned long long read_ns, cpu_ns, delay_ns;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void schedstat(unsigned long long *cpu, unsigned long long *delay)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat",
		 reader_tid);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%llu %llu", cpu, delay) != 2)
		die(path);
	fclose(f);
}

/* the reader's state letter in /proc (R, S, D...), or 0 */
static char reader_state(void)
{
	char path[64], buf[512], *p;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", reader_tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return 0;
	buf[len] = 0;
	p = strrchr(buf, ')');	/* after the comm, which may hold anything */
	return p && p[1] == ' ' ? p[2] : 0;
}

/*
 * Until the reader has done @i reads and sleeps in the next: between its
 * state turning S and its switch-out only the rest of schedule()'s entry
 * runs, microseconds against the 10 ms between MS and the test's threshold.
 */
static void wait_reader_asleep(int i)
{
	while (__atomic_load_n(&reads_done, __ATOMIC_ACQUIRE) != i ||
	       reader_state() != 'S')
		usleep(200);
}

static void *reader(void *arg)
{
	unsigned long long c0, d0, c1, d1, t;
	char b;
	int i;

	(void)arg;
	reader_tid = (pid_t)syscall(SYS_gettid);
	schedstat(&c0, &d0);
	__atomic_store_n(&reader_up, 1, __ATOMIC_RELEASE);
	for (i = 0; i < n; i++) {
		t = now_ns();
		if (read(fds[0], &b, 1) != 1)
			die("read");
		read_ns += now_ns() - t;
		__atomic_store_n(&reads_done, i + 1, __ATOMIC_RELEASE);
	}
	schedstat(&c1, &d1);
	cpu_ns = c1 - c0;
	delay_ns = d1 - d0;
	return NULL;
}

int main(int argc, char **argv)
{
	const char *quit = NULL;
	struct timespec ms;
	struct stat st;
	pthread_t r;
	int c, i, sleep_ms = 50;

	while ((c = getopt(argc, argv, "n:s:q:")) != -1) {
		switch (c) {
		case 'n':
			n = atoi(optarg);
			break;
		case 's':
			sleep_ms = atoi(optarg);
			break;
		case 'q':
			quit = optarg;
			break;
		default:
			fprintf(stderr, "usage: sl-offcpu [-n N] [-s MS] [-q QUITFILE]\n");
			return 1;
		}
	}
	if (n < 1 || sleep_ms < 1 || pipe(fds))
		die("arguments or pipe");
	if (pthread_create(&r, NULL, reader, NULL))
		die("pthread_create");
	while (!__atomic_load_n(&reader_up, __ATOMIC_ACQUIRE))
		usleep(1000);
	printf("ready pid=%d reader=%d\n", getpid(), reader_tid);
	fflush(stdout);
	ms.tv_sec = sleep_ms / 1000;
	ms.tv_nsec = (sleep_ms % 1000) * 1000000L;
	for (i = 0; i < n; i++) {
		wait_reader_asleep(i);
		nanosleep(&ms, NULL);
		if (write(fds[1], "x", 1) != 1)
			die("write");
	}
	pthread_join(r, NULL);
	printf("done reads=%d read_ns=%llu cpu_ns=%llu run_delay_ns=%llu\n",
	       n, read_ns, cpu_ns, delay_ns);
	fflush(stdout);
	while (quit && stat(quit, &st))
		usleep(50000);
	return 0;
}
