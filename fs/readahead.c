// SPDX-License-Identifier: MIT
/* see readahead.h */
#include "fs/readahead.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/mountinfo.h"

struct devnum_search {
	const char *mountpoint;
	char dev[32];
	int found;
};

/* "MAJ:MIN" of the last (topmost) FUSE mount at the mountpoint */
static int match_fuse_mount(const struct mountinfo_entry *e, void *arg)
{
	struct devnum_search *s = arg;

	if (strncmp(e->fstype, "fuse", 4) == 0 &&
	    strcmp(e->mountpoint, s->mountpoint) == 0) {
		snprintf(s->dev, sizeof(s->dev), "%s", e->devnum);
		s->found = 1;
	}
	return 0; /* on: a later mount on the same point hides this one */
}

int readahead_set(const char *mountpoint, unsigned int kb)
{
	struct devnum_search s = { .mountpoint = mountpoint };
	char path[96], val[16];
	int fd, err, n;

	err = mountinfo_each(match_fuse_mount, &s);
	if (err)
		return err;
	if (!s.found)
		return -ENOENT;
	snprintf(path, sizeof(path), "/sys/class/bdi/%s/read_ahead_kb", s.dev);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(val, sizeof(val), "%u\n", kb);
	err = write(fd, val, (size_t)n) == n ? 0 : -errno;
	if (close(fd) != 0 && !err)
		err = -errno;
	return err;
}
