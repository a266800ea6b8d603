/* SPDX-License-Identifier: MIT */
/*
 * Extended attributes in the user.* namespace, stored encrypted on the
 * ciphertext inode (other namespaces are refused with EOPNOTSUPP):
 *
 *   name  = "user." || base64url(CBC-CS3(K_xn, IV 0, rest || NUL pad to a
 *           multiple of 32))   where rest is the name after "user.",
 *           K_xn = HKDF-Expand(PRK, "xattr-names" || 0x00, name key size)
 *           (the codec of symlink targets, volume/names/vname.h, so any byte
 *           but NUL may appear). Deterministic, as lookups need; rest is
 *           1 to XATTR_MAX_NAME bytes so the stored name fits 255.
 *   value = nonce (16 random bytes) ||
 *           XTS(K_v, tweak 0, u32le(length) || value || zero pad to at
 *           least one cipher block)
 *           K_v = HKDF-Expand(PRK, "xattr" || 0x00 || nonce, XTS key size)
 *
 * A value is re-encrypted with a fresh nonce on every set, so equal
 * values never look equal. Documented in docs/format.md section 7.5.
 *
 * The mount (fs/ops-xattr.c) and cloakfs-fsck (which checks every stored
 * value) both use these; the key handle is the volume's keyring, each
 * call a key section of its own (keyring.h): -EACCES while locked.
 */
#ifndef CLOAKFS_VOLUME_NAMES_XATTR_H
#define CLOAKFS_VOLUME_NAMES_XATTR_H

#include <stddef.h>
#include <stdint.h>


struct keyring;

#define XATTR_USER_PREFIX "user."
#define XATTR_MAX_NAME 160   /* padded 160 -> 214 chars + "user." */
#define XATTR_NONCE_SIZE 16
#define XATTR_VALUE_OVERHEAD (XATTR_NONCE_SIZE + 4 + 16)

/* is name in the user namespace (with a non-empty rest)? */
int xattr_is_user(const char *name);

/*
 * "user.<rest>" -> stored name (out: 256 bytes). 0, -EOPNOTSUPP (not
 * user.*), -ERANGE (rest too long), -EACCES-free crypto errors.
 */
int xattr_name_encrypt(struct keyring *kr, const char *name, char out[256]);
/* stored name -> "user.<rest>" (out: 256 bytes); length, or -EBADMSG for
 * a name this volume did not write */
int xattr_name_decrypt(struct keyring *kr, const char *stored, char out[256]);

/* the stored size of a value of len bytes, for a cipher of this block
 * size (volume_cipher_info()->blocksize) */
size_t xattr_sealed_size(size_t blocksize, size_t len);
/* seal value (len bytes) into out (xattr_sealed_size bytes): 0 or -errno */
int xattr_seal(struct keyring *kr, size_t blocksize, const void *value,
	       size_t len, uint8_t *out);
/*
 * Open a stored value of slen bytes in place; *value points into sealed,
 * *len its length. 0 or -EBADMSG (damaged).
 */
int xattr_open(struct keyring *kr, size_t blocksize, uint8_t *sealed,
	       size_t slen, const uint8_t **value, size_t *len);

#endif
