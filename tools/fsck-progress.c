/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-fsck's progress line (cloakfs-fsck(8), --progress): entries and
 * bytes checked, with a percentage when the total is known (--deep counts
 * the files' bytes first), refreshed at least once a second. Only on a
 * terminal: redirected stderr gets no progress, so logs and scripts see
 * findings and errors alone. Shown after the first second, or at once
 * with --progress.
 *
 * Bytes advance inside a file too (fsck_progress_bytes from the --deep
 * read loop), so one large file does not stall the line. Notes on stderr
 * (fsck_note) go through here, so they never mix with the line.
 */
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/fsck-progress.h"

/* redraws a second; "at least once a second" with room to spare */
#define REFRESH_SECONDS 0.25

static struct {
	bool tty, forced, shown, counting;
	struct timespec start, last;
	unsigned long entries;
	uint64_t bytes;    /* of the files before the current one, and of it */
	uint64_t file_end; /* bytes once the current file is done */
	uint64_t total;    /* 0: unknown */
	char what[48];     /* the current entry's ciphertext path, cut */
	struct fsck *f;
} prog;

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

/* "512 B", "3.4 KiB", "1.2 GiB" */
static void format_bytes(uint64_t n, char *out, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)n;
	int u = -1;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(out, len, "%llu B", (unsigned long long)n);
	else
		snprintf(out, len, "%.1f %s", v, units[u]);
}

static void show(void)
{
	char done[32], total[32] = "";
	struct fsck *f = prog.f;

	format_bytes(prog.bytes, done, sizeof(done));
	if (prog.counting) {
		fprintf(stderr, "\rcounting: %lu entries, %s\033[K", prog.entries,
			done);
	} else {
		if (prog.total) {
			uint64_t pct = prog.bytes >= prog.total ? 100
				       : prog.bytes * 100 / prog.total;

			format_bytes(prog.total, total, sizeof(total));
			fprintf(stderr, "\r%lu entries, %s of %s (%llu%%), %lu "
				"findings: %s\033[K", prog.entries, done, total,
				(unsigned long long)pct,
				f->errors + f->warnings + f->notes, prog.what);
		} else {
			fprintf(stderr, "\r%lu entries, %s, %lu findings: %s\033[K",
				prog.entries, done,
				f->errors + f->warnings + f->notes, prog.what);
		}
	}
	fflush(stderr);
	prog.shown = true;
}

/* redraw when due; the coarse clock is a vDSO read, cheap per entry */
static void maybe_show(void)
{
	struct timespec now;

	if (!prog.tty)
		return;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	if (!prog.forced && since(&prog.start, &now) < 1.0)
		return; /* small volumes finish before anything is shown */
	if (prog.shown && since(&prog.last, &now) < REFRESH_SECONDS)
		return;
	prog.last = now;
	show();
}

void fsck_progress_start(struct fsck *f)
{
	prog.f = f;
	prog.tty = isatty(STDERR_FILENO);
	prog.forced = f->progress_forced;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &prog.start);
	prog.last = prog.start;
	if (prog.forced)
		maybe_show();
}

static int count_one(const char *path, const struct stat *st, int type,
		     struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	prog.entries++;
	if (type == FTW_F && S_ISREG(st->st_mode))
		prog.bytes += (uint64_t)st->st_size;
	maybe_show();
	return 0;
}

void fsck_progress_count(struct fsck *f)
{
	if (!prog.tty)
		return; /* the total is only for the line */
	prog.counting = true;
	/* physical walk on this filesystem; a failure leaves the total unknown */
	if (nftw(f->root, count_one, 16, FTW_PHYS | FTW_MOUNT) == 0)
		prog.total = prog.bytes;
	prog.counting = false;
	prog.entries = 0;
	prog.bytes = 0;
}

void fsck_progress_clear(void)
{
	if (prog.shown && prog.tty) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	prog.shown = false;
}

void fsck_progress_tick(struct fsck *f, const char *cpath)
{
	/* bounded: a path 100,000 levels deep must not cost its length per
	 * entry (snprintf would measure all of it) */
	size_t n = strnlen(cpath, sizeof(prog.what) - 1);

	(void)f;
	prog.entries++;
	prog.bytes = prog.file_end; /* the entry before is done */
	memcpy(prog.what, cpath, n);
	prog.what[n] = '\0';
	maybe_show();
}

void fsck_progress_file(uint64_t size)
{
	prog.bytes = prog.file_end;
	prog.file_end = prog.bytes + size;
}

void fsck_progress_bytes(uint64_t n)
{
	prog.bytes = prog.bytes + n < prog.file_end ? prog.bytes + n
						    : prog.file_end;
	maybe_show();
}

void fsck_note(const char *fmt, ...)
{
	va_list ap;

	fsck_progress_clear();
	fprintf(stderr, "%s: ", FSCK_PROG);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
