/* SPDX-License-Identifier: MIT */
/* see daemontest.h */
#include "tests/daemon/daemontest.h"

#include "tests/crypto/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *program;
/* root's copy of the daemon, for other uids (see td_init) */
static char copy_dir[64], copy_path[96];

static void remove_copy(void)
{
	unlink(copy_path);
	rmdir(copy_dir);
}

/* copy the daemon to a new 0755 directory in /tmp: 0 or -errno */
static int copy_program(const char *from)
{
	char buf[65536];
	int in, out, err = 0;
	ssize_t n;

	snprintf(copy_dir, sizeof(copy_dir), "/tmp/cloakfsd-exe.XXXXXX");
	if (!mkdtemp(copy_dir))
		return -errno;
	snprintf(copy_path, sizeof(copy_path), "%s/cloakfsd", copy_dir);
	in = open(from, O_RDONLY | O_CLOEXEC);
	out = open(copy_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (in < 0 || out < 0)
		err = -errno;
	while (!err && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 || write(out, buf, (size_t)n) != n)
			err = n < 0 && errno == EINTR ? 0 : -EIO;
	}
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) != 0 && !err)
		err = -errno;
	if (!err && (chmod(copy_dir, 0755) != 0 || chmod(copy_path, 0755) != 0))
		err = -errno;
	atexit(remove_copy);
	return err;
}

void td_init(int argc, char **argv)
{
	int err;

	if (argc < 2 || access(argv[1], X_OK) != 0) {
		fprintf(stderr, "usage: %s PATH-TO-CLOAKFSD\n", argv[0]);
		exit(TEST_SKIP);
	}
	program = argv[1];
	/* root runs daemons as uid 65534 too, which cannot reach a build in
	 * a private directory (a clone in /root): they all run a copy */
	if (geteuid() == 0) {
		err = copy_program(argv[1]);
		if (err) {
			fprintf(stderr, "%s: cannot copy %s to /tmp: %s\n", argv[0], argv[1],
				strerror(-err));
			exit(1);
		}
		program = copy_path;
	}
	signal(SIGPIPE, SIG_IGN);
	/* the daemon's logs stay at info unless the environment says otherwise */
	unsetenv("CLOAKFS_LOG_WARN_FATAL");
}

const char *td_program(void)
{
	return program;
}

void td_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void td_id(uint8_t id[CLOAKFSD_KEY_ID_LEN], unsigned int n)
{
	memset(id, 0xa5, CLOAKFSD_KEY_ID_LEN);
	id[12] = (uint8_t)(n >> 24);
	id[13] = (uint8_t)(n >> 16);
	id[14] = (uint8_t)(n >> 8);
	id[15] = (uint8_t)n;
}

int td_drop_to(int uid)
{
	if (setgroups(0, NULL) != 0 || setresgid((gid_t)uid, (gid_t)uid, (gid_t)uid) != 0 ||
	    setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid) != 0)
		return -errno;
	return 0;
}

int td_connect(const char *sock)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), err;

	if (fd < 0)
		return -errno;
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", sock);
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int td_start(struct test_daemon *d, const char *conf_text, int as_uid)
{
	FILE *f;
	int fd;

	memset(d, 0, sizeof(*d));
	snprintf(d->dir, sizeof(d->dir), "/tmp/cloakfsd-test.XXXXXX");
	if (!mkdtemp(d->dir))
		return -errno;
	snprintf(d->sock, sizeof(d->sock), "%s/sock", d->dir);
	snprintf(d->conf, sizeof(d->conf), "%s/cloakfsd.conf", d->dir);
	snprintf(d->errlog, sizeof(d->errlog), "%s/stderr", d->dir);
	f = fopen(d->conf, "w");
	if (!f)
		return -errno;
	fputs(conf_text ? conf_text : "", f);
	if (fclose(f) != 0)
		return -errno;
	if (as_uid >= 0 && (chown(d->dir, (uid_t)as_uid, (gid_t)as_uid) != 0 ||
			    chown(d->conf, (uid_t)as_uid, (gid_t)as_uid) != 0))
		return -errno;
	d->pid = fork();
	if (d->pid < 0)
		return -errno;
	if (d->pid == 0) {
		fd = open(d->errlog, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(126);
		close(fd);
		if (as_uid >= 0 && td_drop_to(as_uid) != 0) {
			perror("drop privileges");
			_exit(126);
		}
		execl(program, program, "--foreground", "--socket", d->sock, "--config", d->conf,
		      (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 250; i++) {
		int status;

		fd = td_connect(d->sock);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
			fprintf(stderr, "cloakfsd exited early (status 0x%x)\n", status);
			d->pid = 0;
			return -ECHILD;
		}
		td_sleep_ms(20);
	}
	return -ETIMEDOUT;
}

bool td_log_contains(const struct test_daemon *d, const char *s)
{
	char buf[65536];
	FILE *f = fopen(d->errlog, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, s) != NULL;
}

static void dump_log(const struct test_daemon *d)
{
	char buf[4096];
	FILE *f = fopen(d->errlog, "r");
	size_t n;

	if (!f)
		return;
	fprintf(stderr, "---- cloakfsd stderr (%s) ----\n", d->sock);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(f);
}

int td_stop(struct test_daemon *d)
{
	static const char *const leftovers[] = { "sock", "sock.lock", "cloakfsd.conf", "stderr" };
	int status = -1;
	char path[160];

	if (d->pid > 0) {
		kill(d->pid, SIGTERM);
		for (int i = 0; i < 500; i++) {
			if (waitpid(d->pid, &status, WNOHANG) == d->pid)
				break;
			td_sleep_ms(20);
			if (i == 499) {
				kill(d->pid, SIGKILL);
				waitpid(d->pid, &status, 0);
			}
		}
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		d->pid = 0;
	}
	if (test_failures)
		dump_log(d);
	for (size_t i = 0; i < sizeof(leftovers) / sizeof(leftovers[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", d->dir, leftovers[i]);
		unlink(path);
	}
	rmdir(d->dir);
	return status;
}

int td_run(const char *const *args, char *err, size_t err_len)
{
	const char *argv[16];
	int p[2], status;
	size_t n = 0, got = 0;
	pid_t pid;

	argv[n++] = program;
	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	if (pipe(p) != 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int null_fd = open("/dev/null", O_WRONLY);

		dup2(p[1], 2);
		if (null_fd >= 0)
			dup2(null_fd, 1);
		/* a detaching daemon must not keep the pipe open past its start */
		close(p[0]);
		close(p[1]);
		if (null_fd > 2)
			close(null_fd);
		execv(program, (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		char buf[512];
		struct pollfd pfd = { p[0], POLLIN, 0 };
		ssize_t r;

		if (poll(&pfd, 1, 10000) <= 0)
			break;
		r = read(p[0], buf, sizeof(buf));
		if (r <= 0)
			break;
		if (err && got + 1 < err_len) {
			size_t take = (size_t)r < err_len - 1 - got ? (size_t)r : err_len - 1 - got;

			memcpy(err + got, buf, take);
			got += take;
		}
	}
	if (err && err_len)
		err[got] = '\0';
	close(p[0]);
	for (int i = 0; i < 500; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		td_sleep_ms(20);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -ETIMEDOUT;
}

int td_send(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int td_send_frame(int fd, uint8_t type, const void *payload, size_t len)
{
	return td_send_frame_v(fd, 1, type, payload, len);
}

int td_send_frame_v(int fd, uint8_t version, uint8_t type, const void *payload,
		    size_t len)
{
	uint8_t buf[CLOAKFSD_WIRE_MAX + 64];

	if (len + 6 > sizeof(buf))
		return -EINVAL;
	proto_store_u32(buf, (uint32_t)(len + 2));
	buf[4] = version;
	buf[5] = type;
	if (len)
		memcpy(buf + 6, payload, len);
	return td_send(fd, buf, len + 6);
}

static int recv_exact(int fd, uint8_t *buf, size_t len, int timeout_ms)
{
	while (len) {
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t n;
		int r = poll(&p, 1, timeout_ms);

		if (r == 0)
			return -ETIMEDOUT;
		if (r < 0)
			return -errno;
		n = recv(fd, buf, len, 0);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == ECONNRESET ? -ECONNRESET : -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int td_recv_frame(int fd, uint8_t *buf, size_t cap, size_t *len, int timeout_ms)
{
	uint8_t hdr[6];
	uint32_t body;
	int err = recv_exact(fd, hdr, sizeof(hdr), timeout_ms);

	if (err)
		return err;
	body = proto_load_u32(hdr);
	if (body < 2 || body > CLOAKFSD_FRAME_MAX || hdr[4] < CLOAKFSD_PROTO_VERSION_MIN ||
	    hdr[4] > CLOAKFSD_PROTO_VERSION || body - 2 > cap)
		return -EPROTO;
	err = recv_exact(fd, buf, body - 2, timeout_ms);
	if (err)
		return err;
	*len = body - 2;
	return hdr[5];
}

bool td_closed_by_daemon(int fd, int timeout_ms)
{
	uint8_t buf[CLOAKFSD_FRAME_MAX];
	size_t len;
	int r = td_recv_frame(fd, buf, sizeof(buf), &len, timeout_ms);

	if (r == CLOAKFSD_ERROR)
		r = td_recv_frame(fd, buf, sizeof(buf), &len, timeout_ms);
	return r == -ECONNRESET;
}

long td_mem_count(pid_t pid, const uint8_t *needle, size_t n)
{
	char path[64], line[512];
	long count = 0;
	FILE *maps;
	int mem;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	mem = open(path, O_RDONLY);
	if (mem < 0)
		return -errno;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	maps = fopen(path, "r");
	if (!maps) {
		close(mem);
		return -errno;
	}
	while (fgets(line, sizeof(line), maps)) {
		unsigned long start, end;
		char perms[5];
		uint8_t *buf;
		ssize_t got;

		if (sscanf(line, "%lx-%lx %4s", &start, &end, perms) != 3 || perms[0] != 'r')
			continue;
		if (strstr(line, "[vvar]") || strstr(line, "[vsyscall]"))
			continue;
		buf = malloc(end - start);
		if (!buf)
			continue;
		got = pread(mem, buf, end - start, (off_t)start);
		for (ssize_t i = 0; got > 0 && i + (ssize_t)n <= got; i++)
			if (buf[i] == needle[0] && !memcmp(buf + i, needle, n))
				count++;
		free(buf);
	}
	fclose(maps);
	close(mem);
	return count;
}
