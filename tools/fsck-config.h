/* SPDX-License-Identifier: MIT */
/* cloakfs-fsck: opening and unlocking the volume, the config and the record (fsck-config.c) */
#ifndef CLOAKFS_TOOLS_FSCK_CONFIG_H
#define CLOAKFS_TOOLS_FSCK_CONFIG_H

#include "tools/fsck.h"

/*
 * Open the volume (f->vol): with --repair its lock, then locked(f) (the
 * mount check, under the lock; nonzero after fsck_fail stops), then read
 * and judge cloakfs.conf. 0 when it is valid (f->cfg set); a positive
 * value after reporting a config finding (the check stops); -1 after
 * fsck_fail.
 */
int fsck_check_config(struct fsck *f, int (*locked)(void *f));

struct passphrase_source;
/*
 * Get the master key: from cloakfsd when it holds it (unless a
 * passphrase source was given or use_daemon is false), else from a
 * passphrase, trying every keyslot so one that does not open while
 * another does is reported. Unlocks f->vol and sets f->keys. 0, 1 (key id mismatch
 * reported: stop), -1 after fsck_fail.
 */
int fsck_unlock(struct fsck *f, const struct passphrase_source *src,
		bool use_daemon);

/*
 * After the unlock: the volume record (volume/keys/volrec.h) missing, damaged
 * or out of date is a warning; --repair writes it from the config.
 */
void fsck_check_record(struct fsck *f);

#endif
