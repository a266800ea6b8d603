/* SPDX-License-Identifier: MIT */
/*
 * One line of /proc/self/mountinfo (proc(5)):
 *   ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER
 * with space, tab, newline and backslash in paths written as \ooo octal
 * escapes. Shared by cloakfs-fsck (is the volume mounted?) and the mount
 * command (which bdi is ours?); libc only, so bench/passthrough-ll.c can
 * build it too.
 */
#ifndef CLOAKFS_BASE_MOUNTINFO_H
#define CLOAKFS_BASE_MOUNTINFO_H

#include <stddef.h>

struct mountinfo_entry {
	const char *devnum;     /* "MAJ:MIN" */
	const char *mountpoint; /* unescaped */
	const char *fstype;     /* "fuse.cloakfs", "tmpfs", ... */
	const char *source;     /* unescaped */
};

/*
 * Split line (changed in place: fields end in NULs, escapes undone) into
 * e, whose pointers point into line. 0, or -EINVAL for a line without
 * the fields.
 */
int mountinfo_parse(char *line, struct mountinfo_entry *e);

/*
 * fn(entry, arg) for every line of /proc/self/mountinfo, in order, until
 * it returns non-zero; that value, 0 at the end, or -errno when the file
 * cannot be read. Lines without the fields are skipped.
 */
int mountinfo_each(int (*fn)(const struct mountinfo_entry *e, void *arg),
		   void *arg);

/*
 * Is a cloakfs mount of the ciphertext directory root (a realpath) in
 * /proc/self/mountinfo? The mount command sets fsname=<realpath of
 * CIPHERDIR> and subtype=cloakfs, so its line has the type
 * "fuse.cloakfs" and that path as its source. 1 and its mountpoint in
 * mnt, 0, or -errno. For the commands that refuse a mounted volume
 * (cloakfs-fsck --repair, cloakfs-keytool upgrade).
 */
int mountinfo_find_volume(const char *root, char *mnt, size_t mntlen);

#endif
