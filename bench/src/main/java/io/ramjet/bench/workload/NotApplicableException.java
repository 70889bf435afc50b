package io.ramjet.bench.workload;

/** A workload that has no counterpart on a peer; the cell reads "n/a: " and the reason. */
public final class NotApplicableException extends Exception {

    private static final long serialVersionUID = 1L;

    public NotApplicableException(String reason) {
        super(reason);
    }
}
