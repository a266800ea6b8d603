/* SPDX-License-Identifier: MIT */
/* see entry.h */
#include "fs/entry.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

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

int entry_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		  const char *name, struct vdir_name *out)
{
	uint8_t nonce[NAMES_DIRNONCE_SIZE];
	int err = dir_nonce(fs, dir, dfd, nonce);

	return err ? err : vdir_name_encrypt(fs->keyring, nonce,
					     fs->cfg.name_max, name, out);
}

int entry_decrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		  const char *cname, char out[NAMES_MAX_PLAIN + 1])
{
	uint8_t nonce[NAMES_DIRNONCE_SIZE];
	int err;

	if (names_classify(cname) != NAMES_ENTRY_ENCRYPTED &&
	    names_classify(cname) != NAMES_ENTRY_LONG)
		return 0; /* hidden: no nonce needed */
	err = dir_nonce(fs, dir, dfd, nonce);
	return err ? err : vdir_name_decrypt(fs->keyring, nonce, dfd, cname, out);
}

int entry_symlink_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			  const char *target,
			  char out[NAMES_MAX_SYMLINK_ENCODED + 1])
{
	uint8_t nonce[NAMES_DIRNONCE_SIZE];
	int err = dir_nonce(fs, dir, dfd, nonce);

	return err ? err : vdir_target_encrypt(fs->keyring, nonce, target, out);
}

int entry_symlink_decrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			  const char *enc, size_t enclen,
			  char out[NAMES_MAX_SYMLINK_PLAIN + 1])
{
	uint8_t nonce[NAMES_DIRNONCE_SIZE];
	int err = dir_nonce(fs, dir, dfd, nonce);

	return err ? err : vdir_target_decrypt(fs->keyring, nonce, enc, enclen,
					       out);
}
