/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck: the keys of a run once unlocked, and their keyring.
 * Apart from fsck-config.c (which unlocks and reports) so the repair
 * note and the file checks reach the keys without a way back to the
 * report. See fsck.h.
 */
#include "tools/fsck.h"
#include "volume/keys/keyring.h"
#include "volume/keys/keys.h"

struct keyring *fsck_keyring(struct fsck *f)
{
	if (!f->kr && f->keys && keyring_new(f->cfg.cipher, &f->kr) == 0)
		keyring_install(f->kr, f->keys);
	return f->kr;
}

void fsck_keys_free(struct fsck *f)
{
	if (f->kr)
		keyring_free(f->kr); /* frees f->keys */
	else
		keys_free(f->keys);
	f->kr = NULL;
	f->keys = NULL;
}
