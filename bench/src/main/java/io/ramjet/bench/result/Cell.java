package io.ramjet.bench.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One peer's figure on one row: a number, or the reason there is none. A figure of several
 * rounds is their median, with the lowest and highest round and how many rounds gave a figure.
 */
public record Cell(double value, String text, double low, double high, int runs) {

    public static Cell of(double value) {
        return new Cell(value, null, value, value, 1);
    }

    /** The workload does not apply to this peer (say, RocketMQ has no multi-message transaction). */
    public static Cell notApplicable(String reason) {
        return new Cell(Double.NaN, "n/a: " + reason, Double.NaN, Double.NaN, 0);
    }

    /** The workload failed on this peer. */
    public static Cell error(Throwable t) {
        String message = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
        return new Cell(Double.NaN, "error: " + message.replaceAll("\\s+", " "), Double.NaN, Double.NaN, 0);
    }

    /**
     * The cells of one row and peer from several rounds as one: the median of those with a
     * figure, with their range; the first cell if none has one.
     */
    public static Cell median(List<Cell> rounds) {
        List<Double> values = new ArrayList<>();
        for (Cell c : rounds) {
            if (c.hasValue()) {
                values.add(c.value());
            }
        }
        if (values.isEmpty()) {
            return rounds.get(0);
        }
        values.sort(null);
        int n = values.size();
        double median = n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
        return new Cell(median, null, values.get(0), values.get(n - 1), n);
    }

    /** This figure replaced by {@code v} (a percentile of pooled samples), keeping the rounds' range. */
    public Cell withValue(double v) {
        return new Cell(v, text, low, high, runs);
    }

    public boolean hasValue() {
        return text == null;
    }

    public boolean isError() {
        return text != null && text.startsWith("error:");
    }

    /**
     * The spread of the rounds, (highest - lowest) / figure, in percent; 0 for a single round.
     */
    public double spreadPercent() {
        return runs < 2 || value == 0 ? 0 : 100 * (high - low) / value;
    }

    /**
     * The figure as the table prints it: whole numbers, with decimals only below 100, then the
     * spread of several rounds ({@code ~12%}).
     */
    public String format() {
        if (!hasValue()) {
            return text;
        }
        String figure = value >= 100 ? String.format(Locale.ROOT, "%,.0f", value)
                : String.format(Locale.ROOT, "%.2f", value);
        return runs < 2 ? figure : figure + String.format(Locale.ROOT, " ~%.0f%%", spreadPercent());
    }
}
