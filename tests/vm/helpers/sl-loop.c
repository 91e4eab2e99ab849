// SPDX-License-Identifier: GPL-2.0
/*
 * sl-loop: tight loops of one real operation, for the bench.
 *
 *   sl-loop udp N        N request/response rounds of 64 bytes over UDP on
 *                        127.0.0.1 (a server thread echoes): per round two
 *                        datagrams go down net_tx and up net_rx.  Both
 *                        threads are pinned to CPU 0: a round is then two
 *                        local wakeups, not a cross-CPU hand-off (which
 *                        under emulation costs far more than the stack)
 *   sl-loop tcp N PORT   N request/response rounds of 1 byte over one TCP
 *                        connection to 127.0.0.1:PORT (a server thread
 *                        reads and writes back, blocking calls), both
 *                        threads on CPU 0 as for udp: a request and its
 *                        response per round (the reqresp pipeline's
 *                        workload, server port PORT)
 *   sl-loop pread FILE N N pread(2)s of 4 KiB at offset 0 of FILE (page
 *                        cache hits: syscall, VFS and filesystem, no I/O)
 *   sl-loop rw FILE N    N rounds of a 4 KiB pwrite(2) then a 4 KiB
 *                        pread(2) at offset 0 of FILE (created; the page
 *                        cache: vfs_write and vfs_read, no I/O), the
 *                        files pipeline's ("top files") workload
 *   sl-loop dio DEV N    N O_DIRECT pread(2)s of 4 KiB at offset 0 of the
 *                        block device DEV: one bio each, through the block
 *                        layer and the driver
 *   sl-loop tcpconn N    N TCP connections on 127.0.0.1: connect(2) (the
 *                        handshake completes inside it, loopback), accept(2)
 *                        of the child, then an abortive close (SO_LINGER 0,
 *                        so no TIME_WAIT piles up), all on CPU 0
 *   sl-loop udpdrop N    N datagrams of 64 bytes to a UDP port of 127.0.0.1
 *                        nothing listens on: each one is dropped (no socket)
 *   sl-loop ufunc N      N calls of sl_loop_ufunc(), a user-space function
 *                        of this program (noinline, in its .symtab) that
 *                        does almost nothing: what a uprobe and a uretprobe
 *                        on it cost is all there is to time
 *
 * Prints one line: ops=<N> ns_per_op=<wall time per operation>
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "sl-loop: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void pin_cpu0(void)
{
	cpu_set_t cpu0;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		die("sched_setaffinity");
}

static unsigned long n_ops;
static int srv_fd;

static void *echo(void *arg)
{
	char buf[64];
	struct sockaddr_in peer;
	socklen_t len;
	unsigned long i;

	(void)arg;
	for (i = 0; i < n_ops; i++) {
		len = sizeof(peer);
		if (recvfrom(srv_fd, buf, sizeof(buf), 0,
			     (struct sockaddr *)&peer, &len) != sizeof(buf))
			die("server recvfrom");
		if (sendto(srv_fd, buf, sizeof(buf), 0,
			   (struct sockaddr *)&peer, len) != sizeof(buf))
			die("server sendto");
	}
	return NULL;
}

static double udp_rr(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	char buf[64] = { 0 };
	pthread_t t;
	unsigned long i;
	double t0, t1;
	int c;

	pin_cpu0();
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	srv_fd = socket(AF_INET, SOCK_DGRAM, 0);
	c = socket(AF_INET, SOCK_DGRAM, 0);
	if (srv_fd < 0 || c < 0)
		die("socket");
	if (bind(srv_fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(srv_fd, (struct sockaddr *)&a, &len) ||
	    connect(c, (struct sockaddr *)&a, sizeof(a)))
		die("bind/connect");
	pthread_create(&t, NULL, echo, NULL);
	t0 = now();
	for (i = 0; i < n_ops; i++) {
		if (send(c, buf, sizeof(buf), 0) != sizeof(buf))
			die("send");
		if (recv(c, buf, sizeof(buf), 0) != sizeof(buf))
			die("recv");
	}
	t1 = now();
	pthread_join(t, NULL);
	return t1 - t0;
}

static void *tcp_echo(void *arg)
{
	char b;
	unsigned long i;

	(void)arg;
	for (i = 0; i < n_ops; i++) {
		if (read(srv_fd, &b, 1) != 1)
			die("server read");
		if (write(srv_fd, &b, 1) != 1)
			die("server write");
	}
	return NULL;
}

static double tcp_rr(unsigned int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	pthread_t t;
	unsigned long i;
	double t0, t1;
	int l, c, one = 1;
	char b = 'x';

	pin_cpu0();
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons(port);
	l = socket(AF_INET, SOCK_STREAM, 0);
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || c < 0)
		die("socket");
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    connect(c, (struct sockaddr *)&a, sizeof(a)))
		die("bind/listen/connect");
	srv_fd = accept(l, NULL, NULL);
	if (srv_fd < 0)
		die("accept");
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(srv_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	pthread_create(&t, NULL, tcp_echo, NULL);
	t0 = now();
	for (i = 0; i < n_ops; i++) {
		if (write(c, &b, 1) != 1)
			die("write");
		if (read(c, &b, 1) != 1)
			die("read");
	}
	t1 = now();
	pthread_join(t, NULL);
	close(c);
	close(srv_fd);
	close(l);
	return t1 - t0;
}

static double pread_loop(const char *file)
{
	static char buf[4096];
	unsigned long i;
	double t0, t1;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		die(file);
	if (pread(fd, buf, sizeof(buf), 0) < 0)
		die("pread");
	t0 = now();
	for (i = 0; i < n_ops; i++)
		if (pread(fd, buf, sizeof(buf), 0) < 0)
			die("pread");
	t1 = now();
	close(fd);
	return t1 - t0;
}

static double rw_loop(const char *file)
{
	static char buf[4096];
	unsigned long i;
	double t0, t1;
	int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		die(file);
	if (pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf))
		die("pwrite");
	t0 = now();
	for (i = 0; i < n_ops; i++)
		if (pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf) ||
		    pread(fd, buf, sizeof(buf), 0) != sizeof(buf))
			die("pwrite/pread");
	t1 = now();
	close(fd);
	return t1 - t0;
}

static double dio_loop(const char *dev)
{
	unsigned long i;
	double t0, t1;
	void *buf;
	int fd = open(dev, O_RDONLY | O_DIRECT);

	if (fd < 0)
		die(dev);
	if (posix_memalign(&buf, 4096, 4096))
		die("posix_memalign");
	if (pread(fd, buf, 4096, 0) != 4096)
		die("pread");
	t0 = now();
	for (i = 0; i < n_ops; i++)
		if (pread(fd, buf, 4096, 0) != 4096)
			die("pread");
	t1 = now();
	close(fd);
	free(buf);
	return t1 - t0;
}

static volatile unsigned long ufunc_calls;

/* in .symtab as itself: no inlining, no clone (.constprop, .isra) */
__attribute__((noinline, noipa)) void sl_loop_ufunc(void)
{
	ufunc_calls++;
}

static double ufunc_loop(void)
{
	unsigned long i;
	double t0, t1;

	t0 = now();
	for (i = 0; i < n_ops; i++)
		sl_loop_ufunc();
	t1 = now();
	return t1 - t0;
}

static double tcp_conn(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	socklen_t len = sizeof(a);
	unsigned long i;
	double t0, t1;
	int l, c, s, one = 1;

	pin_cpu0();
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0)
		die("socket");
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(l, (struct sockaddr *)&a, &len) || listen(l, 128))
		die("bind/listen");
	t0 = now();
	for (i = 0; i < n_ops; i++) {
		c = socket(AF_INET, SOCK_STREAM, 0);
		if (c < 0)
			die("socket");
		if (connect(c, (struct sockaddr *)&a, sizeof(a)))
			die("connect");
		s = accept(l, NULL, NULL);
		if (s < 0)
			die("accept");
		if (setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)))
			die("SO_LINGER");
		close(c);
		close(s);
	}
	t1 = now();
	close(l);
	return t1 - t0;
}

static double udp_drop(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	char buf[64] = { 0 };
	unsigned long i;
	double t0, t1;
	int c, p;

	pin_cpu0();
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* a port nobody listens on: bind one, note it, close it */
	p = socket(AF_INET, SOCK_DGRAM, 0);
	c = socket(AF_INET, SOCK_DGRAM, 0);
	if (p < 0 || c < 0)
		die("socket");
	if (bind(p, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(p, (struct sockaddr *)&a, &len))
		die("bind");
	close(p);
	t0 = now();
	for (i = 0; i < n_ops; i++)
		if (sendto(c, buf, sizeof(buf), 0, (struct sockaddr *)&a,
			   sizeof(a)) != sizeof(buf))
			die("sendto");
	t1 = now();
	close(c);
	return t1 - t0;
}

int main(int argc, char **argv)
{
	double ns;

	if (argc == 3 && !strcmp(argv[1], "udp")) {
		n_ops = strtoul(argv[2], NULL, 0);
		ns = udp_rr();
	} else if (argc == 4 && !strcmp(argv[1], "tcp")) {
		n_ops = strtoul(argv[2], NULL, 0);
		ns = tcp_rr((unsigned int)strtoul(argv[3], NULL, 0));
	} else if (argc == 4 && !strcmp(argv[1], "pread")) {
		n_ops = strtoul(argv[3], NULL, 0);
		ns = pread_loop(argv[2]);
	} else if (argc == 4 && !strcmp(argv[1], "rw")) {
		n_ops = strtoul(argv[3], NULL, 0);
		ns = rw_loop(argv[2]);
	} else if (argc == 4 && !strcmp(argv[1], "dio")) {
		n_ops = strtoul(argv[3], NULL, 0);
		ns = dio_loop(argv[2]);
	} else if (argc == 3 && !strcmp(argv[1], "tcpconn")) {
		n_ops = strtoul(argv[2], NULL, 0);
		ns = tcp_conn();
	} else if (argc == 3 && !strcmp(argv[1], "udpdrop")) {
		n_ops = strtoul(argv[2], NULL, 0);
		ns = udp_drop();
	} else if (argc == 3 && !strcmp(argv[1], "ufunc")) {
		n_ops = strtoul(argv[2], NULL, 0);
		ns = ufunc_loop();
	} else {
		fprintf(stderr,
			"usage: sl-loop udp N | tcp N PORT | pread FILE N | rw FILE N | dio DEV N | tcpconn N | udpdrop N | ufunc N\n");
		return 2;
	}
	if (!n_ops)
		return 2;
	printf("ops=%lu ns_per_op=%.1f\n", n_ops, ns / (double)n_ops);
	return 0;
}
