package io.ramjet.protocol.selector;

import java.util.HashMap;
import java.util.Map;

/** A message as a selector sees it, from key-value pairs; headers default as a sent message's. */
final class MapSource implements PropertySource {

    private final Map<String, Object> values = new HashMap<>();

    MapSource(Object... keyValues) {
        values.put("JMSDeliveryMode", "PERSISTENT");
        values.put("JMSPriority", 4);
        values.put("JMSMessageID", "ID:1");
        values.put("JMSTimestamp", 1_700_000_000_000L);
        for (int i = 0; i < keyValues.length; i += 2) {
            values.put((String) keyValues[i], keyValues[i + 1]);
        }
    }

    Map<String, Object> properties() {
        Map<String, Object> p = new HashMap<>(values);
        p.keySet().removeIf(k -> k.startsWith("JMS"));
        return p;
    }

    @Override
    public Object get(String identifier) {
        return values.get(identifier);
    }

    @Override
    public String toString() {
        return properties().toString();
    }
}
