/* SPDX-License-Identifier: MIT */
/*
 * A symlink's text in an open volume (names/internal/linktext.h over
 * struct volume): the format version decides how a target is written and
 * whether reading one needs its directory's key (a version-1 text),
 * here, so the mount neither passes the version nor asks which.
 */
#ifndef CLOAKFS_VOLUME_SYMTEXT_H
#define CLOAKFS_VOLUME_SYMTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "volume/names/symlink.h"
#include "volume/names/vname.h"
#include "volume/volume.h"

/*
 * The text for symlink(2) of a new symlink to target in the directory
 * with this nonce: linktext_encode (0 or -errno). A long version-2
 * target is written to the volume's store first (symlink_discard takes
 * it back when symlink(2) fails).
 */
int symtext_encode(struct volume *v, const uint8_t dirnonce[DIRNONCE_SIZE],
		   const char *target, char text[SYMLINK_MAX_STORED + 1]);

/* the nonce of the directory a symlink is in, asked for by symtext_decode
 * only when its text is keyed by it: 0 or -errno */
typedef int (*symtext_dir_nonce)(void *arg, uint8_t nonce[DIRNONCE_SIZE]);

/*
 * The target of text (len chars) into out, NUL-terminated: its length, or
 * -EBADMSG (damaged), -EACCES (locked), the dir_nonce call's -errno,
 * -errno.
 */
int symtext_decode(struct volume *v, const char *text, size_t len,
		   symtext_dir_nonce dir_nonce, void *arg,
		   char out[SYMLINK_MAX_PLAIN + 1]);

#endif
