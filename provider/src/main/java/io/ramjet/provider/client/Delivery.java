package io.ramjet.provider.client;

import io.ramjet.model.MessagePosition;
import java.nio.ByteBuffer;

/**
 * One message pulled for a consumer: where it sits in its subscription, its count and its bytes.
 * The header section and the body are read-only views of the bytes the broker sent (a pull
 * response's, shared by its messages), not copies; decoding copies what a message keeps. For a
 * {@code large} message the body is its chunk table ({@code LargeBodyDescriptor}), and the
 * body's bytes are read from the broker in chunks.
 */
public record Delivery(ConsumerInfo consumer, MessagePosition position, int deliveryCount, ByteBuffer properties,
                       ByteBuffer body, boolean large) {

    /** A delivery whose body came with it. */
    public Delivery(ConsumerInfo consumer, MessagePosition position, int deliveryCount, ByteBuffer properties,
                    ByteBuffer body) {
        this(consumer, position, deliveryCount, properties, body, false);
    }

    /** A delivery of bytes of its own. */
    public Delivery(ConsumerInfo consumer, MessagePosition position, int deliveryCount, byte[] properties,
                    byte[] body) {
        this(consumer, position, deliveryCount, ByteBuffer.wrap(properties).asReadOnlyBuffer(),
                ByteBuffer.wrap(body).asReadOnlyBuffer());
    }

    /** Bytes of the header section and the body together. */
    public int size() {
        return properties.remaining() + body.remaining();
    }
}
