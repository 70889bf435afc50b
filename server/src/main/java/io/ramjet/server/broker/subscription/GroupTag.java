package io.ramjet.server.broker.subscription;

/**
 * The message group a message belongs to, as the broker reads it from the message's header
 * section: its {@code JMSXGroupID}, and whether its {@code JMSXGroupSeq} is -1, which closes the
 * group once the message is consumed (ActiveMQ's convention). {@link #NONE} for a message
 * without a group id.
 */
public record GroupTag(String id, boolean closes) {

    public static final GroupTag NONE = new GroupTag(null, false);

    public boolean grouped() {
        return id != null;
    }
}
