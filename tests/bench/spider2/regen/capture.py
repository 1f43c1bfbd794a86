"""Run the official evaluate.py's evaluate_spider2sql() unmodified and dump the in-memory
per-instance result dicts (score, error_info, pred_sql), which the script itself never writes."""
import argparse, importlib.util, json, sys, tempfile, shutil
from pathlib import Path
mode, result_dir, out_json = sys.argv[1], sys.argv[2], sys.argv[3]
spec = importlib.util.spec_from_file_location("evaluate", str(Path("evaluate.py").resolve()))
ev = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ev)   # module import runs TeeOutput('log.txt') exactly like the script
# same defaults as the script's argparse block
args = argparse.Namespace(mode=mode, result_dir=result_dir, gold_dir="gold", is_sql_debug=False,
                          max_workers=1, timeout=60, temp_dir=None)
tmp = Path(tempfile.mkdtemp(prefix="evaluate_"))
try:
    res = ev.evaluate_spider2sql(args, tmp)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
with open(out_json, "w") as f:
    json.dump(res, f, indent=1)
