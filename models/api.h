/* models/api.h — which declarations librtpack.so exports (HACKING.md "API and
 * ABI"). Every module is compiled with -fvisibility=hidden, so a function is
 * exported only when an installed header declares it between RTP_API_BEGIN and
 * RTP_API_END; internal headers never use them, so their functions stay inside
 * the library (callable by the static librtpack.a's users in the tree: the
 * CLI, tests, bench). tests/cmake_consumer.sh fails on an exported symbol no
 * installed header declares. Pure macros: no code, no state. */
#ifndef RTP_API_H
#define RTP_API_H

#if defined(__GNUC__) || defined(__clang__)
#define RTP_API_BEGIN _Pragma("GCC visibility push(default)")
#define RTP_API_END _Pragma("GCC visibility pop")
#else
#define RTP_API_BEGIN
#define RTP_API_END
#endif

#endif
