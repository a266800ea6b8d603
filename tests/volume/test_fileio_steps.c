/* SPDX-License-Identifier: MIT */
/*
 * fileio.h, step by step: every write, truncate and zeroing
 * (fileio_zero: a punch, a zeroed range) that changes a file's
 * ciphertext in more than one step must leave the old file or the new
 * one when a step fails or the keys go away between steps. The test is
 * linked with pread, pwrite, pwritev, ftruncate and fallocate wrapped
 * (-Wl,--wrap=...): for N = 1, 2, ... the N-th mutating call on the file
 * fails with EIO (and the calls after it succeed, as an undo needs),
 * until the operation succeeds with no fault; then the same walk locks
 * the keyring right before the N-th call of any of them (reads too). After
 * each run a fresh handle with the keys back must read the old content
 * (the call failed) or the new one (it succeeded), byte for byte, from a
 * ciphertext of the matching size. XTS volumes and authenticated ones
 * (whose "last unit" flag makes a growing or shrinking change rewrite
 * the old and the new last unit, and whose gaps are written).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include "tests/volume/voltest.h"
#include "volume/content/fileio.h"
#include "volume/keys/keyring.h"
#include "volume/keys/keys.h"

#define DATA_MAX (256 * 1024)

/* ---- the wrapped calls ---------------------------------------------------- */

enum fault { FAULT_NONE, FAULT_EIO, FAULT_LOCK };

struct hook {
	int fd;             /* the file under test; -1: no counting */
	enum fault how;
	int at;             /* the call (from 1) that fails or locks */
	int calls;          /* calls counted so far */
	int fired;
	struct keyring *kr;
};

static struct hook hook = { .fd = -1 };

/* 1 when this call is to fail; a lock happens here, before the call */
static int hook_call(int fd, int mutating)
{
	if (fd != hook.fd || hook.how == FAULT_NONE)
		return 0;
	if (hook.how == FAULT_EIO && !mutating)
		return 0;
	if (++hook.calls != hook.at)
		return 0;
	hook.fired = 1;
	if (hook.how == FAULT_LOCK) {
		keyring_lock(hook.kr);
		return 0;
	}
	errno = EIO;
	return 1;
}

/* __wrap_NAME, called instead of NAME; with _FILE_OFFSET_BITS=64 a
 * 32-bit build calls the *64 names */
#define WRAP(ret, name, mutating, params, args)                        \
	ret __real_##name params;                                      \
	ret __wrap_##name params;                                      \
	ret __wrap_##name params                                       \
	{                                                              \
		return hook_call(fd, mutating) ? -1 : __real_##name args; \
	}

WRAP(ssize_t, pread, 0, (int fd, void *b, size_t n, off_t o), (fd, b, n, o))
WRAP(ssize_t, pread64, 0, (int fd, void *b, size_t n, off_t o), (fd, b, n, o))
WRAP(ssize_t, pwrite, 1, (int fd, const void *b, size_t n, off_t o),
     (fd, b, n, o))
WRAP(ssize_t, pwrite64, 1, (int fd, const void *b, size_t n, off_t o),
     (fd, b, n, o))
WRAP(ssize_t, pwritev, 1, (int fd, const struct iovec *v, int n, off_t o),
     (fd, v, n, o))
WRAP(ssize_t, pwritev64, 1, (int fd, const struct iovec *v, int n, off_t o),
     (fd, v, n, o))
WRAP(int, ftruncate, 1, (int fd, off_t len), (fd, len))
WRAP(int, ftruncate64, 1, (int fd, off_t len), (fd, len))
WRAP(int, fallocate, 1, (int fd, int mode, off_t o, off_t len),
     (fd, mode, o, len))
WRAP(int, fallocate64, 1, (int fd, int mode, off_t o, off_t len),
     (fd, mode, o, len))

/* ---- the operations ------------------------------------------------------- */

enum op_kind {
	OP_WRITE,     /* len bytes at a */
	OP_TRUNCATE,  /* to a */
	OP_ZERO,      /* [a, a + len) zeroed, the file grown to its end */
	OP_ZERO_KEEP, /* [a, a + len) zeroed within the size (a punch) */
};

struct op {
	const char *name;
	uint64_t old_size;  /* of S: sectors; of B: blocks, plus bytes */
	enum op_kind kind;
	uint64_t a, len;
};

/* sizes in units of the sector S and the block B: s*S + b*B + n */
#define SZ(s, b, n) ((uint64_t)(s) << 40 | (uint64_t)(b) << 32 | (n))

static uint64_t size_of(uint64_t v, uint32_t sector, uint32_t bs)
{
	return (v >> 40) * sector + ((v >> 32) & 0xff) * bs + (v & 0xffffffffu);
}

static const struct op ops[] = {
	{ "shrink 10000 to 5000", 10000, 1, 5000, 0 },
	{ "shrink to a tiny file", 10000, 1, 7, 0 },
	{ "shrink to a joined tail", SZ(3, 0, 100), 1, SZ(1, 0, 3), 0 },
	{ "shrink within the last unit", SZ(2, 0, 900), 1, SZ(2, 0, 500), 0 },
	{ "grow 5000 to 20000", 5000, 1, 20000, 0 },
	{ "grow a tiny file", 7, 1, 5000, 0 },
	{ "grow an empty file", 0, 1, 5000, 0 },
	{ "grow a joined tail", SZ(1, 0, 3), 1, SZ(1, 1, 3), 0 },
	{ "overwrite across units", 10000, 0, 4000, 100 },
	{ "overwrite the tail", 10000, 0, 9990, 5 },
	{ "write past the end", 10000, 0, 9990, 3000 },
	{ "write after a gap", 5000, 0, 30000, 10 },
	{ "write into a tiny file", 7, 0, 3, 100 },
	{ "first write", 0, 0, 0, 9000 },
	{ "sparse first write", 0, 0, SZ(3, 0, 5), 10 },
	{ "write of several batches", 10000, 0, 1000, 200000 },
	/* zeroings stay below 64 KiB: a sealed file's are pieces of that */
	{ "punch across units", 10000, OP_ZERO_KEEP, 100, 9000 },
	{ "punch whole units", SZ(6, 0, 0), OP_ZERO_KEEP, SZ(1, 0, 0), 8192 },
	{ "punch to past the end", 10000, OP_ZERO_KEEP, 4000, 100000 },
	{ "punch within a tiny file", 7, OP_ZERO_KEEP, 1, 2 },
	{ "zero range growing", 10000, OP_ZERO, 100, 19900 },
	{ "zero range from a joined tail", SZ(2, 0, 3), OP_ZERO, SZ(2, 0, 1),
	  10000 },
};

static uint8_t old_data[DATA_MAX], new_data[DATA_MAX], buf[DATA_MAX],
	readback[DATA_MAX + 64];

struct ctx {
	struct keyring *kr;
	const uint8_t *vmk;
	enum volume_cipher cipher;
	uint32_t sector, bs;
	const char *path;
	char what[160];
};

static void keys_back(struct ctx *c)
{
	struct volume_keys *keys;

	if (keyring_unlocked(c->kr))
		return;
	CHECK(keys_new(c->vmk, c->cipher, &keys) == 0, "keys");
	keyring_install(c->kr, keys);
}

/* a fresh file of the op's old content: its fd */
static int make_old(struct ctx *c, uint64_t old_size)
{
	struct content_file f;
	int fd = open(c->path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0, "%s: open", c->what);
	CHECK(fileio_open(&f, fd, c->kr, c->cipher, c->sector) == 0, "%s: fileio_open",
	      c->what);
	if (old_size)
		CHECK(fileio_write(&f, old_data, old_size, 0) == (ssize_t)old_size,
		      "%s: the old content", c->what);
	fileio_close(&f);
	return fd;
}

/* the file read through a fresh handle is want (of size want_size) */
static int same(struct ctx *c, int fd, const uint8_t *want, uint64_t want_size)
{
	struct content_file f;
	struct content_geom g;
	struct stat st;
	ssize_t n;
	int ok;

	if (content_geom_of(&g, volume_cipher_info(c->cipher), c->sector) ||
	    fstat(fd, &st) != 0 ||
	    (uint64_t)st.st_size != content_cipher_size(&g, want_size))
		return 0;
	if (fileio_open(&f, fd, c->kr, c->cipher, c->sector) != 0)
		return 0;
	n = fileio_read(&f, readback, sizeof(readback), 0);
	ok = n == (ssize_t)want_size && memcmp(readback, want, want_size) == 0;
	fileio_close(&f);
	return ok;
}

/* one run of op with the fault at call `at`: 1 when it succeeded */
static int run_once(struct ctx *c, const struct op *o, uint64_t old_size,
		    uint64_t a, uint64_t len, uint64_t new_size,
		    enum fault how, int at, int *fired)
{
	struct content_file f;
	int fd = make_old(c, old_size), ok_old, ok_new;
	long r;

	CHECK(fileio_open(&f, fd, c->kr, c->cipher, c->sector) == 0, "%s: open",
	      c->what);
	hook = (struct hook){ fd, how, at, 0, 0, c->kr };
	if (o->kind == OP_TRUNCATE)
		r = fileio_truncate(&f, a);
	else if (o->kind == OP_WRITE)
		r = fileio_write(&f, buf, len, a);
	else
		r = fileio_zero(&f, a, len, o->kind == OP_ZERO_KEEP);
	*fired = hook.fired;
	hook.fd = -1;
	fileio_close(&f);
	keys_back(c);
	ok_old = same(c, fd, old_data, old_size);
	ok_new = same(c, fd, new_data, new_size);
	if (r >= 0 && o->kind == OP_WRITE)
		CHECK(r == (long)len, "%s: wrote %ld of %llu", c->what, r,
		      (unsigned long long)len);
	if (r < 0) {
		CHECK(r == (how == FAULT_EIO ? -EIO : -EACCES),
		      "%s: fault at call %d: error %ld", c->what, at, r);
		CHECK(ok_old, "%s: failed at call %d (%s), the file is not the old one%s",
		      c->what, at, strerror((int)-r),
		      ok_new ? " (it is the new one)" : " nor the new one");
	} else {
		CHECK(ok_new, "%s: succeeded with the fault at call %d, the file is not the new one",
		      c->what, at);
		CHECK(how != FAULT_EIO || !*fired,
		      "%s: EIO at call %d was not reported", c->what, at);
	}
	close(fd);
	return r >= 0;
}

static void walk(struct ctx *c, const struct op *o, enum fault how)
{
	uint64_t old_size = size_of(o->old_size, c->sector, c->bs);
	uint64_t a = size_of(o->a, c->sector, c->bs), len = o->len, new_size;
	int at, fired = 0;
	unsigned long failures = (unsigned long)test_failures;

	if (o->kind == OP_TRUNCATE)
		new_size = a;
	else if (o->kind == OP_ZERO_KEEP)
		new_size = old_size;
	else
		new_size = a + len > old_size ? a + len : old_size;
	if (old_size > DATA_MAX || new_size > DATA_MAX)
		return;
	test_random_bytes(old_data, old_size);
	memcpy(new_data, old_data, old_size);
	if (new_size > old_size)
		memset(new_data + old_size, 0, new_size - old_size);
	if (o->kind == OP_WRITE) {
		test_random_bytes(buf, len);
		memcpy(new_data + a, buf, len);
	} else if (o->kind != OP_TRUNCATE && a < new_size) {
		memset(new_data + a, 0,
		       (size_t)(a + len < new_size ? len : new_size - a));
	}
	for (at = 1; at < 64; at++) {
		snprintf(c->what, sizeof(c->what), "%s S=%u bs=%u: %s, %s at call %d",
			 volume_cipher_info(c->cipher)->name, c->sector, c->bs,
			 o->name, how == FAULT_EIO ? "EIO" : "lock", at);
		if (run_once(c, o, old_size, a, len, new_size, how, at, &fired) &&
		    !fired)
			break;
		if ((unsigned long)test_failures > failures + 3)
			return; /* enough said about this one */
	}
	CHECK(at < 64, "%s: never succeeded", c->what);
	CHECK(at > 1, "%s: no call to fault", c->what);
}

/*
 * A write longer than fileio.c's piece (4 MiB) goes in pieces: whole, it
 * reads back; with the first write of its second piece failing, it gives
 * the bytes of the first piece, which the file then holds, and the rest
 * of the file is as it was.
 */
static void pieces(struct ctx *c)
{
	const size_t piece = 4u << 20, len = 2 * piece + 100, off = 1000;
	uint8_t *w = malloc(len), *back = malloc(off + len + 64);
	struct content_file f;
	int fd;
	ssize_t n;

	CHECK(w && back, "memory");
	if (!w || !back)
		goto out;
	test_random_bytes(w, len);
	test_random_bytes(old_data, 10000);
	snprintf(c->what, sizeof(c->what), "pieces S=%u", c->sector);
	for (int fault = 0; fault < 2; fault++) {
		fd = make_old(c, 10000);
		CHECK(fileio_open(&f, fd, c->kr, c->cipher, c->sector) == 0, "open");
		/* a piece is one write of its units (no header, no truncate) */
		hook = (struct hook){ fd, fault ? FAULT_EIO : FAULT_NONE, 2, 0, 0,
				      c->kr };
		n = fileio_write(&f, w, len, off);
		hook.fd = -1;
		CHECK(n == (ssize_t)(fault ? piece - off : len),
		      "%s: fault %d: wrote %zd", c->what, fault, n);
		CHECK(fileio_read(&f, back, off + len + 64, 0) ==
			      (ssize_t)(off + (size_t)(n > 0 ? n : 0) >= 10000
						? off + (size_t)n : 10000) &&
			      memcmp(back, old_data, off) == 0 &&
			      memcmp(back + off, w, (size_t)(n > 0 ? n : 0)) == 0,
		      "%s: fault %d: content", c->what, fault);
		fileio_close(&f);
		close(fd);
	}
out:
	free(w);
	free(back);
}

int main(void)
{
	static const enum volume_cipher ciphers[] = {
		VOLUME_CIPHER_SPECK128_XTS, VOLUME_CIPHER_SPECK64_XTS,
		VOLUME_CIPHER_AES256_GCM, VOLUME_CIPHER_XCHACHA20_POLY1305,
	};
	static const uint32_t sectors[] = { 512, 4096 };
	char *dir = voltest_tmpdir("fileio-steps");
	char path[4200];
	int tested = 0;

	test_seed();
	snprintf(path, sizeof(path), "%s/file", dir);
	for (size_t i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++) {
		const struct volume_cipher_info *ci = volume_cipher_info(ciphers[i]);
		struct crypto_tfm *probe =
			voltest_alloc(volume_cipher_contents_alg(ci));
		/* a sealed file has no padding: its sizes as for a block of 1 */
		struct ctx c = { .cipher = ciphers[i],
				 .bs = ci->aead_alg ? 1 : (uint32_t)ci->blocksize,
				 .path = path };
		uint8_t vmk[64];

		if (!probe)
			continue;
		crypto_free(probe);
		test_random_bytes(vmk, sizeof(vmk));
		c.vmk = vmk;
		CHECK(keyring_new(ciphers[i], &c.kr) == 0, "keyring");
		keys_back(&c);
		for (size_t s = 0; s < 2; s++) {
			c.sector = sectors[s];
			for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
				walk(&c, &ops[k], FAULT_EIO);
				walk(&c, &ops[k], FAULT_LOCK);
			}
			if (i == 0 || ci->aead_alg)
				pieces(&c);
		}
		keyring_free(c.kr);
		tested++;
	}
	return voltest_done(dir, tested, "test_fileio_steps");
}
