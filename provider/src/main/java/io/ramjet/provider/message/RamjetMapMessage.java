package io.ramjet.provider.message;

import io.ramjet.protocol.message.BodyType;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageFormatException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Named values of the map and stream conversion table; byte arrays are copied in and out. */
public class RamjetMapMessage extends RamjetMessage implements MapMessage {

    private final Map<String, Object> map = new LinkedHashMap<>();

    @Override
    public BodyType bodyType() {
        return BodyType.MAP;
    }

    /** The live entries, for the encoder. */
    Map<String, Object> entries() {
        return map;
    }

    private Object value(String name) {
        checkName(name);
        return map.get(name);
    }

    private static void checkName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a map entry name must not be null or empty");
        }
    }

    private void put(String name, Object value) throws JMSException {
        checkName(name);
        checkWritable();
        map.put(name, value);
    }

    @Override public boolean getBoolean(String name) throws JMSException { return ValueConversions.toBoolean(value(name)); }
    @Override public byte getByte(String name) throws JMSException { return ValueConversions.toByte(value(name)); }
    @Override public short getShort(String name) throws JMSException { return ValueConversions.toShort(value(name)); }
    @Override public char getChar(String name) throws JMSException { return ValueConversions.toChar(value(name)); }
    @Override public int getInt(String name) throws JMSException { return ValueConversions.toInt(value(name)); }
    @Override public long getLong(String name) throws JMSException { return ValueConversions.toLong(value(name)); }
    @Override public float getFloat(String name) throws JMSException { return ValueConversions.toFloat(value(name)); }
    @Override public double getDouble(String name) throws JMSException { return ValueConversions.toDouble(value(name)); }
    @Override public String getString(String name) throws JMSException { return ValueConversions.toString(value(name)); }
    @Override public byte[] getBytes(String name) throws JMSException { return ValueConversions.toBytes(value(name)); }

    @Override
    public Object getObject(String name) {
        Object v = value(name);
        return v instanceof byte[] b ? b.clone() : v;
    }

    @Override
    public Enumeration<String> getMapNames() {
        return Collections.enumeration(new java.util.ArrayList<>(map.keySet()));
    }

    @Override
    public boolean itemExists(String name) {
        return map.containsKey(name);
    }

    @Override public void setBoolean(String name, boolean value) throws JMSException { put(name, value); }
    @Override public void setByte(String name, byte value) throws JMSException { put(name, value); }
    @Override public void setShort(String name, short value) throws JMSException { put(name, value); }
    @Override public void setChar(String name, char value) throws JMSException { put(name, value); }
    @Override public void setInt(String name, int value) throws JMSException { put(name, value); }
    @Override public void setLong(String name, long value) throws JMSException { put(name, value); }
    @Override public void setFloat(String name, float value) throws JMSException { put(name, value); }
    @Override public void setDouble(String name, double value) throws JMSException { put(name, value); }
    @Override public void setString(String name, String value) throws JMSException { put(name, value); }

    @Override
    public void setBytes(String name, byte[] value) throws JMSException {
        put(name, value == null ? null : value.clone());
    }

    @Override
    public void setBytes(String name, byte[] value, int offset, int length) throws JMSException {
        put(name, java.util.Arrays.copyOfRange(value, offset, offset + length));
    }

    @Override
    public void setObject(String name, Object value) throws JMSException {
        if (value instanceof byte[] b) {
            setBytes(name, b);
        } else if (StreamValues.isValue(value)) {
            put(name, value);
        } else {
            throw new MessageFormatException("a map entry cannot hold a " + value.getClass().getName()
                    + ": only primitive wrappers, String and byte[]");
        }
    }

    @Override
    public void clearBody() throws JMSException {
        super.clearBody();
        map.clear();
    }

    @Override
    Object bodyValue() {
        if (map.isEmpty()) {
            return null;
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(k, v instanceof byte[] b ? b.clone() : v));
        return copy;
    }
}
