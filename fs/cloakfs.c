/* SPDX-License-Identifier: MIT */
/*
 * cloakfs: mount a cloakfs volume (docs/man/cloakfs.1).
 *
 * Everything that can fail for a reason the user should read happens
 * before the process goes to the background: the volume is read and
 * unlocked, the mountpoint checked and the FUSE mount made in the
 * foreground, so "not a volume", "wrong passphrase", "mountpoint busy" and
 * "FUSE not available" reach the terminal and the exit status.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/log.h"
#include "base/logsyslog.h"
#include "base/nodump.h"
#include "base/pathlex.h"
#include "cli/exitcodes.h"
#include "cli/passphrase.h"
#include "fs/cmdline.h"
#include "fs/fdbudget.h"
#include "fs/filestate.h"
#include "fs/fs.h"
#include "fs/ops.h"
#include "fs/readlease.h"
#include "volume/keys/volrec.h"
#include "volume/keys/reckey.h"
#include "volume/volume.h"
#ifdef HAVE_CLOAKFSD
#include "daemon/client.h"
#include "fs/keywatch.h"
#endif

#define ATTR_TIMEOUT 1.0

extern char **environ;

static int fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("cloakfs: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

static void say_waiting(void *dir)
{
	fprintf(stderr, "cloakfs: waiting for cloakfs-keytool working on %s\n",
		(const char *)dir);
}

static void say_warning(void *arg, const char *msg)
{
	(void)arg;
	log_warn("%s", msg);
}

/*
 * Open the volume in dir (resolved): the lock shared, from before the
 * config is read until the FUSE mount shows in mountinfo (volume/dirlock.h,
 * docs/design.md "The volume lock"): a keytool that changes the volume (an
 * upgrade converting it) finishes before this mount reads it, and one
 * that starts meanwhile waits, then finds the mount and refuses. A
 * filesystem without flock: the mount does not depend on it. Then the
 * config (none with a recovery key: the record has the parameters, and
 * the config, if any, may be the wrong one), another volume's config
 * refused before any passphrase, and the root's nonce.
 */
static int open_volume(struct cloakfs *fs, const struct cloakfs_options *o,
		       const char *dir)
{
	struct volume_open_params p = {
		.config = o->config,
		.flags = VOLUME_OPEN_LOCK_OPTIONAL | VOLUME_OPEN_ROOT_NONCE |
			 (o->recovery_key ? VOLUME_OPEN_NO_CONFIG
					  : VOLUME_OPEN_CHECK_RECORD),
		.lock = VOLUME_LOCK_SHARED,
		.waiting = say_waiting,
		.waiting_arg = (void *)o->cipherdir,
		.warn = say_warning,
	};
	char err[1024] = "";
	int rc = volume_open(&fs->vol, dir, &p, err, sizeof(err));

	if (rc)
		return fail(rc == -ENAMETOOLONG ? CLOAKFS_EXIT_USAGE
						: CLOAKFS_EXIT_BAD_VOLUME,
			    "%s", *err ? err : strerror(-rc));
	return 0;
}

/*
 * A passphrase, or with --recovery-key the recovery key, from the
 * passphrase source (a prompt, stdin, --passfile, --extpass)
 */
static int unlock_with_secret(struct cloakfs *fs,
			      const struct cloakfs_options *o)
{
	struct passphrase secret = { NULL, 0 };
	struct volume_key key = { .slot = VOLUME_SLOT_ANY };
	char prompt[PATH_MAX + 32], err[1024] = "";
	int rc, tty = isatty(STDERR_FILENO) && !o->recovery_key;

	snprintf(prompt, sizeof(prompt), "%s for %s: ", o->recovery_key ?
		 "Recovery key" : "Passphrase", o->cipherdir);
	rc = o->recovery_key
		     ? passphrase_get_lines(&o->pass, prompt, reckey_complete,
					    &secret, err, sizeof(err))
		     : passphrase_get(&o->pass, PASSPHRASE_EXISTING, prompt,
				      &secret, err, sizeof(err));
	if (rc)
		return fail(CLOAKFS_EXIT_NO_PASS, "%s", *err ? err : strerror(-rc));
	/* Argon2id takes seconds by design: say so before the silence */
	if (tty) {
		fprintf(stderr, "cloakfs: deriving the key from the passphrase "
			"(Argon2id, a few seconds)... ");
		fflush(stderr);
	}
	key.source = o->recovery_key ? VOLUME_KEY_RECOVERY : VOLUME_KEY_PASSPHRASE;
	key.text = secret.text;
	key.len = secret.len;
	rc = volume_unlock(&fs->vol, &key, err, sizeof(err));
	if (tty)
		fputs(rc >= 0 ? "done\n" : "\n", stderr);
	passphrase_free(&secret);
	if (rc >= 0 && *err) /* slots set aside above the cost ceiling */
		log_warn("%s/%s: %s", o->cipherdir, VOLCONF_FILE_NAME, err);
	if (o->recovery_key && rc < 0)
		return fail(rc == -EACCES || rc == -EILSEQ || rc == -EINVAL
				    ? CLOAKFS_EXIT_AUTH
				    : rc == -ENOMEM ? CLOAKFS_EXIT_ERROR
						    : CLOAKFS_EXIT_BAD_VOLUME,
			    "%s", *err ? err : strerror(-rc));
	/* an edited config fails like a wrong passphrase: the record tells */
	if (rc == -EUCLEAN)
		return fail(CLOAKFS_EXIT_BAD_VOLUME, "%s", err);
	if (rc == -EACCES)
		return fail(CLOAKFS_EXIT_AUTH, "%s: wrong passphrase (no "
			    "keyslot opened)", o->cipherdir);
	if (rc < 0)
		return fail(CLOAKFS_EXIT_BAD_VOLUME, "%s: %s", o->cipherdir,
			    *err ? err : strerror(-rc));
	/* a volume made before records existed gets one now; a read-only
	 * mount writes nothing */
	if (!o->recovery_key && !o->read_only) {
		rc = volume_refresh_record(&fs->vol);
		if (rc < 0)
			log_info("%s/%s: not written: %s", fs->cipherdir,
				 VOLREC_FILE_NAME, strerror(-rc));
	}
	return 0;
}

/* key from cloakfsd if it holds it (*from_daemon), else a passphrase */
static int unlock(struct cloakfs *fs, const struct cloakfs_options *o,
		  int *from_daemon)
{
	*from_daemon = 0;
#ifdef HAVE_CLOAKFSD
	if (!o->recovery_key && o->use_cloakfsd && !o->pass.file &&
	    !o->pass.extpass) {
		int rc = keywatch_fetch(fs);

		if (rc == 0) {
			*from_daemon = 1;
			return 0;
		}
		if (rc == -EBADMSG)
			log_warn("%s: cloakfsd holds a key under this volume's key "
				 "id that does not open it; asking for the "
				 "passphrase", o->cipherdir);
	}
#endif
	return unlock_with_secret(fs, o);
}

/* an executable name in $PATH? (libfuse runs fusermount3 from there) */
static int in_path(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		if (n && snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, name) <
				 (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return 1;
		p += n + (p[n] == ':');
	}
	return 0;
}

/*
 * FUSE usable? Each cause gets its own advice: the device missing (module
 * not loaded, or a container without it), the device not ours to open,
 * or, for a user who is not root, the setuid helper fusermount3 missing.
 */
static int check_fuse(void)
{
	if (access("/dev/fuse", R_OK | W_OK) != 0) {
		if (errno == ENOENT)
			return fail(CLOAKFS_EXIT_MOUNT, "FUSE is not available: "
				    "/dev/fuse does not exist; load the module "
				    "(modprobe fuse, as root) or, in a container, "
				    "pass the device in (--device /dev/fuse)");
		if (errno == EACCES || errno == EPERM)
			return fail(CLOAKFS_EXIT_MOUNT, "FUSE is not available: "
				    "/dev/fuse: permission denied; its mode is "
				    "normally 0666 (ls -l /dev/fuse): ask the "
				    "administrator, or join the group that owns "
				    "it");
		return fail(CLOAKFS_EXIT_MOUNT, "FUSE is not available: "
			    "/dev/fuse: %s", strerror(errno));
	}
	/* as libfuse looks for it: its install directory, then PATH */
	if (geteuid() != 0 && access("/usr/bin/fusermount3", X_OK) != 0 &&
	    access("/bin/fusermount3", X_OK) != 0 && !in_path("fusermount3"))
		return fail(CLOAKFS_EXIT_MOUNT, "FUSE is not available: "
			    "fusermount3 (which mounts for users who are not "
			    "root) is not installed; install the fuse3 package");
	return 0;
}

/* does directory path hold anything but "." and ".."? 1, 0 or -errno */
static int dir_has_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int found = 0;

	if (!d)
		return -errno;
	while (!found && (e = readdir(d)) != NULL)
		found = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return found;
}

/*
 * Is the directory at path dir itself (1), inside it (2) or neither (0)?
 * By device and inode, from path up through each ".." to /, so that any
 * other way to dir (a bind mount of it) counts too. Or -errno.
 */
static int dir_within(const char *path, const struct stat *dir)
{
	struct stat st, up_st;
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC), up, rc;

	if (fd < 0)
		return -errno;
	rc = fstat(fd, &st) == 0 ? 0 : -errno;
	for (int level = 0; !rc; level++) {
		if (st.st_dev == dir->st_dev && st.st_ino == dir->st_ino) {
			rc = level ? 2 : 1;
			break;
		}
		up = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (up < 0 || fstat(up, &up_st) != 0) {
			rc = -errno;
			if (up >= 0)
				close(up);
			break;
		}
		close(fd);
		fd = up;
		if (up_st.st_dev == st.st_dev && up_st.st_ino == st.st_ino)
			break; /* "/" is its own parent */
		st = up_st;
	}
	close(fd);
	return rc;
}

/*
 * The mountpoint must be an existing directory that is not a mount yet,
 * neither the cipherdir nor inside it (the plaintext would sit in the tree
 * a sync tool uploads, or hide the ciphertext), and empty unless
 * -o nonempty (files under a mount are hidden, not gone). absmnt and
 * absdir are resolved (realpath).
 */
static int check_mountpoint(const char *absmnt, const char *absdir,
			    int nonempty)
{
	char parent[PATH_MAX + 4];
	struct stat st, pst, dst;
	int rc;

	if (stat(absmnt, &st) != 0)
		return fail(CLOAKFS_EXIT_MOUNT, "mountpoint %s: %s", absmnt,
			    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fail(CLOAKFS_EXIT_MOUNT, "mountpoint %s: not a directory",
			    absmnt);
	if (stat(absdir, &dst) != 0)
		return fail(CLOAKFS_EXIT_MOUNT, "%s: %s", absdir,
			    strerror(errno));
	rc = dir_within(absmnt, &dst);
	if (rc < 0)
		return fail(CLOAKFS_EXIT_MOUNT, "mountpoint %s: %s", absmnt,
			    strerror(-rc));
	if (rc > 0) {
		size_t n = strlen(absdir);
		/* the paths do not show it: say how it can be */
		int other = strncmp(absmnt, absdir, n) != 0 ||
			    (absmnt[n] != '\0' && absmnt[n] != '/');

		return fail(CLOAKFS_EXIT_MOUNT, "mountpoint %s: %s the encrypted "
			    "directory %s%s; the plaintext must not sit in the "
			    "ciphertext tree (choose a mountpoint outside it)",
			    absmnt, rc == 1 ? "is" : "inside", absdir,
			    other ? " (reached by another path: a bind mount)"
				  : "");
	}
	snprintf(parent, sizeof(parent), "%s/..", absmnt);
	if (stat(parent, &pst) == 0 &&
	    (st.st_dev != pst.st_dev || st.st_ino == pst.st_ino))
		return fail(CLOAKFS_EXIT_MOUNT, "mountpoint %s: busy (something is "
			    "mounted there already)", absmnt);
	rc = nonempty ? 0 : dir_has_entries(absmnt);
	if (rc < 0)
		return fail(CLOAKFS_EXIT_MOUNT, "mountpoint %s: %s", absmnt,
			    strerror(-rc));
	if (rc > 0)
		return fail(CLOAKFS_EXIT_MOUNT, "mountpoint %s: not empty (its "
			    "files would be hidden while mounted; give -o "
			    "nonempty to mount over them)", absmnt);
	return check_fuse();
}

/* the root inode, over a descriptor of its own (the volume keeps one) */
static int open_root(struct cloakfs *fs, const char *dir)
{
	struct stat st;
	int fd = fcntl(fs->vol.rootfd, F_DUPFD_CLOEXEC, 0), rc;

	if (fd < 0 || fstat(fd, &st) != 0) {
		rc = errno;
		if (fd >= 0)
			close(fd);
		return fail(CLOAKFS_EXIT_ERROR, "%s: %s", dir, strerror(rc));
	}
	inode_table_probe_handles(&fs->inodes, fd);
	if (inode_table_get_root(&fs->inodes, fd, &st, &fs->root))
		return fail(CLOAKFS_EXIT_ERROR, "%s: %s", dir, strerror(ENOMEM));
	inode_pin(&fs->inodes, fs->root); /* the kernel never forgets the root */
	return 0;
}

/* fsname=<dir> with the commas FUSE would split on escaped */
static char *fsname_opt(const char *dir)
{
	size_t n = strlen(dir);
	char *out = malloc(2 * n + 32), *p;

	if (!out)
		return NULL;
	p = out + sprintf(out, "fsname=");
	for (size_t i = 0; i < n; i++) {
		if (dir[i] == ',' || dir[i] == '\\')
			*p++ = '\\';
		*p++ = dir[i];
	}
	strcpy(p, ",subtype=cloakfs");
	return out;
}

static int build_fuse_args(const struct cloakfs_options *o, const char *absdir,
			   struct fuse_args *args)
{
	char *fsname = fsname_opt(absdir);
	int rc = !fsname || fuse_opt_add_arg(args, "cloakfs") ||
		 fuse_opt_add_arg(args, "-o") || fuse_opt_add_arg(args, fsname);

	free(fsname);
	/* another user reaching the files must meet their modes */
	if (!rc && o->allow_other)
		rc = fuse_opt_add_arg(args, "-odefault_permissions");
	if (!rc && o->fuse_opts)
		rc = fuse_opt_add_arg(args, "-o") ||
		     fuse_opt_add_arg(args, o->fuse_opts);
	if (!rc && o->debug)
		rc = fuse_opt_add_arg(args, "-d");
	return rc ? -ENOMEM : 0;
}

/* ---- --idle -------------------------------------------------------------- */

struct idle_watch {
	struct cloakfs *fs;
	struct fuse_session *se;
	const char *mountpoint;
	unsigned long seconds;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int stop;
};

/* unmount unless busy: 0 if it went */
static int try_unmount(const char *mnt)
{
	char *argv[] = { "fusermount3", "-u", "-q", (char *)mnt, NULL };
	pid_t pid;
	int status;

	if (geteuid() == 0)
		return umount2(mnt, 0) == 0 ? 0 : -errno;
	if (posix_spawnp(&pid, "fusermount3", NULL, NULL, argv, environ) != 0)
		return -ENOENT;
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EBUSY;
}

static void *idle_main(void *arg)
{
	struct idle_watch *w = arg;
	unsigned long step = w->seconds < 60 ? (w->seconds + 3) / 4 : 15;
	struct timespec now, until;

	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += (time_t)step;
		pthread_cond_timedwait(&w->cond, &w->lock, &until);
		if (w->stop)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - atomic_load(&w->fs->last_use) < (long long)w->seconds ||
		    atomic_load(&w->fs->open_handles) > 0)
			continue;
		if (try_unmount(w->mountpoint) == 0) {
			log_info("%s: unmounted after %lu s unused",
				 w->mountpoint, w->seconds);
			fuse_session_exit(w->se);
			break;
		}
		fs_touch(w->fs); /* busy (a cwd inside?): try again later */
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static int idle_start(struct idle_watch *w)
{
	if (pthread_mutex_init(&w->lock, NULL) || pthread_cond_init(&w->cond, NULL))
		return -ENOMEM;
	return -pthread_create(&w->thread, NULL, idle_main, w);
}

static void idle_stop(struct idle_watch *w)
{
	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
}

/* ---- main ----------------------------------------------------------------- */

static int serve(struct cloakfs *fs, const struct cloakfs_options *o,
		 const char *absmnt, int from_daemon)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct idle_watch idle = { .fs = fs };
	struct fuse_loop_config *loop = NULL;
	struct fuse_session *se;
#ifdef HAVE_CLOAKFSD
	struct cloakfsd_client *holder = NULL;
	struct keywatch *kw = NULL;
#endif
	int rc = CLOAKFS_EXIT_ERROR, idle_on = 0;

	(void)from_daemon;
	if (build_fuse_args(o, fs->cipherdir, &args))
		return fail(CLOAKFS_EXIT_ERROR, "out of memory");
	se = cloakfs_session_new(&args, fs);
	fuse_opt_free_args(&args);
	if (!se)
		return fail(CLOAKFS_EXIT_USAGE, "FUSE refused the options (see "
			    "above)");
	if (fuse_set_signal_handlers(se) != 0) {
		fuse_session_destroy(se);
		return fail(CLOAKFS_EXIT_ERROR, "cannot set signal handlers");
	}
	rc = fuse_session_mount(se, absmnt);
	/* the mount is in mountinfo: later tools see it (let go before
	 * fuse_daemonize forks, so no background child shares the lock) */
	volume_release_lock(&fs->vol);
	if (rc != 0) {
		fuse_remove_signal_handlers(se);
		fuse_session_destroy(se);
		return fail(CLOAKFS_EXIT_MOUNT, "mounting %s failed (see above)",
			    absmnt);
	}
#ifdef HAVE_CLOAKFSD
	/* a passphrase mount registers with a running cloakfsd before the
	 * command returns, so that cloakfs-keytool lock reaches it at once;
	 * the connection survives fuse_daemonize's fork */
	if (!from_daemon && o->use_cloakfsd)
		(void)keywatch_register(fs, &holder);
#endif
	rc = CLOAKFS_EXIT_ERROR;
	if (!o->foreground) {
		/* stderr becomes /dev/null */
		log_to_syslog("cloakfs");
	}
	if (fuse_daemonize(o->foreground) != 0) {
#ifdef HAVE_CLOAKFSD
		cloakfsd_close(holder);
#endif
		goto out;
	}
	/* threads only now: fuse_daemonize forks */
#ifdef HAVE_CLOAKFSD
	if ((from_daemon || o->use_cloakfsd) &&
	    keywatch_start(fs, se, !from_daemon, holder, &kw) != 0)
		log_warn("%s: cannot follow cloakfsd: the mount stays unlocked "
			 "until unmounted", fs->cipherdir);
#endif
	if (o->idle_ms) {
		idle.se = se;
		idle.mountpoint = absmnt;
		idle.seconds = (unsigned long)((o->idle_ms + 500) / 1000);
		if (idle.seconds == 0)
			idle.seconds = 1;
		idle_on = idle_start(&idle) == 0;
	}
	if (fs->vol.shared) {
		int err;

		fs->leases = readlease_start(&fs->inodes, &err);
		if (!fs->leases) {
			log_warn("%s: no read lease timer: %s", fs->cipherdir,
				 strerror(-err));
			goto stop;
		}
	}
	if (o->single_thread) {
		rc = fuse_session_loop(se);
	} else {
		loop = fuse_loop_cfg_create();
		if (loop) {
			fuse_loop_cfg_set_clone_fd(loop, 0);
			fuse_loop_cfg_set_idle_threads(loop, 10);
			rc = fuse_session_loop_mt(se, loop);
			fuse_loop_cfg_destroy(loop);
		}
	}
	/* the loop reports the signal that ended it (SIGTERM, SIGINT, SIGHUP):
	 * a normal way to stop */
	rc = rc == 0 || rc == SIGTERM || rc == SIGINT || rc == SIGHUP
		     ? CLOAKFS_EXIT_OK : CLOAKFS_EXIT_ERROR;
	readlease_stop(fs->leases);
	fs->leases = NULL;
stop:
	if (idle_on)
		idle_stop(&idle);
#ifdef HAVE_CLOAKFSD
	keywatch_stop(kw);
#endif
out:
	fuse_session_unmount(se);
	fuse_remove_signal_handlers(se);
	fuse_session_destroy(se);
	return rc;
}

int main(int argc, char **argv)
{
	struct cloakfs_options o;
	struct cloakfs fs;
	char err[512] = "", absdir[PATH_MAX], absmnt[PATH_MAX], viewdir[PATH_MAX];
	unsigned long fd_limit;
	unsigned int fd_cache;
	const char *why;
	int rc, from_daemon;

	switch (cmdline_parse(argc, argv, &o, err, sizeof(err))) {
	case CMDLINE_EXIT:
		return CLOAKFS_EXIT_OK;
	case CMDLINE_USAGE:
		return fail(CLOAKFS_EXIT_USAGE, "%s", err);
	case CMDLINE_OK:
		break;
	}
	memset(&fs, 0, sizeof(fs));
	fs.vol = (struct volume)VOLUME_CLOSED;
	pthread_mutex_init(&fs.open_dirs_lock, NULL);
	umask(0); /* modes come from the kernel, umask already applied */
	/* before any passphrase or key: no core file, no same-uid ptrace
	 * (inherited by the background child of fuse_daemonize) */
	rc = process_no_dump();
	if (rc) {
		rc = fail(CLOAKFS_EXIT_ERROR, "cannot make the process "
			  "non-dumpable: %s", strerror(-rc));
		goto out_opts;
	}
	rc = volume_init(&why);
	if (rc) {
		rc = fail(CLOAKFS_EXIT_ERROR, "crypto: %s",
			  why ? why : strerror(-rc));
		goto out_opts;
	}
	if (!realpath(o.cipherdir, absdir)) {
		/* missing: not a volume; unreadable: an error (as the keytool) */
		rc = fail(errno == ENOENT || errno == ENOTDIR ? CLOAKFS_EXIT_BAD_VOLUME
							      : CLOAKFS_EXIT_ERROR,
			  "%s: %s", o.cipherdir, strerror(errno));
		goto out_opts;
	}
	if (!realpath(o.mountpoint, absmnt)) {
		rc = fail(CLOAKFS_EXIT_MOUNT, "mountpoint %s: %s", o.mountpoint,
			  strerror(errno));
		goto out_opts;
	}
	fs.cipherdir = absdir;
	/* the cipherdir as given, for cloakfsd's lock by path (keywatch.h) */
	if (path_lexical_abs(o.cipherdir, viewdir, sizeof(viewdir)) == 0)
		fs.cipherdir_view = viewdir;
	fs.mountpoint = absmnt;
	atomic_store(&fs.readahead_kb, o.readahead_kb);
	fs.timeout = o.shared ? (double)o.shared_timeout_ms / 1000 : ATTR_TIMEOUT;
	fs.chown_new = geteuid() == 0;
	/* ACLs mean something where other users reach the files; asking
	 * for them costs every mount default_permissions, whose directory
	 * GETATTR before each create and unlink (the kernel forgets a
	 * directory's mode when an entry changes) is measurable
	 * (docs/performance.md) */
	fs.want_acl = o.acl >= 0 ? o.acl : o.allow_other;
	fs.test_skip_fsync = getenv("CLOAKFS_TEST_SKIP_FSYNC") &&
			     strcmp(getenv("CLOAKFS_TEST_SKIP_FSYNC"), "1") == 0;
	fs_touch(&fs);
	fs.show_undecodable = o.show_undecodable;
	rc = open_volume(&fs, &o, absdir);
	if (rc)
		goto out_opts;
	fs.vol.shared = o.shared;
	rc = check_mountpoint(absmnt, absdir, o.nonempty);
	if (rc)
		goto out_opts;
	rc = fdbudget_setup(&fd_cache, &fd_limit);
	if (rc) {
		rc = fail(CLOAKFS_EXIT_USAGE, "CLOAKFS_FD_CACHE: %s",
			  rc == -EINVAL ? "not a number of at least 2"
					: strerror(-rc));
		goto out_opts;
	}
	if (inode_table_init(&fs.inodes, fd_cache, &filestate_ops)) {
		rc = fail(CLOAKFS_EXIT_ERROR, "out of memory");
		goto out_opts;
	}
	rc = export_keep_from_env(&fs.inodes.exp)
		     ? fail(CLOAKFS_EXIT_USAGE, "CLOAKFS_EXPORT_KEEP: %s",
			    "not a number of at least 1")
		     : open_root(&fs, absdir);
	if (!rc)
		rc = unlock(&fs, &o, &from_daemon);
	if (!rc)
		rc = serve(&fs, &o, absmnt, from_daemon);
	fs_dirs_close_all(&fs);
	log_info("%s: descriptor cache of %u: %lu evicted, %lu reopened; "
		 "%lu forgotten inodes brought back for file handles",
		 absdir, fs.inodes.max_fds, fs.inodes.evictions,
		 fs.inodes.reopens, fs.inodes.revived);
	inode_table_destroy(&fs.inodes);
out_opts:
	volume_close(&fs.vol); /* wipes the keys */
	cmdline_free(&o);
	return rc;
}
