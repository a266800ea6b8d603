/* SPDX-License-Identifier: MIT */
/* cloakfs-fsck: quarantine into lost+found.cloakfs, nonce repair, the repair note (fsck-repair.c) */
#ifndef CLOAKFS_TOOLS_FSCK_REPAIR_H
#define CLOAKFS_TOOLS_FSCK_REPAIR_H

#include "tools/fsck.h"

/*
 * Move dirfd/cname into lost+found.cloakfs/ (made on first use). plain:
 * its plaintext name when it decodes (used when free, else with "~N"),
 * else NULL and a name "<stem>-N" is made. from_names: the source
 * directory's name transform, to re-encode a symlink's target (NULL:
 * the target is moved as it is). is_long: remove cname's sidecar after.
 * Writes "lost+found.cloakfs/<name>" into where. 0 or -errno.
 */
int fsck_quarantine(struct fsck *f, int dirfd, const char *cname, bool is_long,
		    const char *plain, const char *stem,
		    struct crypto_tfm *from_names, char *where, size_t wherelen);

/*
 * A new, empty regular file (mode 0600) in lost+found.cloakfs/ (made on
 * first use), named as fsck_quarantine names what it moves; its
 * plaintext name in name. An O_RDWR descriptor, or -errno.
 */
int fsck_lost_found_create(struct fsck *f, const char *plain, const char *stem,
			   char name[VNAME_MAX_PLAIN + 1]);

/*
 * Put nonce into dirfd's .cloakfs.dir and its copy. present: something
 * is at .cloakfs.dir now (a damaged file, a FIFO, a wrong nonce): it is
 * moved into lost+found as dirnonce-bad-N, never deleted (it may be the
 * nonce that names something). where gets what was done. 0 or -errno.
 */
int fsck_put_dirnonce(struct fsck *f, int dirfd, const uint8_t *nonce,
		      bool present, char *where, size_t wherelen);

/*
 * Append one line to this run's repair note, an encrypted file
 * "fsck-repair-<UTC time>.txt" in lost+found.cloakfs (made on first use),
 * so what repair did stays readable through the mount: every move,
 * rename, removal and replaced nonce, with the ciphertext names. 0 or
 * -errno (then said once on stderr).
 */
int fsck_log(struct fsck *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* open lost+found.cloakfs if it exists (root names transform given) */
int fsck_lost_found_open(struct fsck *f, struct crypto_tfm *root_names,
			 bool create);
void fsck_lost_found_close(struct fsck *f);

#endif
