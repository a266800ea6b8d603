/* SPDX-License-Identifier: MIT */
/*
 * Extended attributes an inode is known not to have, for the three names
 * the kernel asks about without being asked to: security.capability
 * before every write (FUSE's killpriv handling is off, so the kernel
 * checks) and the two POSIX ACLs on create and permission checks. Each
 * answer is a lookup of an absent name in the ciphertext inode: cheap on
 * a local disk, a round trip to the servers on network storage (about
 * 15% of an untar on GlusterFS, docs/performance.md).
 *
 * A name found absent is remembered per inode: on the default mount
 * until this mount sets or removes any attribute of the inode (it is the
 * only writer); with -o shared for one attribute timeout at most, as
 * attributes are. A change bumps a generation first noted by the lookup,
 * so a lookup racing a change never remembers a stale absence.
 */
#ifndef CLOAKFS_FS_XATTR_ABSENT_H
#define CLOAKFS_FS_XATTR_ABSENT_H

#include <stdint.h>

struct cloakfs;
struct fs_inode;

/*
 * Whether name is known absent from in (1: answer ENODATA), else 0 with
 * *seen set for xattr_absent_note; names not remembered give 0.
 */
int xattr_absent_known(struct cloakfs *fs, struct fs_inode *in,
		       const char *name, uint64_t *seen);

/* name was just found absent from in, *seen from xattr_absent_known */
void xattr_absent_note(struct cloakfs *fs, struct fs_inode *in,
		       const char *name, uint64_t seen);

/*
 * in is a file this mount just made (O_EXCL), its inherited ACLs set:
 * it has none of the names but the ACLs given as inherited (1)
 */
void xattr_absent_new_file(struct cloakfs *fs, struct fs_inode *in,
			   int has_acl_access, int has_acl_default);

/* after any change to in's attributes: forget every absence */
void xattr_absent_forget(struct fs_inode *in);

#endif
