package io.ramjet.provider.selector;

import io.ramjet.protocol.selector.PropertySource;
import io.ramjet.protocol.selector.SelectorSyntaxException;
import jakarta.jms.InvalidSelectorException;

/**
 * A message selector as the JMS client holds it: the JMS-free engine's compiled selector
 * ({@link io.ramjet.protocol.selector.Selector}), refused with the {@link InvalidSelectorException}
 * the specification names. Immutable and thread-safe.
 */
public final class Selector {

    private final io.ramjet.protocol.selector.Selector engine;

    private Selector(io.ramjet.protocol.selector.Selector engine) {
        this.engine = engine;
    }

    /** Compiles a selector; null or blank selects every message. */
    public static Selector compile(String selector) throws InvalidSelectorException {
        try {
            return new Selector(io.ramjet.protocol.selector.Selector.parse(selector));
        } catch (SelectorSyntaxException e) {
            InvalidSelectorException jms = new InvalidSelectorException(e.getMessage());
            jms.initCause(e);
            throw jms;
        }
    }

    /** Whether this selector selects everything: no selector was given. */
    public boolean isEmpty() {
        return engine.isEmpty();
    }

    public String text() {
        return engine.text();
    }

    /** Whether the selector is TRUE for the message; FALSE and unknown both refuse it. */
    public boolean matches(PropertySource message) {
        return engine.matches(message);
    }

    @Override
    public String toString() {
        return engine.text();
    }
}
