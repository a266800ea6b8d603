/* SPDX-License-Identifier: MIT */
/*
 * Moving, linking and removing entries of the ciphertext tree, for the
 * mount: the whole protocol of a rename, a link(2), an unlink(2) and a
 * rmdir(2) under one call each, whatever
 * the format version asks (docs/format.md 7.3, 7.4): a long name's
 * sidecar written before the entry appears and removed after it went, a
 * directory replaced by a rename losing its nonce only once the rename is
 * done (direntry.h), a symlink's stored target kept while it has a name
 * (names/symlink.h), and a version-1 symlink re-encrypted for the
 * directory it moves to or refused a link there (respell.h).
 */
#ifndef CLOAKFS_VOLUME_ENTRYOPS_H
#define CLOAKFS_VOLUME_ENTRYOPS_H

#include <sys/stat.h>

#include "volume/names/direntry.h"
#include "volume/respell.h"
#include "volume/volume.h"

/* what entryops_rename did (its *done), for the caller's own records */
enum {
	ENTRYOPS_NOTHING = 1,    /* two names of one file: nothing (POSIX) */
	/* a symlink moved to a directory under another name key is a new
	 * inode there: */
	ENTRYOPS_SRC_REMADE = 2, /* src's entry, now at dst's name */
	ENTRYOPS_DST_REMADE = 4, /* an exchange: dst's entry, at src's name */
};

/*
 * rename(2) of src over dst, flags 0, RENAME_NOREPLACE or
 * RENAME_EXCHANGE, or RENAME_WHITEOUT (with or without NOREPLACE: the
 * store's own renameat2 leaves the whiteout, a character device 0/0,
 * under src's encrypted name, which keeps its long-name sidecar; the
 * store decides who may: CAP_MKNOD), in v (unlocked: its keyring,
 * version, cipher and root). Each side: its directory's descriptor and nonce (NULL: lost;
 * the same pointer for one directory), the entry's encrypted name and
 * lstat; dst->st NULL when dst does not exist.
 *
 * 0 and *done, or -errno: -EINVAL (bad flags), -ENOENT (an exchange with
 * nothing to exchange), -EEXIST (RENAME_NOREPLACE), -ENOTEMPTY, -EIO (a
 * symlink to re-encrypt where a directory's nonce is lost; -EINVAL too
 * for a whiteout of such a version-1 symlink), and those of
 * respell_rename and rename(2). On failure nothing has changed
 * (respell.h says when an undo cannot be made).
 */
int entryops_rename(struct volume *v, const struct respell_entry *src,
		    const struct respell_entry *dst, unsigned int flags,
		    unsigned int *done);

/*
 * link(2) of the entry open as fd (an O_PATH descriptor will do; mode:
 * its file type) to the new name to in the directory dfd. own_dir: dfd
 * is the entry's own directory (where a version-1 symlink's target is
 * keyed; anywhere else it is -EPERM). 0 or -errno; on failure no
 * sidecar is left behind.
 */
int entryops_link(struct volume *v, int fd, mode_t mode, int own_dir,
		  int dfd, const struct direntry_name *to);

/*
 * unlink(2) of the entry to (no directory) in dfd: its sidecar goes with
 * it, and a symlink's stored target with its last name. 0 or -errno.
 */
int entryops_unlink(struct volume *v, int dfd, const struct direntry_name *to);

/*
 * rmdir(2) of the directory to in dfd: direntry_remove (its nonce comes
 * back if the rmdir fails), then its sidecar. 0 or -errno (-ENOTEMPTY).
 */
int entryops_rmdir(int dfd, const struct direntry_name *to);

#endif
