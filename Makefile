# todod: `make test` builds everything and runs the whole suite; `make run` starts the
# daemon in the foreground. Both install the Debian packages the build needs first.

SWIFT       ?= swift
PREFIX      ?= /usr/local
DESTDIR     ?=
CONFIG      ?= debug
# The compiler refuses an import a target did not declare: the module graph stays the architecture.
BUILD_FLAGS ?= --explicit-target-dependency-import-check error
# Packages the build and the tests need (tmux and socat drive the end-to-end tests; sqlite3
# reads the database files as a user or another program would).
# systemd (systemd-socket-activate, the user manager) and dpkg-dev (dpkg-shlibdeps for `make deb`)
# serve the systemd and package tests; vim is the real terminal editor (vi) `todoctl edit` is tested with.
# Import and export are tested against the real programs: taskwarrior (task), python3-icalendar
# (reads what todod writes), radicale (a CalDAV server) and vdirsyncer. postgresql: the shared
# store's tests run a private PostgreSQL 15 (initdb, pg_ctl) on a Unix socket; openssl makes the
# throwaway CA and server certificate of its TLS tests.
APT_PACKAGES = pkg-config libsqlite3-dev libsystemd-dev tmux socat sqlite3 systemd dpkg-dev vim \
               taskwarrior python3-icalendar radicale vdirsyncer postgresql openssl
SUDO        := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: all deps build test run clean docs-check

# Installs those of the Debian packages $(1) that are missing (through sudo unless root).
define install-missing
	@missing=""; \
	for package in $(1); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
	fi
endef

all: build

deps:
	$(call install-missing,$(APT_PACKAGES))

build: deps
	$(SWIFT) build -c $(CONFIG) $(BUILD_FLAGS)

# The whole suite, the Debian package's tests included: `make deb` first (a release build,
# several minutes on 2 cores the first time), then every test with TODOD_DEB pointing at it.
# The shared store's end-to-end tests (private PostgreSQL servers, 10-second writer storms) run
# after the rest, on their own: together, each's load made the other's deadlines fail on 2 cores.
# The floods (tens of thousands of pipelined writes, a 10,000-change replay killed part way, logs
# of many MiB) run last, on their own too: beside the rest they starved other tests' clients.
SHARED_STORE_TESTS = EndToEndTests\.Postgres
FLOOD_TESTS        = EndToEndTests\.(BoundsTests|ReplayResumeTests|ByteBoundsTests)
test: deps deb fuzz-smoke
	$(SWIFT) build --build-tests --scratch-path $(SCRATCH) $(BUILD_FLAGS)
	TODOD_DEB=$(abspath $(DEB)) $(SWIFT) test --skip-build --scratch-path $(SCRATCH) --skip '$(SHARED_STORE_TESTS)' --skip '$(FLOOD_TESTS)'
	$(SWIFT) test --skip-build --scratch-path $(SCRATCH) --filter '$(SHARED_STORE_TESTS)'
	$(SWIFT) test --skip-build --scratch-path $(SCRATCH) --filter '$(FLOOD_TESTS)'

# Only the documentation's checks (also part of `make test`): the tours of README.md and docs/
# (their commands run against a fresh daemon and must print what the page shows), the links
# between the pages, and docs/ARCHITECTURE.md's module graph against Package.swift.
docs-check: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build --filter 'ReadmeTourTests|DocumentationLinkTests|ArchitectureGraphTests'

# `make run`: todod in the foreground, on the socket the environment names ($TODOD_SOCKET, else
# $XDG_RUNTIME_DIR/todod.sock, else /tmp/todod-$UID/todod.sock; the database as todod finds it).
# The socket is passed to todod explicitly, so the line printed for a second terminal names the
# one it listens on whatever the environment of that terminal. Ctrl-C reaches make as well as
# todod: todod stops cleanly and exits 0, and make then exits 130, as GNU make does when
# interrupted (nothing in a Makefile can keep make out of the terminal's process group).
run: build
	@bin=$$($(SWIFT) build -c $(CONFIG) --show-bin-path); \
	socket=$${TODOD_SOCKET:-$${XDG_RUNTIME_DIR:-/tmp/todod-$$(id -u)}/todod.sock}; \
	echo "todod and todoctl are in $$bin. To reach this todod from a second terminal:"; \
	echo "  export PATH=$$bin:\$$PATH TODOD_SOCKET=$$socket"; \
	echo "  todoctl add Buy milk"; \
	echo "Ctrl-C here stops todod cleanly (todod exits 0; make then reports the interrupt, status 130)."; \
	exec $$bin/todod --socket "$$socket"

clean:
	rm -rf .build dist

# ---- Install and package ------------------------------------------------------------------
# `make install [PREFIX=/usr/local] [DESTDIR=]` builds release binaries that carry the Swift
# runtime inside (--static-swift-stdlib: no Swift toolchain needed where they run) and installs
# them with the systemd user units, man pages and shell completions. `make install BINARIES=DIR`
# installs the todod and todoctl already built in DIR instead (the end-to-end tests do this).
# `make deb` packages a `make install PREFIX=/usr` into dist/todod_VERSION_ARCH.deb (packaging/).
SCRATCH       ?= .build
RELEASE_FLAGS  = -c release --static-swift-stdlib --scratch-path $(SCRATCH) $(BUILD_FLAGS)
BINARIES      ?=
BINARY_DIR     = $(or $(BINARIES),$(SCRATCH)/release)
GENERATED      = $(SCRATCH)/generated
BINDIR         = $(PREFIX)/bin
UNITDIR        = $(PREFIX)/lib/systemd/user
MANDIR         = $(PREFIX)/share/man/man1
BASHCOMPDIR    = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR     = $(PREFIX)/share/zsh/vendor-completions
FISHCOMPDIR    = $(PREFIX)/share/fish/vendor_completions.d
INSTALL_STRIP ?= -s
VERSION        = $(shell sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/TodoPaths/TodoVersion.swift)
DEB_ARCH       = $(shell dpkg --print-architecture)
DEB            = dist/todod_$(VERSION)_$(DEB_ARCH).deb
DEB_ROOT       = $(SCRATCH)/deb/root
# Man pages come from the argument parsers, through swift-argument-parser's generate-manual tool.
# Its `swift package generate-manual` plugin would rebuild every product in its own configuration
# (and overwrite the static release binaries), so the tool is built on its own and run on ours.
ARGUMENT_PARSER = $(SCRATCH)/checkouts/swift-argument-parser
MANUAL_TOOL    = $(SCRATCH)/tools/debug/generate-manual
MAN_DATE       = $(or $(shell git log -1 --format=%cs 2>/dev/null),$(shell date -u +%F))

.PHONY: release install uninstall man completions deb test-package

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product todod
	$(SWIFT) build $(RELEASE_FLAGS) --product todoctl

# The pages and the completions come from the argument parsers, which print the same help in any
# build: they are made from BINARIES when given, else from the release build when `make install`
# needs one anyway, else from the debug build `make build` and `make run` make (brought up to date,
# which after `make run` takes seconds), else from a release build `make release` made. So `make man`
# starts no release build when a debug one is there, and no second one when a release one is.
HELP_FROM_RELEASE = $(or $(filter install,$(MAKECMDGOALS)),$(if $(wildcard .build/$(CONFIG)/todoctl),,$(wildcard $(SCRATCH)/release/todoctl)))
HELP_BUILD        = $(if $(BINARIES),,$(if $(HELP_FROM_RELEASE),release,build))
HELP_BINARY_DIR   = $(or $(BINARIES),$(if $(HELP_FROM_RELEASE),$(SCRATCH)/release,.build/$(CONFIG)))

# In the pages, blank lines become paragraph breaks (.Pp), which mdoc wants; todod has no subcommands, so the
# `help` one that the generator lists for every root command goes. Read them before installing with
# `man -l .build/generated/man/todoctl.1`.
man: $(HELP_BUILD)
	test -d $(ARGUMENT_PARSER) || $(SWIFT) package --scratch-path $(SCRATCH) resolve
	$(SWIFT) build --package-path $(ARGUMENT_PARSER) --scratch-path $(SCRATCH)/tools --product generate-manual -Xswiftc -suppress-warnings
	mkdir -p $(GENERATED)/man
	set -e; for tool in todod todoctl; do \
		$(MANUAL_TOOL) $(HELP_BINARY_DIR)/$$tool --date $(MAN_DATE) --output-directory $(GENERATED)/man; \
		awk 'blank && !/^\./ && !/^$$/ { print ".Pp" } { blank = /^$$/ } !blank' $(GENERATED)/man/$$tool.1 > $(GENERATED)/man/$$tool.1.new; \
		mv $(GENERATED)/man/$$tool.1.new $(GENERATED)/man/$$tool.1; \
	done
	sed -i -e '/^\.Ar subcommand$$/d' -e '/^\.It Em help$$/,/^\.El$$/d' $(GENERATED)/man/todod.1

completions: $(HELP_BUILD)
	mkdir -p $(GENERATED)/completions
	set -e; for tool in todod todoctl; do \
		$(HELP_BINARY_DIR)/$$tool --generate-completion-script bash > $(GENERATED)/completions/$$tool.bash; \
		$(HELP_BINARY_DIR)/$$tool --generate-completion-script zsh > $(GENERATED)/completions/_$$tool; \
		$(HELP_BINARY_DIR)/$$tool --generate-completion-script fish > $(GENERATED)/completions/$$tool.fish; \
	done

install: man completions
	mkdir -p $(GENERATED)/units
	set -e; for unit in todod.service todod.socket; do \
		sed 's|@BINDIR@|$(BINDIR)|g' systemd/$$unit > $(GENERATED)/units/$$unit; \
	done
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(MANDIR) \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 0755 $(INSTALL_STRIP) $(BINARY_DIR)/todod $(BINARY_DIR)/todoctl $(DESTDIR)$(BINDIR)
	install -m 0644 $(GENERATED)/units/todod.service $(GENERATED)/units/todod.socket $(DESTDIR)$(UNITDIR)
	install -m 0644 $(GENERATED)/man/todod.1 $(GENERATED)/man/todoctl.1 $(DESTDIR)$(MANDIR)
	set -e; for tool in todod todoctl; do \
		install -m 0644 $(GENERATED)/completions/$$tool.bash $(DESTDIR)$(BASHCOMPDIR)/$$tool; \
		install -m 0644 $(GENERATED)/completions/_$$tool $(DESTDIR)$(ZSHCOMPDIR)/_$$tool; \
		install -m 0644 $(GENERATED)/completions/$$tool.fish $(DESTDIR)$(FISHCOMPDIR)/$$tool.fish; \
	done
	@echo "installed in $(DESTDIR)$(PREFIX); each user then runs: systemctl --user daemon-reload && systemctl --user enable --now todod.socket"

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/todod $(DESTDIR)$(BINDIR)/todoctl \
		$(DESTDIR)$(UNITDIR)/todod.service $(DESTDIR)$(UNITDIR)/todod.socket \
		$(DESTDIR)$(MANDIR)/todod.1 $(DESTDIR)$(MANDIR)/todoctl.1
	set -e; for tool in todod todoctl; do \
		rm -f $(DESTDIR)$(BASHCOMPDIR)/$$tool $(DESTDIR)$(ZSHCOMPDIR)/_$$tool $(DESTDIR)$(FISHCOMPDIR)/$$tool.fish; \
	done

deb: release
	rm -rf $(DEB_ROOT)
	$(MAKE) --no-print-directory install PREFIX=/usr DESTDIR=$(abspath $(DEB_ROOT)) BINARIES=$(SCRATCH)/release
	packaging/build-deb $(DEB_ROOT) $(VERSION) $(DEB)

# Just the package's own tests (SystemdPackageTests), on a fresh `make deb`; `make test` runs them too.
test-package: deb
	$(SWIFT) build --build-tests --scratch-path $(SCRATCH) $(BUILD_FLAGS)
	TODOD_DEB=$(abspath $(DEB)) $(SWIFT) test --skip-build --scratch-path $(SCRATCH) --filter SystemdPackageTests

# ---- Fuzzing ------------------------------------------------------------------------------
# `make fuzz [FUZZ_SECONDS=N]` runs libFuzzer (with AddressSanitizer) on the frame decoder
# for N seconds, from the seed frames in Tests/FuzzCorpus/frames; what it finds new goes to
# .build-fuzz/corpus. A crash leaves its input in crash-*: replay it with the plain build,
# `swift run todowire-fuzz crash-…`. `make fuzz-smoke` is the short run `make test` does.
FUZZ_SECONDS ?= 300
FUZZ_SCRATCH  = .build-fuzz
FUZZ_SWIFTC   = -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING

.PHONY: fuzz fuzz-smoke

fuzz:
	$(SWIFT) build --scratch-path $(FUZZ_SCRATCH) --product todowire-fuzz $(BUILD_FLAGS) $(FUZZ_SWIFTC)
	mkdir -p $(FUZZ_SCRATCH)/corpus
	$(FUZZ_SCRATCH)/debug/todowire-fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -print_final_stats=1 \
		$(FUZZ_SCRATCH)/corpus Tests/FuzzCorpus/frames

fuzz-smoke:
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=25

# ---- Benchmarks ---------------------------------------------------------------------------
# `make bench` builds todod, todoctl and todobench as `make release` builds them and runs
# todobench, which starts its own todod on a temporary socket and database and prints one
# table: each figure beside its comparison and goal (docs/PERFORMANCE.md); about 6 minutes.
# BENCH_FLAGS passes options to it, e.g. BENCH_FLAGS=--quick (a smoke run) or
# BENCH_FLAGS="--only 1,3 --runs 3".
# hyperfine times the whole todoctl processes; sqlite3 measures the storage ceiling;
# redis-server is the yardstick for reads and Taskwarrior (taskwarrior) for whole commands,
# both run by todobench on private files (Redis on a Unix socket of its own, no persistence;
# with `appendfsync always` for the durable writes); redis-cli (redis-tools) is the whole
# process that a `todoctl show` or `add` is held to.
# postgresql: the shared store's scenario (7) runs two todods on a private PostgreSQL 15 of
# its own (initdb and pg_ctl as the postgres user, a Unix socket in a temporary directory).
BENCH_PACKAGES = hyperfine sqlite3 redis-server redis-tools taskwarrior postgresql
BENCH_FLAGS   ?=

.PHONY: bench bench-check

bench: release
	$(call install-missing,$(BENCH_PACKAGES))
	$(SWIFT) build $(RELEASE_FLAGS) --product todobench
	$(SWIFT) build $(RELEASE_FLAGS) --product hello-static
	$(SCRATCH)/release/todobench $(BENCH_FLAGS)

# Keeps the figures from sliding back: the quick form of `make bench`, which exits 1 when a
# figure misses its goal (the ✗ rows are named at the end). Not part of `make test`: times
# do not belong in tests. Run it before you stop, on a machine as quiet as you can have.
bench-check:
	$(MAKE) --no-print-directory bench BENCH_FLAGS="--quick --check $(BENCH_FLAGS)"
