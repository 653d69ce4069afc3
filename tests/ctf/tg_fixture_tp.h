/* tg_fixture_tp.h - the LTTng-UST tracepoint provider of the CTF fixtures: one event per
 * family of field types (integers of every size and sign, hex and network byte order,
 * floats, strings, static and dynamic arrays, text arrays and sequences - some of them
 * empty, where babeltrace2 shows recycled text -, enumerations), so
 * the recorded traces exercise every CTF type LTTng-UST writes. */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER tg_fixture

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./tg_fixture_tp.h"

#if !defined(TG_FIXTURE_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define TG_FIXTURE_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_ENUM(tg_fixture, color,
    LTTNG_UST_TP_ENUM_VALUES(
        lttng_ust_field_enum_value("RED", 0)
        lttng_ust_field_enum_range("GREENS", 1, 5)
        lttng_ust_field_enum_value("BLUE", 6)
        lttng_ust_field_enum_range("BLUES", 6, 9)
        lttng_ust_field_enum_value("with \"quotes\"", 10)
    )
)

LTTNG_UST_TRACEPOINT_EVENT(tg_fixture, ints,
    LTTNG_UST_TP_ARGS(int, i, int64_t, big),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int8_t, s8, -i)
        lttng_ust_field_integer(uint8_t, u8, i * 7)
        lttng_ust_field_integer(int16_t, s16, -i * 1000)
        lttng_ust_field_integer(uint16_t, u16, i * 2000)
        lttng_ust_field_integer(int32_t, s32, -i * 100000)
        lttng_ust_field_integer(uint32_t, u32, i * 3000000u)
        lttng_ust_field_integer(int64_t, s64, -big)
        lttng_ust_field_integer(uint64_t, u64, (uint64_t)big * 977)
        lttng_ust_field_integer_hex(uint32_t, hex32, 0xdead0000u + i)
        lttng_ust_field_integer_hex(int16_t, hex16neg, -i)
        lttng_ust_field_integer_network(uint32_t, net32, 0x01020304u + i)
        lttng_ust_field_integer_network_hex(uint16_t, net16hex, 0xbeef + i)
    )
)

LTTNG_UST_TRACEPOINT_EVENT(tg_fixture, floats_strings,
    LTTNG_UST_TP_ARGS(int, i, const char *, s),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_float(float, f32, i / 3.0f)
        lttng_ust_field_float(double, f64, -i * 1.25e-7)
        lttng_ust_field_float(double, big, i * 6.02e23)
        lttng_ust_field_string(str, s)
        lttng_ust_field_string(empty, "")
    )
)

LTTNG_UST_TRACEPOINT_EVENT(tg_fixture, compound,
    LTTNG_UST_TP_ARGS(int, i, const int *, arr, const char *, text),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_array(int, arr3, arr, 3)
        lttng_ust_field_array_hex(int, arr2hex, arr, 2)
        lttng_ust_field_sequence(int, seq, arr, unsigned int, i % 4)
        lttng_ust_field_array_text(char, text6, text, 6)
        lttng_ust_field_sequence_text(char, seqtext, text, unsigned int, 1 + i % 5)
        lttng_ust_field_sequence_text(char, maybe_empty, text, unsigned int, (i % 3) * 2)
        lttng_ust_field_enum(tg_fixture, color, int, color, i % 12)
    )
)

#endif

#include <lttng/tracepoint-event.h>
