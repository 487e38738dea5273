// SPDX-License-Identifier: MIT
#include <errno.h>

#include "sandboxtime/clock.h"

void st_sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}
