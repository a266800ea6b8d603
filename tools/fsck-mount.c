/* SPDX-License-Identifier: MIT */
/*
 * Is the volume mounted? The mount command (fs/cloakfs.c) sets
 * fsname=<realpath of CIPHERDIR> and subtype=cloakfs, so its line in
 * /proc/self/mountinfo (proc(5)) has the file system type "fuse.cloakfs"
 * and that path as its source (tools/mountinfo.c reads the lines). See
 * fsck.h.
 */
#include <stdio.h>
#include <string.h>

#include "base/mountinfo.h"
#include "tools/fsck.h"

struct mount_search {
	const char *root;
	char *mnt;
	size_t mntlen;
};

static int match_volume(const struct mountinfo_entry *e, void *arg)
{
	struct mount_search *s = arg;

	if (strcmp(e->fstype, "fuse.cloakfs") != 0 || strcmp(e->source, s->root) != 0)
		return 0;
	snprintf(s->mnt, s->mntlen, "%s", e->mountpoint);
	return 1;
}

int fsck_find_mount(const char *root, char *mnt, size_t mntlen)
{
	struct mount_search s = { root, mnt, mntlen };

	return mountinfo_each(match_volume, &s);
}
