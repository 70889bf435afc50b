package io.ramjet.provider.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClientOptionsTest {

    @Test
    void withoutOptionsTheDefaultsHold() {
        ClientOptions options = ClientOptions.fromUrlOptions(Map.of(), Set.of());
        assertEquals(ClientOptions.DEFAULTS, options);
        assertEquals(64, options.prefetch());
        assertEquals(300, options.pullHoldMillis());
        assertEquals(2_000, options.discoveryMillis());
        assertEquals(1024, options.acksInFlight());
    }

    @Test
    void anOptionSetsItsTunable() {
        ClientOptions options = ClientOptions.fromUrlOptions(Map.of("prefetch", "8", "pullHoldMillis", "50"), Set.of());
        assertEquals(8, options.prefetch());
        assertEquals(50, options.pullHoldMillis());
        assertEquals(500, options.resubscribeMillis());
    }

    @Test
    void anUnknownOptionIsRefusedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RamjetConnectionFactory("ramjet://h:1?requestTimout=5"));
        assertTrue(e.getMessage().startsWith("unknown option requestTimout; known: "), e.getMessage());
        assertTrue(e.getMessage().contains("requestTimeout") && e.getMessage().contains("prefetch"), e.getMessage());
    }

    @Test
    void aMalformedValueIsRefusedNamingItsKeyAndTheAcceptedForm() {
        for (String option : new String[] {"requestTimeout=abc", "prefetch=-1", "discoveryMillis=", "acksInFlight=1e3"}) {
            String key = option.substring(0, option.indexOf('='));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new RamjetConnectionFactory("ramjet://h:1?" + option), option);
            assertTrue(e.getMessage().contains(key + "=<positive whole number>"), e.getMessage());
        }
    }
}
