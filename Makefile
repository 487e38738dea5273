# sandboxtime: one non-recursive Makefile. `make V=1` shows the commands.
#
# Everything but src/main.c goes into build/libsandboxtime.a, which the binary
# and every unit test link, so that tests reach the real code without exec.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/sandboxtime
LIBEXECDIR ?= $(PREFIX)/libexec/sandboxtime
DESTDIR ?=
WERROR ?= 1
, := ,
# SANITIZE=address,undefined builds everything with those sanitizers, into a
# build directory of its own (build-asan for address,undefined), so that its
# objects never mix with the normal build's.
san_build = $(if $(filter address$(,)undefined,$(1)),build-asan,build-san-$(subst $(,),-,$(1)))
ifneq ($(SANITIZE),)
BUILD ?= $(call san_build,$(SANITIZE))
else
BUILD ?= build
endif

PKGS := libmnl libcap libseccomp jansson
CC ?= gcc
CFLAGS ?= -O2 -g
WFLAGS := -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wmissing-declarations \
	  -Wold-style-definition -Wformat=2 -Wshadow -Wno-unused-parameter \
	  -Wno-format-truncation
# (error messages are cut to a fixed buffer on purpose: see error.h)
ifeq ($(WERROR),1)
WFLAGS += -Werror
endif
# Every sanitizer finding aborts the run (-fno-sanitize-recover): a UBSan
# report that lets the program go on would not fail a test.
ifneq ($(SANITIZE),)
CFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
endif
ST_CFLAGS := -std=c17 -D_GNU_SOURCE -Iinclude $(WFLAGS) -MMD -MP -DST_LIBEXECDIR='"$(LIBEXECDIR)"' \
	     $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
ST_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
# The binary links libcap, libseccomp and jansson statically (their -dev
# packages ship the .a): each shared library costs every launch an open, a
# few mmaps and its relocations in the dynamic loader (LD_DEBUG=statistics:
# 198k cycles at startup with all six, 117k with three). libmnl ships no
# archive, and libc/libm stay shared. Unit tests keep ST_LIBS: their
# -Wl,--wrap would otherwise reach into the libraries' own calls.
# -z now: the symbols are bound once, at startup, instead of lazily in each of
# the three processes a launch forks from this image (sandboxtime, the
# sandbox's child, the init's workload), where every first call paid the
# resolver and a copy-on-write fault of the GOT (sethostname, the child's
# first libc call, took 28 µs lazily and 8 µs bound; a launch 5% less at p5).
STATIC_PKGS := libcap libseccomp jansson
ST_BIN_LIBS := -Wl,-z,now -Wl,-Bstatic $(shell pkg-config --libs --static $(STATIC_PKGS) 2>/dev/null) -Wl,-Bdynamic \
	       $(shell pkg-config --libs $(filter-out $(STATIC_PKGS),$(PKGS)) 2>/dev/null) -lm

# The flags a build directory holds objects of: every object depends on this
# file, rewritten only when the flags change, so new flags rebuild everything
# instead of mixing objects; tests/run.sh reads SANITIZE= from it.
FLAGS_FILE := $(BUILD)/build-flags
FLAGS_NOW := CC=$(CC) CFLAGS=$(CFLAGS) LDFLAGS=$(LDFLAGS) SANITIZE=$(SANITIZE)
ifeq ($(filter clean,$(MAKECMDGOALS)),)
$(shell mkdir -p $(BUILD) && { [ "$$(cat $(FLAGS_FILE) 2>/dev/null)" = '$(FLAGS_NOW)' ] || \
	printf '%s\n' '$(FLAGS_NOW)' >$(FLAGS_FILE); })
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

# Sources sit in one folder per concern (src/cmd, src/net, ...; README's
# Layout names them); every .c under src/ but main.c, src/probe/ and
# src/buildtool/ (programs of their own, below) is part of the library.
LIB_SRCS := $(filter-out src/main.c src/probe/% src/buildtool/%,$(sort $(wildcard src/*.c src/*/*.c)))
LIB_OBJS := $(LIB_SRCS:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/seccomp_default.o
LIB := $(BUILD)/libsandboxtime.a
BIN := $(BUILD)/sandboxtime

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

# sandboxtime-probe, the programs of `bench where`: one static binary that
# runs unchanged on the host, in the sandbox, as a microVM's /init and under
# qemu-user. Built for the host, and for aarch64 where Debian's cross
# compiler can link a static program. Never sanitized: a sanitizer's runtime
# does not run as pid 1 of a bare kernel. sandboxtime looks for it beside its
# own binary, then in LIBEXECDIR.
PROBE_SRC := src/probe/where_probe.c
PROBE_CFLAGS := -std=c17 -D_GNU_SOURCE -O2 -static $(WFLAGS)
CROSS_CC_AARCH64 ?= aarch64-linux-gnu-gcc
PROBE_AARCH64 := $(BUILD)/sandboxtime-probe-aarch64
PROBES := $(BUILD)/sandboxtime-probe $(BUILD)/probe-aarch64.stamp

.PHONY: all deps demo check check-full unit integration install uninstall clean bench
all: $(BIN) $(PROBES)

$(BUILD)/sandboxtime-probe: $(PROBE_SRC) Makefile
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (static)")
	$(Q)$(CC) $(PROBE_CFLAGS) -o $@ $<

# The aarch64 probe is optional: a cross compiler without its C library
# (gcc-aarch64-linux-gnu without libc6-dev-arm64-cross, common where kernels
# are cross-built) fails on its first #include. So the compiler must first
# link a small static program; if it cannot, the build says in one line why
# the probe is skipped, and goes on (bench where then reports the column
# unavailable). The stamp keeps the try from running on every make.
$(BUILD)/probe-aarch64.stamp: $(PROBE_SRC) Makefile
	@mkdir -p $(dir $@)
	$(Q)rm -f $(PROBE_AARCH64) $@.try; \
	if ! command -v $(CROSS_CC_AARCH64) >/dev/null 2>&1; then \
		echo "  SKIP    $(notdir $(PROBE_AARCH64)): no $(CROSS_CC_AARCH64) on PATH (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"; \
	elif ! printf 'int main(void) { return 0; }\n' | $(CROSS_CC_AARCH64) -static -x c -o $@.try - >/dev/null 2>&1; then \
		echo "  SKIP    $(notdir $(PROBE_AARCH64)): $(CROSS_CC_AARCH64) cannot link a static program (is libc6-dev-arm64-cross installed?)"; \
	else \
		$(if $(Q),echo "  CC      $< (static, aarch64)";) \
		$(CROSS_CC_AARCH64) $(PROBE_CFLAGS) -o $(PROBE_AARCH64) $< || exit 1; \
	fi; rm -f $@.try; touch $@

$(BUILD)/obj/%.o: src/%.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ST_CFLAGS) $(CFLAGS) -c -o $@ $<

# The default seccomp profile is part of the binary, so that a copy of it
# anywhere (rootless tests run one from /tmp) needs no data file: od(1) turns
# the JSON into a C array.
$(BUILD)/gen/seccomp_default.c: configs/seccomp/default.json
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q){ echo '/* Generated from $< by the Makefile: do not edit. */'; \
	  echo '#include "sandboxtime/seccomp_filter.h"'; \
	  echo 'const char st_seccomp_default_json[] = {'; \
	  od -An -v -tx1 $< | sed 's/[0-9a-f][0-9a-f]/0x&,/g'; \
	  echo '0x00 };'; \
	  echo 'const size_t st_seccomp_default_json_len = sizeof(st_seccomp_default_json) - 1;'; \
	} > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ST_CFLAGS) $(CFLAGS) -c -o $@ $<

# The default profile's program, compiled at build time for Docker's
# capabilities by sandboxtime-seccomp-gen (src/buildtool/seccomp_gen.c, the
# library's own compiler) and carried in the binary, so that no run reads a
# compiled program from a file a workload could have rewritten. It is not
# part of the library (the generator links the library, with no program:
# seccomp_builtin_none.c); the binary, the fault build and the unit tests
# link it beside the library.
SECCOMP_GEN := $(BUILD)/sandboxtime-seccomp-gen
BUILTIN_OBJ := $(BUILD)/obj/gen/seccomp_builtin.o
$(BUILD)/obj/buildtool/%.o: src/buildtool/%.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ST_CFLAGS) $(CFLAGS) -c -o $@ $<

$(SECCOMP_GEN): $(BUILD)/obj/buildtool/seccomp_gen.o $(BUILD)/obj/buildtool/seccomp_builtin_none.o $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(ST_BIN_LIBS)

$(BUILD)/gen/seccomp_builtin.c: $(SECCOMP_GEN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)$(SECCOMP_GEN) > $@.tmp && mv $@.tmp $@

$(LIB): $(LIB_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

# Makefile too: the link flags (ST_BIN_LIBS) live here, outside build-flags.
$(BIN): $(BUILD)/obj/main.o $(BUILTIN_OBJ) $(LIB) Makefile
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(BUILD)/obj/main.o $(BUILTIN_OBJ) $(LIB) $(ST_BIN_LIBS)

# The same program with fault injection compiled in (SANDBOXTIME_FAULT=STEP,
# see steps.h), for tests/integration/faults.sh only; never installed.
# Only the sources that run a step (ST_TIMED_STEP, st_fault) or define the
# injection differ with -DSANDBOXTIME_FAULTS (steps.h); every other object is
# the normal build's, so make check compiles a dozen files again, not all.
FAULT_SRCS := $(shell grep -lE 'ST_TIMED_STEP|st_fault|SANDBOXTIME_FAULTS' $(LIB_SRCS) src/main.c)
FAULT_OBJS := $(foreach o,$(LIB_OBJS) $(BUILD)/obj/main.o $(BUILTIN_OBJ),$(if $(filter $(o:$(BUILD)/obj/%.o=src/%.c),$(FAULT_SRCS)),$(o:$(BUILD)/obj/%=$(BUILD)/obj-faults/%),$(o)))
FAULT_BIN := $(BUILD)/sandboxtime-faults

$(BUILD)/obj-faults/%.o: src/%.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $< (faults)")
	$(Q)$(CC) $(ST_CFLAGS) $(CFLAGS) -DSANDBOXTIME_FAULTS -c -o $@ $<

$(BUILD)/obj-faults/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ST_CFLAGS) $(CFLAGS) -DSANDBOXTIME_FAULTS -c -o $@ $<

$(FAULT_BIN): $(FAULT_OBJS) Makefile
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(FAULT_OBJS) $(ST_BIN_LIBS)

.PHONY: fault-bin
fault-bin: $(FAULT_BIN)

# Unit tests may wrap syscalls with -Wl,--wrap=NAME: a test file lists the
# names it wraps in a line "// WRAP: name name".
$(BUILD)/tests/%: tests/unit/%.c $(BUILTIN_OBJ) $(LIB) $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ST_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		$(patsubst %,-Wl$(,)--wrap=%,$(shell sed -n 's|^// WRAP: ||p' $<)) \
		$(BUILTIN_OBJ) $(LIB) $(ST_LIBS) $(shell pkg-config --libs cmocka 2>/dev/null)

# Installs the Debian packages a target needs, then builds (fresh machines).
deps:
	$(Q)sh .ci/install-deps build

demo:
	$(Q)sh .ci/install-deps build
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh tests/demo.sh $(BIN)

# `make check` builds the normal build, runs the whole suite on it, and
# meanwhile makes a build with CHECK_SANITIZE (ASan+UBSan,
# LeakSanitizer on; empty: skip it), the unit tests and the suites that parse
# input, handle errors or write reports (CHECK_SANITIZE_SUITES): the rest
# (benches, soak, random signals, the engines, the build-independent lint,
# layout, help_man and build) once. One summary line over all of it.
# `make check-full` runs every suite on both builds, for a nightly run or a
# release. `make check SANITIZE=...` runs the suite on that sanitized build alone.
CHECK_SANITIZE ?= address,undefined
CHECK_SANITIZE_SUITES ?= bad_input,exit_codes,config,rootfs,compare,report_json,csv_sections,render,faults,security,runtime,layers_prom,orphans,degrade,cgroup,sandbox_inside,signals_and_leaks
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# The sanitized build is made at a low priority while the normal build's
# suites run (tests/run.sh starts its suites once its make-status says it is
# made): it takes the time the suites leave idle instead of a minute first.
SAN_CHECK_BUILD = $(call san_build,$(CHECK_SANITIZE))
check check-full:
	$(Q)sh .ci/install-deps test
	$(Q)$(MAKE) --no-print-directory -j$(CHECK_JOBS) all unit-bins fault-bin
ifeq ($(SANITIZE)-$(if $(CHECK_SANITIZE),y),-y)
	$(Q)mkdir -p $(SAN_CHECK_BUILD) && rm -f $(SAN_CHECK_BUILD)/make-status && \
	( nice -n 10 $(MAKE) --no-print-directory -j$(CHECK_JOBS) BUILD=$(SAN_CHECK_BUILD) \
		SANITIZE=$(CHECK_SANITIZE) all unit-bins fault-bin >$(SAN_CHECK_BUILD)/make.log 2>&1; \
	  echo $$? >$(SAN_CHECK_BUILD)/make-status ) & \
	ST_WAIT_BUILDS=$(SAN_CHECK_BUILD) bash tests/run.sh $(BUILD) \
		$(SAN_CHECK_BUILD)$(if $(filter check,$@),:$(CHECK_SANITIZE_SUITES)); rc=$$?; wait; exit $$rc
else
	$(Q)bash tests/run.sh $(BUILD)
endif

# Small programs the integration suites run (tests/helpers/*.c), built with
# the unit tests: no_userns runs a command under a seccomp filter that
# refuses user namespaces (tests/integration/degrade.sh).
HELPER_BINS := $(patsubst tests/helpers/%.c,$(BUILD)/test-helpers/%,$(wildcard tests/helpers/*.c))
$(BUILD)/test-helpers/%: tests/helpers/%.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ST_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(shell pkg-config --libs libseccomp 2>/dev/null)

.PHONY: unit-bins
unit-bins: $(UNIT_BINS) $(HELPER_BINS)

# The full soak of issue 7: 2,000 sandboxes with --net=veth per mode (root,
# then nobody; 1,000 one after the other, 1,000 two at a time), counted in a
# user namespace of their own (tests/py/soak.py). `make check` runs 200.
SOAK_RUNS ?= 2000
.PHONY: soak
soak:
	$(Q)sh .ci/install-deps test
	$(Q)$(MAKE) --no-print-directory all
	$(Q)SOAK_RUNS=$(SOAK_RUNS) bash tests/integration/soak.sh $(BIN) | tee $(BUILD)/soak.log
	$(Q)! grep -q '^not ok' $(BUILD)/soak.log

# Every unit test under valgrind (build/ only: valgrind cannot run ASan
# binaries); a definite leak or any memory error fails it. Not part of check.
VALGRIND := valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1
.PHONY: valgrind
valgrind:
	$(Q)sh .ci/install-deps valgrind
	$(Q)$(MAKE) --no-print-directory unit-bins
	$(Q)failed=0; for t in $(UNIT_BINS); do \
		if CMOCKA_MESSAGE_OUTPUT=TAP $(VALGRIND) $$t >$$t.valgrind 2>&1; then \
			echo "valgrind ok     $$t"; \
		else \
			echo "valgrind FAILED $$t:"; sed 's/^/  /' $$t.valgrind; failed=$$((failed + 1)); \
		fi; \
	done; echo "valgrind: $(words $(UNIT_BINS)) unit test binaries, $$failed failed"; [ $$failed -eq 0 ]

# Every script whose figures BENCHMARKS.md and docs/bench-notes/results.md quote
# (bench/all.sh: as root, hours on 2 CPUs), then both pages rendered again.
bench:
	$(Q)sh .ci/install-deps bench
	$(Q)$(MAKE) --no-print-directory all
	$(Q)bash bench/all.sh $(BIN)

# libFuzzer targets (fuzz/fuzz_*.c), one per parser of outside input, built
# with clang into build-fuzz/: libFuzzer does not mix with gcc's objects, so
# src/*.c but main.c is compiled again with clang. Each target runs for
# FUZZ_SECONDS on its seeds (fuzz/corpus/TARGET, read only) plus what it
# found before (build-fuzz/corpus/TARGET); a crash is saved to
# build-fuzz/crashes/ and fails the run. A target's own libFuzzer flags, if
# any, are in fuzz/TARGET.flags (and its dictionary in fuzz/TARGET.dict).
# Not part of check.
FUZZ_CC ?= $(firstword $(shell command -v clang-14 clang 2>/dev/null) clang-14)
FUZZ_SECONDS ?= 60
FUZZ_BUILD := build-fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c17 -D_GNU_SOURCE -Iinclude -Wall -Wextra -Werror -Wno-unused-parameter \
	       -O1 -g $(FUZZ_SAN) $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
FUZZ_TARGETS := $(patsubst fuzz/%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/%)
FUZZ_OBJS := $(LIB_SRCS:src/%.c=$(FUZZ_BUILD)/obj/%.o) $(FUZZ_BUILD)/obj/gen/seccomp_default.o \
	     $(FUZZ_BUILD)/obj/buildtool/seccomp_builtin_none.o

$(FUZZ_BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CLANG   $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

# The embedded default profile, generated as for the normal build.
$(FUZZ_BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CLANG   $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(FUZZ_OBJS)
	@$(if $(Q),echo "  CLANG   $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(ST_LIBS)

.PHONY: fuzz fuzz-bins
.SECONDARY: $(FUZZ_OBJS)
fuzz-bins: $(FUZZ_BINS)
fuzz:
	$(Q)sh .ci/install-deps fuzz
	$(Q)$(MAKE) --no-print-directory fuzz-bins
	$(Q)rm -f $(FUZZ_BUILD)/summary
	$(Q)failed=0; for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/crashes; \
		dict=; [ -f fuzz/$$t.dict ] && dict=-dict=fuzz/$$t.dict; \
		flags=; [ -f fuzz/$$t.flags ] && flags=$$(cat fuzz/$$t.flags); \
		echo "  FUZZ    $$t ($(FUZZ_SECONDS) s) $$flags"; \
		if $(FUZZ_BUILD)/$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $$dict $$flags \
			-artifact_prefix=$(FUZZ_BUILD)/crashes/$$t- \
			$(FUZZ_BUILD)/corpus/$$t fuzz/corpus/$$t >$(FUZZ_BUILD)/$$t.log 2>&1; then r=ok; \
		else r=CRASH; failed=$$((failed + 1)); tail -n 40 $(FUZZ_BUILD)/$$t.log; fi; \
		execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_BUILD)/$$t.log); \
		echo "$$t $(FUZZ_SECONDS)s $${execs:-?} execs $$r" | tee -a $(FUZZ_BUILD)/summary; \
	done; [ $$failed -eq 0 ]

# No setuid bit, ever: sandboxtime needs no privilege it does not already have.
# Every page under man/ is installed: a new sandboxtime-*.1 or *.7 needs no line here.
# docs/DESIGN.md too, in DOCDIR: the pages point to it for the contract and the design.
MAN1 := $(sort $(wildcard man/*.1))
MAN7 := $(sort $(wildcard man/*.7))

install: $(BIN) $(PROBES)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(LIBEXECDIR)
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/sandboxtime
	install -m 0755 $(BUILD)/sandboxtime-probe $(DESTDIR)$(LIBEXECDIR)/
	[ ! -e $(PROBE_AARCH64) ] || install -m 0755 $(PROBE_AARCH64) $(DESTDIR)$(LIBEXECDIR)/
	install -m 0644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	$(if $(MAN7),install -d $(DESTDIR)$(MANDIR)/man7 && install -m 0644 $(MAN7) $(DESTDIR)$(MANDIR)/man7/)
	install -d $(DESTDIR)$(DOCDIR)
	install -m 0644 docs/DESIGN.md $(DESTDIR)$(DOCDIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/sandboxtime $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
	      $(addprefix $(DESTDIR)$(MANDIR)/man7/,$(notdir $(MAN7)))
	rm -rf $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(DOCDIR)

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJS:.o=.d) $(BUILD)/obj/main.d $(BUILD)/obj/buildtool/seccomp_gen.d $(FAULT_OBJS:.o=.d) $(FUZZ_OBJS:.o=.d)
