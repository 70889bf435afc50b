package io.ramjet.provider.jms;

import static io.ramjet.provider.jms.RuntimeExceptions.unchecked;
import static io.ramjet.provider.jms.RuntimeExceptions.uncheckedRun;

import io.ramjet.provider.message.RamjetMessage;
import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageProducer;
import java.io.Serializable;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The simplified API's producer: settings, properties and headers applied to each message it
 * sends through one anonymous producer of the context's session (a {@link RamjetMessageProducer},
 * or the resource adapter's handle on one); the context makes the messages. Properties
 * are held in a scratch message so that names are validated and values converted as on any message.
 */
final class RamjetJMSProducer implements JMSProducer {

    private final JMSContext context;
    private final MessageProducer producer;
    private final RamjetMessage properties = new RamjetMessage();
    private CompletionListener async;
    private String correlationId;
    private byte[] correlationIdBytes;
    private String type;
    private Destination replyTo;

    RamjetJMSProducer(JMSContext context, MessageProducer producer) {
        this.context = context;
        this.producer = producer;
    }

    // ---- sends

    @Override
    public JMSProducer send(Destination destination, Message message) {
        if (message == null) {
            throw new MessageFormatRuntimeException("no message");
        }
        uncheckedRun(() -> {
            for (String name : getPropertyNames()) {
                message.setObjectProperty(name, properties.getObjectProperty(name));
            }
            if (correlationIdBytes != null) {
                message.setJMSCorrelationIDAsBytes(correlationIdBytes);
            } else if (correlationId != null) {
                message.setJMSCorrelationID(correlationId);
            }
            if (type != null) {
                message.setJMSType(type);
            }
            if (replyTo != null) {
                message.setJMSReplyTo(replyTo);
            }
            if (async == null) {
                producer.send(destination, message);
            } else {
                producer.send(destination, message, async);
            }
        });
        return this;
    }

    @Override
    public JMSProducer send(Destination destination, String body) {
        return send(destination, context.createTextMessage(body));
    }

    @Override
    public JMSProducer send(Destination destination, Map<String, Object> body) {
        MapMessage message = context.createMapMessage();
        if (body != null) {
            uncheckedRun(() -> {
                for (Map.Entry<String, Object> e : body.entrySet()) {
                    message.setObject(e.getKey(), e.getValue());
                }
            });
        }
        return send(destination, message);
    }

    @Override
    public JMSProducer send(Destination destination, byte[] body) {
        BytesMessage message = context.createBytesMessage();
        if (body != null) {
            uncheckedRun(() -> message.writeBytes(body));
        }
        return send(destination, message);
    }

    @Override
    public JMSProducer send(Destination destination, Serializable body) {
        return send(destination, context.createObjectMessage(body));
    }

    // ---- settings

    @Override
    public JMSProducer setDisableMessageID(boolean value) {
        uncheckedRun(() -> producer.setDisableMessageID(value));
        return this;
    }

    @Override
    public boolean getDisableMessageID() {
        return unchecked(producer::getDisableMessageID);
    }

    @Override
    public JMSProducer setDisableMessageTimestamp(boolean value) {
        uncheckedRun(() -> producer.setDisableMessageTimestamp(value));
        return this;
    }

    @Override
    public boolean getDisableMessageTimestamp() {
        return unchecked(producer::getDisableMessageTimestamp);
    }

    @Override
    public JMSProducer setDeliveryMode(int deliveryMode) {
        uncheckedRun(() -> producer.setDeliveryMode(deliveryMode));
        return this;
    }

    @Override
    public int getDeliveryMode() {
        return unchecked(producer::getDeliveryMode);
    }

    @Override
    public JMSProducer setPriority(int priority) {
        uncheckedRun(() -> producer.setPriority(priority));
        return this;
    }

    @Override
    public int getPriority() {
        return unchecked(producer::getPriority);
    }

    @Override
    public JMSProducer setTimeToLive(long timeToLive) {
        uncheckedRun(() -> producer.setTimeToLive(timeToLive));
        return this;
    }

    @Override
    public long getTimeToLive() {
        return unchecked(producer::getTimeToLive);
    }

    @Override
    public JMSProducer setDeliveryDelay(long deliveryDelay) {
        uncheckedRun(() -> producer.setDeliveryDelay(deliveryDelay));
        return this;
    }

    @Override
    public long getDeliveryDelay() {
        return unchecked(producer::getDeliveryDelay);
    }

    @Override
    public JMSProducer setAsync(CompletionListener completionListener) {
        this.async = completionListener;
        return this;
    }

    @Override
    public CompletionListener getAsync() {
        return async;
    }

    // ---- properties

    @Override
    public JMSProducer setProperty(String name, boolean value) {
        uncheckedRun(() -> properties.setBooleanProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, byte value) {
        uncheckedRun(() -> properties.setByteProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, short value) {
        uncheckedRun(() -> properties.setShortProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, int value) {
        uncheckedRun(() -> properties.setIntProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, long value) {
        uncheckedRun(() -> properties.setLongProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, float value) {
        uncheckedRun(() -> properties.setFloatProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, double value) {
        uncheckedRun(() -> properties.setDoubleProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, String value) {
        uncheckedRun(() -> properties.setStringProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, Object value) {
        uncheckedRun(() -> properties.setObjectProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer clearProperties() {
        properties.clearProperties();
        return this;
    }

    @Override
    public boolean propertyExists(String name) {
        return unchecked(() -> properties.propertyExists(name));
    }

    @Override
    public boolean getBooleanProperty(String name) {
        return unchecked(() -> properties.getBooleanProperty(name));
    }

    @Override
    public byte getByteProperty(String name) {
        return unchecked(() -> properties.getByteProperty(name));
    }

    @Override
    public short getShortProperty(String name) {
        return unchecked(() -> properties.getShortProperty(name));
    }

    @Override
    public int getIntProperty(String name) {
        return unchecked(() -> properties.getIntProperty(name));
    }

    @Override
    public long getLongProperty(String name) {
        return unchecked(() -> properties.getLongProperty(name));
    }

    @Override
    public float getFloatProperty(String name) {
        return unchecked(() -> properties.getFloatProperty(name));
    }

    @Override
    public double getDoubleProperty(String name) {
        return unchecked(() -> properties.getDoubleProperty(name));
    }

    @Override
    public String getStringProperty(String name) {
        return unchecked(() -> properties.getStringProperty(name));
    }

    @Override
    public Object getObjectProperty(String name) {
        return unchecked(() -> properties.getObjectProperty(name));
    }

    @Override
    public Set<String> getPropertyNames() {
        Set<String> names = new HashSet<>(unchecked(() -> Collections.list(properties.getPropertyNames())));
        return Collections.unmodifiableSet(names);
    }

    // ---- headers

    @Override
    public JMSProducer setJMSCorrelationIDAsBytes(byte[] correlationID) {
        this.correlationIdBytes = correlationID;
        this.correlationId = null;
        return this;
    }

    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        return correlationIdBytes;
    }

    @Override
    public JMSProducer setJMSCorrelationID(String correlationID) {
        this.correlationId = correlationID;
        this.correlationIdBytes = null;
        return this;
    }

    @Override
    public String getJMSCorrelationID() {
        return correlationId;
    }

    @Override
    public JMSProducer setJMSType(String type) {
        this.type = type;
        return this;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    @Override
    public JMSProducer setJMSReplyTo(Destination replyTo) {
        this.replyTo = replyTo;
        return this;
    }

    @Override
    public Destination getJMSReplyTo() {
        return replyTo;
    }
}
