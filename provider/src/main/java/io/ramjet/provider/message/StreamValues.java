package io.ramjet.provider.message;

/** The values a map or stream body holds: null, the primitive wrappers, String, byte[]. */
final class StreamValues {

    private StreamValues() {
    }

    static boolean isValue(Object v) {
        return v == null || v instanceof Boolean || v instanceof Byte || v instanceof Short
                || v instanceof Character || v instanceof Integer || v instanceof Long
                || v instanceof Float || v instanceof Double || v instanceof String || v instanceof byte[];
    }
}
