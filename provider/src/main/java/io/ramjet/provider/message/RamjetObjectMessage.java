package io.ramjet.provider.message;

import io.ramjet.protocol.message.BodyType;
import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;

/**
 * A Java-serialized object: serialized when set (later changes to the object are not sent),
 * deserialized on every get through the allow-list and its bounds, so a class outside it, or a
 * graph past them, is refused with a MessageFormatException that names the reason.
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

    /**
     * Deserializes the body through the allow-list and its bounds. Every failure is a
     * {@link MessageFormatException}: a refused class or bound, a corrupt stream, a class
     * missing here, and the errors a hostile graph could still raise (a stack overflow in a
     * class's own readObject, an allocation the bounds let through that the heap cannot hold:
     * the failed allocation is this message's own, so the JVM goes on).
     */
    @Override
    public Serializable getObject() throws JMSException {
        if (serialized == null) {
            return null;
        }
        ObjectMessageFilter filter = new ObjectMessageFilter(allowList, serialized.length);
        try (AllowListObjectInputStream in = new AllowListObjectInputStream(
                new ByteArrayInputStream(serialized), allowList, filter)) {
            return (Serializable) in.readObject();
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            String reason = filter.refusal() != null ? filter.refusal() : String.valueOf(e);
            MessageFormatException jms = new MessageFormatException("cannot deserialize the ObjectMessage body: "
                    + reason);
            if (e instanceof Exception cause) {
                jms.setLinkedException(cause);
            }
            jms.initCause(e);
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
