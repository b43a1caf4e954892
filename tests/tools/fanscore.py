# Playing fans scored card by card: fanscore.py BIN DIR... reads every
# rendered playing table in DIR (playing_*.jpg with .json truth) where 8+
# cards show less than 0.4, and prints cards read right and sure wrong.
import json,subprocess,sys,glob
tot=right=wrong=tables=0
for d in sys.argv[2:]:
    for j in sorted(glob.glob(d+'/playing_*.json')):
        t=json.load(open(j))
        cards=t['cards']
        if sum(1 for c in cards if c['visible']<0.4)<8: continue
        tables+=1
        truth=set(c['code'] for c in cards)
        out=subprocess.run([sys.argv[1],'scan','--game','playing',j[:-5]+'.jpg'],capture_output=True,text=True).stdout
        r=json.loads(out.splitlines()[0])
        codes=[c['code'] for c in r['cards'] if c.get('read')]
        ok=len(set(codes)&truth); bad=len([c for c in codes if c not in truth])
        tot+=len(cards); right+=ok; wrong+=bad
        print(j.split('/')[-1], ok, bad, file=sys.stderr)
print(f"fan tables {tables}: cards {tot}, read right {right} ({100*right/max(tot,1):.1f}%), sure wrong {wrong}")
