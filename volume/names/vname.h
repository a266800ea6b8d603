/* SPDX-License-Identifier: MIT */
/*
 * The name codec (docs/format.md, "Names"): a plaintext name is NUL-padded
 * to a multiple of 32 bytes, encrypted under the directory's name key in
 * the volume's names mode (volume/names/namemode.h): cts(cbc(<block
 * cipher>)) (CBC-CS3) with IV 0, or one wide block (hctr2, adiantum) with
 * the all-zero 32-byte tweak; and written as base64url without padding. An encoding longer than the volume's name_max is stored
 * as "cloakfs.long.<43 chars>" with the encoding in a "<that>.name"
 * sidecar. Symlink targets use the same codec with a longer limit.
 *
 * The transforms passed here are the directory's keyed names transform
 * (keys_names_tfm()), told apart by their tweak: a wide-block one has a
 * 32-byte tweak and block size 1, cts(cbc(X)) an IV of X's block. They are
 * used by one thread at a time.
 */
#ifndef CLOAKFS_VOLUME_NAMES_VNAME_H
#define CLOAKFS_VOLUME_NAMES_VNAME_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/crypto.h"
#include "volume/names/conflict.h"

/* a directory's nonce (volume/names/dirnonce.h): here, since the codec keys
 * names with it and vname_classify knows its file */
#define DIRNONCE_FILE ".cloakfs.dir"
#define DIRNONCE_XATTR "user.cloakfs.dir"
#define DIRNONCE_SIZE 16

/* temporary names, which no encryption produces: an entry under
 * construction (volume/dirops.h) and a symlink copy of a version upgrade
 * (volume/keys/upgrade.h); here, since vname_classify knows them */
#define VNAME_TEMP_PREFIX "cloakfs.tmp."
#define VNAME_UPGRADE_TEMP_PREFIX VNAME_TEMP_PREFIX "up-"

#define VNAME_LONG_PREFIX "cloakfs.long."
#define VNAME_SIDECAR_SUFFIX ".name"
#define VNAME_PAD 32
#define VNAME_MAX_PLAIN 255    /* NAME_MAX */
#define VNAME_MAX_ENCODED 342  /* base64url of 256 bytes */
#define VNAME_HASH_BYTES 32    /* of SHA-512(encoded name) */
#define VNAME_LONG_LEN 56      /* "cloakfs.long." + 43 */
#define VNAME_SIDECAR_LEN 61   /* VNAME_LONG_LEN + ".name" */
#define VNAME_DEFAULT_NAME_MAX 255
#define VNAME_MIN_NAME_MAX 64  /* room for a sidecar name */
/* the longest encoding symlink(2) takes is PATH_MAX - 1 = 4095 chars:
 * 3040 padded bytes give 4054; 3072 would give 4096 */
#define VNAME_MAX_SYMLINK_PLAIN 3040
#define VNAME_MAX_SYMLINK_ENCODED 4054
/* version-2 targets (volume/names/symlink.h): PATH_MAX - 1 bytes, padded to
 * 4096, after an IV of up to 16 bytes: 4112 bytes, 5483 characters */
#define VNAME_TARGET_MAX_PLAIN 4095
#define VNAME_TARGET_PADDED_MAX 4096
#define VNAME_TARGET_MAX_ENCODED 5483
/* wide-block names modes: the tweak, and the IV a version-2 target
 * stores (its first 16 bytes; the rest zero), so limits stay as above */
#define VNAME_WIDE_TWEAK 32
#define VNAME_WIDE_TARGET_IV 16

/*
 * Encrypt a name of len bytes (no NUL needed) into out (outlen >= the
 * encoding + NUL; VNAME_MAX_ENCODED + 1 always suffices). Returns the
 * encoded length, or -EINVAL (empty, ".", "..", contains '/' or NUL),
 * -ENAMETOOLONG (> 255 bytes), -ENOSPC, or a crypto error.
 */
int vname_encrypt(struct crypto_tfm *cts, const char *name, size_t len,
		  char *out, size_t outlen);

/*
 * Decrypt an encoded name of enclen chars into out (NUL-terminated;
 * outlen >= VNAME_MAX_PLAIN + 1). Returns the name length, or -EBADMSG
 * for anything not produced by vname_encrypt under this key (bad base64,
 * length not a multiple of 32, nonzero bytes after the first NUL, an
 * empty, ".", ".." or '/'-containing result), -ENOSPC, or a crypto error.
 */
int vname_decrypt(struct crypto_tfm *cts, const char *enc, size_t enclen,
		  char *out, size_t outlen);

/* why a name is refused (docs/format.md 7.2); fsck reports each */
enum vname_verdict {
	VNAME_OK,
	VNAME_UNDECODABLE, /* not base64url of whole blocks, or not NUL-padded */
	VNAME_INVALID,     /* NUL-padded, but empty, ".", "..", or holding '/'
			    * or NUL */
	VNAME_OVERPADDED,  /* a name, but with a block or more of padding
			    * than the rule asks for: a second spelling */
};

/*
 * vname_decrypt that also says why a name is refused (*verdict; VNAME_OK
 * when the result is >= 0). The cipher runs only on a well-formed
 * encoding (else VNAME_UNDECODABLE). An over-padded name is -EBADMSG,
 * with the name it spells in out all the same.
 */
int vname_judge(struct crypto_tfm *cts, const char *enc, size_t enclen,
		char out[VNAME_MAX_PLAIN + 1], enum vname_verdict *verdict);

/*
 * Symlink targets of version 1: as names, but '/' is allowed and the plaintext may be
 * up to VNAME_MAX_SYMLINK_PLAIN bytes (-ENAMETOOLONG beyond). outlen:
 * VNAME_MAX_SYMLINK_ENCODED + 1 (encrypt), VNAME_MAX_SYMLINK_PLAIN + 1
 * (decrypt).
 */
int vname_symlink_encrypt(struct crypto_tfm *cts, const char *target,
			  size_t len, char *out, size_t outlen);
int vname_symlink_decrypt(struct crypto_tfm *cts, const char *enc,
			  size_t enclen, char *out, size_t outlen);

/*
 * The codec of version-2 symlink targets (docs/format.md 7.4): the
 * target (1 to VNAME_TARGET_MAX_PLAIN bytes, any but NUL) NUL-padded to a
 * multiple of 32, CBC-CS3 under the volume's symlink key with iv (the
 * cipher's block size, crypto_ivsize), and base64url(iv || ciphertext);
 * with a wide-block transform iv is 16 bytes and the tweak is iv || 16
 * zero bytes.
 * Returns the encoded length (seal; outlen >= VNAME_TARGET_MAX_ENCODED +
 * 1 always suffices) or the target's length (open; outlen >=
 * VNAME_TARGET_MAX_PLAIN + 1), or -errno: -EBADMSG for anything seal
 * does not produce, over-padding included.
 */
int vname_target_seal(struct crypto_tfm *cts, const uint8_t *iv,
		      const char *target, size_t len, char *out, size_t outlen);
int vname_target_open(struct crypto_tfm *cts, const char *enc, size_t enclen,
		      char *out, size_t outlen);

/* are the n chars of s all of the base64url alphabet? */
int vname_is_b64url(const char *s, size_t n);

/* does an encoding of enclen chars need the long-name form? */
int vname_is_long(size_t enclen, unsigned int name_max);

/* "cloakfs.long.<base64url(SHA-512(enc)[0..32))>" into out[VNAME_LONG_LEN+1] */
int vname_long_name(const char *enc, size_t enclen,
		    char out[VNAME_LONG_LEN + 1]);

/* what a ciphertext directory entry is */
enum vname_entry {
	VNAME_ENTRY_ENCRYPTED, /* base64url: an encrypted name */
	VNAME_ENTRY_LONG,      /* cloakfs.long.X: name in its sidecar */
	VNAME_ENTRY_SIDECAR,   /* cloakfs.long.X.name */
	VNAME_ENTRY_DIRNONCE,  /* .cloakfs.dir */
	VNAME_ENTRY_CONFIG,    /* cloakfs.conf (volume root) */
	VNAME_ENTRY_CONFIG_TEMP, /* cloakfs.conf.tmp.*, cloakfs.volume.tmp.*
				    left by a crash */
	VNAME_ENTRY_RECORD,    /* cloakfs.volume (volume root, record.h) */
	VNAME_ENTRY_TARGETS,   /* cloakfs.targets (volume root): long
				* symlink targets, volume/names/symlink.h */
	VNAME_ENTRY_TEMP,      /* cloakfs.tmp.*: an entry under construction
				* left by a crash (dirops.h) */
	VNAME_ENTRY_UPGRADE_TEMP, /* cloakfs.tmp.up-*: left by an upgrade
				   * that stopped (keys/upgrade.h) */
	VNAME_ENTRY_CONFLICT,  /* a sync tool's conflict copy of one of
				* the kinds above (vname_conflict_of) */
	VNAME_ENTRY_DOT,       /* "." and ".." */
	VNAME_ENTRY_OTHER,     /* not ours: skip and let fsck report */
};
enum vname_entry vname_classify(const char *entry);

/* a conflict copy's entry: the tool's marker, and the name without it */
struct vname_conflict {
	struct conflict_cut cut;
	char base[VNAME_MAX_ENCODED + 1];
	enum vname_entry kind; /* of base: encrypted, long, sidecar, nonce */
};

/* is entry a sync tool's conflict copy (volume/names/conflict.h) of an
 * encrypted name, a long name, a sidecar or a directory's nonce file? 1
 * and vc filled (the first marker whose removal leaves one), or 0 */
int vname_conflict_of(const char *entry, struct vname_conflict *vc);

/* "<long_name>.name" into out; -EINVAL if long_name is not a long name */
int vname_sidecar_name(const char *long_name,
		       char out[VNAME_SIDECAR_LEN + 1]);

/*
 * Long-name sidecars in the ciphertext directory dirfd. write: create
 * "<long>.name" (0400) holding enc; an existing one with the same content
 * is fine, a different one is -EEXIST. read: the encoding, NUL-terminated,
 * into enc (encmax >= VNAME_MAX_ENCODED + 1), after checking that it
 * hashes to the long name (-EBADMSG if not; -VOLUME_ENOTREG when the
 * sidecar is not a regular file, fdio.h). Both: -errno of the syscalls.
 */
int vname_write_sidecar(int dirfd, const char *long_name, const char *enc,
			size_t enclen);
int vname_read_sidecar(int dirfd, const char *long_name, char *enc,
		       size_t encmax);

#endif
