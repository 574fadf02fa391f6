"""The collector settings a build changes are put back as they were, nested or not."""

from __future__ import annotations

import gc

from dbt_lineage.memory import collected_after, collections_paused, fewer_collections


def test_nested_blocks_change_the_collector_once_and_restore_it() -> None:
    threshold, enabled = gc.get_threshold(), gc.isenabled()
    with collections_paused():
        assert not gc.isenabled()
        with fewer_collections():  # inner: changes nothing
            assert not gc.isenabled() and gc.get_threshold() == threshold
        with collected_after():
            assert not gc.isenabled()
        assert not gc.isenabled()  # collected_after leaves the paused collector off
    assert (gc.get_threshold(), gc.isenabled()) == (threshold, enabled)
    with fewer_collections():
        assert gc.get_threshold() == (100_000, 50, 100)
        with collections_paused():  # inner: changes nothing
            assert gc.isenabled()
    assert (gc.get_threshold(), gc.isenabled(), gc.get_freeze_count()) == (threshold, enabled, 0)
