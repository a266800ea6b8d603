/* SPDX-License-Identifier: MIT */
/*
 * Directory entries of the ciphertext tree (docs/format.md 7.1 to 7.4),
 * for the mount and cloakfs-fsck alike: a plaintext name becomes
 * its ciphertext entry under its directory's name key (the long form and
 * its sidecar beyond name_max), a symlink target its encoding, and a
 * directory's nonce lives and dies with the directory.
 *
 * Every call takes directory descriptors (O_PATH ones do) and, where keys
 * are needed, the directory's name key: the volume's keyring and the
 * directory's nonce (read with dirnonce_load; the mount keeps it per
 * inode), each encryption or decryption one key section of its own
 * (keyring.h) after the I/O, -EACCES while the volume is locked; or, for
 * names, a keyed transform (struct direntry_key).
 */
#ifndef CLOAKFS_VOLUME_NAMES_DIRENTRY_H
#define CLOAKFS_VOLUME_NAMES_DIRENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/crypto.h"
#include "volume/names/vname.h"

struct keyring;

struct direntry_name {
	char name[VNAME_MAX_ENCODED + 1]; /* in the ciphertext directory */
	char enc[VNAME_MAX_ENCODED + 1];  /* the whole encoding */
	size_t enclen;
	int is_long;                      /* name is cloakfs.long.X */
};

/*
 * A directory's name key: the volume's keyring and the directory's nonce
 * (the mount: each use a key section of its own), or the directory's
 * keyed transform the caller holds (keys_names_tfm; cloakfs-fsck's walk,
 * which keeps one per directory it is in). tfm set: kr and nonce unused;
 * neither: the key is unknown (a lost nonce), names are not decrypted
 * (-ENOKEY) but a long name's sidecar is still judged.
 */
struct direntry_key {
	struct keyring *kr;
	const uint8_t *nonce; /* DIRNONCE_SIZE bytes */
	struct crypto_tfm *tfm;
	/* a second key of the directory, or NULL: its nonce file's conflict
	 * copy (noncecopy.h); a name that does not decode under the first is
	 * tried under it, and a name no entry has under the first is looked
	 * for under it */
	const uint8_t *other;          /* with kr */
	struct crypto_tfm *other_tfm;  /* with tfm */
};

/*
 * Encrypt name (one component) for the directory with this key, in the
 * long form beyond name_max: 0, -ENAMETOOLONG, -EINVAL, -EACCES.
 */
int direntry_name_encrypt(const struct direntry_key *k, unsigned int name_max,
			  const char *name, struct direntry_name *out);

/*
 * The entry name stands for in dfd: direntry_name_encrypt's, unless name
 * reads as a conflict copy's listed name (volume/names/conflict.h) and
 * that copy exists while the literal entry does not (the literal name
 * wins, so a file that looks like a copy stays reachable). A copy's
 * out->name is its ciphertext name with the marker, out->is_long 0 (its
 * sidecar is the original's). Errors as direntry_name_encrypt.
 */
int direntry_name_resolve(const struct direntry_key *k, int dfd,
			  unsigned int name_max, const char *name,
			  struct direntry_name *out);

/* before creating a long-named entry in dfd: write its sidecar */
int direntry_name_prepare(int dfd, const struct direntry_name *e);
/* after the entry went away (or was never made): remove its sidecar when
 * no entry of that name exists */
void direntry_name_forget(int dfd, const struct direntry_name *e);

/* what a ciphertext entry's name is (docs/format.md 7.2); fsck reports
 * each refusal, the mount hides the entry */
enum direntry_verdict {
	DIRENTRY_OK,          /* a user entry: its name decrypted */
	DIRENTRY_HIDDEN,      /* not a user entry: cloakfs's own files,
			       * ".", "..", temporaries, foreign names */
	DIRENTRY_UNDECODABLE, /* the encoding: vname_judge's verdicts */
	DIRENTRY_INVALID,
	DIRENTRY_OVERPADDED,  /* a second spelling of the name in out */
	DIRENTRY_SIDECAR_MISSING, /* a long name without its sidecar */
	DIRENTRY_SIDECAR_BAD, /* the sidecar cannot be used: the result says
			       * why (-EBADMSG: it does not hash to the name,
			       * -VOLUME_ENOTREG: no regular file, fdio.h;
			       * else reading it failed) */
	DIRENTRY_NO_KEY,      /* the key is not there (-EACCES: locked) or
			       * the cipher failed: nothing is judged */
	DIRENTRY_CONFLICT_TOO_LONG, /* a conflict copy whose name with the
				     * tool's marker passes NAME_MAX */
};

struct direntry_found {
	enum direntry_verdict verdict;
	size_t enclen; /* the encoding's length, once read (else 0) */
	int conflict;  /* a sync tool's conflict copy (conflict.h): the
			* verdict is on the entry it copies */
	int other;     /* decoded under the directory's second key only */
};

/*
 * The plaintext name of ciphertext entry cname in dirfd (an open
 * descriptor, for sidecars), of kind vname_classify(cname), which the
 * caller has (it classifies each name once). 1 and out filled for a
 * user entry, 0 for entries cloakfs hides, -EBADMSG for a name that is
 * refused (out holds an over-padded name's spelling), other -errno
 * (a sidecar's or the key's). found (may be NULL): the verdict.
 */
int direntry_name_decrypt(const struct direntry_key *k, int dirfd,
			  const char *cname, enum vname_entry kind,
			  char out[VNAME_MAX_PLAIN + 1],
			  struct direntry_found *found);

/* symlink targets under the directory's name key (version 1) */
int direntry_target_encrypt(struct keyring *kr,
			const uint8_t nonce[DIRNONCE_SIZE],
			const char *target,
			char out[VNAME_MAX_SYMLINK_ENCODED + 1]);
int direntry_target_decrypt(struct keyring *kr,
			const uint8_t nonce[DIRNONCE_SIZE],
			const char *enc, size_t enclen,
			char out[VNAME_MAX_SYMLINK_PLAIN + 1]);

/*
 * The directory-nonce lifecycle (docs/format.md, "Directory nonce"): a
 * directory holds its nonce file until it is removed, and gets it back
 * whenever a removal fails, so a directory that stays is never without
 * its names' key.
 */

/* does ciphertext directory dfd hold anything but its nonce? 1, 0, -errno */
int direntry_is_empty(int dfd);

/*
 * rmdir of cname in parentfd: -ENOTEMPTY unless it holds only its nonce;
 * the nonce file goes first and is written back if the rmdir fails.
 */
int direntry_remove(int parentfd, const char *cname);

/* a directory about to be replaced by a rename, its nonce put aside */
struct direntry_victim {
	int fd; /* -1: no directory is replaced */
	uint8_t nonce[DIRNONCE_SIZE];
};

/*
 * Before renaming a directory over cname in dfd: if cname is an empty
 * directory, take its nonce file away (rename(2) replaces only an empty
 * directory). 0 (v->fd -1 when cname is no directory), -ENOTEMPTY,
 * -errno.
 */
int direntry_victim_clear(int dfd, const char *cname, struct direntry_victim *v);
/* after the rename: when it failed, the victim gets its nonce back; then
 * v is released */
void direntry_victim_end(struct direntry_victim *v, int failed);

#endif
