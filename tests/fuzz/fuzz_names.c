/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the name codec (volume/names/vname.c, volume/base64.c) on
 * what a ciphertext directory can hold. Input: one selector byte (bits
 * 0-1 the volume cipher, bits 2-4 what to do), then the bytes:
 *   0, 5-7  an encrypted name (vname_decrypt)
 *   1       an encrypted symlink target (vname_symlink_decrypt)
 *   2       a directory entry name (vname_classify, vname_sidecar_name)
 *   3       a long-name sidecar's content, read back through
 *           vname_read_sidecar from a file in a private temp directory
 *           under the name its hash gives (bit 5 clear) or under a
 *           fixed wrong long name (bit 5 set)
 *   3 with bit 6 set: the sidecar is a FIFO (refused at once, unread)
 *   4       base64 of both variants (base64_decode)
 *   5       a directory nonce (dirnonce_load): the first byte k
 *           splits the rest into .cloakfs.dir's bytes [0, k) and its
 *           copy's (the user.cloakfs.dir attribute, when not empty);
 *           bits 5-6 put a regular file, a FIFO, a symlink or a
 *           directory at .cloakfs.dir
 * CLOAKFS_FUZZ_WRITE_SEEDS=DIR makes it write its seed corpus (real
 * encodings under its own key) into DIR and exit (make-corpus.sh).
 *
 * Checked beyond "no crash": whatever decodes encodes back to the same
 * characters (one encoding per name: two entries never show as one
 * name), classification agrees with the sidecar naming, a sidecar read
 * back is the content written, and rewriting it is refused unless equal.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "crypto/crypto.h"
#include "volume/base64.h"
#include "volume/cipher.h"
#include "volume/names/dirnonce.h"
#include "volume/fdio.h"
#include "volume/keys/keys.h"
#include "volume/names/vname.h"

#define FUZZ_MAX_INPUT 8192

static struct crypto_tfm *cts[VOLUME_CIPHER_COUNT];
static char tmpdir[256];
static int dirfd_ = -1;

static void fuzz_fail(const char *what) __attribute__((noreturn));

static void fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz_names: invariant broken: %s\n", what);
	abort();
}

static void remove_tmpdir(void)
{
	if (dirfd_ >= 0)
		close(dirfd_);
	rmdir(tmpdir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* one seed: DIR/<tag>, the selector byte, then the bytes */
static void write_seed(const char *dir, const char *tag, unsigned int sel,
		       const void *p, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, tag);
	f = fopen(path, "w");
	if (!f || fputc((int)sel, f) == EOF || fwrite(p, 1, n, f) != n || fclose(f))
		fuzz_fail("writing a seed");
}

static void write_seeds(const char *dir)
{
	static const char *const names[] = { "a", "notes.txt", "Ünïcödé ✓",
					     "a name of exactly thirty-two b" };
	char name[VNAME_MAX_PLAIN + 1], enc[VNAME_MAX_SYMLINK_ENCODED + 1];
	char long_name[VNAME_LONG_LEN + 1], side[VNAME_SIDECAR_LEN + 1], tag[64];
	static const uint8_t bytes[] = "\x00\x01\xfe\xff cloakfs";
	int n;

	for (unsigned int c = 0; c < VOLUME_CIPHER_COUNT; c++) {
		for (unsigned int i = 0; i < 4; i++) {
			n = vname_encrypt(cts[c], names[i], strlen(names[i]), enc,
					  sizeof(enc));
			if (n < 0)
				fuzz_fail("vname_encrypt");
			snprintf(tag, sizeof(tag), "name-%u-%u", c, i);
			write_seed(dir, tag, c, enc, (size_t)n);
		}
		memset(name, 'x', VNAME_MAX_PLAIN);
		n = vname_encrypt(cts[c], name, VNAME_MAX_PLAIN, enc, sizeof(enc));
		if (n < 0)
			fuzz_fail("vname_encrypt");
		snprintf(tag, sizeof(tag), "name-%u-max", c);
		write_seed(dir, tag, c, enc, (size_t)n);
		snprintf(tag, sizeof(tag), "sidecar-%u", c);
		write_seed(dir, tag, c | 3u << 2, enc, (size_t)n);
		n = vname_symlink_encrypt(cts[c], "../some/dir/target", 18, enc,
					  sizeof(enc));
		if (n < 0)
			fuzz_fail("vname_symlink_encrypt");
		snprintf(tag, sizeof(tag), "symlink-%u", c);
		write_seed(dir, tag, c | 1u << 2, enc, (size_t)n);
	}
	if (vname_long_name(enc, (size_t)n, long_name) ||
	    vname_sidecar_name(long_name, side))
		fuzz_fail("vname_long_name");
	write_seed(dir, "entry-long", 2u << 2, long_name, strlen(long_name));
	write_seed(dir, "entry-sidecar", 2u << 2, side, strlen(side));
	write_seed(dir, "entry-dirnonce", 2u << 2, DIRNONCE_FILE,
		   strlen(DIRNONCE_FILE));
	write_seed(dir, "entry-conftemp", 2u << 2, "cloakfs.conf.tmp.Ab12Cd", 23);
	write_seed(dir, "entry-name", 2u << 2, enc, 43);
	/* a nonce in the file and a copy: agreeing, differing, file lost */
	for (unsigned int kind = 0; kind < 4; kind++) {
		uint8_t nb[1 + 2 * DIRNONCE_SIZE];

		nb[0] = kind == 0 ? 17 : 1;
		for (size_t i = 1; i < sizeof(nb); i++)
			nb[i] = (uint8_t)(i % DIRNONCE_SIZE + 1);
		snprintf(tag, sizeof(tag), "dirnonce-%u", kind);
		write_seed(dir, tag, 5u << 2 | kind << 5, nb, sizeof(nb));
	}
	write_seed(dir, "sidecar-fifo", 3u << 2 | 0x40, "x", 1);
	n = (int)base64_encode(BASE64_STD_PAD, enc, sizeof(enc), bytes, sizeof(bytes));
	write_seed(dir, "base64-std", 4u << 2, enc, (size_t)n);
	n = (int)base64_encode(BASE64_URL_NOPAD, enc, sizeof(enc), bytes, sizeof(bytes));
	write_seed(dir, "base64-url", 4u << 2, enc, (size_t)n);
	exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *seeds = getenv("CLOAKFS_FUZZ_WRITE_SEEDS");
	uint8_t vmk[KEYS_VMK_SIZE], dir_nonce[KEYS_NONCE_SIZE];
	const char *t = getenv("TMPDIR");
	struct volume_keys *k;
	int err;

	(void)argc;
	(void)argv;
	if (crypto_init())
		fuzz_fail(crypto_init_error());
	for (size_t i = 0; i < sizeof(vmk); i++)
		vmk[i] = (uint8_t)(0x20 + 3 * i);
	for (size_t i = 0; i < sizeof(dir_nonce); i++)
		dir_nonce[i] = (uint8_t)(0xa0 + i);
	for (int c = 0; c < VOLUME_CIPHER_COUNT; c++) {
		if (keys_new(vmk, (enum volume_cipher)c, &k))
			fuzz_fail("keys_new");
		cts[c] = keys_names_tfm(k, dir_nonce, &err);
		keys_free(k);
		if (!cts[c])
			fuzz_fail("keys_names_tfm");
	}
	snprintf(tmpdir, sizeof(tmpdir), "%s/cloakfs-fuzz-names.XXXXXX",
		 t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir))
		fuzz_fail("mkdtemp");
	dirfd_ = open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd_ < 0)
		fuzz_fail("open temp directory");
	atexit(remove_tmpdir);
	if (seeds && *seeds)
		write_seeds(seeds);
	return 0;
}

static void check_name(struct crypto_tfm *tfm, const char *enc, size_t len,
		       int symlink)
{
	static char plain[VNAME_MAX_SYMLINK_PLAIN + 1];
	static char again[VNAME_MAX_SYMLINK_ENCODED + 1];
	int n, m;

	n = symlink ? vname_symlink_decrypt(tfm, enc, len, plain, sizeof(plain))
		    : vname_decrypt(tfm, enc, len, plain, sizeof(plain));
	if (n < 0)
		return;
	if ((size_t)n != strlen(plain))
		fuzz_fail("decoded length is not the string's");
	m = symlink ? vname_symlink_encrypt(tfm, plain, (size_t)n, again, sizeof(again))
		    : vname_encrypt(tfm, plain, (size_t)n, again, sizeof(again));
	if (m < 0 || (size_t)m != len || memcmp(again, enc, len))
		fuzz_fail("name does not round-trip");
}

static void check_classify(const char *entry)
{
	char side[VNAME_SIDECAR_LEN + 1];
	enum vname_entry e = vname_classify(entry);
	int rc = vname_sidecar_name(entry, side);

	if ((rc == 0) != (e == VNAME_ENTRY_LONG))
		fuzz_fail("sidecar name given for an entry that is not a long name");
	if (rc == 0 && vname_classify(side) != VNAME_ENTRY_SIDECAR)
		fuzz_fail("sidecar name is not classified as a sidecar");
}

static void put_file(const char *name, const uint8_t *p, size_t n)
{
	int fd = openat(dirfd_, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || write(fd, p, n) != (ssize_t)n || close(fd))
		fuzz_fail("writing a sidecar in the temp directory");
}

static void check_sidecar(struct crypto_tfm *tfm, const uint8_t *p, size_t n,
			  int wrong_name)
{
	static char enc[VNAME_MAX_ENCODED + 1];
	char long_name[VNAME_LONG_LEN + 1], side[VNAME_SIDECAR_LEN + 1];
	int len, rc;

	if (wrong_name)
		snprintf(long_name, sizeof(long_name), "%s%043d", VNAME_LONG_PREFIX, 0);
	else if (vname_long_name((const char *)p, n, long_name))
		fuzz_fail("vname_long_name");
	if (vname_sidecar_name(long_name, side))
		fuzz_fail("vname_sidecar_name of a long name");
	put_file(side, p, n);
	len = vname_read_sidecar(dirfd_, long_name, enc, sizeof(enc));
	if (len >= 0) {
		if (wrong_name || (size_t)len != n || memcmp(enc, p, n))
			fuzz_fail("sidecar read back differs from its content");
		check_name(tfm, enc, (size_t)len, 0);
		/* the same content again is fine, another is refused */
		if (vname_write_sidecar(dirfd_, long_name, enc, (size_t)len))
			fuzz_fail("rewriting a sidecar with its own content");
		rc = vname_write_sidecar(dirfd_, long_name, "AAAA", 4);
		if (rc != -EEXIST && !(rc == 0 && len == 4 && !memcmp(enc, "AAAA", 4)))
			fuzz_fail("rewriting a sidecar with other content");
	}
	if (unlinkat(dirfd_, side, 0))
		fuzz_fail("unlink sidecar");
}

static int valid_nonce(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;

	if (n != DIRNONCE_SIZE)
		return 0;
	for (size_t i = 0; i < n; i++)
		acc |= p[i];
	return acc != 0;
}

static void check_dirnonce(const uint8_t *p, size_t n, unsigned int kind)
{
	struct dirnonce_state st;
	uint8_t nonce[DIRNONCE_SIZE];
	size_t k = n ? p[0] % n : 0;
	const uint8_t *file = p + 1, *copy;
	size_t flen = k ? k - 1 : 0, clen;
	int rc, file_ok = 0, copy_ok;

	if (n == 0)
		return;
	copy = file + flen;
	clen = n - 1 - flen;
	switch (kind) {
	case 0:
		put_file(DIRNONCE_FILE, file, flen);
		file_ok = valid_nonce(file, flen);
		break;
	case 1:
		if (mkfifoat(dirfd_, DIRNONCE_FILE, 0600))
			fuzz_fail("mkfifo");
		break;
	case 2:
		if (symlinkat("target", dirfd_, DIRNONCE_FILE))
			fuzz_fail("symlink");
		break;
	default:
		if (mkdirat(dirfd_, DIRNONCE_FILE, 0700))
			fuzz_fail("mkdir");
		break;
	}
	if (clen && fsetxattr(dirfd_, DIRNONCE_XATTR, copy, clen, 0) &&
	    errno != EOPNOTSUPP && errno != E2BIG && errno != ENOSPC)
		fuzz_fail("fsetxattr");
	copy_ok = clen && valid_nonce(copy, clen) &&
		  fgetxattr(dirfd_, DIRNONCE_XATTR, nonce, sizeof(nonce)) ==
			  DIRNONCE_SIZE;
	/* a FIFO must be refused without an open that waits for a writer */
	rc = dirnonce_load(dirfd_, NULL, nonce, &st);
	if ((rc == 0) != (file_ok || copy_ok))
		fuzz_fail("nonce found where none is valid, or missed");
	if (kind && st.file != -VOLUME_ENOTREG)
		fuzz_fail("not a regular file, not refused as such");
	if (rc == 0 && memcmp(nonce, file_ok ? file : copy, DIRNONCE_SIZE))
		fuzz_fail("not the file's nonce when it is valid, else the copy's");
	if (kind == 3)
		(void)unlinkat(dirfd_, DIRNONCE_FILE, AT_REMOVEDIR);
	else
		(void)unlinkat(dirfd_, DIRNONCE_FILE, 0);
	(void)fremovexattr(dirfd_, DIRNONCE_XATTR);
}

static void check_fifo_sidecar(void)
{
	char long_name[VNAME_LONG_LEN + 1], side[VNAME_SIDECAR_LEN + 1];
	char enc[VNAME_MAX_ENCODED + 1];

	snprintf(long_name, sizeof(long_name), "%s%043d", VNAME_LONG_PREFIX, 0);
	if (vname_sidecar_name(long_name, side) || mkfifoat(dirfd_, side, 0600))
		fuzz_fail("FIFO sidecar");
	if (vname_read_sidecar(dirfd_, long_name, enc, sizeof(enc)) != -VOLUME_ENOTREG)
		fuzz_fail("a FIFO sidecar is not refused as not a regular file");
	if (unlinkat(dirfd_, side, 0))
		fuzz_fail("unlink FIFO sidecar");
}

static void check_base64(const uint8_t *p, size_t n)
{
	static uint8_t bytes[FUZZ_MAX_INPUT];
	static char again[FUZZ_MAX_INPUT * 2];
	size_t got;

	for (int v = BASE64_URL_NOPAD; v <= BASE64_STD_PAD; v++) {
		if (base64_decode((enum base64_variant)v, bytes, sizeof(bytes),
				  (const char *)p, n, &got))
			continue;
		if (got > base64_decoded_max(n))
			fuzz_fail("decoded more than base64_decoded_max");
		if (base64_encoded_len((enum base64_variant)v, got) != n ||
		    base64_encode((enum base64_variant)v, again, sizeof(again),
				  bytes, got) != n ||
		    memcmp(again, p, n))
			fuzz_fail("base64 does not round-trip");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[FUZZ_MAX_INPUT + 1];
	struct crypto_tfm *tfm;
	unsigned int mode;

	if (size < 1 || size - 1 > FUZZ_MAX_INPUT)
		return 0;
	tfm = cts[data[0] & 3];
	mode = (data[0] >> 2) & 7;
	size--;
	memcpy(text, data + 1, size);
	text[size] = '\0';
	switch (mode) {
	case 1:
		check_name(tfm, text, size, 1);
		break;
	case 2:
		if (!memchr(text, '\0', size))
			check_classify(text);
		break;
	case 3:
		if (data[0] & 0x40)
			check_fifo_sidecar();
		else
			check_sidecar(tfm, data + 1, size, (data[0] >> 5) & 1);
		break;
	case 4:
		check_base64(data + 1, size);
		break;
	case 5:
		check_dirnonce(data + 1, size, (data[0] >> 5) & 3);
		break;
	default:
		check_name(tfm, text, size, 0);
		break;
	}
	return 0;
}
