/* SPDX-License-Identifier: MIT */
/*
 * Symlink targets of format version 2 (docs/format.md 7.4): independent
 * of the directory, so a rename or link of a symlink moves its ciphertext
 * as it is. A target is sealed under the volume's symlink key with a
 * random IV of its own (vname_target_seal). The encoding is the
 * ciphertext symlink's own target when it fits symlink(2) (4095
 * characters: targets up to 3040 bytes); a longer one (up to 4095 bytes)
 * is written to the volume's target store, <root>/cloakfs.targets/<hash>,
 * and the symlink holds "cloakfs.target.<hash>". Each stored target
 * belongs to one symlink inode: it is made before the symlink and
 * removed after the inode's last name.
 *
 * Version-1 targets (under the directory's name key, vname_symlink_*)
 * are told apart by their length: base64url of whole 32-byte blocks,
 * where version 2 has the IV in front.
 *
 * Every call takes the volume's keyring (a key section of its own, after
 * its I/O; -EACCES while locked) and rootfd, a descriptor (O_PATH will
 * do) of the ciphertext root.
 */
#ifndef CLOAKFS_VOLUME_NAMES_SYMLINK_H
#define CLOAKFS_VOLUME_NAMES_SYMLINK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "volume/names/vname.h"

struct keyring;

#define SYMLINK_STORE_DIR "cloakfs.targets"
#define SYMLINK_REF_PREFIX "cloakfs.target."
#define SYMLINK_HASH_LEN 43 /* base64url of 32 bytes */
#define SYMLINK_HASH_BYTES 32
#define SYMLINK_REF_LEN 58  /* the prefix + the hash */
/* the longest text symlink(2) takes: PATH_MAX - 1 */
#define SYMLINK_MAX_STORED 4095
#define SYMLINK_MAX_PLAIN VNAME_TARGET_MAX_PLAIN

/* what the text of a ciphertext symlink is */
enum symlink_form {
	SYMLINK_V1,      /* version 1: under the directory's name key */
	SYMLINK_V2,      /* version 2, the encoding itself */
	SYMLINK_REF,     /* version 2, a reference into the store */
	SYMLINK_DAMAGED, /* none of these */
};

/* the form of text (len chars) for a volume whose version-2 targets store
 * an IV of bs bytes (namemode_target_iv: the cipher's block for cts names) */
enum symlink_form symlink_form(const char *text, size_t len, size_t bs);

/*
 * The text for symlink(2) of a new symlink to target (len bytes, no NUL
 * needed) into text (SYMLINK_MAX_STORED + 1 bytes): the encoding, or a
 * reference to it after writing it to the store. Returns its length, or
 * -ENAMETOOLONG (over 4095 bytes), -EINVAL (empty, holds a NUL), -EACCES
 * (locked), -errno of the store.
 */
int symlink_encode(struct keyring *kr, int rootfd, const char *target,
		    size_t len, char text[SYMLINK_MAX_STORED + 1]);

/* symlink(2) of text failed: remove what symlink_encode stored for it */
void symlink_discard(int rootfd, const char *text);

/*
 * The target of a version-2 text (len chars) into out (NUL-terminated):
 * its length, or -EBADMSG (damaged: not an encoding seal makes, over-
 * padded, a missing or mismatched stored target), -EACCES, -errno.
 */
int symlink_decode(struct keyring *kr, int rootfd, const char *text,
		    size_t len, char out[SYMLINK_MAX_PLAIN + 1]);

/*
 * Stored targets follow their inode: symlink_pin gives an O_PATH
 * descriptor of dirfd/name when it is a symlink with a stored target
 * (else -1), taken before a call that may remove its last name (unlink,
 * rename over it); symlink_unpin, after that call, removes the stored
 * target when the inode has no name left, and closes pin (-1: nothing).
 */
int symlink_pin(int dirfd, const char *name);
void symlink_unpin(int rootfd, int pin);

/* ---- for cloakfs-fsck, which judges the store (docs/fsck.md) ---------- */

/* why a version-2 text does not decode */
enum symlink_fault {
	SYMLINK_FAULT_NONE,
	SYMLINK_FAULT_TEXT,        /* the symlink's own encoding does not open */
	SYMLINK_FAULT_MISSING,     /* a reference to a stored target not there */
	SYMLINK_FAULT_NOT_REGULAR, /* ... to something else (a FIFO, a dir),
				     * or the store is not a directory */
	SYMLINK_FAULT_HASH,        /* ... to a file not hashing to its name */
	SYMLINK_FAULT_LENGTH,      /* ... of a length no stored encoding has */
	SYMLINK_FAULT_OPEN,        /* ... whose encoding does not open */
};

struct symlink_verdict {
	enum symlink_fault fault;
	mode_t type; /* SYMLINK_FAULT_NOT_REGULAR: what is there (S_IFMT) */
	int store;   /* ... 1: at the store's own name, not in it */
};

/*
 * Decode a version-2 text (len chars) as symlink_decode does, the target
 * wiped, and say in *v why it does not: 0, -EBADMSG (v->fault), -EACCES,
 * -errno. A stored target is read only when it is a regular file.
 */
int symlink_judge(struct keyring *kr, int rootfd, const char *text,
		   size_t len, struct symlink_verdict *v);

/* the hash (32 bytes) a reference text names: 0, or -EINVAL when the
 * text is no reference or its hash not canonical base64url */
int symlink_ref_hash(const char *text, size_t len,
		      uint8_t hash[SYMLINK_HASH_BYTES]);

/*
 * The store, for a walk of its entries: an O_RDONLY directory descriptor
 * of <root>/cloakfs.targets (a symlink is not followed, nothing else is
 * opened), -ENOENT when the volume has none, -ENOTDIR when something else
 * sits at its name (its S_IFMT in *type).
 */
int symlink_store_open(int rootfd, mode_t *type);

/* what an entry of the store is, judged without opening it */
enum symlink_store_entry {
	SYMLINK_STORED,      /* a stored target's name, a regular file */
	SYMLINK_STORED_ODD,  /* a stored target's name, not a regular file */
	SYMLINK_STORE_FOREIGN, /* a name the store never holds */
};

/*
 * Judge entry name of the store sfd: a symlink_store_entry with the
 * hash its name spells (STORED, STORED_ODD) and its S_IFMT in *type, or
 * -errno of its stat (-ENOENT: gone since it was listed).
 */
int symlink_store_entry(int sfd, const char *name,
			 uint8_t hash[SYMLINK_HASH_BYTES], mode_t *type);

#endif
