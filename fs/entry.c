/* SPDX-License-Identifier: MIT */
/* see entry.h */
#include "fs/entry.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "volume/fdio.h"

/*
 * dir's nonce, read once and kept in the inode (it is no secret: it sits
 * in the ciphertext tree). Read with no lock held: a stuck or hostile
 * backing store blocks this request only (docs/design.md, "Keys in
 * memory"). The vote between two differing copies decodes names in a
 * key section of its own.
 */
static int dir_nonce(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		     uint8_t nonce[NAMES_DIRNONCE_SIZE])
{
	struct names_dirnonce_state st;
	char why[256], where[PATH_MAX];
	int err, warn;

	pthread_mutex_lock(&dir->lock);
	if (dir->have_nonce)
		memcpy(nonce, dir->nonce, NAMES_DIRNONCE_SIZE);
	err = dir->have_nonce ? 0 : -EAGAIN;
	pthread_mutex_unlock(&dir->lock);
	if (!err)
		return 0;
	err = names_dirnonce_load(dfd, fs->keyring, nonce, &st);
	warn = names_dirnonce_describe(&st, why, sizeof(why));
	explicit_bzero(&st, sizeof(st));
	pthread_mutex_lock(&dir->lock);
	if (!err) {
		memcpy(dir->nonce, nonce, NAMES_DIRNONCE_SIZE);
		dir->have_nonce = 1;
	}
	if (warn) {
		/* once per directory (names_warned: dir->lock) */
		warn = !dir->names_warned;
		dir->names_warned = 1;
	}
	pthread_mutex_unlock(&dir->lock);
	if (warn) {
		if (volume_fd_path(dfd, where, sizeof(where)) != 0)
			snprintf(where, sizeof(where), "%s: a directory",
				 fs->cipherdir);
		log_warn("%s: %s (run cloakfs-fsck --repair)", where, why);
	}
	return err ? -EIO : 0;
}

/* what a name operation does inside its key section */
enum name_op { NAME_ENCRYPT, NAME_DECRYPT, TARGET_ENCRYPT, TARGET_DECRYPT };

/*
 * One name operation of directory dir under its name key, in a key
 * section of its own: the codec's result (a length, or -errno; -EACCES
 * when the volume is locked).
 */
static int name_crypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		      enum name_op op, const char *in, size_t inlen, char *out,
		      size_t outlen)
{
	uint8_t nonce[NAMES_DIRNONCE_SIZE];
	struct crypto_tfm *tfm;
	unsigned int slot;
	int n = dir_nonce(fs, dir, dfd, nonce);

	if (n)
		return n;
	vkeyring_enter(fs->keyring);
	tfm = vkeyring_get(fs->keyring, VKEY_NAMES, nonce, &slot, &n);
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
		vkeyring_put(fs->keyring, slot);
	}
	vkeyring_leave(fs->keyring);
	return n;
}

int entry_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		  const char *name, struct entry_name *out)
{
	int n;

	if (strlen(name) > NAMES_MAX_PLAIN)
		return -ENAMETOOLONG;
	n = name_crypt(fs, dir, dfd, NAME_ENCRYPT, name, strlen(name), out->enc,
		       sizeof(out->enc));
	if (n < 0)
		return n;
	out->enclen = (size_t)n;
	out->is_long = names_is_long(out->enclen, fs->cfg.name_max);
	if (!out->is_long) {
		memcpy(out->name, out->enc, out->enclen + 1);
		return 0;
	}
	return names_long_name(out->enc, out->enclen, out->name);
}

int entry_prepare(int dfd, const struct entry_name *e)
{
	if (!e->is_long)
		return 0;
	return names_write_sidecar(dfd, e->name, e->enc, e->enclen);
}

void entry_forget_sidecar(int dfd, const struct entry_name *e)
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

int entry_decrypt(struct cloakfs *fs, struct fs_inode *dir, int dirfd,
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
	n = name_crypt(fs, dir, dirfd, NAME_DECRYPT, enc, enclen, out,
		       NAMES_MAX_PLAIN + 1);
	return n < 0 ? n : 1;
}

int entry_symlink_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			  const char *target,
			  char out[NAMES_MAX_SYMLINK_ENCODED + 1])
{
	size_t len = strnlen(target, NAMES_MAX_SYMLINK_PLAIN + 1);
	int n;

	if (len > NAMES_MAX_SYMLINK_PLAIN)
		return -ENAMETOOLONG;
	n = name_crypt(fs, dir, dfd, TARGET_ENCRYPT, target, len, out,
		       NAMES_MAX_SYMLINK_ENCODED + 1);
	return n < 0 ? n : 0;
}

int entry_symlink_decrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			  const char *enc, size_t enclen,
			  char out[NAMES_MAX_SYMLINK_PLAIN + 1])
{
	return name_crypt(fs, dir, dfd, TARGET_DECRYPT, enc, enclen, out,
			  NAMES_MAX_SYMLINK_PLAIN + 1);
}
