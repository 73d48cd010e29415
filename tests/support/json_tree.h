/* tests/support/json_tree.h — cJSON trees built and printed the way the
 * library's writers did before models/json_write.h, kept as the reference
 * the streaming writer is held to byte for byte (tests/test_json.c,
 * tests/test_analysis_doc.c). Values: integers as raw digits, times as
 * digits below 2^53 else "<n>ns", display doubles with 10 significant
 * digits. Not thread-safe beyond what cJSON is. */
#ifndef RTP_TEST_JSON_TREE_H
#define RTP_TEST_JSON_TREE_H

#include "models/json_util.h"

/* Exact writers: an integer as raw digits; a time as digits below 2^53, else
 * as a "<n>ns" string; a display double rounded to 10 significant digits. */
cJSON *tu_json_new_int(int64_t value);
cJSON *tu_json_new_time(rtp_ns value);
/* tu_json_new_time, or null for a negative value ("none"). */
cJSON *tu_json_new_time_or_null(rtp_ns value);
cJSON *tu_json_new_display(double value);

/* Writers that never print a document with a member missing: add v under
 * key (push it onto an array); when v is NULL (its allocation failed) or the
 * add fails, v is freed and *bad = 1. */
void tu_json_add(int *bad, cJSON *object, const char *key, cJSON *v);
void tu_json_push(int *bad, cJSON *array, cJSON *v);
/* A new empty array (object) added under key, or NULL with *bad = 1; adding
 * to a NULL container fails the same way, so a writer may go on and check
 * *bad once at the end. */
cJSON *tu_json_add_array(int *bad, cJSON *object, const char *key);
cJSON *tu_json_add_object(int *bad, cJSON *object, const char *key);

/* Prints and frees nothing: malloc'd text (caller frees), with a final
 * newline; NULL when out of memory. */
char *tu_json_print(const cJSON *root, int pretty);

#endif
