"""Events of the template's recorded run validate against the official OpenLineage JSON
schemas kept in ``schemas/`` (see its SOURCES.md for versions and provenance)."""

from __future__ import annotations

import json
import typing as t
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource
from tests.outputs.openlineage.conftest import emitted

pytestmark = pytest.mark.slow

SCHEMAS = Path(__file__).parent / "schemas"
CORE = "https://openlineage.io/spec/2-0-0/OpenLineage.json"
INPUT_FIELD = (
    "https://openlineage.io/spec/facets/1-1-0/ColumnLineageDatasetFacet.json#/$defs/"
    "ColumnLineageDatasetFacet/allOf/1/properties/fields/additionalProperties/properties/"
    "inputFields/items"
)
FACETS_CHECKED = {
    "columnLineage",
    "schema",
    "parent",
    "errorMessage",
    "sql",
    "sourceCodeLocation",
    "jobType",
}


def _registry() -> tuple[Registry, dict[str, str]]:
    """Every kept schema under its own ``$id``; the core also under the ids the facets
    reference (see SOURCES.md); and each facet's id by facet name."""
    registry = Registry()
    facets: dict[str, str] = {}
    for path in sorted(SCHEMAS.glob("*.json")):
        document = json.loads(path.read_text())
        resource = Resource.from_contents(document)
        registry = registry.with_resource(document["$id"], resource)
        if path.name.startswith("OpenLineage-"):
            for alias in ("2-0-2", "1-0-2"):
                registry = registry.with_resource(
                    f"https://openlineage.io/spec/{alias}/OpenLineage.json", resource
                )
        else:
            facets[path.name.rsplit("-", 3)[0]] = document["$id"]
    return registry, facets


REGISTRY, FACET_IDS = _registry()


def _validate(instance: t.Any, ref: str) -> None:
    validator = jsonschema.Draft202012Validator(
        {"$ref": ref}, registry=REGISTRY, format_checker=jsonschema.FormatChecker()
    )
    validator.validate(instance)


def _facets(event: dict[str, t.Any]) -> t.Iterator[tuple[str, dict[str, t.Any]]]:
    yield from event["run"].get("facets", {}).items()
    yield from event["job"].get("facets", {}).items()
    for dataset in (*event.get("inputs", ()), *event.get("outputs", ())):
        yield from dataset.get("facets", {}).items()
        yield from dataset.get("outputFacets", {}).items()


def test_every_event_and_facet_validates(shop: Path) -> None:
    events = emitted(shop)
    assert len(events) > 20
    checked: set[str] = set()
    for event in events:
        _validate(event, f"{CORE}#/$defs/RunEvent")
        for key, facet in _facets(event):
            name = facet["_schemaURL"].split("/")[-1].split(".json")[0]
            if name in FACET_IDS:
                _validate(facet, f"{FACET_IDS[name]}#/$defs/{name}")
                checked.add(key)
            if key == "columnLineage":
                for item in facet.get("dataset", []):
                    _validate(item, INPUT_FIELD)
    assert checked == FACETS_CHECKED


def test_an_invalid_event_is_rejected(shop: Path) -> None:
    """The validation can fail: a transformation without its type, a run id that is no
    UUID."""
    event = next(e for e in emitted(shop) if "columnLineage" in str(e["outputs"]))
    lineage = event["outputs"][0]["facets"]["columnLineage"]
    field = next(iter(lineage["fields"].values()))["inputFields"][0]
    del field["transformations"][0]["type"]
    with pytest.raises(jsonschema.ValidationError):
        _validate(
            lineage, f"{FACET_IDS['ColumnLineageDatasetFacet']}#/$defs/ColumnLineageDatasetFacet"
        )
    event["run"]["runId"] = "not-a-uuid"
    with pytest.raises(jsonschema.ValidationError):
        _validate(event, f"{CORE}#/$defs/RunEvent")
