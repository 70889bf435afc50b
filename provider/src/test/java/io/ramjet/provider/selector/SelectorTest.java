package io.ramjet.provider.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.protocol.selector.SelectorSyntaxException;
import jakarta.jms.InvalidSelectorException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JMS face of the engine: what the grammar refuses is an InvalidSelectorException. */
class SelectorTest {

    @Test
    void anInvalidSelectorIsAnInvalidSelectorExceptionWithPositionAndReason() {
        InvalidSelectorException e = assertThrows(InvalidSelectorException.class,
                () -> Selector.compile("color = 'red' AND AND"));
        assertEquals("invalid selector \"color = 'red' AND AND\" at position 19: expected an identifier,"
                + " a literal or '(' but found 'AND'", e.getMessage());
        assertEquals(19, ((SelectorSyntaxException) e.getCause()).position());
    }

    @Test
    void aValidSelectorEvaluatesThroughTheEngine() throws Exception {
        Selector s = Selector.compile("color = 'red'");
        assertEquals("color = 'red'", s.text());
        assertTrue(s.matches(Map.of("color", "red")::get));
        assertFalse(s.matches(Map.of("color", "blue")::get));
        assertFalse(s.isEmpty());
    }

    @Test
    void nullOrBlankSelectsEverything() throws Exception {
        assertTrue(Selector.compile(null).isEmpty());
        assertTrue(Selector.compile("  ").matches(Map.<String, Object>of()::get));
    }
}
