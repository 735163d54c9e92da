"""plangram.dask on a real LocalCluster with worker processes equals a single-process run."""

import pytest

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

import plangram.dask  # noqa: E402

from conftest import REPO, golden_inputs  # noqa: E402


def test_local_cluster_matches_single_process():
    paths = [str(REPO / p) for p in golden_inputs()]
    want = pd.DataFrame([plangram.dask.summarise(p) for p in paths], columns=plangram.dask.COLUMNS)
    assert (want.errors > 0).any() and (want.actions > 0).any()
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = plangram.dask.parse_files(paths, client=client, npartitions=8)
        # the cluster ran two worker processes
        assert len(client.scheduler_info()["workers"]) == 2
    pd.testing.assert_frame_equal(got, want)


def test_empty():
    assert list(plangram.dask.parse_files([]).columns) == plangram.dask.COLUMNS
