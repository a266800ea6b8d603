/* SPDX-License-Identifier: MIT */
/* see dirnonce.h */
#include "volume/names/dirnonce.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/procfd.h"
#include "volume/fdio.h"
#include "volume/keys/keyring.h"
#include "volume/names/vname.h"
#include "volume/random.h"

/* names looked at to decide between two differing nonces */
#define VOTE_MAX 256

static int all_zero(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= p[i];
	return acc == 0;
}

/* the attribute calls on the directory: an O_PATH descriptor (the
 * mount's inodes) takes no f*xattr, its /proc/self/fd link does */
static ssize_t get_copy(int dirfd, void *buf, size_t len)
{
	char path[PROCFD_LEN];
	ssize_t n = fgetxattr(dirfd, DIRNONCE_XATTR, buf, len);

	if (n < 0 && errno == EBADF) {
		procfd_path(dirfd, path);
		n = getxattr(path, DIRNONCE_XATTR, buf, len);
	}
	return n < 0 ? -errno : n;
}

static int set_copy(int dirfd, const void *buf, size_t len)
{
	char path[PROCFD_LEN];
	int rc = fsetxattr(dirfd, DIRNONCE_XATTR, buf, len, 0);

	if (rc < 0 && errno == EBADF) {
		procfd_path(dirfd, path);
		rc = setxattr(path, DIRNONCE_XATTR, buf, len, 0);
	}
	return rc < 0 ? -errno : 0;
}

static int check_nonce(const uint8_t *buf, ssize_t n)
{
	if (n < 0)
		return (int)n;
	if (n != DIRNONCE_SIZE || all_zero(buf, DIRNONCE_SIZE))
		return -EBADMSG;
	return 0;
}

static int read_file(int dirfd, uint8_t nonce[DIRNONCE_SIZE],
		     mode_t *type)
{
	uint8_t buf[DIRNONCE_SIZE + 1];
	int err = check_nonce(buf, fdio_read_file(dirfd, DIRNONCE_FILE,
						     buf, sizeof(buf), type));

	if (!err)
		memcpy(nonce, buf, DIRNONCE_SIZE);
	return err;
}

static int read_copy(int dirfd, uint8_t nonce[DIRNONCE_SIZE])
{
	uint8_t buf[DIRNONCE_SIZE + 1];
	ssize_t n = get_copy(dirfd, buf, sizeof(buf));
	int err = check_nonce(buf, n == -ERANGE ? -EBADMSG : n);

	if (!err)
		memcpy(nonce, buf, DIRNONCE_SIZE);
	return err;
}

int dirnonce_write_file(int dirfd, const uint8_t nonce[DIRNONCE_SIZE])
{
	int fd = openat(dirfd, DIRNONCE_FILE,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0440);
	int err;

	if (fd < 0)
		return -errno;
	err = fdio_write_all(fd, nonce, DIRNONCE_SIZE);
	/* every name in the directory depends on these 16 bytes */
	if (!err && fsync(fd) != 0)
		err = -errno;
	if (close(fd) != 0 && !err)
		err = -errno;
	if (err)
		(void)unlinkat(dirfd, DIRNONCE_FILE, 0);
	return err;
}

int dirnonce_write_copy(int dirfd, const uint8_t nonce[DIRNONCE_SIZE])
{
	return set_copy(dirfd, nonce, DIRNONCE_SIZE);
}

int dirnonce_new(uint8_t nonce[DIRNONCE_SIZE])
{
	int err;

	do {
		err = random_bytes(nonce, DIRNONCE_SIZE);
		if (err)
			return err;
	} while (all_zero(nonce, DIRNONCE_SIZE));
	return 0;
}

int dirnonce_create(int dirfd, uint8_t nonce[DIRNONCE_SIZE])
{
	int err = dirnonce_new(nonce);

	if (!err)
		err = dirnonce_write_file(dirfd, nonce);
	if (!err)
		(void)dirnonce_write_copy(dirfd, nonce); /* see dirnonce.h */
	return err;
}

/*
 * Is p (n bytes) shaped like a name someone typed: well-formed UTF-8
 * (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF)
 * without control characters? Under a wrong key a name decrypts to
 * random bytes, which pass this with a probability around 0.4 a byte.
 */
static int looks_typed(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = p[i];
		size_t k;
		uint32_t cp;

		if (c < 0x20 || c == 0x7f)
			return 0;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			k = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			k = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			k = 3;
			cp = c & 0x07;
		} else {
			return 0;
		}
		if (n - i <= k)
			return 0;
		for (size_t j = 1; j <= k; j++) {
			if ((p[i + j] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i + j] & 0x3f);
		}
		if ((k == 2 && cp < 0x800) || (k == 3 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
		    (cp >= 0x80 && cp <= 0x9f))
			return 0;
		i += k + 1;
	}
	return 1;
}

/*
 * Is enc evidence for names (docs/format.md 7.1)? It must decode (a
 * canonical encoding of whole blocks, NUL-padded as the rule asks), and
 * either carry at least two bytes of padding (two NUL bytes, which a wrong
 * key gives with a probability under 1/65,536: one alone, 1/256, decided
 * ties of two wrong nonces by chance) or look typed (looks_typed).
 */
static int vote_for(struct crypto_tfm *names, const char *enc, size_t len,
		    char plain[VNAME_MAX_PLAIN + 1])
{
	int n = vname_decrypt(names, enc, len, plain, VNAME_MAX_PLAIN + 1);

	return n >= 0 && dirnonce_name_evidence(plain, (size_t)n, len);
}

int dirnonce_name_evidence(const char *plain, size_t n, size_t enclen)
{
	/* base64url without padding: 6 bits a character */
	return n + 2 <= enclen * 6 / 8 ||
	       looks_typed((const unsigned char *)plain, n);
}

/*
 * Of the directory's names (short ones, and long ones through their
 * sidecars, which must hash to the entry's name), how many are evidence
 * for each nonce. Under the right nonce nearly every name is; under a
 * wrong one nearly none.
 */
static void vote(int dirfd, struct keyring *kr, struct dirnonce_state *st)
{
	char plain[VNAME_MAX_PLAIN + 1], *names = NULL;
	struct crypto_tfm *f, *c;
	unsigned int fs, cs;
	size_t used = 0, n = 0;
	struct dirent *de;
	DIR *dp = NULL;
	int err;

	/* the names first, then the keys: no I/O inside a key section */
	names = malloc((size_t)VOTE_MAX * (VNAME_MAX_ENCODED + 1));
	if (!names || fdio_opendir(dirfd, &dp) != 0)
		goto out;
	while (n < VOTE_MAX && (de = readdir(dp)) != NULL) {
		enum vname_entry kind = vname_classify(de->d_name);
		size_t len = strlen(de->d_name);

		if (kind == VNAME_ENTRY_LONG) {
			int r = vname_read_sidecar(dirfd, de->d_name, names + used,
						   VNAME_MAX_ENCODED + 1);

			if (r <= 0)
				continue; /* a damaged sidecar is no evidence */
			len = (size_t)r;
		} else if (kind == VNAME_ENTRY_ENCRYPTED && len <= VNAME_MAX_ENCODED) {
			memcpy(names + used, de->d_name, len + 1);
		} else {
			continue;
		}
		used += len + 1;
		n++;
	}
	keyring_enter(kr);
	f = keyring_get(kr, VKEY_NAMES, st->file_nonce, &fs, &err);
	c = f ? keyring_get(kr, VKEY_NAMES, st->copy_nonce, &cs, &err) : NULL;
	for (size_t i = 0, off = 0; c && i < n; i++) {
		size_t len = strlen(names + off);

		st->votes_of++;
		st->votes_file += vote_for(f, names + off, len, plain);
		st->votes_copy += vote_for(c, names + off, len, plain);
		off += len + 1;
	}
	if (c)
		keyring_put(kr, cs);
	if (f)
		keyring_put(kr, fs);
	keyring_leave(kr);
	explicit_bzero(plain, sizeof(plain));
out:
	if (dp)
		closedir(dp);
	free(names);
}

int dirnonce_load(int dirfd, struct keyring *kr,
			uint8_t nonce[DIRNONCE_SIZE],
			struct dirnonce_state *st)
{
	struct dirnonce_state local;
	int rc;

	if (!st)
		st = &local;
	memset(st, 0, sizeof(*st));
	st->file = read_file(dirfd, st->file_nonce, &st->file_type);
	st->copy = read_copy(dirfd, st->copy_nonce);
	if (!st->file && !st->copy &&
	    memcmp(st->file_nonce, st->copy_nonce, DIRNONCE_SIZE) != 0) {
		st->differ = 1;
		if (kr)
			vote(dirfd, kr, st);
		/* the file is what every writer keeps current (an older
		 * cloakfs, a restore that drops attributes): the copy wins
		 * only on evidence */
		st->used = st->votes_copy > st->votes_file ? DIRNONCE_FROM_COPY
							   : DIRNONCE_FROM_FILE;
		/* names, and as much evidence for one as for the other */
		st->undecided = kr && st->votes_of > 0 &&
				st->votes_copy == st->votes_file;
	} else if (!st->file) {
		st->used = DIRNONCE_FROM_FILE;
	} else if (!st->copy) {
		st->used = DIRNONCE_FROM_COPY;
	}
	if (st->used != DIRNONCE_NONE)
		memcpy(nonce, st->used == DIRNONCE_FROM_FILE ? st->file_nonce
								   : st->copy_nonce,
		       DIRNONCE_SIZE);
	rc = st->used != DIRNONCE_NONE ? 0 : st->file;
	if (st == &local)
		explicit_bzero(st, sizeof(*st));
	return rc;
}

int dirnonce_read(int dirfd, uint8_t nonce[DIRNONCE_SIZE])
{
	return dirnonce_load(dirfd, NULL, nonce, NULL);
}

/* ".cloakfs.dir is missing" and the like */
static void file_problem(const struct dirnonce_state *st, char *buf,
			 size_t len)
{
	if (st->file == -ENOENT)
		snprintf(buf, len, "%s is missing", DIRNONCE_FILE);
	else if (st->file == -EBADMSG)
		snprintf(buf, len, "%s is damaged (not 16 bytes, or all zero)",
			 DIRNONCE_FILE);
	else if (st->file == -VOLUME_ENOTREG)
		snprintf(buf, len, "%s is %s, not a regular file",
			 DIRNONCE_FILE, volume_type_name(st->file_type));
	else
		snprintf(buf, len, "%s cannot be read (%s)", DIRNONCE_FILE,
			 strerror(-st->file));
}

int dirnonce_describe(const struct dirnonce_state *st, char *buf,
			    size_t len)
{
	char what[128];

	if (st->differ && st->undecided) {
		snprintf(buf, len, "%s and its copy in %s differ, and as many of "
			 "the directory's names decode with one as with the "
			 "other (%u of %u): cannot tell which is right; the names "
			 "are read with the file", DIRNONCE_FILE,
			 DIRNONCE_XATTR, st->votes_file, st->votes_of);
		return 1;
	}
	if (st->differ) {
		snprintf(buf, len, "%s and its copy in %s differ; the names are "
			 "read with the %s (%u of %u names decode with it, %u "
			 "with the other)", DIRNONCE_FILE,
			 DIRNONCE_XATTR,
			 st->used == DIRNONCE_FROM_COPY ? "copy" : "file",
			 st->used == DIRNONCE_FROM_COPY ? st->votes_copy
							      : st->votes_file,
			 st->votes_of,
			 st->used == DIRNONCE_FROM_COPY ? st->votes_file
							      : st->votes_copy);
		return 1;
	}
	if (!st->file)
		return 0;
	file_problem(st, what, sizeof(what));
	if (!st->copy)
		snprintf(buf, len, "%s; the names are read from its copy in %s",
			 what, DIRNONCE_XATTR);
	else
		snprintf(buf, len, "%s and %s %s: the directory's names cannot "
			 "be read", what, DIRNONCE_XATTR,
			 st->copy == -ENODATA || st->copy == -EOPNOTSUPP
				 ? "is absent"
				 : st->copy == -EBADMSG ? "is damaged"
							: strerror(-st->copy));
	return 1;
}
