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

#include "crypto/log.h"
#include "fs/fs.h"
#include "fs/inode.h"
#include "volume/fdio.h"

/* the directory's keyed name transform; dir->lock held */
static int names_tfm(struct cloakfs *fs, const struct volume_keys *keys,
		     struct fs_inode *dir, int dfd)
{
	struct names_dirnonce_state st;
	uint8_t nonce[NAMES_DIRNONCE_SIZE];
	char why[256], where[PATH_MAX];
	int err;

	if (dir->names)
		return 0;
	err = names_dirnonce_load(dfd, keys, nonce, &st);
	if (!dir->names_warned && names_dirnonce_describe(&st, why, sizeof(why))) {
		if (volume_fd_path(dfd, where, sizeof(where)) != 0)
			snprintf(where, sizeof(where), "%s: a directory",
				 fs->cipherdir);
		log_warn("%s: %s (run cloakfs-fsck --repair)", where, why);
		dir->names_warned = 1;
	}
	explicit_bzero(&st, sizeof(st));
	if (err)
		return -EIO;
	dir->names = keys_names_tfm(keys, nonce, &err);
	explicit_bzero(nonce, sizeof(nonce));
	return dir->names ? 0 : err;
}

int entry_encrypt(struct cloakfs *fs, const struct volume_keys *keys,
		  struct fs_inode *dir, int dfd, const char *name,
		  struct entry_name *out)
{
	int n;

	if (strlen(name) > NAMES_MAX_PLAIN)
		return -ENAMETOOLONG;
	pthread_mutex_lock(&dir->lock);
	n = names_tfm(fs, keys, dir, dfd);
	if (!n)
		n = names_encrypt(dir->names, name, strlen(name), out->enc,
				  sizeof(out->enc));
	pthread_mutex_unlock(&dir->lock);
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

int entry_decrypt(struct cloakfs *fs, const struct volume_keys *keys,
		  struct fs_inode *dir, int dirfd, const char *cname,
		  char out[NAMES_MAX_PLAIN + 1])
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
	pthread_mutex_lock(&dir->lock);
	n = names_tfm(fs, keys, dir, dirfd);
	if (!n)
		n = names_decrypt(dir->names, enc, enclen, out,
				  NAMES_MAX_PLAIN + 1);
	pthread_mutex_unlock(&dir->lock);
	return n < 0 ? n : 1;
}

int entry_symlink_encrypt(struct cloakfs *fs, const struct volume_keys *keys,
			  struct fs_inode *dir, int dfd, const char *target,
			  char out[NAMES_MAX_SYMLINK_ENCODED + 1])
{
	size_t len = strnlen(target, NAMES_MAX_SYMLINK_PLAIN + 1);
	int n;

	if (len > NAMES_MAX_SYMLINK_PLAIN)
		return -ENAMETOOLONG;
	pthread_mutex_lock(&dir->lock);
	n = names_tfm(fs, keys, dir, dfd);
	if (!n)
		n = names_symlink_encrypt(dir->names, target, len, out,
					  NAMES_MAX_SYMLINK_ENCODED + 1);
	pthread_mutex_unlock(&dir->lock);
	return n < 0 ? n : 0;
}

int entry_symlink_decrypt(struct cloakfs *fs, const struct volume_keys *keys,
			  struct fs_inode *dir, int dfd, const char *enc,
			  size_t enclen,
			  char out[NAMES_MAX_SYMLINK_PLAIN + 1])
{
	int n;

	pthread_mutex_lock(&dir->lock);
	n = names_tfm(fs, keys, dir, dfd);
	if (!n)
		n = names_symlink_decrypt(dir->names, enc, enclen, out,
					  NAMES_MAX_SYMLINK_PLAIN + 1);
	pthread_mutex_unlock(&dir->lock);
	return n;
}
