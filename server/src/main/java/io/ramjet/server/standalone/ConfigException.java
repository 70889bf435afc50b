package io.ramjet.server.standalone;

/**
 * A configuration the broker refuses to start with: an unknown key, or a value not in the
 * accepted form. The message is the one line an operator needs: which key, which value, and what
 * would be accepted.
 */
public final class ConfigException extends IllegalArgumentException {

    ConfigException(String message) {
        super(message);
    }

    ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
