#!/usr/bin/env python3
"""Checks betactl's OpenAPI document with independent tools, and real answers against it.

Usage: openapi_check.py BASE TOKEN REQUESTS.json
  BASE           the server, e.g. http://127.0.0.1:8080
  TOKEN          an admin token
  REQUESTS.json  [{"method": "GET", "path": "/testers/1", "operation": "/testers/{id}"}, ...]:
                 requests to make; each answer is validated against the schema the document gives
                 for that operation and status (problem+json answers against Problem). An item with
                 "answer": {"status": 201, "contentType": "...", "body": "..."} is an answer the
                 caller already got (for example from an upload); it is validated the same way.

Prints JSON: {"valid": true, "paths": N, "checked": [...], "failures": [...]}. The document is
validated with openapi-spec-validator (OpenAPI 3.1); each answer with jsonschema (draft 2020-12)
and, on top, every object member the schema does not list is reported, so the schemas cannot
fall behind the JSON betactl really sends.
"""
import json
import sys
import urllib.error
import urllib.request

from jsonschema import Draft202012Validator
from openapi_spec_validator import validate


def fetch(url, token=None, method="GET"):
    request = urllib.request.Request(url, method=method)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def resolve(document, schema):
    while isinstance(schema, dict) and "$ref" in schema:
        node = document
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def undeclared(document, schema, value, where):
    """Object members the schema does not declare (and that no additionalProperties schema covers)."""
    schema = resolve(document, schema)
    found = []
    if not isinstance(schema, dict):
        return found
    if "oneOf" in schema:
        return found
    if isinstance(value, dict) and schema.get("type") == "object":
        properties = schema.get("properties", {})
        additional = schema.get("additionalProperties")
        for key, item in value.items():
            if key in properties:
                found += undeclared(document, properties[key], item, f"{where}.{key}")
            elif isinstance(additional, dict) and additional:
                found += undeclared(document, additional, item, f"{where}.{key}")
            elif additional is None or additional is False:
                found.append(f"{where}.{key}")
    elif isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            found += undeclared(document, schema["items"], item, f"{where}[{index}]")
    return found


def main():
    base, token, requests_file = sys.argv[1], sys.argv[2], sys.argv[3]
    status, _, body = fetch(base + "/api/v1/openapi.json")
    document = json.loads(body)
    validate(document)
    server = document["servers"][0]["url"]
    report = {"valid": True, "paths": len(document["paths"]), "checked": [], "failures": []}
    with open(requests_file) as handle:
        requests = json.load(handle)
    for item in requests:
        operation = document["paths"][item["operation"]][item["method"].lower()]
        if "answer" in item:
            answer = item["answer"]
            status, content_type, body = answer["status"], answer["contentType"], answer["body"].encode()
        else:
            status, content_type, body = fetch(server + item["path"], token, item["method"])
        responses = operation["responses"]
        described = responses.get(str(status)) or responses.get("default")
        described = resolve(document, described)
        media = content_type.split(";")[0].strip()
        label = f'{item["method"]} {item["path"]} -> {status}'
        if "content" not in described and not body:
            report["checked"].append(label)
            continue
        if media not in described.get("content", {}):
            report["failures"].append(f"{label}: {media} is not documented for this status")
            continue
        schema = described["content"][media]["schema"]
        value = json.loads(body) if media.endswith("json") else body.decode("utf-8")
        root = {"$ref": "#/x-answer", "x-answer": schema, "components": document["components"]}
        errors = [f"{label}: {error.json_path}: {error.message}" for error in Draft202012Validator(root).iter_errors(value)]
        errors += [f"{label}: {path} is not in the schema" for path in undeclared(document, schema, value, "$")]
        report["failures"] += errors
        report["checked"].append(label)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
