import json, os, re, shutil
FIX = "/work/main/tests/bench/spider2"
SRC = "/tmp/spider2gen/out_pd2"
EXP = os.path.join(FIX, "expected")
shutil.rmtree(EXP, ignore_errors=True)
inst = json.load(open("/tmp/spider2gen/instances.json"))
TQDM = re.compile(r"\r?Evaluating (?:SQL|Exec Results): +\d+%\|[^|]*\| *\d+/\d+ \[[^\]]*\]\n?")

def kind(info):
    if info is None: return None
    for k in ("Result Error", "No matching gold file found", "Python Script Error", "Evaluation Error",
              "Missing database mapping", "Unsupported instance id prefix"):
        if info.startswith(k): return k
    return "Execution Error"   # raw DBMS message returned by get_sqlite_result / get_bigquery_sql_result

lines = []
for mode, rd in (("exec_result", "pred_csv"), ("sql", "pred_sql")):
    d = os.path.join(EXP, mode); os.makedirs(d)
    raw = open(f"{SRC}/stdout_{mode}.txt").read()
    assert raw == open(f"{SRC}/log_{mode}.txt").read()
    open(f"{d}/stdout.raw.txt", "w").write(raw)
    open(f"{d}/stdout.txt", "w").write(TQDM.sub("", raw))
    shutil.copy(f"{SRC}/{rd}-ids.csv", f"{d}/{rd}-ids.csv")
    if mode == "sql": shutil.copytree(f"{SRC}/pred_sql_csv", f"{d}/pred_sql_csv")
    res = json.load(open(f"{SRC}/results_{mode}.json"))
    json.dump(res, open(f"{d}/results.json", "w"), indent=1)
    by = {r["instance_id"]: r for r in res}
    for it in inst:
        iid = it["iid"]
        has_pred = it["pred_csv"] if mode == "exec_result" else it["pred_sql"]
        if iid in by:
            r = by[iid]
            lines.append({"instance_id": iid, "mode": mode, "score": r["score"], "error_kind": kind(r["error_info"]),
                          "error_info": r["error_info"]})
        else:
            why = "no prediction file" if not has_pred else "not in gold/spider2lite_eval.jsonl"
            lines.append({"instance_id": iid, "mode": mode, "evaluated": False, "reason": why})
with open(f"{EXP}/verdicts.jsonl", "w") as f:
    for l in lines: f.write(json.dumps(l) + "\n")
for mode in ("exec_result", "sql"):
    s = open(f"{EXP}/{mode}/stdout.txt").read()
    print(mode, [l for l in s.splitlines() if l.startswith(("Final", "Real"))])
print(len(lines))
