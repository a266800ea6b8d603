/* SPDX-License-Identifier: MIT */
/* see symlink.h */
#include "volume/names/symlink.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/secmem.h"
#include "volume/base64.h"
#include "volume/fdio.h"
#include "volume/keys/keyring.h"
#include "volume/random.h"

#define MAX_IV 16

/* bytes behind n base64url characters without padding; 0 if none */
static size_t decoded_bytes(size_t n)
{
	static const size_t tail[4] = { 0, 0, 1, 2 };

	return n % 4 == 1 ? 0 : n / 4 * 3 + tail[n % 4];
}

enum symlink_form symlink_form(const char *text, size_t len, size_t bs)
{
	size_t bytes;

	if (len == SYMLINK_REF_LEN &&
	    !strncmp(text, SYMLINK_REF_PREFIX, strlen(SYMLINK_REF_PREFIX)) &&
	    vname_is_b64url(text + strlen(SYMLINK_REF_PREFIX), SYMLINK_HASH_LEN))
		return SYMLINK_REF;
	if (!vname_is_b64url(text, len))
		return SYMLINK_DAMAGED;
	bytes = decoded_bytes(len);
	if (bytes >= VNAME_PAD && bytes % VNAME_PAD == 0)
		return SYMLINK_V1;
	if (bs && bytes >= bs + VNAME_PAD && (bytes - bs) % VNAME_PAD == 0)
		return SYMLINK_V2;
	return SYMLINK_DAMAGED;
}

/* "<hash>" of the store for an encoding: its SHA-512, as long names */
static int store_name(const char *enc, size_t len,
		      char out[SYMLINK_HASH_LEN + 1])
{
	char full[VNAME_LONG_LEN + 1];
	int err = vname_long_name(enc, len, full);

	if (!err)
		memcpy(out, full + strlen(VNAME_LONG_PREFIX), SYMLINK_HASH_LEN + 1);
	return err;
}

/* the store's descriptor (made when make is set): >= 0 or -errno */
static int open_store(int rootfd, int make)
{
	int fd = openat(rootfd, SYMLINK_STORE_DIR,
			O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT && make) {
		if (mkdirat(rootfd, SYMLINK_STORE_DIR, 0700) != 0 &&
		    errno != EEXIST)
			return -errno;
		fd = openat(rootfd, SYMLINK_STORE_DIR,
			    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	return fd < 0 ? -errno : fd;
}

/* write enc to the store (0400, fsync'ed) and name it in text */
static int store(int rootfd, const char *enc, size_t len,
		 char text[SYMLINK_MAX_STORED + 1])
{
	char name[SYMLINK_HASH_LEN + 1];
	int err = store_name(enc, len, name), sfd, fd;

	if (err)
		return err;
	sfd = open_store(rootfd, 1);
	if (sfd < 0)
		return sfd;
	/* a random IV makes every encoding new: an existing file is damage */
	fd = openat(sfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0400);
	if (fd < 0) {
		err = -errno;
	} else {
		err = fdio_write_all(fd, enc, len);
		if (!err && fsync(fd) != 0)
			err = -errno;
		if (close(fd) != 0 && !err)
			err = -errno;
		if (err)
			(void)unlinkat(sfd, name, 0);
	}
	close(sfd);
	if (err)
		return err;
	memcpy(text, SYMLINK_REF_PREFIX, strlen(SYMLINK_REF_PREFIX));
	memcpy(text + strlen(SYMLINK_REF_PREFIX), name, SYMLINK_HASH_LEN + 1);
	return SYMLINK_REF_LEN;
}

/* one codec call in a key section of its own */
static int with_key(struct keyring *kr, int seal, const uint8_t *iv,
		    const char *in, size_t inlen, char *out, size_t outlen)
{
	static const uint8_t unused[KEYS_NONCE_SIZE];
	struct crypto_tfm *tfm;
	unsigned int slot;
	int n;

	keyring_enter(kr);
	tfm = keyring_get(kr, VKEY_SYMLINKS, unused, &slot, &n);
	if (tfm) {
		n = seal ? vname_target_seal(tfm, iv, in, inlen, out, outlen)
			 : vname_target_open(tfm, in, inlen, out, outlen);
		keyring_put(kr, slot);
	}
	keyring_leave(kr);
	return n;
}

int symlink_encode(struct keyring *kr, int rootfd, const char *target,
		    size_t len, char text[SYMLINK_MAX_STORED + 1])
{
	char enc[VNAME_TARGET_MAX_ENCODED + 1];
	uint8_t iv[MAX_IV];
	int n;

	if (len > SYMLINK_MAX_PLAIN)
		return -ENAMETOOLONG;
	n = random_bytes(iv, sizeof(iv));
	if (!n)
		n = with_key(kr, 1, iv, target, len, enc, sizeof(enc));
	if (n < 0)
		return n;
	if ((size_t)n <= SYMLINK_MAX_STORED) {
		memcpy(text, enc, (size_t)n + 1);
		return n;
	}
	return store(rootfd, enc, (size_t)n, text);
}

void symlink_discard(int rootfd, const char *text)
{
	int sfd;

	if (symlink_form(text, strlen(text), 0) != SYMLINK_REF)
		return;
	sfd = open_store(rootfd, 0);
	if (sfd < 0)
		return;
	(void)unlinkat(sfd, text + strlen(SYMLINK_REF_PREFIX), 0);
	close(sfd);
}

/* say why in v (may be NULL): -EBADMSG */
static int fault(struct symlink_verdict *v, enum symlink_fault why,
		 mode_t type, int store)
{
	if (v) {
		v->fault = why;
		v->type = type;
		v->store = store;
	}
	return -EBADMSG;
}

/* what sits at the store's name when it is no directory */
static mode_t store_type(int rootfd)
{
	struct stat st;

	if (fstatat(rootfd, SYMLINK_STORE_DIR, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	return st.st_mode & S_IFMT;
}

/* the stored target of reference text into buf (VNAME_TARGET_MAX_ENCODED
 * + 1 bytes): its length, -EBADMSG (v says why), -errno */
static int read_stored(int rootfd, const char *text, char *buf,
		       struct symlink_verdict *v)
{
	char check[SYMLINK_HASH_LEN + 1];
	const char *name = text + strlen(SYMLINK_REF_PREFIX);
	mode_t type = 0;
	ssize_t n;
	int sfd, err;

	sfd = open_store(rootfd, 0);
	if (sfd == -ENOENT)
		return fault(v, SYMLINK_FAULT_MISSING, 0, 0);
	if (sfd == -ENOTDIR || sfd == -ELOOP)
		return fault(v, SYMLINK_FAULT_NOT_REGULAR, store_type(rootfd), 1);
	if (sfd < 0)
		return sfd;
	/* a FIFO or device is never opened, a big file never read whole */
	n = fdio_read_file(sfd, name, buf, VNAME_TARGET_MAX_ENCODED + 1, &type);
	close(sfd);
	if (n == -ENOENT)
		return fault(v, SYMLINK_FAULT_MISSING, 0, 0);
	if (n == -VOLUME_ENOTREG)
		return fault(v, SYMLINK_FAULT_NOT_REGULAR, type, 0);
	if (n < 0)
		return (int)n;
	/* canonical: an encoding that fits the symlink sits in it */
	if (n <= SYMLINK_MAX_STORED || n > VNAME_TARGET_MAX_ENCODED)
		return fault(v, SYMLINK_FAULT_LENGTH, 0, 0);
	buf[n] = '\0';
	err = store_name(buf, (size_t)n, check);
	if (err)
		return err;
	if (strcmp(check, name) != 0)
		return fault(v, SYMLINK_FAULT_HASH, 0, 0);
	return (int)n;
}

/* symlink_decode, saying why in v (may be NULL) */
static int decode(struct keyring *kr, int rootfd, const char *text,
		  size_t len, char out[SYMLINK_MAX_PLAIN + 1],
		  struct symlink_verdict *v)
{
	char stored[VNAME_TARGET_MAX_ENCODED + 1];
	int ref = symlink_form(text, len, 0) == SYMLINK_REF, n;

	if (ref) {
		n = read_stored(rootfd, text, stored, v);
		if (n < 0)
			return n;
		text = stored;
		len = (size_t)n;
	}
	n = with_key(kr, 0, NULL, text, len, out, SYMLINK_MAX_PLAIN + 1);
	if (ref)
		explicit_bzero(stored, sizeof(stored)); /* ciphertext, but tidy */
	if (n == -EBADMSG)
		return fault(v, ref ? SYMLINK_FAULT_OPEN : SYMLINK_FAULT_TEXT,
			     0, 0);
	return n;
}

int symlink_decode(struct keyring *kr, int rootfd, const char *text,
		    size_t len, char out[SYMLINK_MAX_PLAIN + 1])
{
	return decode(kr, rootfd, text, len, out, NULL);
}

int symlink_judge(struct keyring *kr, int rootfd, const char *text,
		   size_t len, struct symlink_verdict *v)
{
	char out[SYMLINK_MAX_PLAIN + 1];
	int n;

	memset(v, 0, sizeof(*v));
	n = decode(kr, rootfd, text, len, out, v);
	explicit_bzero(out, sizeof(out));
	return n < 0 ? n : 0;
}

/* the hash a store name (SYMLINK_HASH_LEN chars) spells: 0 or -EINVAL */
static int hash_of(const char *name, uint8_t hash[SYMLINK_HASH_BYTES])
{
	size_t n;

	/* base64url decoding is strict: one spelling per hash */
	if (base64url_decode(hash, SYMLINK_HASH_BYTES, name, SYMLINK_HASH_LEN,
			     &n) != 0 || n != SYMLINK_HASH_BYTES)
		return -EINVAL;
	return 0;
}

int symlink_ref_hash(const char *text, size_t len,
		      uint8_t hash[SYMLINK_HASH_BYTES])
{
	if (symlink_form(text, len, 0) != SYMLINK_REF)
		return -EINVAL;
	return hash_of(text + strlen(SYMLINK_REF_PREFIX), hash);
}

int symlink_store_open(int rootfd, mode_t *type)
{
	/* O_DIRECTORY fails on anything else before it is opened */
	int fd = openat(rootfd, SYMLINK_STORE_DIR, O_RDONLY | O_DIRECTORY |
			O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	if (errno == ENOTDIR || errno == ELOOP) {
		*type = store_type(rootfd);
		return -ENOTDIR;
	}
	return -errno;
}

int symlink_store_entry(int sfd, const char *name,
			 uint8_t hash[SYMLINK_HASH_BYTES], mode_t *type)
{
	struct stat st;

	if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -errno;
	*type = st.st_mode & S_IFMT;
	if (strlen(name) != SYMLINK_HASH_LEN || hash_of(name, hash) != 0)
		return SYMLINK_STORE_FOREIGN;
	return S_ISREG(st.st_mode) ? SYMLINK_STORED : SYMLINK_STORED_ODD;
}

/* is fd (O_PATH, a symlink) one with a stored target? */
static int is_stored(int fd)
{
	char text[SYMLINK_REF_LEN + 2];
	ssize_t n = readlinkat(fd, "", text, sizeof(text));

	return n == SYMLINK_REF_LEN &&
	       symlink_form(text, (size_t)n, 0) == SYMLINK_REF;
}

int symlink_pin(int dirfd, const char *name)
{
	struct stat st;
	int fd;

	/* most entries are not symlinks: one call tells, without a descriptor */
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISLNK(st.st_mode))
		return -1;
	fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstatat(fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISLNK(st.st_mode) || !is_stored(fd)) {
		close(fd);
		return -1;
	}
	return fd;
}

void symlink_unpin(int rootfd, int pin)
{
	char text[SYMLINK_REF_LEN + 2];
	struct stat st;
	ssize_t n;

	if (pin < 0)
		return;
	/* a link(2) cannot bring back an inode without names, so at 0 the
	 * stored target has no reader left */
	if (fstatat(pin, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_nlink == 0) {
		n = readlinkat(pin, "", text, sizeof(text) - 1);
		if (n == SYMLINK_REF_LEN) {
			text[n] = '\0';
			symlink_discard(rootfd, text);
		}
	}
	close(pin);
}
