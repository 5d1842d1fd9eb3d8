# The optimizer time and memory of MariaDB for synthetic joins and IN lists, against a private server
# (bench/log/mysql-optimizer.md). Usage: python3 mariadb-optimizer.py SHAPE:N:PRUNE:DEPTH ...
# with SHAPE star, clique, chain, in (IN list over a non-unique key), inid (over the primary key); and over N aliases of
# s1..s24 in turn: aclique (every pair on column a), achain (each a to the next one's id), keypairs (id = id and
# v = v in turn: equalities two by two) and cross (no condition); the server's socket in MARIADB_SOCKET.
import json, os, subprocess, sys, time
SOCK=os.environ.get("MARIADB_SOCKET", "/tmp/mgmy/sock")
def star(n):
    return "SELECT count(*) FROM f " + " ".join(f"JOIN s{i} ON f.d{i} = s{i}.id" for i in range(1,n))
def clique(n):
    t=[f"s{i}" for i in range(1,n+1)]
    conds=[f"s{i}.a = s{j}.a" for i in range(1,n+1) for j in range(i+1,n+1)]
    return "SELECT count(*) FROM " + ", ".join(t) + " WHERE " + " AND ".join(conds)
def chain(n):
    return "SELECT count(*) FROM s1 " + " ".join(f"JOIN s{i} ON s{i-1}.a = s{i}.id" for i in range(2,n+1))
def aliases(n):
    return ", ".join(f"s{(i-1)%24+1} AS x{i}" for i in range(1,n+1))
def aclique(n):
    return "SELECT count(*) FROM " + aliases(n) + " WHERE " + " AND ".join(f"x{i}.a = x{j}.a" for i in range(1,n+1) for j in range(i+1,n+1))
def achain(n):
    return "SELECT count(*) FROM " + aliases(n) + " WHERE " + " AND ".join(f"x{i}.a = x{i+1}.id" for i in range(1,n))
def keypairs(n):
    return "SELECT count(*) FROM " + aliases(n) + " WHERE " + " AND ".join(f"x{i}.id = x{i+1}.id" if i%2 else f"x{i}.v = x{i+1}.v" for i in range(1,n))
def cross(n):
    return "SELECT count(*) FROM " + aliases(n)
def inlist(k):
    return "SELECT count(*) FROM big WHERE v IN (" + ",".join(str(i) for i in range(k)) + ")"
def inlist_id(k):
    return "SELECT count(*) FROM big WHERE id IN (" + ",".join(str(i*3) for i in range(k)) + ")"
def run(q, prune=2, depth=62, limit=8):
    sql=(f"USE opt; SET SESSION optimizer_prune_level={prune}, optimizer_search_depth={depth}, max_statement_time={limit};"
         f"SET profiling=1; EXPLAIN {q};\nSELECT 'MARK'; SHOW PROFILES;"
         "SELECT 'MEM', MAX_MEMORY_USED, MEMORY_USED FROM information_schema.PROCESSLIST WHERE ID=CONNECTION_ID();")
    t=time.time()
    p=subprocess.run(["mariadb","--no-defaults","--socket="+SOCK,"-uroot","--batch","--skip-column-names"],input=sql,capture_output=True,text=True)
    wall=time.time()-t
    if p.returncode!=0:
        return {"error":p.stderr.strip()[:200],"wall":wall}
    lines=p.stdout.splitlines()
    i=lines.index("MARK")
    dur=None
    for l in lines[i+1:]:
        parts=l.split("\t")
        if len(parts)>=3 and parts[2].startswith("EXPLAIN"):
            dur=float(parts[1])
        if parts[0]=="MEM":
            mx=int(parts[1]); cur=int(parts[2])
    return {"seconds":dur,"maxMem":mx,"wall":wall}
if __name__=="__main__":
    base=run("SELECT 1")
    print(json.dumps({"baseline":base}))
    for spec in sys.argv[1:]:
        shape,n,prune,depth=spec.split(":")
        q={"star":star,"clique":clique,"chain":chain,"in":inlist,"inid":inlist_id,"aclique":aclique,"achain":achain,
           "keypairs":keypairs,"cross":cross}[shape](int(n))
        r=run(q,int(prune),int(depth))
        r.update(shape=shape,n=int(n),prune=int(prune),depth=int(depth),chars=len(q))
        print(json.dumps(r),flush=True)
