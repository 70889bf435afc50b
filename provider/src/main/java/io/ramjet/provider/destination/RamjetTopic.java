package io.ramjet.provider.destination;

import io.ramjet.protocol.message.MessageHeaders;
import jakarta.jms.Topic;

public sealed class RamjetTopic extends RamjetDestination implements Topic permits RamjetTemporaryTopic {

    private static final long serialVersionUID = 1L;

    public RamjetTopic(String name) {
        super(name);
    }

    @Override
    public String getTopicName() {
        return name();
    }

    @Override
    public byte kindCode() {
        return MessageHeaders.TOPIC;
    }
}
