# report-options-lib.sh - what record-report-options.sh and report-options.sh share: the
# option list (report-options.txt) with its @PID@ placeholders resolved for one trace.
#
#   tc_pids REPORT_TXT          "PID PID2": the task of the middle event line of a
#                               `trace-cmd report` output, and another one (a quarter in)
#   tc_option_lines LIST PIDS   the list's "ID<TAB>ARGS" lines, comments dropped, placeholders
#                               replaced
#   tc_argv DAT ARGS            the command line of ARGS for the file DAT into the array
#                               tc_args: ARGS then DAT, or ARGS with DAT in place of @DAT@
#                               (trace-cmd's -i FILE, which --ts-offset must follow)
tc_pids() {
    awk 'match($0, /-[0-9]+ +\[[0-9]+\]/) {
            s = substr($0, RSTART + 1, RLENGTH - 1); sub(/ .*/, "", s); pids[++n] = s
         }
         END {
            if (!n) { print "1 2"; exit }
            a = pids[int((n + 1) / 2)]; b = a
            for (i = int((n + 3) / 4); i <= n && b == a; i++) b = pids[i]
            for (i = 1; i <= n && b == a; i++) b = pids[i]
            print a, b
         }' "$1"
}

tc_option_lines() {
    local pid=${2% *} pid2=${2#* }
    grep -v '^#' "$1" | grep -v '^$' | sed -e "s/@PID@/$pid/g" -e "s/@PID2@/$pid2/g"
}

tc_argv() {
    local dat=$1 args=$2
    if [[ $args == *@DAT@* ]]; then
        eval "tc_args=(${args//@DAT@/\"\$dat\"})"
    else
        eval "tc_args=($args)"
        tc_args+=("$dat")
    fi
}
