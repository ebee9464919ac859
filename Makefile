# Quick Start targets: each installs libmicrohttpd-dev first when it is missing.
.PHONY: run test deps check routes container-test bench

deps:
	@scripts/install-deps.sh

## Serve the shipped Stubs/ on http://127.0.0.1:8080
run: deps
	swift run stubd

## Build and run the whole test suite (unit and real-socket integration tests), then the
## example API clients in Examples/ against an in-process stubd
test: deps
	swift build --build-tests
	swift test --skip-build
	swift build --package-path Examples --build-tests
	swift test --package-path Examples --skip-build

check: deps
	swift run stubd check Stubs

routes: deps
	swift run stubd routes Stubs

## Build the container image with podman and smoke-test it (root; see scripts/container-test.sh)
container-test:
	scripts/container-test.sh
