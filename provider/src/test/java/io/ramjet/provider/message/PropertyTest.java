package io.ramjet.provider.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PropertyTest {

    private final RamjetMessage m = new RamjetMessage();

    @ParameterizedTest
    @ValueSource(strings = {"abc", "1.5", "", "true", "0x10", " 1"})
    void badStringsAreNumberFormatExceptions(String value) throws Exception {
        m.setStringProperty("p", value);
        assertThrows(NumberFormatException.class, () -> m.getByteProperty("p"));
        assertThrows(NumberFormatException.class, () -> m.getShortProperty("p"));
        assertThrows(NumberFormatException.class, () -> m.getIntProperty("p"));
        assertThrows(NumberFormatException.class, () -> m.getLongProperty("p"));
    }

    @Test
    void outOfRangeStringsAreNumberFormatExceptions() throws Exception {
        m.setStringProperty("p", "300");
        assertThrows(NumberFormatException.class, () -> m.getByteProperty("p"));
        assertEquals(300, m.getIntProperty("p"));
        m.setStringProperty("d", "x1.5");
        assertThrows(NumberFormatException.class, () -> m.getDoubleProperty("d"));
        assertThrows(NumberFormatException.class, () -> m.getFloatProperty("d"));
    }

    @Test
    void missingPropertiesReadAsValueOfNull() throws Exception {
        assertFalse(m.getBooleanProperty("x"));
        assertNull(m.getStringProperty("x"));
        assertNull(m.getObjectProperty("x"));
        assertThrows(NumberFormatException.class, () -> m.getByteProperty("x"));
        assertThrows(NumberFormatException.class, () -> m.getShortProperty("x"));
        assertThrows(NumberFormatException.class, () -> m.getIntProperty("x"));
        assertThrows(NumberFormatException.class, () -> m.getLongProperty("x"));
        assertThrows(NullPointerException.class, () -> m.getFloatProperty("x"));
        assertThrows(NullPointerException.class, () -> m.getDoubleProperty("x"));
        assertFalse(m.propertyExists("x"));
    }

    @Test
    void aNullStringPropertyExistsAndReadsAsNull() throws Exception {
        m.setStringProperty("s", null);
        assertTrue(m.propertyExists("s"));
        assertNull(m.getStringProperty("s"));
    }

    @Test
    void setObjectPropertyTakesOnlyPrimitiveWrappersAndString() throws Exception {
        m.setObjectProperty("i", 1);
        m.setObjectProperty("s", "x");
        assertThrows(MessageFormatException.class, () -> m.setObjectProperty("c", 'c'));
        assertThrows(MessageFormatException.class, () -> m.setObjectProperty("b", new byte[0]));
        assertThrows(MessageFormatException.class, () -> m.setObjectProperty("l", List.of()));
        assertEquals(Integer.valueOf(1), m.getObjectProperty("i"));
    }

    @Test
    void getObjectPropertyReturnsTheWrapperOfTheSetter() throws Exception {
        m.setByteProperty("b", (byte) 1);
        m.setShortProperty("s", (short) 1);
        m.setLongProperty("l", 1);
        m.setFloatProperty("f", 1);
        m.setDoubleProperty("d", 1);
        m.setBooleanProperty("z", true);
        assertEquals(Byte.class, m.getObjectProperty("b").getClass());
        assertEquals(Short.class, m.getObjectProperty("s").getClass());
        assertEquals(Long.class, m.getObjectProperty("l").getClass());
        assertEquals(Float.class, m.getObjectProperty("f").getClass());
        assertEquals(Double.class, m.getObjectProperty("d").getClass());
        assertEquals(Boolean.class, m.getObjectProperty("z").getClass());
    }

    @ParameterizedTest
    @ValueSource(strings = {"NULL", "true", "False", "not", "AND", "or", "Between", "LIKE", "in", "IS", "escape",
            "1abc", "a-b", "a b", "a.b", "JMSFoo", "JMSXFoo", "JMSType", "JMSMessageID", "#"})
    void refusesNamesThatAreNotPropertyIdentifiers(String name) {
        assertThrows(IllegalArgumentException.class, () -> m.setIntProperty(name, 1));
    }

    @Test
    void refusesNullAndEmptyNames() {
        assertThrows(IllegalArgumentException.class, () -> m.setStringProperty(null, "x"));
        assertThrows(IllegalArgumentException.class, () -> m.setStringProperty("", "x"));
        assertThrows(IllegalArgumentException.class, () -> m.getStringProperty(null));
        assertThrows(IllegalArgumentException.class, () -> m.getIntProperty(""));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "_a", "$a", "a1", "ünïcode", "nullable", "JMS_vendor_x", "Inside"})
    void acceptsJavaIdentifiers(String name) throws Exception {
        m.setIntProperty(name, 1);
        assertEquals(1, m.getIntProperty(name));
    }

    @Test
    void definedJmsxPropertiesTakeTheirTypes() throws Exception {
        m.setStringProperty("JMSXGroupID", "g");
        m.setIntProperty("JMSXGroupSeq", 3);
        assertEquals("g", m.getStringProperty("JMSXGroupID"));
        assertEquals(3, m.getIntProperty("JMSXGroupSeq"));
        assertThrows(MessageFormatException.class, () -> m.setStringProperty("JMSXGroupSeq", "3"));
        assertThrows(MessageFormatException.class, () -> m.setIntProperty("JMSXGroupID", 3));
    }

    @Test
    void deliveryCountIsSetByTheProviderEvenWhenReadOnly() throws Exception {
        m.setReadOnly();
        m.setDeliveryCount(2);
        assertEquals(2, m.getIntProperty("JMSXDeliveryCount"));
        assertTrue(m.propertyExists("JMSXDeliveryCount"));
    }

    @Test
    void namesListEveryPropertyInOrder() throws Exception {
        m.setIntProperty("b", 1);
        m.setIntProperty("a", 1);
        assertEquals(List.of("b", "a"), Collections.list(m.getPropertyNames()));
    }

    @Test
    void receivedPropertiesAreReadOnlyUntilCleared() throws Exception {
        m.setIntProperty("a", 1);
        m.setReadOnly();
        assertThrows(MessageNotWriteableException.class, () -> m.setIntProperty("b", 2));
        assertThrows(MessageNotWriteableException.class, () -> m.setObjectProperty("b", 2));
        assertEquals(1, m.getIntProperty("a"));
        m.clearProperties();
        assertFalse(m.propertyExists("a"));
        m.setIntProperty("b", 2);
        assertEquals(2, m.getIntProperty("b"));
    }

    @Test
    void clearPropertiesLeavesTheBody() throws Exception {
        RamjetTextMessage t = new RamjetTextMessage("body");
        t.setIntProperty("a", 1);
        t.clearProperties();
        assertEquals("body", t.getText());
        assertFalse(t.getPropertyNames().hasMoreElements());
    }
}
