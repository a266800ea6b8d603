/* SPDX-License-Identifier: MIT */
/*
 * cloakfsd, the per-user key daemon: command line, settings, process
 * hardening, daemonizing, and the run of server.c's loop. See cloakfsd(1)
 * and docs/daemon-protocol.md.
 *
 * Exit codes: 0 clean exit (also after SIGTERM/SIGINT/SIGHUP), 1 runtime
 * failure (key memory cannot be locked, bad socket directory, ...), 2 bad
 * command line or settings file, 3 another cloakfsd already serves the
 * socket (clients that auto-start the daemon then simply connect to it).
 */
#include "base/log.h"
#include "base/logsyslog.h"
#include "base/nodump.h"
#include "cli/exitcodes.h"
#include "daemon/config.h"
#include "daemon/keystore.h"
#include "daemon/listener.h"
#include "daemon/server.h"
#include "daemon/sockpath.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the tools' one table (cli/exitcodes.h, cloakfsd(1) EXIT STATUS) */
#define EXIT_RUNTIME CLOAKFS_EXIT_ERROR
#define EXIT_USAGE CLOAKFS_EXIT_USAGE
#define EXIT_RUNNING CLOAKFS_EXIT_REFUSED

struct options {
	bool foreground;
	const char *socket;
	const char *config;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: cloakfsd [--foreground] [--socket PATH] [--config FILE]\n"
		"Holds unlocked cloakfs volume keys for this user, in locked memory.\n\n"
		"  -f, --foreground   stay in the foreground and log to stderr\n"
		"                     (otherwise detach once the socket is ready; log to syslog)\n"
		"  -s, --socket PATH  listen on PATH (default: $XDG_RUNTIME_DIR/cloakfs/cloakfsd.sock)\n"
		"  -c, --config FILE  settings file (default: ~/.config/cloakfs/cloakfsd.conf)\n"
		"  -h, --help         this text\n"
		"  -V, --version      print the version\n");
}

static void stderr_sink(enum log_level level, const char *msg)
{
	static const char *const names[] = { "debug", "info", "warning", "error" };

	fprintf(stderr, "cloakfsd[%d]: %s: %s\n", (int)getpid(), names[level], msg);
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "foreground", no_argument, NULL, 'f' },
		{ "socket", required_argument, NULL, 's' },
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "fs:c:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->foreground = true;
			break;
		case 's':
			o->socket = optarg;
			break;
		case 'c':
			o->config = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("cloakfsd %s (protocol %d)\n", CLOAKFS_VERSION, CLOAKFSD_PROTO_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "cloakfsd: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return -EINVAL;
	}
	if (o->socket && o->socket[0] != '/') {
		fprintf(stderr, "cloakfsd: --socket needs an absolute path\n");
		return -EINVAL;
	}
	return 0;
}

static int load_config(const struct options *o, struct daemon_config *cfg)
{
	char path[4096], err[512];
	int ret;

	daemon_config_defaults(cfg);
	if (o->config) {
		ret = daemon_config_load(o->config, false, cfg, err, sizeof(err));
	} else {
		ret = daemon_config_default_path(path, sizeof(path));
		if (ret)
			return 0; /* no home directory: nothing to read */
		ret = daemon_config_load(path, true, cfg, err, sizeof(err));
	}
	if (ret)
		fprintf(stderr, "cloakfsd: %s\n", err);
	return ret;
}

/*
 * The socket path, and whether it is a default location (whose directory
 * gets the strict owner/mode check): --socket, $CLOAKFSD_SOCKET, the
 * "socket" setting, then sockpath_default().
 */
static int choose_socket(const struct options *o, const struct daemon_config *cfg,
			 char *buf, size_t len, bool *strict)
{
	const char *env = getenv("CLOAKFSD_SOCKET");
	const char *chosen = o->socket ? o->socket : env && env[0] == '/' ? env :
			     cfg->socket[0] ? cfg->socket : NULL;

	*strict = chosen == NULL;
	if (!chosen)
		return sockpath_default(buf, len);
	if (strlen(chosen) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, chosen, strlen(chosen) + 1);
	return 0;
}

/*
 * Fork; the parent waits until the child reports ready (one byte on the
 * pipe) and exits 0, or exits 1 when the child failed (its error already
 * went to the terminal). The child gets the pipe's write end.
 */
static int daemonize(int *ready_fd)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0) {
		char byte;
		ssize_t n;

		close(p[1]);
		do
			n = read(p[0], &byte, 1);
		while (n < 0 && errno == EINTR);
		_exit(n == 1 ? 0 : EXIT_RUNTIME);
	}
	close(p[0]);
	if (setsid() < 0 || chdir("/") != 0)
		return -errno;
	*ready_fd = p[1];
	return 0;
}

/* stdio to /dev/null, logs to syslog, then release the waiting parent */
static int detach(int ready_fd)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	log_to_syslog("cloakfsd");
	if (dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) {
		close(fd);
		return -errno;
	}
	close(fd);
	if (write(ready_fd, "1", 1) != 1)
		return -errno;
	close(ready_fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct options opts = { 0 };
	struct daemon_config cfg;
	struct listener listener;
	struct keystore ks;
	struct server *srv;
	char sock_path[DAEMON_CONFIG_SOCKET_MAX], why[512];
	int ready_fd = -1, err, sig, status = EXIT_RUNTIME;
	bool strict;

	umask(077);
	log_set_sink(stderr_sink);
	/* no core files, no ptrace or /proc/PID/mem by same-uid processes */
	err = process_no_dump();
	if (err) {
		log_error("cannot make the process non-dumpable: %s", strerror(-err));
		return EXIT_RUNTIME;
	}
	if (parse_args(argc, argv, &opts) != 0 || load_config(&opts, &cfg) != 0)
		return EXIT_USAGE;
	if (cfg.log_level >= 0)
		log_set_level((enum log_level)cfg.log_level);
	else if (!getenv("CLOAKFS_LOG"))
		log_set_level(LOG_INFO);
	signal(SIGPIPE, SIG_IGN);

	err = choose_socket(&opts, &cfg, sock_path, sizeof(sock_path), &strict);
	if (err) {
		log_error("socket path: %s", strerror(-err));
		return EXIT_USAGE;
	}
	err = listener_open(&listener, sock_path, strict, why, sizeof(why));
	if (err) {
		log_error("%s", why);
		return err == -EADDRINUSE ? EXIT_RUNNING : EXIT_RUNTIME;
	}
	if (!opts.foreground && (err = daemonize(&ready_fd)) != 0) {
		log_error("cannot daemonize: %s", strerror(-err));
		goto out_listener;
	}
	/* after the fork: mlock is not inherited, and listen() sets SO_PEERCRED */
	err = listener_listen(&listener);
	if (err) {
		log_error("cannot listen on %s: %s", sock_path, strerror(-err));
		goto out_listener;
	}
	err = keystore_init(&ks);
	if (err) {
		log_error("cannot lock memory for keys: %s%s", strerror(-err),
			  err == -ENOMEM || err == -EPERM || err == -EAGAIN ?
			  " (raise the locked-memory limit, ulimit -l)" : "");
		goto out_listener;
	}
	err = server_create(&srv, listener.fd, &ks, &cfg);
	if (err) {
		log_error("cannot set up the event loop: %s", strerror(-err));
		goto out_keys;
	}
	if (ready_fd >= 0 && (err = detach(ready_fd)) != 0) {
		log_error("cannot detach: %s", strerror(-err));
		goto out_server;
	}
	log_info("cloakfsd %s listening on %s (uid %u, default ttl %u s, max ttl %u s%s)",
		 CLOAKFS_VERSION, sock_path, (unsigned)getuid(), cfg.default_ttl, cfg.max_ttl,
		 cfg.allow_root ? ", root allowed" : "");
	sig = server_run(srv);
	if (sig > 0) {
		log_info("%s: wiping %u key(s) and exiting", strsignal(sig), ks.count);
		status = 0;
	} else {
		log_error("event loop failed: %s; wiping keys", strerror(-sig));
	}
out_server:
	server_destroy(srv);
out_keys:
	keystore_destroy(&ks, NULL, NULL);
out_listener:
	listener_close(&listener);
	return status;
}
