package io.ramjet.protocol.message;

/** The JMS body type of a message, as one byte in its header section. */
public enum BodyType {
    MESSAGE(0),
    TEXT(1),
    BYTES(2),
    MAP(3),
    STREAM(4),
    OBJECT(5);

    /** values(), which would copy the array on every call. */
    private static final BodyType[] BY_CODE = values();

    private final byte code;

    BodyType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public static BodyType ofCode(int code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new IllegalArgumentException("unknown body type " + code);
        }
        return BY_CODE[code];
    }
}
