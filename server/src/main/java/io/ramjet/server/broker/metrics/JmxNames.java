package io.ramjet.server.broker.metrics;

import com.codahale.metrics.jmx.ObjectNameFactory;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.core.instrument.util.HierarchicalNameMapper;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.util.Set;

/**
 * The MBean names of the meters in the shape Artemis and Kafka use,
 * {@code domain:type=...,name=...,tag=value...}: a meter {@code ramjet.destination.ready} tagged
 * {@code broker=broker-a,destination=orders,kind=QUEUE} is
 * {@code ramjet:type=destination,name=ready,broker=broker-a,destination=orders,kind=QUEUE}. The
 * type is the meter name's middle ({@code broker} for a top-level one such as
 * {@code ramjet.send}); other meters ({@code jvm.memory.used}) keep their whole prefix as type.
 * A tag value that JMX would misread is quoted; a tag named {@code type} or {@code name} becomes
 * {@code _type}, {@code _name}.
 */
final class JmxNames implements HierarchicalNameMapper, ObjectNameFactory {

    private static final String OWN_PREFIX = "ramjet.";
    private static final Set<String> RESERVED = Set.of("type", "name");

    /** The key properties of the meter's MBean name, without the domain. */
    @Override
    public String toHierarchicalName(Meter.Id id, NamingConvention convention) {
        String meter = id.getName().startsWith(OWN_PREFIX) ? id.getName().substring(OWN_PREFIX.length())
                : id.getName();
        int last = meter.lastIndexOf('.');
        StringBuilder name = new StringBuilder("type=").append(last < 0 ? "broker" : meter.substring(0, last))
                .append(",name=").append(meter.substring(last + 1));
        for (Tag tag : id.getTagsAsIterable()) {
            String key = RESERVED.contains(tag.getKey()) ? "_" + tag.getKey() : tag.getKey();
            name.append(',').append(key).append('=').append(value(tag.getValue()));
        }
        return name.toString();
    }

    /** The name {@link #toHierarchicalName} made, in {@code domain}; the Dropwizard meter type is left out. */
    @Override
    public ObjectName createName(String type, String domain, String name) {
        try {
            return new ObjectName(domain + ":" + name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not an MBean name: " + domain + ":" + name, e);
        }
    }

    private static String value(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (",=:\"*?\n".indexOf(value.charAt(i)) >= 0) {
                return ObjectName.quote(value);
            }
        }
        return value.isEmpty() ? ObjectName.quote(value) : value;
    }
}
