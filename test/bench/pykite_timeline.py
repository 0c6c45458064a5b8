"""The original Kite's reader + timeline (the course's milestone 6), unchanged in behaviour:
a list of dicts from json.loads per line, then one row per model turn, tool call and gate.
The reference `kite timeline` is compared against in test/bench/timelineCli.bench.ts.
    python3 test/bench/pykite_timeline.py LOG > /dev/null
"""
import json
import sys
from pathlib import Path


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def timeline(path: Path) -> str:
    rows = []
    for e in read(path):
        if e["kind"] == "model":
            rows.append(f"{e['t']:7.1f}s  turn {e['turn']:<3} {e['stop']:<9} "
                        f"in={e['input_tokens']:,} out={e['output_tokens']:,}")
        elif e["kind"] == "tool":
            flag = "ERROR" if e["is_error"] else "ok"
            rows.append(f"{e['t']:7.1f}s    {flag:<5} {e['name']} {json.dumps(e['args'])[:60]}")
        elif e["kind"] == "gate":
            rows.append(f"{e['t']:7.1f}s  gate {'PASSED' if e['passed'] else 'FAILED'}")
    return "\n".join(rows)


if __name__ == "__main__":
    print(timeline(Path(sys.argv[1])))
