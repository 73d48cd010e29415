/* tests/failalloc/failalloc.c — allocation-failure injection for
 * rtpack_failalloc, a test-only build of the rtpack program linked with
 * -Wl,--wrap=malloc,calloc,realloc,strdup,strndup (and cJSON's allocations
 * routed here by cJSON_InitHooks), modelled on SQLite's malloc test.
 *
 * RTP_FAIL_ALLOC=K makes the K-th allocation (1-based) return NULL, once;
 * 0 or unset fails none. RTP_FAIL_ALLOC_COUNT=PATH writes, at exit, the
 * number of allocations made, so a driver knows how many K to try.
 *
 * Not covered: allocations inside other shared libraries (GLPK and GMP
 * abort the process on failure, libgomp, libc's own stdio), which this
 * wrapping cannot reach. The counter is this test program's own global
 * state, never the library's. */
#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

static unsigned long fail_at; /* 0: never */
static unsigned long count;

/* 1 when this allocation is the one to fail. */
static int fails(void)
{
    return ++count == fail_at;
}

void *__wrap_malloc(size_t size)
{
    return fails() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return fails() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    return fails() ? NULL : __real_realloc(p, size);
}

char *__wrap_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *copy = __wrap_malloc(n);
    return copy ? memcpy(copy, s, n) : NULL;
}

char *__wrap_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *copy = __wrap_malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, s, len);
    copy[len] = '\0';
    return copy;
}

static void report(void)
{
    const char *path = getenv("RTP_FAIL_ALLOC_COUNT");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (f) {
        fprintf(f, "%lu\n", count);
        fclose(f);
    }
}

__attribute__((constructor)) static void start(void)
{
    const char *k = getenv("RTP_FAIL_ALLOC");
    fail_at = k ? strtoul(k, NULL, 10) : 0;
    cJSON_Hooks hooks = {__wrap_malloc, free};
    cJSON_InitHooks(&hooks);
    atexit(report);
}
