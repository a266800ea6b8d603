/* SPDX-License-Identifier: MIT */
/*
 * decimal_parse and duration_parse (cli/decimal.h): what arguments they
 * take and refuse.
 */
#include <errno.h>
#include <limits.h>

#include "cli/decimal.h"
#include "tests/crypto/testutil.h"

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

static void duration_is(const char *s, unsigned int unit,
			unsigned long long max, unsigned long long want)
{
	unsigned long long v = 12345;
	int err = duration_parse(s, unit, max, &v);

	CHECK(err == 0 && v == want, "duration '%s' (unit %u s): err %d, %llu ms, "
	      "want %llu ms", s, unit, err, v, want);
}

static void duration_bad(const char *s, unsigned int unit,
			 unsigned long long max)
{
	unsigned long long v = 12345;
	int err = duration_parse(s, unit, max, &v);

	CHECK(err == -EINVAL && v == 12345, "duration '%s': err %d value %llu, "
	      "want -EINVAL and the output untouched", s, err, v);
}

static void test_duration(void)
{
	const unsigned long long big = 1ULL << 50;

	duration_is("10m", 60, big, 600000);
	duration_is("2h", 60, big, 7200000);
	duration_is("90s", 60, big, 90000);
	duration_is("1d", 1, big, 86400000);
	duration_is("1.5h", 1, big, 5400000);
	duration_is(".5m", 1, big, 30000);
	duration_is("30", 60, big, 1800000); /* --idle: plain minutes */
	duration_is("0.04", 60, big, 2400);
	duration_is("3600", 1, big, 3600000); /* --ttl: plain seconds */
	duration_is("0", 60, big, 0);
	duration_is("2h", 60, 7200000, 7200000); /* the maximum itself */

	duration_bad("2h", 60, 7199999);
	duration_bad("", 60, big);
	duration_bad(".", 60, big);
	duration_bad("m", 60, big);
	duration_bad("-5m", 60, big);
	duration_bad("+5m", 60, big);
	duration_bad(" 5m", 60, big);
	duration_bad("5 m", 60, big);
	duration_bad("5m ", 60, big);
	duration_bad("5ms", 60, big);
	duration_bad("5x", 60, big);
	duration_bad("5M", 60, big);
	duration_bad("1e3", 60, big);   /* strtod would take it */
	duration_bad("0x10", 60, big);
	duration_bad("inf", 60, big);
	duration_bad("nan", 60, big);
	duration_bad("1.2.3", 60, big);
	duration_bad("99999999999999999999999999999d", 60, big);
}

int main(void)
{
	test_duration();
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
