/* SPDX-License-Identifier: MIT */
/* see fdbudget.h */
#include "fs/fdbudget.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "cli/decimal.h"

int fdbudget_setup(unsigned int *cache, unsigned long *limit)
{
	const char *env = getenv("CLOAKFS_FD_CACHE");
	struct rlimit rl;
	unsigned long long n;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return -errno;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		/* a hard limit above the kernel's nr_open is refused: keep
		 * what we have then */
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			(void)getrlimit(RLIMIT_NOFILE, &rl);
	}
	*limit = rl.rlim_cur == RLIM_INFINITY ? ULONG_MAX
					      : (unsigned long)rl.rlim_cur;
	if (env && *env) {
		if (decimal_parse(env, UINT32_MAX, &n) != 0 ||
		    n < FDBUDGET_MIN_CACHE)
			return -EINVAL;
		*cache = (unsigned int)n;
		return 0;
	}
	n = *limit / 2;
	if (n > FDBUDGET_MAX_CACHE)
		n = FDBUDGET_MAX_CACHE;
	if (n < FDBUDGET_MIN_CACHE)
		n = FDBUDGET_MIN_CACHE;
	*cache = (unsigned int)n;
	return 0;
}
