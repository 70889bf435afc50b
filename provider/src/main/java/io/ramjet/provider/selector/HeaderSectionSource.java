package io.ramjet.provider.selector;

import io.ramjet.protocol.message.MessageHeaders;

/** A decoded header section as a selector sees it: how a broker evaluates a selector itself. */
public final class HeaderSectionSource implements PropertySource {

    private final MessageHeaders headers;

    public HeaderSectionSource(MessageHeaders headers) {
        this.headers = headers;
    }

    @Override
    public Object get(String identifier) {
        switch (identifier) {
            case "JMSDeliveryMode":
                return headers.deliveryMode() == MessageHeaders.PERSISTENT ? "PERSISTENT" : "NON_PERSISTENT";
            case "JMSPriority":
                return headers.priority();
            case "JMSMessageID":
                return headers.messageId();
            case "JMSTimestamp":
                return headers.timestamp();
            case "JMSCorrelationID":
                return headers.correlationId();
            case "JMSType":
                return headers.type();
            default:
                return headers.properties().get(identifier);
        }
    }
}
