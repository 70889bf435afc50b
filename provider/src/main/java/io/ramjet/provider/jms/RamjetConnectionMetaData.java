package io.ramjet.provider.jms;

import io.ramjet.protocol.RamjetVersion;
import jakarta.jms.ConnectionMetaData;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/** What a Ramjet connection reports about itself. */
final class RamjetConnectionMetaData implements ConnectionMetaData {

    static final RamjetConnectionMetaData INSTANCE = new RamjetConnectionMetaData();

    private static final List<String> JMSX_PROPERTIES = List.of("JMSXDeliveryCount", "JMSXGroupID", "JMSXGroupSeq");

    @Override public String getJMSVersion() { return "3.1"; }
    @Override public int getJMSMajorVersion() { return 3; }
    @Override public int getJMSMinorVersion() { return 1; }
    @Override public String getJMSProviderName() { return "Ramjet"; }
    @Override public String getProviderVersion() { return RamjetVersion.VERSION; }
    @Override public int getProviderMajorVersion() { return RamjetVersion.major(); }
    @Override public int getProviderMinorVersion() { return RamjetVersion.minor(); }

    @Override
    public Enumeration<String> getJMSXPropertyNames() {
        return Collections.enumeration(JMSX_PROPERTIES);
    }
}
