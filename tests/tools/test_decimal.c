/* SPDX-License-Identifier: MIT */
/* decimal_parse (tools/decimal.h): what arguments it takes and refuses. */
#include <errno.h>
#include <limits.h>

#include "tests/crypto/testutil.h"
#include "tools/decimal.h"

static void accepts(const char *s, unsigned long long max,
		    unsigned long long want)
{
	unsigned long long v = 12345;
	int err = decimal_parse(s, max, &v);

	CHECK(err == 0 && v == want, "'%s' (max %llu): err %d value %llu, "
	      "want %llu", s, max, err, v, want);
}

static void refuses(const char *s, unsigned long long max)
{
	unsigned long long v = 12345;
	int err = decimal_parse(s, max, &v);

	CHECK(err == -EINVAL && v == 12345, "'%s' (max %llu): err %d value "
	      "%llu, want -EINVAL and the output untouched", s, max, err, v);
}

int main(void)
{
	accepts("0", 0, 0);
	accepts("7", 10, 7);
	accepts("65536", 65536, 65536);
	accepts("007", 10, 7); /* leading zeros are still decimal */
	accepts("18446744073709551615", ULLONG_MAX, ULLONG_MAX);

	refuses("65537", 65536);
	refuses("", 10);
	refuses("-1", 10);         /* strtoull would wrap it */
	refuses("+5", 10);
	refuses(" 5", 10);
	refuses("5 ", 10);
	refuses("0x10", 100);      /* not hex */
	refuses("4k", 10000);      /* no suffixes */
	refuses("1.5", 10);
	refuses("18446744073709551616", ULLONG_MAX); /* ERANGE */
	refuses("99999999999999999999999", ULLONG_MAX);
	return test_finish("test_decimal");
}
