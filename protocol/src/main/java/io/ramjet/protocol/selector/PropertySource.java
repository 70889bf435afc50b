package io.ramjet.protocol.selector;

/**
 * What a selector reads from a message: the value of an identifier, or null when it has none.
 * Identifiers are property names and the headers a selector may name: JMSDeliveryMode (the
 * String "PERSISTENT" or "NON_PERSISTENT"), JMSPriority (Integer), JMSMessageID, JMSTimestamp
 * (Long), JMSCorrelationID and JMSType (String or null). Values are Boolean, Byte, Short,
 * Integer, Long, Float, Double or String (or a reusable Number of this package's own). Implemented
 * by the client's messages and by {@link HeaderSectionView}, so a broker can evaluate the same
 * compiled selector.
 */
@FunctionalInterface
public interface PropertySource {
    Object get(String identifier);
}
