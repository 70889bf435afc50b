package io.ramjet.protocol.selector;

/**
 * A float value that a {@link PropertySource} may hand out again with another value for the
 * next message, as {@link ReusableDouble} does for doubles. The engine treats it as a Float
 * (Java's numeric promotion makes a float with an int or a long a float, not a double), reads it
 * at once and never keeps it. Mutable, not thread-safe.
 */
final class ReusableFloat extends Number {

    private static final long serialVersionUID = 1L;

    private float value;

    ReusableFloat set(float v) {
        value = v;
        return this;
    }

    @Override
    public long longValue() {
        return (long) value;
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
        return Float.toString(value);
    }
}
