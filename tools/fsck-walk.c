/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck: the directory walk. Each ciphertext directory is read
 * whole first; then its nonce, every entry's name (short, long with its
 * sidecar, foreign), duplicates and orphan sidecars are judged; then each
 * entry by type (subdirectories first, recursively); last, what cannot
 * stay is quarantined (fsck-repair.c). lost+found.cloakfs/ is walked
 * before the rest of the root, so nothing moved there in this run is
 * checked twice; damage inside it is only noted. See fsck.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tools/fsck.h"
#include "volume/base64url.h"
#include "volume/dirops.h"

struct item {
	char *cname;
	enum names_entry kind;
	char plain[NAMES_MAX_PLAIN + 1];
	bool decoded;           /* plain holds a valid name */
	char enc[NAMES_MAX_ENCODED + 1]; /* the encoding (from the sidecar) */
	size_t enclen;
	char hint[NAMES_MAX_PLAIN + 1]; /* a damaged sidecar's name, if any */
	enum fsck_class bad;    /* why it must move (FC_COUNT: it need not) */
	char why[300];
	bool skip;              /* reported already; leave it alone */
	bool is_lf;             /* the root's lost+found.cloakfs */
};

struct dir {
	struct fsck *f;
	int fd;
	const char *path;  /* plaintext, "" for the root, NULL: unknown */
	const char *cpath; /* "" for the root */
	bool in_lf, is_root, is_lf;
	struct crypto_tfm *names;
	bool names_lost;   /* the nonce was missing or damaged */
	struct item *items;
	size_t n;
};

static void check_dir(struct fsck *f, int fd, const char *path,
		      const char *cpath, bool in_lf, bool is_root, bool is_lf);

/* ciphertext paths: "<a>/<b>", or b alone when a is "" (the root) */
static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);

	if (!s)
		return NULL;
	if (la) {
		memcpy(s, a, la);
		s[la++] = '/';
	}
	memcpy(s + la, b, lb + 1);
	return s;
}

/* plaintext paths: the root is "", its entries "/<b>" */
static char *join_plain(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);

	if (!s)
		return NULL;
	memcpy(s, a, la);
	s[la] = '/';
	memcpy(s + la + 1, b, lb + 1);
	return s;
}

static int read_items(struct dir *d)
{
	struct dirent *de;
	size_t cap = 0;
	DIR *dp;
	int err = dirops_opendir(d->fd, &dp);

	if (err)
		return err;
	while ((errno = 0, de = readdir(dp)) != NULL) {
		enum names_entry k = names_classify(de->d_name);
		struct item *it;

		if (k == NAMES_ENTRY_DOT || k == NAMES_ENTRY_DIRNONCE)
			continue;
		if (d->n == cap) {
			size_t nc = cap ? 2 * cap : 64;

			it = realloc(d->items, nc * sizeof(*it));
			if (!it) {
				err = -ENOMEM;
				break;
			}
			d->items = it;
			cap = nc;
		}
		it = &d->items[d->n];
		memset(it, 0, sizeof(*it));
		it->cname = strdup(de->d_name);
		if (!it->cname) {
			err = -ENOMEM;
			break;
		}
		it->kind = k;
		it->bad = FC_COUNT;
		d->n++;
	}
	if (!err && errno)
		err = -errno;
	closedir(dp);
	return err;
}

static void free_items(struct dir *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->items[i].cname);
	free(d->items);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= p[i];
	return acc == 0;
}

/*
 * Decode like names_decrypt, but say why a name is refused: undecodable
 * (not base64url of whole blocks, or not NUL-padded after the name), or
 * invalid (padded like a real name, but empty, ".", "..", or holding '/'
 * or NUL). Names carry no tag: a damaged name that still decrypts to
 * something well-formed cannot be told from a real one.
 */
static enum fsck_class decode_name(struct crypto_tfm *names, const char *enc,
				   size_t enclen, char out[NAMES_MAX_PLAIN + 1])
{
	uint8_t buf[NAMES_MAX_ENCODED], iv[16] = { 0 };
	size_t len, plen, end;
	enum fsck_class c = FC_NAME_UNDECODABLE;

	if (enclen > NAMES_MAX_ENCODED ||
	    base64url_decode(buf, sizeof(buf), enc, enclen, &len) != 0 ||
	    len == 0 || len % NAMES_PAD || len > NAMES_MAX_PLAIN + 1 ||
	    crypto_ivsize(names) > sizeof(iv) ||
	    crypto_decrypt(names, iv, buf, buf, len) != 0)
		return c;
	plen = strnlen((const char *)buf, len);
	for (end = len; end > 0 && buf[end - 1] == 0; end--)
		;
	if (plen == len) {
		/* no padding: 256 bytes cannot be a name; else the name is
		 * whole blocks long and may still hold a '/' */
		if (len > NAMES_MAX_PLAIN || memchr(buf, '/', len))
			goto out;
	} else if (end < len && (end == 0 || memchr(buf, 0, end) ||
				 memchr(buf, '/', end) ||
				 (end == 1 && buf[0] == '.') ||
				 (end == 2 && buf[0] == '.' && buf[1] == '.'))) {
		c = FC_NAME_INVALID; /* NUL-padded, but not a name */
		goto out;
	} else if (!all_zero(buf + plen, len - plen)) {
		goto out;
	}
	memcpy(out, buf, plen);
	out[plen] = '\0';
	c = FC_COUNT;
out:
	explicit_bzero(buf, sizeof(buf));
	return c;
}

/* the name a damaged sidecar holds, if it still decodes: a hint only */
static void sidecar_hint(struct dir *d, struct item *it)
{
	char side[NAMES_SIDECAR_LEN + 1], buf[NAMES_MAX_ENCODED + 1];
	ssize_t n;
	int fd;

	if (!d->names || d->names_lost ||
	    names_sidecar_name(it->cname, side) != 0)
		return;
	fd = openat(d->fd, side, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || (size_t)n >= sizeof(buf))
		return;
	if (decode_name(d->names, buf, (size_t)n, it->hint) != FC_COUNT)
		it->hint[0] = '\0';
}

static void judge_name(struct dir *d, struct item *it)
{
	int n;

	switch (it->kind) {
	case NAMES_ENTRY_ENCRYPTED:
		it->enclen = strlen(it->cname);
		memcpy(it->enc, it->cname, it->enclen + 1);
		break;
	case NAMES_ENTRY_LONG:
		n = names_read_sidecar(d->fd, it->cname, it->enc, sizeof(it->enc));
		if (n == -ENOENT) {
			it->bad = FC_SIDECAR_MISSING;
			snprintf(it->why, sizeof(it->why), "a long name without "
				 "its .name sidecar: its name is lost");
			return;
		}
		if (n == -EACCES || n == -EPERM) {
			fsck_report(d->f, FC_UNREADABLE, d->in_lf, NULL,
				    it->cname, FA_NONE, NULL, "its sidecar: %s",
				    strerror(-n));
			it->skip = true;
			return;
		}
		if (n < 0) {
			it->bad = FC_SIDECAR_MISMATCH;
			sidecar_hint(d, it);
			/* a long hint may be cut short: the message stays useful */
			if (snprintf(it->why, sizeof(it->why), "its sidecar %s%s%s",
				     n == -EBADMSG ? "does not hash to this name"
						   : strerror(-n),
				     it->hint[0] ? "; the sidecar names " : "",
				     it->hint[0] ? it->hint : "") >= (int)sizeof(it->why))
				it->why[sizeof(it->why) - 1] = '\0';
			return;
		}
		it->enclen = (size_t)n;
		break;
	case NAMES_ENTRY_CONFIG:
	case NAMES_ENTRY_CONFIG_TEMP:
		if (d->is_root) {
			it->skip = true; /* the caller judged a temp file */
			return;
		}
		it->bad = FC_FOREIGN_ENTRY;
		snprintf(it->why, sizeof(it->why), "a config file name outside "
			 "the volume root");
		return;
	case NAMES_ENTRY_SIDECAR:
		return; /* judged with the long names */
	default:
		if (!strncmp(it->cname, DIROPS_TEMP_PREFIX,
			     strlen(DIROPS_TEMP_PREFIX))) {
			it->bad = FC_TEMP_ENTRY;
			snprintf(it->why, sizeof(it->why), "left by a crash of "
				 "cloakfs while it made this entry");
		} else {
			it->bad = FC_FOREIGN_ENTRY;
			snprintf(it->why, sizeof(it->why), "not a name cloakfs "
				 "writes (a file put into the ciphertext "
				 "directory, or a sync tool's copy)");
		}
		return;
	}
	if (d->names_lost) {
		it->bad = FC_NAME_UNDECODABLE;
		snprintf(it->why, sizeof(it->why), "the directory's %s is %s",
			 NAMES_DIRNONCE_FILE, d->names ? "new" : "missing or damaged");
		return;
	}
	it->bad = decode_name(d->names, it->enc, it->enclen, it->plain);
	if (it->bad != FC_COUNT) {
		snprintf(it->why, sizeof(it->why), "%s",
			 it->bad == FC_NAME_INVALID
				 ? "decrypts to an empty name, \".\", \"..\", "
				   "or one holding '/' or NUL"
				 : "does not decrypt to a name under this "
				   "directory's key");
		return;
	}
	it->decoded = true;
	if ((it->kind == NAMES_ENTRY_LONG) !=
	    (bool)names_is_long(it->enclen, d->f->cfg.name_max)) {
		it->bad = FC_NAME_WRONG_FORM;
		snprintf(it->why, sizeof(it->why), "stored in the %s form; this "
			 "volume's name_max %u wants the other",
			 it->kind == NAMES_ENTRY_LONG ? "long" : "short",
			 d->f->cfg.name_max);
	}
	if (d->is_root && !strcmp(it->plain, FSCK_LOST_FOUND))
		it->is_lf = true;
}

static int cmp_plain(const void *a, const void *b)
{
	const struct item *const *x = a, *const *y = b;
	int c = strcmp((*x)->plain, (*y)->plain);

	/* the entry lookup finds (right form) sorts first */
	if (!c)
		c = ((*x)->bad == FC_NAME_WRONG_FORM) - ((*y)->bad == FC_NAME_WRONG_FORM);
	return c;
}

/* two entries decoding to one name: lookup finds only one of them */
static void find_duplicates(struct dir *d)
{
	struct item **v = malloc((d->n + 1) * sizeof(*v));
	size_t m = 0;

	if (!v)
		return;
	for (size_t i = 0; i < d->n; i++)
		if (d->items[i].decoded)
			v[m++] = &d->items[i];
	qsort(v, m, sizeof(*v), cmp_plain);
	for (size_t i = 1; i < m; i++) {
		if (strcmp(v[i]->plain, v[i - 1]->plain) != 0)
			continue;
		v[i]->bad = FC_NAME_DUPLICATE;
		v[i]->is_lf = false;
		snprintf(v[i]->why, sizeof(v[i]->why), "another entry (%s) has "
			 "the same name", v[i - 1]->cname);
	}
	free(v);
}

static int cmp_cname(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_sidecars(struct dir *d)
{
	char **names = malloc((d->n + 1) * sizeof(*names)), key[NAMES_LONG_LEN + 1];
	char *kp = key;
	size_t m = 0;

	if (!names)
		return;
	for (size_t i = 0; i < d->n; i++)
		if (d->items[i].kind == NAMES_ENTRY_LONG)
			names[m++] = d->items[i].cname;
	qsort(names, m, sizeof(*names), cmp_cname);
	for (size_t i = 0; i < d->n; i++) {
		struct item *it = &d->items[i];
		enum fsck_action act = FA_NONE;
		struct stat st;
		char *cp;

		if (it->kind != NAMES_ENTRY_SIDECAR)
			continue;
		it->skip = true;
		cp = join(d->cpath, it->cname);
		if (fstatat(d->fd, it->cname, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    !S_ISREG(st.st_mode)) {
			/* moved aside like any entry that cannot stay */
			it->skip = false;
			it->bad = FC_UNEXPECTED_TYPE;
			snprintf(it->why, sizeof(it->why), "a long-name sidecar "
				 "that is not a regular file");
			free(cp);
			continue;
		}
		memcpy(key, it->cname, NAMES_LONG_LEN);
		key[NAMES_LONG_LEN] = '\0';
		if (bsearch(&kp, names, m, sizeof(*names), cmp_cname)) {
			free(cp);
			continue;
		}
		/* redundant metadata: the only thing repair deletes */
		if (d->f->repair && !d->in_lf)
			act = unlinkat(d->fd, it->cname, 0) == 0 ? FA_REMOVED
								  : FA_FAILED;
		fsck_report(d->f, FC_SIDECAR_ORPHAN, d->in_lf, NULL,
			    cp ? cp : it->cname, act, NULL,
			    "a long-name sidecar whose entry is gone");
		free(cp);
	}
	free(names);
}

/* lost+found first (see the top of the file), then directory order */
static void lf_first(struct dir *d)
{
	for (size_t i = 1; i < d->n; i++) {
		if (d->items[i].is_lf && d->items[i].bad == FC_COUNT) {
			struct item t = d->items[i];

			memmove(&d->items[1], &d->items[0], i * sizeof(t));
			d->items[0] = t;
			return;
		}
	}
}

/* a missing or damaged .cloakfs.dir */
static void check_nonce(struct dir *d)
{
	uint8_t nonce[NAMES_DIRNONCE_SIZE];
	enum fsck_action act = FA_NONE;
	char what[96] = "";
	size_t users = 0;
	int rc = names_dirnonce_read(d->fd, nonce), err;

	if (!rc) {
		d->names = keys_names_tfm(d->f->keys, nonce, &err);
		explicit_bzero(nonce, sizeof(nonce));
		if (!d->names)
			fsck_fail(d->f, "%s: name key: %s", d->cpath, strerror(-err));
		return;
	}
	if (rc == -EACCES || rc == -EPERM) {
		fsck_report(d->f, FC_UNREADABLE, d->in_lf, d->path, d->cpath,
			    FA_NONE, NULL, "%s: %s", NAMES_DIRNONCE_FILE,
			    strerror(-rc));
		d->names_lost = true;
		return;
	}
	d->names_lost = true;
	for (size_t i = 0; i < d->n; i++)
		users += d->items[i].kind == NAMES_ENTRY_ENCRYPTED ||
			 d->items[i].kind == NAMES_ENTRY_LONG;
	/* inside lost+found only lost+found's own nonce is remade */
	if (d->f->repair && (!d->in_lf || d->is_lf)) {
		if (fsck_new_dirnonce(d->fd, nonce) == 0) {
			act = FA_FIXED;
			snprintf(what, sizeof(what), "a new %s; the %zu names "
				 "under the old one go to lost+found",
				 NAMES_DIRNONCE_FILE, users);
			d->names = keys_names_tfm(d->f->keys, nonce, &err);
		} else {
			act = FA_FAILED;
		}
		explicit_bzero(nonce, sizeof(nonce));
	}
	fsck_report(d->f, rc == -ENOENT ? FC_DIRNONCE_MISSING : FC_DIRNONCE_BAD,
		    d->in_lf, d->path, d->cpath, act, what,
		    "%s %s: the %zu names in this directory cannot be decrypted",
		    NAMES_DIRNONCE_FILE,
		    rc == -ENOENT ? "is missing"
				  : "is not 16 bytes, all zero, or not a file",
		    users);
}

/* rename a decodable entry stored in the wrong form to the right one */
static enum fsck_action fix_form(struct dir *d, struct item *it, char *what,
				 size_t len)
{
	char newc[NAMES_MAX_ENCODED + 1], enc[NAMES_MAX_ENCODED + 1];
	char side[NAMES_SIDECAR_LEN + 1];
	size_t enclen;
	bool is_long;
	int rc = fsck_encode_name(d->f, d->names, it->plain, newc, enc, &enclen,
				  &is_long);

	if (!rc && is_long)
		rc = names_write_sidecar(d->fd, newc, enc, enclen);
	if (!rc && renameat2(d->fd, it->cname, d->fd, newc, RENAME_NOREPLACE) != 0)
		rc = -errno;
	if (rc) {
		snprintf(what, len, "%s", strerror(-rc));
		return FA_FAILED;
	}
	if (it->kind == NAMES_ENTRY_LONG && names_sidecar_name(it->cname, side) == 0)
		(void)unlinkat(d->fd, side, 0);
	snprintf(what, len, "renamed to %s", newc);
	return FA_FIXED;
}

/* the config rewrite's leftover: may hold a removed passphrase's slot */
static void config_temp(struct dir *d, struct item *it)
{
	enum fsck_action act = FA_NONE;

	if (d->f->repair)
		act = unlinkat(d->fd, it->cname, 0) == 0 ? FA_REMOVED : FA_FAILED;
	fsck_report(d->f, FC_CONFIG_TEMP, false, NULL, it->cname, act, NULL,
		    "left by a crash during a config rewrite (it may still "
		    "open with a passphrase since removed)");
	it->skip = true;
}

static void check_entry(struct dir *d, struct item *it)
{
	struct fsck *f = d->f;
	char *path = NULL, *cpath = join(d->cpath, it->cname);
	char why[256], what[NAMES_MAX_ENCODED + 64] = "";
	enum fsck_class content = FC_COUNT;
	enum fsck_action act = FA_NONE;
	struct stat st;
	int rc;

	if (!cpath) {
		fsck_fail(f, "out of memory");
		return;
	}
	if (it->decoded && d->path)
		path = join_plain(d->path, it->plain);
	fsck_progress_tick(f, cpath);
	if (fstatat(d->fd, it->cname, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno != ENOENT)
			fsck_report(f, FC_UNREADABLE, d->in_lf, path, cpath, FA_NONE,
				    NULL, "stat: %s", strerror(errno));
		goto out;
	}
	switch (st.st_mode & S_IFMT) {
	case S_IFDIR: {
		int fd;

		if (it->kind != NAMES_ENTRY_ENCRYPTED &&
		    it->kind != NAMES_ENTRY_LONG) {
			f->others++; /* not ours: its insides are not judged */
			break;
		}
		fd = openat(d->fd, it->cname,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			fsck_report(f, FC_UNREADABLE, d->in_lf, path, cpath, FA_NONE,
				    NULL, "cannot open the directory: %s",
				    strerror(errno));
			break;
		}
		check_dir(f, fd, path, cpath, d->in_lf || it->is_lf, false,
			  it->is_lf);
		close(fd);
		break;
	}
	case S_IFREG: {
		struct fsck_entry e = { d->fd, it->cname, path, cpath, d->names,
					d->in_lf };

		f->files++;
		if (it->kind == NAMES_ENTRY_SIDECAR || it->kind == NAMES_ENTRY_OTHER ||
		    it->kind == NAMES_ENTRY_CONFIG)
			break; /* not a cloakfs file: no header to judge */
		content = fsck_check_file(f, &e, &st, why, sizeof(why));
		break;
	}
	case S_IFLNK: {
		struct fsck_entry e = { d->fd, it->cname, path, cpath, d->names,
					d->in_lf };

		f->symlinks++;
		if (it->bad != FC_COUNT || !d->names)
			break;
		rc = fsck_check_symlink(f, &e);
		if (rc == -EACCES || rc == -EPERM) {
			fsck_report(f, FC_UNREADABLE, d->in_lf, path, cpath, FA_NONE,
				    NULL, "readlink: %s", strerror(-rc));
		} else if (rc) {
			it->bad = FC_SYMLINK_UNDECODABLE;
			snprintf(it->why, sizeof(it->why), "its target does not "
				 "decrypt under this directory's key");
		}
		break;
	}
	case S_IFCHR:
	case S_IFBLK:
		f->others++;
		if (it->bad == FC_COUNT)
			fsck_report(f, FC_SPECIAL_FILE, d->in_lf, path, cpath,
				    FA_NONE, NULL, "a %s device node (%u:%u)",
				    S_ISCHR(st.st_mode) ? "character" : "block",
				    major(st.st_rdev), minor(st.st_rdev));
		break;
	case S_IFIFO:
	case S_IFSOCK:
		f->others++; /* made by mknod through the mount: fine */
		break;
	default:
		f->others++;
		if (it->bad == FC_COUNT) {
			it->bad = FC_UNEXPECTED_TYPE;
			snprintf(it->why, sizeof(it->why), "file type 0%o",
				 (unsigned int)(st.st_mode & S_IFMT));
		}
		break;
	}
	if (it->bad == FC_COUNT && content != FC_COUNT) {
		it->bad = content;
		snprintf(it->why, sizeof(it->why), "%s", why);
		content = FC_COUNT;
	}
	if (it->bad == FC_COUNT)
		goto out;
	if (f->repair && !d->in_lf) {
		if (it->bad == FC_NAME_WRONG_FORM) {
			act = fix_form(d, it, what, sizeof(what));
		} else {
			rc = fsck_quarantine(f, d->fd, it->cname,
					     it->kind == NAMES_ENTRY_LONG,
					     it->decoded ? it->plain
					     : it->hint[0] ? it->hint : NULL,
					     fsck_class_name(it->bad),
					     d->names_lost ? NULL : d->names,
					     what, sizeof(what));
			act = rc ? FA_FAILED : FA_QUARANTINED;
			if (rc)
				snprintf(what, sizeof(what), "%s", strerror(-rc));
		}
	}
	fsck_report(f, it->bad, d->in_lf, path, cpath, act, what, "%s", it->why);
	if (content != FC_COUNT) /* a bad name and bad content too */
		fsck_report(f, content, d->in_lf, path, cpath, act, what, "%s", why);
out:
	free(path);
	free(cpath);
}

static void check_dir(struct fsck *f, int fd, const char *path,
		      const char *cpath, bool in_lf, bool is_root, bool is_lf)
{
	struct dir d = { .f = f, .fd = fd, .path = path, .cpath = cpath,
			 .in_lf = in_lf, .is_root = is_root, .is_lf = is_lf };
	int rc;

	f->dirs++;
	rc = read_items(&d);
	if (rc) {
		fsck_report(f, FC_UNREADABLE, in_lf, path, cpath, FA_NONE, NULL,
			    "reading the directory: %s", strerror(-rc));
		free_items(&d);
		return;
	}
	check_nonce(&d);
	if (is_root) {
		f->root_names = d.names;
		if (d.names && !d.names_lost)
			(void)fsck_lost_found_open(f, d.names, false);
	}
	for (size_t i = 0; i < d.n; i++) {
		if (is_root && d.items[i].kind == NAMES_ENTRY_CONFIG_TEMP)
			config_temp(&d, &d.items[i]);
		else
			judge_name(&d, &d.items[i]);
	}
	find_duplicates(&d);
	check_sidecars(&d);
	if (is_root)
		lf_first(&d);
	for (size_t i = 0; i < d.n && !f->operational_error; i++)
		if (!d.items[i].skip)
			check_entry(&d, &d.items[i]);
	if (is_root) {
		fsck_lost_found_close(f);
		f->root_names = NULL;
	}
	crypto_free(d.names);
	free_items(&d);
}

void fsck_walk(struct fsck *f)
{
	check_dir(f, f->rootfd, "", "", false, true, false);
}
