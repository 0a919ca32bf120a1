# todod: `make test` builds everything and runs the whole suite; `make run` starts the
# daemon in the foreground. Both install the Debian packages the build needs first.

SWIFT       ?= swift
PREFIX      ?= /usr/local
DESTDIR     ?=
CONFIG      ?= debug
# The compiler refuses an import a target did not declare: the module graph stays the architecture.
BUILD_FLAGS ?= --explicit-target-dependency-import-check error
# Packages the build and the tests need (tmux and socat drive the end-to-end tests).
APT_PACKAGES = pkg-config libsqlite3-dev libsystemd-dev tmux socat
SUDO        := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: all deps build test run clean

all: build

deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG) $(BUILD_FLAGS)

test: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build

run: build
	$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/todod

clean:
	rm -rf .build dist
