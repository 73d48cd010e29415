/* cli/options.c — the table-driven option parser (cli/cli.h). Options are
 * "--name value" or "--name=value"; "-" alone is an operand (standard
 * input); "--" ends options; the last of a repeated option wins. Every value
 * is checked against its option's type, range or choices here, so a command
 * only sees well-formed settings. */
#include "cli/cli.h"
#include "models/duration.h"
#include "models/fileio.h"
#include "probe/facts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WHY_SIZE 160

static void *target(const cli_option *opt, cli_args *args, void *settings)
{
    return (char *)((opt->flags & CLI_IN_ARGS) ? (void *)args : settings) + opt->offset;
}

/* ---- suggestions ---- */

/* Optimal string alignment distance (Levenshtein plus adjacent swaps),
 * capped: words longer than 63 bytes are never "close". */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return (size_t)-1;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

const char *cli_suggest(const char *word, const char *const *names)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1, len = strlen(word);
    for (; *names; names++) {
        size_t d = edit_distance(word, *names);
        /* A prefix of three letters or more ("--pol") also counts as close. */
        if (len >= 3 && strncmp(*names, word, len) == 0)
            d = 1;
        if (d < best_d) {
            best_d = d;
            best = *names;
        }
    }
    /* Close: at most 2 edits, and fewer than half the word changed. */
    return best && best_d <= 2 && best_d * 2 < (len > 1 ? len : 2) ? best : NULL;
}

/* The option names of a table (plus "help"), for cli_suggest. */
static void option_names(const cli_option *table, const char **names)
{
    size_t n = 0;
    for (; table->name; table++)
        names[n++] = table->name;
    names[n++] = "help";
    names[n] = NULL;
}

/* ---- one value per type ---- */

static void choices_text(const cli_choice *c, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const cli_choice *k = c; k->name && used < size; k++) {
        const char *sep = k == c ? "" : k[1].name ? ", " : " or ";
        used += (size_t)snprintf(buf + used, size - used, "%s%s", sep, k->name);
    }
}

static int parse_enum(const cli_option *opt, const char *text, void *field, char *why,
                      size_t why_size)
{
    const char *names[CLI_MAX_OPTIONS + 1];
    size_t n = 0;
    for (const cli_choice *c = opt->choices; c->name; c++) {
        if (strcmp(c->name, text) == 0) {
            *(int *)field = c->value;
            return 0;
        }
        if (n < CLI_MAX_OPTIONS)
            names[n++] = c->name;
    }
    names[n] = NULL;
    /* A value another command takes under this name is no typo: say so. */
    for (size_t i = 0; i < cli_n_commands; i++)
        for (const cli_option *o = cli_commands[i]->options; o->name; o++)
            for (const cli_choice *c = o->type == CLI_ENUM && strcmp(o->name, opt->name) == 0
                                           ? o->choices
                                           : NULL;
                 c && c->name; c++)
                if (strcmp(c->name, text) == 0) {
                    snprintf(why, why_size, "%s is for rtpack %s", text, cli_commands[i]->name);
                    return -1;
                }
    const char *near = cli_suggest(text, names);
    if (near)
        snprintf(why, why_size, "did you mean %s?", near);
    return -1;
}

/* [+-]digits only: no blanks, no base prefixes, no trailing text. */
static int parse_int(const cli_option *opt, const char *text, void *field)
{
    const char *p = text + (text[0] == '+' || text[0] == '-');
    if (*p < '0' || *p > '9' || p[strspn(p, "0123456789")] != '\0')
        return -1;
    errno = 0;
    if (text[0] == '-') {
        long long v = strtoll(text, NULL, 10);
        if (errno || v < opt->min || (v >= 0 && (uint64_t)v > opt->max))
            return -1;
        switch (opt->size) {
        case 1: *(int8_t *)field = (int8_t)v; break;
        case 2: *(int16_t *)field = (int16_t)v; break;
        case 4: *(int32_t *)field = (int32_t)v; break;
        default: *(int64_t *)field = (int64_t)v; break;
        }
        return 0;
    }
    unsigned long long v = strtoull(p, NULL, 10);
    if (errno || v > opt->max || (opt->min > 0 && v < (uint64_t)opt->min))
        return -1;
    switch (opt->size) {
    case 1: *(uint8_t *)field = (uint8_t)v; break;
    case 2: *(uint16_t *)field = (uint16_t)v; break;
    case 4: *(uint32_t *)field = (uint32_t)v; break;
    default: *(uint64_t *)field = (uint64_t)v; break;
    }
    return 0;
}

/* Compares a ratio with a decimal bound text ("0", "1", "inf"). */
static int outside_bound(rtp_ratio v, const char *bound, size_t len, int lower, int open)
{
    if (len == 3 && strncmp(bound, "inf", 3) == 0)
        return 0;
    char text[32], why[64];
    rtp_ratio b;
    snprintf(text, sizeof text, "%.*s", (int)len, bound);
    if (rtp_ratio_parse_decimal(text, &b, why, sizeof why) != RTP_OK)
        return 0; /* a malformed table bound checks nothing; the table test catches it */
    int c = rtp_ratio_cmp(v, b);
    return lower ? (open ? c <= 0 : c < 0) : (open ? c >= 0 : c > 0);
}

/* "(0, 1]", "[0, inf)": 1 when v lies outside. */
static int outside_range(rtp_ratio v, const char *range)
{
    const char *comma = strchr(range, ','), *end = range + strlen(range) - 1;
    if (!comma)
        return 0;
    const char *hi = comma + 1 + strspn(comma + 1, " ");
    return outside_bound(v, range + 1, (size_t)(comma - range - 1), 1, range[0] == '(') ||
           outside_bound(v, hi, (size_t)(end - hi), 0, *end == ')');
}

int cli_parse_time(const char *text, rtp_ns *out, char *why, size_t why_size)
{
    char buf[64];
    size_t len = strlen(text);
    if (len > 0 && len < 40 && strspn(text, "0123456789") == len) {
        snprintf(buf, sizeof buf, "%sns", text);
        text = buf;
    }
    if (rtp_duration_parse(text, out, why, why_size) != RTP_OK)
        return -1;
    if (*out < 1) {
        snprintf(why, why_size, "must be positive");
        return -1;
    }
    return 0;
}

static size_t count_items(const char *text)
{
    size_t n = 1;
    for (const char *p = text; *p; p++)
        n += *p == ',';
    return n;
}

/* "1ms,2ms,5ms" into a new list; an empty entry is an error. */
static int parse_times(const char *text, cli_time_list *list, char *why, size_t why_size)
{
    size_t n = count_items(text);
    rtp_ns *ns = calloc(n, sizeof *ns);
    if (!ns) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    const char *p = text;
    for (size_t i = 0; i < n; i++) {
        size_t len = strcspn(p, ",");
        char item[64];
        if (len == 0 || len >= sizeof item) {
            snprintf(why, why_size, len ? "entry %zu is too long" : "entry %zu is empty", i + 1);
            free(ns);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        char inner[96];
        if (cli_parse_time(item, &ns[i], inner, sizeof inner) != 0) {
            snprintf(why, why_size, "'%.40s': %.96s", item, inner);
            free(ns);
            return -1;
        }
        p += len + 1;
    }
    free(list->ns);
    list->ns = ns;
    list->n = n;
    return 0;
}

/* Linux cpulist format, "0-3,6,8-9", read by the probe's reader; ids below
 * RTP_CPU_LIMIT; at least one. */
static int parse_cpus(const char *text, cli_cpu_list *list, char *why, size_t why_size)
{
    rtp_cpumask m;
    if (!text[0] || rtp_probe_parse_cpulist(text, &m) != 0 || rtp_cpumask_count(&m) == 0)
        return -1;
    size_t n = rtp_cpumask_count(&m), i = 0;
    int *ids = calloc(n, sizeof *ids);
    if (!ids) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    for (int c = rtp_cpumask_next(&m, -1); c >= 0; c = rtp_cpumask_next(&m, c))
        ids[i++] = c;
    free(list->ids);
    list->ids = ids;
    list->n = n;
    return 0;
}

/* What a good value of `opt` looks like, for messages and help. */
static void wants_text(const cli_option *opt, char *buf, size_t size)
{
    switch (opt->type) {
    case CLI_ENUM:
        choices_text(opt->choices, buf, size);
        break;
    case CLI_INT:
        if (opt->min < 0)
            snprintf(buf, size, "a whole number from %lld to %llu", (long long)opt->min,
                     (unsigned long long)opt->max);
        else if (opt->max == UINT64_MAX && opt->min == 1)
            snprintf(buf, size, "a positive whole number");
        else if (opt->max == UINT64_MAX || opt->max == UINT32_MAX)
            snprintf(buf, size, "a whole number from %lld up to %llu", (long long)opt->min,
                     (unsigned long long)opt->max);
        else
            snprintf(buf, size, "a whole number from %lld to %llu", (long long)opt->min,
                     (unsigned long long)opt->max);
        break;
    case CLI_DECIMAL:
        snprintf(buf, size, opt->range ? "a decimal number in %s" : "a decimal number",
                 opt->range);
        break;
    case CLI_SECONDS:
        snprintf(buf, size, "a positive number of seconds");
        break;
    case CLI_TIME:
        snprintf(buf, size, "a positive time such as 5ms, 250us or 1s");
        break;
    case CLI_TIMES:
        snprintf(buf, size, "a comma-separated list of times such as 1ms,2ms,5ms");
        break;
    case CLI_CPUS:
        snprintf(buf, size, "a list of CPU ids below %d such as 0,2-3", RTP_CPU_LIMIT);
        break;
    default:
        snprintf(buf, size, "%s", opt->wants ? opt->wants : "a value");
        break;
    }
}

/* Reads `text` into the option's field; 0, or -1 with a reason (maybe empty). */
static int parse_value(const cli_option *opt, const char *text, void *field, char *why,
                       size_t why_size)
{
    char *end = NULL;
    switch (opt->type) {
    case CLI_FLAG:
        *(int *)field = 1;
        return 0;
    case CLI_STRING:
        *(const char **)field = text;
        return 0;
    case CLI_ENUM:
        return parse_enum(opt, text, field, why, why_size);
    case CLI_INT:
        return parse_int(opt, text, field);
    case CLI_DECIMAL: {
        rtp_ratio v;
        if (rtp_ratio_parse_decimal(text, &v, why, why_size) != RTP_OK)
            return -1;
        if (opt->range && outside_range(v, opt->range))
            return -1;
        *(rtp_ratio *)field = v;
        return 0;
    }
    case CLI_SECONDS: {
        double s = strtod(text, &end);
        if (end == text || *end != '\0' || !isfinite(s) || s <= 0)
            return -1;
        *(double *)field = s;
        return 0;
    }
    case CLI_TIME:
        return cli_parse_time(text, field, why, why_size);
    case CLI_TIMES:
        return parse_times(text, field, why, why_size);
    case CLI_CPUS:
        return parse_cpus(text, field, why, why_size);
    case CLI_CUSTOM:
        return opt->parse(text, field, why, why_size);
    }
    return -1;
}

/* ---- the command line ---- */

static const cli_option *find_option(const cli_option *table, const char *name, size_t len)
{
    for (; table->name; table++)
        if (strlen(table->name) == len && strncmp(table->name, name, len) == 0)
            return table;
    return NULL;
}

/* "--NAME" is not in the command's table: a near name, or the commands that
 * do take it. */
static int unknown_option(cli_args *args, const char *arg, const char *name, size_t len)
{
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)(len < 63 ? len : 63), name);
    const char *names[CLI_MAX_OPTIONS + 2];
    option_names(args->cmd->options, names);
    const char *near = cli_suggest(word, names);
    if (near)
        return cli_usage_error(args, "unknown option '%s' (did you mean --%s?)", arg, near);
    char others[160] = "";
    size_t used = 0;
    for (size_t i = 0; i < cli_n_commands && used < sizeof others; i++)
        if (find_option(cli_commands[i]->options, name, len))
            used += (size_t)snprintf(others + used, sizeof others - used, "%s%s",
                                     used ? ", " : "", cli_commands[i]->name);
    if (used)
        return cli_usage_error(args, "--%s is not an option of %s (it is one of: %s; see "
                                     "rtpack %s --help)",
                               word, args->command, others, args->command);
    return cli_usage_error(args, "unknown option '%s' (see rtpack %s --help)", arg,
                           args->command);
}

static int bad_value(cli_args *args, const cli_option *opt, const char *text, const char *why)
{
    char wants[256];
    wants_text(opt, wants, sizeof wants);
    /* The library's "not a time: expected ..." only repeats what wants says. */
    if (strncmp(why, "not a decimal number", 20) == 0 || strncmp(why, "not a time:", 11) == 0)
        why = "";
    if (strncmp(why, "did you mean", 12) == 0 || strstr(why, " is for rtpack "))
        return cli_usage_error(args, "--%s wants %s, got '%s' (%s)", opt->name, wants, text, why);
    return cli_usage_error(args, "--%s wants %s, got '%s'%s%s", opt->name, wants, text,
                           why[0] ? ": " : "", why);
}

static int check_operands(const cli_args *args)
{
    const cli_command *cmd = args->cmd;
    size_t n = args->n_positional;
    if (n > cmd->max_operands) {
        if (cmd->max_operands == 0)
            return cli_usage_error(args, "takes no operand, got '%s'", args->positional[0]);
        return cli_usage_error(args, "expected one %s, got %zu arguments", cmd->operands, n);
    }
    if (n < cmd->min_operands)
        return cli_usage_error(args, "missing %s%s", cmd->operands,
                               strcmp(cmd->operands, "DIR...") == 0
                                   ? " (the shard folders)"
                                   : " (use - for standard input)");
    return 0;
}

static void option_left(const cli_option *opt, char *buf, size_t size);

static int check_required(const cli_args *args)
{
    const cli_option *table = args->cmd->options;
    for (size_t i = 0; table[i].name; i++)
        if ((table[i].flags & CLI_REQUIRED) && !args->given[i]) {
            char left[160];
            option_left(&table[i], left, sizeof left);
            return cli_usage_error(args, "%s is required", left);
        }
    return 0;
}

/* ---- options valid under one value of another ---- */

/* The choice name a CLI_ENUM option's field holds now, or "?". */
static const char *current_choice(const cli_option *opt, cli_args *args, void *settings)
{
    int value = *(const int *)target(opt, args, settings);
    for (const cli_choice *c = opt->choices; c->name; c++)
        if (c->value == value)
            return c->name;
    return "?";
}

/* 1 when `word` is one of the comma-separated `list`. */
static int in_list(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',')
        if (strncmp(p, word, len) == 0 && (p[len] == ',' || p[len] == '\0'))
            return 1;
    return 0;
}

/* "--method ilp", "--format script or systemd". */
static void when_text(const cli_option *opt, char *buf, size_t size)
{
    const char *eq = strchr(opt->when, '=');
    size_t used = (size_t)snprintf(buf, size, "--%.*s ", (int)(eq - opt->when), opt->when);
    for (const char *p = eq + 1; *p && used < size;) {
        size_t len = strcspn(p, ",");
        const char *sep = p == eq + 1 ? "" : strchr(p, ',') ? ", " : " or ";
        used += (size_t)snprintf(buf + used, size - used, "%s%.*s", sep, (int)len, p);
        p += len + (p[len] == ',');
    }
}

static int check_when(cli_args *args, void *settings)
{
    const cli_option *table = args->cmd->options;
    for (size_t i = 0; table[i].name; i++) {
        if (!table[i].when || !args->given[i])
            continue;
        const char *eq = strchr(table[i].when, '=');
        const cli_option *dep = find_option(table, table[i].when, (size_t)(eq - table[i].when));
        const char *now = current_choice(dep, args, settings);
        if (in_list(eq + 1, now))
            continue;
        char wants[160];
        when_text(&table[i], wants, sizeof wants);
        return cli_usage_error(args, "--%s applies only with %s (here --%s is %s%s)",
                               table[i].name, wants, dep->name, now,
                               args->given[dep - table] ? "" : ", the default");
    }
    return 0;
}

/* CLI_OUTPUT options: a regular file or a new path (CLI_FILE), a folder or
 * a new path (CLI_DIR), refused before the command does anything. */
static int check_outputs(cli_args *args, void *settings)
{
    const cli_option *table = args->cmd->options;
    for (size_t i = 0; table[i].name; i++) {
        if (!(table[i].flags & CLI_OUTPUT) || !args->given[i])
            continue;
        const char *path = *(const char **)target(&table[i], args, settings);
        rtp_diag diag;
        rtp_diag_clear(&diag);
        if (rtp_output_check(path, (table[i].flags & CLI_DIR) != 0, &diag) != RTP_OK)
            return cli_usage_error(args, "--%s: %s", table[i].name, diag.message);
    }
    return 0;
}

int cli_parse(const cli_command *cmd, int argc, char **argv, int first, cli_args *out,
              void *settings)
{
    memset(out, 0, sizeof *out);
    out->cmd = cmd;
    out->command = cmd->name;
    out->max_input = RTP_INPUT_MAX_DEFAULT;
    int options_done = 0;
    for (int i = first; i < argc; i++) {
        const char *arg = argv[i];
        if (options_done || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (out->n_positional == CLI_MAX_POSITIONAL)
                return cli_usage_error(out, "too many arguments");
            out->positional[out->n_positional++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options_done = 1;
            continue;
        }
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            out->help = 1;
            continue;
        }
        if (arg[1] != '-')
            return cli_usage_error(out, "unknown option '%s' (see rtpack %s --help)", arg,
                                   cmd->name);
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const cli_option *opt = find_option(cmd->options, name, len);
        if (!opt)
            return unknown_option(out, arg, name, len);
        const char *value = "";
        if (opt->type != CLI_FLAG) {
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else
                return cli_usage_error(out, "option --%s needs a value", opt->name);
        } else if (eq) {
            return cli_usage_error(out, "option --%s takes no value", opt->name);
        }
        char why[WHY_SIZE] = "";
        if (parse_value(opt, value, target(opt, out, settings), why, sizeof why) != 0)
            return bad_value(out, opt, value, why);
        out->given[opt - cmd->options] = 1;
    }
    if (out->help)
        return 0;
    int rc = check_required(out);
    if (!rc)
        rc = check_when(out, settings);
    if (!rc)
        rc = check_outputs(out, settings);
    return rc ? rc : check_operands(out);
}

int cli_given(const cli_args *args, size_t offset)
{
    const cli_option *table = args->cmd->options;
    for (size_t i = 0; table[i].name; i++)
        if (!(table[i].flags & CLI_IN_ARGS) && table[i].offset == offset && args->given[i])
            return 1;
    return 0;
}

void cli_settings_free(const cli_command *cmd, void *settings)
{
    for (const cli_option *opt = cmd->options; opt->name; opt++) {
        if (opt->flags & CLI_IN_ARGS)
            continue;
        void *field = (char *)settings + opt->offset;
        if (opt->type == CLI_TIMES) {
            free(((cli_time_list *)field)->ns);
            ((cli_time_list *)field)->ns = NULL;
        } else if (opt->type == CLI_CPUS) {
            free(((cli_cpu_list *)field)->ids);
            ((cli_cpu_list *)field)->ids = NULL;
        }
    }
}

/* ---- --help ---- */

/* "--policy edf|fp", "--capacity F", "--json". */
static void option_left(const cli_option *opt, char *buf, size_t size)
{
    static const char *const meta[] = {
        [CLI_STRING] = "VALUE", [CLI_INT] = "N",      [CLI_DECIMAL] = "F",
        [CLI_SECONDS] = "S",    [CLI_TIME] = "T",     [CLI_TIMES] = "T,...",
        [CLI_CPUS] = "LIST",    [CLI_CUSTOM] = "VALUE",
    };
    if (opt->type == CLI_FLAG) {
        snprintf(buf, size, "--%s", opt->name);
    } else if (opt->type == CLI_ENUM && !opt->metavar) {
        size_t used = (size_t)snprintf(buf, size, "--%s ", opt->name);
        for (const cli_choice *c = opt->choices; c->name && used < size; c++)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", c == opt->choices ? "" : "|",
                                     c->name);
    } else {
        snprintf(buf, size, "--%s %s", opt->name, opt->metavar ? opt->metavar : meta[opt->type]);
    }
}

/* The help sentence with its range and default: "per-CPU cap, a decimal
 * number in (0, 1] (default 1)". */
static void option_text(const cli_option *opt, char *buf, size_t size)
{
    char wants[256] = "";
    if (opt->type == CLI_INT || (opt->type == CLI_DECIMAL && opt->range))
        wants_text(opt, wants, sizeof wants);
    char when[160] = "";
    if (opt->when) {
        size_t len = (size_t)snprintf(when, sizeof when, "; only with ");
        when_text(opt, when + len, sizeof when - len);
    }
    snprintf(buf, size, "%s%s%s%s%s%s%s", opt->help, wants[0] ? "; " : "", wants,
             opt->def ? " (default " : "", opt->def ? opt->def : "", opt->def ? ")" : "", when);
}

/* Prints `text` from column `indent`, wrapped before column 80. */
static void print_wrapped(FILE *out, const char *text, int column, int indent)
{
    while (*text) {
        size_t room = (size_t)(79 - column), len = strlen(text);
        if (len > room) {
            len = room;
            while (len > 0 && text[len] != ' ')
                len--;
            if (len == 0)
                len = strcspn(text, " ");
        }
        fprintf(out, "%.*s\n", (int)len, text);
        text += len;
        text += strspn(text, " ");
        if (*text)
            fprintf(out, "%*s", indent, "");
        column = indent;
    }
}

static void print_option(FILE *out, const cli_option *opt)
{
    char left[160], text[512];
    option_left(opt, left, sizeof left);
    option_text(opt, text, sizeof text);
    if (strlen(left) > 28)
        fprintf(out, "  %s\n%31s", left, "");
    else
        fprintf(out, "  %-28s ", left);
    print_wrapped(out, text, 31, 31);
}

void cli_print_help(const cli_command *cmd, FILE *out)
{
    fprintf(out, "usage: rtpack %s", cmd->name);
    if (cmd->operands)
        fprintf(out, " %s", cmd->operands);
    for (const cli_option *opt = cmd->options; opt->name; opt++)
        if (opt->flags & CLI_REQUIRED) {
            char left[160];
            option_left(opt, left, sizeof left);
            fprintf(out, " %s", left);
        }
    fprintf(out, " [options]\n\n");
    print_wrapped(out, cmd->summary, 0, 0);
    fprintf(out, "\noptions:\n");
    for (const cli_option *opt = cmd->options; opt->name; opt++)
        print_option(out, opt);
    fprintf(out, "  %-28s %s\n", "-h, --help", "show this help");
    fprintf(out, "\nexit status: 0 schedulable/feasible/done, 1 not schedulable/no plan,\n"
                 "2 usage error or bad input, 3 internal error or resource limit\n"
                 "'man rtpack-%s' has the whole manual page.\n", cmd->name);
}

/* ---- shared with the man page and completion (cli/manual.c) ---- */

void cli_option_left(const cli_option *opt, char *buf, size_t size)
{
    option_left(opt, buf, size);
}

void cli_option_text(const cli_option *opt, char *buf, size_t size)
{
    option_text(opt, buf, size);
}

/* ---- the table itself ---- */

static int range_ok(const char *range)
{
    const char *comma = range ? strchr(range, ',') : NULL;
    size_t len = range ? strlen(range) : 0;
    return comma && len >= 5 && (range[0] == '(' || range[0] == '[') &&
           (range[len - 1] == ')' || range[len - 1] == ']');
}

/* `when` names a CLI_ENUM option of the same table and values it has. */
static const char *when_problem(const cli_command *cmd, const cli_option *opt)
{
    const char *eq = strchr(opt->when, '=');
    const cli_option *dep = eq ? find_option(cmd->options, opt->when,
                                             (size_t)(eq - opt->when)) : NULL;
    if (!dep || dep->type != CLI_ENUM || !eq[1])
        return "has a 'when' that names no enum option";
    for (const char *p = eq + 1; *p; p += strcspn(p, ","), p += *p == ',') {
        const cli_choice *c = dep->choices;
        size_t len = strcspn(p, ",");
        while (c->name && (strlen(c->name) != len || strncmp(c->name, p, len) != 0))
            c++;
        if (!c->name)
            return "has a 'when' value its option does not take";
    }
    return NULL;
}

/* What is wrong with one entry of cmd's table, or NULL. */
static const char *option_problem(const cli_command *cmd, const cli_option *opt)
{
    static const size_t sizes[] = {
        [CLI_FLAG] = sizeof(int),          [CLI_STRING] = sizeof(const char *),
        [CLI_ENUM] = sizeof(int),          [CLI_DECIMAL] = sizeof(rtp_ratio),
        [CLI_SECONDS] = sizeof(double),    [CLI_TIME] = sizeof(rtp_ns),
        [CLI_TIMES] = sizeof(cli_time_list), [CLI_CPUS] = sizeof(cli_cpu_list),
    };
    if (find_option(cmd->options, opt->name, strlen(opt->name)) != opt ||
        strcmp(opt->name, "help") == 0)
        return "is declared twice";
    if (!opt->help)
        return "has no help text";
    if (opt->type == CLI_INT) {
        /* Unsigned capacity: a signed field's table keeps max within its type. */
        int fits = opt->size == 8 || ((opt->size == 1 || opt->size == 2 || opt->size == 4) &&
                                      opt->max < (UINT64_C(1) << (8 * opt->size)));
        if (!fits || (opt->min > 0 && (uint64_t)opt->min > opt->max))
            return "has a range its field cannot hold";
    } else if (opt->type == CLI_CUSTOM) {
        if (!opt->parse || !opt->wants)
            return "needs parse and wants";
    } else if (opt->size != sizes[opt->type]) {
        return "has a field of the wrong size for its type";
    }
    if (opt->type == CLI_ENUM && (!opt->choices || !opt->choices[0].name))
        return "has no choices";
    if (opt->type == CLI_DECIMAL && opt->range && !range_ok(opt->range))
        return "has a malformed range";
    if (!(opt->flags & CLI_IN_ARGS) && opt->offset + opt->size > cmd->settings_size)
        return "points past the settings";
    return opt->when ? when_problem(cmd, opt) : NULL;
}

int cli_check_table(const cli_command *cmd)
{
    size_t n = 0;
    for (const cli_option *opt = cmd->options; opt->name; opt++, n++) {
        const char *problem = n >= CLI_MAX_OPTIONS ? "is past CLI_MAX_OPTIONS"
                                                   : option_problem(cmd, opt);
        if (problem) {
            fprintf(stderr, "rtpack %s: internal error: option table: --%s %s\n", cmd->name,
                    opt->name, problem);
            return -1;
        }
    }
    return 0;
}
