/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the test programs that dump core with their threads parked
 * (stackprog.c, mixedprog.c): wait until every thread sleeps in pause(),
 * as /proc/self/task/TID/syscall says, so that nothing races the dump;
 * then print "<name> <tid>" lines, which the tests read to know which
 * thread is which case.
 */
#ifndef _KUNWIND_TESTS_PARK_H
#define _KUNWIND_TESTS_PARK_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Is thread tid sleeping in pause()? */
static int in_pause(pid_t tid)
{
	char path[64], buf[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	return atol(buf) == SYS_pause && buf[0] != '-';
}

/*
 * Wait, 10 s at most, until each of the n threads has published its tid
 * in tid[] and sleeps in pause(); then print the tids and main's pid.
 * -1, with a message naming the thread, if one never parks.
 */
static int wait_parked(const char *prog, volatile pid_t *tid,
		       const char *const *name, int n)
{
	struct timespec ms = { 0, 1000000 };
	int i, tries;

	for (i = 0; i < n; i++) {
		for (tries = 0; !tid[i] || !in_pause(tid[i]); tries++) {
			if (tries == 10000) {
				fprintf(stderr, "%s: %s never parked\n", prog,
					name[i]);
				return -1;
			}
			nanosleep(&ms, NULL);
		}
	}
	for (i = 0; i < n; i++)
		printf("%s %d\n", name[i], tid[i]);
	printf("main %d\n", getpid());
	fflush(stdout);
	return 0;
}

#endif /* _KUNWIND_TESTS_PARK_H */
