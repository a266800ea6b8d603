/* SPDX-License-Identifier: MIT */
/*
 * Directory operations on the ciphertext tree shared by the filesystem
 * (fs/ops-*.c) and cloakfs-fsck --repair: temporary names for entries under
 * construction, rename without replacing, building a new directory with
 * its nonce file, listing a directory held by an O_PATH descriptor, and
 * re-creating a symlink (whose target is re-encrypted for a new directory).
 */
#ifndef CLOAKFS_VOLUME_DIROPS_H
#define CLOAKFS_VOLUME_DIROPS_H

#include <dirent.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "volume/names/vname.h"

/* names no encryption produces (VNAME_ENTRY_TEMP); fsck reports one
 * left by a crash */
#define DIROPS_TEMP_PREFIX VNAME_TEMP_PREFIX
#define DIROPS_TEMP_NAME_SIZE 64 /* room for one, with its NUL */

/* a fresh random temporary name; 0 or -errno */
int dirops_temp_name(char out[DIROPS_TEMP_NAME_SIZE]);

/*
 * renameat2 RENAME_NOREPLACE, emulated where the filesystem lacks it
 * (GlusterFS's FUSE client answers EINVAL) without a window in which
 * another writer's newname could be replaced: a non-directory is linked
 * to newname (link(2) fails with EEXIST when it is taken), then its old
 * name removed; a directory gets newname made first as an empty
 * directory of its own (mkdir(2): EEXIST), then renamed over it, which
 * the filesystem refuses (ENOTEMPTY, answered as EEXIST) should anyone
 * have put something in it meanwhile; a refusal while it is still ours
 * and empty (GlusterFS, now and then) takes it back and claims again, a
 * few times, then gives -EIO with nothing left; an EEXIST answering
 * the claim of a name that is not there (GlusterFS, two clients' mkdirs
 * at once) is claimed again the same way. Only where neither link nor mkdir
 * can do it (a filesystem without hard links) is it a check, then a
 * rename. 0 or -errno (-EEXIST when newname exists).
 */
int dirops_rename_noreplace(int olddir, const char *oldname, int newdir,
			    const char *newname);

/*
 * A new directory name in parentfd with permissions mode & 07777: built
 * under a temporary name (with its nonce file, writable for that) and
 * renamed into place without replacing anything, so no crash leaves a
 * directory without its nonce. before_rename (may be NULL) sees the
 * finished directory under its temporary name. 0 or -errno; on failure
 * nothing is left behind.
 */
int dirops_make_dir(int parentfd, const char *name, mode_t mode,
		    void (*before_rename)(int parentfd, const char *tmp,
					  void *arg),
		    void *arg);

/*
 * Take back a directory dirops_make_dir made (an operation failed after
 * it): its nonce file, then the directory, if it is still empty. 0 or
 * -errno.
 */
int dirops_unmake_dir(int parentfd, const char *name);

/*
 * Symlink name in dirfd: its stat into *st and its target into
 * buf[0..size), NUL-terminated. Returns the target's length, or -errno;
 * -EBADMSG when it is longer than size - 2 bytes (size: the longest
 * encoding cloakfs writes + 2).
 */
ssize_t dirops_read_symlink(int dirfd, const char *name, struct stat *st,
			    char *buf, size_t size);

/*
 * A new symlink name in dirfd to target, with the owner and times of old
 * (the stat of the symlink it stands for) where they can be set; 0 or
 * -errno.
 */
int dirops_symlink_like(const char *target, int dirfd, const char *name,
			const struct stat *old);

#endif
