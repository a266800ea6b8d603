/* SPDX-License-Identifier: MIT */
/* cloakfs-fsck: the keys of a run once unlocked (fsck-keys.c) */
#ifndef CLOAKFS_TOOLS_FSCK_KEYS_H
#define CLOAKFS_TOOLS_FSCK_KEYS_H

#include "tools/fsck.h"

/* the volume's keyring (f->kr), once unlocked; NULL before */
struct keyring *fsck_keyring(struct fsck *f);
/* at exit: wipe and free the keys, close the volume */
void fsck_keys_free(struct fsck *f);

#endif
