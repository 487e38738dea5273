// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "sandboxtime/signals.h"

static sigset_t forwarded;
static sigset_t original;

int st_signals_block(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };

	sigemptyset(&forwarded);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&forwarded, sigs[i]);
	return sigprocmask(SIG_BLOCK, &forwarded, &original) < 0 ? -1 : 0;
}

const sigset_t *st_signals_forwarded(void)
{
	return &forwarded;
}

int st_signals_poll(void)
{
	static const struct timespec zero = { 0, 0 };
	int sig = sigtimedwait(&forwarded, NULL, &zero);

	return sig > 0 ? sig : 0;
}

void st_signals_restore(void)
{
	sigprocmask(SIG_SETMASK, &original, NULL);
}

const char *st_signal_name(int signo)
{
	static char buf[16];
	const char *abbrev = sigabbrev_np(signo);

	if (!abbrev)
		return "signal";
	snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	return buf;
}
