package io.ramjet.server.broker.transaction;

import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.standalone.BrokerProperties;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TransactionSettingsTest {

    @Test
    void defaultsAreRocketMqs() {
        BrokerConfig config = BrokerConfig.defaults(Path.of("data"));
        assertEquals(Duration.ofSeconds(6), config.transactionCheckAfter());
        assertEquals(Duration.ofSeconds(5), config.transactionCheckInterval());
        assertEquals(15, config.transactionMaxChecks());
    }

    @Test
    void propertiesSetTheCheckBack() {
        Properties p = new Properties();
        p.setProperty("transactionCheckAfterMs", "1500");
        p.setProperty("transactionCheckIntervalMs", "250");
        p.setProperty("transactionMaxChecks", "4");
        BrokerConfig config = BrokerProperties.parse(p, Path.of("data"));
        assertEquals(Duration.ofMillis(1500), config.transactionCheckAfter());
        assertEquals(Duration.ofMillis(250), config.transactionCheckInterval());
        assertEquals(4, config.transactionMaxChecks());
    }

    @Test
    void aZeroIntervalIsRefused() {
        BrokerConfig config = BrokerConfig.defaults(Path.of("data"));
        assertThrows(IllegalArgumentException.class,
                () -> config.withTransactionChecks(Duration.ofSeconds(1), Duration.ZERO, 3));
    }
}
