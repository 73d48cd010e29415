/* fuzz/fuzz_json.c — libFuzzer target holding the one-pass reader
 * (models/json_parse.c, rtp_json_open) to today's cJSON-based reader
 * (tests/support/json_reference.c): the same accept/reject, the same
 * diagnostic (message, JSON path, line, column), the same tree and the same
 * task set read from it, but for the two documented differences
 * (rtp_json_differ). A difference aborts, which libFuzzer reports as a crash
 * with the input saved. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/json_reference.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[1024];
    if (rtp_json_differ((const char *)data, size, why, sizeof why)) {
        fprintf(stderr, "fuzz_json: the readers differ: %s\n", why);
        abort();
    }
    return 0;
}
