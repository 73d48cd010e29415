/* tests/support/json_tree.c — see json_tree.h. */
#include "support/json_tree.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Numbers by printf, not by the writer's own formatting (json_write.c). */
cJSON *tu_json_new_int(int64_t value)
{
    char digits[32];
    snprintf(digits, sizeof digits, "%" PRId64, value);
    return cJSON_CreateRaw(digits);
}

cJSON *tu_json_new_time(rtp_ns value)
{
    if (value < ((int64_t)1 << 53) && value > -((int64_t)1 << 53))
        return tu_json_new_int(value);
    char text[40];
    snprintf(text, sizeof text, "%" PRId64 "ns", value);
    return cJSON_CreateString(text);
}

cJSON *tu_json_new_display(double value)
{
    char text[48];
    snprintf(text, sizeof text, "%.10g", value);
    if (!strpbrk(text, ".ein"))
        strcat(text, ".0");
    return cJSON_CreateRaw(text);
}

void tu_json_add(int *bad, cJSON *object, const char *key, cJSON *v)
{
    if (!v || !cJSON_AddItemToObject(object, key, v)) {
        cJSON_Delete(v);
        *bad = 1;
    }
}

void tu_json_push(int *bad, cJSON *array, cJSON *v)
{
    if (!v || !cJSON_AddItemToArray(array, v)) {
        cJSON_Delete(v);
        *bad = 1;
    }
}

/* A new empty container added under key; NULL (and *bad = 1) on failure. */
static cJSON *add_container(int *bad, cJSON *object, const char *key, cJSON *v)
{
    int failed = 0;
    tu_json_add(&failed, object, key, v);
    if (failed) {
        *bad = 1;
        return NULL;
    }
    return v;
}

cJSON *tu_json_add_array(int *bad, cJSON *object, const char *key)
{
    return add_container(bad, object, key, cJSON_CreateArray());
}

cJSON *tu_json_add_object(int *bad, cJSON *object, const char *key)
{
    return add_container(bad, object, key, cJSON_CreateObject());
}

char *tu_json_print(const cJSON *root, int pretty)
{
    char *body = pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
    if (!body)
        return NULL;
    size_t len = strlen(body);
    char *out = malloc(len + 2);
    if (out) {
        memcpy(out, body, len);
        out[len] = '\n';
        out[len + 1] = '\0';
    }
    cJSON_free(body);
    return out;
}

cJSON *tu_json_new_time_or_null(rtp_ns value)
{
    return value < 0 ? cJSON_CreateNull() : tu_json_new_time(value);
}
