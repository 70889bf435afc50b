package io.ramjet.bench;

import java.util.Locale;

/** One peer's figure on one row: a number, or the reason there is none. */
public record Cell(double value, String text) {

    public static Cell of(double value) {
        return new Cell(value, null);
    }

    /** The workload does not apply to this peer (say, RocketMQ has no multi-message transaction). */
    public static Cell notApplicable(String reason) {
        return new Cell(Double.NaN, "n/a: " + reason);
    }

    /** The workload failed on this peer. */
    public static Cell error(Throwable t) {
        String message = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
        return new Cell(Double.NaN, "error: " + message.replaceAll("\\s+", " "));
    }

    public boolean hasValue() {
        return text == null;
    }

    public boolean isError() {
        return text != null && text.startsWith("error:");
    }

    /** The figure as the table prints it: whole numbers, with decimals only below 100. */
    public String format() {
        if (!hasValue()) {
            return text;
        }
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.2f", value);
    }
}
