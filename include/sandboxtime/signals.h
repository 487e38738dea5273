/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SIGNALS_H
#define SANDBOXTIME_SIGNALS_H

#include <signal.h>

/*
 * sandboxtime never runs code in a signal handler: the signals it forwards or
 * stops on stay blocked from the start, are polled between measurements and
 * read from a signalfd while the workload runs. Children inherit the blocked
 * mask; the workload gets the caller's original mask back just before exec.
 */

/* Blocks the forwarded signals; saves the original mask for the workload. */
int st_signals_block(void);

/* The set sandboxtime forwards to the workload (and stops on while measuring). */
const sigset_t *st_signals_forwarded(void);

/* A pending forwarded signal, consumed, or 0. Never blocks. */
int st_signals_poll(void);

/* Restores the mask the caller had (in a child, before exec). */
void st_signals_restore(void);

/* Name for the report: "SIGTERM". */
const char *st_signal_name(int signo);

#endif
