/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-keytool unlock, lock, status: talk to cloakfsd through its
 * client library (daemon/client.h). unlock hands the daemon the 64-byte
 * master key under the volume's 16-byte key identifier, with the
 * volume's absolute path for listings; a mount fetches it by key id.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/mountinfo.h"
#include "base/pathlex.h"
#include "cli/decimal.h"
#include "crypto/secmem.h"
#include "daemon/client.h"
#include "tools/keytool.h"

_Static_assert(CLOAKFSD_KEY_ID_LEN == VOLCONF_KEY_ID_SIZE, "key id sizes");
_Static_assert(CLOAKFSD_KEY_MAX >= VOLCONF_VMK_SIZE, "daemon key size");

/* how long lock DIR waits for DIR's config when no path matched */
#define LOCK_CONFIG_DEADLINE_MS 1000

/* strerror, but saying what a daemon of an older protocol looks like */
static const char *daemon_strerror(int err)
{
	static char msg[200];

	if (err != -EPROTONOSUPPORT)
		return strerror(-err);
	snprintf(msg, sizeof(msg), "it closed the connection without answering: "
		 "an older cloakfsd that does not speak protocol %d? Stop it (its "
		 "keys are wiped) and unlock again", CLOAKFSD_PROTO_VERSION);
	return msg;
}

/* a connection, or the exit code of a message saying why not */
static int connect_daemon(bool autostart, struct cloakfsd_client **cl, int *err)
{
	char sock[PATH_MAX];

	*err = cloakfsd_connect(NULL, autostart ? CLOAKFSD_AUTOSTART : 0, 0, cl);
	if (*err == 0)
		return 0;
	if (cloakfsd_socket_path(sock, sizeof(sock)))
		snprintf(sock, sizeof(sock), "(no socket path)");
	if (!autostart && (*err == -ENOENT || *err == -ECONNREFUSED))
		return CLOAKFS_EXIT_DAEMON; /* the caller words "not running" */
	if (*err == -EPERM)
		return kt_error(CLOAKFS_EXIT_DAEMON, "key daemon at %s: runs as "
				"another user", sock);
	if (autostart && *err == -ENOENT)
		return kt_error(CLOAKFS_EXIT_DAEMON, "key daemon at %s: not running "
				"and no cloakfsd program found to start (set "
				"CLOAKFSD_PROGRAM or install it)", sock);
	return kt_error(CLOAKFS_EXIT_DAEMON, "key daemon at %s: %s", sock,
			daemon_strerror(*err));
}

static bool daemon_absent(int err)
{
	return err == -ENOENT || err == -ECONNREFUSED;
}

/* --ttl: a time ("90s", "10m", "8h"; a plain number is seconds) from 1 s
 * to 2^32 - 2 s, or "never" */
static int parse_ttl(const char *s, uint32_t *ttl)
{
	unsigned long long ms;

	if (!s) {
		*ttl = CLOAKFSD_TTL_DEFAULT;
		return 0;
	}
	if (!strcmp(s, "never") || !strcmp(s, "none")) {
		*ttl = CLOAKFSD_TTL_NONE;
		return 0;
	}
	if (duration_parse(s, 1, (CLOAKFSD_TTL_NONE - 1ULL) * 1000, &ms) ||
	    ms < 1000)
		return -EINVAL;
	*ttl = (uint32_t)(ms / 1000);
	return 0;
}

static void format_left(uint32_t s, char *out, size_t len)
{
	if (s == CLOAKFSD_TTL_NONE)
		snprintf(out, len, "never");
	else
		snprintf(out, len, "%us", s);
}

static int run_unlock(const struct kt_args *a)
{
	const char *dir = a->args[0];
	struct cloakfsd_client *cl = NULL;
	struct volume v = VOLUME_CLOSED;
	char abs[PATH_MAX], lex[PATH_MAX];
	char id[2 * VOLCONF_KEY_ID_SIZE + 1], left[32];
	uint8_t *vmk = NULL;
	uint32_t ttl, granted;
	int rc, err;

	if (parse_ttl(a->ttl, &ttl))
		return kt_error(CLOAKFS_EXIT_USAGE, "unlock: --ttl takes seconds "
				"(1 to %u; or a time: 90s, 10m, 8h, 1d) or "
				"'never', not '%s'", CLOAKFSD_TTL_NONE - 1, a->ttl);
	rc = kt_open(a, dir, KT_UNLOCKING, &v);
	if (rc)
		return rc;
	if (!realpath(dir, abs))
		rc = kt_error(CLOAKFS_EXIT_ERROR, "%s: %s", dir, strerror(errno));
	else if (strlen(abs) > CLOAKFSD_PATH_MAX)
		rc = kt_error(CLOAKFS_EXIT_ERROR, "%s: path too long for the key "
			      "daemon", abs);
	if (rc)
		goto out;
	/* lock DIR finds the key by either name without reading DIR */
	if (path_lexical_abs(dir, lex, sizeof(lex)) != 0 || !strcmp(lex, abs) ||
	    strlen(lex) > CLOAKFSD_PATH_MAX)
		lex[0] = '\0';
	/* reach the daemon before asking for the passphrase */
	rc = connect_daemon(true, &cl, &err);
	if (!rc)
		rc = kt_unlock(a, &v, -1, &vmk);
	if (rc)
		goto out;
	err = cloakfsd_add_at(cl, v.cfg.key_id, abs, lex[0] ? lex : NULL, vmk,
			      VOLCONF_VMK_SIZE, ttl, &granted);
	if (err) {
		rc = kt_error(CLOAKFS_EXIT_DAEMON, "%s: the key daemon did not take "
			      "the key: %s", dir, daemon_strerror(err));
		goto out;
	}
	kt_hex(v.cfg.key_id, sizeof(v.cfg.key_id), id);
	format_left(granted, left, sizeof(left));
	printf("%s: unlocked with keyslot %d (key id %s, expires: %s)\n", dir,
	       v.slot, id, left);
out:
	secmem_free(vmk);
	cloakfsd_close(cl);
	volume_close(&v);
	return rc;
}

const struct kt_command kt_cmd_unlock = {
	.name = "unlock",
	.synopsis = "[--ttl TIME] CIPHERDIR",
	.summary = "open a keyslot and hand the key to cloakfsd",
	.help =
		"Open the volume with a passphrase and give its master key to the key\n"
		"daemon cloakfsd (started if it is not running), which keeps it under\n"
		"the volume's key id until it expires, is locked, or the daemon exits.\n"
		"A mount of the volume then needs no passphrase.\n"
		"\n"
		"  --ttl TIME           lifetime of the key in the daemon: seconds, or\n"
		"                       90s, 10m, 8h, 1d, or 'never'\n"
		"                       (default: the daemon's; it may shorten it)\n"
		"  --passfile FILE      the passphrase: first line of FILE\n"
		"  --extpass CMD        the passphrase: first line CMD prints\n",
	.opts = KT_OPT_PASS | KT_OPT_TTL | KT_OPT_CONFIG,
	.min_args = 1,
	.max_args = 1,
	.run = run_unlock,
};

static int lock_all(void)
{
	struct cloakfsd_client *cl;
	uint32_t count = 0;
	int rc, err;

	rc = connect_daemon(false, &cl, &err);
	if (rc && daemon_absent(err)) {
		printf("no key daemon is running: nothing to lock\n");
		return 0;
	}
	if (rc)
		return rc;
	err = cloakfsd_lock_all(cl, &count);
	cloakfsd_close(cl);
	if (err)
		return kt_error(CLOAKFS_EXIT_DAEMON, "key daemon: lock all: %s",
				daemon_strerror(err));
	printf("locked %u key%s held by the key daemon, and every mount that "
	       "registered its own key with it\n", count, count == 1 ? "" : "s");
	return 0;
}

/* "DIR: locked (key id X)", and how many passphrase mounts were told */
static void print_locked(const char *dir, const char *what, const char *ids,
			 unsigned int holders)
{
	if (holders == 0)
		printf("%s: locked (%s %s)\n", dir, what, ids);
	else
		printf("%s: locked (%s %s; %u mount%s unlocked with a passphrase "
		       "told to wipe %s keys)\n", dir, what, ids, holders,
		       holders == 1 ? "" : "s", holders == 1 ? "its" : "their");
}

/* lock's connection (none: "not unlocked"): 0 or an exit code */
static int lock_connect(const char *dir, struct cloakfsd_client **cl)
{
	int err, rc = connect_daemon(false, cl, &err);

	if (rc && daemon_absent(err))
		return kt_error(CLOAKFS_EXIT_NOT_UNLOCKED, "%s: not unlocked (no "
				"key daemon is running)", dir);
	return rc;
}

/* what the child wrote to its message pipe (fd), once it has exited,
 * onto our standard error */
static void relay_messages(int fd)
{
	char buf[512];
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || fwrite(buf, 1, (size_t)n, stderr) != (size_t)n)
			break;
	}
}

/*
 * DIR's key id from its config, read in a child process so that a hung
 * store cannot hold the answer: past LOCK_CONFIG_DEADLINE_MS the child is
 * killed and left behind (it dies when the store lets it go; a FUSE
 * request the store's process already took cannot be killed). The child
 * writes its messages to a pipe of its own, relayed by us: it never
 * holds our standard output or error, which a caller reading them to
 * their end would otherwise wait on for as long as the store hangs.
 * 0 and id; -ETIMEDOUT; or the exit code of the child's message (no
 * config, ...).
 */
static int key_id_within_deadline(const struct kt_args *a, const char *dir,
				  uint8_t id[VOLCONF_KEY_ID_SIZE])
{
	struct pollfd pfd = { -1, POLLIN, 0 };
	int p[2], e[2], status = 0, rc;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0)
		return kt_error(CLOAKFS_EXIT_ERROR, "pipe: %s", strerror(errno));
	if (pipe2(e, O_CLOEXEC) != 0) {
		rc = errno;
		close(p[0]);
		close(p[1]);
		return kt_error(CLOAKFS_EXIT_ERROR, "pipe: %s", strerror(rc));
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rc = errno;
		close(p[0]);
		close(p[1]);
		close(e[0]);
		close(e[1]);
		return kt_error(CLOAKFS_EXIT_ERROR, "fork: %s", strerror(rc));
	}
	if (pid == 0) {
		struct volume_config cfg;
		char path[PATH_MAX];

		close(p[0]);
		close(e[0]);
		if (dup2(e[1], STDOUT_FILENO) < 0 || dup2(e[1], STDERR_FILENO) < 0)
			_exit(CLOAKFS_EXIT_ERROR);
		close(e[1]);
		rc = kt_read_config(a, dir, path, &cfg);
		if (!rc && write(p[1], cfg.key_id, VOLCONF_KEY_ID_SIZE) !=
			   VOLCONF_KEY_ID_SIZE)
			rc = CLOAKFS_EXIT_ERROR;
		fflush(NULL);
		_exit(rc);
	}
	close(p[1]);
	close(e[1]);
	pfd.fd = p[0];
	do
		rc = poll(&pfd, 1, LOCK_CONFIG_DEADLINE_MS);
	while (rc < 0 && errno == EINTR);
	if (rc <= 0) {
		kill(pid, SIGKILL);
		(void)waitpid(pid, &status, WNOHANG);
		close(p[0]);
		close(e[0]);
		return -ETIMEDOUT;
	}
	n = read(p[0], id, VOLCONF_KEY_ID_SIZE);
	close(p[0]);
	/* it wrote or failed: either way it is exiting, not waiting on DIR */
	if (waitpid(pid, &status, 0) != pid)
		status = 0;
	relay_messages(e[0]);
	close(e[0]);
	if (n == VOLCONF_KEY_ID_SIZE)
		return 0;
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
	return rc ? rc : kt_error(CLOAKFS_EXIT_ERROR, "%s: reading its config "
				  "failed", dir);
}

/* the fallback: no path matched, so lock the key id DIR's config names */
static int lock_by_config(const struct kt_args *a, const char *dir, const char *lex)
{
	struct cloakfsd_client *cl;
	uint8_t key_id[VOLCONF_KEY_ID_SIZE];
	char id[2 * VOLCONF_KEY_ID_SIZE + 1];
	int rc, err;

	rc = key_id_within_deadline(a, dir, key_id);
	if (rc == -ETIMEDOUT)
		return kt_error(CLOAKFS_EXIT_ERROR, "%s: nothing is registered with "
				"the key daemon under %s, and its config did not "
				"answer within %d ms (a hung backing store?): not "
				"locked; '%s lock --all' locks every volume without "
				"reading any", dir, lex, LOCK_CONFIG_DEADLINE_MS,
				KT_PROG);
	if (rc)
		return rc;
	kt_hex(key_id, sizeof(key_id), id);
	rc = lock_connect(dir, &cl);
	if (rc)
		return rc;
	err = cloakfsd_remove(cl, key_id);
	cloakfsd_close(cl);
	if (err == -ENOENT)
		return kt_error(CLOAKFS_EXIT_NOT_UNLOCKED, "%s: not unlocked (the "
				"key daemon holds no key %s and no mount registered "
				"it)", dir, id);
	if (err < 0)
		return kt_error(CLOAKFS_EXIT_DAEMON, "%s: key daemon: %s", dir,
				daemon_strerror(err));
	print_locked(dir, "key id", id, (unsigned int)err);
	return 0;
}

/*
 * lock DIR: first by DIR's path alone (lexically absolute, never looked
 * at), which the daemon matches against what unlock and the mounts
 * registered; only when nothing matched, by the key id in DIR's config.
 */
static int run_lock(const struct kt_args *a)
{
	struct cloakfsd_client *cl;
	struct cloakfsd_locked locked;
	/* up to CLOAKFSD_LOCKED_IDS ids in hex, ", " between, " and N more" */
	char lex[PATH_MAX], ids[CLOAKFSD_LOCKED_IDS * (2 * CLOAKFSD_KEY_ID_LEN + 2) + 32] = "";
	const char *dir;
	int rc, err;

	if (a->all) {
		if (a->nargs)
			return kt_error(CLOAKFS_EXIT_USAGE, "lock: give CIPHERDIR or "
					"--all, not both");
		return lock_all();
	}
	if (a->nargs != 1)
		return kt_error(CLOAKFS_EXIT_USAGE, "lock: give CIPHERDIR or --all "
				"(try %s lock --help)", KT_PROG);
	dir = a->args[0];
	err = path_lexical_abs(dir, lex, sizeof(lex));
	if (err || strlen(lex) > CLOAKFSD_PATH_MAX)
		return kt_error(CLOAKFS_EXIT_ERROR, "%s: %s", dir,
				strerror(err ? -err : ENAMETOOLONG));
	rc = lock_connect(dir, &cl);
	if (rc)
		return rc;
	err = cloakfsd_lock_path(cl, lex, &locked);
	/* closed before the fallback's child: it must not hold the connection */
	cloakfsd_close(cl);
	if (err == -ENOENT)
		return lock_by_config(a, dir, lex);
	if (err < 0)
		return kt_error(CLOAKFS_EXIT_DAEMON, "%s: key daemon: %s", dir,
				daemon_strerror(err));
	for (unsigned int i = 0; i < locked.n; i++) {
		if (i)
			strcat(ids, ", ");
		kt_hex(locked.ids[i], CLOAKFSD_KEY_ID_LEN, ids + strlen(ids));
	}
	if (locked.n < locked.keys)
		sprintf(ids + strlen(ids), " and %u more", locked.keys - locked.n);
	print_locked(dir, locked.keys == 1 ? "key id" : "key ids", ids, locked.holders);
	return 0;
}

const struct kt_command kt_cmd_lock = {
	.name = "lock",
	.synopsis = "CIPHERDIR | --all",
	.summary = "make cloakfsd forget a volume's key (or every key)",
	.help =
		"Remove the volume's key from the key daemon, which wipes it. The\n"
		"volume is found by CIPHERDIR's path (made absolute as text, never\n"
		"read), as unlock and the mounts registered it, so a hung store or a\n"
		"config copied from another volume cannot stop the lock; only when\n"
		"nothing is registered under it is its config read (1 s at most).\n"
		"Every mount of the volume that follows the daemon wipes its keys\n"
		"and refuses names and file contents until the volume is unlocked\n"
		"again:\n"
		"mounts that took the key from the daemon, and mounts unlocked with a\n"
		"passphrase, which register with a running daemon (within 2 s of it\n"
		"starting) without handing their key over. Not reached: mounts made\n"
		"with --no-cloakfsd, and any mount while no daemon runs (then there\n"
		"is nothing to lock: 'not unlocked'). Needs no passphrase.\n"
		"\n"
		"  --all                every key the daemon holds and every mount\n"
		"                       that registered with it\n",
	.opts = KT_OPT_ALL | KT_OPT_CONFIG,
	.min_args = 0,
	.max_args = 1,
	.run = run_lock,
};

static int print_key(const struct cloakfsd_key_info *info, void *arg)
{
	char id[2 * CLOAKFSD_KEY_ID_LEN + 1], left[32];

	(void)arg;
	kt_hex(info->id, sizeof(info->id), id);
	format_left(info->seconds_left, left, sizeof(left));
	printf("%s  %-10s  %s\n", id, left, info->path);
	return 0;
}

/* one cloakfs mount of /proc/self/mountinfo: its state, asked of it */
static int print_mount(const struct mountinfo_entry *e, void *arg)
{
	unsigned int *n = arg;
	char value[32];
	const char *state;
	ssize_t len;

	if (strcmp(e->fstype, "fuse.cloakfs") != 0)
		return 0;
	if (!*n)
		printf("%-9s  %-30s  %s\n", "STATE", "MOUNTPOINT", "VOLUME");
	(*n)++;
	/* the root answers "locked" or "unlocked" (fs/state.h) */
	len = getxattr(e->mountpoint, "user.cloakfs.state", value,
		       sizeof(value) - 1);
	if (len >= 0) {
		value[len] = '\0';
		state = value;
	} else if (errno == EACCES || errno == EPERM) {
		state = "no access"; /* another user's mount */
	} else if (errno == ENOTCONN) {
		state = "dead"; /* its process is gone: fusermount3 -u it */
	} else {
		state = "unknown"; /* a cloakfs that does not tell */
	}
	printf("%-9s  %-30s  %s\n", state, e->mountpoint, e->source);
	return 0;
}

/* the cloakfs mounts and whether they are locked; 0 or an exit code */
static int list_mounts(void)
{
	unsigned int n = 0;
	int rc = mountinfo_each(print_mount, &n);

	if (rc < 0)
		return kt_error(CLOAKFS_EXIT_ERROR, "/proc/self/mountinfo: %s",
				strerror(-rc));
	printf("%u cloakfs mount%s\n", n, n == 1 ? "" : "s");
	return 0;
}

static int run_status(const struct kt_args *a)
{
	struct cloakfsd_client *cl;
	char sock[PATH_MAX];
	int rc, err, n;

	(void)a;
	if (cloakfsd_socket_path(sock, sizeof(sock)))
		snprintf(sock, sizeof(sock), "(no socket path)");
	rc = connect_daemon(false, &cl, &err);
	if (rc && daemon_absent(err)) {
		printf("cloakfsd is not running (socket %s): it holds no "
		       "key\n", sock);
		return list_mounts();
	}
	if (rc)
		return rc;
	printf("cloakfsd pid %d, socket %s\n", (int)cloakfsd_server_pid(cl), sock);
	printf("%-32s  %-10s  %s\n", "KEY ID", "TIME LEFT", "VOLUME");
	n = cloakfsd_list(cl, print_key, NULL);
	cloakfsd_close(cl);
	if (n < 0)
		return kt_error(CLOAKFS_EXIT_DAEMON, "key daemon at %s: list: %s",
				sock, daemon_strerror(n));
	printf("%d key%s held\n", n, n == 1 ? "" : "s");
	rc = list_mounts();
	if (rc)
		return rc;
	if (fflush(stdout) != 0)
		return kt_error(CLOAKFS_EXIT_ERROR, "writing output: %s",
				strerror(errno));
	return 0;
}

const struct kt_command kt_cmd_status = {
	.name = "status",
	.synopsis = "",
	.summary = "list cloakfsd's keys and the cloakfs mounts, locked or not",
	.help =
		"Show the key daemon's pid and socket, then one line per key it holds:\n"
		"key id, time left ('never' for no expiry) and volume path. Then one\n"
		"line per cloakfs mount (from /proc/self/mountinfo): its state as the\n"
		"mount tells it (locked: cloakfsd took the key away, files answer\n"
		"'Permission denied'; unlocked; no access: another user's mount),\n"
		"mountpoint and volume. Starts no daemon; asking does not count as use\n"
		"for a mount's --idle.\n",
	.opts = 0,
	.min_args = 0,
	.max_args = 0,
	.run = run_status,
};
