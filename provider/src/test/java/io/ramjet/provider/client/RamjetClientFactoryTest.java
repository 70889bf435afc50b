package io.ramjet.provider.client;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.provider.message.SerializationAllowList;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RamjetClientFactoryTest {

    @Test
    void theRamjetSchemeIsRemotingBehindTheFailoverPolicy() {
        ConnectionInfo connection = new ConnectionInfo("c", List.of("127.0.0.1:1"), null, null, Duration.ofSeconds(1),
                SerializationAllowList.DEFAULT);
        try (RamjetClient client = RamjetClientFactory.forScheme("RAMJET").create(connection)) {
            assertInstanceOf(FailoverRamjetClient.class, client);
        }
    }

    @Test
    void aSchemeNoClientSpeaksIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> RamjetClientFactory.forScheme("amqp"));
    }
}
