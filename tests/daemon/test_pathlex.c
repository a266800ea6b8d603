/* SPDX-License-Identifier: MIT */
/* base/pathlex.h: lock-by-path names a directory by its text alone */
#include "base/pathlex.h"
#include "tests/crypto/testutil.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void expect(const char *in, const char *want)
{
	char out[PATH_MAX];
	int err = path_lexical_abs(in, out, sizeof(out));

	CHECK(err == 0 && !strcmp(out, want), "'%s' -> '%s' (%s), want '%s'", in,
	      err ? "" : out, strerror(-err), want);
}

int main(void)
{
	char out[PATH_MAX], small[8];

	expect("/", "/");
	expect("/a/b", "/a/b");
	expect("//a///b//", "/a/b");
	expect("/a/./b/.", "/a/b");
	expect("/a/b/../c", "/a/c");
	expect("/a/b/../../..", "/");
	expect("/..", "/");
	expect("/a/..b/.c", "/a/..b/.c");
	/* relative: under the current directory, which is never read */
	CHECK(chdir("/tmp") == 0, "chdir /tmp");
	expect("x/y", "/tmp/x/y");
	expect(".", "/tmp");
	expect("../etc", "/etc");
	CHECK(path_lexical_abs("", out, sizeof(out)) == -EINVAL, "empty path refused");
	CHECK(path_lexical_abs("/abcdefgh", small, sizeof(small)) == -ENAMETOOLONG,
	      "too long for the buffer");
	CHECK(path_lexical_abs("/abcdef", small, sizeof(small)) == 0 &&
	      !strcmp(small, "/abcdef"), "exactly fits");
	return test_finish("test_pathlex");
}
