"""Running Great Expectations: each TableCheck's suite on its frame, in one in-memory context,
with at most a local Data Docs site (docs_dir).

Great Expectations takes seconds to import, so it is imported inside the functions that use it
(`great_expectations()`): importing this module stays cheap.
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

# The name of the one Data Docs site GX builds.
DOCS_SITE = "capclean"

# How many offending rows a failure line (and the Data Docs) shows.
EXAMPLE_ROWS = 3


def great_expectations():
    """Import Great Expectations on first use (it takes seconds), analytics off."""
    # GX reads this when it is imported: nothing may leave this machine.
    os.environ["GX_ANALYTICS_ENABLED"] = "false"
    # GX logs hundreds of INFO lines while importing; a Beam worker logs at INFO.
    logging.getLogger("great_expectations").setLevel(logging.WARNING)
    import great_expectations as gx

    # Some GX modules set their own logger to INFO when imported.
    for name in list(logging.root.manager.loggerDict):
        if name.startswith("great_expectations"):
            logging.getLogger(name).setLevel(logging.WARNING)

    return gx


@dataclass
class TableCheck:
    """One GX suite and the table it runs on."""

    name: str
    frame: pd.DataFrame
    expectations: list[Any]  # great_expectations Expectation objects
    # The columns that identify a row in a failure line.
    id_columns: list[str]


def run_suites(checks: list[TableCheck], docs_dir: str | None) -> list[tuple[TableCheck, Any]]:
    """Run each check's suite on its frame; return (check, expectation result)s.

    Each table gets its own ValidationDefinition, run directly rather than
    from a Checkpoint: a Checkpoint passes the same batch parameters (so the
    same DataFrame) to all its validation definitions, and each table here is
    a different DataFrame. Data Docs are then built once from the results.
    """
    gx = great_expectations()
    context = offline_context(docs_dir)
    source = context.data_sources.add_pandas("capclean")

    results = []
    for check in checks:
        batch = source.add_dataframe_asset(check.name).add_batch_definition_whole_dataframe(
            "whole table")
        suite = context.suites.add(gx.ExpectationSuite(
            name=f"capclean.{check.name}", expectations=check.expectations))
        definition = context.validation_definitions.add(gx.ValidationDefinition(
            name=f"capclean.{check.name}", data=batch, suite=suite))
        suite_result = definition.run(
            batch_parameters={"dataframe": check.frame},
            # SUMMARY gives a few offending values and their row index; not
            # `unexpected_index_column_names`, which makes GX look up every
            # offending row in Python (10+ s when most of 200,000 rows fail).
            result_format={"result_format": "SUMMARY",
                           "partial_unexpected_count": EXAMPLE_ROWS})
        results += [(check, result) for result in in_suite_order(suite_result.results, suite)]
        release_batch_data(source)

    if docs_dir:
        context.build_data_docs(site_names=[DOCS_SITE])
    return results


def release_batch_data(source) -> None:
    """Drop what GX keeps of a table after its suite has run: its execution engine holds every batch it
    was given, and the columns its metrics computed, until the context goes, so that every table and
    derived table (each about as long as captions/) would stay in memory with all the others. The
    results, and so the Data Docs, do not need them; a metric is cached per batch, never shared."""
    engine = source.get_execution_engine()
    engine.batch_manager.batch_data_cache.clear()
    engine.batch_manager.reset_batch_cache()
    # No public way to empty it; a context made with caching off would recompute a metric each time.
    engine._metric_cache.clear()


def in_suite_order(results: list[Any], suite: Any) -> list[Any]:
    """GX returns results in an order of its own; report them as the suite
    lists its expectations, so the schema checks come first."""
    position = {expectation.id: i for i, expectation in enumerate(suite.expectations)}
    return sorted(results, key=lambda result: position.get(result.expectation_config.id, 0))


def offline_context(docs_dir: str | None):
    """An in-memory GX context, quiet, with at most a local Data Docs site."""
    gx = great_expectations()
    from great_expectations.data_context.types.base import ProgressBarsConfig

    context = gx.get_context(mode="ephemeral")
    # Progress bars would clutter the pipeline's terminal output.
    context.variables.progress_bars = ProgressBarsConfig(globally=False)
    # The ephemeral context comes with a site of its own in a temporary
    # folder; replace it with ours, written only to the local `docs_dir`.
    for site_name in list(context.list_data_docs_sites()):
        context.delete_data_docs_site(site_name)
    if docs_dir:
        context.add_data_docs_site(DOCS_SITE, {
            "class_name": "SiteBuilder",
            "show_how_to_buttons": False,
            "store_backend": {
                "class_name": "TupleFilesystemStoreBackend",
                "base_directory": str(Path(docs_dir).resolve()),
            },
            "site_index_builder": {"class_name": "DefaultSiteIndexBuilder"},
        })
    return context
