package io.ramjet.provider.message;

import io.ramjet.protocol.message.BodyType;
import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectOutputStream;
import java.io.Serializable;

/**
 * A Java-serialized object: serialized when set (later changes to the object are not sent),
 * deserialized on every get through the allow-list, so a class outside it is refused with a
 * JMSException that names it.
 */
public class RamjetObjectMessage extends RamjetMessage implements ObjectMessage {

    private final SerializationAllowList allowList;
    private byte[] serialized;

    public RamjetObjectMessage() {
        this(SerializationAllowList.fromSystemProperties());
    }

    public RamjetObjectMessage(SerializationAllowList allowList) {
        this.allowList = allowList;
    }

    @Override
    public BodyType bodyType() {
        return BodyType.OBJECT;
    }

    byte[] serialized() {
        return serialized;
    }

    void setSerialized(byte[] bytes) {
        serialized = bytes;
    }

    @Override
    public void setObject(Serializable object) throws JMSException {
        checkWritable();
        if (object == null) {
            serialized = null;
            return;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        } catch (IOException e) {
            MessageFormatException jms = new MessageFormatException("cannot serialize a "
                    + object.getClass().getName() + ": " + e);
            jms.setLinkedException(e);
            throw jms;
        }
        serialized = bytes.toByteArray();
    }

    @Override
    public Serializable getObject() throws JMSException {
        if (serialized == null) {
            return null;
        }
        try (AllowListObjectInputStream in = new AllowListObjectInputStream(
                new ByteArrayInputStream(serialized), allowList)) {
            return (Serializable) in.readObject();
        } catch (InvalidClassException e) {
            JMSException jms = new JMSException("ObjectMessage refused class " + e.classname + ": " + e.getMessage());
            jms.setLinkedException(e);
            throw jms;
        } catch (IOException | ClassNotFoundException | ClassCastException e) {
            MessageFormatException jms = new MessageFormatException("cannot deserialize the ObjectMessage body: " + e);
            jms.setLinkedException(e);
            throw jms;
        }
    }

    @Override
    public void clearBody() throws JMSException {
        super.clearBody();
        serialized = null;
    }

    @Override
    Object bodyValue() throws JMSException {
        return getObject();
    }
}
