# tablesight — the two commands a fresh Debian machine needs:
#   make demo   install missing packages, build, run the main job on a bundled sample
#   make test   install missing packages, build, run every test (ctest)
# Other targets: build, deps, install (PREFIX=/usr/local, DESTDIR for staging),
# sanitize (ASan+UBSan tests), fuzz (libFuzzer, brief), clean, train-deps (what
# the training tools in models/ need).

PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 20

# Debian packages the build, the tests and the live pipeline need.
PACKAGES = cmake make gcc g++ pkg-config \
  libopencv-core-dev libopencv-imgproc-dev libopencv-dnn-dev libturbojpeg0-dev libpng-dev libcjson-dev libx11-dev \
  libcairo2-dev fonts-dejavu-core \
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-ugly \
  gstreamer1.0-tools gstreamer1.0-x \
  libmicrohttpd-dev \
  libcmocka-dev libjpeg-turbo-progs xvfb x11-apps x11-utils python3 chromium clang libclang-rt-14-dev

.PHONY: demo test build deps train-deps install sanitize fuzz soak clean

# Debian packages only the training tools in models/ need (never the build,
# the tests or run time: the trained nets are committed).
TRAIN_PACKAGES = python3 python3-numpy python3-opencv python3-torch

# Installs the missing packages of the list $(1).
define install_missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install_missing,$(PACKAGES))

train-deps:
	$(call install_missing,$(TRAIN_PACKAGES))

build: deps
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
	cmake --build build -j $(JOBS)

# The main job on the bundled sample: scan the demo photos (JSON lines, annotated
# copies in build/demo/), then play the bundled clip through the live pipeline as
# a camera would be (in a window when $$DISPLAY is set).
demo: build
	./build/tablesight scan --annotate build/demo samples/demo/*.jpg
	@echo "annotated images: build/demo/"
	./build/tablesight run --source auto $$( [ -n "$$DISPLAY" ] || echo --headless ) \
	  --json --record build/demo/clip.mkv > build/demo/clip.jsonl
	@echo "annotated clip: build/demo/clip.mkv; $$(wc -l < build/demo/clip.jsonl) table changes (JSON lines): build/demo/clip.jsonl"

# PREFIX/bin/tablesight, PREFIX/share/tablesight/{models,samples}, man pages in
# PREFIX/share/man/man1. DESTDIR=/tmp/stage stages it (as packaging does).
install: build
	cmake --install build --prefix $(PREFIX)

test: build
	cd build && ctest --output-on-failure -j $(JOBS)

sanitize: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DTS_SANITIZE=ON
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -L 'rules|vision|render|daemon'

FUZZERS = $(basename $(notdir $(wildcard tests/fuzz/fuzz_*.c)))

# fuzz_http counts leaks at exit only, once the server has stopped:
# libmicrohttpd frees a finished connection later, on its own thread, so a
# count after each input can catch it mid-request (once, a stream's 192
# bytes, not reproducible by replaying the input).

fuzz: deps
	CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTS_FUZZ=ON
	cmake --build build-fuzz -j $(JOBS) --target $(FUZZERS)
	@for f in $(FUZZERS); do \
	  echo "fuzzing $$f for $(FUZZ_SECONDS) s"; \
	  mkdir -p build-fuzz/corpus/$$f; \
	  build-fuzz/tests/$$f -max_total_time=$(FUZZ_SECONDS) \
	    $$( [ $$f = fuzz_http ] && echo -detect_leaks=0 ) \
	    -max_len=$$( [ $$f = fuzz_image ] && echo 65536 || echo 4096 ) \
	    build-fuzz/corpus/$$f tests/fuzz/corpus/$$f > build-fuzz/$$f.log 2>&1 \
	    || { tail -40 build-fuzz/$$f.log; echo "$$f: FAILED"; exit 1; }; \
	  tail -1 build-fuzz/$$f.log; \
	done

clean:
	rm -rf build build-asan build-fuzz

# The long run (not in `make test`): SOAK_FRAMES frames of a 1280x720 clip at
# SOAK_FPS with every output and misbehaving clients; memory, descriptors and
# latency sampled every SOAK_EVERY s into build/soak.csv.
SOAK_FRAMES ?= 50000
SOAK_FPS ?= 60
SOAK_SOURCE ?= clip
soak: build
	SOAK_FRAMES=$(SOAK_FRAMES) SOAK_FPS=$(SOAK_FPS) SOAK_SOURCE=$(SOAK_SOURCE) SOAK_CSV=build/soak.csv \
	  python3 tests/cli/run_check.py longsoak build/tablesight . ../shared
