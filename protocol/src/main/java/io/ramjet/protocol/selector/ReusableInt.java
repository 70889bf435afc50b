package io.ramjet.protocol.selector;

/**
 * A byte, short or int value that a {@link PropertySource} may hand out again with another
 * value for the next message, as {@link ReusableLong} does for longs. The engine treats it as
 * an Integer (int arithmetic, Java's numeric promotion), reads it at once and never keeps it.
 * Mutable, not thread-safe.
 */
final class ReusableInt extends Number {

    private static final long serialVersionUID = 1L;

    private int value;

    ReusableInt set(int v) {
        value = v;
        return this;
    }

    @Override
    public long longValue() {
        return value;
    }

    @Override
    public int intValue() {
        return value;
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
        return Integer.toString(value);
    }
}
