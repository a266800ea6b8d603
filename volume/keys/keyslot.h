/* SPDX-License-Identifier: MIT */
/*
 * Keyslots (docs/format.md, "Keyslots"): the 64-byte volume master key
 * (VMK) sealed under a passphrase.
 *
 *   KEK    = Argon2id13(passphrase, salt, opslimit, memlimit), 32 bytes
 *   sealed = ChaCha20-Poly1305(KEK, nonce, AAD, VMK)  (64 bytes + 16 tag)
 *
 * AAD (keyslot_aad) binds the volume parameters, so editing any of them
 * in cloakfs.conf makes every slot fail to open instead of silently
 * changing how data is read. KEKs live in secmem.h memory.
 *
 * keyslot_* change a struct volume_config in memory only; the caller
 * writes it with volconf_write_atomic().
 */
#ifndef CLOAKFS_VOLUME_KEYS_KEYSLOT_H
#define CLOAKFS_VOLUME_KEYS_KEYSLOT_H

#include <stddef.h>
#include <stdint.h>

#include "volume/keys/volconf.h"

#define KEYSLOT_KEK_SIZE 32
#define KEYSLOT_AAD_MAX 128
#define KEYSLOT_DEFAULT_SECONDS 1.0
#define KEYSLOT_DEFAULT_MEMLIMIT (256ULL << 20)

struct keyslot_cost {
	uint64_t opslimit;
	uint64_t memlimit; /* bytes, multiple of 1024 */
};

/*
 * The unlock ceiling (docs/format.md, "Cost ceiling"). The config format
 * allows opslimit up to 2^32 - 1 and memlimit up to 4 GiB: hours of
 * Argon2id, or 4 GiB of memory, from a file anyone with write access to
 * the ciphertext directory can edit. A slot above the ceiling is refused
 * before any work and the other slots are still tried; init and
 * add-passphrase never write one (calibration stops at it).
 *   memlimit            at most 1 GiB: 4 x init's default of 256 MiB
 *   opslimit x memlimit at most 8 GiB: 4 x the 2 GiB (8 passes at 256 MiB)
 *                       that init's 1 s calibrates on a fast machine
 */
#define KEYSLOT_MAX_MEMLIMIT (1ULL << 30)
#define KEYSLOT_MAX_WORK (8ULL << 30)

/*
 * 0 when c is within the format's ranges and the ceiling; -E2BIG above the
 * ceiling, -EINVAL out of the format's range, with why (may be NULL) naming
 * the field and its value ("opslimit 4294967295 ...").
 */
int keyslot_cost_check(const struct keyslot_cost *c, char *why, size_t len);

/*
 * The opslimit that makes one Argon2id run take about seconds (> 0,
 * fractions allowed) at memlimit bytes on this machine (at least 1, at
 * most what the ceiling allows at that memlimit). 0 or -EINVAL (limits
 * out of range, memlimit above KEYSLOT_MAX_MEMLIMIT), -ENOMEM.
 */
int keyslot_calibrate(double seconds, uint64_t memlimit,
		      struct keyslot_cost *out);

/*
 * The associated data of c's keyslots (of a slot with aad_version: that
 * version in place of c's); returns its length.
 */
size_t keyslot_aad(const struct volume_config *c, uint8_t out[KEYSLOT_AAD_MAX]);

/*
 * Seal vmk into the lowest free slot of c with a fresh salt and nonce. Returns the
 * slot index, -ENOSPC (8 slots used), -EINVAL (empty passphrase, bad
 * cost or above the ceiling), -ENOMEM or a crypto error. c's other fields must be final (they
 * are in the AAD).
 */
int keyslot_add(struct volume_config *c, const char *pass, size_t passlen,
		const struct keyslot_cost *cost, const uint8_t vmk[VOLCONF_VMK_SIZE]);

/*
 * Seal vmk into slot i (used or free) as keyslot_add does, under c's
 * current version: what cloakfs-keytool upgrade does to the slot it
 * opened. Returns i or -errno as keyslot_add.
 */
int keyslot_seal(struct volume_config *c, unsigned int i, const char *pass,
		 size_t passlen, const struct keyslot_cost *cost,
		 const uint8_t vmk[VOLCONF_VMK_SIZE]);

/* free slot i (the others keep their numbers); -ENOENT unused, -EBUSY the last */
int keyslot_remove(struct volume_config *c, unsigned int slot);

/*
 * open one slot: 0, -EACCES (wrong passphrase or tampered), -ENOENT,
 * -E2BIG (cost above the ceiling: nothing was run)
 */
int keyslot_open_slot(const struct volume_config *c, unsigned int slot,
		      const char *pass, size_t passlen,
		      uint8_t vmk[VOLCONF_VMK_SIZE]);

/*
 * Try every slot in order, except those whose cost is above the ceiling:
 * those are set aside before any Argon2id runs, so a hostile slot 0 costs
 * nothing and cannot hide a later slot. Returns the index of the slot that
 * opened (vmk filled; err then holds a note naming each slot set aside,
 * its field and value, or is empty), or -EACCES with err "wrong passphrase
 * (no keyslot opened)", or -E2BIG when no slot opened and one was set
 * aside (err names it), or, when no slot opened and one failed otherwise
 * (-ENOMEM: its memlimit is too much for this machine), that -errno.
 */
int keyslot_open(const struct volume_config *c, const char *pass,
		 size_t passlen, uint8_t vmk[VOLCONF_VMK_SIZE], char *err,
		 size_t errlen);

#endif
