/* SPDX-License-Identifier: MIT */
/*
 * A volume's names mode (docs/format.md 7.2): the transform that encrypts
 * its names, symlink targets and xattr names, and which ciphers take which
 * mode. "cts" is CBC-CS3 under the volume's block cipher (every cipher);
 * "hctr2" is HCTR2 over it (the 128-bit block ciphers with an hctr2_alg:
 * AES, SM4, Camellia); "adiantum" is Adiantum-XChaCha12-AES (every
 * cipher: it brings its own primitives and a 32-byte key). The two
 * wide-block modes encrypt the whole padded name as one block, so names
 * that share a prefix share no ciphertext.
 */
#ifndef CLOAKFS_VOLUME_NAMES_NAMEMODE_H
#define CLOAKFS_VOLUME_NAMES_NAMEMODE_H

#include "volume/cipher.h"

#define NAMEMODE_ADIANTUM_ALG "adiantum(xchacha12,aes)"
#define NAMEMODE_ADIANTUM_KEYSIZE 32

/* "cts", "hctr2", "adiantum"; abort()s on a bad value */
const char *namemode_name(enum volume_names_mode m);
/* 0 and *m set, or -ENOENT */
int namemode_by_name(const char *name, enum volume_names_mode *m);
/* "cts, hctr2, adiantum" for messages */
const char *namemode_list(void);

/* does the format allow names mode m on a volume of cipher c? */
int namemode_fits(enum volume_cipher c, enum volume_names_mode m);

/* the crypto algorithm of mode m on cipher c ("hctr2(aes)"), NULL when it
 * does not fit; and its key size (the block cipher's, 32 for adiantum) */
const char *namemode_alg(enum volume_cipher c, enum volume_names_mode m);
unsigned int namemode_keysize(enum volume_cipher c, enum volume_names_mode m);

/* the IV a version-2 symlink target stores (docs/format.md 7.4): the
 * block cipher's block for cts, 16 bytes for a wide-block mode */
unsigned int namemode_target_iv(enum volume_cipher c, enum volume_names_mode m);

/* is mode m a wide-block one (one block per name, a 32-byte tweak)? */
int namemode_is_wide(enum volume_names_mode m);

#endif
