/* SPDX-License-Identifier: MIT */
/* see direntry.h */
#include "volume/direntry.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "volume/dirops.h"
#include "volume/dirnonce.h"
#include "volume/fdio.h"
#include "volume/keyring.h"

/* what a name operation does inside its key section */
enum name_op { NAME_ENCRYPT, NAME_DECRYPT, TARGET_ENCRYPT, TARGET_DECRYPT };

/*
 * One name operation under the name key of the directory with this
 * nonce, in a key section of its own: the codec's result (a length, or
 * -errno; -EACCES when the volume is locked).
 */
static int name_crypt(struct vkeyring *kr,
		      const uint8_t nonce[NAMES_DIRNONCE_SIZE], enum name_op op,
		      const char *in, size_t inlen, char *out, size_t outlen)
{
	struct crypto_tfm *tfm;
	unsigned int slot;
	int n;

	vkeyring_enter(kr);
	tfm = vkeyring_get(kr, VKEY_NAMES, nonce, &slot, &n);
	if (tfm) {
		switch (op) {
		case NAME_ENCRYPT:
			n = names_encrypt(tfm, in, inlen, out, outlen);
			break;
		case NAME_DECRYPT:
			n = names_decrypt(tfm, in, inlen, out, outlen);
			break;
		case TARGET_ENCRYPT:
			n = names_symlink_encrypt(tfm, in, inlen, out, outlen);
			break;
		case TARGET_DECRYPT:
			n = names_symlink_decrypt(tfm, in, inlen, out, outlen);
			break;
		}
		vkeyring_put(kr, slot);
	}
	vkeyring_leave(kr);
	return n;
}

int vdir_name_encrypt(struct vkeyring *kr,
		      const uint8_t nonce[NAMES_DIRNONCE_SIZE],
		      unsigned int name_max, const char *name,
		      struct vdir_name *out)
{
	size_t len = strlen(name);
	int n;

	if (len > NAMES_MAX_PLAIN)
		return -ENAMETOOLONG;
	n = name_crypt(kr, nonce, NAME_ENCRYPT, name, len, out->enc,
		       sizeof(out->enc));
	if (n < 0)
		return n;
	out->enclen = (size_t)n;
	out->is_long = names_is_long(out->enclen, name_max);
	if (!out->is_long) {
		memcpy(out->name, out->enc, out->enclen + 1);
		return 0;
	}
	return names_long_name(out->enc, out->enclen, out->name);
}

int vdir_name_prepare(int dfd, const struct vdir_name *e)
{
	if (!e->is_long)
		return 0;
	return names_write_sidecar(dfd, e->name, e->enc, e->enclen);
}

void vdir_name_forget(int dfd, const struct vdir_name *e)
{
	char side[NAMES_SIDECAR_LEN + 1];
	struct stat st;

	if (!e->is_long || names_sidecar_name(e->name, side) != 0)
		return;
	if (fstatat(dfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0 ||
	    errno != ENOENT)
		return; /* the entry is there (or we cannot tell): keep it */
	(void)unlinkat(dfd, side, 0);
}

int vdir_name_decrypt(struct vkeyring *kr,
		      const uint8_t nonce[NAMES_DIRNONCE_SIZE], int dirfd,
		      const char *cname, char out[NAMES_MAX_PLAIN + 1])
{
	char longenc[NAMES_MAX_ENCODED + 1];
	const char *enc = cname;
	size_t enclen;
	int n;

	switch (names_classify(cname)) {
	case NAMES_ENTRY_ENCRYPTED:
		enclen = strlen(cname);
		break;
	case NAMES_ENTRY_LONG:
		n = names_read_sidecar(dirfd, cname, longenc, sizeof(longenc));
		if (n < 0)
			return n == -ENOENT ? -EBADMSG : n;
		enc = longenc;
		enclen = (size_t)n;
		break;
	default:
		return 0;
	}
	n = name_crypt(kr, nonce, NAME_DECRYPT, enc, enclen, out,
		       NAMES_MAX_PLAIN + 1);
	return n < 0 ? n : 1;
}

int vdir_target_encrypt(struct vkeyring *kr,
			const uint8_t nonce[NAMES_DIRNONCE_SIZE],
			const char *target,
			char out[NAMES_MAX_SYMLINK_ENCODED + 1])
{
	size_t len = strnlen(target, NAMES_MAX_SYMLINK_PLAIN + 1);
	int n;

	if (len > NAMES_MAX_SYMLINK_PLAIN)
		return -ENAMETOOLONG;
	n = name_crypt(kr, nonce, TARGET_ENCRYPT, target, len, out,
		       NAMES_MAX_SYMLINK_ENCODED + 1);
	return n < 0 ? n : 0;
}

int vdir_target_decrypt(struct vkeyring *kr,
			const uint8_t nonce[NAMES_DIRNONCE_SIZE],
			const char *enc, size_t enclen,
			char out[NAMES_MAX_SYMLINK_PLAIN + 1])
{
	return name_crypt(kr, nonce, TARGET_DECRYPT, enc, enclen, out,
			  NAMES_MAX_SYMLINK_PLAIN + 1);
}

int vdir_is_empty(int dfd)
{
	struct dirent *d;
	DIR *dp;
	int empty = 1, err = volume_opendir(dfd, &dp);

	if (err)
		return err;
	while ((d = readdir(dp)) != NULL) {
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..") &&
		    strcmp(d->d_name, NAMES_DIRNONCE_FILE)) {
			empty = 0;
			break;
		}
	}
	closedir(dp);
	return empty;
}

/* a directory's nonce file, back after a removal failed */
static int write_nonce_back(int dfd, const uint8_t nonce[NAMES_DIRNONCE_SIZE])
{
	int fd = openat(dfd, NAMES_DIRNONCE_FILE,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0440);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, nonce, NAMES_DIRNONCE_SIZE) != NAMES_DIRNONCE_SIZE ||
	    fsync(fd) != 0)
		err = -EIO;
	close(fd);
	return err;
}

/* where a directory is, for a message */
static void log_nonce_lost(int dfd, const char *what)
{
	char where[4096];

	if (volume_fd_path(dfd, where, sizeof(where)) != 0)
		snprintf(where, sizeof(where), "a directory");
	log_error("%s: %s failed and the directory's nonce could not be "
		  "restored (run cloakfs-fsck --repair)", where, what);
}

int vdir_remove(int parentfd, const char *cname)
{
	uint8_t nonce[NAMES_DIRNONCE_SIZE];
	int dfd, err, have_nonce;

	dfd = openat(parentfd, cname, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	err = vdir_is_empty(dfd);
	err = err == 1 ? 0 : err == 0 ? -ENOTEMPTY : err;
	if (!err) {
		have_nonce = names_dirnonce_read(dfd, nonce) == 0;
		if (unlinkat(dfd, NAMES_DIRNONCE_FILE, 0) != 0 && errno != ENOENT)
			err = -errno;
		if (!err && unlinkat(parentfd, cname, AT_REMOVEDIR) != 0) {
			err = -errno;
			/* still there: it needs its names back */
			if (have_nonce && write_nonce_back(dfd, nonce) != 0)
				log_nonce_lost(dfd, "rmdir");
		}
	}
	explicit_bzero(nonce, sizeof(nonce));
	close(dfd);
	return err;
}

int vdir_victim_clear(int dfd, const char *cname, struct vdir_victim *v)
{
	int vfd = openat(dfd, cname, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int err;

	v->fd = -1;
	if (vfd < 0)
		return errno == ENOTDIR || errno == ENOENT ? 0 : -errno;
	err = vdir_is_empty(vfd);
	if (err == 0)
		err = -ENOTEMPTY;
	if (err == 1)
		err = names_dirnonce_read(vfd, v->nonce);
	if (!err && unlinkat(vfd, NAMES_DIRNONCE_FILE, 0) != 0)
		err = -errno;
	if (err) {
		close(vfd);
		explicit_bzero(v->nonce, sizeof(v->nonce));
		return err;
	}
	v->fd = vfd;
	return 0;
}

void vdir_victim_end(struct vdir_victim *v, int failed)
{
	if (v->fd < 0)
		return;
	if (failed && write_nonce_back(v->fd, v->nonce) != 0)
		log_nonce_lost(v->fd, "rename");
	close(v->fd);
	v->fd = -1;
	explicit_bzero(v->nonce, sizeof(v->nonce));
}
