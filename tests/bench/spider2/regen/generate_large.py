"""300 Spider 2.0-lite instances of 10 to 3,000 rows and 4 columns, each prediction the gold's rows
shuffled with its columns reordered (and, for some, one row missing), ignore_order true: the
larger data of docs/benchmarks.md's speed table. Usage: generate_large.py [ROOT]."""
import random, json, os, sys
random.seed(5)
root = sys.argv[1] if len(sys.argv) > 1 else 'spider2-lite'
suite = root + '/evaluation_suite'
os.makedirs(suite+'/gold/exec_result', exist_ok=True); os.makedirs(suite+'/pred_csv', exist_ok=True)
evals=[]
for n in range(300):
    iid='local%03d'%n
    rows=[(f'name{random.randint(0,500)}', random.randint(0,10**6), round(random.random()*1000,4), random.choice(['a','b','c'])) for _ in range(random.choice([10,100,1000,3000]))]
    with open(f'{suite}/gold/exec_result/{iid}.csv','w') as f:
        f.write('name,n,x,k\n'); f.writelines(f'{a},{b},{c},{d}\n' for a,b,c,d in rows)
    pred=list(rows); random.shuffle(pred)
    if random.random()<0.3: pred=pred[:-1]
    with open(f'{suite}/pred_csv/{iid}.csv','w') as f:
        f.write('k,x,n,name\n'); f.writelines(f'{d},{c},{b},{a}\n' for a,b,c,d in pred)
    evals.append({'instance_id':iid,'condition_cols':[],'ignore_order':True})
open(suite+'/gold/spider2lite_eval.jsonl','w').write(''.join(json.dumps(e)+'\n' for e in evals))
open(root + '/spider2-lite.jsonl','w').write(''.join(json.dumps({'instance_id':e['instance_id'],'db':'x'})+'\n' for e in evals))
