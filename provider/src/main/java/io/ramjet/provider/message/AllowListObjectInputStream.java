package io.ramjet.provider.message;

import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * Resolves only classes of the allow-list, and no proxies, before any of them is loaded; reads
 * through an {@link ObjectMessageFilter} of the same list, which bounds the graph.
 */
final class AllowListObjectInputStream extends ObjectInputStream {

    private final SerializationAllowList allowList;

    AllowListObjectInputStream(InputStream in, SerializationAllowList allowList, ObjectMessageFilter filter)
            throws IOException {
        super(in);
        this.allowList = allowList;
        setObjectInputFilter(filter);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
        if (!allowList.allows(desc.getName())) {
            throw new InvalidClassException(desc.getName(), "not in the ObjectMessage allow-list "
                    + allowList.packages() + " (" + SerializationAllowList.PROPERTY + ")");
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader != null) {
            try {
                return Class.forName(desc.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }
        return super.resolveClass(desc);
    }

    @Override
    protected Class<?> resolveProxyClass(String[] interfaces) throws InvalidClassException {
        throw new InvalidClassException("proxy of " + String.join(", ", interfaces),
                "an ObjectMessage may not hold a proxy");
    }
}
