package io.ramjet.spring.boot;

/** The {@code ramjet://} URL the connection factory uses, when something other than the properties decides it (an embedded broker). */
public record RamjetBrokerUrl(String value) {
}
