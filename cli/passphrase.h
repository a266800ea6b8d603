/* SPDX-License-Identifier: MIT */
/*
 * Passphrase input shared by cloakfs-keytool, the mount command and fsck.
 *
 * A passphrase comes from exactly one source, in this order of choice:
 *   - a file (--passfile FILE): its first line;
 *   - a command (--extpass CMD): run with /bin/sh -c, the first line of
 *     its standard output; it must exit with status 0;
 *   - the terminal, when standard input is one: a prompt with echo off
 *     (a new passphrase is asked twice and must match);
 *   - otherwise standard input: one line per passphrase asked for, read
 *     a byte at a time so the next line is left for the next question.
 * "First line": up to the first '\n', which is dropped (nothing else is
 * stripped). A passphrase is 1..PASSPHRASE_MAX bytes with no NUL byte.
 *
 * Passphrases live in crypto/secmem.h memory (locked, not dumped, wiped
 * when freed); so do the buffers they pass through on the way in.
 */
#ifndef CLOAKFS_CLI_PASSPHRASE_H
#define CLOAKFS_CLI_PASSPHRASE_H

#include <stddef.h>

#define PASSPHRASE_MAX 4096

/* where a passphrase comes from; both NULL: terminal or stdin */
struct passphrase_source {
	const char *file;    /* --passfile FILE */
	const char *extpass; /* --extpass CMD */
};

enum passphrase_kind {
	PASSPHRASE_EXISTING, /* asked once */
	PASSPHRASE_NEW,      /* on a terminal: asked twice, must match */
};

struct passphrase {
	char *text; /* secmem, NUL-terminated */
	size_t len;
};

/*
 * Get one passphrase into *out (free with passphrase_free). prompt is
 * shown on the terminal only ("Passphrase for vol: "). Returns 0, or
 * -errno with one line in err naming the source:
 *   -EINVAL   both file and extpass given
 *   -ENODATA  empty passphrase, or end of input before any byte
 *   -E2BIG    longer than PASSPHRASE_MAX, or contains a NUL byte
 *   -ENOKEY   the two entries of a new passphrase differ
 *   -ECHILD   the extpass command failed (status, signal, not run)
 *   other     I/O errors (reading FILE, the terminal, stdin)
 */
int passphrase_get(const struct passphrase_source *src,
		   enum passphrase_kind kind, const char *prompt,
		   struct passphrase *out, char *err, size_t errlen);

/*
 * A text that may span lines as it was printed (a recovery key shown in
 * two lines, saved or pasted that way): like passphrase_get, but lines
 * are read and joined with '\n' until complete(text, len) holds, the
 * input ends, or PASSPHRASE_MAX_LINES lines were read; blank lines are
 * passed over. Standard input is read a byte at a time, so what follows
 * the text stays for the next question; on a terminal a pasted second
 * line is kept and a continuation prompt asks for a missing one. The
 * caller judges an incomplete text (the count it has is in its error).
 */
#define PASSPHRASE_MAX_LINES 8
int passphrase_get_lines(const struct passphrase_source *src,
			 const char *prompt,
			 int (*complete)(const char *text, size_t len),
			 struct passphrase *out, char *err, size_t errlen);

/* wipe and free; a zeroed struct is a no-op */
void passphrase_free(struct passphrase *p);

#endif
