/* SPDX-License-Identifier: MIT */
/*
 * Format version 1 to 2 (docs/format.md, "Upgrade from version 1"): every
 * version-1 symlink target is re-encrypted as a version-2 one, then the
 * config says version 2. Each symlink is replaced atomically (a new inode
 * made under a temporary name, then renamed over each of its names), and
 * every step can be interrupted: run again, the walk finds what is left,
 * including its own temporary names, and finishes it. The caller holds
 * the volume (no mount, no other writer).
 */
#ifndef CLOAKFS_VOLUME_KEYS_UPGRADE_H
#define CLOAKFS_VOLUME_KEYS_UPGRADE_H

#include <stddef.h>

#include "volume/keys/volconf.h"
#include "volume/names/vname.h"

struct keyring;

/* a temporary name of the upgrade: "cloakfs.tmp.up-<inode in hex>"
 * (VNAME_ENTRY_UPGRADE_TEMP) */
#define UPGRADE_TEMP_PREFIX VNAME_UPGRADE_TEMP_PREFIX

struct upgrade_counts {
	unsigned long dirs;       /* directories walked */
	unsigned long converted;  /* symlink inodes re-encrypted */
	unsigned long left;       /* version-1 targets that do not decode:
				   * left as they are (damage; fsck) */
};

/*
 * Called for every target left as it is (cpath: its ciphertext path from
 * the root; why: a clause), for the caller's message.
 */
typedef void (*upgrade_warn_fn)(const char *cpath, const char *why,
				 void *arg);

/*
 * Walk the tree of the ciphertext root rootfd (an open directory) and
 * convert every version-1 symlink target under the keys of kr (unlocked).
 * cipher: the volume's. 0 or -errno of the first failure that stops the
 * walk (a target that does not decode does not stop it: warn).
 */
int upgrade_tree(int rootfd, struct keyring *kr, enum volume_cipher cipher,
		  struct upgrade_counts *counts, upgrade_warn_fn warn,
		  void *arg);

/*
 * The last step: the config at path becomes version 2, and every used
 * keyslot keeps the AAD it was sealed under (aad_version 1), since only
 * a slot's own passphrase can reseal it. Atomic (volconf_write_atomic).
 */
int upgrade_config(const char *path, struct volume_config *c, char *err,
		    size_t errlen);

/*
 * Test hook: called before each change the upgrade makes to the tree
 * (step counts from 1); a nonzero return stops it there as a crash would
 * (the hook may also _exit). NULL removes it.
 */
void upgrade_set_step_hook(int (*hook)(void *arg), void *arg);

#endif
