# sandboxtime: one non-recursive Makefile. `make V=1` shows the commands.
#
# Everything but src/main.c goes into build/libsandboxtime.a, which the binary
# and every unit test link, so that tests reach the real code without exec.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=
BUILD ?= build
WERROR ?= 1

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
# SANITIZE=address,undefined builds everything with those sanitizers.
ifneq ($(SANITIZE),)
CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
endif
ST_CFLAGS := -std=c17 -D_GNU_SOURCE -Iinclude $(WFLAGS) -MMD -MP \
	     $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
ST_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm

ifeq ($(V),1)
Q :=
else
Q := @
endif

LIB_SRCS := $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJS := $(LIB_SRCS:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/seccomp_default.o
LIB := $(BUILD)/libsandboxtime.a
BIN := $(BUILD)/sandboxtime

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps demo check unit integration install uninstall clean bench
all: $(BIN)

$(BUILD)/obj/%.o: src/%.c
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

$(LIB): $(LIB_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(BUILD)/obj/main.o $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(ST_LIBS)

# Unit tests may wrap syscalls with -Wl,--wrap=NAME: a test file lists the
# names it wraps in a line "// WRAP: name name".
$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ST_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		$(patsubst %,-Wl$(,)--wrap=%,$(shell sed -n 's|^// WRAP: ||p' $<)) \
		$(LIB) $(ST_LIBS) $(shell pkg-config --libs cmocka 2>/dev/null)
, := ,

# Installs the Debian packages a target needs, then builds (fresh machines).
deps:
	$(Q)sh .ci/install-deps build

demo:
	$(Q)sh .ci/install-deps build
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh tests/demo.sh $(BIN)

check:
	$(Q)sh .ci/install-deps test
	$(Q)$(MAKE) --no-print-directory all unit-bins
	$(Q)bash tests/run.sh $(BUILD)

.PHONY: unit-bins
unit-bins: $(UNIT_BINS)

bench:
	$(Q)sh .ci/install-deps bench
	$(Q)$(MAKE) --no-print-directory all
	$(Q)bash bench/run.sh $(BIN)

# No setuid bit, ever: sandboxtime needs no privilege it does not already have.
install: $(BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/sandboxtime
	install -m 0644 man/sandboxtime.1 $(DESTDIR)$(MANDIR)/man1/sandboxtime.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/sandboxtime $(DESTDIR)$(MANDIR)/man1/sandboxtime.1

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJS:.o=.d) $(BUILD)/obj/main.d
