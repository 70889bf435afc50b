package io.ramjet.provider.jndi;

import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.destination.RamjetQueue;
import io.ramjet.provider.destination.RamjetTopic;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.jms.RamjetXAConnectionFactory;
import java.util.Hashtable;
import javax.naming.Context;
import javax.naming.Name;
import javax.naming.RefAddr;
import javax.naming.Reference;
import javax.naming.spi.ObjectFactory;

/**
 * Rebuilds Ramjet objects from the {@link Reference}s an application server's JNDI tree keeps:
 * a connection factory (plain or XA) from its {@value #URL} (and optional {@value #CLIENT_ID} and
 * ObjectMessage settings, named as the factory's URL options),
 * a queue or topic from its {@value #NAME}.
 */
public final class RamjetObjectFactory implements ObjectFactory {

    public static final String URL = RamjetConnectionFactory.REFERENCE_URL;
    public static final String CLIENT_ID = RamjetConnectionFactory.CLIENT_ID;
    public static final String NAME = RamjetDestination.NAME_ADDRESS;

    @Override
    public Object getObjectInstance(Object obj, Name name, Context nameCtx, Hashtable<?, ?> environment) {
        if (!(obj instanceof Reference reference)) {
            return null;
        }
        String className = reference.getClassName();
        boolean xa = className.equals(RamjetXAConnectionFactory.class.getName());
        if (xa || className.equals(RamjetConnectionFactory.class.getName())) {
            String url = address(reference, URL);
            RamjetConnectionFactory factory = xa ? new RamjetXAConnectionFactory(url) : new RamjetConnectionFactory(url);
            String clientId = address(reference, CLIENT_ID);
            if (clientId != null) {
                factory.setClientId(clientId);
            }
            String packages = address(reference, RamjetConnectionFactory.SERIALIZABLE_PACKAGES);
            if (packages != null) {
                factory.setSerializablePackages(packages);
            }
            String depth = address(reference, RamjetConnectionFactory.OBJECT_MAX_DEPTH);
            String arrayLength = address(reference, RamjetConnectionFactory.OBJECT_MAX_ARRAY_LENGTH);
            String references = address(reference, RamjetConnectionFactory.OBJECT_MAX_REFERENCES);
            String bytes = address(reference, RamjetConnectionFactory.OBJECT_MAX_BYTES);
            if (depth != null && arrayLength != null && references != null && bytes != null) {
                factory.setObjectMaxDepth(Integer.parseInt(depth));
                factory.setObjectMaxArrayLength(Integer.parseInt(arrayLength));
                factory.setObjectMaxReferences(Long.parseLong(references));
                factory.setObjectMaxBytes(Long.parseLong(bytes));
            }
            return factory;
        }
        if (className.equals(RamjetQueue.class.getName())) {
            return new RamjetQueue(address(reference, NAME));
        }
        if (className.equals(RamjetTopic.class.getName())) {
            return new RamjetTopic(address(reference, NAME));
        }
        return null;
    }

    private static String address(Reference reference, String type) {
        RefAddr address = reference.get(type);
        return address == null ? null : (String) address.getContent();
    }
}
