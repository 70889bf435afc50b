package io.ramjet.model;

import java.util.HexFormat;

/**
 * The wire and record form of an XA transaction branch id: {@code formatId:gtrid:bqual} with the
 * two byte arrays in lower-case hex, so two equal Xids always give the same string. Kept free of
 * {@code javax.transaction.xa} so the broker need not depend on it.
 */
public final class XidCodec {

    private static final HexFormat HEX = HexFormat.of();

    private XidCodec() {
    }

    public static String encode(int formatId, byte[] globalTransactionId, byte[] branchQualifier) {
        return formatId + ":" + HEX.formatHex(globalTransactionId) + ":" + HEX.formatHex(branchQualifier);
    }

    /** The format id of an encoded xid. */
    public static int formatId(String xid) {
        return Integer.parseInt(part(xid, 0));
    }

    public static byte[] globalTransactionId(String xid) {
        return HEX.parseHex(part(xid, 1));
    }

    public static byte[] branchQualifier(String xid) {
        return HEX.parseHex(part(xid, 2));
    }

    private static String part(String xid, int index) {
        String[] parts = xid.split(":", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not an encoded xid: " + xid);
        }
        return parts[index];
    }
}
