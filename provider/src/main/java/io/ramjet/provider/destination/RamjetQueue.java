package io.ramjet.provider.destination;

import io.ramjet.protocol.message.MessageHeaders;
import jakarta.jms.Queue;

public sealed class RamjetQueue extends RamjetDestination implements Queue permits RamjetTemporaryQueue {

    private static final long serialVersionUID = 1L;

    public RamjetQueue(String name) {
        super(name);
    }

    @Override
    public String getQueueName() {
        return name();
    }

    @Override
    public byte kindCode() {
        return MessageHeaders.QUEUE;
    }
}
