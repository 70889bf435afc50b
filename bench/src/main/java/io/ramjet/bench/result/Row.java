package io.ramjet.bench.result;

/**
 * One line of the results table: the workload it belongs to (1 to 11, as bench/README.md lists
 * them), what it measures and in which unit, and whether a bigger figure is better.
 */
public record Row(int workload, String label, String unit, boolean higherIsBetter) {

    /** The label with its unit, as the table and the CSV print it. */
    public String title() {
        return workload + ". " + label + " (" + unit + ")";
    }
}
