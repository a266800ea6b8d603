/* SPDX-License-Identifier: MIT */
/*
 * The directory nonce (docs/format.md 7.1): 16 random bytes, not all
 * zero, that key a directory's names. It lives in the directory's
 * .cloakfs.dir file and, where the backing filesystem has user extended
 * attributes, in a copy in the directory's user.cloakfs.dir attribute, so
 * one lost or damaged file (a sync conflict, a careless rm) does not cost
 * the directory's names. When both exist and differ, the file wins unless
 * more of the directory's names are evidence for the copy (7.1).
 */
#ifndef CLOAKFS_VOLUME_NAMES_DIRNONCE_H
#define CLOAKFS_VOLUME_NAMES_DIRNONCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "volume/names/vname.h"

struct keyring;

enum dirnonce_source {
	DIRNONCE_NONE,
	DIRNONCE_FROM_FILE,
	DIRNONCE_FROM_COPY,
};

/* what dirnonce_load found in each place */
struct dirnonce_state {
	/* 0, or why .cloakfs.dir gave no nonce: -ENOENT, -EBADMSG (not 16
	 * bytes, or all zero), -VOLUME_ENOTREG (something else is there:
	 * file_type), other -errno */
	int file;
	mode_t file_type;
	/* 0, or why user.cloakfs.dir gave none: -ENODATA (absent),
	 * -EOPNOTSUPP (no user xattrs on this filesystem), -EBADMSG, -errno */
	int copy;
	int differ;                 /* both were read, and they differ */
	unsigned int votes_file;    /* when they differ: names that are */
	unsigned int votes_copy;    /* evidence for each (docs/format.md */
	unsigned int votes_of;      /* 7.1), of votes_of */
	/* they differ, there are names, and the votes tie: nothing tells
	 * which is right (used is the file; fsck keeps both) */
	int undecided;
	enum dirnonce_source used;
	uint8_t file_nonce[DIRNONCE_SIZE]; /* valid when file is 0 */
	uint8_t copy_nonce[DIRNONCE_SIZE]; /* valid when copy is 0 */
};

/* 16 random bytes, not all zero: 0 or -errno */
int dirnonce_new(uint8_t nonce[DIRNONCE_SIZE]);

/*
 * A new nonce for directory dirfd (which may be an O_PATH descriptor):
 * 16 random bytes (not all zero) written to .cloakfs.dir with O_EXCL,
 * mode 0440, fsync'ed (-EEXIST if present), then to user.cloakfs.dir.
 * The copy is a safety net: where it cannot be written (no xattrs on the
 * filesystem, quota) the directory works without it and cloakfs-fsck
 * reports the missing copy. 0 or -errno; on failure nothing is left.
 */
int dirnonce_create(int dirfd, uint8_t nonce[DIRNONCE_SIZE]);

/*
 * The directory's nonce from .cloakfs.dir, or from the copy when the
 * file is missing or damaged, or (both read, different) from the one
 * for which more of the directory's names are evidence (the names, and
 * long names' sidecars, are read first, then decoded in a key section
 * of kr): kr may be NULL, then the file wins; on a tie the file is used
 * and st->undecided set. st (may be NULL) says what was found where.
 * Returns 0, or the file's error when neither gave a nonce.
 */
int dirnonce_load(int dirfd, struct keyring *kr,
			uint8_t nonce[DIRNONCE_SIZE],
			struct dirnonce_state *st);

/*
 * Is a name that decrypted to plain (n bytes) from an encoding of enclen
 * chars evidence for the key (docs/format.md 7.1): two or more bytes of
 * padding, or text that looks typed? A wrong key gives one rarely.
 */
int dirnonce_name_evidence(const char *plain, size_t n, size_t enclen);

/* dirnonce_load without keys or state */
int dirnonce_read(int dirfd, uint8_t nonce[DIRNONCE_SIZE]);

/* write .cloakfs.dir alone (O_EXCL, 0440, fsync'ed): 0 or -errno */
int dirnonce_write_file(int dirfd, const uint8_t nonce[DIRNONCE_SIZE]);
/* set or replace user.cloakfs.dir alone: 0 or -errno (-EOPNOTSUPP) */
int dirnonce_write_copy(int dirfd, const uint8_t nonce[DIRNONCE_SIZE]);

/*
 * What is wrong with a directory's nonce, as one clause for a message
 * that names the directory (".cloakfs.dir is a FIFO, not a regular file;
 * the names are read from its copy in user.cloakfs.dir"). Returns 0 when
 * nothing is worth a warning (a missing copy alone is not: directories
 * made before the copy existed have none), else 1.
 */
int dirnonce_describe(const struct dirnonce_state *st, char *buf,
			    size_t len);

#endif
