package io.ramjet.server.broker.console;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;

/**
 * Writes the console API's answers as JSON: records as objects of their components (in
 * declaration order), maps as objects, collections as arrays, enums by name, numbers, booleans,
 * strings and null. Nothing else is accepted, so an answer cannot leak an object by its
 * {@code toString}. Stateless.
 */
final class Json {

    private Json() {
    }

    static String write(Object value) {
        StringBuilder out = new StringBuilder(256);
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            string(s, out);
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long
                || value instanceof Short || value instanceof Byte) {
            out.append(value);
        } else if (value instanceof Number n) {
            double d = n.doubleValue();
            out.append(Double.isFinite(d) ? value.toString() : "null");
        } else if (value instanceof Enum<?> e) {
            string(e.name(), out);
        } else if (value instanceof Record r) {
            record(r, out);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                first = member(String.valueOf(e.getKey()), e.getValue(), first, out);
            }
            out.append('}');
        } else if (value instanceof Collection<?> items) {
            out.append('[');
            boolean first = true;
            for (Object item : items) {
                out.append(first ? "" : ",");
                first = false;
                write(item, out);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    private static void record(Record r, StringBuilder out) {
        out.append('{');
        boolean first = true;
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            try {
                c.getAccessor().setAccessible(true);
                first = member(c.getName(), c.getAccessor().invoke(r), first, out);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + c.getName() + " of " + r.getClass().getName(), e);
            }
        }
        out.append('}');
    }

    private static boolean member(String name, Object value, boolean first, StringBuilder out) {
        out.append(first ? "" : ",");
        string(name, out);
        out.append(':');
        write(value, out);
        return false;
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    // < and > escaped too, so that no answer can close a script element it is pasted into
                    if (c < 0x20 || c == '<' || c == '>' || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
