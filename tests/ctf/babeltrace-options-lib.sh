# babeltrace-options-lib.sh - what record-babeltrace-options.sh and babeltrace-options.sh
# share: the option list (babeltrace-options.txt) with its time placeholders resolved from
# babeltrace2's own output of a trace (TZ=UTC).
#
#   bt_times TRACE           "TOD1 TOD2 SEC1 SEC2 DATE1_DAY DATE2_DAY MIN1": from the events a
#                            third and two thirds in
#   bt_option_lines LIST TIMES   the list's lines, comments dropped, placeholders replaced
bt_times() {
    local n a b
    n=$(babeltrace2 "$1" 2>/dev/null | wc -l)
    [ "$n" -gt 0 ] || { echo "00:00 00:00 0 0 1970-01-01 1970-01-01 00:00"; return; }
    a=$(( (n + 2) / 3 )); b=$(( (2 * n + 2) / 3 ))
    pick() { babeltrace2 $2 "$1" 2>/dev/null | sed -n "${3}p" | sed 's/^\[\([^]]*\)\].*/\1/'; }
    local t1 t2 s1 s2 d1 d2
    t1=$(pick "$1" "" $a); t2=$(pick "$1" "" $b)
    s1=$(pick "$1" --clock-seconds $a); s2=$(pick "$1" --clock-seconds $b)
    d1=$(pick "$1" --clock-date $a); d2=$(pick "$1" --clock-date $b)
    # to the microsecond: the fraction's shorter forms are read as babeltrace2 reads them
    echo "${t1%???} ${t2%???} ${s1%???} ${s2%???} ${d1%% *} ${d2%% *} ${t1%:*}"
}

bt_option_lines() {
    set -- "$1" $2
    local list=$1 tod1=$2 tod2=$3 sec1=$4 sec2=$5 day1=$6 day2=$7 min1=$8
    grep -v '^#' "$list" | grep -v '^$' | sed -e "s/@TOD1@/$tod1/g" -e "s/@TOD2@/$tod2/g" \
        -e "s/@SEC1@/$sec1/g" -e "s/@SEC2@/$sec2/g" -e "s/@DATE1@/$day1 $tod1/g" \
        -e "s/@DATE2@/$day2 $tod2/g" -e "s/@MIN1@/$min1/g"
}
