package io.ramjet.protocol.selector;

/**
 * A message selector compiled once into an evaluator tree. Immutable and thread-safe: one
 * compiled selector serves every message of a consumer, on any thread. Evaluation reads
 * identifiers through a {@link PropertySource} and allocates nothing except for arithmetic
 * results. JMS-free, so the broker evaluates the same selectors as the client; the client maps
 * {@link SelectorSyntaxException} to {@code InvalidSelectorException}.
 */
public final class Selector {

    private static final Selector ALL = new Selector("", null);

    private final String text;
    private final Expr root;

    private Selector(String text, Expr root) {
        this.text = text;
        this.root = root;
    }

    /** Parses a selector; null or blank selects every message. */
    public static Selector parse(String selector) throws SelectorSyntaxException {
        if (selector == null || selector.isBlank()) {
            return ALL;
        }
        return new Selector(selector, Parser.parse(selector));
    }

    /** Whether this selector selects everything: no selector was given. */
    public boolean isEmpty() {
        return root == null;
    }

    public String text() {
        return text;
    }

    /** Whether the selector is TRUE for the message; FALSE and unknown both refuse it. */
    public boolean matches(PropertySource message) {
        return root == null || evaluate(message) == Boolean.TRUE;
    }

    /** The three-valued result: TRUE, FALSE, or null for unknown. */
    public Boolean evaluate(PropertySource message) {
        return root == null ? Boolean.TRUE : Expr.bool(root.evaluate(message));
    }

    Expr root() {
        return root;
    }

    @Override
    public String toString() {
        return text;
    }
}
