/* SPDX-License-Identifier: MIT */
/*
 * Test helper (LD_PRELOAD into the cloakfs mount): make reads or writes
 * of chosen backing files fail with EIO, as a failing disk would. The file
 * named by $CLOAKFS_EIO_CTL holds one rule per line: "SUBSTR" makes a read
 * from an fd whose /proc/self/fd path contains SUBSTR return -1/EIO;
 * "w:SUBSTR" does so for a write that reaches past byte 32 (past a file
 * header: data). The control file is re-read on every call, so a test
 * switches faults on and off while the filesystem stays mounted. No
 * control file: no faults. "slow:SUBSTR" makes such reads wait 100 ms and
 * then succeed, as a slow disk would (cloakfs-fsck's progress test: one
 * large file that takes seconds to check). "stall:SUBSTR" makes such
 * reads wait for as long as the rule is there, as a hung disk or network
 * filesystem would; the first stalled read creates "$CLOAKFS_EIO_CTL.stalled"
 * so a test knows a request is stuck.
 *
 * Calls that make or find entries fail by name: "fail:CALL" makes CALL
 * return -1/EIO without doing anything, "after:CALL" lets it succeed and
 * then reports EIO (closing a descriptor it opened), as a lookup that
 * fails after a create would. CALL is one of openat_path (an openat with
 * O_PATH), fstatat_empty (fstatat of a descriptor, AT_EMPTY_PATH),
 * mkdirat, mknodat, symlinkat, linkat, renameat2. "crash:CALL" kills the
 * process (SIGKILL) right before CALL, as a power cut or kill -9 there
 * would: what it wrote so far stays, nothing after it happens.
 *
 * Places: "at:OFFSET:SUBSTR" makes a pread of such a file fail with EIO
 * when the bytes it asks for include OFFSET (a bad sector: whoever reads
 * there must see the error, so a test knows that place was read).
 *
 * Steps: "step:ID:N:SUBSTR" counts the calls that change the backing
 * store (writes, truncates, fallocate, creates, renames, links, unlinks,
 * xattr changes) on a path containing SUBSTR and makes the N-th fail
 * with EIO before it does anything; "pause:ID:N:SUBSTR" makes the N-th
 * wait, after creating "$CTL.paused", until that file is gone, and then
 * go on (a test locks the keys meanwhile). The count starts again when ID
 * changes; "$CTL.steps" holds it, so a test knows whether the N-th came.
 * The path forms of these calls (open with O_CREAT or O_TRUNC, creat,
 * rename, unlink, rmdir, mkdir, symlink, link, the l- and f- xattr calls)
 * count too: a tool such as cloakfs-keytool or cloakfs-fsck uses them.
 */
/* define pread and pread64 each under its own name */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "preload_fdpath.h"

/* the control file, read afresh each call (fopen would recurse into
 * read(): the raw open and fdopen); NULL when there is none */
static FILE *ctl_open(void)
{
	const char *ctl = getenv("CLOAKFS_EIO_CTL");
	int cfd = ctl ? open(ctl, O_RDONLY | O_CLOEXEC) : -1;
	FILE *f;

	if (cfd < 0)
		return NULL;
	f = fdopen(cfd, "r");
	if (!f)
		close(cfd);
	return f;
}

/* kind: 'r' for a read, 'w' for a write past the first 32 bytes, 's'
 * for a read to slow down */
static int fd_matches(int fd, char kind)
{
	const char *ctl = getenv("CLOAKFS_EIO_CTL");
	char path[4096], line[4096];
	FILE *f;
	int hit = 0;

	if (!ctl || preload_fd_path(fd, path, sizeof(path)) != 0)
		return 0;
	/* fopen would recurse into read(): use the raw syscall wrappers */
	int cfd = open(ctl, O_RDONLY | O_CLOEXEC);
	if (cfd < 0)
		return 0;
	f = fdopen(cfd, "r");
	if (!f) {
		close(cfd);
		return 0;
	}
	while (!hit && fgets(line, sizeof(line), f)) {
		char *sub = line;

		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "w:", 2) == 0) {
			if (kind != 'w')
				continue;
			sub += 2;
		} else if (strncmp(line, "slow:", 5) == 0) {
			if (kind != 's')
				continue;
			sub += 5;
		} else if (strncmp(line, "stall:", 6) == 0) {
			if (kind != 'h')
				continue;
			sub += 6;
		} else if (kind != 'r') {
			continue;
		}
		if (*sub && strstr(path, sub))
			hit = 1;
	}
	fclose(f);
	return hit;
}

/* a read hangs while a stall rule matches it; the first says so */
static void stall(int fd)
{
	char flag[4096];
	int said = 0;

	while (fd_matches(fd, 'h')) {
		if (!said) {
			snprintf(flag, sizeof(flag), "%s.stalled",
				 getenv("CLOAKFS_EIO_CTL"));
			close(open(flag, O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
			said = 1;
		}
		usleep(20000);
	}
}

/* a read: stalled or slowed down, and then failing or not */
static int fd_is_faulty(int fd, char kind)
{
	if (kind == 'r') {
		stall(fd);
		if (fd_matches(fd, 's'))
			usleep(100000);
	}
	return fd_matches(fd, kind);
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/* is the line "<how>:<call>" in the control file? */
static int call_rule(const char *how, const char *call)
{
	char line[256], want[128];
	int hit = 0;
	FILE *f = ctl_open();

	if (!f)
		return 0;
	snprintf(want, sizeof(want), "%s:%s", how, call);
	while (!hit && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		hit = strcmp(line, want) == 0;
	}
	fclose(f);
	return hit;
}

/* ---- steps ---------------------------------------------------------------- */

struct step_rule {
	char kind[8];     /* "step" or "pause" */
	char id[128];
	long n;
	char sub[2048];
};

static int step_rule_read(struct step_rule *r)
{
	const char *ctl = getenv("CLOAKFS_EIO_CTL");
	char line[4096];
	int cfd, found = 0;
	FILE *f;

	if (!ctl || (cfd = open(ctl, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	f = fdopen(cfd, "r");
	if (!f) {
		close(cfd);
		return 0;
	}
	while (!found && fgets(line, sizeof(line), f))
		found = (strncmp(line, "step:", 5) == 0 ||
			 strncmp(line, "pause:", 6) == 0) &&
			sscanf(line, "%7[^:]:%127[^:]:%ld:%2047[^\n]", r->kind,
			       r->id, &r->n, r->sub) == 4;
	fclose(f);
	return found;
}

static pthread_mutex_t step_mutex = PTHREAD_MUTEX_INITIALIZER;
static char step_id[128];
static long step_count;

/* create path as a flag file: the raw syscall, since open() with O_CREAT
 * is one of the calls counted */
static void flag_create(const char *path, int flags)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path,
			      flags | O_WRONLY | O_CREAT | O_CLOEXEC, 0600);

	if (fd >= 0)
		close(fd);
}

/* "$CTL<suffix>" into buf */
static void ctl_file(char *buf, size_t cap, const char *suffix)
{
	snprintf(buf, cap, "%s%s", getenv("CLOAKFS_EIO_CTL"), suffix);
}

/* a call changing path (or path2): 1 when it is to fail (errno set) */
static int step_hook2(const char *path, const char *path2)
{
	struct step_rule r;
	char file[4200], num[32];
	long c;
	int fd, len;

	if (!step_rule_read(&r) || !((path && strstr(path, r.sub)) ||
				     (path2 && strstr(path2, r.sub))))
		return 0;
	pthread_mutex_lock(&step_mutex);
	if (strcmp(step_id, r.id) != 0) {
		snprintf(step_id, sizeof(step_id), "%s", r.id);
		step_count = 0;
	}
	c = ++step_count;
	ctl_file(file, sizeof(file), ".steps");
	len = snprintf(num, sizeof(num), "%ld\n", c);
	fd = (int)syscall(SYS_openat, AT_FDCWD, file,
			  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		/* the raw call: write() is one of the calls counted */
		(void)!syscall(SYS_write, fd, num, (size_t)len);
		close(fd);
	}
	pthread_mutex_unlock(&step_mutex);
	if (c != r.n)
		return 0;
	if (strcmp(r.kind, "pause") == 0) {
		ctl_file(file, sizeof(file), ".paused");
		flag_create(file, 0);
		while (access(file, F_OK) == 0)
			usleep(20000);
		return 0;
	}
	errno = EIO;
	return 1;
}

/* where a descriptor, a path or dirfd + name points (a /proc/self/fd
 * path is resolved) */
static void where(int dirfd, const char *name, char *out, size_t cap)
{
	char dir[4096];

	out[0] = '\0';
	if (name && strncmp(name, "/proc/self/fd/", 14) == 0) {
		ssize_t n = readlink(name, out, cap - 1);

		out[n > 0 ? n : 0] = '\0';
	} else if (name && (name[0] == '/' || dirfd == AT_FDCWD)) {
		snprintf(out, cap, "%s", name);
	} else if (preload_fd_path(dirfd, dir, sizeof(dir)) == 0) {
		snprintf(out, cap, "%s%s%s", dir, name && *name ? "/" : "",
			 name ? name : "");
	}
}

static int step_fd(int fd)
{
	char p[8192];

	where(fd, NULL, p, sizeof(p));
	return step_hook2(p, NULL);
}

static int step_at(int dirfd, const char *name)
{
	char p[8192];

	where(dirfd, name, p, sizeof(p));
	return step_hook2(p, NULL);
}

static int step_at2(int d1, const char *n1, int d2, const char *n2)
{
	char p1[8192], p2[8192];

	where(d1, n1, p1, sizeof(p1));
	where(d2, n2, p2, sizeof(p2));
	return step_hook2(p1, p2);
}

#define STEP(check)                \
	do {                       \
		if (check)         \
			return -1; \
	} while (0)

#define FAIL_BEFORE(call)                  \
	do {                               \
		if (call_rule("crash", call)) \
			raise(SIGKILL);    \
		if (call_rule("fail", call)) { \
			errno = EIO;       \
			return -1;         \
		}                          \
	} while (0)

/* a call that succeeded (r == 0) but is to look failed */
static int fail_after(const char *call, int r)
{
	if (r == 0 && call_rule("after", call)) {
		errno = EIO;
		return -1;
	}
	return r;
}

static int openat_common(int dirfd, const char *path, int flags, mode_t mode,
			 int (*real)(int, const char *, int, ...))
{
	int fd;

	if (flags & O_PATH)
		FAIL_BEFORE("openat_path");
	if ((flags & (O_CREAT | O_TRUNC)) && !(flags & O_PATH))
		STEP(step_at(dirfd, path));
	fd = real(dirfd, path, flags, mode);
	if (fd >= 0 && (flags & O_PATH) && call_rule("after", "openat_path")) {
		close(fd);
		errno = EIO;
		return -1;
	}
	return fd;
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return openat_common(dirfd, path, flags, mode, REAL(openat));
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return openat_common(dirfd, path, flags, mode, REAL(openat64));
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	if (flags & AT_EMPTY_PATH)
		FAIL_BEFORE("fstatat_empty");
	return REAL(fstatat)(dirfd, path, st, flags);
}

int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	if (flags & AT_EMPTY_PATH)
		FAIL_BEFORE("fstatat_empty");
	return REAL(fstatat64)(dirfd, path, st, flags);
}

int mkdirat(int dirfd, const char *path, mode_t mode)
{
	FAIL_BEFORE("mkdirat");
	STEP(step_at(dirfd, path));
	return fail_after("mkdirat", REAL(mkdirat)(dirfd, path, mode));
}

int mknodat(int dirfd, const char *path, mode_t mode, dev_t dev)
{
	FAIL_BEFORE("mknodat");
	STEP(step_at(dirfd, path));
	return fail_after("mknodat", REAL(mknodat)(dirfd, path, mode, dev));
}

int symlinkat(const char *target, int dirfd, const char *path)
{
	FAIL_BEFORE("symlinkat");
	STEP(step_at(dirfd, path));
	return fail_after("symlinkat", REAL(symlinkat)(target, dirfd, path));
}

int linkat(int olddir, const char *old, int newdir, const char *new, int flags)
{
	FAIL_BEFORE("linkat");
	STEP(step_at2(olddir, old, newdir, new));
	return fail_after("linkat", REAL(linkat)(olddir, old, newdir, new, flags));
}

int renameat2(int olddir, const char *old, int newdir, const char *new,
	      unsigned int flags)
{
	FAIL_BEFORE("renameat2");
	STEP(step_at2(olddir, old, newdir, new));
	return REAL(renameat2)(olddir, old, newdir, new, flags);
}

/* does an "at:OFFSET:SUBSTR" rule put a bad place in [off, off + len)? */
static int bad_place(int fd, uint64_t off, size_t len)
{
	char path[4096], line[4096];
	int hit = 0;
	FILE *f;

	if (len == 0 || preload_fd_path(fd, path, sizeof(path)) != 0)
		return 0;
	f = ctl_open();
	if (!f)
		return 0;
	while (!hit && fgets(line, sizeof(line), f)) {
		unsigned long long at;
		int n = 0;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "at:%llu:%n", &at, &n) == 1 && n > 0 &&
		    line[n] && strstr(path, line + n))
			hit = at >= off && at - off < len;
	}
	fclose(f);
	return hit;
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	if (fd_is_faulty(fd, 'r') || bad_place(fd, (uint64_t)off, len)) {
		errno = EIO;
		return -1;
	}
	return REAL(pread)(fd, buf, len, off);
}

ssize_t pread64(int fd, void *buf, size_t len, off64_t off)
{
	if (fd_is_faulty(fd, 'r') || bad_place(fd, (uint64_t)off, len)) {
		errno = EIO;
		return -1;
	}
	return REAL(pread64)(fd, buf, len, off);
}

ssize_t preadv(int fd, const struct iovec *iov, int cnt, off_t off)
{
	if (fd_is_faulty(fd, 'r')) {
		errno = EIO;
		return -1;
	}
	return REAL(preadv)(fd, iov, cnt, off);
}

ssize_t preadv64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
	if (fd_is_faulty(fd, 'r')) {
		errno = EIO;
		return -1;
	}
	return REAL(preadv64)(fd, iov, cnt, off);
}

ssize_t preadv2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	if (fd_is_faulty(fd, 'r')) {
		errno = EIO;
		return -1;
	}
	return REAL(preadv2)(fd, iov, cnt, off, flags);
}

/* writes: only those reaching past byte 32 can fail */
static size_t iov_len_sum(const struct iovec *iov, int cnt)
{
	size_t n = 0;

	for (int i = 0; i < cnt; i++)
		n += iov[i].iov_len;
	return n;
}

#define WRITE_FAULT(fd, len, off)                                            \
	do {                                                                 \
		if ((uint64_t)(off) + (len) > 32 && fd_is_faulty(fd, 'w')) { \
			errno = EIO;                                         \
			return -1;                                           \
		}                                                            \
		STEP(step_fd(fd));                                           \
	} while (0)

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	WRITE_FAULT(fd, len, off);
	return REAL(pwrite)(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off64_t off)
{
	WRITE_FAULT(fd, len, off);
	return REAL(pwrite64)(fd, buf, len, off);
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
	WRITE_FAULT(fd, iov_len_sum(iov, cnt), off);
	return REAL(pwritev)(fd, iov, cnt, off);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
	WRITE_FAULT(fd, iov_len_sum(iov, cnt), off);
	return REAL(pwritev64)(fd, iov, cnt, off);
}

ssize_t pwritev2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	WRITE_FAULT(fd, iov_len_sum(iov, cnt), off);
	return REAL(pwritev2)(fd, iov, cnt, off, flags);
}

/* the other calls that change the backing store: counted as steps */
ssize_t write(int fd, const void *buf, size_t len)
{
	STEP(step_fd(fd));
	return REAL(write)(fd, buf, len);
}

int ftruncate(int fd, off_t len)
{
	STEP(step_fd(fd));
	return REAL(ftruncate)(fd, len);
}

int ftruncate64(int fd, off64_t len)
{
	STEP(step_fd(fd));
	return REAL(ftruncate64)(fd, len);
}

int fallocate(int fd, int mode, off_t off, off_t len)
{
	STEP(step_fd(fd));
	return REAL(fallocate)(fd, mode, off, len);
}

int fallocate64(int fd, int mode, off64_t off, off64_t len)
{
	STEP(step_fd(fd));
	return REAL(fallocate64)(fd, mode, off, len);
}

int renameat(int olddir, const char *old, int newdir, const char *new)
{
	STEP(step_at2(olddir, old, newdir, new));
	return REAL(renameat)(olddir, old, newdir, new);
}

int unlinkat(int dirfd, const char *path, int flags)
{
	STEP(step_at(dirfd, path));
	return REAL(unlinkat)(dirfd, path, flags);
}

int setxattr(const char *path, const char *name, const void *val, size_t len,
	     int flags)
{
	STEP(step_at(AT_FDCWD, path));
	return REAL(setxattr)(path, name, val, len, flags);
}

int fsetxattr(int fd, const char *name, const void *val, size_t len, int flags)
{
	STEP(step_fd(fd));
	return REAL(fsetxattr)(fd, name, val, len, flags);
}

int removexattr(const char *path, const char *name)
{
	STEP(step_at(AT_FDCWD, path));
	return REAL(removexattr)(path, name);
}

/* ---- the path forms, as the tools call them -------------------------------- */

static int open_common(const char *path, int flags, mode_t mode,
		       int (*real)(const char *, int, ...))
{
	if ((flags & (O_CREAT | O_TRUNC)) && !(flags & O_PATH))
		STEP(step_at(AT_FDCWD, path));
	return real(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return open_common(path, flags, mode, REAL(open));
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return open_common(path, flags, mode, REAL(open64));
}

int creat(const char *path, mode_t mode)
{
	STEP(step_at(AT_FDCWD, path));
	return REAL(creat)(path, mode);
}

int rename(const char *old, const char *new)
{
	STEP(step_at2(AT_FDCWD, old, AT_FDCWD, new));
	return REAL(rename)(old, new);
}

int unlink(const char *path)
{
	STEP(step_at(AT_FDCWD, path));
	return REAL(unlink)(path);
}

int rmdir(const char *path)
{
	STEP(step_at(AT_FDCWD, path));
	return REAL(rmdir)(path);
}

int mkdir(const char *path, mode_t mode)
{
	STEP(step_at(AT_FDCWD, path));
	return REAL(mkdir)(path, mode);
}

int symlink(const char *target, const char *path)
{
	STEP(step_at(AT_FDCWD, path));
	return REAL(symlink)(target, path);
}

int link(const char *old, const char *new)
{
	STEP(step_at2(AT_FDCWD, old, AT_FDCWD, new));
	return REAL(link)(old, new);
}

int lsetxattr(const char *path, const char *name, const void *val, size_t len,
	      int flags)
{
	STEP(step_at(AT_FDCWD, path));
	return REAL(lsetxattr)(path, name, val, len, flags);
}

int lremovexattr(const char *path, const char *name)
{
	STEP(step_at(AT_FDCWD, path));
	return REAL(lremovexattr)(path, name);
}

int fremovexattr(int fd, const char *name)
{
	STEP(step_fd(fd));
	return REAL(fremovexattr)(fd, name);
}
