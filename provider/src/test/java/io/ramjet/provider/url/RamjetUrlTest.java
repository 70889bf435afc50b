package io.ramjet.provider.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RamjetUrlTest {

    @Test
    void oneNameServer() {
        assertEquals(List.of("localhost:9876"), RamjetUrl.parse("ramjet://localhost:9876").nameServers());
    }

    @Test
    void severalNameServersAndTheDefaultPort() {
        RamjetUrl u = RamjetUrl.parse("ramjet://a:1,b , c:3/");
        assertEquals(List.of("a:1", "b:9876", "c:3"), u.nameServers());
    }

    @Test
    void optionsAreDecodedInOrder() {
        RamjetUrl u = RamjetUrl.parse("ramjet://h:1?sendTimeout=500&allow=java.util%2Ccom.acme");
        assertEquals(Map.of("sendTimeout", "500", "allow", "java.util,com.acme"), u.options());
        assertEquals("ramjet://h:1?sendTimeout=500&allow=java.util,com.acme", u.toString());
    }

    @Test
    void theSchemeIgnoresCase() {
        assertEquals(List.of("h:2"), RamjetUrl.parse("RAMJET://h:2").nameServers());
    }

    @Test
    void badUrlsAreRefusedWithTheReason() {
        String[][] cases = {
            {"tcp://h:1", "starts with"}, {"ramjet://", "empty host"}, {"ramjet://h:1,", "empty host"},
            {"ramjet://h:x", "not a number"}, {"ramjet://h:0", "out of range"}, {"ramjet://h:70000", "out of range"},
            {"ramjet://:5", "empty host"}, {"ramjet://h:1?novalue", "key=value"}, {null, "starts with"},
        };
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RamjetUrl.parse(c[0]), c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[0] + ": " + e.getMessage());
        }
    }
}
