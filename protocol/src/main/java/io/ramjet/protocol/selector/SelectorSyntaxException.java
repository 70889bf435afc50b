package io.ramjet.protocol.selector;

/** A selector that does not follow the grammar; {@link #position()} is the 1-based column. */
public final class SelectorSyntaxException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int position;
    private final String reason;

    SelectorSyntaxException(String selector, int index, String reason) {
        super("invalid selector \"" + selector + "\" at position " + (index + 1) + ": " + reason);
        this.position = index + 1;
        this.reason = reason;
    }

    public int position() {
        return position;
    }

    public String reason() {
        return reason;
    }
}
