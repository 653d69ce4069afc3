#!/bin/bash
# ctf-classes.sh - the traces of ../shared/corpus/ctf-classes (classes of other producers'
# traces: metadata babeltrace2 accepts with warnings; LTTng-modules' named event header with its
# align(32), "flipping-endianness") printed with --style=babeltrace must equal babeltrace2's
# text beside them (TZ=UTC), and the metadata warnings babeltrace2's, in its words and order
# (babeltrace2 run here; without it only the text is compared).  SKIP without the corpus.
. "$(dirname "$0")/../lib.sh"
classes=$TG_CORPUS/ctf-classes
tg_need_dir "$classes"
export TZ=UTC
for exp in "$classes"/*.babeltrace2.txt; do
    [ -f "$exp" ] || continue
    t=${exp%.babeltrace2.txt}
    tg_check "ctf-classes/${t##*/}" "$exp" "$TG" cat --style=babeltrace "$t"
    command -v babeltrace2 >/dev/null || continue
    babeltrace2 "$t" 2>&1 >/dev/null |
        sed -n 's/^.* \[[^]]*\] \(At line [0-9]* in metadata stream: .*\)$/\1/p' >"$TG_TMP/bt-warn"
    sed -n 's|^traceglot: warning: .*/metadata: \(At line .*\)$|\1|p' "$TG_TMP/err" >"$TG_TMP/warn"
    tg_same "ctf-classes/${t##*/}: $(wc -l <"$TG_TMP/bt-warn") warnings as babeltrace2's" \
        "$TG_TMP/bt-warn" "$TG_TMP/warn"
done
tg_done
