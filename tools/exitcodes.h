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

#endif
