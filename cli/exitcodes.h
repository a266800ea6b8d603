/* SPDX-License-Identifier: MIT */
/*
 * Exit codes of the cloakfs tools: one table, so the same cause exits
 * with the same number from cloakfs, cloakfs-keytool, cloakfsd,
 * cloakfs-enc and cloakfs-bench (each man page, EXIT STATUS, lists the
 * codes that tool uses). cloakfs-fsck alone uses fsck(8)'s codes, which
 * fsck front ends and systemd expect (below).
 */
#ifndef CLOAKFS_CLI_EXITCODES_H
#define CLOAKFS_CLI_EXITCODES_H

#define CLOAKFS_EXIT_OK 0
#define CLOAKFS_EXIT_ERROR 1        /* an operation failed: I/O, permission,
				       memory, an unusable crypto driver */
#define CLOAKFS_EXIT_AUTH 2         /* wrong passphrase (no keyslot opened),
				       or authentication failed (AEAD tag) */
#define CLOAKFS_EXIT_USAGE 3        /* bad command line or settings file,
				       no such slot */
#define CLOAKFS_EXIT_BAD_VOLUME 4   /* not a volume, or its config is damaged,
				       tampered with or of an unknown version */
#define CLOAKFS_EXIT_REFUSED 5      /* refused: directory not empty, last slot,
				       no free slot, other volume's backup,
				       file exists, cloakfsd already running */
#define CLOAKFS_EXIT_NO_PASS 6      /* no passphrase: empty, mismatch, passfile
				       unreadable, extpass failed, end of input */
#define CLOAKFS_EXIT_DAEMON 7       /* the key daemon cannot be reached or
				       refused the request */
#define CLOAKFS_EXIT_NOT_UNLOCKED 8 /* lock: the daemon holds no key for it */
#define CLOAKFS_EXIT_MOUNT 9        /* mountpoint missing or busy, FUSE not
				       available */

/* cloakfs-fsck: fsck(8)'s codes, added up (cloakfs-fsck(8), EXIT STATUS) */
#define FSCK_EXIT_OK 0
#define FSCK_EXIT_CORRECTED 1   /* errors were repaired or quarantined */
#define FSCK_EXIT_UNCORRECTED 4 /* errors were left */
#define FSCK_EXIT_OPERATIONAL 8 /* not a volume, wrong passphrase, I/O, mounted */
#define FSCK_EXIT_USAGE 16      /* bad command line */

#endif
