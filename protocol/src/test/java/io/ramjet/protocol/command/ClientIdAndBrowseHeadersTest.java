package io.ramjet.protocol.command;

import io.ramjet.protocol.frame.HeaderCodec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ClientIdAndBrowseHeadersTest {

    private final HeaderCodec headers = new HeaderCodec();

    @Test
    void claimAndReleaseSurviveARoundTrip() {
        assertEquals(ClaimClientIdRequest.claim("app-1"), headers.decode(headers.encode(ClaimClientIdRequest.claim("app-1"))));
        assertEquals(ClaimClientIdRequest.release("app-1"),
                headers.decode(headers.encode(ClaimClientIdRequest.release("app-1"))));
    }

    @Test
    void browseRequestAndResponseSurviveARoundTrip() {
        BrowseRequest request = new BrowseRequest("orders", 2, 17, 64, "color = 'red'");
        assertEquals(request, headers.decode(headers.encode(request)));
        BrowseResponse response = new BrowseResponse(List.of(new PulledMessage(2, 17, 1, 90),
                new PulledMessage(2, 19, 3, 120)), 2, 20, false);
        assertEquals(response, headers.decode(headers.encode(response)));
        BrowseResponse last = new BrowseResponse(List.of(), 4, 0, true);
        assertEquals(last, headers.decode(headers.encode(last)));
    }

    @Test
    void malformedBrowsesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new BrowseRequest("q", 0, 0, 0, null));
        assertThrows(IllegalArgumentException.class, () -> new BrowseRequest("q", -1, 0, 1, null));
        assertThrows(NullPointerException.class, () -> new ClaimClientIdRequest(null, false));
    }
}
