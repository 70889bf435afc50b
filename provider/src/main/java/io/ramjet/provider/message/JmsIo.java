package io.ramjet.provider.message;

import jakarta.jms.JMSException;
import java.io.IOException;

/** An I/O failure on a message body as the JMSException a caller of the JMS API gets. */
final class JmsIo {

    private JmsIo() {
    }

    static JMSException failure(String doing, IOException cause) {
        JMSException e = new JMSException(doing + ": " + cause.getMessage());
        e.setLinkedException(cause);
        e.initCause(cause);
        return e;
    }
}
