package io.ramjet.provider.jms.transaction;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import javax.transaction.xa.XAException;

/** The XAException of each broker failure. */
final class XaErrors {

    private XaErrors() {
    }

    static XAException of(int code, String message) {
        XAException e = new XAException(message);
        e.errorCode = code;
        return e;
    }

    /**
     * UNKNOWN_TRANSACTION is XAER_NOTA, TRANSACTION_ROLLED_BACK is XA_RBROLLBACK, another refusal
     * XAER_RMERR, and a lost connection or a timeout XAER_RMFAIL (the transaction manager retries).
     */
    static XAException of(Throwable failure, String what) {
        int code;
        if (failure instanceof RemotingCommandException c) {
            code = switch (c.status()) {
                case ErrorStatus.UNKNOWN_TRANSACTION -> XAException.XAER_NOTA;
                case ErrorStatus.TRANSACTION_ROLLED_BACK -> XAException.XA_RBROLLBACK;
                case ErrorStatus.TRANSACTION_CONFLICT -> XAException.XAER_DUPID;
                default -> XAException.XAER_RMERR;
            };
        } else {
            code = XAException.XAER_RMFAIL;
        }
        XAException e = of(code, what + ": " + failure.getMessage());
        e.initCause(failure);
        return e;
    }
}
