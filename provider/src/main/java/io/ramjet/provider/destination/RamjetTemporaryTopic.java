package io.ramjet.provider.destination;

import io.ramjet.protocol.message.MessageHeaders;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.TemporaryTopic;

/**
 * A temporary topic: deleted through the connection that created it. A copy that travelled in a
 * message (JMSReplyTo) or through serialization has no owner and cannot delete it.
 */
public final class RamjetTemporaryTopic extends RamjetTopic implements TemporaryTopic {

    private static final long serialVersionUID = 1L;

    private final transient TemporaryDestinationOwner owner;

    public RamjetTemporaryTopic(String name, TemporaryDestinationOwner owner) {
        super(name);
        this.owner = owner;
    }

    @Override
    public void delete() throws JMSException {
        if (owner == null) {
            throw new IllegalStateException("temporary topic " + name() + " was not created by this connection");
        }
        owner.delete(this);
    }

    @Override
    public byte kindCode() {
        return MessageHeaders.TEMPORARY_TOPIC;
    }
}
