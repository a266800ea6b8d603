/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck internals (docs/fsck.md, cloakfs-fsck(8)): the check's
 * state, the finding classes, and the steps in fsck-*.c.
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

/* ---- fsck-report.c ---------------------------------------------------- */

const char *fsck_class_name(enum fsck_class c);

/*
 * Report one finding. path: the plaintext path from the volume root
 * ("/a/b"), or NULL when it does not decode; cpath: the ciphertext path
 * relative to CIPHERDIR ("" for the root itself). in_lf: the entry is
 * inside lost+found.cloakfs/ (an error becomes a note). action and
 * action_detail say what repair did ("moved to ..."). detail may be NULL.
 */
void fsck_report(struct fsck *f, enum fsck_class c, bool in_lf,
		 const char *path, const char *cpath, enum fsck_action action,
		 const char *action_detail, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

/* one-line operational error on stderr (and in JSON); sets the flag */
void fsck_fail(struct fsck *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void fsck_output_begin(struct fsck *f);
/* summary line (or the JSON tail); returns the exit status */
int fsck_output_end(struct fsck *f);

/* ---- fsck-progress.c -------------------------------------------------- */

/*
 * The progress line on a terminal (nothing when stderr is not one): after
 * a second, or at once with --progress; redrawn at least once a second.
 */
void fsck_progress_start(struct fsck *f);
/* count the bytes of every file first, for a percentage (--deep) */
void fsck_progress_count(struct fsck *f);
/* per entry, before it is checked */
void fsck_progress_tick(struct fsck *f, const char *cpath);
/* a regular file of size bytes is being checked; then bytes of it read */
void fsck_progress_file(uint64_t size);
void fsck_progress_bytes(uint64_t n);
/* wipe the line before other output */
void fsck_progress_clear(void);
/*
 * A message on stderr that is not a finding ("is mounted at ..."), the
 * line wiped first. Here, below the report, since the repair note (which
 * the report writes) says its own failure with it.
 */
void fsck_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- fsck-config.c ---------------------------------------------------- */

/*
 * Open the volume (f->vol): with --repair its lock, then locked(f) (the
 * mount check, under the lock; nonzero after fsck_fail stops), then read
 * and judge cloakfs.conf. 0 when it is valid (f->cfg set); a positive
 * value after reporting a config finding (the check stops); -1 after
 * fsck_fail.
 */
int fsck_check_config(struct fsck *f, int (*locked)(void *f));

/* the volume's keyring (f->kr), once unlocked; NULL before */
struct keyring *fsck_keyring(struct fsck *f);
/* at exit: wipe and free the keys, close the volume */
void fsck_keys_free(struct fsck *f);

struct passphrase_source;
/*
 * Get the master key: from cloakfsd when it holds it (unless a
 * passphrase source was given or use_daemon is false), else from a
 * passphrase, trying every keyslot so one that does not open while
 * another does is reported. Unlocks f->vol and sets f->keys. 0, 1 (key id mismatch
 * reported: stop), -1 after fsck_fail.
 */
int fsck_unlock(struct fsck *f, const struct passphrase_source *src,
		bool use_daemon);

/*
 * After the unlock: the volume record (volume/keys/volrec.h) missing, damaged
 * or out of date is a warning; --repair writes it from the config.
 */
void fsck_check_record(struct fsck *f);

/* ---- fsck-walk.c ------------------------------------------------------ */

/*
 * Check (and repair) every directory from the root down: iteratively,
 * with a work stack on the heap, so the depth of the tree is bounded by
 * memory, not by the C stack.
 */
void fsck_walk(struct fsck *f);

/* ---- fsck-files.c ----------------------------------------------------- */

struct fsck_entry {
	int dirfd;
	const char *cname;     /* in dirfd */
	const char *path;      /* plaintext path, or NULL */
	const char *cpath;     /* ciphertext path from the root */
	struct crypto_tfm *names; /* the directory's, or NULL */
	bool in_lf;
};

/*
 * Check a regular file: header, size, nonce (remembered for the reuse
 * check), and with --deep every unit. Returns the class that makes it
 * unusable where it is (the caller quarantines it), or FC_COUNT when it
 * is fine or only reported (unreadable, nonce reuse, deep errors).
 */
enum fsck_class fsck_check_file(struct fsck *f, const struct fsck_entry *e,
				const struct stat *st, char *why, size_t whylen);

/*
 * A symlink: its text is counted as a reference into the target store
 * (always, whatever its name: see fsck-targets.c), then, when decode is
 * set, its target is decoded (version 1: under the directory's key e->names;
 * version 2: through volume/names/symlink.h). Returns FC_COUNT when fine or not
 * decoded; FC_UNREADABLE (report only); else the class that makes it
 * unusable (FC_SYMLINK_UNDECODABLE, FC_SYMLINK_TARGET_MISSING or
 * FC_SYMLINK_TARGET_DAMAGED), why in why.
 */
enum fsck_class fsck_check_symlink(struct fsck *f, const struct fsck_entry *e,
				   bool decode, char *why, size_t whylen);

/* ---- fsck-targets.c --------------------------------------------------- */

/*
 * The store of long symlink targets (docs/format.md 7.4, volume/names/symlink.h):
 * the walk counts every reference it sees (a set of 32-byte hashes, so
 * memory grows with the symlinks that have a stored target, not with the
 * tree), then the store is read once the whole tree was walked: a stored
 * target no symlink refers to is an orphan (removed by repair, unless the
 * walk may have missed its symlink), anything else in the store is
 * foreign (quarantined).
 */
int fsck_targets_new(struct fsck *f);
void fsck_targets_free(struct fsck *f);
/* the text (len chars) of the symlink at cpath, seen by the walk */
void fsck_targets_seen(struct fsck *f, const char *cpath, const char *text,
		       size_t len);
/* the walk did not see everything (cpath: a directory not walked, a
 * symlink not read): a stored target may belong to what it missed */
void fsck_targets_unsure(struct fsck *f, const char *cpath);
/* after the walk, with the root's name key still there: judge the store */
void fsck_targets_check(struct fsck *f);

/* ---- fsck-xattr.c ----------------------------------------------------- */

/*
 * Check the extended attributes of a file or directory through
 * volume/names/xattr.h (names decrypt, values open) and report what does not:
 * report only, since the mount still reads everything else of the entry.
 */
void fsck_check_xattrs(struct fsck *f, const struct fsck_entry *e);

int fsck_nonces_new(struct fsck *f);
/* report files that share a nonce but not an inode */
void fsck_nonces_report(struct fsck *f);
void fsck_nonces_free(struct fsck *f);
/* wipe and free the --deep buffer */
void fsck_deep_free(struct fsck *f);

/* ---- fsck-repair.c ---------------------------------------------------- */

/*
 * Move dirfd/cname into lost+found.cloakfs/ (made on first use). plain:
 * its plaintext name when it decodes (used when free, else with "~N"),
 * else NULL and a name "<stem>-N" is made. from_names: the source
 * directory's name transform, to re-encode a symlink's target (NULL:
 * the target is moved as it is). is_long: remove cname's sidecar after.
 * Writes "lost+found.cloakfs/<name>" into where. 0 or -errno.
 */
int fsck_quarantine(struct fsck *f, int dirfd, const char *cname, bool is_long,
		    const char *plain, const char *stem,
		    struct crypto_tfm *from_names, char *where, size_t wherelen);

/*
 * Put nonce into dirfd's .cloakfs.dir and its copy. present: something
 * is at .cloakfs.dir now (a damaged file, a FIFO, a wrong nonce): it is
 * moved into lost+found as dirnonce-bad-N, never deleted (it may be the
 * nonce that names something). where gets what was done. 0 or -errno.
 */
int fsck_put_dirnonce(struct fsck *f, int dirfd, const uint8_t *nonce,
		      bool present, char *where, size_t wherelen);

/*
 * Append one line to this run's repair note, an encrypted file
 * "fsck-repair-<UTC time>.txt" in lost+found.cloakfs (made on first use),
 * so what repair did stays readable through the mount: every move,
 * rename, removal and replaced nonce, with the ciphertext names. 0 or
 * -errno (then said once on stderr).
 */
int fsck_log(struct fsck *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* open lost+found.cloakfs if it exists (root names transform given) */
int fsck_lost_found_open(struct fsck *f, struct crypto_tfm *root_names,
			 bool create);
void fsck_lost_found_close(struct fsck *f);

#endif
