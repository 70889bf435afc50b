package io.ramjet.protocol.frame;

/**
 * Layout of a frame, the unit of the wire protocol. All integers are big-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |          frame length: bytes after this field (int)           |  0
 *  +---------------+-----------------------------------------------+
 *  |    version    |             request id (int) ...              |  4
 *  +---------------+-------------------------------+---------------+
 *  | ...request id |      command code (short)     |     flags     |  8
 *  +---------------+-------------------------------+---------------+
 *  |                      header length (int)                      | 12
 *  +---------------------------------------------------------------+
 *  |  header: header length bytes, Kryo ...                        | 16
 *  +---------------------------------------------------------------+
 *  |  body: raw bytes up to the end of the frame ...               |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>frame length counts everything after itself: {@link #FIXED_LENGTH} + header length +
 *       body length, and may not exceed the receiver's configured maximum;</li>
 *   <li>version is {@link #VERSION}; any other value closes the connection;</li>
 *   <li>request id correlates a response with its request; one-way frames carry 0;</li>
 *   <li>command code is one of {@code CommandCode}; a response repeats its request's code;</li>
 *   <li>flags: exactly one of {@link #FLAG_REQUEST}, {@link #FLAG_RESPONSE},
 *       {@link #FLAG_ONE_WAY}, plus {@link #FLAG_ERROR} on a failed response, whose header is
 *       then an {@code ErrorHeader}; other bits are invalid;</li>
 *   <li>header length 0 means no header;</li>
 *   <li>the body is opaque to the codec, so it can be written from any buffer, a mapped file
 *       slice included, without copying.</li>
 * </ul>
 */
public final class FrameDescriptor {

    public static final byte VERSION = 1;

    public static final int LENGTH_FIELD_OFFSET = 0;
    public static final int LENGTH_FIELD_LENGTH = 4;

    /** Offsets below are from the start of the frame, length field included. */
    public static final int VERSION_OFFSET = 4;
    public static final int REQUEST_ID_OFFSET = 5;
    public static final int COMMAND_CODE_OFFSET = 9;
    public static final int FLAGS_OFFSET = 11;
    public static final int HEADER_LENGTH_OFFSET = 12;
    public static final int HEADER_OFFSET = 16;

    /** Bytes between the length field and the header: version, request id, code, flags, header length. */
    public static final int FIXED_LENGTH = HEADER_OFFSET - LENGTH_FIELD_LENGTH;

    public static final byte FLAG_REQUEST = 0x01;
    public static final byte FLAG_RESPONSE = 0x02;
    public static final byte FLAG_ONE_WAY = 0x04;
    public static final byte FLAG_ERROR = 0x08;

    private static final int KIND_MASK = FLAG_REQUEST | FLAG_RESPONSE | FLAG_ONE_WAY;

    /** Largest frame a receiver accepts unless configured otherwise: 16 MiB. */
    public static final int DEFAULT_MAX_FRAME_LENGTH = 16 * 1024 * 1024;

    private FrameDescriptor() {
    }

    /** Value of the length field for a frame with these header and body sizes. */
    public static int frameLength(int headerLength, int bodyLength) {
        return FIXED_LENGTH + headerLength + bodyLength;
    }

    /** Offset of the body from the start of the frame, length field included. */
    public static int bodyOffset(int headerLength) {
        return HEADER_OFFSET + headerLength;
    }

    /** Whether flags name exactly one frame kind, carry no unknown bits, and the error bit only on a response. */
    public static boolean isValidFlags(byte flags) {
        int kind = flags & KIND_MASK;
        if ((flags & ~(KIND_MASK | FLAG_ERROR)) != 0) {
            return false;
        }
        if (kind != FLAG_REQUEST && kind != FLAG_RESPONSE && kind != FLAG_ONE_WAY) {
            return false;
        }
        return (flags & FLAG_ERROR) == 0 || kind == FLAG_RESPONSE;
    }
}
