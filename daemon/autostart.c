/* SPDX-License-Identifier: MIT */
/* see autostart.h */
#include "daemon/autostart.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int try_program(const char *dir, const char *rel, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", dir, rel);

	return n > 0 && (size_t)n < len && access(buf, X_OK) == 0 ? 0 : -ENOENT;
}

int autostart_find_program(char *buf, size_t len)
{
	const char *env = getenv("CLOAKFSD_PROGRAM");
	const char *path = getenv("PATH");
	char self[PATH_MAX];
	ssize_t n;

	if (env && env[0]) {
		if ((size_t)snprintf(buf, len, "%s", env) >= len)
			return -ENAMETOOLONG;
		return access(buf, X_OK) == 0 ? 0 : -ENOENT;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		char *slash;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			if (try_program(self, "cloakfsd", buf, len) == 0 ||
			    try_program(self, "../daemon/cloakfsd", buf, len) == 0)
				return 0;
		}
	}
	while (path && *path) {
		const char *end = strchrnul(path, ':');
		char dir[PATH_MAX];

		if (end > path && (size_t)(end - path) < sizeof(dir)) {
			memcpy(dir, path, (size_t)(end - path));
			dir[end - path] = '\0';
			if (try_program(dir, "cloakfsd", buf, len) == 0)
				return 0;
		}
		path = *end ? end + 1 : end;
	}
	return -ENOENT;
}

static long elapsed_ms(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

int autostart_run(const char *socket_path, int timeout_ms)
{
	char program[PATH_MAX];
	char *argv[4];
	struct timespec start;
	int err = autostart_find_program(program, sizeof(program));
	int status, null_fd;
	pid_t pid;

	if (err)
		return err;
	argv[0] = program;
	argv[1] = socket_path ? "--socket" : NULL;
	argv[2] = (char *)socket_path;
	argv[3] = NULL;
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(null_fd);
		return err;
	}
	if (pid == 0) {
		/* async-signal-safe only: the caller may have threads */
		if (dup2(null_fd, 0) < 0 || dup2(null_fd, 1) < 0)
			_exit(127);
		/* stderr stays: the daemon's startup errors reach the user */
		close_range(3, ~0u, 0);
		execv(program, argv);
		_exit(127);
	}
	close(null_fd);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		if (r < 0)
			return errno == ECHILD ? 0 : -errno; /* SIGCHLD ignored */
		if (elapsed_ms(&start) >= timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&(struct timespec){ 0, 10 * 1000000 }, NULL);
	}
}
