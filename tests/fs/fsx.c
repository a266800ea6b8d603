/* SPDX-License-Identifier: MIT */
/*
 * fsx-style differential test: the same random operations on files in a
 * directory of a cloakfs mount and in a plain directory, comparing every
 * read, size and mapping, and the whole files every so often.
 *
 *   fs_fsx [--seed N] [--ops N] [--files N] [--maxsize BYTES] [--verbose]
 *          TESTDIR REFDIR
 *
 * Offsets and lengths cluster around 16-, 512- and 4096-byte boundaries
 * (cipher block, smallest sector, default sector), where the tail rules
 * of docs/format.md section 6 change. The run is a pure function of the
 * seed: a failure prints the seed and the last operations, so
 * "--seed N --ops M" replays it. Exit 0 when all agreed, 1 on a
 * difference, 2 on usage or setup errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILES 8
#define HISTORY 32
#define SUBDIRS 2

struct side {
	const char *root;
	int fd[MAX_FILES];
};

struct fsx {
	struct side test, ref;
	uint64_t rng;
	unsigned long op, nops;
	int nfiles;
	uint64_t maxsize;
	int verbose;
	/* where file i lives now: subdirectory and generation of its name */
	int dir[MAX_FILES];
	unsigned int gen[MAX_FILES];
	char history[HISTORY][160];
	uint8_t *buf, *tbuf, *rbuf;
	unsigned long counts[16];
};

enum op {
	OP_WRITE, OP_READ, OP_TRUNCATE, OP_APPEND, OP_FSYNC, OP_REOPEN,
	OP_MAPREAD, OP_MAPWRITE, OP_RENAME, OP_STAT, OP_FALLOCATE,
	OP_DIRECTREAD, OP_LINK, OP_UNLINK, OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	"write", "read", "truncate", "append", "fsync", "reopen", "mapread",
	"mapwrite", "rename", "stat", "fallocate", "directread", "link",
	"unlink",
};

/* weights, out of their sum */
static const unsigned int op_weight[OP_COUNT] = {
	30, 24, 8, 6, 2, 3, 5, 5, 2, 10, 2, 3, 2, 1,
};

static uint64_t next_rand(struct fsx *f)
{
	/* xorshift64*: fast, and the same sequence on every machine */
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return f->rng * 0x2545F4914F6CDD1Dull;
}

static uint64_t below(struct fsx *f, uint64_t n)
{
	return n ? next_rand(f) % n : 0;
}

static void note(struct fsx *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct fsx *f, const char *fmt, ...)
{
	char *slot = f->history[f->op % HISTORY];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(slot, sizeof(f->history[0]), fmt, ap);
	va_end(ap);
	if (f->verbose)
		fprintf(stderr, "%lu %s\n", f->op, slot);
}

static void die(struct fsx *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

static void die(struct fsx *f, const char *fmt, ...)
{
	va_list ap;
	unsigned long first = f->op >= HISTORY ? f->op - HISTORY + 1 : 0;

	fprintf(stderr, "fsx: FAILED at operation %lu: ", f->op);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nlast operations:\n");
	for (unsigned long i = first; i <= f->op; i++)
		fprintf(stderr, "  %lu %s\n", i, f->history[i % HISTORY]);
	exit(1);
}

/* a position near a 16-, 512- or 4096-byte boundary, or anywhere */
static uint64_t clustered(struct fsx *f, uint64_t limit)
{
	static const uint64_t unit[] = { 16, 512, 4096, 8192 };
	uint64_t u, base, d;

	if (limit == 0)
		return 0;
	if (below(f, 8) == 0)
		return below(f, limit);
	u = unit[below(f, 4)];
	base = below(f, limit / u + 1) * u;
	switch (below(f, 4)) {
	case 0:
		d = 0;
		break;
	case 1:
		d = below(f, 17); /* just past */
		base += d;
		break;
	case 2:
		d = below(f, 17); /* just before */
		base = base > d ? base - d : 0;
		break;
	default:
		base += below(f, u);
	}
	return base < limit ? base : limit;
}

static uint64_t clustered_len(struct fsx *f, uint64_t max)
{
	static const uint64_t sizes[] = { 1, 15, 16, 17, 31, 32, 33, 511, 512,
					  513, 4095, 4096, 4097, 4111, 4112,
					  8192, 8208 };

	switch (below(f, 3)) {
	case 0:
		return 1 + below(f, max < 64 ? max : 64);
	case 1: {
		uint64_t v = sizes[below(f, sizeof(sizes) / sizeof(sizes[0]))];

		return v < max ? v : max;
	}
	default:
		return 1 + below(f, max);
	}
}

static void path_of(struct fsx *f, const struct side *s, int i, char *out,
		    size_t len)
{
	snprintf(out, len, "%s/d%d/file%d.%u", s->root, f->dir[i], i, f->gen[i]);
}

static int open_side(struct fsx *f, struct side *s, int i, int flags)
{
	char path[4200];
	int fd;

	path_of(f, s, i, path, sizeof(path));
	fd = open(path, flags | O_CLOEXEC, 0644);
	if (fd < 0)
		die(f, "open %s: %s", path, strerror(errno));
	return fd;
}

static uint64_t size_of(struct fsx *f, int fd, const char *what)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		die(f, "fstat %s: %s", what, strerror(errno));
	return (uint64_t)st.st_size;
}

static void fill(struct fsx *f, uint8_t *p, size_t n)
{
	/* a mix of random bytes, runs of zeros and runs of one byte */
	size_t i = 0;

	while (i < n) {
		size_t run = 1 + below(f, 300);
		unsigned int kind = (unsigned int)below(f, 4);
		uint8_t v = (uint8_t)below(f, 256);

		if (run > n - i)
			run = n - i;
		for (size_t j = 0; j < run; j++)
			p[i + j] = kind == 0 ? 0 : kind == 1 ? v
							     : (uint8_t)next_rand(f);
		i += run;
	}
}

static void pwrite_all(struct fsx *f, int fd, const void *p, size_t n,
		       uint64_t off, const char *what)
{
	ssize_t w = pwrite(fd, p, n, (off_t)off);

	if (w != (ssize_t)n)
		die(f, "pwrite %s %zu@%" PRIu64 ": %s", what, n, off,
		    w < 0 ? strerror(errno) : "short");
}

static size_t pread_all(struct fsx *f, int fd, void *p, size_t n, uint64_t off,
			const char *what)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, (uint8_t *)p + got, n - got,
				  (off_t)(off + got));

		if (r < 0)
			die(f, "pread %s %zu@%" PRIu64 ": %s", what, n, off,
			    strerror(errno));
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return got;
}

static void compare(struct fsx *f, const uint8_t *t, const uint8_t *r,
		    size_t n, uint64_t off, const char *what)
{
	if (memcmp(t, r, n) == 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (t[i] != r[i])
			die(f, "%s: byte %" PRIu64 " is %02x, expected %02x",
			    what, off + i, t[i], r[i]);
}

static void check_sizes(struct fsx *f, int i)
{
	uint64_t ts = size_of(f, f->test.fd[i], "test"),
		 rs = size_of(f, f->ref.fd[i], "ref");

	if (ts != rs)
		die(f, "file %d: size %" PRIu64 ", expected %" PRIu64, i, ts, rs);
}

static void check_range(struct fsx *f, int i, uint64_t off, size_t len)
{
	size_t tn = pread_all(f, f->test.fd[i], f->tbuf, len, off, "test");
	size_t rn = pread_all(f, f->ref.fd[i], f->rbuf, len, off, "ref");

	if (tn != rn)
		die(f, "file %d: read %zu@%" PRIu64 " gave %zu bytes, expected %zu",
		    i, len, off, tn, rn);
	compare(f, f->tbuf, f->rbuf, tn, off, "read");
}

static void check_file(struct fsx *f, int i)
{
	uint64_t size, off;

	check_sizes(f, i);
	size = size_of(f, f->ref.fd[i], "ref");
	for (off = 0; off < size; off += f->maxsize) {
		size_t n = size - off < f->maxsize ? (size_t)(size - off)
						   : (size_t)f->maxsize;

		check_range(f, i, off, n);
	}
}

static void op_stat(struct fsx *f, int i);

static void op_write(struct fsx *f, int i)
{
	uint64_t off = clustered(f, f->maxsize - 1);
	size_t len = (size_t)clustered_len(f, f->maxsize - off);

	note(f, "write file%d %zu@%" PRIu64, i, len, off);
	fill(f, f->buf, len);
	pwrite_all(f, f->test.fd[i], f->buf, len, off, "test");
	pwrite_all(f, f->ref.fd[i], f->buf, len, off, "ref");
}

static void op_read(struct fsx *f, int i)
{
	uint64_t size = size_of(f, f->ref.fd[i], "ref");
	uint64_t off = clustered(f, size + 100);
	size_t len = (size_t)clustered_len(f, f->maxsize);

	note(f, "read file%d %zu@%" PRIu64 " (size %" PRIu64 ")", i, len, off,
	     size);
	check_range(f, i, off, len);
}

static void op_truncate(struct fsx *f, int i)
{
	uint64_t size = below(f, 6) == 0 ? 0 : clustered(f, f->maxsize);

	note(f, "truncate file%d to %" PRIu64, i, size);
	if (ftruncate(f->test.fd[i], (off_t)size) != 0)
		die(f, "ftruncate test: %s", strerror(errno));
	if (ftruncate(f->ref.fd[i], (off_t)size) != 0)
		die(f, "ftruncate ref: %s", strerror(errno));
}

static void op_append(struct fsx *f, int i)
{
	uint64_t size = size_of(f, f->ref.fd[i], "ref");
	size_t len;
	int tfd, rfd;

	if (size >= f->maxsize - 1) {
		op_truncate(f, i);
		return;
	}
	len = (size_t)clustered_len(f, f->maxsize - size);
	note(f, "append file%d %zu at %" PRIu64, i, len, size);
	fill(f, f->buf, len);
	tfd = open_side(f, &f->test, i, O_WRONLY | O_APPEND);
	rfd = open_side(f, &f->ref, i, O_WRONLY | O_APPEND);
	if (write(tfd, f->buf, len) != (ssize_t)len)
		die(f, "append test: %s", strerror(errno));
	if (write(rfd, f->buf, len) != (ssize_t)len)
		die(f, "append ref: %s", strerror(errno));
	close(tfd);
	close(rfd);
}

static void op_fsync(struct fsx *f, int i)
{
	note(f, "fsync file%d", i);
	if ((below(f, 2) ? fdatasync(f->test.fd[i]) : fsync(f->test.fd[i])) != 0)
		die(f, "fsync test: %s", strerror(errno));
}

static void op_reopen(struct fsx *f, int i)
{
	note(f, "reopen file%d (and drop its cached pages)", i);
	/* push the next reads through the filesystem, not the page cache */
	(void)posix_fadvise(f->test.fd[i], 0, 0, POSIX_FADV_DONTNEED);
	close(f->test.fd[i]);
	close(f->ref.fd[i]);
	f->test.fd[i] = open_side(f, &f->test, i, O_RDWR);
	f->ref.fd[i] = open_side(f, &f->ref, i, O_RDWR);
	check_sizes(f, i);
}

static void op_mapread(struct fsx *f, int i)
{
	uint64_t size = size_of(f, f->ref.fd[i], "ref"), off, len;
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *tm, *rm;

	if (size == 0) {
		op_stat(f, i);
		return;
	}
	off = clustered(f, size - 1);
	len = clustered_len(f, size - off);
	note(f, "mapread file%d %" PRIu64 "@%" PRIu64, i, len, off);
	{
		uint64_t moff = off / (uint64_t)page * (uint64_t)page;
		size_t mlen = (size_t)(off - moff + len);

		tm = mmap(NULL, mlen, PROT_READ, MAP_SHARED, f->test.fd[i],
			  (off_t)moff);
		rm = mmap(NULL, mlen, PROT_READ, MAP_SHARED, f->ref.fd[i],
			  (off_t)moff);
		if (tm == MAP_FAILED || rm == MAP_FAILED)
			die(f, "mmap: %s", strerror(errno));
		compare(f, tm + (off - moff), rm + (off - moff), (size_t)len, off,
			"mapread");
		munmap(tm, mlen);
		munmap(rm, mlen);
	}
}

static void op_mapwrite(struct fsx *f, int i)
{
	uint64_t size = size_of(f, f->ref.fd[i], "ref"), off, len, moff;
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *tm, *rm;
	size_t mlen;

	if (size == 0) {
		op_write(f, i);
		return;
	}
	off = clustered(f, size - 1);
	len = clustered_len(f, size - off);
	note(f, "mapwrite file%d %" PRIu64 "@%" PRIu64, i, len, off);
	moff = off / (uint64_t)page * (uint64_t)page;
	mlen = (size_t)(off - moff + len);
	fill(f, f->buf, (size_t)len);
	tm = mmap(NULL, mlen, PROT_READ | PROT_WRITE, MAP_SHARED, f->test.fd[i],
		  (off_t)moff);
	rm = mmap(NULL, mlen, PROT_READ | PROT_WRITE, MAP_SHARED, f->ref.fd[i],
		  (off_t)moff);
	if (tm == MAP_FAILED || rm == MAP_FAILED)
		die(f, "mmap rw: %s", strerror(errno));
	memcpy(tm + (off - moff), f->buf, (size_t)len);
	memcpy(rm + (off - moff), f->buf, (size_t)len);
	if (below(f, 2) && msync(tm, mlen, MS_SYNC) != 0)
		die(f, "msync: %s", strerror(errno));
	munmap(tm, mlen);
	munmap(rm, mlen);
}

static void op_rename(struct fsx *f, int i)
{
	char tfrom[4200], tto[4200], rfrom[4200], rto[4200];

	path_of(f, &f->test, i, tfrom, sizeof(tfrom));
	path_of(f, &f->ref, i, rfrom, sizeof(rfrom));
	f->dir[i] = (int)below(f, SUBDIRS);
	f->gen[i]++;
	path_of(f, &f->test, i, tto, sizeof(tto));
	path_of(f, &f->ref, i, rto, sizeof(rto));
	note(f, "rename file%d to d%d (open descriptors stay)", i, f->dir[i]);
	if (rename(tfrom, tto) != 0)
		die(f, "rename %s: %s", tfrom, strerror(errno));
	if (rename(rfrom, rto) != 0)
		die(f, "rename %s: %s", rfrom, strerror(errno));
}

/* file i takes a new name in a random subdirectory: a hard link made,
 * then the old name removed (the inode and open descriptors stay) */
static void op_link(struct fsx *f, int i)
{
	char tfrom[4200], tto[4200], rfrom[4200], rto[4200];

	path_of(f, &f->test, i, tfrom, sizeof(tfrom));
	path_of(f, &f->ref, i, rfrom, sizeof(rfrom));
	f->dir[i] = (int)below(f, SUBDIRS);
	f->gen[i]++;
	path_of(f, &f->test, i, tto, sizeof(tto));
	path_of(f, &f->ref, i, rto, sizeof(rto));
	note(f, "link file%d into d%d, unlink the old name", i, f->dir[i]);
	if (link(tfrom, tto) != 0 || link(rfrom, rto) != 0)
		die(f, "link %s: %s", tfrom, strerror(errno));
	check_sizes(f, i);
	if (unlink(tfrom) != 0 || unlink(rfrom) != 0)
		die(f, "unlink %s: %s", tfrom, strerror(errno));
}

static void op_write(struct fsx *f, int i);
static void op_read(struct fsx *f, int i);

/*
 * Unlink file i while it is open, use the open-unlinked file (write,
 * read, fstat), then carry its content over to a new file under a new
 * name, which file i is from then on.
 */
static void op_unlink(struct fsx *f, int i)
{
	struct side *sides[2] = { &f->test, &f->ref };
	char path[4200];
	uint64_t size;

	note(f, "unlink file%d (it stays open)", i);
	for (int s = 0; s < 2; s++) {
		path_of(f, sides[s], i, path, sizeof(path));
		if (unlink(path) != 0)
			die(f, "unlink %s: %s", path, strerror(errno));
	}
	op_write(f, i);
	op_read(f, i);
	check_sizes(f, i);
	size = size_of(f, f->ref.fd[i], "ref");
	f->gen[i]++;
	for (int s = 0; s < 2; s++) {
		int nfd = open_side(f, sides[s], i, O_RDWR | O_CREAT | O_EXCL);

		for (uint64_t off = 0; off < size; off += f->maxsize) {
			size_t want = size - off < f->maxsize ? (size_t)(size - off)
							       : (size_t)f->maxsize;
			size_t n = pread_all(f, sides[s]->fd[i], f->tbuf, want,
					     off, "unlinked");

			if (n != want)
				die(f, "open-unlinked file%d: read %zu of %zu "
				    "bytes at %" PRIu64, i, n, want, off);
			pwrite_all(f, nfd, f->tbuf, n, off, "copy");
		}
		close(sides[s]->fd[i]);
		sides[s]->fd[i] = nfd;
	}
	check_file(f, i);
}

static void op_stat(struct fsx *f, int i)
{
	note(f, "stat file%d", i);
	check_sizes(f, i);
}

/*
 * Mode 0, KEEP_SIZE, PUNCH_HOLE|KEEP_SIZE or ZERO_RANGE (with or without
 * KEEP_SIZE). The reference zeroes by writing zeros, since its store
 * need not know ZERO_RANGE (tmpfs does not).
 */
static void op_fallocate(struct fsx *f, int i)
{
	static const int modes[] = {
		0, FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		FALLOC_FL_ZERO_RANGE, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE,
	};
	static const char *const names[] = {
		"", " keep-size", " punch", " zero", " zero keep-size",
	};
	uint64_t off = clustered(f, f->maxsize - 1);
	uint64_t len = clustered_len(f, f->maxsize - off);
	int k = (int)below(f, sizeof(modes) / sizeof(modes[0]));
	int mode = modes[k];
	uint64_t size = size_of(f, f->ref.fd[i], "ref"), end = off + len;

	note(f, "fallocate%s file%d %" PRIu64 "@%" PRIu64, names[k], i, len,
	     off);
	if (fallocate(f->test.fd[i], mode, (off_t)off, (off_t)len) != 0)
		die(f, "fallocate test: %s", strerror(errno));
	if (!(mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE))) {
		if (fallocate(f->ref.fd[i], mode, (off_t)off, (off_t)len) != 0)
			die(f, "fallocate ref: %s", strerror(errno));
		return;
	}
	if ((mode & FALLOC_FL_KEEP_SIZE) && end > size)
		end = size;
	if (off < end) {
		memset(f->rbuf, 0, (size_t)(end - off));
		pwrite_all(f, f->ref.fd[i], f->rbuf, (size_t)(end - off), off,
			   "ref zeros");
	}
}

static void op_directread(struct fsx *f, int i)
{
	uint64_t size = size_of(f, f->ref.fd[i], "ref");
	uint64_t off = clustered(f, size + 100);
	size_t len = (size_t)clustered_len(f, f->maxsize), tn, rn;
	int fd;

	note(f, "directread file%d %zu@%" PRIu64, i, len, off);
	fd = open_side(f, &f->test, i, O_RDONLY | O_DIRECT);
	tn = pread_all(f, fd, f->tbuf, len, off, "test O_DIRECT");
	close(fd);
	rn = pread_all(f, f->ref.fd[i], f->rbuf, len, off, "ref");
	if (tn != rn)
		die(f, "O_DIRECT read %zu@%" PRIu64 " gave %zu bytes, expected %zu",
		    len, off, tn, rn);
	compare(f, f->tbuf, f->rbuf, tn, off, "O_DIRECT read");
}

static void run_op(struct fsx *f)
{
	unsigned int total = 0, r, k;
	int i = (int)below(f, (uint64_t)f->nfiles);

	for (k = 0; k < OP_COUNT; k++)
		total += op_weight[k];
	r = (unsigned int)below(f, total);
	for (k = 0; r >= op_weight[k]; k++)
		r -= op_weight[k];
	f->counts[k]++;
	switch ((enum op)k) {
	case OP_WRITE: op_write(f, i); break;
	case OP_READ: op_read(f, i); break;
	case OP_TRUNCATE: op_truncate(f, i); break;
	case OP_APPEND: op_append(f, i); break;
	case OP_FSYNC: op_fsync(f, i); break;
	case OP_REOPEN: op_reopen(f, i); break;
	case OP_MAPREAD: op_mapread(f, i); break;
	case OP_MAPWRITE: op_mapwrite(f, i); break;
	case OP_RENAME: op_rename(f, i); break;
	case OP_STAT: op_stat(f, i); break;
	case OP_FALLOCATE: op_fallocate(f, i); break;
	case OP_DIRECTREAD: op_directread(f, i); break;
	case OP_LINK: op_link(f, i); break;
	case OP_UNLINK: op_unlink(f, i); break;
	case OP_COUNT: break;
	}
}

static void setup_side(struct fsx *f, struct side *s)
{
	char path[4200];

	for (int d = 0; d < SUBDIRS; d++) {
		snprintf(path, sizeof(path), "%s/d%d", s->root, d);
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			fprintf(stderr, "fsx: mkdir %s: %s\n", path, strerror(errno));
			exit(2);
		}
	}
	for (int i = 0; i < f->nfiles; i++)
		s->fd[i] = open_side(f, s, i, O_RDWR | O_CREAT | O_TRUNC);
}

static unsigned long parse_num(const char *s, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "fsx: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct fsx f;
	unsigned long seed = 1;
	struct timespec t0, t1;
	int a = 1;

	memset(&f, 0, sizeof(f));
	f.nops = 10000;
	f.nfiles = 3;
	f.maxsize = 256 * 1024;
	for (; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "--seed") && a + 1 < argc)
			seed = parse_num(argv[++a], "seed");
		else if (!strcmp(argv[a], "--ops") && a + 1 < argc)
			f.nops = parse_num(argv[++a], "op count");
		else if (!strcmp(argv[a], "--files") && a + 1 < argc)
			f.nfiles = (int)parse_num(argv[++a], "file count");
		else if (!strcmp(argv[a], "--maxsize") && a + 1 < argc)
			f.maxsize = parse_num(argv[++a], "size");
		else if (!strcmp(argv[a], "--verbose"))
			f.verbose = 1;
		else
			break;
	}
	if (argc - a != 2 || f.nfiles < 1 || f.nfiles > MAX_FILES ||
	    f.maxsize < 4096) {
		fprintf(stderr, "usage: fs_fsx [--seed N] [--ops N] [--files 1-%d] "
			"[--maxsize BYTES>=4096] [--verbose] TESTDIR REFDIR\n",
			MAX_FILES);
		return 2;
	}
	f.test.root = argv[a];
	f.ref.root = argv[a + 1];
	f.rng = seed * 0x9E3779B97F4A7C15ull + 1;
	f.buf = malloc(f.maxsize);
	f.tbuf = malloc(f.maxsize + 4096);
	f.rbuf = malloc(f.maxsize + 4096);
	if (!f.buf || !f.tbuf || !f.rbuf)
		return 2;
	setup_side(&f, &f.test);
	setup_side(&f, &f.ref);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (f.op = 0; f.op < f.nops; f.op++) {
		run_op(&f);
		if (f.op % 1000 == 999)
			for (int i = 0; i < f.nfiles; i++)
				check_file(&f, i);
	}
	for (int i = 0; i < f.nfiles; i++) {
		check_file(&f, i);
		close(f.test.fd[i]);
		close(f.ref.fd[i]);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("fsx: seed %lu: %lu operations agreed in %.1f s (", seed, f.nops,
	       (double)(t1.tv_sec - t0.tv_sec) +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (int k = 0; k < OP_COUNT; k++)
		printf("%s%s %lu", k ? ", " : "", op_names[k], f.counts[k]);
	printf(")\n");
	free(f.buf);
	free(f.tbuf);
	free(f.rbuf);
	return 0;
}
