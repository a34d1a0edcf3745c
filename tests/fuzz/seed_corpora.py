#!/usr/bin/env python3
"""Seeds the fuzz corpora, tests/data/fuzz/<target>/, from the stored-record corpus of
tests/data/ (tests/data/README.md) and the findings of issue 16, item 19 (in FINDINGS below).

Every file is one input of one target of tests/fuzz/fuzz_targets.cpp, named by the SHA-1 of its
bytes as libFuzzer names the inputs it adds. Rerunning it adds what is missing and keeps what a
fuzzing run added (`-merge=1` into the same directory keeps the corpus small).

    python3 tests/fuzz/seed_corpora.py          # needs sqlite3 (Debian package sqlite3)
    python3 tests/fuzz/seed_corpora.py slot_body unit_slot delivery   # only these targets
"""
import glob
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data")
OUT = os.path.join(DATA, "fuzz")


def deep(opening, inner, closing, depth):
    return opening * depth + inner + closing * depth


# What the outside fuzzing pass planted (and each regression input since), by target.
FINDINGS = {
    "step_row": [
        b'{"attempts":"\xff"}',
        b'{"attempts":1e30}',
        b'{"attempts":1,"body_started":true,"completion_seq":1,"error":"","finished_at_ms":1,'
        b'"name":"reserve","result":' + deep(b'{"a":', b"1", b"}", 10000) + b"}",
        b'{"attempts":1,"body_started":true,"completion_seq":1,"error":{"kind":"x"},'
        b'"finished_at_ms":1,"name":"n","result":null,"retry_at_ms":0,"started_at_ms":1,'
        b'"status":"completed"}',
    ],
    "trace_event": [
        b'{"at_ms":79615011486150111348,"attempt":1,"message":"","outcome":"","step":"",'
        b'"type":"run"}',
        b'{"at_ms":1,"attempt":1,"message":"\xc3","outcome":"","step":"","type":"run"}',
    ],
    "inputs": [
        deep(b"[", b"", b"]", 10000),
        b'{"n":79615011486150111348,"m":-9223372036854775809,"f":1e400}',
        b'"\xed\xa0\x80"',
    ],
    "header_row": [
        b"\x01r\n"
        b'{"created_at_ms":1,"error":null,"failed_step":null,"next_completion_seq":1,'
        b'"path":"","value":null,"step_count":35012021}',
        b"\x03r\xff\n"
        b'{"created_at_ms":1,"error":null,"failed_step":null,"next_completion_seq":1,'
        b'"path":"","value":null,"step_names":[]}',
        b"\x03r\n"
        b'{"created_at_ms":1,"error":null,"failed_step":null,"next_completion_seq":1,'
        b'"path":"","value":' + deep(b"[", b"", b"]", 10000) + b',"step_names":[]}',
        b"\x03r\n"
        b'{"created_at_ms":1,"error":{"kind":"step_failed","attempts":79615011486150111348},'
        b'"failed_step":null,"next_completion_seq":1,"path":"","value":null,"step_names":[]}',
        b"\x03r\n"
        b'{"created_at_ms":1,"error":{"kind":"step_failed","details":'
        + deep(b"[", b"", b"]", 10000)
        + b'},"failed_step":null,"next_completion_seq":1,"path":"","value":null,'
        b'"step_names":[]}',
    ],
    "snapshot": [
        b'{"schema_version":2,"inputs":' + deep(b"[", b"", b"]", 100000) + b"}",
    ],
    "run_result": [
        b'{"schema_version":1,"run_id":"r","reactor":"R","status":"failed","value":null,'
        b'"error":{"kind":"step_failed","attempts":1e300},"trace":[],"steps":[]}',
    ],
}


def run_error(**fields):
    """A failed element's slot body as settle_of writes it: Value(RunError), every member."""
    error = {"kind": "step_failed", "step": "", "reactor": "", "exception_type": "",
             "message": "", "details": None, "attempts": 0, "retryable": True,
             "validation_errors": [], "rollback_failures": [], "inputs": None}
    error.update(fields)
    return json.dumps(error, sort_keys=True, separators=(",", ":")).encode()


def failed_deep(depth):
    """A failed slot whose error's details nest `depth` levels: past kMaxValueDepth it is
    refused (1,000,000 levels crashed every worker before the bounded reader)."""
    head, tail = run_error(message="deep", details=0).split(b'"details":0')
    return head + b'"details":' + deep(b"[", b"", b"]", depth) + tail


# Slot inputs (slot_body, unit_slot, delivery): byte 0 is the state (mod 4: completed, failed,
# halted, undone; delivery: bit 2 makes the map atomic(false)), the rest the slot's body.
COMPLETED, FAILED, HALTED, UNDONE = b"\x00", b"\x01", b"\x02", b"\x03"
GOOD_ERROR = run_error(step="sum[0]/add", reactor="FanOutSum.element",
                       message="element 0 fails (fail_at)", attempts=1, retryable=False,
                       details={"code": 7}, inputs={"i": 0})
SLOTS = [
    COMPLETED + b'{"sum":5,"items":[1,2.5,"x",null,true]}',
    FAILED + GOOD_ERROR,
    HALTED + b'"out of stock"',
    UNDONE + b'{"a":[1,2]}',
    COMPLETED + b"{1}",
    COMPLETED,
    FAILED + failed_deep(1000000),
    FAILED + failed_deep(600),
]
FINDINGS["slot_body"] = SLOTS
FINDINGS["unit_slot"] = SLOTS
FINDINGS["delivery"] = [
    COMPLETED + b"7",
    FAILED + failed_deep(1000000),
    COMPLETED + b"{1}",
    FAILED + GOOD_ERROR,
    HALTED + b'"out of stock"',
    UNDONE + b"7",
    b"\x05" + GOOD_ERROR,  # a non-atomic map's failed element: the map still completes
    b"\x04" + b"{1}",
]

# The targets to write (argv), or every one.
ONLY = set(sys.argv[1:])


def write(target, data):
    if ONLY and target not in ONLY:
        return
    directory = os.path.join(OUT, target)
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, hashlib.sha1(data).hexdigest())
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)


def header_record(row):
    """A header row as encode_header_record writes it (Redis layout 5), its body inline."""
    run_id, root_id, parent_id, reactor, status, fingerprint, version, body, updated, expires = row
    text = lambda s: json.dumps(s, ensure_ascii=False)
    head = (
        '{"status":%s,"updated_at":%d,"id":%s,"root_id":%s,"parent_id":%s,"reactor":%s,'
        '"fingerprint":%s,"schema_version":%d,"expires_at":%d,"wake_at":0,"body":'
        % (text(status), updated, text(run_id), text(root_id), text(parent_id), text(reactor),
           text(fingerprint), version, expires)
    )
    return head + body + "}"


# A run's steps and a root's trace, by the run's id: [by id, by key].
STEPS_OF = ["SELECT idx, body FROM steps WHERE run_id = ? ORDER BY idx",
            "SELECT s.key & 1048575, s.body FROM steps s JOIN runs r ON s.key >> 20 = r.key "
            "WHERE r.id = ? ORDER BY s.key"]
TRACE_OF = ["SELECT body FROM trace WHERE root_id = ? ORDER BY seq",
            "SELECT t.body FROM trace t JOIN runs r ON t.key >> 20 = r.key "
            "WHERE r.id = ? ORDER BY t.key"]


def from_sqlite(store_sql):
    with tempfile.TemporaryDirectory() as tmp:
        db_path = os.path.join(tmp, "store.db")
        with open(store_sql, "rb") as sql:
            subprocess.run(["sqlite3", db_path], stdin=sql, check=True)
        db = sqlite3.connect(db_path)
        # Schema 11 keys steps and trace by (run key << 20) | index, earlier ones by run id.
        keyed = "run_id" not in [c[1] for c in db.execute("PRAGMA table_info(steps)")]
        runs = db.execute(
            "SELECT id, root_id, parent_id, reactor, status, fingerprint, schema_version, body,"
            " updated_at, expires_at FROM runs ORDER BY parent_id != '', id").fetchall()
        for row in runs:
            write("header_row", bytes([row[6]]) + row[0].encode() + b"\n" + row[7].encode())
            write("redis_header", header_record(row).encode())
        for (body,) in db.execute("SELECT body FROM steps"):
            write("step_row", body.encode())
        for (body,) in db.execute("SELECT body FROM trace"):
            write("trace_event", body.encode())
        for (inputs,) in db.execute("SELECT inputs FROM run_inputs"):
            write("inputs", inputs.encode())
        for root in [r for r in runs if r[2] == ""]:
            lines = [("h" + header_record(r)) for r in runs if r[1] == root[0]]
            ids = [r[0] for r in runs if r[1] == root[0]]
            for run_id in ids:
                for (inputs,) in db.execute("SELECT inputs FROM run_inputs WHERE run_id = ?",
                                            (run_id,)):
                    lines.append("i%s\t%s" % (run_id, inputs))
                for idx, body in db.execute(STEPS_OF[keyed], (run_id,)):
                    lines.append("s%s\t%d\t%s" % (run_id, idx, body))
            for (body,) in db.execute(TRACE_OF[keyed], (root[0],)):
                lines.append("t" + body)
            write("stored_run", ("\n".join(lines) + "\n").encode())


def from_redis(keys_jsonl):
    with open(keys_jsonl, encoding="utf-8") as f:
        for line in f:
            key = json.loads(line)
            if key["type"] != "hash" or not key["key"].endswith(":rows"):
                continue
            for field, value in key["value"].items():
                if field.startswith("h:"):
                    write("redis_header", value.encode())


def main():
    for target, inputs in FINDINGS.items():
        for data in inputs:
            write(target, data)
    for store_sql in sorted(glob.glob(os.path.join(DATA, "sqlite-*", "store.sql"))):
        from_sqlite(store_sql)
    for keys in sorted(glob.glob(os.path.join(DATA, "redis-layout*", "keys.jsonl"))):
        from_redis(keys)
    for path in sorted(glob.glob(os.path.join(DATA, "snapshots-v*", "*.json"))):
        with open(path, "rb") as f:
            data = f.read()
        write("snapshot" if path.endswith(".snapshot.json") else "run_result", data)
    for path in sorted(glob.glob(os.path.join(DATA, "*", "expected", "corpus-*.json"))):
        with open(path, "rb") as f:
            write("run_result", f.read())


if __name__ == "__main__":
    main()
