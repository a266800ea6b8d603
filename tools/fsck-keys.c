/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck: the keys of a run once unlocked, and their keyring.
 * Apart from fsck-config.c (which unlocks and reports) so the repair
 * note and the file checks reach the keys without a way back to the
 * report. See fsck.h.
 */
#include "tools/fsck.h"
#include "volume/keyring.h"
#include "volume/keys.h"

struct vkeyring *fsck_keyring(struct fsck *f)
{
	if (!f->kr && f->keys && vkeyring_new(f->cfg.cipher, &f->kr) == 0)
		vkeyring_install(f->kr, f->keys);
	return f->kr;
}

void fsck_keys_free(struct fsck *f)
{
	if (f->kr)
		vkeyring_free(f->kr); /* frees f->keys */
	else
		keys_free(f->keys);
	f->kr = NULL;
	f->keys = NULL;
}
