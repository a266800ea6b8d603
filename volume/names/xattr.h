/* SPDX-License-Identifier: MIT */
/*
 * Extended attributes, stored encrypted on the ciphertext inode in the
 * backing store's user.* namespace whatever their own (docs/format.md
 * 7.5). Stored are user.*, trusted.* and security.* (each with a
 * non-empty rest) and the POSIX ACLs system.posix_acl_access and
 * system.posix_acl_default; any other name is refused with EOPNOTSUPP.
 *
 *   short form: a user.* name whose rest (after "user.") is 1 to
 *     XATTR_MAX_NAME bytes, as every cloakfs wrote it:
 *     name  = "user." || base64url(CBC-CS3(K_xn, IV 0, rest || NUL pad
 *             to a multiple of 32)),
 *     K_xn  = HKDF-Expand(PRK, "xattr-names" || 0x00, name key size)
 *     (the codec of version-1 symlink targets, volume/names/vname.h).
 *   long form: every other name (up to XATTR_NAME_LIMIT bytes, namespace
 *     included), as long file names are (7.3):
 *     enc   = base64url(CBC-CS3(K_xn, IV 0, whole name || NUL pad))
 *     name  = "user.cloakfs.long." || base64url(SHA-512(enc)[0..32])
 *     and the value begins with enc and one NUL byte.
 *   value = nonce (16 random bytes) ||
 *           XTS(K_v, tweak 0, u32le(length) || value || zero pad to at
 *           least one cipher block)
 *           K_v = HKDF-Expand(PRK, "xattr" || 0x00 || nonce, XTS key size)
 *   authenticated volumes (the cipher has an aead_alg), instead:
 *   value = nonce (16 random bytes) ||
 *           AEAD(K_a, nonce 0, AAD = the whole plaintext name, value) || tag
 *           K_a = HKDF-Expand(PRK, "xattr" || 0x00 || nonce, AEAD key size)
 *     so a changed byte, or a value moved to another name, fails the tag
 *     (-EBADMSG). The entry is not bound (a file's header nonce changes
 *     at a truncate to 0): a value copied together with its stored name
 *     to another entry of the volume still opens.
 *
 * Names are deterministic, as lookups need; a value is re-encrypted with a
 * fresh nonce on every set, so equal values never look equal. Older
 * cloakfs builds cannot decode a long-form name (it has dots, base64url
 * has none), so they hide it rather than misread it.
 *
 * The mount (fs/) and cloakfs-fsck (which checks every stored value) both
 * use these; the key handle is the volume's keyring, each call a key
 * section of its own (keyring.h): -EACCES while locked.
 */
#ifndef CLOAKFS_VOLUME_NAMES_XATTR_H
#define CLOAKFS_VOLUME_NAMES_XATTR_H

#include <stddef.h>
#include <stdint.h>

#include "volume/cipher.h"
#include "volume/names/vname.h"

struct keyring;

#define XATTR_USER_PREFIX "user."
#define XATTR_TRUSTED_PREFIX "trusted."
#define XATTR_LONG_PREFIX "user." VNAME_LONG_PREFIX
#define XATTR_ACL_ACCESS "system.posix_acl_access"
#define XATTR_ACL_DEFAULT "system.posix_acl_default"
#define XATTR_MAX_NAME 160   /* short form: padded 160 -> 214 chars + "user." */
#define XATTR_NAME_LIMIT 255 /* XATTR_NAME_MAX: a whole name, long form */
#define XATTR_NONCE_SIZE 16
#define XATTR_TAG_SIZE 16 /* authenticated volumes */
#define XATTR_VALUE_OVERHEAD (XATTR_NONCE_SIZE + 4 + 16)

/* is name in the user namespace (with a non-empty rest)? */
int xattr_is_user(const char *name);
/* is name one this volume stores (see above)? */
int xattr_is_stored(const char *name);
/* is name in trusted.* (listed only to privileged callers)? */
int xattr_is_trusted(const char *name);
/* is stored (a name on the ciphertext inode) in the long form? */
int xattr_is_long(const char *stored);

/* the stored form of one attribute name */
struct xattr_name {
	char stored[256];                /* the name on the ciphertext inode */
	char enc[VNAME_MAX_ENCODED + 1]; /* long form: what the value begins
					  * with (before its NUL); else "" */
	size_t enclen;                   /* 0 for the short form */
};

/*
 * name -> its stored form. 0, -EOPNOTSUPP (a namespace not stored),
 * -ERANGE (longer than XATTR_NAME_LIMIT), or a crypto error.
 */
int xattr_name_store(struct keyring *kr, const char *name,
		     struct xattr_name *xn);
/* short-form stored name -> "user.<rest>" (out: 256 bytes); length, or
 * -EBADMSG for a name this volume did not write */
int xattr_name_decrypt(struct keyring *kr, const char *stored, char out[256]);
/*
 * long-form stored name and its stored value (slen bytes) -> the
 * attribute's name (out: 256 bytes); its length, or -EBADMSG when the
 * value does not begin with an encrypted name that hashes to stored and
 * decrypts to a name stored in the long form.
 */
int xattr_long_name_decrypt(struct keyring *kr, const char *stored,
			    const uint8_t *val, size_t slen, char out[256]);

/* the stored size of a value of len bytes under xn on a volume of this
 * cipher */
size_t xattr_stored_size(const struct volume_cipher_info *ci,
			 const struct xattr_name *xn, size_t len);
/* value (len bytes) of attribute name (whose stored form is xn) -> its
 * stored form in out (xattr_stored_size bytes): 0 or -errno */
int xattr_store(struct keyring *kr, const struct volume_cipher_info *ci,
		const struct xattr_name *xn, const char *name,
		const void *value, size_t len, uint8_t *out);
/*
 * Open the stored value (slen bytes) of attribute name (stored form xn)
 * in place; *value points into stored, *len its length. 0 or -EBADMSG
 * (damaged, a long-form value that names another attribute, or on an
 * authenticated volume a tag that does not verify).
 */
int xattr_load(struct keyring *kr, const struct volume_cipher_info *ci,
	       const struct xattr_name *xn, const char *name, uint8_t *stored,
	       size_t slen, const uint8_t **value, size_t *len);

#endif
