/* SPDX-License-Identifier: MIT */
/*
 * volume/names/conflict.h and vname_classify's conflict copies: each
 * tool's marker found whole (Syncthing, Dropbox with and without a host
 * and with a number, Nextcloud with and without a user), near misses
 * refused, a name that is only a marker refused, the shown name put
 * together and read back for every marker and extension, and ciphertext
 * names of each kind classified with their marker cut out.
 */
#include <errno.h>
#include <string.h>

#include "tests/volume/voltest.h"
#include "volume/names/conflict.h"
#include "volume/names/vname.h"

static const char *const marks[] = {
	".sync-conflict-20261204-101010-ABCDEFG",
	".sync-conflict-20261204-101010-7Q2ZZ00",
	" (laptop's conflicted copy 2026-12-04)",
	" (Bob Smith's conflicted copy 2026-12-04 (2))",
	" (conflicted copy 2026-12-04)",
	" (conflicted copy 2026-12-04 101010)",
	" (conflicted copy alice 2026-12-04 101010)",
};

static const char *const misses[] = {
	".sync-conflict-2026120-101010-ABCDEFG",   /* 7-digit date */
	".sync-conflict-20261204-10101-ABCDEFG",   /* 5-digit time */
	".sync-conflict-20261204-101010-ABCDEF",   /* 6-char device */
	".sync-conflict-20261204-101010-abcdefg",  /* lower case */
	".sync-conflict-20261204_101010-ABCDEFG",
	".sync-confict-20261204-101010-ABCDEFG",
	" (conflicted copy 2026-12-4)",
	" (conflicted copy 2026-12-04",            /* unclosed */
	" (conflicted copy)",
	" (conflict 2026-12-04)",
	"(conflicted copy 2026-12-04)",            /* no space before */
	" (laptops conflicted copy 2026-12-04)",   /* no "'s " */
	" ('s conflicted copy 2026-12-04)",        /* empty host */
	" (a/b's conflicted copy 2026-12-04)",     /* '/' in the host */
	" (conflicted copy 2026-12-04 1010)",
	" (conflicted copy 2026-12-04 (x))",
};

static void test_marks(void)
{
	struct conflict_cut c;

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		size_t n = strlen(marks[i]);

		CHECK(conflict_mark_len(marks[i], n) == n, "%s: whole", marks[i]);
		/* one char short is no marker (or a shorter one) */
		CHECK(conflict_mark_len(marks[i], n - 1) == 0,
		      "%s: cut short", marks[i]);
		/* a name that is only a marker is no conflict copy */
		CHECK(!conflict_next_shown(marks[i], n, 0, &c),
		      "%s alone: not a shown copy", marks[i]);
	}
	for (size_t i = 0; i < sizeof(misses) / sizeof(misses[0]); i++)
		CHECK(conflict_mark_len(misses[i], strlen(misses[i])) == 0,
		      "%s: refused", misses[i]);
}

/* base shown with each marker, read back */
static void test_shown(void)
{
	static const char *const bases[] = {
		"report.txt", "report", ".bashrc", "archive.tar.gz",
		"a (conflicted copy 2026-12-04).txt", "x.", "name with spaces",
	};
	static const char *const want[] = {
		"report.sync-conflict-20261204-101010-ABCDEFG.txt",
		"report.sync-conflict-20261204-101010-ABCDEFG",
		".bashrc.sync-conflict-20261204-101010-ABCDEFG",
		"archive.tar.sync-conflict-20261204-101010-ABCDEFG.gz",
	};
	char shown[512], back[512];
	struct conflict_cut c;

	for (size_t b = 0; b < sizeof(bases) / sizeof(bases[0]); b++) {
		for (size_t m = 0; m < sizeof(marks) / sizeof(marks[0]); m++) {
			size_t blen = strlen(bases[b]), mlen = strlen(marks[m]);
			size_t from = 0;
			int found = 0;

			CHECK(conflict_mark(bases[b], blen, marks[m], mlen, shown,
					    sizeof(shown)) == 0,
			      "%s + %s", bases[b], marks[m]);
			if (m == 0 && b < sizeof(want) / sizeof(want[0]))
				CHECK(!strcmp(shown, want[b]), "%s shown as %s",
				      bases[b], shown);
			/* some reading gives the base and marker back */
			while (!found &&
			       conflict_next_shown(shown, strlen(shown), from, &c)) {
				from = c.at + 1;
				found = c.len == mlen &&
					!memcmp(shown + c.at, marks[m], mlen) &&
					conflict_cut_out(shown, strlen(shown), &c,
							 back, sizeof(back)) == 0 &&
					!strcmp(back, bases[b]);
			}
			CHECK(found, "%s reads back to %s", shown, bases[b]);
		}
	}
	/* too small a buffer */
	CHECK(conflict_mark("ab", 2, marks[0], strlen(marks[0]), shown, 10) ==
		      -ENAMETOOLONG,
	      "mark: too long");
	/* a marker out of place is no shown copy: it would show elsewhere */
	CHECK(!conflict_next_shown("a.sync-conflict-20261204-101010-ABCDEFG.b.c",
				   42, 0, &c),
	      "marker before an inner dot");
	CHECK(!conflict_next_shown("a.b.sync-conflict-20261204-101010-ABCDEFG",
				   40, 0, &c),
	      "marker after an extension");
}

/* ciphertext names: each kind with a marker, and what is not one */
static void test_classify(void)
{
	char enc[44 + 1], lname[VNAME_LONG_LEN + 1], name[512];
	struct vname_conflict vc;

	memset(enc, 'A', 43);
	enc[43] = '\0'; /* base64url of 32 bytes */
	CHECK(vname_classify(enc) == VNAME_ENTRY_ENCRYPTED, "plain encrypted");
	CHECK(vname_long_name(enc, 43, lname) == 0, "long name");
	for (size_t m = 0; m < sizeof(marks) / sizeof(marks[0]); m++) {
		snprintf(name, sizeof(name), "%s%s", enc, marks[m]);
		CHECK(vname_classify(name) == VNAME_ENTRY_CONFLICT &&
			      vname_conflict_of(name, &vc) &&
			      vc.kind == VNAME_ENTRY_ENCRYPTED &&
			      !strcmp(vc.base, enc) && vc.cut.at == 43 &&
			      vc.cut.len == strlen(marks[m]),
		      "%s: an encrypted name's copy", name);
		/* long: a tool puts it before the hash, or last */
		snprintf(name, sizeof(name), "cloakfs.long%s.%s", marks[m],
			 lname + strlen(VNAME_LONG_PREFIX));
		CHECK(vname_conflict_of(name, &vc) &&
			      vc.kind == VNAME_ENTRY_LONG && !strcmp(vc.base, lname),
		      "%s: a long name's copy", name);
		snprintf(name, sizeof(name), "%s%s", lname, marks[m]);
		CHECK(vname_conflict_of(name, &vc) && vc.kind == VNAME_ENTRY_LONG,
		      "%s: a long name's copy, marker last", name);
		snprintf(name, sizeof(name), "%s%s.name", lname, marks[m]);
		CHECK(vname_conflict_of(name, &vc) &&
			      vc.kind == VNAME_ENTRY_SIDECAR,
		      "%s: a sidecar's copy", name);
		snprintf(name, sizeof(name), "%s%s", DIRNONCE_FILE, marks[m]);
		CHECK(vname_conflict_of(name, &vc) &&
			      vc.kind == VNAME_ENTRY_DIRNONCE,
		      "%s: a nonce file's copy", name);
		snprintf(name, sizeof(name), ".cloakfs%s.dir", marks[m]);
		CHECK(vname_conflict_of(name, &vc) &&
			      vc.kind == VNAME_ENTRY_DIRNONCE,
		      "%s: a nonce file's copy, before its extension", name);
		/* only a marker, or a marker on a foreign name */
		CHECK(vname_classify(marks[m]) == VNAME_ENTRY_OTHER,
		      "%s alone: foreign", marks[m]);
		snprintf(name, sizeof(name), "notes.txt%s", marks[m]);
		CHECK(vname_classify(name) == VNAME_ENTRY_OTHER,
		      "%s: foreign", name);
		/* a copy of a copy: one marker only */
		snprintf(name, sizeof(name), "%s%s%s", enc, marks[m], marks[0]);
		CHECK(vname_classify(name) == VNAME_ENTRY_OTHER,
		      "%s: two markers, foreign", name);
	}
	for (size_t i = 0; i < sizeof(misses) / sizeof(misses[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", enc, misses[i]);
		CHECK(vname_classify(name) == VNAME_ENTRY_OTHER, "%s: foreign",
		      name);
	}
}

int main(void)
{
	test_marks();
	test_shown();
	test_classify();
	return test_finish("test_conflict");
}
