package io.ramjet.cli;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/** A message as the consumer and browse commands print it. */
public record Received(String messageId, boolean redelivered, int deliveryCount, String body,
                       Map<String, Object> properties) {

    static Received of(Message m) throws JMSException {
        Map<String, Object> properties = new TreeMap<>();
        for (Object name : Collections.list(m.getPropertyNames())) {
            properties.put(name.toString(), m.getObjectProperty(name.toString()));
        }
        String body = m instanceof TextMessage t ? t.getText() : "(" + m.getClass().getSimpleName() + ")";
        return new Received(m.getJMSMessageID(), m.getJMSRedelivered(), m.getIntProperty("JMSXDeliveryCount"), body,
                properties);
    }
}
