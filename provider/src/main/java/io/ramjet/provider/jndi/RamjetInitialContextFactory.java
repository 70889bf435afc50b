package io.ramjet.provider.jndi;

import io.ramjet.provider.destination.RamjetQueue;
import io.ramjet.provider.destination.RamjetTopic;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.Map;
import javax.naming.Context;
import javax.naming.NamingException;
import javax.naming.spi.InitialContextFactory;

/**
 * A read-only JNDI context built from {@code jndi.properties}-style entries:
 * <pre>
 * java.naming.factory.initial = io.ramjet.provider.jndi.RamjetInitialContextFactory
 * java.naming.provider.url    = ramjet://host:9876      (default URL of the factories)
 * connectionFactory.NAME      = ramjet://host:9876      (or empty for the provider URL)
 * connectionFactory.XA_NAME   = ramjet://host:9876?type=XA_CF
 * queue.JNDI_NAME             = physicalQueueName
 * topic.JNDI_NAME             = physicalTopicName
 * </pre>
 * With no {@code connectionFactory.} entry, a factory named {@value #DEFAULT_FACTORY_NAME} is bound
 * to the provider URL. A factory's {@code type} option (Artemis's names) is described by
 * {@link ConnectionFactoryEntry}; {@code dynamicQueues/NAME} and {@code dynamicTopics/NAME} name
 * destinations without entries.
 */
public final class RamjetInitialContextFactory implements InitialContextFactory {

    public static final String CONNECTION_FACTORY_PREFIX = "connectionFactory.";
    public static final String QUEUE_PREFIX = "queue.";
    public static final String TOPIC_PREFIX = "topic.";
    public static final String DEFAULT_FACTORY_NAME = "ConnectionFactory";

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) throws NamingException {
        Hashtable<Object, Object> env = new Hashtable<>(environment == null ? Map.of() : environment);
        Object providerUrl = env.get(Context.PROVIDER_URL);
        Map<String, Object> bindings = new HashMap<>();
        for (Map.Entry<Object, Object> e : env.entrySet()) {
            String key = String.valueOf(e.getKey());
            String value = String.valueOf(e.getValue()).trim();
            if (key.startsWith(CONNECTION_FACTORY_PREFIX)) {
                String url = value.isEmpty() && providerUrl != null ? providerUrl.toString() : value;
                bindings.put(key.substring(CONNECTION_FACTORY_PREFIX.length()), ConnectionFactoryEntry.create(key, url));
            } else if (key.startsWith(QUEUE_PREFIX)) {
                bindings.put(key.substring(QUEUE_PREFIX.length()), new RamjetQueue(value));
            } else if (key.startsWith(TOPIC_PREFIX)) {
                bindings.put(key.substring(TOPIC_PREFIX.length()), new RamjetTopic(value));
            }
        }
        boolean anyFactory = env.keySet().stream().anyMatch(k -> String.valueOf(k).startsWith(CONNECTION_FACTORY_PREFIX));
        if (!anyFactory && providerUrl != null) {
            bindings.put(DEFAULT_FACTORY_NAME, ConnectionFactoryEntry.create(Context.PROVIDER_URL, providerUrl.toString()));
        }
        return new ReadOnlyContext(env, bindings);
    }
}
