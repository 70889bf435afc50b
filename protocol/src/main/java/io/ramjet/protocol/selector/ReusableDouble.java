package io.ramjet.protocol.selector;

/**
 * An approximate numeric value that a {@link PropertySource} may hand out again with another
 * value for the next message, as {@link ReusableLong} does for exact ones. Mutable, not
 * thread-safe.
 */
final class ReusableDouble extends Number {

    private static final long serialVersionUID = 1L;

    private double value;

    ReusableDouble set(double v) {
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
        return (float) value;
    }

    @Override
    public double doubleValue() {
        return value;
    }

    @Override
    public String toString() {
        return Double.toString(value);
    }
}
