# Quick Start targets: each first installs what is missing of the five libraries and the tools (scripts/install-deps.sh).
.PHONY: run test test-mhd1 deps check routes container-test bench install deb deb-test readme-test conformance docs

PREFIX ?= /usr/local

# The release binary. On Linux the Swift runtime is linked in (as the Dockerfile does), so it runs
# where Swift is not installed: `ldd` names only system libraries. macOS has the runtime built in.
ifeq ($(shell uname -s),Linux)
RELEASE = -c release --static-swift-stdlib --product stubd
else
RELEASE = -c release --product stubd
endif

# make test compiles each module whole (one compiler job per module, its objects still one per file)
# into its own scratch path: a cold build takes 198 s here instead of 225 s, as every batch job of a
# plain debug build imports Foundation again; a plain `swift build` in .build is left as it was.
TEST_BUILD = --scratch-path .build/make-test -Xswiftc -wmo -Xswiftc -num-threads -Xswiftc $(shell getconf _NPROCESSORS_ONLN)

deps:
	@scripts/install-deps.sh

## Serve the shipped Stubs/ on http://127.0.0.1:8080
run: deps
	swift run stubd

## API documentation for StubdClient, StubServer and StubTesting (DocC, into .build/docs); fails on a
## DocC warning or a public symbol without a doc comment
docs: deps
	scripts/docs.sh

## Build and run the whole test suite (unit and real-socket integration tests) and its portable
## re-run, then the example API clients in Examples/ against an in-process stubd.
## The suite runs in three lanes at once, each one test at a time (scripts/test-suite.sh): many
## tests measure delays and deadlines, which Swift Testing's in-process parallelism stretches.
test: deps
	swift build --build-tests $(TEST_BUILD)
	scripts/test-suite.sh .build/make-test
	# Examples is its own package, built in the same scratch path: the stubd modules it uses are
	# the ones just built (18 s instead of 97 s cold), and the root build stays up to date.
	swift build --package-path Examples --build-tests $(TEST_BUILD)
	swift test --package-path Examples --scratch-path .build/make-test --skip-build --no-parallel --skip SessionIsolationTests
	# Twenty tests at once, each in its own session of the `.stubServer` trait (bench/trait-isolation.sh runs it 100 times).
	swift test --package-path Examples --scratch-path .build/make-test --skip-build --filter SessionIsolationTests

## The same suite and portable re-run against libmicrohttpd 1.0.1 (what macOS users get from
## Homebrew), built from ../shared/vendor into .build/; says so and skips without it (under CI=true, fails when ../shared is there without it)
test-mhd1: deps
	scripts/test-mhd1.sh

check: deps
	swift run stubd check Stubs

routes: deps
	swift run stubd routes Stubs

## The JSON Schema Test Suite and real OpenAPI documents from ../shared/corpus (see bench/conformance.py);
## says so and skips without it (under CI=true, fails when ../shared is there without it)
conformance: deps
	python3 bench/conformance.py

## Build the container image with podman and smoke-test it (root; see scripts/container-test.sh)
container-test:
	scripts/container-test.sh

## Build the release binary and install it as $(PREFIX)/bin/stubd with its man page and bash, zsh
## and fish completions under $(PREFIX)/share (PREFIX defaults to /usr/local; PREFIX=$$HOME/.local
## needs no root; see scripts/install-tree.sh for the paths)
install: deps
	swift build $(RELEASE)
	scripts/install-tree.sh "$$(swift build $(RELEASE) --show-bin-path)/stubd" "$(DESTDIR)" "$(PREFIX)"

## Build .build/deb/stubd_VERSION_ARCH.deb (Debian, Ubuntu; needs dpkg-dev): the binary above, its
## man page and completions, the shipped Stubs as examples, Depends from dpkg-shlibdeps
deb: deps
	swift build $(RELEASE)
	scripts/make-deb.sh "$$(swift build $(RELEASE) --show-bin-path)/stubd"

## Install that .deb with apt in a clean debian:bookworm container and try it (root; see scripts/deb-test.sh)
deb-test: deb
	scripts/deb-test.sh

## Run the README's shell blocks in order in a fresh clone (see scripts/readme-test.sh)
readme-test:
	scripts/readme-test.sh
