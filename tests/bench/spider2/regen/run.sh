#!/bin/bash
# usage: run.sh <venv> <outdir>
set -e
VENV=$1; OUTD=$2
FIX=/work/main/tests/bench/spider2
SRC=/work/.mirror/xlang-ai+Spider2/repo
R=/tmp/spider2gen/run/spider2-lite
rm -rf /tmp/spider2gen/run; mkdir -p $R/evaluation_suite $R/resource/databases $OUTD
git --git-dir=$SRC show HEAD:spider2-lite/evaluation_suite/evaluate.py > $R/evaluation_suite/evaluate.py
git --git-dir=$SRC show HEAD:spider2-lite/evaluation_suite/bigquery_credential.json > $R/evaluation_suite/bigquery_credential.json
cp $FIX/spider2-lite.jsonl $R/
cp -r $FIX/gold $R/evaluation_suite/gold
cp -r $FIX/pred_csv $FIX/pred_sql $R/evaluation_suite/
for s in $FIX/databases/*.sql; do b=$(basename $s .sql); python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.commit()" $R/resource/databases/$b.sqlite $s; done
cd $R/evaluation_suite
unset GOOGLE_APPLICATION_CREDENTIALS
for mode in exec_result sql; do
  if [ $mode = sql ]; then rd=pred_sql; else rd=pred_csv; fi
  $VENV/bin/python /tmp/spider2gen/capture.py $mode $rd $OUTD/results_$mode.json > /dev/null 2>&1 || echo "capture $mode failed"
  rm -rf ${rd}_csv ${rd}-ids.csv log.txt; rm -f $R/resource/databases/ghost.sqlite
  $VENV/bin/python evaluate.py --mode $mode --result_dir $rd --gold_dir gold --max_workers 1 > $OUTD/stdout_$mode.txt 2>/dev/null; echo "rc=$?" > $OUTD/rc_$mode.txt
  cp log.txt $OUTD/log_$mode.txt
  cp ${rd}-ids.csv $OUTD/
  if [ -d ${rd}_csv ]; then cp -r ${rd}_csv $OUTD/; fi
  ls -la $R/resource/databases > $OUTD/databases_after_$mode.txt
done
