/* SPDX-License-Identifier: MIT */
/* see nodump.h */
#include "base/nodump.h"

#include <errno.h>
#include <sys/prctl.h>
#include <sys/resource.h>

int process_no_dump(void)
{
	struct rlimit none = { 0, 0 };

	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 ||
	    setrlimit(RLIMIT_CORE, &none) != 0)
		return -errno;
	return 0;
}
