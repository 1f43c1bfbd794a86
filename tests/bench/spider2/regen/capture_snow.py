"""Per-instance verdicts of the unmodified spider2-snow/evaluation_suite/evaluate.py (Spider2 snapshot
e12c5f1) in exec_result mode, on this fixture with gold/spider2lite_eval.jsonl renamed
spider2snow_eval.jsonl. Usage: capture_snow.py GOLD_DIR PRED_DIR OUT.json [EVALUATE_PY]. The
snowflake connector is not installed; exec_result mode never uses it, so an empty module stands
in for the import only."""
import sys, types, json, os, importlib.util
sys.modules['snowflake'] = types.ModuleType('snowflake')
sys.modules['snowflake.connector'] = types.ModuleType('snowflake.connector')
spec = importlib.util.spec_from_file_location("evaluate", sys.argv[4] if len(sys.argv) > 4 else "evaluate.py")
ev = importlib.util.module_from_spec(spec); spec.loader.exec_module(ev)
gold_dir, pred_dir, out = sys.argv[1], sys.argv[2], sys.argv[3]
std = ev.load_jsonl_to_dict(os.path.join(gold_dir, "spider2snow_eval.jsonl"))
pred_ids = [f.split(".")[0] for f in os.listdir(pred_dir) if f.endswith(".csv")]
ids = sorted(set(std) & set(pred_ids))
res = [ev.evaluate_single_exec_result_instance(i, std, pred_dir, os.path.join(gold_dir, "exec_result")) for i in ids]
json.dump(res, open(out, "w"), indent=1)
