// SPDX-License-Identifier: GPL-2.0
/*
 * kkb-workload: a fixed amount of kernel work for bench/kernels-bench.sh,
 * the same on every kernel, and the instructions it took:
 *
 *	kkb-workload [LOOPS]		(default 20000)
 *
 * Each loop makes system calls that go deep into the kernel: a file of
 * /proc opened, read and closed; a page through a pipe; stat(); an
 * anonymous mapping touched and unmapped; and every 64th loop a fork()
 * whose child exits at once.  Built static, so that it runs in the
 * bench's busybox initramfs.  It prints
 *
 *	kkb-workload: loops=<n> ns=<CLOCK_MONOTONIC elapsed> cpu=<its CPU time>
 *
 * Under QEMU with -icount shift=0,sleep=off and one vCPU the guest's clock
 * advances one nanosecond per instruction and the work never waits, so
 * ns is the instructions the CPU executed while it ran: its own, and
 * whatever else ran meanwhile (a profiler's handler, perf's own process).
 * cpu is its own and its children's CPU time: its instructions and those
 * of the interrupts that came while it ran (the kernel counts no IRQ time
 * apart: CONFIG_IRQ_TIME_ACCOUNTING is off), a sampler's handler with its
 * callchain among them, but not another process's (perf's own, reading
 * and writing its samples) nor a kworker's.  From getrusage(), user and
 * system time, which the kernel scales to sum to the exact runtime
 * (cputime_adjust()), in microseconds: a rounding of a thousand
 * instructions.  (Not CLOCK_PROCESS_CPUTIME_ID: the test kernel has no
 * POSIX_TIMERS, and that clock fails there.)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char buf[4096];

static long long now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts)) {
		perror("kkb-workload: clock_gettime");
		exit(1);
	}
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long tv_ns(struct timeval tv)
{
	return tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL;
}

/* The CPU time of this process and of its waited-for children. */
static long long cpu_ns(void)
{
	struct rusage self, children;

	if (getrusage(RUSAGE_SELF, &self) ||
	    getrusage(RUSAGE_CHILDREN, &children)) {
		perror("kkb-workload: getrusage");
		exit(1);
	}
	return tv_ns(self.ru_utime) + tv_ns(self.ru_stime) +
	       tv_ns(children.ru_utime) + tv_ns(children.ru_stime);
}

static int one_loop(int i, int p[2])
{
	struct stat st;
	char *m;
	int fd;

	fd = open("/proc/self/stat", O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0)
		return -1;
	close(fd);
	if (write(p[1], buf, sizeof(buf)) != sizeof(buf) ||
	    read(p[0], buf, sizeof(buf)) != sizeof(buf))
		return -1;
	if (stat("/bin/busybox", &st))
		return -1;
	m = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -1;
	for (fd = 0; fd < 16; fd++)
		m[fd * 4096] = (char)i;
	munmap(m, 16 * 4096);
	if (i % 64 == 0) {
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (!pid)
			_exit(0);
		if (waitpid(pid, NULL, 0) != pid)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int loops = argc > 1 ? atoi(argv[1]) : 20000, i, p[2];
	long long t0, t, c0, c;

	if (loops <= 0 || pipe(p)) {
		fprintf(stderr, "usage: kkb-workload [LOOPS > 0]\n");
		return 2;
	}
	t0 = now();
	c0 = cpu_ns();
	for (i = 0; i < loops; i++) {
		if (one_loop(i, p)) {
			perror("kkb-workload");
			return 1;
		}
	}
	c = cpu_ns() - c0;
	t = now() - t0;
	printf("kkb-workload: loops=%d ns=%lld cpu=%lld\n", loops, t, c);
	return 0;
}
