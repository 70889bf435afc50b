package io.ramjet.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The property type conversion table of Jakarta Messaging 3.1, section 3.5.4: for a property
 * set as each type, each getter either returns the converted value or throws
 * {@link MessageFormatException}. Strings convert through {@code valueOf}.
 */
class PropertyConversionTest {

    enum Type {
        BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, STRING;

        void set(Message m, String name, Object value) throws JMSException {
            switch (this) {
                case BOOLEAN -> m.setBooleanProperty(name, (Boolean) value);
                case BYTE -> m.setByteProperty(name, (Byte) value);
                case SHORT -> m.setShortProperty(name, (Short) value);
                case INT -> m.setIntProperty(name, (Integer) value);
                case LONG -> m.setLongProperty(name, (Long) value);
                case FLOAT -> m.setFloatProperty(name, (Float) value);
                case DOUBLE -> m.setDoubleProperty(name, (Double) value);
                case STRING -> m.setStringProperty(name, (String) value);
            }
        }

        Object get(Message m, String name) throws JMSException {
            return switch (this) {
                case BOOLEAN -> m.getBooleanProperty(name);
                case BYTE -> m.getByteProperty(name);
                case SHORT -> m.getShortProperty(name);
                case INT -> m.getIntProperty(name);
                case LONG -> m.getLongProperty(name);
                case FLOAT -> m.getFloatProperty(name);
                case DOUBLE -> m.getDoubleProperty(name);
                case STRING -> m.getStringProperty(name);
            };
        }
    }

    /** A property set as {@code setAs} to {@code value}, read back as {@code getAs}. */
    record Row(Type setAs, Object value, Type getAs, Object expected, Class<? extends Exception> refused) {
        @Override
        public String toString() {
            return setAs + " " + value + " as " + getAs + (refused == null ? " = " + expected : " refused");
        }
    }

    private static final Map<Type, Object> SAMPLE = Map.of(
            Type.BOOLEAN, true, Type.BYTE, (byte) 7, Type.SHORT, (short) 300, Type.INT, 70_000,
            Type.LONG, 5_000_000_000L, Type.FLOAT, 1.5f, Type.DOUBLE, 2.25d, Type.STRING, "12");

    /** Which getters each setter type allows (section 3.5.4, the table). */
    private static final Map<Type, List<Type>> ALLOWED = Map.of(
            Type.BOOLEAN, List.of(Type.BOOLEAN, Type.STRING),
            Type.BYTE, List.of(Type.BYTE, Type.SHORT, Type.INT, Type.LONG, Type.STRING),
            Type.SHORT, List.of(Type.SHORT, Type.INT, Type.LONG, Type.STRING),
            Type.INT, List.of(Type.INT, Type.LONG, Type.STRING),
            Type.LONG, List.of(Type.LONG, Type.STRING),
            Type.FLOAT, List.of(Type.FLOAT, Type.DOUBLE, Type.STRING),
            Type.DOUBLE, List.of(Type.DOUBLE, Type.STRING),
            Type.STRING, List.of(Type.values()));

    static List<Row> table() {
        List<Row> rows = new ArrayList<>();
        for (Type set : Type.values()) {
            Object value = SAMPLE.get(set);
            for (Type get : Type.values()) {
                if (set == Type.STRING && get == Type.BOOLEAN) {
                    rows.add(new Row(set, value, get, false, null));
                } else if (set == Type.STRING && get == Type.BYTE) {
                    rows.add(new Row(set, value, get, (byte) 12, null));
                } else if (ALLOWED.get(set).contains(get)) {
                    rows.add(new Row(set, value, get, widen(value, get), null));
                } else {
                    rows.add(new Row(set, value, get, null, MessageFormatException.class));
                }
            }
        }
        rows.add(new Row(Type.STRING, "true", Type.BOOLEAN, true, null));
        rows.add(new Row(Type.STRING, "TRUE", Type.BOOLEAN, true, null));
        rows.add(new Row(Type.STRING, "-3", Type.LONG, -3L, null));
        rows.add(new Row(Type.STRING, "1e3", Type.DOUBLE, 1000d, null));
        rows.add(new Row(Type.STRING, "abc", Type.INT, null, NumberFormatException.class));
        rows.add(new Row(Type.STRING, "abc", Type.LONG, null, NumberFormatException.class));
        rows.add(new Row(Type.STRING, "abc", Type.DOUBLE, null, NumberFormatException.class));
        rows.add(new Row(Type.STRING, "300", Type.BYTE, null, NumberFormatException.class));
        rows.add(new Row(Type.STRING, "1.5", Type.INT, null, NumberFormatException.class));
        return rows;
    }

    private static Object widen(Object value, Type to) {
        if (to == Type.STRING) {
            return String.valueOf(value);
        }
        if (value instanceof String s) {
            return switch (to) {
                case SHORT -> Short.valueOf(s);
                case INT -> Integer.valueOf(s);
                case LONG -> Long.valueOf(s);
                case FLOAT -> Float.valueOf(s);
                case DOUBLE -> Double.valueOf(s);
                default -> throw new IllegalArgumentException(to.name());
            };
        }
        if (value instanceof Boolean) {
            return value;
        }
        Number n = (Number) value;
        return switch (to) {
            case BYTE -> n.byteValue();
            case SHORT -> n.shortValue();
            case INT -> n.intValue();
            case LONG -> n.longValue();
            case FLOAT -> n.floatValue();
            case DOUBLE -> n.doubleValue();
            default -> throw new IllegalArgumentException(to.name());
        };
    }

    @ProviderRows("table")
    void setThenGet(Jms jms, Row row) throws Exception {
        Message m = jms.session().createMessage();
        row.setAs().set(m, "p", row.value());
        if (row.refused() != null) {
            assertThrows(row.refused(), () -> row.getAs().get(m, "p"));
        } else {
            assertEquals(row.expected(), row.getAs().get(m, "p"));
        }
    }

    @ProviderRows("table")
    void setThenGetAfterDelivery(Jms jms, Row row) throws Exception {
        jakarta.jms.Session s = jms.session();
        jakarta.jms.Queue q = jms.queue(s, "conv");
        Message m = s.createMessage();
        row.setAs().set(m, "p", row.value());
        s.createProducer(q).send(m);
        Message got = s.createConsumer(q).receive(Jms.RECEIVE_MS);
        if (row.refused() != null) {
            assertThrows(row.refused(), () -> row.getAs().get(got, "p"));
        } else {
            assertEquals(row.expected(), row.getAs().get(got, "p"));
        }
    }
}
