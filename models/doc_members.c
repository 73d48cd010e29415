/* models/doc_members.c — see doc_members.h. */
#include "models/doc_members.h"

#include <stdio.h>
#include <string.h>

rtp_status rtp_doc_need(const cJSON *obj, const char *path, const char *key, const cJSON **item,
                        char *field, rtp_diag *diag)
{
    rtp_json_path_key(field, RTP_DIAG_PATH_SIZE, path, key);
    *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return *item ? RTP_OK : rtp_diag_set(diag, RTP_EINPUT, field, "missing");
}

rtp_status rtp_doc_need_nullable(const cJSON *obj, const char *path, const char *key,
                                 int nullable, const cJSON **item, char *field, rtp_diag *diag)
{
    rtp_status st = rtp_doc_need(obj, path, key, item, field, diag);
    if (st == RTP_OK && nullable && cJSON_IsNull(*item))
        *item = NULL;
    return st;
}

/* An object with exactly the keys `keys` (NULL-ended); optional ones may be
 * absent, the others must be there (read by the caller). */
rtp_status rtp_doc_keys(const cJSON *node, const char *path, const char *const *keys,
                        rtp_diag *diag)
{
    if (!cJSON_IsObject(node))
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be an object");
    return rtp_json_check_keys(node, path, keys, diag);
}

rtp_status rtp_doc_int(const rtp_json *doc, const cJSON *obj, const char *path, const char *key,
                       int64_t min, int64_t max, int64_t *out, rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    rtp_status st = rtp_doc_need(obj, path, key, &item, field, diag);
    return st ? st : rtp_json_int(doc, item, field, min, max, out, diag);
}

/* A count of events (jobs, samples): 0 .. 2^53 - 1. */
rtp_status rtp_doc_count(const rtp_json *doc, const cJSON *obj, const char *path, const char *key,
                         uint64_t *out, rtp_diag *diag)
{
    int64_t v = 0;
    rtp_status st = rtp_doc_int(doc, obj, path, key, 0, RTP_JSON_INT_LIMIT - 1, &v, diag);
    *out = (uint64_t)v;
    return st;
}

/* A time in ns (0 allowed), or null when nullable (then *out = -1). */
rtp_status rtp_doc_time(const rtp_json *doc, const cJSON *obj, const char *path, const char *key,
                        int nullable, rtp_ns *out, rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    rtp_status st = rtp_doc_need_nullable(obj, path, key, nullable, &item, field, diag);
    if (st != RTP_OK)
        return st;
    if (!item) {
        *out = -1;
        return RTP_OK;
    }
    return rtp_json_time(doc, item, field, 1, 1, out, diag);
}

rtp_status rtp_doc_bool(const cJSON *obj, const char *path, const char *key, int *out,
                        rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    rtp_status st = rtp_doc_need(obj, path, key, &item, field, diag);
    if (st != RTP_OK)
        return st;
    if (!cJSON_IsBool(item))
        return rtp_diag_set(diag, RTP_EINPUT, field, "must be true or false");
    *out = cJSON_IsTrue(item);
    return RTP_OK;
}

/* A string (or null, read as "", when nullable) into a buffer of `size`. */
rtp_status rtp_doc_text(const cJSON *obj, const char *path, const char *key, int nullable,
                        char *buf, size_t size, rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    const char *s;
    rtp_status st = rtp_doc_need_nullable(obj, path, key, nullable, &item, field, diag);
    if (st != RTP_OK)
        return st;
    if (!item) {
        buf[0] = '\0';
        return RTP_OK;
    }
    if ((st = rtp_json_string(item, field, 0, &s, diag)) != RTP_OK)
        return st;
    if (strlen(s) >= size)
        return rtp_diag_set(diag, RTP_EINPUT, field, "longer than %zu bytes", size - 1);
    memcpy(buf, s, strlen(s) + 1);
    return RTP_OK;
}

/* One of `names` (NULL-ended), returned as the table's own static string;
 * null gives NULL when nullable. */
rtp_status rtp_doc_choice(const cJSON *obj, const char *path, const char *key, int nullable,
                          const char *const *names, const char **out, rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    rtp_status st = rtp_doc_need_nullable(obj, path, key, nullable, &item, field, diag);
    if (st != RTP_OK)
        return st;
    if (!item) {
        *out = NULL;
        return RTP_OK;
    }
    for (size_t k = 0; names[k] && cJSON_IsString(item); k++)
        if (strcmp(item->valuestring, names[k]) == 0) {
            *out = names[k];
            return RTP_OK;
        }
    char list[160] = "";
    for (size_t k = 0, used = 0; names[k] && used < sizeof list; k++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s\"%s\"",
                                 k == 0         ? ""
                                 : names[k + 1] ? ", "
                                                : " or ",
                                 names[k]);
    return rtp_diag_set(diag, RTP_EINPUT, field, "must be %s%s", list, nullable ? " or null" : "");
}

/* An exact ratio written as a decimal number (0.9) or a string "0.9" / "p/q".
 */
rtp_status rtp_doc_ratio(const rtp_json *doc, const cJSON *obj, const char *path, const char *key,
                         int nullable, int *has, rtp_ratio *out, rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE], text[64];
    const cJSON *item;
    rtp_status st = rtp_doc_need_nullable(obj, path, key, nullable, &item, field, diag);
    if (st != RTP_OK)
        return st;
    *has = 0;
    if (!item)
        return RTP_OK;
    size_t len = 0;
    const char *num = rtp_json_number_text(doc, item, &len);
    if (num && len < sizeof text) {
        memcpy(text, num, len);
        text[len] = '\0';
    } else if (cJSON_IsString(item) && strlen(item->valuestring) < sizeof text) {
        snprintf(text, sizeof text, "%s", item->valuestring);
    } else {
        return rtp_diag_set(diag, RTP_EINPUT, field, "must be a decimal number");
    }
    char why[96];
    long long p, q;
    int used = 0;
    if (sscanf(text, "%lld/%lld%n", &p, &q, &used) == 2 && text[used] == '\0' && p >= 0 && q > 0 &&
        strchr(text, ' ') == NULL) {
        int64_t g = p, h = q; /* lowest terms, as rtp_ratio holds them */
        while (h) {
            int64_t r = g % h;
            g = h;
            h = r;
        }
        *out = (rtp_ratio){p / (g ? g : 1), q / (g ? g : 1)};
    } else if (rtp_ratio_parse_decimal(text, out, why, sizeof why) != RTP_OK) {
        return rtp_diag_set(diag, RTP_EINPUT, field, "%s", why);
    }
    *has = 1;
    return RTP_OK;
}
