// SPDX-License-Identifier: MIT
/*
 * The config's hooks (runtime-spec "POSIX-platform Hooks"): each kind an
 * array of {path, args, env, timeout}, run in order with the container's
 * state on stdin; a failing prestart, createRuntime, createContainer or
 * startContainer hook fails the operation, poststart and poststop ones
 * only warn. Each is a timed step, "hook_KIND_N" (KIND in snake case). They run in the runtime's
 * namespaces (createContainer and startContainer too: see runtime.c).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/runtime.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"

static const char *const kinds[] = { "prestart", "createRuntime", "createContainer", "startContainer",
				     "poststart", "poststop" };
/* Their steps' names, in snake case as every step is (and short enough for a step's name). */
static const char *const step_names[] = { "prestart", "create_runtime", "create_container", "start_container",
					  "poststart", "poststop" };

int st_rt_hooks_check(json_t *hooks, const char *file, struct st_error *err)
{
	const char *kind;
	json_t *list, *h;
	size_t i;

	if (!json_is_object(hooks))
		return st_error_usage(err, "%s: .hooks: must be an object", file);
	json_object_foreach(hooks, kind, list) {
		size_t k = 0;

		while (k < ARRAY_SIZE(kinds) && strcmp(kinds[k], kind))
			k++;
		if (k == ARRAY_SIZE(kinds))
			return st_error_usage(err, "%s: .hooks: unknown kind \"%s\"", file, kind);
		if (!json_is_array(list))
			return st_error_usage(err, "%s: .hooks.%s: must be an array", file, kind);
		json_array_foreach(list, i, h) {
			const char *path = json_string_value(json_object_get(h, "path"));

			if (!path || path[0] != '/')
				return st_error_usage(err, "%s: .hooks.%s[%zu].path: must be an absolute path", file, kind, i);
		}
	}
	return 0;
}

/* A NULL-terminated vector of @a's strings (or of @fallback alone); free with st_strv_free. */
static char **strv(json_t *a, const char *fallback)
{
	size_t n = json_is_array(a) ? json_array_size(a) : 0, i;
	char **v = calloc(n + 2, sizeof(*v));
	json_t *s;

	if (!v)
		return NULL;
	if (!n && fallback)
		v[0] = strdup(fallback);
	json_array_foreach(a, i, s)
		v[i] = strdup(json_string_value(s) ?: "");
	return v;
}

/* One hook: fork, the state on a pipe as stdin, exec, wait (killed after its timeout). */
static int run_hook(json_t *h, const char *state, const char *where, struct st_error *err)
{
	const char *path = json_string_value(json_object_get(h, "path"));
	char **argv = strv(json_object_get(h, "args"), path);
	char **envp = strv(json_object_get(h, "env"), NULL);
	json_int_t timeout = json_integer_value(json_object_get(h, "timeout"));
	int in[2] = { -1, -1 }, status = 0, ret = 0;
	uint64_t deadline;
	pid_t pid;

	if (!argv || !envp || pipe2(in, O_CLOEXEC) < 0) {
		ret = st_error_set(err, errno ? errno : ENOMEM, "%s", where);
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		ret = st_error_set(err, errno, "%s: fork", where);
		goto out;
	}
	if (pid == 0) {
		st_signals_restore();
		dup2(in[0], 0);
		execve(path, argv, envp);
		_exit(127);
	}
	closep(&in[0]);
	/* The state is small: it fits the pipe, and a hook that does not read it cannot block us. */
	if (write(in[1], state, strlen(state)) < 0) {
		/* a hook may exit without reading it */
	}
	closep(&in[1]);
	deadline = timeout > 0 ? st_now_ns() + (uint64_t)timeout * 1000000000ull : 0;
	while (waitpid(pid, &status, deadline ? WNOHANG : 0) == 0) {
		if (st_now_ns() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			ret = st_error_set(err, ETIMEDOUT, "%s (%s): killed after its timeout of %lld s", where, path,
					   (long long)timeout);
			goto out;
		}
		usleep(2000);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		ret = st_error_set(err, EIO, "%s (%s) failed: %s %d", where, path,
				   WIFEXITED(status) ? "exit status" : "signal",
				   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
out:
	closep(&in[0]);
	closep(&in[1]);
	st_strv_free(argv);
	st_strv_free(envp);
	return ret;
}

int st_rt_hooks_run(const struct st_rt_state *s, const char *kind, struct st_steps *steps, struct st_error *err)
{
	json_t *list = s->hooks ? json_object_get(s->hooks, kind) : NULL, *h;
	_cleanup_free_ char *state = NULL;
	json_auto_t *doc = NULL;
	size_t i;

	if (!json_array_size(list))
		return 0;
	doc = st_rt_state_json(s);
	state = json_dumps(doc, JSON_COMPACT);
	if (!state)
		return st_error_set(err, ENOMEM, "hooks");
	size_t k = 0;

	while (k < ARRAY_SIZE(kinds) - 1 && strcmp(kinds[k], kind))
		k++;
	json_array_foreach(list, i, h) {
		char name[24], where[64];
		uint64_t t0 = st_now_ns();
		int ret;

		snprintf(name, sizeof(name), "hook_%s_%zu", step_names[k], i);
		snprintf(where, sizeof(where), "%s hook %zu", kind, i);
		ret = run_hook(h, state, where, err);
		if (ret < 0)
			return ret;
		st_steps_add(steps, name, st_now_ns() - t0);
	}
	return 0;
}
