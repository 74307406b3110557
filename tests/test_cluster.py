"""`tarock simulate --cluster`: the deals played on a Dask cluster give exactly the numbers one
process gives for the same seed. The cluster is a local one started here (in this process, two
workers of one thread each, over TCP so that the command in a subprocess reaches it too)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from clirun import tarock

from interpreter.frontends.simulate import simulate

distributed = pytest.importorskip("dask.distributed", reason='the optional extra "cluster" is not installed')

NAME = "breitnau"


def numbers(stats: dict) -> dict:
    return {k: v for k, v in stats.items() if k != "speed"}


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def test_a_cluster_gives_the_numbers_of_one_process(scheduler: str) -> None:
    here = simulate(NAME, 50, seed=11)
    there = simulate(NAME, 50, seed=11, cluster=scheduler)
    assert numbers(there) == numbers(here)
    assert there["speed"]["cluster"] == scheduler and there["speed"]["workers"] == 2
    assert there["speed"]["cpu_seconds"] > 0
    randomly = {"bot": "random", "pass_probability": 0.8, "options": {"solo_factor": "english"}}
    assert numbers(simulate(NAME, 40, seed=2, cluster=scheduler, **randomly)) == numbers(
        simulate(NAME, 40, seed=2, **randomly)
    )


def test_the_command_runs_on_the_cluster(scheduler: str) -> None:
    out = tarock("simulate", NAME, "--deals", "20", "--seed", "4", "--json", "--cluster", scheduler)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert numbers(data) == numbers(simulate(NAME, 20, seed=4))
    assert data["speed"]["cluster"] == scheduler
