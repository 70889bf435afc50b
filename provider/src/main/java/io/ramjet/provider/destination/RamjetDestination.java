package io.ramjet.provider.destination;

import io.ramjet.protocol.message.MessageHeaders;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;
import java.io.Serializable;
import java.util.Objects;
import javax.naming.NamingException;
import javax.naming.Reference;
import javax.naming.Referenceable;
import javax.naming.StringRefAddr;

/**
 * A queue or topic by name: a value, equal to another of the same kind and name. Serializable
 * and Referenceable so a JNDI tree can hold it; the kind codes are those of {@link MessageHeaders}.
 */
public abstract sealed class RamjetDestination implements Destination, Serializable, Referenceable
        permits RamjetQueue, RamjetTopic {

    private static final long serialVersionUID = 1L;

    /** Rebuilds a destination from its {@link #getReference() reference}; named, not imported, to keep jndi above us. */
    public static final String OBJECT_FACTORY = "io.ramjet.provider.jndi.RamjetObjectFactory";
    /** The reference address that holds the destination's name. */
    public static final String NAME_ADDRESS = "name";

    private final String name;

    RamjetDestination(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a destination needs a name");
        }
        this.name = name;
    }

    public String name() {
        return name;
    }

    /**
     * A reference an application server's JNDI tree can hold: the class and the name. A
     * temporary destination lives only as long as its connection, so it cannot be bound.
     */
    @Override
    public Reference getReference() throws NamingException {
        if (this instanceof RamjetTemporaryQueue || this instanceof RamjetTemporaryTopic) {
            throw new NamingException("a temporary destination cannot be bound in JNDI: " + name);
        }
        return new Reference(getClass().getName(), new StringRefAddr(NAME_ADDRESS, name), OBJECT_FACTORY, null);
    }

    /** This destination's kind, one of MessageHeaders' QUEUE, TOPIC, TEMPORARY_QUEUE, TEMPORARY_TOPIC. */
    public abstract byte kindCode();

    public boolean isQueue() {
        return this instanceof Queue;
    }

    public boolean isTemporary() {
        return this instanceof TemporaryQueue || this instanceof TemporaryTopic;
    }

    /** The destination a header section names; the temporary ones are detached from any connection. */
    public static RamjetDestination of(byte kindCode, String name) {
        switch (kindCode) {
            case MessageHeaders.QUEUE: return new RamjetQueue(name);
            case MessageHeaders.TOPIC: return new RamjetTopic(name);
            case MessageHeaders.TEMPORARY_QUEUE: return new RamjetTemporaryQueue(name, null);
            case MessageHeaders.TEMPORARY_TOPIC: return new RamjetTemporaryTopic(name, null);
            default: throw new IllegalArgumentException("destination kind " + kindCode);
        }
    }

    /** A Ramjet destination for any provider's destination, by its name; null for null. */
    public static RamjetDestination from(Destination destination) throws JMSException {
        if (destination == null || destination instanceof RamjetDestination) {
            return (RamjetDestination) destination;
        }
        if (destination instanceof TemporaryQueue q) {
            return new RamjetTemporaryQueue(q.getQueueName(), null);
        }
        if (destination instanceof TemporaryTopic t) {
            return new RamjetTemporaryTopic(t.getTopicName(), null);
        }
        if (destination instanceof Queue q) {
            return new RamjetQueue(q.getQueueName());
        }
        if (destination instanceof Topic t) {
            return new RamjetTopic(t.getTopicName());
        }
        throw new jakarta.jms.InvalidDestinationException("neither a queue nor a topic: " + destination);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RamjetDestination d && d.kindCode() == kindCode() && d.name.equals(name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kindCode(), name);
    }

    @Override
    public String toString() {
        return name;
    }
}
