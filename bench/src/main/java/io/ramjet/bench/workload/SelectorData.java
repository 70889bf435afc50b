package io.ramjet.bench.workload;

/**
 * The properties of the selector workload, the same for every peer: message {@code i} of
 * {@code count} has {@code color} = one of ten colors in turn (a tagged property on Ramjet, the
 * tag on RocketMQ) and {@code n} = a permutation of 0..count-1 (an integer nobody tags), so that
 * {@code color = 'red'} and {@code n BETWEEN 0 AND count/10 - 1} each pick a tenth, spread over
 * the whole queue.
 */
public final class SelectorData {

    private static final String[] COLORS = {"red", "orange", "yellow", "green", "blue", "indigo", "violet",
            "black", "white", "grey"};
    /** A prime: multiplying by it modulo count permutes 0..count-1 unless count is a multiple of it. */
    private static final long STRIDE = 7_919;

    private final long count;

    public SelectorData(long count) {
        if (count < 10 || count % STRIDE == 0) {
            throw new IllegalArgumentException("selector workload needs at least 10 messages, not a multiple of "
                    + STRIDE + ", got " + count);
        }
        this.count = count;
    }

    public String color(long i) {
        return COLORS[(int) (i % COLORS.length)];
    }

    public long n(long i) {
        return (i * STRIDE) % count;
    }

    public String tagged() {
        return "color = 'red'";
    }

    public String untagged() {
        return "n BETWEEN 0 AND " + (count / 10 - 1);
    }

    /** The selector of the workload, JMS syntax (RocketMQ's SQL92 filter reads the untagged one too). */
    public String selector(boolean tagged) {
        return tagged ? tagged() : untagged();
    }

    /** How many of the messages the selector picks. */
    public long matches(boolean tagged) {
        return tagged ? (count + COLORS.length - 1) / COLORS.length : count / 10;
    }
}
