package io.ramjet.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.Queue;
import java.util.Hashtable;
import javax.naming.Context;
import javax.naming.InitialContext;
import org.junit.jupiter.api.Test;

class JndiLookupTest extends EmbeddedBrokerTest {

    private static Hashtable<String, Object> embeddedBrokerEnvironment() {
        Hashtable<String, Object> environment = new Hashtable<>();
        environment.put(Context.PROVIDER_URL, url());
        return environment;
    }

    @Test
    void jndiPropertiesOnTheClasspathBindsTheFactoryAndTheQueue() throws Exception {
        Context jndi = new InitialContext(embeddedBrokerEnvironment());
        try {
            RamjetConnectionFactory bound = assertInstanceOf(RamjetConnectionFactory.class, jndi.lookup("ConnectionFactory"));
            assertEquals(url(), bound.getUrl());
            assertEquals("orders", assertInstanceOf(Queue.class, jndi.lookup("orders")).getQueueName());
        } finally {
            jndi.close();
        }
    }

    @Test
    void sendsAndReceivesThroughTheLookedUpObjects() throws Exception {
        assertEquals("order 7", JndiLookup.sendAndReceive(embeddedBrokerEnvironment(), "order 7"));
        assertQueueEmpty("orders");
    }

    @Test
    void mainRunsAgainstTheGivenUrl() throws Exception {
        JndiLookup.main(new String[] {url()});
        assertQueueEmpty("orders");
    }
}
