/* cli/cmd_gen.c — `rtpack gen`: generate one random task set (gen/gen.h)
 * and print it as a task-set document (times as integer ns). */
#include "cli/cli.h"
#include "gen/gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gen_settings {
    rtp_gen_opts gen;
    uint64_t seed;
    rtp_ns periods[2];        /* --periods MIN:MAX */
    cli_time_list period_set; /* --period-set */
    rtp_ns cs_length[2];      /* --cs-length MIN:MAX */
} gen_settings;

static const cli_choice generators[] = {
    {"uunifast-discard", RTP_GEN_UUNIFAST_DISCARD}, {"randfixedsum", RTP_GEN_RANDFIXEDSUM},
    {NULL, 0},
};
static const cli_choice deadlines[] = {
    {"implicit", RTP_DL_IMPLICIT}, {"constrained", RTP_DL_CONSTRAINED},
    {"arbitrary", RTP_DL_ARBITRARY}, {NULL, 0},
};

/* "MIN:MAX", two positive times. */
static int parse_periods(const char *text, void *field, char *why, size_t why_size)
{
    rtp_ns *range = field;
    const char *colon = strchr(text, ':');
    char min[64];
    if (!colon || (size_t)(colon - text) >= sizeof min || strchr(colon + 1, ':'))
        return -1;
    memcpy(min, text, (size_t)(colon - text));
    min[colon - text] = '\0';
    for (int k = 0; k < 2; k++) {
        const char *part = k ? colon + 1 : min;
        if (cli_parse_time(part, &range[k], why, why_size) != 0)
            return -1;
    }
    return 0;
}

static const cli_option options[] = {
    {.name = "tasks", .type = CLI_INT, CLI_TARGET(gen_settings, gen.n_tasks), .min = 1,
     .max = 100000, .flags = CLI_REQUIRED, .help = "number of tasks"},
    {.name = "utilization", .type = CLI_DECIMAL, CLI_TARGET(gen_settings, gen.total_util),
     .metavar = "U", .flags = CLI_REQUIRED, .help = "total utilization (exact decimal, e.g. 2.5)"},
    {.name = "seed", .type = CLI_INT, CLI_TARGET(gen_settings, seed), .metavar = "S", .min = 0,
     .max = UINT64_MAX, .def = "1", .help = "random seed"},
    {.name = "generator", .type = CLI_ENUM, CLI_TARGET(gen_settings, gen.algo),
     .choices = generators, .def = "uunifast-discard", .help = "how utilizations are drawn"},
    {.name = "periods", .type = CLI_CUSTOM, CLI_TARGET(gen_settings, periods),
     .metavar = "MIN:MAX", .parse = parse_periods, .wants = "MIN:MAX, e.g. 1ms:1s",
     .def = "1ms:1s", .help = "period range, log-uniform"},
    {.name = "deadlines", .type = CLI_ENUM, CLI_TARGET(gen_settings, gen.deadlines),
     .choices = deadlines, .def = "implicit", .help = "deadline model"},
    {.name = "max-task-util", .type = CLI_DECIMAL, CLI_TARGET(gen_settings, gen.max_task_util),
     .range = "(0, 1]", .def = "1", .help = "per-task utilization cap"},
    {.name = "granularity", .type = CLI_TIME, CLI_TARGET(gen_settings, gen.granularity_ns),
     .metavar = "G", .def = "1ns", .help = "periods are multiples of G"},
    {.name = "harmonic", .type = CLI_FLAG, CLI_TARGET(gen_settings, gen.harmonic),
     .help = "periods MIN x 2^k within the range"},
    {.name = "period-set", .type = CLI_TIMES, CLI_TARGET(gen_settings, period_set),
     .metavar = "LIST", .help = "periods drawn uniformly from T1,T2,..."},
    {.name = "constrained-factor", .type = CLI_DECIMAL,
     CLI_TARGET(gen_settings, gen.constrained_factor), .metavar = "a", .def = "0.5",
     .when = "deadlines=constrained",
     .help = "constrained D uniform in [C + a(T - C), T]"},
    {.name = "arbitrary-factor", .type = CLI_DECIMAL,
     CLI_TARGET(gen_settings, gen.arbitrary_factor), .metavar = "b", .def = "2",
     .when = "deadlines=arbitrary",
     .help = "arbitrary D uniform in [C, b T]"},
    {.name = "max-attempts", .type = CLI_INT, CLI_TARGET(gen_settings, gen.max_attempts),
     .min = 0, .max = UINT32_MAX, .def = "10000", .when = "generator=uunifast-discard",
     .help = "uunifast-discard draws before giving up"},
    {.name = "resources", .type = CLI_INT, CLI_TARGET(gen_settings, gen.n_resources), .min = 0,
     .max = 1000, .metavar = "R", .def = "0",
     .help = "shared resources R1..RR (docs/spec.md \"Shared resources\")"},
    {.name = "access", .type = CLI_DECIMAL, CLI_TARGET(gen_settings, gen.access), .metavar = "P",
     .range = "[0, 1]", .def = "0.5",
     .help = "probability that a task uses each resource"},
    {.name = "requests", .type = CLI_INT, CLI_TARGET(gen_settings, gen.max_requests), .min = 1,
     .max = 1000, .metavar = "K", .def = "1",
     .help = "critical sections per job on a resource it uses, uniform in 1..K"},
    {.name = "cs-length", .type = CLI_CUSTOM, CLI_TARGET(gen_settings, cs_length),
     .metavar = "MIN:MAX", .parse = parse_periods, .wants = "MIN:MAX, e.g. 1us:100us",
     .def = "1us:100us",
     .help = "critical-section length, uniform (cut to fit the wcet)"},
    CLI_OPTION_CPUS,
    CLI_OPTION_JSON,
    CLI_END,
};

static void init(void *opaque)
{
    gen_settings *s = opaque;
    s->gen = rtp_gen_opts_default();
    s->seed = 1;
    s->periods[0] = s->gen.period_min_ns;
    s->periods[1] = s->gen.period_max_ns;
    s->cs_length[0] = s->gen.cs_min_ns;
    s->cs_length[1] = s->gen.cs_max_ns;
}

static int run(const cli_args *args, void *settings)
{
    gen_settings *s = settings;
    s->gen.period_min_ns = s->periods[0];
    s->gen.period_max_ns = s->periods[1];
    if (s->gen.n_resources == 0 &&
        (CLI_GIVEN(args, gen_settings, gen.access) || CLI_GIVEN(args, gen_settings, gen.max_requests) ||
         CLI_GIVEN(args, gen_settings, cs_length)))
        return cli_usage_error(args, "--access, --requests and --cs-length describe the "
                                     "resources of --resources R (R >= 1)");
    s->gen.cs_min_ns = s->cs_length[0];
    s->gen.cs_max_ns = s->cs_length[1];
    s->gen.period_set = s->period_set.ns;
    s->gen.n_period_set = s->period_set.n;
    rtp_taskset ts;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_gen_taskset(&s->gen, s->seed, 0, 0, &ts, &diag);
    if (st != RTP_OK)
        return cli_fail(args, "", st, &diag);
    if (args->cpus > 0) {
        ts.has_platform = 1;
        ts.platform.cpus_given_as_count = 1;
        ts.platform.n_cpus = (size_t)args->cpus;
        ts.platform.cpus = calloc((size_t)args->cpus, sizeof *ts.platform.cpus);
        for (int i = 0; ts.platform.cpus && i < args->cpus; i++)
            ts.platform.cpus[i] = i;
        if (!ts.platform.cpus)
            ts.has_platform = 0;
    }
    char *text = rtp_taskset_to_json(&ts, 1);
    rtp_taskset_free(&ts);
    if (!text)
        return cli_out_of_memory(args);
    fputs(text, stdout);
    free(text);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_gen = {
    .name = "gen",
    .summary = "Generate a random task set and print it as a task-set document (times in "
               "integer ns). Same arguments, same bytes, on any machine.",
    .description =
        "Utilizations come from UUniFast-discard or RandFixedSum and sum exactly to U; "
        "periods are log-uniform in MIN:MAX (or harmonic, or drawn from --period-set) and "
        "multiples of --granularity; wcet = utilization x period rounded to whole ns. An "
        "impossible request (U above N x --max-task-util) is exit 2. --cpus M adds a "
        "platform of M CPUs to the document.",
    .examples = "rtpack gen --tasks 10 --utilization 2.5 --seed 7 > set.json\n"
                "rtpack gen --tasks 20 --utilization 3.2 --deadlines constrained "
                "--periods 1ms:100ms --cpus 4\n",
    .options = options,
    .settings_size = sizeof(gen_settings),
    .init = init,
    .run = run,
};
