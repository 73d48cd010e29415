#!/bin/sh
# bench/no_pic_cc.sh — a compiler launcher for bench/pic_cost.sh's second build:
# runs the compiler with every -fPIC left out, so the objects are what the
# compiler makes by default (Debian's gcc: -fPIE) — how the CLI was built
# before librtpack.so needed position-independent objects. Measurement only:
#   cmake -S . -B build-nopic -DCMAKE_C_COMPILER_LAUNCHER="$PWD/bench/no_pic_cc.sh" \
#         -DRTP_BUILD_TESTS=OFF -DRTP_BUILD_BENCH=OFF
#   cmake --build build-nopic -j2 --target rtpack
# (the shared library of that folder is not usable: it needs -fPIC).
compiler=$1
shift
for arg do
    shift
    [ "$arg" = -fPIC ] || set -- "$@" "$arg"
done
exec "$compiler" "$@"
