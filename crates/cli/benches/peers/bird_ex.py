"""BIRD's execution accuracy as its evaluation script computes it: the predicted and the
ground-truth rows, as tuples, compared with `set(predicted) == set(ground_truth)`.

Reads two result files (`{"columns", "rows"}` or an array of records), then times only the
comparison, as BIRD runs it on lists its database driver returned. Prints one JSON line:
{"equal": bool, "compare_s": seconds, "load_s": seconds}.
"""

import json
import sys
import time


def rows(path):
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    if isinstance(data, dict):
        return [tuple(row) for row in data["rows"]]
    return [tuple(record.values()) for record in data]


def main():
    started = time.perf_counter()
    ground_truth, predicted = rows(sys.argv[1]), rows(sys.argv[2])
    loaded = time.perf_counter()
    equal = set(predicted) == set(ground_truth)
    done = time.perf_counter()
    print(json.dumps({"equal": equal, "compare_s": done - loaded, "load_s": loaded - started}))


main()
