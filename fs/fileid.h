/* SPDX-License-Identifier: MIT */
/*
 * Which file a ciphertext descriptor is, beyond its (st_dev, st_ino): its
 * file handle (name_to_handle_at, which carries the inode's generation),
 * else its birth time. So a file that took a freed inode number is told
 * apart from the one that had it (docs/design.md, "Descriptors"), and a
 * privileged mount can open a file by its handle.
 */
#ifndef CLOAKFS_FS_FILEID_H
#define CLOAKFS_FS_FILEID_H

#include <sys/types.h>

struct fileid;

/* fd's identity (malloc'd, free() it), or NULL when the backing
 * filesystem gives neither a handle nor a birth time (or out of memory) */
struct fileid *fileid_of(int fd);

/* a copy of id (free() it), or NULL when out of memory */
struct fileid *fileid_dup(const struct fileid *id);

/* the same file; two NULLs are not (nothing to tell them by) */
int fileid_equal(const struct fileid *a, const struct fileid *b);

/* opening by file handle within one backing filesystem */
struct fileid_opener {
	int mount_fd; /* a real descriptor on it, or -1: cannot */
	dev_t dev;
};

/*
 * Can this process open files of rootfd's filesystem by handle
 * (open_by_handle_at needs CAP_DAC_READ_SEARCH)? o->mount_fd is then a
 * descriptor of its own (close it at the end), else -1.
 */
void fileid_probe(struct fileid_opener *o, int rootfd);

/*
 * An O_PATH|O_NOFOLLOW descriptor of the file with identity id, device
 * dev and inode number ino, opened by its handle, if it still has a name
 * somewhere (st_nlink > 0). -ESTALE when the file is gone (or another),
 * -EPERM when this process cannot open by handle, other -errno.
 */
int fileid_open(const struct fileid_opener *o, const struct fileid *id,
		dev_t dev, ino_t ino);

#endif
