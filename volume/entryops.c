/* SPDX-License-Identifier: MIT */
/* see entryops.h */
#include "volume/entryops.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/procfd.h"
#include "volume/dirops.h"
#include "volume/names/symlink.h"

/* a rename that keeps every entry's inode: the entries' names only */
static int rename_plain(const struct respell_entry *src,
			const struct respell_entry *dst, unsigned int flags,
			int dirs)
{
	struct direntry_victim victim = { .fd = -1 };
	int err = direntry_name_prepare(dst->dfd, dst->name);

	/* a directory replacing an empty one: the target's nonce goes
	 * first, and comes back if the rename fails */
	if (!err && dirs && !(flags & RENAME_EXCHANGE))
		err = direntry_victim_clear(dst->dfd, dst->name->name, &victim);
	if (err)
		return err;
	if (renameat2(src->dfd, src->name->name, dst->dfd, dst->name->name,
		      flags) != 0) {
		err = -errno;
		if (flags == RENAME_NOREPLACE && (err == -EINVAL || err == -ENOSYS))
			err = dirops_rename_noreplace(src->dfd, src->name->name,
						      dst->dfd, dst->name->name);
	}
	direntry_victim_end(&victim, err != 0);
	if (err) {
		if (err != -EEXIST)
			direntry_name_forget(dst->dfd, dst->name);
		return err;
	}
	/* a whiteout at the source's name keeps its sidecar: forget
	 * leaves one whose entry is there */
	if (!(flags & RENAME_EXCHANGE))
		direntry_name_forget(src->dfd, src->name);
	return 0;
}

/* do the two directories key names alike (NULL: a lost nonce)? */
static int same_key(const uint8_t *a, const uint8_t *b)
{
	return a == b || (a && b && memcmp(a, b, DIRNONCE_SIZE) == 0);
}

/*
 * A rename with a version-1 symlink changing its name key (its target
 * is keyed by its directory's nonce): re-encrypted there. 1 and *err
 * when it was one, else 0.
 */
static int rename_bound(struct volume *v, const struct respell_entry *src,
			const struct respell_entry *dst, unsigned int flags,
			unsigned int *done, int *err)
{
	int src_bound, dst_bound;

	if (same_key(src->nonce, dst->nonce))
		return 0;
	src_bound = respell_bound(v->version, src->st->st_mode);
	dst_bound = (flags & RENAME_EXCHANGE) &&
		    respell_bound(v->version, dst->st->st_mode);
	if (!src_bound && !dst_bound)
		return 0;
	if (!src->nonce || !dst->nonce) {
		*err = -EIO;
		return 1;
	}
	*err = respell_rename(v->keyring, v->rootfd, v->cipher->blocksize,
			      v->version, src, dst, flags);
	if (!*err)
		*done = (src_bound ? ENTRYOPS_SRC_REMADE : 0) |
			(dst_bound ? ENTRYOPS_DST_REMADE : 0);
	return 1;
}

int entryops_rename(struct volume *v, const struct respell_entry *src,
		    const struct respell_entry *dst, unsigned int flags,
		    unsigned int *done)
{
	int xchg = !!(flags & RENAME_EXCHANGE), pin, err;

	*done = 0;
	if ((flags & ~(unsigned int)(RENAME_NOREPLACE | RENAME_EXCHANGE |
				     RENAME_WHITEOUT)) ||
	    (xchg && (flags & (RENAME_NOREPLACE | RENAME_WHITEOUT))))
		return -EINVAL;
	if (xchg && !dst->st)
		return -ENOENT;
	if (dst->st && !xchg && src->st->st_dev == dst->st->st_dev &&
	    src->st->st_ino == dst->st->st_ino) {
		*done = ENTRYOPS_NOTHING;
		return (flags & RENAME_NOREPLACE) ? -EEXIST : 0;
	}
	if (rename_bound(v, src, dst, flags, done, &err))
		return err;
	/* a replaced symlink's stored target goes with its last name */
	pin = dst->st && !xchg ? symlink_pin(dst->dfd, dst->name->name) : -1;
	err = rename_plain(src, dst, flags,
			   dst->st && S_ISDIR(src->st->st_mode) &&
				   S_ISDIR(dst->st->st_mode));
	symlink_unpin(v->rootfd, pin);
	return err;
}

int entryops_link(struct volume *v, int fd, mode_t mode, int own_dir,
		  int dfd, const struct direntry_name *to)
{
	char path[PROCFD_LEN];
	int err;

	/* its target is encrypted for its own directory */
	if (!own_dir && respell_bound(v->version, mode))
		return -EPERM;
	err = direntry_name_prepare(dfd, to);
	if (err)
		return err;
	procfd_path(fd, path);
	if (linkat(AT_FDCWD, path, dfd, to->name, AT_SYMLINK_FOLLOW) != 0) {
		err = -errno;
		direntry_name_forget(dfd, to);
	}
	return err;
}

int entryops_unlink(struct volume *v, int dfd, const struct direntry_name *to)
{
	int pin = symlink_pin(dfd, to->name), err = 0;

	if (unlinkat(dfd, to->name, 0) != 0)
		err = -errno;
	symlink_unpin(v->rootfd, pin);
	if (!err)
		direntry_name_forget(dfd, to);
	return err;
}

int entryops_rmdir(int dfd, const struct direntry_name *to)
{
	int err = direntry_remove(dfd, to->name);

	if (!err)
		direntry_name_forget(dfd, to);
	return err;
}
