"""Validates the OpenAPI documents, then holds their answer schemas to the live captures.

The documents (docs/openapi/*.yaml) must be valid OpenAPI, and the real API's answers captured in
Tests/OpenMarketCoreTests/Fixtures must conform to the schemas that describe them: a schema
stricter than the real API would make clients refuse real answers.
Usage: check_documents.py REPOSITORY_ROOT
"""
import json
import pathlib
import sys

import yaml
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

# (document, schema in components, capture)
CAPTURES = [
    ("v2a", "ListPage", "v2a-list-page.json"),
    ("v2a", "ProductDetail", "v2a-product-detail.json"),
    ("v2b", "ListPage", "v2b-list-page.json"),
    ("v2b", "ProductDetail", "v2b-product-detail.json"),
    ("v1", "ItemPage", "v1-list-page.json"),
    ("v1", "ItemDetail", "v1-item-detail.json"),
]


def inline(node, components):
    """The schema with every local `$ref` replaced by what it names (the documents have no cycles)."""
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            return inline(components[name], components)
        return {key: inline(value, components) for key, value in node.items()}
    if isinstance(node, list):
        return [inline(value, components) for value in node]
    return node


def main(root: pathlib.Path) -> int:
    failures = 0
    documents = {}
    for dialect in ("v2a", "v2b", "v1"):
        path = root / "docs" / "openapi" / f"{dialect}.yaml"
        spec, _ = read_from_filename(str(path))
        validate(spec)
        documents[dialect] = yaml.safe_load(path.read_text())
        print(f"{path.relative_to(root)}: valid OpenAPI {spec['openapi']}")
    for dialect, schema_name, capture in CAPTURES:
        components = documents[dialect]["components"]["schemas"]
        schema = inline(components[schema_name], components)
        instance = json.loads((root / "Tests" / "OpenMarketCoreTests" / "Fixtures" / capture).read_text())
        errors = sorted(OAS30Validator(schema).iter_errors(instance), key=lambda error: list(error.path))
        for error in errors:
            failures += 1
            print(f"{capture} against {dialect} {schema_name}: {'/'.join(map(str, error.path))}: {error.message}")
        if not errors:
            print(f"{capture} conforms to {dialect} {schema_name}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))
