package io.ramjet.server.broker.security;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Artemis's wildcard syntax: {@code .} separates words, {@code *} is one word, {@code #} any number. */
class DestinationPatternTest {

    @Test
    void aLiteralMatchesItselfOnly() {
        DestinationPattern p = DestinationPattern.parse("orders.eu");
        assertTrue(p.matches("orders.eu"));
        assertFalse(p.matches("orders.eu.paris"));
        assertFalse(p.matches("orders"));
        assertFalse(p.matches("orders-eu"));
    }

    @Test
    void aStarMatchesExactlyOneWord() {
        DestinationPattern p = DestinationPattern.parse("orders.*");
        assertTrue(p.matches("orders.eu"));
        assertFalse(p.matches("orders"));
        assertFalse(p.matches("orders.eu.paris"));
        assertTrue(DestinationPattern.parse("*.eu").matches("orders.eu"));
    }

    @Test
    void aHashMatchesAnyNumberOfWordsNoneIncluded() {
        DestinationPattern p = DestinationPattern.parse("orders.#");
        assertTrue(p.matches("orders"));
        assertTrue(p.matches("orders.eu"));
        assertTrue(p.matches("orders.eu.paris"));
        assertFalse(p.matches("ordersx"));
        assertFalse(p.matches("billing.orders"));
        assertTrue(DestinationPattern.parse("#").matches("anything.at.all"));
        assertTrue(DestinationPattern.parse("#.paris").matches("orders.eu.paris"));
        assertTrue(DestinationPattern.parse("orders.#.paris").matches("orders.paris"));
    }

    @Test
    void aWildcardMustBeAWholeWord() {
        assertThrows(IllegalArgumentException.class, () -> DestinationPattern.parse("orders.e*"));
        assertThrows(IllegalArgumentException.class, () -> DestinationPattern.parse("orders#"));
        assertThrows(IllegalArgumentException.class, () -> DestinationPattern.parse(""));
    }

    @Test
    void aLiteralIsMoreSpecificThanAStarWhichIsMoreSpecificThanAHash() {
        long literal = DestinationPattern.parse("orders.eu").specificity();
        long star = DestinationPattern.parse("orders.*").specificity();
        long hash = DestinationPattern.parse("orders.#").specificity();
        long all = DestinationPattern.parse("#").specificity();
        assertTrue(literal > star && star > hash && hash > all);
        assertTrue(DestinationPattern.parse("orders.eu.#").specificity() > hash, "more literal words, more specific");
    }
}
