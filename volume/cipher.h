/* SPDX-License-Identifier: MIT */
/*
 * The volume ciphers: the config name of each and what it means for the
 * crypto layer (algorithm names, block and key sizes). Everything in
 * volume/ that depends on the cipher asks here. The authenticated ones
 * (aead_alg set) encrypt contents with an AEAD per sector
 * (volume/content/sealed.h) and seal extended attribute values with the
 * same AEAD (volume/names/xattr.h). The wide-block
 * one (wide_alg set: adiantum) encrypts each sector as one wide-block
 * unit (volume/content/wide.h), with the same rules for xattr values.
 * How names are encrypted is the volume's names mode
 * (volume/names/namemode.h).
 */
#ifndef CLOAKFS_VOLUME_CIPHER_H
#define CLOAKFS_VOLUME_CIPHER_H

#include <stddef.h>

enum volume_cipher {
	VOLUME_CIPHER_SPECK128_XTS,
	VOLUME_CIPHER_SPECK64_XTS,
	VOLUME_CIPHER_AES256_XTS,
	VOLUME_CIPHER_SM4_XTS,
	VOLUME_CIPHER_CAMELLIA256_XTS,
	VOLUME_CIPHER_AES256_GCM,          /* authenticated: feature needed */
	VOLUME_CIPHER_XCHACHA20_POLY1305,  /* authenticated: feature needed */
	VOLUME_CIPHER_ADIANTUM,            /* wide-block units */
	VOLUME_CIPHER_COUNT
};

/* how names, symlink targets and xattr names are encrypted (docs/format.md
 * section 7.2); the config's "names" */
enum volume_names_mode {
	VOLUME_NAMES_CTS,      /* "cts": CBC-CS3 under the block cipher */
	VOLUME_NAMES_HCTR2,    /* "hctr2": one HCTR2 wide block */
	VOLUME_NAMES_ADIANTUM, /* "adiantum": one Adiantum wide block */
	VOLUME_NAMES_COUNT
};

struct volume_cipher_info {
	const char *name;      /* in cloakfs.conf: "speck128-xts" */
	const char *xts_alg;   /* contents: "xts(speck128)" */
	const char *cts_alg;   /* names: "cts(cbc(speck128))" */
	unsigned int blocksize; /* 16, or 8 for Speck64 */
	unsigned int xts_keysize;  /* K1 || K2 */
	unsigned int name_keysize; /* the block cipher's key */
	const char *aead_alg;  /* contents of authenticated volumes, else NULL */
	unsigned int aead_keysize;
	const char *wide_alg;  /* contents of wide-block volumes, else NULL */
	unsigned int wide_keysize;
	/* names: hctr2 over this cipher, NULL where it takes none */
	const char *hctr2_alg;
	enum volume_names_mode names_default; /* of a new volume */
};

/* the contents algorithm and its key size: the AEAD's or wide-block
 * cipher's if any, else XTS */
const char *volume_cipher_contents_alg(const struct volume_cipher_info *ci);
unsigned int volume_cipher_contents_keysize(const struct volume_cipher_info *ci);

/* never NULL for a valid enum value; abort()s otherwise */
const struct volume_cipher_info *volume_cipher_info(enum volume_cipher c);

/* 0 and *c set, or -ENOENT for a name that is not a volume cipher */
int cipher_by_name(const char *name, enum volume_cipher *c);

/* "speck128-xts, speck64-xts, ..." for messages */
const char *volume_cipher_list(void);

#endif
