package io.ramjet.provider.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ObjectMessageTest {

    record Order(String id, int qty) implements Serializable {
    }

    private static final SerializationAllowList THIS_PACKAGE = SerializationAllowList.of("java.lang, io.ramjet.provider");

    @Test
    void serializesOnSetSoLaterChangesAreNotSeen() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        ArrayList<String> list = new ArrayList<>(List.of("a"));
        m.setObject(list);
        list.add("b");
        assertEquals(List.of("a"), m.getObject());
    }

    @Test
    void refusesAClassOutsideTheAllowListNamingIt() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        m.setObject(new Order("o1", 2));
        JMSException e = assertThrows(JMSException.class, m::getObject);
        assertFalse(e instanceof MessageFormatException);
        assertTrue(e.getMessage().contains(Order.class.getName()), e.getMessage());
        assertThrows(JMSException.class, () -> m.getBody(Object.class));
    }

    @Test
    void refusesADisallowedClassNestedInAnAllowedOne() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        m.setObject(new ArrayList<>(List.of(new Order("o1", 2))));
        JMSException e = assertThrows(JMSException.class, m::getObject);
        assertTrue(e.getMessage().contains(Order.class.getName()), e.getMessage());
    }

    @Test
    void allowsConfiguredPackagesAndTheirSubpackages() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(THIS_PACKAGE);
        m.setObject(new Order("o1", 2));
        assertEquals(new Order("o1", 2), m.getObject());
        assertEquals(new Order("o1", 2), m.getBody(Order.class));
        assertTrue(m.isBodyAssignableTo(Order.class));
        assertFalse(m.isBodyAssignableTo(String.class));
        assertThrows(MessageFormatException.class, () -> m.getBody(String.class));
    }

    @Test
    void allowListRules() {
        SerializationAllowList list = SerializationAllowList.of("com.acme");
        assertTrue(list.allows("com.acme.Order"));
        assertTrue(list.allows("com.acme.order.Line"));
        assertFalse(list.allows("com.acmeevil.Order"));
        assertFalse(list.allows("Order"));
        assertTrue(list.allows("[Lcom.acme.Order;"));
        assertFalse(list.allows("[[Ljava.lang.String;"));
        assertTrue(list.allows("[I"));
        assertTrue(SerializationAllowList.of("*").allows("org.evil.Gadget"));
        assertFalse(SerializationAllowList.of("").allows("java.lang.String"));
    }

    @Test
    void nullObjectAndClearBody() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        assertNull(m.getObject());
        m.setObject("x");
        m.setReadOnly();
        assertThrows(MessageNotWriteableException.class, () -> m.setObject("y"));
        m.clearBody();
        assertNull(m.getObject());
        m.setObject(null);
        assertNull(m.getBody(String.class));
    }

    @Test
    void refusesAnUnserializableObject() {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        List<Object> holder = new ArrayList<>();
        holder.add(new Object());
        assertThrows(MessageFormatException.class, () -> m.setObject((Serializable) holder));
    }

    @Test
    void survivesTheCodec() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(THIS_PACKAGE);
        m.setObject(new Order("o1", 2));
        EncodedMessage e = MessageCodec.encode(m);
        RamjetObjectMessage got = (RamjetObjectMessage) MessageCodec.decode(e.properties(), e.body(), THIS_PACKAGE);
        assertInstanceOf(Order.class, got.getObject());
        RamjetObjectMessage refused = (RamjetObjectMessage) MessageCodec.decode(e.properties(), e.body(),
                SerializationAllowList.DEFAULT);
        assertThrows(JMSException.class, refused::getObject);
    }
}
