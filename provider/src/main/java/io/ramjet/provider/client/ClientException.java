package io.ramjet.provider.client;

/**
 * How a {@link RamjetClient} request failed, the only failure its futures complete with: what
 * happened ({@link Reason}, for the façade to choose the JMS or XA exception) and whether the
 * request may have taken effect ({@link Outcome}, for a commit to tell "rolled back" from
 * "unknown"). The message is the broker's, or the client's when the broker never answered.
 */
public final class ClientException extends Exception {

    /** Whether the request may have taken effect. */
    public enum Outcome {
        /** Nothing was done: the broker refused it before acting, or it never left this client. */
        CERTAINLY_NOT_APPLIED,
        /** It may or may not have been done: the answer was lost, late, or an internal error. */
        OUTCOME_UNKNOWN
    }

    /** What went wrong. The first group are broker refusals, the second say the broker never answered. */
    public enum Reason {
        /** No such destination, subscription or thing asked for. */
        NOT_FOUND,
        /** The credentials were refused, or a command came before authenticating. */
        SECURITY,
        /** The broker's store is full or past its use limit. */
        RESOURCE,
        /** Jakarta Messaging forbids this subscribe or unsubscribe now. */
        CONFLICT,
        /** Another connection holds the client id. */
        CLIENT_ID_IN_USE,
        /** The request was not valid (a bad argument). */
        INVALID,
        /** The message of a send was refused for itself: over a size limit, or not well formed. */
        INVALID_MESSAGE,
        /** The transaction was already rolled back and cannot commit. */
        ROLLED_BACK,
        /** No prepared transaction or XA branch of that id. */
        UNKNOWN_TRANSACTION,
        /** A transaction of that id is open or prepared from another connection. */
        TRANSACTION_CONFLICT,
        /** The messages named are not delivered to that consumer attachment (any more). */
        NOT_HELD,
        /** The consumer is not attached there (it closed, or the broker restarted). */
        NOT_ATTACHED,
        /** The broker was too busy to take the request. */
        BUSY,
        /** The master's in-sync set is below its minimum: it refused a commit it could not answer. */
        TOO_FEW_REPLICAS,
        /** The broker is not its group's master (a slave, or a master fenced off): nothing was done. */
        NOT_MASTER,
        /** The broker failed while executing the request. */
        INTERNAL,
        /** No connection to the broker could be opened: the request never left. */
        UNREACHABLE,
        /** The connection closed before the answer came. */
        CONNECTION_LOST,
        /** No answer within the request timeout. */
        TIMEOUT,
        /** The client failed on its side (interrupted, or an answer it could not read). */
        FAILED
    }

    private final Reason reason;
    private final Outcome outcome;

    public ClientException(Reason reason, Outcome outcome, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
        this.outcome = outcome;
    }

    /** A refusal made before anything was sent or done. */
    public static ClientException refused(Reason reason, String message) {
        return new ClientException(reason, Outcome.CERTAINLY_NOT_APPLIED, message, null);
    }

    public Reason reason() {
        return reason;
    }

    public Outcome outcome() {
        return outcome;
    }

    public boolean certainlyNotApplied() {
        return outcome == Outcome.CERTAINLY_NOT_APPLIED;
    }

    /** Whether the broker (or the client, for a request it would not send) answered with a refusal. */
    public boolean isRefusal() {
        return switch (reason) {
            case UNREACHABLE, CONNECTION_LOST, TIMEOUT, FAILED -> false;
            default -> true;
        };
    }

    /** Whether the broker went away or forgot the consumer: a new attachment is needed. */
    public boolean isBrokerGone() {
        return isMasterGone() || reason == Reason.NOT_ATTACHED;
    }

    /** Whether the broker stopped being reachable as its group's master: the group's next master must take over. */
    public boolean isMasterGone() {
        return reason == Reason.UNREACHABLE || reason == Reason.CONNECTION_LOST || reason == Reason.NOT_MASTER;
    }

    /** The client exception inside a future's failure, whatever wraps it. */
    public static ClientException of(Throwable failure) {
        Throwable cause = failure;
        while (cause != null && !(cause instanceof ClientException)) {
            cause = cause.getCause();
        }
        if (cause instanceof ClientException c) {
            return c;
        }
        return new ClientException(Reason.FAILED, Outcome.OUTCOME_UNKNOWN, String.valueOf(failure), failure);
    }
}
