package io.ramjet.provider.message;

import io.ramjet.provider.destination.RamjetDestination;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.util.Enumeration;

/**
 * Copies a message of another provider into a Ramjet message of the same type, so it can be
 * sent (Jakarta Messaging 3.1, 3.12): body, properties, JMSCorrelationID, JMSType, JMSReplyTo.
 * The headers a send sets are left to the producer, which must also set them on the original.
 * A foreign BytesMessage or StreamMessage is reset to read it, and so is left in read mode.
 */
public final class ForeignMessages {

    private ForeignMessages() {
    }

    public static RamjetMessage copy(Message foreign, SerializationAllowList allowList) throws JMSException {
        if (foreign instanceof RamjetMessage ramjet) {
            return ramjet;
        }
        RamjetMessage copy = copyBody(foreign, allowList);
        byte[] correlationBytes = null;
        try {
            correlationBytes = foreign.getJMSCorrelationIDAsBytes();
        } catch (JMSException | UnsupportedOperationException notNative) {
            // a provider without native byte correlation ids: the String form is the id
        }
        if (foreign.getJMSCorrelationID() != null || correlationBytes == null) {
            copy.setJMSCorrelationID(foreign.getJMSCorrelationID());
        } else {
            copy.setJMSCorrelationIDAsBytes(correlationBytes);
        }
        copy.setJMSType(foreign.getJMSType());
        copy.setJMSReplyTo(RamjetDestination.from(foreign.getJMSReplyTo()));
        Enumeration<?> names = foreign.getPropertyNames();
        while (names.hasMoreElements()) {
            String name = (String) names.nextElement();
            if (!name.equals(PropertyNames.DELIVERY_COUNT)) {
                copy.setObjectProperty(name, foreign.getObjectProperty(name));
            }
        }
        return copy;
    }

    private static RamjetMessage copyBody(Message foreign, SerializationAllowList allowList) throws JMSException {
        if (foreign instanceof TextMessage text) {
            return new RamjetTextMessage(text.getText());
        }
        if (foreign instanceof BytesMessage bytes) {
            RamjetBytesMessage copy = new RamjetBytesMessage();
            bytes.reset();
            byte[] body = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(body);
            copy.writeBytes(body);
            return copy;
        }
        if (foreign instanceof MapMessage map) {
            RamjetMapMessage copy = new RamjetMapMessage();
            Enumeration<?> names = map.getMapNames();
            while (names.hasMoreElements()) {
                String name = (String) names.nextElement();
                copy.setObject(name, map.getObject(name));
            }
            return copy;
        }
        if (foreign instanceof StreamMessage stream) {
            RamjetStreamMessage copy = new RamjetStreamMessage();
            stream.reset();
            try {
                while (true) {
                    copy.writeObject(stream.readObject());
                }
            } catch (MessageEOFException end) {
                return copy;
            }
        }
        if (foreign instanceof ObjectMessage object) {
            RamjetObjectMessage copy = new RamjetObjectMessage(allowList);
            copy.setObject(object.getObject());
            return copy;
        }
        return new RamjetMessage();
    }
}
