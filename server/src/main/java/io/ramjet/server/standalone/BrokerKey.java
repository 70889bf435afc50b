package io.ramjet.server.standalone;

import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;

import java.io.UncheckedIOException;
import java.util.function.BiConsumer;

/**
 * One key of a broker's configuration, as documented in the key table of docs/configuration.md.
 *
 * @param name         the key, as written in a properties file or after {@code --set}
 * @param type         how its value is written
 * @param defaultValue what the key table shows as its default: a literal value, or a parenthesised
 *                     phrase when there is none
 * @param meaning      what it does, as the key table says
 * @param setter       puts a parsed value into a builder
 */
record BrokerKey<T>(String name, ValueType<T> type, String defaultValue, String meaning,
                    BiConsumer<BrokerConfigBuilder, T> setter) {

    /** Whether {@link #defaultValue()} is a value of the key (else a phrase such as "(none)"). */
    boolean hasLiteralDefault() {
        return !defaultValue.startsWith("(");
    }

    /**
     * Parses {@code value} and sets it.
     *
     * @throws ConfigException naming the key, the value and the accepted form
     */
    void apply(BrokerConfigBuilder builder, String value) {
        T parsed;
        try {
            parsed = type.parse().apply(value);
        } catch (UncheckedIOException e) {
            throw new ConfigException("broker property " + name + " = '" + value + "': " + e.getMessage()
                    + " (" + e.getCause() + "); expected " + type.form(), e);
        } catch (RuntimeException e) {
            throw new ConfigException("broker property " + name + " = '" + value + "' is not valid; expected "
                    + type.form(), e);
        }
        setter.accept(builder, parsed);
    }
}
