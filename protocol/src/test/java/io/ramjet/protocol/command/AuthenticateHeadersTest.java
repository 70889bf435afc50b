package io.ramjet.protocol.command;

import io.ramjet.protocol.frame.HeaderCodec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AuthenticateHeadersTest {

    private final HeaderCodec headers = new HeaderCodec();

    @Test
    void authenticateSurvivesARoundTrip() {
        AuthenticateRequest request = new AuthenticateRequest("alice", "wonderland");
        assertEquals(request, headers.decode(headers.encode(request)));
    }

    @Test
    void toStringShowsTheUserButNotThePassword() {
        String shown = new AuthenticateRequest("alice", "wonderland").toString();
        assertTrue(shown.contains("alice"), shown);
        assertFalse(shown.contains("wonderland"), shown);
    }
}
