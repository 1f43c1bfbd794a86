"""Generated Spider 2.0-lite instances for checking qeval against the official evaluate.py and
timing both: random CSVs (numbers at the tolerance's edge, pandas' missing-value words, booleans,
quoted numbers, blank lines), predictions mutated from the gold (rows shuffled or duplicated,
columns added or reversed, one cell changed), every shape of condition_cols, 0 to 3 gold files.
Usage: generate_instances.py SEED COUNT [ROOT] writes ROOT/evaluation_suite/{gold,pred_csv} and
ROOT/spider2-lite.jsonl; run the official script and qeval in ROOT/evaluation_suite."""
import random, json, os, sys, shutil
random.seed(int(sys.argv[1]))
root = sys.argv[3] if len(sys.argv) > 3 else 'spider2-lite'
suite = root + '/evaluation_suite'
shutil.rmtree(suite + '/gold', ignore_errors=True); shutil.rmtree(suite + '/pred_csv', ignore_errors=True)
os.makedirs(suite + '/gold/exec_result'); os.makedirs(suite + '/pred_csv')
def val():
    r = random.random()
    if r < 0.25: return str(random.randint(-5, 20))
    if r < 0.45: return random.choice(['1.0','1.01','2.5','2.51','0.3','0.30000000000000004','10.001','9.999','5','5.0','1e5','100000','-0.0','0','.5','5.','1e-05','0.0001', ' 7 ', '007', '1e16', '10000000000000000'])
    if r < 0.6: return random.choice(['a','b','Paris',' Paris','NA','null','None','','nan','1,000','"26"','"x,y"','True','false','TRUE','"a""b"','#N/A','n/a','inf','-Infinity'])
    if r < 0.7: return random.choice(['True','False','true'])
    return random.choice(['x','y','z','2021-01-05','7'])
def table(rows, cols):
    lines = [','.join('c%d' % i for i in range(cols))]
    for _ in range(rows):
        lines.append(','.join(val() for _ in range(cols)))
    return lines
def mutate(lines):
    lines = list(lines)
    r = random.random()
    if r < 0.2 and len(lines) > 2:
        body = lines[1:]; random.shuffle(body); lines = lines[:1] + body
    elif r < 0.3 and len(lines) > 1:
        lines.append(lines[-1])
    elif r < 0.4:
        lines = [l + ',' + val() for l in lines]
    elif r < 0.5 and len(lines) > 1:
        i = random.randrange(1, len(lines)); cells = lines[i].split(','); cells[random.randrange(len(cells))] = val(); lines[i] = ','.join(cells)
    elif r < 0.55:
        lines.insert(random.randrange(1, len(lines)+1), '')
    elif r < 0.6:
        cols=[l.split(',') for l in lines]
        if all(len(c)>1 for c in cols):
            lines=[','.join(c[::-1]) for c in cols]
    return lines
evals = []
for n in range(int(sys.argv[2])):
    iid = 'local%03d' % n
    cols = random.randint(1, 3); rows = random.randint(0, 5)
    gold = table(rows, cols)
    ngold = random.choice([0, 1, 1, 1, 2, 3])
    multi = ngold > 1 or random.random() < 0.2
    golds = []
    if ngold == 0: pass
    elif not multi:
        open(f'{suite}/gold/exec_result/{iid}.csv', 'w').write('\n'.join(gold) + '\n'); golds=[gold]
    else:
        for k in range(ngold):
            g = gold if k == ngold - 1 else table(rows, cols)
            open(f'{suite}/gold/exec_result/{iid}_{"abc"[k]}.csv', 'w').write('\n'.join(g) + '\n'); golds.append(g)
    pred = mutate(gold) if random.random() < 0.8 else table(rows, random.randint(1,3))
    open(f'{suite}/pred_csv/{iid}.csv', 'w').write('\n'.join(pred) + ('\n' if random.random()<0.9 else ''))
    cc = random.choice([[], [], [0], [1], [0, 1], [-1], [[0], [1]], [[0]], None, [[1],[0],[0]], [2]])
    e = {'instance_id': iid, 'ignore_order': random.random() < 0.7}
    if cc is not None or random.random() < 0.5: e['condition_cols'] = cc
    evals.append(e)
with open(f'{suite}/gold/spider2lite_eval.jsonl', 'w') as f:
    for e in evals: f.write(json.dumps(e) + '\n')
open(root + '/spider2-lite.jsonl', 'w').write(''.join(json.dumps({'instance_id': e['instance_id'], 'db': 'x'}) + '\n' for e in evals))
