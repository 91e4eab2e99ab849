// SPDX-License-Identifier: GPL-2.0
/*
 * sl-lock -f FILE [-r R] [-s MS] -g GATEFILE -q QUITFILE: kernel lock
 * contention we control, the ground truth of the lock pipeline's test
 * (99-lock).  A round: a holder thread write()s a page to FILE from a
 * buffer registered with userfaultfd and not yet mapped, so that the
 * kernel takes the file's inode lock (i_rwsem, for writing) and then
 * faults on the buffer and waits, lock held, for us to resolve the fault;
 * we read the fault, start a waiter thread that write()s 16 bytes to the
 * same file - it blocks on the i_rwsem (a contended rwsem write) - wait
 * until it sleeps (its /proc stat state 'D'), sleep MS ms, then resolve
 * the fault (UFFDIO_ZEROPAGE): the holder finishes and unlocks, the
 * waiter gets the lock.  So each round is exactly one contended wait of
 * the waiter, longer than MS ms and shorter than its write(), which it
 * times on CLOCK_MONOTONIC (the clock stacklat stamps on).  It starts
 * when GATEFILE exists and says
 *   ready pid=P
 *   done waits=R wait_ns=SUM max_ns=MAX
 * then waits until QUITFILE exists.  Needs userfaultfd handling kernel
 * faults (root).  Exit 0, or 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int fd, rounds = 10, ms = 50;
static char *page;
static long pg;
static volatile pid_t waiter_tid;
static unsigned long long wait_ns;
static char small[16] = "sl-lock waiter\n";

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "sl-lock: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *holder(void *arg)
{
	(void)arg;
	if (pwrite(fd, page, pg, 0) != pg)
		die("holder write");
	return NULL;
}

static void *waiter(void *arg)
{
	unsigned long long t0;

	(void)arg;
	waiter_tid = (pid_t)syscall(SYS_gettid);
	t0 = now_ns();
	if (pwrite(fd, small, sizeof(small), 0) != sizeof(small))
		die("waiter write");
	wait_ns = now_ns() - t0;
	return NULL;
}

/* thread @tid's state letter from its /proc stat, or 0 */
static char state_of(pid_t tid)
{
	char path[64], buf[512], *s;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	s = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!s)
		return 0;
	s = strrchr(buf, ')');
	return s && s[1] == ' ' ? s[2] : 0;
}

static void wait_file(const char *path)
{
	struct stat st;

	while (stat(path, &st))
		usleep(10000);
}

int main(int argc, char **argv)
{
	const char *file = NULL, *gate = NULL, *quit = NULL;
	unsigned long long sum = 0, max = 0;
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct uffdio_zeropage zp = { 0 };
	struct uffd_msg msg;
	struct timespec nap;
	pthread_t h, w;
	int uffd, c, r, i;

	while ((c = getopt(argc, argv, "f:r:s:g:q:")) != -1) {
		switch (c) {
		case 'f': file = optarg; break;
		case 'r': rounds = atoi(optarg); break;
		case 's': ms = atoi(optarg); break;
		case 'g': gate = optarg; break;
		case 'q': quit = optarg; break;
		default: return 1;
		}
	}
	if (!file || !gate || !quit || rounds < 1 || ms < 1)
		return 1;
	pg = sysconf(_SC_PAGESIZE);
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die("open");
	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0)
		die("userfaultfd");
	if (ioctl(uffd, UFFDIO_API, &api))
		die("UFFDIO_API");
	page = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		die("mmap");
	reg.range.start = (unsigned long)page;
	reg.range.len = pg;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER");
	/* a round that never sees its fault or its sleeper ends here */
	alarm(30 + rounds * (ms / 1000 + 2));
	printf("ready pid=%d\n", (int)getpid());
	fflush(stdout);
	wait_file(gate);
	for (r = 0; r < rounds; r++) {
		if (madvise(page, pg, MADV_DONTNEED))
			die("madvise");
		if (pthread_create(&h, NULL, holder, NULL))
			die("holder");
		/* the holder faults with the inode lock held */
		if (read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
		    msg.event != UFFD_EVENT_PAGEFAULT)
			die("uffd read");
		waiter_tid = 0;
		if (pthread_create(&w, NULL, waiter, NULL))
			die("waiter");
		for (i = 0; i < 5000 && (!waiter_tid ||
					 state_of(waiter_tid) != 'D'); i++)
			usleep(1000);
		if (i == 5000) {
			fprintf(stderr, "sl-lock: the waiter never slept\n");
			return 1;
		}
		nap.tv_sec = ms / 1000;
		nap.tv_nsec = (ms % 1000) * 1000000L;
		while (nanosleep(&nap, &nap))
			;
		zp.range.start = (unsigned long)page;
		zp.range.len = pg;
		zp.mode = 0;
		if (ioctl(uffd, UFFDIO_ZEROPAGE, &zp))
			die("UFFDIO_ZEROPAGE");
		pthread_join(h, NULL);
		pthread_join(w, NULL);
		sum += wait_ns;
		if (wait_ns > max)
			max = wait_ns;
	}
	alarm(0);
	printf("done waits=%d wait_ns=%llu max_ns=%llu\n", rounds, sum, max);
	fflush(stdout);
	wait_file(quit);
	return 0;
}
