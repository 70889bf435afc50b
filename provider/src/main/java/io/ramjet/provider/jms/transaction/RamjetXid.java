package io.ramjet.provider.jms.transaction;

import io.ramjet.model.XidCodec;
import java.util.Arrays;
import javax.transaction.xa.Xid;

/** An Xid as a broker returns it from recovery, equal to any Xid with the same three parts. */
public final class RamjetXid implements Xid {

    private final int formatId;
    private final byte[] globalTransactionId;
    private final byte[] branchQualifier;

    public RamjetXid(int formatId, byte[] globalTransactionId, byte[] branchQualifier) {
        this.formatId = formatId;
        this.globalTransactionId = globalTransactionId.clone();
        this.branchQualifier = branchQualifier.clone();
    }

    /** Decodes the {@link XidCodec} form. */
    public static RamjetXid decode(String xid) {
        return new RamjetXid(XidCodec.formatId(xid), XidCodec.globalTransactionId(xid), XidCodec.branchQualifier(xid));
    }

    /** The {@link XidCodec} form of any Xid. */
    public static String encode(Xid xid) {
        return XidCodec.encode(xid.getFormatId(), xid.getGlobalTransactionId(), xid.getBranchQualifier());
    }

    @Override
    public int getFormatId() {
        return formatId;
    }

    @Override
    public byte[] getGlobalTransactionId() {
        return globalTransactionId.clone();
    }

    @Override
    public byte[] getBranchQualifier() {
        return branchQualifier.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Xid x && x.getFormatId() == formatId
                && Arrays.equals(x.getGlobalTransactionId(), globalTransactionId)
                && Arrays.equals(x.getBranchQualifier(), branchQualifier);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * formatId + Arrays.hashCode(globalTransactionId)) + Arrays.hashCode(branchQualifier);
    }

    @Override
    public String toString() {
        return XidCodec.encode(formatId, globalTransactionId, branchQualifier);
    }
}
