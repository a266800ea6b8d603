/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck internals (docs/fsck.md, cloakfs-fsck(8)): the check's
 * state, the finding classes and one entry; each step's calls are in
 * the header of its file (fsck-walk.h, fsck-files.h, ...).
 *
 * A finding is one problem with one entry (or the config). Each has a
 * class (a stable name, the same in text and JSON output), a severity,
 * the plaintext path when it decodes and always the ciphertext path, and
 * what repair did about it. Errors decide the exit status; warnings do
 * not; damage found inside lost+found.cloakfs/ was quarantined by an
 * earlier repair and is only noted.
 */
#ifndef CLOAKFS_TOOLS_FSCK_H
#define CLOAKFS_TOOLS_FSCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli/exitcodes.h"
#include "crypto/crypto.h"
#include "volume/keys/volconf.h"
#include "volume/content/content.h"
#include "volume/content/fileio.h"
#include "volume/keys/keyring.h"
#include "volume/keys/keys.h"
#include "volume/volume.h"
#include "volume/names/vname.h"

#define FSCK_PROG "cloakfs-fsck"
#define FSCK_LOST_FOUND "lost+found.cloakfs"

enum fsck_severity {
	FSCK_ERROR,       /* damage: exit 4 unless repaired (then 1) */
	FSCK_WARNING,     /* worth knowing, not damage: no effect on exit */
	FSCK_QUARANTINED, /* damage inside lost+found.cloakfs/: a note */
};

/* the classes; fsck-report.c holds their names and severities */
enum fsck_class {
	FC_CONFIG_SYNTAX,
	FC_CONFIG_VERSION,
	FC_CONFIG_FEATURE,
	FC_CONFIG_FIELD,
	FC_CONFIG_TEMP,
	FC_CONFIG_OTHER_VOLUME,
	FC_VOLUME_RECORD,
	FC_KEYSLOT_UNOPENED,
	FC_KEY_ID_MISMATCH,
	FC_DIRNONCE_MISSING,
	FC_DIRNONCE_BAD,
	FC_DIRNONCE_DIFFER,
	FC_DIRNONCE_COPY_MISSING,
	FC_DIRNONCE_COPY_BAD,
	FC_NAME_UNDECODABLE,
	FC_NAME_INVALID,
	FC_NAME_OVERPADDED,
	FC_NAME_DUPLICATE,
	FC_NAME_WRONG_FORM,
	FC_SIDECAR_MISSING,
	FC_SIDECAR_ORPHAN,
	FC_SIDECAR_MISMATCH,
	FC_FOREIGN_ENTRY,
	FC_TEMP_ENTRY,
	FC_SYNC_CONFLICT,
	FC_HEADER_TRUNCATED,
	FC_CONTENT_TRUNCATED,
	FC_HEADER_MAGIC,
	FC_HEADER_VERSION,
	FC_HEADER_DAMAGED,
	FC_NONCE_ZERO,
	FC_NONCE_REUSE,
	FC_CONTENT_UNREADABLE,
	FC_SYMLINK_UNDECODABLE,
	FC_SYMLINK_TARGET_MISSING,
	FC_SYMLINK_TARGET_DAMAGED,
	FC_TARGET_ORPHAN,
	FC_TARGET_FOREIGN,
	FC_XATTR_DAMAGED,
	FC_XATTR_FOREIGN,
	FC_SPECIAL_FILE,
	FC_UNEXPECTED_TYPE,
	FC_UNREADABLE,
	FC_COUNT
};

/* what repair did (or would do) about a finding */
enum fsck_action {
	FA_NONE,        /* nothing to do, or nothing possible */
	FA_FIXED,       /* repaired in place */
	FA_QUARANTINED, /* moved into lost+found.cloakfs/ */
	FA_REMOVED,     /* redundant metadata removed */
	FA_FAILED,      /* repair was tried and failed */
};

struct fsck_nonce_table;
struct fsck_target_refs;

struct fsck {
	/* options */
	const char *dir;      /* CIPHERDIR as given */
	char root[4096];      /* its realpath */
	const char *config;   /* --config FILE; NULL: CIPHERDIR/cloakfs.conf */
	bool repair, json, deep, progress_forced;
	bool zero_damaged; /* --zero-damaged (with --repair; implies --deep) */

	struct volume vol;        /* the volume (volume/volume.h): config,
				     lock, root, keyring */
	struct volume_config cfg; /* vol's, once open */
	struct volume_keys *keys; /* the walk's copy of vol's keys */
	struct keyring *kr;       /* vol.keyring, for fileio (fsck_keyring) */
	struct content_geom geom; /* vol's, once open */
	int rootfd;
	struct crypto_tfm *root_names; /* NULL while the root's nonce is bad */

	/* lost+found.cloakfs, opened or made on first use by repair */
	int lf_fd;
	struct crypto_tfm *lf_names;
	char lf_cname[VNAME_MAX_ENCODED + 1];

	/* the repair note in lost+found.cloakfs, made on first use */
	int note_fd;
	struct content_file note;
	uint64_t note_size;
	bool note_failed;
	/* lines logged before the walk had the root's name key (the record's
	 * repair comes first): written when the note is made */
	char *note_early;
	size_t note_early_len;
	bool no_xattr_noted; /* the filesystem has no user xattrs: said once */

	struct fsck_nonce_table *nonces;
	struct fsck_target_refs *refs; /* stored targets symlinks refer to */
	uint8_t *deep_buf; /* --deep: one plaintext buffer, wiped after use */

	/* counts */
	unsigned long by_class[FC_COUNT];
	unsigned long errors, corrected, uncorrected, warnings, notes;
	unsigned long dirs, files, symlinks, others, bytes_checked;
	bool operational_error;
	bool json_first;
};

/* one entry of a directory being checked (fsck-walk.c hands it on) */
struct fsck_entry {
	int dirfd;
	const char *cname;     /* in dirfd */
	const char *path;      /* plaintext path, or NULL */
	const char *cpath;     /* ciphertext path from the root */
	struct crypto_tfm *names; /* the directory's, or NULL */
	bool in_lf;
};

#endif
