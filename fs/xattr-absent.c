/* SPDX-License-Identifier: MIT */
/* see xattr-absent.h */
#include "fs/xattr-absent.h"

#include <string.h>
#include <time.h>

#include "fs/fs.h"
#include "fs/inode.h"
#include "volume/names/xattr.h"

/* in->xattr_absent: the generation above, one bit per name below */
#define ABSENT_BITS 3
#define ABSENT_MASK ((UINT64_C(1) << ABSENT_BITS) - 1)

static int name_bit(const char *name)
{
	static const char *const names[ABSENT_BITS] = {
		"security.capability", XATTR_ACL_ACCESS, XATTR_ACL_DEFAULT
	};

	for (int i = 0; i < ABSENT_BITS; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* -o shared: an absence noted longer ago than the attribute timeout */
static int expired(const struct cloakfs *fs, const struct fs_inode *in)
{
	int64_t since = atomic_load(&in->xattr_absent_since_ms);

	return fs->vol.shared &&
	       now_ms() - since >= (int64_t)(fs->timeout * 1000);
}

int xattr_absent_known(struct cloakfs *fs, struct fs_inode *in,
		       const char *name, uint64_t *seen)
{
	int bit = name_bit(name);
	uint64_t w = atomic_load(&in->xattr_absent);

	if (bit < 0) {
		*seen = w;
		return 0;
	}
	if ((w & ABSENT_MASK) && expired(fs, in)) {
		/* forget them all; a failed exchange means someone else did
		 * or a change came: either way nothing is answered from w */
		(void)atomic_compare_exchange_strong(&in->xattr_absent, &w,
						     w & ~ABSENT_MASK);
		*seen = atomic_load(&in->xattr_absent);
		return 0;
	}
	*seen = w;
	return (w >> bit) & 1;
}

void xattr_absent_note(struct cloakfs *fs, struct fs_inode *in,
		       const char *name, uint64_t seen)
{
	int bit = name_bit(name);
	uint64_t want;

	if (bit < 0)
		return;
	want = seen | (UINT64_C(1) << bit);
	/* fails when a change (or another note) came since seen: then
	 * nothing is remembered, which is always right */
	if (!atomic_compare_exchange_strong(&in->xattr_absent, &seen, want))
		return;
	/* the first absence dates them all (forgotten together); until
	 * dated, an older date may forget it early, never keep it late */
	if (!(seen & ABSENT_MASK) && fs->vol.shared)
		atomic_store(&in->xattr_absent_since_ms, now_ms());
}

void xattr_absent_new_file(struct cloakfs *fs, struct fs_inode *in,
			   int has_acl_access, int has_acl_default)
{
	uint64_t seen;

	(void)xattr_absent_known(fs, in, "security.capability", &seen);
	xattr_absent_note(fs, in, "security.capability", seen);
	if (!has_acl_access) {
		(void)xattr_absent_known(fs, in, XATTR_ACL_ACCESS, &seen);
		xattr_absent_note(fs, in, XATTR_ACL_ACCESS, seen);
	}
	if (!has_acl_default) {
		(void)xattr_absent_known(fs, in, XATTR_ACL_DEFAULT, &seen);
		xattr_absent_note(fs, in, XATTR_ACL_DEFAULT, seen);
	}
}

void xattr_absent_forget(struct fs_inode *in)
{
	uint64_t w = atomic_load(&in->xattr_absent);

	while (!atomic_compare_exchange_weak(
		&in->xattr_absent, &w,
		((w >> ABSENT_BITS) + 1) << ABSENT_BITS))
		;
}
