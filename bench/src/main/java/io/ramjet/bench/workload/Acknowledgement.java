package io.ramjet.bench.workload;

/**
 * How a drain's consumers acknowledge what they receive: the JMS session modes, each a row of its
 * own, so that no row compares one client's acknowledgement work with another's. A client that
 * has no such mode says so ({@link Workloads#acknowledgementGap}).
 */
public enum Acknowledgement {
    /** AUTO_ACKNOWLEDGE: each message acknowledged as {@code receive} returns it. */
    AUTO("AUTO_ACKNOWLEDGE"),
    /** DUPS_OK_ACKNOWLEDGE: acknowledged lazily, in batches; a failure may deliver some again. */
    DUPS_OK("DUPS_OK_ACKNOWLEDGE"),
    /** CLIENT_ACKNOWLEDGE, {@code acknowledge()} after every message. */
    CLIENT("CLIENT_ACKNOWLEDGE, acknowledge() each"),
    /** A transacted session, {@code commit()} after every {@link #COMMIT_EVERY} messages and at the end. */
    TRANSACTED("transacted, commit every " + Acknowledgement.COMMIT_EVERY);

    /** Messages a transacted drain's consumer takes per commit. */
    public static final int COMMIT_EVERY = 100;

    private final String label;

    Acknowledgement(String label) {
        this.label = label;
    }

    /** How the rows name the mode. */
    public String label() {
        return label;
    }
}
