package io.ramjet.provider.message;

import jakarta.jms.MessageFormatException;

/**
 * The conversion tables of Jakarta Messaging 3.1: properties (3.5.4) and the values of map and
 * stream bodies (3.11.3), which add char and byte[]. A row may be read as its own type, as a
 * wider integer, float as double, anything as String, and a String as any primitive but char
 * (through {@code valueOf}, so a bad string is a NumberFormatException). Every other pair is a
 * MessageFormatException. A null reads as {@code valueOf(null)} would: false for boolean, a
 * NumberFormatException for integers, a NullPointerException for float, double and char, null
 * for String and byte[].
 */
final class ValueConversions {

    private ValueConversions() {
    }

    static boolean toBoolean(Object v) throws MessageFormatException {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v == null || v instanceof String) {
            return Boolean.parseBoolean((String) v);
        }
        throw refused(v, "boolean");
    }

    static byte toByte(Object v) throws MessageFormatException {
        if (v instanceof Byte b) {
            return b;
        }
        if (v == null || v instanceof String) {
            return Byte.parseByte((String) v);
        }
        throw refused(v, "byte");
    }

    static short toShort(Object v) throws MessageFormatException {
        if (v instanceof Short || v instanceof Byte) {
            return ((Number) v).shortValue();
        }
        if (v == null || v instanceof String) {
            return Short.parseShort((String) v);
        }
        throw refused(v, "short");
    }

    static int toInt(Object v) throws MessageFormatException {
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).intValue();
        }
        if (v == null || v instanceof String) {
            return Integer.parseInt((String) v);
        }
        throw refused(v, "int");
    }

    static long toLong(Object v) throws MessageFormatException {
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v == null || v instanceof String) {
            return Long.parseLong((String) v);
        }
        throw refused(v, "long");
    }

    static float toFloat(Object v) throws MessageFormatException {
        if (v instanceof Float f) {
            return f;
        }
        if (v == null || v instanceof String) {
            return Float.valueOf((String) v);
        }
        throw refused(v, "float");
    }

    static double toDouble(Object v) throws MessageFormatException {
        if (v instanceof Double || v instanceof Float) {
            return ((Number) v).doubleValue();
        }
        if (v == null || v instanceof String) {
            return Double.valueOf((String) v);
        }
        throw refused(v, "double");
    }

    static char toChar(Object v) throws MessageFormatException {
        if (v instanceof Character c) {
            return c;
        }
        if (v == null) {
            throw new NullPointerException("a null value read as char");
        }
        throw refused(v, "char");
    }

    static String toString(Object v) throws MessageFormatException {
        if (v instanceof byte[]) {
            throw refused(v, "String");
        }
        return v == null ? null : v.toString();
    }

    static byte[] toBytes(Object v) throws MessageFormatException {
        if (v == null) {
            return null;
        }
        if (v instanceof byte[] b) {
            return b.clone();
        }
        throw refused(v, "byte[]");
    }

    static MessageFormatException refused(Object v, String to) {
        return new MessageFormatException("a " + typeName(v) + " value cannot be read as " + to);
    }

    static String typeName(Object v) {
        if (v instanceof byte[]) {
            return "byte[]";
        }
        String n = v.getClass().getSimpleName();
        return switch (n) {
            case "Integer" -> "int";
            case "Character" -> "char";
            case "String" -> "String";
            default -> n.toLowerCase();
        };
    }
}
