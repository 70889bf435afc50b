package io.ramjet.server.broker.security;

import java.util.List;

/**
 * A destination name pattern with Artemis's wildcards: words separated by {@code .}, where
 * {@code *} matches exactly one word and {@code #} any number of words, none included
 * ({@code orders.#} matches {@code orders}, {@code orders.eu} and {@code orders.eu.paris}).
 * Patterns are ranked by {@link #specificity()} so that the most specific of those that match
 * a name decides, as Artemis's address settings do. Immutable.
 */
public final class DestinationPattern {

    private final String text;
    private final List<String> words;

    private DestinationPattern(String text) {
        this.text = text;
        this.words = List.of(text.split("\\.", -1));
    }

    /** @throws IllegalArgumentException for an empty pattern or a word mixing a wildcard with letters */
    public static DestinationPattern parse(String text) {
        if (text.isEmpty()) {
            throw new IllegalArgumentException("empty destination pattern");
        }
        for (String word : text.split("\\.", -1)) {
            if (word.length() > 1 && (word.contains("#") || word.contains("*"))) {
                throw new IllegalArgumentException("pattern '" + text + "': a wildcard must be a whole word, not '"
                        + word + "'");
            }
        }
        return new DestinationPattern(text);
    }

    public boolean matches(String name) {
        return matches(0, List.of(name.split("\\.", -1)), 0);
    }

    private boolean matches(int p, List<String> name, int n) {
        if (p == words.size()) {
            return n == name.size();
        }
        String word = words.get(p);
        if (word.equals("#")) {
            for (int skip = n; skip <= name.size(); skip++) {
                if (matches(p + 1, name, skip)) {
                    return true;
                }
            }
            return false;
        }
        return n < name.size() && (word.equals("*") || word.equals(name.get(n))) && matches(p + 1, name, n + 1);
    }

    /**
     * Greater for a more specific pattern: fewer {@code #}, then fewer {@code *}, then more
     * words. A literal name ranks above any pattern with a wildcard.
     */
    public long specificity() {
        long any = words.stream().filter("#"::equals).count();
        long one = words.stream().filter("*"::equals).count();
        return -any * 1_000_000L - one * 1_000L + words.size();
    }

    public boolean isMatchAll() {
        return text.equals("#");
    }

    @Override
    public String toString() {
        return text;
    }
}
