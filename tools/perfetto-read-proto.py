#!/usr/bin/python3
"""perfetto-read-proto.py PERFETTO_TRACE_PROTO > src/formats/perfetto/perfetto_read.proto

Writes the messages the Perfetto reader decodes (src/formats/perfetto/): TracePacket with the
packet kinds the reader uses, and every message those reach (FtraceEvent with all its
events, whose field names become the events' fields), with Perfetto's own field numbers,
from Perfetto's published schema (../shared/specs/perfetto_trace.proto).  A few large
messages are pruned to the fields the reader reads (PRUNE); a field left out is skipped on
the wire as an unknown field.  Comments are dropped; a field named base is base_ (the name
protoc-c gives a message's header).  Run it again when the schema or the
lists change; the output is committed so the build needs no schema."""
import re
import sys

ROOT = "Trace"
PRUNE = {
    "TracePacket": {
        "timestamp", "timestamp_clock_id", "track_event", "track_descriptor", "process_tree",
        "clock_snapshot", "process_descriptor", "thread_descriptor", "ftrace_events",
        "trusted_uid", "trusted_packet_sequence_id", "trusted_pid", "interned_data",
        "sequence_flags", "incremental_state_cleared", "trace_packet_defaults",
        "previous_packet_dropped", "first_packet_on_sequence", "machine_id", "translation_table",
        "generic_kernel_task_state_event", "generic_kernel_task_rename_event",
        "generic_kernel_process_tree",
        "trace_stats", "sys_stats", "power_rails", "cpu_info", "trigger",
        "clone_snapshot_trigger", "initial_display_state", "android_system_property",
        "android_energy_estimation_breakdown", "cpu_per_uid_data"},
    "TranslationTable": {"slice_name", "chrome_histogram", "chrome_user_event"},
    "TrackEvent": {
        "category_iids", "categories", "name_iid", "name", "type", "track_uuid",
        "counter_value", "double_counter_value", "extra_counter_track_uuids",
        "extra_counter_values", "extra_double_counter_track_uuids",
        "extra_double_counter_values", "flow_ids_old", "flow_ids", "terminating_flow_ids_old",
        "terminating_flow_ids", "correlation_id", "correlation_id_str", "debug_annotations",
        "timestamp_delta_us", "timestamp_absolute_us", "thread_time_delta_us",
        "thread_time_absolute_us", "legacy_event", "source_location", "source_location_iid",
        "log_message", "chrome_histogram_sample", "chrome_user_event"},
    "InternedData": {
        "event_categories", "event_names", "debug_annotation_names",
        "debug_annotation_value_type_names", "debug_annotation_string_values",
        "source_locations", "log_message_body", "histogram_names"},
    "TrackDescriptor": {
        "uuid", "parent_uuid", "name", "static_name", "atrace_name", "description", "process",
        "thread", "counter", "disallow_merging_with_system_tracks", "child_ordering",
        "sibling_order_rank"},
    "TracePacketDefaults": {"timestamp_clock_id", "track_event_defaults"},
    "ProcessDescriptor": {"pid", "cmdline", "process_name", "process_priority",
                          "start_timestamp_ns", "process_labels"},
    "ThreadDescriptor": {"pid", "tid", "thread_name", "reference_timestamp_us",
                         "reference_thread_time_us", "reference_thread_instruction_count",
                         "legacy_sort_index"},
}

FIELD = re.compile(r"^\s*(?:optional\s+|repeated\s+|required\s+)?([\w.]+)\s+(\w+)\s*=\s*\d+")


def strip_comments(text):
    # line comments first: a path in one ("/proc/*/stat") would open a block comment
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def top_level(text):
    """name -> full text of each top-level message or enum."""
    out = {}
    for m in re.finditer(r"^(message|enum) (\w+) \{", text, re.M):
        depth, i = 0, m.end() - 1
        while True:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        out[m.group(2)] = text[m.start():i + 1]
    return out


def prune(body, keep):
    """Drops the message's own fields (also those of its oneofs) not in keep."""
    out, blocks = [], []
    for line in body.splitlines():
        m = FIELD.match(line)
        own = bool(blocks) and all(b == "oneof" for b in blocks[1:])
        if own and m and m.group(2) not in keep:
            pass
        elif own and re.match(r"^\s*(reserved|extensions) ", line):
            pass
        else:
            out.append(line)
        for opened in re.findall(r"(\w+)\s+\w+\s*\{|\}", line):
            if opened:
                blocks.append(opened)
            else:
                blocks.pop()
    return "\n".join(out)


def drop_empty_oneofs(body):
    return re.sub(r"\n\s*oneof \w+ \{\s*\}", "", body)


def main():
    text = strip_comments(open(sys.argv[1]).read())
    text = re.sub(r"=\s*\n\s*", "= ", text)  # a field declaration on two lines
    # protoc-c names a message's header "base": a field of that name becomes base_ (the
    # wire does not carry names)
    text = re.sub(r"(\s)base(\s*=\s*\d+)", r"\1base_\2", text)
    text = re.sub(r"(\n\s*(?:optional\s+|repeated\s+)?[\w.]+)[ \t]*\n\s*(\w+\s*=)", r"\1 \2", text)
    defs = top_level(text)
    for name, keep in PRUNE.items():
        defs[name] = drop_empty_oneofs(prune(defs[name], keep))
    wanted, todo = [], [ROOT]
    while todo:
        name = todo.pop()
        if name in wanted or name not in defs:
            continue
        wanted.append(name)
        for line in defs[name].splitlines():
            m = FIELD.match(line)
            if m:
                todo.append(re.sub(r"^\.?(perfetto\.)?protos\.", "", m.group(1)).split(".")[0])
    out = ["// perfetto_read.proto - the messages the Perfetto reader decodes, generated by",
           "// tools/perfetto-read-proto.py from Perfetto's perfetto_trace.proto (Apache 2.0).",
           'syntax = "proto2";', "", "package perfetto_read;", ""]
    for name in sorted(wanted):
        body = "\n".join(l.rstrip() for l in defs[name].splitlines() if l.strip())
        out.append(body)
        out.append("")
    sys.stdout.write("\n".join(out))


main()
