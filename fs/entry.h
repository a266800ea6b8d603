/* SPDX-License-Identifier: MIT */
/*
 * A directory inode's entries: volume/names/direntry.h's calls with the
 * directory's nonce, read once per directory inode and kept there
 * (fs_inode.nonce), and the volume's keyring. -EACCES while the volume
 * is locked; -EIO when the directory's nonce is missing or damaged.
 */
#ifndef CLOAKFS_FS_ENTRY_H
#define CLOAKFS_FS_ENTRY_H

#include <stddef.h>

#include "volume/entryops.h"
#include "volume/names/direntry.h"
#include "volume/names/symlink.h"

struct cloakfs;
struct fs_inode;

/*
 * --show-undecodable (-o badname): an entry whose name cannot be
 * decrypted is listed as its ciphertext name with this suffix, and that
 * name reaches it (to rename or delete it). base64url has no '.', so
 * the suffix never hides a part of the ciphertext name.
 */
#define ENTRY_UNDECODABLE_SUFFIX ".undecodable"
#define ENTRY_UNDECODABLE_MAX \
	(VNAME_MAX_ENCODED + sizeof(ENTRY_UNDECODABLE_SUFFIX) - 1)

/*
 * Every call takes dir and dfd, a descriptor of dir held by the caller
 * (inode_fd_hold) or another descriptor of the same directory.
 */

/* direntry_name_encrypt for dir; with --show-undecodable, a listed
 * undecodable name (above) gives the entry it stands for */
int entry_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		  const char *name, struct direntry_name *out);
/* direntry_name_decrypt for ciphertext entry cname of dir, of kind
 * vname_classify(cname) */
int entry_decrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
		  const char *cname, enum vname_entry kind,
		  char out[VNAME_MAX_PLAIN + 1]);
/* the name an undecodable entry cname is listed as; -ENAMETOOLONG */
int entry_undecodable_name(const char *cname,
			   char out[ENTRY_UNDECODABLE_MAX + 1]);

/*
 * Symlink targets, through volume/symtext.h, which knows what the
 * volume's format version writes and reads. encrypt: the text for
 * symlink(2) of a new symlink in dir, 0 or -errno; a long version-2
 * target is written to the volume's store first (entry_symlink_discard
 * takes it back when symlink(2) fails).
 */
int entry_symlink_encrypt(struct cloakfs *fs, struct fs_inode *dir, int dfd,
			  const char *target,
			  char out[SYMLINK_MAX_STORED + 1]);
void entry_symlink_discard(struct cloakfs *fs, const char *text);
/* the target of symlink inode in's text (len chars): its length, or
 * -errno (-EBADMSG: damaged; -EIO: its directory is unknown when the
 * text is keyed by it) */
int entry_symlink_decode(struct cloakfs *fs, struct fs_inode *in,
			 const char *text, size_t len,
			 char out[SYMLINK_MAX_PLAIN + 1]);

/*
 * rename(2) of src (in dir) over dst (in newdir): entryops_rename
 * (volume/entryops.h) in the mount's volume with the two directories'
 * nonces, which this fills in. src and dst: dfd, name and st set (dst's
 * NULL when it does not exist); *done says what the inode table learns.
 */
int entry_rename(struct cloakfs *fs, struct fs_inode *dir,
		 struct respell_entry *src, struct fs_inode *newdir,
		 struct respell_entry *dst, unsigned int flags,
		 unsigned int *done);

#endif
