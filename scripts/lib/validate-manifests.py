"""
Validates rendered Kubernetes objects (scripts/lib/helm.ts runs it in the kubernetes-validate venv).

stdin: {"kubeVersions": ["1.31.0", ...], "crds": ["path/to/crd.yaml", ...], "docs": [{"source": str, "doc": {...}}]}
stdout: {"problems": [str, ...], "validated": {"<source>": {"<kind>": count}}}

Built-in kinds are checked with kubernetes-validate's strict schemas (unknown fields refused) for
every version asked; kinds of the given CRDs against the CRD's openAPIV3Schema made strict the same
way (additionalProperties: false wherever the schema lists properties and does not keep unknown
fields). A kind with no schema at all is a problem.
"""
import functools
import json
import sys

import jsonschema
import kubernetes_validate
import kubernetes_validate.utils as kv_utils
import yaml

# Each call would otherwise read the multi-megabyte definitions file again.
kv_utils.schema_contents = functools.lru_cache(maxsize=None)(kv_utils.schema_contents)


def strict(schema):
    if isinstance(schema, dict):
        out = {key: strict(value) for key, value in schema.items()}
        if (
            "properties" in out
            and "additionalProperties" not in out
            and not out.get("x-kubernetes-preserve-unknown-fields")
        ):
            out["additionalProperties"] = False
        # OpenAPI's nullable is not JSON Schema: a null value is allowed where it says so.
        if out.get("nullable") and isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
        # int-or-string fields carry no type in the CRD schema; leave them open.
        return out
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    return schema


def load_crds(paths):
    validators = {}
    for path in paths:
        with open(path) as f:
            crd = yaml.safe_load(f)
        group = crd["spec"]["group"]
        kind = crd["spec"]["names"]["kind"]
        for version in crd["spec"]["versions"]:
            schema = strict(version["schema"]["openAPIV3Schema"])
            validators[(f"{group}/{version['name']}", kind)] = jsonschema.Draft7Validator(schema)
    return validators


def count(validated, source, kind):
    kinds = validated.setdefault(source, {})
    kinds[kind] = kinds.get(kind, 0) + 1


def main():
    request = json.load(sys.stdin)
    crds = load_crds(request.get("crds", []))
    problems = []
    validated = {}
    for item in request["docs"]:
        doc, source = item["doc"], item["source"]
        name = f"{doc.get('kind')}/{(doc.get('metadata') or {}).get('name')} ({source})"
        key = (doc.get("apiVersion"), doc.get("kind"))
        if key in crds:
            errors = sorted(crds[key].iter_errors(doc), key=lambda e: list(e.path))
            for error in errors:
                path = ".".join(str(p) for p in error.path)
                problems.append(f"{name}: {path}: {error.message} [CRD schema]")
            count(validated, source, doc["kind"])
            continue
        for version in request["kubeVersions"]:
            try:
                kubernetes_validate.validate(doc, version, strict=True)
            except kubernetes_validate.ValidationError as error:
                path = ".".join(str(p) for p in error.path)
                problems.append(f"{name}: {path}: {error.message} [Kubernetes {version}]")
            except kv_utils.SchemaNotFoundError as error:
                problems.append(f"{name}: {error.message}")
        count(validated, source, doc["kind"])
    json.dump({"problems": problems, "validated": validated}, sys.stdout)


main()
