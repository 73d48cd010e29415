"""Acceptance ratio vs utilization per CPU with rtpack's gen + partition:
the sets and numbers of `rtpack explore SWEEP` (docs/python.md).
usage: python3 sweep_plot.py SWEEP.json OUT.png"""
import sys
import rtpack


def acceptance(sweep):  # {(policy, method): [(point, accepted sets)]}
    return {(pol, met): [(pt, sum(rtpack.partition(sweep.taskset(p, i), pol, met,
                                                   cpus=pt["cpus"]).feasible
                                  for i in range(sweep.sets_per_point)))
                         for p, pt in enumerate(sweep.points)]
            for pol in sweep.document["policies"] for met in sweep.document["methods"]}


if __name__ == "__main__":
    import matplotlib.pyplot as plt
    sweep = rtpack.Sweep(sys.argv[1])
    for (policy, method), rows in acceptance(sweep).items():
        plt.plot([float(pt["utilization"]) for pt, _ in rows],
                 [ok / sweep.sets_per_point for _, ok in rows], marker="o",
                 label=f"{policy} {method}")
    plt.xlabel("utilization per CPU"); plt.ylabel("acceptance ratio"); plt.legend()
    plt.savefig(sys.argv[2])
