/* SPDX-License-Identifier: MIT */
/*
 * The command line of cloakfs (docs/man/cloakfs.1):
 *   cloakfs [options] CIPHERDIR MOUNTPOINT
 * Options may follow the two directories, as mount.fuse3 passes them
 * ("cloakfs CIPHERDIR MOUNTPOINT -o passfile=F,ro"), so /etc/fstab works.
 * cloakfs' own -o options (config=, passfile=, extpass=, idle=,
 * readahead=, nocloakfsd, nonempty, badname, shared, shared_timeout=, acl,
 * noacl) are taken out; mount(8)-only ones (noauto, nofail, _netdev, x-*,
 * ...) are dropped; the rest goes to FUSE.
 */
#ifndef CLOAKFS_FS_CMDLINE_H
#define CLOAKFS_FS_CMDLINE_H

#include <stddef.h>

#include "cli/passphrase.h"

struct cloakfs_options {
	const char *cipherdir;
	const char *mountpoint;
	const char *config;      /* --config: NULL means CIPHERDIR/cloakfs.conf */
	struct passphrase_source pass;
	int foreground;
	int debug;
	int single_thread;
	int use_cloakfsd;        /* take the key from cloakfsd if it has it */
	unsigned long long idle_ms; /* 0: never unmount for idleness */
	unsigned int readahead_kb; /* 0: leave the kernel's window */
	int allow_other;
	int nonempty;            /* -o nonempty: mount over existing files */
	int read_only;           /* --ro or -o ro (also handed to FUSE) */
	int recovery_key;        /* --recovery-key: unlock with it, not a
				    passphrase (pass then gives the key) */
	int show_undecodable;    /* --show-undecodable, -o badname */
	int shared;              /* -o shared: other machines use the
				    ciphertext directory too (docs/design.md
				    "Several machines") */
	unsigned long long shared_timeout_ms; /* -o shared_timeout: the
				    attribute and entry timeout then */
	int shared_timeout_set;
	int acl;                 /* -o acl 1, -o noacl 0; -1 (neither): the
				    kernel enforces POSIX ACLs with
				    allow_other only */
	char *fuse_opts;         /* comma-separated, for FUSE; may be NULL */
};

enum cmdline_result {
	CMDLINE_OK,
	CMDLINE_EXIT,  /* --help or --version printed */
	CMDLINE_USAGE, /* bad command line: err says why */
};

enum cmdline_result cmdline_parse(int argc, char **argv,
				  struct cloakfs_options *o, char *err,
				  size_t errlen);
void cmdline_free(struct cloakfs_options *o);

#endif
