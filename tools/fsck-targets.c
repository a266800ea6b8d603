/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck: the store of long symlink targets, cloakfs.targets/ at the
 * volume root (docs/format.md 7.4, docs/fsck.md). A stored target belongs
 * to the symlink whose text refers to it ("cloakfs.target.<hash>"); the
 * store is made before the symlink and emptied after the inode's last
 * name, so a crash in between, or an unlink that lost a race, leaves a
 * stored target no symlink refers to: an orphan, harmless, removed by
 * repair. What a symlink's reference finds in the store is judged with the
 * symlink (fsck-files.c); this file judges the store itself.
 *
 * The walk hands every symlink text it sees to fsck_targets_seen, whatever
 * the symlink's name (a quarantined symlink keeps its text, hence its
 * stored target): references go into an array of 32-byte hashes, sorted
 * once after the walk, so memory grows with the symlinks that have a
 * stored target, never with the tree. Then the store is read twice, never
 * opening an entry that is not a regular file: once to mark the
 * references it holds, once to report. An orphan is removed only when the
 * walk saw every symlink whole: if a directory was not walked, a symlink
 * not read, a symlink text is damaged or a reference names a missing
 * target, the orphan may be that symlink's target, and it is kept (repair
 * never deletes what may be user data).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/fsck-progress.h"
#include "tools/fsck-repair.h"
#include "tools/fsck-report.h"
#include "tools/fsck-targets.h"
#include "volume/fdio.h"
#include "volume/names/namemode.h"
#include "volume/names/symlink.h"

struct ref {
	uint8_t hash[SYMLINK_HASH_BYTES];
	bool found; /* the store holds an entry of this name */
};

struct fsck_target_refs {
	struct ref *v;
	size_t n, cap;
	char *unsure; /* why an orphan may not be one (the first reason) */
};

int fsck_targets_new(struct fsck *f)
{
	f->refs = calloc(1, sizeof(*f->refs));
	return f->refs ? 0 : -ENOMEM;
}

void fsck_targets_free(struct fsck *f)
{
	if (!f->refs)
		return;
	free(f->refs->v);
	free(f->refs->unsure);
	free(f->refs);
	f->refs = NULL;
}

static void unsure(struct fsck *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void unsure(struct fsck *f, const char *fmt, ...)
{
	static char no_memory[] = "the walk did not see every symlink";
	struct fsck_target_refs *r = f->refs;
	va_list ap;

	if (!r || r->unsure)
		return;
	va_start(ap, fmt);
	if (vasprintf(&r->unsure, fmt, ap) < 0)
		r->unsure = NULL;
	va_end(ap);
	if (!r->unsure)
		r->unsure = strdup(no_memory);
	if (!r->unsure)
		fsck_fail(f, "out of memory");
}

void fsck_targets_unsure(struct fsck *f, const char *cpath)
{
	unsure(f, "ciphertext %s was not looked into, and may hold the "
	       "symlink that refers to it", *cpath ? cpath : ".");
}

void fsck_targets_seen(struct fsck *f, const char *cpath, const char *text,
		       size_t len)
{
	struct fsck_target_refs *r = f->refs;
	size_t iv = namemode_target_iv(f->cfg.cipher, f->cfg.names);
	uint8_t hash[SYMLINK_HASH_BYTES];

	if (!r)
		return;
	if (symlink_ref_hash(text, len, hash) != 0) {
		/* a damaged text may once have been a reference */
		if (symlink_form(text, len, iv) == SYMLINK_DAMAGED ||
		    symlink_form(text, len, 0) == SYMLINK_REF)
			unsure(f, "the symlink (ciphertext %s) has a damaged "
			       "text, and may be the one that referred to it",
			       cpath);
		return;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		struct ref *v = realloc(r->v, cap * sizeof(*v));

		if (!v) {
			fsck_fail(f, "out of memory");
			return;
		}
		r->v = v;
		r->cap = cap;
	}
	memcpy(r->v[r->n].hash, hash, sizeof(hash));
	r->v[r->n++].found = false;
}

static int cmp_ref(const void *a, const void *b)
{
	return memcmp(a, b, SYMLINK_HASH_BYTES);
}

/* sorted, each hash once (hard links of a symlink refer to one target) */
static void sort_refs(struct fsck_target_refs *r)
{
	size_t m = 0;

	if (!r->n)
		return;
	qsort(r->v, r->n, sizeof(*r->v), cmp_ref);
	for (size_t i = 1; i < r->n; i++)
		if (cmp_ref(&r->v[i], &r->v[m]) != 0)
			r->v[++m] = r->v[i];
	r->n = m + 1;
}

static struct ref *find_ref(struct fsck_target_refs *r,
			    const uint8_t hash[SYMLINK_HASH_BYTES])
{
	return r->n ? bsearch(hash, r->v, r->n, sizeof(*r->v), cmp_ref) : NULL;
}

/* "cloakfs.targets/<name>" */
static void store_path(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", SYMLINK_STORE_DIR, name);
}

/* something the store never holds: moved into lost+found, never deleted */
static void foreign(struct fsck *f, int dirfd, const char *name,
		    const char *cpath, const char *why)
{
	char what[VNAME_MAX_ENCODED + 64] = "";
	enum fsck_action act = FA_NONE;
	int rc;

	if (f->repair) {
		rc = fsck_quarantine(f, dirfd, name, false, NULL,
				     fsck_class_name(FC_TARGET_FOREIGN), NULL,
				     what, sizeof(what));
		act = rc ? FA_FAILED : FA_QUARANTINED;
		if (rc)
			snprintf(what, sizeof(what), "%s", strerror(-rc));
	}
	fsck_report(f, FC_TARGET_FOREIGN, false, NULL, cpath, act, what, "%s",
		    why);
}

static void orphan(struct fsck *f, int sfd, const char *name,
		   const char *cpath)
{
	const char *kept = f->refs->unsure;
	enum fsck_action act = FA_NONE;
	char what[128] = "";

	if (f->repair && !kept) {
		act = unlinkat(sfd, name, 0) == 0 ? FA_REMOVED : FA_FAILED;
		if (act == FA_FAILED)
			snprintf(what, sizeof(what), "%s", strerror(errno));
	}
	fsck_report(f, FC_TARGET_ORPHAN, false, NULL, cpath, act, what,
		    "a stored symlink target no symlink refers to (a crash "
		    "between storing it and making the symlink leaves one)%s%s",
		    kept ? "; not removed: " : "", kept ? kept : "");
}

/* mark the references the store holds; the count of those it does not */
static size_t mark(struct fsck *f, DIR *dp)
{
	struct fsck_target_refs *r = f->refs;
	uint8_t hash[SYMLINK_HASH_BYTES];
	struct dirent *de;
	struct ref *ref;
	size_t missing = 0;
	mode_t type;
	int k;

	while ((de = readdir(dp)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		k = symlink_store_entry(dirfd(dp), de->d_name, hash, &type);
		if ((k == SYMLINK_STORED || k == SYMLINK_STORED_ODD) &&
		    (ref = find_ref(r, hash)) != NULL)
			ref->found = true;
	}
	for (size_t i = 0; i < r->n; i++)
		missing += !r->v[i].found;
	return missing;
}

static void judge(struct fsck *f, DIR *dp)
{
	char cpath[sizeof(SYMLINK_STORE_DIR) + 256 + 2], why[160];
	uint8_t hash[SYMLINK_HASH_BYTES];
	struct dirent *de;
	mode_t type = 0;
	int k;

	while ((errno = 0, de = readdir(dp)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		store_path(cpath, sizeof(cpath), de->d_name);
		fsck_progress_tick(f, cpath);
		k = symlink_store_entry(dirfd(dp), de->d_name, hash, &type);
		if (k == -ENOENT)
			continue;
		if (k < 0) {
			fsck_report(f, FC_UNREADABLE, false, NULL, cpath, FA_NONE,
				    NULL, "stat: %s", strerror(-k));
			continue;
		}
		if (k == SYMLINK_STORED) {
			if (!find_ref(f->refs, hash))
				orphan(f, dirfd(dp), de->d_name, cpath);
			continue;
		}
		snprintf(why, sizeof(why), "%s%s in the symlink target store",
			 k == SYMLINK_STORE_FOREIGN ? "not a name cloakfs writes: "
						     : "",
			 volume_type_name(type));
		foreign(f, dirfd(dp), de->d_name, cpath, why);
	}
	if (errno)
		fsck_report(f, FC_UNREADABLE, false, NULL, SYMLINK_STORE_DIR,
			    FA_NONE, NULL, "reading the directory: %s",
			    strerror(errno));
}

void fsck_targets_check(struct fsck *f)
{
	struct fsck_target_refs *r = f->refs;
	char why[128];
	mode_t type = 0;
	size_t missing;
	DIR *dp;
	int sfd;

	/* version 1 too: a config set back to 1 after an upgrade still
	 * has symlinks whose targets are stored (docs/format.md 4, 7.4) */
	if (!r || f->operational_error)
		return;
	sfd = symlink_store_open(f->rootfd, &type);
	if (sfd == -ENOENT)
		return; /* a reference into it: the symlink was reported */
	if (sfd == -ENOTDIR) {
		snprintf(why, sizeof(why), "the symlink target store is %s, not "
			 "a directory", volume_type_name(type));
		foreign(f, f->rootfd, SYMLINK_STORE_DIR, SYMLINK_STORE_DIR, why);
		return;
	}
	if (sfd >= 0 && !(dp = fdopendir(sfd))) {
		close(sfd);
		sfd = -errno;
	}
	if (sfd < 0) {
		fsck_report(f, FC_UNREADABLE, false, NULL, SYMLINK_STORE_DIR,
			    FA_NONE, NULL, "the symlink target store: %s",
			    strerror(-sfd));
		return;
	}
	sort_refs(r);
	missing = mark(f, dp);
	if (missing)
		unsure(f, "%zu symlink reference%s name%s a stored target that "
		       "is missing (symlink-target-missing), and may once have "
		       "named this one", missing, missing == 1 ? "" : "s",
		       missing == 1 ? "s" : "");
	rewinddir(dp);
	judge(f, dp);
	closedir(dp);
}
