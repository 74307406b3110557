"""`tarock simulate --cluster`: the deals played on a Dask cluster give exactly the numbers one
process gives for the same seed. The cluster is a local one started here (in this process, two
workers of one thread each, over TCP so that the command in a subprocess reaches it too)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from clirun import tarock

from interpreter.errors import TarockError
from interpreter.frontends.simulate import simulate

distributed = pytest.importorskip("dask.distributed", reason='the optional extra "cluster" is not installed')
dask = pytest.importorskip("dask")

NAME = "breitnau"


def numbers(stats: dict) -> dict:
    return {k: v for k, v in stats.items() if k != "speed"}


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=":0"
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


def one_line_error(args: list[str]) -> str:
    out = tarock("simulate", NAME, "--deals", "20", *args)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("tarock: ") and out.stderr.count("\n") == 1, out.stderr
    return out.stderr


def test_a_scheduler_without_workers_is_given_up_on_in_time() -> None:
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=":0") as empty:
        address = empty.scheduler_address
        started = time.monotonic()
        with pytest.raises(
            TarockError, match=rf"the Dask scheduler at {address} has no workers: none came within 0.5 s"
        ):
            simulate(NAME, 20, cluster=address, cluster_timeout=0.5)
        assert time.monotonic() - started < 10
        said = one_line_error(["--cluster", address, "--cluster-timeout", "0.5"])
        assert f"start some with `dask worker {address}`" in said and "--cluster-timeout" in said
    assert "above 0" in one_line_error(["--cluster", "tcp://127.0.0.1:1", "--cluster-timeout", "0"])


CLUSTER_ELSEWHERE = """
import time
from dask import distributed
with distributed.LocalCluster(
    n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=":0"
) as cluster:
    print(cluster.scheduler_address, flush=True)
    time.sleep(300)
"""


def test_a_lost_scheduler_ends_the_run_with_a_clear_error() -> None:
    # The scheduler (and its worker) in a process of its own, killed once the first chunk is in.
    elsewhere = subprocess.Popen(
        [sys.executable, "-c", CLUSTER_ELSEWHERE], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        address = elsewhere.stdout.readline().strip() if elsewhere.stdout else ""
        assert address.startswith("tcp://")

        def progress(n: int) -> None:
            if elsewhere.poll() is None:
                elsewhere.kill()
                elsewhere.wait()

        with pytest.raises(
            TarockError, match=rf"^lost the Dask scheduler at {address}; [\d,]+ of 2,000 deals were played"
        ):
            simulate(NAME, 2000, cluster=address, cluster_timeout=2, progress=progress)
    finally:
        elsewhere.kill()
        elsewhere.wait()


def test_workers_that_all_went_away_are_given_up_on_in_time() -> None:
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=":0") as cluster:
        address = cluster.scheduler_address
        worker = subprocess.Popen(
            # By this interpreter, not the `dask` program, which is on PATH only where the venv is.
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_worker",
                address,
                "--nthreads",
                "1",
                "--no-nanny",
                "--no-dashboard",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            with distributed.Client(address) as client:
                client.wait_for_workers(1, timeout=60)

            def progress(n: int) -> None:  # the only worker process killed once the first chunk is in
                if worker.poll() is None:
                    worker.kill()
                    worker.wait()

            with pytest.raises(TarockError, match=rf"the Dask scheduler at {address} has had no workers for 1 s"):
                simulate(NAME, 2000, cluster=address, cluster_timeout=1, progress=progress)
        finally:
            worker.kill()
            worker.wait()


def test_a_tls_address_says_what_it_needs() -> None:
    said = one_line_error(["--cluster", "tls://127.0.0.1:1"])
    assert "a tls:// address needs the cluster's TLS certificates, and none are configured" in said
    for key in ("TLS__CA_FILE", "TLS__CLIENT__CERT", "TLS__CLIENT__KEY"):
        assert f"DASK_DISTRIBUTED__COMM__{key}" in said


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test's certificate")
def test_a_tls_address_works_with_the_certificates_configured(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-keyout", str(key), "-out", str(cert), "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        capture_output=True,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    pem = {"cert": str(cert), "key": str(key)}
    security = distributed.Security(
        tls_ca_file=str(cert),
        **{f"tls_{role}_{part}": path for role in ("scheduler", "worker", "client") for part, path in pem.items()},
        require_encryption=True,
    )
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tls", security=security, dashboard_address=":0"
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tls://")
        tls = {"distributed.comm.tls.ca-file": str(cert), "distributed.comm.tls.client": pem}
        with dask.config.set(tls):
            there = simulate(NAME, 12, seed=3, cluster=address)
    assert numbers(there) == numbers(simulate(NAME, 12, seed=3))
