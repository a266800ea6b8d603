/* SPDX-License-Identifier: MIT */
/* see state.h */
#include "fs/state.h"

#include <errno.h>
#include <string.h>


int fs_state_is_name(const char *name)
{
	return strcmp(name, FS_STATE_XATTR) == 0;
}

void fs_state_reply(fuse_req_t req, struct cloakfs *fs, size_t size)
{
	/* whether the keys are there right now; nothing is touched */
	const char *state = keyring_unlocked(fs->vol.keyring) ? "unlocked" : "locked";
	size_t len = strlen(state);

	if (size == 0)
		fuse_reply_xattr(req, len);
	else if (size < len)
		fuse_reply_err(req, ERANGE);
	else
		fuse_reply_buf(req, state, len);
}
