package io.ramjet.protocol.selector;

/**
 * A long value that a {@link PropertySource} may hand out again with another value for the
 * next message, so that reading a number allocates nothing. The engine treats it as a Long,
 * reads it at once and never keeps it. Mutable, not thread-safe.
 */
final class ReusableLong extends Number {

    private static final long serialVersionUID = 1L;

    private long value;

    ReusableLong set(long v) {
        value = v;
        return this;
    }

    @Override
    public long longValue() {
        return value;
    }

    @Override
    public int intValue() {
        return (int) value;
    }

    @Override
    public float floatValue() {
        return value;
    }

    @Override
    public double doubleValue() {
        return value;
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
