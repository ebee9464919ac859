#!/usr/bin/env python3
"""`stubd import-postman` on real Postman collections: does every saved example answer as saved?

For each collection (and its environment, `COLLECTION[=ENVIRONMENT]`):
1. `stubd import-postman` into a fresh folder: exit status, routes, what it skipped and why.
2. `stubd serve` on the result; each example's request (its original request, variables
   resolved as Postman would: the environment over the collection's variables, `:name` path
   variables filled) is sent twice: as is, and with `x-mock-response-name: <the example's name>`,
   a Postman mock server's way of picking it. Status and body are compared as
   bench/har-replay.py compares them (JSON as parsed JSON, a served "REDACTED" standing for the
   secret it replaced).
3. As an app would send them (issue 57): a `:name` path variable saved without a value is sent
   with a sample value (`sample-name`), not as the text `:name`; an example without a `code` is
   expected to answer with the status its `status` text names (Postman's mock server does so); a
   host given by a variable nobody defines stands for the base (the path after it is sent). The
   column "retyped" counts served `"REDACTED"` values whose saved value was not a string, or was
   a date: values an app's `Codable` types can no longer decode.

usage: bench/postman-replay.py [--binary PATH] COLLECTION[=ENVIRONMENT] ...
Prints a markdown table and up to 5 mismatches per collection.
"""
import argparse
import http
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("har_replay", os.path.join(HERE, "har-replay.py"))
har_replay = importlib.util.module_from_spec(spec)
spec.loader.exec_module(har_replay)


RETYPED = [0]
_json_difference = har_replay.json_difference
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


def strict_json_difference(captured, served, path="$", taken=None):
    """har-replay's comparison, counting redactions that changed a value's JSON type or shape."""
    if served == "REDACTED" and (not isinstance(captured, str) or DATE.match(captured)):
        RETYPED[0] += 1
    return _json_difference(captured, served, path, taken)


har_replay.json_difference = strict_json_difference


def status_of(example):
    """The example's code, or the one its status text names (`Not Found`, `201 Created`); 0 for none."""
    if isinstance(example.get("code"), int):
        return example["code"]
    text = str(example.get("status") or "").strip()
    if re.match(r"^\d{3}( |$)", text):
        return int(text[:3])
    key = re.sub(r"[^a-z]", "", text.lower())
    phrases = {re.sub(r"[^a-z]", "", s.phrase.lower()): s.value for s in http.HTTPStatus}
    phrases.update({"unprocessableentity": 422, "payloadtoolarge": 413, "requestentitytoolarge": 413})
    return phrases.get(key, 0)


def variables(collection, environment):
    values = {v["key"]: str(v.get("value", "")) for v in collection.get("variable") or [] if "key" in v and not v.get("disabled")}
    if environment:
        values.update({v["key"]: str(v.get("value", "")) for v in environment.get("values") or [] if "key" in v and v.get("enabled", True)})
    return values


def resolve(text, values):
    return re.sub(r"\{\{\s*([^{}]+?)\s*\}\}", lambda m: values.get(m.group(1), m.group(0)), text or "")


def url_text(url):
    if isinstance(url, str):
        return url
    if url.get("raw"):
        return url["raw"]
    return (url.get("protocol", "") + "://" if url.get("protocol") else "") + ".".join(url.get("host") or []) + "/" + "/".join(url.get("path") or [])


def examples(items, folders=()):
    for item in items:
        if "item" in item:
            yield from examples(item["item"], folders + (item.get("name", ""),))
        else:
            for example in item.get("response") or []:
                yield folders + (item.get("name", ""),), item, example


def entry(item, example, values):
    """The example as a HAR entry: what har-replay.py replays and compares."""
    request = example.get("originalRequest") or item.get("request") or {}
    if isinstance(request, str):
        request = {"url": request}
    url = request.get("url") or ""
    raw = resolve(url_text(url), values)
    # An undefined variable as the host stands for the base: the path after it is what is sent.
    raw = re.sub(r"^(?:[a-z]+://)?\{\{\s*([^{}]+?)\s*\}\}", lambda m: "https://" + m.group(1).lower(), raw)
    if "{{" in raw:
        return None
    if "://" not in raw:
        raw = "https://" + raw
    parts = urllib.parse.urlsplit(raw)
    path_values = {v["key"]: resolve(str(v.get("value", "")), values) for v in (url.get("variable") if isinstance(url, dict) else None) or []}
    path = "/".join(urllib.parse.quote(path_values.get(s[1:]) or f"sample-{s[1:]}", safe="") if s.startswith(":") and len(s) > 1 else s
                    for s in parts.path.split("/"))
    headers = request.get("header") or []
    if isinstance(headers, str):
        headers = [{"key": k.strip(), "value": v.strip()} for k, _, v in (line.partition(":") for line in headers.splitlines()) if k.strip()]
    body = request.get("body") or {}
    text = resolve(body.get("raw", ""), values) if body.get("mode") == "raw" else ""
    return {"request": {"method": request.get("method", "GET"), "url": f"{parts.scheme}://{parts.netloc}{path}" + (f"?{parts.query}" if parts.query else ""),
                        "headers": [{"name": h["key"], "value": resolve(h.get("value", ""), values)} for h in headers if not h.get("disabled")],
                        "postData": {"text": text} if text else None},
            "response": {"status": status_of(example), "content": {"text": example.get("body") or ""}}}


def run(binary, collection_path, environment_path):
    collection = json.load(open(collection_path))
    environment = json.load(open(environment_path)) if environment_path else None
    values = variables(collection, environment)
    all_examples = list(examples(collection.get("item") or []))
    # An example without a status code, or whose URL names a variable nobody defines, is one the
    # importer leaves out (and says so): not replayed.
    entries = [(i, e) for i, e in enumerate(entry(item, example, values) for _, item, example in all_examples)
               if e and 100 <= int(e["response"]["status"] or 0) <= 599]
    # Examples whose request is the same as an earlier one's, with another answer: only a
    # header (x-mock-response-name) can tell them apart.
    seen, alike = {}, 0
    for _, e in entries:
        key = (e["request"]["method"], e["request"]["url"], (e["request"]["postData"] or {}).get("text"))
        answer = (e["response"]["status"], e["response"]["content"]["text"])
        if key in seen and seen[key] != answer:
            alike += 1
        seen.setdefault(key, answer)
    named = [(i, {**e, "request": {**e["request"], "headers": e["request"]["headers"] + [{"name": "x-mock-response-name", "value": all_examples[i][2].get("name", "")}]}})
             for i, e in entries]
    row = {"collection": os.path.basename(collection_path), "examples": len(all_examples), "replayed": len(entries),
           "same request, other answer": alike, "import exit": "-", "routes": "-", "answered as saved": "-", "by x-mock-response-name": "-"}
    stubs = tempfile.mkdtemp(prefix="stubd-postman-replay-")
    mismatches = []
    try:
        command = [binary, "import-postman", collection_path, "--stubs", stubs] + (["--environment", environment_path] if environment_path else [])
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        row["import exit"] = done.returncode
        routes = re.search(r"(\d+) route\(s\)", done.stdout)
        row["routes"] = routes.group(1) if routes else 0
        skipped = [line for line in done.stderr.splitlines() if line.startswith("stubd: skipped")]
        row["skipped"] = len(skipped)
        if done.returncode != 0:
            return row, [done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "import failed"]
        for label, batch in (("answered as saved", entries), ("by x-mock-response-name", named)):
            stats = {"replayed": 0, "answered": 0, "wrong status": 0, "wrong body": 0, "redacted answers": 0, "redacted values": {}}
            found = []
            RETYPED[0] = 0
            har_replay.replay(binary, stubs, batch, stats, found)
            row[label] = f"{stats['answered']}/{len(batch)}"
            if label == "answered as saved":
                row["retyped"] = RETYPED[0]
            mismatches += [f"{label}: {m[1]} {m[2]}: want {m[3]}, got {m[4]} {m[5]}" for m in found[:5]]
    finally:
        shutil.rmtree(stubs, ignore_errors=True)
    return row, mismatches


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", default=os.path.join(os.path.dirname(HERE), ".build/release/stubd"))
    p.add_argument("collections", nargs="+", metavar="COLLECTION[=ENVIRONMENT]")
    a = p.parse_args()
    rows = []
    for item in a.collections:
        collection, _, environment = item.partition("=")
        row, mismatches = run(a.binary, collection, environment or None)
        rows.append(row)
        for m in mismatches:
            print(f"  {row['collection']}: {m}")
    columns = ["collection", "examples", "import exit", "routes", "skipped", "replayed", "same request, other answer", "answered as saved",
               "by x-mock-response-name", "retyped"]
    print("| " + " | ".join(columns) + " |\n|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(str(row.get(c, "-")) for c in columns) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
