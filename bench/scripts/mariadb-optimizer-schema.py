# The schema bench/scripts/mariadb-optimizer.py measures on: python3 mariadb-optimizer-schema.py | mariadb ...
N=24
out=["CREATE DATABASE IF NOT EXISTS opt; USE opt;"]
cols=",".join(f"d{i} INT, KEY(d{i})" for i in range(1,N+1))
out.append(f"CREATE TABLE f (id INT PRIMARY KEY, {cols});")
vals=",".join("("+",".join(str(r if i==0 else r*7%(i+3)) for i in range(N+1))+")" for r in range(200))
out.append(f"INSERT INTO f VALUES {vals};")
for i in range(1,N+1):
    out.append(f"CREATE TABLE s{i} (id INT PRIMARY KEY, v INT, a INT, KEY(a));")
    out.append(f"INSERT INTO s{i} VALUES " + ",".join(f"({r},{r%5},{r%(i+2)})" for r in range(20+i*3)) + ";")
out.append("CREATE TABLE big (id INT PRIMARY KEY, v INT, KEY(v));")
out.append("INSERT INTO big SELECT seq, seq%100 FROM seq_1_to_10000;")
out.append("ANALYZE TABLE f," + ",".join(f"s{i}" for i in range(1,N+1)) + ",big;")
print("\n".join(out))
