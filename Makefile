# ttchess — GNU make build.  SPDX-License-Identifier: GPL-3.0-or-later
#
#   make              build build/ttchess, build/libttchess.a and the web
#                     client (web/dist)
#   make run          build everything and start the web server on
#                     http://127.0.0.1:8080 (database data/ttchess.db)
#   make play         play a game in the terminal instead
#   make test         unit, perft, CLI, play, API, browser, WebAssembly
#                     (test-wasm) and fuzz-corpus tests; the server on
#                     PostgreSQL (test-postgres), its crash test
#                     (test-crash), the server under abuse
#                     (test-abuse), a few seconds of libFuzzer on
#                     the server's input (fuzz-quick); then the unit tests
#                     again under ASan+UBSan
#   make CC=clang test   the same with clang (in build-clang/)
#   make perft-long   the deep perft counts
#   make bench        speed against Stockfish (built with -march=native), the
#                     WebAssembly build's perft against the portable one
#                     (bench/wasm-speed.sh), the engine's node signature
#                     (ttchess bench), and a short
#                     run of the server under load (bench/load.sh; make
#                     bench-load for the README's longer one)
#   make match        a few games of the engine against each opponent of
#                     bench/match.sh (the full run: bench/match.sh, an hour)
#   make tune-chess   fit the chess evaluation's weights to positions
#                     Stockfish labelled (bench/tune-chess.sh, 20 minutes)
#   make fuzz         run every libFuzzer harness for FUZZ_SECONDS (clang)
#   make magics       search the slider magic numbers again
#
# A build for one compiler and one set of flags lives in one folder, so
# that gcc, clang, sanitizer and benchmark builds never mix their objects.

CC      ?= cc
CSTD    := -std=c11
WARN    := -Wall -Wextra -Werror
# Portable by default: a built binary runs on any x86-64.  Only "make
# bench" adds -march=native.
OPT     ?= -O2
CFLAGS  ?=
# The layers, lowest first: each folder of src/ is one, and its files see
# only the include folders of their own layer and of the layers below it,
# so that nothing reaches up (docs/design.md draws them; check-layers also
# checks the calls).  The history is the game record and its timelines,
# with the interface every game implements, its options and its outcomes;
# the variants are the games, a folder each; the record is the file formats.
LAYERS := core history variants record engine server cli
# A layer's own include folders besides src/<layer>.
LAYER_DIRS_server := -I/usr/include/postgresql
# LAYER_INC_core is -Isrc/core, LAYER_INC_history that and -Isrc/history,
# and so on up: each layer's folders with those of every layer below it.
$(foreach l,$(LAYERS),$(eval LAYER_INC_$(l) := $(LAYER_INC_$(below)) -Isrc/$(l) $(LAYER_DIRS_$(l)))$(eval below := $(l)))
# Every game's folder, and a game from outside src/variants (make
# GAME_DIR_EXTRA=DIR, a build folder of its own; tests/toy_game) with the
# header that names it: seen by the variants layer alone, not by the
# layers above it, which reach a game only through its Variant table (a
# game's header included anywhere else does not compile).
GAME_DIRS := $(patsubst %/,-I%,$(wildcard src/variants/*/)) \
    $(if $(GAME_DIR_EXTRA),-I$(GAME_DIR_EXTRA) -DTTCHESS_GAME_EXTRA='"$(notdir $(GAME_DIR_EXTRA))_variants.h"')
LAYER_INC_variants += $(GAME_DIRS)
# The WebAssembly build's exports (src/wasm): a top layer like the CLI,
# but beside the server and the CLI rather than above them: it sits on the
# engine (and so on every layer below it) and on nothing else.  The
# native build compiles it too, so that check-layers reads its objects
# and every compiler checks its code; check-layers takes it as
# "wasm:engine".
SIDE_LAYERS := wasm:engine
SIDE_LAYER_NAMES := $(foreach s,$(SIDE_LAYERS),$(firstword $(subst :, ,$(s))))
LAYER_INC_wasm := $(LAYER_INC_engine) -Isrc/wasm
# Whatever sits on top of every layer: tests, fuzz harnesses, bench tools;
# the tests read the games' own headers too.
INCLUDES := $(LAYER_INC_cli) $(GAME_DIRS)
# The engine's threads (Lazy SMP) and its reductions (log).
LDLIBS  := -pthread -lm
ALL_CFLAGS = $(CSTD) $(WARN) $(OPT) $(CFLAGS) $(INCLUDES) -D_POSIX_C_SOURCE=200809L
# A layer's own objects: its include folders instead of all of them.
LAYER_CFLAGS = $(CSTD) $(WARN) $(OPT) $(CFLAGS) $(LAYER_INC) -D_POSIX_C_SOURCE=200809L

ifeq ($(origin CC),default)
BUILD   ?= build
else
BUILD   ?= build-$(notdir $(CC))
endif

# The Debian packages the compiler needs, as PACKAGE:FILE (FILE proves it is there).
ifneq ($(findstring clang,$(CC)),)
COMPILER_PACKAGES := clang:/usr/bin/clang libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.asan-x86_64.a
else
COMPILER_PACKAGES := gcc:/usr/bin/gcc
endif

ASAN_OPT := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_BUILD := $(BUILD)-asan

LIB_SRC := $(filter-out src/core/tables_gen.c,$(wildcard src/core/*.c src/history/*.c src/variants/*.c src/variants/*/*.c $(GAME_DIR_EXTRA:%=src/../%/*.c) src/record/*.c src/engine/*.c))
CLI_SRC := $(wildcard src/cli/*.c)
WASM_SRC := $(wildcard src/wasm/*.c)
# The web server (ttchess serve): a layer over the library, linked into
# the one ttchess program, with the Debian libraries it needs.
SERVER_SRC := $(wildcard src/server/*.c)
SERVER_LIBS := -lmicrohttpd -ljansson -lsqlite3 -lpq -lsodium -lz -lcurl
SERVER_PACKAGES := zlib1g-dev:/usr/include/zlib.h libmicrohttpd-dev:/usr/include/microhttpd.h libjansson-dev:/usr/include/jansson.h \
    libsqlite3-dev:/usr/include/sqlite3.h libsodium-dev:/usr/include/sodium.h curl:/usr/bin/curl \
    libpq-dev:/usr/include/postgresql/libpq-fe.h libcurl4-openssl-dev:/usr/include/x86_64-linux-gnu/curl/curl.h
LIB_OBJ := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/tables.o
CLI_OBJ := $(CLI_SRC:src/%.c=$(BUILD)/obj/%.o) $(SERVER_SRC:src/%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
# Independent implementations of the rules files, for tests/rules-compare.sh.
REF_SRC := $(wildcard tests/ref/*_ref.c)
REF_BIN := $(REF_SRC:tests/ref/%_ref.c=$(BUILD)/tests/%-ref)
TOOL_BIN := $(BUILD)/tests/random-game $(BUILD)/tests/rules-dump $(REF_BIN)
HEADERS := $(wildcard src/*/*.h src/variants/*/*.h $(GAME_DIR_EXTRA:%=%/*.h))
FUZZ_SRC := $(wildcard fuzz/fuzz_*.c)
FUZZ_NAMES := $(FUZZ_SRC:fuzz/%.c=%)
FUZZ_SECONDS ?= 60

.PHONY: all run play web test test-unit check-layers test-web test-wasm test-postgres test-crash test-abuse bench-load tune-chess fuzz-quick screenshots perft-long bench match deps compiler clean magics fuzz fuzz-build

all: $(BUILD)/ttchess $(BUILD)/libttchess.a web

compiler:
	@./scripts/ensure-packages $(COMPILER_PACKAGES) $(SERVER_PACKAGES)

# Each layer's objects see its include folders only; a game from outside
# src/variants is compiled as one of the variants.
$(foreach l,$(LAYERS) $(SIDE_LAYER_NAMES),$(eval $(BUILD)/obj/$(l)/%.o: LAYER_INC = $(LAYER_INC_$(l))))
$(BUILD)/obj/../%.o: LAYER_INC = $(LAYER_INC_variants)
$(BUILD)/obj/%.o: src/%.c $(HEADERS) | compiler
	@mkdir -p $(dir $@)
	$(CC) $(LAYER_CFLAGS) -c $< -o $@

# The constant tables (attacks, Zobrist keys) are written by a small
# program at build time and compiled like any other source.
$(BUILD)/gen/tables-gen: src/core/tables_gen.c src/core/bitboard.h src/core/types.h | compiler
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O1 $(LAYER_INC_core) $< -o $@

$(BUILD)/gen/tables.c: $(BUILD)/gen/tables-gen
	$< > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/tables.o: $(BUILD)/gen/tables.c src/core/attacks.h src/core/zobrist.h | compiler
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(OPT) $(CFLAGS) $(LAYER_INC_core) -D_POSIX_C_SOURCE=200809L -c $< -o $@

$(BUILD)/libttchess.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/ttchess: $(CLI_OBJ) $(BUILD)/libttchess.a
	$(CC) $(ALL_CFLAGS) $(CLI_OBJ) $(BUILD)/libttchess.a $(SERVER_LIBS) $(LDLIBS) -o $@

# The web server with the browser client: the main job.
run: $(BUILD)/ttchess web
	$(BUILD)/ttchess serve --host 127.0.0.1 --port 8080 --db data/ttchess.db --static web/dist

play: $(BUILD)/ttchess
	$(BUILD)/ttchess play --variant gifford

# The browser client (web/: TypeScript, esbuild, chessgroundx from npm).
# npm ci installs exactly the lockfile's packages; Playwright's browser
# download is skipped (the tests drive Debian's chromium).  The bundle is
# type-checked before it is built.
WEB_PACKAGES := nodejs:/usr/bin/node npm:/usr/bin/npm
WEB_SRC := $(wildcard web/src/*.ts web/src/*.css web/src/css/*.css) web/index.html web/build.mjs web/tsconfig.json

web: web/dist/manifest.json

web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	@./scripts/ensure-packages $(WEB_PACKAGES)
	cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error

# The library compiled to WebAssembly (docs/design.md, "The library in the
# browser"): clang's wasm32-wasi target with Debian's WASI C library, no
# glue (web/src/rules.ts instantiates the module itself and gives it the
# few WASI functions it imports).  Its own folder: one compiler, one set
# of flags, whatever CC and BUILD the native build uses; the generated
# tables are the native build's (they are the same C on any target).
# The module is a "reactor": no main, its exports called by the page;
# the stack first in memory, so that an overflow traps instead of
# writing over the data.  build.mjs copies it into web/dist under its
# hashed name, with its gzip-compressed copy.
WASM_BUILD ?= build-wasm
WASM_CC := clang --target=wasm32-wasi
WASM_OPT ?= -O2
WASM_STACK := 4194304
WASM_PACKAGES := clang:/usr/bin/clang lld:/usr/bin/wasm-ld wasi-libc:/usr/lib/wasm32-wasi/libc.a \
    libclang-rt-14-dev-wasm32:/usr/lib/llvm-14/lib/clang/14.0.6/lib/wasi/libclang_rt.builtins-wasm32.a
WASM_OBJ := $(LIB_SRC:src/%.c=$(WASM_BUILD)/obj/%.o) $(WASM_SRC:src/%.c=$(WASM_BUILD)/obj/%.o) $(WASM_BUILD)/obj/tables.o
# The engine's pthread.h is src/wasm/libc's, in which no thread starts.
WASM_CFLAGS = $(CSTD) $(WARN) $(WASM_OPT) -Isrc/wasm/libc -D_POSIX_C_SOURCE=200809L

.PHONY: wasm-compiler
wasm-compiler:
	@./scripts/ensure-packages $(WASM_PACKAGES)

$(foreach l,$(LAYERS) $(SIDE_LAYER_NAMES),$(eval $(WASM_BUILD)/obj/$(l)/%.o: LAYER_INC = $(LAYER_INC_$(l))))
$(WASM_BUILD)/obj/../%.o: LAYER_INC = $(LAYER_INC_variants)
$(WASM_BUILD)/obj/%.o: src/%.c $(HEADERS) | wasm-compiler
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_CFLAGS) $(LAYER_INC) -c $< -o $@

$(WASM_BUILD)/obj/tables.o: $(BUILD)/gen/tables.c src/core/attacks.h src/core/zobrist.h | wasm-compiler
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_CFLAGS) $(LAYER_INC_core) -c $< -o $@

$(WASM_BUILD)/ttchess.wasm: $(WASM_OBJ)
	$(WASM_CC) $(WASM_OPT) -mexec-model=reactor -Wl,--stack-first -Wl,-z,stack-size=$(WASM_STACK) \
	    -Wl,--strip-all $^ -o $@

# build.mjs names every file after its content's hash (app.HASH.js, ...,
# ttchess.HASH.wasm) and writes index.html and manifest.json naming them
# (after WASM_BUILD's definition: a rule's prerequisites are expanded as
# the Makefile is read).
web/dist/manifest.json: web/node_modules/.package-lock.json $(WEB_SRC) $(WASM_BUILD)/ttchess.wasm
	cd web && npm run --silent check && TTCHESS_WASM=$(abspath $(WASM_BUILD)/ttchess.wasm) npm run --silent build

# The browser tests (Playwright in Debian's headless chromium) against a
# server of this build with a fresh database.
test-web: $(BUILD)/ttchess web
	@./scripts/ensure-packages chromium:/usr/bin/chromium fonts-dejavu-core:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
	@TTCHESS=$(CURDIR)/$(BUILD)/ttchess ./tests/web-test.sh

# The WebAssembly build against this build's CLI (web/tools/wasm.test.mjs,
# Node's test runner): perft and the legal actions of every variant, the
# module's size and its load time from ttchess serve.
test-wasm: $(BUILD)/ttchess web
	@TTCHESS=$(CURDIR)/$(BUILD)/ttchess node --test web/tools/wasm.test.mjs

# The game page of every variant, as docs/images/ and the README show it.
screenshots: $(BUILD)/ttchess web
	@./scripts/ensure-packages chromium:/usr/bin/chromium fonts-dejavu-core:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
	@TTCHESS=$(CURDIR)/$(BUILD)/ttchess ./tests/web-test.sh --screenshots

# The Debian packages the tests need; installed only when missing.
deps: compiler
	@./scripts/ensure-packages libcmocka-dev:/usr/include/cmocka.h

$(BUILD)/tests/%: tests/%.c tests/support.h tests/xml_check.h $(BUILD)/libttchess.a | deps
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/libttchess.a -lcmocka $(LDLIBS) -o $@

# The server's store on either database (tests/store_test.c), linked with
# the server's sources.
$(BUILD)/tests/test-store: tests/store_test.c $(SERVER_SRC) $(HEADERS) $(BUILD)/libttchess.a | deps
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(SERVER_SRC) $(BUILD)/libttchess.a -lcmocka $(SERVER_LIBS) $(LDLIBS) -o $@

# Glicko-2 (src/server/glicko2.c, no SQL) against Glickman's worked example.
$(BUILD)/tests/test-glicko2: tests/glicko2_test.c src/server/glicko2.c src/server/glicko2.h | deps
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< src/server/glicko2.c -lcmocka $(LDLIBS) -o $@
# The tournaments' rules (tests/tournament_test.c), pure functions of the
# server's.
$(BUILD)/tests/test-tournament: tests/tournament_test.c src/server/tournament.c src/server/tournament.h | deps
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< src/server/tournament.c -lcmocka $(LDLIBS) -o $@

$(BUILD)/tests/random-game: tests/random_game.c $(BUILD)/libttchess.a | compiler
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/libttchess.a $(LDLIBS) -o $@

# The load generator of the server (bench/load.sh, tests/crash.sh).
$(BUILD)/bench/load: bench/load.c $(BUILD)/libttchess.a | compiler
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/libttchess.a -ljansson -lcurl $(LDLIBS) -o $@

# A slower disk for PostgreSQL in bench/load.sh (SYNC_US=...): a library
# it loads with LD_PRELOAD (bench/slow-sync.c says why).
$(BUILD)/bench/slow-sync.so: bench/slow-sync.c | compiler
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -shared $< -ldl -o $@

# The terms of the chess evaluation of a file of positions, for fitting
# its weights (bench/tune-chess.sh).
$(BUILD)/bench/tune-features: bench/tune-features.c $(BUILD)/libttchess.a | compiler
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/libttchess.a $(LDLIBS) -o $@

# The match runner (bench/match.sh, docs/engine.md).
$(BUILD)/bench/match: bench/match.c $(BUILD)/libttchess.a | compiler
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/libttchess.a $(LDLIBS) -o $@

$(BUILD)/tests/rules-dump: tests/rules_dump.c $(BUILD)/libttchess.a | compiler
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< $(BUILD)/libttchess.a $(LDLIBS) -o $@

# A reference shares nothing with the library, not even its headers.
$(BUILD)/tests/%-ref: tests/ref/%_ref.c | compiler
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(OPT) $(CFLAGS) $< -o $@

# Makes the Nth allocation fail, for tests/oom-test.sh (plain builds only:
# the sanitizers bring their own allocator).
$(BUILD)/tests/failmalloc.so: tests/oom/failmalloc.c | compiler
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -shared -fPIC $< -o $@

# Each fuzz harness, built as a plain program that replays files (any
# compiler), for make test.
$(BUILD)/fuzz/%: fuzz/%.c fuzz/replay.c fuzz/fuzz.h $(BUILD)/libttchess.a | compiler
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< fuzz/replay.c $(BUILD)/libttchess.a $(LDLIBS) -o $@

# The UCI harness reads sessions through the CLI's protocol file.
$(BUILD)/fuzz/fuzz_uci: fuzz/fuzz_uci.c src/cli/uci.c src/cli/uci_engine.c src/cli/uci.h src/cli/uci_engine.h fuzz/replay.c fuzz/fuzz.h $(BUILD)/libttchess.a | compiler
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< src/cli/uci.c src/cli/uci_engine.c fuzz/replay.c $(BUILD)/libttchess.a $(LDLIBS) -o $@

# The server's harnesses call its handlers: all of src/server/ (it has no
# main) is compiled into each with TTCHESS_FUZZ, which makes auth.c hash
# passwords at libsodium's least cost (see there why), with the set-up
# and checks they share (fuzz/api_fixture.c).
SERVER_FUZZ := fuzz_api fuzz_body fuzz_query fuzz_action fuzz_head fuzz_players fuzz_email
FUZZ_FIXTURE := fuzz/api_fixture.c fuzz/api_fixture.h tests/xml_check.h

$(SERVER_FUZZ:%=$(BUILD)/fuzz/%): $(BUILD)/fuzz/%: fuzz/%.c $(FUZZ_FIXTURE) $(SERVER_SRC) $(HEADERS) fuzz/replay.c fuzz/fuzz.h $(BUILD)/libttchess.a | compiler
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DTTCHESS_FUZZ $< fuzz/api_fixture.c $(SERVER_SRC) fuzz/replay.c $(BUILD)/libttchess.a $(SERVER_LIBS) $(LDLIBS) -o $@

test: deps
	@$(MAKE) --no-print-directory test-unit OOM_TEST=yes
	@$(MAKE) --no-print-directory test-web
	@$(MAKE) --no-print-directory test-wasm
	@$(MAKE) --no-print-directory test-postgres
	@$(MAKE) --no-print-directory test-crash
	@$(MAKE) --no-print-directory test-abuse
	@$(MAKE) --no-print-directory fuzz-quick
	@$(MAKE) --no-print-directory test-unit BUILD=$(SAN_BUILD) OPT="$(ASAN_OPT)"
	@echo "All test suites passed (plain and ASan+UBSan, $(CC); the browser tests with the plain build)."

OOM_TEST ?= no
# The house as docs/design.md draws it: no layer reaches up (includes and
# calls), no room too big (files and functions).
check-layers: $(BUILD)/ttchess $(WASM_SRC:src/%.c=$(BUILD)/obj/%.o)
	@./scripts/check-layers.sh $(BUILD) "$(LAYERS) $(SIDE_LAYERS)"
	@./scripts/check-rooms.py src
	@./scripts/check-web-rooms.py web/src

test-unit: $(TEST_BIN) $(BUILD)/tests/test-store $(BUILD)/tests/test-glicko2 $(BUILD)/tests/test-tournament $(TOOL_BIN) $(BUILD)/ttchess $(BUILD)/bench/match $(BUILD)/bench/tune-features $(FUZZ_NAMES:%=$(BUILD)/fuzz/%) $(if $(filter yes,$(OOM_TEST)),$(BUILD)/tests/failmalloc.so)
	@$(MAKE) --no-print-directory check-layers
	@set -e; for t in $(TEST_BIN) $(BUILD)/tests/test-store $(BUILD)/tests/test-glicko2 $(BUILD)/tests/test-tournament; do $$t; done
	@TTCHESS=$(BUILD)/ttchess ./tests/cli-test.sh
	@TTCHESS=$(BUILD)/ttchess ./tests/api-test.sh
	@TTCHESS=$(BUILD)/ttchess ./tests/players-test.sh
	@TTCHESS=$(BUILD)/ttchess ./tests/ratings-test.sh
	@TTCHESS=$(BUILD)/ttchess ./tests/tournament-test.sh
	@TTCHESS=$(BUILD)/ttchess ./tests/mail-test.sh
	@TTCHESS=$(BUILD)/ttchess RANDOM_GAME=$(BUILD)/tests/random-game ./tests/play-test.sh
	@TTCHESS=$(BUILD)/ttchess MATCH=$(BUILD)/bench/match TUNE_FEATURES=$(BUILD)/bench/tune-features ./tests/match-test.sh
	@./scripts/ensure-packages stockfish:/usr/games/stockfish
	@./tests/chess960-match.py $(BUILD)/ttchess /usr/games/stockfish
	@set -e; for mode in vangog vangog-past vangog-future; do \
	    RANDOM_GAME=$(BUILD)/tests/random-game RULES_DUMP=$(BUILD)/tests/rules-dump ./tests/rules-compare.sh \
	        $$mode 12 80 tests/data/vangog-games.txt $(BUILD)/tests/vangog-ref $$mode check; done
	@RANDOM_GAME=$(BUILD)/tests/random-game RULES_DUMP=$(BUILD)/tests/rules-dump ./tests/rules-compare.sh \
	    travelers 24 120 tests/data/travelers-games.txt $(BUILD)/tests/travelers-ref check
	@set -e; for v in chessgi-classic chessgi; do \
	    RANDOM_GAME=$(BUILD)/tests/random-game RULES_DUMP=$(BUILD)/tests/rules-dump ./tests/rules-compare.sh \
	        $$v 24 120 tests/data/chessgi-games.txt $(BUILD)/tests/chessgi-ref $$v check; done
	@RANDOM_GAME=$(BUILD)/tests/random-game RULES_DUMP=$(BUILD)/tests/rules-dump ./tests/rules-compare.sh \
	    gifford 24 120 tests/data/gifford-games.txt $(BUILD)/tests/gifford-ref check
	@BUILD=$(BUILD)-toy ./tests/toy_game/run.sh
	@./tests/fsf-compare.sh --quick $(BUILD)/ttchess $(BUILD)/tests/random-game 20 2
	@set -e; for f in $(FUZZ_NAMES); do $(BUILD)/fuzz/$$f fuzz/corpus/$$f; done
	@if [ "$(OOM_TEST)" = yes ]; then TTCHESS=$(BUILD)/ttchess FAILMALLOC=$(BUILD)/tests/failmalloc.so ./tests/oom-test.sh; fi

# The server on PostgreSQL: a throwaway cluster (Debian's postgresql:
# initdb and pg_ctl in a temporary folder), the API suite, the store's
# tests, and two server instances on one database; all stopped after.
PG_PACKAGES := postgresql:/usr/lib/postgresql/15/bin/initdb
test-postgres: $(BUILD)/ttchess $(BUILD)/tests/test-store
	@./scripts/ensure-packages $(PG_PACKAGES)
	@TTCHESS=$(CURDIR)/$(BUILD)/ttchess STORE_TEST=$(CURDIR)/$(BUILD)/tests/test-store ./tests/postgres-test.sh

# Acknowledged actions survive SIGKILL (tests/crash.sh): the load, the
# server killed 20 times, checks; a read-only database and a full disk;
# then the same on PostgreSQL, the database restarted under load.
test-crash: $(BUILD)/ttchess $(BUILD)/bench/load
	@./scripts/ensure-packages $(PG_PACKAGES)
	@TTCHESS=$(BUILD)/ttchess LOAD=$(BUILD)/bench/load ./tests/crash.sh
	@TTCHESS=$(BUILD)/ttchess LOAD=$(BUILD)/bench/load ./tests/crash.sh --postgres

# The server under abuse (tests/abuse-test.sh, issue 24): floods of
# connections and slow clients, path traversal, requests racing each
# limit, hashing floods, challenges, flagged clocks, engine games by the
# hundred; each against a server of this build, with a second, honest
# client watching its own latency.  Python's standard library drives them.
test-abuse: $(BUILD)/ttchess
	@./scripts/ensure-packages python3:/usr/bin/python3
	@TTCHESS=$(BUILD)/ttchess ./tests/abuse-test.sh

perft-long: $(BUILD)/ttchess $(TOOL_BIN)
	./tests/perft-long.sh $(BUILD)/ttchess

bench:
	@$(MAKE) --no-print-directory BUILD=build-bench OPT="-O3 -march=native" build-bench/ttchess
	TTCHESS=build-bench/ttchess ./bench/perft-speed.sh
	TTCHESS=build-bench/ttchess ./bench/gifford-speed.sh
	TTCHESS=build-bench/ttchess ./bench/vangog-speed.sh
	TTCHESS=build-bench/ttchess ./bench/travelers-speed.sh
	TTCHESS=build-bench/ttchess ./bench/chessgi-speed.sh
	TTCHESS=build-bench/ttchess ./bench/search-speed.sh
	@$(MAKE) --no-print-directory $(BUILD)/ttchess web
	TTCHESS=$(BUILD)/ttchess ./bench/wasm-speed.sh
	@$(MAKE) --no-print-directory BUILD=build-bench OPT="-O3 -march=native" build-bench/bench/load
	@./scripts/ensure-packages $(PG_PACKAGES)
	TTCHESS=build-bench/ttchess LOAD=build-bench/bench/load ./bench/load.sh 5

# The server under load for longer (the README's table: 20 s a row).
# Fits the chess evaluation's weights to positions Stockfish labelled
# (bench/tune-chess.sh, docs/engine.md "Tuning"): about 20 minutes.
tune-chess:
	./bench/tune-chess.sh

bench-load:
	@$(MAKE) --no-print-directory BUILD=build-bench OPT="-O3 -march=native" build-bench/ttchess build-bench/bench/load
	@./scripts/ensure-packages $(PG_PACKAGES)
	TTCHESS=build-bench/ttchess LOAD=build-bench/bench/load ./bench/load.sh 20

# The engine against random and greedy players, Stockfish and
# Fairy-Stockfish: a few games of each (bench/match.sh, docs/engine.md).
match: deps
	./bench/match.sh --short

# libFuzzer: clang only.  Each harness is built with
# -fsanitize=fuzzer,address,undefined in build-fuzz/fuzzer/ (the library
# with -fsanitize=fuzzer-no-link,address,undefined in build-fuzz-fuzzlib/)
# and runs FUZZ_SECONDS on a scratch copy of its seed corpus in
# build-fuzz/corpus/NAME (new finds stay there; fuzz/corpus is never
# written).  fuzz/run.sh prints each harness's executions and new units,
# keeps crashing inputs in build-fuzz/artifacts/NAME/, and fails if any
# harness crashed.
FUZZ_BUILD := build-fuzz
FUZZ_OPT := -O1 -g -fno-omit-frame-pointer
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_FLAGS := -fsanitize=fuzzer $(FUZZ_SAN)
FUZZ_LIB_OPT := $(FUZZ_OPT) -fsanitize=fuzzer-no-link $(FUZZ_SAN)

fuzz: fuzz-build
	@sh fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BUILD) $(FUZZ_NAMES)

fuzz-build:
	@$(MAKE) --no-print-directory CC=clang BUILD=$(FUZZ_BUILD) OPT="$(FUZZ_OPT)" \
	    $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzzer/%)

# A few seconds of libFuzzer on each harness of the server's input (JSON
# bodies, query strings, every variant's action text, mixed requests, the
# raw request heads the gate reads), in
# make test; make fuzz runs them all for longer.
FUZZ_QUICK_SECONDS ?= 5
fuzz-quick:
	@$(MAKE) --no-print-directory CC=clang BUILD=$(FUZZ_BUILD) OPT="$(FUZZ_OPT)" \
	    $(SERVER_FUZZ:%=$(FUZZ_BUILD)/fuzzer/%)
	@sh fuzz/run.sh $(FUZZ_QUICK_SECONDS) $(FUZZ_BUILD) $(SERVER_FUZZ)

$(BUILD)/fuzzer/%: fuzz/%.c fuzz/fuzz.h $(BUILD)-fuzzlib/libttchess.a | compiler
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(FUZZ_FLAGS) $< $(BUILD)-fuzzlib/libttchess.a $(LDLIBS) -o $@

$(BUILD)/fuzzer/fuzz_uci: fuzz/fuzz_uci.c src/cli/uci.c src/cli/uci_engine.c src/cli/uci.h src/cli/uci_engine.h fuzz/fuzz.h $(BUILD)-fuzzlib/libttchess.a | compiler
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(FUZZ_FLAGS) $< src/cli/uci.c src/cli/uci_engine.c $(BUILD)-fuzzlib/libttchess.a $(LDLIBS) -o $@

$(SERVER_FUZZ:%=$(BUILD)/fuzzer/%): $(BUILD)/fuzzer/%: fuzz/%.c $(FUZZ_FIXTURE) $(SERVER_SRC) $(HEADERS) fuzz/fuzz.h $(BUILD)-fuzzlib/libttchess.a | compiler
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(FUZZ_FLAGS) -DTTCHESS_FUZZ $< fuzz/api_fixture.c $(SERVER_SRC) $(BUILD)-fuzzlib/libttchess.a $(SERVER_LIBS) $(LDLIBS) -o $@

# The library for the fuzzers, built by this Makefile in a folder of its
# own whenever a source is newer (the inner make rebuilds what changed).
$(BUILD)-fuzzlib/libttchess.a: $(LIB_SRC) $(HEADERS) src/core/tables_gen.c | compiler
	@$(MAKE) --no-print-directory BUILD=$(BUILD)-fuzzlib OPT="$(FUZZ_LIB_OPT)" $@

clean:
	rm -rf build build-* web/dist

magics: $(BUILD)/gen/tables-gen
	$(BUILD)/gen/tables-gen --find-magics
