package io.ramjet.provider.jndi;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.provider.jms.RamjetXAConnectionFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.naming.ConfigurationException;

/**
 * The factory a {@code connectionFactory.NAME} entry describes: a {@code ramjet://} URL whose
 * option {@code type} picks the kind, with Artemis's names: {@code CF} (the default),
 * {@code QUEUE_CF}, {@code TOPIC_CF} give a {@link RamjetConnectionFactory} (which is all three),
 * {@code XA_CF}, {@code QUEUE_XA_CF}, {@code TOPIC_XA_CF} a {@link RamjetXAConnectionFactory}.
 * The option belongs to the entry, not to the factory: it is removed from the URL the factory gets.
 */
final class ConnectionFactoryEntry {

    static final String TYPE = "type";

    private enum Type {
        CF, QUEUE_CF, TOPIC_CF, XA_CF, QUEUE_XA_CF, TOPIC_XA_CF;

        boolean xa() {
            return name().endsWith("XA_CF");
        }
    }

    private ConnectionFactoryEntry() {
    }

    /** @throws ConfigurationException naming {@code key} when the type or the URL is not valid */
    static RamjetConnectionFactory create(String key, String url) throws ConfigurationException {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        List<String> options = query < 0 ? List.of() : Arrays.asList(url.substring(query + 1).split("&"));
        Type type = Type.CF;
        StringBuilder rest = new StringBuilder(base);
        char separator = '?';
        for (String option : options) {
            if (option.startsWith(TYPE + "=")) {
                type = type(key, option.substring(TYPE.length() + 1));
            } else if (!option.isEmpty()) {
                rest.append(separator).append(option);
                separator = '&';
            }
        }
        try {
            return type.xa() ? new RamjetXAConnectionFactory(rest.toString()) : new RamjetConnectionFactory(rest.toString());
        } catch (IllegalArgumentException e) {
            throw failure(key + ": " + e.getMessage(), e);
        }
    }

    private static Type type(String key, String value) throws ConfigurationException {
        try {
            return Type.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw failure(key + ": unknown type '" + value + "'; accepted: "
                    + Arrays.stream(Type.values()).map(Type::name).collect(Collectors.joining(", ")), e);
        }
    }

    private static ConfigurationException failure(String message, Exception cause) {
        ConfigurationException failure = new ConfigurationException(message);
        failure.setRootCause(cause);
        return failure;
    }
}
