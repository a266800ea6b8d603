/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck: the keys of a run once unlocked, and their keyring.
 * Apart from fsck-config.c (which unlocks and reports) so the repair
 * note and the file checks reach the keys without a way back to the
 * report.
 */
#include "tools/fsck-keys.h"
#include "volume/keys/keys.h"
#include "volume/volume.h"

struct keyring *fsck_keyring(struct fsck *f)
{
	f->kr = f->vol.keyring;
	return f->kr;
}

void fsck_keys_free(struct fsck *f)
{
	keys_free(f->keys);
	f->keys = NULL;
	f->kr = NULL;
	volume_close(&f->vol); /* wipes its keyring */
}
