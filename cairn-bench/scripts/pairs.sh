# Sourced by compare-builds.sh and compare-jmh.sh: runs the caller's `run BUILD LABEL PAIR`
# for PAIRS pairs of two builds, BEFORE then AFTER when the pair is odd, AFTER then BEFORE when
# even, so that neither build always runs second.
#   run_pairs BEFORE AFTER PAIRS
run_pairs() {
  i=1
  while [ "$i" -le "$3" ]; do
    if [ $((i % 2)) -eq 1 ]; then
      run "$1" before "$i"; run "$2" after "$i"
    else
      run "$2" after "$i"; run "$1" before "$i"
    fi
    echo "pair $i of $3 done" >&2
    i=$((i + 1))
  done
}
