package io.ramjet.provider.client;

import io.ramjet.model.MessagePosition;
import java.util.List;
import java.util.Objects;

/** Messages a transaction consumed through one consumer attachment: acknowledged by its commit, released by its rollback. */
public record ConsumedMessages(ConsumerInfo attachment, List<MessagePosition> positions) {
    public ConsumedMessages {
        Objects.requireNonNull(attachment, "attachment");
        positions = List.copyOf(positions);
    }
}
