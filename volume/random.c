/* SPDX-License-Identifier: MIT */
/* see random.h */
#include "volume/random.h"

#include <errno.h>
#include <stdint.h>
#include <sys/random.h>

int random_bytes(void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		/* blocks until the pool is initialised; short reads happen
		 * above 256 bytes or on a signal */
		ssize_t n = getrandom(p, len, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
