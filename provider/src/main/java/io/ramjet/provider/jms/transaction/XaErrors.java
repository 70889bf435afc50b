package io.ramjet.provider.jms.transaction;

import io.ramjet.provider.client.ClientException;
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
     * An unknown transaction is XAER_NOTA, a rolled back one XA_RBROLLBACK, a conflicting one
     * XAER_DUPID, another refusal XAER_RMERR, and a lost connection or a timeout XAER_RMFAIL (the
     * transaction manager retries).
     */
    static XAException of(ClientException failure, String what) {
        int code;
        if (failure.isRefusal()) {
            code = switch (failure.reason()) {
                case UNKNOWN_TRANSACTION -> XAException.XAER_NOTA;
                case ROLLED_BACK -> XAException.XA_RBROLLBACK;
                case TRANSACTION_CONFLICT -> XAException.XAER_DUPID;
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
