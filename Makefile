# ttchess — GNU make build.  SPDX-License-Identifier: GPL-3.0-or-later
#
#   make            build build/ttchess and build/libttchess.a
#   make run        play a game in the terminal
#   make test       unit tests, perft, CLI tests, then all again under ASan+UBSan
#   make perft-long the deep perft counts
#   make bench      speed against Stockfish (bench/perft-speed.sh)

CC      ?= cc
CSTD    := -std=c11
WARN    := -Wall -Wextra -Werror
OPT     ?= -O3 -march=native
CFLAGS  ?=
CFLAGS  += $(CSTD) $(WARN) $(OPT) -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L
BUILD   ?= build

LIB_SRC := $(filter-out src/main.c src/cli_%.c,$(wildcard src/*.c))
CLI_SRC := src/main.c $(wildcard src/cli_*.c)
LIB_OBJ := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:src/%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
HEADERS := $(wildcard include/ttchess/*.h src/*.h)

.PHONY: all run test test-unit perft-long bench deps clean magics

all: $(BUILD)/ttchess $(BUILD)/libttchess.a

$(BUILD)/obj/%.o: src/%.c $(HEADERS) | $(BUILD)/obj
	$(CC) $(CFLAGS) -c $< -o $@

# The compiler itself is a Debian package too (gcc); the first build
# directory made checks for it.
$(BUILD)/obj $(BUILD)/tests:
	@./scripts/ensure-packages gcc:/usr/bin/cc
	mkdir -p $@

$(BUILD)/libttchess.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/ttchess: $(CLI_OBJ) $(BUILD)/libttchess.a
	$(CC) $(CFLAGS) $(CLI_OBJ) $(BUILD)/libttchess.a -o $@

run: $(BUILD)/ttchess
	./$(BUILD)/ttchess play --variant gifford

# The Debian packages the tests need; installed only when missing.
deps:
	@./scripts/ensure-packages libcmocka-dev:/usr/include/cmocka.h

$(BUILD)/tests/%: tests/%.c tests/support.h $(BUILD)/libttchess.a | $(BUILD)/tests deps
	$(CC) $(CFLAGS) $< $(BUILD)/libttchess.a -lcmocka -o $@

test: deps
	@$(MAKE) --no-print-directory test-unit
	@$(MAKE) --no-print-directory test-unit BUILD=build-asan \
	    OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
	@echo "All test suites passed (plain and ASan+UBSan)."

test-unit: $(TEST_BIN) $(BUILD)/ttchess
	@set -e; for t in $(TEST_BIN); do TTCHESS=$(BUILD)/ttchess SHARED=$(CURDIR)/../shared $$t; done
	@TTCHESS=$(BUILD)/ttchess SHARED=$(CURDIR)/../shared ./tests/cli-test.sh
	@TTCHESS=$(BUILD)/ttchess SHARED=$(CURDIR)/../shared ./tests/play-test.sh

perft-long: $(BUILD)/ttchess
	./tests/perft-long.sh $(BUILD)/ttchess

bench: $(BUILD)/ttchess
	./bench/perft-speed.sh
	./bench/gifford-speed.sh

clean:
	rm -rf build build-*

# Prints the magic numbers of src/attacks.c again from its seeded search.
magics:
	$(CC) $(CSTD) $(WARN) -O2 -DATTACKS_PRINT_MAGICS -Iinclude -Isrc src/attacks.c -o $(BUILD)/find-magics
	./$(BUILD)/find-magics
