/* SPDX-License-Identifier: MIT */
/*
 * respell.h: version-1 symlinks changing directory, on a ciphertext tree
 * made here (two directories with their nonces, one keyring): rename,
 * RENAME_NOREPLACE and RENAME_EXCHANGE with a short and the longest
 * version-1 target, short and long (sidecar) names, and a version-2 text
 * left by an interrupted upgrade. Each moved target must decode under its
 * new directory's key and keep its owner and mtime; each failure (an
 * existing destination, a directory in the way, a locked volume, a
 * damaged target, an exchange with nothing to exchange) must leave the
 * entries as they were and no temporary name or stray sidecar behind.
 * entryops.h's rename and link, which choose respell_rename, on the same
 * tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/volume/voltest.h"
#include "volume/names/dirnonce.h"
#include "volume/dirops.h"
#include "volume/entryops.h"
#include "volume/fdio.h"
#include "volume/keys/keyring.h"
#include "volume/keys/keys.h"
#include "volume/respell.h"
#include "volume/names/symlink.h"

struct tree {
	char *top;
	int root, a, b; /* the root and its directories a and b */
	uint8_t na[DIRNONCE_SIZE], nb[DIRNONCE_SIZE];
	struct keyring *kr;
	uint8_t vmk[KEYS_VMK_SIZE];
	enum volume_cipher cipher;
	size_t bs;
	unsigned int name_max;
	int long_names; /* every name past name_max: cloakfs.long.X */
};

/* one entry of the tree: its encrypted name and lstat */
struct ent {
	struct direntry_name vn;
	struct stat st;
	struct respell_entry e;
};

static int install_keys(struct tree *t)
{
	struct volume_keys *k;
	int err = keys_new(t->vmk, t->cipher, &k);

	if (!err)
		keyring_install(t->kr, k);
	return err;
}

static int open_dir(int at, const char *name)
{
	return openat(at, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static int tree_new(struct tree *t, enum volume_cipher c, int long_names)
{
	memset(t, 0, sizeof(*t));
	t->cipher = c;
	t->bs = volume_cipher_info(c)->blocksize;
	t->long_names = long_names;
	t->name_max = long_names ? VNAME_MIN_NAME_MAX : VNAME_DEFAULT_NAME_MAX;
	t->top = voltest_tmpdir("respell");
	test_random_bytes(t->vmk, sizeof(t->vmk));
	if (keyring_new(c, &t->kr) || install_keys(t))
		return -1;
	t->root = open_dir(AT_FDCWD, t->top);
	if (t->root < 0 || mkdirat(t->root, "a", 0700) || mkdirat(t->root, "b", 0700))
		return -1;
	t->a = open_dir(t->root, "a");
	t->b = open_dir(t->root, "b");
	if (t->a < 0 || t->b < 0 || dirnonce_create(t->a, t->na) ||
	    dirnonce_create(t->b, t->nb))
		return -1;
	return 0;
}

static void tree_free(struct tree *t)
{
	close(t->a);
	close(t->b);
	close(t->root);
	keyring_free(t->kr);
	voltest_rmtree(t->top);
	free(t->top);
}

static const uint8_t *nonce_of(struct tree *t, int dfd)
{
	return dfd == t->a ? t->na : t->nb;
}

/* en: the entry called base in dfd (not made; st filled if it exists) */
static void ent(struct tree *t, int dfd, const char *base, struct ent *en)
{
	char name[VNAME_MAX_PLAIN + 1];

	snprintf(name, sizeof(name), "%s%s", base,
		 t->long_names ? "-nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
			       : "");
	memset(en, 0, sizeof(*en));
	CHECK(direntry_name_encrypt(&(struct direntry_key){
					    .kr = t->kr, .nonce = nonce_of(t, dfd) },
				    t->name_max, name, &en->vn) == 0 &&
		      en->vn.is_long == t->long_names,
	      "name %s", name);
	if (fstatat(dfd, en->vn.name, &en->st, AT_SYMLINK_NOFOLLOW) != 0)
		en->st.st_mode = 0;
	en->e = (struct respell_entry){ .dfd = dfd, .name = &en->vn,
					 .st = &en->st };
}

/* a symlink base in dfd to target, encrypted for dfd, owner and times set */
static void make_link(struct tree *t, int dfd, const char *base,
		      const char *target, struct ent *en)
{
	char text[SYMLINK_MAX_STORED + 1];
	struct timespec times[2] = { { 1000, 123 }, { 2000, 456 } };

	ent(t, dfd, base, en);
	CHECK(direntry_target_encrypt(t->kr, nonce_of(t, dfd), target, text) == 0 &&
		      direntry_name_prepare(dfd, &en->vn) == 0 &&
		      symlinkat(text, dfd, en->vn.name) == 0,
	      "make symlink %s", base);
	if (geteuid() == 0)
		CHECK(fchownat(dfd, en->vn.name, 4321, 8765,
			       AT_SYMLINK_NOFOLLOW) == 0, "chown");
	CHECK(utimensat(dfd, en->vn.name, times, AT_SYMLINK_NOFOLLOW) == 0,
	      "times");
	CHECK(fstatat(dfd, en->vn.name, &en->st, AT_SYMLINK_NOFOLLOW) == 0,
	      "lstat");
}

static void make_file(struct tree *t, int dfd, const char *base, struct ent *en)
{
	int fd;

	ent(t, dfd, base, en);
	CHECK(direntry_name_prepare(dfd, &en->vn) == 0, "sidecar");
	fd = openat(dfd, en->vn.name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    0600);
	CHECK(fd >= 0, "make file %s", base);
	if (fd >= 0)
		close(fd);
	CHECK(fstatat(dfd, en->vn.name, &en->st, AT_SYMLINK_NOFOLLOW) == 0,
	      "lstat");
}

/* the text of symlink dfd/cname; "" when there is none */
static void text_of(int dfd, const char *cname, char out[SYMLINK_MAX_STORED + 2])
{
	ssize_t n = readlinkat(dfd, cname, out, SYMLINK_MAX_STORED + 1);

	out[n < 0 ? 0 : n] = '\0';
}

/* does dfd/en hold a symlink to target, under dfd's key, with the owner
 * and mtime of was? */
static int holds(struct tree *t, int dfd, const struct ent *en,
		 const char *target, const struct stat *was)
{
	char text[SYMLINK_MAX_STORED + 2], plain[SYMLINK_MAX_PLAIN + 1];
	struct stat st;
	int n;

	text_of(dfd, en->vn.name, text);
	if (!*text || fstatat(dfd, en->vn.name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	n = direntry_target_decrypt(t->kr, nonce_of(t, dfd), text, strlen(text),
				plain);
	return n >= 0 && (size_t)n == strlen(target) && !strcmp(plain, target) &&
	       st.st_uid == was->st_uid && st.st_gid == was->st_gid &&
	       st.st_mtim.tv_sec == was->st_mtim.tv_sec &&
	       st.st_mtim.tv_nsec == was->st_mtim.tv_nsec;
}

static int gone(int dfd, const struct ent *en)
{
	struct stat st;

	return fstatat(dfd, en->vn.name, &st, AT_SYMLINK_NOFOLLOW) != 0 &&
	       errno == ENOENT;
}

/* temporary names, and sidecars without their long entry, in dfd */
static int leftovers(int dfd)
{
	char entry[VNAME_SIDECAR_LEN + 1];
	struct dirent *d;
	struct stat st;
	DIR *dp;
	int n = 0;

	if (fdio_opendir(dfd, &dp) != 0)
		return -1;
	while ((d = readdir(dp)) != NULL) {
		size_t len = strlen(d->d_name);

		if (!strncmp(d->d_name, DIROPS_TEMP_PREFIX,
			     strlen(DIROPS_TEMP_PREFIX))) {
			fprintf(stderr, "  left: %s\n", d->d_name);
			n++;
		} else if (vname_classify(d->d_name) == VNAME_ENTRY_SIDECAR) {
			len -= strlen(VNAME_SIDECAR_SUFFIX);
			memcpy(entry, d->d_name, len);
			entry[len] = '\0';
			if (fstatat(dfd, entry, &st, AT_SYMLINK_NOFOLLOW) != 0) {
				fprintf(stderr, "  stray sidecar: %s\n", d->d_name);
				n++;
			}
		}
	}
	closedir(dp);
	return n;
}

/* take an entry away, with its sidecar */
static void drop(int dfd, struct ent *en)
{
	struct stat st;

	if (fstatat(dfd, en->vn.name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		CHECK(unlinkat(dfd, en->vn.name,
			       S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0) == 0,
		      "drop");
	direntry_name_forget(dfd, &en->vn);
}

static int respell(struct tree *t, struct ent *src, struct ent *dst,
		   unsigned int flags)
{
	src->e.nonce = nonce_of(t, src->e.dfd);
	dst->e.nonce = nonce_of(t, dst->e.dfd);
	return respell_rename(t->kr, t->root, t->bs, 1, &src->e, &dst->e,
			       flags);
}

/* a -> b, onto nothing, a file or a symlink; plain or RENAME_NOREPLACE */
static void test_move(struct tree *t, const char *target)
{
	static const char *const over[] = { "nothing", "file", "symlink" };

	for (unsigned int i = 0; i < 3; i++) {
		for (unsigned int noreplace = 0; noreplace < 2; noreplace++) {
			struct ent s, d;
			struct stat was;
			int r;

			if (noreplace && i)
				continue; /* test_refused */
			make_link(t, t->a, "s", target, &s);
			was = s.st;
			if (i == 1)
				make_file(t, t->b, "d", &d);
			else if (i == 2)
				make_link(t, t->b, "d", "old", &d);
			else
				ent(t, t->b, "d", &d);
			r = respell(t, &s, &d, noreplace ? RENAME_NOREPLACE : 0);
			CHECK(r == 0, "over %s, noreplace %u: %d", over[i],
			      noreplace, r);
			CHECK(holds(t, t->b, &d, target, &was),
			      "over %s: moved target decodes in b", over[i]);
			CHECK(gone(t->a, &s), "over %s: source gone", over[i]);
			CHECK(leftovers(t->a) == 0 && leftovers(t->b) == 0,
			      "over %s: nothing left", over[i]);
			drop(t->b, &d);
		}
	}
}

/* failures: each leaves both entries as they were and nothing behind */
static void test_refused(struct tree *t, const char *target)
{
	char before[SYMLINK_MAX_STORED + 2], after[SYMLINK_MAX_STORED + 2];
	struct ent s, d, x;
	struct stat was;
	int r, fd;

	make_link(t, t->a, "s", target, &s);
	was = s.st;
	text_of(t->a, s.vn.name, before);

	/* RENAME_NOREPLACE onto a name that exists: after the copy is made */
	make_file(t, t->b, "d", &d);
	r = respell(t, &s, &d, RENAME_NOREPLACE);
	CHECK(r == -EEXIST, "noreplace onto a file: %d", r);
	CHECK(fstatat(t->b, d.vn.name, &x.st, AT_SYMLINK_NOFOLLOW) == 0 &&
		      S_ISREG(x.st.st_mode) && x.st.st_ino == d.st.st_ino,
	      "noreplace: the file stays");
	CHECK(leftovers(t->b) == 0, "noreplace: the copy is gone");
	drop(t->b, &d);

	/* a directory in the way: rename(2) refuses the copy */
	ent(t, t->b, "d", &d);
	CHECK(direntry_name_prepare(t->b, &d.vn) == 0 &&
		      mkdirat(t->b, d.vn.name, 0700) == 0,
	      "a directory");
	fd = open_dir(t->b, d.vn.name);
	CHECK(fd >= 0 && mkdirat(fd, "inside", 0700) == 0, "inside");
	if (fd >= 0)
		close(fd);
	d.st.st_mode = S_IFDIR;
	r = respell(t, &s, &d, 0);
	CHECK(r == -EISDIR || r == -ENOTEMPTY || r == -EEXIST,
	      "over a directory: %d", r);
	CHECK(leftovers(t->b) == 0 && !gone(t->b, &d), "the directory stays");
	fd = open_dir(t->b, d.vn.name);
	CHECK(fd >= 0 && unlinkat(fd, "inside", AT_REMOVEDIR) == 0, "rmdir");
	if (fd >= 0)
		close(fd);
	drop(t->b, &d);

	/* an exchange with nothing to exchange with */
	ent(t, t->b, "d", &d);
	d.st.st_mode = S_IFREG; /* what the caller saw */
	r = respell(t, &s, &d, RENAME_EXCHANGE);
	CHECK(r == -ENOENT, "exchange with nothing: %d", r);
	CHECK(leftovers(t->b) == 0 && gone(t->b, &d), "nothing made in b");

	/* locked */
	keyring_lock(t->kr);
	r = respell(t, &s, &d, 0);
	CHECK(r == -EACCES, "locked: %d", r);
	CHECK(leftovers(t->b) == 0 && gone(t->b, &d), "locked: nothing in b");
	CHECK(install_keys(t) == 0, "unlock");

	text_of(t->a, s.vn.name, after);
	CHECK(!strcmp(before, after) && holds(t, t->a, &s, target, &was),
	      "the source stays as it was");
	CHECK(leftovers(t->a) == 0, "nothing left in a");

	/* nothing bound, or bad flags */
	CHECK(respell_rename(t->kr, t->root, t->bs, 2, &s.e, &d.e, 0) == -EINVAL,
	      "version 2: nothing to respell");
	CHECK(respell_rename(t->kr, t->root, t->bs, 1, &s.e, &d.e,
			      RENAME_EXCHANGE | RENAME_NOREPLACE) == -EINVAL,
	      "both flags");
	make_file(t, t->a, "f", &x);
	CHECK(respell(t, &x, &d, 0) == -EINVAL, "a file is not bound");
	CHECK(gone(t->b, &d) && !gone(t->a, &x), "a file stays");
	drop(t->a, &x);
	drop(t->a, &s);

	/* a damaged target: not moved, not decoded */
	ent(t, t->a, "s", &s);
	CHECK(direntry_name_prepare(t->a, &s.vn) == 0 &&
		      symlinkat("!not an encoding!", t->a, s.vn.name) == 0 &&
		      fstatat(t->a, s.vn.name, &s.st, AT_SYMLINK_NOFOLLOW) == 0,
	      "damaged symlink");
	r = respell(t, &s, &d, 0);
	CHECK(r == -EBADMSG, "damaged: %d", r);
	text_of(t->a, s.vn.name, after);
	CHECK(!strcmp(after, "!not an encoding!") && gone(t->b, &d) &&
		      leftovers(t->b) == 0,
	      "damaged: left as it is");
	drop(t->a, &s);
}

/* RENAME_EXCHANGE of a (in a) and b (in b): either or both a symlink */
static void test_exchange(struct tree *t, const char *target)
{
	static const char *const pairs[] = { "link-link", "link-file",
					     "file-link" };
	size_t len = strlen(target);
	char ta[SYMLINK_MAX_PLAIN + 1], tb[SYMLINK_MAX_PLAIN + 1];

	memcpy(ta, target, len + 1);
	memcpy(tb, target, len + 1);
	ta[len - 1] = 'A';
	tb[len - 1] = 'B';
	for (unsigned int p = 0; p < 3; p++) {
		struct ent x, y, nx, ny;
		struct stat wx, wy;
		int r;

		if (p != 2)
			make_link(t, t->a, "x", ta, &x);
		else
			make_file(t, t->a, "x", &x);
		if (p != 1)
			make_link(t, t->b, "y", tb, &y);
		else
			make_file(t, t->b, "y", &y);
		wx = x.st;
		wy = y.st;
		r = respell(t, &x, &y, RENAME_EXCHANGE);
		CHECK(r == 0, "%s: %d", pairs[p], r);
		/* b/y now holds what a/x held and the other way round */
		ent(t, t->b, "y", &ny);
		ent(t, t->a, "x", &nx);
		if (p != 2)
			CHECK(holds(t, t->b, &ny, ta, &wx), "%s: a's symlink in b",
			      pairs[p]);
		else
			CHECK(ny.st.st_ino == wx.st_ino, "%s: a's file in b",
			      pairs[p]);
		if (p != 1)
			CHECK(holds(t, t->a, &nx, tb, &wy), "%s: b's symlink in a",
			      pairs[p]);
		else
			CHECK(nx.st.st_ino == wy.st_ino, "%s: b's file in a",
			      pairs[p]);
		CHECK(leftovers(t->a) == 0 && leftovers(t->b) == 0,
		      "%s: nothing left", pairs[p]);
		drop(t->a, &nx);
		drop(t->b, &ny);
	}
}

/* a version-2 text in a version-1 volume (an upgrade interrupted) is
 * decoded with the volume's symlink key and moved as a version-1 one */
static void test_v2_text(struct tree *t)
{
	char text[SYMLINK_MAX_STORED + 2];
	struct ent s, d;
	struct stat was;
	int n;

	ent(t, t->a, "s", &s);
	n = symlink_encode(t->kr, t->root, "v2 target", 9, text);
	CHECK(n > 0 && symlink_form(text, (size_t)n, t->bs) == SYMLINK_V2,
	      "a version-2 text: %d", n);
	CHECK(direntry_name_prepare(t->a, &s.vn) == 0 &&
		      symlinkat(text, t->a, s.vn.name) == 0 &&
		      fstatat(t->a, s.vn.name, &s.st, AT_SYMLINK_NOFOLLOW) == 0,
	      "v2 symlink");
	was = s.st;
	ent(t, t->b, "d", &d);
	CHECK(respell(t, &s, &d, 0) == 0, "v2 text moved");
	text_of(t->b, d.vn.name, text);
	CHECK(symlink_form(text, strlen(text), t->bs) == SYMLINK_V1 &&
		      holds(t, t->b, &d, "v2 target", &was),
	      "as a version-1 target of b");
	CHECK(gone(t->a, &s) && leftovers(t->a) == 0 && leftovers(t->b) == 0,
	      "v2: nothing left");
	drop(t->b, &d);
}

/*
 * volume/entryops.h over the same tree: which rename re-encrypts (a
 * version-1 symlink changing name key only), what it reports, two names
 * of one file, a lost nonce, and link(2) of a version-1 symlink.
 */
static void test_entryops(struct tree *t)
{
	struct volume v = { .keyring = t->kr, .version = 1, .rootfd = t->root,
			    .cipher = volume_cipher_info(t->cipher) };
	struct ent s, d, f, g;
	struct stat was;
	unsigned int done;
	int fd;

	/* a version-1 symlink to another directory: re-made there */
	make_link(t, t->a, "eo-link", "eo/target", &s);
	ent(t, t->b, "eo-link", &d);
	was = s.st;
	s.e.nonce = t->na;
	d.e.nonce = t->nb;
	d.e.st = NULL;
	CHECK(entryops_rename(&v, &s.e, &d.e, 0, &done) == 0 &&
		      done == ENTRYOPS_SRC_REMADE && gone(t->a, &s) &&
		      holds(t, t->b, &d, "eo/target", &was),
	      "v1 symlink re-made in b");
	/* back within b's name key (the same nonce): only renamed */
	ent(t, t->b, "eo-link", &s);
	ent(t, t->b, "eo-link2", &d);
	s.e.nonce = d.e.nonce = t->nb;
	d.e.st = NULL;
	CHECK(entryops_rename(&v, &s.e, &d.e, 0, &done) == 0 && done == 0,
	      "same directory: renamed");
	CHECK(fstatat(t->b, d.vn.name, &d.st, AT_SYMLINK_NOFOLLOW) == 0 &&
		      d.st.st_ino == s.st.st_ino,
	      "same directory: the same inode");
	/* a lost nonce: no key to re-encrypt with, nothing changes */
	s = d;
	s.e.name = &s.vn;
	s.e.st = &s.st;
	ent(t, t->a, "eo-back", &d);
	s.e.nonce = NULL;
	d.e.nonce = t->na;
	d.e.st = NULL;
	CHECK(entryops_rename(&v, &s.e, &d.e, 0, &done) == -EIO &&
		      gone(t->a, &d) && !gone(t->b, &s),
	      "lost nonce: -EIO, unchanged");
	/* link(2): only within its own directory */
	fd = openat(t->b, s.vn.name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	CHECK(fd >= 0, "open symlink");
	CHECK(entryops_link(&v, fd, S_IFLNK, 0, t->a, &d.vn) == -EPERM &&
		      gone(t->a, &d) && leftovers(t->a) == 0,
	      "v1 symlink: no link elsewhere, no sidecar left");
	ent(t, t->b, "eo-hard", &g);
	CHECK(entryops_link(&v, fd, S_IFLNK, 1, t->b, &g.vn) == 0 &&
		      fstatat(t->b, g.vn.name, &g.st, AT_SYMLINK_NOFOLLOW) == 0 &&
		      g.st.st_ino == s.st.st_ino,
	      "v1 symlink: linked in its own directory");
	v.version = 2;
	CHECK(entryops_link(&v, fd, S_IFLNK, 0, t->a, &d.vn) == 0 &&
		      !gone(t->a, &d),
	      "version 2: linked anywhere");
	if (fd >= 0)
		close(fd);
	drop(t->a, &d);
	/* two names of one file: nothing happens */
	g.e.nonce = s.e.nonce = t->nb;
	CHECK(entryops_rename(&v, &g.e, &s.e, 0, &done) == 0 &&
		      done == ENTRYOPS_NOTHING && !gone(t->b, &g) && !gone(t->b, &s),
	      "one file: nothing");
	CHECK(entryops_rename(&v, &g.e, &s.e, RENAME_NOREPLACE, &done) == -EEXIST,
	      "one file, RENAME_NOREPLACE: -EEXIST");
	drop(t->b, &g);
	drop(t->b, &s);
	/* a file to another directory, and an exchange with nothing */
	make_file(t, t->a, "eo-file", &f);
	ent(t, t->b, "eo-file", &g);
	f.e.nonce = t->na;
	g.e.nonce = t->nb;
	g.e.st = NULL;
	CHECK(entryops_rename(&v, &f.e, &g.e, RENAME_EXCHANGE, &done) == -ENOENT &&
		      !gone(t->a, &f),
	      "exchange with nothing: -ENOENT");
	CHECK(entryops_rename(&v, &f.e, &g.e, 0, &done) == 0 && done == 0 &&
		      gone(t->a, &f) && !gone(t->b, &g) &&
		      leftovers(t->a) == 0 && leftovers(t->b) == 0,
	      "file moved with its sidecar");
	CHECK(entryops_unlink(&v, t->b, &g.vn) == 0 && gone(t->b, &g) &&
		      leftovers(t->b) == 0,
	      "unlinked with its sidecar");
	/* rmdir: only a directory holding nothing but its nonce */
	ent(t, t->a, "eo-dir", &d);
	CHECK(direntry_name_prepare(t->a, &d.vn) == 0 &&
		      dirops_make_dir(t->a, d.vn.name, 0700, NULL, NULL) == 0,
	      "make directory");
	fd = openat(t->a, d.vn.name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd >= 0 && mkdirat(fd, "x", 0700) == 0, "fill directory");
	CHECK(entryops_rmdir(t->a, &d.vn) == -ENOTEMPTY && !gone(t->a, &d),
	      "rmdir of a full directory: -ENOTEMPTY");
	CHECK(unlinkat(fd, "x", AT_REMOVEDIR) == 0, "empty it");
	if (fd >= 0)
		close(fd);
	CHECK(entryops_rmdir(t->a, &d.vn) == 0 && gone(t->a, &d) &&
		      leftovers(t->a) == 0,
	      "rmdir with its nonce and sidecar");
}

int main(void)
{
	static const enum volume_cipher ciphers[] = {
		VOLUME_CIPHER_SPECK128_XTS, VOLUME_CIPHER_SPECK64_XTS,
		VOLUME_CIPHER_AES256_XTS, VOLUME_CIPHER_SM4_XTS,
		VOLUME_CIPHER_CAMELLIA256_XTS
	};
	/* the longest version-1 target (docs/format.md 7.4) */
	char longest[VNAME_MAX_SYMLINK_PLAIN + 1];
	const char *targets[] = { "some/target", longest };
	int tested = 0;

	for (size_t i = 0; i < VNAME_MAX_SYMLINK_PLAIN; i++)
		longest[i] = "../d"[i % 4];
	longest[VNAME_MAX_SYMLINK_PLAIN] = '\0';
	test_seed();
	CHECK(respell_bound(1, S_IFLNK) && !respell_bound(2, S_IFLNK) &&
		      !respell_bound(1, S_IFREG) && !respell_bound(1, S_IFDIR),
	      "bound: version-1 symlinks only");
	for (size_t c = 0; c < sizeof(ciphers) / sizeof(ciphers[0]); c++) {
		const struct volume_cipher_info *ci = volume_cipher_info(ciphers[c]);
		struct crypto_tfm *probe = voltest_alloc(ci->cts_alg);

		if (!probe)
			continue;
		crypto_free(probe);
		for (int long_names = 0; long_names < 2; long_names++) {
			struct tree t;

			if (tree_new(&t, ciphers[c], long_names) != 0) {
				CHECK(0, "%s: tree: %s", ci->name, strerror(errno));
				continue;
			}
			for (size_t i = 0; i < 2; i++) {
				test_move(&t, targets[i]);
				test_exchange(&t, targets[i]);
				test_refused(&t, targets[i]);
			}
			test_v2_text(&t);
			test_entryops(&t);
			tree_free(&t);
		}
		tested++;
	}
	if (!tested)
		return TEST_SKIP;
	return test_finish("test_respell");
}
