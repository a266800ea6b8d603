/* SPDX-License-Identifier: MIT */
/*
 * Exit codes of the cloakfs tools, one per failure class. cloakfs-fsck
 * uses the fsck(8) codes instead (see its man page).
 */
#ifndef CLOAKFS_TOOLS_EXITCODES_H
#define CLOAKFS_TOOLS_EXITCODES_H

#define EXIT_OK 0
#define EXIT_FAILURE_GENERIC 1 /* an operation failed (I/O, crypto, driver) */
#define EXIT_USAGE 2           /* bad command line */
#define EXIT_AUTH 3            /* authentication failed (bad AEAD tag) */

/*
 * cloakfs-keytool has its own table (cloakfs-keytool(1), EXIT STATUS):
 * "wrong passphrase" must be 2 there, so its usage code is 3.
 */
#define KEYTOOL_EXIT_OK 0
#define KEYTOOL_EXIT_ERROR 1        /* an operation failed (I/O, memory, ...) */
#define KEYTOOL_EXIT_WRONG_PASS 2   /* wrong passphrase (no keyslot opened) */
#define KEYTOOL_EXIT_USAGE 3        /* bad command line, no such slot */
#define KEYTOOL_EXIT_BAD_VOLUME 4   /* not a volume, or its config is damaged,
				       tampered with or of an unknown version */
#define KEYTOOL_EXIT_REFUSED 5      /* refused: directory not empty, last slot,
				       no free slot, other volume's backup,
				       file exists */
#define KEYTOOL_EXIT_NO_PASS 6      /* no passphrase: empty, mismatch, passfile
				       unreadable, extpass failed, end of input */
#define KEYTOOL_EXIT_DAEMON 7       /* the key daemon cannot be reached or
				       refused the request */
#define KEYTOOL_EXIT_NOT_UNLOCKED 8 /* lock: the daemon holds no key for it */

/* cloakfs-fsck: fsck(8)'s codes, added up (cloakfs-fsck(8), EXIT STATUS) */
#define FSCK_EXIT_OK 0
#define FSCK_EXIT_CORRECTED 1   /* errors were repaired or quarantined */
#define FSCK_EXIT_UNCORRECTED 4 /* errors were left */
#define FSCK_EXIT_OPERATIONAL 8 /* not a volume, wrong passphrase, I/O, mounted */
#define FSCK_EXIT_USAGE 16      /* bad command line */

#endif
