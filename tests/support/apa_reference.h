/* tests/support/apa_reference.h — the slow, obviously correct reference for
 * arbitrary processor affinities under fixed priorities: a unit-step
 * simulation of an APA scheduler ([GCB13]: each instant, jobs in priority
 * order take a free CPU of their mask; a job waits only while every CPU of
 * its mask runs a more urgent one). The CPU is chosen at random (test_apa:
 * any choice keeps the invariant the bounds of solver/apa.h rely on) or by
 * sim/sim.h's rule (test_sim: the CPU the task ran on just before, else the
 * one whose previous job was least urgent, an idle one first, lowest index
 * on ties), so the product simulator can be held to it trace for trace. */
#ifndef RTP_APA_REFERENCE_H
#define RTP_APA_REFERENCE_H

#include "models/taskset.h"
#include "support/testutil.h"

#define APA_REF_MAXN 6
#define APA_REF_MAXJ 64

/* Jobs: arrivals, releases (ready from then on; arr <= rel <= arr + J,
 * non-decreasing per task) and execution times per task. Responses run
 * from the arrival. */
typedef struct apa_ref_scenario {
    rtp_ns arr[APA_REF_MAXN][APA_REF_MAXJ], rel[APA_REF_MAXN][APA_REF_MAXJ],
        exec[APA_REF_MAXN][APA_REF_MAXJ];
    int count[APA_REF_MAXN];
} apa_ref_scenario;

/* Seeded sets: 2..6 tasks on *m = 2..3 CPUs, random non-empty masks,
 * deadline-monotonic priorities (distinct, ties by index); returns n. */
size_t apa_ref_random_set(tu_rng *rng, rtp_task *ts, uint64_t *mask, int *prio, int *m);

/* A random pattern up to `horizon`: synchronous or random offsets, sporadic
 * gaps now and then, some executions shorter than the wcet; every job
 * released at its arrival. */
void apa_ref_scenario_draw(tu_rng *rng, const rtp_task *ts, size_t n, rtp_ns horizon,
                           apa_ref_scenario *sc);

/* Redraws each job's release within what ts[i].jitter_ns allows: its
 * arrival + 0 or + J (a third of the time each, the extremes worst cases
 * are made of) or a uniform delay between; kept non-decreasing per task
 * (still within [arr, arr + J]: the previous release is at most its own
 * arrival + J, below this one's). */
void apa_ref_scenario_jitter(tu_rng *rng, const rtp_task *ts, size_t n, apa_ref_scenario *sc);

/* The schedule on m CPUs of tasks with masks and distinct priorities (n =
 * most urgent) up to `until`; `pick` non-NULL: a random free CPU, NULL:
 * sim.h's rule. worst[i] = the largest response of task i (from arrival),
 * pending jobs counted by their age at `until`. */
void apa_ref_simulate(tu_rng *pick, size_t n, const uint64_t *mask,
                      const int *prio, int m, const apa_ref_scenario *sc, rtp_ns until,
                      rtp_ns *worst);

#endif
