/* SPDX-License-Identifier: MIT */
/*
 * Directory entries of the ciphertext tree (docs/format.md sections 4
 * and 5), for the mount and cloakfs-fsck alike: a plaintext name becomes
 * its ciphertext entry under its directory's name key (the long form and
 * its sidecar beyond name_max), a symlink target its encoding, and a
 * directory's nonce lives and dies with the directory.
 *
 * Every call takes directory descriptors (O_PATH ones do) and, where keys
 * are needed, the volume's keyring and the directory's nonce (read with
 * dirnonce_load; the mount keeps it per inode). Each encryption or
 * decryption is one key section of its own (keyring.h), after the I/O:
 * -EACCES while the volume is locked.
 */
#ifndef CLOAKFS_VOLUME_NAMES_DIRENTRY_H
#define CLOAKFS_VOLUME_NAMES_DIRENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "volume/names/vname.h"

struct keyring;

struct direntry_name {
	char name[VNAME_MAX_ENCODED + 1]; /* in the ciphertext directory */
	char enc[VNAME_MAX_ENCODED + 1];  /* the whole encoding */
	size_t enclen;
	int is_long;                      /* name is cloakfs.long.X */
};

/*
 * Encrypt name (one component) for the directory with this nonce, in the
 * long form beyond name_max: 0, -ENAMETOOLONG, -EINVAL, -EACCES.
 */
int direntry_name_encrypt(struct keyring *kr,
		      const uint8_t nonce[DIRNONCE_SIZE],
		      unsigned int name_max, const char *name,
		      struct direntry_name *out);

/* before creating a long-named entry in dfd: write its sidecar */
int direntry_name_prepare(int dfd, const struct direntry_name *e);
/* after the entry went away (or was never made): remove its sidecar when
 * no entry of that name exists */
void direntry_name_forget(int dfd, const struct direntry_name *e);

/*
 * The plaintext name of ciphertext entry cname in dirfd (an open
 * descriptor, for sidecars). 1 and out filled for a user entry, 0 for
 * entries cloakfs hides (its metadata, ".", "..", foreign names),
 * -EBADMSG for an undecodable one, other -errno.
 */
int direntry_name_decrypt(struct keyring *kr,
		      const uint8_t nonce[DIRNONCE_SIZE], int dirfd,
		      const char *cname, char out[VNAME_MAX_PLAIN + 1]);

/* symlink targets under the directory's name key (version 1) */
int direntry_target_encrypt(struct keyring *kr,
			const uint8_t nonce[DIRNONCE_SIZE],
			const char *target,
			char out[VNAME_MAX_SYMLINK_ENCODED + 1]);
int direntry_target_decrypt(struct keyring *kr,
			const uint8_t nonce[DIRNONCE_SIZE],
			const char *enc, size_t enclen,
			char out[VNAME_MAX_SYMLINK_PLAIN + 1]);

/*
 * The directory-nonce lifecycle (docs/format.md, "Directory nonce"): a
 * directory holds its nonce file until it is removed, and gets it back
 * whenever a removal fails, so a directory that stays is never without
 * its names' key.
 */

/* does ciphertext directory dfd hold anything but its nonce? 1, 0, -errno */
int direntry_is_empty(int dfd);

/*
 * rmdir of cname in parentfd: -ENOTEMPTY unless it holds only its nonce;
 * the nonce file goes first and is written back if the rmdir fails.
 */
int direntry_remove(int parentfd, const char *cname);

/* a directory about to be replaced by a rename, its nonce put aside */
struct direntry_victim {
	int fd; /* -1: no directory is replaced */
	uint8_t nonce[DIRNONCE_SIZE];
};

/*
 * Before renaming a directory over cname in dfd: if cname is an empty
 * directory, take its nonce file away (rename(2) replaces only an empty
 * directory). 0 (v->fd -1 when cname is no directory), -ENOTEMPTY,
 * -errno.
 */
int direntry_victim_clear(int dfd, const char *cname, struct direntry_victim *v);
/* after the rename: when it failed, the victim gets its nonce back; then
 * v is released */
void direntry_victim_end(struct direntry_victim *v, int failed);

#endif
