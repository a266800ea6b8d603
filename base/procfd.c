/* SPDX-License-Identifier: MIT */
/* see procfd.h */
#include "base/procfd.h"

#include <stdio.h>

void procfd_path(int fd, char buf[PROCFD_LEN])
{
	snprintf(buf, PROCFD_LEN, "/proc/self/fd/%d", fd);
}
