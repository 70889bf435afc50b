package io.ramjet.provider.message;

import jakarta.jms.MessageFormatException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which names a message property may have (Jakarta Messaging 3.1, 3.5.1): a Java identifier
 * that is not a selector keyword; of the names beginning with JMS only the defined JMSX
 * properties, with their types, and {@code JMS_} vendor properties. A null or empty name is an
 * IllegalArgumentException, as the API says; any other bad name is too.
 */
public final class PropertyNames {

    static final String DELIVERY_COUNT = "JMSXDeliveryCount";
    static final String GROUP_ID = "JMSXGroupID";
    static final String GROUP_SEQ = "JMSXGroupSeq";
    /**
     * Set on a BytesMessage to send, an InputStream the body is read from as the message is sent
     * (as a large message, in chunks); never a property that travels.
     */
    public static final String INPUT_STREAM = "JMS_Ramjet_InputStream";
    /**
     * Set on a received BytesMessage, an OutputStream the whole body is written to before the
     * call returns; never a property that travels.
     */
    public static final String SAVE_STREAM = "JMS_Ramjet_SaveStream";

    private static final Set<String> KEYWORDS = Set.of("NULL", "TRUE", "FALSE", "NOT", "AND", "OR",
            "BETWEEN", "LIKE", "IN", "IS", "ESCAPE");

    private static final Map<String, Class<?>> JMSX = Map.of(
            "JMSXUserID", String.class, "JMSXAppID", String.class, DELIVERY_COUNT, Integer.class,
            GROUP_ID, String.class, GROUP_SEQ, Integer.class, "JMSXProducerTXID", String.class,
            "JMSXConsumerTXID", String.class, "JMSXRcvTimestamp", Long.class, "JMSXState", Integer.class);

    private PropertyNames() {
    }

    static void validate(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a property name must not be null or empty");
        }
        if (!Character.isJavaIdentifierStart(name.charAt(0))) {
            throw new IllegalArgumentException("property name " + name + " is not a Java identifier");
        }
        for (int i = 1; i < name.length(); i++) {
            if (!Character.isJavaIdentifierPart(name.charAt(i))) {
                throw new IllegalArgumentException("property name " + name + " is not a Java identifier");
            }
        }
        if (KEYWORDS.contains(name.toUpperCase(Locale.ROOT))) {
            throw new IllegalArgumentException("property name " + name + " is a selector keyword");
        }
        if (name.startsWith("JMS") && !name.startsWith("JMS_") && !JMSX.containsKey(name)) {
            throw new IllegalArgumentException("property name " + name + " is reserved: only the defined"
                    + " JMSX properties and JMS_ vendor properties begin with JMS");
        }
    }

    /** A JMSX property takes only its defined type. */
    static void checkType(String name, Object value) throws MessageFormatException {
        Class<?> type = JMSX.get(name);
        if (type != null && value != null && !type.isInstance(value)) {
            throw new MessageFormatException(name + " is a " + type.getSimpleName() + " property");
        }
    }
}
