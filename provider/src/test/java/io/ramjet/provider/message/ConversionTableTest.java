package io.ramjet.provider.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every cell of the conversion tables: properties (Jakarta Messaging 3.1, 3.5.4) over
 * Message, values over MapMessage and StreamMessage (3.11.3). A cell either reads the written
 * value converted, or is refused with MessageFormatException.
 */
class ConversionTableTest {

    enum Type { BOOLEAN, BYTE, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE, STRING, BYTES }

    /** Written values; the String row holds "12", which every numeric type reads. */
    static Object sample(Type t) {
        return switch (t) {
            case BOOLEAN -> true;
            case BYTE -> (byte) 12;
            case SHORT -> (short) 12;
            case CHAR -> 'c';
            case INT -> 12;
            case LONG -> 12L;
            case FLOAT -> 12.5f;
            case DOUBLE -> 12.5d;
            case STRING -> "12";
            case BYTES -> new byte[] {1, 2};
        };
    }

    /** The spec's table: for each written type, the types it may be read as. */
    static boolean allowed(Type from, Type to) {
        if (from == to) {
            return true;
        }
        return switch (from) {
            case BOOLEAN, CHAR -> to == Type.STRING;
            case BYTE -> to == Type.SHORT || to == Type.INT || to == Type.LONG || to == Type.STRING;
            case SHORT -> to == Type.INT || to == Type.LONG || to == Type.STRING;
            case INT -> to == Type.LONG || to == Type.STRING;
            case LONG, DOUBLE -> to == Type.STRING;
            case FLOAT -> to == Type.DOUBLE || to == Type.STRING;
            case STRING -> to != Type.CHAR && to != Type.BYTES;
            case BYTES -> false;
        };
    }

    static Object expected(Object written, Type to) {
        if (written instanceof String s) {
            return switch (to) {
                case BOOLEAN -> Boolean.valueOf(s);
                case BYTE -> Byte.valueOf(s);
                case SHORT -> Short.valueOf(s);
                case INT -> Integer.valueOf(s);
                case LONG -> Long.valueOf(s);
                case FLOAT -> Float.valueOf(s);
                case DOUBLE -> Double.valueOf(s);
                default -> s;
            };
        }
        if (to == Type.STRING) {
            return written.toString();
        }
        if (written instanceof Number n) {
            return switch (to) {
                case SHORT -> n.shortValue();
                case INT -> n.intValue();
                case LONG -> n.longValue();
                case DOUBLE -> n.doubleValue();
                default -> written;
            };
        }
        return written;
    }

    record Cell(Type from, Type to) {
    }

    static List<Cell> propertyCells() {
        List<Cell> cells = new ArrayList<>();
        for (Type from : Type.values()) {
            for (Type to : Type.values()) {
                if (from != Type.CHAR && from != Type.BYTES && to != Type.CHAR && to != Type.BYTES) {
                    cells.add(new Cell(from, to));
                }
            }
        }
        return cells;
    }

    static List<Cell> bodyCells() {
        List<Cell> cells = new ArrayList<>();
        for (Type from : Type.values()) {
            for (Type to : Type.values()) {
                cells.add(new Cell(from, to));
            }
        }
        return cells;
    }

    static Object getProperty(RamjetMessage m, Type to) throws JMSException {
        return switch (to) {
            case BOOLEAN -> m.getBooleanProperty("p");
            case BYTE -> m.getByteProperty("p");
            case SHORT -> m.getShortProperty("p");
            case INT -> m.getIntProperty("p");
            case LONG -> m.getLongProperty("p");
            case FLOAT -> m.getFloatProperty("p");
            case DOUBLE -> m.getDoubleProperty("p");
            case STRING -> m.getStringProperty("p");
            default -> throw new IllegalArgumentException();
        };
    }

    static Object getMap(RamjetMapMessage m, Type to) throws JMSException {
        return switch (to) {
            case BOOLEAN -> m.getBoolean("p");
            case BYTE -> m.getByte("p");
            case SHORT -> m.getShort("p");
            case CHAR -> m.getChar("p");
            case INT -> m.getInt("p");
            case LONG -> m.getLong("p");
            case FLOAT -> m.getFloat("p");
            case DOUBLE -> m.getDouble("p");
            case STRING -> m.getString("p");
            case BYTES -> m.getBytes("p");
        };
    }

    static Object readStream(RamjetStreamMessage m, Type to) throws JMSException {
        return switch (to) {
            case BOOLEAN -> m.readBoolean();
            case BYTE -> m.readByte();
            case SHORT -> m.readShort();
            case CHAR -> m.readChar();
            case INT -> m.readInt();
            case LONG -> m.readLong();
            case FLOAT -> m.readFloat();
            case DOUBLE -> m.readDouble();
            case STRING -> m.readString();
            case BYTES -> {
                byte[] buffer = new byte[16];
                int n = m.readBytes(buffer);
                yield java.util.Arrays.copyOf(buffer, n);
            }
        };
    }

    private static void check(Cell cell, Object written, Getter getter) throws Exception {
        if (allowed(cell.from(), cell.to())) {
            Object got = getter.get();
            Object expected = expected(written, cell.to());
            if (expected instanceof byte[] b) {
                assertArrayEquals(b, (byte[]) got);
            } else {
                assertEquals(expected, got);
            }
        } else {
            assertThrows(MessageFormatException.class, getter::get);
        }
    }

    interface Getter {
        Object get() throws Exception;
    }

    @ParameterizedTest(name = "property {0}")
    @MethodSource("propertyCells")
    void propertyTable(Cell cell) throws Exception {
        RamjetMessage m = new RamjetMessage();
        Object written = sample(cell.from());
        m.setObjectProperty("p", written);
        check(cell, written, () -> getProperty(m, cell.to()));
    }

    @ParameterizedTest(name = "map {0}")
    @MethodSource("bodyCells")
    void mapTable(Cell cell) throws Exception {
        RamjetMapMessage m = new RamjetMapMessage();
        Object written = sample(cell.from());
        m.setObject("p", written);
        check(cell, written, () -> getMap(m, cell.to()));
    }

    @ParameterizedTest(name = "stream {0}")
    @MethodSource("bodyCells")
    void streamTable(Cell cell) throws Exception {
        RamjetStreamMessage m = new RamjetStreamMessage();
        Object written = sample(cell.from());
        m.writeObject(written);
        m.reset();
        check(cell, written, () -> readStream(m, cell.to()));
    }
}
