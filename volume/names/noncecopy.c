/* SPDX-License-Identifier: MIT */
/* see noncecopy.h */
#include "volume/names/noncecopy.h"

#include <dirent.h>
#include <string.h>

#include "volume/fdio.h"

/* the nonce in conflict copy name of dirfd: 0, or -1 when it holds none */
static int read_copy(int dirfd, const char *name, uint8_t nonce[DIRNONCE_SIZE])
{
	static const uint8_t zero[DIRNONCE_SIZE];
	uint8_t buf[DIRNONCE_SIZE + 1];
	ssize_t n = fdio_read_file(dirfd, name, buf, sizeof(buf), NULL);
	int ok = n == DIRNONCE_SIZE && memcmp(buf, zero, DIRNONCE_SIZE) != 0;

	if (ok)
		memcpy(nonce, buf, DIRNONCE_SIZE);
	explicit_bzero(buf, sizeof(buf));
	return ok ? 0 : -1;
}

int noncecopy_find(int dirfd, const uint8_t own[DIRNONCE_SIZE],
		   uint8_t other[DIRNONCE_SIZE], unsigned int *copies)
{
	uint8_t nonce[DIRNONCE_SIZE];
	struct vname_conflict vc;
	unsigned int n = 0;
	struct dirent *de;
	int found = 0, err = 0;
	DIR *dp;

	err = fdio_opendir(dirfd, &dp);
	if (err)
		return err;
	while ((de = readdir(dp)) != NULL) {
		if (vname_classify(de->d_name) != VNAME_ENTRY_CONFLICT ||
		    !vname_conflict_of(de->d_name, &vc) ||
		    vc.kind != VNAME_ENTRY_DIRNONCE)
			continue;
		n++;
		if (found || read_copy(dirfd, de->d_name, nonce) != 0 ||
		    memcmp(nonce, own, DIRNONCE_SIZE) == 0)
			continue;
		memcpy(other, nonce, DIRNONCE_SIZE);
		found = 1;
	}
	closedir(dp);
	explicit_bzero(nonce, sizeof(nonce));
	if (copies)
		*copies = n;
	return found;
}
