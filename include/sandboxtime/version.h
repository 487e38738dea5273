/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_VERSION_H
#define SANDBOXTIME_VERSION_H

#ifndef ST_VERSION
#define ST_VERSION "0.2.0"
#endif

#endif
