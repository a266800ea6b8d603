/* SPDX-License-Identifier: MIT */
/*
 * Sync tools' conflict copies (docs/format.md 7.7). When a tool that syncs
 * the ciphertext directory meets two versions of one entry, it keeps both
 * and gives one a marker in its name:
 *
 *   Syncthing  ".sync-conflict-YYYYMMDD-HHMMSS-DEVICE" (DEVICE: 7 of
 *              A-Z, 0-9)
 *   Dropbox    " (<who>'s conflicted copy YYYY-MM-DD)", with or without
 *              "<who>'s ", and " (N)" before the ")" for a second one
 *   Nextcloud  " (conflicted copy [<who> ]YYYY-MM-DD HHMMSS)"
 *
 * A tool puts its marker before the name's extension (its last '.', not
 * a leading one) or at its end. An encrypted name has no '.', so its
 * marker comes last; a long name or a directory's nonce file may hold one
 * before any of its dots. The plaintext name shown for a conflict copy is
 * the decrypted name with the exact marker put where the tool would put
 * it in a plaintext name: "report.txt" + Syncthing's marker shows as
 * "report.sync-conflict-20261204-101010-ABCDEFG.txt". The listing is
 * reversible: the marker is cut out, the rest encrypted, and the marker
 * put back in the ciphertext name at each place a tool may have put it.
 *
 * Plain string work, no keys and no I/O.
 */
#ifndef CLOAKFS_VOLUME_NAMES_CONFLICT_H
#define CLOAKFS_VOLUME_NAMES_CONFLICT_H

#include <stddef.h>

/* the longest marker taken: Dropbox's and Nextcloud's carry a name */
#define CONFLICT_MARK_MAX 128

/* a marker found in a name: name[at .. at + len) */
struct conflict_cut {
	size_t at;
	size_t len;
};

/*
 * The length of the marker that begins at s[0] (n chars there), or 0 when
 * none does: the whole marker, so "report (conflicted copy 2026-12-04)"
 * from its " (".
 */
size_t conflict_mark_len(const char *s, size_t n);

/*
 * The next marker in name (len chars) that begins at or after from: 1 and
 * *c set, or 0. Every marker is tried in turn by calling again with from =
 * c->at + 1; the name without it is the caller's to judge.
 */
int conflict_next(const char *name, size_t len, size_t from,
		  struct conflict_cut *c);

/* where a tool puts a marker in a plaintext name of len chars: before
 * its last '.' unless that is its first char, else at its end */
size_t conflict_insert_at(const char *name, size_t len);

/*
 * name (len chars) with cut c taken out, into out (outlen >= len - c->len
 * + 1; NUL-terminated). The shown name with marker mark (mlen chars) put
 * in at conflict_insert_at(base), into out (outlen >= blen + mlen + 1):
 * conflict_mark. Both: 0, or -ENAMETOOLONG when out is too small.
 */
int conflict_cut_out(const char *name, size_t len, const struct conflict_cut *c,
		     char *out, size_t outlen);
int conflict_mark(const char *base, size_t blen, const char *mark,
		  size_t mlen, char *out, size_t outlen);

/*
 * A shown name's reading as "base with a marker": the next cut at or
 * after from (as conflict_next) such that the marker sits exactly where
 * conflict_mark puts it in the rest, so every shown name of a conflict
 * copy reads back to its base. 1 and *c set, or 0.
 */
int conflict_next_shown(const char *name, size_t len, size_t from,
			struct conflict_cut *c);

#endif
