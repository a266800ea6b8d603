/* SPDX-License-Identifier: MIT */
/*
 * The text of a ciphertext symlink, for the volume's format version
 * (docs/format.md 7.4): version 2 encodes every target under the volume's
 * symlink key (volume/names/symlink.h, long ones in the target store), version
 * 1 under the directory's name key (volume/names/direntry.h). The names
 * wing's own (internal/): the version is an argument here, so the mount
 * reaches these through volume/symtext.h, which takes the volume.
 */
#ifndef CLOAKFS_VOLUME_NAMES_INTERNAL_LINKTEXT_H
#define CLOAKFS_VOLUME_NAMES_INTERNAL_LINKTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "volume/names/vname.h"
#include "volume/names/symlink.h"

struct keyring;

/* the volume a symlink text belongs to */
struct linktext_volume {
	struct keyring *kr;
	unsigned int version; /* the config's format version */
	size_t blocksize;     /* the cipher's block size */
	int rootfd;           /* the ciphertext root (the target store) */
};

/*
 * The text for symlink(2) of a new symlink to target (NUL-terminated) in
 * the directory whose nonce is dirnonce: 0, or -ENAMETOOLONG (longer than
 * the version stores), -EINVAL, -EACCES (locked), -errno.
 */
int linktext_encode(const struct linktext_volume *v,
		     const uint8_t dirnonce[DIRNONCE_SIZE],
		     const char *target, char text[SYMLINK_MAX_STORED + 1]);

/* does decoding text (len chars) need its directory's nonce? 1 or 0 */
int linktext_needs_dir(const struct linktext_volume *v, const char *text,
			size_t len);

/*
 * The target of text (len chars) into out, NUL-terminated; dirnonce is
 * its directory's nonce when linktext_needs_dir says so, else unused
 * (may be NULL). Its length, or -EBADMSG (damaged), -EINVAL (a nonce
 * needed and not given), -EACCES, -errno.
 */
int linktext_decode(const struct linktext_volume *v,
		     const uint8_t *dirnonce, const char *text, size_t len,
		     char out[SYMLINK_MAX_PLAIN + 1]);

#endif
