#!/usr/bin/env bash
# Compares a JMH benchmark between two builds on one machine in one run: a base git ref (main by default)
# and the work tree as it is. Builds the bench jar of each (package only: nothing goes to ~/.m2), then runs
# the benchmark from the two jars in turn, ABBA order over the rounds so that neither side always runs
# first on a warmer or busier machine, and prints each side's mean and median score and head/base.
#
#   bench/scripts/jmh-ab.sh [--base REF] [--rounds N] [--out DIR] [--no-build] [BENCH_REGEX] [-- JMH_ARGS...]
#
# Default: GatewayBench.smallTier (uncontended gated acquire + release), 4 rounds, JMH -f 1 -wi 3 -i 5.
# Scores are JMH's (for GatewayBench ns/op, lower is better), so head/base above 1 means head is slower.
# Needs JAVA_HOME pointing at a JDK that builds the project (21+), python3 for the summary.
set -euo pipefail

base=main
rounds=4
out=${TMPDIR:-/tmp}/memogate-jmh-ab
build=1
regex='GatewayBench.smallTier'
jmh_args=(-f 1 -wi 3 -i 5)
while [[ $# -gt 0 ]]; do
    case $1 in
        --base) base=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        --) shift; jmh_args=("$@"); break ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) regex=$1; shift ;;
    esac
done

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
mkdir -p "$out"

build_jar() { # $1 source tree, $2 jar to write
    (cd "$1" && ./mvnw -B -ntp -q -DskipTests -DskipITs package -pl bench -am)
    cp "$1/bench/target/memogate-bench.jar" "$2"
}

if [[ $build == 1 ]]; then
    # An export of the ref, not a git worktree: nothing is registered in the repository.
    rm -rf "$out/base-src"
    mkdir -p "$out/base-src"
    git -C "$root" archive "$base" | tar -x -C "$out/base-src"
    echo "building $base ($(git -C "$root" rev-parse --short "$base")) in $out/base-src"
    build_jar "$out/base-src" "$out/base.jar"
    echo "building the work tree $root ($(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo ', with changes'))"
    build_jar "$root" "$out/head.jar"
fi

run() { # $1 side, $2 round
    echo "round $2: $1"
    "$java" -cp "$out/$1.jar" org.openjdk.jmh.Main "$regex" "${jmh_args[@]}" \
        -rf csv -rff "$out/$1-$2.csv" > "$out/$1-$2.log"
}

rm -f "$out"/base-*.csv "$out"/head-*.csv
for ((r = 1; r <= rounds; r++)); do
    if ((r % 2)); then run base "$r"; run head "$r"; else run head "$r"; run base "$r"; fi
done

python3 - "$out" "$rounds" <<'EOF'
import csv, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
scores = {}  # benchmark -> side -> [score per round]
unit = {}
for side in ("base", "head"):
    for r in range(1, rounds + 1):
        with open(f"{out}/{side}-{r}.csv", newline="") as f:
            for row in csv.DictReader(f):
                name = row["Benchmark"].rsplit(".", 1)[-1]
                scores.setdefault(name, {}).setdefault(side, []).append(float(row["Score"]))
                unit[name] = row["Unit"]
# The median too: on a shared machine one round caught by another job moves the mean, not the median.
print(f"\n{'benchmark':<14} {'unit':<6} {'base mean':>9} {'head mean':>9} {'ratio':>6}"
      f" {'base med':>9} {'head med':>9} {'ratio':>6}   per round (base | head)")
for name, sides in scores.items():
    b, h = statistics.mean(sides["base"]), statistics.mean(sides["head"])
    bm, hm = statistics.median(sides["base"]), statistics.median(sides["head"])
    rounds_text = " ".join(f"{x:.1f}" for x in sides["base"]) + " | " + " ".join(f"{x:.1f}" for x in sides["head"])
    print(f"{name:<14} {unit[name]:<6} {b:>9.2f} {h:>9.2f} {h / b:>6.3f} {bm:>9.2f} {hm:>9.2f} {hm / bm:>6.3f}"
          f"   {rounds_text}")
EOF
