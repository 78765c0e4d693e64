#!/usr/bin/env bash
# The arena runs behind the tables in docs/bots.md (each writes its folder here).
# Run from the repository root: bash benchmarks/strength/run.sh
set -euo pipefail
K=".venv/bin/kingisdead arena"
run() {  # name, then arena arguments
    local name=$1; shift
    echo "== $name: $* (load $(cut -d' ' -f1 /proc/loadavg), $(date -u +%H:%M:%S))"
    $K "$@" --out "benchmarks/strength/$name" --json > /dev/null
    echo "   done $(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg)"
}
run 2p-search500-greedy  --players 2 --bots mcts:500,greedy --games 40 --jobs 2 --seed 1
run 2p-search500-random  --players 2 --bots mcts:500,random --games 40 --jobs 2 --seed 2
# (2p-ladder ran with the first beginner: a random move one time in four)
run 2p-ladder            --players 2 --bots beginner,mcts:100,mcts:500 --games 48 --jobs 2 --seed 3
run 3p-search500-greedy  --players 3 --bots mcts:500,greedy --games 12 --jobs 2 --seed 4
run 4p-search500-greedy  --players 4 --bots mcts:500,greedy --games 8 --jobs 2 --seed 5
run 2p-max-strong-iter   --players 2 --bots max:1000,mcts:500 --games 16 --jobs 1 --seed 6
run 2p-strong1s-greedy   --players 2 --bots strong,greedy --games 20 --jobs 1 --seed 7
# Added while the runs above went on (run alongside 2p-max-strong-iter, before the timed run):
# run 2p-search100-search500 --players 2 --bots mcts:100,mcts:500 --games 40 --jobs 1 --seed 8
# Then, with time budgets (2 jobs, each game on its own core):
# run 2p-strong1s-random        --players 2 --bots strong,random --games 40 --jobs 2 --seed 9
# run 2p-strong-intermediate    --players 2 --bots strong,intermediate --games 40 --jobs 2 --seed 10
#   (intermediate was then a 0.2 s search; to repeat it now: --bots strong,mcts:0.2s)
# The levels as they are now (beginner: a random move one time in two; intermediate: greedy):
# run 2p-beginner-intermediate  --players 2 --bots beginner,intermediate --games 40 --jobs 2 --seed 11
# run 2p-beginner-random        --players 2 --bots beginner,random --games 60 --jobs 2 --seed 12
# run 3p-strong1s-greedy        --players 3 --bots strong,greedy --games 12 --jobs 2 --seed 13
# run 4p-strong1s-greedy        --players 4 --bots strong,greedy --games 8 --jobs 2 --seed 14
# A second timed run against greedy, one job (added by the lead):
# run 2p-strong1s-greedy-b      --players 2 --bots strong,greedy --games 40 --jobs 1 --seed 15
# With the compiled core (the levels as they are now; `mcts-reference` is the pure-Python search):
# run 2p-strong-vs-reference    --players 2 --bots strong,mcts-reference:1s --games 60 --jobs 2 --seed 21
# run 2p-levels                 --players 2 --bots beginner,intermediate,strong,max --games 48 --jobs 1 --seed 22
# The learned network (mcts-net = master's guided search on one thread; r1 weights, shipped):
# run 2p-net-r1-strong1s        --players 2 --bots mcts-net:1s,strong --games 40 --jobs 2 --seed 7
# run 2p-net-r1-strong1s-seed8  --players 2 --bots mcts-net:1s,strong --games 40 --jobs 2 --seed 8
# run 2p-net-r1-strong1s-seed9  --players 2 --bots mcts-net:1s,strong --games 40 --jobs 2 --seed 9
# run 2p-net-r1-strong1s-seed10 --players 2 --bots mcts-net:1s,strong --games 80 --jobs 2 --seed 10
#   (pooled: .venv/bin/python benchmarks/strength/table.py --pool "2p-net-r1-strong1s*")
# run 3p-net-r1-strong1s        --players 3 --bots mcts-net:1s,strong --games 24 --jobs 2 --seed 13
# run 4p-net-r1-strong1s        --players 4 --bots mcts-net:1s,strong --games 16 --jobs 2 --seed 14
# The ladder with every level (max and master take both cores: one game at a time):
# run 2p-ladder-master          --players 2 --bots random,beginner,intermediate,strong,max,master --games 90 --jobs 1 --seed 24
# The master level itself (two threads; one game at a time so that it has both cores):
# run 2p-master1s-strong1s-seed30 --players 2 --bots master:1s,strong --games 40 --jobs 1 --seed 30
# run 2p-master1s-strong1s-seed31 --players 2 --bots master:1s,strong --games 40 --jobs 1 --seed 31
#   (pooled: .venv/bin/python benchmarks/strength/table.py --pool "2p-master1s-strong1s*")
# Against strong at ten times the time (one core each, two games at once), in runs of 16:
# run 2p-net-r1-strong10s-seed60 --players 2 --bots mcts-net:1s,strong:10s --games 16 --jobs 2 --seed 60
# run 2p-net-r1-strong10s-seed61 --players 2 --bots mcts-net:1s,strong:10s --games 16 --jobs 2 --seed 61
# run 2p-net-r1-strong10s-seed62 --players 2 --bots mcts-net:1s,strong:10s --games 16 --jobs 2 --seed 62
#   (pooled: .venv/bin/python benchmarks/strength/table.py --pool "2p-net-r1-strong10s*")
# Round r4's comparisons are benchmarks/strength/guidance.py runs (docs/learning.md, "Round r4").
# The level ladder in the second edition (the 2p-levels command with --edition second; compiled core):
# run 2p-levels-second          --players 2 --bots beginner,intermediate,strong,max --games 48 --jobs 1 --seed 22 --edition second
# The levels below strong with a reserve of cards (issue 30, point 9; docs/bots.md), against the same seeds
# with the bots the levels were before (careless, greedy); compiled core, one game at a time:
# run 2p-paced-levels              --players 2 --bots beginner,intermediate --games 400 --jobs 1 --seed 50
# run 2p-unpaced-levels            --players 2 --bots careless,greedy --games 400 --jobs 1 --seed 50
# run 4p-paced-levels              --players 4 --bots beginner,intermediate --games 200 --jobs 1 --seed 51
# run 4p-unpaced-levels            --players 4 --bots careless,greedy --games 200 --jobs 1 --seed 51
# run 4p-paced-levels-mordred      --players 4 --bots beginner,intermediate --games 200 --jobs 1 --seed 52 --variant mordred
# run 4p-unpaced-levels-mordred    --players 4 --bots careless,greedy --games 200 --jobs 1 --seed 52 --variant mordred
# run 3p-paced-levels-two-bots     --players 3 --bots beginner,intermediate --games 180 --jobs 1 --seed 53
# run 3p-unpaced-levels-two-bots   --players 3 --bots careless,greedy --games 180 --jobs 1 --seed 53
# run 2p-paced-beginner-random     --players 2 --bots beginner,random --games 200 --jobs 1 --seed 54
# run 2p-unpaced-beginner-random   --players 2 --bots careless,random --games 200 --jobs 1 --seed 54
# run 3p-paced-levels              --players 3 --bots random,beginner,intermediate --games 180 --jobs 1 --seed 55
# run 3p-unpaced-levels            --players 3 --bots random,careless,greedy --games 180 --jobs 1 --seed 55
# run 2p-paced-levels-second       --players 2 --bots beginner,intermediate --games 400 --jobs 1 --seed 56 --edition second
# run 2p-unpaced-levels-second     --players 2 --bots careless,greedy --games 400 --jobs 1 --seed 56 --edition second
# run 4p-paced-levels-second       --players 4 --bots beginner,intermediate --games 200 --jobs 1 --seed 57 --edition second
# run 4p-unpaced-levels-second     --players 4 --bots careless,greedy --games 200 --jobs 1 --seed 57 --edition second
# run 2p-paced-greedy-greedy       --players 2 --bots intermediate,greedy --games 200 --jobs 1 --seed 41
# run 2p-strong-paced-intermediate --players 2 --bots strong,intermediate --games 20 --jobs 1 --seed 46
