// SPDX-License-Identifier: MIT
/* see readahead.h */
#include "fs/readahead.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void unescape_octal(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/*
 * "MAJ:MIN" of the last (topmost) FUSE mount at mountpoint: mountinfo
 * lines are "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - FSTYPE ...".
 */
static int mount_devnum(const char *mountpoint, char *dev, size_t devlen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = -ENOENT;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char devnum[32], mnt[4096];
		const char *sep = strstr(line, " - ");

		if (!sep || strncmp(sep + 3, "fuse", 4) != 0)
			continue;
		if (sscanf(line, "%*s %*s %31s %*s %4095s", devnum, mnt) != 2)
			continue;
		unescape_octal(mnt);
		if (strcmp(mnt, mountpoint) != 0)
			continue;
		snprintf(dev, devlen, "%s", devnum);
		found = 0;
	}
	free(line);
	fclose(f);
	return found;
}

int readahead_set(const char *mountpoint, unsigned int kb)
{
	char dev[32], path[96], val[16];
	int fd, err, n;

	err = mount_devnum(mountpoint, dev, sizeof(dev));
	if (err)
		return err;
	snprintf(path, sizeof(path), "/sys/class/bdi/%s/read_ahead_kb", dev);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(val, sizeof(val), "%u\n", kb);
	err = write(fd, val, (size_t)n) == n ? 0 : -errno;
	if (close(fd) != 0 && !err)
		err = -errno;
	return err;
}
