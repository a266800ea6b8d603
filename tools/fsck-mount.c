/* SPDX-License-Identifier: MIT */
/*
 * Is the volume mounted? The mount command (fs/cloakfs.c) sets
 * fsname=<realpath of CIPHERDIR> and subtype=cloakfs, so its line in
 * /proc/self/mountinfo (proc(5)) has the file system type "fuse.cloakfs"
 * and that path as its source, with space, tab, newline and backslash
 * written as \ooo octal escapes. See fsck.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/fsck.h"

/* undo mountinfo's \ooo escapes in place */
static void unescape(char *s)
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

int fsck_find_mount(const char *root, char *mnt, size_t mntlen)
{
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!fp)
		return -errno;
	while (!found && getline(&line, &cap, fp) > 0) {
		char *save = NULL, *field, *mountpoint = NULL, *type, *source;
		int i = 0;

		line[strcspn(line, "\n")] = '\0';
		/* id parent major:minor root mountpoint options [optional...] - */
		for (field = strtok_r(line, " ", &save); field;
		     field = strtok_r(NULL, " ", &save), i++) {
			if (i == 4)
				mountpoint = field;
			if (i >= 6 && strcmp(field, "-") == 0)
				break;
		}
		if (!field || !mountpoint)
			continue;
		type = strtok_r(NULL, " ", &save);
		source = strtok_r(NULL, " ", &save);
		if (!type || !source || strcmp(type, "fuse.cloakfs") != 0)
			continue;
		unescape(source);
		if (strcmp(source, root) != 0)
			continue;
		unescape(mountpoint);
		snprintf(mnt, mntlen, "%s", mountpoint);
		found = 1;
	}
	free(line);
	fclose(fp);
	return found;
}
