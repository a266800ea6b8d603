/* SPDX-License-Identifier: MIT */
/*
 * Version-1 symlinks changing directory (docs/format.md 7.4): a version-1
 * target is encrypted under its directory's name key, so a symlink that
 * moves to another directory cannot keep its ciphertext. A rename re-
 * encrypts it there as a new symlink (a new inode, with the old one's
 * owner and times), and a hard link into another directory is refused.
 * Version-2 targets do not depend on their directory and move as they
 * are.
 */
#ifndef CLOAKFS_VOLUME_RESPELL_H
#define CLOAKFS_VOLUME_RESPELL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "volume/names/direntry.h"

struct keyring;

/*
 * Is an entry of this mode, in a volume of this format version, bound to
 * its directory (a version-1 symlink)? 1 or 0. A rename of it into
 * another directory takes respell_rename; a link(2) of it into another
 * directory is EPERM.
 */
int respell_bound(unsigned int version, mode_t mode);

/* one side of a rename: an entry of a ciphertext directory */
struct respell_entry {
	int dfd;                       /* the directory (O_PATH will do) */
	const uint8_t *nonce;          /* its nonce, DIRNONCE_SIZE
					* bytes: its name key */
	const struct direntry_name *name;  /* the entry's encrypted name */
	const struct stat *st;         /* its lstat (the destination's is
					* read for RENAME_EXCHANGE only) */
};

/*
 * rename(2) of src over dst in another directory, flags 0,
 * RENAME_NOREPLACE or RENAME_EXCHANGE, where src (or, for an exchange,
 * either entry) is respell_bound: each such symlink's target is read,
 * decoded under its own directory's key (a version-2 text, left by an
 * interrupted upgrade, under the volume's symlink key: rootfd and the
 * cipher's block size bs), encrypted for the other directory, and made
 * there under a temporary name (dirops.h), which then takes the entry's
 * place: exchanged with an existing destination (or renamed to a new
 * name) and the source unlinked, or, for an exchange, each copy exchanged
 * with the entry it replaces (a copy whose other side moves as it is is
 * made in its own directory, exchanged with that entry, then with the
 * original), so that what ends under a temporary name is spelled for the
 * directory it is in; it is removed. The long names' sidecars are
 * written and removed with their entries (direntry.h). kr: the volume's
 * keyring (each decryption and encryption a key section of its own, all
 * before the first change); version: the volume's format version.
 *
 * 0 or -errno: -EEXIST (RENAME_NOREPLACE, dst exists), -EISDIR (dst is a
 * directory), -EBADMSG (a target that does not decode), -EACCES (locked),
 * -ENAMETOOLONG (a target over the version-1 limit), -EINVAL (bad flags,
 * or nothing is bound), -errno of the calls. On failure nothing has
 * changed: every step is an exchange or a new name, undone when a later
 * one fails (a source that cannot be unlinked takes the destination
 * back), unless the undo fails too or the backing store has no
 * RENAME_EXCHANGE (then a replaced destination cannot come back). After
 * success a temporary name that cannot be removed may stay (hidden;
 * cloakfs-fsck reports it), as after a crash.
 */
int respell_rename(struct keyring *kr, int rootfd, size_t bs,
		    unsigned int version, const struct respell_entry *src,
		    const struct respell_entry *dst, unsigned int flags);

#endif
