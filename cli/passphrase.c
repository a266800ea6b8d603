/* SPDX-License-Identifier: MIT */
/* see passphrase.h */
#include "cli/passphrase.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "base/errmsg.h"
#include "base/log.h"
#include "crypto/secmem.h"

/* a line of PASSPHRASE_MAX bytes, its newline, and a NUL */
#define LINE_CAP (PASSPHRASE_MAX + 2)
/* everything an extpass command may print (its first line is used) */
#define EXTPASS_OUTPUT_MAX (64 * 1024)

static ssize_t read_retry(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

static void write_all(int fd, const char *s)
{
	size_t len = strlen(s);

	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* a lost prompt is no reason to fail */
		s += n;
		len -= (size_t)n;
	}
}

/*
 * Read up to the first '\n' (dropped) or end of input into buf (LINE_CAP
 * bytes) and NUL-terminate it. bytewise: never read past the newline, so
 * a pipe keeps the next line for the next reader. *any is set when at
 * least one byte (newline included) was read. 0, -E2BIG, or -errno.
 */
static int read_line(int fd, bool bytewise, char *buf, size_t *len, bool *any)
{
	size_t got = 0;

	*any = false;
	while (got < LINE_CAP - 1) {
		ssize_t n = read_retry(fd, buf + got,
				       bytewise ? 1 : LINE_CAP - 1 - got);
		char *nl;

		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		*any = true;
		nl = memchr(buf + got, '\n', (size_t)n);
		got += (size_t)n;
		if (nl) {
			got = (size_t)(nl - buf);
			/* wipe what was read beyond the line */
			explicit_bzero(nl, LINE_CAP - got);
			*len = got;
			return 0;
		}
	}
	if (got > PASSPHRASE_MAX)
		return -E2BIG;
	buf[got] = '\0';
	*len = got;
	return 0;
}

/* the checks every source shares; names the source in err */
static int check_text(const char *what, const char *text, size_t len,
		      char *err, size_t errlen)
{
	if (len == 0)
		return seterr(err, errlen, -ENODATA, "%s: empty passphrase", what);
	if (memchr(text, '\0', len))
		return seterr(err, errlen, -E2BIG,
			      "%s: passphrase contains a NUL byte", what);
	return 0;
}

static int line_error(const char *what, int rc, char *err, size_t errlen)
{
	if (rc == -E2BIG)
		return seterr(err, errlen, rc, "%s: passphrase longer than %d "
			      "bytes", what, PASSPHRASE_MAX);
	return seterr(err, errlen, rc, "%s: %s", what, strerror(-rc));
}

/*
 * A passphrase file others can read gives them the volume; one that another
 * user owns (or may write) lets them choose what it says. Warn, as ssh
 * refuses such key files: refusing would break mounts that work today
 * (docs/security.md). Pipes and devices (/dev/stdin, <(cmd)) are not
 * files kept on disk: no check.
 */
static void warn_if_exposed(const char *path, int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	if (st.st_mode & (S_IRWXG | S_IRWXO))
		log_warn("%s: passphrase file is open to group or others (mode "
			 "%04o): whoever reads it can unlock the volume; chmod "
			 "600 it", path, (unsigned)(st.st_mode & 07777));
	if (st.st_uid != geteuid() && st.st_uid != 0)
		log_warn("%s: passphrase file belongs to uid %u, not to you (uid "
			 "%u) or root: its owner can read and change it", path,
			 (unsigned)st.st_uid, (unsigned)geteuid());
}

static int from_file(const char *path, struct passphrase *p, char *err,
		     size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	bool any;
	int rc;

	if (fd < 0)
		return seterr(err, errlen, -errno, "%s: %s", path, strerror(errno));
	warn_if_exposed(path, fd);
	rc = read_line(fd, false, p->text, &p->len, &any);
	close(fd);
	if (rc)
		return line_error(path, rc, err, errlen);
	return check_text(path, p->text, p->len, err, errlen);
}

static int wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

/* run cmd and read all its output into out (EXTPASS_OUTPUT_MAX bytes) */
static int run_extpass(const char *cmd, char *out, size_t *outlen, char *err,
		       size_t errlen)
{
	size_t got = 0;
	int fds[2], status, rc = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return seterr(err, errlen, -errno, "extpass: pipe: %s",
			      strerror(errno));
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fds[0]);
		close(fds[1]);
		return seterr(err, errlen, rc, "extpass: fork: %s", strerror(-rc));
	}
	if (pid == 0) {
		/* dup2 clears close-on-exec on the new stdout */
		if (dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(127);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		ssize_t n = read_retry(fds[0], out + got, EXTPASS_OUTPUT_MAX - got);

		if (n < 0) {
			rc = -errno;
			break;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		if (got == EXTPASS_OUTPUT_MAX) {
			rc = -E2BIG;
			break;
		}
	}
	close(fds[0]); /* a command still writing gets SIGPIPE */
	if (wait_child(pid, &status) < 0 && !rc)
		rc = -ECHILD;
	if (rc == -E2BIG)
		return seterr(err, errlen, rc, "extpass command \"%s\": output "
			      "longer than %d bytes", cmd, EXTPASS_OUTPUT_MAX);
	if (rc)
		return seterr(err, errlen, rc, "extpass command \"%s\": %s", cmd,
			      strerror(-rc));
	if (WIFSIGNALED(status))
		return seterr(err, errlen, -ECHILD, "extpass command \"%s\": "
			      "killed by signal %d (%s)", cmd, WTERMSIG(status),
			      strsignal(WTERMSIG(status)));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return seterr(err, errlen, -ECHILD, "extpass command \"%s\": "
			      "exited with status %d%s", cmd, WEXITSTATUS(status),
			      WEXITSTATUS(status) == 127 ? " (command not found?)"
							 : "");
	*outlen = got;
	return 0;
}

static int from_extpass(const char *cmd, struct passphrase *p, char *err,
			size_t errlen)
{
	char what[128];
	char *out = secmem_alloc(EXTPASS_OUTPUT_MAX);
	size_t len = 0, line;
	int rc;

	if (!out)
		return seterr(err, errlen, -ENOMEM, "extpass: out of memory");
	rc = run_extpass(cmd, out, &len, err, errlen);
	if (!rc) {
		char *nl = memchr(out, '\n', len);

		line = nl ? (size_t)(nl - out) : len;
		snprintf(what, sizeof(what), "extpass command \"%.80s\"", cmd);
		if (line > PASSPHRASE_MAX) {
			rc = line_error(what, -E2BIG, err, errlen);
		} else {
			memcpy(p->text, out, line);
			p->text[line] = '\0';
			p->len = line;
			rc = check_text(what, p->text, p->len, err, errlen);
		}
	}
	secmem_free(out);
	return rc;
}

/* ---- the terminal ------------------------------------------------------ */

/* restored by the signal handler if the user interrupts a prompt */
static volatile sig_atomic_t tty_echo_off;
static int tty_restore_fd = -1;
static struct termios tty_saved;

static const int prompt_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP };
#define N_PROMPT_SIGNALS (sizeof(prompt_signals) / sizeof(prompt_signals[0]))

static void restore_and_reraise(int sig)
{
	if (tty_echo_off)
		(void)tcsetattr(tty_restore_fd, TCSAFLUSH, &tty_saved);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* echo off (canonical input) until tty_quiet_end; old: N_PROMPT_SIGNALS */
static int tty_quiet_begin(int in_fd, struct sigaction *old)
{
	struct sigaction sa = { .sa_handler = restore_and_reraise };
	struct termios noecho;
	int rc = 0;

	if (tcgetattr(in_fd, &tty_saved) < 0)
		return -errno;
	noecho = tty_saved;
	noecho.c_lflag &= ~(tcflag_t)ECHO;
	noecho.c_lflag |= ICANON;
	tty_restore_fd = in_fd;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < N_PROMPT_SIGNALS; i++)
		sigaction(prompt_signals[i], &sa, &old[i]);
	tty_echo_off = 1;
	if (tcsetattr(in_fd, TCSAFLUSH, &noecho) < 0) {
		rc = -errno;
		tty_echo_off = 0;
		for (size_t i = 0; i < N_PROMPT_SIGNALS; i++)
			sigaction(prompt_signals[i], &old[i], NULL);
	}
	return rc;
}

static void tty_quiet_end(int in_fd, const struct sigaction *old)
{
	(void)tcsetattr(in_fd, TCSAFLUSH, &tty_saved);
	tty_echo_off = 0;
	for (size_t i = 0; i < N_PROMPT_SIGNALS; i++)
		sigaction(prompt_signals[i], &old[i], NULL);
}

/* one prompt with echo off; in_fd is the terminal, out_fd where to ask */
static int tty_read(int in_fd, int out_fd, const char *prompt, char *buf,
		    size_t *len)
{
	struct sigaction old[N_PROMPT_SIGNALS];
	bool any;
	int rc = tty_quiet_begin(in_fd, old);

	if (rc)
		return rc;
	write_all(out_fd, prompt);
	rc = read_line(in_fd, true, buf, len, &any);
	if (!rc && !any)
		rc = -ENODATA;
	tty_quiet_end(in_fd, old);
	write_all(out_fd, "\n"); /* the Enter that was not echoed */
	return rc;
}

/* constant time in the contents, not that it matters much here */
static bool same_text(const struct passphrase *a, const char *b, size_t blen)
{
	unsigned char diff = 0;

	if (a->len != blen)
		return false;
	for (size_t i = 0; i < blen; i++)
		diff |= (unsigned char)(a->text[i] ^ b[i]);
	return diff == 0;
}

static int from_terminal(enum passphrase_kind kind, const char *prompt,
			 struct passphrase *p, char *err, size_t errlen)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	int in_fd = fd >= 0 ? fd : STDIN_FILENO;
	int out_fd = fd >= 0 ? fd : STDERR_FILENO;
	char *again = NULL;
	size_t againlen;
	int rc;

	rc = tty_read(in_fd, out_fd, prompt, p->text, &p->len);
	if (rc == -ENODATA)
		rc = seterr(err, errlen, rc, "terminal: no passphrase entered");
	else if (rc)
		rc = line_error("terminal", rc, err, errlen);
	else
		rc = check_text("terminal", p->text, p->len, err, errlen);
	if (rc || kind != PASSPHRASE_NEW)
		goto out;
	again = secmem_alloc(LINE_CAP);
	if (!again) {
		rc = seterr(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	rc = tty_read(in_fd, out_fd, "Repeat to confirm: ", again, &againlen);
	if (rc == -ENODATA || (!rc && !same_text(p, again, againlen)))
		rc = seterr(err, errlen, -ENOKEY, "terminal: passphrases do not "
			    "match");
	else if (rc)
		rc = line_error("terminal", rc, err, errlen);
out:
	secmem_free(again);
	if (fd >= 0)
		close(fd);
	return rc;
}

static int from_stdin(struct passphrase *p, char *err, size_t errlen)
{
	bool any;
	int rc = read_line(STDIN_FILENO, true, p->text, &p->len, &any);

	if (rc)
		return line_error("standard input", rc, err, errlen);
	if (!any)
		return seterr(err, errlen, -ENODATA, "standard input: no "
			      "passphrase (end of input)");
	return check_text("standard input", p->text, p->len, err, errlen);
}

/* the checks and the buffer every reader starts with */
static int text_new(const struct passphrase_source *src, struct passphrase *p,
		    char *err, size_t errlen)
{
	if (src->file && src->extpass)
		return seterr(err, errlen, -EINVAL, "give a passphrase file or "
			      "an extpass command, not both");
	p->text = secmem_alloc(LINE_CAP);
	if (!p->text)
		return seterr(err, errlen, -ENOMEM, "out of memory");
	return 0;
}

/* hand p over on success, wipe it on failure */
static int text_done(int rc, struct passphrase *p, struct passphrase *out)
{
	if (rc) {
		passphrase_free(p);
		return rc;
	}
	*out = *p;
	return 0;
}

/* ---- texts of several lines ------------------------------------------ */

/* where the lines come from: a descriptor, or a buffer (extpass output) */
struct line_source {
	int fd;          /* -1: buf */
	const char *buf;
	size_t len, pos;
	int tty_out;     /* a terminal: where the continuation prompt goes */
};

static int next_line(struct line_source *s, char *line, size_t *len, bool *any)
{
	const char *nl;
	size_t n;

	if (s->fd >= 0)
		return read_line(s->fd, true, line, len, any);
	*any = s->pos < s->len;
	nl = memchr(s->buf + s->pos, '\n', s->len - s->pos);
	n = nl ? (size_t)(nl - (s->buf + s->pos)) : s->len - s->pos;
	if (n > PASSPHRASE_MAX)
		return -E2BIG;
	memcpy(line, s->buf + s->pos, n);
	line[n] = '\0';
	*len = n;
	s->pos += n + (nl != NULL);
	return 0;
}

static bool blank(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			return false;
	return true;
}

/* join lines of s into p until complete(); what names the source */
static int read_joined(struct line_source *s, const char *what,
		       int (*complete)(const char *, size_t),
		       struct passphrase *p, char *err, size_t errlen)
{
	char *line = secmem_alloc(LINE_CAP);
	size_t len;
	bool any;
	int rc = 0;

	if (!line)
		return seterr(err, errlen, -ENOMEM, "out of memory");
	p->len = 0;
	p->text[0] = '\0';
	for (int n = 0; n < PASSPHRASE_MAX_LINES && !complete(p->text, p->len); n++) {
		if (n && s->tty_out >= 0)
			write_all(s->tty_out, "\n(the next line): ");
		rc = next_line(s, line, &len, &any);
		if (rc) {
			rc = line_error(what, rc, err, errlen);
			break;
		}
		if (!any)
			break; /* end of input */
		if (blank(line, len)) {
			if (s->tty_out >= 0)
				break; /* Enter alone on a terminal: done */
			continue;
		}
		if (p->len + (p->len != 0) + len > PASSPHRASE_MAX) {
			rc = line_error(what, -E2BIG, err, errlen);
			break;
		}
		if (p->len)
			p->text[p->len++] = '\n';
		memcpy(p->text + p->len, line, len);
		p->len += len;
		p->text[p->len] = '\0';
	}
	secmem_free(line);
	if (!rc && p->len == 0 && s->tty_out >= 0)
		rc = seterr(err, errlen, -ENODATA, "%s: nothing entered", what);
	else if (!rc)
		rc = check_text(what, p->text, p->len, err, errlen);
	return rc;
}

static int lines_from_terminal(const char *prompt,
			       int (*complete)(const char *, size_t),
			       struct passphrase *p, char *err, size_t errlen)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	struct line_source s = { .fd = fd >= 0 ? fd : STDIN_FILENO,
				 .tty_out = fd >= 0 ? fd : STDERR_FILENO };
	struct sigaction old[N_PROMPT_SIGNALS];
	int rc = tty_quiet_begin(s.fd, old);

	if (rc) {
		rc = line_error("terminal", rc, err, errlen);
	} else {
		write_all(s.tty_out, prompt);
		rc = read_joined(&s, "terminal", complete, p, err, errlen);
		/* echo off for the whole text: the flush at the end, not
		 * between lines, so a pasted second line is kept */
		tty_quiet_end(s.fd, old);
		write_all(s.tty_out, "\n");
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

int passphrase_get_lines(const struct passphrase_source *src,
			 const char *prompt,
			 int (*complete)(const char *text, size_t len),
			 struct passphrase *out, char *err, size_t errlen)
{
	struct passphrase p = { 0 };
	struct line_source s = { .fd = -1, .tty_out = -1 };
	char *output = NULL, what[128];
	int rc;

	rc = text_new(src, &p, err, errlen);
	if (rc)
		return rc;
	if (src->file) {
		s.fd = open(src->file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (s.fd < 0) {
			rc = seterr(err, errlen, -errno, "%s: %s", src->file,
				    strerror(errno));
		} else {
			warn_if_exposed(src->file, s.fd);
			rc = read_joined(&s, src->file, complete, &p, err, errlen);
			close(s.fd);
		}
	} else if (src->extpass) {
		output = secmem_alloc(EXTPASS_OUTPUT_MAX);
		rc = output ? run_extpass(src->extpass, output, &s.len, err, errlen)
			    : seterr(err, errlen, -ENOMEM, "out of memory");
		s.buf = output;
		snprintf(what, sizeof(what), "extpass command \"%.80s\"",
			 src->extpass);
		if (!rc)
			rc = read_joined(&s, what, complete, &p, err, errlen);
		secmem_free(output);
	} else if (isatty(STDIN_FILENO)) {
		rc = lines_from_terminal(prompt, complete, &p, err, errlen);
	} else {
		s.fd = STDIN_FILENO;
		rc = read_joined(&s, "standard input", complete, &p, err, errlen);
	}
	return text_done(rc, &p, out);
}

int passphrase_get(const struct passphrase_source *src,
		   enum passphrase_kind kind, const char *prompt,
		   struct passphrase *out, char *err, size_t errlen)
{
	struct passphrase p = { 0 };
	int rc;

	rc = text_new(src, &p, err, errlen);
	if (rc)
		return rc;
	if (src->file)
		rc = from_file(src->file, &p, err, errlen);
	else if (src->extpass)
		rc = from_extpass(src->extpass, &p, err, errlen);
	else if (isatty(STDIN_FILENO))
		rc = from_terminal(kind, prompt, &p, err, errlen);
	else
		rc = from_stdin(&p, err, errlen);
	return text_done(rc, &p, out);
}

void passphrase_free(struct passphrase *p)
{
	secmem_free(p->text);
	p->text = NULL;
	p->len = 0;
}
